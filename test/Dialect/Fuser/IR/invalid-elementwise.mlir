// One case per operand-class and result-type rule of the elementwise ops
// from nvFuser's op set: bitwise ops take integers or i1, shifts and gcd
// integers only, float ops and lerp floats, predicates and logical ops give
// i1, ternary operands share one element type and broadcast.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// Bitwise ops reject floats.
func.func @bitwise_and_float(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.bitwise_and' op operand #0 must be i1, i32 or i64 tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xf32>'}}
  %0 = fuser.bitwise_and %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bitwise_not_float(%a: f16) -> f16 {
  // expected-error @+1 {{'fuser.bitwise_not' op operand #0 must be i1, i32 or i64 tensor with static extents (dynamic extents are not supported) or scalar, but got 'f16'}}
  %0 = fuser.bitwise_not %a : f16
  return %0 : f16
}

// -----

// Shifts and gcd reject i1 (nvFuser: "input must have integral type").
func.func @shift_bool(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuser.bitwise_left_shift' op operand #0 must be i32 or i64 tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xi1>'}}
  %0 = fuser.bitwise_left_shift %a, %a : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @gcd_float(%a: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'fuser.gcd' op operand #0 must be i32 or i64 tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xf64>'}}
  %0 = fuser.gcd %a, %a : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// Float ops reject integers.
func.func @erfinv_int(%a: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'fuser.erfinv' op operand #0 must be floating-point tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xi64>'}}
  %0 = fuser.erfinv %a : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @nextafter_int(%a: i32) -> i32 {
  // expected-error @+1 {{'fuser.nextafter' op operand #0 must be floating-point tensor with static extents (dynamic extents are not supported) or scalar, but got 'i32'}}
  %0 = fuser.nextafter %a, %a : i32, i32 -> i32
  return %0 : i32
}

// -----

func.func @lerp_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'fuser.lerp' op operand #0 must be floating-point tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xi32>'}}
  %0 = fuser.lerp %a, %a, %a : tensor<4xi32>, tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Numeric ops reject i1.
func.func @floor_bool(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuser.floor' op operand #0 must be numeric (non-i1) tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xi1>'}}
  %0 = fuser.floor %a : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @clamp_bool(%a: tensor<4xi1>, %b: i1) -> tensor<4xi1> {
  // expected-error @+1 {{'fuser.clamp' op operand #0 must be numeric (non-i1) tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xi1>'}}
  %0 = fuser.clamp %a, %b, %b : tensor<4xi1>, i1, i1 -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Predicates give i1 in the operand's shape.
func.func @isnan_result_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.isnan' op result #0 must be i1 tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xf32>'}}
  %0 = fuser.isnan %a : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @signbit_result_shape(%a: tensor<4xf32>) -> tensor<2xi1> {
  // expected-error @+2 {{'fuser.signbit' op inferred type(s) 'tensor<4xi1>' are incompatible with return type(s) of operation 'tensor<2xi1>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.signbit %a : tensor<4xf32> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

// Logical ops give i1 and need one operand element type.
func.func @logical_and_types(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+2 {{'fuser.logical_and' op operand element types differ: 'f32' and 'i32' (insert a fuser.cast)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.logical_and %a, %b : tensor<4xf32>, tensor<4xi32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @logical_or_result(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'fuser.logical_or' op result #0 must be i1 tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xi32>'}}
  %0 = fuser.logical_or %a, %a : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Ternary operands share one element type and broadcast.
func.func @threshold_types(%a: tensor<4xf32>, %b: f64) -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.threshold' op operand element types differ: 'f32' and 'f64' (insert a fuser.cast)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.threshold %a, %b, %b : tensor<4xf32>, f64, f64 -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @lerp_shapes(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.lerp' op operand 1 has size 3 in dim 0, which neither equals nor broadcasts with 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.lerp %a, %b, %a : tensor<4xf32>, tensor<3xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The 8-bit floats are storage types: arithmetic, comparisons and
// predicates take a cast to a wider float first, as in nvFuser.
func.func @float8_arithmetic(%a: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error @+1 {{'fuser.add' op operand #0 must be numeric (non-i1) or complex tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xf8E4M3FN>'}}
  %0 = fuser.add %a, %a : tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN> -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

func.func @float8_compare(%a: tensor<4xf8E5M2>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuser.lt' op operand #0 must be i1, integer or float (not complex or 8-bit float) tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xf8E5M2>'}}
  %0 = fuser.lt %a, %a : tensor<4xf8E5M2>, tensor<4xf8E5M2> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @float8_predicate(%a: f8E4M3FN) -> i1 {
  // expected-error @+1 {{'fuser.isnan' op operand #0 must be i1, integer, float or complex (not 8-bit float) tensor with static extents (dynamic extents are not supported) or scalar, but got 'f8E4M3FN'}}
  %0 = fuser.isnan %a : f8E4M3FN -> i1
  return %0 : i1
}

// -----

func.func @float8_reduction(%a: tensor<4x8xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error @+1 {{'fuser.reduction' op operand #0 must be}}
  %0 = fuser.reduction add %a [1] : tensor<4x8xf8E4M3FN> -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}
