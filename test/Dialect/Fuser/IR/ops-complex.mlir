// complex<f32> and complex<f64> elements: fuser.complex, real and imag,
// the arithmetic ops whose operand classes take complex, abs's component
// result, casts to and from complex, and a complex sum; printed and parsed
// back (also in the generic form).
// RUN: fuser-opt %s | fuser-opt | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @parts
// CHECK: %[[Z:.*]] = fuser.complex %arg0, %arg1 : tensor<4xf32>, tensor<1xf32> -> tensor<4xcomplex<f32>>
// CHECK: fuser.real %[[Z]] : tensor<4xcomplex<f32>>
// CHECK: fuser.imag %[[Z]] : tensor<4xcomplex<f32>>
func.func @parts(%re: tensor<4xf32>, %im: tensor<1xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %z = fuser.complex %re, %im : tensor<4xf32>, tensor<1xf32> -> tensor<4xcomplex<f32>>
  %r = fuser.real %z : tensor<4xcomplex<f32>>
  %i = fuser.imag %z : tensor<4xcomplex<f32>>
  return %r, %i : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @arithmetic
// CHECK: fuser.mul %arg0, %arg1 : tensor<2x3xcomplex<f64>>, tensor<2x1xcomplex<f64>> -> tensor<2x3xcomplex<f64>>
// CHECK: fuser.div
// CHECK: fuser.exp %{{.*}} : tensor<2x3xcomplex<f64>>
// CHECK: fuser.abs %{{.*}} : tensor<2x3xcomplex<f64>>
// CHECK: fuser.eq %{{.*}} : tensor<2x3xcomplex<f64>>, tensor<2x3xcomplex<f64>> -> tensor<2x3xi1>
// CHECK: fuser.isreal %{{.*}} : tensor<2x3xcomplex<f64>> -> tensor<2x3xi1>
// CHECK: fuser.asinh %{{.*}} : tensor<2x3xcomplex<f64>>
// CHECK: fuser.sigmoid %{{.*}} : tensor<2x3xcomplex<f64>>
func.func @arithmetic(%a: tensor<2x3xcomplex<f64>>, %b: tensor<2x1xcomplex<f64>>) -> (tensor<2x3xf64>, tensor<2x3xi1>, tensor<2x3xi1>) {
  %0 = fuser.mul %a, %b : tensor<2x3xcomplex<f64>>, tensor<2x1xcomplex<f64>> -> tensor<2x3xcomplex<f64>>
  %1 = fuser.div %0, %a : tensor<2x3xcomplex<f64>>, tensor<2x3xcomplex<f64>> -> tensor<2x3xcomplex<f64>>
  %2 = fuser.exp %1 : tensor<2x3xcomplex<f64>>
  %3 = fuser.abs %2 : tensor<2x3xcomplex<f64>>
  %4 = fuser.eq %2, %a : tensor<2x3xcomplex<f64>>, tensor<2x3xcomplex<f64>> -> tensor<2x3xi1>
  %5 = fuser.isreal %2 : tensor<2x3xcomplex<f64>> -> tensor<2x3xi1>
  %6 = fuser.asinh %2 : tensor<2x3xcomplex<f64>>
  %7 = fuser.sigmoid %6 : tensor<2x3xcomplex<f64>>
  %8 = fuser.abs %7 : tensor<2x3xcomplex<f64>>
  return %8, %4, %5 : tensor<2x3xf64>, tensor<2x3xi1>, tensor<2x3xi1>
}

// CHECK-LABEL: func.func @casts_and_sum
// CHECK: fuser.cast %arg0 : tensor<8x4xf16> to tensor<8x4xcomplex<f32>>
// CHECK: fuser.cast %{{.*}} : tensor<8x4xcomplex<f32>> to tensor<8x4xcomplex<f64>>
// CHECK: fuser.reduction add %{{.*}} [1] : tensor<8x4xcomplex<f64>> -> tensor<8xcomplex<f64>>
// CHECK: fuser.cast %{{.*}} : tensor<8xcomplex<f64>> to tensor<8xbf16>
func.func @casts_and_sum(%a: tensor<8x4xf16>) -> tensor<8xbf16> {
  %0 = fuser.cast %a : tensor<8x4xf16> to tensor<8x4xcomplex<f32>>
  %1 = fuser.cast %0 : tensor<8x4xcomplex<f32>> to tensor<8x4xcomplex<f64>>
  %2 = fuser.reduction add %1 [1] : tensor<8x4xcomplex<f64>> -> tensor<8xcomplex<f64>>
  %3 = fuser.cast %2 : tensor<8xcomplex<f64>> to tensor<8xbf16>
  return %3 : tensor<8xbf16>
}

// Scalars take complex too.
// CHECK-LABEL: func.func @scalars
// CHECK: fuser.complex %arg0, %arg0 : f64, f64 -> complex<f64>
// CHECK: fuser.abs %{{.*}} : complex<f64>
func.func @scalars(%x: f64) -> f64 {
  %z = fuser.complex %x, %x : f64, f64 -> complex<f64>
  %a = fuser.abs %z : complex<f64>
  return %a : f64
}
