// A different fusion of the same type as cpu-check-reassociation.mlir's
// scaled_sum: x * 1.75 instead of x * 1.7 differs without any split.
func.func @scaled_sum(%x: tensor<64x4096xf32>) -> (tensor<64x4096xf32>, tensor<64xf32>) {
  %c = arith.constant 1.75 : f32
  %0 = fuser.mul %x, %c : tensor<64x4096xf32>, f32 -> tensor<64x4096xf32>
  %1 = fuser.reduction add %0 [1] : tensor<64x4096xf32> -> tensor<64xf32>
  return %0, %1 : tensor<64x4096xf32>, tensor<64xf32>
}
