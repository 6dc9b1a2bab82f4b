// fuser-gpu-host-memory drops the launch bound of the later thread loops of
// a block (a normalization kernel runs one thread loop per reduction, then
// one for its outputs): convert-parallel-loops-to-gpu takes a processor's
// bound from one loop only. The loops must run the same number of threads.
// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(fuser-gpu-host-memory)' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(fuser-gpu-host-memory,func.func(convert-parallel-loops-to-gpu))' | FileCheck %s --check-prefix=GPU

// CHECK-LABEL: func.func @two_loops
// CHECK: scf.parallel
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = <<NULL AFFINE MAP>>>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// One launch of 4 blocks of 32 threads; the sum is a gpu.all_reduce.
// GPU-LABEL: func.func @two_loops
// GPU: %[[B:.*]] = affine.apply #{{.*}}(%c4)
// GPU: %[[T:.*]] = affine.apply #{{.*}}(%c32)
// GPU: gpu.launch blocks({{.*}}) in ({{.*}} = %[[B]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[T]],
// GPU: gpu.all_reduce
// GPU-NOT: scf.parallel
// GPU: memref.store
func.func @two_loops(%a: memref<4x32xf32>, %o: memref<4x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant -0.0 : f32
  scf.parallel (%b) = (%c0) to (%c4) step (%c1) {
    %sum = scf.parallel (%t) = (%c0) to (%c32) step (%c1) init (%z) -> f32 {
      %v = memref.load %a[%b, %t] : memref<4x32xf32>
      scf.reduce(%v : f32) {
      ^bb0(%x: f32, %y: f32):
        %s = arith.addf %x, %y : f32
        scf.reduce.return %s : f32
      }
    } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.parallel (%t) = (%c0) to (%c32) step (%c1) {
      %v = memref.load %a[%b, %t] : memref<4x32xf32>
      %d = arith.divf %v, %sum : f32
      memref.store %d, %o[%b, %t] : memref<4x32xf32>
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

func.func @different_threads(%a: memref<4x32xf32>, %o: memref<4x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%b) = (%c0) to (%c4) step (%c1) {
    scf.parallel (%t) = (%c0) to (%c32) step (%c1) {
      %v = memref.load %a[%b, %t] : memref<4x32xf32>
      memref.store %v, %o[%b, %t] : memref<4x32xf32>
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    // expected-error @+1 {{thread loops of one block run 32 and 16 threads; a launch has one block size}}
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %v = memref.load %a[%b, %t] : memref<4x32xf32>
      memref.store %v, %o[%b, %t] : memref<4x32xf32>
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

func.func @unmapped_thread_loop(%a: memref<4x32xf32>, %o: memref<4x32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%b) = (%c0) to (%c4) step (%c1) {
    // expected-error @+1 {{a thread loop of a block needs one constant trip count and a mapping}}
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %v = memref.load %a[%b, %t] : memref<4x32xf32>
      memref.store %v, %o[%b, %t] : memref<4x32xf32>
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}
