// Normalization fusions shared by the normalization tests
// (test/Dialect/Fuser/Transforms/segment-normalization.mlir,
// test/Conversion/FuserToSCF/normalization.mlir,
// test/Pipelines/lower-to-nvvm-normalization.mlir,
// test/ExecutionEngine/normalization-memory-report.mlir): rows of 1000,
// 1024 and 4096 elements, and one row too long for a block.

// RMSNorm over rows of 1000 bf16 with a weight: y = x * rsqrt(mean(x^2) + eps) * w.
func.func @rmsnorm(%x: tensor<64x1000xbf16>, %w: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = fuser.cast %x : tensor<64x1000xbf16> to tensor<64x1000xf32>
  %1 = fuser.mul %0, %0 : tensor<64x1000xf32>, tensor<64x1000xf32> -> tensor<64x1000xf32>
  %2 = fuser.reduction add %1 [1] keepdim : tensor<64x1000xf32> -> tensor<64x1xf32>
  %n = arith.constant 1.000000e+03 : f32
  %3 = fuser.div %2, %n : tensor<64x1xf32>, f32 -> tensor<64x1xf32>
  %eps = arith.constant 9.99999997E-7 : f32
  %4 = fuser.add %3, %eps : tensor<64x1xf32>, f32 -> tensor<64x1xf32>
  %5 = fuser.rsqrt %4 : tensor<64x1xf32>
  %6 = fuser.mul %0, %5 : tensor<64x1000xf32>, tensor<64x1xf32> -> tensor<64x1000xf32>
  %7 = fuser.cast %w : tensor<1000xbf16> to tensor<1000xf32>
  %8 = fuser.broadcast %7 [0] : tensor<1000xf32> -> tensor<1x1000xf32>
  %9 = fuser.mul %6, %8 : tensor<64x1000xf32>, tensor<1x1000xf32> -> tensor<64x1000xf32>
  %10 = fuser.cast %9 : tensor<64x1000xf32> to tensor<64x1000xbf16>
  return %10 : tensor<64x1000xbf16>
}

// Softmax over rows of 1024 bf16, computed in f32: max, then the sum of exp(x - max).
func.func @softmax(%x: tensor<32x1024xbf16>) -> tensor<32x1024xbf16> {
  %c = fuser.cast %x : tensor<32x1024xbf16> to tensor<32x1024xf32>
  %0 = fuser.reduction max %c [1] : tensor<32x1024xf32> -> tensor<32xf32>
  %1 = fuser.broadcast %0 [1] : tensor<32xf32> -> tensor<32x1xf32>
  %2 = fuser.sub %c, %1 : tensor<32x1024xf32>, tensor<32x1xf32> -> tensor<32x1024xf32>
  %3 = fuser.exp %2 : tensor<32x1024xf32>
  %4 = fuser.reduction add %3 [1] keepdim : tensor<32x1024xf32> -> tensor<32x1xf32>
  %5 = fuser.div %3, %4 : tensor<32x1024xf32>, tensor<32x1xf32> -> tensor<32x1024xf32>
  %6 = fuser.cast %5 : tensor<32x1024xf32> to tensor<32x1024xbf16>
  return %6 : tensor<32x1024xbf16>
}

// LayerNorm forward over rows of 4096 bf16: the mean and the variance as two
// sums, y = (x - mean) * rsqrt(var + eps) * w + b; the mean and rstd are
// outputs too (saved for the backward pass).
func.func @layernorm(%x: tensor<16x4096xbf16>, %w: tensor<4096xbf16>, %b: tensor<4096xbf16>) -> (tensor<16x4096xbf16>, tensor<16x1xf32>, tensor<16x1xf32>) {
  %0 = fuser.cast %x : tensor<16x4096xbf16> to tensor<16x4096xf32>
  %1 = fuser.reduction add %0 [1] keepdim : tensor<16x4096xf32> -> tensor<16x1xf32>
  %n = arith.constant 4.096000e+03 : f32
  %mean = fuser.div %1, %n : tensor<16x1xf32>, f32 -> tensor<16x1xf32>
  %2 = fuser.sub %0, %mean : tensor<16x4096xf32>, tensor<16x1xf32> -> tensor<16x4096xf32>
  %3 = fuser.mul %2, %2 : tensor<16x4096xf32>, tensor<16x4096xf32> -> tensor<16x4096xf32>
  %4 = fuser.reduction add %3 [1] keepdim : tensor<16x4096xf32> -> tensor<16x1xf32>
  %5 = fuser.div %4, %n : tensor<16x1xf32>, f32 -> tensor<16x1xf32>
  %eps = arith.constant 9.99999974E-6 : f32
  %6 = fuser.add %5, %eps : tensor<16x1xf32>, f32 -> tensor<16x1xf32>
  %rstd = fuser.rsqrt %6 : tensor<16x1xf32>
  %7 = fuser.mul %2, %rstd : tensor<16x4096xf32>, tensor<16x1xf32> -> tensor<16x4096xf32>
  %8 = fuser.cast %w : tensor<4096xbf16> to tensor<4096xf32>
  %9 = fuser.broadcast %8 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %10 = fuser.mul %7, %9 : tensor<16x4096xf32>, tensor<1x4096xf32> -> tensor<16x4096xf32>
  %11 = fuser.cast %b : tensor<4096xbf16> to tensor<4096xf32>
  %12 = fuser.broadcast %11 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %13 = fuser.add %10, %12 : tensor<16x4096xf32>, tensor<1x4096xf32> -> tensor<16x4096xf32>
  %14 = fuser.cast %13 : tensor<16x4096xf32> to tensor<16x4096xbf16>
  return %14, %mean, %rstd : tensor<16x4096xbf16>, tensor<16x1xf32>, tensor<16x1xf32>
}

// RMSNorm backward, the input gradient: with g = dy * w,
// dx = rstd * g - x * rstd^3 * sum(g * x) / N, over rows of 1024 bf16.
func.func @rmsnorm_bwd(%x: tensor<32x1024xbf16>, %dy: tensor<32x1024xbf16>, %w: tensor<1024xbf16>, %rstd: tensor<32x1xf32>) -> tensor<32x1024xbf16> {
  %0 = fuser.cast %x : tensor<32x1024xbf16> to tensor<32x1024xf32>
  %1 = fuser.cast %dy : tensor<32x1024xbf16> to tensor<32x1024xf32>
  %2 = fuser.cast %w : tensor<1024xbf16> to tensor<1024xf32>
  %3 = fuser.broadcast %2 [0] : tensor<1024xf32> -> tensor<1x1024xf32>
  %g = fuser.mul %1, %3 : tensor<32x1024xf32>, tensor<1x1024xf32> -> tensor<32x1024xf32>
  %4 = fuser.mul %g, %0 : tensor<32x1024xf32>, tensor<32x1024xf32> -> tensor<32x1024xf32>
  %5 = fuser.reduction add %4 [1] keepdim : tensor<32x1024xf32> -> tensor<32x1xf32>
  %n = arith.constant 1.024000e+03 : f32
  %6 = fuser.div %5, %n : tensor<32x1xf32>, f32 -> tensor<32x1xf32>
  %7 = fuser.mul %rstd, %rstd : tensor<32x1xf32>, tensor<32x1xf32> -> tensor<32x1xf32>
  %8 = fuser.mul %7, %rstd : tensor<32x1xf32>, tensor<32x1xf32> -> tensor<32x1xf32>
  %9 = fuser.mul %8, %6 : tensor<32x1xf32>, tensor<32x1xf32> -> tensor<32x1xf32>
  %10 = fuser.mul %0, %9 : tensor<32x1024xf32>, tensor<32x1xf32> -> tensor<32x1024xf32>
  %11 = fuser.mul %g, %rstd : tensor<32x1024xf32>, tensor<32x1xf32> -> tensor<32x1024xf32>
  %12 = fuser.sub %11, %10 : tensor<32x1024xf32>, tensor<32x1024xf32> -> tensor<32x1024xf32>
  %13 = fuser.cast %12 : tensor<32x1024xf32> to tensor<32x1024xbf16>
  return %13 : tensor<32x1024xbf16>
}

// Softmax over rows of 16384 f32: 64 KiB per row, more than the 48 KiB a
// block may hold, so it stays split after the reductions.
func.func @softmax_long(%x: tensor<4x16384xf32>) -> tensor<4x16384xf32> {
  %0 = fuser.reduction max %x [1] keepdim : tensor<4x16384xf32> -> tensor<4x1xf32>
  %1 = fuser.sub %x, %0 : tensor<4x16384xf32>, tensor<4x1xf32> -> tensor<4x16384xf32>
  %2 = fuser.exp %1 : tensor<4x16384xf32>
  %3 = fuser.reduction add %2 [1] keepdim : tensor<4x16384xf32> -> tensor<4x1xf32>
  %4 = fuser.div %2, %3 : tensor<4x16384xf32>, tensor<4x1xf32> -> tensor<4x16384xf32>
  return %4 : tensor<4x16384xf32>
}
