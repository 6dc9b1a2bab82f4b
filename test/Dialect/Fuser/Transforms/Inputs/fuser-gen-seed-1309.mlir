// fuser-gen --seed 1309 before the generator learned nvFuser's op set part 1 (issue 26).
module {
  func.func @fusion(%arg0: tensor<5x8x8x1xi32>, %arg1: tensor<3x5x8x3xf16>, %arg2: tensor<3x1x120xf16>, %arg3: tensor<3x1x5x8x3xf64>) -> (tensor<3x5x1x8x3xf16>, tensor<3x5x8x3xf16>, tensor<3x1x120xf32>, tensor<3x1x120xf16>, tensor<3x1x5x1x8x3xf16>) {
    %0 = fuser.broadcast %arg1 [1] : tensor<3x5x8x3xf16> -> tensor<3x1x5x8x3xf16>
    %1 = fuser.expand %0 : tensor<3x1x5x8x3xf16> -> tensor<3x1x5x8x3xf16>
    %2 = fuser.broadcast %1 [2] : tensor<3x1x5x8x3xf16> -> tensor<3x1x1x5x8x3xf16>
    %3 = fuser.neg %2 : tensor<3x1x1x5x8x3xf16>
    %4 = fuser.squeeze %3 [2] : tensor<3x1x1x5x8x3xf16> -> tensor<3x1x5x8x3xf16>
    %5 = fuser.reduction min %4 [0, 3, 4] keepdim : tensor<3x1x5x8x3xf16> -> tensor<1x1x5x1x1xf16>
    %6 = fuser.mul %4, %5 : tensor<3x1x5x8x3xf16>, tensor<1x1x5x1x1xf16> -> tensor<3x1x5x8x3xf16>
    %7 = fuser.squeeze %6 [1] : tensor<3x1x5x8x3xf16> -> tensor<3x5x8x3xf16>
    %8 = fuser.broadcast %7 [1] : tensor<3x5x8x3xf16> -> tensor<3x1x5x8x3xf16>
    %9 = fuser.expand %8 : tensor<3x1x5x8x3xf16> -> tensor<3x1x5x8x3xf16>
    %10 = fuser.view %9 : tensor<3x1x5x8x3xf16> -> tensor<3x1x120xf16>
    %11 = fuser.lt %10, %arg2 : tensor<3x1x120xf16>, tensor<3x1x120xf16> -> tensor<3x1x120xi1>
    %12 = fuser.reduction max %10 [2] keepdim : tensor<3x1x120xf16> -> tensor<3x1x1xf16>
    %13 = fuser.where %11, %10, %12 : tensor<3x1x120xi1>, tensor<3x1x120xf16>, tensor<3x1x1xf16> -> tensor<3x1x120xf16>
    %cst = arith.constant 2.000000e+00 : f32
    %14 = fuser.full %cst : f32 -> tensor<3x1x120xf32>
    %15 = fuser.cast %arg3 : tensor<3x1x5x8x3xf64> to tensor<3x1x5x8x3xf16>
    %16 = fuser.sub %15, %4 : tensor<3x1x5x8x3xf16>, tensor<3x1x5x8x3xf16> -> tensor<3x1x5x8x3xf16>
    %17 = fuser.mul %16, %6 : tensor<3x1x5x8x3xf16>, tensor<3x1x5x8x3xf16> -> tensor<3x1x5x8x3xf16>
    %18 = fuser.abs %17 : tensor<3x1x5x8x3xf16>
    %19 = fuser.broadcast %18 [3] : tensor<3x1x5x8x3xf16> -> tensor<3x1x5x1x8x3xf16>
    %20 = fuser.squeeze %19 [1] : tensor<3x1x5x1x8x3xf16> -> tensor<3x5x1x8x3xf16>
    %21 = fuser.broadcast %20 [1] : tensor<3x5x1x8x3xf16> -> tensor<3x1x5x1x8x3xf16>
    %22 = fuser.squeeze %21 [1] : tensor<3x1x5x1x8x3xf16> -> tensor<3x5x1x8x3xf16>
    %23 = fuser.exp %22 : tensor<3x5x1x8x3xf16>
    %24 = fuser.cast %23 : tensor<3x5x1x8x3xf16> to tensor<3x5x1x8x3xf64>
    %25 = fuser.view %24 : tensor<3x5x1x8x3xf64> -> tensor<3x5x8x3xf64>
    %26 = fuser.cast %25 : tensor<3x5x8x3xf64> to tensor<3x5x8x3xf16>
    %27 = fuser.sigmoid %23 : tensor<3x5x1x8x3xf16>
    %cst_0 = arith.constant -4.500000e+00 : f16
    %28 = fuser.maximum %cst_0, %27 : f16, tensor<3x5x1x8x3xf16> -> tensor<3x5x1x8x3xf16>
    return %28, %26, %14, %13, %21 : tensor<3x5x1x8x3xf16>, tensor<3x5x8x3xf16>, tensor<3x1x120xf32>, tensor<3x1x120xf16>, tensor<3x1x5x1x8x3xf16>
  }
}
