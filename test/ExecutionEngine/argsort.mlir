// fuser.argsort in kernels, against the interpreter bit for bit on the CPU
// backend and under the SIMT emulator, and cubin for sm_90:
// - @rows: rows of 33 with a producer and ties (x * x of values in steps of
//   0.5 around 0): one kernel in which a thread ranks each row
//   (SortRowKernel) and writes the indices and a consumer of them;
// - @columns: descending along dim 0 of bf16 with NaNs;
// - @topk: nvFuser's topk as the frontend spells it (argsort, a slice of
//   the first k, take_along_axis of the values there): the argsort's
//   kernel writes its rows, the slice is a view of them and the gather
//   a second kernel;
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
// RUN: fuser-run %s --entry spellings --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry spellings --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// OK-NOT: FAILED
// OK: ulp ok

// SEGMENTS: fusion @rows: 1 kernel, 1 segment
// SEGMENTS: fusion @columns: 1 kernel, 1 segment
// SEGMENTS: fusion @topk: 2 kernels, 3 segments
// SEGMENTS: not one kernel with #2: not the rows of an argsort: it writes a value of another shape than its argsort's rows
// SEGMENTS: fusion @spellings: 1 kernel, 1 segment

// The topk: its argsort, the copy of the slice view and the gather; one
// kernel for each other fusion.
// BIN-COUNT-6: gpu.binary
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
