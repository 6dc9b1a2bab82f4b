// RUN: fuser-opt %s --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s

// An inner reduction through the whole pipeline: a block per row, 16-byte
// non-coherent loads of the bf16 row, the block combine as warp shuffles
// plus a shared-memory exchange across warps, and the row's result stored.
// CHECK: gpu.binary
// CHECK-COUNT-1: .entry
// CHECK-NOT: .entry
// CHECK: ld.global.nc.v4.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync
// CHECK: st.global.b16
func.func @rows(%x: tensor<64x1000xbf16>) -> tensor<64xbf16> {
  %0 = fuser.cast %x : tensor<64x1000xbf16> to tensor<64x1000xf32>
  %1 = fuser.reduction max %0 [1] : tensor<64x1000xf32> -> tensor<64xf32>
  %2 = fuser.cast %1 : tensor<64xf32> to tensor<64xbf16>
  return %2 : tensor<64xbf16>
}
