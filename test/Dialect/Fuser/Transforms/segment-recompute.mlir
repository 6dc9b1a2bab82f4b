// RUN: fuser-opt --fuser-segment=normalization=false --fuser-segment-report %s -o /dev/null | FileCheck %s
// RUN: fuser-opt --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=NORM
// RUN: fuser-opt --fuser-segment=normalization=false %s -o %t.mlir
// RUN: fuser-run %s --entry segment_set_of_input --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry shared_source --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry copy_then_expand --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry slice_of_value_written_for_views --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry returned_view_of_written_value --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry alias_of_written_source --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry segment_set_view_used_first --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry view_used_twice_without_segment_set --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry slice_after_elementwise --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry slice_after_elementwise_covers_more --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry slice_or_recompute --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-opt --fuser-segment %s -o %t.norm.mlir
// RUN: fuser-run %s --entry latest_sibling --check-against interp --against-file %t.norm.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC

// Rule 10 (recompute where that moves fewer bytes) and rule 6 (views of
// written memory), in the cases where preseg's rewrites made segmentation
// worse than segmenting alone (issue 11, item 5; fuser-diff
// --check-preseg-monotone, docs/Segmentation.md). Each case has its
// must-not-fire neighbour.

// EXEC: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok

// A segment_set of memory that exists (an input) is a view of it, so a
// kernel recomputes through it from the input (6 bytes) instead of reading
// the f32 cast (24 bytes, plus its write). Seeds 1406, 4045.
// CHECK-LABEL: fusion @segment_set_of_input: 2 kernels, 2 segments, reads 16 bytes, writes 28 bytes
// CHECK:       segment #1 pointwise: reads 10 bytes, writes 24 bytes
// CHECK-NEXT:    in  %arg0: tensor<6xi1>, 6 bytes
// CHECK-NEXT:    in  #0.0: tensor<f32>, 4 bytes
func.func @segment_set_of_input(%x: tensor<6xi1>) -> tensor<1x6xf32> {
  %b = fuser.broadcast %x [0] : tensor<6xi1> -> tensor<1x6xi1>
  %s = fuser.segment_set %b : tensor<1x6xi1>
  %c = fuser.cast %s : tensor<1x6xi1> to tensor<1x6xf32>
  %r = fuser.reduction add %c [1] keepdim : tensor<1x6xf32> -> tensor<1x1xf32>
  %o = fuser.add %c, %r : tensor<1x6xf32>, tensor<1x1xf32> -> tensor<1x6xf32>
  return %o : tensor<1x6xf32>
}

// Not through a segment_set of a kernel value: its producer writes it
// (rule 1), and the readers read it rather than recompute the `neg`.
// CHECK-LABEL: fusion @segment_set_of_kernel_value: 3 kernels, 3 segments, reads 80 bytes, writes 80 bytes
// CHECK:       segment #2 pointwise: reads 32 bytes, writes 48 bytes
// CHECK-NEXT:    in  #0.0: tensor<1x6xf32>, 24 bytes
func.func @segment_set_of_kernel_value(%x: tensor<6xf32>) -> tensor<1x6xf64> {
  %n = fuser.neg %x : tensor<6xf32>
  %b = fuser.broadcast %n [0] : tensor<6xf32> -> tensor<1x6xf32>
  %s = fuser.segment_set %b : tensor<1x6xf32>
  %c = fuser.cast %s : tensor<1x6xf32> to tensor<1x6xf64>
  %r = fuser.reduction add %c [1] keepdim : tensor<1x6xf64> -> tensor<1x1xf64>
  %o = fuser.add %c, %r : tensor<1x6xf64>, tensor<1x1xf64> -> tensor<1x6xf64>
  return %o : tensor<1x6xf64>
}

// Nor where the reader also uses the view under the segment_set directly
// (the `sub` reaches %b before the `add` reaches it through %s): what a
// view reads is read through the segment_set whichever use comes first, so
// the reader reads the f64 cast (48 bytes) rather than recomputing it
// from %x (12 bytes) and computing the segment_set in its own kernel.
// Without preseg seeds 5306 and 6011 (and 5133) did that, and preseg, which
// drops the views around the segment_set, kept rule 1.
// CHECK-LABEL: fusion @segment_set_view_used_first: 2 kernels, 3 segments, reads 68 bytes, writes 104 bytes
// CHECK:       segment #2 pointwise: reads 56 bytes, writes 48 bytes
// CHECK-NEXT:    in  #0.0: tensor<6xf64>, 48 bytes
// CHECK-NEXT:    in  #0.1: tensor<f64>, 8 bytes
func.func @segment_set_view_used_first(%x: tensor<6xf16>) -> (tensor<1x6xf64>, tensor<1x1xf64>) {
  %e = fuser.cast %x : tensor<6xf16> to tensor<6xf64>
  %b = fuser.broadcast %e [0] : tensor<6xf64> -> tensor<1x6xf64>
  %s = fuser.segment_set %b : tensor<1x6xf64>
  %m = fuser.reduction max %b [1] keepdim : tensor<1x6xf64> -> tensor<1x1xf64>
  %o = fuser.sub %b, %m : tensor<1x6xf64>, tensor<1x1xf64> -> tensor<1x6xf64>
  %t = fuser.add %o, %s : tensor<1x6xf64>, tensor<1x6xf64> -> tensor<1x6xf64>
  return %t, %m : tensor<1x6xf64>, tensor<1x1xf64>
}

// Must not block: the same fusion without the segment_set recomputes the
// cast from %x in the reader (12 bytes read instead of 48 read and
// written).
// CHECK-LABEL: fusion @view_used_twice_without_segment_set: 2 kernels, 3 segments, reads 32 bytes, writes 56 bytes
// CHECK:       segment #2 pointwise: reads 20 bytes, writes 48 bytes
// CHECK-NEXT:    in  %arg0: tensor<6xf16>, 12 bytes
func.func @view_used_twice_without_segment_set(%x: tensor<6xf16>) -> (tensor<1x6xf64>, tensor<1x1xf64>) {
  %e = fuser.cast %x : tensor<6xf16> to tensor<6xf64>
  %b = fuser.broadcast %e [0] : tensor<6xf64> -> tensor<1x6xf64>
  %m = fuser.reduction max %b [1] keepdim : tensor<1x6xf64> -> tensor<1x1xf64>
  %o = fuser.sub %b, %m : tensor<1x6xf64>, tensor<1x1xf64> -> tensor<1x6xf64>
  %t = fuser.add %o, %b : tensor<1x6xf64>, tensor<1x6xf64> -> tensor<1x6xf64>
  return %t, %m : tensor<1x6xf64>, tensor<1x1xf64>
}

// A read through elementwise ops and a `slice` reads what the slice covers
// (as FusionTraffic counts, docs "Seeing segmentations"), in rule 10's
// counts too: the second reduction recomputes %f from the bf16 value %b,
// reading the 2 elements under the slice (4 bytes) and writing %b (10),
// instead of reading and writing %f (8 + 8). After preseg (which moves the
// slice above the casts) it reads 4 bytes too: 44 bytes read, 54 written.
// Seed 3754 (preseg's cast motion left the slice after elementwise ops).
// CHECK-LABEL: fusion @slice_after_elementwise: 2 kernels, 2 segments, reads 44 bytes, writes 60 bytes
// CHECK:       segment #1 reduction: reads 4 bytes, writes 8 bytes
// CHECK-NEXT:    in  #0.2: tensor<5xbf16>, 4 bytes
func.func @slice_after_elementwise(%x: tensor<5xi64>) -> (tensor<5x1xi64>, tensor<f16>, tensor<2xf32>) {
  %m = fuser.mul %x, %x : tensor<5xi64>, tensor<5xi64> -> tensor<5xi64>
  %o = fuser.broadcast %m [1] : tensor<5xi64> -> tensor<5x1xi64>
  %c = fuser.cast %m : tensor<5xi64> to tensor<5xf32>
  %h = fuser.cast %c : tensor<5xf32> to tensor<5xf16>
  %r = fuser.reduction add %h [0] : tensor<5xf16> -> tensor<f16>
  %b = fuser.cast %c : tensor<5xf32> to tensor<5xbf16>
  %d = fuser.cast %b : tensor<5xbf16> to tensor<5xf64>
  %e = fuser.neg %d : tensor<5xf64>
  %s = fuser.slice %e starts [0] limits [4] strides [2] : tensor<5xf64> -> tensor<2xf64>
  %f = fuser.cast %s : tensor<2xf64> to tensor<2xf32>
  %bb = fuser.broadcast %f [1] : tensor<2xf32> -> tensor<2x1xf32>
  %ee = fuser.expand %bb : tensor<2x1xf32> -> tensor<2x2xf32>
  %q = fuser.reduction add %ee [1] : tensor<2x2xf32> -> tensor<2xf32>
  return %o, %r, %q : tensor<5x1xi64>, tensor<f16>, tensor<2xf32>
}

// Must not fire: where the slice covers 4 of the 5 elements, recomputing
// would read 8 bytes of %b and write all 10, more than reading and writing
// the 4 f16 elements of %f (8 + 8).
// CHECK-LABEL: fusion @slice_after_elementwise_covers_more: 2 kernels, 2 segments, reads 48 bytes, writes 58 bytes
// CHECK:       segment #1 reduction: reads 8 bytes, writes 8 bytes
// CHECK-NEXT:    in  #0.2: tensor<4xf16>, 8 bytes
func.func @slice_after_elementwise_covers_more(%x: tensor<5xi64>) -> (tensor<5x1xi64>, tensor<f16>, tensor<4xf16>) {
  %m = fuser.mul %x, %x : tensor<5xi64>, tensor<5xi64> -> tensor<5xi64>
  %o = fuser.broadcast %m [1] : tensor<5xi64> -> tensor<5x1xi64>
  %c = fuser.cast %m : tensor<5xi64> to tensor<5xf32>
  %h = fuser.cast %c : tensor<5xf32> to tensor<5xf16>
  %r = fuser.reduction add %h [0] : tensor<5xf16> -> tensor<f16>
  %b = fuser.cast %c : tensor<5xf32> to tensor<5xbf16>
  %d = fuser.cast %b : tensor<5xbf16> to tensor<5xf64>
  %e = fuser.neg %d : tensor<5xf64>
  %s = fuser.slice %e starts [0] limits [4] strides [1] : tensor<5xf64> -> tensor<4xf64>
  %f = fuser.cast %s : tensor<4xf64> to tensor<4xf16>
  %bb = fuser.broadcast %f [1] : tensor<4xf16> -> tensor<4x1xf16>
  %ee = fuser.expand %bb : tensor<4x1xf16> -> tensor<4x2xf16>
  %q = fuser.reduction add %ee [1] : tensor<4x2xf16> -> tensor<4xf16>
  return %o, %r, %q : tensor<5x1xi64>, tensor<f16>, tensor<4xf16>
}

// Each operand on a recomputed chain chooses between reading and
// recomputing; where one recomputes from a fusion input, the others count
// that input as read: the second reduction recomputes %q from %x (read for
// %p anyway) instead of reading the i1 value %w, which the first kernel
// would write for it. Seed 3830 (preseg's CSE shares the returned value).
// CHECK-LABEL: fusion @shared_source: 2 kernels, 2 segments, reads 64 bytes, writes 112 bytes
// CHECK:       segment #1 reduction: reads 32 bytes, writes 32 bytes
// CHECK-NEXT:    in  %arg0: tensor<4x2xf32>, 32 bytes
// CHECK-NEXT:    out #1.0: tensor<4xf64>, 32 bytes -> return 2
func.func @shared_source(%x: tensor<4x2xf32>) -> (tensor<2xf64>, tensor<4x2xf64>, tensor<4xf64>) {
  %p = fuser.cast %x : tensor<4x2xf32> to tensor<4x2xf64>
  %w = fuser.cast %x : tensor<4x2xf32> to tensor<4x2xi1>
  %q = fuser.cast %w : tensor<4x2xi1> to tensor<4x2xf64>
  %r1 = fuser.reduction add %p [0] : tensor<4x2xf64> -> tensor<2xf64>
  %v = fuser.add %p, %q : tensor<4x2xf64>, tensor<4x2xf64> -> tensor<4x2xf64>
  %r2 = fuser.reduction add %v [1] : tensor<4x2xf64> -> tensor<4xf64>
  return %r1, %v, %r2 : tensor<2xf64>, tensor<4x2xf64>, tensor<4xf64>
}

// A returned view that is not strided is copied by a kernel (rule 6); the
// kernel writes the smallest value on the chain of which the result is a
// strided view (the 24x1 reshape, 24 bytes) and the `expand` after it is
// an alias, instead of writing the 72-byte result. Seed 4372 (preseg
// removed a cast round trip, which was the write).
// CHECK-LABEL: fusion @copy_then_expand: 1 kernel, 2 segments, reads 12 bytes, writes 24 bytes
// CHECK-NEXT:  segment #0 pointwise: reads 12 bytes, writes 24 bytes
// CHECK-NEXT:    in  %arg0: tensor<12x1xi1>, 12 bytes
// CHECK-NEXT:    out #0.0: tensor<24x1xi1>, 24 bytes -> #1
// CHECK-NEXT:  segment #1 alias (no kernel): reads 0 bytes, writes 0 bytes
// CHECK-NEXT:    in  #0.0: tensor<24x1xi1>
// CHECK-NEXT:    out #1.0: tensor<24x3xi1>, view of in 0: sizes [24, 3], strides [1, 0], offset 0 -> return 0
func.func @copy_then_expand(%x: tensor<12x1xi1>) -> tensor<24x3xi1> {
  %e = fuser.expand %x : tensor<12x1xi1> -> tensor<12x2xi1>
  %v = fuser.view %e : tensor<12x2xi1> -> tensor<24x1xi1>
  %f = fuser.expand %v : tensor<24x1xi1> -> tensor<24x3xi1>
  return %f : tensor<24x3xi1>
}

// Not where what follows the reshape is smaller (a `slice`): the result
// itself is written.
// CHECK-LABEL: fusion @copy_then_slice: 1 kernel, 1 segment, reads 12 bytes, writes 12 bytes
// CHECK-NEXT:  segment #0 pointwise: reads 12 bytes, writes 12 bytes
// CHECK-NEXT:    in  %arg0: tensor<12x1xi1>, 12 bytes
// CHECK-NEXT:    out #0.0: tensor<12x1xi1>, 12 bytes -> return 0
func.func @copy_then_slice(%x: tensor<12x1xi1>) -> tensor<12x1xi1> {
  %e = fuser.expand %x : tensor<12x1xi1> -> tensor<12x2xi1>
  %v = fuser.view %e : tensor<12x2xi1> -> tensor<24x1xi1>
  %s = fuser.slice %v starts [0, 0] limits [24, 1] strides [2, 1] : tensor<24x1xi1> -> tensor<12x1xi1>
  return %s : tensor<12x1xi1>
}

// Grouping writes %c because two of its views leave the reduction kernel
// (rule 6: 72 bytes of views, 64 of %c); rule 10 then recomputes %v from
// %x in the second kernel, so only the returned 8-byte slice still reads
// %c: the reduction kernel writes the slice instead. Seeds 1392, 5043.
// CHECK-LABEL: fusion @slice_of_value_written_for_views: 2 kernels, 2 segments, reads 132 bytes, writes 76 bytes
// CHECK-NEXT:  segment #0 reduction: reads 64 bytes, writes 12 bytes
// CHECK-NEXT:    in  %arg0: tensor<4x4xf32>, 64 bytes
// CHECK-NEXT:    out #0.0: tensor<2xf32>, 8 bytes -> return 0
func.func @slice_of_value_written_for_views(%x: tensor<4x4xf32>) -> (tensor<2xf32>, tensor<16xf32>) {
  %c = fuser.exp %x : tensor<4x4xf32>
  %v = fuser.view %c : tensor<4x4xf32> -> tensor<16xf32>
  %s = fuser.slice %v starts [0] limits [2] strides [1] : tensor<16xf32> -> tensor<2xf32>
  %r = fuser.reduction add %v [0] keepdim : tensor<16xf32> -> tensor<1xf32>
  %t = fuser.add %v, %r : tensor<16xf32>, tensor<1xf32> -> tensor<16xf32>
  return %s, %t : tensor<2xf32>, tensor<16xf32>
}

// Not where %c is written anyway (returned): the slice stays an alias.
// CHECK-LABEL: fusion @slice_of_returned_value: 2 kernels, 3 segments, reads 132 bytes, writes 132 bytes
// CHECK-NEXT:  segment #0 reduction: reads 64 bytes, writes 68 bytes
// CHECK:       segment #1 alias (no kernel): reads 0 bytes, writes 0 bytes
// CHECK-NEXT:    in  #0.0: tensor<4x4xf32>
// CHECK-NEXT:    out #1.0: tensor<2xf32>, view of in 0: sizes [2], strides [1], offset 0 -> return 0
func.func @slice_of_returned_value(%x: tensor<4x4xf32>) -> (tensor<2xf32>, tensor<16xf32>, tensor<4x4xf32>) {
  %c = fuser.exp %x : tensor<4x4xf32>
  %v = fuser.view %c : tensor<4x4xf32> -> tensor<16xf32>
  %s = fuser.slice %v starts [0] limits [2] strides [1] : tensor<16xf32> -> tensor<2xf32>
  %r = fuser.reduction add %v [0] keepdim : tensor<16xf32> -> tensor<1xf32>
  %t = fuser.add %v, %r : tensor<16xf32>, tensor<1xf32> -> tensor<16xf32>
  return %s, %t, %c : tensor<2xf32>, tensor<16xf32>, tensor<4x4xf32>
}

// fuser-segment tries rule 10 both ways (FuserSegmentPass): counting the
// memory under a returned view as written anyway, the consumer reads the
// bf16 value %2 (written for the returned broadcast, now its alias) and
// recomputes the `add`; without, it reads %2 and the first kernel writes
// %3 too (128 bytes written). The cheaper is kept: 96. Seeds 1660, 2302,
// 4886, 5496, 9979.
// CHECK-LABEL: fusion @returned_view_of_written_value: 2 kernels, 3 segments, reads 160 bytes, writes 96 bytes
// CHECK-NEXT:  segment #0 pointwise: reads 128 bytes, writes 32 bytes
// CHECK-NEXT:    in  %arg0: tensor<16xi64>, 128 bytes
// CHECK-NEXT:    out #0.0: tensor<16xbf16>, 32 bytes -> #1, #2
func.func @returned_view_of_written_value(%x: tensor<16xi64>) -> (tensor<2x16xbf16>, tensor<1x16xbf16>) {
  %c = arith.constant 50000000 : i64
  %0 = fuser.mul %x, %c : tensor<16xi64>, i64 -> tensor<16xi64>
  %1 = fuser.cast %0 : tensor<16xi64> to tensor<16xi32>
  %2 = fuser.cast %1 : tensor<16xi32> to tensor<16xbf16>
  %3 = fuser.add %2, %2 : tensor<16xbf16>, tensor<16xbf16> -> tensor<16xbf16>
  %4 = fuser.broadcast %3 [0] : tensor<16xbf16> -> tensor<1x16xbf16>
  %5 = fuser.segment_set %4 : tensor<1x16xbf16>
  %6 = fuser.cat %4, %5 dim 0 : tensor<1x16xbf16>, tensor<1x16xbf16> -> tensor<2x16xbf16>
  return %6, %5 : tensor<2x16xbf16>, tensor<1x16xbf16>
}

// A returned view of a value %q that is itself a view of a value the
// kernel writes (%m) is an alias of %m, not a second write of %q. The
// second reduction reads %m, which the kernel writes for the alias anyway,
// and recomputes the casts from it (4 bytes written; reading the first
// reduction's result %r instead wrote both: 4 + 4 bytes). Seed 4396
// (preseg moved the casts above the squeeze).
// CHECK-LABEL: fusion @alias_of_written_source: 2 kernels, 3 segments, reads 36 bytes, writes 12 bytes
// CHECK-NEXT:  segment #0 reduction: reads 16 bytes, writes 4 bytes
// CHECK-NEXT:    in  %arg0: tensor<4x2xf16>, 16 bytes
// CHECK-NEXT:    out #0.0: tensor<2xf16>, 4 bytes -> #1, #2
// CHECK-NEXT:    not one kernel with #2: not a normalization: its reductions differ in source shape or reduced dims
// CHECK-NEXT:  segment #1 alias (no kernel): reads 0 bytes, writes 0 bytes
// CHECK-NEXT:    in  #0.0: tensor<2xf16>
// CHECK-NEXT:    out #1.0: tensor<4x2xf16>, view of in 0: sizes [4, 2], strides [0, 1], offset 0 -> return 0
func.func @alias_of_written_source(%x: tensor<4x2xf16>) -> (tensor<4x2xf16>, tensor<4xf16>) {
  %r = fuser.reduction add %x [0] keepdim : tensor<4x2xf16> -> tensor<1x2xf16>
  %b = fuser.broadcast %r [2] : tensor<1x2xf16> -> tensor<1x2x1xf16>
  %m = fuser.exp %b : tensor<1x2x1xf16>
  %q = fuser.squeeze %m [2] : tensor<1x2x1xf16> -> tensor<1x2xf16>
  %e = fuser.expand %q : tensor<1x2xf16> -> tensor<4x2xf16>
  %c = fuser.cast %m : tensor<1x2x1xf16> to tensor<1x2x1xi64>
  %d = fuser.cast %c : tensor<1x2x1xi64> to tensor<1x2x1xf16>
  %s = fuser.squeeze %d [2] : tensor<1x2x1xf16> -> tensor<1x2xf16>
  %u = fuser.add %s, %x : tensor<1x2xf16>, tensor<4x2xf16> -> tensor<4x2xf16>
  %r2 = fuser.reduction min %u [1] : tensor<4x2xf16> -> tensor<4xf16>
  return %e, %r2 : tensor<4x2xf16>, tensor<4xf16>
}

// Where %q is returned too, it is an alias of %m as well: one alias
// segment presents both %q and the `expand` as views of %m, and nothing
// writes %q.
// CHECK-LABEL: fusion @alias_of_returned_value: 2 kernels, 3 segments, reads 36 bytes, writes 12 bytes
// CHECK:       segment #1 alias (no kernel): reads 0 bytes, writes 0 bytes
// CHECK-NEXT:    in  #0.0: tensor<2xf16>
// CHECK-NEXT:    out #1.0: tensor<1x2xf16>, view of in 0: sizes [1, 2], strides [0, 1], offset 0 -> return 2
// CHECK-NEXT:    out #1.1: tensor<4x2xf16>, view of in 0: sizes [4, 2], strides [0, 1], offset 0 -> return 0
func.func @alias_of_returned_value(%x: tensor<4x2xf16>) -> (tensor<4x2xf16>, tensor<4xf16>, tensor<1x2xf16>) {
  %r = fuser.reduction add %x [0] keepdim : tensor<4x2xf16> -> tensor<1x2xf16>
  %b = fuser.broadcast %r [2] : tensor<1x2xf16> -> tensor<1x2x1xf16>
  %m = fuser.exp %b : tensor<1x2x1xf16>
  %q = fuser.squeeze %m [2] : tensor<1x2x1xf16> -> tensor<1x2xf16>
  %e = fuser.expand %q : tensor<1x2xf16> -> tensor<4x2xf16>
  %c = fuser.cast %m : tensor<1x2x1xf16> to tensor<1x2x1xi64>
  %d = fuser.cast %c : tensor<1x2x1xi64> to tensor<1x2x1xf16>
  %s = fuser.squeeze %d [2] : tensor<1x2x1xf16> -> tensor<1x2xf16>
  %u = fuser.add %s, %x : tensor<1x2xf16>, tensor<4x2xf16> -> tensor<4x2xf16>
  %r2 = fuser.reduction min %u [1] : tensor<4x2xf16> -> tensor<4xf16>
  return %e, %r2, %q : tensor<4x2xf16>, tensor<4xf16>, tensor<1x2xf16>
}

// Seed 5043 after preseg: the second kernel reads the returned 1-element
// slice's source through the slice (4 bytes), or recomputes it from %arg0,
// which it reads anyway (0 bytes): rule 10 compares both rather than
// stopping at the slice, and neither kernel writes the i1 cast of the
// slice. Same figures as segmenting the generated fusion alone.
// CHECK-LABEL: fusion @slice_or_recompute: 2 kernels, 2 segments, reads 80 bytes, writes 292 bytes
func.func @slice_or_recompute(%arg0: tensor<1x2x2xi1>, %arg1: tensor<8x1x2xf32>) -> (tensor<2x2x2xf16>, tensor<1x1x1xi32>, tensor<8x6xf32>, tensor<1x1x1xi32>, tensor<2x2x2xf32>, tensor<2x2x2xi32>, tensor<2x2x2xi1>) {
  %c100003_i32 = arith.constant 100003 : i32
  %false = arith.constant false
  %0 = fuser.eq %arg0, %false : tensor<1x2x2xi1>, i1 -> tensor<1x2x2xi1>
  %1 = fuser.where %0, %arg0, %arg0 : tensor<1x2x2xi1>, tensor<1x2x2xi1>, tensor<1x2x2xi1> -> tensor<1x2x2xi1>
  %2 = fuser.cast %1 : tensor<1x2x2xi1> to tensor<1x2x2xi32>
  %3 = fuser.view %2 : tensor<1x2x2xi32> -> tensor<2x1x2xi32>
  %4 = fuser.slice %3 starts [0, 0, 1] limits [1, 1, 2] strides [1, 2, 2] : tensor<2x1x2xi32> -> tensor<1x1x1xi32>
  %5 = fuser.log %arg1 : tensor<8x1x2xf32>
  %6 = fuser.squeeze %5 [1] : tensor<8x1x2xf32> -> tensor<8x2xf32>
  %7 = fuser.cat %6, %6, %6 dim 1 : tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32> -> tensor<8x6xf32>
  %8 = fuser.sin %7 : tensor<8x6xf32>
  %9 = fuser.reduction min %3 [0] keepdim : tensor<2x1x2xi32> -> tensor<1x1x2xi32>
  %10 = fuser.le %3, %9 : tensor<2x1x2xi32>, tensor<1x1x2xi32> -> tensor<2x1x2xi1>
  %11 = fuser.cast %0 : tensor<1x2x2xi1> to tensor<1x2x2xi32>
  %12 = fuser.where %10, %3, %11 : tensor<2x1x2xi1>, tensor<2x1x2xi32>, tensor<1x2x2xi32> -> tensor<2x2x2xi32>
  %13 = fuser.permute %12 [2, 1, 0] : tensor<2x2x2xi32> -> tensor<2x2x2xi32>
  %14 = fuser.le %12, %4 : tensor<2x2x2xi32>, tensor<1x1x1xi32> -> tensor<2x2x2xi1>
  %15 = fuser.mul %4, %c100003_i32 : tensor<1x1x1xi32>, i32 -> tensor<1x1x1xi32>
  %16 = fuser.cast %15 : tensor<1x1x1xi32> to tensor<1x1x1xi1>
  %17 = fuser.cast %16 : tensor<1x1x1xi1> to tensor<1x1x1xi32>
  %18 = fuser.mul %13, %17 : tensor<2x2x2xi32>, tensor<1x1x1xi32> -> tensor<2x2x2xi32>
  %19 = fuser.cast %18 : tensor<2x2x2xi32> to tensor<2x2x2xi1>
  %20 = fuser.cast %19 : tensor<2x2x2xi1> to tensor<2x2x2xi32>
  %21 = fuser.mul %20, %c100003_i32 : tensor<2x2x2xi32>, i32 -> tensor<2x2x2xi32>
  %22 = fuser.cast %21 : tensor<2x2x2xi32> to tensor<2x2x2xf32>
  %23 = fuser.cast %22 : tensor<2x2x2xf32> to tensor<2x2x2xi32>
  %24 = fuser.neg %22 : tensor<2x2x2xf32>
  %25 = fuser.cast %23 : tensor<2x2x2xi32> to tensor<2x2x2xf16>
  %26 = fuser.reciprocal %25 : tensor<2x2x2xf16>
  return %26, %4, %8, %4, %24, %13, %14 : tensor<2x2x2xf16>, tensor<1x1x1xi32>, tensor<8x6xf32>, tensor<1x1x1xi32>, tensor<2x2x2xf32>, tensor<2x2x2xi32>, tensor<2x2x2xi1>
}

// Seed 9004 after preseg, with normalization segments: 2 kernels (not 3),
// as segmenting the generated fusion alone gives. The add reduction, what
// is computed from it and the independent values of %arg2 share a
// normalization kernel; the `mul` reduction and the broadcast of %11 read
// %3 (2 bytes) in a second kernel.
// NORM-LABEL: fusion @latest_sibling: 2 kernels, 2 segments, reads 7 bytes, writes 45 bytes
// NORM-NEXT:  segment #0 normalization: reads 5 bytes, writes 9 bytes
// NORM:       segment #1 reduction: reads 2 bytes, writes 36 bytes
// NORM-NEXT:    in  #0.0: tensor<2xi1>, 2 bytes
func.func @latest_sibling(%arg0: tensor<5x3x4xi64>, %arg1: tensor<2xbf16>, %arg2: tensor<1xi1>) -> (tensor<f16>, tensor<i32>, tensor<1xi1>, tensor<2xi1>, tensor<2x4xi32>, tensor<i32>) {
  %0 = fuser.reduction add %arg1 [0] keepdim : tensor<2xbf16> -> tensor<1xbf16>
  %1 = fuser.ge %arg1, %0 : tensor<2xbf16>, tensor<1xbf16> -> tensor<2xi1>
  %2 = fuser.cast %0 : tensor<1xbf16> to tensor<1xi1>
  %3 = fuser.gt %1, %2 : tensor<2xi1>, tensor<1xi1> -> tensor<2xi1>
  %4 = fuser.cast %arg2 : tensor<1xi1> to tensor<1xf16>
  %5 = fuser.squeeze %4 [0] : tensor<1xf16> -> tensor<f16>
  %6 = fuser.segment_set %arg2 : tensor<1xi1>
  %7 = fuser.ne %6, %arg2 : tensor<1xi1>, tensor<1xi1> -> tensor<1xi1>
  %8 = fuser.where %7, %6, %arg2 : tensor<1xi1>, tensor<1xi1>, tensor<1xi1> -> tensor<1xi1>
  %9 = fuser.cast %6 : tensor<1xi1> to tensor<1xi32>
  %10 = fuser.squeeze %9 [0] : tensor<1xi32> -> tensor<i32>
  %11 = fuser.cast %3 : tensor<2xi1> to tensor<2xi32>
  %12 = fuser.broadcast %11 [1] : tensor<2xi32> -> tensor<2x1xi32>
  %13 = fuser.expand %12 : tensor<2x1xi32> -> tensor<2x4xi32>
  %14 = fuser.maximum %13, %12 : tensor<2x4xi32>, tensor<2x1xi32> -> tensor<2x4xi32>
  %15 = fuser.reduction mul %11 [0] : tensor<2xi32> -> tensor<i32>
  return %5, %10, %8, %3, %14, %15 : tensor<f16>, tensor<i32>, tensor<1xi1>, tensor<2xi1>, tensor<2x4xi32>, tensor<i32>
}
