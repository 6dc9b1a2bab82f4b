// Data movement ops on small constants, checked element by element.
// RUN: fuser-run %s --entry view --print-values | FileCheck %s --check-prefix=VIEW
// RUN: fuser-run %s --entry squeeze_broadcast_set --print-values | FileCheck %s --check-prefix=SQUEEZE
// RUN: fuser-run %s --entry expand --print-values | FileCheck %s --check-prefix=EXPAND
// RUN: fuser-run %s --entry permute --print-values | FileCheck %s --check-prefix=PERMUTE
// RUN: fuser-run %s --entry slice --print-values | FileCheck %s --check-prefix=SLICE
// RUN: fuser-run %s --entry pad --print-values | FileCheck %s --check-prefix=PAD
// RUN: fuser-run %s --entry cat --print-values | FileCheck %s --check-prefix=CAT
// RUN: fuser-run %s --entry full --print-values | FileCheck %s --check-prefix=FULL

// VIEW: result 0: tensor<3x2xi32>
// VIEW-NEXT: {{\[\[}}1, 2], [3, 4], [5, 6]]
func.func @view() -> tensor<3x2xi32> {
  %c = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %v = fuser.view %c : tensor<2x3xi32> -> tensor<3x2xi32>
  return %v : tensor<3x2xi32>
}

// SQUEEZE: result 0: tensor<1x3x1xf32>
// SQUEEZE-NEXT: {{\[\[\[}}1.5], [-2], [3]]]
// SQUEEZE: result 1: tensor<3xf32>
// SQUEEZE-NEXT: [1.5, -2, 3]
func.func @squeeze_broadcast_set() -> (tensor<1x3x1xf32>, tensor<3xf32>) {
  %c = arith.constant dense<[[1.5], [-2.0], [3.0]]> : tensor<3x1xf32>
  %s = fuser.squeeze %c [1] : tensor<3x1xf32> -> tensor<3xf32>
  %b = fuser.broadcast %s [0, 2] : tensor<3xf32> -> tensor<1x3x1xf32>
  %t = fuser.set %b cache_op = streaming : tensor<1x3x1xf32>
  %u = fuser.segment_set %s : tensor<3xf32>
  return %t, %u : tensor<1x3x1xf32>, tensor<3xf32>
}

// EXPAND: result 0: tensor<2x3xi64>
// EXPAND-NEXT: {{\[\[}}7, 7, 7], [8, 8, 8]]
func.func @expand() -> tensor<2x3xi64> {
  %c = arith.constant dense<[[7], [8]]> : tensor<2x1xi64>
  %e = fuser.expand %c : tensor<2x1xi64> -> tensor<2x3xi64>
  return %e : tensor<2x3xi64>
}

// PERMUTE: result 0: tensor<3x2xbf16>
// PERMUTE-NEXT: {{\[\[}}1, 4], [2, 5], [3, 6]]
// PERMUTE: result 1: tensor<2x2x2xi1>
// PERMUTE-NEXT: {{\[\[\[}}true, false], [false, false]], {{\[\[}}true, true], [false, true]]]
func.func @permute() -> (tensor<3x2xbf16>, tensor<2x2x2xi1>) {
  %c = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xbf16>
  %p = fuser.permute %c [1, 0] : tensor<2x3xbf16> -> tensor<3x2xbf16>
  // b[i][j][k] = a[j][k][i] for a = [[[1,1],[0,1]],[[0,0],[0,1]]].
  %a = arith.constant dense<[[[true, true], [false, true]], [[false, false], [false, true]]]> : tensor<2x2x2xi1>
  %q = fuser.permute %a [2, 0, 1] : tensor<2x2x2xi1> -> tensor<2x2x2xi1>
  return %p, %q : tensor<3x2xbf16>, tensor<2x2x2xi1>
}

// SLICE: result 0: tensor<2x2xi32>
// SLICE-NEXT: {{\[\[}}5, 7], [13, 15]]
func.func @slice() -> tensor<2x2xi32> {
  %c = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi32>
  %s = fuser.slice %c starts [1, 1] limits [4, 4] strides [2, 2] : tensor<4x4xi32> -> tensor<2x2xi32>
  return %s : tensor<2x2xi32>
}

// PAD: result 0: tensor<3x4xf16>
// PAD-NEXT: {{\[\[}}-1, -1, -1, -1], [-1, 0.5, 0.25, -1], [-1, -1, -1, -1]]
func.func @pad() -> tensor<3x4xf16> {
  %c = arith.constant dense<[[0.5, 0.25]]> : tensor<1x2xf16>
  %v = arith.constant -1.0 : f16
  %p = fuser.pad %c low [1, 1] high [1, 1] value %v : tensor<1x2xf16>, f16 -> tensor<3x4xf16>
  return %p : tensor<3x4xf16>
}

// CAT: result 0: tensor<2x3xf64>
// CAT-NEXT: {{\[\[}}1, 2, 5], [3, 4, 6]]
func.func @cat() -> tensor<2x3xf64> {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
  %b = arith.constant dense<[[5.0], [6.0]]> : tensor<2x1xf64>
  %c = fuser.cat %a, %b dim 1 : tensor<2x2xf64>, tensor<2x1xf64> -> tensor<2x3xf64>
  return %c : tensor<2x3xf64>
}

// FULL: result 0: tensor<2x2xi64>
// FULL-NEXT: {{\[\[}}-3, -3], [-3, -3]]
func.func @full() -> tensor<2x2xi64> {
  %c = arith.constant -3 : i64
  %f = fuser.full %c : i64 -> tensor<2x2xi64>
  return %f : tensor<2x2xi64>
}
