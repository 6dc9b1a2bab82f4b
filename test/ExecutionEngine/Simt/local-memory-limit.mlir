// A kernel whose private arrays exceed sm_90's local memory per thread is
// refused when its module loads (issue 43; resource-limits.mlir has the
// other limits). A file of its own: the backend loads every module of a
// file before it runs a function, and one that does not load stops them all.
//
// RUN: fuser-opt %s --gpu-module-to-binary=format=llvm -o %t.mlir
// RUN: not fuser-run %t.mlir --entry too_much_private --backend simt 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    // 512 KiB and 4 bytes of private array per thread: what ptxas refuses
    // (sm_90 allows 512 KiB of local memory per thread). The emulator refuses
    // the image, as loading it would overflow the thread stacks.
    // CHECK: simt: error: cannot load the module: kernel @too_much_private uses 524292 bytes of local memory per thread (its private arrays); sm_90 allows at most 524288
    // CHECK: CUDA_ERROR_INVALID_IMAGE
    llvm.func @too_much_private(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %array = llvm.alloca %one x !llvm.array<131073 x f32> : (i32) -> !llvm.ptr
      %x = llvm.sitofp %tid : i32 to f32
      %slot = llvm.getelementptr %array[0, %tid] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<131073 x f32>
      llvm.store %x, %slot : f32, !llvm.ptr
      %prime = llvm.mlir.constant(7919 : i32) : i32
      %index = llvm.mul %tid, %prime : i32
      %src = llvm.getelementptr %array[0, %index] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<131073 x f32>
      %y = llvm.load %src : !llvm.ptr -> f32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %dst : f32, !llvm.ptr
      llvm.return
    }
  }

  func.func @too_much_private(%out: memref<32xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@too_much_private blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xf32>)
    return
  }
}
