// A matmul or linear whose result has no elements (N = 0, M = 0 or an empty
// batch dim) emits no library call: there is nothing to compute, and MLIR
// gives an empty memref no static strides for the call's descriptor. Checked
// on the CPU backend and under SIMT against the interpreter. (K = 0, whose
// result is the bias or zeros, still calls: cpu-library.mlir.)
// RUN: fuser-run %s --entry matmul_n0 --backend cpu --check-against interp | FileCheck %s
// RUN: fuser-run %s --entry matmul_n0 --backend simt --check-against interp | FileCheck %s
// RUN: fuser-run %s --entry linear_n0 --backend cpu --check-against interp | FileCheck %s
// RUN: fuser-run %s --entry linear_n0 --backend simt --check-against interp | FileCheck %s
// RUN: fuser-run %s --entry batch0 --backend cpu --check-against interp | FileCheck %s
// RUN: fuser-run %s --entry batch0 --backend simt --check-against interp | FileCheck %s
// RUN: fuser-opt %s --fuser-segment --fuser-schedule --convert-fuser-to-scf | FileCheck %s --check-prefix=LOWER

// CHECK-NOT: FAILED
// CHECK: check 0: {{.*}} ok
// LOWER-LABEL: func.func @matmul_n0(
// LOWER-NOT: __fuser_matmul
// LOWER: return

func.func @matmul_n0(%a: tensor<4x3xf32>, %b: tensor<3x0xf32>) -> tensor<4x0xf32> {
  %c = fuser.matmul %a, %b : tensor<4x3xf32>, tensor<3x0xf32> -> tensor<4x0xf32>
  return %c : tensor<4x0xf32>
}

func.func @linear_n0(%x: tensor<2x5x3xbf16>, %w: tensor<0x3xbf16>) -> tensor<2x5x0xbf16> {
  %c = fuser.linear %x, %w : tensor<2x5x3xbf16>, tensor<0x3xbf16> -> tensor<2x5x0xbf16>
  return %c : tensor<2x5x0xbf16>
}

func.func @batch0(%a: tensor<0x4x3xf32>, %b: tensor<3x5xf32>) -> tensor<0x4x5xf32> {
  %c = fuser.matmul %a, %b : tensor<0x4x3xf32>, tensor<3x5xf32> -> tensor<0x4x5xf32>
  return %c : tensor<0x4x5xf32>
}
