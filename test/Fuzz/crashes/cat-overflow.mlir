func.func @cat(%arg0: tensor<9223372036854775807xf32>) -> tensor<1xf32> {
  %0 = fuser.cat %arg0, %arg0 dim 0 : tensor<9223372036854775807xf32>, tensor<9223372036854775807xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
