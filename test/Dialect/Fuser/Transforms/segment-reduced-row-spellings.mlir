// A normalization's reduced rows spelled with other extent-1 axes
// (docs/Segmentation.md, phase 0 and the normalization template).
// - Every reduction computes on its source without extent-1 axes and
//   without keepdim, so reductions of the same rows spelled apart become
//   the same reduction:
//     reduction(x [1x5x16], [1], keepdim), reduction(x, [0, 1])
//       -> reduction(squeeze(x) [5x16], [0]), reshaped back for each reader
// - A squeeze, broadcast or view may carry a row or a reduced row through
//   any spelling of its extent-1 axes (the elements stay in order), and a
//   normalization writes one in any spelling:
//     broadcast(reduction(x [3x1x8], [1, 2]) : 3, [1, 2]) : 3x1x1
//   is a reduced row beside reduction(x, [2], keepdim) : 3x1x1.
// Each case is one kernel with and without fuser-preseg (which writes both
// spellings), and the kernels compute what the interpreter does, bit for
// bit, on the CPU backend.
// Must not fire: an elementwise op broadcasting a reduced row spelled
// otherwise (`1x1x4` beside rows spelled `1x4x4` would add row j's value to
// column j) stays out of the normalization.
//
// RUN: fuser-opt --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s
// CHECK: fusion @inner_squeezed_reduction: 1 kernel, 1 segment
// CHECK-NEXT: segment #0 normalization:
// CHECK: fusion @inner_unit_axes_beside: 1 kernel, 1 segment
// CHECK-NEXT: segment #0 normalization:
// CHECK: fusion @outer_leading_unit_axis: 1 kernel, 1 segment
// CHECK-NEXT: segment #0 normalization:
// CHECK: fusion @squeezed_leading_unit_axis: 1 kernel, 1 segment
// CHECK-NEXT: segment #0 normalization:
// CHECK: fusion @reduced_row_broadcast_along_row: 2 kernels
// CHECK: not a normalization: 'fuser.add' broadcasts a reduced row spelled with other extent-1 axes
//
// RUN: fuser-opt --fuser-segment %s -o %t.alone.mlir
// RUN: fuser-opt --fuser-preseg --fuser-segment %s -o %t.preseg.mlir
// RUN: fuser-run %t.alone.mlir --entry inner_squeezed_reduction --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.preseg.mlir --entry inner_squeezed_reduction --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.alone.mlir --entry inner_unit_axes_beside --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.preseg.mlir --entry inner_unit_axes_beside --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.alone.mlir --entry outer_leading_unit_axis --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.preseg.mlir --entry outer_leading_unit_axis --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.alone.mlir --entry squeezed_leading_unit_axis --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.preseg.mlir --entry squeezed_leading_unit_axis --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.alone.mlir --entry reduced_row_broadcast_along_row --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.preseg.mlir --entry reduced_row_broadcast_along_row --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAILED
// EXEC: check 0: {{.*}} ulp ok
// EXEC-NOT: FAILED

// Rows of 8 spelled 3x1x8: a keepdim reduction over [1, 2] (preseg: [2])
// and a min over the squeezed rows, broadcast back (fuser-gen seed 200 of
// the normalization family, minimized).
func.func @inner_squeezed_reduction(%arg0: tensor<3x1x8xf32>) -> (tensor<3x1x8xf32>, tensor<3x1x1xf32>) {
  %0 = fuser.mul %arg0, %arg0 : tensor<3x1x8xf32>, tensor<3x1x8xf32> -> tensor<3x1x8xf32>
  %1 = fuser.reduction add %0 [1, 2] keepdim : tensor<3x1x8xf32> -> tensor<3x1x1xf32>
  %2 = fuser.sub %0, %1 : tensor<3x1x8xf32>, tensor<3x1x1xf32> -> tensor<3x1x8xf32>
  %3 = fuser.reduction min %2 [1, 2] : tensor<3x1x8xf32> -> tensor<3xf32>
  %4 = fuser.broadcast %3 [1, 2] : tensor<3xf32> -> tensor<3x1x1xf32>
  %5 = fuser.mul %2, %4 : tensor<3x1x8xf32>, tensor<3x1x1xf32> -> tensor<3x1x8xf32>
  return %5, %1 : tensor<3x1x8xf32>, tensor<3x1x1xf32>
}

// Rows of 33 spelled 16x1x33x1: keepdim reductions over [2, 3] and one
// without keepdim (16x1), broadcast back (seed 6, minimized).
func.func @inner_unit_axes_beside(%arg0: tensor<16x1x33x1xbf16>) -> tensor<16x1x33x1xbf16> {
  %0 = fuser.cast %arg0 : tensor<16x1x33x1xbf16> to tensor<16x1x33x1xf32>
  %1 = fuser.reduction max %0 [2, 3] keepdim : tensor<16x1x33x1xf32> -> tensor<16x1x1x1xf32>
  %2 = fuser.sub %0, %1 : tensor<16x1x33x1xf32>, tensor<16x1x1x1xf32> -> tensor<16x1x33x1xf32>
  %3 = fuser.exp %2 : tensor<16x1x33x1xf32>
  %4 = fuser.reduction add %3 [2, 3] : tensor<16x1x33x1xf32> -> tensor<16x1xf32>
  %5 = fuser.broadcast %4 [2, 3] : tensor<16x1xf32> -> tensor<16x1x1x1xf32>
  %6 = fuser.div %3, %5 : tensor<16x1x33x1xf32>, tensor<16x1x1x1xf32> -> tensor<16x1x33x1xf32>
  %7 = fuser.cast %6 : tensor<16x1x33x1xf32> to tensor<16x1x33x1xbf16>
  return %7 : tensor<16x1x33x1xbf16>
}

// Columns of 16 spelled 1x5x16: a keepdim max over [0, 1] (preseg: [1])
// and a sum over the squeezed columns (preseg: a squeeze first), broadcast
// back (seed 8534, minimized).
func.func @outer_leading_unit_axis(%arg0: tensor<1x5x16xbf16>) -> (tensor<1x5x16xbf16>, tensor<1x1x16xf32>) {
  %0 = fuser.cast %arg0 : tensor<1x5x16xbf16> to tensor<1x5x16xf32>
  %1 = fuser.reduction max %0 [0, 1] keepdim : tensor<1x5x16xf32> -> tensor<1x1x16xf32>
  %2 = fuser.sub %0, %1 : tensor<1x5x16xf32>, tensor<1x1x16xf32> -> tensor<1x5x16xf32>
  %3 = fuser.reduction add %2 [0, 1] : tensor<1x5x16xf32> -> tensor<16xf32>
  %4 = fuser.broadcast %3 [0, 1] : tensor<16xf32> -> tensor<1x1x16xf32>
  %5 = fuser.mul %2, %4 : tensor<1x5x16xf32>, tensor<1x1x16xf32> -> tensor<1x5x16xf32>
  %6 = fuser.cast %5 : tensor<1x5x16xf32> to tensor<1x5x16xbf16>
  return %6, %1 : tensor<1x5x16xbf16>, tensor<1x1x16xf32>
}

// Rows of 16 spelled 1x8x16: a keepdim sum over [2], beside a max over the
// squeezed rows that is also written in its own spelling (8, not 1x8):
// both reduce [1] of 8x16, and the written 8 is the reduced row.
func.func @squeezed_leading_unit_axis(%x: tensor<1x8x16xf32>) -> (tensor<1x8x16xf32>, tensor<8xf32>) {
  %0 = fuser.reduction add %x [2] keepdim : tensor<1x8x16xf32> -> tensor<1x8x1xf32>
  %1 = fuser.sub %x, %0 : tensor<1x8x16xf32>, tensor<1x8x1xf32> -> tensor<1x8x16xf32>
  %2 = fuser.squeeze %1 [0] : tensor<1x8x16xf32> -> tensor<8x16xf32>
  %3 = fuser.reduction max %2 [1] : tensor<8x16xf32> -> tensor<8xf32>
  %4 = fuser.broadcast %3 [0, 2] : tensor<8xf32> -> tensor<1x8x1xf32>
  %5 = fuser.mul %1, %4 : tensor<1x8x16xf32>, tensor<1x8x1xf32> -> tensor<1x8x16xf32>
  return %5, %3 : tensor<1x8x16xf32>, tensor<8xf32>
}

// Must not merge: the row sums of 4x1x4 spelled 1x1x4 and added to the rows
// spelled 1x4x4 broadcast sum i along column i.
func.func @reduced_row_broadcast_along_row(%arg0: tensor<4x1x4xf32>) -> tensor<1x4x4xf32> {
  %0 = fuser.reduction add %arg0 [2] : tensor<4x1x4xf32> -> tensor<4x1xf32>
  %1 = fuser.squeeze %0 [1] : tensor<4x1xf32> -> tensor<4xf32>
  %2 = fuser.broadcast %1 [0, 1] : tensor<4xf32> -> tensor<1x1x4xf32>
  %3 = fuser.view %arg0 : tensor<4x1x4xf32> -> tensor<1x4x4xf32>
  %4 = fuser.add %3, %2 : tensor<1x4x4xf32>, tensor<1x1x4xf32> -> tensor<1x4x4xf32>
  return %4 : tensor<1x4x4xf32>
}
