// Written as Thunder spells them through nvFuser (issue 45): an embedding
// lookup + RMSNorm + dropout forward and the backward Thunder sends to
// nvFuser for it (the RMSNorm and dropout gradients from the saved mask;
// Thunder runs the embedding's backward in torch), a causal mask from iota
// before a softmax, and a cross-entropy loss with take_along_axis. Each segments into
// the fewest kernels the templates allow (docs/Segmentation.md, "Gathers,
// iotas and random ops"), and runs on the CPU backend and under the SIMT
// emulator against the interpreter.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment=normalization=true --fuser-segment-report | FileCheck %s --check-prefix=SEGMENTS
// RUN: fuser-run %s --entry embedding_rmsnorm_dropout --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry embedding_rmsnorm_dropout --backend simt --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry rmsnorm_dropout_backward --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry rmsnorm_dropout_backward --backend simt --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry causal_softmax --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry causal_softmax --backend simt --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry cross_entropy --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry cross_entropy --backend simt --check-against interp | FileCheck %s --check-prefix=OK

// OK: ulp ok

// The gather reads the table rows inside the RMSNorm's normalization
// kernel; the dropout's uniform is drawn there too.
// SEGMENTS: fusion @embedding_rmsnorm_dropout: 1 kernel, 1 segment
// SEGMENTS-NEXT: segment #0 normalization
// The backward (Thunder's trace of the GPT's embedding + RMSNorm + dropout,
// printed by repr(fd)): the weight's gradient reduces over the batch and
// sequence dims, the input's gradient is a normalization over the rows; two
// reductions of different dims are two kernels, the row one reading the
// other's scaled gradient.
// SEGMENTS: fusion @rmsnorm_dropout_backward: 2 kernels, 2 segments
// SEGMENTS-NEXT: segment #0 reduction
// SEGMENTS: segment #1 normalization
// The mask's iotas fold into the softmax's normalization kernel.
// SEGMENTS: fusion @causal_softmax: 1 kernel, 1 segment
// SEGMENTS-NEXT: segment #0 normalization
// log_softmax is one normalization kernel; the picked log-probabilities
// are summed over the rows by a second (a reduction over other dims),
// which recomputes them from the logits and the row statistics.
// SEGMENTS: fusion @cross_entropy: 2 kernels, 2 segments
// SEGMENTS-NEXT: segment #0 normalization
// SEGMENTS: segment #1 reduction
func.func @embedding_rmsnorm_dropout(%ids: tensor<16xi64>, %table: tensor<32x64xf32>, %w: tensor<64xf32>, %seed: i64, %offset: i64) -> tensor<16x64xf32> {
  %v = arith.constant 32 : i64
  %idx = fuser.remainder %ids, %v : tensor<16xi64>, i64 -> tensor<16xi64>
  %ib = fuser.broadcast %idx [1] : tensor<16xi64> -> tensor<16x1xi64>
  %ie = fuser.expand %ib : tensor<16x1xi64> -> tensor<16x64xi64>
  %x = fuser.gather %table[%ie] dim 0 : tensor<32x64xf32>, tensor<16x64xi64> -> tensor<16x64xf32>
  %sq = fuser.mul %x, %x : tensor<16x64xf32>, tensor<16x64xf32> -> tensor<16x64xf32>
  %s = fuser.reduction add %sq [1] keepdim : tensor<16x64xf32> -> tensor<16x1xf32>
  %n = arith.constant 0.015625 : f32
  %m = fuser.mul %s, %n : tensor<16x1xf32>, f32 -> tensor<16x1xf32>
  %eps = arith.constant 1.0e-6 : f32
  %me = fuser.add %m, %eps : tensor<16x1xf32>, f32 -> tensor<16x1xf32>
  %r = fuser.rsqrt %me : tensor<16x1xf32>
  %y0 = fuser.mul %x, %r : tensor<16x64xf32>, tensor<16x1xf32> -> tensor<16x64xf32>
  %wb = fuser.broadcast %w [0] : tensor<64xf32> -> tensor<1x64xf32>
  %y = fuser.mul %y0, %wb : tensor<16x64xf32>, tensor<1x64xf32> -> tensor<16x64xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %u = fuser.uniform %zero, %one seed %seed offset %offset : f32 -> tensor<16x64xf32>
  %p = arith.constant 0.9 : f32
  %keep = fuser.lt %u, %p : tensor<16x64xf32>, f32 -> tensor<16x64xi1>
  %scale = arith.constant 1.1111112 : f32
  %ys = fuser.mul %y, %scale : tensor<16x64xf32>, f32 -> tensor<16x64xf32>
  %out = fuser.where %keep, %ys, %zero : tensor<16x64xi1>, tensor<16x64xf32>, f32 -> tensor<16x64xf32>
  return %out : tensor<16x64xf32>
}

func.func @rmsnorm_dropout_backward(%arg0: tensor<2x8x64xf32>, %arg1: tensor<2x8x64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<2x8x64xf32>, %arg4: tensor<2x8x1xf32>) -> (tensor<64xf32>, tensor<2x8x64xf32>) {
  %0 = fuser.expand %arg4 : tensor<2x8x1xf32> -> tensor<2x8x64xf32>
  %1 = fuser.mul %arg3, %0 : tensor<2x8x64xf32>, tensor<2x8x64xf32> -> tensor<2x8x64xf32>
  %cst = arith.constant 1.111110e+00 : f32
  %2 = fuser.mul %cst, %arg0 : f32, tensor<2x8x64xf32> -> tensor<2x8x64xf32>
  %3 = fuser.mul %arg1, %2 : tensor<2x8x64xf32>, tensor<2x8x64xf32> -> tensor<2x8x64xf32>
  %4 = fuser.mul %1, %3 : tensor<2x8x64xf32>, tensor<2x8x64xf32> -> tensor<2x8x64xf32>
  %5 = fuser.reduction add %4 [0, 1] : tensor<2x8x64xf32> -> tensor<64xf32>
  %6 = fuser.broadcast %arg2 [0, 1] : tensor<64xf32> -> tensor<1x1x64xf32>
  %7 = fuser.expand %6 : tensor<1x1x64xf32> -> tensor<2x8x64xf32>
  %8 = fuser.mul %7, %3 : tensor<2x8x64xf32>, tensor<2x8x64xf32> -> tensor<2x8x64xf32>
  %9 = fuser.mul %0, %8 : tensor<2x8x64xf32>, tensor<2x8x64xf32> -> tensor<2x8x64xf32>
  %10 = fuser.mul %arg3, %8 : tensor<2x8x64xf32>, tensor<2x8x64xf32> -> tensor<2x8x64xf32>
  %11 = fuser.reduction add %10 [2] : tensor<2x8x64xf32> -> tensor<2x8xf32>
  %12 = fuser.broadcast %11 [2] : tensor<2x8xf32> -> tensor<2x8x1xf32>
  %cst_0 = arith.constant -5.000000e-01 : f32
  %13 = fuser.mul %cst_0, %12 : f32, tensor<2x8x1xf32> -> tensor<2x8x1xf32>
  %cst_1 = arith.constant 3.000000e+00 : f32
  %14 = fuser.pow %arg4, %cst_1 : tensor<2x8x1xf32>, f32 -> tensor<2x8x1xf32>
  %15 = fuser.mul %13, %14 : tensor<2x8x1xf32>, tensor<2x8x1xf32> -> tensor<2x8x1xf32>
  %cst_2 = arith.constant 6.400000e+01 : f64
  %16 = fuser.reciprocal %cst_2 : f64
  %17 = fuser.cast %16 : f64 to f32
  %18 = fuser.mul %15, %17 : tensor<2x8x1xf32>, f32 -> tensor<2x8x1xf32>
  %19 = fuser.squeeze %18 [2] : tensor<2x8x1xf32> -> tensor<2x8xf32>
  %20 = fuser.broadcast %19 [2] : tensor<2x8xf32> -> tensor<2x8x1xf32>
  %21 = fuser.expand %20 : tensor<2x8x1xf32> -> tensor<2x8x64xf32>
  %22 = fuser.mul %arg3, %21 : tensor<2x8x64xf32>, tensor<2x8x64xf32> -> tensor<2x8x64xf32>
  %23 = fuser.add %9, %22 : tensor<2x8x64xf32>, tensor<2x8x64xf32> -> tensor<2x8x64xf32>
  %24 = fuser.add %23, %22 : tensor<2x8x64xf32>, tensor<2x8x64xf32> -> tensor<2x8x64xf32>
  return %5, %24 : tensor<64xf32>, tensor<2x8x64xf32>
}

func.func @causal_softmax(%scores: tensor<4x8x8xf32>) -> tensor<4x8x8xf32> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %rows = fuser.iota %zero, %one : i64 -> tensor<8xi64>
  %cols = fuser.iota %zero, %one : i64 -> tensor<8xi64>
  %rb = fuser.broadcast %rows [0, 2] : tensor<8xi64> -> tensor<1x8x1xi64>
  %cb = fuser.broadcast %cols [0, 1] : tensor<8xi64> -> tensor<1x1x8xi64>
  %mask = fuser.le %cb, %rb : tensor<1x1x8xi64>, tensor<1x8x1xi64> -> tensor<1x8x8xi1>
  %ninf = arith.constant 0xFF800000 : f32
  %masked = fuser.where %mask, %scores, %ninf : tensor<1x8x8xi1>, tensor<4x8x8xf32>, f32 -> tensor<4x8x8xf32>
  %mx = fuser.reduction max %masked [2] keepdim : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %d = fuser.sub %masked, %mx : tensor<4x8x8xf32>, tensor<4x8x1xf32> -> tensor<4x8x8xf32>
  %e = fuser.exp %d : tensor<4x8x8xf32>
  %s = fuser.reduction add %e [2] keepdim : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %p = fuser.div %e, %s : tensor<4x8x8xf32>, tensor<4x8x1xf32> -> tensor<4x8x8xf32>
  return %p : tensor<4x8x8xf32>
}

func.func @cross_entropy(%logits: tensor<16x32xf32>, %targets: tensor<16xi64>) -> tensor<f32> {
  %mx = fuser.reduction max %logits [1] keepdim : tensor<16x32xf32> -> tensor<16x1xf32>
  %d = fuser.sub %logits, %mx : tensor<16x32xf32>, tensor<16x1xf32> -> tensor<16x32xf32>
  %e = fuser.exp %d : tensor<16x32xf32>
  %s = fuser.reduction add %e [1] keepdim : tensor<16x32xf32> -> tensor<16x1xf32>
  %l = fuser.log %s : tensor<16x1xf32>
  %logp = fuser.sub %d, %l : tensor<16x32xf32>, tensor<16x1xf32> -> tensor<16x32xf32>
  %v = arith.constant 32 : i64
  %t = fuser.remainder %targets, %v : tensor<16xi64>, i64 -> tensor<16xi64>
  %tb = fuser.broadcast %t [1] : tensor<16xi64> -> tensor<16x1xi64>
  %picked = fuser.gather %logp[%tb] dim 1 : tensor<16x32xf32>, tensor<16x1xi64> -> tensor<16x1xf32>
  %neg = fuser.neg %picked : tensor<16x1xf32>
  %sum = fuser.reduction add %neg [0, 1] : tensor<16x1xf32> -> tensor<f32>
  %inv = arith.constant 0.0625 : f32
  %loss = fuser.mul %sum, %inv : tensor<f32>, f32 -> tensor<f32>
  return %loss : tensor<f32>
}
