// The merge-sort kind (MergeSortKernel): an argsort whose rows do not fit a
// block's shared memory (more than getSortChunk pairs: 4096 for 4- and
// 8-byte keys) is sorted in passes, one launch each: a block per chunk of
// 4096 sorts it with the bitonic network into a global scratch buffer,
// then ceil(log2(chunks)) merge passes, a thread per element placing it by
// a binary search in the other run of its pair, the last computing the
// outputs at the ranks. Against the interpreter bit for bit on the CPU
// backend and under SIMT:
// - @long_70000: rows of 70000 f32 with ties (round(x / 2)), descending,
//   and the sorted values (a gather at the indices): 18 chunks, 5 merge
//   passes through two scratch buffers;
// - @f64_4097: rows of 4097 f64 with NaN (log), ascending: 2 chunks, the
//   second one element, and 1 merge pass (one scratch buffer);
// - @bf16_columns: along dim 0 of bf16 [9000, 3] with NaN, descending: 3
//   chunks (the last short), 2 merge passes, the first of which copies
//   the third run unmerged;
// - @ints_topk: the first 100 of i32 rows of 12289 with many ties (x mod
//   7): a top-k of more than a selection keeps. Each run keeps its first
//   100 pairs only (a pair past a run's first k ranks no better merged):
//   the chunks store their first 100, a merge pass moves and searches
//   the first 100 of each run and stores the first 100 of each merged
//   run, and the last writes ranks below 100 only.
// Must not fire: @fits (rows of 4096 f32, one chunk) is the block-sort
// kind's, @short (rows of 40) the sort-rows kind's: one launch each.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-segment-report -o /dev/null | FileCheck %s --check-prefix=SEGMENTS
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf | FileCheck %s --check-prefix=SCF
// RUN: fuser-run %s --entry long_70000 --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry long_70000 --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry f64_4097 --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry f64_4097 --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry bf16_columns --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry bf16_columns --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry ints_topk --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry ints_topk --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry fits --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry short --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry long_70000 --backend cpu --memory-report | FileCheck %s --check-prefix=MEM
// RUN: fuser-run %s --entry ints_topk --backend cpu --memory-report | FileCheck %s --check-prefix=MEMK
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// OK-NOT: FAILED
// OK: ulp ok
// OK-NOT: FAILED

// SEGMENTS: fusion @long_70000: 1 kernel, 1 segment
// SEGMENTS: fusion @f64_4097: 1 kernel, 1 segment
// SEGMENTS: fusion @bf16_columns: 1 kernel, 1 segment
// SEGMENTS: fusion @ints_topk: 1 kernel, 1 segment
// SEGMENTS: fusion @fits: 1 kernel, 1 segment
// SEGMENTS: fusion @short: 1 kernel, 1 segment

// The passes: the chunk sort's block loop (a block per chunk of each row),
// then a nest of a thread per element per merge pass; the scratch buffers
// allocated before and freed after.
// SCF-LABEL: func.func @long_70000
// SCF-COUNT-4: memref.alloc() {alignment = 16 : i64} : memref<140000x{{f32|i32}}>
// SCF: scf.parallel
// SCF-COUNT-4: memref.dealloc
// SCF-LABEL: func.func @f64_4097
// SCF-COUNT-2: memref.alloc() {alignment = 16 : i64} : memref<12291x{{f64|i32}}>
// SCF-NOT: memref.alloc
// SCF-LABEL: func.func @bf16_columns
// SCF-LABEL: func.func @fits
// SCF-NOT: memref.alloc
// SCF-LABEL: func.func @short
// SCF-NOT: memref.alloc

// A launch per pass: the chunk sort (2 rows x 18 chunks of 4096, 512
// threads, 4096 f32 keys and i32 positions in shared memory; each
// element loaded once, the pairs stored once) and 5 merge
// passes of a thread per element, each loading its pair and about
// log2(run) + 1 pairs of the binary search (8 bytes each), the last
// storing the outputs and loading the gathered values.
// MEM: launch: grid 36 x block 512
// MEM-NEXT: ptxas: {{.*}} 32768 bytes shared
// MEM-NEXT: loaded: 560000 bytes (minimum 560000, 1.000x)
// MEM-NEXT: stored: 1120000 bytes (minimum 1120000, 1.000x)
// MEM-COUNT-5: launch: grid 547 x block 256

// The top 100's passes: the chunks store 2 rows x (3 x 100 + 1) pairs of
// 8 bytes, the first merge pass 2 rows x 2 runs x 100, the last the
// outputs (2 x 100 i32 values and i64 indices).
// MEMK: launch: grid 8 x block 512
// MEMK: stored: 4816 bytes
// MEMK: launch: grid 97 x block 256
// MEMK: stored: 3200 bytes
// MEMK: launch: grid 97 x block 256
// MEMK: stored: 2400 bytes
// MEMK-NOT: launch

// A binary per pass: 6, 2, 3 and 3 for the merge sorts, 1 for @fits and
// @short.
// BIN: gpu.binary @long_70000_kernel
// BIN-COUNT-5: gpu.binary @long_70000_kernel_{{[0-4]}}
// BIN: gpu.binary @f64_4097_kernel
// BIN: gpu.binary @f64_4097_kernel_5
// BIN: gpu.binary @bf16_columns_kernel
// BIN-COUNT-2: gpu.binary @bf16_columns_kernel_{{[67]}}
// BIN: gpu.binary @ints_topk_kernel
// BIN-COUNT-2: gpu.binary @ints_topk_kernel_{{[89]}}
// BIN: gpu.binary @fits_kernel
// BIN: gpu.binary @short_kernel
// BIN-NOT: gpu.binary

func.func @long_70000(%x: tensor<2x70000xf32>) -> (tensor<2x70000xf32>, tensor<2x70000xi64>) {
  %half = arith.constant 0.5 : f32
  %h = fuser.mul %x, %half : tensor<2x70000xf32>, f32 -> tensor<2x70000xf32>
  %r = fuser.round %h : tensor<2x70000xf32>
  %i = fuser.argsort %r [1] descending : tensor<2x70000xf32> -> tensor<2x70000xi64>
  %v = fuser.gather %x[%i] dim 1 : tensor<2x70000xf32>, tensor<2x70000xi64> -> tensor<2x70000xf32>
  return %v, %i : tensor<2x70000xf32>, tensor<2x70000xi64>
}

func.func @f64_4097(%x: tensor<3x4097xf64>) -> tensor<3x4097xi64> {
  %l = fuser.log %x : tensor<3x4097xf64>
  %i = fuser.argsort %l [1] : tensor<3x4097xf64> -> tensor<3x4097xi64>
  return %i : tensor<3x4097xi64>
}

func.func @bf16_columns(%x: tensor<9000x3xf32>) -> tensor<9000x3xi64> {
  %l = fuser.log %x : tensor<9000x3xf32>
  %h = fuser.cast %l : tensor<9000x3xf32> to tensor<9000x3xbf16>
  %i = fuser.argsort %h [0] descending : tensor<9000x3xbf16> -> tensor<9000x3xi64>
  return %i : tensor<9000x3xi64>
}

func.func @ints_topk(%x: tensor<2x12289xi32>) -> (tensor<2x100xi32>, tensor<2x100xi64>) {
  %seven = arith.constant 7 : i32
  %m = fuser.remainder %x, %seven : tensor<2x12289xi32>, i32 -> tensor<2x12289xi32>
  %a = fuser.argsort %m [1] : tensor<2x12289xi32> -> tensor<2x12289xi64>
  %k = fuser.slice %a starts [0, 0] limits [2, 100] strides [1, 1] : tensor<2x12289xi64> -> tensor<2x100xi64>
  %v = fuser.gather %m[%k] dim 1 : tensor<2x12289xi32>, tensor<2x100xi64> -> tensor<2x100xi32>
  return %v, %k : tensor<2x100xi32>, tensor<2x100xi64>
}

func.func @fits(%x: tensor<2x4096xf32>) -> tensor<2x4096xi64> {
  %i = fuser.argsort %x [1] : tensor<2x4096xf32> -> tensor<2x4096xi64>
  return %i : tensor<2x4096xi64>
}

func.func @short(%x: tensor<2x40xf32>) -> tensor<2x40xi64> {
  %i = fuser.argsort %x [1] : tensor<2x40xf32> -> tensor<2x40xi64>
  return %i : tensor<2x40xi64>
}
