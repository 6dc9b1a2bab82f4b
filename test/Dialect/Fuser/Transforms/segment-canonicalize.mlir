// RUN: fuser-opt %s --canonicalize -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize="top-down=false" -split-input-file | FileCheck %s

// Canonicalizing segmented IR. A set a segment yields goes like any other:
// the segment's kind, not a set, says whether its results are written (a
// pointwise segment writes each result, so this one still copies).
// CHECK-LABEL: func.func @yielded_set_goes(
// CHECK: fuser.segment pointwise
// CHECK-NEXT: ^bb0(%[[A:[a-zA-Z0-9_]+]]: tensor<8x4xf32>):
// CHECK-NEXT: fuser.yield %[[A]] : tensor<8x4xf32>
func.func @yielded_set_goes(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.segment pointwise (%x) : (tensor<8x4xf32>) -> tensor<8x4xf32> {
  ^bb0(%a: tensor<8x4xf32>):
    %s = fuser.set %a : tensor<8x4xf32>
    fuser.yield %s : tensor<8x4xf32>
  }
  return %0 : tensor<8x4xf32>
}

// -----

// A hinted set inside a segment reads the segment's argument, i.e. the
// operand the segment is bound to: here a fusion input, which keeps the hint.
// CHECK-LABEL: func.func @hint_in_segment(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<8x4xf32> {fuser.cache_op = #fuser<cache_op streaming>})
// CHECK: ^bb0(%[[A:[a-zA-Z0-9_]+]]: tensor<8x4xf32>):
// CHECK-NEXT: %[[N:[a-zA-Z0-9_]+]] = fuser.neg %[[A]] : tensor<8x4xf32>
// CHECK-NEXT: fuser.yield %[[N]] : tensor<8x4xf32>
func.func @hint_in_segment(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.segment pointwise (%x) : (tensor<8x4xf32>) -> tensor<8x4xf32> {
  ^bb0(%a: tensor<8x4xf32>):
    %s = fuser.set %a cache_op = streaming : tensor<8x4xf32>
    %n = fuser.neg %s : tensor<8x4xf32>
    fuser.yield %n : tensor<8x4xf32>
  }
  return %0 : tensor<8x4xf32>
}
