// fuser-gen --seed 146 before the generator learned nvFuser's op set part 1 (issue 26).
module {
  func.func @fusion(%arg0: tensor<2x5xf16>, %arg1: tensor<1x1x1xi32>, %arg2: tensor<1x1x1xf16>) -> (tensor<1x1xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<1x4x25xf16>, tensor<f16>) {
    %0 = fuser.reduction max %arg0 [0, 1] keepdim : tensor<2x5xf16> -> tensor<1x1xf16>
    %1 = fuser.add %0, %arg0 : tensor<1x1xf16>, tensor<2x5xf16> -> tensor<2x5xf16>
    %2 = fuser.set %arg0 : tensor<2x5xf16>
    %3 = fuser.slice %2 starts [0, 1] limits [1, 3] strides [1, 2] : tensor<2x5xf16> -> tensor<1x1xf16>
    %4 = fuser.view %3 : tensor<1x1xf16> -> tensor<1xf16>
    %5 = fuser.broadcast %4 [1, 2] : tensor<1xf16> -> tensor<1x1x1xf16>
    %6 = fuser.squeeze %5 [1] : tensor<1x1x1xf16> -> tensor<1x1xf16>
    %7 = fuser.cast %arg1 : tensor<1x1x1xi32> to tensor<1x1x1xf16>
    %8 = fuser.ge %5, %7 : tensor<1x1x1xf16>, tensor<1x1x1xf16> -> tensor<1x1x1xi1>
    %9 = fuser.where %8, %5, %arg2 : tensor<1x1x1xi1>, tensor<1x1x1xf16>, tensor<1x1x1xf16> -> tensor<1x1x1xf16>
    %10 = fuser.squeeze %9 [0, 1, 2] : tensor<1x1x1xf16> -> tensor<f16>
    %11 = fuser.cast %3 : tensor<1x1xf16> to tensor<1x1xi32>
    %12 = fuser.cast %11 : tensor<1x1xi32> to tensor<1x1xf16>
    %13 = fuser.ne %12, %2 : tensor<1x1xf16>, tensor<2x5xf16> -> tensor<2x5xi1>
    %14 = fuser.reduction min %12 [0, 1] keepdim : tensor<1x1xf16> -> tensor<1x1xf16>
    %15 = fuser.where %13, %12, %14 : tensor<2x5xi1>, tensor<1x1xf16>, tensor<1x1xf16> -> tensor<2x5xf16>
    %16 = fuser.maximum %15, %15 : tensor<2x5xf16>, tensor<2x5xf16> -> tensor<2x5xf16>
    %cst = arith.constant -4.625000e+00 : f16
    %17 = fuser.pad %16 low [2, 0] high [1, 0] value %cst : tensor<2x5xf16>, f16 -> tensor<5x5xf16>
    %18 = fuser.mul %15, %3 : tensor<2x5xf16>, tensor<1x1xf16> -> tensor<2x5xf16>
    %19 = fuser.view %17 : tensor<5x5xf16> -> tensor<25x1x1xf16>
    %20 = fuser.permute %19 [0, 1, 2] : tensor<25x1x1xf16> -> tensor<25x1x1xf16>
    %21 = fuser.permute %20 [0, 1, 2] : tensor<25x1x1xf16> -> tensor<25x1x1xf16>
    %22 = fuser.broadcast %21 [2] : tensor<25x1x1xf16> -> tensor<25x1x1x1xf16>
    %true = arith.constant true
    %23 = fuser.cast %true : i1 to f16
    %24 = fuser.minimum %23, %22 : f16, tensor<25x1x1x1xf16> -> tensor<25x1x1x1xf16>
    %25 = fuser.expand %24 : tensor<25x1x1x1xf16> -> tensor<25x4x4x2xf16>
    %26 = fuser.slice %25 starts [0, 0, 3, 1] limits [25, 4, 4, 2] strides [1, 1, 1, 3] : tensor<25x4x4x2xf16> -> tensor<25x4x1x1xf16>
    %27 = fuser.permute %26 [3, 2, 1, 0] : tensor<25x4x1x1xf16> -> tensor<1x1x4x25xf16>
    %28 = fuser.view %27 : tensor<1x1x4x25xf16> -> tensor<1x4x25xf16>
    %29 = fuser.broadcast %28 [1] : tensor<1x4x25xf16> -> tensor<1x1x4x25xf16>
    %30 = fuser.squeeze %29 [1] : tensor<1x1x4x25xf16> -> tensor<1x4x25xf16>
    return %6, %18, %1, %30, %10 : tensor<1x1xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<1x4x25xf16>, tensor<f16>
  }
}
