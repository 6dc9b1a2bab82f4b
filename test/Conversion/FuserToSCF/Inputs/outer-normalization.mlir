// Outer normalization fusions shared by the outer normalization tests
// (test/Dialect/Fuser/Transforms/segment-outer-normalization.mlir,
// test/Conversion/FuserToSCF/outer-normalization.mlir,
// test/Pipelines/lower-to-nvvm-outer-normalization.mlir,
// test/ExecutionEngine/normalization-outer-memory-report.mlir): reductions
// over outer axes whose results meet the un-reduced columns again; odd row
// counts and column counts that are not a multiple of the tile, and one
// column block too tall for a block.

// Mean over the rows subtracted from each column: 37 rows, 50 columns (a
// tile of 32 and a partial one).
func.func @colmean(%x: tensor<37x50xf32>) -> tensor<37x50xf32> {
  %0 = fuser.reduction add %x [0] keepdim : tensor<37x50xf32> -> tensor<1x50xf32>
  %n = arith.constant 3.700000e+01 : f32
  %1 = fuser.div %0, %n : tensor<1x50xf32>, f32 -> tensor<1x50xf32>
  %2 = fuser.sub %x, %1 : tensor<37x50xf32>, tensor<1x50xf32> -> tensor<37x50xf32>
  return %2 : tensor<37x50xf32>
}

// Batch-norm forward (channels last) over 255 rows of 200 bf16 channels:
// the mean and the variance as two sums, y = (x - mean) * rsqrt(var + eps)
// * w + b; the mean and rstd are outputs too.
func.func @batchnorm(%x: tensor<255x200xbf16>, %w: tensor<200xbf16>, %b: tensor<200xbf16>) -> (tensor<255x200xbf16>, tensor<200xf32>, tensor<1x200xf32>) {
  %0 = fuser.cast %x : tensor<255x200xbf16> to tensor<255x200xf32>
  %1 = fuser.reduction add %0 [0] : tensor<255x200xf32> -> tensor<200xf32>
  %n = arith.constant 2.550000e+02 : f32
  %mean = fuser.div %1, %n : tensor<200xf32>, f32 -> tensor<200xf32>
  %m = fuser.broadcast %mean [0] : tensor<200xf32> -> tensor<1x200xf32>
  %2 = fuser.sub %0, %m : tensor<255x200xf32>, tensor<1x200xf32> -> tensor<255x200xf32>
  %3 = fuser.mul %2, %2 : tensor<255x200xf32>, tensor<255x200xf32> -> tensor<255x200xf32>
  %4 = fuser.reduction add %3 [0] keepdim : tensor<255x200xf32> -> tensor<1x200xf32>
  %5 = fuser.div %4, %n : tensor<1x200xf32>, f32 -> tensor<1x200xf32>
  %eps = arith.constant 9.99999974E-6 : f32
  %6 = fuser.add %5, %eps : tensor<1x200xf32>, f32 -> tensor<1x200xf32>
  %rstd = fuser.rsqrt %6 : tensor<1x200xf32>
  %7 = fuser.mul %2, %rstd : tensor<255x200xf32>, tensor<1x200xf32> -> tensor<255x200xf32>
  %8 = fuser.cast %w : tensor<200xbf16> to tensor<200xf32>
  %9 = fuser.broadcast %8 [0] : tensor<200xf32> -> tensor<1x200xf32>
  %10 = fuser.mul %7, %9 : tensor<255x200xf32>, tensor<1x200xf32> -> tensor<255x200xf32>
  %11 = fuser.cast %b : tensor<200xbf16> to tensor<200xf32>
  %12 = fuser.broadcast %11 [0] : tensor<200xf32> -> tensor<1x200xf32>
  %13 = fuser.add %10, %12 : tensor<255x200xf32>, tensor<1x200xf32> -> tensor<255x200xf32>
  %14 = fuser.cast %13 : tensor<255x200xf32> to tensor<255x200xbf16>
  return %14, %mean, %rstd : tensor<255x200xbf16>, tensor<200xf32>, tensor<1x200xf32>
}

// Softmax over the columns of 65 x 33 f32: max, then the sum of exp(x - max).
func.func @colsoftmax(%x: tensor<65x33xf32>) -> tensor<65x33xf32> {
  %0 = fuser.reduction max %x [0] keepdim : tensor<65x33xf32> -> tensor<1x33xf32>
  %1 = fuser.sub %x, %0 : tensor<65x33xf32>, tensor<1x33xf32> -> tensor<65x33xf32>
  %2 = fuser.exp %1 : tensor<65x33xf32>
  %3 = fuser.reduction add %2 [0] keepdim : tensor<65x33xf32> -> tensor<1x33xf32>
  %4 = fuser.div %2, %3 : tensor<65x33xf32>, tensor<1x33xf32> -> tensor<65x33xf32>
  return %4 : tensor<65x33xf32>
}

// A middle axis: the sum over the 9 rows of each of 3 slabs of 40 columns
// (the columns of all slabs are the kernel's 120 columns), scaled back.
func.func @middle(%x: tensor<3x9x40xf32>) -> tensor<3x9x40xf32> {
  %0 = fuser.reduction add %x [1] keepdim : tensor<3x9x40xf32> -> tensor<3x1x40xf32>
  %1 = fuser.div %x, %0 : tensor<3x9x40xf32>, tensor<3x1x40xf32> -> tensor<3x9x40xf32>
  return %1 : tensor<3x9x40xf32>
}

// Too tall for a block: 4096 rows of bf16 columns are 128 KiB even for a
// tile of 16 columns (one 32-byte sector), over the 48 KiB budget.
func.func @colmean_tall(%x: tensor<4096x64xbf16>) -> tensor<4096x64xbf16> {
  %0 = fuser.cast %x : tensor<4096x64xbf16> to tensor<4096x64xf32>
  %1 = fuser.reduction add %0 [0] keepdim : tensor<4096x64xf32> -> tensor<1x64xf32>
  %n = arith.constant 4.096000e+03 : f32
  %2 = fuser.div %1, %n : tensor<1x64xf32>, f32 -> tensor<1x64xf32>
  %3 = fuser.sub %0, %2 : tensor<4096x64xf32>, tensor<1x64xf32> -> tensor<4096x64xf32>
  %4 = fuser.cast %3 : tensor<4096x64xf32> to tensor<4096x64xbf16>
  return %4 : tensor<4096x64xbf16>
}

// Per-column inputs read by every loop: a scale [1, 48] in the first sum
// (read by each group), a shift [48] first read by the output loop (staged),
// over 70 rows.
func.func @colscale(%x: tensor<70x48xf32>, %s: tensor<1x48xf32>, %t: tensor<48xf32>) -> (tensor<70x48xf32>, tensor<48xf32>) {
  %0 = fuser.mul %x, %s : tensor<70x48xf32>, tensor<1x48xf32> -> tensor<70x48xf32>
  %1 = fuser.reduction add %0 [0] : tensor<70x48xf32> -> tensor<48xf32>
  %2 = fuser.broadcast %1 [0] : tensor<48xf32> -> tensor<1x48xf32>
  %3 = fuser.sub %0, %2 : tensor<70x48xf32>, tensor<1x48xf32> -> tensor<70x48xf32>
  %4 = fuser.broadcast %t [0] : tensor<48xf32> -> tensor<1x48xf32>
  %5 = fuser.add %3, %4 : tensor<70x48xf32>, tensor<1x48xf32> -> tensor<70x48xf32>
  %6 = fuser.mul %1, %t : tensor<48xf32>, tensor<48xf32> -> tensor<48xf32>
  return %5, %6 : tensor<70x48xf32>, tensor<48xf32>
}
