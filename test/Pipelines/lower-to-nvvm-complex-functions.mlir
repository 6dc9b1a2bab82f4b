// The complex functions that have no `complex` op upstream (sinh, cosh,
// asin, acos, atan, asinh, acosh, atanh, log10, log2, sigmoid) lower to
// one sm_90 kernel: nvFuser's special cases as selects around complex
// log/sqrt/exp/div and libdevice's real functions, and match the
// interpreter on the CPU backend (which runs the same expansion).
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s
// RUN: fuser-opt %s --fuser-preseg --fuser-segment -o %t.mlir
// RUN: fuser-run %t.mlir --backend cpu --check-against interp | FileCheck %s --check-prefix=CPU
// CHECK: gpu.binary @functions_kernel
// CHECK-SAME: .entry functions_kernel
// CHECK-SAME: copysign.f32
// CHECK-SAME: copysign.f64
// CPU-NOT: FAILED
// CPU: check 0: {{.*}} ok
// CPU: check 1: {{.*}} ok
func.func @functions(%z: tensor<64x32xcomplex<f32>>, %w: tensor<64x32xcomplex<f64>>) -> (tensor<64x32xcomplex<f32>>, tensor<64x32xcomplex<f64>>) {
  %0 = fuser.sinh %z : tensor<64x32xcomplex<f32>>
  %1 = fuser.cosh %0 : tensor<64x32xcomplex<f32>>
  %2 = fuser.asin %1 : tensor<64x32xcomplex<f32>>
  %3 = fuser.acos %2 : tensor<64x32xcomplex<f32>>
  %4 = fuser.atan %3 : tensor<64x32xcomplex<f32>>
  %5 = fuser.asinh %4 : tensor<64x32xcomplex<f32>>
  %6 = fuser.acosh %w : tensor<64x32xcomplex<f64>>
  %7 = fuser.atanh %6 : tensor<64x32xcomplex<f64>>
  %8 = fuser.log10 %7 : tensor<64x32xcomplex<f64>>
  %9 = fuser.log2 %5 : tensor<64x32xcomplex<f32>>
  %10 = fuser.sigmoid %9 : tensor<64x32xcomplex<f32>>
  %11 = fuser.sigmoid %8 : tensor<64x32xcomplex<f64>>
  return %10, %11 : tensor<64x32xcomplex<f32>>, tensor<64x32xcomplex<f64>>
}
