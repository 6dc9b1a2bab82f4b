// Outer normalization kernels through the whole GPU path: one kernel each
// (one .entry), the column block staged in shared memory by the first loop
// (st.shared) and read back by the later ones (ld.shared), the groups'
// partials meeting in shared memory after a barrier, non-coherent global
// loads and no local memory.
// RUN: fuser-opt %S/../Conversion/FuserToSCF/Inputs/outer-normalization.mlir --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --implicit-check-not=.local

// CHECK: func.func @colmean(
// CHECK: gpu.launch_func @[[COLMEAN:colmean_kernel]]::@{{[a-z_]+}} blocks in (%c2{{.*}}) threads in (%c256{{.*}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary @[[COLMEAN]]
// CHECK-SAME: .entry [[COLMEAN]](
// CHECK-SAME: .shared .align 4 .b8 __fuser_partials[1024]
// CHECK-SAME: .shared .align 4 .b8 __fuser_columns[4736]
// CHECK-SAME: ld.global.nc.b32
// CHECK-SAME: st.shared.b32
// CHECK-SAME: bar.sync
// CHECK-SAME: ld.shared.b32
// CHECK-SAME: st.global.b32
// CHECK-NOT: .entry

// Batch norm: the bf16 column block (255 rows x 32 columns) and two
// reductions' partials.
// CHECK: func.func @batchnorm(
// CHECK: gpu.launch_func @[[BN:batchnorm_kernel]]::@{{[a-z_]+}} blocks in (%c7{{.*}}) threads in (%c256{{.*}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary @[[BN]]
// CHECK-SAME: .entry [[BN]](
// CHECK-SAME: .b8 __fuser_columns{{[_0-9]*}}[16320]
// CHECK-SAME: ld.global.nc.b16
// CHECK-SAME: st.shared.b16
// CHECK-SAME: bar.sync
// CHECK-SAME: ld.shared.b16
// CHECK-SAME: st.global.b16
// CHECK-NOT: .entry

// CHECK: func.func @colsoftmax(
// CHECK: gpu.launch_func @[[SOFTMAX:colsoftmax_kernel]]::
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary @[[SOFTMAX]]
// CHECK-SAME: .entry [[SOFTMAX]](
// CHECK-NOT: .entry

// CHECK: func.func @middle(
// CHECK: gpu.launch_func @[[MIDDLE:middle_kernel]]::
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary @[[MIDDLE]]
// CHECK-SAME: .entry [[MIDDLE]](
// CHECK-NOT: .entry

// Over the budget: the split stays, two kernels.
// CHECK: func.func @colmean_tall(
// CHECK: gpu.launch_func
// CHECK: gpu.launch_func
// CHECK: return

// CHECK: func.func @colscale(
// CHECK: gpu.launch_func @[[SCALE:colscale_kernel]]::
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary @[[SCALE]]
// CHECK-SAME: .entry [[SCALE]](
// CHECK-SAME: __fuser_column_inputs
// CHECK-NOT: .entry
