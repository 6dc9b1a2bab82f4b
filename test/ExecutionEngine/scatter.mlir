// fuser.scatter in kernels, against the interpreter bit for bit on the CPU
// backend and under the SIMT emulator, and cubin for sm_90:
// - @rows: producers of self, index and src fused into one kernel in which
//   a thread owns each row of the result along dim 0 (ScatterRowKernel):
//   indices `remainder(i, 8)` repeat (the later write wins), an index
//   shorter than self in dim 1 leaves columns 5.. as self's;
// - @accumulate: index_put_accumulate as nvFuser's embedding backward
//   spells it (a row index broadcast along the row, scatter-add into a
//   zero table along dim 0), in bf16, duplicates combined in index order;
// - @columns: scatter-max along the innermost dim of rows of 33, with
//   src longer than the index;
// - @consumer: a sigmoid of the scatter goes to a second kernel (the
//   scatter's result is complete only at its kernel's end), as does the
//   producer of self that is also a result;
// - @out_of_range: the CPU backend with index checks reports the
//   interpreter's error; SIMT skips the write (the kernels do not read or
//   write past self).
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-segment-report -o /dev/null | FileCheck %s --check-prefix=SEGMENTS
// RUN: fuser-run %s --entry rows --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry rows --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry accumulate --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry accumulate --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry columns --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry columns --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry consumer --backend cpu --check-against interp --ulp-tolerance 1 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry consumer --backend simt --check-against interp --ulp-tolerance 1 | FileCheck %s --check-prefix=OK
// RUN: not fuser-run %s --entry out_of_range --backend cpu 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// OK-NOT: FAILED
// OK: ulp ok

// SEGMENTS: fusion @rows: 1 kernel, 1 segment
// SEGMENTS: fusion @accumulate: 1 kernel, 1 segment
// SEGMENTS: fusion @columns: 1 kernel, 1 segment
// SEGMENTS: fusion @consumer: 3 kernels, 3 segments
// SEGMENTS: not one kernel with #{{[0-9]+}}: not the rows of a scatter: it {{reads its scatter's result|writes a value other than its scatter's result}}

// One kernel each, three for @consumer and one for @out_of_range.
// BIN-COUNT-7: gpu.binary
// BIN-NOT: gpu.binary

func.func @rows(%x: tensor<10x7xf32>, %i: tensor<6x5xi64>, %s: tensor<6x5xf32>) -> tensor<10x7xf32> {
  %two = arith.constant 2.0 : f32
  %self = fuser.mul %x, %two : tensor<10x7xf32>, f32 -> tensor<10x7xf32>
  %eight = arith.constant 8 : i64
  %index = fuser.remainder %i, %eight : tensor<6x5xi64>, i64 -> tensor<6x5xi64>
  %src = fuser.neg %s : tensor<6x5xf32>
  %r = fuser.scatter %self[%index] = %src dim 0 : tensor<10x7xf32>, tensor<6x5xi64>, tensor<6x5xf32>
  return %r : tensor<10x7xf32>
}

func.func @accumulate(%ids: tensor<12xi64>, %grad: tensor<12x16xbf16>) -> tensor<5x16xbf16> {
  %zero = arith.constant 0.0 : bf16
  %table = fuser.full %zero : bf16 -> tensor<5x16xbf16>
  %five = arith.constant 5 : i64
  %row = fuser.remainder %ids, %five : tensor<12xi64>, i64 -> tensor<12xi64>
  %b = fuser.broadcast %row [1] : tensor<12xi64> -> tensor<12x1xi64>
  %index = fuser.expand %b : tensor<12x1xi64> -> tensor<12x16xi64>
  %r = fuser.scatter %table[%index] = %grad dim 0 reduce add : tensor<5x16xbf16>, tensor<12x16xi64>, tensor<12x16xbf16>
  return %r : tensor<5x16xbf16>
}

func.func @columns(%x: tensor<3x33xf32>, %i: tensor<3x20xi32>, %s: tensor<3x40xf32>) -> tensor<3x33xf32> {
  %n = arith.constant 33 : i32
  %index = fuser.remainder %i, %n : tensor<3x20xi32>, i32 -> tensor<3x20xi32>
  %r = fuser.scatter %x[%index] = %s dim 1 reduce max : tensor<3x33xf32>, tensor<3x20xi32>, tensor<3x40xf32>
  return %r : tensor<3x33xf32>
}

func.func @consumer(%x: tensor<16x4xf32>, %i: tensor<8x4xi64>, %s: tensor<8x4xf32>) -> (tensor<16x4xf32>, tensor<16x4xf32>) {
  %self = fuser.abs %x : tensor<16x4xf32>
  %sixteen = arith.constant 16 : i64
  %index = fuser.remainder %i, %sixteen : tensor<8x4xi64>, i64 -> tensor<8x4xi64>
  %r = fuser.scatter %self[%index] = %s dim 0 : tensor<16x4xf32>, tensor<8x4xi64>, tensor<8x4xf32>
  %y = fuser.sigmoid %r : tensor<16x4xf32>
  return %y, %self : tensor<16x4xf32>, tensor<16x4xf32>
}

// RANGE: scatter.mlir:[[@LINE+5]]:8: error: index 4 is out of range [0, 4) along dim 0 at index element 1
func.func @out_of_range(%x: tensor<4xf32>, %s: tensor<2xf32>) -> tensor<4xf32> {
  %three = arith.constant 3 : i64
  %one = arith.constant 1 : i64
  %i = fuser.iota %three, %one : i64 -> tensor<2xi64>
  %0 = fuser.scatter %x[%i] = %s dim 0 : tensor<4xf32>, tensor<2xi64>, tensor<2xf32>
  return %0 : tensor<4xf32>
}
