// Outer normalization kernels (docs/Lowering.md, "Outer normalizations"): a
// block per tile of consecutive columns (threads / split of them, along the
// innermost axis), `split` thread groups sharing each column's reduced
// elements. Per reduction, in program order, a thread loop in which each
// thread folds its share of its column from the identity and stores its
// partial in workgroup memory; the next loop, after a barrier, combines the
// groups' partials in group order in every thread. The first loop that reads
// an element of an input of the source shape stages it in workgroup memory
// at (reduced index x tile + column), where the same thread reads it back
// later. Then the outputs: source-shaped ones by the threads that folded the
// elements, reduced ones by group 0.
//
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-schedule %S/Inputs/outer-normalization.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCHEDULE < %t.mlir
// RUN: fuser-opt --convert-fuser-to-scf %t.mlir | FileCheck %s
//
// The CPU backend runs the same loops; the split over the reduced elements
// reassociates the sums and the max of inexact values (docs/Lowering.md),
// without splits (one thread per column: split-reductions=false) every
// result is bit-identical to the interpreter. Odd row counts (37, 255, 65, 9,
// 5 x 70) and column counts that are not a multiple of the tile (50, 200, 33,
// 120, 48).
// RUN: fuser-run %S/Inputs/outer-normalization.mlir --entry colmean --backend cpu --check-against interp --ulp-tolerance 16 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/Inputs/outer-normalization.mlir --entry batchnorm --backend cpu --check-against interp --ulp-tolerance 16 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/Inputs/outer-normalization.mlir --entry colsoftmax --backend cpu --check-against interp --ulp-tolerance 16 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/Inputs/outer-normalization.mlir --entry middle --backend cpu --check-against interp --ulp-tolerance 16 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/Inputs/outer-normalization.mlir --entry colmean_tall --backend cpu --check-against interp --ulp-tolerance 16 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/Inputs/outer-normalization.mlir --entry colscale --backend cpu --check-against interp --ulp-tolerance 16 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-opt --fuser-preseg --fuser-segment %S/Inputs/outer-normalization.mlir | fuser-opt --fuser-schedule=split-reductions=false -o %t.seq.mlir
// RUN: FileCheck %s --check-prefix=SEQ < %t.seq.mlir
// RUN: fuser-run %t.seq.mlir --entry colmean --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry batchnorm --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry colsoftmax --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry middle --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry colscale --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAILED
// EXEC: check 0: {{.*}} ulp ok
// EXEC-NOT: FAILED

// Tiles of 32 columns in 8 groups; 50 columns are 2 blocks, 200 are 7.
// SCHEDULE-LABEL: func.func @colmean(
// SCHEDULE: #fuser.schedule<normalization, vector = 1, threads = 256, split = 8, blocks = 2>
// SCHEDULE-LABEL: func.func @batchnorm(
// SCHEDULE: #fuser.schedule<normalization, vector = 1, threads = 256, split = 8, blocks = 7>
// The 9 reduced rows of @middle need no more than 16 groups of 32 threads'
// worth: 8 groups (256 threads); 120 columns are 4 blocks.
// SCHEDULE-LABEL: func.func @middle(
// SCHEDULE: #fuser.schedule<normalization, vector = 1, threads = 256, split = 8, blocks = 4>
// Without splits: one group, a thread per column.
// SEQ-LABEL: func.func @colmean(
// SEQ: #fuser.schedule<normalization, vector = 1, threads = 32, split = 1, blocks = 2>

// CHECK-DAG: memref.global "private" @__fuser_columns : memref<1184xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "private" @__fuser_partials : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @colmean(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<37x50xf32>, %[[OUT:[a-z0-9]+]]: memref<37x50xf32>
// CHECK: scf.parallel (%[[BLOCK:.*]]) = (%{{.*}}) to (%c2)
// The sums: thread (group, lane) folds rows group, group + 8, ... of column
// block * 32 + lane, staging each element.
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256)
// CHECK: %[[LANE:.*]] = arith.remui %[[T]], %c32
// CHECK: %[[GROUP:.*]] = arith.divui %[[T]], %c32
// CHECK: %[[COLUMN:.*]] = arith.addi %{{.*}}, %[[LANE]]
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[COLUMN]], %c50
// CHECK: scf.if %[[IN]] {
// CHECK: %[[PARTIAL:.*]] = scf.for %[[R:.*]] = %[[GROUP]] to %c37 step %c8 iter_args(%{{.*}} = %cst{{.*}}) -> (f32)
// CHECK: memref.load %[[X]][%[[R]], %[[COLUMN]]]
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<1184xf32, #gpu.address_space<workgroup>>
// CHECK: arith.addf
// CHECK: memref.store %[[PARTIAL]], %{{.*}}[%[[T]]] : memref<256xf32, #gpu.address_space<workgroup>>
// The outputs, after a barrier: each thread combines the 8 partials of its
// column, then subtracts the mean from its staged elements.
// CHECK: scf.parallel (%[[T2:.*]]) = (%{{.*}}) to (%c256
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: %[[SUM:.*]] = scf.for {{.*}} -> (f32)
// CHECK: memref.load %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %[[R2:.*]] = %{{.*}} to %c37 step %c8
// CHECK: vector.load %{{.*}} : memref<1184xf32, #gpu.address_space<workgroup>>, vector<1xf32>
// CHECK: vector.broadcast %[[SUM]]
// CHECK: arith.subf
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[R2]], %{{.*}}] : memref<37x50xf32>
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x

// Two reductions: the second loop combines the first's partials; the mean
// and rstd are written by group 0. The weight and bias, first read by the
// output loop, are loaded once per column by group 0 of the loop before and
// staged in workgroup memory; the output loop reads them back after its
// barrier.
// CHECK-LABEL: func.func @batchnorm(
// CHECK-SAME: %[[BX:[a-z0-9]+]]: memref<255x200xbf16>, %[[W:[a-z0-9]+]]: memref<200xbf16>, %[[B:[a-z0-9]+]]: memref<200xbf16>, %[[Y:[a-z0-9]+]]: memref<255x200xbf16>, %[[MEAN:[a-z0-9]+]]: memref<200xf32>, %[[RSTD:[a-z0-9]+]]: memref<1x200xf32>
// CHECK: memref.load %[[BX]]
// CHECK: gpu.barrier
// CHECK-NOT: memref.load %[[BX]]
// CHECK: %[[GROUPZERO:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK: scf.if %[[GROUPZERO]] {
// CHECK-DAG: memref.load %[[B]]
// CHECK-DAG: memref.load %[[W]]
// CHECK: memref.store %{{.*}} : memref<32xbf16, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-NOT: memref.load %[[BX]]
// CHECK-NOT: memref.load %[[W]]
// CHECK-NOT: memref.load %[[B]]
// CHECK: memref.load %{{.*}} : memref<32xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK: memref.store %{{.*}}, %[[MEAN]][%{{.*}}]
// CHECK: memref.store %{{.*}}, %[[RSTD]][%c0{{.*}}, %{{.*}}]
// CHECK: scf.for
// CHECK-NOT: memref.load %[[W]]
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK: return

// A per-column input the first loop reads (the scale) gets a staging loop
// of its own before the sums; the shift, first read by the output loop, is
// staged by the sums' loop. Group 0 loads each column's scale and shift
// once; every later loop reads them back from workgroup memory.
// CHECK-LABEL: func.func @colscale(
// CHECK-SAME: %[[CX:[a-z0-9]+]]: memref<70x48xf32>, %[[S:[a-z0-9]+]]: memref<1x48xf32>, %[[T:[a-z0-9]+]]: memref<48xf32>
// CHECK: scf.parallel
// CHECK-NOT: gpu.barrier
// CHECK: memref.load %[[S]][%c0{{.*}}, %{{.*}}] : memref<1x48xf32>
// CHECK: gpu.barrier
// CHECK-NOT: memref.load %[[S]]
// CHECK: memref.load %[[T]][%{{.*}}] : memref<48xf32>
// CHECK-NOT: memref.load %[[S]]
// CHECK: memref.load %[[CX]]
// CHECK: gpu.barrier
// CHECK-NOT: memref.load %[[S]]
// CHECK-NOT: memref.load %[[T]]
// CHECK: return
