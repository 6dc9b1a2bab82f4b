// fuser.uniform and fuser.normal on every backend: the CPU backend bit for
// bit against the interpreter (the same libm for Box-Muller), the SIMT
// emulator bit for bit on uniform and within the math-library ulp bound on
// normal (libdevice), at odd shapes whose rows split Philox calls and at
// unaligned vector lanes; a dropout mask fused into one kernel with its
// reader; cubin for sm_90. The values themselves are checked against an
// independent Python implementation of nvFuser's formulas
// (python/tests/test_random_ops.py) and Philox against Random123's
// known answers (unittests/Dialect/Fuser/RandomSemanticsTest.cpp).
// RUN: fuser-run %s --entry dropout --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %s --entry uniforms --backend simt --check-against interp --ulp-tolerance=0 | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %s --entry uniforms --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %s --entry normals --backend cpu --check-against interp --ulp-tolerance=0 | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %s --entry normals --backend simt --check-against interp | FileCheck %s --check-prefix=DEVICE --implicit-check-not=FAILED
// RUN: fuser-opt %s --fuser-preseg --fuser-segment | FileCheck %s --check-prefix=SEGMENT
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// EXACT: ulp ok
// DEVICE: ok

// The dropout: the mask and the scaled input are one kernel.
// SEGMENT-LABEL: func.func @dropout
// SEGMENT-COUNT-1: fuser.segment pointwise
// SEGMENT-NOT: fuser.segment
// SEGMENT: return

// BIN: gpu.binary
// BIN-SAME: bin = "\7FELF
func.func @uniforms(%x: tensor<3x7xf32>) -> (tensor<3x7xf32>, tensor<5x3xbf16>, tensor<9xf16>, tensor<7xf64>, tensor<3x7xf32>) {
  %lo = arith.constant -1.5 : f32
  %hi = arith.constant 2.0 : f32
  %seed = arith.constant 1234567 : i64
  %offset = arith.constant 8 : i64
  %a = fuser.uniform %lo, %hi seed %seed offset %offset : f32 -> tensor<3x7xf32>
  %b = fuser.uniform %lo, %hi seed %seed offset %offset : f32 -> tensor<5x3xbf16>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c = fuser.uniform %zero, %one seed %seed offset %offset : f32 -> tensor<9xf16>
  %dlo = arith.constant 0.0 : f64
  %dhi = arith.constant 10.0 : f64
  %d = fuser.uniform %dlo, %dhi seed %seed offset %offset : f64 -> tensor<7xf64>
  // Read through a permute: the lanes are not consecutive elements.
  %t = fuser.uniform %lo, %hi seed %seed offset %offset : f32 -> tensor<7x3xf32>
  %p = fuser.permute %t [1, 0] : tensor<7x3xf32> -> tensor<3x7xf32>
  %s = fuser.add %x, %p : tensor<3x7xf32>, tensor<3x7xf32> -> tensor<3x7xf32>
  return %a, %b, %c, %d, %s : tensor<3x7xf32>, tensor<5x3xbf16>, tensor<9xf16>, tensor<7xf64>, tensor<3x7xf32>
}

func.func @normals() -> (tensor<6x5xf32>, tensor<11xf64>, tensor<4x4xbf16>) {
  %mean = arith.constant 0.5 : f32
  %std = arith.constant 2.0 : f32
  %seed = arith.constant -7 : i64
  %offset = arith.constant 4294967300 : i64
  %a = fuser.normal %mean, %std seed %seed offset %offset : f32 -> tensor<6x5xf32>
  %dm = arith.constant 0.0 : f64
  %ds = arith.constant 1.0 : f64
  %b = fuser.normal %dm, %ds seed %seed offset %offset : f64 -> tensor<11xf64>
  %c = fuser.normal %mean, %std seed %seed offset %offset : f32 -> tensor<4x4xbf16>
  return %a, %b, %c : tensor<6x5xf32>, tensor<11xf64>, tensor<4x4xbf16>
}

// Dropout with p = 0.25 as Thunder's uniform_philox spells it.
func.func @dropout(%x: tensor<8x64xf32>, %seed: i64, %offset: i64) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %u = fuser.uniform %zero, %one seed %seed offset %offset : f32 -> tensor<8x64xf32>
  %p = arith.constant 0.75 : f32
  %keep = fuser.lt %u, %p : tensor<8x64xf32>, f32 -> tensor<8x64xi1>
  %scale = arith.constant 1.3333334 : f32
  %scaled = fuser.mul %x, %scale : tensor<8x64xf32>, f32 -> tensor<8x64xf32>
  %y = fuser.where %keep, %scaled, %zero : tensor<8x64xi1>, tensor<8x64xf32>, f32 -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
