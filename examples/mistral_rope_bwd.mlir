// The Mistral RoPE backward chain from nvFuser's report (shared/seed/
// mistral_rope_bwd.fusion-math.txt), op for op. nvFuser segments it into a
// reduction kernel and a pointwise kernel; `fuser-opt --fuser-preseg` reduces
// it to view -> cast -> sum -> cast -> permute -> view.
func.func @mistral_rope_bwd(%T3: tensor<1x32x4096x128xbf16>) -> tensor<1x4096x1024xbf16> {
  %T38 = fuser.view %T3 : tensor<1x32x4096x128xbf16> -> tensor<1x8x4x4096x128xbf16>
  %T42 = fuser.cast %T38 : tensor<1x8x4x4096x128xbf16> to tensor<1x8x4x4096x128xf32>
  %T46 = fuser.squeeze %T42 [0] : tensor<1x8x4x4096x128xf32> -> tensor<8x4x4096x128xf32>
  %T47 = fuser.reduction add %T46 [1] : tensor<8x4x4096x128xf32> -> tensor<8x4096x128xf32>
  %T54 = fuser.cast %T47 : tensor<8x4096x128xf32> to tensor<8x4096x128xbf16>
  %T63 = fuser.broadcast %T54 [0, 2] : tensor<8x4096x128xbf16> -> tensor<1x8x1x4096x128xbf16>
  %T64 = fuser.set %T63 cache_op = streaming : tensor<1x8x1x4096x128xbf16>
  %T71 = fuser.cast %T64 : tensor<1x8x1x4096x128xbf16> to tensor<1x8x1x4096x128xf32>
  %T76 = fuser.squeeze %T71 [0, 2] : tensor<1x8x1x4096x128xf32> -> tensor<8x4096x128xf32>
  %T79 = fuser.cast %T76 : tensor<8x4096x128xf32> to tensor<8x4096x128xbf16>
  %T82 = fuser.broadcast %T79 [0] : tensor<8x4096x128xbf16> -> tensor<1x8x4096x128xbf16>
  %T83 = fuser.set %T82 cache_op = streaming : tensor<1x8x4096x128xbf16>
  %T86 = fuser.permute %T83 [0, 2, 1, 3] : tensor<1x8x4096x128xbf16> -> tensor<1x4096x8x128xbf16>
  %T89 = fuser.view %T86 : tensor<1x4096x8x128xbf16> -> tensor<1x4096x1024xbf16>
  return %T89 : tensor<1x4096x1024xbf16>
}
