// fuser-gen --seed 992 before the generator learned nvFuser's op set part 1 (issue 26).
module {
  func.func @fusion(%arg0: tensor<12x5x2x4xbf16>, %arg1: tensor<4xi64>) -> (tensor<2x2xi64>, tensor<4xi64>, tensor<16x5x2x4x1xi1>, tensor<1x2xbf16>, tensor<1x1xf64>, tensor<2x2xbf16>) {
    %0 = fuser.sin %arg0 : tensor<12x5x2x4xbf16>
    %1 = fuser.broadcast %0 [3, 5] : tensor<12x5x2x4xbf16> -> tensor<12x5x2x1x4x1xbf16>
    %2 = fuser.set %1 cache_op = all_levels : tensor<12x5x2x1x4x1xbf16>
    %3 = fuser.squeeze %2 [3] : tensor<12x5x2x1x4x1xbf16> -> tensor<12x5x2x4x1xbf16>
    %4 = fuser.cast %3 : tensor<12x5x2x4x1xbf16> to tensor<12x5x2x4x1xi1>
    %true = arith.constant true
    %5 = fuser.pad %4 low [2, 0, 0, 0, 0] high [2, 0, 0, 0, 0] value %true : tensor<12x5x2x4x1xi1>, i1 -> tensor<16x5x2x4x1xi1>
    %6 = fuser.broadcast %arg1 [1] : tensor<4xi64> -> tensor<4x1xi64>
    %7 = fuser.squeeze %6 [1] : tensor<4x1xi64> -> tensor<4xi64>
    %8 = fuser.view %7 : tensor<4xi64> -> tensor<2x1x2xi64>
    %9 = fuser.set %8 : tensor<2x1x2xi64>
    %10 = fuser.squeeze %9 [1] : tensor<2x1x2xi64> -> tensor<2x2xi64>
    %c100003_i64 = arith.constant 100003 : i64
    %11 = fuser.mul %10, %c100003_i64 : tensor<2x2xi64>, i64 -> tensor<2x2xi64>
    %12 = fuser.cast %11 : tensor<2x2xi64> to tensor<2x2xbf16>
    %13 = fuser.cast %12 : tensor<2x2xbf16> to tensor<2x2xi64>
    %14 = fuser.reduction add %12 [0] keepdim : tensor<2x2xbf16> -> tensor<1x2xbf16>
    %15 = fuser.segment_set %12 : tensor<2x2xbf16>
    %16 = fuser.gt %15, %15 : tensor<2x2xbf16>, tensor<2x2xbf16> -> tensor<2x2xi1>
    %17 = fuser.where %16, %15, %15 : tensor<2x2xi1>, tensor<2x2xbf16>, tensor<2x2xbf16> -> tensor<2x2xbf16>
    %18 = fuser.reduction min %17 [0] keepdim : tensor<2x2xbf16> -> tensor<1x2xbf16>
    %19 = fuser.div %17, %18 : tensor<2x2xbf16>, tensor<1x2xbf16> -> tensor<2x2xbf16>
    %20 = fuser.abs %arg1 : tensor<4xi64>
    %cst = arith.constant 9.983770e-07 : bf16
    %21 = fuser.mul %18, %cst : tensor<1x2xbf16>, bf16 -> tensor<1x2xbf16>
    %22 = fuser.cast %21 : tensor<1x2xbf16> to tensor<1x2xbf16>
    %23 = fuser.cast %22 : tensor<1x2xbf16> to tensor<1x2xf64>
    %24 = fuser.squeeze %23 [0] : tensor<1x2xf64> -> tensor<2xf64>
    %25 = fuser.broadcast %24 [1] : tensor<2xf64> -> tensor<2x1xf64>
    %26 = fuser.slice %25 starts [0, 0] limits [1, 1] strides [2, 1] : tensor<2x1xf64> -> tensor<1x1xf64>
    %cst_0 = arith.constant 3.000000e+00 : f64
    %27 = fuser.div %26, %cst_0 : tensor<1x1xf64>, f64 -> tensor<1x1xf64>
    %28 = fuser.cast %27 : tensor<1x1xf64> to tensor<1x1xbf16>
    %29 = fuser.cast %28 : tensor<1x1xbf16> to tensor<1x1xbf16>
    %30 = fuser.cast %29 : tensor<1x1xbf16> to tensor<1x1xf64>
    return %13, %20, %5, %14, %30, %19 : tensor<2x2xi64>, tensor<4xi64>, tensor<16x5x2x4x1xi1>, tensor<1x2xbf16>, tensor<1x1xf64>, tensor<2x2xbf16>
  }
}
