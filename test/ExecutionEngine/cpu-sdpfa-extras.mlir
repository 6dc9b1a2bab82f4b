// The forward's bias and mask, and dropout, on the CPU backend's attention
// call (LibraryCalls.cpp) against the interpreter within nvFuser's
// tolerance: a bias and mask with broadcast dims (stride 0 in the call's
// descriptor), the causal mask on top of a mask with fully hidden rows,
// alphafold3's rank-5 triangle attention, a dropout's forward (its
// philox_seed, [seed, offset], equal bit for bit), every score dropped
// (output 0) with constant seed and offset, and a dropout's backward
// redrawing the forward's mask from philox_seed (in the forward's fusion,
// and from an input). The dropout stream itself
// is checked against a numpy Philox in
// python/tests/test_sdpfa_bias_mask_dropout.py.
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry bias_mask --backend cpu --check-against interp | FileCheck %s --check-prefix=OK2
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry mask_causal --backend cpu --check-against interp | FileCheck %s --check-prefix=OK2
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry triangle --backend cpu --check-against interp | FileCheck %s --check-prefix=OK2
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry dropout_fwd --backend cpu --check-against interp | FileCheck %s --check-prefix=OK4
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry dropout_bwd --backend cpu --check-against interp | FileCheck %s --check-prefix=OK3
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry dropout_bwd_input --backend cpu --check-against interp | FileCheck %s --check-prefix=OK3
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry dropout_all --backend cpu --check-against interp --print-values | FileCheck %s --check-prefix=ALL
// The call reads the seed and offset from rank-0 buffers: the segment's
// inputs, or constants stored for the call.
// RUN: fuser-opt %S/Inputs/sdpfa-extras.mlir --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf | FileCheck %s --check-prefix=LOWER

// OK2-NOT: FAILED
// OK2-COUNT-2: ok
// OK4-NOT: FAILED
// OK4-COUNT-4: ok
// OK3-NOT: FAILED
// OK3-COUNT-3: ok
// ALL-NOT: FAILED
// ALL: result 0: tensor<1x2x3x4xf32>
// ALL-NEXT: {{\[\[\[\[}}0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], {{\[\[}}0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]]]
// ALL: result 2: tensor<2xi64>
// ALL-NEXT: [42, 7]
// LOWER-LABEL: func.func @bias_mask(
// LOWER: call @__fuser_sdpfa_fwd(
// LOWER-LABEL: func.func @dropout_all(
// LOWER: memref.alloca() : memref<i64>
// LOWER: memref.store
// LOWER: memref.alloca() : memref<i64>
// LOWER: memref.store
// LOWER: call @__fuser_sdpfa_fwd(
