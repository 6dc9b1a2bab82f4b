// One case per verifier rule of fuser.cast and fuser.full.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @cast_tensor_to_scalar(%a: tensor<f32>) -> f32 {
  // expected-error @+1 {{'fuser.cast' op cannot cast between a tensor and a scalar}}
  %0 = fuser.cast %a : tensor<f32> to f32
  return %0 : f32
}

// -----

func.func @cast_scalar_to_tensor(%a: f32) -> tensor<1xbf16> {
  // expected-error @+1 {{'fuser.cast' op cannot cast between a tensor and a scalar}}
  %0 = fuser.cast %a : f32 to tensor<1xbf16>
  return %0 : tensor<1xbf16>
}

// -----

func.func @cast_shape(%a: tensor<4x8xf32>) -> tensor<8x4xbf16> {
  // expected-error @+1 {{'fuser.cast' op cannot change the shape from 'tensor<4x8xf32>' to 'tensor<8x4xbf16>'}}
  %0 = fuser.cast %a : tensor<4x8xf32> to tensor<8x4xbf16>
  return %0 : tensor<8x4xbf16>
}

// -----

// Casts go between supported element types only: i8 is not one.
func.func @cast_to_i8(%a: tensor<4xf32>) -> tensor<4xi8> {
  // expected-error @+1 {{'fuser.cast' op result #0 must be statically shaped tensor or scalar of a fuser element type, but got 'tensor<4xi8>'}}
  %0 = fuser.cast %a : tensor<4xf32> to tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// nvFuser's 8-bit floats are f8E4M3FN and f8E5M2, not the FNUZ variants.
func.func @cast_from_f8_fnuz(%a: f8E4M3FNUZ) -> f32 {
  // expected-error @+1 {{'fuser.cast' op operand #0 must be statically shaped tensor or scalar of a fuser element type, but got 'f8E4M3FNUZ'}}
  %0 = fuser.cast %a : f8E4M3FNUZ to f32
  return %0 : f32
}

// -----

func.func @full_value_type(%v: f32) -> tensor<4xbf16> {
  // expected-error @+1 {{'fuser.full' op fill value type 'f32' differs from the element type 'bf16'}}
  %0 = fuser.full %v : f32 -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

func.func @full_scalar_result(%v: f32) -> f32 {
  // expected-error @+1 {{custom op 'fuser.full' invalid kind of type specified: expected builtin.tensor, but found 'f32'}}
  %0 = fuser.full %v : f32 -> f32
  return %0 : f32
}
