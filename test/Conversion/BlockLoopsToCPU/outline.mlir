// RUN: fuser-opt %s --fuser-cpu-outline-block-loops | FileCheck %s
// RUN: fuser-opt %s --fuser-cpu-outline-block-loops --convert-scf-to-cf \
// RUN:   --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm \
// RUN:   --convert-func-to-llvm=use-bare-ptr-memref-call-conv --convert-cf-to-llvm \
// RUN:   --reconcile-unrealized-casts --fuser-cpu-dispatch-block-loops | FileCheck %s --check-prefix=LLVM

#block = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#thread = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>

memref.global "private" @__fuser_row : memref<8xf32, #gpu.address_space<workgroup>> = uninitialized {alignment = 16 : i64}

// A block loop with a thread loop inside, staging each row in shared memory;
// a nest of blocks and threads in one scf.parallel; a one-block kernel,
// which stays where it is.
func.func @kernels(%in: memref<4x8xf32>, %out: memref<4x8xf32>, %scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%b) = (%c0) to (%c4) step (%c1) {
    %row = memref.get_global @__fuser_row : memref<8xf32, #gpu.address_space<workgroup>>
    scf.parallel (%t) = (%c0) to (%c8) step (%c1) {
      %v = memref.load %in[%b, %t] : memref<4x8xf32>
      memref.store %v, %row[%t] : memref<8xf32, #gpu.address_space<workgroup>>
      scf.reduce
    } {mapping = [#thread]}
    scf.parallel (%t) = (%c0) to (%c8) step (%c1) {
      %v = memref.load %row[%t] : memref<8xf32, #gpu.address_space<workgroup>>
      %w = arith.mulf %v, %scale : f32
      memref.store %w, %out[%b, %t] : memref<4x8xf32>
      scf.reduce
    } {mapping = [#thread]}
    scf.reduce
  } {mapping = [#block]}
  scf.parallel (%b, %t) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %v = memref.load %out[%b, %t] : memref<4x8xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %out[%b, %t] : memref<4x8xf32>
    scf.reduce
  } {mapping = [#block, #thread]}
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    memref.store %scale, %out[%b, %b] : memref<4x8xf32>
    scf.reduce
  } {mapping = [#block]}
  return
}

// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @kernels(
// CHECK-SAME: %[[IN:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4x8xf32>, %[[SCALE:.*]]: f32)
// CHECK: call @kernels_blocks_0_run(%{{.*}}, %[[IN]], %[[SCALE]], %[[OUT]]) : (index, memref<4x8xf32>, f32, memref<4x8xf32>) -> ()
// CHECK: call @kernels_blocks_1_run(%{{.*}}, %[[OUT]])
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK: return

// CHECK-LABEL: func.func private @kernels_blocks_0(
// CHECK-SAME: %[[BEGIN:[^:]*]]: index, %[[END:[^:]*]]: index, %[[IN:[^:]*]]: memref<4x8xf32>, %[[SCALE:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<4x8xf32>)
// CHECK: %[[ROW:.*]] = memref.alloc() {alignment = 16 : i64} : memref<8xf32>
// CHECK: scf.for %[[B:.*]] = %[[BEGIN]] to %[[END]]
// CHECK: scf.parallel
// CHECK: memref.load %[[IN]][%[[B]], %{{.*}}]
// CHECK: memref.store %{{.*}}, %[[ROW]][%{{.*}}] : memref<8xf32>
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[B]], %{{.*}}]
// CHECK: memref.dealloc %[[ROW]]
// CHECK: func.func private @kernels_blocks_0_run(index, memref<4x8xf32>, f32, memref<4x8xf32>) attributes {fuser.block_body = @kernels_blocks_0}

// The second nest: the thread dim stays an scf.parallel, mapped as before.
// CHECK-LABEL: func.func private @kernels_blocks_1(
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %{{.*}}
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: memref.load %{{.*}}[%[[B]], %[[T]]]
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: func.func private @kernels_blocks_1_run(index, memref<4x8xf32>) attributes {fuser.block_body = @kernels_blocks_1}

// In the LLVM dialect: the captures go through a struct on the stack to the
// runtime, and the thunk loads them back for the outlined body.
// LLVM-LABEL: llvm.func @kernels(
// LLVM: llvm.call @kernels_blocks_0_run(
// LLVM-LABEL: llvm.func @kernels_blocks_0(
// LLVM-SAME: %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: f32, %{{.*}}: !llvm.ptr)
// LLVM: llvm.call @malloc
// LLVM-LABEL: llvm.func internal @kernels_blocks_0_thunk(
// LLVM-SAME: %[[CONTEXT:.*]]: !llvm.ptr, %[[BEGIN:.*]]: i64, %[[END:.*]]: i64)
// LLVM: %[[PACKED:.*]] = llvm.load %[[CONTEXT]] : !llvm.ptr -> !llvm.struct<(ptr, f32, ptr)>
// LLVM: llvm.extractvalue %[[PACKED]][0]
// LLVM: llvm.extractvalue %[[PACKED]][1]
// LLVM: llvm.extractvalue %[[PACKED]][2]
// LLVM: llvm.call @kernels_blocks_0(%[[BEGIN]], %[[END]],
// LLVM-LABEL: llvm.func internal @kernels_blocks_0_run(
// LLVM-SAME: %[[BLOCKS:.*]]: i64, %{{.*}}: !llvm.ptr, %{{.*}}: f32, %{{.*}}: !llvm.ptr)
// LLVM: %[[STRUCT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, f32, ptr)>
// LLVM: llvm.store %{{.*}}, %[[STRUCT]]
// LLVM: %[[THUNK:.*]] = llvm.mlir.addressof @kernels_blocks_0_thunk
// LLVM: llvm.call @__fuser_run_blocks(%[[THUNK]], %[[STRUCT]], %[[BLOCKS]])
// LLVM: llvm.func @__fuser_run_blocks(!llvm.ptr, !llvm.ptr, i64)
// LLVM-NOT: fuser.block_body
