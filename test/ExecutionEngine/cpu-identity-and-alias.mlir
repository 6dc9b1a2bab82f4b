// Every backend runs what the interpreter runs. Fusions whose ops all fold
// away (or that return their inputs) are still fusions: their host function
// copies the inputs into the outputs. An alias of a strided view (an
// expand of a broadcast, each its own alias segment) is a view composed of
// both: no copy kernel, no refusal.
// RUN: fuser-run %s --entry ident --backend cpu --check-against interp | FileCheck %s --check-prefix=IDENT
// RUN: fuser-run %s --entry permute_twice --backend cpu --check-against interp | FileCheck %s --check-prefix=PERM
// RUN: fuser-run %s --entry alias_expand --backend cpu --check-against interp | FileCheck %s --check-prefix=ALIAS
// RUN: fuser-run %s --entry alias_merged --backend cpu --check-against interp | FileCheck %s --check-prefix=MERGED
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf | FileCheck %s --check-prefix=SCF
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90" | FileCheck %s --check-prefix=NVVM

// IDENT: result 0: tensor<8x16xf32>
// IDENT-NEXT: check 0: {{.*}} ok
// IDENT-NEXT: result 1: tensor<4xi32>
// IDENT-NEXT: check 1: {{.*}} ok
// SCF-LABEL: func.func @ident(
// SCF-SAME: %{{.*}}: memref<8x16xf32>, %{{.*}}: memref<4xi32>, %[[O0:.*]]: memref<8x16xf32>, %[[O1:.*]]: memref<4xi32>)
// SCF-NEXT: memref.copy %{{.*}}, %[[O0]]
// SCF-NEXT: memref.copy %{{.*}}, %[[O1]]
// SCF-NEXT: return
// NVVM-LABEL: func.func @ident(
// NVVM-COUNT-2: gpu.memcpy
// NVVM-NOT: gpu.launch_func
// NVVM: return
func.func @ident(%a: tensor<8x16xf32>, %b: tensor<4xi32>) -> (tensor<8x16xf32>, tensor<4xi32>) {
  return %a, %b : tensor<8x16xf32>, tensor<4xi32>
}

// permute(permute(x)) -> x folds; what is left is returning the input.
// PERM: result 0: tensor<8x16xbf16>
// PERM-NEXT: check 0: {{.*}} ok
// SCF-LABEL: func.func @permute_twice(
// SCF-NEXT: memref.copy
// SCF-NEXT: return
func.func @permute_twice(%a: tensor<8x16xbf16>) -> tensor<8x16xbf16> {
  %0 = fuser.permute %a [1, 0] : tensor<8x16xbf16> -> tensor<16x8xbf16>
  %1 = fuser.permute %0 [1, 0] : tensor<16x8xbf16> -> tensor<8x16xbf16>
  return %1 : tensor<8x16xbf16>
}

// From fuser-gen seed 200747, minimized: the expand's alias segment views
// the broadcast's alias view of the reduction's result.
// ALIAS: check 0: {{.*}} ok
// ALIAS: check 1: {{.*}} ok
// ALIAS: check 2: {{.*}} ok
// SCF-LABEL: func.func @alias_expand(
// SCF: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [1, 1], strides: [0, 0]
// SCF: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2, 2], strides: [0, 0]
// NVVM-LABEL: func.func @alias_expand(
// NVVM-COUNT-4: gpu.launch_func
// NVVM-NOT: gpu.launch_func
func.func @alias_expand(%a: tensor<2x8xf32>) -> (tensor<2x2xf16>, tensor<1x1xf16>, tensor<4x2xf32>) {
  %c = arith.constant 3.25 : f32
  %0 = fuser.reduction add %a [0, 1] : tensor<2x8xf32> -> tensor<f32>
  %1 = fuser.cast %0 : tensor<f32> to tensor<f16>
  %2 = fuser.broadcast %1 [0, 1] : tensor<f16> -> tensor<1x1xf16>
  %3 = fuser.cast %1 : tensor<f16> to tensor<f32>
  %4 = fuser.broadcast %3 [0, 1] : tensor<f32> -> tensor<1x1xf32>
  %5 = fuser.expand %2 : tensor<1x1xf16> -> tensor<2x2xf16>
  %6 = fuser.pad %4 low [1, 0] high [2, 1] value %c : tensor<1x1xf32>, f32 -> tensor<4x2xf32>
  return %5, %2, %6 : tensor<2x2xf16>, tensor<1x1xf16>, tensor<4x2xf32>
}

// Two alias segments whose views compose to no strided view (a view merging
// the dims a permute swapped): the permuted view is copied into a
// contiguous buffer, which the second view then reads.
// MERGED: result 0: tensor<24xf32>
// MERGED-NEXT: check 0: {{.*}} ok
// SCF-LABEL: func.func @alias_merged(
// SCF-SAME: %[[A:.*]]: memref<4x6xf32>, %[[OUT:.*]]: memref<24xf32>)
// SCF: %[[P:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [6, 4], strides: [1, 6]
// SCF: %[[C:.*]] = memref.alloc() {alignment = 16 : i64} : memref<6x4xf32>
// SCF: memref.copy %[[P]], %[[C]]
// SCF: %[[V:.*]] = memref.reinterpret_cast %[[C]] to offset: [0], sizes: [24], strides: [1]
// SCF: memref.copy %[[V]], %[[OUT]]
// SCF: memref.dealloc %[[C]]
// NVVM-LABEL: func.func @alias_merged(
// NVVM: gpu.launch_func
// NVVM-NOT: gpu.launch_func
// NVVM: gpu.memcpy
func.func @alias_merged(%a: tensor<4x6xf32>) -> tensor<24xf32> {
  %0 = fuser.segment alias(%a) : (tensor<4x6xf32>) -> tensor<6x4xf32> {
  ^bb0(%x: tensor<4x6xf32>):
    %p = fuser.permute %x [1, 0] : tensor<4x6xf32> -> tensor<6x4xf32>
    fuser.yield %p : tensor<6x4xf32>
  }
  %1 = fuser.segment alias(%0) : (tensor<6x4xf32>) -> tensor<24xf32> {
  ^bb0(%y: tensor<6x4xf32>):
    %v = fuser.view %y : tensor<6x4xf32> -> tensor<24xf32>
    fuser.yield %v : tensor<24xf32>
  }
  return %1 : tensor<24xf32>
}
