// Reductions of an inner normalization that spell the same rows with
// other extent-1 axes: fuser-segment computes both on the rows without
// them (docs/Segmentation.md, phase 0), so they are one normalization's
// reductions of one shape. Preseg's squeeze motion leaves such spellings
// (`min [0]` of a squeeze of 1x1x16x1x1 beside `add [2]` of it: fuser-gen
// seed 8063); before, the two were one kernel before preseg and not after.
// The kernel reads the input through a collapsed view in the rows' shape
// and writes rows and reduced values back in the caller's spellings.
// Must not fire: a reduced value of several rows viewed as `1x4` broadcasts
// along the rows, not across them.
//
// RUN: fuser-opt --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: fusion @one_row_spelled_apart: 1 kernel, 1 segment, reads 64 bytes, writes 68 bytes
// REPORT: fusion @rows_spelled_apart: 1 kernel, 1 segment, reads 256 bytes, writes 272 bytes
// REPORT: fusion @rows_spelled_apart_in_vectors: 1 kernel, 1 segment, reads 256 bytes, writes 272 bytes
// REPORT: fusion @reduced_value_across_rows: 2 kernels, 2 segments
//
// The second reduction of @rows_spelled_apart_in_vectors reads 4x1x16 at
// [row, 0, j] in vectors of 4 along the row.
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-schedule %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCHEDULE --input-file %t.mlir
// SCHEDULE-LABEL: func.func @rows_spelled_apart_in_vectors(
// SCHEDULE: fuser.segment normalization{{.*}}schedule = #fuser.schedule<normalization, vector = 4
//
// Bit-identical to the interpreter, with and without split reductions.
// RUN: fuser-run %t.mlir --entry one_row_spelled_apart --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry rows_spelled_apart --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry rows_spelled_apart_in_vectors --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry reduced_value_across_rows --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-opt --fuser-preseg --fuser-segment %s | fuser-opt --fuser-schedule=split-reductions=false -o %t.seq.mlir
// RUN: fuser-run %t.seq.mlir --entry one_row_spelled_apart --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry rows_spelled_apart --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.seq.mlir --entry rows_spelled_apart_in_vectors --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL
//
// The rows are staged on chip in their unit-free shape and read back by
// the second reduction and the outputs: the input is read once.
// RUN: fuser-run %t.mlir --entry rows_spelled_apart_in_vectors --backend cpu --memory-report | FileCheck %s --check-prefix=MEMORY
// RUN: fuser-run %t.mlir --entry one_row_spelled_apart --backend cpu --memory-report | FileCheck %s --check-prefix=MEMORY-ONE
// MEMORY: loaded: 256 bytes (minimum 256, 1.000x)
// MEMORY-ONE: loaded: 64 bytes (minimum 64, 1.000x)
//
// PTX for sm_90: one kernel per fusion (two for the one that must not
// merge), nothing in local memory.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --check-prefix=PTX --implicit-check-not=.local
// PTX-COUNT-5: .entry
// EXEC: check 0: {{.*}} ulp ok

// One row: the squeezed difference reduces as `[0]` of 16, the row as `[1]`
// of 1x16x1; the negated maximum, a reduced value, is written as `f32`.
func.func @one_row_spelled_apart(%x: tensor<1x16x1xf32>) -> (tensor<1x16x1xf32>, tensor<f32>) {
  %s = fuser.reduction add %x [1] keepdim : tensor<1x16x1xf32> -> tensor<1x1x1xf32>
  %d = fuser.sub %x, %s : tensor<1x16x1xf32>, tensor<1x1x1xf32> -> tensor<1x16x1xf32>
  %q = fuser.squeeze %d [0, 2] : tensor<1x16x1xf32> -> tensor<16xf32>
  %m = fuser.reduction max %q [0] : tensor<16xf32> -> tensor<f32>
  %n = fuser.neg %m : tensor<f32>
  return %d, %n : tensor<1x16x1xf32>, tensor<f32>
}

// Four rows: `[1]` of 4x16 beside `[1]` of 4x16x1.
func.func @rows_spelled_apart(%x: tensor<4x16x1xf32>) -> (tensor<4x16x1xf32>, tensor<4xf32>) {
  %s = fuser.reduction add %x [1] keepdim : tensor<4x16x1xf32> -> tensor<4x1x1xf32>
  %d = fuser.sub %x, %s : tensor<4x16x1xf32>, tensor<4x1x1xf32> -> tensor<4x16x1xf32>
  %q = fuser.squeeze %d [2] : tensor<4x16x1xf32> -> tensor<4x16xf32>
  %m = fuser.reduction max %q [1] : tensor<4x16xf32> -> tensor<4xf32>
  return %d, %m : tensor<4x16x1xf32>, tensor<4xf32>
}

// The same innermost extent, so the lanes run along both: `[2]` of 4x1x16
// beside `[1]` of 4x16.
func.func @rows_spelled_apart_in_vectors(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x1xf32>) {
  %s = fuser.reduction add %x [1] keepdim : tensor<4x16xf32> -> tensor<4x1xf32>
  %d = fuser.sub %x, %s : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
  %v = fuser.broadcast %d [1] : tensor<4x16xf32> -> tensor<4x1x16xf32>
  %m = fuser.reduction max %v [2] : tensor<4x1x16xf32> -> tensor<4x1xf32>
  return %d, %m : tensor<4x16xf32>, tensor<4x1xf32>
}

func.func @reduced_value_across_rows(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = fuser.reduction max %x [1] keepdim : tensor<4x4xf32> -> tensor<4x1xf32>
  %v = fuser.view %r : tensor<4x1xf32> -> tensor<1x4xf32>
  %y = fuser.add %x, %v : tensor<4x4xf32>, tensor<1x4xf32> -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
