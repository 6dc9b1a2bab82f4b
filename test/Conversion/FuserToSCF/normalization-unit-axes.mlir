// A normalization kernel also writes a row spelled with other extent-1 axes
// (docs/Lowering.md, "Normalization kernels"): the same elements in the
// same order, written at the row's index mapped to the output's axes.
// Preseg moves a broadcast out of the fusion and leaves such a sibling
// unbroadcast (fuser-gen seed 9614); without the rule the sibling was a
// kernel of its own after preseg and not before. fuser-segment computes
// every op without extent-1 axes and spells them back with broadcasts and
// squeezes, which inner and outer normalizations take on the way out,
// whatever axes they drop or insert.
// Must not fire: a value computed from the reduction that permutes the
// row's axes or merges axes that are not extent 1 stays in a kernel of its
// own, which reads the written rows; a reduced row of several rows is
// written in its own spelling, and a reshape of it is an alias of that
// write. (Siblings computed from no reduction merge whatever their shape:
// they are written beside the rows, normalization-beside-rows.mlir.)
//
// RUN: fuser-opt --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: fusion @outer_sibling: 1 kernel, 1 segment
// REPORT: fusion @inner_sibling: 1 kernel, 1 segment
// REPORT: fusion @permuted_sibling: 2 kernels, {{[23]}} segments, reads 1152 bytes, writes 1152 bytes
// REPORT-NEXT: segment #0 normalization:
// REPORT:      segment #{{[12]}} pointwise:
// REPORT-NEXT: in  #0.{{[01]}}: tensor<2x{{(1x)?}}6x12xf32>
// REPORT: fusion @reshaped_sibling: 2 kernels, 2 segments
// REPORT-NEXT: segment #0 normalization:
// REPORT:      segment #1 pointwise:
// REPORT-NEXT: in  #0.0: tensor<2x3x12xf32>
// REPORT: fusion @inserted_unit_sibling: 1 kernel, 1 segment
// REPORT: fusion @dropped_innermost_sibling: 1 kernel, 1 segment
// REPORT: fusion @reduced_sibling: 1 kernel, 1 segment, reads 272 bytes, writes 272 bytes
// REPORT-NEXT: segment #0 normalization:
// REPORT:      out #0.1: tensor<1x4xf32>, 16 bytes -> return 1
//
// The lowering maps the indices: the outer kernel writes the row's element
// at [i, 0, j, k] to [i, j, k] of the 2x6x12 sibling; the inner one writes
// a 4x16 sibling of 4x1x16 rows in vectors along the row, and a 4x16x1
// one at [i, j, 0].
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-schedule %s -o %t.mlir
// RUN: fuser-opt --convert-fuser-to-scf %t.mlir | FileCheck %s
// CHECK-LABEL: func.func @outer_sibling(
// CHECK: memref.store {{.*}}[[[I:%[a-z0-9_]+]], [[J:%[a-z0-9_]+]], [[K:%[a-z0-9_]+]]] : memref<2x6x12xf32>
// CHECK: memref.store {{.*}}[[[I]], %c0{{.*}}, [[J]], [[K]]] : memref<2x1x6x12xf32>
// CHECK-LABEL: func.func @inner_sibling(
// CHECK: vector.store {{.*}} : memref<4x16xf32>, vector<4xf32>
// CHECK-LABEL: func.func @inserted_unit_sibling(
// CHECK: memref.store {{.*}}[{{%[a-z0-9_]+}}, {{%[a-z0-9_]+}}, %c0{{.*}}] : memref<4x16x1xf32>
//
// Bit-identical to the interpreter, with and without split reductions.
// RUN: fuser-run %t.mlir --entry outer_sibling --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry inner_sibling --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry permuted_sibling --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry reshaped_sibling --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry inserted_unit_sibling --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry dropped_innermost_sibling --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry reduced_sibling --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-opt --fuser-preseg --fuser-segment %s | fuser-opt --fuser-schedule=split-reductions=false -o %t.seq.mlir
// RUN: fuser-run %t.seq.mlir --entry outer_sibling --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry inner_sibling --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry inserted_unit_sibling --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry reduced_sibling --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAILED
// EXEC: check 0: {{.*}} ulp ok
// EXEC: check 1: {{.*}} ulp ok
// EXEC-NOT: FAILED

// 9614, minimized: an outer normalization of 2x1x6x12 and a sibling of the
// row's elements without its unit axis.
func.func @outer_sibling(%arg0: tensor<2x6x12xf32>) -> (tensor<2x1x6x12xf32>, tensor<2x6x12xf32>) {
  %0 = fuser.broadcast %arg0 [1] : tensor<2x6x12xf32> -> tensor<2x1x6x12xf32>
  %1 = fuser.add %arg0, %arg0 : tensor<2x6x12xf32>, tensor<2x6x12xf32> -> tensor<2x6x12xf32>
  %2 = fuser.reduction min %0 [2] keepdim : tensor<2x1x6x12xf32> -> tensor<2x1x1x12xf32>
  %3 = fuser.sub %0, %2 : tensor<2x1x6x12xf32>, tensor<2x1x1x12xf32> -> tensor<2x1x6x12xf32>
  return %3, %1 : tensor<2x1x6x12xf32>, tensor<2x6x12xf32>
}

// An inner normalization of 4x1x16 and a sibling with the unit axis dropped.
func.func @inner_sibling(%arg0: tensor<4x16xf32>) -> (tensor<4x1x16xf32>, tensor<4x16xf32>) {
  %0 = fuser.broadcast %arg0 [1] : tensor<4x16xf32> -> tensor<4x1x16xf32>
  %1 = fuser.add %arg0, %arg0 : tensor<4x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  %2 = fuser.reduction max %0 [2] keepdim : tensor<4x1x16xf32> -> tensor<4x1x1xf32>
  %3 = fuser.sub %0, %2 : tensor<4x1x16xf32>, tensor<4x1x1xf32> -> tensor<4x1x16xf32>
  return %3, %1 : tensor<4x1x16xf32>, tensor<4x16xf32>
}

// Must not merge: the normalized row's elements permuted (and doubled, so
// not a view of the written row).
func.func @permuted_sibling(%arg0: tensor<2x6x12xf32>) -> (tensor<2x1x6x12xf32>, tensor<2x12x6xf32>) {
  %0 = fuser.broadcast %arg0 [1] : tensor<2x6x12xf32> -> tensor<2x1x6x12xf32>
  %3 = fuser.reduction min %0 [2] keepdim : tensor<2x1x6x12xf32> -> tensor<2x1x1x12xf32>
  %4 = fuser.sub %0, %3 : tensor<2x1x6x12xf32>, tensor<2x1x1x12xf32> -> tensor<2x1x6x12xf32>
  %2 = fuser.squeeze %4 [1] : tensor<2x1x6x12xf32> -> tensor<2x6x12xf32>
  %p = fuser.permute %2 [0, 2, 1] : tensor<2x6x12xf32> -> tensor<2x12x6xf32>
  %q = fuser.add %p, %p : tensor<2x12x6xf32>, tensor<2x12x6xf32> -> tensor<2x12x6xf32>
  return %4, %q : tensor<2x1x6x12xf32>, tensor<2x12x6xf32>
}

// Must not merge: the normalized rows with axes 2x3 (not extent 1) merged
// into 6.
func.func @reshaped_sibling(%arg0: tensor<2x3x12xf32>) -> (tensor<2x3x12xf32>, tensor<6x12xf32>) {
  %2 = fuser.reduction max %arg0 [2] keepdim : tensor<2x3x12xf32> -> tensor<2x3x1xf32>
  %3 = fuser.sub %arg0, %2 : tensor<2x3x12xf32>, tensor<2x3x1xf32> -> tensor<2x3x12xf32>
  %0 = fuser.add %3, %3 : tensor<2x3x12xf32>, tensor<2x3x12xf32> -> tensor<2x3x12xf32>
  %1 = fuser.view %0 : tensor<2x3x12xf32> -> tensor<6x12xf32>
  return %3, %1 : tensor<2x3x12xf32>, tensor<6x12xf32>
}

// The sibling inserts a unit axis after the row's (4x16x1 beside rows of
// 4x1x16): written in the rows' loop at [i, j, 0], one lane at a time.
func.func @inserted_unit_sibling(%arg0: tensor<4x16xf32>) -> (tensor<4x1x16xf32>, tensor<4x16x1xf32>) {
  %0 = fuser.broadcast %arg0 [1] : tensor<4x16xf32> -> tensor<4x1x16xf32>
  %1 = fuser.broadcast %arg0 [2] : tensor<4x16xf32> -> tensor<4x16x1xf32>
  %2 = fuser.mul %1, %1 : tensor<4x16x1xf32>, tensor<4x16x1xf32> -> tensor<4x16x1xf32>
  %3 = fuser.reduction max %0 [2] keepdim : tensor<4x1x16xf32> -> tensor<4x1x1xf32>
  %4 = fuser.sub %0, %3 : tensor<4x1x16xf32>, tensor<4x1x1xf32> -> tensor<4x1x16xf32>
  return %4, %2 : tensor<4x1x16xf32>, tensor<4x16x1xf32>
}

// The normalized columns of an outer normalization of 6x5 columns, written
// with an innermost extent-1 axis and, squared, without it: one kernel
// (before extent-1 axes were dropped, 6x5x1 columns kept the unit axis
// innermost and the squared sibling was a kernel of its own: 2 kernels,
// 240 bytes read, 240 written).
func.func @dropped_innermost_sibling(%arg0: tensor<6x5xf32>) -> (tensor<6x5x1xf32>, tensor<6x5xf32>) {
  %0 = fuser.broadcast %arg0 [2] : tensor<6x5xf32> -> tensor<6x5x1xf32>
  %2 = fuser.reduction min %0 [0] keepdim : tensor<6x5x1xf32> -> tensor<1x5x1xf32>
  %3 = fuser.sub %0, %2 : tensor<6x5x1xf32>, tensor<1x5x1xf32> -> tensor<6x5x1xf32>
  %4 = fuser.squeeze %3 [2] : tensor<6x5x1xf32> -> tensor<6x5xf32>
  %1 = fuser.mul %4, %4 : tensor<6x5xf32>, tensor<6x5xf32> -> tensor<6x5xf32>
  return %3, %1 : tensor<6x5x1xf32>, tensor<6x5xf32>
}

// The reduced rows' elements (4x1) returned with the unit axis in front
// (1x4): the normalization writes them from the rows' loop at the row's
// kept index mapped to the 1x4 axes (the same bytes as writing 4x1 and
// returning an alias of it, one segment fewer). An elementwise op never
// reads a reduced row so spelled: size-1 broadcasting would take it along
// the row (segment-reduced-row-spellings.mlir).
func.func @reduced_sibling(%arg0: tensor<4x16xf32>, %arg1: tensor<4xf32>) -> (tensor<4x16xf32>, tensor<1x4xf32>) {
  %0 = fuser.reduction max %arg0 [1] keepdim : tensor<4x16xf32> -> tensor<4x1xf32>
  %w = fuser.broadcast %arg1 [1] : tensor<4xf32> -> tensor<4x1xf32>
  %1 = fuser.add %0, %w : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
  %2 = fuser.sub %arg0, %1 : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
  %3 = fuser.mul %1, %1 : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
  %4 = fuser.view %3 : tensor<4x1xf32> -> tensor<1x4xf32>
  return %2, %4 : tensor<4x16xf32>, tensor<1x4xf32>
}
