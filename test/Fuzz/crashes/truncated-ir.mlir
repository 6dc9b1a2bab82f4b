func.func @truncated(%arg0: tensor<1x32x4096x128xbf16>) -> tensor<1x4096x1024xbf16> {
  %0 = fuser.view %arg0 : tensor<1x32x4096x128xbf16> -> tensor<1x8x4x40
