// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(fuser-gpu-prepare-kernels))' --verify-diagnostics | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(fuser-gpu-prepare-kernels,expand-strided-metadata,convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},reconcile-unrealized-casts),gpu-module-to-binary{format=isa toolkit=/usr/local/cuda})' --verify-diagnostics | FileCheck %s --check-prefix=PTX

// Only-read memrefs (also through a view) get noalias + readonly, written
// ones nothing; a block reduction in the entry block becomes uniform; a
// float subgroup reduction becomes shuffles.
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME: %{{.*}}: memref<64xf32> {llvm.noalias, llvm.readonly}
// CHECK-SAME: %{{.*}}: memref<8x8xf32> {llvm.noalias, llvm.readonly}
// CHECK-SAME: %{{.*}}: memref<64xf32>) kernel
// CHECK: gpu.all_reduce add %{{.*}} uniform
// CHECK-NOT: gpu.subgroup_reduce
// CHECK: gpu.shuffle xor
// PTX: .entry k(
// PTX: ld.global.nc.b32
// PTX: shfl.sync.bfly.b32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<64xf32>, %b: memref<8x8xf32>, %out: memref<64xf32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%t] : memref<64xf32>
      %flat = memref.collapse_shape %b [[0, 1]] : memref<8x8xf32> into memref<64xf32>
      %y = memref.load %flat[%t] : memref<64xf32>
      %s = gpu.all_reduce add %x {} : (f32) -> f32
      %w = gpu.subgroup_reduce add %y : (f32) -> f32
      %z = arith.addf %s, %w : f32
      memref.store %z, %out[%t] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @divergent(%a: memref<64xf32>, %out: memref<64xf32>) kernel {
      %t = gpu.thread_id x
      %c32 = arith.constant 32 : index
      %lt = arith.cmpi ult, %t, %c32 : index
      scf.if %lt {
        %x = memref.load %a[%t] : memref<64xf32>
        // expected-error @below {{a block-wide reduction under thread-dependent control flow}}
        %s = gpu.all_reduce add %x {} : (f32) -> f32
        memref.store %s, %out[%t] : memref<64xf32>
      }
      gpu.return
    }
  }
}
