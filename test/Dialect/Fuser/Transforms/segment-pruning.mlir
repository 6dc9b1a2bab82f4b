// Segments keep only what someone uses (SegmentPruning.h): a kernel plans
// its ops before rule 10 decides who recomputes what, so without pruning it
// kept ops, writes and reads that only a value now recomputed elsewhere
// needed.
//
// RUN: fuser-opt --fuser-segment=normalization=false %s | FileCheck %s

// Rule: an op no output needs goes: the pointwise kernel recomputes the
// f64 cast of the sum (rule 10), so the reduction kernel computes the sum
// alone (it kept the cast before).
// CHECK-LABEL: func.func @recomputed_cast_not_kept
// CHECK: fuser.segment reduction
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.squeeze
// CHECK-NEXT: fuser.reduction add
// CHECK-NEXT: fuser.yield
// CHECK: fuser.segment pointwise
// CHECK: fuser.cast %{{.*}} : tensor<f32> to tensor<f64>
func.func @recomputed_cast_not_kept(%x: tensor<1x4xf32>) -> (tensor<1xf32>, tensor<1x4xf64>) {
  %r = fuser.reduction add %x [1] : tensor<1x4xf32> -> tensor<1xf32>
  %c = fuser.cast %r : tensor<1xf32> to tensor<1xf64>
  %b = fuser.broadcast %c [1] : tensor<1xf64> -> tensor<1x1xf64>
  %y = fuser.cast %x : tensor<1x4xf32> to tensor<1x4xf64>
  %p = fuser.pow %y, %b : tensor<1x4xf64>, tensor<1x1xf64> -> tensor<1x4xf64>
  return %r, %p : tensor<1xf32>, tensor<1x4xf64>
}

// Neighbour: the cast is returned too, so the reduction kernel computes and
// writes it.
// CHECK-LABEL: func.func @returned_cast_kept
// CHECK: fuser.segment reduction
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.squeeze
// CHECK-NEXT: fuser.reduction add
// CHECK-NEXT: fuser.cast
// CHECK-NEXT: fuser.broadcast
// CHECK-NEXT: fuser.yield
func.func @returned_cast_kept(%x: tensor<1x4xf32>) -> (tensor<1xf64>, tensor<1x4xf64>) {
  %r = fuser.reduction add %x [1] : tensor<1x4xf32> -> tensor<1xf32>
  %c = fuser.cast %r : tensor<1xf32> to tensor<1xf64>
  %b = fuser.broadcast %c [1] : tensor<1xf64> -> tensor<1x1xf64>
  %y = fuser.cast %x : tensor<1x4xf32> to tensor<1x4xf64>
  %p = fuser.pow %y, %b : tensor<1x4xf64>, tensor<1x1xf64> -> tensor<1x4xf64>
  return %c, %p : tensor<1xf64>, tensor<1x4xf64>
}
