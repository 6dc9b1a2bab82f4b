// Math functions of constants give the interpreter's bits on the CPU
// backend (issue 43): the kernels call the host libm functions the
// interpreter calls, under names LLVM does not know, because LLVM folds its
// math intrinsics and the libm calls it recognizes in double and rounds,
// which is not glibc's float function: cosh(1.0f) folded to 1.5430807,
// glibc's coshf gives 1.5430806; log10(3.0f) 0.47712126 against 0.47712123
// (MathLibraryCalls.cpp). MLIR's folders call the host functions too.
// Bit for bit: --ulp-tolerance 0.
// RUN: fuser-run %s --entry f32 --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s
// RUN: fuser-run %s --entry f64 --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s
// CHECK-NOT: FAILED
// CHECK-COUNT-29: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// CHECK-NOT: FAILED

func.func @f32() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %half = arith.constant 0.75 : f32
  %a = fuser.full %one : f32 -> tensor<4xf32>
  %b = fuser.full %three : f32 -> tensor<4xf32>
  %c = fuser.full %half : f32 -> tensor<4xf32>
  %exp = fuser.exp %a : tensor<4xf32>
  %exp2 = fuser.exp2 %a : tensor<4xf32>
  %expm1 = fuser.expm1 %a : tensor<4xf32>
  %log = fuser.log %a : tensor<4xf32>
  %log2 = fuser.log2 %a : tensor<4xf32>
  %log10 = fuser.log10 %a : tensor<4xf32>
  %log1p = fuser.log1p %a : tensor<4xf32>
  %sin = fuser.sin %a : tensor<4xf32>
  %cos = fuser.cos %a : tensor<4xf32>
  %tan = fuser.tan %a : tensor<4xf32>
  %sinh = fuser.sinh %a : tensor<4xf32>
  %cosh = fuser.cosh %a : tensor<4xf32>
  %tanh = fuser.tanh %a : tensor<4xf32>
  %asin = fuser.asin %c : tensor<4xf32>
  %acos = fuser.acos %c : tensor<4xf32>
  %atan = fuser.atan %a : tensor<4xf32>
  %asinh = fuser.asinh %a : tensor<4xf32>
  %acosh = fuser.acosh %b : tensor<4xf32>
  %atanh = fuser.atanh %c : tensor<4xf32>
  %erf = fuser.erf %a : tensor<4xf32>
  %erfc = fuser.erfc %a : tensor<4xf32>
  %lgamma = fuser.lgamma %a : tensor<4xf32>
  %sigmoid = fuser.sigmoid %a : tensor<4xf32>
  %silu = fuser.silu %a : tensor<4xf32>
  %rsqrt = fuser.rsqrt %a : tensor<4xf32>
  %erfinv = fuser.erfinv %c : tensor<4xf32>
  %erfcinv = fuser.erfcinv %c : tensor<4xf32>
  %log10_3 = fuser.log10 %b : tensor<4xf32>
  %pow = fuser.pow %b, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %exp, %exp2, %expm1, %log, %log2, %log10, %log1p, %sin, %cos, %tan, %sinh, %cosh, %tanh, %asin, %acos, %atan, %asinh, %acosh, %atanh, %erf, %erfc, %lgamma, %sigmoid, %silu, %rsqrt, %erfinv, %erfcinv, %log10_3, %pow : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

func.func @f64() -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) {
  %one = arith.constant 1.0 : f64
  %three = arith.constant 3.0 : f64
  %half = arith.constant 0.75 : f64
  %a = fuser.full %one : f64 -> tensor<4xf64>
  %b = fuser.full %three : f64 -> tensor<4xf64>
  %c = fuser.full %half : f64 -> tensor<4xf64>
  %exp = fuser.exp %a : tensor<4xf64>
  %exp2 = fuser.exp2 %a : tensor<4xf64>
  %expm1 = fuser.expm1 %a : tensor<4xf64>
  %log = fuser.log %a : tensor<4xf64>
  %log2 = fuser.log2 %a : tensor<4xf64>
  %log10 = fuser.log10 %a : tensor<4xf64>
  %log1p = fuser.log1p %a : tensor<4xf64>
  %sin = fuser.sin %a : tensor<4xf64>
  %cos = fuser.cos %a : tensor<4xf64>
  %tan = fuser.tan %a : tensor<4xf64>
  %sinh = fuser.sinh %a : tensor<4xf64>
  %cosh = fuser.cosh %a : tensor<4xf64>
  %tanh = fuser.tanh %a : tensor<4xf64>
  %asin = fuser.asin %c : tensor<4xf64>
  %acos = fuser.acos %c : tensor<4xf64>
  %atan = fuser.atan %a : tensor<4xf64>
  %asinh = fuser.asinh %a : tensor<4xf64>
  %acosh = fuser.acosh %b : tensor<4xf64>
  %atanh = fuser.atanh %c : tensor<4xf64>
  %erf = fuser.erf %a : tensor<4xf64>
  %erfc = fuser.erfc %a : tensor<4xf64>
  %lgamma = fuser.lgamma %a : tensor<4xf64>
  %sigmoid = fuser.sigmoid %a : tensor<4xf64>
  %silu = fuser.silu %a : tensor<4xf64>
  %rsqrt = fuser.rsqrt %a : tensor<4xf64>
  %erfinv = fuser.erfinv %c : tensor<4xf64>
  %erfcinv = fuser.erfcinv %c : tensor<4xf64>
  %log10_3 = fuser.log10 %b : tensor<4xf64>
  %pow = fuser.pow %b, %c : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  return %exp, %exp2, %expm1, %log, %log2, %log10, %log1p, %sin, %cos, %tan, %sinh, %cosh, %tanh, %asin, %acos, %atan, %asinh, %acosh, %atanh, %erf, %erfc, %lgamma, %sigmoid, %silu, %rsqrt, %erfinv, %erfcinv, %log10_3, %pow : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>
}
