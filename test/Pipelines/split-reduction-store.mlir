// A block-per-output reduction stores the block's value from thread 0 only:
// the emitter puts the store in a thread loop of its own under
// `thread == 0` (code at block level would run, and store, in every
// thread). In the PTX: after the all-reduce's last barrier, a branch on
// %tid.x != 0 around the one global store.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s
// CHECK: gpu.launch_func @[[K:row_sums_kernel]]::@{{[a-z_]+}} blocks in (%c8{{.*}}) threads in (%c256{{.*}})
// CHECK: gpu.binary @[[K]]
// CHECK-SAME: mov.u32 \09[[TID:%r[0-9]+]], %tid.x;
// CHECK-SAME: bar.sync
// CHECK-SAME: setp.ne.b32 \09[[P:%p[0-9]+]], [[TID]], 0;
// CHECK-SAME: @[[P]] bra
// CHECK-SAME: st.global.b32
// CHECK-NOT: st.global
// CHECK-SAME: ret;
func.func @row_sums(%x: tensor<8x1024xf32>) -> tensor<8xf32> {
  %0 = fuser.reduction add %x [1] : tensor<8x1024xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
