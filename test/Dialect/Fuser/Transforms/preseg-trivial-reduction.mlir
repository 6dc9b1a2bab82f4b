// RUN: fuser-opt %s --fuser-preseg -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize="top-down=false" -split-input-file | FileCheck %s

// Rule: a reduction whose reduced dims all have extent 1 combines one
// element with the identity of its kind, which gives the element back bit
// for bit (add from -0.0, mul from 1, max from -inf, min from +inf; integers
// from 0, 1, their minimum and maximum). So
//   reduction(x, unit dims)         -> squeeze(x, unit dims)
//   reduction(x, unit dims) keepdim -> x
// for every kind, and a reduction over extent-1 dims and others drops the
// extent-1 ones (squeezed first, or kept as they are with keepdim).
// Values: test/Interpreter/trivial-reduction.mlir.

// Every kind over extent-1 dims is a squeeze of them.
// CHECK-LABEL: func.func @every_kind(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<1x8x1x4xf32>, %[[Y:[a-zA-Z0-9_]+]]: tensor<1x8x1x4xi32>)
// (--canonicalize does not CSE: one squeeze per result there.)
// CHECK-NOT: fuser.reduction
// CHECK: fuser.squeeze %[[X]] [0, 2] : tensor<1x8x1x4xf32> -> tensor<8x4xf32>
// CHECK-NOT: fuser.reduction
// CHECK: fuser.squeeze %[[Y]] [0, 2] : tensor<1x8x1x4xi32> -> tensor<8x4xi32>
// CHECK-NOT: fuser.reduction
// CHECK: return
func.func @every_kind(%x: tensor<1x8x1x4xf32>, %y: tensor<1x8x1x4xi32>)
    -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>,
        tensor<8x4xi32>, tensor<8x4xi32>, tensor<8x4xi32>, tensor<8x4xi32>) {
  %0 = fuser.reduction add %x [0, 2] : tensor<1x8x1x4xf32> -> tensor<8x4xf32>
  %1 = fuser.reduction mul %x [0, 2] : tensor<1x8x1x4xf32> -> tensor<8x4xf32>
  %2 = fuser.reduction max %x [0, 2] : tensor<1x8x1x4xf32> -> tensor<8x4xf32>
  %3 = fuser.reduction min %x [0, 2] : tensor<1x8x1x4xf32> -> tensor<8x4xf32>
  %4 = fuser.reduction add %y [0, 2] : tensor<1x8x1x4xi32> -> tensor<8x4xi32>
  %5 = fuser.reduction mul %y [0, 2] : tensor<1x8x1x4xi32> -> tensor<8x4xi32>
  %6 = fuser.reduction max %y [0, 2] : tensor<1x8x1x4xi32> -> tensor<8x4xi32>
  %7 = fuser.reduction min %y [0, 2] : tensor<1x8x1x4xi32> -> tensor<8x4xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xi32>, tensor<8x4xi32>, tensor<8x4xi32>, tensor<8x4xi32>
}

// -----

// With keepdim it is nothing.
// CHECK-LABEL: func.func @keepdim(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<1x8x1x4xbf16>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @keepdim(%x: tensor<1x8x1x4xbf16>) -> (tensor<1x8x1x4xbf16>, tensor<1x8x1x4xbf16>) {
  %0 = fuser.reduction add %x [0, 2] keepdim : tensor<1x8x1x4xbf16> -> tensor<1x8x1x4xbf16>
  %1 = fuser.reduction max %x [2] keepdim : tensor<1x8x1x4xbf16> -> tensor<1x8x1x4xbf16>
  return %0, %1 : tensor<1x8x1x4xbf16>, tensor<1x8x1x4xbf16>
}

// -----

// Mixed: the extent-1 dims drop out of the reduced set. Without keepdim
// they are squeezed first (dims renumbered); with keepdim they just stay.
// CHECK-LABEL: func.func @mixed(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<1x8x1x4xf64>)
// CHECK-DAG: %[[S:[a-zA-Z0-9_]+]] = fuser.squeeze %[[X]] [0, 2] : tensor<1x8x1x4xf64> -> tensor<8x4xf64>
// CHECK-DAG: %[[R:[a-zA-Z0-9_]+]] = fuser.reduction add %[[S]] [0] : tensor<8x4xf64> -> tensor<4xf64>
// CHECK-DAG: %[[K:[a-zA-Z0-9_]+]] = fuser.reduction min %[[X]] [3] keepdim : tensor<1x8x1x4xf64> -> tensor<1x8x1x1xf64>
// CHECK: return %[[R]], %[[K]]
func.func @mixed(%x: tensor<1x8x1x4xf64>) -> (tensor<4xf64>, tensor<1x8x1x1xf64>) {
  %0 = fuser.reduction add %x [0, 1, 2] : tensor<1x8x1x4xf64> -> tensor<4xf64>
  %1 = fuser.reduction min %x [0, 3] keepdim : tensor<1x8x1x4xf64> -> tensor<1x8x1x1xf64>
  return %0, %1 : tensor<4xf64>, tensor<1x8x1x1xf64>
}

// -----

// Once a squeeze, casts meet across it: bf16 -> f32, a sum over a unit dim,
// f32 -> bf16 is a squeeze of the input (the Mistral pattern in Thunder's
// spelling).
// CHECK-LABEL: func.func @casts_meet(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<8x1x4xbf16>)
// CHECK-NEXT: %[[S:[a-zA-Z0-9_]+]] = fuser.squeeze %[[X]] [1] : tensor<8x1x4xbf16> -> tensor<8x4xbf16>
// CHECK-NEXT: return %[[S]]
func.func @casts_meet(%x: tensor<8x1x4xbf16>) -> tensor<8x4xbf16> {
  %0 = fuser.cast %x : tensor<8x1x4xbf16> to tensor<8x1x4xf32>
  %1 = fuser.reduction add %0 [1] : tensor<8x1x4xf32> -> tensor<8x4xf32>
  %2 = fuser.cast %1 : tensor<8x4xf32> to tensor<8x4xbf16>
  return %2 : tensor<8x4xbf16>
}

// -----

// Bail-out: a reduction over dims of extent above 1 stays as it is, whatever
// extent-1 dims it leaves alone (here dim 0, not reduced).
// CHECK-LABEL: func.func @real_reduction(
// CHECK-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<1x8x4xf32>)
// CHECK-NEXT: %[[R:[a-zA-Z0-9_]+]] = fuser.reduction add %[[X]] [1] : tensor<1x8x4xf32> -> tensor<1x4xf32>
// CHECK-NEXT: %[[K:[a-zA-Z0-9_]+]] = fuser.reduction max %[[X]] [1, 2] keepdim : tensor<1x8x4xf32> -> tensor<1x1x1xf32>
// CHECK-NEXT: return %[[R]], %[[K]]
func.func @real_reduction(%x: tensor<1x8x4xf32>) -> (tensor<1x4xf32>, tensor<1x1x1xf32>) {
  %0 = fuser.reduction add %x [1] : tensor<1x8x4xf32> -> tensor<1x4xf32>
  %1 = fuser.reduction max %x [1, 2] keepdim : tensor<1x8x4xf32> -> tensor<1x1x1xf32>
  return %0, %1 : tensor<1x4xf32>, tensor<1x1x1xf32>
}
