// fuser.argsort in the interpreter, on constants whose orders are known:
// ties keep their order (stable), NaN above every number (last ascending,
// first descending), -0.0 equal to +0.0, along either dim, integers, and
// an empty row.
// RUN: fuser-run %s --backend interp --print-values | FileCheck %s

// CHECK: result 0: tensor<6xi64>
// CHECK-NEXT: [3, 1, 4, 0, 2, 5]
// CHECK: result 1: tensor<6xi64>
// CHECK-NEXT: [5, 2, 0, 1, 4, 3]
// CHECK: result 2: tensor<2x3xi64>
// CHECK-NEXT: {{\[\[}}1, 0, 1], [0, 1, 0]]
// CHECK: result 3: tensor<4xi64>
// CHECK-NEXT: [2, 1, 3, 0]
// CHECK: result 4: tensor<2x0xi64>
func.func @sorts(%e: tensor<2x0xf32>) -> (tensor<6xi64>, tensor<6xi64>, tensor<2x3xi64>, tensor<4xi64>, tensor<2x0xi64>) {
  // [2, 0, 3, -1, 0, NaN]: -1 (3), then the zeros 0 (1) and -0 (4) in
  // index order, 2 (0), 3 (2), NaN (5).
  %x = arith.constant dense<[2.0, 0.0, 3.0, -1.0, -0.0, 0x7FC00000]> : tensor<6xf32>
  %0 = fuser.argsort %x [0] : tensor<6xf32> -> tensor<6xi64>
  // Descending: NaN, 3, 2, the zeros in index order, -1.
  %1 = fuser.argsort %x [0] descending : tensor<6xf32> -> tensor<6xi64>
  %m = arith.constant dense<[[5, 1, 7], [2, 9, 3]]> : tensor<2x3xi32>
  %2 = fuser.argsort %m [0] : tensor<2x3xi32> -> tensor<2x3xi64>
  %i = arith.constant dense<[7, -3, -9, 4]> : tensor<4xi64>
  %3 = fuser.argsort %i [0] : tensor<4xi64> -> tensor<4xi64>
  %4 = fuser.argsort %e [1] : tensor<2x0xf32> -> tensor<2x0xi64>
  return %0, %1, %2, %3, %4 : tensor<6xi64>, tensor<6xi64>, tensor<2x3xi64>, tensor<4xi64>, tensor<2x0xi64>
}
