// A NaN has no sign (docs/Interpreter.md, "NaN"): which NaN an op returns
// for NaN operands depends on the operand order a compiler picks, so
// `signbit` of any NaN is false, on every backend and after every rewrite.
// sqrt of a negative number is -NaN on x86 and neg flips it; NaN * NaN used to give the
// first operand's sign on the interpreter's same-shape path and the second's
// where canonicalize made `mul` broadcast implicitly, and the kernels
// another again.
// RUN: fuser-run %s --entry f32 --print-values | FileCheck %s --check-prefix=F32
// RUN: fuser-run %s --entry f16 --print-values | FileCheck %s --check-prefix=F32
// RUN: fuser-opt --canonicalize %s | fuser-run - --entry f32 --print-values | FileCheck %s --check-prefix=F32
// RUN: fuser-opt --canonicalize %s | fuser-run - --entry f16 --print-values | FileCheck %s --check-prefix=F32
// RUN: fuser-run %s --entry f32 --backend cpu --check-against interp | FileCheck %s --check-prefix=SAME
// RUN: fuser-run %s --entry f16 --backend cpu --check-against interp | FileCheck %s --check-prefix=SAME
// RUN: fuser-run %s --entry f32 --backend simt --check-against interp | FileCheck %s --check-prefix=SAME
// RUN: fuser-run %s --entry f16 --backend simt --check-against interp | FileCheck %s --check-prefix=SAME
// RUN: fuser-run %s --entry constants --print-values | FileCheck %s --check-prefix=CONST
// RUN: fuser-opt --canonicalize %s | fuser-run - --entry constants --print-values | FileCheck %s --check-prefix=CONST

// The deterministic input (seed 0, in f32 and f16) is [-0.375, 5.375,
// -1.125, -6.875, 3.75, 6.875, -3.625, -0.875]: negative rows are NaN
// (false), the others sqrt(x) * -sqrt(x) < 0 (true).
// F32: {{\[\[}}false, false, false], [true, true, true], [false, false, false], [false, false, false], [true, true, true], [true, true, true], [false, false, false], [false, false, false]]
// SAME: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok

func.func @f32(%a: tensor<8x1xf32>) -> tensor<8x3xi1> {
  %0 = fuser.sqrt %a : tensor<8x1xf32>
  %1 = fuser.expand %0 : tensor<8x1xf32> -> tensor<8x3xf32>
  %2 = fuser.neg %1 : tensor<8x3xf32>
  %3 = fuser.mul %1, %2 : tensor<8x3xf32>, tensor<8x3xf32> -> tensor<8x3xf32>
  %4 = fuser.signbit %3 : tensor<8x3xf32> -> tensor<8x3xi1>
  return %4 : tensor<8x3xi1>
}

func.func @f16(%a: tensor<8x1xf16>) -> tensor<8x3xi1> {
  %0 = fuser.sqrt %a : tensor<8x1xf16>
  %1 = fuser.expand %0 : tensor<8x1xf16> -> tensor<8x3xf16>
  %2 = fuser.neg %1 : tensor<8x3xf16>
  %3 = fuser.mul %1, %2 : tensor<8x3xf16>, tensor<8x3xf16> -> tensor<8x3xf16>
  %4 = fuser.signbit %3 : tensor<8x3xf16> -> tensor<8x3xi1>
  return %4 : tensor<8x3xi1>
}

// The constant folder follows the same rule: -NaN and NaN literals, -0, -inf.
// CONST: [false, false, true, true, false]
func.func @constants() -> tensor<5xi1> {
  %a = arith.constant dense<[0xFFC00000, 0x7FC00000, -0.0, 0xFF800000, 1.0]> : tensor<5xf32>
  %0 = fuser.signbit %a : tensor<5xf32> -> tensor<5xi1>
  return %0 : tensor<5xi1>
}
