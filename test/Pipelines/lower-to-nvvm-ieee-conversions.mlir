// The GPU computes the interpreter's IEEE arithmetic (docs/Lowering.md,
// "Same bits on every host"): conversions to and from bf16/f16 and f32
// arithmetic round to nearest even and keep subnormals. No instruction
// flushes subnormals (`.ftz`) or approximates (`.approx`): sqrt is sqrt.rn,
// division div.rn, reciprocal rcp.rn. Only libdevice's transcendental
// functions (exp's ex2.approx.ftz, within their documented ulp bound) bring
// such instructions, and this fusion has none.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --implicit-check-not=.ftz --implicit-check-not=.approx

// CHECK: .entry
// CHECK-DAG: cvt.f32.bf16
// CHECK-DAG: sqrt.rn.f32
// CHECK-DAG: rcp.rn.f32
// CHECK-DAG: mul.rn.f32
// CHECK-DAG: div.rn.f32
// CHECK-DAG: cvt.rn.bf16.f32
// CHECK-DAG: cvt.rn.f16x2.f32
// CHECK-DAG: add.rn.f16x2
func.func @ieee(%a: tensor<64x32xf32>, %b: tensor<64x32xbf16>, %h: tensor<64x32xf16>)
    -> (tensor<64x32xbf16>, tensor<64x32xf16>, tensor<64x32xf32>) {
  %s = fuser.sqrt %a : tensor<64x32xf32>
  %r = fuser.reciprocal %s : tensor<64x32xf32>
  %bf = fuser.cast %b : tensor<64x32xbf16> to tensor<64x32xf32>
  %m = fuser.mul %r, %bf : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x32xf32>
  %d = fuser.div %m, %a : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x32xf32>
  %x = fuser.cast %d : tensor<64x32xf32> to tensor<64x32xbf16>
  %hh = fuser.add %h, %h : tensor<64x32xf16>, tensor<64x32xf16> -> tensor<64x32xf16>
  %y = fuser.cast %d : tensor<64x32xf32> to tensor<64x32xf16>
  %z = fuser.add %hh, %y : tensor<64x32xf16>, tensor<64x32xf16> -> tensor<64x32xf16>
  %q = fuser.cast %x : tensor<64x32xbf16> to tensor<64x32xf32>
  return %x, %z, %q : tensor<64x32xbf16>, tensor<64x32xf16>, tensor<64x32xf32>
}
