func.func @sum(%arg0: tensor<1048576x1048576xf32>) -> tensor<1048576xf32> {
  %0 = fuser.reduction add %arg0 [1] : tensor<1048576x1048576xf32> -> tensor<1048576xf32>
  return %0 : tensor<1048576xf32>
}
