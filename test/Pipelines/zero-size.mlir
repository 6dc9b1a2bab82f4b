// Tensors with a zero extent through the GPU path (--fuser-lower-to-nvvm,
// docs/Lowering.md "Tensors without elements"): a kernel without output
// elements is no launch, and no kernel takes a memref with a zero extent
// (under the identity layout its strides are dynamic, which the kernels'
// bare-pointer convention refuses). Reductions over empty axes store their
// identity: -0.0 (0x80000000, bf16 pairs 0x80008000), -inf (0xff800000),
// INT_MAX.
// RUN: fuser-opt %S/../ExecutionEngine/Inputs/zero-size.mlir --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s
// RUN: fuser-opt %S/../ExecutionEngine/Inputs/zero-size-segmented.mlir --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --check-prefix=NORM
// ptxas accepts the kernels (format=bin).
// RUN: fuser-opt %S/../ExecutionEngine/Inputs/zero-size.mlir --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN
// RUN: fuser-opt %S/../ExecutionEngine/Inputs/zero-size-segmented.mlir --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN
// BIN: gpu.binary
// BIN-SAME: bin = "\7FELF

// CHECK-LABEL: func.func @pointwise(
// CHECK-NEXT: return
// CHECK-LABEL: func.func @outer_empty_outputs(
// CHECK-NEXT: return
// CHECK-LABEL: func.func @inner_split_no_outputs(
// CHECK-NEXT: return
// CHECK-LABEL: func.func @outer_split_no_outputs(
// CHECK-NEXT: return
// The empty output %arg3 and the empty inputs are no kernel arguments.
// CHECK-LABEL: func.func @inner_empty_axis(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<5x0xf32>, %[[I:[a-z0-9]+]]: memref<3x0xi32>, %[[SUM:[a-z0-9]+]]: memref<5xf32>, %[[NEG:[a-z0-9]+]]: memref<5x0xf32>, %[[MAX:[a-z0-9]+]]: memref<5x1xf32>, %[[MIN:[a-z0-9]+]]: memref<3xi32>)
// CHECK: gpu.launch_func @inner_empty_axis_kernel::@inner_empty_axis_kernel blocks in (%c1{{.*}}) threads in (%c256{{.*}}) args(%[[SUM]] : memref<5xf32>, %[[MAX]] : memref<5x1xf32>)
// CHECK-NEXT: gpu.launch_func @inner_empty_axis_kernel_0::@inner_empty_axis_kernel blocks in (%c1{{.*}}) threads in (%c256{{.*}}) args(%[[MIN]] : memref<3xi32>)
// CHECK-NEXT: return
// CHECK: gpu.binary @inner_empty_axis_kernel
// CHECK-SAME: st.global.b32 \09[%rd{{[0-9]+}}], -2147483648;
// CHECK-SAME: st.global.b32 \09[%rd{{[0-9]+}}], -8388608;
// CHECK: gpu.binary @inner_empty_axis_kernel_0
// CHECK-SAME: st.global.b32 \09[%rd{{[0-9]+}}], 2147483647;
// CHECK-LABEL: func.func @outer_empty_axis(
// CHECK: gpu.launch_func @outer_empty_axis_kernel::@outer_empty_axis_kernel {{.*}} args(%{{.*}} : memref<40xbf16>)
// CHECK: gpu.binary @outer_empty_axis_kernel
// CHECK-SAME: st.global.v4.b32 \09[%rd{{[0-9]+}}], {-2147450880, -2147450880, -2147450880, -2147450880};
// CHECK-LABEL: func.func @rmsnorm_no_rows(
// CHECK-NEXT: return
// CHECK-LABEL: func.func @rmsnorm_empty_rows(
// CHECK: gpu.launch_func {{.*}} args(%{{.*}} : memref<8x1xf32>)
// CHECK-NEXT: return
// CHECK-LABEL: func.func @softmax_empty_rows(
// CHECK-NEXT: return
// CHECK-LABEL: func.func @batchnorm_no_rows(
// CHECK: gpu.launch_func {{.*}} args(%{{.*}} : memref<40xf32>, %{{.*}} : memref<1x40xf32>)
// CHECK-NEXT: return
// CHECK-LABEL: func.func @colmean_no_columns(
// CHECK-NEXT: return
// Empty copies, a transpose and strided views included, copy nothing.
// CHECK-LABEL: func.func @transpose(
// CHECK-NEXT: return
// CHECK-LABEL: func.func @alias(
// CHECK-NEXT: return
// The cat reads %b only; the empty outputs are not written.
// CHECK-LABEL: func.func @cat_pad_slice(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<4x0xf32>, %[[B:[a-z0-9]+]]: memref<4x3xf32>, %[[CAT:[a-z0-9]+]]: memref<4x6xf32>, %[[PAD:[a-z0-9]+]]: memref<4x3xf32>,
// CHECK: gpu.launch_func {{.*}} args(%[[B]] : memref<4x3xf32>, %[[CAT]] : memref<4x6xf32>, %[[PAD]] : memref<4x3xf32>)
// CHECK-NEXT: return

// The normalization segments: launches only where a reduced row is written
// (a block per row, the inner schedule's; a block per tile of columns).
// NORM-LABEL: func.func @rmsnorm_no_rows(
// NORM-NEXT: return
// NORM-LABEL: func.func @rmsnorm_empty_rows(
// NORM: gpu.launch_func {{.*}} blocks in (%c8{{.*}}) threads in (%c32{{.*}}) args(%{{.*}} : memref<8x1xf32>)
// NORM-NEXT: return
// NORM-LABEL: func.func @softmax_empty_rows(
// NORM: gpu.launch_func {{.*}} blocks in (%c4{{.*}}) threads in (%c32{{.*}}) args(%{{.*}} : memref<4x1xf32>)
// NORM-NEXT: return
// NORM-LABEL: func.func @batchnorm_no_rows(
// NORM: gpu.launch_func {{.*}} blocks in (%c2{{.*}}) threads in (%c32{{.*}}) args(%{{.*}} : memref<40xf32>, %{{.*}} : memref<40xf32>, %{{.*}} : memref<1x40xf32>)
// NORM-NEXT: return
// NORM-LABEL: func.func @colmean_no_columns(
// NORM-NEXT: return
// The empty intermediate is allocated (1 byte in the CUDA launch plan) but
// no kernel takes it; the split kernels take their non-empty operands only.
// NORM-LABEL: func.func @intermediate(
// NORM: gpu.alloc () : memref<5x0xf32>
// NORM-NOT: gpu.launch_func
// NORM: gpu.launch_func {{.*}} blocks in (%c1{{.*}}) threads in (%c256{{.*}}) args(%{{.*}} : memref<5xf32>)
// NORM-NOT: gpu.launch_func
// NORM: return
// NORM-LABEL: func.func @split_beside(
// NORM: gpu.launch_func {{.*}} blocks in (%c4{{.*}}) threads in (%c32{{.*}}) args(%{{.*}} : memref<4x64xf32>, %{{.*}} : memref<4xf32>)
// NORM-NEXT: return
// NORM-LABEL: func.func @tiled_beside(
// NORM: gpu.launch_func {{.*}} blocks in (%c1{{.*}}) threads in (%c256{{.*}}) args(%{{.*}} : memref<64x8xf32>, %{{.*}} : memref<8xf32>)
// NORM-NEXT: return

// A hand-written host function: fuser-gpu-host-memory drops copies of no
// elements (a strided view's too, which would be a copy kernel of no
// blocks); a copy with elements stays (negative case).
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-gpu-host-memory)' | FileCheck %s --check-prefix=HOST
// HOST-LABEL: func.func @empty_grid(
// HOST-NOT: memref.copy
// HOST-NOT: gpu.memcpy
// HOST: gpu.memcpy %{{.*}}, %{{.*}} : memref<64xf32>, memref<64xf32>
// HOST-NOT: memref.copy
// HOST-NOT: scf.parallel
// HOST: return
// A launch of 0 blocks (the empty grid of the nest below) is no step of the
// CUDA launch plan: cuLaunchKernel refuses a zero grid.
// RUN: rm -rf %t && mkdir -p %t
// RUN: fuser-opt %s --fuser-kernel-loops-to-nvvm="format=bin" -o %t/lowered.mlir
// RUN: FileCheck %s --check-prefix=LAUNCH < %t/lowered.mlir
// LAUNCH: gpu.launch_func @empty_grid_kernel::@empty_grid_kernel blocks in (%c0, %c1, %c1)
// RUN: fuser-translate --fuser-export-launch --fuser-export-dir=%t %t/lowered.mlir -o %t/launch.json
// RUN: FileCheck %s --check-prefix=PLAN < %t/launch.json
// PLAN: {"index": 1, "kind": "input", "argument": 1, "dtype": "f32", "shape": [3, 0], "bytes": 0},
// PLAN: "steps": [
// PLAN-NEXT: {"op": "memcpy", "dst": 3, "dst_offset": 0, "src": 0, "src_offset": 0, "bytes": 256}
// PLAN-NEXT: ]
#blk = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#thr = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @empty_grid(%a: memref<64xf32>, %s: memref<3x0xf32>, %out0: memref<64xf32>, %out1: memref<64xf32>, %out2: memref<0x3xf32>, %out3: memref<3x0xf32>) attributes {fuser.outputs = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%b, %i) = (%c0, %c0) to (%c0, %c32) step (%c1, %c1) {
    %x = memref.load %a[%i] : memref<64xf32>
    memref.store %x, %out0[%i] : memref<64xf32>
    scf.reduce
  } {mapping = [#blk, #thr]}
  %v = memref.reinterpret_cast %s to offset: [0], sizes: [0, 3], strides: [1, 1] : memref<3x0xf32> to memref<0x3xf32, strided<[1, 1]>>
  memref.copy %v, %out2 : memref<0x3xf32, strided<[1, 1]>> to memref<0x3xf32>
  memref.copy %a, %out1 : memref<64xf32> to memref<64xf32>
  memref.copy %s, %out3 : memref<3x0xf32> to memref<3x0xf32>
  return
}
