// Normalization kernels (docs/Lowering.md, "Normalization kernels"): one
// block per row; per reduction, in program order, a thread loop whose
// threads fold 16-byte vectors of the row and combine across the block
// (scf.reduce); then a thread loop that writes the row's outputs from the
// reduced values. Reduced-row outputs are written by thread 0.
//
// RUN: fuser-opt --fuser-segment --fuser-schedule --convert-fuser-to-scf %s | FileCheck %s
//
// The CPU backend runs the same loops; with splits the sums of inexact
// values (LayerNorm's squares) reassociate (docs/Lowering.md), without them
// (one thread per row) every result is bit-identical to the interpreter
// without them (sums in sequence rather than pairwise).
// RUN: fuser-run %S/Inputs/normalization.mlir --entry rmsnorm --backend cpu --check-against interp | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/Inputs/normalization.mlir --entry softmax --backend cpu --check-against interp | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/Inputs/normalization.mlir --entry layernorm --backend cpu --check-against interp --ulp-tolerance 64 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/Inputs/normalization.mlir --entry rmsnorm_bwd --backend cpu --check-against interp | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/Inputs/normalization.mlir --entry softmax_long --backend cpu --check-against interp --ulp-tolerance 256 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-opt --fuser-preseg --fuser-segment %S/Inputs/normalization.mlir | fuser-opt --fuser-schedule=split-reductions=false -o %t.seq.mlir
// RUN: fuser-run %t.seq.mlir --entry rmsnorm --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry softmax --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry layernorm --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry rmsnorm_bwd --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
//
// Several rows per block when the fusion reads a row broadcast along the
// rows (a weight): here with a 16-multiprocessor chip, RMSNorm's 64 rows are
// 16 blocks of 4 rows, rmsnorm_bwd's 32 are 16 of 2 (LayerNorm's 16 stay one
// per block, softmax reads no weight).
// RUN: fuser-opt --fuser-preseg --fuser-segment %S/Inputs/normalization.mlir | fuser-opt --fuser-schedule=sm-count=16 -o %t.rows.mlir
// RUN: FileCheck %s --check-prefix=ROWS < %t.rows.mlir
// RUN: fuser-run %t.rows.mlir --entry rmsnorm --backend cpu --check-against interp | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.rows.mlir --entry rmsnorm_bwd --backend cpu --check-against interp | FileCheck %s --check-prefix=EXEC
// RUN: fuser-opt --convert-fuser-to-scf %t.rows.mlir | FileCheck %s --check-prefix=ROWLOOPS
// EXEC-NOT: FAILED
// EXEC: check 0: {{.*}} ulp ok
// EXEC-NOT: FAILED
// ROWS-LABEL: func.func @rmsnorm(
// ROWS: #fuser.schedule<normalization, vector = 8, threads = 128, split = 128, blocks = 16>
// ROWS-LABEL: func.func @softmax(
// ROWS: #fuser.schedule<normalization, vector = 8, threads = 128, split = 128, blocks = 32>
// ROWS-LABEL: func.func @layernorm(
// ROWS: #fuser.schedule<normalization, vector = 8, threads = 512, split = 512, blocks = 16>
// ROWS-LABEL: func.func @rmsnorm_bwd(
// ROWS: #fuser.schedule<normalization, vector = 8, threads = 128, split = 128, blocks = 16>
// Four rows of RMSNorm, one after another: the weight comes from global
// memory in the first row's output loop, which also stages it; later rows
// read it back.
// ROWLOOPS-LABEL: func.func @rmsnorm(
// ROWLOOPS-SAME: %[[X:[a-z0-9]+]]: memref<64x1000xbf16>, %[[W:[a-z0-9]+]]: memref<1000xbf16>
// ROWLOOPS-COUNT-1: vector.load %[[W]]
// ROWLOOPS-NOT: vector.load %[[W]]
// ROWLOOPS: func.func @softmax(

// CHECK-LABEL: func.func @rmsnorm(
// CHECK-SAME: %[[X:.*]]: memref<64x1000xbf16>, %[[W:.*]]: memref<1000xbf16>, %[[OUT:.*]]: memref<64x1000xbf16>)
// One block per row.
// CHECK: scf.parallel (%[[ROW:.*]]) = (%{{.*}}) to (%c64)
// The sum of squares: 125 threads' worth of 8 lanes, 128 threads.
// CHECK: %[[SUM:.*]] = scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c128) {{.*}} init (%cst{{.*}}) -> f32
// CHECK: scf.for
// CHECK: vector.load %[[X]][%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<64x1000xbf16>, vector<8xbf16>
// CHECK: scf.reduce(
// CHECK: arith.addf
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x
// The row's output from the block's sum.
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c128{{.*}})
// CHECK: scf.for
// CHECK: vector.broadcast %[[SUM]]
// CHECK: vector.load %[[W]]
// CHECK: vector.store %{{.*}}, %[[OUT]][%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<64x1000xbf16>, vector<8xbf16>
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
func.func @rmsnorm(%x: tensor<64x1000xbf16>, %w: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = fuser.cast %x : tensor<64x1000xbf16> to tensor<64x1000xf32>
  %1 = fuser.mul %0, %0 : tensor<64x1000xf32>, tensor<64x1000xf32> -> tensor<64x1000xf32>
  %2 = fuser.reduction add %1 [1] keepdim : tensor<64x1000xf32> -> tensor<64x1xf32>
  %n = arith.constant 1.000000e+03 : f32
  %3 = fuser.div %2, %n : tensor<64x1xf32>, f32 -> tensor<64x1xf32>
  %5 = fuser.rsqrt %3 : tensor<64x1xf32>
  %6 = fuser.mul %0, %5 : tensor<64x1000xf32>, tensor<64x1xf32> -> tensor<64x1000xf32>
  %7 = fuser.cast %w : tensor<1000xbf16> to tensor<1000xf32>
  %8 = fuser.broadcast %7 [0] : tensor<1000xf32> -> tensor<1x1000xf32>
  %9 = fuser.mul %6, %8 : tensor<64x1000xf32>, tensor<1x1000xf32> -> tensor<64x1000xf32>
  %10 = fuser.cast %9 : tensor<64x1000xf32> to tensor<64x1000xbf16>
  return %10 : tensor<64x1000xbf16>
}

// Two reductions, the second reading the first; the max is also an output,
// written once per row by thread 0 (outputs in order).
// CHECK-LABEL: func.func @softmax_with_max(
// CHECK-SAME: %[[X:.*]]: memref<4x256xf32>, %[[OUT0:.*]]: memref<4x1xf32>, %[[OUT1:.*]]: memref<4x256xf32>)
// CHECK: scf.parallel (%[[ROW:.*]]) = (%{{.*}}) to (%c4)
// CHECK: %[[MAX:.*]] = scf.parallel {{.*}} -> f32
// CHECK: arith.maximumf
// CHECK: scf.reduce(
// CHECK: %[[SUM:.*]] = scf.parallel {{.*}} -> f32
// CHECK: vector.broadcast %[[MAX]]
// CHECK: math.exp
// CHECK: scf.reduce(
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %c0{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: memref.store %{{.*}}, %[[OUT0]][%[[ROW]], %c0{{.*}}]
// CHECK: scf.for
// CHECK: vector.store %{{.*}}, %[[OUT1]][%[[ROW]], %{{.*}}]
func.func @softmax_with_max(%x: tensor<4x256xf32>) -> (tensor<4x1xf32>, tensor<4x256xf32>) {
  %0 = fuser.reduction max %x [1] keepdim : tensor<4x256xf32> -> tensor<4x1xf32>
  %1 = fuser.sub %x, %0 : tensor<4x256xf32>, tensor<4x1xf32> -> tensor<4x256xf32>
  %2 = fuser.exp %1 : tensor<4x256xf32>
  %3 = fuser.reduction add %2 [1] keepdim : tensor<4x256xf32> -> tensor<4x1xf32>
  %4 = fuser.div %2, %3 : tensor<4x256xf32>, tensor<4x1xf32> -> tensor<4x256xf32>
  return %0, %4 : tensor<4x1xf32>, tensor<4x256xf32>
}

