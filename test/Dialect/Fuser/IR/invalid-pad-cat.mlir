// One case per verifier rule of fuser.pad and fuser.cat.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @pad_rank(%a: tensor<4x8xf32>, %v: f32) -> tensor<4x11xf32> {
  // expected-error @+2 {{'fuser.pad' op needs one low and one high pad width per dim (rank 2), got 2 and 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.pad %a low [0, 1] high [2] value %v : tensor<4x8xf32>, f32 -> tensor<4x11xf32>
  return %0 : tensor<4x11xf32>
}

// -----

func.func @pad_value_type(%a: tensor<4x8xf32>, %v: f16) -> tensor<4x11xf32> {
  // expected-error @+2 {{'fuser.pad' op pad value type 'f16' differs from the element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.pad %a low [0, 1] high [0, 2] value %v : tensor<4x8xf32>, f16 -> tensor<4x11xf32>
  return %0 : tensor<4x11xf32>
}

// -----

func.func @pad_negative(%a: tensor<4x8xf32>, %v: f32) -> tensor<4x7xf32> {
  // expected-error @+2 {{'fuser.pad' op dim 1: pad widths must be non-negative, got low -1 and high 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.pad %a low [0, -1] high [0, 0] value %v : tensor<4x8xf32>, f32 -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}

// -----

func.func @pad_result_type(%a: tensor<4x8xf32>, %v: f32) -> tensor<4x8xf32> {
  // expected-error @+2 {{'fuser.pad' op inferred type(s) 'tensor<4x11xf32>' are incompatible with return type(s) of operation 'tensor<4x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.pad %a low [0, 1] high [0, 2] value %v : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The pad value is a scalar, not a tensor.
func.func @pad_tensor_value(%a: tensor<4x8xf32>, %v: tensor<f32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'fuser.pad' op operand #1 must be fuser element type (i1, i32, i64, f16, bf16, f32, f64, complex<f32>, complex<f64>, f8E4M3FN or f8E5M2), but got 'tensor<f32>'}}
  %0 = fuser.pad %a low [0, 0] high [0, 0] value %v : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @cat_no_inputs() -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.cat' op needs at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "fuser.cat"() <{dim = 0 : i64}> : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cat_dim(%a: tensor<4x8xf32>) -> tensor<4x16xf32> {
  // expected-error @+2 {{'fuser.cat' op dim 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.cat %a, %a dim 2 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @cat_element_type(%a: tensor<4x8xf32>, %b: tensor<4x8xbf16>) -> tensor<8x8xf32> {
  // expected-error @+2 {{'fuser.cat' op input 1 of type 'tensor<4x8xbf16>' does not match the rank and element type of 'tensor<4x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.cat %a, %b dim 0 : tensor<4x8xf32>, tensor<4x8xbf16> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @cat_rank(%a: tensor<4x8xf32>, %b: tensor<4x8x1xf32>) -> tensor<8x8xf32> {
  // expected-error @+2 {{'fuser.cat' op input 2 of type 'tensor<4x8x1xf32>' does not match the rank and element type of 'tensor<4x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.cat %a, %a, %b dim 0 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8x1xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @cat_other_dim(%a: tensor<4x8xf32>, %b: tensor<4x7xf32>) -> tensor<8x8xf32> {
  // expected-error @+2 {{'fuser.cat' op input 1 has size 7 in dim 1, expected 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.cat %a, %b dim 0 : tensor<4x8xf32>, tensor<4x7xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @cat_result_type(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+2 {{'fuser.cat' op inferred type(s) 'tensor<6x8xf32>' are incompatible with return type(s) of operation 'tensor<8x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.cat %a, %b dim 0 : tensor<4x8xf32>, tensor<2x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
