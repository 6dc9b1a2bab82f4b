// Rule 9 of docs/Segmentation.md: sibling kernels (no producer/consumer edge
// between them), first those that read a common tensor, then any others,
// share a kernel when the merged kernel is still pointwise or a reduction
// with one set of axes (rules 4 and 5), no cycle forms and no segment_set
// is crossed. Kernel counts and bytes from the report; results
// bit-identical under the interpreter.
// RUN: fuser-opt --fuser-segment=normalization=false --fuser-segment-report %s -o /dev/null | FileCheck %s
// RUN: fuser-opt --fuser-segment=normalization=false %s -o %t.mlir
// RUN: fuser-run %s --entry issue_casts --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry same_shape --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry broadcast_sibling --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry pointwise_next_to_reduction --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry same_space_unrelated --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry cycle_bail_out --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry axes_bail_out --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry broadcast_back_bail_out --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry segment_set_bail_out --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry views_of_one_value --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// The issue's example after preseg: one kernel, as without preseg.
// RUN: fuser-opt --fuser-preseg --fuser-segment=normalization=false --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=PRESEG
// RUN: fuser-opt --fuser-preseg --fuser-segment=normalization=false %s -o %t.preseg.mlir
// RUN: fuser-run %s --entry issue_casts --check-against interp --against-file %t.preseg.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC

// EXEC: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok

// CHECK: fusion @issue_casts: 1 kernel, 1 segment, reads 128 bytes, writes 384 bytes
// PRESEG: fusion @issue_casts: 1 kernel, 1 segment, reads 128 bytes, writes 384 bytes
func.func @issue_casts(%x: tensor<4x8xf32>) -> (tensor<4x8xf64>, tensor<4x8xf32>) {
  %0 = fuser.cast %x : tensor<4x8xf32> to tensor<4x8xf64>
  %1 = fuser.cast %0 : tensor<4x8xf64> to tensor<4x8xf16>
  %2 = fuser.cast %1 : tensor<4x8xf16> to tensor<4x8xf32>
  return %0, %2 : tensor<4x8xf64>, tensor<4x8xf32>
}

// Two pointwise ops of one shape reading the same input: x is read once.
// CHECK: fusion @same_shape: 1 kernel, 1 segment, reads 128 bytes, writes 256 bytes
// CHECK-NEXT: segment #0 pointwise: reads 128 bytes, writes 256 bytes
func.func @same_shape(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = fuser.exp %x : tensor<4x8xf32>
  %1 = fuser.neg %x : tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// A pointwise op and its broadcast sibling: one kernel over [4, 8].
// CHECK: fusion @broadcast_sibling: 1 kernel, 1 segment, reads 160 bytes, writes 160 bytes
func.func @broadcast_sibling(%x: tensor<8xf32>, %y: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4x8xf32>) {
  %0 = fuser.add %x, %x : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  %1 = fuser.broadcast %x [0] : tensor<8xf32> -> tensor<1x8xf32>
  %2 = fuser.add %1, %y : tensor<1x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0, %2 : tensor<8xf32>, tensor<4x8xf32>
}

// A pointwise output next to a reduction over the same input: the reduction
// kernel also writes it.
// CHECK: fusion @pointwise_next_to_reduction: 1 kernel, 1 segment, reads 256 bytes, writes 272 bytes
// CHECK-NEXT: segment #0 reduction: reads 256 bytes, writes 272 bytes
func.func @pointwise_next_to_reduction(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4xf32>) {
  %0 = fuser.neg %x : tensor<4x16xf32>
  %1 = fuser.reduction add %x [1] : tensor<4x16xf32> -> tensor<4xf32>
  return %0, %1 : tensor<4x16xf32>, tensor<4xf32>
}

// Nothing shared, one iteration space: one launch instead of two.
// CHECK: fusion @same_space_unrelated: 1 kernel, 1 segment, reads 256 bytes, writes 256 bytes
func.func @same_space_unrelated(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = fuser.exp %x : tensor<4x8xf32>
  %1 = fuser.neg %y : tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// Bail-out, cycle: %w shares %x with the first reduction but reads it back
// through the second reduction's kernel.
// CHECK: fusion @cycle_bail_out: 3 kernels, 3 segments
func.func @cycle_bail_out(%x: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %t = fuser.reduction add %x [1] keepdim : tensor<8x4xf32> -> tensor<8x1xf32>
  %u = fuser.expand %t : tensor<8x1xf32> -> tensor<8x4xf32>
  %m = fuser.mul %u, %y : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  %v = fuser.reduction add %m [0] keepdim : tensor<8x4xf32> -> tensor<1x4xf32>
  %w = fuser.add %x, %v : tensor<8x4xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
  return %w : tensor<8x4xf32>
}

// Bail-out, rule 4: sibling reductions over different axes stay apart.
// CHECK: fusion @axes_bail_out: 2 kernels, 2 segments
func.func @axes_bail_out(%x: tensor<8x4xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  %0 = fuser.reduction add %x [0] : tensor<8x4xf32> -> tensor<4xf32>
  %1 = fuser.reduction max %x [1] : tensor<8x4xf32> -> tensor<8xf32>
  return %0, %1 : tensor<4xf32>, tensor<8xf32>
}

// Bail-out, rule 5: the sub shares %x with the reduction but reads its
// result broadcast back to the full domain.
// CHECK: fusion @broadcast_back_bail_out: 2 kernels, 2 segments
func.func @broadcast_back_bail_out(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.reduction max %x [1] keepdim : tensor<8x4xf32> -> tensor<8x1xf32>
  %1 = fuser.sub %x, %0 : tensor<8x4xf32>, tensor<8x1xf32> -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// Bail-out, rule 1: the add shares %x with the exp kernel but reads its
// segment_set.
// CHECK: fusion @segment_set_bail_out: 2 kernels, 2 segments
func.func @segment_set_bail_out(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fuser.exp %x : tensor<4x8xf32>
  %1 = fuser.segment_set %0 : tensor<4x8xf32>
  %2 = fuser.add %1, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// Rule 6: a value that leaves its kernel only as two views (preseg moves the
// broadcast below the neg) is written once; both results alias it.
// CHECK: fusion @views_of_one_value: 1 kernel, 2 segments, reads 24 bytes, writes 24 bytes
// CHECK-NEXT: segment #0 pointwise: reads 24 bytes, writes 24 bytes
// CHECK: segment #1 alias
func.func @views_of_one_value(%x: tensor<1x12xf16>) -> (tensor<1x12x1xf16>, tensor<12x1xf16>) {
  %0 = fuser.neg %x : tensor<1x12xf16>
  %1 = fuser.broadcast %0 [2] : tensor<1x12xf16> -> tensor<1x12x1xf16>
  %2 = fuser.view %0 : tensor<1x12xf16> -> tensor<12x1xf16>
  return %1, %2 : tensor<1x12x1xf16>, tensor<12x1xf16>
}
