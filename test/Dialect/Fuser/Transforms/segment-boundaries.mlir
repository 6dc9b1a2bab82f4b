// RUN: fuser-opt --fuser-segment -split-input-file %s | FileCheck %s
// RUN: fuser-opt --fuser-segment %s -o %t.mlir
// RUN: fuser-run %s --entry sibling_reduction_reads_segment_set --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry operand_next_to_segment_set --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
//
// segment_set is a hard boundary (docs/Segmentation.md, rule 1) whichever
// edge would bring a reader of it into its producer's kernel.

// EXEC: check 0: {{.*}} ulp ok

// Must not merge: the add reads the first reduction's segment_set, so it may
// not join that reduction's kernel. The two reductions read the same tensor
// over the same axes and share a kernel (which writes the segment_set and
// the max); the add is a second kernel that reads both.
// CHECK-LABEL: func.func @sibling_reduction_reads_segment_set
// CHECK: %[[A:.*]]:2 = fuser.segment reduction(%arg0) : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: fuser.reduction add
// CHECK: fuser.segment_set
// CHECK: fuser.reduction max
// CHECK-NOT: fuser.add
// CHECK: fuser.yield
// CHECK: %[[B:.*]] = fuser.segment pointwise(%[[A]]#0, %[[A]]#1)
// CHECK: fuser.add
// CHECK-NOT: fuser.segment
// CHECK: return %[[B]]
func.func @sibling_reduction_reads_segment_set(%v: tensor<4x8xf32>) -> tensor<4xf32> {
  %r1 = fuser.reduction add %v [1] : tensor<4x8xf32> -> tensor<4xf32>
  %s = fuser.segment_set %r1 : tensor<4xf32>
  %r2 = fuser.reduction max %v [1] : tensor<4x8xf32> -> tensor<4xf32>
  %t = fuser.add %s, %r2 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %t : tensor<4xf32>
}

// -----

// Must not merge: the add reads the segment_set and, through its other
// operand, the segment_set's producer. It is a second kernel, which reads
// the written exp.
// CHECK-LABEL: func.func @operand_next_to_segment_set
// CHECK: %[[A:.*]] = fuser.segment pointwise(%arg0)
// CHECK: fuser.exp
// CHECK-NOT: fuser.add
// CHECK: fuser.yield
// CHECK: %[[B:.*]] = fuser.segment pointwise(%[[A]])
// CHECK: fuser.add
// CHECK: return %[[B]]
func.func @operand_next_to_segment_set(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = fuser.exp %x : tensor<4x8xf32>
  %s = fuser.segment_set %a : tensor<4x8xf32>
  %b = fuser.add %s, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

// Must not merge (rule 5): the expand of the reduction result has 2^64
// elements, more than the reduction's 4, although the count wraps to 0 in
// 64 bits.
// CHECK-LABEL: func.func @broadcast_back_huge
// CHECK: %[[R:.*]] = fuser.segment reduction(%arg0)
// CHECK-NOT: fuser.expand
// CHECK: fuser.yield
// CHECK: fuser.segment pointwise(%[[R]])
// CHECK: fuser.expand
func.func @broadcast_back_huge(%x: tensor<4x8xf32>) -> tensor<4x4611686018427387904xf32> {
  %r = fuser.reduction add %x [1] : tensor<4x8xf32> -> tensor<4xf32>
  %b = fuser.broadcast %r [1] : tensor<4xf32> -> tensor<4x1xf32>
  %e = fuser.expand %b : tensor<4x1xf32> -> tensor<4x4611686018427387904xf32>
  %n = fuser.neg %e : tensor<4x4611686018427387904xf32>
  return %n : tensor<4x4611686018427387904xf32>
}
