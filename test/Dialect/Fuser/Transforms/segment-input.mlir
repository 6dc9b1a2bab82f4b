// RUN: fuser-opt --fuser-segment %s | FileCheck %s
// RUN: fuser-opt --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=REPORT
// The rewritten reductions compute the same bits, with and without preseg.
// RUN: fuser-opt --fuser-segment %s -o %t.mlir
// RUN: fuser-opt --fuser-preseg --fuser-segment %s -o %t.preseg.mlir
// RUN: fuser-run %s --entry trivial_reduction --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry squeezed_rows --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry squeezed_rows --check-against interp --against-file %t.preseg.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry squeezed_keepdim --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// The rows' innermost extent is 32 now, so the split reduction reassociates
// (cpu-check-reassociation.mlir); in the interpreter's order it is exact.
// RUN: fuser-run %t.mlir --entry squeezed_rows --backend cpu --split-reductions=false --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
//
// How fuser-segment drops the extent-1 axes of its input before it
// classifies and partitions (docs/Segmentation.md, phase 0): every
// elementwise op and reduction computes on its shape without them, reading
// squeezes and writing a broadcast back.

// EXEC: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// EXEC-NOT: mismatch

// reduction(x, [extent-1 dims]) keepdim -> x: a reduction over extent-1
// axes only gives its element back, so it does not pin the kernel's
// reduction axes: one normalization kernel with the max over [0] (as a
// reduction kernel of its own: 2 kernels, 576 bytes read, 544 written).
// REPORT-LABEL: fusion @trivial_reduction: 1 kernel, 1 segment, reads 544 bytes, writes 512 bytes
// CHECK-LABEL: func.func @trivial_reduction
// CHECK: fuser.segment normalization
// CHECK-NOT: fuser.reduction add
// CHECK: fuser.reduction max
// CHECK-NOT: fuser.segment
func.func @trivial_reduction(%x: tensor<8x1xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %t = fuser.reduction add %x [1] keepdim : tensor<8x1xf32> -> tensor<8x1xf32>
  %m = fuser.reduction max %y [0] keepdim : tensor<8x16xf32> -> tensor<1x16xf32>
  %a = fuser.add %t, %m : tensor<8x1xf32>, tensor<1x16xf32> -> tensor<8x16xf32>
  return %a : tensor<8x16xf32>
}

// reduction(squeeze(x, [3]), [2]) and reduction(x, [2, 3]) keepdim of
// 3x3x32x1 both become reduction(squeeze(x, [3]), [2]) of 3x3x32: the same
// rows, so the whole fusion is one normalization, whose 3x3x1x1 output is
// a broadcast of its reduced rows. (Before reductions were spelled one way,
// a reduction kernel and a normalization: 2 kernels, 2340 bytes read, 1188
// written, with or without preseg.)
// REPORT-LABEL: fusion @squeezed_rows: 1 kernel, 1 segment, reads 1152 bytes, writes 1188 bytes
// CHECK-LABEL: func.func @squeezed_rows
// CHECK: fuser.segment normalization
// CHECK: fuser.squeeze %{{.*}} [3] : tensor<3x3x32x1xf32> -> tensor<3x3x32xf32>
// CHECK: fuser.reduction add %{{.*}} [2] : tensor<3x3x32xf32> -> tensor<3x3xf32>
// CHECK: fuser.broadcast %{{.*}} [2, 3] : tensor<3x3xf32> -> tensor<3x3x1x1xf32>
// CHECK: fuser.reduction add %{{.*}} [2] : tensor<3x3x32xf32> -> tensor<3x3xf32>
// CHECK-NOT: fuser.segment
func.func @squeezed_rows(%x: tensor<3x3x32x1xf32>) -> (tensor<3x3x32x1xf32>, tensor<3x3x1x1xf32>) {
  %0 = fuser.mul %x, %x : tensor<3x3x32x1xf32>, tensor<3x3x32x1xf32> -> tensor<3x3x32x1xf32>
  %q = fuser.squeeze %0 [3] : tensor<3x3x32x1xf32> -> tensor<3x3x32xf32>
  %1 = fuser.reduction add %q [2] : tensor<3x3x32xf32> -> tensor<3x3xf32>
  %2 = fuser.broadcast %1 [2, 3] : tensor<3x3xf32> -> tensor<3x3x1x1xf32>
  %3 = fuser.mul %0, %2 : tensor<3x3x32x1xf32>, tensor<3x3x1x1xf32> -> tensor<3x3x32x1xf32>
  %4 = fuser.reduction add %3 [2, 3] keepdim : tensor<3x3x32x1xf32> -> tensor<3x3x1x1xf32>
  %5 = fuser.add %3, %4 : tensor<3x3x32x1xf32>, tensor<3x3x1x1xf32> -> tensor<3x3x32x1xf32>
  return %5, %2 : tensor<3x3x32x1xf32>, tensor<3x3x1x1xf32>
}

// reduction(x, dims) keepdim -> broadcast(reduction(x, dims), dims): the
// kernel reduces the squeezed rows and writes them with the extent-1 axes
// the caller reads.
// REPORT-LABEL: fusion @squeezed_keepdim: 1 kernel, 1 segment, reads 128 bytes, writes 16 bytes
// CHECK-LABEL: func.func @squeezed_keepdim
// CHECK: fuser.segment reduction
// CHECK: %[[Q:.*]] = fuser.squeeze %{{.*}} [2] : tensor<4x8x1xf32> -> tensor<4x8xf32>
// CHECK: %[[R:.*]] = fuser.reduction add %[[Q]] [1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK: fuser.broadcast %[[R]] [1] : tensor<4xf32> -> tensor<4x1xf32>
func.func @squeezed_keepdim(%x: tensor<4x8x1xf32>) -> tensor<4x1xf32> {
  %q = fuser.squeeze %x [2] : tensor<4x8x1xf32> -> tensor<4x8xf32>
  %r = fuser.reduction add %q [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}
