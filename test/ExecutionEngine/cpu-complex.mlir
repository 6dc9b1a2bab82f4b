// The CPU backend's complex kernels against the interpreter on the
// deterministic inputs (each part from the float table): bit for bit for
// the exact ops (add, sub, mul, div, neg, abs, reciprocal, parts, casts,
// compares, predicates, sums along either axis), within the transcendental
// bound for exp, log, sqrt, rsqrt, sin, cos, tan, tanh, pow and the
// composed functions (sinh, cosh, asin, acos, atan, asinh, acosh, atanh,
// log10, log2, sigmoid).
// RUN: fuser-opt %s --fuser-preseg --fuser-segment -o %t.mlir
// RUN: fuser-run %t.mlir --entry cpu_pointwise --backend cpu --check-against interp | FileCheck %s
// RUN: fuser-run %t.mlir --entry cpu_math --backend cpu --check-against interp | FileCheck %s
// RUN: fuser-run %t.mlir --entry cpu_functions --backend cpu --check-against interp | FileCheck %s
// RUN: fuser-run %t.mlir --entry cpu_sums --backend cpu --check-against interp | FileCheck %s
// CHECK-NOT: FAILED
// CHECK: check 0: {{.*}} ok
// CHECK-NOT: FAILED

func.func @cpu_pointwise(%a: tensor<8x32xcomplex<f32>>, %b: tensor<8x1xcomplex<f32>>, %h: tensor<8x32xf16>) -> (tensor<8x32xcomplex<f32>>, tensor<8x32xf32>, tensor<8x32xi1>, tensor<8x32xbf16>, tensor<8x32xi32>, tensor<8x32xcomplex<f64>>) {
  %0 = fuser.mul %a, %b : tensor<8x32xcomplex<f32>>, tensor<8x1xcomplex<f32>> -> tensor<8x32xcomplex<f32>>
  %1 = fuser.div %0, %a : tensor<8x32xcomplex<f32>>, tensor<8x32xcomplex<f32>> -> tensor<8x32xcomplex<f32>>
  %2 = fuser.sub %1, %b : tensor<8x32xcomplex<f32>>, tensor<8x1xcomplex<f32>> -> tensor<8x32xcomplex<f32>>
  %3 = fuser.reciprocal %2 : tensor<8x32xcomplex<f32>>
  %4 = fuser.neg %3 : tensor<8x32xcomplex<f32>>
  %hc = fuser.cast %h : tensor<8x32xf16> to tensor<8x32xcomplex<f32>>
  %5 = fuser.add %4, %hc : tensor<8x32xcomplex<f32>>, tensor<8x32xcomplex<f32>> -> tensor<8x32xcomplex<f32>>
  %abs = fuser.abs %5 : tensor<8x32xcomplex<f32>>
  %re = fuser.real %5 : tensor<8x32xcomplex<f32>>
  %im = fuser.imag %a : tensor<8x32xcomplex<f32>>
  %6 = fuser.complex %im, %re : tensor<8x32xf32>, tensor<8x32xf32> -> tensor<8x32xcomplex<f32>>
  %eq = fuser.eq %6, %a : tensor<8x32xcomplex<f32>>, tensor<8x32xcomplex<f32>> -> tensor<8x32xi1>
  %ne = fuser.ne %6, %b : tensor<8x32xcomplex<f32>>, tensor<8x1xcomplex<f32>> -> tensor<8x32xi1>
  %and = fuser.logical_and %eq, %ne : tensor<8x32xi1>, tensor<8x32xi1> -> tensor<8x32xi1>
  %nz = fuser.logical_or %a, %6 : tensor<8x32xcomplex<f32>>, tensor<8x32xcomplex<f32>> -> tensor<8x32xi1>
  %fin = fuser.isfinite %5 : tensor<8x32xcomplex<f32>> -> tensor<8x32xi1>
  %real = fuser.isreal %a : tensor<8x32xcomplex<f32>> -> tensor<8x32xi1>
  %not = fuser.logical_not %a : tensor<8x32xcomplex<f32>> -> tensor<8x32xi1>
  %p0 = fuser.logical_or %and, %nz : tensor<8x32xi1>, tensor<8x32xi1> -> tensor<8x32xi1>
  %p1 = fuser.logical_and %fin, %real : tensor<8x32xi1>, tensor<8x32xi1> -> tensor<8x32xi1>
  %p2 = fuser.logical_or %p0, %p1 : tensor<8x32xi1>, tensor<8x32xi1> -> tensor<8x32xi1>
  %p = fuser.logical_and %p2, %not : tensor<8x32xi1>, tensor<8x32xi1> -> tensor<8x32xi1>
  %wide = fuser.cast %6 : tensor<8x32xcomplex<f32>> to tensor<8x32xcomplex<f64>>
  %bf = fuser.cast %wide : tensor<8x32xcomplex<f64>> to tensor<8x32xbf16>
  %int = fuser.cast %5 : tensor<8x32xcomplex<f32>> to tensor<8x32xi32>
  return %6, %abs, %p, %bf, %int, %wide : tensor<8x32xcomplex<f32>>, tensor<8x32xf32>, tensor<8x32xi1>, tensor<8x32xbf16>, tensor<8x32xi32>, tensor<8x32xcomplex<f64>>
}

func.func @cpu_math(%z: tensor<4x16xcomplex<f64>>, %w: tensor<4x16xcomplex<f32>>) -> (tensor<4x16xcomplex<f64>>, tensor<4x16xcomplex<f64>>, tensor<4x16xcomplex<f32>>, tensor<4x16xcomplex<f32>>, tensor<4x16xcomplex<f32>>, tensor<4x16xcomplex<f64>>) {
  %0 = fuser.exp %z : tensor<4x16xcomplex<f64>>
  %1 = fuser.log %0 : tensor<4x16xcomplex<f64>>
  %2 = fuser.sqrt %1 : tensor<4x16xcomplex<f64>>
  %3 = fuser.tanh %z : tensor<4x16xcomplex<f64>>
  %4 = fuser.sin %w : tensor<4x16xcomplex<f32>>
  %5 = fuser.cos %4 : tensor<4x16xcomplex<f32>>
  %6 = fuser.tan %w : tensor<4x16xcomplex<f32>>
  %7 = fuser.rsqrt %w : tensor<4x16xcomplex<f32>>
  %8 = fuser.pow %z, %3 : tensor<4x16xcomplex<f64>>, tensor<4x16xcomplex<f64>> -> tensor<4x16xcomplex<f64>>
  return %2, %3, %5, %6, %7, %8 : tensor<4x16xcomplex<f64>>, tensor<4x16xcomplex<f64>>, tensor<4x16xcomplex<f32>>, tensor<4x16xcomplex<f32>>, tensor<4x16xcomplex<f32>>, tensor<4x16xcomplex<f64>>
}

func.func @cpu_functions(%z: tensor<4x16xcomplex<f64>>, %w: tensor<4x16xcomplex<f32>>) -> (tensor<4x16xcomplex<f64>>, tensor<4x16xcomplex<f32>>, tensor<4x16xcomplex<f64>>, tensor<4x16xcomplex<f32>>, tensor<4x16xcomplex<f64>>, tensor<4x16xcomplex<f32>>) {
  %0 = fuser.sinh %z : tensor<4x16xcomplex<f64>>
  %1 = fuser.cosh %0 : tensor<4x16xcomplex<f64>>
  %2 = fuser.asin %w : tensor<4x16xcomplex<f32>>
  %3 = fuser.acos %2 : tensor<4x16xcomplex<f32>>
  %4 = fuser.atan %z : tensor<4x16xcomplex<f64>>
  %5 = fuser.asinh %1 : tensor<4x16xcomplex<f64>>
  %6 = fuser.acosh %w : tensor<4x16xcomplex<f32>>
  %7 = fuser.atanh %6 : tensor<4x16xcomplex<f32>>
  %8 = fuser.log10 %5 : tensor<4x16xcomplex<f64>>
  %9 = fuser.log2 %7 : tensor<4x16xcomplex<f32>>
  %10 = fuser.sigmoid %4 : tensor<4x16xcomplex<f64>>
  %11 = fuser.sigmoid %3 : tensor<4x16xcomplex<f32>>
  return %8, %9, %10, %11, %1, %2 : tensor<4x16xcomplex<f64>>, tensor<4x16xcomplex<f32>>, tensor<4x16xcomplex<f64>>, tensor<4x16xcomplex<f32>>, tensor<4x16xcomplex<f64>>, tensor<4x16xcomplex<f32>>
}

func.func @cpu_sums(%z: tensor<16x64xcomplex<f32>>) -> (tensor<16xcomplex<f32>>, tensor<64xcomplex<f32>>) {
  %0 = fuser.reduction add %z [1] : tensor<16x64xcomplex<f32>> -> tensor<16xcomplex<f32>>
  %1 = fuser.reduction add %z [0] : tensor<16x64xcomplex<f32>> -> tensor<64xcomplex<f32>>
  return %0, %1 : tensor<16xcomplex<f32>>, tensor<64xcomplex<f32>>
}
