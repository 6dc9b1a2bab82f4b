// Casts (rounding, truncation, saturation, i1), reductions (order, f32
// accumulation of 16-bit floats, identities, keepdim) and segments.
// RUN: fuser-run %s --entry float_casts --print-values | FileCheck %s --check-prefix=FLOAT
// RUN: fuser-run %s --entry int_casts --print-values | FileCheck %s --check-prefix=INT
// RUN: fuser-run %s --entry double_rounding --print-values | FileCheck %s --check-prefix=ONCE
// RUN: fuser-run %s --entry reductions --print-values | FileCheck %s --check-prefix=RED
// RUN: fuser-run %s --entry to_float8 --print-values | FileCheck %s --check-prefix=F8
// RUN: fuser-run %s --entry from_float8 --print-values | FileCheck %s --check-prefix=FROMF8
// RUN: fuser-run %s --entry segment --print-values | FileCheck %s --check-prefix=SEG

// f32 -> bf16/f16 round to nearest even (ties 1 + 2^-8 and 1 + 3 * 2^-8 go
// to the even neighbour); beyond the f16 range gives infinity.
// FLOAT: result 0: tensor<4xbf16>
// FLOAT-NEXT: [1, 1.015625, -0, inf]
// FLOAT: result 1: tensor<4xf16>
// FLOAT-NEXT: [65504, inf, 5.9604645e-08, 0]
func.func @float_casts() -> (tensor<4xbf16>, tensor<4xf16>) {
  %a = arith.constant dense<[1.00390625, 1.01171875, -0.0, 3.4e38]> : tensor<4xf32>
  %b = fuser.cast %a : tensor<4xf32> to tensor<4xbf16>
  // 65519 rounds down to the largest f16, 65520 is the tie to infinity;
  // 2^-24 is the smallest subnormal, 2^-25 the tie to 0.
  %c = arith.constant dense<[65519.0, 65520.0, 5.9604644775390625e-08, 2.98023223876953125e-08]> : tensor<4xf32>
  %d = fuser.cast %c : tensor<4xf32> to tensor<4xf16>
  return %b, %d : tensor<4xbf16>, tensor<4xf16>
}

// float -> int truncates toward zero, saturates, and maps NaN to 0; to i1
// is != 0 (NaN included); i1 -> float is 0 or 1; i64 -> i32 wraps.
// INT: result 0: tensor<6xi32>
// INT-NEXT: [-2, 2, 2147483647, -2147483648, 0, 0]
// INT: result 1: tensor<6xi1>
// INT-NEXT: [true, true, true, true, true, false]
// INT: result 2: tensor<2xf32>
// INT-NEXT: [1, 0]
// INT: result 3: tensor<2xi32>
// INT-NEXT: [-1, 1]
func.func @int_casts() -> (tensor<6xi32>, tensor<6xi1>, tensor<2xf32>, tensor<2xi32>) {
  %a = arith.constant dense<[-2.75, 2.75, 1.0e10, -1.0e10, 0x7FC00000, -0.5]> : tensor<6xf32>
  %i = fuser.cast %a : tensor<6xf32> to tensor<6xi32>
  %b = arith.constant dense<[-2.75, 2.75, 1.0e10, -1.0e10, 0x7FC00000, 0.0]> : tensor<6xf32>
  %p = fuser.cast %b : tensor<6xf32> to tensor<6xi1>
  %t = arith.constant dense<[true, false]> : tensor<2xi1>
  %f = fuser.cast %t : tensor<2xi1> to tensor<2xf32>
  %w = arith.constant dense<[4294967295, 4294967297]> : tensor<2xi64>
  %n = fuser.cast %w : tensor<2xi64> to tensor<2xi32>
  return %i, %p, %f, %n : tensor<6xi32>, tensor<6xi1>, tensor<2xf32>, tensor<2xi32>
}

// Conversions round once: 2^24 + 2^16 + 1 and 1 + 2^-8 + 2^-30 lie just above
// a bf16 tie, which a detour through f32 would round away.
// ONCE: result 0: bf16
// ONCE-NEXT: 16908288
// ONCE: result 1: bf16
// ONCE-NEXT: 1.0078125
func.func @double_rounding() -> (bf16, bf16) {
  %i = arith.constant 16842753 : i32
  %a = fuser.cast %i : i32 to bf16
  %d = arith.constant 0x3FF0100000400000 : f64
  %b = fuser.cast %d : f64 to bf16
  return %a, %b : bf16, bf16
}

// Sums run in row-major order (2^24 + 1 - 2^24 is 0 in f32); bf16 sums
// accumulate in f32 (256 + 1 + 1 = 258, where bf16 steps would give 256);
// max/min start from -inf/+inf, mul from 1; keepdim keeps size-1 dims.
// RED: result 0: tensor<1xf32>
// RED-NEXT: [0]
// RED: result 1: tensor<1xbf16>
// RED-NEXT: [258]
// RED: result 2: tensor<2x1xi32>
// RED-NEXT: {{\[\[}}6], [120]]
// RED: result 3: tensor<3xf64>
// RED-NEXT: [4, 5, 6]
// RED: result 4: tensor<1x1xf64>
// RED-NEXT: {{\[\[}}1]]
func.func @reductions() -> (tensor<1xf32>, tensor<1xbf16>, tensor<2x1xi32>, tensor<3xf64>, tensor<1x1xf64>) {
  %a = arith.constant dense<[[16777216.0, 1.0, -16777216.0]]> : tensor<1x3xf32>
  %s = fuser.reduction add %a [1] : tensor<1x3xf32> -> tensor<1xf32>
  %b = arith.constant dense<[[256.0, 1.0, 1.0]]> : tensor<1x3xbf16>
  %t = fuser.reduction add %b [1] : tensor<1x3xbf16> -> tensor<1xbf16>
  %c = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %p = fuser.reduction mul %c [1] keepdim : tensor<2x3xi32> -> tensor<2x1xi32>
  %d = arith.constant dense<[[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]]> : tensor<2x3xf64>
  %m = fuser.reduction max %d [0] : tensor<2x3xf64> -> tensor<3xf64>
  %n = fuser.reduction min %d [0, 1] keepdim : tensor<2x3xf64> -> tensor<1x1xf64>
  return %s, %t, %p, %m, %n : tensor<1xf32>, tensor<1xbf16>, tensor<2x1xi32>, tensor<3xf64>, tensor<1x1xf64>
}

// A segment evaluates its body with the block arguments bound to its inputs.
// SEG: result 0: tensor<2xf32>
// SEG-NEXT: [4, 10]
func.func @segment() -> tensor<2xf32> {
  %x = arith.constant dense<[[1.0, 3.0], [4.0, 6.0]]> : tensor<2x2xf32>
  %r = fuser.segment reduction (%x) : (tensor<2x2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2x2xf32>):
    %s = fuser.reduction add %a [1] : tensor<2x2xf32> -> tensor<2xf32>
    fuser.yield %s : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// f32 -> f8E4M3FN and f8E5M2 (nvFuser's cvt.rn.satfinite): round to nearest
// even, saturate at 448 / 57344 (the midpoints above them and infinities
// included), NaN stays NaN, subnormal ties go to even (2^-10 to 0, 3 * 2^-10
// to 2^-8).
// F8: result 0: tensor<12xf8E4M3FN>
// F8-NEXT: [448, 448, 448, 448, -448, nan, 0.001953125, 0, 0.00390625, 1, 1.25, -0]
// F8: result 1: tensor<8xf8E5M2>
// F8-NEXT: [57344, 57344, 57344, 57344, 1.5258789e-05, 0, nan, 1]
// An f64 just above an e4m3 midpoint rounds up: one rounding, not two.
// F8: result 2: tensor<2xf8E4M3FN>
// F8-NEXT: [1.125, 1]
func.func @to_float8() -> (tensor<12xf8E4M3FN>, tensor<8xf8E5M2>, tensor<2xf8E4M3FN>) {
  %a = arith.constant dense<[448.0, 464.0, 480.0, 0x7F800000, 0xFF800000, 0x7FC00000, 0.001953125, 0.0009765625, 0.0029296875, 1.0625, 1.1875, -0.0]> : tensor<12xf32>
  %b = fuser.cast %a : tensor<12xf32> to tensor<12xf8E4M3FN>
  %c = arith.constant dense<[57344.0, 61440.0, 1.0e9, 0x7F800000, 1.52587890625e-05, 7.62939453125e-06, 0x7FC00000, 1.125]> : tensor<8xf32>
  %d = fuser.cast %c : tensor<8xf32> to tensor<8xf8E5M2>
  %e = arith.constant dense<[1.0625000000009095, 1.0625]> : tensor<2xf64>
  %f = fuser.cast %e : tensor<2xf64> to tensor<2xf8E4M3FN>
  return %b, %d, %f : tensor<12xf8E4M3FN>, tensor<8xf8E5M2>, tensor<2xf8E4M3FN>
}

// From the 8-bit floats (bits: 0x7f NaN, 0x01 the smallest subnormal 2^-9,
// 0x7e 448, 0x80 -0, 0x3c 1.5; 0x7c is f8E5M2's infinity): exact in every
// float, truncated to integers (NaN gives 0), != 0 to i1; e4m3 -> e5m2
// rounds (1.125 ties to 1) and e5m2 -> e4m3 saturates (inf to 448).
// FROMF8: result 0: tensor<6xf32>
// FROMF8-NEXT: [nan, 0.001953125, 448, -0, 1.5, 1.125]
// FROMF8: result 1: tensor<6xi32>
// FROMF8-NEXT: [0, 0, 448, 0, 1, 1]
// FROMF8: result 2: tensor<6xi1>
// FROMF8-NEXT: [true, true, true, false, true, true]
// FROMF8: result 3: tensor<6xf8E5M2>
// FROMF8-NEXT: [nan, 0.001953125, 448, -0, 1.5, 1]
// FROMF8: result 4: tensor<2xf8E4M3FN>
// FROMF8-NEXT: [448, -448]
func.func @from_float8() -> (tensor<6xf32>, tensor<6xi32>, tensor<6xi1>, tensor<6xf8E5M2>, tensor<2xf8E4M3FN>) {
  %a = arith.constant dense<[0x7F, 0x01, 0x7E, 0x80, 0x3C, 0x39]> : tensor<6xf8E4M3FN>
  %f = fuser.cast %a : tensor<6xf8E4M3FN> to tensor<6xf32>
  %i = fuser.cast %a : tensor<6xf8E4M3FN> to tensor<6xi32>
  %p = fuser.cast %a : tensor<6xf8E4M3FN> to tensor<6xi1>
  %e = fuser.cast %a : tensor<6xf8E4M3FN> to tensor<6xf8E5M2>
  %g = arith.constant dense<[0x7C, 0xFC]> : tensor<2xf8E5M2>
  %h = fuser.cast %g : tensor<2xf8E5M2> to tensor<2xf8E4M3FN>
  return %f, %i, %p, %e, %h : tensor<6xf32>, tensor<6xi32>, tensor<6xi1>, tensor<6xf8E5M2>, tensor<2xf8E4M3FN>
}
