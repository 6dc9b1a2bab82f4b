// Copies of permuted views whose output's innermost axis is not the input's
// become a tiled transpose (lib/Conversion/FuserToGPU/CopyKernel.cpp): a
// 32x33 tile in shared memory per block, the loads along the input's
// contiguous axis, a barrier, the stores along the output's innermost axis.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s
// The kernel loops before the GPU half: two thread loops in the block loop,
// the second opened by the barrier; tails guarded where 32 does not divide.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf | fuser-opt --pass-pipeline='builtin.module(fuser-gpu-host-memory)' | FileCheck %s --check-prefix=LOOPS

// CHECK: gpu.launch_func @[[K:transpose_kernel]]::@{{[a-z_]+}} blocks in (%c64{{.*}}) threads in (%c256{{.*}})
// CHECK: gpu.binary @[[K]]
// CHECK-SAME: .entry [[K]](
// CHECK-SAME: .shared .align 2 .b8 __fuser_tile[2112]
// CHECK-SAME: ld.global.nc.b16
// CHECK-SAME: st.shared.b16
// CHECK-SAME: bar.sync
// CHECK-SAME: ld.shared.b16
// CHECK-SAME: st.global.b16
func.func @transpose(%x: tensor<2x128x256xbf16>) -> tensor<2x256x128xbf16> {
  %0 = fuser.permute %x [0, 2, 1] : tensor<2x128x256xbf16> -> tensor<2x256x128xbf16>
  return %0 : tensor<2x256x128xbf16>
}

// LOOPS-LABEL: func.func @odd(
// LOOPS: memref.reinterpret_cast
// LOOPS: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c12) step
// LOOPS:   memref.get_global @__fuser_tile{{.*}} : memref<32x33xbf16, #gpu.address_space<workgroup>>
// LOOPS:   scf.parallel
// LOOPS-NOT: gpu.barrier
// LOOPS:     scf.for
// LOOPS:       scf.if
// LOOPS:         memref.load
// LOOPS:         memref.store
// LOOPS:   processor = thread_x
// LOOPS:   scf.parallel
// LOOPS-NEXT: gpu.barrier
// LOOPS:     scf.for
// LOOPS:       scf.if
// LOOPS:         memref.load
// LOOPS:         memref.store
// LOOPS:   processor = thread_x
// LOOPS: processor = block_x
func.func @odd(%x: tensor<3x50x40xbf16>) -> tensor<3x40x50xbf16> {
  %0 = fuser.permute %x [0, 2, 1] : tensor<3x50x40xbf16> -> tensor<3x40x50xbf16>
  return %0 : tensor<3x40x50xbf16>
}

// Must not tile: the output's innermost axis is the input's (a slice-like
// strided view); one element per thread as before.
// LOOPS-LABEL: func.func @same_inner(
// LOOPS-NOT: __fuser_tile
// LOOPS: return
func.func @same_inner(%x: tensor<4x64x32xbf16>) -> tensor<64x4x32xbf16> {
  %0 = fuser.permute %x [1, 0, 2] : tensor<4x64x32xbf16> -> tensor<64x4x32xbf16>
  return %0 : tensor<64x4x32xbf16>
}
