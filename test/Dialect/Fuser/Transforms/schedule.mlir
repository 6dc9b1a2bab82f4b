// RUN: fuser-opt %s --split-input-file --fuser-schedule | FileCheck %s

// Outer reduction (the innermost axis is kept): a thread per 8 bf16 outputs
// (16 bytes), 256 threads, enough blocks for the 4096x1024 outputs.
// CHECK-LABEL: func.func @mistral
// CHECK: fuser.segment reduction(%{{.*}}) {schedule = #fuser.schedule<outer_reduction, vector = 8, threads = 256, split = 1, blocks = 2048>}
func.func @mistral(%arg0: tensor<1x32x4096x128xbf16>) -> tensor<1x4096x1024xbf16> {
  %0 = fuser.segment reduction(%arg0) : (tensor<1x32x4096x128xbf16>) -> tensor<1x4096x1024xbf16> {
  ^bb0(%arg1: tensor<1x32x4096x128xbf16>):
    %1 = fuser.cast %arg1 : tensor<1x32x4096x128xbf16> to tensor<1x32x4096x128xf32>
    %2 = fuser.view %1 : tensor<1x32x4096x128xf32> -> tensor<8x4x4096x128xf32>
    %3 = fuser.reduction add %2 [1] : tensor<8x4x4096x128xf32> -> tensor<8x4096x128xf32>
    %4 = fuser.cast %3 : tensor<8x4096x128xf32> to tensor<8x4096x128xbf16>
    %5 = fuser.permute %4 [1, 0, 2] : tensor<8x4096x128xbf16> -> tensor<4096x8x128xbf16>
    %6 = fuser.view %5 : tensor<4096x8x128xbf16> -> tensor<1x4096x1024xbf16>
    fuser.yield %6 : tensor<1x4096x1024xbf16>
  }
  return %0 : tensor<1x4096x1024xbf16>
}

// -----

// Pointwise: the widest tensor (f32) sets 4 lanes; 1000 is a multiple of 4.
// CHECK-LABEL: func.func @pointwise
// CHECK: schedule = #fuser.schedule<pointwise, vector = 4, threads = 256, split = 1, blocks = 1>
func.func @pointwise(%arg0: tensor<1000xf32>) -> tensor<1000xf16> {
  %0 = fuser.segment pointwise(%arg0) : (tensor<1000xf32>) -> tensor<1000xf16> {
  ^bb0(%arg1: tensor<1000xf32>):
    %1 = fuser.cast %arg1 : tensor<1000xf32> to tensor<1000xf16>
    fuser.yield %1 : tensor<1000xf16>
  }
  return %0 : tensor<1000xf16>
}

// -----

// Inner reduction (rows of 1000 bf16): a block per row, its threads split
// the row, 8 lanes (16 bytes of bf16) per load.
// CHECK-LABEL: func.func @rows
// CHECK: schedule = #fuser.schedule<inner_reduction, vector = 8, threads = 128, split = 128, blocks = 64>
func.func @rows(%arg0: tensor<64x1000xbf16>) -> tensor<64xf32> {
  %0 = fuser.segment reduction(%arg0) : (tensor<64x1000xbf16>) -> tensor<64xf32> {
  ^bb0(%arg1: tensor<64x1000xbf16>):
    %1 = fuser.cast %arg1 : tensor<64x1000xbf16> to tensor<64x1000xf32>
    %2 = fuser.reduction max %1 [1] : tensor<64x1000xf32> -> tensor<64xf32>
    fuser.yield %2 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

// An outer reduction with too few outputs to fill 132 SMs (240 outputs, 30
// slots of 8): a tiled split, a block per 32 consecutive outputs (a warp's
// worth along the innermost axis of 40), its 8 thread groups split the 1000
// reduced rows.
// CHECK-LABEL: func.func @few_outputs
// CHECK: schedule = #fuser.schedule<outer_reduction, vector = 1, threads = 256, split = 8, blocks = 8>
func.func @few_outputs(%arg0: tensor<6x1000x40xbf16>) -> tensor<6x40xbf16> {
  %0 = fuser.segment reduction(%arg0) : (tensor<6x1000x40xbf16>) -> tensor<6x40xbf16> {
  ^bb0(%arg1: tensor<6x1000x40xbf16>):
    %1 = fuser.cast %arg1 : tensor<6x1000x40xbf16> to tensor<6x1000x40xf32>
    %2 = fuser.reduction add %1 [1] : tensor<6x1000x40xf32> -> tensor<6x40xf32>
    %3 = fuser.cast %2 : tensor<6x40xf32> to tensor<6x40xbf16>
    fuser.yield %3 : tensor<6x40xbf16>
  }
  return %0 : tensor<6x40xbf16>
}

// -----

// Bail-outs of the split: f64 accumulates in 64 bits, which gpu.all_reduce
// does not shuffle, so each thread reduces its own rows.
// CHECK-LABEL: func.func @rows_f64
// CHECK: schedule = #fuser.schedule<inner_reduction, vector = 2, threads = 256, split = 1, blocks = 1>
func.func @rows_f64(%arg0: tensor<64x1000xf64>) -> tensor<64xf64> {
  %0 = fuser.segment reduction(%arg0) : (tensor<64x1000xf64>) -> tensor<64xf64> {
  ^bb0(%arg1: tensor<64x1000xf64>):
    %1 = fuser.reduction add %arg1 [1] : tensor<64x1000xf64> -> tensor<64xf64>
    fuser.yield %1 : tensor<64xf64>
  }
  return %0 : tensor<64xf64>
}

// -----

// Sibling reductions in one kernel: one value per block is what the block
// combine carries, so no split.
// CHECK-LABEL: func.func @siblings
// CHECK: schedule = #fuser.schedule<inner_reduction, vector = 4, threads = 256, split = 1, blocks = 1>
func.func @siblings(%arg0: tensor<64x1000xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %0:2 = fuser.segment reduction(%arg0) : (tensor<64x1000xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  ^bb0(%arg1: tensor<64x1000xf32>):
    %1 = fuser.reduction add %arg1 [1] : tensor<64x1000xf32> -> tensor<64xf32>
    %2 = fuser.reduction max %arg1 [1] : tensor<64x1000xf32> -> tensor<64xf32>
    fuser.yield %1, %2 : tensor<64xf32>, tensor<64xf32>
  }
  return %0#0, %0#1 : tensor<64xf32>, tensor<64xf32>
}

// -----

// A reduction result read through different views on two paths: a block
// could not own "its" output, so no split.
// CHECK-LABEL: func.func @two_views
// CHECK: schedule = #fuser.schedule<inner_reduction, vector = 4, threads = 256, split = 1, blocks = 1>
func.func @two_views(%arg0: tensor<8x8x64xf32>) -> tensor<8x8xf32> {
  %0 = fuser.segment reduction(%arg0) : (tensor<8x8x64xf32>) -> tensor<8x8xf32> {
  ^bb0(%arg1: tensor<8x8x64xf32>):
    %1 = fuser.reduction add %arg1 [2] : tensor<8x8x64xf32> -> tensor<8x8xf32>
    %2 = fuser.permute %1 [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
    %3 = fuser.add %1, %2 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
    fuser.yield %3 : tensor<8x8xf32>
  }
  return %0 : tensor<8x8xf32>
}

// -----

// A pinned schedule is kept; alias segments get none.
// CHECK-LABEL: func.func @pinned
// CHECK: schedule = #fuser.schedule<pointwise, vector = 1, threads = 32, split = 1, blocks = 4>
// CHECK: fuser.segment alias
// CHECK-NOT: schedule
func.func @pinned(%arg0: tensor<128xf32>) -> (tensor<128xf32>, tensor<2x64xf32>) {
  %0 = fuser.segment pointwise(%arg0) {schedule = #fuser.schedule<pointwise, vector = 1, threads = 32, split = 1, blocks = 4>} : (tensor<128xf32>) -> tensor<128xf32> {
  ^bb0(%arg1: tensor<128xf32>):
    %1 = fuser.neg %arg1 : tensor<128xf32>
    fuser.yield %1 : tensor<128xf32>
  }
  %2 = fuser.segment alias(%arg0) : (tensor<128xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<128xf32>):
    %3 = fuser.view %arg1 : tensor<128xf32> -> tensor<2x64xf32>
    fuser.yield %3 : tensor<2x64xf32>
  }
  return %0, %2 : tensor<128xf32>, tensor<2x64xf32>
}
