// RUN: fuser-opt %s --fuser-preseg -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize -split-input-file | FileCheck %s

// Rule 3: adjacent broadcast / squeeze / set / expand compose per axis.

// squeeze(broadcast(x)) of the same dims -> x.
// CHECK-LABEL: func.func @broadcast_squeeze(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT: return %[[ARG0]] : tensor<8x4xf32>
func.func @broadcast_squeeze(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.broadcast %x [0, 2] : tensor<8x4xf32> -> tensor<1x8x1x4xf32>
  %1 = fuser.squeeze %0 [0, 2] : tensor<1x8x1x4xf32> -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// broadcast(squeeze(x)) of the same size-1 dims -> x.
// CHECK-LABEL: func.func @squeeze_broadcast(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<1x8x1xf32>) -> tensor<1x8x1xf32> {
// CHECK-NEXT: return %[[ARG0]] : tensor<1x8x1xf32>
func.func @squeeze_broadcast(%x: tensor<1x8x1xf32>) -> tensor<1x8x1xf32> {
  %0 = fuser.squeeze %x [0, 2] : tensor<1x8x1xf32> -> tensor<8xf32>
  %1 = fuser.broadcast %0 [0, 2] : tensor<8xf32> -> tensor<1x8x1xf32>
  return %1 : tensor<1x8x1xf32>
}

// -----

// Partial overlap: broadcast [2, 3] then squeeze [3] -> broadcast [2].
// CHECK-LABEL: func.func @partial_overlap(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>) -> tensor<8x4x1xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.broadcast %[[ARG0]] [2] : tensor<8x4xf32> -> tensor<8x4x1xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x4x1xf32>
func.func @partial_overlap(%x: tensor<8x4xf32>) -> tensor<8x4x1xf32> {
  %0 = fuser.broadcast %x [2, 3] : tensor<8x4xf32> -> tensor<8x4x1x1xf32>
  %1 = fuser.squeeze %0 [3] : tensor<8x4x1x1xf32> -> tensor<8x4x1xf32>
  return %1 : tensor<8x4x1xf32>
}

// -----

// expand(expand(x)) -> expand(x); an expand that expands nothing -> x.
// CHECK-LABEL: func.func @expands(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<1x1x4xf32>) -> (tensor<2x3x4xf32>, tensor<1x1x4xf32>) {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.expand %[[ARG0]] : tensor<1x1x4xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT: return %[[V0]], %[[ARG0]] : tensor<2x3x4xf32>, tensor<1x1x4xf32>
func.func @expands(%x: tensor<1x1x4xf32>) -> (tensor<2x3x4xf32>, tensor<1x1x4xf32>) {
  %0 = fuser.expand %x : tensor<1x1x4xf32> -> tensor<2x1x4xf32>
  %1 = fuser.expand %0 : tensor<2x1x4xf32> -> tensor<2x3x4xf32>
  %2 = fuser.expand %x : tensor<1x1x4xf32> -> tensor<1x1x4xf32>
  return %1, %2 : tensor<2x3x4xf32>, tensor<1x1x4xf32>
}

// -----

// set(x) -> x, and the meta ops around it meet.
// CHECK-LABEL: func.func @set_disappears(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT: return %[[ARG0]] : tensor<8x4xf32>
func.func @set_disappears(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.broadcast %x [0] : tensor<8x4xf32> -> tensor<1x8x4xf32>
  %1 = fuser.set %0 cache_op = streaming : tensor<1x8x4xf32>
  %2 = fuser.squeeze %1 [0] : tensor<1x8x4xf32> -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// -----

// Bail-out: a set that is a fusion output stays; it is the copy that keeps
// the output from aliasing the input.
// CHECK-LABEL: func.func @set_output(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.set %[[ARG0]] : tensor<8x4xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x4xf32>
func.func @set_output(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.set %x : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
