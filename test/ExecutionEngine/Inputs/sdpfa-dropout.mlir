// An attention with dropout, which cpu-sdpfa.mlir checks is refused.
func.func @dropout(%q: tensor<1x2x7x8xf32>) -> tensor<1x2x7x8xf32> {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %q, %q {dropout_p = 0.1} : tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32> -> tensor<1x2x7x8xf32>, tensor<1x2x7xf32>, tensor<2xi64>, tensor<i64>
  return %o : tensor<1x2x7x8xf32>
}
