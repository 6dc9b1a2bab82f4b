// The Mistral RoPE backward chain spelled the way Thunder spells it: `sum`
// over the extent-1 dims where nvFuser's printed fusion (and
// examples/mistral_rope_bwd.mlir) has `squeeze`. A reduction over extent-1
// dims only is a squeeze (bit for bit: add starts from -0.0), so preseg
// gives exactly the IR of the squeeze spelling, and one kernel.
// RUN: fuser-opt --fuser-preseg %s -o %t.sum.mlir
// RUN: fuser-opt --fuser-preseg %fuser_src_root/examples/mistral_rope_bwd.mlir -o %t.squeeze.mlir
// RUN: diff %t.sum.mlir %t.squeeze.mlir
// RUN: fuser-opt --canonicalize %s | fuser-opt --fuser-preseg -o %t.canon.mlir
// RUN: diff %t.canon.mlir %t.squeeze.mlir
// RUN: FileCheck %s --input-file %t.sum.mlir
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fuser-run %s --check-against interp --against-file %t.squeeze.mlir | FileCheck %s --check-prefix=EXEC

// Two casts and one reduction are left (no squeeze, broadcast or set).
// CHECK-LABEL: func.func @mistral_rope_bwd(
// CHECK-COUNT-2: fuser.cast
// CHECK-NOT: fuser.cast
// CHECK-NOT: fuser.squeeze
// CHECK-NOT: fuser.set
// CHECK-NOT: fuser.broadcast
// CHECK: return

// REPORT: fusion @mistral_rope_bwd: 1 kernel, 1 segment, reads 33554432 bytes (32 MiB), writes 8388608 bytes (8 MiB)
// REPORT-NEXT: segment #0 reduction:

// EXEC: result 0: tensor<1x4096x1024xbf16> fnv1a64=0x741d24b99dd5ba0e
// EXEC-NEXT: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok

func.func @mistral_rope_bwd(%T3: tensor<1x32x4096x128xbf16>) -> tensor<1x4096x1024xbf16> {
  %T38 = fuser.view %T3 : tensor<1x32x4096x128xbf16> -> tensor<1x8x4x4096x128xbf16>
  %T42 = fuser.cast %T38 : tensor<1x8x4x4096x128xbf16> to tensor<1x8x4x4096x128xf32>
  %T46 = fuser.reduction add %T42 [0] : tensor<1x8x4x4096x128xf32> -> tensor<8x4x4096x128xf32>
  %T47 = fuser.reduction add %T46 [1] : tensor<8x4x4096x128xf32> -> tensor<8x4096x128xf32>
  %T54 = fuser.cast %T47 : tensor<8x4096x128xf32> to tensor<8x4096x128xbf16>
  %T63 = fuser.broadcast %T54 [0, 2] : tensor<8x4096x128xbf16> -> tensor<1x8x1x4096x128xbf16>
  %T64 = fuser.set %T63 cache_op = streaming : tensor<1x8x1x4096x128xbf16>
  %T71 = fuser.cast %T64 : tensor<1x8x1x4096x128xbf16> to tensor<1x8x1x4096x128xf32>
  %T76 = fuser.reduction add %T71 [0, 2] : tensor<1x8x1x4096x128xf32> -> tensor<8x4096x128xf32>
  %T79 = fuser.cast %T76 : tensor<8x4096x128xf32> to tensor<8x4096x128xbf16>
  %T82 = fuser.broadcast %T79 [0] : tensor<8x4096x128xbf16> -> tensor<1x8x4096x128xbf16>
  %T83 = fuser.set %T82 cache_op = streaming : tensor<1x8x4096x128xbf16>
  %T86 = fuser.permute %T83 [0, 2, 1, 3] : tensor<1x8x4096x128xbf16> -> tensor<1x4096x8x128xbf16>
  %T89 = fuser.view %T86 : tensor<1x4096x8x128xbf16> -> tensor<1x4096x1024xbf16>
  return %T89 : tensor<1x4096x1024xbf16>
}
