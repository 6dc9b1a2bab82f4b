// fuser.argsort in kernels, against the interpreter bit for bit on the CPU
// backend and under the SIMT emulator, and cubin for sm_90:
// - @rows: rows of 33 with a producer and ties (x * x of values in steps of
//   0.5 around 0): one kernel in which a thread ranks each row
//   (SortRowKernel) and writes the indices and a consumer of them;
// - @columns: descending along dim 0 of bf16 with NaNs;
// - @topk: nvFuser's topk as the frontend spells it (argsort, a slice of
//   the first k, take_along_axis of the values there): one kernel that
//   selects the first k of each row (SelectRowKernel; topk.mlir tests it);
// - @long_rows, @long_columns, @wide, @ints: rows of 1000 f32 with ties
//   (and a consumer), 65 bf16 with NaN descending along dim 0, 4096 f64
//   (the largest row whose pairs fit 48 KiB of shared memory) and 300 i32
//   with ties: a block per row sorts them with a bitonic network in shared
//   memory (BlockSortKernel);
// - @spellings: an argsort of rows spelled [1, 8] in a kernel that also
//   writes them spelled [8] (as fuser-segment spells a row of one token):
//   one kernel, each output indexed in its own spelling.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-segment-report -o /dev/null | FileCheck %s --check-prefix=SEGMENTS
// RUN: fuser-run %s --entry rows --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry rows --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry columns --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry columns --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry topk --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry topk --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry long_rows --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry long_rows --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry long_columns --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry long_columns --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry wide --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry wide --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry ints --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry ints --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry spellings --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry spellings --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// OK-NOT: FAILED
// OK: ulp ok

// SEGMENTS: fusion @rows: 1 kernel, 1 segment
// SEGMENTS: fusion @columns: 1 kernel, 1 segment
// SEGMENTS: fusion @topk: 1 kernel, 1 segment
// SEGMENTS: fusion @spellings: 1 kernel, 1 segment
// SEGMENTS: fusion @long_rows: 1 kernel, 1 segment

// One kernel for each fusion.
// BIN-COUNT-8: gpu.binary
// BIN-NOT: gpu.binary

func.func @rows(%x: tensor<5x33xf32>) -> (tensor<5x33xi64>, tensor<5x33xi64>) {
  %half = arith.constant 0.5 : f32
  %h = fuser.mul %x, %half : tensor<5x33xf32>, f32 -> tensor<5x33xf32>
  %r = fuser.round %h : tensor<5x33xf32>
  %sq = fuser.mul %r, %r : tensor<5x33xf32>, tensor<5x33xf32> -> tensor<5x33xf32>
  %i = fuser.argsort %sq [1] : tensor<5x33xf32> -> tensor<5x33xi64>
  %two = arith.constant 2 : i64
  %d = fuser.mul %i, %two : tensor<5x33xi64>, i64 -> tensor<5x33xi64>
  return %i, %d : tensor<5x33xi64>, tensor<5x33xi64>
}

func.func @columns(%x: tensor<9x4xf32>) -> tensor<9x4xi64> {
  %l = fuser.log %x : tensor<9x4xf32>
  %h = fuser.cast %l : tensor<9x4xf32> to tensor<9x4xbf16>
  %i = fuser.argsort %h [0] descending : tensor<9x4xbf16> -> tensor<9x4xi64>
  return %i : tensor<9x4xi64>
}

func.func @topk(%x: tensor<6x40xf32>) -> (tensor<6x5xf32>, tensor<6x5xi64>) {
  %i = fuser.argsort %x [1] descending : tensor<6x40xf32> -> tensor<6x40xi64>
  %k = fuser.slice %i starts [0, 0] limits [6, 5] strides [1, 1] : tensor<6x40xi64> -> tensor<6x5xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<6x40xf32>, tensor<6x5xi64> -> tensor<6x5xf32>
  return %v, %k : tensor<6x5xf32>, tensor<6x5xi64>
}

func.func @spellings(%x: tensor<8xf32>, %s: tensor<f32>) -> (tensor<8xf32>, tensor<1x8xi64>) {
  %b = fuser.broadcast %s [0] : tensor<f32> -> tensor<1xf32>
  %d = fuser.div %x, %b : tensor<8xf32>, tensor<1xf32> -> tensor<8xf32>
  %e = fuser.broadcast %d [0] : tensor<8xf32> -> tensor<1x8xf32>
  %a = fuser.argsort %e [1] descending : tensor<1x8xf32> -> tensor<1x8xi64>
  return %d, %a : tensor<8xf32>, tensor<1x8xi64>
}

func.func @long_rows(%x: tensor<3x1000xf32>) -> (tensor<3x1000xi64>, tensor<3x1000xi64>) {
  %half = arith.constant 0.5 : f32
  %h = fuser.mul %x, %half : tensor<3x1000xf32>, f32 -> tensor<3x1000xf32>
  %r = fuser.round %h : tensor<3x1000xf32>
  %i = fuser.argsort %r [1] : tensor<3x1000xf32> -> tensor<3x1000xi64>
  %two = arith.constant 2 : i64
  %d = fuser.mul %i, %two : tensor<3x1000xi64>, i64 -> tensor<3x1000xi64>
  return %i, %d : tensor<3x1000xi64>, tensor<3x1000xi64>
}

func.func @long_columns(%x: tensor<65x3xf32>) -> tensor<65x3xi64> {
  %l = fuser.log %x : tensor<65x3xf32>
  %h = fuser.cast %l : tensor<65x3xf32> to tensor<65x3xbf16>
  %i = fuser.argsort %h [0] descending : tensor<65x3xbf16> -> tensor<65x3xi64>
  return %i : tensor<65x3xi64>
}

func.func @wide(%x: tensor<2x4096xf64>) -> tensor<2x4096xi64> {
  %i = fuser.argsort %x [1] descending : tensor<2x4096xf64> -> tensor<2x4096xi64>
  return %i : tensor<2x4096xi64>
}

func.func @ints(%x: tensor<2x300xi32>) -> tensor<2x300xi64> {
  %seven = arith.constant 7 : i32
  %m = fuser.remainder %x, %seven : tensor<2x300xi32>, i32 -> tensor<2x300xi32>
  %i = fuser.argsort %m [1] : tensor<2x300xi32> -> tensor<2x300xi64>
  return %i : tensor<2x300xi64>
}
