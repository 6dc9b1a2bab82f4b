// A matmul with K = 1 and the mul fuser-preseg makes of it give the same
// bits in the interpreter, -0.0 and the rounding of bf16 included
// (test/Dialect/Fuser/Transforms/preseg-matmul-k1.mlir states the rule).
// RUN: fuser-run %s --print-values | FileCheck %s
// RUN: fuser-opt %s --fuser-preseg | fuser-run - --print-values | FileCheck %s

// CHECK: result 0: tensor<3x2xf32> fnv1a64=[[F32:0x[0-9a-f]+]]
// CHECK-NEXT: {{\[\[}}-0, 0], [3, -3], [-1.5, 1.5]]
// CHECK: result 1: tensor<2x2xbf16> fnv1a64=[[BF16:0x[0-9a-f]+]]
// 1.0078125 * 3 = 3.0234375 lies halfway between the bf16 values 3.015625
// and 3.03125: rounded once, to even.
// CHECK-NEXT: {{\[\[}}1.0078125, 3.03125], [-1.0078125, -3.03125]]
func.func @k1() -> (tensor<3x2xf32>, tensor<2x2xbf16>) {
  %a = arith.constant dense<[[-0.0], [3.0], [-1.5]]> : tensor<3x1xf32>
  %b = arith.constant dense<[[1.0, -1.0]]> : tensor<1x2xf32>
  %0 = fuser.matmul %a, %b : tensor<3x1xf32>, tensor<1x2xf32> -> tensor<3x2xf32>
  %c = arith.constant dense<[[1.0078125], [-1.0078125]]> : tensor<2x1xbf16>
  %d = arith.constant dense<[[1.0, 3.0]]> : tensor<1x2xbf16>
  %1 = fuser.matmul %c, %d : tensor<2x1xbf16>, tensor<1x2xbf16> -> tensor<2x2xbf16>
  return %0, %1 : tensor<3x2xf32>, tensor<2x2xbf16>
}
