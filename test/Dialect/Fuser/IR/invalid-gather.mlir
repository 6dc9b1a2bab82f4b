// One case per verifier rule of fuser.gather.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @ranks(%x: tensor<4x8xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.gather' op source and index ranks differ: 2 and 1}}
  %0 = fuser.gather %x[%i] dim 1 : tensor<4x8xf32>, tensor<4xi64> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dim(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'fuser.gather' op dim 2 is out of range for rank 2}}
  %0 = fuser.gather %x[%i] dim 2 : tensor<4x8xf32>, tensor<4x2xi64> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @result_type(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf16> {
  // expected-error @+1 {{'fuser.gather' op result type must be 'tensor<4x2xf32>', got 'tensor<4x2xf16>'}}
  %0 = fuser.gather %x[%i] dim 1 : tensor<4x8xf32>, tensor<4x2xi64> -> tensor<4x2xf16>
  return %0 : tensor<4x2xf16>
}

// -----

func.func @extent(%x: tensor<4x8xf32>, %i: tensor<5x2xi64>) -> tensor<5x2xf32> {
  // expected-error @+1 {{'fuser.gather' op index extent 5 exceeds the source's 4 in dim 0}}
  %0 = fuser.gather %x[%i] dim 1 : tensor<4x8xf32>, tensor<5x2xi64> -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// -----

func.func @index_type(%x: tensor<4x8xf32>, %i: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'fuser.gather' op operand #1 must be}}
  %0 = "fuser.gather"(%x, %i) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
