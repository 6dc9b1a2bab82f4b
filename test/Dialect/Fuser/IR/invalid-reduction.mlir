// One case per verifier rule of fuser.reduction.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @no_dims(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'fuser.reduction' op needs at least one dim to reduce}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.reduction add %a [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @dim_out_of_range(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.reduction' op reduction dim 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.reduction add %a [2] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dims_unsorted(%a: tensor<4x8x2xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'fuser.reduction' op reduction dims must be sorted and unique, got [2, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.reduction max %a [2, 0] : tensor<4x8x2xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @dims_duplicate(%a: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'fuser.reduction' op reduction dims must be sorted and unique, got [0, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.reduction min %a [0, 0] : tensor<4x8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Without keepdim the reduced dims are removed ...
func.func @result_without_keepdim(%a: tensor<4x8xf32>) -> tensor<4x1xf32> {
  // expected-error @+2 {{'fuser.reduction' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.reduction add %a [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// ... with keepdim they stay as size 1.
func.func @result_with_keepdim(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.reduction' op inferred type(s) 'tensor<4x1xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.reduction add %a [1] keepdim : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @element_type_changes(%a: tensor<4x8xbf16>) -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.reduction' op inferred type(s) 'tensor<4xbf16>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.reduction add %a [1] : tensor<4x8xbf16> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Reductions are over numeric tensors: i1 is not one.
func.func @bool_source(%a: tensor<4x8xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuser.reduction' op operand #0 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer or 16-bit float or bfloat16 type or 32-bit float or 64-bit float or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4x8xi1>'}}
  %0 = fuser.reduction max %a [1] : tensor<4x8xi1> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// An unknown kind keyword is a parse error at the keyword.
func.func @unknown_kind(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'fuser.reduction' unknown reduction_kind 'sum'; expected one of: add, mul, max, min}}
  %0 = fuser.reduction sum %a [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_kind_generic(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{expected ::mlir::fuser::ReductionKind to be one of: add, mul, max, min}}
  // expected-error @+1 {{failed to parse Fuser_ReductionKindAttr parameter 'value' which is to be a `::mlir::fuser::ReductionKind`}}
  %0 = "fuser.reduction"(%a) <{dims = array<i64: 1>, kind = #fuser<reduction_kind sum>}> : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @missing_kind(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.reduction' op requires attribute 'kind'}}
  %0 = "fuser.reduction"(%a) <{dims = array<i64: 1>}> : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
