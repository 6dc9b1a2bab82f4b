// One case per verifier rule of fuser.matmul and fuser.linear.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @matmul_rank(%a: tensor<f32>, %b: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+2 {{'fuser.matmul' op operands must be at least 1-D, got ranks 0 and 1}}
  // expected-error @+1 {{'fuser.matmul' op failed to infer returned types}}
  %0 = fuser.matmul %a, %b : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @matmul_dtypes(%a: tensor<3x4xf32>, %b: tensor<4x5xbf16>) -> tensor<3x5xf32> {
  // expected-error @+2 {{'fuser.matmul' op operand element types differ: 'f32' and 'bf16'}}
  // expected-error @+1 {{'fuser.matmul' op failed to infer returned types}}
  %0 = fuser.matmul %a, %b : tensor<3x4xf32>, tensor<4x5xbf16> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @matmul_integer(%a: tensor<3x4xi64>, %b: tensor<4x5xi64>) -> tensor<3x5xi64> {
  // expected-error @+1 {{'fuser.matmul' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = fuser.matmul %a, %b : tensor<3x4xi64>, tensor<4x5xi64> -> tensor<3x5xi64>
  return %0 : tensor<3x5xi64>
}

// -----

func.func @matmul_contraction(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) -> tensor<3x6xf32> {
  // expected-error @+2 {{'fuser.matmul' op contraction extents differ: 4 in lhs dim 1, 5 in rhs dim 0}}
  // expected-error @+1 {{'fuser.matmul' op failed to infer returned types}}
  %0 = fuser.matmul %a, %b : tensor<3x4xf32>, tensor<5x6xf32> -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

func.func @matmul_contraction_vector(%a: tensor<2x3x4xf32>, %b: tensor<5xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'fuser.matmul' op contraction extents differ: 4 in lhs dim 2, 5 in rhs dim 0}}
  // expected-error @+1 {{'fuser.matmul' op failed to infer returned types}}
  %0 = fuser.matmul %a, %b : tensor<2x3x4xf32>, tensor<5xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x6xf32>) -> tensor<2x3x6xf32> {
  // expected-error @+2 {{'fuser.matmul' op batch extents 2 and 3 do not broadcast (lhs dim 0, rhs dim 0)}}
  // expected-error @+1 {{'fuser.matmul' op failed to infer returned types}}
  %0 = fuser.matmul %a, %b : tensor<2x3x4xf32>, tensor<3x4x6xf32> -> tensor<2x3x6xf32>
  return %0 : tensor<2x3x6xf32>
}

// -----

func.func @matmul_result(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<5x3xf32> {
  // expected-error @+2 {{'fuser.matmul' op inferred type(s) 'tensor<3x5xf32>' are incompatible with return type(s) of operation 'tensor<5x3xf32>'}}
  // expected-error @+1 {{'fuser.matmul' op failed to infer returned types}}
  %0 = fuser.matmul %a, %b : tensor<3x4xf32>, tensor<4x5xf32> -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @linear_input_rank(%x: tensor<f32>, %w: tensor<5x4xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{'fuser.linear' op input must be at least 1-D}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w : tensor<f32>, tensor<5x4xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @linear_weight_rank(%x: tensor<3x4xf32>, %w: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'fuser.linear' op weight must be 2-D (N x K), got 'tensor<4xf32>'}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w : tensor<3x4xf32>, tensor<4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @linear_dtypes(%x: tensor<3x4xbf16>, %w: tensor<5x4xf32>) -> tensor<3x5xbf16> {
  // expected-error @+2 {{'fuser.linear' op input and weight element types differ: 'bf16' and 'f32'}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w : tensor<3x4xbf16>, tensor<5x4xf32> -> tensor<3x5xbf16>
  return %0 : tensor<3x5xbf16>
}

// -----

func.func @linear_contraction(%x: tensor<3x4xf32>, %w: tensor<5x3xf32>) -> tensor<3x5xf32> {
  // expected-error @+2 {{'fuser.linear' op contraction extents differ: 4 in the input's last dim, 3 in the weight's dim 1}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w : tensor<3x4xf32>, tensor<5x3xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @linear_bias_dtype(%x: tensor<3x4xbf16>, %w: tensor<5x4xbf16>, %b: tensor<5xf32>) -> tensor<3x5xbf16> {
  // expected-error @+2 {{'fuser.linear' op bias element type 'f32' differs from the input's 'bf16'}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w bias %b : tensor<3x4xbf16>, tensor<5x4xbf16>, tensor<5xf32> -> tensor<3x5xbf16>
  return %0 : tensor<3x5xbf16>
}

// -----

func.func @linear_bias_shape(%x: tensor<3x4xf32>, %w: tensor<5x4xf32>, %b: tensor<4xf32>) -> tensor<3x5xf32> {
  // expected-error @+2 {{'fuser.linear' op bias must be 'tensor<5xf32>' (the weight's N), got 'tensor<4xf32>'}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w bias %b : tensor<3x4xf32>, tensor<5x4xf32>, tensor<4xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @linear_result(%x: tensor<3x4xf32>, %w: tensor<5x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{'fuser.linear' op inferred type(s) 'tensor<3x5xf32>' are incompatible with return type(s) of operation 'tensor<3x4xf32>'}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w : tensor<3x4xf32>, tensor<5x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
