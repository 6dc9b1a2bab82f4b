// A host compiler's module: a fusion next to functions of other dialects
// (test/Plugin/mixed-module.mlir).
func.func @host_matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // Redundant and dead on purpose: a canonicalizing or CSE-ing pipeline
  // would change them.
  %c0 = arith.constant 0 : index
  %c0_dup = arith.constant 0 : index
  %dead = arith.addi %c0, %c0_dup : index
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

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

func.func @host_loop(%m: memref<16xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c1_dup = arith.constant 1 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %y = arith.addf %x, %x : f32
    memref.store %y, %m[%i] : memref<16xf32>
  }
  return
}

func.func private @host_external(tensor<4xf32>) -> tensor<4xf32>
