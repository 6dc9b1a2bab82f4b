// FP8 quantize and dequantize (f8E4M3FN, f8E5M2) on the GPU: the casts are
// integer code on the bits (FuserToArith), the same code the CPU backend
// runs, so both give the interpreter's bits; fp8 tensors are loaded and
// stored as bytes. No instruction flushes subnormals or approximates.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --implicit-check-not=.ftz --implicit-check-not=.approx
// RUN: fuser-run %s --backend cpu --check-against interp | FileCheck %s --check-prefix=CPU
// RUN: fuser-run %s --entry constants --backend cpu --check-against interp | FileCheck %s --check-prefix=CPU

// CHECK: .entry
// CHECK-DAG: ld.global.nc{{[.a-z0-9]*}}.b8
// CHECK-DAG: st.global{{[.a-z0-9]*}}.b8
// CPU-COUNT-3: ulp ok
func.func @quantize(%x: tensor<64x32xf32>, %scale: f32, %y: tensor<64x32xf8E5M2>, %w: tensor<64x32xf64>)
    -> (tensor<64x32xf8E4M3FN>, tensor<64x32xbf16>, tensor<32x64xf8E4M3FN>) {
  %s = fuser.mul %x, %scale : tensor<64x32xf32>, f32 -> tensor<64x32xf32>
  %q = fuser.cast %s : tensor<64x32xf32> to tensor<64x32xf8E4M3FN>
  %d = fuser.cast %y : tensor<64x32xf8E5M2> to tensor<64x32xbf16>
  %e = fuser.cast %w : tensor<64x32xf64> to tensor<64x32xf8E4M3FN>
  %t = fuser.permute %e [1, 0] : tensor<64x32xf8E4M3FN> -> tensor<32x64xf8E4M3FN>
  return %q, %d, %t : tensor<64x32xf8E4M3FN>, tensor<64x32xbf16>, tensor<32x64xf8E4M3FN>
}

// fp8 scalars: a folded constant cast, a NaN pad value, a scalar argument.
func.func @constants(%x: tensor<4x8xf8E4M3FN>, %s: f8E5M2) -> (tensor<4x8xf8E5M2>, tensor<4x10xf8E4M3FN>, tensor<4x8xf8E5M2>) {
  %c = arith.constant 1.5 : f32
  %q = fuser.cast %c : f32 to f8E5M2
  %f = fuser.full %q : f8E5M2 -> tensor<4x8xf8E5M2>
  %z = arith.constant 0x7F : f8E4M3FN
  %p = fuser.pad %x low [0, 1] high [0, 1] value %z : tensor<4x8xf8E4M3FN>, f8E4M3FN -> tensor<4x10xf8E4M3FN>
  %g = fuser.full %s : f8E5M2 -> tensor<4x8xf8E5M2>
  return %f, %p, %g : tensor<4x8xf8E5M2>, tensor<4x10xf8E4M3FN>, tensor<4x8xf8E5M2>
}
