func.func @negative(%arg0: tensor<1x8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.squeeze %arg0 [-1] : tensor<1x8x4xf32> -> tensor<8x4xf32>
  %1 = fuser.permute %0 [-1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %2 = fuser.slice %0 starts [-4, 0] limits [8, -1] strides [-1, 0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %3 = fuser.reduction add %0 [-9223372036854775808] : tensor<8x4xf32> -> tensor<8xf32>
  %4 = fuser.broadcast %0 [-2] : tensor<8x4xf32> -> tensor<1x8x4xf32>
  %5 = fuser.cat %0, %0 dim -1 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x4xf32>
}
