// RUN: not fuser-opt --convert-fuser-to-scf %s --split-input-file 2>&1 | FileCheck %s
// The lowering's checks of a pinned normalization schedule (located errors).

// A pinned normalization schedule on a body that is not a normalization.
// CHECK: error: a normalization schedule needs a normalization, but the reduced dims are neither the innermost ones nor outer axes that keep the innermost one
func.func @outer_and_innermost(%arg0: tensor<4x3x8xf32>) -> tensor<4x3x8xf32> {
  %0 = fuser.segment normalization(%arg0) {schedule = #fuser.schedule<normalization, vector = 1, threads = 32, split = 32, blocks = 3>} : (tensor<4x3x8xf32>) -> tensor<4x3x8xf32> {
  ^bb0(%arg1: tensor<4x3x8xf32>):
    %1 = fuser.reduction add %arg1 [0, 2] keepdim : tensor<4x3x8xf32> -> tensor<1x3x1xf32>
    %2 = fuser.sub %arg1, %1 : tensor<4x3x8xf32>, tensor<1x3x1xf32> -> tensor<4x3x8xf32>
    fuser.yield %2 : tensor<4x3x8xf32>
  }
  return %0 : tensor<4x3x8xf32>
}

// -----

// CHECK: error: a normalization schedule needs a whole number of rows per block (4 rows), got 3 blocks
func.func @blocks(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fuser.segment normalization(%arg0) {schedule = #fuser.schedule<normalization, vector = 1, threads = 32, split = 32, blocks = 3>} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%arg1: tensor<4x8xf32>):
    %1 = fuser.reduction add %arg1 [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
    %2 = fuser.sub %arg1, %1 : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
    fuser.yield %2 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// An inner normalization's block shares its row among all its threads: a
// tiled (outer) schedule does not fit it.
// CHECK: error: an inner normalization schedule shares each row among all threads of its block: split must equal threads, got split = 8, threads = 256
func.func @inner_tiled(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fuser.segment normalization(%arg0) {schedule = #fuser.schedule<normalization, vector = 1, threads = 256, split = 8, blocks = 4>} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%arg1: tensor<4x8xf32>):
    %1 = fuser.reduction add %arg1 [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
    %2 = fuser.sub %arg1, %1 : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
    fuser.yield %2 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// An outer normalization reads one element per thread at a time.
// CHECK: error: an outer normalization schedule reads one element per thread at a time: vector must be 1, got 4
func.func @outer_vector(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fuser.segment normalization(%arg0) {schedule = #fuser.schedule<normalization, vector = 4, threads = 32, split = 32, blocks = 8>} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%arg1: tensor<4x8xf32>):
    %1 = fuser.reduction add %arg1 [0] keepdim : tensor<4x8xf32> -> tensor<1x8xf32>
    %2 = fuser.sub %arg1, %1 : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
    fuser.yield %2 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// A block per tile of threads / split columns: 40 columns in tiles of 8 are
// 5 blocks.
// CHECK: error: an outer normalization schedule needs one block per 8 columns (40 columns: 5 blocks), got 4
func.func @outer_blocks(%arg0: tensor<4x40xf32>) -> tensor<4x40xf32> {
  %0 = fuser.segment normalization(%arg0) {schedule = #fuser.schedule<normalization, vector = 1, threads = 32, split = 4, blocks = 4>} : (tensor<4x40xf32>) -> tensor<4x40xf32> {
  ^bb0(%arg1: tensor<4x40xf32>):
    %1 = fuser.reduction add %arg1 [0] keepdim : tensor<4x40xf32> -> tensor<1x40xf32>
    %2 = fuser.sub %arg1, %1 : tensor<4x40xf32>, tensor<1x40xf32> -> tensor<4x40xf32>
    fuser.yield %2 : tensor<4x40xf32>
  }
  return %0 : tensor<4x40xf32>
}
