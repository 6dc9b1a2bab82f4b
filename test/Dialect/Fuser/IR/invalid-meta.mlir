// One case per verifier rule of the meta ops (view, squeeze, broadcast,
// expand, set, segment_set, permute, slice) and of the MetaOpInterface.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @view_element_count(%a: tensor<4x8xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'fuser.view' op changes the element count from 32 to 16}}
  %0 = fuser.view %a : tensor<4x8xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// MetaOpInterface: a meta op keeps the element type.
func.func @meta_element_type(%a: tensor<4x8xf32>) -> tensor<32xbf16> {
  // expected-error @+1 {{'fuser.view' op meta op must keep the source's element type 'f32', got 'bf16'}}
  %0 = fuser.view %a : tensor<4x8xf32> -> tensor<32xbf16>
  return %0 : tensor<32xbf16>
}

// -----

func.func @squeeze_size3(%a: tensor<1x3x4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.squeeze' op cannot squeeze dim 1 of size 3; only size-1 dims can be squeezed}}
  // expected-error @+1 {{'fuser.squeeze' op failed to infer returned types}}
  %0 = fuser.squeeze %a [0, 1] : tensor<1x3x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @squeeze_out_of_range(%a: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+2 {{'fuser.squeeze' op squeeze dim 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.squeeze %a [2] : tensor<1x4xf32> -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @squeeze_unsorted(%a: tensor<1x1x4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.squeeze' op squeeze dims must be sorted and unique, got [1, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.squeeze %a [1, 0] : tensor<1x1x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @squeeze_duplicate(%a: tensor<1x1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+2 {{'fuser.squeeze' op squeeze dims must be sorted and unique, got [0, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.squeeze %a [0, 0] : tensor<1x1x4xf32> -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

// The result type follows from the source and dims.
func.func @squeeze_result_type(%a: tensor<1x1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+2 {{'fuser.squeeze' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<1x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.squeeze %a [0, 1] : tensor<1x1x4xf32> -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @broadcast_out_of_range(%a: tensor<4xf32>) -> tensor<4x1xf32> {
  // expected-error @+2 {{'fuser.broadcast' op broadcast dim 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.broadcast %a [2] : tensor<4xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @broadcast_unsorted(%a: tensor<4xf32>) -> tensor<1x1x4xf32> {
  // expected-error @+2 {{'fuser.broadcast' op broadcast dims must be sorted and unique, got [1, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.broadcast %a [1, 0] : tensor<4xf32> -> tensor<1x1x4xf32>
  return %0 : tensor<1x1x4xf32>
}

// -----

func.func @broadcast_negative(%a: tensor<4xf32>) -> tensor<1x4xf32> {
  // expected-error @+2 {{'fuser.broadcast' op broadcast dim -1 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.broadcast %a [-1] : tensor<4xf32> -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @broadcast_result_type(%a: tensor<4xf32>) -> tensor<4x1xf32> {
  // expected-error @+2 {{'fuser.broadcast' op inferred type(s) 'tensor<1x4xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.broadcast %a [0] : tensor<4xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @expand_rank(%a: tensor<1x4xf32>) -> tensor<2x1x4xf32> {
  // expected-error @+1 {{'fuser.expand' op cannot change the rank from 2 to 3}}
  %0 = fuser.expand %a : tensor<1x4xf32> -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// -----

func.func @expand_non_unit(%a: tensor<1x4xf32>) -> tensor<3x8xf32> {
  // expected-error @+1 {{'fuser.expand' op cannot expand dim 1 of size 4 to 8; only size-1 dims can be expanded}}
  %0 = fuser.expand %a : tensor<1x4xf32> -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

// set is a copy: same type in and out (only expressible in the generic form).
func.func @set_type(%a: tensor<4xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'fuser.set' op requires the same type for all operands and results}}
  %0 = "fuser.set"(%a) : (tensor<4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @segment_set_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.segment_set' op requires the same type for all operands and results}}
  %0 = "fuser.segment_set"(%a) : (tensor<4xf32>) -> tensor<4x1xf32>
  return %a : tensor<4xf32>
}

// -----

func.func @set_cache_op_attr(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{invalid properties {cache_op = #fuser<reduction_kind add>} for op fuser.set: Invalid attribute `cache_op` in property conversion: #fuser<reduction_kind add>}}
  %0 = "fuser.set"(%a) <{cache_op = #fuser<reduction_kind add>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @permute_duplicate(%a: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+2 {{'fuser.permute' op [0, 1, 1] is not a permutation of the 3 dims of the source}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.permute %a [0, 1, 1] : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @permute_length(%a: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  // expected-error @+2 {{'fuser.permute' op [1, 0] is not a permutation of the 3 dims of the source}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.permute %a [1, 0] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  return %0 : tensor<3x2x4xf32>
}

// -----

func.func @permute_out_of_range(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'fuser.permute' op [2, 0] is not a permutation of the 2 dims of the source}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.permute %a [2, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @permute_result_type(%a: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+2 {{'fuser.permute' op inferred type(s) 'tensor<3x2x4xf32>' are incompatible with return type(s) of operation 'tensor<2x4x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.permute %a [1, 0, 2] : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @slice_rank(%a: tensor<8x128xf32>) -> tensor<8x64xf32> {
  // expected-error @+2 {{'fuser.slice' op needs one start, limit and stride per dim (rank 2), got 2, 2 and 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.slice %a starts [0, 64] limits [8, 128] strides [1] : tensor<8x128xf32> -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

func.func @slice_limit(%a: tensor<8x128xf32>) -> tensor<8x65xf32> {
  // expected-error @+2 {{'fuser.slice' op dim 1: bounds [64, 129) are not within [0, 128]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.slice %a starts [0, 64] limits [8, 129] strides [1, 1] : tensor<8x128xf32> -> tensor<8x65xf32>
  return %0 : tensor<8x65xf32>
}

// -----

func.func @slice_start_after_limit(%a: tensor<8x128xf32>) -> tensor<0x128xf32> {
  // expected-error @+2 {{'fuser.slice' op dim 0: bounds [5, 4) are not within [0, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.slice %a starts [5, 0] limits [4, 128] strides [1, 1] : tensor<8x128xf32> -> tensor<0x128xf32>
  return %0 : tensor<0x128xf32>
}

// -----

func.func @slice_stride(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+2 {{'fuser.slice' op dim 1: stride 0 is not positive}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.slice %a starts [0, 0] limits [8, 128] strides [1, 0] : tensor<8x128xf32> -> tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}

// -----

func.func @slice_result_type(%a: tensor<8x128xf32>) -> tensor<8x64xf32> {
  // expected-error @+2 {{'fuser.slice' op inferred type(s) 'tensor<4x64xf32>' are incompatible with return type(s) of operation 'tensor<8x64xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.slice %a starts [0, 0] limits [8, 128] strides [2, 2] : tensor<8x128xf32> -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}
