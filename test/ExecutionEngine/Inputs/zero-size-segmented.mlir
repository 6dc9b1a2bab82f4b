// Fusions over tensors with a zero extent, segmented by hand: normalization
// segments (fuser-segment makes plain reduction kernels of them), an empty
// intermediate between two kernels, and split reductions beside an empty
// output; fuser-schedule picks their schedules. Shared by
// test/ExecutionEngine/zero-size.mlir and
// test/Pipelines/zero-size.mlir.

// An inner normalization without rows: nothing to launch.
func.func @rmsnorm_no_rows(%x: tensor<0x64xbf16>, %w: tensor<64xbf16>) -> tensor<0x64xbf16> {
  %r = fuser.segment normalization(%x, %w) : (tensor<0x64xbf16>, tensor<64xbf16>) -> tensor<0x64xbf16> {
  ^bb0(%a: tensor<0x64xbf16>, %b: tensor<64xbf16>):
    %0 = fuser.cast %a : tensor<0x64xbf16> to tensor<0x64xf32>
    %1 = fuser.mul %0, %0 : tensor<0x64xf32>, tensor<0x64xf32> -> tensor<0x64xf32>
    %2 = fuser.reduction add %1 [1] keepdim : tensor<0x64xf32> -> tensor<0x1xf32>
    %3 = fuser.rsqrt %2 : tensor<0x1xf32>
    %4 = fuser.mul %0, %3 : tensor<0x64xf32>, tensor<0x1xf32> -> tensor<0x64xf32>
    %5 = fuser.cast %b : tensor<64xbf16> to tensor<64xf32>
    %6 = fuser.broadcast %5 [0] : tensor<64xf32> -> tensor<1x64xf32>
    %7 = fuser.mul %4, %6 : tensor<0x64xf32>, tensor<1x64xf32> -> tensor<0x64xf32>
    %8 = fuser.cast %7 : tensor<0x64xf32> to tensor<0x64xbf16>
    fuser.yield %8 : tensor<0x64xbf16>
  }
  return %r : tensor<0x64xbf16>
}

// Rows without elements: the normalized rows are empty, the saved rstd of
// each row is rsqrt(-0.0 + 1) = 1.
func.func @rmsnorm_empty_rows(%x: tensor<8x0xf32>, %w: tensor<0xf32>) -> (tensor<8x0xf32>, tensor<8x1xf32>) {
  %r:2 = fuser.segment normalization(%x, %w) : (tensor<8x0xf32>, tensor<0xf32>) -> (tensor<8x0xf32>, tensor<8x1xf32>) {
  ^bb0(%a: tensor<8x0xf32>, %b: tensor<0xf32>):
    %1 = fuser.mul %a, %a : tensor<8x0xf32>, tensor<8x0xf32> -> tensor<8x0xf32>
    %2 = fuser.reduction add %1 [1] keepdim : tensor<8x0xf32> -> tensor<8x1xf32>
    %one = arith.constant 1.000000e+00 : f32
    %3 = fuser.add %2, %one : tensor<8x1xf32>, f32 -> tensor<8x1xf32>
    %4 = fuser.rsqrt %3 : tensor<8x1xf32>
    %5 = fuser.mul %a, %4 : tensor<8x0xf32>, tensor<8x1xf32> -> tensor<8x0xf32>
    %6 = fuser.broadcast %b [0] : tensor<0xf32> -> tensor<1x0xf32>
    %7 = fuser.mul %5, %6 : tensor<8x0xf32>, tensor<1x0xf32> -> tensor<8x0xf32>
    fuser.yield %7, %4 : tensor<8x0xf32>, tensor<8x1xf32>
  }
  return %r#0, %r#1 : tensor<8x0xf32>, tensor<8x1xf32>
}

// A softmax over empty rows, its max (-inf) saved.
func.func @softmax_empty_rows(%x: tensor<4x0xf32>) -> (tensor<4x0xf32>, tensor<4x1xf32>) {
  %r:2 = fuser.segment normalization(%x) : (tensor<4x0xf32>) -> (tensor<4x0xf32>, tensor<4x1xf32>) {
  ^bb0(%a: tensor<4x0xf32>):
    %0 = fuser.reduction max %a [1] keepdim : tensor<4x0xf32> -> tensor<4x1xf32>
    %1 = fuser.sub %a, %0 : tensor<4x0xf32>, tensor<4x1xf32> -> tensor<4x0xf32>
    %2 = fuser.exp %1 : tensor<4x0xf32>
    %3 = fuser.reduction add %2 [1] keepdim : tensor<4x0xf32> -> tensor<4x1xf32>
    %4 = fuser.div %2, %3 : tensor<4x0xf32>, tensor<4x1xf32> -> tensor<4x0xf32>
    fuser.yield %4, %0 : tensor<4x0xf32>, tensor<4x1xf32>
  }
  return %r#0, %r#1 : tensor<4x0xf32>, tensor<4x1xf32>
}

// An outer normalization without rows to reduce: the mean and rstd of each
// of the 40 columns come from the empty sums; a per-column weight.
func.func @batchnorm_no_rows(%x: tensor<0x40xf32>, %w: tensor<40xf32>) -> (tensor<0x40xf32>, tensor<40xf32>, tensor<1x40xf32>) {
  %r:3 = fuser.segment normalization(%x, %w) : (tensor<0x40xf32>, tensor<40xf32>) -> (tensor<0x40xf32>, tensor<40xf32>, tensor<1x40xf32>) {
  ^bb0(%a: tensor<0x40xf32>, %b: tensor<40xf32>):
    %1 = fuser.reduction add %a [0] : tensor<0x40xf32> -> tensor<40xf32>
    %mean = fuser.mul %1, %b : tensor<40xf32>, tensor<40xf32> -> tensor<40xf32>
    %m = fuser.broadcast %mean [0] : tensor<40xf32> -> tensor<1x40xf32>
    %2 = fuser.sub %a, %m : tensor<0x40xf32>, tensor<1x40xf32> -> tensor<0x40xf32>
    %3 = fuser.mul %2, %2 : tensor<0x40xf32>, tensor<0x40xf32> -> tensor<0x40xf32>
    %4 = fuser.reduction add %3 [0] keepdim : tensor<0x40xf32> -> tensor<1x40xf32>
    %one = arith.constant 1.000000e+00 : f32
    %6 = fuser.add %4, %one : tensor<1x40xf32>, f32 -> tensor<1x40xf32>
    %rstd = fuser.rsqrt %6 : tensor<1x40xf32>
    %7 = fuser.mul %2, %rstd : tensor<0x40xf32>, tensor<1x40xf32> -> tensor<0x40xf32>
    fuser.yield %7, %mean, %rstd : tensor<0x40xf32>, tensor<40xf32>, tensor<1x40xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<0x40xf32>, tensor<40xf32>, tensor<1x40xf32>
}

// An outer normalization without columns: nothing to launch.
func.func @colmean_no_columns(%x: tensor<37x0xf32>) -> tensor<37x0xf32> {
  %r = fuser.segment normalization(%x) : (tensor<37x0xf32>) -> tensor<37x0xf32> {
  ^bb0(%a: tensor<37x0xf32>):
    %0 = fuser.reduction add %a [0] keepdim : tensor<37x0xf32> -> tensor<1x0xf32>
    %1 = fuser.sub %a, %0 : tensor<37x0xf32>, tensor<1x0xf32> -> tensor<37x0xf32>
    fuser.yield %1 : tensor<37x0xf32>
  }
  return %r : tensor<37x0xf32>
}

// An empty intermediate: the first kernel launches nothing, the second
// reads nothing of it (sums of empty rows).
func.func @intermediate(%x: tensor<5x0xf32>) -> tensor<5xf32> {
  %t = fuser.segment pointwise(%x) : (tensor<5x0xf32>) -> tensor<5x0xf32> {
  ^bb0(%a: tensor<5x0xf32>):
    %0 = fuser.exp %a : tensor<5x0xf32>
    fuser.yield %0 : tensor<5x0xf32>
  }
  %r = fuser.segment reduction(%t) : (tensor<5x0xf32>) -> tensor<5xf32> {
  ^bb0(%a: tensor<5x0xf32>):
    %0 = fuser.reduction add %a [1] : tensor<5x0xf32> -> tensor<5xf32>
    fuser.yield %0 : tensor<5xf32>
  }
  return %r : tensor<5xf32>
}

// A block per output (inner) and a tiled split (outer), each beside an
// output without elements, which is not written.
func.func @split_beside(%x: tensor<4x64xf32>, %y: tensor<4x0xf32>) -> (tensor<4xf32>, tensor<4x0xf32>) {
  %r:2 = fuser.segment reduction(%x, %y) : (tensor<4x64xf32>, tensor<4x0xf32>) -> (tensor<4xf32>, tensor<4x0xf32>) {
  ^bb0(%a: tensor<4x64xf32>, %b: tensor<4x0xf32>):
    %0 = fuser.reduction add %a [1] : tensor<4x64xf32> -> tensor<4xf32>
    %1 = fuser.exp %b : tensor<4x0xf32>
    fuser.yield %0, %1 : tensor<4xf32>, tensor<4x0xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4x0xf32>
}
func.func @tiled_beside(%x: tensor<64x8xf32>, %y: tensor<0x8xf32>) -> (tensor<8xf32>, tensor<0x8xf32>) {
  %r:2 = fuser.segment reduction(%x, %y) : (tensor<64x8xf32>, tensor<0x8xf32>) -> (tensor<8xf32>, tensor<0x8xf32>) {
  ^bb0(%a: tensor<64x8xf32>, %b: tensor<0x8xf32>):
    %0 = fuser.reduction add %a [0] : tensor<64x8xf32> -> tensor<8xf32>
    %1 = fuser.neg %b : tensor<0x8xf32>
    fuser.yield %0, %1 : tensor<8xf32>, tensor<0x8xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<0x8xf32>
}
