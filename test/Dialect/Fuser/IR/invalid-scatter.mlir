// RUN: fuser-opt %s --split-input-file --verify-diagnostics

// self, index and src have one rank.
func.func @ranks(%x: tensor<8x3xf32>, %i: tensor<4xi64>, %s: tensor<4xf32>) -> tensor<8x3xf32> {
  // expected-error @+1 {{'fuser.scatter' op self, index and src ranks differ: 2, 1 and 1}}
  %0 = fuser.scatter %x[%i] = %s dim 0 : tensor<8x3xf32>, tensor<4xi64>, tensor<4xf32>
  return %0 : tensor<8x3xf32>
}

// -----

// The scattered dim is a dim of self.
func.func @dim(%x: tensor<8xf32>, %i: tensor<4xi64>, %s: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'fuser.scatter' op dim 1 is out of range for rank 1}}
  %0 = fuser.scatter %x[%i] = %s dim 1 : tensor<8xf32>, tensor<4xi64>, tensor<4xf32>
  return %0 : tensor<8xf32>
}

// -----

// src holds self's elements.
func.func @element_type(%x: tensor<8xf32>, %i: tensor<4xi64>, %s: tensor<4xf64>) -> tensor<8xf32> {
  // expected-error @+1 {{'fuser.scatter' op src element type must be self's, 'f32', got 'f64'}}
  %0 = fuser.scatter %x[%i] = %s dim 0 : tensor<8xf32>, tensor<4xi64>, tensor<4xf64>
  return %0 : tensor<8xf32>
}

// -----

// Every index element has a src element.
func.func @src_extent(%x: tensor<8xf32>, %i: tensor<4xi64>, %s: tensor<3xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'fuser.scatter' op index extent 4 exceeds src's 3 in dim 0}}
  %0 = fuser.scatter %x[%i] = %s dim 0 : tensor<8xf32>, tensor<4xi64>, tensor<3xf32>
  return %0 : tensor<8xf32>
}

// -----

// Outside the scattered dim, every index element names an element of self.
func.func @self_extent(%x: tensor<8x3xf32>, %i: tensor<4x4xi64>, %s: tensor<4x4xf32>) -> tensor<8x3xf32> {
  // expected-error @+1 {{'fuser.scatter' op index extent 4 exceeds self's 3 in dim 1}}
  %0 = fuser.scatter %x[%i] = %s dim 0 : tensor<8x3xf32>, tensor<4x4xi64>, tensor<4x4xf32>
  return %0 : tensor<8x3xf32>
}

// -----

// Booleans are written, not combined.
func.func @bool_reduce(%x: tensor<8xi1>, %i: tensor<4xi64>, %s: tensor<4xi1>) -> tensor<8xi1> {
  // expected-error @+1 {{'fuser.scatter' op cannot combine 'i1' elements with reduce add}}
  %0 = fuser.scatter %x[%i] = %s dim 0 reduce add : tensor<8xi1>, tensor<4xi64>, tensor<4xi1>
  return %0 : tensor<8xi1>
}

// -----

// Complex elements combine with add only.
func.func @complex_max(%x: tensor<8xcomplex<f32>>, %i: tensor<4xi64>, %s: tensor<4xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{'fuser.scatter' op cannot combine 'complex<f32>' elements with reduce max}}
  %0 = fuser.scatter %x[%i] = %s dim 0 reduce max : tensor<8xcomplex<f32>>, tensor<4xi64>, tensor<4xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// -----

// The combiner is one of fuser.reduction's.
func.func @unknown_reduce(%x: tensor<8xf32>, %i: tensor<4xi64>, %s: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{unknown reduction_kind 'sum'; expected one of: add, mul, max, min}}
  %0 = fuser.scatter %x[%i] = %s dim 0 reduce sum : tensor<8xf32>, tensor<4xi64>, tensor<4xf32>
  return %0 : tensor<8xf32>
}

// -----

// Indices are integers.
func.func @float_index(%x: tensor<8xf32>, %i: tensor<4xf32>, %s: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'fuser.scatter' op operand #1 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = fuser.scatter %x[%i] = %s dim 0 : tensor<8xf32>, tensor<4xf32>, tensor<4xf32>
  return %0 : tensor<8xf32>
}
