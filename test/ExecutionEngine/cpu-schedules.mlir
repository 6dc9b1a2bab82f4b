// Every schedule of the kernel lowering, run on the CPU backend against the
// interpreter, bit for bit (docs/Lowering.md). The first RUN line of each
// case pins which schedule the case exercises.
//
// RUN: fuser-opt %s --fuser-segment --fuser-schedule | FileCheck %s --check-prefix=SCHED
// RUN: fuser-run %s --entry few_outputs --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry odd_tiles --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry rows --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry rms_partial --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry softmax_max --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry odd_rows --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry pad_cat --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry middle --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry ints_rows --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry scalar_out --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// OK-NOT: FAILED
// OK: max_ulp=0 tolerance=0 ulp ok

// SCHED-LABEL: func.func @few_outputs
// SCHED: #fuser.schedule<outer_reduction, vector = 1, threads = 256, split = 8, blocks = 8>
// bf16[6, 1000, 40] summed over the middle axis: 240 outputs, too few for a
// thread each; a tiled split, a block per 32 consecutive outputs (the last
// tile partial, tiles crossing rows of 40) and 8 thread groups splitting the
// 1000 rows, their partials combined through workgroup memory.
func.func @few_outputs(%x: tensor<6x1000x40xbf16>) -> tensor<6x40xbf16> {
  %0 = fuser.cast %x : tensor<6x1000x40xbf16> to tensor<6x1000x40xf32>
  %1 = fuser.reduction add %0 [1] : tensor<6x1000x40xf32> -> tensor<6x40xf32>
  %2 = fuser.cast %1 : tensor<6x40xf32> to tensor<6x40xbf16>
  return %2 : tensor<6x40xbf16>
}

// SCHED-LABEL: func.func @odd_tiles
// SCHED: #fuser.schedule<outer_reduction, vector = 1, threads = 256, split = 8, blocks = 8>
// f32[5, 67, 45] maxed over the middle axis: a tiled split with odd extents,
// 225 outputs (the last of 8 tiles holds 1), 67 reduced rows over 8 groups
// (uneven shares), and an output not computed from the reduction (written
// by all threads in the first thread loop).
func.func @odd_tiles(%x: tensor<5x67x45xf32>) -> (tensor<5x45xf32>, tensor<5x67x45xf32>) {
  %0 = fuser.reduction max %x [1] : tensor<5x67x45xf32> -> tensor<5x45xf32>
  %1 = fuser.neg %x : tensor<5x67x45xf32>
  return %0, %1 : tensor<5x45xf32>, tensor<5x67x45xf32>
}

// SCHED-LABEL: func.func @rows
// SCHED: #fuser.schedule<inner_reduction, vector = 8, threads = 128, split = 128, blocks = 64>
// Row sums with a permuted, viewed epilogue written by each row's block,
// next to the f32 copy of the rows written by all threads.
func.func @rows(%x: tensor<64x1000xbf16>) -> (tensor<8x8xbf16>, tensor<64x1000xf32>) {
  %0 = fuser.cast %x : tensor<64x1000xbf16> to tensor<64x1000xf32>
  %1 = fuser.reduction add %0 [1] : tensor<64x1000xf32> -> tensor<64xf32>
  %2 = fuser.cast %1 : tensor<64xf32> to tensor<64xbf16>
  %3 = fuser.view %2 : tensor<64xbf16> -> tensor<8x8xbf16>
  %4 = fuser.permute %3 [1, 0] : tensor<8x8xbf16> -> tensor<8x8xbf16>
  return %4, %0 : tensor<8x8xbf16>, tensor<64x1000xf32>
}

// SCHED-LABEL: func.func @rms_partial
// SCHED: #fuser.schedule<inner_reduction, vector = 8, threads = 128, split = 128, blocks = 32>
// The reduction half of RMSNorm: mean of squares, rsqrt, per row.
func.func @rms_partial(%x: tensor<32x1024xbf16>) -> tensor<32x1xf32> {
  %0 = fuser.cast %x : tensor<32x1024xbf16> to tensor<32x1024xf32>
  %1 = fuser.mul %0, %0 : tensor<32x1024xf32>, tensor<32x1024xf32> -> tensor<32x1024xf32>
  %2 = fuser.reduction add %1 [1] keepdim : tensor<32x1024xf32> -> tensor<32x1xf32>
  %c = arith.constant 1.024000e+03 : f32
  %3 = fuser.div %2, %c : tensor<32x1xf32>, f32 -> tensor<32x1xf32>
  %4 = fuser.sqrt %3 : tensor<32x1xf32>
  return %4 : tensor<32x1xf32>
}

// SCHED-LABEL: func.func @softmax_max
// SCHED: #fuser.schedule<inner_reduction, vector = 4, threads = 32, split = 32, blocks = 128>
// The max of softmax over rows of 100 f32: NaN and -0.0 behave as the
// interpreter's maximum.
func.func @softmax_max(%x: tensor<128x100xf32>) -> tensor<128xf32> {
  %0 = fuser.reduction max %x [1] : tensor<128x100xf32> -> tensor<128xf32>
  %1 = fuser.neg %0 : tensor<128xf32>
  return %1 : tensor<128xf32>
}

// SCHED-LABEL: func.func @odd_rows
// SCHED: #fuser.schedule<inner_reduction, vector = 1, threads = 64, split = 64, blocks = 7>
// Rows of 61 f16: no vector divides them, one element per load.
func.func @odd_rows(%x: tensor<7x61xf16>) -> tensor<7xf16> {
  %0 = fuser.reduction min %x [1] : tensor<7x61xf16> -> tensor<7xf16>
  return %0 : tensor<7xf16>
}

// SCHED-LABEL: func.func @pad_cat
// SCHED: #fuser.schedule<pointwise, vector = 8, threads = 256, split = 1, blocks = 1>
// Pad and cat with vector-aligned and unaligned offsets along the innermost
// axis (aligned: whole vectors; unaligned: a load per lane).
func.func @pad_cat(%a: tensor<4x16xbf16>, %b: tensor<4x13xbf16>) -> (tensor<4x32xbf16>, tensor<4x48xbf16>) {
  %c = arith.constant 2.500000e-01 : bf16
  %0 = fuser.pad %a low [0, 8] high [0, 8] value %c : tensor<4x16xbf16>, bf16 -> tensor<4x32xbf16>
  %1 = fuser.pad %b low [0, 3] high [0, 0] value %c : tensor<4x13xbf16>, bf16 -> tensor<4x16xbf16>
  %2 = fuser.cat %a, %1, %a dim 1 : tensor<4x16xbf16>, tensor<4x16xbf16>, tensor<4x16xbf16> -> tensor<4x48xbf16>
  return %0, %2 : tensor<4x32xbf16>, tensor<4x48xbf16>
}

// SCHED-LABEL: func.func @middle
// SCHED: #fuser.schedule<outer_reduction, vector = 4, threads = 256, split = 1, blocks = 64>
// A thread per 4 outputs, reducing the middle axis in its own loop.
func.func @middle(%x: tensor<64x16x1024xf32>) -> tensor<64x1024xf32> {
  %0 = fuser.reduction max %x [1] : tensor<64x16x1024xf32> -> tensor<64x1024xf32>
  return %0 : tensor<64x1024xf32>
}

// SCHED-LABEL: func.func @ints_rows
// SCHED: #fuser.schedule<inner_reduction, vector = 4, threads = 128, split = 128, blocks = 16>
// Wrapping i32 products per row, combined across a block.
func.func @ints_rows(%x: tensor<16x512xi32>) -> tensor<16xi32> {
  %0 = fuser.reduction mul %x [1] : tensor<16x512xi32> -> tensor<16xi32>
  return %0 : tensor<16xi32>
}

// SCHED-LABEL: func.func @scalar_out
// SCHED: #fuser.schedule<inner_reduction, vector = 4, threads = 256, split = 256, blocks = 1>
// One output: a rank-0 tensor.
func.func @scalar_out(%x: tensor<3000xf32>) -> tensor<f32> {
  %0 = fuser.reduction add %x [0] : tensor<3000xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
