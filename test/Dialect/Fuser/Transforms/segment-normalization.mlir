// Normalization segments (docs/Segmentation.md, "Normalization kernels"): a
// reduction over the innermost axes and the kernels that combine its result
// with the rows again are one `normalization` segment when a row of the
// inputs that vary along it, with 128 bytes per block-wide combine, fits the
// 48 KiB budget of a block on sm_90; otherwise the split stays (a kernel
// per reduction and a pointwise kernel that reads the rows again).
//
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-segment-report %S/../../../Conversion/FuserToSCF/Inputs/normalization.mlir -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fuser-opt --fuser-preseg --fuser-segment %S/../../../Conversion/FuserToSCF/Inputs/normalization.mlir -o %t.inputs.mlir
// RUN: fuser-run %S/../../../Conversion/FuserToSCF/Inputs/normalization.mlir --entry rmsnorm --check-against interp --against-file %t.inputs.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/../../../Conversion/FuserToSCF/Inputs/normalization.mlir --entry softmax --check-against interp --against-file %t.inputs.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/../../../Conversion/FuserToSCF/Inputs/normalization.mlir --entry layernorm --check-against interp --against-file %t.inputs.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %S/../../../Conversion/FuserToSCF/Inputs/normalization.mlir --entry rmsnorm_bwd --check-against interp --against-file %t.inputs.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-opt --fuser-segment -split-input-file %s | FileCheck %s
// RUN: fuser-opt --fuser-segment=normalization=false -split-input-file %s | FileCheck %s --check-prefix=OFF

// EXEC: check 0: {{.*}} ulp ok

// REPORT: fusion @rmsnorm: 1 kernel, 1 segment, reads 130000 bytes, writes 128000 bytes
// REPORT-NEXT: segment #0 normalization:
// REPORT: fusion @softmax: 1 kernel, 1 segment
// REPORT-NEXT: segment #0 normalization:
// The mean and rstd leave the kernel too (16 rows x 4 bytes each).
// REPORT: fusion @layernorm: 1 kernel, 1 segment, reads 147456 bytes (144 KiB), writes 131200 bytes
// REPORT-NEXT: segment #0 normalization:
// REPORT: fusion @rmsnorm_bwd: 1 kernel, 1 segment
// REPORT-NEXT: segment #0 normalization:
// Rows of 65536 bytes exceed the budget: the softmax stays split.
// REPORT: fusion @softmax_long: 3 kernels, 3 segments, reads 786480 bytes, writes 262176 bytes
// REPORT-NEXT: segment #0 reduction: reads 262144 bytes (256 KiB), writes 16 bytes
// REPORT-NEXT: in  %arg0: tensor<4x16384xf32>, 262144 bytes (256 KiB)
// REPORT-NEXT: out #0.0: tensor<4xf32>, 16 bytes -> #1, #2
// REPORT-NEXT: not one kernel with #1: a normalization whose rows take 65792 bytes of shared memory, over the 49152 a block has
// REPORT-NEXT: not one kernel with #2: a normalization whose rows take 65664 bytes of shared memory, over the 49152 a block has
// REPORT-NEXT: segment #1 reduction: reads 262160 bytes, writes 16 bytes
// REPORT: segment #2 pointwise:
// REPORT-NOT: normalization

// The softmax pattern: the max kernel, the sum-of-exp kernel and the
// division merge into one segment with both reductions, in program order.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[N:.*]] = fuser.segment normalization(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK: fuser.reduction max
// CHECK: fuser.reduction add
// CHECK: fuser.div
// CHECK-NOT: fuser.segment
// CHECK: return %[[N]]
// OFF-LABEL: func.func @softmax
// OFF: fuser.segment reduction
// OFF: fuser.segment reduction
// OFF: fuser.segment pointwise
func.func @softmax(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.reduction max %x [1] keepdim : tensor<8x4xf32> -> tensor<8x1xf32>
  %1 = fuser.sub %x, %0 : tensor<8x4xf32>, tensor<8x1xf32> -> tensor<8x4xf32>
  %2 = fuser.exp %1 : tensor<8x4xf32>
  %3 = fuser.reduction add %2 [1] keepdim : tensor<8x4xf32> -> tensor<8x1xf32>
  %4 = fuser.div %2, %3 : tensor<8x4xf32>, tensor<8x1xf32> -> tensor<8x4xf32>
  return %4 : tensor<8x4xf32>
}

// -----

// The reduction is over the outer axis, so its result meets columns, not
// rows: an outer normalization (segment-outer-normalization.mlir), one
// segment as well.
// CHECK-LABEL: func.func @outer_axis
// CHECK: fuser.segment normalization
// CHECK-NOT: fuser.segment
func.func @outer_axis(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.reduction add %x [0] keepdim : tensor<8x4xf32> -> tensor<1x4xf32>
  %1 = fuser.sub %x, %0 : tensor<8x4xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// Must not merge: segment_set is a hard boundary (rule 1), also for
// normalization segments.
// CHECK-LABEL: func.func @segment_set_boundary
// CHECK-NOT: fuser.segment normalization
// CHECK: return
func.func @segment_set_boundary(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.reduction add %x [1] keepdim : tensor<8x4xf32> -> tensor<8x1xf32>
  %1 = fuser.segment_set %0 : tensor<8x1xf32>
  %2 = fuser.sub %x, %1 : tensor<8x4xf32>, tensor<8x1xf32> -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// -----

// Must not merge: the consumer permutes the rows, so an element of its
// output needs another row's reduction than its block's.
// CHECK-LABEL: func.func @permuted_rows
// CHECK: fuser.segment reduction
// CHECK: fuser.segment pointwise
func.func @permuted_rows(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = fuser.reduction add %x [1] keepdim : tensor<4x4xf32> -> tensor<4x1xf32>
  %1 = fuser.expand %0 : tensor<4x1xf32> -> tensor<4x4xf32>
  %2 = fuser.permute %1 [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %3 = fuser.add %x, %2 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

// -----

// At the budget: a row of 12288 f32 is 48 KiB, and the two combines need
// 256 bytes more, which ptxas would refuse (0xc100 bytes of shared data).
// CHECK-LABEL: func.func @softmax_at_budget
// CHECK-NOT: fuser.segment normalization
// CHECK: return
func.func @softmax_at_budget(%x: tensor<2x12288xf32>) -> tensor<2x12288xf32> {
  %0 = fuser.reduction max %x [1] keepdim : tensor<2x12288xf32> -> tensor<2x1xf32>
  %1 = fuser.sub %x, %0 : tensor<2x12288xf32>, tensor<2x1xf32> -> tensor<2x12288xf32>
  %2 = fuser.exp %1 : tensor<2x12288xf32>
  %3 = fuser.reduction add %2 [1] keepdim : tensor<2x12288xf32> -> tensor<2x1xf32>
  %4 = fuser.div %2, %3 : tensor<2x12288xf32>, tensor<2x1xf32> -> tensor<2x12288xf32>
  return %4 : tensor<2x12288xf32>
}

// -----

// Just under it: rows of 12224 f32 (48896 bytes) and 256 bytes of combines.
// CHECK-LABEL: func.func @softmax_under_budget
// CHECK: fuser.segment normalization
func.func @softmax_under_budget(%x: tensor<2x12224xf32>) -> tensor<2x12224xf32> {
  %0 = fuser.reduction max %x [1] keepdim : tensor<2x12224xf32> -> tensor<2x1xf32>
  %1 = fuser.sub %x, %0 : tensor<2x12224xf32>, tensor<2x1xf32> -> tensor<2x12224xf32>
  %2 = fuser.exp %1 : tensor<2x12224xf32>
  %3 = fuser.reduction add %2 [1] keepdim : tensor<2x12224xf32> -> tensor<2x1xf32>
  %4 = fuser.div %2, %3 : tensor<2x12224xf32>, tensor<2x1xf32> -> tensor<2x12224xf32>
  return %4 : tensor<2x12224xf32>
}
