// One case per verifier rule of fuser.iota.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @rank(%s: f32) -> tensor<2x4xf32> {
  // expected-error @+1 {{'fuser.iota' op result must be 1-D, got 'tensor<2x4xf32>'}}
  %0 = fuser.iota %s, %s : f32 -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @element_type(%s: i32) -> tensor<4xi64> {
  // expected-error @+1 {{'fuser.iota' op start and step type 'i32' differs from the element type 'i64'}}
  %0 = fuser.iota %s, %s : i32 -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @start_step_types(%s: f32, %t: f64) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.iota' op failed to verify that all of {start, step} have same type}}
  %0 = "fuser.iota"(%s, %t) : (f32, f64) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bool(%s: i1) -> tensor<4xi1> {
  // expected-error @+1 {{'fuser.iota' op operand #0 must be}}
  %0 = fuser.iota %s, %s : i1 -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
