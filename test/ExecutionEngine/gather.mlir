// fuser.gather on every backend, with indices computed in the fusion
// (iota * 5 + 3 mod the extent, so repeated and reversed positions occur):
// the values against numpy's take_along_axis (computed independently), the
// CPU backend and the SIMT emulator bit for bit against the interpreter, the
// gather fused with its producers and readers into one kernel, cubin for
// sm_90. An index out of range is a located error of the interpreter and of
// the CPU backend (whose kernels check the indices they read: the smallest
// result element that reads one out of range is named); GPU kernels read
// at the index as nvFuser's do, and the SIMT emulator reports the read past
// the source.
// RUN: fuser-run %s --entry take --backend interp --print-values | FileCheck %s
// RUN: fuser-run %s --entry take --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %s --entry take --backend simt --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-opt %s --fuser-preseg --fuser-segment | FileCheck %s --check-prefix=SEGMENT
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN
// RUN: not fuser-run %s --entry out_of_range --backend interp 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not fuser-run %s --entry out_of_range --backend cpu 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not fuser-run %s --entry out_of_range --backend simt 2>&1 | FileCheck %s --check-prefix=SIMT-RANGE
// RUN: not fuser-run %s --entry negative --backend interp 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not fuser-run %s --entry negative --backend cpu 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// The memory report records the CPU backend's kernel (which checks the
// indices) and runs ptxas on the GPU's (which does not call the CPU's check):
// RUN: fuser-run %s --entry last_column --backend cpu --memory-report | FileCheck %s --check-prefix=REPORT
// REPORT: ptxas: {{[0-9]+}} registers, 0 bytes spill stores

// x = arange(32).reshape(4, 8) * 0.5 + 1, idx[r, c] = (r + 5 * c + 3) % 8:
// numpy: np.take_along_axis(x, idx, 1).
// CHECK: result 0: tensor<4x3xf32>
// CHECK-NEXT: {{\[\[}}2.5, 1, 3.5], [7, 5.5, 8], [11.5, 10, 12.5], [16, 14.5, 13]]
// EXACT: ulp ok

// SEGMENT-LABEL: func.func @take
// SEGMENT-COUNT-1: fuser.segment pointwise
// SEGMENT-NOT: fuser.segment
// SEGMENT: return

// BIN: gpu.binary
// BIN-SAME: bin = "\7FELF

// RANGE: gather.mlir:[[@LINE+30]]:8: error: index 8 is out of range [0, 8) along dim 1 at index element 0
// SIMT-RANGE: simt: error: Invalid read of size 4 bytes
// SIMT-RANGE: is out of bounds: 0 bytes after the end of an allocation of 128 bytes
// NEGATIVE: gather.mlir:[[@LINE+34]]:8: error: index -1 is out of range [0, 5) along dim 0 at index element 0
func.func @take() -> tensor<4x3xf32> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %flat = fuser.iota %zero, %one : i64 -> tensor<32xi64>
  %v = fuser.view %flat : tensor<32xi64> -> tensor<4x8xi64>
  %vf = fuser.cast %v : tensor<4x8xi64> to tensor<4x8xf32>
  %half = arith.constant 0.5 : f32
  %onef = arith.constant 1.0 : f32
  %x0 = fuser.mul %vf, %half : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
  %x = fuser.add %x0, %onef : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
  %three = arith.constant 3 : i64
  %five = arith.constant 5 : i64
  %c = fuser.iota %three, %five : i64 -> tensor<3xi64>
  %r = fuser.iota %zero, %one : i64 -> tensor<4xi64>
  %cb = fuser.broadcast %c [0] : tensor<3xi64> -> tensor<1x3xi64>
  %rb = fuser.broadcast %r [1] : tensor<4xi64> -> tensor<4x1xi64>
  %sum = fuser.add %rb, %cb : tensor<4x1xi64>, tensor<1x3xi64> -> tensor<4x3xi64>
  %eight = arith.constant 8 : i64
  %idx = fuser.remainder %sum, %eight : tensor<4x3xi64>, i64 -> tensor<4x3xi64>
  %g = fuser.gather %x[%idx] dim 1 : tensor<4x8xf32>, tensor<4x3xi64> -> tensor<4x3xf32>
  return %g : tensor<4x3xf32>
}

func.func @out_of_range(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %eight = arith.constant 8 : i64
  %idx = fuser.full %eight : i64 -> tensor<4x3xi64>
  %g = fuser.gather %x[%idx] dim 1 : tensor<4x8xf32>, tensor<4x3xi64> -> tensor<4x3xf32>
  return %g : tensor<4x3xf32>
}

func.func @negative(%x: tensor<5x2xf16>) -> tensor<3x2xf16> {
  %minus = arith.constant -1 : i32
  %idx = fuser.full %minus : i32 -> tensor<3x2xi32>
  %g = fuser.gather %x[%idx] dim 0 : tensor<5x2xf16>, tensor<3x2xi32> -> tensor<3x2xf16>
  return %g : tensor<3x2xf16>
}

func.func @last_column(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %seven = arith.constant 7 : i64
  %idx = fuser.full %seven : i64 -> tensor<4x3xi64>
  %g = fuser.gather %x[%idx] dim 1 : tensor<4x8xf32>, tensor<4x3xi64> -> tensor<4x3xf32>
  return %g : tensor<4x3xf32>
}
