// Attention on the CUDA backend's path, run by the SIMT emulator: the
// backend decomposes fuser.sdpfa_fwd and fuser.sdpfa_bwd
// (fuser-decompose-attention) into cuBLASLt gemm library segments (the
// fake cuBLASLt here) around softmax kernels, checked against the
// interpreter's attention within nvFuser's matmul tolerance. The entries of
// cpu-sdpfa.mlir: causal and not, odd L and S (1, 7, 33), bf16 and f32,
// rank 5, a query read through a permute, the backward of the forward in
// one fusion.
// RUN: fuser-run %S/cpu-sdpfa.mlir --entry fwd_bf16 --backend simt --check-against interp | FileCheck %s --check-prefix=OK4
// RUN: fuser-run %S/cpu-sdpfa.mlir --entry fwd_f32 --backend simt --check-against interp | FileCheck %s --check-prefix=OK4
// RUN: fuser-run %S/cpu-sdpfa.mlir --entry fwd_one --backend simt --check-against interp --print-values | FileCheck %s --check-prefix=ONE
// RUN: fuser-run %S/cpu-sdpfa.mlir --entry permuted --backend simt --check-against interp | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %S/cpu-sdpfa.mlir --entry bwd_f32 --backend simt --check-against interp | FileCheck %s --check-prefix=OK3
// RUN: fuser-run %S/cpu-sdpfa.mlir --entry bwd_bf16 --backend simt --check-against interp | FileCheck %s --check-prefix=OK3
// RUN: fuser-run %S/cpu-sdpfa.mlir --entry bwd_rank5 --backend simt --check-against interp | FileCheck %s --check-prefix=OK3
// A forward is two gemm library segments around one normalization kernel
// (the masked softmax: max, exp, sum, the division after the second gemm
// is a pointwise kernel of its own).
// RUN: fuser-opt %S/cpu-sdpfa.mlir --fuser-decompose-attention --fuser-preseg --fuser-segment | FileCheck %s --check-prefix=SEGMENTS
// Must not decompose, refused with a located error: an attention segment
// in a fusion that came segmented (a backward with dropout:
// simt-sdpfa-extras.mlir).
// RUN: fuser-opt %S/cpu-sdpfa.mlir --fuser-segment > %t.mlir
// RUN: not fuser-run %t.mlir --entry fwd_f32 --backend simt 2>&1 | FileCheck %s --check-prefix=REFUSED

// OK4-NOT: FAILED
// OK4-COUNT-4: ok
// OK3-NOT: FAILED
// OK3-COUNT-3: ok
// OK1-NOT: FAILED
// OK1: ok
// ONE: result 0: tensor<1x1x1x3xf32>
// ONE-NEXT: {{\[\[\[\[}}1.5, 1.5, 1.5]]]]
// ONE: result 1: tensor<1x1x1xf32>
// ONE-NEXT: {{\[\[\[}}4]]]
// SEGMENTS-LABEL: func.func @fwd_f32(
// SEGMENTS: fuser.segment library
// SEGMENTS: fuser.matmul
// SEGMENTS: fuser.segment normalization
// SEGMENTS: fuser.exp
// SEGMENTS: fuser.segment library
// SEGMENTS: fuser.matmul
// SEGMENTS-NOT: fuser.sdpfa_fwd
// SEGMENTS-LABEL: func.func @fwd_one(
// REFUSED: error: attention library segments (sdpfa) do not run on the CUDA backend: it runs attention as cuBLASLt gemms around softmax kernels
