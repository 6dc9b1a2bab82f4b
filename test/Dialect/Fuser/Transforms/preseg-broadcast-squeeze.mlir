// RUN: fuser-opt %s --fuser-preseg -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize="top-down=false" -split-input-file | FileCheck %s

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

// set(x) -> x, and the meta ops around it meet. The input keeps the hint
// (preseg-cache-hint.mlir).
// CHECK-LABEL: func.func @set_disappears(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32> {fuser.cache_op = #fuser<cache_op streaming>}) -> tensor<8x4xf32> {
// CHECK-NEXT: return %[[ARG0]] : tensor<8x4xf32>
func.func @set_disappears(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.broadcast %x [0] : tensor<8x4xf32> -> tensor<1x8x4xf32>
  %1 = fuser.set %0 cache_op = streaming : tensor<1x8x4xf32>
  %2 = fuser.squeeze %1 [0] : tensor<1x8x4xf32> -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// -----

// Every set goes, a returned one included: in this IR tensors are values
// and a set is never a copy anyone can observe; segmentation decides which
// outputs alias inputs (an alias segment here, copying nothing).
// CHECK-LABEL: func.func @set_output(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT: return %[[ARG0]] : tensor<8x4xf32>
func.func @set_output(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.set %x : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// The same for a returned set of a view of an input, and of a set before a
// view and a broadcast: the outputs are views of the input.
// CHECK-LABEL: func.func @set_output_of_view(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>)
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.permute %[[ARG0]] [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.broadcast %[[ARG0]] [0] : tensor<8x4xf32> -> tensor<1x8x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<4x8xf32>, tensor<1x8x4xf32>
func.func @set_output_of_view(%x: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<1x8x4xf32>) {
  %0 = fuser.permute %x [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %1 = fuser.set %0 : tensor<4x8xf32>
  %2 = fuser.set %x : tensor<8x4xf32>
  %3 = fuser.broadcast %2 [0] : tensor<8x4xf32> -> tensor<1x8x4xf32>
  %4 = fuser.set %3 : tensor<1x8x4xf32>
  return %1, %4 : tensor<4x8xf32>, tensor<1x8x4xf32>
}

// -----

// Bail-out: a segment_set is not a set; it is an explicit segment boundary
// and stays, returned or not.
// CHECK-LABEL: func.func @segment_set_stays(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>)
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.segment_set %[[ARG0]] : tensor<8x4xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x4xf32>
func.func @segment_set_stays(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.segment_set %x : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A returned set of a computed value copies nothing an input owns: it goes.
// A set under a returned view goes too: the output is then a view of the
// input, which segmentation turns into an alias.
// CHECK-LABEL: func.func @set_of_computed_or_viewed(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>)
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.neg %[[ARG0]] : tensor<8x4xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.permute %[[ARG0]] [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<8x4xf32>, tensor<4x8xf32>
func.func @set_of_computed_or_viewed(%x: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>) {
  %0 = fuser.neg %x : tensor<8x4xf32>
  %1 = fuser.set %0 : tensor<8x4xf32>
  %2 = fuser.set %x : tensor<8x4xf32>
  %3 = fuser.permute %2 [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  return %1, %3 : tensor<8x4xf32>, tensor<4x8xf32>
}

// -----

// A set between a cast and the return: erased whichever pattern the driver
// tries first (the cast may rise above it or not).
// CHECK-LABEL: func.func @set_then_cast(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8xbf16>)
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.cast %[[ARG0]] : tensor<8xbf16> to tensor<8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8xf32>
func.func @set_then_cast(%x: tensor<8xbf16>) -> tensor<8xf32> {
  %0 = fuser.set %x : tensor<8xbf16>
  %1 = fuser.cast %0 : tensor<8xbf16> to tensor<8xf32>
  return %1 : tensor<8xf32>
}
