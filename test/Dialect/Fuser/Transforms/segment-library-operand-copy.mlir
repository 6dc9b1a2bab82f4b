// RUN: fuser-opt %s --fuser-segment | FileCheck %s
// RUN: fuser-opt %s --fuser-preseg --fuser-segment | FileCheck %s

// The rule: a library call reads each operand as a strided view of memory.
// An operand that is a chain of meta ops no strided view spells (a reshape
// merging dims a permute separated) gets a segment_set in front of the
// call, and a kernel writes it: never the call, whose segment holds its
// library op and strided views of its inputs only. Where the kernel writes
// the chain's value anyway (two calls read it, one transposed: the value
// is written once for its views), or the segment_set is of a fusion input,
// the segment_set is a view of memory that exists, and the call reads that
// memory: the library segment holds no segment_set. Issue 47: Thunder's
// Llama block backward, the QKV gradient permuted [0, 3, 1, 2, 4] and
// reshaped to [64, 192] for the weight gradient's matmul and, transposed,
// for the input gradient's; both segments failed ("formed a kernel that no
// template takes") with the segment_set inside the call's segment.

// Two calls read the reshaped permute, one through a transpose: the
// producer kernel writes the [3, 8] value once; the first call reads it as
// is, the second transposed (a stride of the call).
// CHECK-LABEL: func.func @two_readers
// CHECK: %[[P:.*]] = fuser.segment pointwise
// CHECK: fuser.neg
// CHECK: fuser.permute %{{.*}} [1, 0, 2]
// CHECK: %[[V:.*]] = fuser.view %{{.*}} : tensor<3x2x4xf32> -> tensor<3x8xf32>
// CHECK-NEXT: fuser.yield %[[V]] : tensor<3x8xf32>
// CHECK: fuser.segment library(%[[P]], %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.matmul
// CHECK-NEXT: fuser.yield
// CHECK: fuser.segment library(%[[P]], %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.permute %{{.*}} [1, 0] : tensor<3x8xf32> -> tensor<8x3xf32>
// CHECK-NEXT: fuser.matmul
// CHECK-NEXT: fuser.yield
// CHECK-NOT: fuser.segment
func.func @two_readers(%x: tensor<2x3x4xf32>, %w: tensor<8x5xf32>, %u: tensor<3x6xf32>) -> (tensor<3x5xf32>, tensor<8x6xf32>) {
  %a = fuser.neg %x : tensor<2x3x4xf32>
  %p = fuser.permute %a [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %v = fuser.view %p : tensor<3x2x4xf32> -> tensor<3x8xf32>
  %0 = fuser.matmul %v, %w : tensor<3x8xf32>, tensor<8x5xf32> -> tensor<3x5xf32>
  %t = fuser.permute %v [1, 0] : tensor<3x8xf32> -> tensor<8x3xf32>
  %1 = fuser.matmul %t, %u : tensor<8x3xf32>, tensor<3x6xf32> -> tensor<8x6xf32>
  return %0, %1 : tensor<3x5xf32>, tensor<8x6xf32>
}

// Not absorbed: one call reads the reshaped permute, which no strided view
// of the kernel's values spells: the producer kernel writes it through the
// segment_set, the call reads what the kernel wrote.
// CHECK-LABEL: func.func @one_reader
// CHECK: %[[P:.*]] = fuser.segment pointwise
// CHECK: fuser.neg
// CHECK: fuser.permute
// CHECK: fuser.view
// CHECK: %[[S:.*]] = fuser.segment_set
// CHECK-NEXT: fuser.yield %[[S]] : tensor<3x8xf32>
// CHECK: fuser.segment library(%[[P]], %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.matmul
// CHECK-NEXT: fuser.yield
// CHECK-NOT: fuser.segment
func.func @one_reader(%x: tensor<2x3x4xf32>, %w: tensor<8x5xf32>) -> tensor<3x5xf32> {
  %a = fuser.neg %x : tensor<2x3x4xf32>
  %p = fuser.permute %a [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %v = fuser.view %p : tensor<3x2x4xf32> -> tensor<3x8xf32>
  %0 = fuser.matmul %v, %w : tensor<3x8xf32>, tensor<8x5xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// Not absorbed either: one call reads the reshaped permute transposed; the
// kernel writes the transpose, the call holds no meta op.
// CHECK-LABEL: func.func @one_transposed_reader
// CHECK: %[[P:.*]] = fuser.segment pointwise
// CHECK: fuser.permute %{{.*}} [1, 0] : tensor<3x8xf32> -> tensor<8x3xf32>
// CHECK: %[[S:.*]] = fuser.segment_set
// CHECK-NEXT: fuser.yield %[[S]] : tensor<8x3xf32>
// CHECK: fuser.segment library(%[[P]], %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.matmul
// CHECK-NEXT: fuser.yield
func.func @one_transposed_reader(%x: tensor<2x3x4xf32>, %u: tensor<3x6xf32>) -> tensor<8x6xf32> {
  %a = fuser.neg %x : tensor<2x3x4xf32>
  %p = fuser.permute %a [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %v = fuser.view %p : tensor<3x2x4xf32> -> tensor<3x8xf32>
  %t = fuser.permute %v [1, 0] : tensor<3x8xf32> -> tensor<8x3xf32>
  %1 = fuser.matmul %t, %u : tensor<8x3xf32>, tensor<3x6xf32> -> tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}

// A segment_set of a fusion input is the input: the call reads it, no
// kernel copies it.
// CHECK-LABEL: func.func @set_of_input
// CHECK-NEXT: fuser.segment library(%arg0, %arg1)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.matmul
// CHECK-NEXT: fuser.yield
// CHECK-NOT: fuser.segment
func.func @set_of_input(%x: tensor<3x8xf32>, %w: tensor<8x5xf32>) -> tensor<3x5xf32> {
  %s = fuser.segment_set %x : tensor<3x8xf32>
  %0 = fuser.matmul %s, %w : tensor<3x8xf32>, tensor<8x5xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// A kernel keeps a segment_set of an input: only library segments read
// through it (a kernel of ops it emits, the segment_set among them).
// CHECK-LABEL: func.func @set_of_input_in_kernel
// CHECK: fuser.segment pointwise
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.segment_set
// CHECK-NEXT: fuser.neg
func.func @set_of_input_in_kernel(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %s = fuser.segment_set %x : tensor<3x8xf32>
  %0 = fuser.neg %s : tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}
