// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(fuser-segment,fuser-schedule))' | FileCheck %s --check-prefix=GPU
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(fuser-segment,fuser-schedule{access-bytes=64 max-row-threads=32 accumulators=4 register-bytes=64}))' | FileCheck %s --check-prefix=CPU
// A max-row-threads below a warp is a warp.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(fuser-segment,fuser-schedule{access-bytes=64 max-row-threads=4 accumulators=4 register-bytes=64}))' | FileCheck %s --check-prefix=CPU

// Rule: accesses are access-bytes of the widest element (the default 16
// bytes, 4 f32 lanes; the CPU backend's 64 bytes, 16 lanes), and a block
// splitting rows has at most max-row-threads threads (by default 512 where
// the 4096 / 4 row would take 1024; the CPU backend's 32, each walking 8
// vectors of the row). accumulators (1 by default, not printed; the CPU
// backend's 4) goes to the kernels whose threads walk rows: split inner
// reductions and inner normalizations, never pointwise kernels. Pointwise
// kernels keep 256 threads per block, and with register-bytes (0 by
// default; the CPU backend's 64) a pointwise thread's lanes of the values
// it computes (f32 for halves) fill at most one register: 16 lanes of a
// bf16 kernel. Not a normalization's, which is faster walking rows 32 bf16
// at a time.

// GPU-LABEL: func.func @softmax
// GPU: schedule = #fuser.schedule<normalization, vector = 4, threads = 512, split = 512, blocks = 64>}
// CPU-LABEL: func.func @softmax
// CPU: schedule = #fuser.schedule<normalization, vector = 16, threads = 32, split = 32, blocks = 64, accumulators = 4>
func.func @softmax(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %m = fuser.reduction max %x [1] keepdim : tensor<64x4096xf32> -> tensor<64x1xf32>
  %d = fuser.sub %x, %m : tensor<64x4096xf32>, tensor<64x1xf32> -> tensor<64x4096xf32>
  %e = fuser.exp %d : tensor<64x4096xf32>
  %s = fuser.reduction add %e [1] keepdim : tensor<64x4096xf32> -> tensor<64x1xf32>
  %r = fuser.div %e, %s : tensor<64x4096xf32>, tensor<64x1xf32> -> tensor<64x4096xf32>
  return %r : tensor<64x4096xf32>
}

// GPU-LABEL: func.func @row_sum
// GPU: schedule = #fuser.schedule<inner_reduction, vector = 4, threads = 256, split = 256, blocks = 64>}
// CPU-LABEL: func.func @row_sum
// CPU: schedule = #fuser.schedule<inner_reduction, vector = 16, threads = 32, split = 32, blocks = 64, accumulators = 4>
func.func @row_sum(%x: tensor<64x4096xf32>) -> tensor<64xf32> {
  %s = fuser.reduction add %x [1] : tensor<64x4096xf32> -> tensor<64xf32>
  return %s : tensor<64xf32>
}

// GPU-LABEL: func.func @scale
// GPU: schedule = #fuser.schedule<pointwise, vector = 8, threads = 256, split = 1, blocks = 128>}
// CPU-LABEL: func.func @scale
// CPU: schedule = #fuser.schedule<pointwise, vector = 16, threads = 256, split = 1, blocks = 64>}
func.func @scale(%x: tensor<64x4096xbf16>) -> tensor<64x4096xbf16> {
  %c = arith.constant 2.0 : bf16
  %y = fuser.mul %x, %c : tensor<64x4096xbf16>, bf16 -> tensor<64x4096xbf16>
  return %y : tensor<64x4096xbf16>
}

// GPU-LABEL: func.func @rmsnorm_bf16
// GPU: schedule = #fuser.schedule<normalization, vector = 8,
// CPU-LABEL: func.func @rmsnorm_bf16
// CPU: schedule = #fuser.schedule<normalization, vector = 32, threads = 32, split = 32,
func.func @rmsnorm_bf16(%x: tensor<64x4096xbf16>) -> tensor<64x4096xbf16> {
  %f = fuser.cast %x : tensor<64x4096xbf16> to tensor<64x4096xf32>
  %q = fuser.mul %f, %f : tensor<64x4096xf32>, tensor<64x4096xf32> -> tensor<64x4096xf32>
  %s = fuser.reduction add %q [1] keepdim : tensor<64x4096xf32> -> tensor<64x1xf32>
  %r = fuser.div %f, %s : tensor<64x4096xf32>, tensor<64x1xf32> -> tensor<64x4096xf32>
  %y = fuser.cast %r : tensor<64x4096xf32> to tensor<64x4096xbf16>
  return %y : tensor<64x4096xbf16>
}

