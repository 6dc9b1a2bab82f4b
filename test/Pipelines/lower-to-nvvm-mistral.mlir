// The whole path on the example: preseg, segment, then --fuser-lower-to-nvvm
// (schedule, convert-fuser-to-scf, GPU half). One kernel: 16-byte
// non-coherent loads, 16-byte stores, no shared memory, no barriers.
// RUN: fuser-opt %fuser_src_root/examples/mistral_rope_bwd.mlir --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --implicit-check-not=.entry --implicit-check-not=.shared --implicit-check-not=bar.sync --implicit-check-not=ld.global.b16 --implicit-check-not=st.global.b16
// RUN: fuser-opt %fuser_src_root/examples/mistral_rope_bwd.mlir --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// CHECK: func.func @mistral_rope_bwd(%{{.*}}: memref<1x32x4096x128xbf16>, %{{.*}}: memref<1x4096x1024xbf16>)
// CHECK: gpu.launch_func @[[K:[a-z_]+]]::@{{[a-z_]+}} blocks in
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary @[[K]] [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">
// CHECK-SAME: .target sm_90
// CHECK-SAME: .entry
// CHECK-SAME: ld.global.nc.v4.b32
// CHECK-SAME: st.global.v4.b32

// BIN: gpu.binary @{{.*}} [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, properties = {{.*}}, bin = "\7FELF
