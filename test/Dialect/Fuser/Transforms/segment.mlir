// RUN: fuser-opt --fuser-segment=normalization=false -split-input-file %s | FileCheck %s
// Segmenting twice equals segmenting once.
// RUN: fuser-opt --fuser-segment=normalization=false -split-input-file %s | fuser-opt --fuser-segment=normalization=false -split-input-file | FileCheck %s
//
// Each rule of docs/Segmentation.md, with cases that must and must not merge.

// The Mistral chain after preseg: the view/cast prologue and the
// cast/permute/view epilogue join the reduction, which writes the result in
// its final layout. One kernel.
// CHECK-LABEL: func.func @mistral
// CHECK-SAME: (%[[X:.*]]: tensor<1x32x4096x128xbf16>)
// CHECK: %[[R:.*]] = fuser.segment reduction(%[[X]]) : (tensor<1x32x4096x128xbf16>) -> tensor<1x4096x1024xbf16> {
// CHECK: fuser.view
// CHECK: fuser.cast
// CHECK: fuser.reduction add
// CHECK: fuser.cast
// CHECK: fuser.permute
// CHECK: fuser.view
// CHECK: fuser.yield
// CHECK-NOT: fuser.segment
// CHECK: return %[[R]]
func.func @mistral(%arg0: tensor<1x32x4096x128xbf16>) -> tensor<1x4096x1024xbf16> {
  %0 = fuser.view %arg0 : tensor<1x32x4096x128xbf16> -> tensor<8x4x4096x128xbf16>
  %1 = fuser.cast %0 : tensor<8x4x4096x128xbf16> to tensor<8x4x4096x128xf32>
  %2 = fuser.reduction add %1 [1] : tensor<8x4x4096x128xf32> -> tensor<8x4096x128xf32>
  %3 = fuser.cast %2 : tensor<8x4096x128xf32> to tensor<8x4096x128xbf16>
  %4 = fuser.permute %3 [1, 0, 2] : tensor<8x4096x128xbf16> -> tensor<4096x8x128xbf16>
  %5 = fuser.view %4 : tensor<4096x8x128xbf16> -> tensor<1x4096x1024xbf16>
  return %5 : tensor<1x4096x1024xbf16>
}

// -----

// Must merge: a pointwise chain is one kernel; the scalar constant is cloned
// into it, since segments are isolated from above.
// CHECK-LABEL: func.func @pointwise_chain
// CHECK-NOT: arith.constant
// CHECK: fuser.segment pointwise(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.constant 2.0
// CHECK-NOT: fuser.segment
// CHECK: return
func.func @pointwise_chain(%x: tensor<4x8xf32>, %y: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %c = arith.constant 2.0 : f32
  %0 = fuser.exp %x : tensor<4x8xf32>
  %1 = fuser.mul %0, %y : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  %2 = fuser.add %1, %c : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// Must not merge: segment_set is a hard boundary. Its producer's kernel
// writes it; the consumer is a second kernel.
// CHECK-LABEL: func.func @segment_set_boundary
// CHECK: %[[A:.*]] = fuser.segment pointwise
// CHECK: fuser.exp
// CHECK: fuser.segment_set
// CHECK: %[[B:.*]] = fuser.segment pointwise(%[[A]])
// CHECK: fuser.neg
// CHECK-NOT: fuser.segment
// CHECK: return %[[B]]
func.func @segment_set_boundary(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fuser.exp %x : tensor<4x8xf32>
  %1 = fuser.segment_set %0 : tensor<4x8xf32>
  %2 = fuser.neg %1 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A segment_set of a fusion input copies memory that already exists: no
// kernel of its own; the consumer reads the input through it.
// CHECK-LABEL: func.func @segment_set_of_input
// CHECK: fuser.segment pointwise(%arg0)
// CHECK: fuser.segment_set
// CHECK: fuser.neg
// CHECK-NOT: fuser.segment
// CHECK: return
func.func @segment_set_of_input(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fuser.segment_set %x : tensor<4x8xf32>
  %1 = fuser.neg %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Must merge: two reductions over the same axes of the same tensor share a
// kernel and read it once.
// CHECK-LABEL: func.func @same_axes
// CHECK: %[[R:.*]]:2 = fuser.segment reduction(%arg0) : (tensor<8x4xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK: fuser.reduction add
// CHECK: fuser.reduction max
// CHECK-NOT: fuser.segment
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @same_axes(%x: tensor<8x4xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = fuser.reduction add %x [1] : tensor<8x4xf32> -> tensor<8xf32>
  %1 = fuser.reduction max %x [1] : tensor<8x4xf32> -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Must not merge: reductions over different axes are two kernels. The shared
// exp of an input is recomputed by the second (rule 10) instead of being
// written and read back.
// CHECK-LABEL: func.func @different_axes
// CHECK: %[[A:.*]] = fuser.segment reduction(%arg0) : (tensor<8x4xf32>) -> tensor<4xf32>
// CHECK: fuser.exp
// CHECK: fuser.reduction add %{{.*}} [0]
// CHECK: %[[B:.*]] = fuser.segment reduction(%arg0) : (tensor<8x4xf32>) -> tensor<8xf32>
// CHECK: fuser.exp
// CHECK: fuser.reduction add %{{.*}} [1]
// CHECK-NOT: fuser.segment
// CHECK: return %[[A]], %[[B]]
func.func @different_axes(%x: tensor<8x4xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  %e = fuser.exp %x : tensor<8x4xf32>
  %0 = fuser.reduction add %e [0] : tensor<8x4xf32> -> tensor<4xf32>
  %1 = fuser.reduction add %e [1] : tensor<8x4xf32> -> tensor<8xf32>
  return %0, %1 : tensor<4xf32>, tensor<8xf32>
}

// -----

// A value computed from two inputs is recomputed by the second kernel too
// (rule 10): reading both inputs again costs no more bytes than writing the
// sum and reading it back.
// CHECK-LABEL: func.func @different_axes_binary
// CHECK: %[[A:.*]] = fuser.segment reduction(%arg0, %arg1) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<4xf32>
// CHECK: fuser.add
// CHECK: fuser.reduction add %{{.*}} [0]
// CHECK: %[[B:.*]] = fuser.segment reduction(%arg0, %arg1)
// CHECK: fuser.add
// CHECK: fuser.reduction add %{{.*}} [1]
// CHECK-NOT: fuser.segment
// CHECK: return %[[A]], %[[B]]
func.func @different_axes_binary(%x: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  %e = fuser.add %x, %y : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  %0 = fuser.reduction add %e [0] : tensor<8x4xf32> -> tensor<4xf32>
  %1 = fuser.reduction add %e [1] : tensor<8x4xf32> -> tensor<8xf32>
  return %0, %1 : tensor<4xf32>, tensor<8xf32>
}

// -----

// Must not merge: a reduction of a reduction's result.
// CHECK-LABEL: func.func @reduction_of_reduction
// CHECK: %[[A:.*]] = fuser.segment reduction(%arg0)
// CHECK: %[[B:.*]] = fuser.segment reduction(%[[A]])
// CHECK-NOT: fuser.segment
// CHECK: return %[[B]]
func.func @reduction_of_reduction(%x: tensor<8x4xf32>) -> tensor<f32> {
  %0 = fuser.reduction add %x [1] : tensor<8x4xf32> -> tensor<8xf32>
  %1 = fuser.reduction add %0 [0] : tensor<8xf32> -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// Must not merge: the normalization pattern. The sub over the full domain,
// which also reads the reduction's input, is a second kernel. The broadcast
// (same element count as the reduction) is a view of the reduction's
// result, which the first kernel writes (rule 6) and the second reads
// through the broadcast.
// CHECK-LABEL: func.func @normalization
// CHECK: %[[A:.*]] = fuser.segment reduction(%arg0) : (tensor<8x4xf32>) -> tensor<8xf32>
// CHECK: fuser.reduction max
// CHECK: %[[B:.*]] = fuser.segment pointwise(%arg0, %[[A]])
// CHECK: fuser.broadcast
// CHECK: fuser.sub
// CHECK-NOT: fuser.segment
// CHECK: return %[[B]]
func.func @normalization(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.reduction max %x [1] : tensor<8x4xf32> -> tensor<8xf32>
  %1 = fuser.broadcast %0 [1] : tensor<8xf32> -> tensor<8x1xf32>
  %2 = fuser.sub %x, %1 : tensor<8x4xf32>, tensor<8x1xf32> -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// -----

// An expand grows the reduction's result, so it leaves the reduction kernel;
// as a view of the written result (stride 0) it is an alias, not a kernel.
// The kernel writes the reduced rows without their extent-1 axis.
// CHECK-LABEL: func.func @expand_of_reduction
// CHECK: %[[A:.*]] = fuser.segment reduction(%arg0) : (tensor<8x4xf32>) -> tensor<8xf32>
// CHECK: %[[B:.*]] = fuser.segment alias(%[[A]]) : (tensor<8xf32>) -> tensor<8x4xf32>
// CHECK: fuser.broadcast
// CHECK: fuser.expand
// CHECK-NOT: fuser.segment
// CHECK: return %[[B]]
func.func @expand_of_reduction(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.reduction add %x [1] keepdim : tensor<8x4xf32> -> tensor<8x1xf32>
  %1 = fuser.expand %0 : tensor<8x1xf32> -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// Must not merge: the mul reads the cast directly and through the second
// reduction, so joining it to the cast's kernel would make that kernel
// depend on itself. (Recomputing the f16 cast from the f64 input would read
// four times its bytes, so every kernel reads the written cast, rule 10.)
// CHECK-LABEL: func.func @no_cycle
// CHECK: %[[A:.*]]:2 = fuser.segment reduction(%arg0) : (tensor<8x4xf64>) -> (tensor<8x4xf16>, tensor<8xf16>)
// CHECK: %[[B:.*]] = fuser.segment reduction(%[[A]]#0)
// CHECK: %[[C:.*]] = fuser.segment pointwise(%[[A]]#0, %[[B]])
// CHECK-NOT: fuser.segment
// CHECK: return %[[A]]#1, %[[C]]
func.func @no_cycle(%x: tensor<8x4xf64>) -> (tensor<8xf16>, tensor<8x4xf16>) {
  %a = fuser.cast %x : tensor<8x4xf64> to tensor<8x4xf16>
  %s1 = fuser.reduction add %a [1] : tensor<8x4xf16> -> tensor<8xf16>
  %s2 = fuser.reduction add %a [0] keepdim : tensor<8x4xf16> -> tensor<1x4xf16>
  %t = fuser.mul %a, %s2 : tensor<8x4xf16>, tensor<1x4xf16> -> tensor<8x4xf16>
  return %s1, %t : tensor<8xf16>, tensor<8x4xf16>
}

// -----

// The same with an add of two inputs, which each kernel recomputes
// (rule 10): then the mul no longer depends on the first reduction's
// kernel, and the planned kernels merge (rule 9 after rule 10).
// CHECK-LABEL: func.func @cycle_removed_by_recomputing
// CHECK: %[[B:.*]] = fuser.segment reduction(%arg0, %arg1) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<4xf32>
// CHECK: fuser.reduction add %{{.*}} [0] :
// CHECK: %[[A:.*]]:2 = fuser.segment reduction(%arg0, %arg1, %[[B]])
// CHECK: fuser.reduction add %{{.*}} [1]
// CHECK: fuser.mul
// CHECK-NOT: fuser.segment
// CHECK: return %[[A]]#0, %[[A]]#1
func.func @cycle_removed_by_recomputing(%x: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> (tensor<8xf32>, tensor<8x4xf32>) {
  %a = fuser.add %x, %y : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  %s1 = fuser.reduction add %a [1] : tensor<8x4xf32> -> tensor<8xf32>
  %s2 = fuser.reduction add %a [0] keepdim : tensor<8x4xf32> -> tensor<1x4xf32>
  %t = fuser.mul %a, %s2 : tensor<8x4xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
  return %s1, %t : tensor<8xf32>, tensor<8x4xf32>
}

// -----

// The cycle runs through a kernel, not an op: with %g joining %b (which %c
// reads) to %a (which reads %p) in one pointwise kernel, %c joining the
// reduction %p would make each kernel wait for the other. Here %c joins the
// reduction kernel and each kernel computes %b from %y itself, so the
// pointwise kernel reads the reduction's output and nothing leads back.
// Not optimal: the rule-based segmenter fuser-segment replaced found 2 kernels / 112 bytes
// (greedy merge order), 116 now.
// CHECK-LABEL: func.func @cycle_through_kernel
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<1xf32>)
// CHECK: %[[R:.*]]:2 = fuser.segment reduction(%[[X]], %[[Y]]) : (tensor<8xf32>, tensor<1xf32>) -> (tensor<f32>, tensor<1xf32>) {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.reduction max
// CHECK-NEXT: fuser.squeeze
// CHECK-NEXT: fuser.neg
// CHECK-NEXT: fuser.mul
// CHECK-NEXT: fuser.broadcast
// CHECK-NEXT: fuser.yield
// CHECK: %[[P:.*]] = fuser.segment pointwise(%[[X]], %[[R]]#0, %[[Y]]) : (tensor<8xf32>, tensor<f32>, tensor<1xf32>) -> tensor<8xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.broadcast
// CHECK-NEXT: fuser.squeeze
// CHECK-NEXT: fuser.neg
// CHECK-NEXT: fuser.broadcast
// CHECK-NEXT: fuser.sub
// CHECK-NEXT: fuser.add
// CHECK-NEXT: fuser.yield
// CHECK-NOT: fuser.segment
// CHECK: return %[[P]], %[[R]]#1
func.func @cycle_through_kernel(%x: tensor<8xf32>, %y: tensor<1xf32>) -> (tensor<8xf32>, tensor<1xf32>) {
  %p = fuser.reduction max %x [0] keepdim : tensor<8xf32> -> tensor<1xf32>
  %b = fuser.neg %y : tensor<1xf32>
  %a = fuser.sub %x, %p : tensor<8xf32>, tensor<1xf32> -> tensor<8xf32>
  %g = fuser.add %a, %b : tensor<8xf32>, tensor<1xf32> -> tensor<8xf32>
  %c = fuser.mul %p, %b : tensor<1xf32>, tensor<1xf32> -> tensor<1xf32>
  return %g, %c : tensor<8xf32>, tensor<1xf32>
}

// -----

// Sibling reductions of %x over the same axes. %e joins the %max kernel
// through %n; that kernel then reads %min (through %d) and the %sum kernel
// reads %max, so %min may join neither (the cycle leaves through %d, an op
// after both reductions, and comes back through %max, an op before them):
// three reduction kernels, none waiting for itself.
// Not optimal: the rule-based segmenter fuser-segment replaced found 2 kernels / 116 bytes (greedy merge order).
// CHECK-LABEL: func.func @sibling_cycle
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK: %[[MIN:.*]] = fuser.segment reduction(%[[X]]) : (tensor<8xf32>) -> tensor<f32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.reduction min
// CHECK-NEXT: fuser.yield
// CHECK: %[[MAX:.*]]:2 = fuser.segment reduction(%[[X]], %[[MIN]]) : (tensor<8xf32>, tensor<f32>) -> (tensor<f32>, tensor<8xf32>) {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.neg
// CHECK-NEXT: fuser.reduction max
// CHECK-NEXT: fuser.broadcast
// CHECK-NEXT: fuser.sub
// CHECK-NEXT: fuser.add
// CHECK-NEXT: fuser.yield
// CHECK: %[[SUM:.*]] = fuser.segment reduction(%[[X]], %[[MAX]]#0) : (tensor<8xf32>, tensor<f32>) -> tensor<f32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.broadcast
// CHECK-NEXT: fuser.sub
// CHECK-NEXT: fuser.reduction add
// CHECK-NEXT: fuser.yield
// CHECK-NOT: fuser.segment
// CHECK: return %[[SUM]], %[[MAX]]#1
func.func @sibling_cycle(%x: tensor<8xf32>) -> (tensor<f32>, tensor<8xf32>) {
  %n = fuser.neg %x : tensor<8xf32>
  %max = fuser.reduction max %n [0] keepdim : tensor<8xf32> -> tensor<1xf32>
  %c = fuser.sub %x, %max : tensor<8xf32>, tensor<1xf32> -> tensor<8xf32>
  %sum = fuser.reduction add %c [0] : tensor<8xf32> -> tensor<f32>
  %min = fuser.reduction min %x [0] keepdim : tensor<8xf32> -> tensor<1xf32>
  %d = fuser.sub %x, %min : tensor<8xf32>, tensor<1xf32> -> tensor<8xf32>
  %e = fuser.add %d, %n : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  return %sum, %e : tensor<f32>, tensor<8xf32>
}

// -----

// A fusion that only squeezes, permutes, reshapes, broadcasts and expands
// its input launches no kernel: one alias segment.
// CHECK-LABEL: func.func @views_only
// CHECK: %[[A:.*]]:4 = fuser.segment alias(%arg0)
// CHECK-NOT: fuser.segment
// CHECK: return %[[A]]#0, %[[A]]#1, %[[A]]#2, %[[A]]#3
func.func @views_only(%x: tensor<2x3x1xf32>) -> (tensor<3x2xf32>, tensor<6xf32>, tensor<1x2x3x1xf32>, tensor<2x3x4xf32>) {
  %0 = fuser.squeeze %x [2] : tensor<2x3x1xf32> -> tensor<2x3xf32>
  %1 = fuser.permute %0 [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %2 = fuser.view %x : tensor<2x3x1xf32> -> tensor<6xf32>
  %3 = fuser.broadcast %x [0] : tensor<2x3x1xf32> -> tensor<1x2x3x1xf32>
  %4 = fuser.expand %x : tensor<2x3x1xf32> -> tensor<2x3x4xf32>
  return %1, %2, %3, %4 : tensor<3x2xf32>, tensor<6xf32>, tensor<1x2x3x1xf32>, tensor<2x3x4xf32>
}

// -----

// A view that merges dims a permute separated is no strided view of the
// input: it needs a (pointwise) copy kernel.
// CHECK-LABEL: func.func @view_needs_copy
// CHECK: fuser.segment pointwise(%arg0)
// CHECK: fuser.permute
// CHECK: fuser.view
// CHECK-NOT: fuser.segment
// CHECK: return
func.func @view_needs_copy(%x: tensor<2x3x4xf32>) -> tensor<3x8xf32> {
  %0 = fuser.permute %x [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %1 = fuser.view %0 : tensor<3x2x4xf32> -> tensor<3x8xf32>
  return %1 : tensor<3x8xf32>
}

// -----

// add(x, x) returned both plain and permuted: one kernel writes the sum, an
// alias segment presents it permuted (no second write).
// CHECK-LABEL: func.func @add_twice
// CHECK: %[[S:.*]] = fuser.segment pointwise(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: fuser.add
// CHECK: %[[P:.*]] = fuser.segment alias(%[[S]]) : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK: fuser.permute
// CHECK-NOT: fuser.segment
// CHECK: return %[[S]], %[[P]]
func.func @add_twice(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %0 = fuser.add %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = fuser.permute %0 [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<8x4xf32>
}

// -----

// A view of an input is read through by every kernel that needs it (cloned
// into each), never written.
// CHECK-LABEL: func.func @input_view_read_by_two_kernels
// CHECK: fuser.segment reduction(%arg0)
// CHECK: fuser.permute
// CHECK: fuser.segment reduction(%arg0)
// CHECK: fuser.permute
// CHECK-NOT: fuser.segment
// CHECK: return
func.func @input_view_read_by_two_kernels(%x: tensor<8x4xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0 = fuser.permute %x [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %1 = fuser.reduction add %0 [0] : tensor<4x8xf32> -> tensor<8xf32>
  %2 = fuser.reduction max %0 [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %1, %2 : tensor<8xf32>, tensor<4xf32>
}

// -----

// Returning an input needs no segment.
// CHECK-LABEL: func.func @passthrough
// CHECK-NOT: fuser.segment
// CHECK: return %arg0
func.func @passthrough(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// A scalar function argument (nvFuser's define_scalar input) is a segment
// input; scalar arithmetic on it is cloned into the segment that uses it.
// CHECK-LABEL: func.func @scalar_argument
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[S:.*]]: f32)
// CHECK: %[[R:.*]] = fuser.segment reduction(%[[X]], %[[S]]) : (tensor<4x8xf32>, f32) -> tensor<4xf32> {
// CHECK: arith.mulf
// CHECK: fuser.yield
// CHECK-NOT: fuser.segment
// CHECK: return %[[R]]
func.func @scalar_argument(%x: tensor<4x8xf32>, %s: f32) -> tensor<4xf32> {
  %c = arith.constant 2.0 : f32
  %t = arith.mulf %s, %c : f32
  %0 = fuser.mul %x, %t : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
  %1 = fuser.reduction add %0 [1] : tensor<4x8xf32> -> tensor<4xf32>
  %2 = fuser.add %1, %s : tensor<4xf32>, f32 -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
