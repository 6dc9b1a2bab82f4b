// RUN: fuser-opt %s --fuser-preseg -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize="top-down=false" -split-input-file | FileCheck %s

// Rule 5: squeezes and broadcasts sink below permutes; view, squeeze and
// broadcast all keep the row-major order, so adjacent ones compose into one
// canonical reshape (absorbed into a view); permute pairs compose.

// Unit-dim squeezes and broadcasts next to a view are absorbed into it:
// view(broadcast(squeeze(view(x)))) -> view(x).
// CHECK-LABEL: func.func @absorbed_by_view(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<1x32x16xf32>) -> tensor<4x1x128xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.view %[[ARG0]] : tensor<1x32x16xf32> -> tensor<4x1x128xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x1x128xf32>
func.func @absorbed_by_view(%x: tensor<1x32x16xf32>) -> tensor<4x1x128xf32> {
  %0 = fuser.view %x : tensor<1x32x16xf32> -> tensor<1x8x4x16xf32>
  %1 = fuser.squeeze %0 [0] : tensor<1x8x4x16xf32> -> tensor<8x4x16xf32>
  %2 = fuser.broadcast %1 [3] : tensor<8x4x16xf32> -> tensor<8x4x16x1xf32>
  %3 = fuser.view %2 : tensor<8x4x16x1xf32> -> tensor<4x1x128xf32>
  return %3 : tensor<4x1x128xf32>
}

// -----

// view(view(x)) back to the source shape -> x.
// CHECK-LABEL: func.func @view_roundtrip(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<6x4xf32>) -> tensor<6x4xf32> {
// CHECK-NEXT: return %[[ARG0]] : tensor<6x4xf32>
func.func @view_roundtrip(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %0 = fuser.view %x : tensor<6x4xf32> -> tensor<24xf32>
  %1 = fuser.view %0 : tensor<24xf32> -> tensor<6x4xf32>
  return %1 : tensor<6x4xf32>
}

// -----

// A view that only inserts or drops size-1 dims is a broadcast or squeeze.
// CHECK-LABEL: func.func @view_is_unit_reshape(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>, %[[ARG1:[a-zA-Z0-9_]+]]: tensor<8x1x4xf32>) -> (tensor<8x1x4xf32>, tensor<8x4xf32>) {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.broadcast %[[ARG0]] [1] : tensor<8x4xf32> -> tensor<8x1x4xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.squeeze %[[ARG1]] [1] : tensor<8x1x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<8x1x4xf32>, tensor<8x4xf32>
func.func @view_is_unit_reshape(%x: tensor<8x4xf32>, %y: tensor<8x1x4xf32>) -> (tensor<8x1x4xf32>, tensor<8x4xf32>) {
  %0 = fuser.view %x : tensor<8x4xf32> -> tensor<8x1x4xf32>
  %1 = fuser.view %y : tensor<8x1x4xf32> -> tensor<8x4xf32>
  return %0, %1 : tensor<8x1x4xf32>, tensor<8x4xf32>
}

// -----

// Bail-out: a view that moves a size-1 dim across others stays a view.
// CHECK-LABEL: func.func @real_view(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<1x8xf32>) -> tensor<8x1xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.view %[[ARG0]] : tensor<1x8xf32> -> tensor<8x1xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x1xf32>
func.func @real_view(%x: tensor<1x8xf32>) -> tensor<8x1xf32> {
  %0 = fuser.view %x : tensor<1x8xf32> -> tensor<8x1xf32>
  return %0 : tensor<8x1xf32>
}

// -----

// A reshape whose source is also used elsewhere still composes: both uses
// read the same source, no op is added.
// CHECK-LABEL: func.func @compose_multi_use(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>) -> (tensor<1x8x4xf32>, tensor<32xf32>) {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.broadcast %[[ARG0]] [0] : tensor<8x4xf32> -> tensor<1x8x4xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.view %[[ARG0]] : tensor<8x4xf32> -> tensor<32xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<1x8x4xf32>, tensor<32xf32>
func.func @compose_multi_use(%x: tensor<8x4xf32>) -> (tensor<1x8x4xf32>, tensor<32xf32>) {
  %0 = fuser.broadcast %x [0] : tensor<8x4xf32> -> tensor<1x8x4xf32>
  %1 = fuser.view %0 : tensor<1x8x4xf32> -> tensor<32xf32>
  return %0, %1 : tensor<1x8x4xf32>, tensor<32xf32>
}

// -----

// permute(broadcast(x)) -> broadcast(permute(x)): the broadcast sinks toward
// the consumers, here to be absorbed by the view.
// CHECK-LABEL: func.func @broadcast_below_permute(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x16x4xf32>) -> tensor<16x32xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.permute %[[ARG0]] [1, 0, 2] : tensor<8x16x4xf32> -> tensor<16x8x4xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.view %[[V0]] : tensor<16x8x4xf32> -> tensor<16x32xf32>
// CHECK-NEXT: return %[[V1]] : tensor<16x32xf32>
func.func @broadcast_below_permute(%x: tensor<8x16x4xf32>) -> tensor<16x32xf32> {
  %0 = fuser.broadcast %x [0] : tensor<8x16x4xf32> -> tensor<1x8x16x4xf32>
  %1 = fuser.permute %0 [0, 2, 1, 3] : tensor<1x8x16x4xf32> -> tensor<1x16x8x4xf32>
  %2 = fuser.view %1 : tensor<1x16x8x4xf32> -> tensor<16x32xf32>
  return %2 : tensor<16x32xf32>
}

// -----

// permute(squeeze(x)) -> squeeze(permute(x)): the unit dims keep their place.
// CHECK-LABEL: func.func @squeeze_below_permute(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<2x1x3x4xf32>) -> tensor<4x2x3xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.permute %[[ARG0]] [3, 1, 0, 2] : tensor<2x1x3x4xf32> -> tensor<4x1x2x3xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.squeeze %[[V0]] [1] : tensor<4x1x2x3xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x2x3xf32>
func.func @squeeze_below_permute(%x: tensor<2x1x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = fuser.squeeze %x [1] : tensor<2x1x3x4xf32> -> tensor<2x3x4xf32>
  %1 = fuser.permute %0 [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// Bail-out: the broadcast has another use; moving it would duplicate it.
// CHECK-LABEL: func.func @broadcast_multi_use(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<2x3xf32>) -> (tensor<3x1x2xf32>, tensor<1x2x3xf32>) {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.broadcast %[[ARG0]] [0] : tensor<2x3xf32> -> tensor<1x2x3xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.permute %[[V0]] [2, 0, 1] : tensor<1x2x3xf32> -> tensor<3x1x2xf32>
// CHECK-NEXT: return %[[V1]], %[[V0]] : tensor<3x1x2xf32>, tensor<1x2x3xf32>
func.func @broadcast_multi_use(%x: tensor<2x3xf32>) -> (tensor<3x1x2xf32>, tensor<1x2x3xf32>) {
  %0 = fuser.broadcast %x [0] : tensor<2x3xf32> -> tensor<1x2x3xf32>
  %1 = fuser.permute %0 [2, 0, 1] : tensor<1x2x3xf32> -> tensor<3x1x2xf32>
  return %1, %0 : tensor<3x1x2xf32>, tensor<1x2x3xf32>
}

// -----

// permute(permute(x)) composes; back to identity -> x.
// CHECK-LABEL: func.func @permute_pairs(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.permute %[[ARG0]] [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[V0]], %[[ARG0]] : tensor<4x2x3xf32>, tensor<2x3x4xf32>
func.func @permute_pairs(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = fuser.permute %x [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = fuser.permute %0 [1, 2, 0] : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  %2 = fuser.permute %1 [1, 2, 0] : tensor<4x2x3xf32> -> tensor<2x3x4xf32>
  return %1, %2 : tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// -----

// A permute that only moves size-1 dims keeps the element order: a reshape.
// CHECK-LABEL: func.func @permute_of_unit_dims(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<1x16x1xf32>)
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.view %[[ARG0]] : tensor<1x16x1xf32> -> tensor<16x1x1xf32>
// CHECK-NEXT: return %[[V0]]
func.func @permute_of_unit_dims(%x: tensor<1x16x1xf32>) -> tensor<16x1x1xf32> {
  %0 = fuser.permute %x [1, 0, 2] : tensor<1x16x1xf32> -> tensor<16x1x1xf32>
  return %0 : tensor<16x1x1xf32>
}

// -----

// Bail-out: a permute that reorders two non-unit dims is not a reshape.
// CHECK-LABEL: func.func @permute_of_real_dims(
// CHECK-NEXT: fuser.permute %{{.*}} [2, 1, 0] : tensor<2x1x3xf32> -> tensor<3x1x2xf32>
func.func @permute_of_real_dims(%x: tensor<2x1x3xf32>) -> tensor<3x1x2xf32> {
  %0 = fuser.permute %x [2, 1, 0] : tensor<2x1x3xf32> -> tensor<3x1x2xf32>
  return %0 : tensor<3x1x2xf32>
}
