// Attention with the forward's bias and mask and with dropout, the entries
// of cpu-sdpfa-extras.mlir and simt-sdpfa-extras.mlir.

// bf16, a bias broadcast over the heads, a mask over the batch and rows.
func.func @bias_mask(%q: tensor<2x3x5x8xbf16>, %k: tensor<2x3x7x8xbf16>, %v: tensor<2x3x7x4xbf16>, %b: tensor<2x1x5x7xbf16>, %m: tensor<1x3x1x7xi1>) -> (tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>) {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v bias(%b : tensor<2x1x5x7xbf16>) mask(%m : tensor<1x3x1x7xi1>) : tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16> -> tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64>
  return %o, %lse : tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>
}

// A mask and the causal mask: rows whose keys are all hidden have
// logsumexp -inf and output 0.
func.func @mask_causal(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x9x8xf32>, %v: tensor<1x2x9x8xf32>, %m: tensor<1x2x6x9xi1>) -> (tensor<1x2x6x8xf32>, tensor<1x2x6xf32>) {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v mask(%m : tensor<1x2x6x9xi1>) {is_causal} : tensor<1x2x6x8xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9x8xf32> -> tensor<1x2x6x8xf32>, tensor<1x2x6xf32>, tensor<2xi64>, tensor<i64>
  return %o, %lse : tensor<1x2x6x8xf32>, tensor<1x2x6xf32>
}

// Rank 5, alphafold3's triangle attention: a bias [b, 1, h, j, k] and a
// mask [b, i, 1, 1, k], the query read through a permute.
func.func @triangle(%q: tensor<2x3x4x2x8xf32>, %k: tensor<2x3x2x5x8xf32>, %v: tensor<2x3x2x5x8xf32>, %b: tensor<2x1x2x4x5xf32>, %m: tensor<2x3x1x1x5xi1>) -> (tensor<2x3x2x4x8xf32>, tensor<2x3x2x4xf32>) {
  %qp = fuser.permute %q [0, 1, 3, 2, 4] : tensor<2x3x4x2x8xf32> -> tensor<2x3x2x4x8xf32>
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %qp, %k, %v bias(%b : tensor<2x1x2x4x5xf32>) mask(%m : tensor<2x3x1x1x5xi1>) : tensor<2x3x2x4x8xf32>, tensor<2x3x2x5x8xf32>, tensor<2x3x2x5x8xf32> -> tensor<2x3x2x4x8xf32>, tensor<2x3x2x4xf32>, tensor<2xi64>, tensor<i64>
  return %o, %lse : tensor<2x3x2x4x8xf32>, tensor<2x3x2x4xf32>
}

// Dropout: the forward draws its mask from the seed and offset arguments
// and returns them as philox_seed.
func.func @dropout_fwd(%q: tensor<2x3x7x8xbf16>, %k: tensor<2x3x33x8xbf16>, %v: tensor<2x3x33x4xbf16>, %seed: i64, %offset: i64) -> (tensor<2x3x7x4xbf16>, tensor<2x3x7xf32>, tensor<2xi64>, tensor<i64>) {
  %o, %lse, %s, %p = fuser.sdpfa_fwd %q, %k, %v dropout(seed %seed offset %offset) {dropout_p = 0.25, is_causal} : tensor<2x3x7x8xbf16>, tensor<2x3x33x8xbf16>, tensor<2x3x33x4xbf16> -> tensor<2x3x7x4xbf16>, tensor<2x3x7xf32>, tensor<2xi64>, tensor<i64>
  return %o, %lse, %s, %p : tensor<2x3x7x4xbf16>, tensor<2x3x7xf32>, tensor<2xi64>, tensor<i64>
}

// Every score dropped (dropout_p 1): the output is 0, logsumexp as without
// dropout; the seed and offset are constants.
func.func @dropout_all(%q: tensor<1x2x3x8xf32>, %k: tensor<1x2x5x8xf32>, %v: tensor<1x2x5x4xf32>) -> (tensor<1x2x3x4xf32>, tensor<1x2x3xf32>, tensor<2xi64>) {
  %seed = arith.constant 42 : i64
  %offset = arith.constant 7 : i64
  %o, %lse, %s, %p = fuser.sdpfa_fwd %q, %k, %v dropout(seed %seed offset %offset) {dropout_p = 1.0} : tensor<1x2x3x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x4xf32> -> tensor<1x2x3x4xf32>, tensor<1x2x3xf32>, tensor<2xi64>, tensor<i64>
  return %o, %lse, %s : tensor<1x2x3x4xf32>, tensor<1x2x3xf32>, tensor<2xi64>
}

// The backward of a forward with dropout, in one fusion: it redraws the
// forward's mask (from philox_seed; the GPU path's decomposition from the
// forward's seed and offset).
func.func @dropout_bwd(%q: tensor<1x2x7x8xf32>, %k: tensor<1x2x9x8xf32>, %v: tensor<1x2x9x4xf32>, %go: tensor<1x2x7x4xf32>, %seed: i64, %offset: i64) -> (tensor<1x2x7x8xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9x4xf32>) {
  %o, %lse, %s, %p = fuser.sdpfa_fwd %q, %k, %v dropout(seed %seed offset %offset) {dropout_p = 0.5} : tensor<1x2x7x8xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9x4xf32> -> tensor<1x2x7x4xf32>, tensor<1x2x7xf32>, tensor<2xi64>, tensor<i64>
  %dq, %dk, %dv = fuser.sdpfa_bwd %go, %q, %k, %v, %o, %lse, %s, %p {dropout_p = 0.5} : tensor<1x2x7x4xf32>, tensor<1x2x7x8xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9x4xf32>, tensor<1x2x7x4xf32>, tensor<1x2x7xf32>, tensor<2xi64>, tensor<i64> -> tensor<1x2x7x8xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9x4xf32>
  return %dq, %dk, %dv : tensor<1x2x7x8xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9x4xf32>
}

// A backward with dropout whose Philox state is an input (Thunder's
// backward fusion): the seed and offset are read from philox_seed. The
// output and logsumexp come from a forward without dropout, so that the
// deterministic inputs give gradients of a sane magnitude.
func.func @dropout_bwd_input(%q: tensor<1x2x7x8xf32>, %k: tensor<1x2x9x8xf32>, %v: tensor<1x2x9x4xf32>, %go: tensor<1x2x7x4xf32>, %s: tensor<2xi64>, %p: tensor<i64>) -> (tensor<1x2x7x8xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9x4xf32>) {
  %o, %lse, %s0, %p0 = fuser.sdpfa_fwd %q, %k, %v : tensor<1x2x7x8xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9x4xf32> -> tensor<1x2x7x4xf32>, tensor<1x2x7xf32>, tensor<2xi64>, tensor<i64>
  %dq, %dk, %dv = fuser.sdpfa_bwd %go, %q, %k, %v, %o, %lse, %s, %p {dropout_p = 0.5} : tensor<1x2x7x4xf32>, tensor<1x2x7x8xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9x4xf32>, tensor<1x2x7x4xf32>, tensor<1x2x7xf32>, tensor<2xi64>, tensor<i64> -> tensor<1x2x7x8xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9x4xf32>
  return %dq, %dk, %dv : tensor<1x2x7x8xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9x4xf32>
}
