// Complex kernels on the GPU: one element per thread, complex<f32> loaded
// and stored as its two f32 parts, the arithmetic expanded by
// convert-complex-to-standard inside convert-fuser-to-scf (the same code
// the CPU backend runs, so the exact ops give the interpreter's bits), the
// math ops inlined from libdevice. Pointwise, a complex sum along rows and
// along columns, and a complex mean subtracted along rows.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --implicit-check-not=.v2
// RUN: fuser-opt %s --fuser-preseg --fuser-segment -o %t.mlir
// RUN: fuser-run %t.mlir --backend cpu --check-against interp | FileCheck %s --check-prefix=CPU
// RUN: fuser-run %t.mlir --entry sums --backend cpu --check-against interp | FileCheck %s --check-prefix=CPU
// RUN: fuser-run %t.mlir --entry normalize --backend cpu --check-against interp | FileCheck %s --check-prefix=CPU

// A complex<f32> moves as two 32-bit words, a complex<f64> as two 64-bit
// ones; no vector access (the PTX is one escaped string per kernel).
// CHECK: .entry pointwise_kernel
// CHECK-SAME: ld.global.nc.b32 \09%r{{[0-9]+}}, [%rd[[A:[0-9]+]]];\0A\09ld.global.nc.b32 \09%r{{[0-9]+}}, [%rd[[A]]+4];
// CHECK-SAME: st.global.b32 \09[%rd[[O:[0-9]+]]], %r{{[0-9]+}};\0A\09st.global.b32 \09[%rd[[O]]+4],
// CHECK: .entry sums_kernel
// CHECK: .entry sums_kernel
// CHECK: .entry normalize_kernel
// CHECK-SAME: ld.global.nc.b64 \09%rd{{[0-9]+}}, [%rd[[N:[0-9]+]]+-64];\0A\09ld.global.nc.b64 \09%rd{{[0-9]+}}, [%rd[[N]]+-56];
// CPU-NOT: FAILED
// CPU: ulp ok
// CPU-NOT: FAILED
func.func @pointwise(%a: tensor<64x32xcomplex<f32>>, %b: tensor<64x1xf32>) -> (tensor<64x32xcomplex<f32>>, tensor<64x32xf32>) {
  %bc = fuser.cast %b : tensor<64x1xf32> to tensor<64x1xcomplex<f32>>
  %m = fuser.mul %a, %bc : tensor<64x32xcomplex<f32>>, tensor<64x1xcomplex<f32>> -> tensor<64x32xcomplex<f32>>
  %d = fuser.div %m, %a : tensor<64x32xcomplex<f32>>, tensor<64x32xcomplex<f32>> -> tensor<64x32xcomplex<f32>>
  %e = fuser.exp %d : tensor<64x32xcomplex<f32>>
  %abs = fuser.abs %e : tensor<64x32xcomplex<f32>>
  return %e, %abs : tensor<64x32xcomplex<f32>>, tensor<64x32xf32>
}

func.func @sums(%z: tensor<32x256xcomplex<f32>>) -> (tensor<32xcomplex<f32>>, tensor<256xcomplex<f32>>) {
  %0 = fuser.reduction add %z [1] : tensor<32x256xcomplex<f32>> -> tensor<32xcomplex<f32>>
  %1 = fuser.reduction add %z [0] : tensor<32x256xcomplex<f32>> -> tensor<256xcomplex<f32>>
  return %0, %1 : tensor<32xcomplex<f32>>, tensor<256xcomplex<f32>>
}

// z - mean(z) along rows: a normalization kernel over complex rows.
func.func @normalize(%z: tensor<16x128xcomplex<f64>>) -> tensor<16x128xcomplex<f64>> {
  %s = fuser.reduction add %z [1] keepdim : tensor<16x128xcomplex<f64>> -> tensor<16x1xcomplex<f64>>
  %n = arith.constant 0.0078125 : f64
  %nc = fuser.cast %n : f64 to complex<f64>
  %mean = fuser.mul %s, %nc : tensor<16x1xcomplex<f64>>, complex<f64> -> tensor<16x1xcomplex<f64>>
  %c = fuser.sub %z, %mean : tensor<16x128xcomplex<f64>>, tensor<16x1xcomplex<f64>> -> tensor<16x128xcomplex<f64>>
  return %c : tensor<16x128xcomplex<f64>>
}
