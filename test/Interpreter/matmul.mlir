// fuser.matmul and fuser.linear in the interpreter, on constants whose
// results are known: exact f32 products, torch.matmul's 1-D and batch
// broadcast shapes, K = 0 (+0.0), and bf16 accumulated in f32 and rounded
// once: 1 + 3 * 2^-8 is 1.01171875 in f32, a tie between bf16's 1.0078125
// and 1.015625 that rounds to the even 1.015625 (adding in bf16 step by step
// would give 1).
// RUN: fuser-run %s --backend interp --print-values | FileCheck %s

// CHECK: result 0: tensor<3x2xf32>
// CHECK-NEXT: {{\[\[}}7, 10], [15, 22], [23, 34]]
// CHECK: result 1: tensor<f32>
// CHECK-NEXT: {{^}}  5{{$}}
// CHECK: result 2: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}5, 11, 17], [-5, -11, -17]]
// CHECK: result 3: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}0, 0], [0, 0]]
// CHECK: result 4: tensor<1xbf16>
// CHECK-NEXT: [1.015625]
// CHECK: result 5: tensor<3x3xf32>
// CHECK-NEXT: {{\[\[}}5.5, 11.5, 17.5], [11.5, 25.5, 39.5], [17.5, 39.5, 61.5]]
func.func @library(%z: tensor<2x0xf32>) -> (tensor<3x2xf32>, tensor<f32>, tensor<2x3xf32>,
                                           tensor<2x2xf32>, tensor<1xbf16>, tensor<3x3xf32>) {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %b = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %s = arith.constant dense<[[[1.0, 2.0]], [[-1.0, -2.0]]]> : tensor<2x1x2xf32>
  %row = arith.constant dense<[1.0, 1.0, 1.0, 1.0]> : tensor<4xbf16>
  %col = arith.constant dense<[[1.0], [0.00390625], [0.00390625], [0.00390625]]> : tensor<4x1xbf16>
  %bias = arith.constant dense<[0.5, 0.5, 0.5]> : tensor<3xf32>
  %0 = fuser.matmul %a, %b : tensor<3x2xf32>, tensor<2x2xf32> -> tensor<3x2xf32>
  %1 = fuser.matmul %v, %v : tensor<2xf32>, tensor<2xf32> -> tensor<f32>
  // [2, 1, 2] x [3, 2]^T: the batch dim of the lhs, the rhs shared.
  %at = fuser.permute %a [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  %m2 = fuser.matmul %s, %at : tensor<2x1x2xf32>, tensor<2x3xf32> -> tensor<2x1x3xf32>
  %2 = fuser.squeeze %m2 [1] : tensor<2x1x3xf32> -> tensor<2x3xf32>
  %zt = fuser.permute %z [1, 0] : tensor<2x0xf32> -> tensor<0x2xf32>
  %3 = fuser.matmul %z, %zt : tensor<2x0xf32>, tensor<0x2xf32> -> tensor<2x2xf32>
  %4 = fuser.matmul %row, %col : tensor<4xbf16>, tensor<4x1xbf16> -> tensor<1xbf16>
  // x W^T + b with x = W = a.
  %5 = fuser.linear %a, %a bias %bias : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3xf32> -> tensor<3x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<3x2xf32>, tensor<f32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<1xbf16>, tensor<3x3xf32>
}
