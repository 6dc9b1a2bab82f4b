// shfl.sync under the SIMT emulator follows the PTX ISA rule: the source
// lane of up, down, bfly and idx, the clamp and segment mask packed in `c`
// (what CUDA's __shfl_*_sync(mask, v, b, width) pass), and the predicate of
// the `p` form, false where the source is out of range and the lane keeps
// its own value. Lane l holds 10 * l.
//
// RUN: fuser-opt %s --gpu-module-to-binary=format=llvm | fuser-run - --backend simt --print-values 2>&1 | FileCheck %s
// up 1, width 32 (c = 0): lane 0 keeps its value.
// CHECK: result 0: tensor<5x32xi32>
// CHECK-NEXT: {{\[\[}}0, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 210, 220, 230, 240, 250, 260, 270, 280, 290, 300],
// down 1, width 32 (c = 0x1f): lane 31 keeps its value.
// CHECK-SAME: [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 210, 220, 230, 240, 250, 260, 270, 280, 290, 300, 310, 310],
// idx 2, width 8 (c = 0x181f): lane 2 of each group of 8.
// CHECK-SAME: [20, 20, 20, 20, 20, 20, 20, 20, 100, 100, 100, 100, 100, 100, 100, 100, 180, 180, 180, 180, 180, 180, 180, 180, 260, 260, 260, 260, 260, 260, 260, 260],
// bfly 16 (c = 0x1f).
// CHECK-SAME: [160, 170, 180, 190, 200, 210, 220, 230, 240, 250, 260, 270, 280, 290, 300, 310, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150],
// the predicate of up 1.
// CHECK-SAME: [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]
// CHECK: simt: 1 launches, 1 blocks, 32 threads, 160 checked accesses, 0 barriers, 128 shuffles, 0 errors

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    llvm.func @shuffles(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %lane = nvvm.read.ptx.sreg.tid.x : i32
      %all = llvm.mlir.constant(-1 : i32) : i32
      %ten = llvm.mlir.constant(10 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %two = llvm.mlir.constant(2 : i32) : i32
      %sixteen = llvm.mlir.constant(16 : i32) : i32
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c31 = llvm.mlir.constant(31 : i32) : i32
      %width8 = llvm.mlir.constant(6175 : i32) : i32
      %row = llvm.mlir.constant(32 : i32) : i32
      %v = llvm.mul %lane, %ten : i32
      %up = nvvm.shfl.sync up %all, %v, %one, %c0 {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
      %upValue = llvm.extractvalue %up[0] : !llvm.struct<(i32, i1)>
      %upValid = llvm.extractvalue %up[1] : !llvm.struct<(i32, i1)>
      %down = nvvm.shfl.sync down %all, %v, %one, %c31 : i32 -> i32
      %idx = nvvm.shfl.sync idx %all, %v, %two, %width8 : i32 -> i32
      %bfly = nvvm.shfl.sync bfly %all, %v, %sixteen, %c31 : i32 -> i32
      %valid = llvm.zext %upValid : i1 to i32
      %p0 = llvm.getelementptr %out[%lane] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %upValue, %p0 : i32, !llvm.ptr
      %p1 = llvm.getelementptr %p0[%row] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %down, %p1 : i32, !llvm.ptr
      %p2 = llvm.getelementptr %p1[%row] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %idx, %p2 : i32, !llvm.ptr
      %p3 = llvm.getelementptr %p2[%row] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %bfly, %p3 : i32, !llvm.ptr
      %p4 = llvm.getelementptr %p3[%row] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %valid, %p4 : i32, !llvm.ptr
      llvm.return
    }
  }
  func.func @main(%out: memref<5x32xi32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@shuffles blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<5x32xi32>)
    return
  }
}
