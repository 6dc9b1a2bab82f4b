// Normalization segments keep preseg from making segmentation worse
// (docs/Segmentation.md, "Normalization kernels"; fuser-diff
// --check-preseg-monotone). Each case gives the same kernels and bytes with
// and without fuser-preseg (one, fewer bytes after preseg: ALONE and
// PRESEG), and the merged kernels compute what the interpreter computes,
// bit for bit.
//
// RUN: fuser-opt --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefixes=CHECK,ALONE
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefixes=CHECK,PRESEG
// RUN: fuser-opt --fuser-preseg --fuser-segment %s -o %t.mlir
// RUN: fuser-run %s --entry equal_slices_read_once --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry different_slices_both_read --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry peeled_reduction_reads_written_value --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry reader_split_off_siblings --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry reader_not_split_for_other_shape --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry sibling_reduction_moves_into_normalization --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry sibling_reduction_stays_when_input_still_read --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry peel_value_computed_from_reduction --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry no_peel_of_sliced_reduction --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-opt --fuser-segment %s -o %t.alone.mlir
// RUN: fuser-run %s --entry peel_value_computed_from_reduction --check-against interp --against-file %t.alone.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry sibling_reduction_moves_into_normalization --check-against interp --against-file %t.alone.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry reader_split_off_siblings --check-against interp --against-file %t.alone.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry equal_slices_read_once --check-against interp --against-file %t.alone.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry peeled_reduction_reads_written_value --check-against interp --against-file %t.alone.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC

// RUN: fuser-run %s --entry kernel_moves_with_returned_expand --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry kernel_moves_with_returned_expand --check-against interp --against-file %t.alone.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry reduction_reader_splits --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry reduction_reader_splits --check-against interp --against-file %t.alone.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-opt --fuser-preseg --fuser-segment %s | FileCheck %s --check-prefix=IR
// RUN: fuser-run %t.mlir --entry kernel_moves_with_returned_expand --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry reduction_reader_splits --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry peel_and_split --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry peel_and_split --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// EXEC: check 0: {{.*}} ulp ok

// The result and kernel moves (rules above) on fusions that still need them
// now that results computed from no reduction join a normalization beside
// its rows. fuser-gen seed 1309 (Inputs/, as generated before the op set grew): a reduction kernel gives the normalization
// a result it can compute, and stops reading the 720 bytes that only that
// result needed (without the move: 5770 bytes read, 5050 written).
// RUN: fuser-opt --fuser-segment --fuser-segment-report %S/Inputs/fuser-gen-seed-1309.mlir -o %t.1309.seg.mlir | FileCheck %s --check-prefix=MOVE-RESULT
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-segment-report %S/Inputs/fuser-gen-seed-1309.mlir -o /dev/null | FileCheck %s --check-prefix=MOVE-RESULT
// RUN: fuser-run %S/Inputs/fuser-gen-seed-1309.mlir --entry fusion --check-against interp --against-file %t.1309.seg.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// MOVE-RESULT: fusion @fusion: 2 kernels, 2 segments, reads 5050 bytes, writes 4330 bytes
// fuser-gen seed 146: a kernel all of whose results the normalization can
// compute is part of it, one launch fewer (kept apart: 3 kernels, 5
// segments); the returned expand is an alias of the 50-byte value it
// expands, which the normalization writes. The min over the 1x1 slice
// reduces extent-1 axes only: dropped before segmenting (a copy), it no
// longer needs a reduction kernel of its own (with it: 2 kernels, 30 bytes
// read, 94 written).
// RUN: fuser-opt --fuser-segment --fuser-segment-report %S/Inputs/fuser-gen-seed-146.mlir -o %t.146.seg.mlir | FileCheck %s --check-prefix=MOVE-KERNEL
// RUN: fuser-run %S/Inputs/fuser-gen-seed-146.mlir --entry fusion --check-against interp --against-file %t.146.seg.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// MOVE-KERNEL: fusion @fusion: 1 kernel, 3 segments, reads 26 bytes, writes 92 bytes
// MOVE-KERNEL: segment #0 normalization: reads 26 bytes, writes 92 bytes
// MOVE-KERNEL: segment #2 alias (no kernel): reads 0 bytes, writes 0 bytes
// MOVE-KERNEL-NEXT: in  #0.3: tensor<25xf16>
// MOVE-KERNEL-NEXT: out #2.0: tensor<1x4x25xf16>, view of in 0: sizes [1, 4, 25], strides [0, 0, 1], offset 0 -> return 3
// fuser-gen seed 992: the minimum is computed in the kernel that reads it
// back (a normalization), which writes it for the pointwise kernel that
// scales one element of it (with the minimum apart from its reader: 1012
// bytes read, 744 written), with and without preseg.
// RUN: fuser-opt --fuser-segment --fuser-segment-report %S/Inputs/fuser-gen-seed-992.mlir -o %t.992.seg.mlir | FileCheck %s --check-prefix=PEEL
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-segment-report %S/Inputs/fuser-gen-seed-992.mlir -o /dev/null | FileCheck %s --check-prefix=PEEL
// RUN: fuser-run %S/Inputs/fuser-gen-seed-992.mlir --entry fusion --check-against interp --against-file %t.992.seg.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// PEEL: fusion @fusion: 3 kernels, 3 segments, reads 1002 bytes, writes 736 bytes
// PEEL: segment #1 normalization: reads 8 bytes, writes 12 bytes
// PEEL: segment #2 pointwise: reads 2 bytes, writes 8 bytes
// PEEL-NEXT: in  #1.0: tensor<2xbf16>, 2 bytes

// Rule: a merged segment computes each value once (the producer's and the
// consumer's bodies recompute the same ops from a shared input), so an input
// read through two equal slices is read once: 2 x 4 bytes, not 16 (seed 791).
// CHECK-LABEL: fusion @equal_slices_read_once: 1 kernel, 1 segment, reads 8 bytes, writes 12 bytes
// CHECK-NEXT: segment #0 normalization: reads 8 bytes, writes 12 bytes
func.func @equal_slices_read_once(%x: tensor<4x8xi32>) -> (tensor<2xbf16>, tensor<1xf64>) {
  %s = fuser.slice %x starts [1, 5] limits [4, 6] strides [2, 2] : tensor<4x8xi32> -> tensor<2x1xi32>
  %c = fuser.cast %s : tensor<2x1xi32> to tensor<2x1xbf16>
  %q = fuser.squeeze %c [1] : tensor<2x1xbf16> -> tensor<2xbf16>
  %t = fuser.slice %q starts [1] limits [2] strides [2] : tensor<2xbf16> -> tensor<1xbf16>
  %d = fuser.cast %t : tensor<1xbf16> to tensor<1xf64>
  %e = fuser.exp %d : tensor<1xf64>
  %r = fuser.reduction max %q [0] keepdim : tensor<2xbf16> -> tensor<1xbf16>
  %o = fuser.add %r, %q : tensor<1xbf16>, tensor<2xbf16> -> tensor<2xbf16>
  return %o, %e : tensor<2xbf16>, tensor<1xf64>
}

// Neighbour: two different slices of the input are both read (8 + 4 bytes).
// CHECK-LABEL: fusion @different_slices_both_read: 1 kernel, 1 segment, reads 12 bytes, writes 12 bytes
// CHECK-NEXT: segment #0 normalization: reads 12 bytes, writes 12 bytes
func.func @different_slices_both_read(%x: tensor<4x8xi32>) -> (tensor<2xbf16>, tensor<1xf64>) {
  %s = fuser.slice %x starts [1, 5] limits [4, 6] strides [2, 2] : tensor<4x8xi32> -> tensor<2x1xi32>
  %c = fuser.cast %s : tensor<2x1xi32> to tensor<2x1xbf16>
  %q = fuser.squeeze %c [1] : tensor<2x1xbf16> -> tensor<2xbf16>
  %s2 = fuser.slice %x starts [0, 3] limits [1, 4] strides [1, 1] : tensor<4x8xi32> -> tensor<1x1xi32>
  %q2 = fuser.squeeze %s2 [1] : tensor<1x1xi32> -> tensor<1xi32>
  %d = fuser.cast %q2 : tensor<1xi32> to tensor<1xf64>
  %e = fuser.exp %d : tensor<1xf64>
  %r = fuser.reduction max %q [0] keepdim : tensor<2xbf16> -> tensor<1xbf16>
  %o = fuser.add %r, %q : tensor<1xbf16>, tensor<2xbf16> -> tensor<2xbf16>
  return %o, %e : tensor<2xbf16>, tensor<1xf64>
}

// Rule: the reduction kernel's slice of the mask and the mask itself are
// computed from no reduction, so they are written beside the rows
// (normalization-beside-rows.mlir) and the kernel and its reader merge
// whole: one kernel reads %a and %b once (seed 4558; before outputs beside
// the rows, the reduction moved into its reader, which read the 2-byte mask
// the producer wrote: 2 kernels, 82 bytes read, 324 written).
// CHECK-LABEL: fusion @peeled_reduction_reads_written_value: 1 kernel, 1 segment, reads 48 bytes, writes 322 bytes
// CHECK-NEXT: segment #0 normalization: reads 48 bytes, writes 322 bytes
func.func @peeled_reduction_reads_written_value(%a: tensor<16x2xi1>, %b: tensor<1x2xf64>) -> (tensor<32x2xi1>, tensor<32x2xi32>, tensor<1x1xf16>) {
  %false = arith.constant false
  %c = fuser.cat %a, %a dim 0 : tensor<16x2xi1>, tensor<16x2xi1> -> tensor<32x2xi1>
  %m = fuser.cast %b : tensor<1x2xf64> to tensor<1x2xi1>
  %n = fuser.ne %c, %m : tensor<32x2xi1>, tensor<1x2xi1> -> tensor<32x2xi1>
  %w = fuser.where %n, %false, %c : tensor<32x2xi1>, i1, tensor<32x2xi1> -> tensor<32x2xi1>
  %i = fuser.cast %w : tensor<32x2xi1> to tensor<32x2xi32>
  %r = fuser.reduction min %i [1] keepdim : tensor<32x2xi32> -> tensor<32x1xi32>
  %o = fuser.add %i, %r : tensor<32x2xi32>, tensor<32x1xi32> -> tensor<32x2xi32>
  %s = fuser.slice %w starts [29, 0] limits [30, 1] strides [1, 1] : tensor<32x2xi1> -> tensor<1x1xi1>
  %h = fuser.cast %s : tensor<1x1xi1> to tensor<1x1xf16>
  return %w, %o, %h : tensor<32x2xi1>, tensor<32x2xi32>, tensor<1x1xf16>
}

// Rule: the results that read a reduction's result back onto its rows (the
// product with the sum) join the reduction as a normalization; results that
// do not depend on it (the padded comparison and the cast) do not keep them
// apart: they join the other normalization, beside its rows. 2 kernels, and
// the 4-byte sum is neither written nor read again (seeds 3797, 8323).
// CHECK-LABEL: fusion @reader_split_off_siblings: 2 kernels, 2 segments, reads 18 bytes, writes 53 bytes
// CHECK-NEXT: segment #0 normalization: reads 14 bytes, writes 21 bytes
// CHECK-NEXT: in  %arg0: tensor<4xi1>, 4 bytes
// CHECK-NEXT: in  %arg1: tensor<5xf16>, 10 bytes
// CHECK:      segment #1 normalization: reads 4 bytes, writes 32 bytes
// CHECK-NEXT: in  %arg0: tensor<4xi1>, 4 bytes
// CHECK-NEXT: out #1.0: tensor<8xi32>, 32 bytes -> return 2
func.func @reader_split_off_siblings(%a: tensor<4xi1>, %b: tensor<5xf16>) -> (tensor<4xf16>, tensor<5xi1>, tensor<8xi32>, tensor<4xf16>) {
  %z = arith.constant 0.0 : f16
  %h = fuser.cast %a : tensor<4xi1> to tensor<4xf16>
  %c = fuser.cat %a, %a dim 0 : tensor<4xi1>, tensor<4xi1> -> tensor<8xi1>
  %i = fuser.cast %c : tensor<8xi1> to tensor<8xi32>
  %r = fuser.reduction add %i [0] keepdim : tensor<8xi32> -> tensor<1xi32>
  %p = fuser.pad %h low [1] high [0] value %z : tensor<4xf16>, f16 -> tensor<5xf16>
  %g = fuser.gt %p, %b : tensor<5xf16>, tensor<5xf16> -> tensor<5xi1>
  %m = fuser.mul %r, %i : tensor<1xi32>, tensor<8xi32> -> tensor<8xi32>
  %s = fuser.reduction add %h [0] keepdim : tensor<4xf16> -> tensor<1xf16>
  %n = fuser.mul %s, %h : tensor<1xf16>, tensor<4xf16> -> tensor<4xf16>
  return %n, %g, %m, %h : tensor<4xf16>, tensor<5xi1>, tensor<8xi32>, tensor<4xf16>
}

// Neighbour: the result that depends on the sum is a slice of the row, not a
// row: the reduction and its reader are a normalization that writes the
// row, and the slice is an alias of it. No split.
// Not optimal: a reduction kernel whose sum the other normalization reads,
// beside its rows, writing the slice (2 kernels, 22 bytes read, 37 written),
// moves 12 bytes fewer; of two partitions with as many kernels, the one
// that moves fewer bytes before views are planned is kept (docs, phase 2),
// and the slice's alias is planned after.
// CHECK-LABEL: fusion @reader_not_split_for_other_shape: 2 kernels, 3 segments, reads 18 bytes, writes 53 bytes
// CHECK-NEXT: segment #0 normalization: reads 14 bytes, writes 45 bytes
// CHECK-NEXT: in  %arg0: tensor<4xi1>, 4 bytes
// CHECK-NEXT: in  %arg1: tensor<5xf16>, 10 bytes
// CHECK:      segment #1 alias (no kernel)
func.func @reader_not_split_for_other_shape(%a: tensor<4xi1>, %b: tensor<5xf16>) -> (tensor<4xf16>, tensor<5xi1>, tensor<3xi32>, tensor<4xf16>) {
  %z = arith.constant 0.0 : f16
  %h = fuser.cast %a : tensor<4xi1> to tensor<4xf16>
  %c = fuser.cat %a, %a dim 0 : tensor<4xi1>, tensor<4xi1> -> tensor<8xi1>
  %i = fuser.cast %c : tensor<8xi1> to tensor<8xi32>
  %r = fuser.reduction add %i [0] keepdim : tensor<8xi32> -> tensor<1xi32>
  %p = fuser.pad %h low [1] high [0] value %z : tensor<4xf16>, f16 -> tensor<5xf16>
  %g = fuser.gt %p, %b : tensor<5xf16>, tensor<5xf16> -> tensor<5xi1>
  %m = fuser.mul %r, %i : tensor<1xi32>, tensor<8xi32> -> tensor<8xi32>
  %t = fuser.slice %m starts [0] limits [3] strides [1] : tensor<8xi32> -> tensor<3xi32>
  %s = fuser.reduction add %h [0] keepdim : tensor<4xf16> -> tensor<1xf16>
  %n = fuser.mul %s, %h : tensor<1xf16>, tensor<4xf16> -> tensor<4xf16>
  return %n, %g, %t, %h : tensor<4xf16>, tensor<5xi1>, tensor<3xi32>, tensor<4xf16>
}

// Rule: the row minimum, which the normalization computes anyway, is
// computed there and written for the kernel that takes the maximum over
// all of it (seed 7050); the exponent of %arg1, computed from no
// reduction, is written beside the rows (before outputs beside the rows it
// was a kernel of its own, and a result move took the minimum out of the
// other kernel: 3 kernels, the same bytes). The move itself, which this
// case exercised then: fuser-gen seed 1309 below.
// CHECK-LABEL: fusion @sibling_reduction_moves_into_normalization: 2 kernels, 2 segments, reads 724 bytes, writes 126 bytes
// CHECK-NEXT: segment #0 normalization: reads 544 bytes, writes 124 bytes
// CHECK-NEXT: in  %arg1: tensor<8x4xbf16>, 64 bytes
// CHECK: segment #1 reduction: reads 180 bytes, writes 2 bytes
func.func @sibling_reduction_moves_into_normalization(%x: tensor<5x8xf32>, %y: tensor<8x4xbf16>, %w: tensor<10x8xi32>) -> (tensor<8x4xbf16>, tensor<f16>, tensor<10x1xi32>) {
  %o = fuser.exp %y : tensor<8x4xbf16>
  %c = fuser.cat %x, %x dim 0 : tensor<5x8xf32>, tensor<5x8xf32> -> tensor<10x8xf32>
  %h = fuser.cast %c : tensor<10x8xf32> to tensor<10x8xf16>
  %m = fuser.reduction min %h [1] keepdim : tensor<10x8xf16> -> tensor<10x1xf16>
  %a = fuser.add %h, %m : tensor<10x8xf16>, tensor<10x1xf16> -> tensor<10x8xf16>
  %t = fuser.reduction max %a [0, 1] : tensor<10x8xf16> -> tensor<f16>
  %i = fuser.cast %a : tensor<10x8xf16> to tensor<10x8xi32>
  %d = fuser.div %i, %w : tensor<10x8xi32>, tensor<10x8xi32> -> tensor<10x8xi32>
  %n = fuser.reduction max %d [1] keepdim : tensor<10x8xi32> -> tensor<10x1xi32>
  return %o, %t, %n : tensor<8x4xbf16>, tensor<f16>, tensor<10x1xi32>
}

// Neighbour: the other kernel also returns exp(%h), so it reads %arg0
// anyway; moving the minimum alone saves nothing and it stays.
// Now exp(%h) is written beside the normalization's rows, which reads
// %arg0 anyway (3 kernels and 884 bytes read before).
// CHECK-LABEL: fusion @sibling_reduction_stays_when_input_still_read: 2 kernels, 2 segments, reads 724 bytes, writes 286 bytes
// CHECK-NEXT: segment #0 normalization: reads 544 bytes, writes 284 bytes
// CHECK: segment #1 reduction: reads 180 bytes, writes 2 bytes
func.func @sibling_reduction_stays_when_input_still_read(%x: tensor<5x8xf32>, %y: tensor<8x4xbf16>, %w: tensor<10x8xi32>) -> (tensor<8x4xbf16>, tensor<f16>, tensor<10x1xi32>, tensor<10x8xf16>) {
  %o = fuser.exp %y : tensor<8x4xbf16>
  %c = fuser.cat %x, %x dim 0 : tensor<5x8xf32>, tensor<5x8xf32> -> tensor<10x8xf32>
  %h = fuser.cast %c : tensor<10x8xf32> to tensor<10x8xf16>
  %m = fuser.reduction min %h [1] keepdim : tensor<10x8xf16> -> tensor<10x1xf16>
  %a = fuser.add %h, %m : tensor<10x8xf16>, tensor<10x1xf16> -> tensor<10x8xf16>
  %t = fuser.reduction max %a [0, 1] : tensor<10x8xf16> -> tensor<f16>
  %i = fuser.cast %a : tensor<10x8xf16> to tensor<10x8xi32>
  %d = fuser.div %i, %w : tensor<10x8xi32>, tensor<10x8xi32> -> tensor<10x8xi32>
  %n = fuser.reduction max %d [1] keepdim : tensor<10x8xi32> -> tensor<10x1xi32>
  %e = fuser.exp %h : tensor<10x8xf16>
  return %o, %t, %n, %e : tensor<8x4xbf16>, tensor<f16>, tensor<10x1xi32>, tensor<10x8xf16>
}

// Rule: the reader reads a value computed from the reduction (its f16
// rounding, cast back); the cast of %x is written beside the rows, so the
// whole is one normalization (seed 2523; the rounding stays, so results are
// bit-identical; before outputs beside the rows the reduction moved into
// the reader: 2 kernels, 46 bytes read).
// CHECK-LABEL: fusion @peel_value_computed_from_reduction: 1 kernel, 2 segments, reads 30 bytes, writes 92 bytes
// CHECK-NEXT: segment #0 normalization: reads 30 bytes, writes 92 bytes
func.func @peel_value_computed_from_reduction(%x: tensor<3x5xf16>) -> (tensor<3x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %c = fuser.cast %x : tensor<3x5xf16> to tensor<3x5xf32>
  %s = fuser.slice %c starts [0, 0] limits [2, 4] strides [1, 1] : tensor<3x5xf32> -> tensor<2x4xf32>
  %e = fuser.exp %s : tensor<2x4xf32>
  %m = fuser.reduction max %e [1] keepdim : tensor<2x4xf32> -> tensor<2x1xf32>
  %h = fuser.cast %m : tensor<2x1xf32> to tensor<2x1xf16>
  %g = fuser.cast %h : tensor<2x1xf16> to tensor<2x1xf32>
  %o = fuser.sub %e, %g : tensor<2x4xf32>, tensor<2x1xf32> -> tensor<2x4xf32>
  return %c, %s, %o : tensor<3x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// Neighbour: the reader reads a slice of the reduced rows, which is not
// elementwise on them: no normalization, the split stays.
// CHECK-LABEL: fusion @no_peel_of_sliced_reduction: 2 kernels, 3 segments, reads 50 bytes, writes 96 bytes
// CHECK-NEXT: segment #0 reduction: reads 30 bytes, writes 64 bytes
// CHECK: segment #2 pointwise: reads 20 bytes, writes 32 bytes
func.func @no_peel_of_sliced_reduction(%x: tensor<3x5xf16>) -> (tensor<3x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %c = fuser.cast %x : tensor<3x5xf16> to tensor<3x5xf32>
  %s = fuser.slice %c starts [0, 0] limits [2, 4] strides [1, 1] : tensor<3x5xf32> -> tensor<2x4xf32>
  %e = fuser.exp %s : tensor<2x4xf32>
  %m = fuser.reduction max %e [1] keepdim : tensor<2x4xf32> -> tensor<2x1xf32>
  %h = fuser.slice %m starts [0, 0] limits [1, 1] strides [1, 1] : tensor<2x1xf32> -> tensor<1x1xf32>
  %o = fuser.sub %e, %h : tensor<2x4xf32>, tensor<1x1xf32> -> tensor<2x4xf32>
  return %c, %s, %o : tensor<3x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// Rule: the 1-element cast that preseg leaves unexpanded (fuser-gen seed
// 1707) is computed from no reduction: the normalization writes it beside
// the rows, and its 5-element expand is an alias of that write (before
// outputs beside the rows, the cast's kernel moved into the normalization
// as a whole, which then wrote the expand: 20 bytes, not 4; that move:
// fuser-gen seed 146 below).
// CHECK-LABEL: fusion @kernel_moves_with_returned_expand: 1 kernel, 2 segments, reads 64 bytes, writes 64 bytes
// CHECK-NEXT: segment #0 normalization: reads 64 bytes, writes 64 bytes
// IR-LABEL: func.func @kernel_moves_with_returned_expand
// IR: %[[N:.*]]:2 = fuser.segment normalization
// IR: fuser.yield %{{.*}}, %{{.*}} : tensor<1xf32>, tensor<5x3xf32>
// IR: %[[A:.*]] = fuser.segment alias(%[[N]]#0)
// IR: fuser.expand %{{.*}} : tensor<1xf32> -> tensor<5xf32>
// IR: return %[[A]], %[[N]]#1
func.func @kernel_moves_with_returned_expand(%a: tensor<1xi32>, %x: tensor<5x3xf32>) -> (tensor<5xf32>, tensor<5x3xf32>) {
  %c = fuser.cast %a : tensor<1xi32> to tensor<1xf32>
  %e = fuser.expand %c : tensor<1xf32> -> tensor<5xf32>
  %b = fuser.broadcast %e [1] : tensor<5xf32> -> tensor<5x1xf32>
  %y = fuser.add %x, %b : tensor<5x3xf32>, tensor<5x1xf32> -> tensor<5x3xf32>
  %r = fuser.reduction max %y [1] keepdim : tensor<5x3xf32> -> tensor<5x1xf32>
  %o = fuser.sub %y, %r : tensor<5x3xf32>, tensor<5x1xf32> -> tensor<5x3xf32>
  return %e, %o : tensor<5xf32>, tensor<5x3xf32>
}

// A 7-element value beside it, no row of the normalization, is written
// beside the rows too (it kept the cast's kernel apart before: 2 kernels).
// After preseg, both expands are aliases of 1-element writes (68 bytes
// written); alone, the negated 7-element expand is written (92).
// CHECK-LABEL: fusion @kernel_stays_with_other_result: 1 kernel
// IR-LABEL: func.func @kernel_stays_with_other_result
// IR: fuser.segment normalization
// IR: fuser.segment alias
// IR: fuser.segment alias
func.func @kernel_stays_with_other_result(%a: tensor<1xi32>, %x: tensor<5x3xf32>) -> (tensor<5xf32>, tensor<5x3xf32>, tensor<7xf32>) {
  %c = fuser.cast %a : tensor<1xi32> to tensor<1xf32>
  %e = fuser.expand %c : tensor<1xf32> -> tensor<5xf32>
  %e7 = fuser.expand %c : tensor<1xf32> -> tensor<7xf32>
  %n7 = fuser.neg %e7 : tensor<7xf32>
  %b = fuser.broadcast %e [1] : tensor<5xf32> -> tensor<5x1xf32>
  %y = fuser.add %x, %b : tensor<5x3xf32>, tensor<5x1xf32> -> tensor<5x3xf32>
  %r = fuser.reduction max %y [1] keepdim : tensor<5x3xf32> -> tensor<5x1xf32>
  %o = fuser.sub %y, %r : tensor<5x3xf32>, tensor<5x1xf32> -> tensor<5x3xf32>
  return %e, %o, %n7 : tensor<5xf32>, tensor<5x3xf32>, tensor<7xf32>
}

// Rule: a reader that is a reduction kernel with a reduction of its own
// splits like a pointwise one, once nothing else merges: the product with
// the row maximum joins the maximum as a normalization, the minimum of `y`
// stays a reduction kernel. 2 kernels either way; 29 bytes read instead of
// 57, as the product no longer travels between them (fuser-gen seeds 3753,
// 5841).
// CHECK-LABEL: fusion @reduction_reader_splits: 2 kernels, 2 segments, reads 29 bytes, writes 28 bytes
// IR-LABEL: func.func @reduction_reader_splits
// IR: fuser.segment normalization(%arg0)
// IR: fuser.reduction max
// IR: fuser.mul
// IR: fuser.segment reduction(%arg1)
// IR: fuser.reduction min
func.func @reduction_reader_splits(%x: tensor<6xf32>, %y: tensor<5xi1>) -> (tensor<6xf32>, tensor<i32>) {
  %m = fuser.reduction max %x [0] keepdim : tensor<6xf32> -> tensor<1xf32>
  %yc = fuser.cast %y : tensor<5xi1> to tensor<5xi32>
  %s = fuser.reduction min %yc [0] : tensor<5xi32> -> tensor<i32>
  %o = fuser.mul %x, %m : tensor<6xf32>, tensor<1xf32> -> tensor<6xf32>
  return %o, %s : tensor<6xf32>, tensor<i32>
}

// Neighbour: the product is of 7 elements, no row of the maximum's input,
// so the reader is not split (it would be no normalization).
// CHECK-LABEL: fusion @reduction_reader_kept_for_other_shape: 2 kernels, 2 segments, reads 61 bytes, writes 36 bytes
// IR-LABEL: func.func @reduction_reader_kept_for_other_shape
// IR: fuser.segment reduction(%arg0)
// IR: fuser.segment reduction(%arg1, %arg2, %{{.*}})
func.func @reduction_reader_kept_for_other_shape(%x: tensor<6xf32>, %y: tensor<5xi1>, %z: tensor<7xf32>) -> (tensor<7xf32>, tensor<i32>) {
  %m = fuser.reduction max %x [0] keepdim : tensor<6xf32> -> tensor<1xf32>
  %yc = fuser.cast %y : tensor<5xi1> to tensor<5xi32>
  %s = fuser.reduction min %yc [0] : tensor<5xi32> -> tensor<i32>
  %o = fuser.mul %z, %m : tensor<7xf32>, tensor<1xf32> -> tensor<7xf32>
  return %o, %s : tensor<7xf32>, tensor<i32>
}

// Rule: the difference joins the row maximum as a normalization, which
// writes the pads and casts beside the rows, and the column minimum (a
// reduction of other axes) is a reduction kernel of its own: the input read
// twice, not three times (fuser-gen seed 2029: 768 bytes read and 768
// written more after preseg at first).
// CHECK-LABEL: fusion @peel_and_split: 2 kernels, 2 segments, reads 6144 bytes (6 KiB), writes 6592 bytes
// IR-LABEL: func.func @peel_and_split
// IR: fuser.segment normalization(%arg0)
// IR: fuser.reduction max
// IR: fuser.sub
// IR: fuser.pad %{{.*}} low [1, 0, 0]
// IR: fuser.segment reduction(%arg0)
// IR-NEXT: ^bb0
// IR-NEXT: fuser.reduction min
func.func @peel_and_split(%x: tensor<16x4x12xi32>) -> (tensor<17x4x12xi32>, tensor<16x4x12xi32>, tensor<4x16xi32>) {
  %c = arith.constant -2 : i32
  %0 = fuser.pad %x low [0, 0, 0] high [0, 0, 0] value %c : tensor<16x4x12xi32>, i32 -> tensor<16x4x12xi32>
  %1 = fuser.neg %0 : tensor<16x4x12xi32>
  %2 = fuser.reduction max %1 [1] keepdim : tensor<16x4x12xi32> -> tensor<16x1x12xi32>
  %3 = fuser.sub %1, %2 : tensor<16x4x12xi32>, tensor<16x1x12xi32> -> tensor<16x4x12xi32>
  %c7 = arith.constant 7 : i32
  %4 = fuser.pad %0 low [1, 0, 0] high [0, 0, 0] value %c7 : tensor<16x4x12xi32>, i32 -> tensor<17x4x12xi32>
  %5 = fuser.cast %4 : tensor<17x4x12xi32> to tensor<17x4x12xf32>
  %6 = fuser.cast %5 : tensor<17x4x12xf32> to tensor<17x4x12xi32>
  %12 = fuser.reduction min %0 [2] : tensor<16x4x12xi32> -> tensor<16x4xi32>
  %13 = fuser.permute %12 [1, 0] : tensor<16x4xi32> -> tensor<4x16xi32>
  return %6, %3, %13 : tensor<17x4x12xi32>, tensor<16x4x12xi32>, tensor<4x16xi32>
}

// Neighbour: the difference is permuted, so the reader's part is no
// normalization and nothing moves (the maximum is written and read back).
// After preseg, which moves the `neg` above the permute, the permute is a
// view of the rows the normalization writes: 1536 bytes fewer.
// ALONE-LABEL: fusion @no_peel_and_split_for_permuted_reader: 2 kernels, 2 segments, reads 6912 bytes, writes 7360 bytes
// PRESEG-LABEL: fusion @no_peel_and_split_for_permuted_reader: 2 kernels, 3 segments, reads 6144 bytes (6 KiB), writes 6592 bytes
func.func @no_peel_and_split_for_permuted_reader(%x: tensor<16x4x12xi32>) -> (tensor<17x4x12xi32>, tensor<12x4x16xi32>, tensor<4x16xi32>) {
  %c = arith.constant -2 : i32
  %0 = fuser.pad %x low [0, 0, 0] high [0, 0, 0] value %c : tensor<16x4x12xi32>, i32 -> tensor<16x4x12xi32>
  %1 = fuser.neg %0 : tensor<16x4x12xi32>
  %2 = fuser.reduction max %1 [1] keepdim : tensor<16x4x12xi32> -> tensor<16x1x12xi32>
  %3 = fuser.sub %1, %2 : tensor<16x4x12xi32>, tensor<16x1x12xi32> -> tensor<16x4x12xi32>
  %p3 = fuser.permute %3 [2, 1, 0] : tensor<16x4x12xi32> -> tensor<12x4x16xi32>
  %q3 = fuser.neg %p3 : tensor<12x4x16xi32>
  %c7 = arith.constant 7 : i32
  %4 = fuser.pad %0 low [1, 0, 0] high [0, 0, 0] value %c7 : tensor<16x4x12xi32>, i32 -> tensor<17x4x12xi32>
  %5 = fuser.cast %4 : tensor<17x4x12xi32> to tensor<17x4x12xf32>
  %6 = fuser.cast %5 : tensor<17x4x12xf32> to tensor<17x4x12xi32>
  %12 = fuser.reduction min %0 [2] : tensor<16x4x12xi32> -> tensor<16x4xi32>
  %13 = fuser.permute %12 [1, 0] : tensor<16x4xi32> -> tensor<4x16xi32>
  return %6, %q3, %13 : tensor<17x4x12xi32>, tensor<12x4x16xi32>, tensor<4x16xi32>
}
