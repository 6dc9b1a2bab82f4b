// Reductions start from the identity of their kind: float add from -0.0,
// mul from 1, max from -inf, min from +inf (integers: 0, 1, the minimum, the
// maximum). Over one element each gives the element back bit for bit, -0.0
// and NaN payloads included, so a reduction over extent-1 dims is exactly a
// squeeze: every result below has the squeeze's checksum, before and after
// fuser-preseg (which turns the reductions into squeezes). --check-against
// treats +0 and -0 as equal, so the checksums are compared too.
// RUN: fuser-run %s --entry f32_kinds --print-values | FileCheck %s --check-prefix=F32
// RUN: fuser-run %s --entry bf16_kinds --print-values | FileCheck %s --check-prefix=BF16
// RUN: fuser-run %s --entry f64_i32_kinds --print-values | FileCheck %s --check-prefix=MIXED
// RUN: fuser-run %s --entry signed_zero_sums --print-values | FileCheck %s --check-prefix=ZERO
// RUN: fuser-opt --fuser-preseg %s -o %t.preseg.mlir
// RUN: FileCheck %s --check-prefix=PRESEG --input-file %t.preseg.mlir
// RUN: fuser-run %s --entry f32_kinds > %t.f32.before && fuser-run %t.preseg.mlir --entry f32_kinds > %t.f32.after && diff %t.f32.before %t.f32.after
// RUN: fuser-run %s --entry bf16_kinds > %t.bf16.before && fuser-run %t.preseg.mlir --entry bf16_kinds > %t.bf16.after && diff %t.bf16.before %t.bf16.after
// RUN: fuser-run %s --entry f64_i32_kinds > %t.mixed.before && fuser-run %t.preseg.mlir --entry f64_i32_kinds > %t.mixed.after && diff %t.mixed.before %t.mixed.after
// RUN: fuser-run %s --entry mixed_dims > %t.dims.before && fuser-run %t.preseg.mlir --entry mixed_dims > %t.dims.after && diff %t.dims.before %t.dims.after
// RUN: fuser-run %s --entry mixed_dims --check-against interp --against-file %t.preseg.mlir | FileCheck %s --check-prefix=CHECKED

// PRESEG-NOT: fuser.reduction {{.*}}[1] : tensor<6x1xf32>
// PRESEG-LABEL: func.func @mixed_dims(
// PRESEG: fuser.squeeze
// PRESEG: fuser.reduction add %{{.*}} [1] : tensor<3x4x5xf32> -> tensor<3x5xf32>

// F32: result 0: tensor<6xf32> fnv1a64=[[H:0x[0-9a-f]+]]
// F32-NEXT: [-0, 0, nan, nan, -inf, 1.5]
// F32-NEXT: result 1: tensor<6xf32> fnv1a64=[[H]]
// F32-NEXT: [-0, 0, nan, nan, -inf, 1.5]
// F32-NEXT: result 2: tensor<6xf32> fnv1a64=[[H]]
// F32-NEXT: [-0, 0, nan, nan, -inf, 1.5]
// F32-NEXT: result 3: tensor<6xf32> fnv1a64=[[H]]
// F32-NEXT: [-0, 0, nan, nan, -inf, 1.5]
// F32-NEXT: result 4: tensor<6xf32> fnv1a64=[[H]]
func.func @f32_kinds() -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  // -0.0, +0.0, a quiet NaN with payload 1, a negative quiet NaN with
  // payload 2, -inf, 1.5.
  %c = arith.constant dense<[[-0.0], [0.0], [0x7FC00001], [0xFFC00002], [0xFF800000], [1.5]]> : tensor<6x1xf32>
  %0 = fuser.reduction add %c [1] : tensor<6x1xf32> -> tensor<6xf32>
  %1 = fuser.reduction mul %c [1] : tensor<6x1xf32> -> tensor<6xf32>
  %2 = fuser.reduction max %c [1] : tensor<6x1xf32> -> tensor<6xf32>
  %3 = fuser.reduction min %c [1] : tensor<6x1xf32> -> tensor<6xf32>
  %4 = fuser.squeeze %c [1] : tensor<6x1xf32> -> tensor<6xf32>
  return %0, %1, %2, %3, %4 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}

// bf16 accumulates in f32 and rounds back once: exact for one element.
// BF16: result 0: tensor<1x5xbf16> fnv1a64=[[H:0x[0-9a-f]+]]
// BF16-NEXT: {{\[}}[-0, nan, -inf, inf, 3.0040553e+38]]
// BF16-NEXT: result 1: tensor<1x5xbf16> fnv1a64=[[H]]
// BF16-NEXT: {{\[}}[-0, nan, -inf, inf, 3.0040553e+38]]
// BF16-NEXT: result 2: tensor<1x5xbf16> fnv1a64=[[H]]
// BF16-NEXT: {{\[}}[-0, nan, -inf, inf, 3.0040553e+38]]
// BF16-NEXT: result 3: tensor<1x5xbf16> fnv1a64=[[H]]
// BF16-NEXT: {{\[}}[-0, nan, -inf, inf, 3.0040553e+38]]
// BF16-NEXT: result 4: tensor<1x5xbf16> fnv1a64=[[H]]
func.func @bf16_kinds() -> (tensor<1x5xbf16>, tensor<1x5xbf16>, tensor<1x5xbf16>, tensor<1x5xbf16>, tensor<1x5xbf16>) {
  %c = arith.constant dense<[[[-0.0], [0x7FC1], [0xFF80], [0x7F80], [3.0e38]]]> : tensor<1x5x1xbf16>
  %0 = fuser.reduction add %c [2] : tensor<1x5x1xbf16> -> tensor<1x5xbf16>
  %1 = fuser.reduction mul %c [2] : tensor<1x5x1xbf16> -> tensor<1x5xbf16>
  %2 = fuser.reduction max %c [0, 2] keepdim : tensor<1x5x1xbf16> -> tensor<1x5x1xbf16>
  %3 = fuser.reduction min %c [0, 2] : tensor<1x5x1xbf16> -> tensor<5xbf16>
  %4 = fuser.squeeze %2 [2] : tensor<1x5x1xbf16> -> tensor<1x5xbf16>
  %5 = fuser.broadcast %3 [0] : tensor<5xbf16> -> tensor<1x5xbf16>
  %6 = fuser.squeeze %c [2] : tensor<1x5x1xbf16> -> tensor<1x5xbf16>
  return %0, %1, %4, %5, %6 : tensor<1x5xbf16>, tensor<1x5xbf16>, tensor<1x5xbf16>, tensor<1x5xbf16>, tensor<1x5xbf16>
}

// MIXED: result 0: tensor<4xf64> fnv1a64=[[D:0x[0-9a-f]+]]
// MIXED-NEXT: [-0, nan, inf, -2.5]
// MIXED-NEXT: result 1: tensor<4xf64> fnv1a64=[[D]]
// MIXED-NEXT: [-0, nan, inf, -2.5]
// MIXED: result 2: tensor<4xf64> fnv1a64=[[D]]
// MIXED: result 3: tensor<4xf64> fnv1a64=[[D]]
// MIXED: result 4: tensor<4xi32> fnv1a64=[[I:0x[0-9a-f]+]]
// MIXED-NEXT: [-2147483648, 2147483647, 0, -7]
// MIXED-NEXT: result 5: tensor<4xi32> fnv1a64=[[I]]
// MIXED: result 6: tensor<4xi32> fnv1a64=[[I]]
// MIXED: result 7: tensor<4xi32> fnv1a64=[[I]]
func.func @f64_i32_kinds() -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>,
                              tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %d = arith.constant dense<[[-0.0, 0xFFF8000000000003, 0x7FF0000000000000, -2.5]]> : tensor<1x4xf64>
  %i = arith.constant dense<[[-2147483648, 2147483647, 0, -7]]> : tensor<1x4xi32>
  %0 = fuser.reduction add %d [0] : tensor<1x4xf64> -> tensor<4xf64>
  %1 = fuser.reduction mul %d [0] : tensor<1x4xf64> -> tensor<4xf64>
  %2 = fuser.reduction max %d [0] : tensor<1x4xf64> -> tensor<4xf64>
  %3 = fuser.reduction min %d [0] : tensor<1x4xf64> -> tensor<4xf64>
  %4 = fuser.reduction add %i [0] : tensor<1x4xi32> -> tensor<4xi32>
  %5 = fuser.reduction mul %i [0] : tensor<1x4xi32> -> tensor<4xi32>
  %6 = fuser.reduction max %i [0] : tensor<1x4xi32> -> tensor<4xi32>
  %7 = fuser.reduction min %i [0] : tensor<1x4xi32> -> tensor<4xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// Over several elements: a sum of only -0.0 is -0.0; one +0.0 makes it +0.0.
// ZERO: result 0: tensor<2xf32>
// ZERO-NEXT: [-0, 0]
func.func @signed_zero_sums() -> tensor<2xf32> {
  %c = arith.constant dense<[[-0.0, -0.0, -0.0], [-0.0, 0.0, -0.0]]> : tensor<2x3xf32>
  %0 = fuser.reduction add %c [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// A mixed reduction (extent-1 dims 0 and 2 among the reduced dims) on the
// deterministic inputs: preseg drops the extent-1 dims; same bits.
// CHECKED: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// CHECKED: check 1: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
func.func @mixed_dims(%x: tensor<1x3x1x4x5xf32>) -> (tensor<3x5xf32>, tensor<1x3x1x1x5xf32>) {
  %0 = fuser.reduction add %x [0, 2, 3] : tensor<1x3x1x4x5xf32> -> tensor<3x5xf32>
  %1 = fuser.reduction max %x [2, 3] keepdim : tensor<1x3x1x4x5xf32> -> tensor<1x3x1x1x5xf32>
  return %0, %1 : tensor<3x5xf32>, tensor<1x3x1x1x5xf32>
}
