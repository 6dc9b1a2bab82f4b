// A missing barrier in a generated kernel is caught: the block sort of an
// argsort (BlockSortKernel: a thread loop per bitonic stage, each after a
// barrier) lowered with one of its barriers dropped reports the race in
// workgroup memory and fails; with every barrier it runs clean
// (test/ExecutionEngine/argsort.mlir checks its results). Dropped: the barrier before the first compare-and-swap
// stage (the stage reads keys other threads have just stored) and the one
// before the output loop (it reads positions the last stage swapped).
//
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf --cse -o %t.loops.mlir
// RUN: grep -c gpu.barrier %t.loops.mlir | FileCheck %s --check-prefix=COUNT
// RUN: fuser-opt %t.loops.mlir --fuser-kernel-loops-to-nvvm="format=llvm" -o %t.ok.mlir
// RUN: fuser-run %t.ok.mlir --entry rows --backend simt 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: awk '/gpu.barrier/ { if (++n == 2) next } { print }' %t.loops.mlir | fuser-opt --fuser-kernel-loops-to-nvvm="format=llvm" -o %t.stage.mlir
// RUN: not fuser-run %t.stage.mlir --entry rows --backend simt 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: awk '/gpu.barrier/ { if (++n == 29) next } { print }' %t.loops.mlir | fuser-opt --fuser-kernel-loops-to-nvvm="format=llvm" -o %t.output.mlir
// RUN: not fuser-run %t.output.mlir --entry rows --backend simt 2>&1 | FileCheck %s --check-prefix=RACE

// A row of 100 pads to 128: 7 * 8 / 2 = 28 stages, and the output loop.
// COUNT: 29
// CLEAN: simt: 1 launches, 2 blocks, 128 threads, {{[0-9]+}} checked accesses, 3712 barriers, 0 shuffles, 0 errors
// RACE: simt: error: Race: __shared__ {{read|write}} of size 4 bytes after a {{write|read}} by thread {{[0-9]+}} (linear id) with no barrier between
// RACE: error: running 'rows' on the GPU failed: cuLaunchKernel(rows_kernel) failed: CUDA_ERROR_LAUNCH_FAILED (719)

func.func @rows(%x: tensor<2x100xf32>) -> tensor<2x100xi64> {
  %i = fuser.argsort %x [1] : tensor<2x100xf32> -> tensor<2x100xi64>
  return %i : tensor<2x100xi64>
}
