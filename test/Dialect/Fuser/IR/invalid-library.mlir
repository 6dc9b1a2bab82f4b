// One case per verifier rule of fuser.matmul, fuser.linear, fuser.sdpfa_fwd,
// fuser.sdpfa_bwd and fuser.grouped_mm.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @matmul_rank(%a: tensor<f32>, %b: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+2 {{'fuser.matmul' op operands must be at least 1-D, got ranks 0 and 1}}
  // expected-error @+1 {{'fuser.matmul' op failed to infer returned types}}
  %0 = fuser.matmul %a, %b : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @matmul_dtypes(%a: tensor<3x4xf32>, %b: tensor<4x5xbf16>) -> tensor<3x5xf32> {
  // expected-error @+2 {{'fuser.matmul' op operand element types differ: 'f32' and 'bf16'}}
  // expected-error @+1 {{'fuser.matmul' op failed to infer returned types}}
  %0 = fuser.matmul %a, %b : tensor<3x4xf32>, tensor<4x5xbf16> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @matmul_integer(%a: tensor<3x4xi64>, %b: tensor<4x5xi64>) -> tensor<3x5xi64> {
  // expected-error @+1 {{'fuser.matmul' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = fuser.matmul %a, %b : tensor<3x4xi64>, tensor<4x5xi64> -> tensor<3x5xi64>
  return %0 : tensor<3x5xi64>
}

// -----

func.func @matmul_contraction(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) -> tensor<3x6xf32> {
  // expected-error @+2 {{'fuser.matmul' op contraction extents differ: 4 in lhs dim 1, 5 in rhs dim 0}}
  // expected-error @+1 {{'fuser.matmul' op failed to infer returned types}}
  %0 = fuser.matmul %a, %b : tensor<3x4xf32>, tensor<5x6xf32> -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

func.func @matmul_contraction_vector(%a: tensor<2x3x4xf32>, %b: tensor<5xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'fuser.matmul' op contraction extents differ: 4 in lhs dim 2, 5 in rhs dim 0}}
  // expected-error @+1 {{'fuser.matmul' op failed to infer returned types}}
  %0 = fuser.matmul %a, %b : tensor<2x3x4xf32>, tensor<5xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x6xf32>) -> tensor<2x3x6xf32> {
  // expected-error @+2 {{'fuser.matmul' op batch extents 2 and 3 do not broadcast (lhs dim 0, rhs dim 0)}}
  // expected-error @+1 {{'fuser.matmul' op failed to infer returned types}}
  %0 = fuser.matmul %a, %b : tensor<2x3x4xf32>, tensor<3x4x6xf32> -> tensor<2x3x6xf32>
  return %0 : tensor<2x3x6xf32>
}

// -----

func.func @matmul_result(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<5x3xf32> {
  // expected-error @+2 {{'fuser.matmul' op inferred type(s) 'tensor<3x5xf32>' are incompatible with return type(s) of operation 'tensor<5x3xf32>'}}
  // expected-error @+1 {{'fuser.matmul' op failed to infer returned types}}
  %0 = fuser.matmul %a, %b : tensor<3x4xf32>, tensor<4x5xf32> -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @linear_input_rank(%x: tensor<f32>, %w: tensor<5x4xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{'fuser.linear' op input must be at least 1-D}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w : tensor<f32>, tensor<5x4xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @linear_weight_rank(%x: tensor<3x4xf32>, %w: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'fuser.linear' op weight must be 2-D (N x K), got 'tensor<4xf32>'}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w : tensor<3x4xf32>, tensor<4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @linear_dtypes(%x: tensor<3x4xbf16>, %w: tensor<5x4xf32>) -> tensor<3x5xbf16> {
  // expected-error @+2 {{'fuser.linear' op input and weight element types differ: 'bf16' and 'f32'}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w : tensor<3x4xbf16>, tensor<5x4xf32> -> tensor<3x5xbf16>
  return %0 : tensor<3x5xbf16>
}

// -----

func.func @linear_contraction(%x: tensor<3x4xf32>, %w: tensor<5x3xf32>) -> tensor<3x5xf32> {
  // expected-error @+2 {{'fuser.linear' op contraction extents differ: 4 in the input's last dim, 3 in the weight's dim 1}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w : tensor<3x4xf32>, tensor<5x3xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @linear_bias_dtype(%x: tensor<3x4xbf16>, %w: tensor<5x4xbf16>, %b: tensor<5xf32>) -> tensor<3x5xbf16> {
  // expected-error @+2 {{'fuser.linear' op bias element type 'f32' differs from the input's 'bf16'}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w bias %b : tensor<3x4xbf16>, tensor<5x4xbf16>, tensor<5xf32> -> tensor<3x5xbf16>
  return %0 : tensor<3x5xbf16>
}

// -----

func.func @linear_bias_shape(%x: tensor<3x4xf32>, %w: tensor<5x4xf32>, %b: tensor<4xf32>) -> tensor<3x5xf32> {
  // expected-error @+2 {{'fuser.linear' op bias must be 'tensor<5xf32>' (the weight's N), got 'tensor<4xf32>'}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w bias %b : tensor<3x4xf32>, tensor<5x4xf32>, tensor<4xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @linear_result(%x: tensor<3x4xf32>, %w: tensor<5x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{'fuser.linear' op inferred type(s) 'tensor<3x5xf32>' are incompatible with return type(s) of operation 'tensor<3x4xf32>'}}
  // expected-error @+1 {{'fuser.linear' op failed to infer returned types}}
  %0 = fuser.linear %x, %w : tensor<3x4xf32>, tensor<5x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @sdpfa_dtype(%q: tensor<1x2x5x8xf64>) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op takes f16, bf16 or f32, got 'f64'}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %q, %q : tensor<1x2x5x8xf64>, tensor<1x2x5x8xf64>, tensor<1x2x5x8xf64> -> tensor<1x2x5x8xf64>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_dtypes(%q: tensor<1x2x5x8xbf16>, %k: tensor<1x2x5x8xf16>) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op query, key and value element types differ: 'bf16', 'f16' and 'bf16'}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %k, %q : tensor<1x2x5x8xbf16>, tensor<1x2x5x8xf16>, tensor<1x2x5x8xbf16> -> tensor<1x2x5x8xbf16>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_rank(%q: tensor<2x5x8xf32>) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op query, key and value must have one rank, 4 or more ([N..., H, L, E]), got ranks 3, 3 and 3}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %q, %q : tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x5x8xf32>, tensor<2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_heads(%q: tensor<1x2x5x8xf32>, %k: tensor<1x1x5x8xf32>) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op batch and head dims differ: [1, 2], [1, 1] and [1, 1]}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %k, %k : tensor<1x2x5x8xf32>, tensor<1x1x5x8xf32>, tensor<1x1x5x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_width(%q: tensor<1x2x5x8xf32>, %k: tensor<1x2x7x6xf32>) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op key width 6 differs from the query's 8}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %k, %k : tensor<1x2x5x8xf32>, tensor<1x2x7x6xf32>, tensor<1x2x7x6xf32> -> tensor<1x2x5x6xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_length(%q: tensor<1x2x5x8xf32>, %v: tensor<1x2x6x4xf32>) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op value length 6 differs from the key's 5}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %q, %v : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x6x4xf32> -> tensor<1x2x5x4xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_dropout(%q: tensor<1x2x5x8xf32>) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op dropout_p must be in [0, 1], got 1.5}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %q, %q {dropout_p = 1.5} : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_result(%q: tensor<1x2x5x8xf32>) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op inferred type(s) 'tensor<1x2x5x8xf32>', 'tensor<1x2x5xf32>', 'tensor<2xi64>', 'tensor<i64>' are incompatible with return type(s) of operation 'tensor<1x2x5x8xf32>', 'tensor<1x2x5xbf16>', 'tensor<2xi64>', 'tensor<i64>'}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %q, %q : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5xbf16>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_bwd_lse(%q: tensor<1x2x5x8xf32>, %lse: tensor<1x2x5xbf16>, %seed: tensor<2xi64>, %offset: tensor<i64>) {
  // expected-error @+2 {{'fuser.sdpfa_bwd' op logsumexp must be 'tensor<1x2x5xf32>', got 'tensor<1x2x5xbf16>'}}
  // expected-error @+1 {{'fuser.sdpfa_bwd' op failed to infer returned types}}
  %0:3 = fuser.sdpfa_bwd %q, %q, %q, %q, %q, %lse, %seed, %offset : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5xbf16>, tensor<2xi64>, tensor<i64> -> tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>
  return
}

// -----

func.func @sdpfa_bwd_grad(%q: tensor<1x2x5x8xf32>, %go: tensor<1x2x5x4xf32>, %lse: tensor<1x2x5xf32>, %seed: tensor<2xi64>, %offset: tensor<i64>) {
  // expected-error @+2 {{'fuser.sdpfa_bwd' op grad_output must be 'tensor<1x2x5x8xf32>', got 'tensor<1x2x5x4xf32>'}}
  // expected-error @+1 {{'fuser.sdpfa_bwd' op failed to infer returned types}}
  %0:3 = fuser.sdpfa_bwd %go, %q, %q, %q, %q, %lse, %seed, %offset : tensor<1x2x5x4xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64> -> tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>
  return
}

// -----

func.func @sdpfa_bwd_seed(%q: tensor<1x2x5x8xf32>, %lse: tensor<1x2x5xf32>, %seed: tensor<i64>, %offset: tensor<i64>) {
  // expected-error @+2 {{'fuser.sdpfa_bwd' op philox_seed must be 'tensor<2xi64>', got 'tensor<i64>'}}
  // expected-error @+1 {{'fuser.sdpfa_bwd' op failed to infer returned types}}
  %0:3 = fuser.sdpfa_bwd %q, %q, %q, %q, %q, %lse, %seed, %offset : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<i64>, tensor<i64> -> tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>
  return
}

// -----

func.func @grouped_mm_f64(%a: tensor<4x3xf64>, %b: tensor<2x3x5xf64>, %o: tensor<2xi32>) -> tensor<4x5xf64> {
  // expected-error @+2 {{'fuser.grouped_mm' op takes f16, bf16 or f32, got 'f64'}}
  // expected-error @+1 {{'fuser.grouped_mm' op failed to infer returned types}}
  %0 = fuser.grouped_mm %a, %b, %o : tensor<4x3xf64>, tensor<2x3x5xf64>, tensor<2xi32> -> tensor<4x5xf64>
  return %0 : tensor<4x5xf64>
}

// -----

func.func @grouped_mm_element_types(%a: tensor<4x3xbf16>, %b: tensor<2x3x5xf32>, %o: tensor<2xi32>) -> tensor<4x5xbf16> {
  // expected-error @+2 {{'fuser.grouped_mm' op operand element types differ: 'bf16' and 'f32'}}
  // expected-error @+1 {{'fuser.grouped_mm' op failed to infer returned types}}
  %0 = fuser.grouped_mm %a, %b, %o : tensor<4x3xbf16>, tensor<2x3x5xf32>, tensor<2xi32> -> tensor<4x5xbf16>
  return %0 : tensor<4x5xbf16>
}

// -----

func.func @grouped_mm_offsets_i64(%a: tensor<4x3xf32>, %b: tensor<2x3x5xf32>, %o: tensor<2xi64>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'fuser.grouped_mm' op offsets must be a 1-D tensor of i32 (torch's int32), got 'tensor<2xi64>'}}
  // expected-error @+1 {{'fuser.grouped_mm' op failed to infer returned types}}
  %0 = fuser.grouped_mm %a, %b, %o : tensor<4x3xf32>, tensor<2x3x5xf32>, tensor<2xi64> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @grouped_mm_offsets_rank(%a: tensor<4x3xf32>, %b: tensor<2x3x5xf32>, %o: tensor<1x2xi32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'fuser.grouped_mm' op offsets must be a 1-D tensor of i32 (torch's int32), got 'tensor<1x2xi32>'}}
  // expected-error @+1 {{'fuser.grouped_mm' op failed to infer returned types}}
  %0 = fuser.grouped_mm %a, %b, %o : tensor<4x3xf32>, tensor<2x3x5xf32>, tensor<1x2xi32> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @grouped_mm_two_3d(%a: tensor<2x4x3xf32>, %b: tensor<2x3x5xf32>, %o: tensor<2xi32>) -> tensor<2x4x5xf32> {
  // expected-error @+2 {{'fuser.grouped_mm' op takes no two 3-D operands (that is a batched fuser.matmul)}}
  // expected-error @+1 {{'fuser.grouped_mm' op failed to infer returned types}}
  %0 = fuser.grouped_mm %a, %b, %o : tensor<2x4x3xf32>, tensor<2x3x5xf32>, tensor<2xi32> -> tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
}

// -----

func.func @grouped_mm_rank(%a: tensor<3xf32>, %b: tensor<2x3x5xf32>, %o: tensor<2xi32>) -> tensor<5xf32> {
  // expected-error @+2 {{'fuser.grouped_mm' op operands must be [M, K] x [G, K, N], [G, M, K] x [K, N] or [M, K] x [K, N], got ranks 1 and 3}}
  // expected-error @+1 {{'fuser.grouped_mm' op failed to infer returned types}}
  %0 = fuser.grouped_mm %a, %b, %o : tensor<3xf32>, tensor<2x3x5xf32>, tensor<2xi32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @grouped_mm_k(%a: tensor<4x3xf32>, %b: tensor<2x6x5xf32>, %o: tensor<2xi32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'fuser.grouped_mm' op contraction extents differ: 3 in mat1 dim 1, 6 in mat2 dim 1}}
  // expected-error @+1 {{'fuser.grouped_mm' op failed to infer returned types}}
  %0 = fuser.grouped_mm %a, %b, %o : tensor<4x3xf32>, tensor<2x6x5xf32>, tensor<2xi32> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @grouped_mm_groups_mat2(%a: tensor<4x3xf32>, %b: tensor<2x3x5xf32>, %o: tensor<3xi32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'fuser.grouped_mm' op offsets has 3 groups, but mat2's dim 0 has 2}}
  // expected-error @+1 {{'fuser.grouped_mm' op failed to infer returned types}}
  %0 = fuser.grouped_mm %a, %b, %o : tensor<4x3xf32>, tensor<2x3x5xf32>, tensor<3xi32> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @grouped_mm_groups_mat1(%a: tensor<2x4x3xf32>, %b: tensor<3x5xf32>, %o: tensor<3xi32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'fuser.grouped_mm' op offsets has 3 groups, but mat1's dim 0 has 2}}
  // expected-error @+1 {{'fuser.grouped_mm' op failed to infer returned types}}
  %0 = fuser.grouped_mm %a, %b, %o : tensor<2x4x3xf32>, tensor<3x5xf32>, tensor<3xi32> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @grouped_mm_result(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %o: tensor<2xi32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'fuser.grouped_mm' op inferred type(s) 'tensor<2x4x5xf32>' are incompatible with return type(s) of operation 'tensor<4x5xf32>'}}
  // expected-error @+1 {{'fuser.grouped_mm' op failed to infer returned types}}
  %0 = fuser.grouped_mm %a, %b, %o : tensor<4x3xf32>, tensor<3x5xf32>, tensor<2xi32> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @sdpfa_bias_rank(%q: tensor<1x2x5x8xf32>, %b: tensor<2x5x5xf32>) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op bias must have the query's rank 4, got 'tensor<2x5x5xf32>'}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %q, %q bias(%b : tensor<2x5x5xf32>) : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_bias_type(%q: tensor<1x2x5x8xf32>, %b: tensor<1x2x5x5xbf16>) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op bias element type 'bf16' differs from the query's 'f32'}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %q, %q bias(%b : tensor<1x2x5x5xbf16>) : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

// A dim of a bias or mask is the scores' extent or 1: here the scores are
// [1, 2, 5, 5] and the mask's dim 3 is 8.
func.func @sdpfa_mask_shape(%q: tensor<1x2x5x8xf32>, %m: tensor<1x1x5x8xi1>) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op mask dim 3 is 8: it must be 1 or the scores' extent 5 (scores [1, 2, 5, 5])}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %q, %q mask(%m : tensor<1x1x5x8xi1>) : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_mask_type(%q: tensor<1x2x5x8xf32>, %m: tensor<1x2x5x5xf32>) {
  // expected-error @+1 {{'fuser.sdpfa_fwd' op operand #3 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<1x2x5x5xf32>'}}
  %0:4 = fuser.sdpfa_fwd %q, %q, %q mask(%m : tensor<1x2x5x5xf32>) : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_dropout_without_seed(%q: tensor<1x2x5x8xf32>) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op dropout_p > 0 needs a Philox seed and offset}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %q, %q {dropout_p = 0.1} : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_seed_without_dropout(%q: tensor<1x2x5x8xf32>, %s: i64) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op a Philox seed and offset need dropout_p > 0}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %q, %q dropout(seed %s offset %s) : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}

// -----

func.func @sdpfa_dropout_with_bias(%q: tensor<1x2x5x8xf32>, %b: tensor<1x2x5x5xf32>, %s: i64) {
  // expected-error @+2 {{'fuser.sdpfa_fwd' op takes a bias or mask only without dropout (nvFuser's math attention reports no Philox state)}}
  // expected-error @+1 {{'fuser.sdpfa_fwd' op failed to infer returned types}}
  %0:4 = fuser.sdpfa_fwd %q, %q, %q bias(%b : tensor<1x2x5x5xf32>) dropout(seed %s offset %s) {dropout_p = 0.1} : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return
}
