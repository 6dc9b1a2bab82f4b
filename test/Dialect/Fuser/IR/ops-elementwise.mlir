// Round trip of the elementwise ops added from nvFuser's op set: float
// and numeric unary ops, bitwise/logical ops, predicates, the binary ops
// by operand class, and the ternary ops (lerp, clamp, threshold).
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s | fuser-opt | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @unary_float
// CHECK-NEXT: %{{.*}} = fuser.acos %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.acos %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.acosh %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.acosh %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.asin %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.asin %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.asinh %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.asinh %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.atan %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.atan %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.atanh %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.atanh %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.cosh %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.cosh %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.sinh %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.sinh %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.tan %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.tan %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.erf %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.erf %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.erfc %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.erfc %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.erfinv %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.erfinv %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.erfcinv %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.erfcinv %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.exp2 %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.exp2 %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.expm1 %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.expm1 %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.lgamma %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.lgamma %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.log10 %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.log10 %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.log1p %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.log1p %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.log2 %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.log2 %{{.*}} : f64
// CHECK-NEXT: %{{.*}} = fuser.silu %{{.*}} : tensor<4x8xbf16>
// CHECK-NEXT: %{{.*}} = fuser.silu %{{.*}} : f64
func.func @unary_float(%t: tensor<4x8xbf16>, %s: f64) {
  %t0 = fuser.acos %t : tensor<4x8xbf16>
  %s0 = fuser.acos %s : f64
  %t1 = fuser.acosh %t : tensor<4x8xbf16>
  %s1 = fuser.acosh %s : f64
  %t2 = fuser.asin %t : tensor<4x8xbf16>
  %s2 = fuser.asin %s : f64
  %t3 = fuser.asinh %t : tensor<4x8xbf16>
  %s3 = fuser.asinh %s : f64
  %t4 = fuser.atan %t : tensor<4x8xbf16>
  %s4 = fuser.atan %s : f64
  %t5 = fuser.atanh %t : tensor<4x8xbf16>
  %s5 = fuser.atanh %s : f64
  %t6 = fuser.cosh %t : tensor<4x8xbf16>
  %s6 = fuser.cosh %s : f64
  %t7 = fuser.sinh %t : tensor<4x8xbf16>
  %s7 = fuser.sinh %s : f64
  %t8 = fuser.tan %t : tensor<4x8xbf16>
  %s8 = fuser.tan %s : f64
  %t9 = fuser.erf %t : tensor<4x8xbf16>
  %s9 = fuser.erf %s : f64
  %t10 = fuser.erfc %t : tensor<4x8xbf16>
  %s10 = fuser.erfc %s : f64
  %t11 = fuser.erfinv %t : tensor<4x8xbf16>
  %s11 = fuser.erfinv %s : f64
  %t12 = fuser.erfcinv %t : tensor<4x8xbf16>
  %s12 = fuser.erfcinv %s : f64
  %t13 = fuser.exp2 %t : tensor<4x8xbf16>
  %s13 = fuser.exp2 %s : f64
  %t14 = fuser.expm1 %t : tensor<4x8xbf16>
  %s14 = fuser.expm1 %s : f64
  %t15 = fuser.lgamma %t : tensor<4x8xbf16>
  %s15 = fuser.lgamma %s : f64
  %t16 = fuser.log10 %t : tensor<4x8xbf16>
  %s16 = fuser.log10 %s : f64
  %t17 = fuser.log1p %t : tensor<4x8xbf16>
  %s17 = fuser.log1p %s : f64
  %t18 = fuser.log2 %t : tensor<4x8xbf16>
  %s18 = fuser.log2 %s : f64
  %t19 = fuser.silu %t : tensor<4x8xbf16>
  %s19 = fuser.silu %s : f64
  return
}

// CHECK-LABEL: func.func @unary_numeric
// CHECK-NEXT: %{{.*}} = fuser.ceil %{{.*}} : tensor<4xf32>
// CHECK-NEXT: %{{.*}} = fuser.ceil %{{.*}} : tensor<4xi64>
// CHECK-NEXT: %{{.*}} = fuser.floor %{{.*}} : tensor<4xf32>
// CHECK-NEXT: %{{.*}} = fuser.floor %{{.*}} : tensor<4xi64>
// CHECK-NEXT: %{{.*}} = fuser.trunc %{{.*}} : tensor<4xf32>
// CHECK-NEXT: %{{.*}} = fuser.trunc %{{.*}} : tensor<4xi64>
// CHECK-NEXT: %{{.*}} = fuser.round %{{.*}} : tensor<4xf32>
// CHECK-NEXT: %{{.*}} = fuser.round %{{.*}} : tensor<4xi64>
// CHECK-NEXT: %{{.*}} = fuser.frac %{{.*}} : tensor<4xf32>
// CHECK-NEXT: %{{.*}} = fuser.frac %{{.*}} : tensor<4xi64>
// CHECK-NEXT: %{{.*}} = fuser.relu %{{.*}} : tensor<4xf32>
// CHECK-NEXT: %{{.*}} = fuser.relu %{{.*}} : tensor<4xi64>
// CHECK-NEXT: %{{.*}} = fuser.sign %{{.*}} : tensor<4xf32>
// CHECK-NEXT: %{{.*}} = fuser.sign %{{.*}} : tensor<4xi64>
// CHECK-NEXT: %{{.*}} = fuser.bitwise_not %{{.*}} : tensor<4xi64>
// CHECK-NEXT: %{{.*}} = fuser.bitwise_not %{{.*}} : tensor<4xi1>
func.func @unary_numeric(%t: tensor<4xf32>, %i: tensor<4xi64>, %b: tensor<4xi1>) {
  %t0 = fuser.ceil %t : tensor<4xf32>
  %i0 = fuser.ceil %i : tensor<4xi64>
  %t1 = fuser.floor %t : tensor<4xf32>
  %i1 = fuser.floor %i : tensor<4xi64>
  %t2 = fuser.trunc %t : tensor<4xf32>
  %i2 = fuser.trunc %i : tensor<4xi64>
  %t3 = fuser.round %t : tensor<4xf32>
  %i3 = fuser.round %i : tensor<4xi64>
  %t4 = fuser.frac %t : tensor<4xf32>
  %i4 = fuser.frac %i : tensor<4xi64>
  %t5 = fuser.relu %t : tensor<4xf32>
  %i5 = fuser.relu %i : tensor<4xi64>
  %t6 = fuser.sign %t : tensor<4xf32>
  %i6 = fuser.sign %i : tensor<4xi64>
  %n0 = fuser.bitwise_not %i : tensor<4xi64>
  %n1 = fuser.bitwise_not %b : tensor<4xi1>
  return
}

// CHECK-LABEL: func.func @predicates
// CHECK-NEXT: %{{.*}} = fuser.logical_not %{{.*}} : tensor<2x3xf16> -> tensor<2x3xi1>
// CHECK-NEXT: %{{.*}} = fuser.logical_not %{{.*}} : i32 -> i1
// CHECK-NEXT: %{{.*}} = fuser.signbit %{{.*}} : tensor<2x3xf16> -> tensor<2x3xi1>
// CHECK-NEXT: %{{.*}} = fuser.signbit %{{.*}} : i32 -> i1
// CHECK-NEXT: %{{.*}} = fuser.isfinite %{{.*}} : tensor<2x3xf16> -> tensor<2x3xi1>
// CHECK-NEXT: %{{.*}} = fuser.isfinite %{{.*}} : i32 -> i1
// CHECK-NEXT: %{{.*}} = fuser.isinf %{{.*}} : tensor<2x3xf16> -> tensor<2x3xi1>
// CHECK-NEXT: %{{.*}} = fuser.isinf %{{.*}} : i32 -> i1
// CHECK-NEXT: %{{.*}} = fuser.isnan %{{.*}} : tensor<2x3xf16> -> tensor<2x3xi1>
// CHECK-NEXT: %{{.*}} = fuser.isnan %{{.*}} : i32 -> i1
// CHECK-NEXT: %{{.*}} = fuser.isneginf %{{.*}} : tensor<2x3xf16> -> tensor<2x3xi1>
// CHECK-NEXT: %{{.*}} = fuser.isneginf %{{.*}} : i32 -> i1
// CHECK-NEXT: %{{.*}} = fuser.isposinf %{{.*}} : tensor<2x3xf16> -> tensor<2x3xi1>
// CHECK-NEXT: %{{.*}} = fuser.isposinf %{{.*}} : i32 -> i1
// CHECK-NEXT: %{{.*}} = fuser.isreal %{{.*}} : tensor<2x3xf16> -> tensor<2x3xi1>
// CHECK-NEXT: %{{.*}} = fuser.isreal %{{.*}} : i32 -> i1
func.func @predicates(%t: tensor<2x3xf16>, %i: i32) {
  %t0 = fuser.logical_not %t : tensor<2x3xf16> -> tensor<2x3xi1>
  %i0 = fuser.logical_not %i : i32 -> i1
  %t1 = fuser.signbit %t : tensor<2x3xf16> -> tensor<2x3xi1>
  %i1 = fuser.signbit %i : i32 -> i1
  %t2 = fuser.isfinite %t : tensor<2x3xf16> -> tensor<2x3xi1>
  %i2 = fuser.isfinite %i : i32 -> i1
  %t3 = fuser.isinf %t : tensor<2x3xf16> -> tensor<2x3xi1>
  %i3 = fuser.isinf %i : i32 -> i1
  %t4 = fuser.isnan %t : tensor<2x3xf16> -> tensor<2x3xi1>
  %i4 = fuser.isnan %i : i32 -> i1
  %t5 = fuser.isneginf %t : tensor<2x3xf16> -> tensor<2x3xi1>
  %i5 = fuser.isneginf %i : i32 -> i1
  %t6 = fuser.isposinf %t : tensor<2x3xf16> -> tensor<2x3xi1>
  %i6 = fuser.isposinf %i : i32 -> i1
  %t7 = fuser.isreal %t : tensor<2x3xf16> -> tensor<2x3xi1>
  %i7 = fuser.isreal %i : i32 -> i1
  return
}

// CHECK-LABEL: func.func @binary
// CHECK-NEXT: %{{.*}} = fuser.atan2 %{{.*}}, %{{.*}} : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: %{{.*}} = fuser.fmod %{{.*}}, %{{.*}} : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: %{{.*}} = fuser.remainder %{{.*}}, %{{.*}} : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: %{{.*}} = fuser.mod %{{.*}}, %{{.*}} : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: %{{.*}} = fuser.nextafter %{{.*}}, %{{.*}} : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: %{{.*}} = fuser.fmod %{{.*}}, %{{.*}} : tensor<4xi32>, i32 -> tensor<4xi32>
// CHECK-NEXT: %{{.*}} = fuser.remainder %{{.*}}, %{{.*}} : tensor<4xi32>, i32 -> tensor<4xi32>
// CHECK-NEXT: %{{.*}} = fuser.mod %{{.*}}, %{{.*}} : tensor<4xi32>, i32 -> tensor<4xi32>
// CHECK-NEXT: %{{.*}} = fuser.gcd %{{.*}}, %{{.*}} : tensor<4xi32>, i32 -> tensor<4xi32>
// CHECK-NEXT: %{{.*}} = fuser.bitwise_and %{{.*}}, %{{.*}} : tensor<4xi32>, i32 -> tensor<4xi32>
// CHECK-NEXT: %{{.*}} = fuser.bitwise_or %{{.*}}, %{{.*}} : tensor<4xi32>, i32 -> tensor<4xi32>
// CHECK-NEXT: %{{.*}} = fuser.bitwise_xor %{{.*}}, %{{.*}} : tensor<4xi32>, i32 -> tensor<4xi32>
// CHECK-NEXT: %{{.*}} = fuser.bitwise_left_shift %{{.*}}, %{{.*}} : tensor<4xi32>, i32 -> tensor<4xi32>
// CHECK-NEXT: %{{.*}} = fuser.bitwise_right_shift %{{.*}}, %{{.*}} : tensor<4xi32>, i32 -> tensor<4xi32>
// CHECK-NEXT: %{{.*}} = fuser.logical_right_shift %{{.*}}, %{{.*}} : tensor<4xi32>, i32 -> tensor<4xi32>
// CHECK-NEXT: %{{.*}} = fuser.bitwise_and %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
// CHECK-NEXT: %{{.*}} = fuser.bitwise_or %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
// CHECK-NEXT: %{{.*}} = fuser.bitwise_xor %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
// CHECK-NEXT: %{{.*}} = fuser.logical_and %{{.*}}, %{{.*}} : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xi1>
// CHECK-NEXT: %{{.*}} = fuser.logical_or %{{.*}}, %{{.*}} : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xi1>
func.func @binary(%a: tensor<8x1xf32>, %b: tensor<1x4xf32>, %x: tensor<4xi32>, %s: i32, %p: tensor<4xi1>) {
  %f0 = fuser.atan2 %a, %b : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
  %f1 = fuser.fmod %a, %b : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
  %f2 = fuser.remainder %a, %b : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
  %f3 = fuser.mod %a, %b : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
  %f4 = fuser.nextafter %a, %b : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
  %i0 = fuser.fmod %x, %s : tensor<4xi32>, i32 -> tensor<4xi32>
  %i1 = fuser.remainder %x, %s : tensor<4xi32>, i32 -> tensor<4xi32>
  %i2 = fuser.mod %x, %s : tensor<4xi32>, i32 -> tensor<4xi32>
  %i3 = fuser.gcd %x, %s : tensor<4xi32>, i32 -> tensor<4xi32>
  %i4 = fuser.bitwise_and %x, %s : tensor<4xi32>, i32 -> tensor<4xi32>
  %i5 = fuser.bitwise_or %x, %s : tensor<4xi32>, i32 -> tensor<4xi32>
  %i6 = fuser.bitwise_xor %x, %s : tensor<4xi32>, i32 -> tensor<4xi32>
  %i7 = fuser.bitwise_left_shift %x, %s : tensor<4xi32>, i32 -> tensor<4xi32>
  %i8 = fuser.bitwise_right_shift %x, %s : tensor<4xi32>, i32 -> tensor<4xi32>
  %i9 = fuser.logical_right_shift %x, %s : tensor<4xi32>, i32 -> tensor<4xi32>
  %b0 = fuser.bitwise_and %p, %p : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %b1 = fuser.bitwise_or %p, %p : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %b2 = fuser.bitwise_xor %p, %p : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %l0 = fuser.logical_and %a, %b : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xi1>
  %l1 = fuser.logical_or %a, %b : tensor<8x1xf32>, tensor<1x4xf32> -> tensor<8x4xi1>
  return
}

// CHECK-LABEL: func.func @ternary
// CHECK-NEXT: %{{.*}} = fuser.lerp %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x1xbf16>, tensor<1x4xbf16>, bf16 -> tensor<8x4xbf16>
// CHECK-NEXT: %{{.*}} = fuser.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi64>, i64, i64 -> tensor<4xi64>
// CHECK-NEXT: %{{.*}} = fuser.threshold %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x1xbf16>, bf16, bf16 -> tensor<8x1xbf16>
func.func @ternary(%a: tensor<8x1xbf16>, %b: tensor<1x4xbf16>, %w: bf16, %x: tensor<4xi64>, %lo: i64, %hi: i64) {
  %0 = fuser.lerp %a, %b, %w : tensor<8x1xbf16>, tensor<1x4xbf16>, bf16 -> tensor<8x4xbf16>
  %1 = fuser.clamp %x, %lo, %hi : tensor<4xi64>, i64, i64 -> tensor<4xi64>
  %2 = fuser.threshold %a, %w, %w : tensor<8x1xbf16>, bf16, bf16 -> tensor<8x1xbf16>
  return
}
