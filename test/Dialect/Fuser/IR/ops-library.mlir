// Round trip of the library ops: matmul (1-D, 2-D and batched operands with
// broadcast batch dims; each float type) and linear (with and without bias,
// 1-D and batched inputs), sdpfa_fwd, sdpfa_bwd and grouped_mm (its three
// forms).
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s | fuser-opt | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK-NEXT: fuser.matmul %{{.*}}, %{{.*}} : tensor<3x4xf32>, tensor<4x5xf32> -> tensor<3x5xf32>
// CHECK-NEXT: fuser.matmul %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32> -> tensor<f32>
// CHECK-NEXT: fuser.matmul %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4x5xf32> -> tensor<5xf32>
// CHECK-NEXT: fuser.matmul %{{.*}}, %{{.*}} : tensor<3x4xf32>, tensor<4xf32> -> tensor<3xf32>
// CHECK-NEXT: fuser.matmul %{{.*}}, %{{.*}} : tensor<2x1x3x4xbf16>, tensor<5x4x6xbf16> -> tensor<2x5x3x6xbf16>
// CHECK-NEXT: fuser.matmul %{{.*}}, %{{.*}} : tensor<3x4xf16>, tensor<4x5xf16> -> tensor<3x5xf16>
// CHECK-NEXT: fuser.matmul %{{.*}}, %{{.*}} : tensor<3x0xf64>, tensor<0x5xf64> -> tensor<3x5xf64>
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %v: tensor<4xf32>,
                  %c: tensor<2x1x3x4xbf16>, %d: tensor<5x4x6xbf16>,
                  %e: tensor<3x4xf16>, %f: tensor<4x5xf16>,
                  %g: tensor<3x0xf64>, %h: tensor<0x5xf64>) {
  %0 = fuser.matmul %a, %b : tensor<3x4xf32>, tensor<4x5xf32> -> tensor<3x5xf32>
  %1 = fuser.matmul %v, %v : tensor<4xf32>, tensor<4xf32> -> tensor<f32>
  %2 = fuser.matmul %v, %b : tensor<4xf32>, tensor<4x5xf32> -> tensor<5xf32>
  %3 = fuser.matmul %a, %v : tensor<3x4xf32>, tensor<4xf32> -> tensor<3xf32>
  %4 = fuser.matmul %c, %d : tensor<2x1x3x4xbf16>, tensor<5x4x6xbf16> -> tensor<2x5x3x6xbf16>
  %5 = fuser.matmul %e, %f : tensor<3x4xf16>, tensor<4x5xf16> -> tensor<3x5xf16>
  %6 = fuser.matmul %g, %h : tensor<3x0xf64>, tensor<0x5xf64> -> tensor<3x5xf64>
  return
}

// CHECK-LABEL: func.func @linear
// CHECK-NEXT: fuser.linear %{{.*}}, %{{.*}} bias %{{.*}} : tensor<2x3x4xf32>, tensor<5x4xf32>, tensor<5xf32> -> tensor<2x3x5xf32>
// CHECK-NEXT: fuser.linear %{{.*}}, %{{.*}} : tensor<2x3x4xf32>, tensor<5x4xf32> -> tensor<2x3x5xf32>
// CHECK-NEXT: fuser.linear %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<5x4xf32> -> tensor<5xf32>
func.func @linear(%x: tensor<2x3x4xf32>, %w: tensor<5x4xf32>, %b: tensor<5xf32>,
                  %v: tensor<4xf32>) {
  %0 = fuser.linear %x, %w bias %b : tensor<2x3x4xf32>, tensor<5x4xf32>, tensor<5xf32> -> tensor<2x3x5xf32>
  %1 = fuser.linear %x, %w : tensor<2x3x4xf32>, tensor<5x4xf32> -> tensor<2x3x5xf32>
  %2 = fuser.linear %v, %w : tensor<4xf32>, tensor<5x4xf32> -> tensor<5xf32>
  return
}

// Attention: the forward with its defaults (no mask, scale 1/sqrt(E),
// dropout_p 0 elided), causal with a scale, a rank-5 f32 one with dropout
// (its seed and offset), one with a bias and a mask (broadcast dims), and
// the backward of the first.
// CHECK-LABEL: func.func @sdpfa
// CHECK-NEXT: fuser.sdpfa_fwd %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16> -> tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64>
// CHECK-NEXT: fuser.sdpfa_fwd %{{.*}}, %{{.*}}, %{{.*}} {is_causal, scale = 2.500000e-01 : f64} : tensor<2x3x5x8xbf16>
// CHECK-NEXT: fuser.sdpfa_fwd %{{.*}}, %{{.*}}, %{{.*}} dropout(seed %{{.*}} offset %{{.*}}) {dropout_p = 1.000000e-01 : f64} : tensor<1x2x3x1x8xf32>, tensor<1x2x3x33x8xf32>, tensor<1x2x3x33x8xf32> -> tensor<1x2x3x1x8xf32>, tensor<1x2x3x1xf32>, tensor<2xi64>, tensor<i64>
// CHECK-NEXT: fuser.sdpfa_fwd %{{.*}}, %{{.*}}, %{{.*}} bias(%{{.*}} : tensor<2x1x5x7xbf16>) mask(%{{.*}} : tensor<1x3x1x7xi1>) {is_causal} : tensor<2x3x5x8xbf16>
// CHECK-NEXT: fuser.sdpfa_bwd %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {is_causal} : tensor<2x3x5x4xbf16>, tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16>, tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64> -> tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16>
func.func @sdpfa(%q: tensor<2x3x5x8xbf16>, %k: tensor<2x3x7x8xbf16>, %v: tensor<2x3x7x4xbf16>,
                 %go: tensor<2x3x5x4xbf16>, %a: tensor<1x2x3x1x8xf32>, %b: tensor<1x2x3x33x8xf32>,
                 %s: i64, %p: i64, %bias: tensor<2x1x5x7xbf16>, %mask: tensor<1x3x1x7xi1>) {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v : tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16> -> tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64>
  %1:4 = fuser.sdpfa_fwd %q, %k, %v {is_causal, scale = 0.25} : tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16> -> tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64>
  %2:4 = fuser.sdpfa_fwd %a, %b, %b dropout(seed %s offset %p) {dropout_p = 0.1} : tensor<1x2x3x1x8xf32>, tensor<1x2x3x33x8xf32>, tensor<1x2x3x33x8xf32> -> tensor<1x2x3x1x8xf32>, tensor<1x2x3x1xf32>, tensor<2xi64>, tensor<i64>
  %4:4 = fuser.sdpfa_fwd %q, %k, %v bias(%bias : tensor<2x1x5x7xbf16>) mask(%mask : tensor<1x3x1x7xi1>) {is_causal} : tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16> -> tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64>
  %3:3 = fuser.sdpfa_bwd %go, %q, %k, %v, %o, %lse, %seed, %offset {is_causal} : tensor<2x3x5x4xbf16>, tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16>, tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64> -> tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16>
  return
}

// grouped_mm: rows grouped (bf16), columns grouped (f16), the contraction
// grouped (f32), and no groups.
// CHECK-LABEL: func.func @grouped_mm
// CHECK-NEXT: fuser.grouped_mm %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x32xbf16>, tensor<2x32x16xbf16>, tensor<2xi32> -> tensor<32x16xbf16>
// CHECK-NEXT: fuser.grouped_mm %{{.*}}, %{{.*}}, %{{.*}} : tensor<3x5x4xf16>, tensor<4x7xf16>, tensor<3xi32> -> tensor<5x7xf16>
// CHECK-NEXT: fuser.grouped_mm %{{.*}}, %{{.*}}, %{{.*}} : tensor<5x4xf32>, tensor<4x7xf32>, tensor<3xi32> -> tensor<3x5x7xf32>
// CHECK-NEXT: fuser.grouped_mm %{{.*}}, %{{.*}}, %{{.*}} : tensor<5x4xf32>, tensor<0x4x7xf32>, tensor<0xi32> -> tensor<5x7xf32>
func.func @grouped_mm(%x: tensor<32x32xbf16>, %w: tensor<2x32x16xbf16>, %o2: tensor<2xi32>,
                      %a: tensor<3x5x4xf16>, %b: tensor<4x7xf16>, %o3: tensor<3xi32>,
                      %c: tensor<5x4xf32>, %d: tensor<4x7xf32>, %e: tensor<0x4x7xf32>,
                      %o0: tensor<0xi32>) {
  %0 = fuser.grouped_mm %x, %w, %o2 : tensor<32x32xbf16>, tensor<2x32x16xbf16>, tensor<2xi32> -> tensor<32x16xbf16>
  %1 = fuser.grouped_mm %a, %b, %o3 : tensor<3x5x4xf16>, tensor<4x7xf16>, tensor<3xi32> -> tensor<5x7xf16>
  %2 = fuser.grouped_mm %c, %d, %o3 : tensor<5x4xf32>, tensor<4x7xf32>, tensor<3xi32> -> tensor<3x5x7xf32>
  %3 = fuser.grouped_mm %c, %e, %o0 : tensor<5x4xf32>, tensor<0x4x7xf32>, tensor<0xi32> -> tensor<5x7xf32>
  return
}
