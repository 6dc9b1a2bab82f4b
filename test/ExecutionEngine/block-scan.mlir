// Scans of long rows whose combine is order-free (wrapping integer add and
// mul, max and min: NaN absorbs, -0.0 orders below +0.0) in a block scan
// (BlockScanKernel: a block per row, a contiguous chunk per thread, chunk
// totals through workgroup memory, then each chunk again from its offset),
// against the interpreter bit for bit on the CPU backend and under the SIMT
// emulator, and cubin for sm_90. Rule: rows of 2048 elements or more, a
// thread per 1024 (at most 32). Fires:
// - @i32_sum: cumsum of i32 rows of 4097 (5 threads; the last chunk
//   shorter), and a consumer of it;
// - @i32_wrap: cumsum of i32 rows of 70000 (32 threads) of x * 2^28,
//   which wraps;
// - @i64_prod: cumprod of i64 rows of 3000 along dim 0 (3 threads) of odd
//   factors (1, 3, 5), which wraps and never reaches 0;
// - @f32_max, @f32_min: cummax and cummin of f32 rows of 2048 (2
//   threads): a first chunk of signed zeros (y * 0), a second of logs with
//   NaN (of negative inputs);
// - @bf16_min: cummin of bf16 rows of 5000.
// Must not fire (the scan-rows kind's walk in order, no workgroup memory):
// - @f32_sum: float add, whose rounding depends on the order;
// - @short_i32: rows of 2047.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf | FileCheck %s --check-prefix=KIND
// RUN: fuser-run %s --entry i32_sum --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry i32_sum --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry i32_wrap --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry i32_wrap --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry i64_prod --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry i64_prod --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry f32_max --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry f32_max --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry f32_min --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry f32_min --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry bf16_min --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry bf16_min --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry f32_sum --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry short_i32 --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN
// RUN: fuser-run %s --entry i32_wrap --backend cpu --memory-report | FileCheck %s --check-prefix=MEM

// OK-NOT: FAILED
// OK: ulp ok
// OK-NOT: FAILED

// The chunk totals, one per thread, in the compute type (bf16 in f32).
// KIND-LABEL: func.func @i32_sum
// KIND: memref.get_global @__fuser_scan_totals : memref<5xi32, #gpu.address_space<workgroup>>
// KIND: gpu.barrier
// KIND-LABEL: func.func @i32_wrap
// KIND: memref.get_global @__fuser_scan_totals_0 : memref<32xi32, #gpu.address_space<workgroup>>
// KIND-LABEL: func.func @i64_prod
// KIND: memref.get_global @__fuser_scan_totals_1 : memref<3xi64, #gpu.address_space<workgroup>>
// KIND-LABEL: func.func @f32_max
// KIND: memref.get_global @__fuser_scan_totals_2 : memref<2xf32, #gpu.address_space<workgroup>>
// KIND-LABEL: func.func @f32_min
// KIND: memref.get_global @__fuser_scan_totals_3 : memref<2xf32, #gpu.address_space<workgroup>>
// KIND-LABEL: func.func @bf16_min
// KIND: memref.get_global @__fuser_scan_totals_4 : memref<5xf32, #gpu.address_space<workgroup>>
// KIND-LABEL: func.func @f32_sum
// KIND-NOT: __fuser_scan_totals
// KIND-LABEL: func.func @short_i32
// KIND-NOT: __fuser_scan_totals

// The memory report of a block scan: 32 threads per row of 70000, one i32
// total each in shared memory; each element loaded twice, and each
// thread's contiguous chunk makes a warp's accesses 2188 elements apart
// (an eighth of each 32-byte sector used: a GPU block scan would stage
// coalesced tiles in shared memory instead).
// MEM: launch: grid 2 x block 32 = 64 threads
// MEM: ptxas: {{.*}} 128 bytes shared, 1 barriers
// MEM: loaded: 1120000 bytes (minimum 560000, 2.000x)
// MEM: stored: 560000 bytes (minimum 560000, 1.000x)
// MEM: load sectors: 280000 touched, 35008 fewest, efficiency 0.125

// BIN-COUNT-8: gpu.binary
// BIN-NOT: gpu.binary

func.func @i32_sum(%x: tensor<3x4097xi32>) -> (tensor<3x4097xi32>, tensor<3x4097xi32>) {
  %s = fuser.scan add %x [1] : tensor<3x4097xi32>
  %two = arith.constant 2 : i32
  %d = fuser.mul %s, %two : tensor<3x4097xi32>, i32 -> tensor<3x4097xi32>
  return %s, %d : tensor<3x4097xi32>, tensor<3x4097xi32>
}

func.func @i32_wrap(%x: tensor<2x70000xi32>) -> tensor<2x70000xi32> {
  %big = arith.constant 268435456 : i32
  %m = fuser.mul %x, %big : tensor<2x70000xi32>, i32 -> tensor<2x70000xi32>
  %s = fuser.scan add %m [1] : tensor<2x70000xi32>
  return %s : tensor<2x70000xi32>
}

func.func @i64_prod(%x: tensor<3000x2xi64>) -> tensor<3000x2xi64> {
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %r = fuser.remainder %x, %two : tensor<3000x2xi64>, i64 -> tensor<3000x2xi64>
  %d = fuser.mul %r, %two : tensor<3000x2xi64>, i64 -> tensor<3000x2xi64>
  %odd = fuser.add %d, %three : tensor<3000x2xi64>, i64 -> tensor<3000x2xi64>
  %s = fuser.scan mul %odd [0] : tensor<3000x2xi64>
  return %s : tensor<3000x2xi64>
}

func.func @f32_max(%x: tensor<2x2048xf32>, %y: tensor<2x2048xf32>) -> tensor<2x2048xf32> {
  %l = fuser.log %x : tensor<2x2048xf32>
  %zero = arith.constant 0.0 : f32
  %z = fuser.mul %y, %zero : tensor<2x2048xf32>, f32 -> tensor<2x2048xf32>
  %c = fuser.cat %z, %l dim 1 : tensor<2x2048xf32>, tensor<2x2048xf32> -> tensor<2x4096xf32>
  %h = fuser.slice %c starts [0, 1024] limits [2, 3072] strides [1, 1] : tensor<2x4096xf32> -> tensor<2x2048xf32>
  %s = fuser.scan max %h [1] : tensor<2x2048xf32>
  return %s : tensor<2x2048xf32>
}

func.func @f32_min(%x: tensor<2x2048xf32>, %y: tensor<2x2048xf32>) -> tensor<2x2048xf32> {
  %l = fuser.log %x : tensor<2x2048xf32>
  %zero = arith.constant 0.0 : f32
  %z = fuser.mul %y, %zero : tensor<2x2048xf32>, f32 -> tensor<2x2048xf32>
  %c = fuser.cat %z, %l dim 1 : tensor<2x2048xf32>, tensor<2x2048xf32> -> tensor<2x4096xf32>
  %h = fuser.slice %c starts [0, 1024] limits [2, 3072] strides [1, 1] : tensor<2x4096xf32> -> tensor<2x2048xf32>
  %s = fuser.scan min %h [1] : tensor<2x2048xf32>
  return %s : tensor<2x2048xf32>
}

func.func @bf16_min(%x: tensor<2x5000xbf16>) -> tensor<2x5000xbf16> {
  %s = fuser.scan min %x [1] : tensor<2x5000xbf16>
  return %s : tensor<2x5000xbf16>
}

func.func @f32_sum(%x: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  %s = fuser.scan add %x [1] : tensor<2x4096xf32>
  return %s : tensor<2x4096xf32>
}

func.func @short_i32(%x: tensor<2x2047xi32>) -> tensor<2x2047xi32> {
  %s = fuser.scan add %x [1] : tensor<2x2047xi32>
  return %s : tensor<2x2047xi32>
}
