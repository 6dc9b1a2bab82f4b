// A normalization kernel also writes outputs computed from no reduction,
// whatever their shape (docs/Segmentation.md, "Normalization kernels"):
// siblings that rule 9 merged into the reduction's kernel (a permuted copy,
// an unrelated input's negation) no longer keep the reduction and its
// readers apart. The kernel writes them beside the rows, in a last thread
// loop striding over all threads of the grid (docs/Lowering.md), as a
// reduction kernel writes its outputs that do not need the reduction.
// Must not fire: a value computed from a reduction into another shape (a
// `pad` of the row sums) stays in a kernel of its own.
//
// RUN: fuser-opt --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: fusion @inner_beside_rows: 1 kernel, 1 segment, reads 2118 bytes, writes 4166 bytes
// REPORT: fusion @outer_beside_rows: 1 kernel, 1 segment, reads 572 bytes, writes 572 bytes
// REPORT: fusion @reduced_into_other_shape: 2 kernels, 2 segments
//
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-schedule %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCHEDULE --input-file %t.mlir
// SCHEDULE-LABEL: func.func @inner_beside_rows(
// SCHEDULE: fuser.segment normalization{{.*}}schedule = #fuser.schedule<normalization, vector = 4, threads = 32, split = 32, blocks = 8>
// SCHEDULE-LABEL: func.func @outer_beside_rows(
// SCHEDULE: fuser.segment normalization{{.*}}schedule = #fuser.schedule<normalization, vector = 1, threads = 128, split = 16, blocks = 1>
//
// The loops of a block: the row's reduction and outputs, then the outputs
// beside the rows, slot `block * threads + thread` striding over the grid.
// RUN: fuser-opt %t.mlir --convert-fuser-to-scf | FileCheck %s --check-prefix=SCF
// SCF-LABEL: func.func @inner_beside_rows(
// SCF: scf.parallel (%[[BLOCK:.*]]) = {{.*}} {
// SCF: scf.reduce
// SCF: scf.parallel
// SCF: scf.parallel (%[[THREAD:.*]]) = {{.*}} {
// SCF: %[[BASE:.*]] = arith.muli %[[BLOCK]], %c32
// SCF: %[[SLOT:.*]] = arith.addi %[[BASE]], %[[THREAD]]
// SCF: arith.cmpi ult, %[[SLOT]], %c128
// SCF: math.exp
// SCF: arith.cmpi ult, %[[SLOT]], %c35
// SCF: math.tanh
// SCF-LABEL: func.func @outer_beside_rows(
// SCF: scf.parallel (%[[BLOCK:.*]]) = {{.*}} {
// SCF: gpu.barrier
// SCF: scf.parallel (%[[THREAD:.*]]) = {{.*}} {
// SCF-NOT: gpu.barrier
// SCF: %[[BASE:.*]] = arith.muli %[[BLOCK]], %c128
// SCF: %[[SLOT:.*]] = arith.addi %[[BASE]], %[[THREAD]]
// SCF: arith.cmpi ult, %[[SLOT]], %c15
// SCF: arith.subi
//
// Bit-identical to the interpreter, with and without split reductions.
// RUN: fuser-run %t.mlir --entry inner_beside_rows --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry outer_beside_rows --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry reduced_into_other_shape --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-opt --fuser-preseg --fuser-segment %s | fuser-opt --fuser-schedule=split-reductions=false -o %t.seq.mlir
// RUN: fuser-run %t.seq.mlir --entry inner_beside_rows --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry outer_beside_rows --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL
// EXEC: check 0: {{.*}} ulp ok
//
// Outputs beside the rows read what they read from global memory, not from
// the rows staged on chip: the permuted copy reads the input a second time
// (as the separate kernel it would otherwise be).
// RUN: fuser-run %t.mlir --entry inner_beside_rows --backend cpu --memory-report | FileCheck %s --check-prefix=MEMORY-INNER
// RUN: fuser-run %t.mlir --entry outer_beside_rows --backend cpu --memory-report | FileCheck %s --check-prefix=MEMORY-OUTER
// MEMORY-INNER: loaded: 4166 bytes (minimum 2118, 1.967x)
// MEMORY-INNER: stored: 4166 bytes (minimum 4166, 1.000x)
// MEMORY-OUTER: loaded: 572 bytes (minimum 572, 1.000x)
// MEMORY-OUTER: stored: 572 bytes (minimum 572, 1.000x)
//
// PTX for sm_90: one kernel per fusion (two for the one that must not
// merge), nothing in local memory.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --check-prefix=PTX --implicit-check-not=.local
// PTX-COUNT-4: .entry

// Rows of 64 with a permuted copy of their exponent and an unrelated tanh.
func.func @inner_beside_rows(%x: tensor<8x64xf32>, %y: tensor<5x7xf16>) -> (tensor<8x64xf32>, tensor<64x8xf32>, tensor<5x7xf16>) {
  %s = fuser.reduction add %x [1] keepdim : tensor<8x64xf32> -> tensor<8x1xf32>
  %d = fuser.sub %x, %s : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  %e = fuser.exp %x : tensor<8x64xf32>
  %p = fuser.permute %e [1, 0] : tensor<8x64xf32> -> tensor<64x8xf32>
  %t = fuser.tanh %y : tensor<5x7xf16>
  return %d, %p, %t : tensor<8x64xf32>, tensor<64x8xf32>, tensor<5x7xf16>
}

// Column maxima beside the negation of an unrelated input.
func.func @outer_beside_rows(%x: tensor<16x8xf32>, %y: tensor<3x5xi32>) -> (tensor<16x8xf32>, tensor<3x5xi32>) {
  %s = fuser.reduction max %x [0] keepdim : tensor<16x8xf32> -> tensor<1x8xf32>
  %d = fuser.sub %x, %s : tensor<16x8xf32>, tensor<1x8xf32> -> tensor<16x8xf32>
  %n = fuser.neg %y : tensor<3x5xi32>
  return %d, %n : tensor<16x8xf32>, tensor<3x5xi32>
}

func.func @reduced_into_other_shape(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<10xf32>) {
  %s = fuser.reduction add %x [1] : tensor<8x64xf32> -> tensor<8xf32>
  %b = fuser.broadcast %s [1] : tensor<8xf32> -> tensor<8x1xf32>
  %d = fuser.sub %x, %b : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  %c = arith.constant 0.0 : f32
  %p = fuser.pad %s low [1] high [1] value %c : tensor<8xf32>, f32 -> tensor<10xf32>
  return %d, %p : tensor<8x64xf32>, tensor<10xf32>
}
