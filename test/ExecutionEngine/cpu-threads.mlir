// The CPU backend runs each kernel's blocks on several threads
// (docs/Lowering.md, "Blocks on every core"): the bits do not depend on how
// many. Each fusion runs with 1, 2 and 7 threads (--num-threads, and
// FUSER_MLIR_NUM_THREADS), the printed hashes compared, and with 7 threads
// against the interpreter. The fusions: a row sum (a block per row, its threads
// combined in the block), a middle-axis sum (the tiled split: partials in
// shared memory), softmax and LayerNorm (rows staged in shared memory), a
// batch norm (an outer normalization) and a pointwise nest of blocks and
// threads; then bench/perf_cases.mlir's.
//
// RUN: for f in rows middle softmax layernorm batchnorm pointwise; do \
// RUN:   fuser-run %s --entry $f --backend cpu --num-threads 1 > %t.$f.1 && \
// RUN:   fuser-run %s --entry $f --backend cpu --num-threads 2 > %t.$f.2 && \
// RUN:   env FUSER_MLIR_NUM_THREADS=7 fuser-run %s --entry $f --backend cpu > %t.$f.7 && \
// RUN:   diff %t.$f.1 %t.$f.2 && diff %t.$f.1 %t.$f.7 || exit 1; \
// RUN: done
// Without split reductions, which the interpreter sums in another order,
// bit for bit the interpreter's.
// RUN: for f in rows middle softmax layernorm batchnorm pointwise; do \
// RUN:   fuser-run %s --entry $f --backend cpu --num-threads 7 --split-reductions=false --check-against interp || exit 1; \
// RUN: done | FileCheck %s --check-prefix=CHECK7
// CHECK7-COUNT-6: check 0: max_abs_err=0 max_ulp=0 tolerance={{[0-9]+}} ulp ok
//
// RUN: for f in rmsnorm softmax layernorm middle_reduction batchnorm permute_copy; do \
// RUN:   fuser-run %fuser_src_root/bench/perf_cases.mlir --entry $f --backend cpu --num-threads 1 > %t.bench.$f.1 && \
// RUN:   fuser-run %fuser_src_root/bench/perf_cases.mlir --entry $f --backend cpu --num-threads 2 > %t.bench.$f.2 && \
// RUN:   fuser-run %fuser_src_root/bench/perf_cases.mlir --entry $f --backend cpu --num-threads 7 > %t.bench.$f.7 && \
// RUN:   diff %t.bench.$f.1 %t.bench.$f.2 && diff %t.bench.$f.1 %t.bench.$f.7 || exit 1; \
// RUN: done
//
// Gather indices out of range in many blocks: the error names the first
// result element whatever thread found it.
// RUN: not fuser-run %s --entry out_of_range --backend cpu --num-threads 7 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: error: index 8 is out of range [0, 8) along dim 1 at {{[a-z]+}} element 0
//
// RUN: env FUSER_MLIR_NUM_THREADS=two not fuser-run %s --entry rows --backend cpu 2>&1 | FileCheck %s --check-prefix=BADENV
// BADENV: error: FUSER_MLIR_NUM_THREADS='two' is not a number of threads (a positive integer)

func.func @rows(%a: tensor<96x1000xf32>) -> tensor<96xf32> {
  %r = fuser.reduction add %a [1] : tensor<96x1000xf32> -> tensor<96xf32>
  return %r : tensor<96xf32>
}

func.func @middle(%x: tensor<8x256x64xbf16>) -> tensor<8x64xbf16> {
  %0 = fuser.cast %x : tensor<8x256x64xbf16> to tensor<8x256x64xf32>
  %1 = fuser.reduction add %0 [1] : tensor<8x256x64xf32> -> tensor<8x64xf32>
  %2 = fuser.cast %1 : tensor<8x64xf32> to tensor<8x64xbf16>
  return %2 : tensor<8x64xbf16>
}

func.func @softmax(%x: tensor<48x640xf32>) -> tensor<48x640xf32> {
  %1 = fuser.reduction max %x [1] keepdim : tensor<48x640xf32> -> tensor<48x1xf32>
  %2 = fuser.sub %x, %1 : tensor<48x640xf32>, tensor<48x1xf32> -> tensor<48x640xf32>
  %3 = fuser.exp %2 : tensor<48x640xf32>
  %4 = fuser.reduction add %3 [1] keepdim : tensor<48x640xf32> -> tensor<48x1xf32>
  %5 = fuser.div %3, %4 : tensor<48x640xf32>, tensor<48x1xf32> -> tensor<48x640xf32>
  return %5 : tensor<48x640xf32>
}

func.func @layernorm(%x: tensor<64x512xbf16>, %w: tensor<512xbf16>, %b: tensor<512xbf16>) -> tensor<64x512xbf16> {
  %0 = fuser.cast %x : tensor<64x512xbf16> to tensor<64x512xf32>
  %1 = fuser.reduction add %0 [1] keepdim : tensor<64x512xf32> -> tensor<64x1xf32>
  %n = arith.constant 5.120000e+02 : f32
  %2 = fuser.div %1, %n : tensor<64x1xf32>, f32 -> tensor<64x1xf32>
  %3 = fuser.sub %0, %2 : tensor<64x512xf32>, tensor<64x1xf32> -> tensor<64x512xf32>
  %4 = fuser.mul %3, %3 : tensor<64x512xf32>, tensor<64x512xf32> -> tensor<64x512xf32>
  %5 = fuser.reduction add %4 [1] keepdim : tensor<64x512xf32> -> tensor<64x1xf32>
  %6 = fuser.div %5, %n : tensor<64x1xf32>, f32 -> tensor<64x1xf32>
  %eps = arith.constant 9.99999974E-6 : f32
  %7 = fuser.add %6, %eps : tensor<64x1xf32>, f32 -> tensor<64x1xf32>
  %8 = fuser.rsqrt %7 : tensor<64x1xf32>
  %9 = fuser.mul %3, %8 : tensor<64x512xf32>, tensor<64x1xf32> -> tensor<64x512xf32>
  %10 = fuser.cast %w : tensor<512xbf16> to tensor<512xf32>
  %11 = fuser.broadcast %10 [0] : tensor<512xf32> -> tensor<1x512xf32>
  %12 = fuser.mul %9, %11 : tensor<64x512xf32>, tensor<1x512xf32> -> tensor<64x512xf32>
  %13 = fuser.cast %b : tensor<512xbf16> to tensor<512xf32>
  %14 = fuser.broadcast %13 [0] : tensor<512xf32> -> tensor<1x512xf32>
  %15 = fuser.add %12, %14 : tensor<64x512xf32>, tensor<1x512xf32> -> tensor<64x512xf32>
  %16 = fuser.cast %15 : tensor<64x512xf32> to tensor<64x512xbf16>
  return %16 : tensor<64x512xbf16>
}

func.func @batchnorm(%x: tensor<256x128xbf16>, %w: tensor<128xbf16>, %b: tensor<128xbf16>) -> tensor<256x128xbf16> {
  %0 = fuser.cast %x : tensor<256x128xbf16> to tensor<256x128xf32>
  %1 = fuser.reduction add %0 [0] keepdim : tensor<256x128xf32> -> tensor<1x128xf32>
  %n = arith.constant 2.560000e+02 : f32
  %2 = fuser.div %1, %n : tensor<1x128xf32>, f32 -> tensor<1x128xf32>
  %3 = fuser.sub %0, %2 : tensor<256x128xf32>, tensor<1x128xf32> -> tensor<256x128xf32>
  %4 = fuser.mul %3, %3 : tensor<256x128xf32>, tensor<256x128xf32> -> tensor<256x128xf32>
  %5 = fuser.reduction add %4 [0] keepdim : tensor<256x128xf32> -> tensor<1x128xf32>
  %6 = fuser.div %5, %n : tensor<1x128xf32>, f32 -> tensor<1x128xf32>
  %eps = arith.constant 9.99999974E-6 : f32
  %7 = fuser.add %6, %eps : tensor<1x128xf32>, f32 -> tensor<1x128xf32>
  %8 = fuser.rsqrt %7 : tensor<1x128xf32>
  %9 = fuser.mul %3, %8 : tensor<256x128xf32>, tensor<1x128xf32> -> tensor<256x128xf32>
  %10 = fuser.cast %w : tensor<128xbf16> to tensor<128xf32>
  %11 = fuser.broadcast %10 [0] : tensor<128xf32> -> tensor<1x128xf32>
  %12 = fuser.mul %9, %11 : tensor<256x128xf32>, tensor<1x128xf32> -> tensor<256x128xf32>
  %13 = fuser.cast %b : tensor<128xbf16> to tensor<128xf32>
  %14 = fuser.broadcast %13 [0] : tensor<128xf32> -> tensor<1x128xf32>
  %15 = fuser.add %12, %14 : tensor<256x128xf32>, tensor<1x128xf32> -> tensor<256x128xf32>
  %16 = fuser.cast %15 : tensor<256x128xf32> to tensor<256x128xbf16>
  return %16 : tensor<256x128xbf16>
}

func.func @pointwise(%a: tensor<300x77xbf16>, %b: tensor<1x77xbf16>) -> tensor<300x77xbf16> {
  %0 = fuser.add %a, %b : tensor<300x77xbf16>, tensor<1x77xbf16> -> tensor<300x77xbf16>
  %1 = fuser.tanh %0 : tensor<300x77xbf16>
  return %1 : tensor<300x77xbf16>
}

func.func @out_of_range(%x: tensor<4096x8xf32>) -> tensor<4096x3xf32> {
  %eight = arith.constant 8 : i64
  %idx = fuser.full %eight : i64 -> tensor<4096x3xi64>
  %g = fuser.gather %x[%idx] dim 1 : tensor<4096x8xf32>, tensor<4096x3xi64> -> tensor<4096x3xf32>
  return %g : tensor<4096x3xf32>
}
