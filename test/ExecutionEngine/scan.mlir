// fuser.scan in kernels, against the interpreter bit for bit on the CPU
// backend and under the SIMT emulator, and cubin for sm_90:
// - @rows: a scan whose outputs all have its shape (the scan and a consumer
//   of it) is one kernel in which a thread walks each row once
//   (ScanRowKernel), with the scan's producers fused; rows of 1000;
// - @columns: along dim 0 (rows are columns), i32 products wrapping;
// - @bf16: accumulated in f32, each prefix rounded once;
// - @permuted: an output of another shape (a permute of the scan): the
//   pointwise kernel computes each element's prefix in a loop (evalScan),
//   vector lanes across the scan dim each their own loop;
// - @scan_then_sum: a reduction of a scan reads it from a kernel of its
//   own (no reduction kernel emits a scan).
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-segment-report -o /dev/null | FileCheck %s --check-prefix=SEGMENTS
// RUN: fuser-run %s --entry rows --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry rows --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry columns --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry columns --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry bf16 --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry bf16 --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry permuted --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry permuted --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry scan_then_sum --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry scan_then_sum --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// OK-NOT: FAILED
// OK: ulp ok

// SEGMENTS: fusion @rows: 1 kernel, 1 segment
// SEGMENTS: fusion @columns: 1 kernel, 1 segment
// SEGMENTS: fusion @bf16: 1 kernel, 1 segment
// SEGMENTS: fusion @permuted: 1 kernel, 1 segment
// SEGMENTS: fusion @scan_then_sum: 2 kernels, 2 segments

// BIN-COUNT-6: gpu.binary
// BIN-NOT: gpu.binary

func.func @rows(%x: tensor<3x1000xf32>) -> (tensor<3x1000xf32>, tensor<3x1000xf32>) {
  %scale = arith.constant 0.01 : f32
  %s = fuser.mul %x, %scale : tensor<3x1000xf32>, f32 -> tensor<3x1000xf32>
  %e = fuser.mul %s, %s : tensor<3x1000xf32>, tensor<3x1000xf32> -> tensor<3x1000xf32>
  %c = fuser.scan add %e [1] : tensor<3x1000xf32>
  %two = arith.constant 2.0 : f32
  %d = fuser.mul %c, %two : tensor<3x1000xf32>, f32 -> tensor<3x1000xf32>
  return %c, %d : tensor<3x1000xf32>, tensor<3x1000xf32>
}

func.func @columns(%x: tensor<33x7xi32>) -> tensor<33x7xi32> {
  %p = fuser.scan mul %x [0] : tensor<33x7xi32>
  return %p : tensor<33x7xi32>
}

func.func @bf16(%x: tensor<4x300xf32>) -> tensor<4x300xbf16> {
  %h = fuser.cast %x : tensor<4x300xf32> to tensor<4x300xbf16>
  %c = fuser.scan add %h [1] : tensor<4x300xbf16>
  return %c : tensor<4x300xbf16>
}

func.func @permuted(%x: tensor<6x40xf32>) -> tensor<40x6xf32> {
  %m = fuser.scan max %x [1] : tensor<6x40xf32>
  %t = fuser.permute %m [1, 0] : tensor<6x40xf32> -> tensor<40x6xf32>
  return %t : tensor<40x6xf32>
}

func.func @scan_then_sum(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %c = fuser.scan add %x [1] : tensor<8x64xf32>
  %s = fuser.reduction add %c [1] : tensor<8x64xf32> -> tensor<8xf32>
  return %s : tensor<8xf32>
}
