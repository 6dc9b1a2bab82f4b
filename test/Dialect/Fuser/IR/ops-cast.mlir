// Round trip of fuser.cast between every pair of element kinds, on tensors
// and on scalars.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s | fuser-opt | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @tensor_casts
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xbf16>)
// CHECK-NEXT: %[[F32:.*]] = fuser.cast %[[A]] : tensor<2x3xbf16> to tensor<2x3xf32>
// CHECK-NEXT: %[[F16:.*]] = fuser.cast %[[F32]] : tensor<2x3xf32> to tensor<2x3xf16>
// CHECK-NEXT: %[[F64:.*]] = fuser.cast %[[F16]] : tensor<2x3xf16> to tensor<2x3xf64>
// CHECK-NEXT: %[[I64:.*]] = fuser.cast %[[F64]] : tensor<2x3xf64> to tensor<2x3xi64>
// CHECK-NEXT: %[[I32:.*]] = fuser.cast %[[I64]] : tensor<2x3xi64> to tensor<2x3xi32>
// CHECK-NEXT: %[[I1:.*]] = fuser.cast %[[I32]] : tensor<2x3xi32> to tensor<2x3xi1>
// CHECK-NEXT: %[[B:.*]] = fuser.cast %[[I1]] : tensor<2x3xi1> to tensor<2x3xbf16>
// CHECK-NEXT: return %[[B]] : tensor<2x3xbf16>
func.func @tensor_casts(%a: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
  %0 = fuser.cast %a : tensor<2x3xbf16> to tensor<2x3xf32>
  %1 = fuser.cast %0 : tensor<2x3xf32> to tensor<2x3xf16>
  %2 = fuser.cast %1 : tensor<2x3xf16> to tensor<2x3xf64>
  %3 = fuser.cast %2 : tensor<2x3xf64> to tensor<2x3xi64>
  %4 = fuser.cast %3 : tensor<2x3xi64> to tensor<2x3xi32>
  %5 = fuser.cast %4 : tensor<2x3xi32> to tensor<2x3xi1>
  %6 = fuser.cast %5 : tensor<2x3xi1> to tensor<2x3xbf16>
  return %6 : tensor<2x3xbf16>
}

// Scalars (nvFuser define_scalar) cast too; rank-0 tensors stay tensors.
// CHECK-LABEL: func.func @scalar_casts
// CHECK-SAME: (%[[S:[^:]*]]: f64, %[[T:[^:]*]]: tensor<i32>)
// CHECK-NEXT: %[[X:.*]] = fuser.cast %[[S]] : f64 to bf16
// CHECK-NEXT: %[[Y:.*]] = fuser.cast %[[T]] : tensor<i32> to tensor<f32>
// CHECK-NEXT: return %[[X]], %[[Y]] : bf16, tensor<f32>
func.func @scalar_casts(%s: f64, %t: tensor<i32>) -> (bf16, tensor<f32>) {
  %0 = fuser.cast %s : f64 to bf16
  %1 = fuser.cast %t : tensor<i32> to tensor<f32>
  return %0, %1 : bf16, tensor<f32>
}

// The 8-bit floats cast to and from every type and move through the meta
// ops and where (they are storage types: no arithmetic).
// CHECK-LABEL: func.func @float8
// CHECK-NEXT: %[[E4:.*]] = fuser.cast %{{.*}} : tensor<2x3xf32> to tensor<2x3xf8E4M3FN>
// CHECK-NEXT: %[[E5:.*]] = fuser.cast %[[E4]] : tensor<2x3xf8E4M3FN> to tensor<2x3xf8E5M2>
// CHECK-NEXT: %[[P:.*]] = fuser.permute %[[E5]] [1, 0] : tensor<2x3xf8E5M2> -> tensor<3x2xf8E5M2>
// CHECK-NEXT: %[[W:.*]] = fuser.where %{{.*}}, %[[P]], %[[P]] : tensor<3x2xi1>, tensor<3x2xf8E5M2>, tensor<3x2xf8E5M2> -> tensor<3x2xf8E5M2>
// CHECK-NEXT: %[[I:.*]] = fuser.cast %[[W]] : tensor<3x2xf8E5M2> to tensor<3x2xi64>
// CHECK-NEXT: %[[S:.*]] = fuser.cast %{{.*}} : i1 to f8E4M3FN
func.func @float8(%a: tensor<2x3xf32>, %c: tensor<3x2xi1>, %s: i1) -> (tensor<3x2xi64>, f8E4M3FN) {
  %0 = fuser.cast %a : tensor<2x3xf32> to tensor<2x3xf8E4M3FN>
  %1 = fuser.cast %0 : tensor<2x3xf8E4M3FN> to tensor<2x3xf8E5M2>
  %2 = fuser.permute %1 [1, 0] : tensor<2x3xf8E5M2> -> tensor<3x2xf8E5M2>
  %3 = fuser.where %c, %2, %2 : tensor<3x2xi1>, tensor<3x2xf8E5M2>, tensor<3x2xf8E5M2> -> tensor<3x2xf8E5M2>
  %4 = fuser.cast %3 : tensor<3x2xf8E5M2> to tensor<3x2xi64>
  %5 = fuser.cast %s : i1 to f8E4M3FN
  return %4, %5 : tensor<3x2xi64>, f8E4M3FN
}
