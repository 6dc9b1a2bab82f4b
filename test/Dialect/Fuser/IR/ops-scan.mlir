// RUN: fuser-opt %s | fuser-opt | FileCheck %s

// fuser.scan round-trips with each kind, on integer, half, complex and
// empty tensors.
// CHECK-LABEL: func.func @scans
// CHECK: fuser.scan add %arg0 [1] : tensor<4x8xf32>
// CHECK: fuser.scan mul %arg1 [0] : tensor<3x5xi32>
// CHECK: fuser.scan max %arg2 [0] : tensor<7xbf16>
// CHECK: fuser.scan min %arg0 [0] : tensor<4x8xf32>
// CHECK: fuser.scan add %arg3 [2] : tensor<2x0x3xcomplex<f32>>
func.func @scans(%x: tensor<4x8xf32>, %i: tensor<3x5xi32>, %h: tensor<7xbf16>, %c: tensor<2x0x3xcomplex<f32>>) -> (tensor<4x8xf32>, tensor<3x5xi32>, tensor<7xbf16>, tensor<4x8xf32>, tensor<2x0x3xcomplex<f32>>) {
  %0 = fuser.scan add %x [1] : tensor<4x8xf32>
  %1 = fuser.scan mul %i [0] : tensor<3x5xi32>
  %2 = fuser.scan max %h [0] : tensor<7xbf16>
  %3 = fuser.scan min %x [0] : tensor<4x8xf32>
  %4 = fuser.scan add %c [2] : tensor<2x0x3xcomplex<f32>>
  return %0, %1, %2, %3, %4 : tensor<4x8xf32>, tensor<3x5xi32>, tensor<7xbf16>, tensor<4x8xf32>, tensor<2x0x3xcomplex<f32>>
}
