"func.func"() <{function_type = (tensor<8x4xf32>) -> tensor<8x4xf32>, sym_name = "wrong_kinds"}> ({
^bb0(%arg0: tensor<8x4xf32>):
  %0 = "fuser.squeeze"(%arg0) <{dims = 3 : i64}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = "fuser.permute"(%arg0) <{permutation = "swap"}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %2 = "fuser.reduction"(%arg0) <{kind = #fuser<cache_op streaming>, dims = array<i32: 1>}> : (tensor<8x4xf32>) -> tensor<8xf32>
  %3 = "fuser.cat"(%arg0, %arg0) <{dim = array<i64: 0>}> : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %4 = "fuser.set"(%arg0) <{cache_op = #fuser<segment_kind alias>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %5 = "fuser.slice"(%arg0) {starts = array<i64: 0, 0>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  "func.return"(%arg0) : (tensor<8x4xf32>) -> ()
}) : () -> ()
