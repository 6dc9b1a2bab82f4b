// The Mistral RoPE backward chain (examples/mistral_rope_bwd.mlir) after
// fuser-preseg, at a small size: 8 heads in 2 groups of 4, 32 positions.
func.func @mistral_rope_bwd(%x: tensor<1x8x32x128xbf16>) -> tensor<1x32x256xbf16> {
  %v = fuser.view %x : tensor<1x8x32x128xbf16> -> tensor<1x2x4x32x128xbf16>
  %c = fuser.cast %v : tensor<1x2x4x32x128xbf16> to tensor<1x2x4x32x128xf32>
  %s = fuser.reduction add %c [2] : tensor<1x2x4x32x128xf32> -> tensor<1x2x32x128xf32>
  %b = fuser.cast %s : tensor<1x2x32x128xf32> to tensor<1x2x32x128xbf16>
  %p = fuser.permute %b [0, 2, 1, 3] : tensor<1x2x32x128xbf16> -> tensor<1x32x2x128xbf16>
  %r = fuser.view %p : tensor<1x32x2x128xbf16> -> tensor<1x32x256xbf16>
  return %r : tensor<1x32x256xbf16>
}
