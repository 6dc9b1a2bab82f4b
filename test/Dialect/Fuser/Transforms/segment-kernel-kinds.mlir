// RUN: fuser-opt --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s
// RUN: fuser-opt --fuser-segment=normalization=false --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=RECOMPUTE
// RUN: fuser-opt --fuser-segment=normalization=false %s -o %t.mlir
// RUN: fuser-run %s --entry listed_ops_are_recomputed --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry every_pointwise_category --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC

// The kernel kinds' allow-lists (canEmitInKernel and isRecomputableInKernel
// in KernelTemplates.h; docs/Segmentation.md, "Kernel templates").
//
// Rule A: an op that no kernel kind lists is a located error of
// fuser-segment (`op 'X' cannot be emitted by any kernel kind`), never a
// pointwise kernel. Every op of the fuser dialect is listed, so that case
// needs an op registered only in a test:
// unittests/Analysis/KernelKindsTest.cpp (SegmentRefusesUnlistedOp, under
// a diagnostic verifier as -verify-diagnostics; UnlistedOpIsNoKernel for the
// templates). Ops outside the fuser dialect keep their own error
// (segment-unregistered.mlir).
// Rule B: a template takes only ops its kind lists; the pointwise kind lists
// elementwise ops (ElementwiseOps.def, cast, complex, real, imag, where),
// meta ops, pad, cat and full, and scalar computations.
// Rule C: recompute is an allow-list: elementwise, meta (but segment_set),
// pad, cat and full ops are recomputed in readers where that reads no more
// bytes; a reduction is not.

// EXEC: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok

// Rule B, must not fire: every kind of op the pointwise kind lists is one
// pointwise kernel.
// CHECK-LABEL: fusion @every_pointwise_category: 1 kernel, 1 segment, reads 160 bytes, writes 320 bytes
// CHECK-NEXT:    segment #0 pointwise: reads 160 bytes, writes 320 bytes
func.func @every_pointwise_category(%x: tensor<4x8xf32>, %c: tensor<4x8xi1>, %s: f32) -> (tensor<6x16xf16>, tensor<4x8xf32>) {
  %f = fuser.full %s : f32 -> tensor<4x8xf32>
  %a = fuser.add %x, %f : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %w = fuser.where %c, %a, %x : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %z = fuser.complex %w, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xcomplex<f32>>
  %r = fuser.imag %z : tensor<4x8xcomplex<f32>>
  %h = fuser.cast %r : tensor<4x8xf32> to tensor<4x8xf16>
  %k = fuser.cat %h, %h dim 1 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x16xf16>
  %zero = arith.constant 0.0 : f16
  %p = fuser.pad %k low [1, 0] high [1, 0] value %zero : tensor<4x16xf16>, f16 -> tensor<6x16xf16>
  %e = fuser.neg %p : tensor<6x16xf16>
  %t = fuser.permute %a [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %v = fuser.view %t : tensor<8x4xf32> -> tensor<4x8xf32>
  %sl = fuser.slice %v starts [0, 0] limits [4, 8] strides [1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %m = fuser.mul %sl, %w : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %e, %m : tensor<6x16xf16>, tensor<4x8xf32>
}

// Rule C, must not fire: each reduction kernel recomputes the cat, pad,
// full and mul from %x (128 bytes) instead of reading them (384 bytes,
// plus their write).
// RECOMPUTE-LABEL: fusion @listed_ops_are_recomputed: 2 kernels, 2 segments, reads 256 bytes, writes 88 bytes
// RECOMPUTE-NEXT:    segment #0 reduction: reads 128 bytes, writes 24 bytes
// RECOMPUTE-NEXT:      in  %arg0: tensor<4x8xf32>, 128 bytes
// RECOMPUTE:         segment #1 reduction: reads 128 bytes, writes 64 bytes
// RECOMPUTE-NEXT:      in  %arg0: tensor<4x8xf32>, 128 bytes
func.func @listed_ops_are_recomputed(%x: tensor<4x8xf32>, %s: f32) -> (tensor<6xf32>, tensor<16xf32>) {
  %k = fuser.cat %x, %x dim 1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
  %p = fuser.pad %k low [1, 0] high [1, 0] value %s : tensor<4x16xf32>, f32 -> tensor<6x16xf32>
  %f = fuser.full %s : f32 -> tensor<6x16xf32>
  %e = fuser.mul %p, %f : tensor<6x16xf32>, tensor<6x16xf32> -> tensor<6x16xf32>
  %r0 = fuser.reduction add %e [1] : tensor<6x16xf32> -> tensor<6xf32>
  %r1 = fuser.reduction add %e [0] : tensor<6x16xf32> -> tensor<16xf32>
  return %r0, %r1 : tensor<6xf32>, tensor<16xf32>
}

// Rule C, fires: the reduction's result is read by the kernel of the
// `sub`s (8 bytes), not recomputed there, although that kernel reads %x
// anyway.
// RECOMPUTE-LABEL: fusion @reduction_is_read: 2 kernels, 2 segments, reads 56 bytes, writes 40 bytes
// RECOMPUTE:         segment #1 pointwise: reads 40 bytes, writes 32 bytes
// RECOMPUTE-NEXT:      in  %arg0: tensor<4x2xf16>, 16 bytes
// RECOMPUTE-NEXT:      in  #0.0: tensor<4xf16>, 8 bytes

func.func @reduction_is_read(%x: tensor<4x2xf16>, %y: tensor<4x2xf16>) -> (tensor<4x2xf16>, tensor<4x2xf16>) {
  %m = fuser.reduction max %x [1] keepdim : tensor<4x2xf16> -> tensor<4x1xf16>
  %a = fuser.sub %x, %m : tensor<4x2xf16>, tensor<4x1xf16> -> tensor<4x2xf16>
  %b = fuser.sub %y, %m : tensor<4x2xf16>, tensor<4x1xf16> -> tensor<4x2xf16>
  return %a, %b : tensor<4x2xf16>, tensor<4x2xf16>
}
