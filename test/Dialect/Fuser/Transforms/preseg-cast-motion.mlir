// RUN: fuser-opt %s --fuser-preseg -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize="top-down=false" -split-input-file | FileCheck %s
// Once is a fixpoint.
// RUN: fuser-opt %s --fuser-preseg -split-input-file | fuser-opt --fuser-preseg -split-input-file | FileCheck %s

// Rule 2: casts (and every elementwise unary op) rise toward the producers
// across meta ops, so that casts separated by data movement meet and fold;
// slices rise above unary ops instead. Motion never duplicates arithmetic,
// and the result does not depend on the order the driver visits ops in.

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

// cast(view(x)) -> view(cast(x)), but a slice rises above the cast instead,
// so the cast only converts the elements the slice keeps.
// CHECK-LABEL: func.func @slice_and_view(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<4x6xf16>) -> tensor<8xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.slice %[[ARG0]] starts [0, 2] limits [4, 6] strides [2, 1] : tensor<4x6xf16> -> tensor<2x4xf16>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.cast %[[V0]] : tensor<2x4xf16> to tensor<2x4xf32>
// CHECK-NEXT: %[[V2:[a-zA-Z0-9_]+]] = fuser.view %[[V1]] : tensor<2x4xf32> -> tensor<8xf32>
// CHECK-NEXT: return %[[V2]] : tensor<8xf32>
func.func @slice_and_view(%x: tensor<4x6xf16>) -> tensor<8xf32> {
  %0 = fuser.slice %x starts [0, 2] limits [4, 6] strides [2, 1] : tensor<4x6xf16> -> tensor<2x4xf16>
  %1 = fuser.view %0 : tensor<2x4xf16> -> tensor<8xf16>
  %2 = fuser.cast %1 : tensor<8xf16> to tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// slice(cast(x)) -> cast(slice(x)), and casts separated by a slice meet.
// CHECK-LABEL: func.func @slice_above_cast(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8xbf16>) -> (tensor<2xf32>, tensor<2xbf16>) {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.slice %[[ARG0]] starts [2] limits [4] strides [1] : tensor<8xbf16> -> tensor<2xbf16>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.cast %[[V0]] : tensor<2xbf16> to tensor<2xf32>
// CHECK-NEXT: return %[[V1]], %[[V0]] : tensor<2xf32>, tensor<2xbf16>
func.func @slice_above_cast(%x: tensor<8xbf16>) -> (tensor<2xf32>, tensor<2xbf16>) {
  %0 = fuser.cast %x : tensor<8xbf16> to tensor<8xf32>
  %1 = fuser.slice %0 starts [2] limits [4] strides [1] : tensor<8xf32> -> tensor<2xf32>
  %2 = fuser.cast %1 : tensor<2xf32> to tensor<2xbf16>
  return %1, %2 : tensor<2xf32>, tensor<2xbf16>
}

// -----

// Bail-out: the sliced cast has another user; moving it below the slice
// would convert those elements twice.
// CHECK-LABEL: func.func @slice_multi_use_cast(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8xbf16>) -> (tensor<2xf32>, tensor<8xf32>) {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.cast %[[ARG0]] : tensor<8xbf16> to tensor<8xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.slice %[[V0]] starts [2] limits [4] strides [1] : tensor<8xf32> -> tensor<2xf32>
// CHECK-NEXT: return %[[V1]], %[[V0]] : tensor<2xf32>, tensor<8xf32>
func.func @slice_multi_use_cast(%x: tensor<8xbf16>) -> (tensor<2xf32>, tensor<8xf32>) {
  %0 = fuser.cast %x : tensor<8xbf16> to tensor<8xf32>
  %1 = fuser.slice %0 starts [2] limits [4] strides [1] : tensor<8xf32> -> tensor<2xf32>
  return %1, %0 : tensor<2xf32>, tensor<8xf32>
}

// -----

// A meta op with another user is copied, not moved: it does no arithmetic,
// so the copy adds no work, and the cast still rises.
// CHECK-LABEL: func.func @meta_multi_use(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<1x4xbf16>) -> (tensor<4xf32>, tensor<4xbf16>) {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.squeeze %[[ARG0]] [0] : tensor<1x4xbf16> -> tensor<4xbf16>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.cast %[[ARG0]] : tensor<1x4xbf16> to tensor<1x4xf32>
// CHECK-NEXT: %[[V2:[a-zA-Z0-9_]+]] = fuser.squeeze %[[V1]] [0] : tensor<1x4xf32> -> tensor<4xf32>
// CHECK-NEXT: return %[[V2]], %[[V0]] : tensor<4xf32>, tensor<4xbf16>
func.func @meta_multi_use(%x: tensor<1x4xbf16>) -> (tensor<4xf32>, tensor<4xbf16>) {
  %0 = fuser.squeeze %x [0] : tensor<1x4xbf16> -> tensor<4xbf16>
  %1 = fuser.cast %0 : tensor<4xbf16> to tensor<4xf32>
  return %1, %0 : tensor<4xf32>, tensor<4xbf16>
}

// -----

// Casts far apart still meet: the narrowing cast climbs all twelve meta ops
// in one run, so fuser-preseg once is a fixpoint.
// CHECK-LABEL: func.func @deep_chain(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<4x4xbf16>) -> tensor<12x4xbf16> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.view %[[ARG0]] : tensor<4x4xbf16> -> tensor<16x1xbf16>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.expand %[[V0]] : tensor<16x1xbf16> -> tensor<16x3xbf16>
// CHECK-NEXT: %[[V2:[a-zA-Z0-9_]+]] = fuser.view %[[V1]] : tensor<16x3xbf16> -> tensor<4x12xbf16>
// CHECK-NEXT: %[[V3:[a-zA-Z0-9_]+]] = fuser.permute %[[V2]] [1, 0] : tensor<4x12xbf16> -> tensor<12x4xbf16>
// CHECK-NEXT: return %[[V3]] : tensor<12x4xbf16>
func.func @deep_chain(%x: tensor<4x4xbf16>) -> tensor<12x4xbf16> {
  %0 = fuser.cast %x : tensor<4x4xbf16> to tensor<4x4xf32>
  %1 = fuser.permute %0 [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %2 = fuser.expand %1 : tensor<4x4xf32> -> tensor<4x4xf32>
  %3 = fuser.permute %2 [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %4 = fuser.view %3 : tensor<4x4xf32> -> tensor<16xf32>
  %5 = fuser.broadcast %4 [0] : tensor<16xf32> -> tensor<1x16xf32>
  %6 = fuser.permute %5 [1, 0] : tensor<1x16xf32> -> tensor<16x1xf32>
  %7 = fuser.expand %6 : tensor<16x1xf32> -> tensor<16x3xf32>
  %8 = fuser.permute %7 [1, 0] : tensor<16x3xf32> -> tensor<3x16xf32>
  %9 = fuser.expand %8 : tensor<3x16xf32> -> tensor<3x16xf32>
  %10 = fuser.permute %9 [1, 0] : tensor<3x16xf32> -> tensor<16x3xf32>
  %11 = fuser.view %10 : tensor<16x3xf32> -> tensor<4x12xf32>
  %12 = fuser.permute %11 [1, 0] : tensor<4x12xf32> -> tensor<12x4xf32>
  %13 = fuser.cast %12 : tensor<12x4xf32> to tensor<12x4xbf16>
  return %13 : tensor<12x4xbf16>
}

// -----

// Eleven slices between two casts: the widening cast sinks below them all
// in one run.
// CHECK-LABEL: func.func @deep_slices(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<16xbf16>) -> tensor<5xbf16> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.slice %[[ARG0]] starts [0] limits [15] strides [1] : tensor<16xbf16> -> tensor<15xbf16>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.slice %[[V0]] starts [0] limits [14] strides [1] : tensor<15xbf16> -> tensor<14xbf16>
// CHECK-NEXT: %[[V2:[a-zA-Z0-9_]+]] = fuser.slice %[[V1]] starts [0] limits [13] strides [1] : tensor<14xbf16> -> tensor<13xbf16>
// CHECK-NEXT: %[[V3:[a-zA-Z0-9_]+]] = fuser.slice %[[V2]] starts [0] limits [12] strides [1] : tensor<13xbf16> -> tensor<12xbf16>
// CHECK-NEXT: %[[V4:[a-zA-Z0-9_]+]] = fuser.slice %[[V3]] starts [0] limits [11] strides [1] : tensor<12xbf16> -> tensor<11xbf16>
// CHECK-NEXT: %[[V5:[a-zA-Z0-9_]+]] = fuser.slice %[[V4]] starts [0] limits [10] strides [1] : tensor<11xbf16> -> tensor<10xbf16>
// CHECK-NEXT: %[[V6:[a-zA-Z0-9_]+]] = fuser.slice %[[V5]] starts [0] limits [9] strides [1] : tensor<10xbf16> -> tensor<9xbf16>
// CHECK-NEXT: %[[V7:[a-zA-Z0-9_]+]] = fuser.slice %[[V6]] starts [0] limits [8] strides [1] : tensor<9xbf16> -> tensor<8xbf16>
// CHECK-NEXT: %[[V8:[a-zA-Z0-9_]+]] = fuser.slice %[[V7]] starts [0] limits [7] strides [1] : tensor<8xbf16> -> tensor<7xbf16>
// CHECK-NEXT: %[[V9:[a-zA-Z0-9_]+]] = fuser.slice %[[V8]] starts [0] limits [6] strides [1] : tensor<7xbf16> -> tensor<6xbf16>
// CHECK-NEXT: %[[V10:[a-zA-Z0-9_]+]] = fuser.slice %[[V9]] starts [0] limits [5] strides [1] : tensor<6xbf16> -> tensor<5xbf16>
// CHECK-NEXT: return %[[V10]] : tensor<5xbf16>
func.func @deep_slices(%x: tensor<16xbf16>) -> tensor<5xbf16> {
  %0 = fuser.cast %x : tensor<16xbf16> to tensor<16xf32>
  %1 = fuser.slice %0 starts [0] limits [15] strides [1] : tensor<16xf32> -> tensor<15xf32>
  %2 = fuser.slice %1 starts [0] limits [14] strides [1] : tensor<15xf32> -> tensor<14xf32>
  %3 = fuser.slice %2 starts [0] limits [13] strides [1] : tensor<14xf32> -> tensor<13xf32>
  %4 = fuser.slice %3 starts [0] limits [12] strides [1] : tensor<13xf32> -> tensor<12xf32>
  %5 = fuser.slice %4 starts [0] limits [11] strides [1] : tensor<12xf32> -> tensor<11xf32>
  %6 = fuser.slice %5 starts [0] limits [10] strides [1] : tensor<11xf32> -> tensor<10xf32>
  %7 = fuser.slice %6 starts [0] limits [9] strides [1] : tensor<10xf32> -> tensor<9xf32>
  %8 = fuser.slice %7 starts [0] limits [8] strides [1] : tensor<9xf32> -> tensor<8xf32>
  %9 = fuser.slice %8 starts [0] limits [7] strides [1] : tensor<8xf32> -> tensor<7xf32>
  %10 = fuser.slice %9 starts [0] limits [6] strides [1] : tensor<7xf32> -> tensor<6xf32>
  %11 = fuser.slice %10 starts [0] limits [5] strides [1] : tensor<6xf32> -> tensor<5xf32>
  %12 = fuser.cast %11 : tensor<5xf32> to tensor<5xbf16>
  return %12 : tensor<5xbf16>
}

// -----

// The result does not depend on pattern order: a view read by a cast whose
// result is cast again ends the same either way.
// CHECK-LABEL: func.func @order_independent(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<2x4xbf16>) -> (tensor<8xf32>, tensor<8xf64>) {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.cast %[[ARG0]] : tensor<2x4xbf16> to tensor<2x4xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.view %[[V0]] : tensor<2x4xf32> -> tensor<8xf32>
// CHECK-NEXT: %[[V2:[a-zA-Z0-9_]+]] = fuser.cast %[[ARG0]] : tensor<2x4xbf16> to tensor<2x4xf64>
// CHECK-NEXT: %[[V3:[a-zA-Z0-9_]+]] = fuser.view %[[V2]] : tensor<2x4xf64> -> tensor<8xf64>
// CHECK-NEXT: return %[[V1]], %[[V3]] : tensor<8xf32>, tensor<8xf64>
func.func @order_independent(%x: tensor<2x4xbf16>) -> (tensor<8xf32>, tensor<8xf64>) {
  %0 = fuser.view %x : tensor<2x4xbf16> -> tensor<8xbf16>
  %1 = fuser.cast %0 : tensor<8xbf16> to tensor<8xf32>
  %2 = fuser.cast %1 : tensor<8xf32> to tensor<8xf64>
  return %1, %2 : tensor<8xf32>, tensor<8xf64>
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
