func.func @invalid(%a: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %b = fuser.view %a : tensor<2x3xf32> -> tensor<3x3xf32>
  return %b : tensor<3x3xf32>
}
