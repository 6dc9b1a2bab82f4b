// Round trip of fuser.reduction: every kind, with and without keepdim, and of
// fuser.cast (the widening/narrowing pair around a reduction).
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s | fuser-opt | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @kinds
// CHECK-SAME: (%[[A:.*]]: tensor<8x4x4096xf32>)
// CHECK-NEXT: fuser.reduction add %[[A]] [1] : tensor<8x4x4096xf32> -> tensor<8x4096xf32>
// CHECK-NEXT: fuser.reduction mul %[[A]] [1] : tensor<8x4x4096xf32> -> tensor<8x4096xf32>
// CHECK-NEXT: fuser.reduction max %[[A]] [1] : tensor<8x4x4096xf32> -> tensor<8x4096xf32>
// CHECK-NEXT: fuser.reduction min %[[A]] [1] : tensor<8x4x4096xf32> -> tensor<8x4096xf32>
func.func @kinds(%a: tensor<8x4x4096xf32>) {
  %0 = fuser.reduction add %a [1] : tensor<8x4x4096xf32> -> tensor<8x4096xf32>
  %1 = fuser.reduction mul %a [1] : tensor<8x4x4096xf32> -> tensor<8x4096xf32>
  %2 = fuser.reduction max %a [1] : tensor<8x4x4096xf32> -> tensor<8x4096xf32>
  %3 = fuser.reduction min %a [1] : tensor<8x4x4096xf32> -> tensor<8x4096xf32>
  return
}

// keepdim leaves the reduced dims as size 1.
// CHECK-LABEL: func.func @keepdim
// CHECK-SAME: (%[[A:.*]]: tensor<8x4x4096xf32>)
// CHECK-NEXT: fuser.reduction add %[[A]] [1] keepdim : tensor<8x4x4096xf32> -> tensor<8x1x4096xf32>
// CHECK-NEXT: fuser.reduction mul %[[A]] [0, 2] keepdim : tensor<8x4x4096xf32> -> tensor<1x4x1xf32>
// CHECK-NEXT: fuser.reduction max %[[A]] [1, 2] keepdim : tensor<8x4x4096xf32> -> tensor<8x1x1xf32>
// CHECK-NEXT: fuser.reduction min %[[A]] [0, 1, 2] keepdim : tensor<8x4x4096xf32> -> tensor<1x1x1xf32>
func.func @keepdim(%a: tensor<8x4x4096xf32>) {
  %0 = fuser.reduction add %a [1] keepdim : tensor<8x4x4096xf32> -> tensor<8x1x4096xf32>
  %1 = fuser.reduction mul %a [0, 2] keepdim : tensor<8x4x4096xf32> -> tensor<1x4x1xf32>
  %2 = fuser.reduction max %a [1, 2] keepdim : tensor<8x4x4096xf32> -> tensor<8x1x1xf32>
  %3 = fuser.reduction min %a [0, 1, 2] keepdim : tensor<8x4x4096xf32> -> tensor<1x1x1xf32>
  return
}

// Several dims without keepdim, down to rank 0; integer and half types.
// CHECK-LABEL: func.func @dims_and_types
// CHECK-NEXT: fuser.reduction add %{{.*}} [0, 2] : tensor<8x4x4096xf32> -> tensor<4xf32>
// CHECK-NEXT: fuser.reduction max %{{.*}} [0, 1] : tensor<3x5xi32> -> tensor<i32>
// CHECK-NEXT: fuser.reduction min %{{.*}} [0] : tensor<3x5xi64> -> tensor<5xi64>
// CHECK-NEXT: fuser.reduction mul %{{.*}} [1] : tensor<2x2xf16> -> tensor<2xf16>
// CHECK-NEXT: fuser.reduction add %{{.*}} [0] keepdim : tensor<7xf64> -> tensor<1xf64>
func.func @dims_and_types(%a: tensor<8x4x4096xf32>, %b: tensor<3x5xi32>, %c: tensor<3x5xi64>,
                          %d: tensor<2x2xf16>, %e: tensor<7xf64>) {
  %0 = fuser.reduction add %a [0, 2] : tensor<8x4x4096xf32> -> tensor<4xf32>
  %1 = fuser.reduction max %b [0, 1] : tensor<3x5xi32> -> tensor<i32>
  %2 = fuser.reduction min %c [0] : tensor<3x5xi64> -> tensor<5xi64>
  %3 = fuser.reduction mul %d [1] : tensor<2x2xf16> -> tensor<2xf16>
  %4 = fuser.reduction add %e [0] keepdim : tensor<7xf64> -> tensor<1xf64>
  return
}

// The RMSNorm/softmax shape of a reduction: widen, reduce, narrow.
// CHECK-LABEL: func.func @cast_around_reduction
// CHECK-SAME: (%[[A:.*]]: tensor<8x4x128xbf16>)
// CHECK-NEXT: %[[W:.*]] = fuser.cast %[[A]] : tensor<8x4x128xbf16> to tensor<8x4x128xf32>
// CHECK-NEXT: %[[R:.*]] = fuser.reduction add %[[W]] [1] : tensor<8x4x128xf32> -> tensor<8x128xf32>
// CHECK-NEXT: %[[N:.*]] = fuser.cast %[[R]] : tensor<8x128xf32> to tensor<8x128xbf16>
// CHECK-NEXT: return %[[N]] : tensor<8x128xbf16>
func.func @cast_around_reduction(%a: tensor<8x4x128xbf16>) -> tensor<8x128xbf16> {
  %0 = fuser.cast %a : tensor<8x4x128xbf16> to tensor<8x4x128xf32>
  %1 = fuser.reduction add %0 [1] : tensor<8x4x128xf32> -> tensor<8x128xf32>
  %2 = fuser.cast %1 : tensor<8x128xf32> to tensor<8x128xbf16>
  return %2 : tensor<8x128xbf16>
}
