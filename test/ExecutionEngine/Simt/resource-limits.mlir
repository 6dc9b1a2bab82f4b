// Kernels that exceed what a thread may use, or that never end, are reports
// of the SIMT emulator (exit status 2), never a crash or a hang of the host
// process (issue 43): stacks sized from the kernel's private arrays, stack
// checks before every call of a device function and every dynamic alloca,
// the launch's parameter count against the kernel's signature, and a budget
// of loop iterations per thread (FUSER_SIMT_STEP_LIMIT).
//
// RUN: fuser-opt %s --ensure-debug-info-scope-on-llvm-func --gpu-module-to-binary=format=llvm -o %t.mlir
// RUN: fuser-run %t.mlir --entry big_private --backend simt 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not fuser-run %t.mlir --entry deep_recursion --backend simt 2>&1 | FileCheck %s --check-prefix=RECURSION
// RUN: fuser-run %t.mlir --entry shallow_recursion --backend simt 2>&1 | FileCheck %s --check-prefix=SHALLOW
// RUN: not fuser-run %t.mlir --entry missing_arguments --backend simt 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not fuser-run %t.mlir --entry huge_dynamic_alloca --backend simt 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: fuser-run %t.mlir --entry small_dynamic_alloca --backend simt 2>&1 | FileCheck %s --check-prefix=SMALLDYN
// RUN: not fuser-run %t.mlir --entry infinite_loop --backend simt 2>&1 | FileCheck %s --check-prefix=HANG
// RUN: env FUSER_SIMT_STEP_LIMIT=1000 not fuser-run %t.mlir --entry big_private --backend simt 2>&1 | FileCheck %s --check-prefix=LIMITED
// RUN: env FUSER_SIMT_STEP_LIMIT=lots not fuser-run %t.mlir --entry big_private --backend simt 2>&1 | FileCheck %s --check-prefix=BADLIMIT

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    // 256 KiB of private memory per thread (sm_90 allows 512 KiB): filled
    // with its indices, read back at (tid * 7919) mod 65536.
    // BIG: result 0: tensor<32xf32>
    // BIG: simt: 1 launches, 1 blocks, 32 threads, {{[0-9]+}} checked accesses, 0 barriers, 0 shuffles, 0 errors
    llvm.func @big_private(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %zero = llvm.mlir.constant(0 : i32) : i32
      %n = llvm.mlir.constant(65536 : i32) : i32
      %array = llvm.alloca %one x !llvm.array<65536 x f32> : (i32) -> !llvm.ptr
      llvm.br ^fill(%zero : i32)
    ^fill(%i: i32):
      %slot = llvm.getelementptr %array[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<65536 x f32>
      %x = llvm.sitofp %i : i32 to f32
      llvm.store %x, %slot : f32, !llvm.ptr
      %next = llvm.add %i, %one : i32
      %more = llvm.icmp "slt" %next, %n : i32
      llvm.cond_br %more, ^fill(%next : i32), ^read
    ^read:
      %prime = llvm.mlir.constant(7919 : i32) : i32
      %mask = llvm.mlir.constant(65535 : i32) : i32
      %scaled = llvm.mul %tid, %prime : i32
      %index = llvm.and %scaled, %mask : i32
      %src = llvm.getelementptr %array[0, %index] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<65536 x f32>
      %y = llvm.load %src : !llvm.ptr -> f32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %dst : f32, !llvm.ptr
      llvm.return
    }

    // descend(p, n) calls descend(p, n - 1) and then stores n: no tail
    // call. n = 100000000 overflows any stack; n = 100 runs.
    // RECURSION: simt: error: stack overflow: a call of @descend needs 4096 bytes of stack; {{[0-9]+}} are left
    // RECURSION: simt:   in kernel recurse, block (0,0,0)
    // RECURSION: simt:   by thread (0,0,0)
    // RECURSION: simt:   at {{(tail )?}}call void @descend(ptr %{{[0-9]+}}, i32 %{{[0-9]+}}) (resource-limits.mlir:[[@LINE+12]]:7)
    // RECURSION: simt:   the thread's stack is 262144 bytes (sized from the kernel's private arrays and calls, less 65536 kept for the emulator): recursion or dynamic allocas deeper than that are errors
    // RECURSION: error: running 'deep_recursion' on the GPU failed: cuLaunchKernel(recurse) failed: CUDA_ERROR_LAUNCH_FAILED (719)
    // SHALLOW: result 0: tensor<32xi32>
    // SHALLOW: simt: 1 launches, 1 blocks, 32 threads, {{[0-9]+}} checked accesses, 0 barriers, 0 shuffles, 0 errors
    llvm.func @descend(%p: !llvm.ptr, %n: i32) attributes {no_inline} {
      %zero = llvm.mlir.constant(0 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %done = llvm.icmp "eq" %n, %zero : i32
      llvm.cond_br %done, ^exit, ^deeper
    ^deeper:
      %m = llvm.sub %n, %one : i32
      llvm.call @descend(%p, %m) : (!llvm.ptr, i32) -> ()
      llvm.store %n, %p : i32, !llvm.ptr
      llvm.br ^exit
    ^exit:
      llvm.return
    }
    llvm.func @recurse(%out: !llvm.ptr, %n: i32) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.call @descend(%dst, %n) : (!llvm.ptr, i32) -> ()
      llvm.return
    }

    // Three parameters; the launch passes one.
    // ARGS: simt: error: launch of kernel scale with grid (1,1,1) and block (32,1,1): the kernel takes 3 parameters; the launch passes 1 (its parameter array ends at a null pointer)
    // ARGS: CUDA_ERROR_INVALID_VALUE (1)
    llvm.func @scale(%in: !llvm.ptr, %out: !llvm.ptr, %factor: f32) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %src = llvm.getelementptr %in[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %src : !llvm.ptr -> f32
      %y = llvm.fmul %x, %factor : f32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %dst : f32, !llvm.ptr
      llvm.return
    }

    // A private array of n floats, n a kernel argument: 2^28 (1 GiB) does
    // not fit in the thread's stack; 64 does, and its accesses are checked
    // against the n floats.
    // DYNAMIC: simt: error: stack overflow: a dynamic alloca of 1073741824 bytes; {{[0-9]+}} are left
    // DYNAMIC: simt:   in kernel dynamic_array, block (0,0,0)
    // DYNAMIC: simt:   by thread (0,0,0)
    // DYNAMIC: simt:   at %{{[0-9]+}} = alloca float, i64 %{{[0-9]+}}, align 4 (resource-limits.mlir:[[@LINE+7]]:16)
    // DYNAMIC: simt:   the thread's stack is 262144 bytes
    // DYNAMIC: CUDA_ERROR_LAUNCH_FAILED (719)
    // SMALLDYN: result 0: tensor<32xf32>
    // SMALLDYN: simt: 1 launches, 1 blocks, 32 threads, {{[0-9]+}} checked accesses, 0 barriers, 0 shuffles, 0 errors
    llvm.func @dynamic_array(%out: !llvm.ptr, %n: i32) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %array = llvm.alloca %n x f32 : (i32) -> !llvm.ptr
      %x = llvm.sitofp %tid : i32 to f32
      %slot = llvm.getelementptr %array[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %x, %slot : f32, !llvm.ptr
      %last = llvm.mlir.constant(31 : i32) : i32
      %mirror = llvm.sub %last, %tid : i32
      %other = llvm.getelementptr %array[%mirror] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %x, %other : f32, !llvm.ptr
      %y = llvm.load %slot : !llvm.ptr -> f32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %dst : f32, !llvm.ptr
      llvm.return
    }

    // A loop with no exit.
    // HANG: simt: error: the thread ran 1000000000 loop iterations without finishing (on a GPU: a hang or a very long kernel; FUSER_SIMT_STEP_LIMIT sets the limit)
    // HANG: simt:   in kernel spin, block (0,0,0)
    // HANG: simt:   by thread (0,0,0)
    // HANG: simt:   at br label %{{[0-9]+}} (resource-limits.mlir:[[@LINE+5]]:7)
    // HANG: CUDA_ERROR_LAUNCH_TIMEOUT (702)
    llvm.func @spin(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.br ^loop
    ^loop:
      llvm.br ^loop
    }
  }

  // LIMITED: simt: error: the thread ran 1000 loop iterations without finishing (on a GPU: a hang or a very long kernel; FUSER_SIMT_STEP_LIMIT sets the limit)
  // LIMITED: simt:   in kernel big_private, block (0,0,0)
  // LIMITED: CUDA_ERROR_LAUNCH_TIMEOUT (702)
  // BADLIMIT: simt: error: FUSER_SIMT_STEP_LIMIT=lots is not a positive number of loop iterations
  // BADLIMIT: CUDA_ERROR_INVALID_VALUE (1)
  func.func @big_private(%out: memref<32xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@big_private blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xf32>)
    return
  }
  func.func @deep_recursion(%out: memref<32xi32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 100000000 : i32
    gpu.launch_func @kernels::@recurse blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xi32>, %n : i32)
    return
  }
  func.func @shallow_recursion(%out: memref<32xi32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 100 : i32
    gpu.launch_func @kernels::@recurse blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xi32>, %n : i32)
    return
  }
  func.func @missing_arguments(%in: memref<32xf32>, %out: memref<32xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%in : memref<32xf32>)
    return
  }
  func.func @huge_dynamic_alloca(%out: memref<32xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 268435456 : i32
    gpu.launch_func @kernels::@dynamic_array blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xf32>, %n : i32)
    return
  }
  func.func @small_dynamic_alloca(%out: memref<32xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 64 : i32
    gpu.launch_func @kernels::@dynamic_array blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xf32>, %n : i32)
    return
  }
  func.func @infinite_loop(%out: memref<32xi32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@spin blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xi32>)
    return
  }
}
