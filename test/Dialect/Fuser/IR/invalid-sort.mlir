// RUN: fuser-opt %s --split-input-file --verify-diagnostics

// The sorted dim is a dim of the source.
func.func @dim_out_of_range(%x: tensor<4x8xf32>) -> tensor<4x8xi64> {
  // expected-error @+1 {{'fuser.argsort' op dim 2 is out of range for rank 2}}
  %0 = fuser.argsort %x [2] : tensor<4x8xf32> -> tensor<4x8xi64>
  return %0 : tensor<4x8xi64>
}

// -----

// The result holds an index per source element.
func.func @shape(%x: tensor<4x8xf32>) -> tensor<4x7xi64> {
  // expected-error @+1 {{'fuser.argsort' op result shape must be the source's, 'tensor<4x8xi64>', got 'tensor<4x7xi64>'}}
  %0 = fuser.argsort %x [1] : tensor<4x8xf32> -> tensor<4x7xi64>
  return %0 : tensor<4x7xi64>
}

// -----

// The indices are i64, as nvFuser's argsort returns them.
func.func @index_type(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'fuser.argsort' op result #0 must be statically shaped tensor of 64-bit signless integer values}}
  %0 = fuser.argsort %x [0] : tensor<4xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Booleans and complex numbers are not sorted (nvFuser sorts integers and
// floats).
func.func @complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xi64> {
  // expected-error @+1 {{'fuser.argsort' op operand #0 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer or 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = fuser.argsort %x [0] : tensor<4xcomplex<f32>> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}
