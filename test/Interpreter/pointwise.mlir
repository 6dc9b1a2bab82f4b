// Pointwise ops: unary, binary with size-1 and scalar broadcasting, integer
// corner cases, NaN handling, compares, where, and scalar arith ops.
// RUN: fuser-run %s --entry unary_float --print-values | FileCheck %s --check-prefix=UNARY
// RUN: fuser-run %s --entry unary_int --print-values | FileCheck %s --check-prefix=UNARYINT
// RUN: fuser-run %s --entry broadcasting --print-values | FileCheck %s --check-prefix=BCAST
// RUN: fuser-run %s --entry int_div_pow --print-values | FileCheck %s --check-prefix=INTDIV
// RUN: fuser-run %s --entry nan_max_min --json | FileCheck %s --check-prefix=NAN
// RUN: fuser-run %s --entry compare_where --print-values | FileCheck %s --check-prefix=CMP
// RUN: fuser-run %s --entry half_arith --print-values | FileCheck %s --check-prefix=HALF
// RUN: fuser-run %s --entry scalar_arith --print-values | FileCheck %s --check-prefix=ARITH

// UNARY: result 0: tensor<11xf32>
// UNARY-NEXT: [-4, 4, 1, 0, 2, 0.5, 0.25, 0, 1, 0, 0.5]
func.func @unary_float() -> tensor<11xf32> {
  %c4 = arith.constant dense<4.0> : tensor<1xf32>
  %c0 = arith.constant dense<0.0> : tensor<1xf32>
  %c1 = arith.constant dense<1.0> : tensor<1xf32>
  %m4 = arith.constant dense<-4.0> : tensor<1xf32>
  %neg = fuser.neg %c4 : tensor<1xf32>
  %abs = fuser.abs %m4 : tensor<1xf32>
  %exp = fuser.exp %c0 : tensor<1xf32>
  %log = fuser.log %c1 : tensor<1xf32>
  %sqrt = fuser.sqrt %c4 : tensor<1xf32>
  %rsqrt = fuser.rsqrt %c4 : tensor<1xf32>
  %rcp = fuser.reciprocal %c4 : tensor<1xf32>
  %sin = fuser.sin %c0 : tensor<1xf32>
  %cos = fuser.cos %c0 : tensor<1xf32>
  %tanh = fuser.tanh %c0 : tensor<1xf32>
  %sig = fuser.sigmoid %c0 : tensor<1xf32>
  %r = fuser.cat %neg, %abs, %exp, %log, %sqrt, %rsqrt, %rcp, %sin, %cos, %tanh, %sig dim 0
      : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>,
        tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> -> tensor<11xf32>
  return %r : tensor<11xf32>
}

// Integer neg and abs wrap at the minimum.
// UNARYINT: result 0: tensor<3xi32>
// UNARYINT-NEXT: [-2147483648, -5, 7]
// UNARYINT: result 1: tensor<3xi32>
// UNARYINT-NEXT: [-2147483648, 5, 7]
func.func @unary_int() -> (tensor<3xi32>, tensor<3xi32>) {
  %c = arith.constant dense<[-2147483648, 5, -7]> : tensor<3xi32>
  %n = fuser.neg %c : tensor<3xi32>
  %a = fuser.abs %c : tensor<3xi32>
  return %n, %a : tensor<3xi32>, tensor<3xi32>
}

// A 2x1 column against a 1x3 row gives a 2x3 outer sum; a scalar operand
// broadcasts everywhere.
// BCAST: result 0: tensor<2x3xf32>
// BCAST-NEXT: {{\[\[}}11, 21, 31], [12, 22, 32]]
// BCAST: result 1: tensor<2x3xf32>
// BCAST-NEXT: {{\[\[}}9, 19, 29], [10, 20, 30]]
// BCAST: result 2: f32
// BCAST-NEXT: {{^  6$}}
func.func @broadcasting() -> (tensor<2x3xf32>, tensor<2x3xf32>, f32) {
  %col = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %row = arith.constant dense<[[10.0, 20.0, 30.0]]> : tensor<1x3xf32>
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %sum = fuser.add %col, %row : tensor<2x1xf32>, tensor<1x3xf32> -> tensor<2x3xf32>
  %sub = fuser.sub %sum, %two : tensor<2x3xf32>, f32 -> tensor<2x3xf32>
  %mul = fuser.mul %two, %three : f32, f32 -> f32
  return %sum, %sub, %mul : tensor<2x3xf32>, tensor<2x3xf32>, f32
}

// Integer division truncates toward zero; x / 0 is 0; MIN / -1 wraps;
// negative exponents give the truncated real result; pow and add wrap.
// INTDIV: result 0: tensor<5xi32>
// INTDIV-NEXT: [-3, 3, -3, 0, -2147483648]
// INTDIV: result 1: tensor<5xi32>
// INTDIV-NEXT: [-343, 0, 1, 0, -1971132175]
// INTDIV: result 2: tensor<1xi64>
// INTDIV-NEXT: [-9223372036854775808]
func.func @int_div_pow() -> (tensor<5xi32>, tensor<5xi32>, tensor<1xi64>) {
  %a = arith.constant dense<[-7, -7, 7, 5, -2147483648]> : tensor<5xi32>
  %b = arith.constant dense<[2, -2, -2, 0, -1]> : tensor<5xi32>
  %d = fuser.div %a, %b : tensor<5xi32>, tensor<5xi32> -> tensor<5xi32>
  %base = arith.constant dense<[-7, 0, 1, 2, 5]> : tensor<5xi32>
  %exp = arith.constant dense<[3, 2, -4, -1, 100]> : tensor<5xi32>
  %p = fuser.pow %base, %exp : tensor<5xi32>, tensor<5xi32> -> tensor<5xi32>
  %max = arith.constant dense<9223372036854775807> : tensor<1xi64>
  %one = arith.constant 1 : i64
  %w = fuser.add %max, %one : tensor<1xi64>, i64 -> tensor<1xi64>
  return %d, %p, %w : tensor<5xi32>, tensor<5xi32>, tensor<1xi64>
}

// maximum/minimum propagate NaN and order -0 below +0; pow is IEEE pow.
// NAN: "values": [NaN, NaN, 0, 3]
// NAN: "values": [NaN, NaN, -0, -1]
// NAN: "values": [Infinity, -Infinity, 8, 0.5]
func.func @nan_max_min() -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) {
  %a = arith.constant dense<[0x7FF8000000000000, 1.0, -0.0, 3.0]> : tensor<4xf64>
  %b = arith.constant dense<[1.0, 0x7FF8000000000000, 0.0, -1.0]> : tensor<4xf64>
  %max = fuser.maximum %a, %b : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  %min = fuser.minimum %a, %b : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  %x = arith.constant dense<[0.0, -0.0, 2.0, 4.0]> : tensor<4xf64>
  %y = arith.constant dense<[-1.0, -1.0, 3.0, -0.5]> : tensor<4xf64>
  %pow = fuser.pow %x, %y : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  return %max, %min, %pow : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>
}

// Compares give i1 (NaN compares unequal to everything); where selects with
// a broadcast condition.
// CMP: result 0: tensor<3xi1>
// CMP-NEXT: [false, false, true]
// CMP: result 1: tensor<3xi1>
// CMP-NEXT: [true, true, false]
// CMP: result 2: tensor<3xi1>
// CMP-NEXT: [false, true, false]
// CMP: result 3: tensor<3xi1>
// CMP-NEXT: [false, true, true]
// CMP: result 4: tensor<2x3xi32>
// CMP-NEXT: {{\[\[}}1, 2, 3], [-1, -1, -1]]
func.func @compare_where() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<2x3xi32>) {
  %a = arith.constant dense<[0x7FC00000, 1.0, 2.0]> : tensor<3xf32>
  %b = arith.constant dense<[1.0, 2.0, 2.0]> : tensor<3xf32>
  %eq = fuser.eq %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %ne = fuser.ne %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %lt = fuser.lt %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %le = fuser.le %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %cond = arith.constant dense<[[true], [false]]> : tensor<2x1xi1>
  %x = arith.constant dense<[[1, 2, 3]]> : tensor<1x3xi32>
  %y = arith.constant -1 : i32
  %w = fuser.where %cond, %x, %y : tensor<2x1xi1>, tensor<1x3xi32>, i32 -> tensor<2x3xi32>
  return %eq, %ne, %lt, %le, %w : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<2x3xi32>
}

// 16-bit floats compute in f32 and round once per op: 256 + 1 is a tie in
// bf16 (spacing 2) and rounds to even; 1/3 rounds to the nearest f16.
// HALF: result 0: tensor<2xbf16>
// HALF-NEXT: [256, 260]
// HALF: result 1: tensor<1xf16>
// HALF-NEXT: [0.33325195]
func.func @half_arith() -> (tensor<2xbf16>, tensor<1xf16>) {
  %a = arith.constant dense<[256.0, 258.0]> : tensor<2xbf16>
  %one = arith.constant 1.0 : bf16
  %s = fuser.add %a, %one : tensor<2xbf16>, bf16 -> tensor<2xbf16>
  %n = arith.constant dense<1.0> : tensor<1xf16>
  %d = arith.constant 3.0 : f16
  %q = fuser.div %n, %d : tensor<1xf16>, f16 -> tensor<1xf16>
  return %s, %q : tensor<2xbf16>, tensor<1xf16>
}

// ARITH: result 0: f32
// ARITH-NEXT: {{^  4$}}
// ARITH: result 1: i64
// ARITH-NEXT: {{^  9$}}
// ARITH: result 2: tensor<2xf32>
// ARITH-NEXT: [5, 6]
func.func @scalar_arith() -> (f32, i64, tensor<2xf32>) {
  %a = arith.constant 1.5 : f32
  %b = arith.constant 4.0 : f32
  %c = arith.mulf %a, %b : f32
  %d = arith.subf %c, %a : f32
  %e = arith.divf %d, %a : f32
  %f = arith.addf %e, %d : f32
  %g = arith.truncf %f : f32 to f16
  %h = arith.extf %g : f16 to f64
  %i = arith.fptosi %h : f64 to i64
  %j = arith.sitofp %i : i64 to f32
  %k = arith.subf %j, %e : f32
  %two = arith.constant 2 : i64
  %l = arith.muli %i, %two : i64
  %m = arith.addi %l, %two : i64
  %n = arith.subi %m, %i : i64
  %t = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %u = fuser.add %t, %k : tensor<2xf32>, f32 -> tensor<2xf32>
  return %k, %n, %u : f32, i64, tensor<2xf32>
}
