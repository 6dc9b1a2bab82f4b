"func.func"() <{function_type = (tensor<8x4xf32>) -> tensor<8x4xf32>, sym_name = "no_terminator"}> ({
^bb0(%arg0: tensor<8x4xf32>):
  %0 = "fuser.segment"(%arg0) <{kind = #fuser<segment_kind pointwise>}> ({
  ^bb0(%a: tensor<8x4xf32>):
    %1 = "fuser.neg"(%a) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  "func.return"(%0) : (tensor<8x4xf32>) -> ()
}) : () -> ()
