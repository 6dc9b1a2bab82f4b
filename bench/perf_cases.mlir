// Fusions of the CPU-measured performance table (bench/perf_table.py,
// docs/Performance.md). The Mistral chain is examples/mistral_rope_bwd.mlir.
// Sizes are kept moderate so that the instrumented CPU runs fit in CI time.

// RMSNorm over rows of 4096 bf16: y = x * rsqrt(mean(x^2) + eps) * w.
func.func @rmsnorm(%x: tensor<1024x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<1024x4096xbf16> {
  %0 = fuser.cast %x : tensor<1024x4096xbf16> to tensor<1024x4096xf32>
  %1 = fuser.mul %0, %0 : tensor<1024x4096xf32>, tensor<1024x4096xf32> -> tensor<1024x4096xf32>
  %2 = fuser.reduction add %1 [1] keepdim : tensor<1024x4096xf32> -> tensor<1024x1xf32>
  %n = arith.constant 4.096000e+03 : f32
  %3 = fuser.div %2, %n : tensor<1024x1xf32>, f32 -> tensor<1024x1xf32>
  %eps = arith.constant 9.99999997E-7 : f32
  %4 = fuser.add %3, %eps : tensor<1024x1xf32>, f32 -> tensor<1024x1xf32>
  %5 = fuser.rsqrt %4 : tensor<1024x1xf32>
  %6 = fuser.mul %0, %5 : tensor<1024x4096xf32>, tensor<1024x1xf32> -> tensor<1024x4096xf32>
  %7 = fuser.cast %w : tensor<4096xbf16> to tensor<4096xf32>
  %8 = fuser.broadcast %7 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %9 = fuser.mul %6, %8 : tensor<1024x4096xf32>, tensor<1x4096xf32> -> tensor<1024x4096xf32>
  %10 = fuser.cast %9 : tensor<1024x4096xf32> to tensor<1024x4096xbf16>
  return %10 : tensor<1024x4096xbf16>
}

// Softmax over rows of 4096 bf16, computed in f32.
func.func @softmax(%x: tensor<1024x4096xbf16>) -> tensor<1024x4096xbf16> {
  %0 = fuser.cast %x : tensor<1024x4096xbf16> to tensor<1024x4096xf32>
  %1 = fuser.reduction max %0 [1] keepdim : tensor<1024x4096xf32> -> tensor<1024x1xf32>
  %2 = fuser.sub %0, %1 : tensor<1024x4096xf32>, tensor<1024x1xf32> -> tensor<1024x4096xf32>
  %3 = fuser.exp %2 : tensor<1024x4096xf32>
  %4 = fuser.reduction add %3 [1] keepdim : tensor<1024x4096xf32> -> tensor<1024x1xf32>
  %5 = fuser.div %3, %4 : tensor<1024x4096xf32>, tensor<1024x1xf32> -> tensor<1024x4096xf32>
  %6 = fuser.cast %5 : tensor<1024x4096xf32> to tensor<1024x4096xbf16>
  return %6 : tensor<1024x4096xbf16>
}

// LayerNorm over rows of 4096 bf16: mean and variance as two sums, then
// (x - mean) * rsqrt(var + eps) * w + b.
func.func @layernorm(%x: tensor<1024x4096xbf16>, %w: tensor<4096xbf16>, %b: tensor<4096xbf16>) -> tensor<1024x4096xbf16> {
  %0 = fuser.cast %x : tensor<1024x4096xbf16> to tensor<1024x4096xf32>
  %1 = fuser.reduction add %0 [1] keepdim : tensor<1024x4096xf32> -> tensor<1024x1xf32>
  %n = arith.constant 4.096000e+03 : f32
  %2 = fuser.div %1, %n : tensor<1024x1xf32>, f32 -> tensor<1024x1xf32>
  %3 = fuser.sub %0, %2 : tensor<1024x4096xf32>, tensor<1024x1xf32> -> tensor<1024x4096xf32>
  %4 = fuser.mul %3, %3 : tensor<1024x4096xf32>, tensor<1024x4096xf32> -> tensor<1024x4096xf32>
  %5 = fuser.reduction add %4 [1] keepdim : tensor<1024x4096xf32> -> tensor<1024x1xf32>
  %6 = fuser.div %5, %n : tensor<1024x1xf32>, f32 -> tensor<1024x1xf32>
  %eps = arith.constant 9.99999974E-6 : f32
  %7 = fuser.add %6, %eps : tensor<1024x1xf32>, f32 -> tensor<1024x1xf32>
  %8 = fuser.rsqrt %7 : tensor<1024x1xf32>
  %9 = fuser.mul %3, %8 : tensor<1024x4096xf32>, tensor<1024x1xf32> -> tensor<1024x4096xf32>
  %10 = fuser.cast %w : tensor<4096xbf16> to tensor<4096xf32>
  %11 = fuser.broadcast %10 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %12 = fuser.mul %9, %11 : tensor<1024x4096xf32>, tensor<1x4096xf32> -> tensor<1024x4096xf32>
  %13 = fuser.cast %b : tensor<4096xbf16> to tensor<4096xf32>
  %14 = fuser.broadcast %13 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %15 = fuser.add %12, %14 : tensor<1024x4096xf32>, tensor<1x4096xf32> -> tensor<1024x4096xf32>
  %16 = fuser.cast %15 : tensor<1024x4096xf32> to tensor<1024x4096xbf16>
  return %16 : tensor<1024x4096xbf16>
}

// LayerNorm as Thunder gives it to nvFuser: var_mean(x, [1], correction=0)
// (the frontend's two-pass composite) and the statistics broadcast back
// with broadcast_in_dim; written by fuser_mlir's Python frontend.
func.func @layernorm_var_mean(%arg0: tensor<1024x4096xbf16>, %arg1: tensor<4096xbf16>, %arg2: tensor<4096xbf16>) -> tensor<1024x4096xbf16> {
  %0 = fuser.cast %arg0 : tensor<1024x4096xbf16> to tensor<1024x4096xf32>
  %1 = fuser.reduction add %0 [1] keepdim : tensor<1024x4096xf32> -> tensor<1024x1xf32>
  %cst = arith.constant 4.096000e+03 : f32
  %2 = fuser.div %1, %cst : tensor<1024x1xf32>, f32 -> tensor<1024x1xf32>
  %3 = fuser.sub %0, %2 : tensor<1024x4096xf32>, tensor<1024x1xf32> -> tensor<1024x4096xf32>
  %4 = fuser.mul %3, %3 : tensor<1024x4096xf32>, tensor<1024x4096xf32> -> tensor<1024x4096xf32>
  %5 = fuser.reduction add %4 [1] keepdim : tensor<1024x4096xf32> -> tensor<1024x1xf32>
  %c4096_i64 = arith.constant 4096 : i64
  %6 = fuser.full %c4096_i64 : i64 -> tensor<1024x1xi64>
  %cst_0 = arith.constant 2.44140625E-4 : f32
  %7 = fuser.mul %5, %cst_0 : tensor<1024x1xf32>, f32 -> tensor<1024x1xf32>
  %8 = fuser.squeeze %7 [1] : tensor<1024x1xf32> -> tensor<1024xf32>
  %9 = fuser.squeeze %2 [1] : tensor<1024x1xf32> -> tensor<1024xf32>
  %10 = fuser.broadcast %9 [1] : tensor<1024xf32> -> tensor<1024x1xf32>
  %11 = fuser.set %10 : tensor<1024x1xf32>
  %12 = fuser.broadcast %8 [1] : tensor<1024xf32> -> tensor<1024x1xf32>
  %13 = fuser.set %12 : tensor<1024x1xf32>
  %cst_1 = arith.constant 9.99999974E-6 : f32
  %14 = fuser.add %13, %cst_1 : tensor<1024x1xf32>, f32 -> tensor<1024x1xf32>
  %15 = fuser.rsqrt %14 : tensor<1024x1xf32>
  %16 = fuser.expand %11 : tensor<1024x1xf32> -> tensor<1024x4096xf32>
  %17 = fuser.sub %0, %16 : tensor<1024x4096xf32>, tensor<1024x4096xf32> -> tensor<1024x4096xf32>
  %18 = fuser.expand %15 : tensor<1024x1xf32> -> tensor<1024x4096xf32>
  %19 = fuser.mul %17, %18 : tensor<1024x4096xf32>, tensor<1024x4096xf32> -> tensor<1024x4096xf32>
  %20 = fuser.cast %arg1 : tensor<4096xbf16> to tensor<4096xf32>
  %21 = fuser.broadcast %20 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %22 = fuser.expand %21 : tensor<1x4096xf32> -> tensor<1024x4096xf32>
  %23 = fuser.cast %arg2 : tensor<4096xbf16> to tensor<4096xf32>
  %24 = fuser.broadcast %23 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %25 = fuser.expand %24 : tensor<1x4096xf32> -> tensor<1024x4096xf32>
  %26 = fuser.mul %19, %22 : tensor<1024x4096xf32>, tensor<1024x4096xf32> -> tensor<1024x4096xf32>
  %27 = fuser.add %26, %25 : tensor<1024x4096xf32>, tensor<1024x4096xf32> -> tensor<1024x4096xf32>
  %28 = fuser.cast %27 : tensor<1024x4096xf32> to tensor<1024x4096xbf16>
  return %28 : tensor<1024x4096xbf16>
}

// A pointwise bf16 chain: (a * b + a) * 0.5, rounded once per op in f32.
func.func @pointwise_bf16(%a: tensor<2048x4096xbf16>, %b: tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16> {
  %0 = fuser.cast %a : tensor<2048x4096xbf16> to tensor<2048x4096xf32>
  %1 = fuser.cast %b : tensor<2048x4096xbf16> to tensor<2048x4096xf32>
  %2 = fuser.mul %0, %1 : tensor<2048x4096xf32>, tensor<2048x4096xf32> -> tensor<2048x4096xf32>
  %3 = fuser.add %2, %0 : tensor<2048x4096xf32>, tensor<2048x4096xf32> -> tensor<2048x4096xf32>
  %h = arith.constant 5.000000e-01 : f32
  %4 = fuser.mul %3, %h : tensor<2048x4096xf32>, f32 -> tensor<2048x4096xf32>
  %5 = fuser.cast %4 : tensor<2048x4096xf32> to tensor<2048x4096xbf16>
  return %5 : tensor<2048x4096xbf16>
}

// A permuted copy: the two inner axes of a bf16 tensor swapped.
func.func @permute_copy(%x: tensor<64x256x512xbf16>) -> tensor<64x512x256xbf16> {
  %0 = fuser.permute %x [0, 2, 1] : tensor<64x256x512xbf16> -> tensor<64x512x256xbf16>
  return %0 : tensor<64x512x256xbf16>
}

// A sum over the middle axis of a bf16 tensor (an outer reduction).
func.func @middle_reduction(%x: tensor<32x1024x512xbf16>) -> tensor<32x512xbf16> {
  %0 = fuser.cast %x : tensor<32x1024x512xbf16> to tensor<32x1024x512xf32>
  %1 = fuser.reduction add %0 [1] : tensor<32x1024x512xf32> -> tensor<32x512xf32>
  %2 = fuser.cast %1 : tensor<32x512xf32> to tensor<32x512xbf16>
  return %2 : tensor<32x512xbf16>
}

// The same RMSNorm and LayerNorm at a realistic token count (8192 tokens x
// 4096 hidden): enough rows for the blocks to take the rows per block that
// bring the weight (and bias) reads under 5% of the bytes moved.
func.func @rmsnorm_8k(%x: tensor<8192x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<8192x4096xbf16> {
  %0 = fuser.cast %x : tensor<8192x4096xbf16> to tensor<8192x4096xf32>
  %1 = fuser.mul %0, %0 : tensor<8192x4096xf32>, tensor<8192x4096xf32> -> tensor<8192x4096xf32>
  %2 = fuser.reduction add %1 [1] keepdim : tensor<8192x4096xf32> -> tensor<8192x1xf32>
  %n = arith.constant 4.096000e+03 : f32
  %3 = fuser.div %2, %n : tensor<8192x1xf32>, f32 -> tensor<8192x1xf32>
  %eps = arith.constant 9.99999997E-7 : f32
  %4 = fuser.add %3, %eps : tensor<8192x1xf32>, f32 -> tensor<8192x1xf32>
  %5 = fuser.rsqrt %4 : tensor<8192x1xf32>
  %6 = fuser.mul %0, %5 : tensor<8192x4096xf32>, tensor<8192x1xf32> -> tensor<8192x4096xf32>
  %7 = fuser.cast %w : tensor<4096xbf16> to tensor<4096xf32>
  %8 = fuser.broadcast %7 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %9 = fuser.mul %6, %8 : tensor<8192x4096xf32>, tensor<1x4096xf32> -> tensor<8192x4096xf32>
  %10 = fuser.cast %9 : tensor<8192x4096xf32> to tensor<8192x4096xbf16>
  return %10 : tensor<8192x4096xbf16>
}

func.func @layernorm_8k(%x: tensor<8192x4096xbf16>, %w: tensor<4096xbf16>, %b: tensor<4096xbf16>) -> tensor<8192x4096xbf16> {
  %0 = fuser.cast %x : tensor<8192x4096xbf16> to tensor<8192x4096xf32>
  %1 = fuser.reduction add %0 [1] keepdim : tensor<8192x4096xf32> -> tensor<8192x1xf32>
  %n = arith.constant 4.096000e+03 : f32
  %2 = fuser.div %1, %n : tensor<8192x1xf32>, f32 -> tensor<8192x1xf32>
  %3 = fuser.sub %0, %2 : tensor<8192x4096xf32>, tensor<8192x1xf32> -> tensor<8192x4096xf32>
  %4 = fuser.mul %3, %3 : tensor<8192x4096xf32>, tensor<8192x4096xf32> -> tensor<8192x4096xf32>
  %5 = fuser.reduction add %4 [1] keepdim : tensor<8192x4096xf32> -> tensor<8192x1xf32>
  %6 = fuser.div %5, %n : tensor<8192x1xf32>, f32 -> tensor<8192x1xf32>
  %eps = arith.constant 9.99999974E-6 : f32
  %7 = fuser.add %6, %eps : tensor<8192x1xf32>, f32 -> tensor<8192x1xf32>
  %8 = fuser.rsqrt %7 : tensor<8192x1xf32>
  %9 = fuser.mul %3, %8 : tensor<8192x4096xf32>, tensor<8192x1xf32> -> tensor<8192x4096xf32>
  %10 = fuser.cast %w : tensor<4096xbf16> to tensor<4096xf32>
  %11 = fuser.broadcast %10 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %12 = fuser.mul %9, %11 : tensor<8192x4096xf32>, tensor<1x4096xf32> -> tensor<8192x4096xf32>
  %13 = fuser.cast %b : tensor<4096xbf16> to tensor<4096xf32>
  %14 = fuser.broadcast %13 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %15 = fuser.add %12, %14 : tensor<8192x4096xf32>, tensor<1x4096xf32> -> tensor<8192x4096xf32>
  %16 = fuser.cast %15 : tensor<8192x4096xf32> to tensor<8192x4096xbf16>
  return %16 : tensor<8192x4096xbf16>
}

// Batch norm forward, channels last (an outer normalization): 512 rows of
// 8192 bf16 channels, the mean and the variance as two sums over the rows,
// y = (x - mean) * rsqrt(var + eps) * w + b per channel.
func.func @batchnorm(%x: tensor<512x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<512x8192xbf16> {
  %0 = fuser.cast %x : tensor<512x8192xbf16> to tensor<512x8192xf32>
  %1 = fuser.reduction add %0 [0] keepdim : tensor<512x8192xf32> -> tensor<1x8192xf32>
  %n = arith.constant 5.120000e+02 : f32
  %2 = fuser.div %1, %n : tensor<1x8192xf32>, f32 -> tensor<1x8192xf32>
  %3 = fuser.sub %0, %2 : tensor<512x8192xf32>, tensor<1x8192xf32> -> tensor<512x8192xf32>
  %4 = fuser.mul %3, %3 : tensor<512x8192xf32>, tensor<512x8192xf32> -> tensor<512x8192xf32>
  %5 = fuser.reduction add %4 [0] keepdim : tensor<512x8192xf32> -> tensor<1x8192xf32>
  %6 = fuser.div %5, %n : tensor<1x8192xf32>, f32 -> tensor<1x8192xf32>
  %eps = arith.constant 9.99999974E-6 : f32
  %7 = fuser.add %6, %eps : tensor<1x8192xf32>, f32 -> tensor<1x8192xf32>
  %8 = fuser.rsqrt %7 : tensor<1x8192xf32>
  %9 = fuser.mul %3, %8 : tensor<512x8192xf32>, tensor<1x8192xf32> -> tensor<512x8192xf32>
  %10 = fuser.cast %w : tensor<8192xbf16> to tensor<8192xf32>
  %11 = fuser.broadcast %10 [0] : tensor<8192xf32> -> tensor<1x8192xf32>
  %12 = fuser.mul %9, %11 : tensor<512x8192xf32>, tensor<1x8192xf32> -> tensor<512x8192xf32>
  %13 = fuser.cast %b : tensor<8192xbf16> to tensor<8192xf32>
  %14 = fuser.broadcast %13 [0] : tensor<8192xf32> -> tensor<1x8192xf32>
  %15 = fuser.add %12, %14 : tensor<512x8192xf32>, tensor<1x8192xf32> -> tensor<512x8192xf32>
  %16 = fuser.cast %15 : tensor<512x8192xf32> to tensor<512x8192xbf16>
  return %16 : tensor<512x8192xbf16>
}
