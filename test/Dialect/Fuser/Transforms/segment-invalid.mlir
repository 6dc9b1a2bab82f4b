// RUN: fuser-opt --fuser-segment -split-input-file -verify-diagnostics %s

// Segment inputs are tensors, so a scalar function argument cannot reach a
// segment body.
func.func @scalar_argument(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  // expected-error @below {{uses scalar function argument}}
  %0 = fuser.add %x, %s : tensor<4xf32>, f32 -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @not_a_fusion_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{cannot be segmented: not a fuser op}}
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
