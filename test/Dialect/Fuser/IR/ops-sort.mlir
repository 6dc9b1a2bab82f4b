// RUN: fuser-opt %s | fuser-opt | FileCheck %s

// fuser.argsort round-trips, ascending and descending, on floats, half
// types and integers.
// CHECK-LABEL: func.func @sorts
// CHECK: fuser.argsort %arg0 [1] : tensor<4x8xf32> -> tensor<4x8xi64>
// CHECK: fuser.argsort %arg0 [0] descending : tensor<4x8xf32> -> tensor<4x8xi64>
// CHECK: fuser.argsort %arg1 [0] : tensor<7xbf16> -> tensor<7xi64>
// CHECK: fuser.argsort %arg2 [2] descending : tensor<2x0x3xi32> -> tensor<2x0x3xi64>
func.func @sorts(%x: tensor<4x8xf32>, %h: tensor<7xbf16>, %i: tensor<2x0x3xi32>) -> (tensor<4x8xi64>, tensor<4x8xi64>, tensor<7xi64>, tensor<2x0x3xi64>) {
  %0 = fuser.argsort %x [1] : tensor<4x8xf32> -> tensor<4x8xi64>
  %1 = fuser.argsort %x [0] descending : tensor<4x8xf32> -> tensor<4x8xi64>
  %2 = fuser.argsort %h [0] : tensor<7xbf16> -> tensor<7xi64>
  %3 = fuser.argsort %i [2] descending : tensor<2x0x3xi32> -> tensor<2x0x3xi64>
  return %0, %1, %2, %3 : tensor<4x8xi64>, tensor<4x8xi64>, tensor<7xi64>, tensor<2x0x3xi64>
}
