// A library call's operand that is a reshape of a permuted value the
// fusion computes (Llama's attention backward in Thunder 0.2.6: the QKV
// gradient [2, 4, 3, 32, 16], permuted [0, 3, 1, 2, 4] and reshaped to
// [64, 192], is the lhs of one matmul and, transposed, of another; issue
// 47). No strided view spells it, so a kernel writes it (a segment_set in
// front of each call); with two readers the producer kernel writes the
// [64, 192] value once and both calls read that memory, the second
// through a transpose (test/Dialect/Fuser/Transforms/
// segment-library-operand-copy.mlir has the segmentations). Checked on the
// CPU backend (BLAS) and under SIMT (the fake cuBLASLt) against the
// interpreter, and the segmented fusion against the unsegmented one bit for
// bit on the interpreter.
// RUN: fuser-run %s --entry qkv_grad --backend cpu --check-against interp | FileCheck %s --check-prefix=OK2
// RUN: fuser-run %s --entry qkv_grad --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK2
// RUN: fuser-run %s --entry one_reader --backend cpu --check-against interp | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %s --entry one_reader --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %s --entry set_of_input --backend cpu --check-against interp | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %s --entry set_of_input --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK1
// RUN: fuser-opt %s --fuser-preseg --fuser-segment -o %t.mlir
// RUN: fuser-run %s --entry qkv_grad --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=OK2
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-segment-report -o /dev/null | FileCheck %s --check-prefix=SEGMENTS

// OK1-NOT: FAILED
// OK1: check 0: {{.*}} ok
// OK1-NOT: FAILED
// OK2-NOT: FAILED
// OK2-COUNT-2: ok
// OK2-NOT: FAILED

// The gradients of q, k and v padded into their slots of [2, 2, 3, 4, 5]
// and summed (as Thunder spells the backward of the split), then read as
// [8, 30] by a matmul and as [30, 8] by another: one kernel writes the
// operand, two calls read it.
// SEGMENTS-LABEL: fusion @qkv_grad: 3 kernels, 3 segments
// SEGMENTS-NEXT: segment #0 pointwise
// SEGMENTS: segment #1 library
// SEGMENTS: segment #2 library
func.func @qkv_grad(%q: tensor<2x2x1x4x5xf32>, %k: tensor<2x2x1x4x5xf32>, %v: tensor<2x2x1x4x5xf32>, %w: tensor<30x6xf32>, %g: tensor<8x7xf32>) -> (tensor<8x6xf32>, tensor<30x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %pq = fuser.pad %q low [0, 0, 0, 0, 0] high [0, 0, 2, 0, 0] value %zero : tensor<2x2x1x4x5xf32>, f32 -> tensor<2x2x3x4x5xf32>
  %pk = fuser.pad %k low [0, 0, 1, 0, 0] high [0, 0, 1, 0, 0] value %zero : tensor<2x2x1x4x5xf32>, f32 -> tensor<2x2x3x4x5xf32>
  %pv = fuser.pad %v low [0, 0, 2, 0, 0] high [0, 0, 0, 0, 0] value %zero : tensor<2x2x1x4x5xf32>, f32 -> tensor<2x2x3x4x5xf32>
  %s = fuser.add %pv, %pk : tensor<2x2x3x4x5xf32>, tensor<2x2x3x4x5xf32> -> tensor<2x2x3x4x5xf32>
  %qkv = fuser.add %s, %pq : tensor<2x2x3x4x5xf32>, tensor<2x2x3x4x5xf32> -> tensor<2x2x3x4x5xf32>
  %p = fuser.permute %qkv [0, 3, 1, 2, 4] : tensor<2x2x3x4x5xf32> -> tensor<2x4x2x3x5xf32>
  %r = fuser.view %p : tensor<2x4x2x3x5xf32> -> tensor<8x30xf32>
  %0 = fuser.matmul %r, %w : tensor<8x30xf32>, tensor<30x6xf32> -> tensor<8x6xf32>
  %t = fuser.permute %r [1, 0] : tensor<8x30xf32> -> tensor<30x8xf32>
  %1 = fuser.matmul %t, %g : tensor<30x8xf32>, tensor<8x7xf32> -> tensor<30x7xf32>
  return %0, %1 : tensor<8x6xf32>, tensor<30x7xf32>
}

// One reader: the producer kernel writes the operand through the
// segment_set, the call reads it.
// SEGMENTS-LABEL: fusion @one_reader: 2 kernels, 2 segments
// SEGMENTS-NEXT: segment #0 pointwise
// SEGMENTS: segment #1 library
func.func @one_reader(%x: tensor<2x3x4xf32>, %w: tensor<8x5xf32>) -> tensor<3x5xf32> {
  %a = fuser.neg %x : tensor<2x3x4xf32>
  %p = fuser.permute %a [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %r = fuser.view %p : tensor<3x2x4xf32> -> tensor<3x8xf32>
  %0 = fuser.matmul %r, %w : tensor<3x8xf32>, tensor<8x5xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// A segment_set of a fusion input: the call reads the input.
// SEGMENTS-LABEL: fusion @set_of_input: 1 kernel, 1 segment
// SEGMENTS-NEXT: segment #0 library
func.func @set_of_input(%x: tensor<3x8xf32>, %w: tensor<8x5xf32>) -> tensor<3x5xf32> {
  %s = fuser.segment_set %x : tensor<3x8xf32>
  %0 = fuser.matmul %s, %w : tensor<3x8xf32>, tensor<8x5xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
