// Attention library segments (fuser.sdpfa_fwd, fuser.sdpfa_bwd) on the CPU
// backend: one call of __fuser_sdpfa_fwd/__fuser_sdpfa_bwd per segment,
// sgemm per head around the softmax step of LibraryCalls.cpp, checked
// against the interpreter within nvFuser's tolerance for the summed extents
// (E + S forward, E + Ev + L + S backward). Causal and not, odd L and S (1,
// 7, 33), bf16 and f32, rank 5, a query read through a permute (strides of
// the call), the forward's seed and offset left to the call's own buffers,
// and the backward of the forward in one fusion.
// RUN: fuser-run %s --entry fwd_bf16 --backend cpu --check-against interp | FileCheck %s --check-prefix=OK4
// RUN: fuser-run %s --entry fwd_f32 --backend cpu --check-against interp | FileCheck %s --check-prefix=OK4
// RUN: fuser-run %s --entry fwd_one --backend cpu --check-against interp --print-values | FileCheck %s --check-prefix=ONE
// RUN: fuser-run %s --entry permuted --backend cpu --check-against interp | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %s --entry bwd_f32 --backend cpu --check-against interp | FileCheck %s --check-prefix=OK3
// RUN: fuser-run %s --entry bwd_bf16 --backend cpu --check-against interp | FileCheck %s --check-prefix=OK3
// RUN: fuser-run %s --entry bwd_rank5 --backend cpu --check-against interp | FileCheck %s --check-prefix=OK3
// The lowering: one call per attention segment, its unused results in
// buffers of the call's own.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf | FileCheck %s --check-prefix=LOWER
// The same entries under SIMT (gemms around a softmax kernel):
// simt-sdpfa.mlir; a bias, a mask and dropout: cpu-sdpfa-extras.mlir.

// OK4-NOT: FAILED
// OK4-COUNT-4: ok
// OK3-NOT: FAILED
// OK3-COUNT-3: ok
// OK1-NOT: FAILED
// OK1: ok
// One key: the output is the value, logsumexp the one score.
// ONE: result 0: tensor<1x1x1x3xf32>
// ONE-NEXT: {{\[\[\[\[}}1.5, 1.5, 1.5]]]]
// ONE: result 1: tensor<1x1x1xf32>
// ONE-NEXT: {{\[\[\[}}4]]]
// LOWER-LABEL: func.func @permuted(
// LOWER-NOT: memref.copy
// LOWER: memref.alloc() {{.*}} : memref<2xi64>
// LOWER: memref.alloc() {{.*}} : memref<i64>
// LOWER: call @__fuser_sdpfa_fwd(
// LOWER-LABEL: func.func @bwd_f32(
// LOWER: call @__fuser_sdpfa_fwd(
// LOWER: call @__fuser_sdpfa_bwd(

func.func @fwd_bf16(%q: tensor<2x3x7x8xbf16>, %k: tensor<2x3x33x8xbf16>, %v: tensor<2x3x33x4xbf16>) -> (tensor<2x3x7x4xbf16>, tensor<2x3x7xf32>, tensor<2xi64>, tensor<i64>) {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v {is_causal} : tensor<2x3x7x8xbf16>, tensor<2x3x33x8xbf16>, tensor<2x3x33x4xbf16> -> tensor<2x3x7x4xbf16>, tensor<2x3x7xf32>, tensor<2xi64>, tensor<i64>
  return %o, %lse, %seed, %offset : tensor<2x3x7x4xbf16>, tensor<2x3x7xf32>, tensor<2xi64>, tensor<i64>
}

func.func @fwd_f32(%q: tensor<1x2x33x16xf32>, %k: tensor<1x2x7x16xf32>, %v: tensor<1x2x7x5xf32>) -> (tensor<1x2x33x5xf32>, tensor<1x2x33xf32>, tensor<2xi64>, tensor<i64>) {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v {scale = 0.3} : tensor<1x2x33x16xf32>, tensor<1x2x7x16xf32>, tensor<1x2x7x5xf32> -> tensor<1x2x33x5xf32>, tensor<1x2x33xf32>, tensor<2xi64>, tensor<i64>
  return %o, %lse, %seed, %offset : tensor<1x2x33x5xf32>, tensor<1x2x33xf32>, tensor<2xi64>, tensor<i64>
}

func.func @fwd_one() -> (tensor<1x1x1x3xf32>, tensor<1x1x1xf32>) {
  %two = arith.constant 2.0 : f32
  %half = arith.constant 0.5 : f32
  %value = arith.constant 1.5 : f32
  %q = fuser.full %two : f32 -> tensor<1x1x1x4xf32>
  %k = fuser.full %half : f32 -> tensor<1x1x1x4xf32>
  %v = fuser.full %value : f32 -> tensor<1x1x1x3xf32>
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v {is_causal, scale = 1.0} : tensor<1x1x1x4xf32>, tensor<1x1x1x4xf32>, tensor<1x1x1x3xf32> -> tensor<1x1x1x3xf32>, tensor<1x1x1xf32>, tensor<2xi64>, tensor<i64>
  return %o, %lse : tensor<1x1x1x3xf32>, tensor<1x1x1xf32>
}

// The query as [N, L, H, E], transposed by a permute the call reads as
// strides.
func.func @permuted(%q: tensor<2x7x3x8xf32>, %k: tensor<2x3x33x8xf32>, %v: tensor<2x3x33x8xf32>) -> tensor<2x3x7x8xf32> {
  %qt = fuser.permute %q [0, 2, 1, 3] : tensor<2x7x3x8xf32> -> tensor<2x3x7x8xf32>
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %qt, %k, %v {is_causal} : tensor<2x3x7x8xf32>, tensor<2x3x33x8xf32>, tensor<2x3x33x8xf32> -> tensor<2x3x7x8xf32>, tensor<2x3x7xf32>, tensor<2xi64>, tensor<i64>
  return %o : tensor<2x3x7x8xf32>
}

func.func @bwd_f32(%go: tensor<1x2x7x4xf32>, %q: tensor<1x2x7x8xf32>, %k: tensor<1x2x33x8xf32>, %v: tensor<1x2x33x4xf32>) -> (tensor<1x2x7x8xf32>, tensor<1x2x33x8xf32>, tensor<1x2x33x4xf32>) {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v {is_causal} : tensor<1x2x7x8xf32>, tensor<1x2x33x8xf32>, tensor<1x2x33x4xf32> -> tensor<1x2x7x4xf32>, tensor<1x2x7xf32>, tensor<2xi64>, tensor<i64>
  %dq, %dk, %dv = fuser.sdpfa_bwd %go, %q, %k, %v, %o, %lse, %seed, %offset {is_causal} : tensor<1x2x7x4xf32>, tensor<1x2x7x8xf32>, tensor<1x2x33x8xf32>, tensor<1x2x33x4xf32>, tensor<1x2x7x4xf32>, tensor<1x2x7xf32>, tensor<2xi64>, tensor<i64> -> tensor<1x2x7x8xf32>, tensor<1x2x33x8xf32>, tensor<1x2x33x4xf32>
  return %dq, %dk, %dv : tensor<1x2x7x8xf32>, tensor<1x2x33x8xf32>, tensor<1x2x33x4xf32>
}

func.func @bwd_bf16(%go: tensor<2x2x33x8xbf16>, %q: tensor<2x2x33x8xbf16>, %k: tensor<2x2x7x8xbf16>, %v: tensor<2x2x7x8xbf16>) -> (tensor<2x2x33x8xbf16>, tensor<2x2x7x8xbf16>, tensor<2x2x7x8xbf16>) {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v : tensor<2x2x33x8xbf16>, tensor<2x2x7x8xbf16>, tensor<2x2x7x8xbf16> -> tensor<2x2x33x8xbf16>, tensor<2x2x33xf32>, tensor<2xi64>, tensor<i64>
  %dq, %dk, %dv = fuser.sdpfa_bwd %go, %q, %k, %v, %o, %lse, %seed, %offset : tensor<2x2x33x8xbf16>, tensor<2x2x33x8xbf16>, tensor<2x2x7x8xbf16>, tensor<2x2x7x8xbf16>, tensor<2x2x33x8xbf16>, tensor<2x2x33xf32>, tensor<2xi64>, tensor<i64> -> tensor<2x2x33x8xbf16>, tensor<2x2x7x8xbf16>, tensor<2x2x7x8xbf16>
  return %dq, %dk, %dv : tensor<2x2x33x8xbf16>, tensor<2x2x7x8xbf16>, tensor<2x2x7x8xbf16>
}

func.func @bwd_rank5(%go: tensor<2x1x2x1x4xf32>, %q: tensor<2x1x2x1x8xf32>, %k: tensor<2x1x2x7x8xf32>, %v: tensor<2x1x2x7x4xf32>) -> (tensor<2x1x2x1x8xf32>, tensor<2x1x2x7x8xf32>, tensor<2x1x2x7x4xf32>) {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v {is_causal} : tensor<2x1x2x1x8xf32>, tensor<2x1x2x7x8xf32>, tensor<2x1x2x7x4xf32> -> tensor<2x1x2x1x4xf32>, tensor<2x1x2x1xf32>, tensor<2xi64>, tensor<i64>
  %dq, %dk, %dv = fuser.sdpfa_bwd %go, %q, %k, %v, %o, %lse, %seed, %offset {is_causal} : tensor<2x1x2x1x4xf32>, tensor<2x1x2x1x8xf32>, tensor<2x1x2x7x8xf32>, tensor<2x1x2x7x4xf32>, tensor<2x1x2x1x4xf32>, tensor<2x1x2x1xf32>, tensor<2xi64>, tensor<i64> -> tensor<2x1x2x1x8xf32>, tensor<2x1x2x7x8xf32>, tensor<2x1x2x7x4xf32>
  return %dq, %dk, %dv : tensor<2x1x2x1x8xf32>, tensor<2x1x2x7x8xf32>, tensor<2x1x2x7x4xf32>
}
