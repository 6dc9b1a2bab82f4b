// RUN: fuser-opt --fuser-segment -split-input-file -verify-diagnostics %s

func.func @not_a_fusion_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{cannot be segmented: not a fuser op}}
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
