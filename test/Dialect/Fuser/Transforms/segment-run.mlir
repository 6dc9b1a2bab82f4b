// Segmentation preserves semantics: the interpreter gives bit-identical
// results before and after fuser-segment (0 ulp tolerance, exit 1 otherwise).
// RUN: fuser-opt --fuser-segment %s -o %t.mlir
// RUN: fuser-run %s --entry layer_norm_like --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s
// RUN: fuser-run %s --entry add_twice --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s
// RUN: fuser-run %s --entry views_only --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s
// RUN: fuser-run %s --entry segment_set_and_axes --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s
// RUN: fuser-run %s --entry no_cycle --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s
// RUN: fuser-run %s --entry scalar_argument --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s
// RUN: fuser-run %s --entry cycle_through_kernel --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s
// RUN: fuser-run %s --entry sibling_cycle --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s
// RUN: fuser-opt --fuser-preseg --fuser-segment %fuser_src_root/examples/mistral_rope_bwd.mlir -o %t.mistral.mlir
// RUN: fuser-run %fuser_src_root/examples/mistral_rope_bwd.mlir --check-against interp --against-file %t.mistral.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=MISTRAL

// fuser-run exits 1 when any result differs; every check says 0 ulp.
// CHECK: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok

// MISTRAL: result 0: tensor<1x4096x1024xbf16> fnv1a64=0x741d24b99dd5ba0e
// MISTRAL-NEXT: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok

// Reduction, normalization split, reduction over a scaled copy.
func.func @layer_norm_like(%x: tensor<4x16xbf16>) -> (tensor<4x16xf32>, tensor<4xf32>) {
  %0 = fuser.cast %x : tensor<4x16xbf16> to tensor<4x16xf32>
  %1 = fuser.reduction add %0 [1] keepdim : tensor<4x16xf32> -> tensor<4x1xf32>
  %2 = fuser.sub %0, %1 : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
  %3 = fuser.mul %2, %2 : tensor<4x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  %4 = fuser.reduction add %3 [1] : tensor<4x16xf32> -> tensor<4xf32>
  return %2, %4 : tensor<4x16xf32>, tensor<4xf32>
}

func.func @add_twice(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %0 = fuser.add %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = fuser.permute %0 [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<8x4xf32>
}

func.func @views_only(%x: tensor<2x3x1xf32>) -> (tensor<3x2xf32>, tensor<1x2x3x1xf32>, tensor<2x3x4xf32>, tensor<3x2xf32>) {
  %0 = fuser.squeeze %x [2] : tensor<2x3x1xf32> -> tensor<2x3xf32>
  %1 = fuser.permute %0 [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %2 = fuser.broadcast %x [0] : tensor<2x3x1xf32> -> tensor<1x2x3x1xf32>
  %3 = fuser.expand %x : tensor<2x3x1xf32> -> tensor<2x3x4xf32>
  %4 = fuser.view %1 : tensor<3x2xf32> -> tensor<6xf32>
  %5 = fuser.view %4 : tensor<6xf32> -> tensor<3x2xf32>
  return %1, %2, %3, %5 : tensor<3x2xf32>, tensor<1x2x3x1xf32>, tensor<2x3x4xf32>, tensor<3x2xf32>
}

func.func @segment_set_and_axes(%x: tensor<8x4xf32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<8xf32>) {
  %e = fuser.exp %x : tensor<8x4xf32>
  %b = fuser.segment_set %e : tensor<8x4xf32>
  %0 = fuser.reduction add %b [0] : tensor<8x4xf32> -> tensor<4xf32>
  %1 = fuser.reduction max %b [1] : tensor<8x4xf32> -> tensor<8xf32>
  %2 = fuser.reduction min %b [1] : tensor<8x4xf32> -> tensor<8xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<8xf32>, tensor<8xf32>
}

func.func @no_cycle(%x: tensor<8x4xf32>) -> (tensor<8xf32>, tensor<8x4xf32>) {
  %a = fuser.neg %x : tensor<8x4xf32>
  %s1 = fuser.reduction add %a [1] : tensor<8x4xf32> -> tensor<8xf32>
  %s2 = fuser.reduction add %a [0] keepdim : tensor<8x4xf32> -> tensor<1x4xf32>
  %t = fuser.mul %a, %s2 : tensor<8x4xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
  return %s1, %t : tensor<8xf32>, tensor<8x4xf32>
}

// A scalar argument passed into the segment.
func.func @scalar_argument(%x: tensor<4x8xf32>, %s: f32) -> tensor<4xf32> {
  %c = arith.constant 2.0 : f32
  %t = arith.mulf %s, %c : f32
  %0 = fuser.mul %x, %t : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
  %1 = fuser.reduction add %0 [1] : tensor<4x8xf32> -> tensor<4xf32>
  %2 = fuser.add %1, %s : tensor<4xf32>, f32 -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// Merges that would have made kernels wait for each other (segment.mlir).
func.func @cycle_through_kernel(%x: tensor<8xf32>, %y: tensor<1xf32>) -> (tensor<8xf32>, tensor<1xf32>) {
  %p = fuser.reduction max %x [0] keepdim : tensor<8xf32> -> tensor<1xf32>
  %b = fuser.neg %y : tensor<1xf32>
  %a = fuser.sub %x, %p : tensor<8xf32>, tensor<1xf32> -> tensor<8xf32>
  %g = fuser.add %a, %b : tensor<8xf32>, tensor<1xf32> -> tensor<8xf32>
  %c = fuser.mul %p, %b : tensor<1xf32>, tensor<1xf32> -> tensor<1xf32>
  return %g, %c : tensor<8xf32>, tensor<1xf32>
}

func.func @sibling_cycle(%x: tensor<8xf32>) -> (tensor<f32>, tensor<8xf32>) {
  %n = fuser.neg %x : tensor<8xf32>
  %max = fuser.reduction max %n [0] keepdim : tensor<8xf32> -> tensor<1xf32>
  %c = fuser.sub %x, %max : tensor<8xf32>, tensor<1xf32> -> tensor<8xf32>
  %sum = fuser.reduction add %c [0] : tensor<8xf32> -> tensor<f32>
  %min = fuser.reduction min %x [0] keepdim : tensor<8xf32> -> tensor<1xf32>
  %d = fuser.sub %x, %min : tensor<8xf32>, tensor<1xf32> -> tensor<8xf32>
  %e = fuser.add %d, %n : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  return %sum, %e : tensor<f32>, tensor<8xf32>
}
