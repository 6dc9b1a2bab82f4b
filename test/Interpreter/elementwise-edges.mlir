// fuser-run --print-values of the elementwise ops from nvFuser's op set on
// edge inputs (NaN, +-inf, +-0, halfway cases, the smallest subnormal,
// integer limits, shifts by the width and more, division by 0), on the
// reference interpreter. (The CPU backend's kernels for every op are
// JIT-checked against the interpreter on edge tables in FuserToArithTest.)
// The f32 inputs of the unary, predicate, logical and clamp cases, in order:
// [NaN, inf, -inf, -0, 0, 2.5, -2.5, 0.5, -0.5, 1e-45 (the smallest
// subnormal), 3.75, -3.75].
// RUN: fuser-run %s --entry exact_unary_f32 --print-values | FileCheck %s --check-prefix=EXACT
// RUN: fuser-run %s --entry predicates_f32 --print-values | FileCheck %s --check-prefix=PRED
// RUN: fuser-run %s --entry integer_binary --print-values | FileCheck %s --check-prefix=INT
// RUN: fuser-run %s --entry shifts --print-values | FileCheck %s --check-prefix=SHIFT
// RUN: fuser-run %s --entry float_binary --print-values | FileCheck %s --check-prefix=FLOAT
// RUN: fuser-run %s --entry logical --print-values | FileCheck %s --check-prefix=LOGIC
// RUN: fuser-run %s --entry ternary --print-values | FileCheck %s --check-prefix=TERN
// RUN: fuser-run %s --entry math_points --print-values | FileCheck %s --check-prefix=MATH

// EXACT: result 0: tensor<12xf32>
// EXACT-NEXT: [nan, inf, -inf, -0, 0, 3, -2, 1, -0, 1, 4, -3]
// EXACT: result 1: tensor<12xf32>
// EXACT-NEXT: [nan, inf, -inf, -0, 0, 2, -3, 0, -1, 0, 3, -4]
// EXACT: result 2: tensor<12xf32>
// EXACT-NEXT: [nan, inf, -inf, -0, 0, 2, -2, 0, -0, 0, 3, -3]
// EXACT: result 3: tensor<12xf32>
// EXACT-NEXT: [nan, inf, -inf, -0, 0, 2, -2, 0, -0, 0, 4, -4]
// EXACT: result 4: tensor<12xf32>
// EXACT-NEXT: [nan, nan, nan, 0, 0, 0.5, -0.5, 0.5, -0.5, 1e-45, 0.75, -0.75]
// EXACT: result 5: tensor<12xf32>
// EXACT-NEXT: [nan, inf, 0, 0, 0, 2.5, 0, 0.5, 0, 1e-45, 3.75, 0]
// EXACT: result 6: tensor<12xf32>
// EXACT-NEXT: [0, 1, -1, 0, 0, 1, -1, 1, -1, 1, 1, -1]
func.func @exact_unary_f32() -> (tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>) {
  %x = arith.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, -0.0, 0.0, 2.5, -2.5, 0.5, -0.5, 1.0e-45, 3.75, -3.75]> : tensor<12xf32>
  %r0 = fuser.ceil %x : tensor<12xf32>
  %r1 = fuser.floor %x : tensor<12xf32>
  %r2 = fuser.trunc %x : tensor<12xf32>
  %r3 = fuser.round %x : tensor<12xf32>
  %r4 = fuser.frac %x : tensor<12xf32>
  %r5 = fuser.relu %x : tensor<12xf32>
  %r6 = fuser.sign %x : tensor<12xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>
}

// PRED: result 0: tensor<12xi1>
// PRED-NEXT: [false, false, false, true, true, true, true, true, true, true, true, true]
// PRED: result 1: tensor<12xi1>
// PRED-NEXT: [false, true, true, false, false, false, false, false, false, false, false, false]
// PRED: result 2: tensor<12xi1>
// PRED-NEXT: [true, false, false, false, false, false, false, false, false, false, false, false]
// PRED: result 3: tensor<12xi1>
// PRED-NEXT: [false, false, true, false, false, false, false, false, false, false, false, false]
// PRED: result 4: tensor<12xi1>
// PRED-NEXT: [false, true, false, false, false, false, false, false, false, false, false, false]
// PRED: result 5: tensor<12xi1>
// PRED-NEXT: [true, true, true, true, true, true, true, true, true, true, true, true]
// PRED: result 6: tensor<12xi1>
// PRED-NEXT: [false, false, true, true, false, false, true, false, true, false, false, true]
// PRED: result 7: tensor<12xi1>
// PRED-NEXT: [false, false, false, true, true, false, false, false, false, false, false, false]
func.func @predicates_f32() -> (tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>) {
  %x = arith.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, -0.0, 0.0, 2.5, -2.5, 0.5, -0.5, 1.0e-45, 3.75, -3.75]> : tensor<12xf32>
  %r0 = fuser.isfinite %x : tensor<12xf32> -> tensor<12xi1>
  %r1 = fuser.isinf %x : tensor<12xf32> -> tensor<12xi1>
  %r2 = fuser.isnan %x : tensor<12xf32> -> tensor<12xi1>
  %r3 = fuser.isneginf %x : tensor<12xf32> -> tensor<12xi1>
  %r4 = fuser.isposinf %x : tensor<12xf32> -> tensor<12xi1>
  %r5 = fuser.isreal %x : tensor<12xf32> -> tensor<12xi1>
  %r6 = fuser.signbit %x : tensor<12xf32> -> tensor<12xi1>
  %r7 = fuser.logical_not %x : tensor<12xf32> -> tensor<12xi1>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7 : tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>, tensor<12xi1>
}

// INT: result 0: tensor<12xi32>
// INT-NEXT: [0, -2147483648, -1, -1, 1, 1, 0, 5, -1, 2147483647, 12, -12]
// INT: result 1: tensor<12xi32>
// INT-NEXT: [0, -2147483648, 2, -1, 1, -2, 0, 5, 1, -1, 12, -12]
// INT: result 2: tensor<12xi32>
// INT-NEXT: [0, -2147483648, -1, -1, 1, 1, 0, 5, -1, 2147483647, 12, -12]
// INT: result 3: tensor<12xi32>
// INT-NEXT: [1, -2147483648, 1, 1, 1, 1, 0, 5, 1, 1, 6, 12]
// INT: result 4: tensor<12xi32>
// INT-NEXT: [-2147483648, 0, -2, 2, 2, -2, 0, 0, 0, 0, 0, 0]
// INT: result 5: tensor<12xi32>
// INT-NEXT: [-2147483648, 0, 1, -7, 3, 5, 0, 0, 2, 0, 0, 0]
// INT: result 6: tensor<12xi32>
// INT-NEXT: [-1, -2147483648, -5, -3, 7, -1, 0, 5, -1, -1, 30, -12]
// INT: result 7: tensor<12xi32>
// INT-NEXT: [2147483647, -2147483648, -6, 4, 4, -6, 0, 5, -3, -1, 30, -12]
func.func @integer_binary() -> (tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>) {
  %a = arith.constant dense<[-2147483648, -2147483648, -7, -7, 7, 7, 0, 5, -1, 2147483647, 12, -12]> : tensor<12xi32>
  %b = arith.constant dense<[-1, 0, 3, -3, 3, -3, 0, 0, 2, -2147483648, 18, 0]> : tensor<12xi32>
  %r0 = fuser.fmod %a, %b : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  %r1 = fuser.remainder %a, %b : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  %r2 = fuser.mod %a, %b : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  %r3 = fuser.gcd %a, %b : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  %r4 = fuser.div %a, %b : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  %r5 = fuser.bitwise_and %a, %b : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  %r6 = fuser.bitwise_or %a, %b : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  %r7 = fuser.bitwise_xor %a, %b : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7 : tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>
}

// SHIFT: result 0: tensor<12xi32>
// SHIFT-NEXT: [1, -2147483648, 0, 0, 0, -16, 0, 0, 0, 0, -1073741824, 24]
// SHIFT: result 1: tensor<12xi32>
// SHIFT-NEXT: [1, 0, 0, 0, 0, -4, -1, -1, -1, -1, 1, 1]
// SHIFT: result 2: tensor<12xi32>
// SHIFT-NEXT: [1, 0, 0, 0, 0, 2147483644, 1, 0, 0, 1, 1, 1]
func.func @shifts() -> (tensor<12xi32>, tensor<12xi32>, tensor<12xi32>) {
  %a = arith.constant dense<[1, 1, 1, 1, 1, -8, -8, -8, -8, -2147483648, 2147483647, 6]> : tensor<12xi32>
  %b = arith.constant dense<[0, 31, 32, 33, -1, 1, 31, 32, -1, 31, 30, 2]> : tensor<12xi32>
  %r0 = fuser.bitwise_left_shift %a, %b : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  %r1 = fuser.bitwise_right_shift %a, %b : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  %r2 = fuser.logical_right_shift %a, %b : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  return %r0, %r1, %r2 : tensor<12xi32>, tensor<12xi32>, tensor<12xi32>
}

// FLOAT: result 0: tensor<12xf32>
// FLOAT-NEXT: [1.5, -1.5, 1.5, -1.5, nan, nan, 1, -0, 0, 0, 1, nan]
// FLOAT: result 1: tensor<12xf32>
// FLOAT-NEXT: [1.5, 0.5, -0.5, -1.5, nan, nan, 1, -0, 0, 0, 1, nan]
// FLOAT: result 2: tensor<12xf32>
// FLOAT-NEXT: [5.4999995, -5.4999995, 5.4999995, -5.4999995, 0.99999994, 3.4028235e+38, 1.0000001, 1e-45, -1e-45, 1e-45, 1.0000001, nan]
// FLOAT: result 3: tensor<12xbf16>
// FLOAT-NEXT: [5.46875, -5.46875, 5.46875, -5.46875, 0.99609375, 3.3895314e+38, 1.0078125, 9.1835e-41, -9.1835e-41, 9.1835e-41, 1.0078125, nan]
func.func @float_binary() -> (tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xbf16>) {
  %a = arith.constant dense<[5.5, -5.5, 5.5, -5.5, 1.0, 0x7F800000, 1.0, -0.0, 0.0, 0.0, 1.0, 0x7FC00000]> : tensor<12xf32>
  %b = arith.constant dense<[2.0, 2.0, -2.0, -2.0, 0.0, 2.0, 0x7F800000, 1.0, -1.0, 1.0, 2.0, 1.0]> : tensor<12xf32>
  %r0 = fuser.fmod %a, %b : tensor<12xf32>, tensor<12xf32> -> tensor<12xf32>
  %r1 = fuser.remainder %a, %b : tensor<12xf32>, tensor<12xf32> -> tensor<12xf32>
  %r2 = fuser.nextafter %a, %b : tensor<12xf32>, tensor<12xf32> -> tensor<12xf32>
  %ha = fuser.cast %a : tensor<12xf32> to tensor<12xbf16>
  %hb = fuser.cast %b : tensor<12xf32> to tensor<12xbf16>
  %r3 = fuser.nextafter %ha, %hb : tensor<12xbf16>, tensor<12xbf16> -> tensor<12xbf16>
  return %r0, %r1, %r2, %r3 : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xbf16>
}

// LOGIC: result 0: tensor<12xi1>
// LOGIC-NEXT: [false, true, false, false, false, true, false, true, false, true, false, true]
// LOGIC: result 1: tensor<12xi1>
// LOGIC-NEXT: [true, true, true, true, false, true, true, true, true, true, true, true]
func.func @logical() -> (tensor<12xi1>, tensor<12xi1>) {
  %x = arith.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, -0.0, 0.0, 2.5, -2.5, 0.5, -0.5, 1.0e-45, 3.75, -3.75]> : tensor<12xf32>
  %z = arith.constant dense<[0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]> : tensor<12xf32>
  %r0 = fuser.logical_and %x, %z : tensor<12xf32>, tensor<12xf32> -> tensor<12xi1>
  %r1 = fuser.logical_or %x, %z : tensor<12xf32>, tensor<12xf32> -> tensor<12xi1>
  return %r0, %r1 : tensor<12xi1>, tensor<12xi1>
}

// TERN: result 0: tensor<12xf32>
// TERN-NEXT: [nan, 3, -1, -0, 0, 2.5, -1, 0.5, -0.5, 1e-45, 3, -1]
// TERN: result 1: tensor<12xf32>
// TERN-NEXT: [nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan]
// TERN: result 2: tensor<12xf32>
// TERN-NEXT: [nan, inf, 3, -0, 0, 2.5, 3, 0.5, -0.5, 1e-45, 3.75, 3]
// TERN: result 3: tensor<8xf32>
// TERN-NEXT: [0, 2.5, 5, 7.5, 10, -10, 20, nan]
func.func @ternary() -> (tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<8xf32>) {
  %x = arith.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, -0.0, 0.0, 2.5, -2.5, 0.5, -0.5, 1.0e-45, 3.75, -3.75]> : tensor<12xf32>
  %lo = arith.constant -1.0 : f32
  %hi = arith.constant 3.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %r0 = fuser.clamp %x, %lo, %hi : tensor<12xf32>, f32, f32 -> tensor<12xf32>
  %r1 = fuser.clamp %x, %nan, %hi : tensor<12xf32>, f32, f32 -> tensor<12xf32>
  %r2 = fuser.threshold %x, %lo, %hi : tensor<12xf32>, f32, f32 -> tensor<12xf32>
  %s = arith.constant dense<0.0> : tensor<1xf32>
  %e = arith.constant dense<10.0> : tensor<1xf32>
  %w = arith.constant dense<[0.0, 0.25, 0.5, 0.75, 1.0, -1.0, 2.0, 0x7FC00000]> : tensor<8xf32>
  %r3 = fuser.lerp %s, %e, %w : tensor<1xf32>, tensor<1xf32>, tensor<8xf32> -> tensor<8xf32>
  return %r0, %r1, %r2, %r3 : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<8xf32>
}

// MATH: result 0: tensor<4xf32>
// MATH-NEXT: [0, 1.5707964, 3.1415927, nan]
// MATH: result 1: tensor<4xf32>
// MATH-NEXT: [inf, 0, -inf, nan]
// MATH: result 2: tensor<4xf32>
// MATH-NEXT: [0, inf, inf, inf]
// MATH: result 3: tensor<4xf32>
// MATH-NEXT: [2, 1, 0.5, inf]
// MATH: result 4: tensor<4xf32>
// MATH-NEXT: [0.6931472, 0, -inf, inf]
// MATH: result 5: tensor<4xf32>
// MATH-NEXT: [inf, 0, -inf, nan]
func.func @math_points() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %x = arith.constant dense<[1.0, 0.0, -1.0, 0x7F800000]> : tensor<4xf32>
  %r0 = fuser.acos %x : tensor<4xf32>
  %r1 = fuser.erfinv %x : tensor<4xf32>
  %r2 = fuser.lgamma %x : tensor<4xf32>
  %r3 = fuser.exp2 %x : tensor<4xf32>
  %r4 = fuser.log1p %x : tensor<4xf32>
  %r5 = fuser.atanh %x : tensor<4xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
