// RUN: fuser-opt %s --split-input-file --verify-diagnostics

// The scan dim is a dim of the source.
func.func @dim_out_of_range(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'fuser.scan' op dim 2 is out of range for rank 2}}
  %0 = fuser.scan add %x [2] : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_dim(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'fuser.scan' op dim -1 is out of range for rank 2}}
  %0 = fuser.scan add %x [-1] : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A 0-D tensor has no dim to scan.
func.func @rank0(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'fuser.scan' op dim 0 is out of range for rank 0}}
  %0 = fuser.scan add %x [0] : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Booleans have no sum in their own type (torch's cumsum of bool gives
// int64): the frontend casts first.
func.func @bool(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuser.scan' op operand #0 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer}}
  %0 = fuser.scan add %x [0] : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Complex numbers have no order.
func.func @complex_max(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'fuser.scan' op complex elements scan with add only, not max}}
  %0 = fuser.scan max %x [0] : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// The result has the source's type.
func.func @type_mismatch(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'fuser.scan' op failed to verify that all of {source, result} have same type}}
  %0 = "fuser.scan"(%x) <{kind = #fuser<reduction_kind add>, dim = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
