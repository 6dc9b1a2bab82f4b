func.func @broken(%a: tensor<2xf32>) -> tensor<2xf32> {
  %b = fuser.neg %a : tensor<2xf32
  return %b : tensor<2xf32>
}
