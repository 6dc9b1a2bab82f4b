// An outer reduction over few outputs is a tiled split (docs/Lowering.md,
// "Tiled split"): a block of 256 threads covers 32 consecutive outputs
// (a warp's global loads are 32 adjacent bf16 of the innermost axis) in 8
// thread groups, each folding every 8th reduced row; the partials go to
// shared memory, and after one barrier a second thread loop combines them
// and stores each output once. In the PTX: the global loads and shared
// stores, then bar.sync, then the shared loads (8 partials, unrolled) and
// the one global store.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s
// CHECK: gpu.launch_func @[[K:middle_sums_kernel]]::@{{[a-z_]+}} blocks in (%c12{{.*}}) threads in (%c256{{.*}})
// CHECK: gpu.binary @[[K]]
// CHECK-SAME: .shared .align {{[0-9]+}} .b8 __fuser_partials[1024];
// CHECK-SAME: %tid.x;
// CHECK-SAME: ld.global.nc.b16
// CHECK-SAME: st.shared.b32
// CHECK-NOT: ld.global
// CHECK-SAME: bar.sync
// CHECK-COUNT-8: ld.shared.b32
// CHECK-NOT: bar.sync
// CHECK-SAME: st.global.b16
// CHECK-NOT: st.global
// CHECK-SAME: ret;
func.func @middle_sums(%x: tensor<4x256x96xbf16>) -> tensor<4x96xbf16> {
  %0 = fuser.cast %x : tensor<4x256x96xbf16> to tensor<4x256x96xf32>
  %1 = fuser.reduction add %0 [1] : tensor<4x256x96xf32> -> tensor<4x96xf32>
  %2 = fuser.cast %1 : tensor<4x96xf32> to tensor<4x96xbf16>
  return %2 : tensor<4x96xbf16>
}

// An outer reduction with enough outputs for a thread each stays one
// (split = 1): no shared memory, no barrier (must not tile).
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule | FileCheck %s --check-prefix=SCHED
// SCHED-LABEL: func.func @middle_sums
// SCHED: #fuser.schedule<outer_reduction, vector = 1, threads = 256, split = 8, blocks = 12>
// SCHED-LABEL: func.func @many_outputs
// SCHED: #fuser.schedule<outer_reduction, vector = 8, threads = 256, split = 1,
func.func @many_outputs(%x: tensor<64x64x8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = fuser.cast %x : tensor<64x64x8192xbf16> to tensor<64x64x8192xf32>
  %1 = fuser.reduction add %0 [1] : tensor<64x64x8192xf32> -> tensor<64x8192xf32>
  %2 = fuser.cast %1 : tensor<64x8192xf32> to tensor<64x8192xbf16>
  return %2 : tensor<64x8192xbf16>
}
