// RUN: fuser-opt %s --split-input-file --fuser-decompose-attention --cse | FileCheck %s

// Rule (forward): sdpfa_fwd(q, k, v) with dropout_p = 0 becomes, in f32:
// s = matmul(q, permute(k)) * scale; m = max_s s; e = exp(s - m);
// l = sum_s e; output = matmul(e, v) / l and logsumexp = m + log l, both
// where m = -inf (no key) 0 and -inf instead; casts around; the Philox
// seed and offset are zeros. scale defaults to 1/sqrt(E) (E = 16: 0.25).
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %[[Q:[^:]*]]: tensor<2x3x5x16xbf16>, %[[K:[^:]*]]: tensor<2x3x7x16xbf16>, %[[V:[^:]*]]: tensor<2x3x7x4xbf16>
// CHECK-DAG: %[[SCALE:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[KF:.*]] = fuser.cast %[[K]] : tensor<2x3x7x16xbf16> to tensor<2x3x7x16xf32>
// CHECK: %[[KT:.*]] = fuser.permute %[[KF]] [0, 1, 3, 2]
// CHECK: %[[QF:.*]] = fuser.cast %[[Q]]
// CHECK: %[[QK:.*]] = fuser.matmul %[[QF]], %[[KT]] : tensor<2x3x5x16xf32>, tensor<2x3x16x7xf32> -> tensor<2x3x5x7xf32>
// CHECK: %[[S:.*]] = fuser.mul %[[QK]], %[[SCALE]]
// CHECK: %[[M:.*]] = fuser.reduction max %[[S]] [3] keepdim
// CHECK: %[[E:.*]] = fuser.exp
// CHECK: %[[L:.*]] = fuser.reduction add %[[E]] [3] keepdim
// CHECK: %[[VF:.*]] = fuser.cast %[[V]]
// CHECK: %[[EV:.*]] = fuser.matmul %[[E]], %[[VF]] : tensor<2x3x5x7xf32>, tensor<2x3x7x4xf32> -> tensor<2x3x5x4xf32>
// CHECK: %[[EMPTY:.*]] = fuser.eq %[[M]], %[[NEGINF]]
// CHECK: %[[DIV:.*]] = fuser.div %[[EV]], %[[L]]
// CHECK: %[[O:.*]] = fuser.where %[[EMPTY]], %{{.*}}, %[[DIV]]
// CHECK: fuser.log %[[L]]
// CHECK: %[[LSE:.*]] = fuser.squeeze %{{.*}} [3] : tensor<2x3x5x1xf32> -> tensor<2x3x5xf32>
// CHECK-DAG: %[[OB:.*]] = fuser.cast %[[O]] : tensor<2x3x5x4xf32> to tensor<2x3x5x4xbf16>
// CHECK-DAG: %[[SEED:.*]] = fuser.full %{{.*}} : i64 -> tensor<2xi64>
// CHECK-DAG: %[[OFFSET:.*]] = fuser.full %{{.*}} : i64 -> tensor<i64>
// CHECK: return %[[OB]], %[[LSE]], %[[SEED]], %[[OFFSET]]
// CHECK-NOT: fuser.sdpfa_fwd
func.func @forward(%q: tensor<2x3x5x16xbf16>, %k: tensor<2x3x7x16xbf16>, %v: tensor<2x3x7x4xbf16>) -> (tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64>) {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v : tensor<2x3x5x16xbf16>, tensor<2x3x7x16xbf16>, tensor<2x3x7x4xbf16> -> tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64>
  return %o, %lse, %seed, %offset : tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64>
}

// -----

// Rule (causal mask): a key s > l scores -inf: iota of the rows [L, 1],
// of the keys [1, S], gt, broadcast over the batch dims, where. f32
// operands need no casts; an explicit scale is used as given.
// CHECK-LABEL: func.func @causal(
// CHECK-NOT: fuser.cast
// CHECK: %[[QK:.*]] = fuser.matmul
// CHECK: %[[S:.*]] = fuser.mul %[[QK]], %{{.*}} : tensor<1x2x5x7xf32>, f32
// CHECK: %[[ROWS:.*]] = fuser.iota %{{.*}} : i64 -> tensor<5xi64>
// CHECK: %[[ROWS1:.*]] = fuser.broadcast %[[ROWS]] [1] : tensor<5xi64> -> tensor<5x1xi64>
// CHECK: %[[KEYS:.*]] = fuser.iota %{{.*}} : i64 -> tensor<7xi64>
// CHECK: %[[KEYS1:.*]] = fuser.broadcast %[[KEYS]] [0] : tensor<7xi64> -> tensor<1x7xi64>
// CHECK: %[[MASK:.*]] = fuser.gt %[[KEYS1]], %[[ROWS1]] : tensor<1x7xi64>, tensor<5x1xi64> -> tensor<5x7xi1>
// CHECK: %[[MASK4:.*]] = fuser.broadcast %[[MASK]] [0, 1] : tensor<5x7xi1> -> tensor<1x1x5x7xi1>
// CHECK: fuser.where %[[MASK4]], %{{.*}}, %[[S]] : tensor<1x1x5x7xi1>, f32, tensor<1x2x5x7xf32>
func.func @causal(%q: tensor<1x2x5x8xf32>, %k: tensor<1x2x7x8xf32>, %v: tensor<1x2x7x4xf32>) -> tensor<1x2x5x4xf32> {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v {is_causal, scale = 0.3} : tensor<1x2x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x4xf32> -> tensor<1x2x5x4xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return %o : tensor<1x2x5x4xf32>
}

// -----

// Rule (backward): p = exp(s - logsumexp) (exp(-inf) = 0 where masked);
// grad_value = matmul(permute(p), dO); dp = matmul(dO, permute(v));
// d = sum_v dO * O; ds = p * (dp - d); grad_query = matmul(ds, k) * scale;
// grad_key = matmul(permute(ds), q) * scale.
// CHECK-LABEL: func.func @backward(
// CHECK-SAME: %[[DO:[^:]*]]: tensor<1x2x5x4xf32>, %[[Q:[^:]*]]: tensor<1x2x5x8xf32>, %[[K:[^:]*]]: tensor<1x2x7x8xf32>, %[[V:[^:]*]]: tensor<1x2x7x4xf32>, %[[O:[^:]*]]: tensor<1x2x5x4xf32>, %[[LSE:[^:]*]]: tensor<1x2x5xf32>
// CHECK: %[[KT:.*]] = fuser.permute %[[K]] [0, 1, 3, 2]
// CHECK: %[[QK:.*]] = fuser.matmul %[[Q]], %[[KT]]
// CHECK: %[[S:.*]] = fuser.mul %[[QK]]
// CHECK: %[[LSE1:.*]] = fuser.broadcast %[[LSE]] [3] : tensor<1x2x5xf32> -> tensor<1x2x5x1xf32>
// CHECK: %[[SUB:.*]] = fuser.sub %[[S]], %[[LSE1]]
// CHECK: %[[P:.*]] = fuser.exp %[[SUB]]
// CHECK: %[[PT:.*]] = fuser.permute %[[P]] [0, 1, 3, 2]
// CHECK: %[[DV:.*]] = fuser.matmul %[[PT]], %[[DO]] : tensor<1x2x7x5xf32>, tensor<1x2x5x4xf32> -> tensor<1x2x7x4xf32>
// CHECK: %[[VT:.*]] = fuser.permute %[[V]] [0, 1, 3, 2]
// CHECK: %[[DP:.*]] = fuser.matmul %[[DO]], %[[VT]] : tensor<1x2x5x4xf32>, tensor<1x2x4x7xf32> -> tensor<1x2x5x7xf32>
// CHECK: %[[DOO:.*]] = fuser.mul %[[DO]], %[[O]]
// CHECK: %[[D:.*]] = fuser.reduction add %[[DOO]] [3] keepdim
// CHECK: %[[DIFF:.*]] = fuser.sub %[[DP]], %[[D]]
// CHECK: %[[DS:.*]] = fuser.mul %[[P]], %[[DIFF]]
// CHECK: %[[DSK:.*]] = fuser.matmul %[[DS]], %[[K]] : tensor<1x2x5x7xf32>, tensor<1x2x7x8xf32> -> tensor<1x2x5x8xf32>
// CHECK: %[[DQ:.*]] = fuser.mul %[[DSK]]
// CHECK: %[[DST:.*]] = fuser.permute %[[DS]] [0, 1, 3, 2]
// CHECK: %[[DSQ:.*]] = fuser.matmul %[[DST]], %[[Q]] : tensor<1x2x7x5xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x7x8xf32>
// CHECK: %[[DK:.*]] = fuser.mul %[[DSQ]]
// CHECK: return %[[DQ]], %[[DK]], %[[DV]]
func.func @backward(%do: tensor<1x2x5x4xf32>, %q: tensor<1x2x5x8xf32>, %k: tensor<1x2x7x8xf32>, %v: tensor<1x2x7x4xf32>, %o: tensor<1x2x5x4xf32>, %lse: tensor<1x2x5xf32>, %seed: tensor<2xi64>, %offset: tensor<i64>) -> (tensor<1x2x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x4xf32>) {
  %dq, %dk, %dv = fuser.sdpfa_bwd %do, %q, %k, %v, %o, %lse, %seed, %offset : tensor<1x2x5x4xf32>, tensor<1x2x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64> -> tensor<1x2x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x4xf32>
  return %dq, %dk, %dv : tensor<1x2x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x4xf32>
}

// -----

// Rule (forward, bias and mask): the bias, widened to f32 and expanded to
// the scores' shape, is added to the scaled scores; where the mask
// (expanded) is false the score is -inf.
// CHECK-LABEL: func.func @bias_mask(
// CHECK-SAME: %[[B:[^:]*]]: tensor<1x1x5x7xbf16>, %[[M:[^:]*]]: tensor<1x2x1x7xi1>
// CHECK: %[[S:.*]] = fuser.mul
// CHECK: %[[BF:.*]] = fuser.cast %[[B]] : tensor<1x1x5x7xbf16> to tensor<1x1x5x7xf32>
// CHECK: %[[BE:.*]] = fuser.expand %[[BF]] : tensor<1x1x5x7xf32> -> tensor<1x2x5x7xf32>
// CHECK: %[[SB:.*]] = fuser.add %[[S]], %[[BE]]
// CHECK: %[[ME:.*]] = fuser.expand %[[M]] : tensor<1x2x1x7xi1> -> tensor<1x2x5x7xi1>
// CHECK: fuser.where %[[ME]], %[[SB]], %{{.*}} :
// CHECK-NOT: fuser.sdpfa_fwd
func.func @bias_mask(%q: tensor<1x2x5x8xbf16>, %k: tensor<1x2x7x8xbf16>, %b: tensor<1x1x5x7xbf16>, %m: tensor<1x2x1x7xi1>) -> tensor<1x2x5x8xbf16> {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %k bias(%b : tensor<1x1x5x7xbf16>) mask(%m : tensor<1x2x1x7xi1>) : tensor<1x2x5x8xbf16>, tensor<1x2x7x8xbf16>, tensor<1x2x7x8xbf16> -> tensor<1x2x5x8xbf16>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return %o : tensor<1x2x5x8xbf16>
}

// -----

// Rule (forward, dropout): e is multiplied by where(u >= dropout_p,
// 1 / (1 - dropout_p), 0) before the second matmul, u = fuser.uniform(0, 1)
// of the scores' shape from the op's seed and offset; the sum is of e
// itself. philox_seed = [seed, offset]: where(iota == 1, offset, seed).
// CHECK-LABEL: func.func @dropout(
// CHECK-SAME: %[[SEED:[^:]*]]: i64, %[[OFFSET:[^:]*]]: i64
// CHECK-DAG: %[[P:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-DAG: %[[KEEP:.*]] = arith.constant 1.33333337 : f32
// CHECK: %[[E:.*]] = fuser.exp
// CHECK: %[[U:.*]] = fuser.uniform %{{.*}}, %{{.*}} seed %[[SEED]] offset %[[OFFSET]] : f32 -> tensor<1x2x7x7xf32>
// CHECK: %[[GE:.*]] = fuser.ge %[[U]], %[[P]]
// CHECK: %[[F:.*]] = fuser.where %[[GE]], %[[KEEP]], %{{.*}} :
// CHECK: %[[EF:.*]] = fuser.mul %[[E]], %[[F]]
// CHECK: fuser.matmul %[[EF]]
// CHECK: %[[IOTA:.*]] = fuser.iota
// CHECK: %[[SECOND:.*]] = fuser.eq %[[IOTA]]
// CHECK: %[[SEEDS:.*]] = fuser.full %[[SEED]] : i64 -> tensor<2xi64>
// CHECK: %[[OFFSETS:.*]] = fuser.full %[[OFFSET]] : i64 -> tensor<2xi64>
// CHECK: %[[STATE:.*]] = fuser.where %[[SECOND]], %[[OFFSETS]], %[[SEEDS]]
// CHECK: return %{{.*}}, %[[STATE]]
func.func @dropout(%q: tensor<1x2x7x8xf32>, %seed: i64, %offset: i64) -> (tensor<1x2x7x8xf32>, tensor<2xi64>) {
  %o, %lse, %s, %p = fuser.sdpfa_fwd %q, %q, %q dropout(seed %seed offset %offset) {dropout_p = 0.25} : tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32> -> tensor<1x2x7x8xf32>, tensor<1x2x7xf32>, tensor<2xi64>, tensor<i64>
  return %o, %s : tensor<1x2x7x8xf32>, tensor<2xi64>
}

// -----

// Rule (backward, dropout): with the forward that made philox_seed in the
// fusion, the backward draws the same factors f from that forward's seed
// and offset: grad_value = matmul(permute(p * f), dO) and
// ds = p * (dp * f - d). The forward is decomposed after its backward.
// CHECK-LABEL: func.func @dropout_forward_backward(
// CHECK-SAME: %[[SEED:[^:]*]]: i64, %[[OFFSET:[^:]*]]: i64
// (--cse merges the two draws: the same seed, offset and shape.)
// CHECK-NOT: fuser.sdpfa
// CHECK: fuser.uniform %{{.*}}, %{{.*}} seed %[[SEED]] offset %[[OFFSET]] : f32 -> tensor<1x2x7x7xf32>
// CHECK: %[[F:.*]] = fuser.where
// CHECK: fuser.mul %{{.*}}, %[[F]]
// CHECK: %[[Z:.*]] = fuser.mul %{{.*}}, %[[F]]
// CHECK: %[[ZT:.*]] = fuser.permute %[[Z]]
// CHECK: fuser.matmul %[[ZT]]
// CHECK: %[[DP:.*]] = fuser.matmul
// CHECK: fuser.mul %[[DP]], %[[F]]
// CHECK-NOT: fuser.uniform
// CHECK-NOT: fuser.sdpfa
func.func @dropout_forward_backward(%q: tensor<1x2x7x8xf32>, %go: tensor<1x2x7x8xf32>, %seed: i64, %offset: i64) -> (tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>) {
  %o, %lse, %s, %p = fuser.sdpfa_fwd %q, %q, %q dropout(seed %seed offset %offset) {dropout_p = 0.25} : tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32> -> tensor<1x2x7x8xf32>, tensor<1x2x7xf32>, tensor<2xi64>, tensor<i64>
  %dq, %dk, %dv = fuser.sdpfa_bwd %go, %q, %q, %q, %o, %lse, %s, %p {dropout_p = 0.25} : tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7xf32>, tensor<2xi64>, tensor<i64> -> tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>
  return %o, %dq, %dv : tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>
}

// -----

// Must not fire: a backward with dropout_p > 0 whose philox_seed is an
// input (its seed is in a tensor, and fuser.uniform takes scalars; the
// CUDA backend refuses it with a located error).
// CHECK-LABEL: func.func @dropout_backward(
// CHECK: fuser.sdpfa_bwd {{.*}}dropout_p = 1.000000e-01
// CHECK-NOT: fuser.matmul
func.func @dropout_backward(%do: tensor<1x2x5x4xf32>, %q: tensor<1x2x5x8xf32>, %k: tensor<1x2x7x8xf32>, %v: tensor<1x2x7x4xf32>, %o: tensor<1x2x5x4xf32>, %lse: tensor<1x2x5xf32>, %seed: tensor<2xi64>, %offset: tensor<i64>) -> tensor<1x2x5x8xf32> {
  %dq, %dk, %dv = fuser.sdpfa_bwd %do, %q, %k, %v, %o, %lse, %seed, %offset {dropout_p = 0.1} : tensor<1x2x5x4xf32>, tensor<1x2x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64> -> tensor<1x2x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x4xf32>
  return %dq : tensor<1x2x5x8xf32>
}
