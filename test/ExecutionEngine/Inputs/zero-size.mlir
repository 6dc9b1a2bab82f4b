// Fusions over tensors with a zero extent, one per kind of kernel, shared by
// test/ExecutionEngine/zero-size.mlir and
// test/Pipelines/zero-size.mlir. A kernel without output
// elements launches nothing; one whose inputs have no elements never reads
// them; a reduction over empty axes writes its identity.

// Pointwise: every output empty.
func.func @pointwise(%x: tensor<4x0xf32>) -> tensor<4x0xf32> {
  %0 = fuser.exp %x : tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}

// Outer reduction of an empty kept axis (thread per output: no outputs).
func.func @outer_empty_outputs(%x: tensor<5x0xf32>) -> tensor<1x0xf32> {
  %0 = fuser.reduction add %x [0] keepdim : tensor<5x0xf32> -> tensor<1x0xf32>
  return %0 : tensor<1x0xf32>
}

// 64 reduced elements per output would split the reduction (a block per
// output, a tiled split), but there are no outputs.
func.func @inner_split_no_outputs(%x: tensor<0x64xf32>) -> tensor<0xf32> {
  %0 = fuser.reduction add %x [1] : tensor<0x64xf32> -> tensor<0xf32>
  return %0 : tensor<0xf32>
}
func.func @outer_split_no_outputs(%x: tensor<64x0xbf16>) -> tensor<0xbf16> {
  %0 = fuser.cast %x : tensor<64x0xbf16> to tensor<64x0xf32>
  %1 = fuser.reduction add %0 [0] : tensor<64x0xf32> -> tensor<0xf32>
  %2 = fuser.cast %1 : tensor<0xf32> to tensor<0xbf16>
  return %2 : tensor<0xbf16>
}

// Reductions over an empty axis: each output is the identity (-0.0 for a
// float sum, -inf for max, INT_MAX for an integer min), beside an empty
// output of the same kernel.
func.func @inner_empty_axis(%x: tensor<5x0xf32>, %i: tensor<3x0xi32>) -> (tensor<5xf32>, tensor<5x0xf32>, tensor<5x1xf32>, tensor<3xi32>) {
  %0 = fuser.reduction add %x [1] : tensor<5x0xf32> -> tensor<5xf32>
  %1 = fuser.neg %x : tensor<5x0xf32>
  %2 = fuser.reduction max %x [1] keepdim : tensor<5x0xf32> -> tensor<5x1xf32>
  %3 = fuser.reduction min %i [1] : tensor<3x0xi32> -> tensor<3xi32>
  return %0, %1, %2, %3 : tensor<5xf32>, tensor<5x0xf32>, tensor<5x1xf32>, tensor<3xi32>
}
func.func @outer_empty_axis(%x: tensor<0x40xbf16>) -> tensor<40xbf16> {
  %0 = fuser.cast %x : tensor<0x40xbf16> to tensor<0x40xf32>
  %1 = fuser.reduction add %0 [0] : tensor<0x40xf32> -> tensor<40xf32>
  %2 = fuser.cast %1 : tensor<40xf32> to tensor<40xbf16>
  return %2 : tensor<40xbf16>
}

// Normalizations: no rows; rows without elements (the saved rstd is still
// written, from the empty sum).
func.func @rmsnorm_no_rows(%x: tensor<0x64xbf16>, %w: tensor<64xbf16>) -> tensor<0x64xbf16> {
  %0 = fuser.cast %x : tensor<0x64xbf16> to tensor<0x64xf32>
  %1 = fuser.mul %0, %0 : tensor<0x64xf32>, tensor<0x64xf32> -> tensor<0x64xf32>
  %2 = fuser.reduction add %1 [1] keepdim : tensor<0x64xf32> -> tensor<0x1xf32>
  %n = arith.constant 6.400000e+01 : f32
  %3 = fuser.div %2, %n : tensor<0x1xf32>, f32 -> tensor<0x1xf32>
  %eps = arith.constant 9.99999997E-7 : f32
  %4 = fuser.add %3, %eps : tensor<0x1xf32>, f32 -> tensor<0x1xf32>
  %5 = fuser.rsqrt %4 : tensor<0x1xf32>
  %6 = fuser.mul %0, %5 : tensor<0x64xf32>, tensor<0x1xf32> -> tensor<0x64xf32>
  %7 = fuser.cast %w : tensor<64xbf16> to tensor<64xf32>
  %8 = fuser.broadcast %7 [0] : tensor<64xf32> -> tensor<1x64xf32>
  %9 = fuser.mul %6, %8 : tensor<0x64xf32>, tensor<1x64xf32> -> tensor<0x64xf32>
  %10 = fuser.cast %9 : tensor<0x64xf32> to tensor<0x64xbf16>
  return %10 : tensor<0x64xbf16>
}
func.func @rmsnorm_empty_rows(%x: tensor<8x0xf32>) -> (tensor<8x0xf32>, tensor<8x1xf32>) {
  %1 = fuser.mul %x, %x : tensor<8x0xf32>, tensor<8x0xf32> -> tensor<8x0xf32>
  %2 = fuser.reduction add %1 [1] keepdim : tensor<8x0xf32> -> tensor<8x1xf32>
  %one = arith.constant 1.000000e+00 : f32
  %4 = fuser.add %2, %one : tensor<8x1xf32>, f32 -> tensor<8x1xf32>
  %5 = fuser.rsqrt %4 : tensor<8x1xf32>
  %6 = fuser.mul %x, %5 : tensor<8x0xf32>, tensor<8x1xf32> -> tensor<8x0xf32>
  return %6, %5 : tensor<8x0xf32>, tensor<8x1xf32>
}
func.func @softmax_empty_rows(%x: tensor<4x0xf32>) -> tensor<4x0xf32> {
  %0 = fuser.reduction max %x [1] keepdim : tensor<4x0xf32> -> tensor<4x1xf32>
  %1 = fuser.sub %x, %0 : tensor<4x0xf32>, tensor<4x1xf32> -> tensor<4x0xf32>
  %2 = fuser.exp %1 : tensor<4x0xf32>
  %3 = fuser.reduction add %2 [1] keepdim : tensor<4x0xf32> -> tensor<4x1xf32>
  %4 = fuser.div %2, %3 : tensor<4x0xf32>, tensor<4x1xf32> -> tensor<4x0xf32>
  return %4 : tensor<4x0xf32>
}

// Outer normalizations: no rows to reduce (the mean and rstd are written
// from the empty sums); no columns.
func.func @batchnorm_no_rows(%x: tensor<0x40xf32>) -> (tensor<0x40xf32>, tensor<40xf32>, tensor<1x40xf32>) {
  %1 = fuser.reduction add %x [0] : tensor<0x40xf32> -> tensor<40xf32>
  %two = arith.constant 2.000000e+00 : f32
  %mean = fuser.div %1, %two : tensor<40xf32>, f32 -> tensor<40xf32>
  %m = fuser.broadcast %mean [0] : tensor<40xf32> -> tensor<1x40xf32>
  %2 = fuser.sub %x, %m : tensor<0x40xf32>, tensor<1x40xf32> -> tensor<0x40xf32>
  %3 = fuser.mul %2, %2 : tensor<0x40xf32>, tensor<0x40xf32> -> tensor<0x40xf32>
  %4 = fuser.reduction add %3 [0] keepdim : tensor<0x40xf32> -> tensor<1x40xf32>
  %one = arith.constant 1.000000e+00 : f32
  %6 = fuser.add %4, %one : tensor<1x40xf32>, f32 -> tensor<1x40xf32>
  %rstd = fuser.rsqrt %6 : tensor<1x40xf32>
  %7 = fuser.mul %2, %rstd : tensor<0x40xf32>, tensor<1x40xf32> -> tensor<0x40xf32>
  return %7, %mean, %rstd : tensor<0x40xf32>, tensor<40xf32>, tensor<1x40xf32>
}
func.func @colmean_no_columns(%x: tensor<37x0xf32>) -> tensor<37x0xf32> {
  %0 = fuser.reduction add %x [0] keepdim : tensor<37x0xf32> -> tensor<1x0xf32>
  %n = arith.constant 3.700000e+01 : f32
  %1 = fuser.div %0, %n : tensor<1x0xf32>, f32 -> tensor<1x0xf32>
  %2 = fuser.sub %x, %1 : tensor<37x0xf32>, tensor<1x0xf32> -> tensor<37x0xf32>
  return %2 : tensor<37x0xf32>
}

// Copies and aliases: a transpose, a view and an input returned as they
// are, all empty.
func.func @transpose(%x: tensor<0x48xf32>) -> tensor<48x0xf32> {
  %0 = fuser.permute %x [1, 0] : tensor<0x48xf32> -> tensor<48x0xf32>
  return %0 : tensor<48x0xf32>
}
func.func @alias(%x: tensor<3x0x5xf32>) -> (tensor<0x15xf32>, tensor<3x0x5xf32>, tensor<5x0x3xf32>) {
  %0 = fuser.view %x : tensor<3x0x5xf32> -> tensor<0x15xf32>
  %1 = fuser.permute %x [2, 1, 0] : tensor<3x0x5xf32> -> tensor<5x0x3xf32>
  return %0, %x, %1 : tensor<0x15xf32>, tensor<3x0x5xf32>, tensor<5x0x3xf32>
}

// cat with an empty piece, pad of an empty tensor (all padding), a slice
// to nothing.
func.func @cat_pad_slice(%a: tensor<4x0xf32>, %b: tensor<4x3xf32>) -> (tensor<4x6xf32>, tensor<4x3xf32>, tensor<4x0xf32>, tensor<4x0xf32>) {
  %0 = fuser.cat %a, %b, %a, %b dim 1 : tensor<4x0xf32>, tensor<4x3xf32>, tensor<4x0xf32>, tensor<4x3xf32> -> tensor<4x6xf32>
  %c = arith.constant 2.500000e+00 : f32
  %1 = fuser.pad %a low [0, 1] high [0, 2] value %c : tensor<4x0xf32>, f32 -> tensor<4x3xf32>
  %2 = fuser.slice %b starts [0, 1] limits [4, 1] strides [1, 1] : tensor<4x3xf32> -> tensor<4x0xf32>
  %3 = fuser.cat %a, %a dim 1 : tensor<4x0xf32>, tensor<4x0xf32> -> tensor<4x0xf32>
  return %0, %1, %2, %3 : tensor<4x6xf32>, tensor<4x3xf32>, tensor<4x0xf32>, tensor<4x0xf32>
}
