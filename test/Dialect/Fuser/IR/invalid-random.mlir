// One case per verifier rule of fuser.uniform and fuser.normal.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @integer_result(%a: f32, %s: i64) -> tensor<4xi32> {
  // expected-error @+1 {{'fuser.uniform' op result element type must be f16, bf16, f32 or f64, got 'i32'}}
  %0 = fuser.uniform %a, %a seed %s offset %s : f32 -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @f64_parameters_of_f32(%a: f64, %s: i64) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.normal' op parameters of 'f32' results must be 'f32', got 'f64'}}
  %0 = fuser.normal %a, %a seed %s offset %s : f64 -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f32_parameters_of_f64(%a: f32, %s: i64) -> tensor<4xf64> {
  // expected-error @+1 {{'fuser.uniform' op parameters of 'f64' results must be 'f64', got 'f32'}}
  %0 = fuser.uniform %a, %a seed %s offset %s : f32 -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @parameter_types_differ(%a: f32, %b: f64, %s: i64) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.normal' op failed to verify that all of {mean, std} have same type}}
  %0 = "fuser.normal"(%a, %b, %s, %s) : (f32, f64, i64, i64) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @seed_type(%a: f32, %s: i32) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.uniform' op operand #2 must be 64-bit signless integer}}
  %0 = "fuser.uniform"(%a, %a, %s, %s) : (f32, f32, i32, i32) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
