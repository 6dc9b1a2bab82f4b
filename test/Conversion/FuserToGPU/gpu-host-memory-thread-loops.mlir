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

// -----

// A thread loop that writes memory and is followed by another (a row sum
// that also stores a pointwise output, then the thread-0 store of the sum):
// convert-parallel-loops-to-gpu refuses writes there and would leave the
// block on the host; the write is moved into a one-trip scf.for, which it
// accepts. The last thread loop's writes stay as they are.
// CHECK-LABEL: func.func @store_then_loop
// CHECK: scf.parallel
// CHECK: memref.load
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x32xf32>
// CHECK-NEXT: }
// CHECK: scf.reduce(
// CHECK: scf.if
// CHECK-NEXT: memref.store
// GPU-LABEL: func.func @store_then_loop
// GPU: gpu.launch
// GPU: gpu.all_reduce
// GPU-NOT: scf.parallel
// GPU: return
func.func @store_then_loop(%a: memref<4x32xf32>, %o: memref<4x32xf32>, %s: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant -0.0 : f32
  scf.parallel (%b) = (%c0) to (%c4) step (%c1) {
    %sum = scf.parallel (%t) = (%c0) to (%c32) step (%c1) init (%z) -> f32 {
      %v = memref.load %a[%b, %t] : memref<4x32xf32>
      %twice = arith.addf %v, %v : f32
      memref.store %twice, %o[%b, %t] : memref<4x32xf32>
      scf.reduce(%v : f32) {
      ^bb0(%x: f32, %y: f32):
        %r = arith.addf %x, %y : f32
        scf.reduce.return %r : f32
      }
    } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.parallel (%t) = (%c0) to (%c32) step (%c1) {
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %sum, %s[%b] : memref<4xf32>
      }
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}
