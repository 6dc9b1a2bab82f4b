// The libdevice functions FuserToArith calls where MLIR's math lowering has
// no exact form (erfinv, erfcinv, lgamma, expm1, log1p, fmod) resolve on
// the GPU: gpu-module-to-binary links libdevice, the calls are inlined and
// no external function is left for ptxas. The same kernels on the CPU
// backend, where the host binds those names to the functions the
// interpreter computes with, give the interpreter's bits (0 ulp).
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --implicit-check-not=.extern
// RUN: fuser-run %s --backend cpu --check-against interp | FileCheck %s --check-prefix=CPU

// CHECK: .entry fusion_kernel
// The 4-ulp tolerance of transcendental fusions is for float results; the
// integer and boolean ones must be equal.
// CPU: check 0: max_abs_err=0 max_ulp=0 tolerance=4 ulp ok
// CPU: check 1: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// CPU: check 2: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// CPU: check 3: max_abs_err=0 max_ulp=0 tolerance=4 ulp ok

func.func @fusion(%x: tensor<8x256xf32>, %i: tensor<8x256xi32>, %h: tensor<8x256xbf16>) -> (tensor<8x256xf32>, tensor<8x256xi32>, tensor<8x256xi1>, tensor<8x256xbf16>) {
  %0 = fuser.erfinv %x : tensor<8x256xf32>
  %1 = fuser.lgamma %0 : tensor<8x256xf32>
  %2 = fuser.fmod %1, %x : tensor<8x256xf32>, tensor<8x256xf32> -> tensor<8x256xf32>
  %3 = fuser.expm1 %2 : tensor<8x256xf32>
  %4 = fuser.log1p %3 : tensor<8x256xf32>
  %5 = fuser.erfcinv %4 : tensor<8x256xf32>
  %6 = fuser.round %5 : tensor<8x256xf32>
  %7 = fuser.lerp %6, %x, %x : tensor<8x256xf32>, tensor<8x256xf32>, tensor<8x256xf32> -> tensor<8x256xf32>
  %8 = fuser.gcd %i, %i : tensor<8x256xi32>, tensor<8x256xi32> -> tensor<8x256xi32>
  %9 = fuser.bitwise_left_shift %8, %i : tensor<8x256xi32>, tensor<8x256xi32> -> tensor<8x256xi32>
  %10 = fuser.isfinite %7 : tensor<8x256xf32> -> tensor<8x256xi1>
  %11 = fuser.nextafter %h, %h : tensor<8x256xbf16>, tensor<8x256xbf16> -> tensor<8x256xbf16>
  %12 = fuser.signbit %11 : tensor<8x256xbf16> -> tensor<8x256xi1>
  %13 = fuser.logical_and %10, %12 : tensor<8x256xi1>, tensor<8x256xi1> -> tensor<8x256xi1>
  return %7, %9, %13, %11 : tensor<8x256xf32>, tensor<8x256xi32>, tensor<8x256xi1>, tensor<8x256xbf16>
}
