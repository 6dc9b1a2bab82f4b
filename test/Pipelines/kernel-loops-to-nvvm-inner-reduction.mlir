// An inner (row) reduction: one block per row, the row's 256 elements split
// over the block's threads and combined with scf.reduce, which becomes a
// uniform gpu.all_reduce: warp shuffles, then a shared-memory combine across
// the 8 warps.
// RUN: fuser-opt %s --fuser-kernel-loops-to-nvvm="format=isa" | FileCheck %s
// RUN: fuser-opt %s --fuser-kernel-loops-to-nvvm="format=bin" | FileCheck %s --check-prefix=BIN

// CHECK: gpu.launch_func @row_sum_kernel::@row_sum_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in
// CHECK: .entry row_sum_kernel(
// CHECK: ld.global.nc.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync
// CHECK: st.global.b32

// BIN: bin = "\7FELF

#blk = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#thr = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @row_sum(%in: memref<1024x256xf32>, %out: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%b) = (%c0) to (%c1024) step (%c1) {
    %sum = scf.parallel (%t) = (%c0) to (%c256) step (%c1) init (%zero) -> f32 {
      %x = memref.load %in[%b, %t] : memref<1024x256xf32>
      scf.reduce(%x : f32) {
      ^bb0(%l: f32, %r: f32):
        %a = arith.addf %l, %r : f32
        scf.reduce.return %a : f32
      }
    } {mapping = [#thr]}
    memref.store %sum, %out[%b] : memref<1024xf32>
    scf.reduce
  } {mapping = [#blk]}
  return
}
