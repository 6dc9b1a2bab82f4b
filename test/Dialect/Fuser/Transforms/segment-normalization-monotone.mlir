// Normalization segments keep preseg from making segmentation worse
// (docs/Segmentation.md, "Normalization kernels"; fuser-diff
// --check-preseg-monotone). Each case gives the same kernels and bytes with
// and without fuser-preseg, and the merged kernels compute what the
// interpreter computes, bit for bit.
//
// RUN: fuser-opt --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s
// RUN: fuser-opt --fuser-preseg --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s
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

// Rule: when the reduction moves into its reader, the ops it is computed
// from stop at the producer's inputs, at every value the producer writes, or
// at the written values the reader already reads, whichever reads fewest
// bytes more. Here the reader already reads the 2-byte mask %m: it reads
// that, not the 16-byte %b (which the mask is cast from) nor the 64-byte
// written %w (seed 4558).
// CHECK-LABEL: fusion @peeled_reduction_reads_written_value: 2 kernels, 2 segments, reads 82 bytes, writes 324 bytes
// CHECK-NEXT: segment #0 pointwise: reads 48 bytes, writes 68 bytes
// CHECK: segment #1 normalization: reads 34 bytes, writes 256 bytes
// CHECK-NEXT: in  %arg0: tensor<16x2xi1>, 32 bytes
// CHECK-NEXT: in  #0.0: tensor<1x2xi1>, 2 bytes
// CHECK-NEXT: out #1.0: tensor<32x2xi32>, 256 bytes -> return 1
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

// Rule: a pointwise kernel that reads a reduction kernel's result and also
// computes results that do not depend on it (here the padded comparison and
// the cast, merged in as siblings) splits: the results that do join the
// reduction as a normalization, the others stay a pointwise kernel, when the
// kernels stay as many and fewer bytes move (the 4-byte sum is neither
// written nor read again; seeds 3797, 8323).
// CHECK-LABEL: fusion @reader_split_off_siblings: 3 kernels, 3 segments, reads 22 bytes, writes 53 bytes
// CHECK-NEXT: segment #0 normalization: reads 4 bytes, writes 32 bytes
// CHECK-NEXT: in  %arg0: tensor<4xi1>, 4 bytes
// CHECK-NEXT: out #0.0: tensor<8xi32>, 32 bytes -> return 2
// CHECK-NEXT: segment #1 pointwise: reads 14 bytes, writes 13 bytes
// CHECK: segment #2 normalization: reads 4 bytes, writes 8 bytes
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
// row, so the reduction and its reader are no normalization: no split.
// CHECK-LABEL: fusion @reader_not_split_for_other_shape: 3 kernels, 3 segments, reads 26 bytes, writes 37 bytes
// CHECK-NEXT: segment #0 reduction: reads 4 bytes, writes 4 bytes
// CHECK: segment #1 pointwise: reads 18 bytes, writes 25 bytes
// CHECK: segment #2 normalization: reads 4 bytes, writes 8 bytes
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

// Rule: a result of another kernel moves into a normalization segment that
// can compute it (here the row minimum, which the normalization computes
// anyway), when the kernels stay as many and fewer bytes move: the other
// kernel no longer reads %arg0 (160 bytes; seed 7050).
// CHECK-LABEL: fusion @sibling_reduction_moves_into_normalization: 3 kernels, 3 segments, reads 724 bytes, writes 126 bytes
// CHECK-NEXT: segment #0 pointwise: reads 64 bytes, writes 64 bytes
// CHECK-NEXT: in  %arg1: tensor<8x4xbf16>, 64 bytes
// CHECK: segment #1 normalization: reads 480 bytes, writes 60 bytes
// CHECK: segment #2 reduction: reads 180 bytes, writes 2 bytes
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
// CHECK-LABEL: fusion @sibling_reduction_stays_when_input_still_read: 3 kernels, 3 segments, reads 884 bytes, writes 286 bytes
// CHECK-NEXT: segment #0 reduction: reads 224 bytes, writes 244 bytes
// CHECK: segment #1 reduction: reads 180 bytes, writes 2 bytes
// CHECK: segment #2 normalization: reads 480 bytes, writes 40 bytes
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

// Rule: the reduction moves into its reader also where the reader reads a
// value computed from it (here its f16 rounding, cast back), which moves
// along with it (seed 2523; the rounding stays, so results are
// bit-identical).
// CHECK-LABEL: fusion @peel_value_computed_from_reduction: 2 kernels, 3 segments, reads 46 bytes, writes 92 bytes
// CHECK-NEXT: segment #0 pointwise: reads 30 bytes, writes 60 bytes
// CHECK: segment #2 normalization: reads 16 bytes, writes 32 bytes
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

// Rule: a kernel whose results a normalization can compute moves into it as
// a whole, with the views of them that alias segments return, when that
// launches one kernel fewer: the normalization writes the 5-element expand
// that the alias viewed (20 bytes, not 4), and nothing writes or reads the
// 1-element cast between the kernels (fuser-gen seed 1707: preseg leaves
// such a cast unexpanded).
// CHECK-LABEL: fusion @kernel_moves_with_returned_expand: 1 kernel, 1 segment, reads 64 bytes, writes 80 bytes
// CHECK-NEXT: segment #0 normalization: reads 64 bytes, writes 80 bytes
// IR-LABEL: func.func @kernel_moves_with_returned_expand
// IR: fuser.segment normalization
// IR: %[[E:.*]] = fuser.expand %{{.*}} : tensor<1xf32> -> tensor<5xf32>
// IR: fuser.yield %{{.*}}, %[[E]] : tensor<5x3xf32>, tensor<5xf32>
// IR-NOT: fuser.segment
// IR: return
func.func @kernel_moves_with_returned_expand(%a: tensor<1xi32>, %x: tensor<5x3xf32>) -> (tensor<5xf32>, tensor<5x3xf32>) {
  %c = fuser.cast %a : tensor<1xi32> to tensor<1xf32>
  %e = fuser.expand %c : tensor<1xf32> -> tensor<5xf32>
  %b = fuser.broadcast %e [1] : tensor<5xf32> -> tensor<5x1xf32>
  %y = fuser.add %x, %b : tensor<5x3xf32>, tensor<5x1xf32> -> tensor<5x3xf32>
  %r = fuser.reduction max %y [1] keepdim : tensor<5x3xf32> -> tensor<5x1xf32>
  %o = fuser.sub %y, %r : tensor<5x3xf32>, tensor<5x1xf32> -> tensor<5x3xf32>
  return %e, %o : tensor<5xf32>, tensor<5x3xf32>
}

// Neighbour: the kernel also computes a 7-element value, which is no row of
// the normalization, so it does not move and keeps its alias.
// CHECK-LABEL: fusion @kernel_stays_with_other_result: 2 kernels
// IR-LABEL: func.func @kernel_stays_with_other_result
// IR: fuser.segment pointwise
// IR: fuser.segment alias
// IR: fuser.segment normalization
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

// Rule: where neither the reduction's move into its reader nor the reader's
// split forms a normalization, both at once do, and what is left of the
// producer (pads and casts) merges with the rest of the reader (the column
// minimum): the row maximum and its difference are one normalization, the
// rest one reduction kernel, and the input is read twice, not three times
// (fuser-gen seed 2029: 768 bytes read and 768 written more after preseg).
// CHECK-LABEL: fusion @peel_and_split: 2 kernels, 2 segments, reads 6144 bytes (6 KiB), writes 6592 bytes
// IR-LABEL: func.func @peel_and_split
// IR: fuser.segment normalization(%arg0)
// IR: fuser.reduction max
// IR: fuser.sub
// IR: fuser.segment reduction(%arg0)
// IR: fuser.pad
// IR: fuser.reduction min
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
// CHECK-LABEL: fusion @no_peel_and_split_for_permuted_reader: 2 kernels, 2 segments, reads 6912 bytes, writes 7360 bytes
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
