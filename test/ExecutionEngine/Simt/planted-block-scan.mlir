// A missing barrier in a block scan is caught: the block scan of an
// integer cumsum (BlockScanKernel: each thread's chunk total into
// workgroup memory, a barrier, then each thread combines the totals before
// its chunk and walks its chunk again) lowered without its barrier reports
// the race in workgroup memory and fails (thread 1 reads thread 0's total
// with no barrier between); with it the kernel runs clean
// (test/ExecutionEngine/block-scan.mlir checks its results).
//
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf --cse -o %t.loops.mlir
// RUN: grep -c gpu.barrier %t.loops.mlir | FileCheck %s --check-prefix=COUNT
// RUN: fuser-opt %t.loops.mlir --fuser-kernel-loops-to-nvvm="format=llvm" -o %t.ok.mlir
// RUN: fuser-run %t.ok.mlir --entry cumsum --backend simt 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: grep -v gpu.barrier %t.loops.mlir | fuser-opt --fuser-kernel-loops-to-nvvm="format=llvm" -o %t.race.mlir
// RUN: not fuser-run %t.race.mlir --entry cumsum --backend simt 2>&1 | FileCheck %s --check-prefix=RACE

// Rows of 4097: a block per row, 5 threads (one per 1024 elements), each
// passing the one barrier.
// COUNT: 1
// CLEAN: simt: 1 launches, 2 blocks, 10 threads, {{[0-9]+}} checked accesses, 10 barriers, 0 shuffles, 0 errors
// RACE: simt: error: Race: __shared__ read of size 4 bytes after a write by thread 0 (linear id) with no barrier between
// RACE-NEXT: simt: in kernel cumsum_kernel, block (0,0,0)
// RACE-NEXT: simt: by thread (1,0,0)
// RACE: address {{.*}} in shared variable @__fuser_scan_totals
// RACE: error: running 'cumsum' on the GPU failed: cuLaunchKernel(cumsum_kernel) failed

func.func @cumsum(%x: tensor<2x4097xi32>) -> tensor<2x4097xi32> {
  %s = fuser.scan add %x [1] : tensor<2x4097xi32>
  return %s : tensor<2x4097xi32>
}
