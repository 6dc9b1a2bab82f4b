// One case per verifier rule of the pointwise ops: unary operand types,
// binary/compare/where broadcasting and element types, inferred result types.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// Float-only unary ops reject integers.
func.func @exp_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'fuser.exp' op operand #0 must be floating-point or complex tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xi32>'}}
  %0 = fuser.exp %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Numeric unary ops reject i1.
func.func @neg_bool(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuser.neg' op operand #0 must be numeric (non-i1) or complex tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xi1>'}}
  %0 = fuser.neg %a : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// A unary op keeps its operand type (only expressible in the generic form).
func.func @unary_result_type(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'fuser.tanh' op requires the same type for all operands and results}}
  %0 = "fuser.tanh"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @binary_rank(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'fuser.add' op operand 1 has rank 1, expected 2 (use fuser.broadcast to add dims)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @binary_size(%a: tensor<4x8xf32>, %b: tensor<4x3xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'fuser.mul' op operand 1 has size 3 in dim 1, which neither equals nor broadcasts with 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.mul %a, %b : tensor<4x8xf32>, tensor<4x3xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @binary_element_type(%a: tensor<4xf32>, %b: tensor<4xbf16>) -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.sub' op operand element types differ: 'f32' and 'bf16' (insert a fuser.cast)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.sub %a, %b : tensor<4xf32>, tensor<4xbf16> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A scalar operand has the tensor's element type, too.
func.func @binary_scalar_type(%a: tensor<4xf32>, %s: f64) -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.div' op operand element types differ: 'f32' and 'f64' (insert a fuser.cast)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.div %a, %s : tensor<4xf32>, f64 -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The result takes the larger size of each dim.
func.func @binary_result_type(%a: tensor<4x1xf32>, %b: tensor<1x8xf32>) -> tensor<4x1xf32> {
  // expected-error @+2 {{'fuser.maximum' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.maximum %a, %b : tensor<4x1xf32>, tensor<1x8xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// Two scalars give a scalar, not a tensor.
func.func @binary_scalar_result(%a: f32, %b: f32) -> tensor<f32> {
  // expected-error @+2 {{'fuser.pow' op inferred type(s) 'f32' are incompatible with return type(s) of operation 'tensor<f32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.pow %a, %b : f32, f32 -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Arithmetic on i1 is not defined.
func.func @binary_bool(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuser.minimum' op operand #0 must be numeric (non-i1) tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xi1>'}}
  %0 = fuser.minimum %a, %a : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_result_i1(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.lt' op result #0 must be i1 tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xf32>'}}
  %0 = fuser.lt %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_element_type(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+2 {{'fuser.eq' op operand element types differ: 'f32' and 'i32' (insert a fuser.cast)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.eq %a, %b : tensor<4xf32>, tensor<4xi32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_size(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<4xi1> {
  // expected-error @+2 {{'fuser.ge' op operand 1 has size 5 in dim 0, which neither equals nor broadcasts with 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.ge %a, %b : tensor<4xf32>, tensor<5xf32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @where_condition_i1(%c: tensor<4xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.where' op operand #0 must be i1 tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xf32>'}}
  %0 = fuser.where %c, %a, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @where_branch_types(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.where' op operand element types differ: 'f32' and 'f16' (insert a fuser.cast)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.where %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf16> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The condition takes part in broadcasting (operand 0).
func.func @where_condition_rank(%c: tensor<4x1xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.where' op operand 1 has rank 1, expected 2 (use fuser.broadcast to add dims)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.where %c, %a, %a : tensor<4x1xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @where_result_type(%c: tensor<4x1xi1>, %a: tensor<1x3xf32>, %s: f32) -> tensor<1x3xf32> {
  // expected-error @+2 {{'fuser.where' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<1x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.where %c, %a, %s : tensor<4x1xi1>, tensor<1x3xf32>, f32 -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}
