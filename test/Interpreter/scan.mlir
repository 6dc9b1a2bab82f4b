// fuser.scan in the interpreter, on constants whose prefixes are known:
// sums and products along either dim; bf16 accumulated in f32 and each
// prefix rounded once (256 + 1 = 257 rounds to the even 256, 256 + 1 + 1 =
// 258 is exact; adding in bf16 step by step would stay at 256); max
// propagating NaN; min ordering -0.0 below +0.0; i32 products wrapping
// (65536 * 65536 = 2^32 is 0); an empty scan dim.
// RUN: fuser-run %s --backend interp --print-values | FileCheck %s

// CHECK: result 0: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}1, 3, 6], [4, 9, 15]]
// CHECK: result 1: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}1, 2, 3], [4, 10, 18]]
// CHECK: result 2: tensor<3xbf16>
// CHECK-NEXT: [256, 256, 258]
// CHECK: result 3: tensor<4xf32>
// CHECK-NEXT: [1, nan, nan, nan]
// CHECK: result 4: tensor<2xf32>
// CHECK-NEXT: [0, -0]
// CHECK: result 5: tensor<3xi32>
// CHECK-NEXT: [65536, 0, 0]
// CHECK: result 6: tensor<2x0xf32>
// CHECK-NEXT: {{\[\[}}], []]
func.func @scans(%e: tensor<2x0xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xbf16>, tensor<4xf32>,
                                         tensor<2xf32>, tensor<3xi32>, tensor<2x0xf32>) {
  %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %h = arith.constant dense<[256.0, 1.0, 1.0]> : tensor<3xbf16>
  %n = arith.constant dense<[1.0, 0x7FC00000, 3.0, 5.0]> : tensor<4xf32>
  %z = arith.constant dense<[0.0, -0.0]> : tensor<2xf32>
  %i = arith.constant dense<[65536, 65536, 7]> : tensor<3xi32>
  %0 = fuser.scan add %x [1] : tensor<2x3xf32>
  %1 = fuser.scan mul %x [0] : tensor<2x3xf32>
  %2 = fuser.scan add %h [0] : tensor<3xbf16>
  %3 = fuser.scan max %n [0] : tensor<4xf32>
  %4 = fuser.scan min %z [0] : tensor<2xf32>
  %5 = fuser.scan mul %i [0] : tensor<3xi32>
  %6 = fuser.scan add %e [1] : tensor<2x0xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xbf16>, tensor<4xf32>,
                                      tensor<2xf32>, tensor<3xi32>, tensor<2x0xf32>
}
