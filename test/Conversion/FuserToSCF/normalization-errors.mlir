// RUN: not fuser-opt --convert-fuser-to-scf %s --split-input-file 2>&1 | FileCheck %s
// The lowering's checks of a pinned normalization schedule (located errors).

// A pinned normalization schedule on a body that is not a normalization.
// CHECK: error: a normalization schedule needs a normalization, but the reduced dims are not the innermost ones
func.func @outer(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fuser.segment normalization(%arg0) {schedule = #fuser.schedule<normalization, vector = 1, threads = 32, split = 32, blocks = 8>} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%arg1: tensor<4x8xf32>):
    %1 = fuser.reduction add %arg1 [0] keepdim : tensor<4x8xf32> -> tensor<1x8xf32>
    %2 = fuser.sub %arg1, %1 : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
    fuser.yield %2 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
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
