// Normalization kernels through the whole GPU path (one kernel each: one
// .entry, warp shuffles and a shared-memory combine per reduction, the row
// staged in shared memory, 16-byte non-coherent loads and 16-byte stores, no
// local memory).
// RUN: fuser-opt %S/../Conversion/FuserToSCF/Inputs/normalization.mlir --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --implicit-check-not=.local --implicit-check-not=ld.global.b16 --implicit-check-not=st.global.b16
// Four rows per block (a 16-multiprocessor schedule): the row of x and the
// weight each have a buffer.
// RUN: fuser-opt --fuser-preseg --fuser-segment %S/../Conversion/FuserToSCF/Inputs/normalization.mlir | fuser-opt --fuser-schedule=sm-count=16 | fuser-opt --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=ROWS
// ROWS: gpu.launch_func @rmsnorm_kernel::@{{[a-z_]+}} blocks in (%c16{{.*}}) threads in (%c128{{.*}})
// ROWS: gpu.binary @rmsnorm_kernel
// ROWS-SAME: bin = "\7FELF

// CHECK: func.func @rmsnorm(
// CHECK: gpu.launch_func @[[RMS:rmsnorm_kernel]]::@{{[a-z_]+}} blocks in (%c64{{.*}}) threads in (%c128{{.*}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary @[[RMS]]
// CHECK-SAME: .entry [[RMS]](
// CHECK-SAME: .shared .align 16 .b8 __fuser_row[2000]
// CHECK-SAME: ld.global.nc.v4.b32
// CHECK-SAME: st.shared.v4.b32
// CHECK-SAME: shfl.sync.bfly
// CHECK-SAME: bar.sync
// CHECK-SAME: ld.shared.v4.b32
// CHECK-SAME: st.global.v4.b32
// CHECK-NOT: .entry

// CHECK: func.func @softmax(
// CHECK: gpu.launch_func @[[SOFTMAX:softmax_kernel]]::
// CHECK-NOT: gpu.launch_func
// CHECK: return
// Two reductions: two rounds of shuffles.
// CHECK: gpu.binary @[[SOFTMAX]]
// CHECK-SAME: .entry [[SOFTMAX]](
// CHECK-SAME: ld.global.nc.v4.b32
// CHECK-SAME: shfl.sync.bfly
// CHECK-SAME: bar.sync
// CHECK-SAME: shfl.sync.bfly
// CHECK-SAME: st.global.v4.b32
// CHECK-NOT: .entry

// CHECK: func.func @layernorm(
// CHECK: gpu.launch_func @[[LN:layernorm_kernel]]::@{{[a-z_]+}} blocks in (%c16{{.*}}) threads in (%c512{{.*}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary @[[LN]]
// CHECK-SAME: .entry [[LN]](
// CHECK-SAME: ld.global.nc.v4.b32
// CHECK-SAME: shfl.sync.bfly
// CHECK-SAME: st.global.v4.b32
// CHECK-NOT: .entry

// CHECK: func.func @rmsnorm_bwd(
// CHECK: gpu.launch_func @[[BWD:rmsnorm_bwd_kernel]]::
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary @[[BWD]]
// CHECK-SAME: .entry [[BWD]](
// CHECK-SAME: ld.global.nc.v4.b32
// CHECK-SAME: shfl.sync.bfly
// CHECK-SAME: st.global.v4.b32
// CHECK-NOT: .entry

// The row too long for a block: three kernels.
// CHECK: func.func @softmax_long(
// CHECK-COUNT-3: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: return
