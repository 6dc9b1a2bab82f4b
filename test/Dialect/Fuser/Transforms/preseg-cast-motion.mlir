// RUN: fuser-opt %s --fuser-preseg -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize -split-input-file | FileCheck %s

// Rule 2: casts (and every elementwise unary op) rise toward the producers
// across meta ops, so that casts separated by data movement meet and fold.
// Motion never duplicates an op: a meta op with several uses stays put.

// cast(squeeze(x)) -> squeeze(cast(x)): the cast rises above the meta op.
// CHECK-LABEL: func.func @cast_above_squeeze(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<1x4xbf16>) -> tensor<4xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.cast %[[ARG0]] : tensor<1x4xbf16> to tensor<1x4xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.squeeze %[[V0]] [0] : tensor<1x4xf32> -> tensor<4xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4xf32>
func.func @cast_above_squeeze(%x: tensor<1x4xbf16>) -> tensor<4xf32> {
  %0 = fuser.squeeze %x [0] : tensor<1x4xbf16> -> tensor<4xbf16>
  %1 = fuser.cast %0 : tensor<4xbf16> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Casts separated by meta ops meet and fold:
// cast(permute(expand(cast(x)))) -> permute(expand(x)) for bf16 -> f32 -> bf16.
// CHECK-LABEL: func.func @casts_meet(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<1x3xbf16>) -> tensor<3x2xbf16> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.expand %[[ARG0]] : tensor<1x3xbf16> -> tensor<2x3xbf16>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.permute %[[V0]] [1, 0] : tensor<2x3xbf16> -> tensor<3x2xbf16>
// CHECK-NEXT: return %[[V1]] : tensor<3x2xbf16>
func.func @casts_meet(%x: tensor<1x3xbf16>) -> tensor<3x2xbf16> {
  %0 = fuser.cast %x : tensor<1x3xbf16> to tensor<1x3xf32>
  %1 = fuser.expand %0 : tensor<1x3xf32> -> tensor<2x3xf32>
  %2 = fuser.permute %1 [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %3 = fuser.cast %2 : tensor<3x2xf32> to tensor<3x2xbf16>
  return %3 : tensor<3x2xbf16>
}

// -----

// exp(broadcast(x)) -> broadcast(exp(x)): any elementwise unary op moves.
// CHECK-LABEL: func.func @unary_above_broadcast(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<4xf32>) -> tensor<1x4xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.exp %[[ARG0]] : tensor<4xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.broadcast %[[V0]] [0] : tensor<4xf32> -> tensor<1x4xf32>
// CHECK-NEXT: return %[[V1]] : tensor<1x4xf32>
func.func @unary_above_broadcast(%x: tensor<4xf32>) -> tensor<1x4xf32> {
  %0 = fuser.broadcast %x [0] : tensor<4xf32> -> tensor<1x4xf32>
  %1 = fuser.exp %0 : tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}

// -----

// cast(slice(x)) -> slice(cast(x)); cast(view(x)) -> view(cast(x)).
// CHECK-LABEL: func.func @slice_and_view(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<4x6xf16>) -> tensor<8xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.cast %[[ARG0]] : tensor<4x6xf16> to tensor<4x6xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.slice %[[V0]] starts [0, 2] limits [4, 6] strides [2, 1] : tensor<4x6xf32> -> tensor<2x4xf32>
// CHECK-NEXT: %[[V2:[a-zA-Z0-9_]+]] = fuser.view %[[V1]] : tensor<2x4xf32> -> tensor<8xf32>
// CHECK-NEXT: return %[[V2]] : tensor<8xf32>
func.func @slice_and_view(%x: tensor<4x6xf16>) -> tensor<8xf32> {
  %0 = fuser.slice %x starts [0, 2] limits [4, 6] strides [2, 1] : tensor<4x6xf16> -> tensor<2x4xf16>
  %1 = fuser.view %0 : tensor<2x4xf16> -> tensor<8xf16>
  %2 = fuser.cast %1 : tensor<8xf16> to tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// Bail-out: the meta op has another use; moving the cast would duplicate it.
// CHECK-LABEL: func.func @meta_multi_use(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<1x4xbf16>) -> (tensor<4xf32>, tensor<4xbf16>) {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.squeeze %[[ARG0]] [0] : tensor<1x4xbf16> -> tensor<4xbf16>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.cast %[[V0]] : tensor<4xbf16> to tensor<4xf32>
// CHECK-NEXT: return %[[V1]], %[[V0]] : tensor<4xf32>, tensor<4xbf16>
func.func @meta_multi_use(%x: tensor<1x4xbf16>) -> (tensor<4xf32>, tensor<4xbf16>) {
  %0 = fuser.squeeze %x [0] : tensor<1x4xbf16> -> tensor<4xbf16>
  %1 = fuser.cast %0 : tensor<4xbf16> to tensor<4xf32>
  return %1, %0 : tensor<4xf32>, tensor<4xbf16>
}

// -----

// Bail-out: a cast never crosses a reduction, so bf16 -> f32 (sum) -> bf16
// -> f32 keeps all three casts.
// CHECK-LABEL: func.func @no_cross_reduction(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<4x8xbf16>) -> tensor<4xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.cast %[[ARG0]] : tensor<4x8xbf16> to tensor<4x8xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.reduction add %[[V0]] [1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[V2:[a-zA-Z0-9_]+]] = fuser.cast %[[V1]] : tensor<4xf32> to tensor<4xbf16>
// CHECK-NEXT: %[[V3:[a-zA-Z0-9_]+]] = fuser.cast %[[V2]] : tensor<4xbf16> to tensor<4xf32>
// CHECK-NEXT: return %[[V3]] : tensor<4xf32>
func.func @no_cross_reduction(%x: tensor<4x8xbf16>) -> tensor<4xf32> {
  %0 = fuser.cast %x : tensor<4x8xbf16> to tensor<4x8xf32>
  %1 = fuser.reduction add %0 [1] : tensor<4x8xf32> -> tensor<4xf32>
  %2 = fuser.cast %1 : tensor<4xf32> to tensor<4xbf16>
  %3 = fuser.cast %2 : tensor<4xbf16> to tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// Bail-out: segment_set is a segment boundary; nothing moves across it.
// CHECK-LABEL: func.func @no_cross_segment_set(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<4xbf16>) -> tensor<4xbf16> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.cast %[[ARG0]] : tensor<4xbf16> to tensor<4xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.segment_set %[[V0]] : tensor<4xf32>
// CHECK-NEXT: %[[V2:[a-zA-Z0-9_]+]] = fuser.cast %[[V1]] : tensor<4xf32> to tensor<4xbf16>
// CHECK-NEXT: return %[[V2]] : tensor<4xbf16>
func.func @no_cross_segment_set(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = fuser.segment_set %0 : tensor<4xf32>
  %2 = fuser.cast %1 : tensor<4xf32> to tensor<4xbf16>
  return %2 : tensor<4xbf16>
}

// -----

// Bail-out: binary ops do not move (they would need both operands moved).
// CHECK-LABEL: func.func @binary_stays(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<1x4xf32>, %[[ARG1:[a-zA-Z0-9_]+]]: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.squeeze %[[ARG0]] [0] : tensor<1x4xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.add %[[V0]], %[[ARG1]] : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4xf32>
func.func @binary_stays(%x: tensor<1x4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.squeeze %x [0] : tensor<1x4xf32> -> tensor<4xf32>
  %1 = fuser.add %0, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
