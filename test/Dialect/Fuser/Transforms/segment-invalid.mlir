// RUN: fuser-opt --fuser-segment -split-input-file -verify-diagnostics %s

// A fusion (it holds fuser ops) with a tensor op of another dialect.
func.func @not_a_fusion_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n = fuser.neg %x : tensor<4xf32>
  // expected-error @below {{cannot be segmented: not a fuser op}}
  %0 = arith.addf %n, %n : tensor<4xf32>
  return %0 : tensor<4xf32>
}
