// RUN: fuser-opt %s --fuser-preseg -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize -split-input-file | FileCheck %s

// Rule (nvFuser's preseg rule for a matmul without a reduction): with K = 1
// every result element is one product, lhs[b, m, 0] * rhs[b, 0, n], which
// fuser.matmul gives exactly (it adds from -0.0). So
//   matmul(lhs [B.., M, 1], rhs [B.., 1, N]) -> mul : [B.., M, N]
// with each operand broadcast to the result's batch rank plus 2 (leading
// size-1 dims, which the mul broadcasts), a 1-D operand [1] read as [1, 1],
// and the unit dim a 1-D operand adds squeezed. Values:
// test/Interpreter/matmul-k1.mlir runs both forms to the same bits.

// CHECK-LABEL: func.func @matrix(
// CHECK-SAME: %[[A:[a-zA-Z0-9_]+]]: tensor<3x1xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<1x5xf32>
// CHECK-NOT: fuser.matmul
// CHECK: %[[M:.*]] = fuser.mul %[[A]], %[[B]] : tensor<3x1xf32>, tensor<1x5xf32> -> tensor<3x5xf32>
// CHECK: return %[[M]]
func.func @matrix(%a: tensor<3x1xf32>, %b: tensor<1x5xf32>) -> tensor<3x5xf32> {
  %0 = fuser.matmul %a, %b : tensor<3x1xf32>, tensor<1x5xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Batch dims: the rhs gets the lhs's batch rank; bf16 stays bf16. (The
// new leading size-1 dim next to the rhs's own size-1 dim prints as [1], the
// canonical form of that broadcast.)
// CHECK-LABEL: func.func @batched(
// CHECK-NOT: fuser.matmul
// CHECK: %[[R:.*]] = fuser.broadcast %{{.*}} [1] : tensor<1x5xbf16> -> tensor<1x1x5xbf16>
// CHECK: fuser.mul %{{.*}}, %[[R]] : tensor<2x3x1xbf16>, tensor<1x1x5xbf16> -> tensor<2x3x5xbf16>
func.func @batched(%a: tensor<2x3x1xbf16>, %b: tensor<1x5xbf16>) -> tensor<2x3x5xbf16> {
  %0 = fuser.matmul %a, %b : tensor<2x3x1xbf16>, tensor<1x5xbf16> -> tensor<2x3x5xbf16>
  return %0 : tensor<2x3x5xbf16>
}

// -----

// 1-D operands: read as [1, 1], their unit dims squeezed.
// CHECK-LABEL: func.func @vectors(
// CHECK-NOT: fuser.matmul
// CHECK: fuser.mul %{{.*}}, %{{.*}} : tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x1xf32>
// CHECK: fuser.squeeze %{{.*}} [0, 1] : tensor<1x1xf32> -> tensor<f32>
// CHECK: fuser.mul %{{.*}}, %{{.*}} : tensor<1x1x1xf32>, tensor<2x1x5xf32> -> tensor<2x1x5xf32>
// CHECK: fuser.squeeze %{{.*}} [1] : tensor<2x1x5xf32> -> tensor<2x5xf32>
func.func @vectors(%v: tensor<1xf32>, %b: tensor<2x1x5xf32>) -> (tensor<f32>, tensor<2x5xf32>) {
  %0 = fuser.matmul %v, %v : tensor<1xf32>, tensor<1xf32> -> tensor<f32>
  %1 = fuser.matmul %v, %b : tensor<1xf32>, tensor<2x1x5xf32> -> tensor<2x5xf32>
  return %0, %1 : tensor<f32>, tensor<2x5xf32>
}

// -----

// Must not fire: K = 2 sums two products; a linear with K = 1 is not the
// rule's (nvFuser's rule takes matmul only).
// CHECK-LABEL: func.func @not_k1(
// CHECK: fuser.matmul
// CHECK: fuser.linear
// CHECK-NOT: fuser.mul
func.func @not_k1(%a: tensor<3x2xf32>, %b: tensor<2x5xf32>, %x: tensor<3x1xf32>, %w: tensor<5x1xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>) {
  %0 = fuser.matmul %a, %b : tensor<3x2xf32>, tensor<2x5xf32> -> tensor<3x5xf32>
  %1 = fuser.linear %x, %w : tensor<3x1xf32>, tensor<5x1xf32> -> tensor<3x5xf32>
  return %0, %1 : tensor<3x5xf32>, tensor<3x5xf32>
}
