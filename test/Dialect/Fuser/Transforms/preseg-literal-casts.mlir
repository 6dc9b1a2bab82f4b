// RUN: fuser-opt %s --fuser-preseg | FileCheck %s
// RUN: fuser-opt %s --fuser-preseg -o %t.mlir
// RUN: fuser-run %s --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=SAME

// cast(c : f64 -> f32) -> c in f32: the RMSNorm of nvFuser's frontends,
// whose promotions cast every Python literal, keeps only the real casts of
// its tensors (here the bf16 input widened and the result narrowed).
// CHECK-LABEL: func.func @rms_norm
// CHECK-DAG: arith.constant 9.99999997E-7 : f32
// CHECK-DAG: arith.constant 6.400000e+01 : f32
// CHECK-COUNT-2: fuser.cast %{{.*}} : tensor
// CHECK-NOT: fuser.cast
// SAME: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
func.func @rms_norm(%x: tensor<4x64xbf16>) -> tensor<4x64xbf16> {
  %eps = arith.constant 1.0e-6 : f64
  %n = arith.constant 64.0 : f64
  %0 = fuser.cast %x : tensor<4x64xbf16> to tensor<4x64xf32>
  %1 = fuser.mul %0, %0 : tensor<4x64xf32>, tensor<4x64xf32> -> tensor<4x64xf32>
  %2 = fuser.reduction add %1 [1] keepdim : tensor<4x64xf32> -> tensor<4x1xf32>
  %nf = fuser.cast %n : f64 to f32
  %3 = fuser.div %2, %nf : tensor<4x1xf32>, f32 -> tensor<4x1xf32>
  %epsf = fuser.cast %eps : f64 to f32
  %4 = fuser.add %3, %epsf : tensor<4x1xf32>, f32 -> tensor<4x1xf32>
  %5 = fuser.rsqrt %4 : tensor<4x1xf32>
  %6 = fuser.mul %0, %5 : tensor<4x64xf32>, tensor<4x1xf32> -> tensor<4x64xf32>
  %7 = fuser.cast %6 : tensor<4x64xf32> to tensor<4x64xbf16>
  return %7 : tensor<4x64xbf16>
}
