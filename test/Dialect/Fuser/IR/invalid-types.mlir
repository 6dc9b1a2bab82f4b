// The type constraints of FuserBase.td: static shapes only, and the element
// types i1, i32, i64, f16, bf16, f32, f64, complex<f32>, complex<f64>,
// f8E4M3FN and f8E5M2 only.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @dynamic_dim(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'fuser.set' op operand #0 must be statically shaped tensor of 1-bit signless integer or 32-bit signless integer or 64-bit signless integer or 16-bit float or bfloat16 type or 32-bit float or 64-bit float or complex type with 32-bit float elements or complex type with 64-bit float elements or f8E4M3FN type or f8E5M2 type values, but got 'tensor<?x4xf32>'}}
  %0 = fuser.set %a : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @dynamic_result(%a: tensor<4x8xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'fuser.view' op result #0 must be statically shaped tensor of 1-bit signless integer or 32-bit signless integer or 64-bit signless integer or 16-bit float or bfloat16 type or 32-bit float or 64-bit float or complex type with 32-bit float elements or complex type with 64-bit float elements or f8E4M3FN type or f8E5M2 type values, but got 'tensor<?xf32>'}}
  %0 = fuser.view %a : tensor<4x8xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @dynamic_pointwise(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'fuser.exp' op operand #0 must be floating-point or complex tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<?xf32>'}}
  %0 = fuser.exp %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @dynamic_binary(%a: tensor<?xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.add' op operand #0 must be numeric (non-i1) or complex tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<?xf32>'}}
  %0 = fuser.add %a, %b : tensor<?xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{custom op 'fuser.segment_set' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = fuser.segment_set %a : tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @i8_tensor(%a: tensor<4xi8>) -> tensor<2x2xi8> {
  // expected-error @+1 {{'fuser.view' op operand #0 must be statically shaped tensor of 1-bit signless integer or 32-bit signless integer or 64-bit signless integer or 16-bit float or bfloat16 type or 32-bit float or 64-bit float or complex type with 32-bit float elements or complex type with 64-bit float elements or f8E4M3FN type or f8E5M2 type values, but got 'tensor<4xi8>'}}
  %0 = fuser.view %a : tensor<4xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

func.func @f8_tensor(%a: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error @+1 {{'fuser.abs' op operand #0 must be numeric (non-i1) or complex tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xf8E4M3FN>'}}
  %0 = fuser.abs %a : tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

func.func @i8_scalar(%a: tensor<4xi32>, %s: i8) -> tensor<4xi32> {
  // expected-error @+1 {{'fuser.mul' op operand #1 must be numeric (non-i1) or complex tensor with static extents (dynamic extents are not supported) or scalar, but got 'i8'}}
  %0 = fuser.mul %a, %s : tensor<4xi32>, i8 -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @unsigned(%a: tensor<4xui32>) -> tensor<4xui32> {
  // expected-error @+1 {{'fuser.permute' op operand #0 must be statically shaped tensor of}}
  %0 = fuser.permute %a [0] : tensor<4xui32> -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

// Of the complex types, only those of f32 and f64 are fuser types.
func.func @complex_bf16(%a: tensor<4xcomplex<bf16>>) -> tensor<4xcomplex<bf16>> {
  // expected-error @+1 {{'fuser.neg' op operand #0 must be numeric (non-i1) or complex tensor with static extents (dynamic extents are not supported) or scalar, but got 'tensor<4xcomplex<bf16>>'}}
  %0 = fuser.neg %a : tensor<4xcomplex<bf16>>
  return %0 : tensor<4xcomplex<bf16>>
}

// -----

// Of the 8-bit floats, only nvFuser's two (f8E4M3FN, f8E5M2) are fuser types.
func.func @full_f8(%v: f8E4M3B11FNUZ) -> tensor<4xf8E4M3B11FNUZ> {
  // expected-error @+1 {{'fuser.full' op operand #0 must be fuser element type (i1, i32, i64, f16, bf16, f32, f64, complex<f32>, complex<f64>, f8E4M3FN or f8E5M2), but got 'f8E4M3B11FNUZ'}}
  %0 = fuser.full %v : f8E4M3B11FNUZ -> tensor<4xf8E4M3B11FNUZ>
  return %0 : tensor<4xf8E4M3B11FNUZ>
}

// -----

// A memref is not a tensor.
func.func @memref(%a: memref<4xf32>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'memref<4xf32>'}}
  %0 = fuser.set %a : memref<4xf32>
  return
}

// -----

func.func @unknown_cache_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'fuser.set' unknown cache_op 'evict_first'; expected one of: unspecified, all_levels, streaming, global}}
  %0 = fuser.set %a cache_op = evict_first : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// nvFuser prints the hint capitalized; the IR keyword is lower case.
func.func @cache_op_case(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'fuser.set' unknown cache_op 'Streaming'; expected one of: unspecified, all_levels, streaming, global}}
  %0 = fuser.set %a cache_op = Streaming : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cache_op_missing(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected valid keyword}}
  %0 = fuser.set %a cache_op = : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'fuser.sum' is unknown}}
  %0 = fuser.sum %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
