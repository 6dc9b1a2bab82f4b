func.func @pad(%arg0: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %0 = fuser.pad %arg0 low [9223372036854775807] high [9223372036854775807] value %v : tensor<4xf32>, f32 -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
