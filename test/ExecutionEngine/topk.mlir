// Top-k in a selection kernel (SelectRowKernel: a block per row keeps the
// first k in per-thread lists merged by thread 0), against the interpreter
// bit for bit on the CPU backend and under the SIMT emulator (with its
// race, barrier and bounds checks), and cubin for sm_90. Each fusion is
// nvFuser's topk as the frontend spells it (argsort, a slice of its first
// k, a gather of the values there), one kernel:
// - @ties_31: rows of 31 with ties (round(x / 2)), largest 8, values and
//   indices;
// - @nan_33_smallest, @nan_33_largest: rows of 33 with NaN (log of
//   negative inputs), the smallest 5 (NaN last) and the largest 5 (NaN
//   first);
// - @ties_1000: rows of 1000 with ties, k = 16, and a consumer of the values;
// - @long_70000: rows of 70000 with ties, k = 8, walked by 18 threads
//   (one per 4096 elements) whose lists thread 0 merges: no row of it fits
//   a block's shared memory, which the selection does not need;
// - @signed_zeros: rows of +0.0 and -0.0 only (x * 0), which are equal:
//   the first k positions;
// - @ints_argmax, @ints_smallest: i32 with many ties (x mod 7), argmax
//   (k = 1) and the smallest 3;
// - @bf16_columns: along dim 0 of bf16 with NaN, largest 16 of 33;
// - @middle_dim: along the middle dim of a [3, 200, 2] f64 tensor.
// A k up to 64 is selected: @k17_nan_40 (rows of 40 with NaN, smallest
// 17, and the inputs there) and @k64_ties_4096 (rows of 4096 with ties,
// largest 64: 2k = 128 values carried per thread). More is sorted, in one
// kernel still, which writes the first k ranks: @k65_ties_300 (rows of 300
// with ties, largest 65: BlockSortKernel); merge-sort.mlir has a top 100
// of rows too long for a block.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-segment-report -o /dev/null | FileCheck %s --check-prefix=SEGMENTS
// RUN: fuser-run %s --entry ties_31 --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry ties_31 --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry nan_33_smallest --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry nan_33_largest --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry nan_33_smallest --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry nan_33_largest --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry ties_1000 --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry ties_1000 --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry long_70000 --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry long_70000 --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry signed_zeros --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry signed_zeros --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry ints_argmax --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry ints_smallest --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry ints_argmax --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry ints_smallest --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry bf16_columns --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry bf16_columns --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry middle_dim --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry middle_dim --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry k17_nan_40 --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry k17_nan_40 --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry k64_ties_4096 --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry k64_ties_4096 --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry k65_ties_300 --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry k65_ties_300 --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf | FileCheck %s --check-prefix=KINDS
// RUN: fuser-run %s --entry signed_zeros --backend cpu --print-values | FileCheck %s --check-prefix=ZEROS
// RUN: fuser-run %s --entry long_70000 --backend cpu --memory-report | FileCheck %s --check-prefix=MEM
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// OK-NOT: FAILED
// OK: ulp ok
// OK-NOT: FAILED

// SEGMENTS: fusion @ties_31: 1 kernel, 1 segment
// SEGMENTS: fusion @nan_33_smallest: 1 kernel, 1 segment
// SEGMENTS: fusion @nan_33_largest: 1 kernel, 1 segment
// SEGMENTS: fusion @ties_1000: 1 kernel, 1 segment
// SEGMENTS: fusion @long_70000: 1 kernel, 1 segment
// SEGMENTS: fusion @signed_zeros: 1 kernel, 1 segment
// SEGMENTS: fusion @ints_argmax: 1 kernel, 1 segment
// SEGMENTS: fusion @ints_smallest: 1 kernel, 1 segment
// SEGMENTS: fusion @bf16_columns: 1 kernel, 1 segment
// SEGMENTS: fusion @middle_dim: 1 kernel, 1 segment
// SEGMENTS: fusion @k17_nan_40: 1 kernel, 1 segment
// SEGMENTS: fusion @k64_ties_4096: 1 kernel, 1 segment
// SEGMENTS: fusion @k65_ties_300: 1 kernel, 1 segment

// The selections' lists of 17 and 64, and the block sort of rows of 300
// (padded to 512) for 65.
// KINDS-DAG: memref.global "private" @__fuser_select_keys_{{[0-9]+}} : memref<17xf32
// KINDS-DAG: memref.global "private" @__fuser_select_keys_{{[0-9]+}} : memref<64xf32
// KINDS-DAG: memref.global "private" @__fuser_sort_keys : memref<512xf32

// Equal keys keep their positions' order: 0 to 4 in each row.
// ZEROS: result 0: tensor<2x5xi64>
// ZEROS-NEXT: {{\[\[0, 1, 2, 3, 4\], \[0, 1, 2, 3, 4\]\]$}}

// The memory report of a selection: a block of 18 threads per row of
// 70000, 18 lists of 8 (f32 key, i32 position) pairs in shared memory,
// each row element loaded once (and the 8 values gathered again).
// MEM: launch: grid 2 x block 18 = 36 threads
// MEM: ptxas: {{.*}} 1152 bytes shared, 1 barriers
// MEM: loaded: 560064 bytes (minimum 560000, 1.000x)
// MEM: stored: 192 bytes (minimum 192, 1.000x)

// One kernel each.
// BIN-COUNT-13: gpu.binary
// BIN-NOT: gpu.binary

func.func @ties_31(%x: tensor<5x31xf32>) -> (tensor<5x8xf32>, tensor<5x8xi64>) {
  %half = arith.constant 0.5 : f32
  %h = fuser.mul %x, %half : tensor<5x31xf32>, f32 -> tensor<5x31xf32>
  %r = fuser.round %h : tensor<5x31xf32>
  %i = fuser.argsort %r [1] descending : tensor<5x31xf32> -> tensor<5x31xi64>
  %k = fuser.slice %i starts [0, 0] limits [5, 8] strides [1, 1] : tensor<5x31xi64> -> tensor<5x8xi64>
  %v = fuser.gather %r[%k] dim 1 : tensor<5x31xf32>, tensor<5x8xi64> -> tensor<5x8xf32>
  return %v, %k : tensor<5x8xf32>, tensor<5x8xi64>
}

func.func @nan_33_smallest(%x: tensor<4x33xf32>) -> tensor<4x5xi64> {
  %l = fuser.log %x : tensor<4x33xf32>
  %a = fuser.argsort %l [1] : tensor<4x33xf32> -> tensor<4x33xi64>
  %s = fuser.slice %a starts [0, 0] limits [4, 5] strides [1, 1] : tensor<4x33xi64> -> tensor<4x5xi64>
  return %s : tensor<4x5xi64>
}

func.func @nan_33_largest(%x: tensor<4x33xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>) {
  %l = fuser.log %x : tensor<4x33xf32>
  %d = fuser.argsort %l [1] descending : tensor<4x33xf32> -> tensor<4x33xi64>
  %g = fuser.slice %d starts [0, 0] limits [4, 5] strides [1, 1] : tensor<4x33xi64> -> tensor<4x5xi64>
  %v = fuser.gather %l[%g] dim 1 : tensor<4x33xf32>, tensor<4x5xi64> -> tensor<4x5xf32>
  return %v, %g : tensor<4x5xf32>, tensor<4x5xi64>
}

func.func @ties_1000(%x: tensor<3x1000xf32>) -> (tensor<3x16xf32>, tensor<3x16xi64>) {
  %half = arith.constant 0.5 : f32
  %h = fuser.mul %x, %half : tensor<3x1000xf32>, f32 -> tensor<3x1000xf32>
  %r = fuser.round %h : tensor<3x1000xf32>
  %i = fuser.argsort %r [1] descending : tensor<3x1000xf32> -> tensor<3x1000xi64>
  %k = fuser.slice %i starts [0, 0] limits [3, 16] strides [1, 1] : tensor<3x1000xi64> -> tensor<3x16xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<3x1000xf32>, tensor<3x16xi64> -> tensor<3x16xf32>
  %two = arith.constant 2.0 : f32
  %e = fuser.mul %v, %two : tensor<3x16xf32>, f32 -> tensor<3x16xf32>
  return %e, %k : tensor<3x16xf32>, tensor<3x16xi64>
}

func.func @long_70000(%x: tensor<2x70000xf32>) -> (tensor<2x8xf32>, tensor<2x8xi64>) {
  %half = arith.constant 0.5 : f32
  %h = fuser.mul %x, %half : tensor<2x70000xf32>, f32 -> tensor<2x70000xf32>
  %r = fuser.round %h : tensor<2x70000xf32>
  %i = fuser.argsort %r [1] descending : tensor<2x70000xf32> -> tensor<2x70000xi64>
  %k = fuser.slice %i starts [0, 0] limits [2, 8] strides [1, 1] : tensor<2x70000xi64> -> tensor<2x8xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<2x70000xf32>, tensor<2x8xi64> -> tensor<2x8xf32>
  return %v, %k : tensor<2x8xf32>, tensor<2x8xi64>
}

func.func @signed_zeros(%x: tensor<2x300xf32>) -> tensor<2x5xi64> {
  %zero = arith.constant 0.0 : f32
  %z = fuser.mul %x, %zero : tensor<2x300xf32>, f32 -> tensor<2x300xf32>
  %i = fuser.argsort %z [1] descending : tensor<2x300xf32> -> tensor<2x300xi64>
  %k = fuser.slice %i starts [0, 0] limits [2, 5] strides [1, 1] : tensor<2x300xi64> -> tensor<2x5xi64>
  return %k : tensor<2x5xi64>
}

func.func @ints_argmax(%x: tensor<3x300xi32>) -> tensor<3x1xi64> {
  %seven = arith.constant 7 : i32
  %m = fuser.remainder %x, %seven : tensor<3x300xi32>, i32 -> tensor<3x300xi32>
  %d = fuser.argsort %m [1] descending : tensor<3x300xi32> -> tensor<3x300xi64>
  %max = fuser.slice %d starts [0, 0] limits [3, 1] strides [1, 1] : tensor<3x300xi64> -> tensor<3x1xi64>
  return %max : tensor<3x1xi64>
}

func.func @ints_smallest(%x: tensor<3x300xi32>) -> tensor<3x3xi64> {
  %seven = arith.constant 7 : i32
  %m = fuser.remainder %x, %seven : tensor<3x300xi32>, i32 -> tensor<3x300xi32>
  %a = fuser.argsort %m [1] : tensor<3x300xi32> -> tensor<3x300xi64>
  %min = fuser.slice %a starts [0, 0] limits [3, 3] strides [1, 1] : tensor<3x300xi64> -> tensor<3x3xi64>
  return %min : tensor<3x3xi64>
}

func.func @bf16_columns(%x: tensor<33x4xf32>) -> (tensor<16x4xbf16>, tensor<16x4xi64>) {
  %l = fuser.log %x : tensor<33x4xf32>
  %h = fuser.cast %l : tensor<33x4xf32> to tensor<33x4xbf16>
  %i = fuser.argsort %h [0] descending : tensor<33x4xbf16> -> tensor<33x4xi64>
  %k = fuser.slice %i starts [0, 0] limits [16, 4] strides [1, 1] : tensor<33x4xi64> -> tensor<16x4xi64>
  %v = fuser.gather %h[%k] dim 0 : tensor<33x4xbf16>, tensor<16x4xi64> -> tensor<16x4xbf16>
  return %v, %k : tensor<16x4xbf16>, tensor<16x4xi64>
}

func.func @middle_dim(%x: tensor<3x200x2xf64>) -> (tensor<3x4x2xf64>, tensor<3x4x2xi64>) {
  %i = fuser.argsort %x [1] : tensor<3x200x2xf64> -> tensor<3x200x2xi64>
  %k = fuser.slice %i starts [0, 0, 0] limits [3, 4, 2] strides [1, 1, 1] : tensor<3x200x2xi64> -> tensor<3x4x2xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<3x200x2xf64>, tensor<3x4x2xi64> -> tensor<3x4x2xf64>
  return %v, %k : tensor<3x4x2xf64>, tensor<3x4x2xi64>
}

func.func @k17_nan_40(%x: tensor<3x40xf32>) -> (tensor<3x17xf32>, tensor<3x17xi64>) {
  %l = fuser.log %x : tensor<3x40xf32>
  %a = fuser.argsort %l [1] : tensor<3x40xf32> -> tensor<3x40xi64>
  %s = fuser.slice %a starts [0, 0] limits [3, 17] strides [1, 1] : tensor<3x40xi64> -> tensor<3x17xi64>
  %v = fuser.gather %x[%s] dim 1 : tensor<3x40xf32>, tensor<3x17xi64> -> tensor<3x17xf32>
  return %v, %s : tensor<3x17xf32>, tensor<3x17xi64>
}

func.func @k64_ties_4096(%x: tensor<3x4096xf32>) -> (tensor<3x64xf32>, tensor<3x64xi64>) {
  %half = arith.constant 0.5 : f32
  %h = fuser.mul %x, %half : tensor<3x4096xf32>, f32 -> tensor<3x4096xf32>
  %r = fuser.round %h : tensor<3x4096xf32>
  %i = fuser.argsort %r [1] descending : tensor<3x4096xf32> -> tensor<3x4096xi64>
  %k = fuser.slice %i starts [0, 0] limits [3, 64] strides [1, 1] : tensor<3x4096xi64> -> tensor<3x64xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<3x4096xf32>, tensor<3x64xi64> -> tensor<3x64xf32>
  return %v, %k : tensor<3x64xf32>, tensor<3x64xi64>
}

func.func @k65_ties_300(%x: tensor<3x300xf32>) -> (tensor<3x65xf32>, tensor<3x65xi64>) {
  %half = arith.constant 0.5 : f32
  %h = fuser.mul %x, %half : tensor<3x300xf32>, f32 -> tensor<3x300xf32>
  %r = fuser.round %h : tensor<3x300xf32>
  %i = fuser.argsort %r [1] descending : tensor<3x300xf32> -> tensor<3x300xi64>
  %k = fuser.slice %i starts [0, 0] limits [3, 65] strides [1, 1] : tensor<3x300xi64> -> tensor<3x65xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<3x300xf32>, tensor<3x65xi64> -> tensor<3x65xf32>
  return %v, %k : tensor<3x65xf32>, tensor<3x65xi64>
}
