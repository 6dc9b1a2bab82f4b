// fuser.scatter in the interpreter, on constants whose results are known:
// index elements write in row-major order (a later duplicate wins, or is
// combined later), each combiner, rows of index shorter than self's
// (the rest of self stays), bf16 sums rounded at each write, and an index
// out of range as a located error.
// RUN: fuser-run %s --entry scatters --backend interp --print-values | FileCheck %s
// RUN: not fuser-run %s --entry out_of_range --backend interp 2>&1 | FileCheck %s --check-prefix=RANGE

// [0, 0, 0, 0, 0] at [3, 1, 3] = [1, 2, 5]: element 3 written twice, 5 last.
// CHECK: result 0: tensor<5xf32>
// CHECK-NEXT: [0, 2, 0, 5, 0]
// Added: 1 + 5 at element 3.
// CHECK: result 1: tensor<5xf32>
// CHECK-NEXT: [0, 2, 0, 6, 0]
// max and min with self's zeros.
// CHECK: result 2: tensor<5xf32>
// CHECK-NEXT: [0, 2, 0, 5, 0]
// CHECK: result 3: tensor<5xf32>
// CHECK-NEXT: [0, 0, 0, 0, 0]
// Along dim 1 with a 1x2 index of a 2x4 self: row 1 keeps self's.
// CHECK: result 4: tensor<2x4xi32>
// CHECK-NEXT: {{\[\[}}-1, 20, 10, -1], [-1, -1, -1, -1]]
// bf16 256 + 1 + 1, rounded to bf16 (spacing 2, ties to even) at each write:
// 256, not 258.
// CHECK: result 5: tensor<1xbf16>
// CHECK-NEXT: [256]
func.func @scatters() -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<2x4xi32>, tensor<1xbf16>) {
  %x = arith.constant dense<0.0> : tensor<5xf32>
  %i = arith.constant dense<[3, 1, 3]> : tensor<3xi64>
  %s = arith.constant dense<[1.0, 2.0, 5.0]> : tensor<3xf32>
  %0 = fuser.scatter %x[%i] = %s dim 0 : tensor<5xf32>, tensor<3xi64>, tensor<3xf32>
  %1 = fuser.scatter %x[%i] = %s dim 0 reduce add : tensor<5xf32>, tensor<3xi64>, tensor<3xf32>
  %2 = fuser.scatter %x[%i] = %s dim 0 reduce max : tensor<5xf32>, tensor<3xi64>, tensor<3xf32>
  %3 = fuser.scatter %x[%i] = %s dim 0 reduce min : tensor<5xf32>, tensor<3xi64>, tensor<3xf32>
  %y = arith.constant dense<-1> : tensor<2x4xi32>
  %j = arith.constant dense<[[2, 1]]> : tensor<1x2xi32>
  %t = arith.constant dense<[[10, 20, 30], [40, 50, 60]]> : tensor<2x3xi32>
  %4 = fuser.scatter %y[%j] = %t dim 1 : tensor<2x4xi32>, tensor<1x2xi32>, tensor<2x3xi32>
  %h = arith.constant dense<256.0> : tensor<1xbf16>
  %k = arith.constant dense<0> : tensor<2xi64>
  %one = arith.constant dense<1.0> : tensor<2xbf16>
  %5 = fuser.scatter %h[%k] = %one dim 0 reduce add : tensor<1xbf16>, tensor<2xi64>, tensor<2xbf16>
  return %0, %1, %2, %3, %4, %5 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<2x4xi32>, tensor<1xbf16>
}

// RANGE: scatter.mlir:[[@LINE+3]]:8: error: index 4 is out of range [0, 4) along dim 0 at index element 1
func.func @out_of_range(%x: tensor<4xf32>, %s: tensor<2xf32>) -> tensor<4xf32> {
  %i = arith.constant dense<[0, 4]> : tensor<2xi64>
  %0 = fuser.scatter %x[%i] = %s dim 0 : tensor<4xf32>, tensor<2xi64>, tensor<2xf32>
  return %0 : tensor<4xf32>
}
