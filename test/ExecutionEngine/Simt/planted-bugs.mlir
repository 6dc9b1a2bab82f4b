// One planted bug per check of the SIMT emulator (and the host traps it
// keeps out of the process), each in a hand-written
// kernel (LLVM and NVVM dialects) run as a lowered module: each gives its
// report, then a located error and exit 2, never a crash. With line tables
// (as --fuser-lower-to-nvvm=format=llvm makes), a report gives the source
// line of the instruction.
//
// RUN: fuser-opt %s --ensure-debug-info-scope-on-llvm-func --gpu-module-to-binary=format=llvm -o %t.mlir
// RUN: not fuser-run %t.mlir --entry missing_barrier --backend simt 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not fuser-run %t.mlir --entry return_before_barrier --backend simt 2>&1 | FileCheck %s --check-prefix=BARRIER
// RUN: not fuser-run %t.mlir --entry return_before_shuffle --backend simt 2>&1 | FileCheck %s --check-prefix=SHUFFLE
// RUN: not fuser-run %t.mlir --entry out_of_bounds --backend simt 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not fuser-run %t.mlir --entry misaligned --backend simt 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not fuser-run %t.mlir --entry store_to_input --backend simt 2>&1 | FileCheck %s --check-prefix=READONLY
// RUN: not fuser-run %t.mlir --entry uninitialized_shared --backend simt 2>&1 | FileCheck %s --check-prefix=UNINIT
// RUN: not fuser-run %t.mlir --entry too_many_threads --backend simt 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not fuser-run %t.mlir --entry private_array --backend simt 2>&1 | FileCheck %s --check-prefix=PRIVATE
// RUN: not fuser-run %t.mlir --entry trap --backend simt 2>&1 | FileCheck %s --check-prefix=TRAP
// RUN: fuser-run %t.mlir --entry divide_by_zero --backend simt 2>&1 | FileCheck %s --check-prefix=DIVIDE
// RUN: fuser-run %t.mlir --entry correct --backend simt 2>&1 | FileCheck %s --check-prefix=CORRECT

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    llvm.mlir.global internal @tile() {addr_space = 3 : i32} : !llvm.array<64 x f32>

    // shared[tid] = in[tid]; out[tid] = shared[tid ^ 1]: no barrier between.
    // RACE: simt: error: Uninitialized __shared__ read of size 4 bytes
    // RACE: simt:   in kernel missing_barrier, block (0,0,0)
    // RACE: simt:   by thread (0,0,0)
    // RACE: simt:   at %{{.*}} = load float, ptr addrspace(3)
    // RACE: simt:   address 0x{{[0-9a-f]+}} in shared variable @tile was not written in this block
    // RACE: simt: error: Race: __shared__ write of size 4 bytes after a read by thread 0 (linear id) with no barrier between
    // RACE: simt:   by thread (1,0,0)
    // RACE: simt: error: Race: __shared__ read of size 4 bytes after a write by thread 0 (linear id) with no barrier between
    // RACE: simt: {{[0-9]+}} more errors in kernel missing_barrier not printed
    // RACE: error: running 'missing_barrier' on the GPU failed: cuLaunchKernel(missing_barrier) failed: CUDA_ERROR_LAUNCH_FAILED (719)
    llvm.func @missing_barrier(%in: !llvm.ptr, %out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %tile = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %src = llvm.getelementptr %in[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %src : !llvm.ptr -> f32
      %mine = llvm.getelementptr %tile[0, %tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<64 x f32>
      llvm.store %x, %mine : f32, !llvm.ptr<3>
      %other = llvm.xor %tid, %one : i32
      %theirs = llvm.getelementptr %tile[0, %other] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<64 x f32>
      %y = llvm.load %theirs : !llvm.ptr<3> -> f32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %dst : f32, !llvm.ptr
      llvm.return
    }

    // Thread 3 returns; the others wait at a barrier.
    // BARRIER: simt: error: barrier not reached by every thread of the block: thread (3,0,0) returned before it (on a GPU: a hang or undefined behaviour)
    // BARRIER: simt:   at tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
    // BARRIER: CUDA_ERROR_LAUNCH_FAILED
    llvm.func @return_before_barrier(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %three = llvm.mlir.constant(3 : i32) : i32
      %leave = llvm.icmp "eq" %tid, %three : i32
      llvm.cond_br %leave, ^exit, ^wait
    ^wait:
      nvvm.barrier0
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %tid, %dst : i32, !llvm.ptr
      llvm.return
    ^exit:
      llvm.return
    }

    // Lane 5 returns; the warp's other lanes shuffle with the full mask.
    // SHUFFLE: simt: error: shfl.sync waits for lane 5, which returned before reaching it (on a GPU: a hang or garbage)
    // SHUFFLE: simt:   at %{{.*}} = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 1, i32 31)
    // SHUFFLE: CUDA_ERROR_LAUNCH_FAILED
    llvm.func @return_before_shuffle(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %five = llvm.mlir.constant(5 : i32) : i32
      %all = llvm.mlir.constant(-1 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %clamp = llvm.mlir.constant(31 : i32) : i32
      %leave = llvm.icmp "eq" %tid, %five : i32
      llvm.cond_br %leave, ^exit, ^shuffle
    ^shuffle:
      %v = nvvm.shfl.sync bfly %all, %tid, %one, %clamp : i32 -> i32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %v, %dst : i32, !llvm.ptr
      llvm.return
    ^exit:
      llvm.return
    }

    // 64 threads store into 32 floats.
    // OOB: simt: error: Invalid write of size 4 bytes
    // OOB: simt:   by thread (32,0,0)
    // OOB: simt:   at store float %{{.*}}, ptr %{{.*}}, align 4 (planted-bugs.mlir:[[@LINE+7]]:7)
    // OOB: simt:   address 0x{{[0-9a-f]+}} is out of bounds: 0 bytes after the end of an allocation of 128 bytes at 0x
    // OOB: CUDA_ERROR_ILLEGAL_ADDRESS (700)
    llvm.func @out_of_bounds(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %x = llvm.sitofp %tid : i32 to f32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %x, %dst : f32, !llvm.ptr
      llvm.return
    }

    // A 16-byte vector load from 4 bytes into the buffer.
    // ALIGN: simt: error: Misaligned __global__ read of size 16 bytes
    // ALIGN: simt:   at %{{.*}} = load <4 x float>, ptr %{{.*}}, align 16
    // ALIGN: is not a multiple of the access's alignment 16
    // ALIGN: CUDA_ERROR_MISALIGNED_ADDRESS (716)
    llvm.func @misaligned(%in: !llvm.ptr, %out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %src = llvm.getelementptr %in[1] : (!llvm.ptr) -> !llvm.ptr, f32
      %v = llvm.load %src {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
      llvm.store %v, %out {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
      llvm.return
    }

    // The input is declared noalias readonly (what lets the GPU read it
    // through the non-coherent cache), and the host passes the same buffer
    // as the output, which the kernel writes (a store through the readonly
    // pointer itself the optimizer deletes, as undefined).
    // READONLY: simt: error: Invalid __global__ write of size 4 bytes into memory a noalias readonly argument of the kernel points to
    // READONLY: CUDA_ERROR_ILLEGAL_ADDRESS (700)
    llvm.func @store_to_input(%in: !llvm.ptr {llvm.noalias, llvm.readonly}, %out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %src = llvm.getelementptr %in[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %src : !llvm.ptr -> f32
      %y = llvm.fadd %x, %x : f32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %dst : f32, !llvm.ptr
      llvm.return
    }

    // Reads shared memory no thread wrote, after a barrier.
    // UNINIT: simt: error: Uninitialized __shared__ read of size 4 bytes
    // UNINIT: simt:   address 0x{{[0-9a-f]+}} in shared variable @tile was not written in this block
    // UNINIT: CUDA_ERROR_LAUNCH_FAILED
    llvm.func @uninitialized_shared(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      nvvm.barrier0
      %tile = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %mine = llvm.getelementptr %tile[0, %tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<64 x f32>
      %y = llvm.load %mine : !llvm.ptr<3> -> f32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %dst : f32, !llvm.ptr
      llvm.return
    }

    // A private array of 64 floats written at 3 * tid and read at
    // 63 - tid: thread 22 writes past it (on the host: into the fiber's
    // own frames).
    // PRIVATE: simt: error: Invalid __local__ write of size 4 bytes
    // PRIVATE: simt:   by thread (22,0,0)
    // PRIVATE: is outside the thread's private array of 256 bytes at
    // PRIVATE: CUDA_ERROR_ILLEGAL_ADDRESS (700)
    llvm.func @private_array(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %three = llvm.mlir.constant(3 : i32) : i32
      %last = llvm.mlir.constant(63 : i32) : i32
      %array = llvm.alloca %one x !llvm.array<64 x f32> : (i32) -> !llvm.ptr
      %x = llvm.sitofp %tid : i32 to f32
      %thrice = llvm.mul %tid, %three : i32
      %slot = llvm.getelementptr %array[0, %thrice] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<64 x f32>
      llvm.store %x, %slot : f32, !llvm.ptr
      %mirror = llvm.sub %last, %tid : i32
      %other = llvm.getelementptr %array[0, %mirror] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<64 x f32>
      %y = llvm.load %other : !llvm.ptr -> f32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %dst : f32, !llvm.ptr
      llvm.return
    }

    // llvm.trap would kill the host process: it ends the kernel with a
    // report.
    // TRAP: simt: error: the kernel trapped (llvm.trap)
    // TRAP: simt:   at tail call void @llvm.trap()
    // TRAP: CUDA_ERROR_LAUNCH_FAILED
    llvm.func @trap(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      "llvm.intr.trap"() : () -> ()
      llvm.return
    }

    // An integer division by zero and INT_MIN / -1 give some value on a GPU
    // and SIGFPE on the host: the kernel runs and the process lives.
    // DIVIDE: result 0: tensor<64xi32>
    // DIVIDE: simt: 1 launches, 1 blocks, 64 threads, 64 checked accesses, 0 barriers, 0 shuffles, 0 errors
    llvm.func @divide_by_zero(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      // tid & 64 is 0 for these 64 threads, which the optimizer cannot see
      // (it would delete a division it knows to be by zero).
      %bit = llvm.mlir.constant(64 : i32) : i32
      %zero = llvm.and %tid, %bit : i32
      %seven = llvm.mlir.constant(7 : i32) : i32
      %min = llvm.mlir.constant(-2147483648 : i32) : i32
      %allOnes = llvm.mlir.constant(-1 : i32) : i32
      %minus1 = llvm.sub %allOnes, %zero : i32
      %q = llvm.sdiv %seven, %zero : i32
      %r = llvm.srem %min, %minus1 : i32
      %u = llvm.udiv %tid, %zero : i32
      %s = llvm.add %q, %r : i32
      %t = llvm.add %s, %u : i32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %t, %dst : i32, !llvm.ptr
      llvm.return
    }

    // The same kernel as missing_barrier with the barrier: no report.
    llvm.func @exchange(%in: !llvm.ptr, %out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %tile = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %src = llvm.getelementptr %in[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %src : !llvm.ptr -> f32
      %mine = llvm.getelementptr %tile[0, %tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<64 x f32>
      llvm.store %x, %mine : f32, !llvm.ptr<3>
      nvvm.barrier0
      %other = llvm.xor %tid, %one : i32
      %theirs = llvm.getelementptr %tile[0, %other] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<64 x f32>
      %y = llvm.load %theirs : !llvm.ptr<3> -> f32
      %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %dst : f32, !llvm.ptr
      llvm.return
    }
  }

  func.func @missing_barrier(%in: memref<64xf32>, %out: memref<64xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@missing_barrier blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @return_before_barrier(%out: memref<64xi32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@return_before_barrier blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xi32>)
    return
  }
  func.func @return_before_shuffle(%out: memref<32xi32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@return_before_shuffle blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xi32>)
    return
  }
  func.func @out_of_bounds(%out: memref<32xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@out_of_bounds blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<32xf32>)
    return
  }
  func.func @misaligned(%in: memref<8xf32>, %out: memref<4xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@misaligned blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<8xf32>, %out : memref<4xf32>)
    return
  }
  func.func @store_to_input(%in: memref<32xf32>, %out: memref<32xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@store_to_input blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%in : memref<32xf32>, %in : memref<32xf32>)
    return
  }
  func.func @uninitialized_shared(%out: memref<64xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@uninitialized_shared blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>)
    return
  }
  // LIMIT: simt: error: launch of kernel exchange with grid (1,1,1) and block (2048,1,1): block dimension 0 is 2048; sm_90 allows 1 to 1024
  // LIMIT: CUDA_ERROR_INVALID_VALUE (1)
  func.func @too_many_threads(%in: memref<2048xf32>, %out: memref<2048xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c2048 = arith.constant 2048 : index
    gpu.launch_func @kernels::@exchange blocks in (%c1, %c1, %c1) threads in (%c2048, %c1, %c1) args(%in : memref<2048xf32>, %out : memref<2048xf32>)
    return
  }
  func.func @private_array(%out: memref<32xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@private_array blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xf32>)
    return
  }
  func.func @trap(%out: memref<32xf32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@trap blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xf32>)
    return
  }
  func.func @divide_by_zero(%out: memref<64xi32>) attributes {fuser.outputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@divide_by_zero blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xi32>)
    return
  }
  // CORRECT: result 0: tensor<64xf32>
  // CORRECT: simt: 1 launches, 2 blocks, 128 threads, {{[0-9]+}} checked accesses, 128 barriers, 0 shuffles, 0 errors
  func.func @correct(%in: memref<64xf32>, %out: memref<64xf32>) attributes {fuser.outputs = 1 : i64} {
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@exchange blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<64xf32>, %out : memref<64xf32>)
    return
  }
}
