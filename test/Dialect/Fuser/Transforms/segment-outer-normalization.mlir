// Outer normalization segments (docs/Segmentation.md, "Normalization
// kernels"): reductions over outer axes (the innermost non-unit axis kept)
// and the kernels that combine their results with the un-reduced columns
// again are one `normalization` segment when the column block (the reduced
// extent x the block's tile of columns x the bytes of every input of the
// source shape) with one 32-bit partial per thread and reduction fits the
// 48 KiB budget of a block on sm_90; the tile narrows from 32 columns down to
// one 32-byte sector of the narrowest such input before it falls back to a
// reduction kernel and a pointwise kernel that reads the input again.
//
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-segment-report %S/../../../Conversion/FuserToSCF/Inputs/outer-normalization.mlir -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fuser-opt --fuser-preseg --fuser-segment %S/../../../Conversion/FuserToSCF/Inputs/outer-normalization.mlir -o %t.inputs.mlir
// RUN: fuser-run %S/../../../Conversion/FuserToSCF/Inputs/outer-normalization.mlir --entry colmean --check-against interp --against-file %t.inputs.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/../../../Conversion/FuserToSCF/Inputs/outer-normalization.mlir --entry batchnorm --check-against interp --against-file %t.inputs.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/../../../Conversion/FuserToSCF/Inputs/outer-normalization.mlir --entry colsoftmax --check-against interp --against-file %t.inputs.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-opt --fuser-segment -split-input-file %s | FileCheck %s
// RUN: fuser-opt --fuser-segment=normalization=false -split-input-file %s | FileCheck %s --check-prefix=OFF

// EXEC-NOT: FAILED
// EXEC: check 0: {{.*}} ulp ok
// EXEC-NOT: FAILED

// REPORT: fusion @colmean: 1 kernel, 1 segment, reads 7400 bytes, writes 7400 bytes
// REPORT-NEXT: segment #0 normalization:
// REPORT: fusion @batchnorm: 1 kernel, 1 segment, reads 102800 bytes, writes 103600 bytes
// REPORT-NEXT: segment #0 normalization:
// REPORT: fusion @colsoftmax: 1 kernel, 1 segment
// REPORT-NEXT: segment #0 normalization:
// REPORT: fusion @middle: 1 kernel, 1 segment
// REPORT-NEXT: segment #0 normalization:
// Column blocks of 4096 bf16 rows exceed the budget even at 16 columns: the
// split stays.
// REPORT: fusion @colmean_tall: 2 kernels, 2 segments, reads 1048832 bytes, writes 524544 bytes
// REPORT-NEXT: segment #0 reduction: reads 524288 bytes (512 KiB), writes 256 bytes
// REPORT-NEXT: in  %arg0: tensor<4096x64xbf16>, 524288 bytes (512 KiB)
// REPORT-NEXT: out #0.0: tensor<64xf32>, 256 bytes -> #1
// REPORT-NEXT: not one kernel with #1: a normalization whose column blocks take 132096 bytes of shared memory, over the 49152 a block has
// REPORT-NEXT: segment #1 pointwise:
// REPORT-NOT: normalization
// REPORT: fusion @colscale: 1 kernel, 1 segment
// REPORT-NEXT: segment #0 normalization:

// The column mean subtracted from every row: one segment.
// CHECK-LABEL: func.func @colmean
// CHECK: %[[N:.*]] = fuser.segment normalization(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK: fuser.reduction add %{{.*}} [0] : tensor<8x4xf32> -> tensor<4xf32>
// CHECK: fuser.sub
// CHECK-NOT: fuser.segment
// CHECK: return %[[N]]
// OFF-LABEL: func.func @colmean
// OFF: fuser.segment reduction
// OFF: fuser.segment pointwise
func.func @colmean(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.reduction add %x [0] keepdim : tensor<8x4xf32> -> tensor<1x4xf32>
  %1 = fuser.sub %x, %0 : tensor<8x4xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// Must not merge: an inner and an outer reduction of the same rows in one
// kernel (their blocks cover rows and columns: no block owns what the output
// needs). The column sums stay a reduction kernel (4 columns written, fewer
// bytes than the 8 row sums); the row sums form an inner normalization that
// reads them as an input.
// CHECK-LABEL: func.func @inner_and_outer
// CHECK: %[[COLS:.*]] = fuser.segment reduction(%arg0) : (tensor<8x4xf32>) -> tensor<4xf32>
// CHECK: fuser.reduction add %{{.*}} [0] :
// CHECK-NOT: fuser.reduction
// CHECK: fuser.segment normalization(%arg0, %[[COLS]])
// CHECK-NOT: fuser.reduction add %{{.*}} [0]
// CHECK: fuser.reduction add %{{.*}} [1] :
// CHECK-NOT: fuser.reduction
// CHECK: return
func.func @inner_and_outer(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.reduction add %x [0] keepdim : tensor<8x4xf32> -> tensor<1x4xf32>
  %1 = fuser.reduction add %x [1] keepdim : tensor<8x4xf32> -> tensor<8x1xf32>
  %2 = fuser.sub %x, %0 : tensor<8x4xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
  %3 = fuser.sub %2, %1 : tensor<8x4xf32>, tensor<8x1xf32> -> tensor<8x4xf32>
  return %3 : tensor<8x4xf32>
}

// -----

// Must not merge: the innermost axis is reduced but not only trailing axes
// ([0, 2] of 4x3x8 keeps the middle one): neither rows nor columns.
// CHECK-LABEL: func.func @outer_and_innermost
// CHECK-NOT: fuser.segment normalization
// CHECK: return
func.func @outer_and_innermost(%x: tensor<4x3x8xf32>) -> tensor<4x3x8xf32> {
  %0 = fuser.reduction add %x [0, 2] keepdim : tensor<4x3x8xf32> -> tensor<1x3x1xf32>
  %1 = fuser.sub %x, %0 : tensor<4x3x8xf32>, tensor<1x3x1xf32> -> tensor<4x3x8xf32>
  return %1 : tensor<4x3x8xf32>
}

// -----

// Must not merge: segment_set is a hard boundary (rule 1), also for outer
// normalizations.
// CHECK-LABEL: func.func @segment_set_boundary
// CHECK-NOT: fuser.segment normalization
// CHECK: return
func.func @segment_set_boundary(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.reduction add %x [0] keepdim : tensor<8x4xf32> -> tensor<1x4xf32>
  %1 = fuser.segment_set %0 : tensor<1x4xf32>
  %2 = fuser.sub %x, %1 : tensor<8x4xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// -----

// Must not merge: the consumer transposes the column sums onto the rows, so
// an element needs another column's reduction than its block's.
// CHECK-LABEL: func.func @permuted_columns
// CHECK-NOT: fuser.segment normalization
// CHECK: return
func.func @permuted_columns(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = fuser.reduction add %x [0] keepdim : tensor<4x4xf32> -> tensor<1x4xf32>
  %1 = fuser.expand %0 : tensor<1x4xf32> -> tensor<4x4xf32>
  %2 = fuser.permute %1 [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %3 = fuser.add %x, %2 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

// -----

// At the budget: 1505 rows of f32 are 48160 bytes for the narrowest tile
// (8 columns, one sector), and 256 threads' partials 1024 bytes more.
// CHECK-LABEL: func.func @colmean_at_budget
// CHECK-NOT: fuser.segment normalization
// CHECK: return
func.func @colmean_at_budget(%x: tensor<1505x64xf32>) -> tensor<1505x64xf32> {
  %0 = fuser.reduction add %x [0] keepdim : tensor<1505x64xf32> -> tensor<1x64xf32>
  %1 = fuser.sub %x, %0 : tensor<1505x64xf32>, tensor<1x64xf32> -> tensor<1505x64xf32>
  return %1 : tensor<1505x64xf32>
}

// -----

// Just under it: 1504 rows x 8 columns x 4 bytes and 1024 bytes of
// partials are 49152 bytes.
// CHECK-LABEL: func.func @colmean_under_budget
// CHECK: fuser.segment normalization
func.func @colmean_under_budget(%x: tensor<1504x64xf32>) -> tensor<1504x64xf32> {
  %0 = fuser.reduction add %x [0] keepdim : tensor<1504x64xf32> -> tensor<1x64xf32>
  %1 = fuser.sub %x, %0 : tensor<1504x64xf32>, tensor<1x64xf32> -> tensor<1504x64xf32>
  return %1 : tensor<1504x64xf32>
}
