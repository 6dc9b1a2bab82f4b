// RUN: fuser-opt %s --fuser-preseg -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize -split-input-file | FileCheck %s

// Rule (nvFuser's TranslateScatterAccumulate): the integer sum of a one-hot
// tensor is a scatter-add into zeros of the summed shape,
//   sum(scatter(full(0) [M, N], index [M', 1], src [M', 1], dim 1), [0])
//     -> scatter(full(0) [N], squeeze(index), squeeze(src), dim 0, reduce add)
// (either dim; keepdim broadcast back). Each summed row holds its one
// written element and zeros; integers only, where the order of the
// additions does not matter. MoE routing counts tokens per expert this way.

// CHECK-LABEL: func.func @counts(
// CHECK-SAME: %[[I:[a-zA-Z0-9_]+]]: tensor<6x1xi64>
// CHECK-NOT: fuser.reduction
// CHECK-DAG: %[[IS:.*]] = fuser.squeeze %[[I]] [1] : tensor<6x1xi64> -> tensor<6xi64>
// CHECK-DAG: %[[Z:.*]] = fuser.full %{{.*}} : i64 -> tensor<4xi64>
// CHECK-DAG: %[[SS:.*]] = fuser.squeeze %{{.*}} [1] : tensor<6x1xi64> -> tensor<6xi64>
// CHECK: %[[C:.*]] = fuser.scatter %[[Z]][%[[IS]]] = %[[SS]] dim 0 reduce add : tensor<4xi64>, tensor<6xi64>, tensor<6xi64>
// CHECK: return %[[C]]
func.func @counts(%i: tensor<6x1xi64>) -> tensor<4xi64> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %z = fuser.full %zero : i64 -> tensor<6x4xi64>
  %ones = fuser.full %one : i64 -> tensor<6x1xi64>
  %hot = fuser.scatter %z[%i] = %ones dim 1 : tensor<6x4xi64>, tensor<6x1xi64>, tensor<6x1xi64>
  %c = fuser.reduction add %hot [0] : tensor<6x4xi64> -> tensor<4xi64>
  return %c : tensor<4xi64>
}

// -----

// Along dim 0 with keepdim, i32, an index shorter than the summed rows and
// a scatter that already adds: the counts broadcast back to [N, 1]. Values:
// preseg-execution.mlir runs @one_hot_counts of Inputs/preseg-rules.mlir
// before and after.
// CHECK-LABEL: func.func @columns_keepdim(
// CHECK-NOT: fuser.reduction
// CHECK: %[[C:.*]] = fuser.scatter %{{.*}}[%{{.*}}] = %{{.*}} dim 0 reduce add : tensor<5xi32>, tensor<3xi32>, tensor<3xi32>
// CHECK: %[[B:.*]] = fuser.broadcast %[[C]] [1] : tensor<5xi32> -> tensor<5x1xi32>
// CHECK: return %[[B]]
func.func @columns_keepdim(%i: tensor<1x3xi32>, %s: tensor<1x3xi32>) -> tensor<5x1xi32> {
  %zero = arith.constant 0 : i32
  %z = fuser.full %zero : i32 -> tensor<5x4xi32>
  %hot = fuser.scatter %z[%i] = %s dim 0 reduce add : tensor<5x4xi32>, tensor<1x3xi32>, tensor<1x3xi32>
  %c = fuser.reduction add %hot [1] keepdim : tensor<5x4xi32> -> tensor<5x1xi32>
  return %c : tensor<5x1xi32>
}

// -----

// Must not fire: a float sum (its order would change), self not zeros,
// a max of the one-hot, a scatter that keeps the max, an index row of two
// elements, the sum along the scattered dim, and a scatter used twice.
// CHECK-LABEL: func.func @not_one_hot_sums(
// CHECK-COUNT-7: fuser.reduction
func.func @not_one_hot_sums(%i: tensor<6x1xi64>, %f: tensor<6x1xf32>, %j: tensor<6x2xi64>, %n: tensor<6x2xi64>, %x: tensor<6x4xi64>)
    -> (tensor<4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<6xi64>, tensor<4xi64>, tensor<6x4xi64>) {
  %fzero = arith.constant 0.0 : f32
  %fz = fuser.full %fzero : f32 -> tensor<6x4xf32>
  %fhot = fuser.scatter %fz[%i] = %f dim 1 : tensor<6x4xf32>, tensor<6x1xi64>, tensor<6x1xf32>
  %0 = fuser.reduction add %fhot [0] : tensor<6x4xf32> -> tensor<4xf32>
  %ones = fuser.cast %f : tensor<6x1xf32> to tensor<6x1xi64>
  %xhot = fuser.scatter %x[%i] = %ones dim 1 : tensor<6x4xi64>, tensor<6x1xi64>, tensor<6x1xi64>
  %1 = fuser.reduction add %xhot [0] : tensor<6x4xi64> -> tensor<4xi64>
  %zero = arith.constant 0 : i64
  %z = fuser.full %zero : i64 -> tensor<6x4xi64>
  %hot2 = fuser.scatter %z[%i] = %ones dim 1 : tensor<6x4xi64>, tensor<6x1xi64>, tensor<6x1xi64>
  %2 = fuser.reduction max %hot2 [0] : tensor<6x4xi64> -> tensor<4xi64>
  %hot3 = fuser.scatter %z[%i] = %ones dim 1 reduce max : tensor<6x4xi64>, tensor<6x1xi64>, tensor<6x1xi64>
  %3 = fuser.reduction add %hot3 [0] : tensor<6x4xi64> -> tensor<4xi64>
  %hot4 = fuser.scatter %z[%j] = %n dim 1 : tensor<6x4xi64>, tensor<6x2xi64>, tensor<6x2xi64>
  %4 = fuser.reduction add %hot4 [0] : tensor<6x4xi64> -> tensor<4xi64>
  %hot5 = fuser.scatter %z[%i] = %ones dim 1 : tensor<6x4xi64>, tensor<6x1xi64>, tensor<6x1xi64>
  %5 = fuser.reduction add %hot5 [1] : tensor<6x4xi64> -> tensor<6xi64>
  %hot6 = fuser.scatter %z[%i] = %i dim 1 : tensor<6x4xi64>, tensor<6x1xi64>, tensor<6x1xi64>
  %6 = fuser.reduction add %hot6 [0] : tensor<6x4xi64> -> tensor<4xi64>
  return %0, %1, %2, %3, %4, %5, %6, %hot6 : tensor<4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<6xi64>, tensor<4xi64>, tensor<6x4xi64>
}
