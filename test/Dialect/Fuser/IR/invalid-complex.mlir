// One case per rule for complex elements: only the ops whose operand class
// takes complex accept it (no order: no lt, maximum, floor, signbit; no
// erf), abs and real/imag give the component type, fuser.complex takes two
// f32 or two f64 parts, and complex reductions add.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// Complex elements have no order.
func.func @lt_complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuser.lt' op operand #0 must be i1, integer or float (not complex or 8-bit float) tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xcomplex<f32>>'}}
  %0 = fuser.lt %a, %a : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @maximum_complex(%a: complex<f64>) -> complex<f64> {
  // expected-error @+1 {{'fuser.maximum' op operand #0 must be numeric (non-i1) tensor with static extents (dynamic extents are not supported) or scalar, but got 'complex<f64>'}}
  %0 = fuser.maximum %a, %a : complex<f64>, complex<f64> -> complex<f64>
  return %0 : complex<f64>
}

// -----

func.func @floor_complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'fuser.floor' op operand #0 must be numeric (non-i1) tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xcomplex<f32>>'}}
  %0 = fuser.floor %a : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @signbit_complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuser.signbit' op operand #0 must be i1, integer or float (not complex or 8-bit float) tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xcomplex<f32>>'}}
  %0 = fuser.signbit %a : tensor<4xcomplex<f32>> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Float-only math (no complex form upstream or in nvFuser's runtime).
func.func @erf_complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'fuser.erf' op operand #0 must be floating-point tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xcomplex<f32>>'}}
  %0 = fuser.erf %a : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// expm1 and log1p: upstream has complex forms, nvFuser's runtime does not
// (it would fail to compile the kernel), so neither does the dialect.
func.func @expm1_complex(%a: tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
  // expected-error @+1 {{'fuser.expm1' op operand #0 must be floating-point tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xcomplex<f64>>'}}
  %0 = fuser.expm1 %a : tensor<4xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}

// -----

// abs of complex is the modulus, of the component type.
func.func @abs_complex_result(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'fuser.abs' op result #0 must be numeric (non-i1) tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xcomplex<f32>>'}}
  %0 = "fuser.abs"(%a) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @real_of_real(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.real' op operand #0 must be complex<f32> or complex<f64> tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xf32>'}}
  %0 = fuser.real %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @imag_result(%a: complex<f64>) -> f32 {
  // expected-error @+2 {{'fuser.imag' op inferred type(s) 'f64' are incompatible with return type(s) of operation 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "fuser.imag"(%a) : (complex<f64>) -> f32
  return %0 : f32
}

// -----

// fuser.complex takes f32 or f64 parts, both of one type.
func.func @complex_of_half(%a: tensor<4xf16>) -> tensor<4xcomplex<f16>> {
  // expected-error @+1 {{'fuser.complex' op operand #0 must be f32 or f64 tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xf16>'}}
  %0 = fuser.complex %a, %a : tensor<4xf16>, tensor<4xf16> -> tensor<4xcomplex<f16>>
  return %0 : tensor<4xcomplex<f16>>
}

// -----

func.func @complex_mixed_parts(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xcomplex<f64>> {
  // expected-error @+2 {{'fuser.complex' op operand element types differ: 'f32' and 'f64' (insert a fuser.cast)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.complex %a, %b : tensor<4xf32>, tensor<4xf64> -> tensor<4xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}

// -----

func.func @complex_result(%a: f32) -> complex<f64> {
  // expected-error @+2 {{'fuser.complex' op inferred type(s) 'complex<f32>' are incompatible with return type(s) of operation 'complex<f64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.complex %a, %a : f32, f32 -> complex<f64>
  return %0 : complex<f64>
}

// -----

// Only the complex types of f32 and f64 are fuser element types.
func.func @complex_of_half_input(%a: tensor<4xcomplex<f16>>) -> tensor<4xcomplex<f16>> {
  // expected-error @+1 {{'fuser.neg' op operand #0 must be numeric (non-i1) or complex tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xcomplex<f16>>'}}
  %0 = fuser.neg %a : tensor<4xcomplex<f16>>
  return %0 : tensor<4xcomplex<f16>>
}

// -----

// Complex reductions add (max and min have no order, mul no exact
// identity).
func.func @max_complex(%a: tensor<4x8xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+2 {{'fuser.reduction' op reduces complex elements with add only, not max}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.reduction max %a [1] : tensor<4x8xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
