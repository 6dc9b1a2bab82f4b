// Folds of scalar constants: a cast or an elementwise op whose operands are
// all scalar constants becomes the constant the interpreter computes.
// RUN: fuser-opt %s --canonicalize --split-input-file | FileCheck %s

// cast(c : f64 -> f32) -> c rounded once to f32 (the frontends' literal
// promotions); to bf16 from f64 also rounds once (0.1 is 0x3DCD in bf16).
// CHECK-LABEL: func.func @cast_float_literals
// CHECK-DAG: %[[F32:.*]] = arith.constant 1.000000e-01 : f32
// CHECK-DAG: %[[BF16:.*]] = arith.constant 1.000980e-01 : bf16
// CHECK-NOT: fuser.cast
// CHECK: return %[[F32]], %[[BF16]]
func.func @cast_float_literals() -> (f32, bf16) {
  %c = arith.constant 0.1 : f64
  %0 = fuser.cast %c : f64 to f32
  %1 = fuser.cast %c : f64 to bf16
  return %0, %1 : f32, bf16
}

// -----

// cast(c : float -> int) truncates toward zero and saturates; NaN gives 0;
// cast(c : -> i1) is c != 0 (NaN true, -0.0 false); i1 true is 1.
// CHECK-LABEL: func.func @cast_edges
// CHECK-DAG: arith.constant -2 : i32
// CHECK-DAG: arith.constant 2147483647 : i32
// CHECK-DAG: arith.constant -2147483648 : i32
// CHECK-DAG: arith.constant 0 : i32
// CHECK-DAG: arith.constant true
// CHECK-DAG: arith.constant false
// CHECK-DAG: arith.constant 1.000000e+00 : f32
// CHECK-DAG: arith.constant -1 : i64
// CHECK-NOT: fuser.cast
func.func @cast_edges() -> (i32, i32, i32, i32, i1, i1, f32, i64) {
  %m = arith.constant -2.75 : f32
  %big = arith.constant 1.0e10 : f64
  %small = arith.constant -1.0e10 : f64
  %nan = arith.constant 0x7FC00000 : f32
  %negzero = arith.constant -0.0 : f32
  %true = arith.constant true
  %minus = arith.constant -1 : i32
  %0 = fuser.cast %m : f32 to i32
  %1 = fuser.cast %big : f64 to i32
  %2 = fuser.cast %small : f64 to i32
  %3 = fuser.cast %nan : f32 to i32
  %4 = fuser.cast %nan : f32 to i1
  %5 = fuser.cast %negzero : f32 to i1
  %6 = fuser.cast %true : i1 to f32
  %7 = fuser.cast %minus : i32 to i64
  return %0, %1, %2, %3, %4, %5, %6, %7 : i32, i32, i32, i32, i1, i1, f32, i64
}

// -----

// op(c1, c2) -> the interpreter's value for exact ops: f16 arithmetic
// rounds its f32 result once, integers wrap, comparisons give i1.
// CHECK-LABEL: func.func @exact_ops
// CHECK-DAG: arith.constant 3.000000e+00 : f16
// CHECK-DAG: arith.constant -2147483648 : i32
// CHECK-DAG: arith.constant 6 : i32
// CHECK-DAG: arith.constant 1 : i32
// CHECK-DAG: arith.constant true
// CHECK-DAG: arith.constant 2.500000e+00 : f32
// CHECK-NOT: fuser.
func.func @exact_ops() -> (f16, i32, i32, i32, i1, f32) {
  %a = arith.constant 1.5 : f16
  %max = arith.constant 2147483647 : i32
  %one = arith.constant 1 : i32
  %twelve = arith.constant 12 : i32
  %eighteen = arith.constant 18 : i32
  %minus7 = arith.constant -7 : i32
  %three = arith.constant 3 : i32
  %x = arith.constant 2.5 : f32
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 3.0 : f32
  %0 = fuser.add %a, %a : f16, f16 -> f16
  %1 = fuser.add %max, %one : i32, i32 -> i32
  %2 = fuser.gcd %twelve, %eighteen : i32, i32 -> i32
  %3 = fuser.fmod %minus7, %three : i32, i32 -> i32
  %4 = fuser.gt %x, %lo : f32, f32 -> i1
  %5 = fuser.clamp %x, %lo, %hi : f32, f32, f32 -> f32
  %r3 = fuser.neg %3 : i32
  return %0, %1, %2, %r3, %4, %5 : f16, i32, i32, i32, i1, f32
}

// -----

// Not folded: math-library ops (the host's libm need not be the target's),
// nextafter on bf16 (it steps storage bits), tensors (a tensor constant is
// not a kernel op), and an operand that is not a constant.
// CHECK-LABEL: func.func @not_folded
// CHECK: fuser.exp
// CHECK: fuser.nextafter
// CHECK: fuser.add %{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xf32>
// CHECK: fuser.mul %{{.*}}, %arg0
func.func @not_folded(%arg0: f32) -> (f32, bf16, tensor<2xf32>, f32) {
  %c = arith.constant 1.0 : f32
  %b = arith.constant 1.0 : bf16
  %t = arith.constant dense<1.0> : tensor<2xf32>
  %0 = fuser.exp %c : f32
  %1 = fuser.nextafter %b, %b : bf16, bf16 -> bf16
  %2 = fuser.add %t, %t : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %3 = fuser.mul %c, %arg0 : f32, f32 -> f32
  return %0, %1, %2, %3 : f32, bf16, tensor<2xf32>, f32
}
