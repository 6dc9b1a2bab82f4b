"func.func"() <{function_type = (tensor<8x4xf32>) -> tensor<4x8xf32>, sym_name = "missing"}> ({
^bb0(%arg0: tensor<8x4xf32>):
  %0 = "fuser.permute"(%arg0) : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %1 = "fuser.reduction"(%arg0) : (tensor<8x4xf32>) -> tensor<8xf32>
  %2 = "fuser.view"() : () -> tensor<4x8xf32>
  "func.return"(%0) : (tensor<4x8xf32>) -> ()
}) : () -> ()
