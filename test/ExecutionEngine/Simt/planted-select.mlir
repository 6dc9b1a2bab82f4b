// A missing barrier in the selection kernel of a top-k is caught: its
// kernel (SelectRowKernel: each thread's list into workgroup memory, a
// barrier, thread 0 merges the lists into the first k slots, a barrier,
// every thread computes the outputs of the ranks it takes) lowered with one
// of its two barriers dropped reports the error in workgroup memory and
// fails; with both it runs clean (test/ExecutionEngine/topk.mlir checks its
// results). Dropped: the barrier before the merge (thread 0, which the
// emulator runs first, reads lists the other threads have not stored yet:
// an uninitialized read) and the one before the outputs (thread 1 reads a
// position thread 0 has just merged into its slot: a race).
//
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf --cse -o %t.loops.mlir
// RUN: grep -c gpu.barrier %t.loops.mlir | FileCheck %s --check-prefix=COUNT
// RUN: fuser-opt %t.loops.mlir --fuser-kernel-loops-to-nvvm="format=llvm" -o %t.ok.mlir
// RUN: fuser-run %t.ok.mlir --entry topk --backend simt 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: awk '/gpu.barrier/ { if (++n == 1) next } { print }' %t.loops.mlir | fuser-opt --fuser-kernel-loops-to-nvvm="format=llvm" -o %t.merge.mlir
// RUN: not fuser-run %t.merge.mlir --entry topk --backend simt 2>&1 | FileCheck %s --check-prefix=UNINIT
// RUN: awk '/gpu.barrier/ { if (++n == 2) next } { print }' %t.loops.mlir | fuser-opt --fuser-kernel-loops-to-nvvm="format=llvm" -o %t.output.mlir
// RUN: not fuser-run %t.output.mlir --entry topk --backend simt 2>&1 | FileCheck %s --check-prefix=RACE

// Rows of 9000: a block per row, 3 threads (one per 4096 elements) of
// 8-pair lists each; each thread passes both barriers.
// COUNT: 2
// CLEAN: simt: 1 launches, 2 blocks, 6 threads, {{[0-9]+}} checked accesses, 12 barriers, 0 shuffles, 0 errors
// UNINIT: simt: error: Uninitialized __shared__ read of size 4 bytes
// UNINIT-NEXT: simt: in kernel topk_kernel, block (0,0,0)
// UNINIT-NEXT: simt: by thread (0,0,0)
// UNINIT: error: running 'topk' on the GPU failed: cuLaunchKernel(topk_kernel) failed: CUDA_ERROR_ILLEGAL_ADDRESS (700)
// RACE: simt: error: Race: __shared__ read of size 4 bytes after a write by thread 0 (linear id) with no barrier between
// RACE-NEXT: simt: in kernel topk_kernel, block (0,0,0)
// RACE-NEXT: simt: by thread (1,0,0)
// RACE: address {{.*}} in shared variable @__fuser_select_positions
// RACE: error: running 'topk' on the GPU failed: cuLaunchKernel(topk_kernel) failed: CUDA_ERROR_LAUNCH_FAILED (719)

func.func @topk(%x: tensor<2x9000xf32>) -> (tensor<2x8xf32>, tensor<2x8xi64>) {
  %i = fuser.argsort %x [1] descending : tensor<2x9000xf32> -> tensor<2x9000xi64>
  %k = fuser.slice %i starts [0, 0] limits [2, 8] strides [1, 1] : tensor<2x9000xi64> -> tensor<2x8xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<2x9000xf32>, tensor<2x8xi64> -> tensor<2x8xf32>
  return %v, %k : tensor<2x8xf32>, tensor<2x8xi64>
}
