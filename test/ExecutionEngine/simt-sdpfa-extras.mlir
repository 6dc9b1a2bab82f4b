// The entries of cpu-sdpfa-extras.mlir on the CUDA backend's path under
// SIMT: fuser-decompose-attention adds the bias, applies the masks with
// `where`, and draws the dropout mask with fuser.uniform from the seed and
// offset (the interpreter's draw: both are fuser.uniform's Philox stream),
// against the interpreter within nvFuser's matmul tolerance.
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry bias_mask --backend simt --check-against interp | FileCheck %s --check-prefix=OK2
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry mask_causal --backend simt --check-against interp | FileCheck %s --check-prefix=OK2
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry triangle --backend simt --check-against interp | FileCheck %s --check-prefix=OK2
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry dropout_fwd --backend simt --check-against interp | FileCheck %s --check-prefix=OK4
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry dropout_all --backend simt --check-against interp | FileCheck %s --check-prefix=OK3
// A backward with dropout in its forward's fusion draws the mask from the
// forward's seed and offset.
// RUN: fuser-run %S/Inputs/sdpfa-extras.mlir --entry dropout_bwd --backend simt --check-against interp | FileCheck %s --check-prefix=OK3
// Not decomposed, refused with a located error: a backward with dropout
// whose philox_seed is an input (its seed is in a tensor; fuser.uniform
// takes scalars).
// RUN: not fuser-run %S/Inputs/sdpfa-extras.mlir --entry dropout_bwd_input --backend simt 2>&1 | FileCheck %s --check-prefix=REFUSED

// OK2-NOT: FAILED
// OK2-COUNT-2: ok
// OK4-NOT: FAILED
// OK4-COUNT-4: ok
// OK3-NOT: FAILED
// OK3-COUNT-3: ok
// REFUSED: sdpfa-extras.mlir:{{[0-9]+}}:{{[0-9]+}}: error: attention library segments (sdpfa) do not run on the CUDA backend
// REFUSED-SAME: an sdpfa_bwd with dropout_p > 0 whose Philox state is an input
