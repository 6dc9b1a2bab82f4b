// Round trip of the meta ops (data movement, no arithmetic): the custom form
// is printed, re-parsed and re-printed; the generic form re-parses to the same
// custom form.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s | fuser-opt | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @view
// CHECK-SAME: (%[[A:.*]]: tensor<1x32x4096x128xbf16>)
// CHECK: %[[V:.*]] = fuser.view %[[A]] : tensor<1x32x4096x128xbf16> -> tensor<1x8x4x4096x128xbf16>
// CHECK: %[[W:.*]] = fuser.view %[[V]] : tensor<1x8x4x4096x128xbf16> -> tensor<16777216xbf16>
// CHECK: return %[[W]]
func.func @view(%a: tensor<1x32x4096x128xbf16>) -> tensor<16777216xbf16> {
  %0 = fuser.view %a : tensor<1x32x4096x128xbf16> -> tensor<1x8x4x4096x128xbf16>
  %1 = fuser.view %0 : tensor<1x8x4x4096x128xbf16> -> tensor<16777216xbf16>
  return %1 : tensor<16777216xbf16>
}

// A rank-0 tensor has one element.
// CHECK-LABEL: func.func @view_rank0
// CHECK: fuser.view %{{.*}} : tensor<1x1xi64> -> tensor<i64>
func.func @view_rank0(%a: tensor<1x1xi64>) -> tensor<i64> {
  %0 = fuser.view %a : tensor<1x1xi64> -> tensor<i64>
  return %0 : tensor<i64>
}

// CHECK-LABEL: func.func @squeeze
// CHECK: %[[S0:.*]] = fuser.squeeze %{{.*}} [0] : tensor<1x8x1x4096xf32> -> tensor<8x1x4096xf32>
// CHECK: %[[S1:.*]] = fuser.squeeze %{{.*}} [0, 2] : tensor<1x8x1x4096xf32> -> tensor<8x4096xf32>
// CHECK: %[[S2:.*]] = fuser.squeeze %{{.*}} [0, 1] : tensor<1x1xi1> -> tensor<i1>
func.func @squeeze(%a: tensor<1x8x1x4096xf32>, %b: tensor<1x1xi1>)
    -> (tensor<8x1x4096xf32>, tensor<8x4096xf32>, tensor<i1>) {
  %0 = fuser.squeeze %a [0] : tensor<1x8x1x4096xf32> -> tensor<8x1x4096xf32>
  %1 = fuser.squeeze %a [0, 2] : tensor<1x8x1x4096xf32> -> tensor<8x4096xf32>
  %2 = fuser.squeeze %b [0, 1] : tensor<1x1xi1> -> tensor<i1>
  return %0, %1, %2 : tensor<8x1x4096xf32>, tensor<8x4096xf32>, tensor<i1>
}

// CHECK-LABEL: func.func @broadcast
// CHECK: fuser.broadcast %{{.*}} [0, 2] : tensor<8x4096xbf16> -> tensor<1x8x1x4096xbf16>
// CHECK: fuser.broadcast %{{.*}} [2, 3] : tensor<8x4096xbf16> -> tensor<8x4096x1x1xbf16>
// CHECK: fuser.broadcast %{{.*}} [0] : tensor<f64> -> tensor<1xf64>
func.func @broadcast(%a: tensor<8x4096xbf16>, %s: tensor<f64>)
    -> (tensor<1x8x1x4096xbf16>, tensor<8x4096x1x1xbf16>, tensor<1xf64>) {
  %0 = fuser.broadcast %a [0, 2] : tensor<8x4096xbf16> -> tensor<1x8x1x4096xbf16>
  %1 = fuser.broadcast %a [2, 3] : tensor<8x4096xbf16> -> tensor<8x4096x1x1xbf16>
  %2 = fuser.broadcast %s [0] : tensor<f64> -> tensor<1xf64>
  return %0, %1, %2 : tensor<1x8x1x4096xbf16>, tensor<8x4096x1x1xbf16>, tensor<1xf64>
}

// An empty dim list is valid (and folds away under -canonicalize).
// CHECK-LABEL: func.func @empty_dims
// CHECK: fuser.squeeze %{{.*}} [] : tensor<1x4xf32> -> tensor<1x4xf32>
// CHECK: fuser.broadcast %{{.*}} [] : tensor<1x4xf32> -> tensor<1x4xf32>
func.func @empty_dims(%a: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = fuser.squeeze %a [] : tensor<1x4xf32> -> tensor<1x4xf32>
  %1 = fuser.broadcast %0 [] : tensor<1x4xf32> -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}

// CHECK-LABEL: func.func @expand
// CHECK: fuser.expand %{{.*}} : tensor<1x128xf32> -> tensor<64x128xf32>
// CHECK: fuser.expand %{{.*}} : tensor<1x1x3xi32> -> tensor<5x7x3xi32>
func.func @expand(%a: tensor<1x128xf32>, %b: tensor<1x1x3xi32>)
    -> (tensor<64x128xf32>, tensor<5x7x3xi32>) {
  %0 = fuser.expand %a : tensor<1x128xf32> -> tensor<64x128xf32>
  %1 = fuser.expand %b : tensor<1x1x3xi32> -> tensor<5x7x3xi32>
  return %0, %1 : tensor<64x128xf32>, tensor<5x7x3xi32>
}

// Every cache_op keyword, and a set without one.
// CHECK-LABEL: func.func @set
// CHECK: %[[S0:.*]] = fuser.set %{{.*}} : tensor<8x4096xbf16>
// CHECK: %[[S1:.*]] = fuser.set %[[S0]] cache_op = streaming : tensor<8x4096xbf16>
// CHECK: %[[S2:.*]] = fuser.set %[[S1]] cache_op = all_levels : tensor<8x4096xbf16>
// CHECK: %[[S3:.*]] = fuser.set %[[S2]] cache_op = global : tensor<8x4096xbf16>
// CHECK: %[[S4:.*]] = fuser.set %[[S3]] cache_op = unspecified : tensor<8x4096xbf16>
// CHECK: return %[[S4]]
func.func @set(%a: tensor<8x4096xbf16>) -> tensor<8x4096xbf16> {
  %0 = fuser.set %a : tensor<8x4096xbf16>
  %1 = fuser.set %0 cache_op = streaming : tensor<8x4096xbf16>
  %2 = fuser.set %1 cache_op = all_levels : tensor<8x4096xbf16>
  %3 = fuser.set %2 cache_op = global : tensor<8x4096xbf16>
  %4 = fuser.set %3 cache_op = unspecified : tensor<8x4096xbf16>
  return %4 : tensor<8x4096xbf16>
}

// A set without a hint prints no cache_op at all.
// CHECK-LABEL: func.func @set_no_hint
// CHECK-NOT: cache_op
// CHECK: return
func.func @set_no_hint(%a: tensor<4xi1>) -> tensor<4xi1> {
  %0 = fuser.set %a : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @segment_set
// CHECK: %[[R:.*]] = fuser.segment_set %{{.*}} : tensor<8x4096xbf16>
// CHECK: return %[[R]]
func.func @segment_set(%a: tensor<8x4096xbf16>) -> tensor<8x4096xbf16> {
  %0 = fuser.segment_set %a : tensor<8x4096xbf16>
  return %0 : tensor<8x4096xbf16>
}

// CHECK-LABEL: func.func @permute
// CHECK: fuser.permute %{{.*}} [0, 2, 1, 3] : tensor<1x8x4096x128xbf16> -> tensor<1x4096x8x128xbf16>
// CHECK: fuser.permute %{{.*}} [3, 0, 1, 2] : tensor<1x8x4096x128xbf16> -> tensor<128x1x8x4096xbf16>
func.func @permute(%a: tensor<1x8x4096x128xbf16>)
    -> (tensor<1x4096x8x128xbf16>, tensor<128x1x8x4096xbf16>) {
  %0 = fuser.permute %a [0, 2, 1, 3] : tensor<1x8x4096x128xbf16> -> tensor<1x4096x8x128xbf16>
  %1 = fuser.permute %a [3, 0, 1, 2] : tensor<1x8x4096x128xbf16> -> tensor<128x1x8x4096xbf16>
  return %0, %1 : tensor<1x4096x8x128xbf16>, tensor<128x1x8x4096xbf16>
}

// Strided and empty slices: the size is ceil((limit - start) / stride).
// CHECK-LABEL: func.func @slice
// CHECK: fuser.slice %{{.*}} starts [0, 64] limits [8, 128] strides [1, 1] : tensor<8x128xf32> -> tensor<8x64xf32>
// CHECK: fuser.slice %{{.*}} starts [1, 0] limits [8, 127] strides [2, 3] : tensor<8x128xf32> -> tensor<4x43xf32>
// CHECK: fuser.slice %{{.*}} starts [3, 5] limits [3, 5] strides [1, 1] : tensor<8x128xf32> -> tensor<0x0xf32>
func.func @slice(%a: tensor<8x128xf32>)
    -> (tensor<8x64xf32>, tensor<4x43xf32>, tensor<0x0xf32>) {
  %0 = fuser.slice %a starts [0, 64] limits [8, 128] strides [1, 1] : tensor<8x128xf32> -> tensor<8x64xf32>
  %1 = fuser.slice %a starts [1, 0] limits [8, 127] strides [2, 3] : tensor<8x128xf32> -> tensor<4x43xf32>
  %2 = fuser.slice %a starts [3, 5] limits [3, 5] strides [1, 1] : tensor<8x128xf32> -> tensor<0x0xf32>
  return %0, %1, %2 : tensor<8x64xf32>, tensor<4x43xf32>, tensor<0x0xf32>
}

// Pad takes a scalar from an arith.constant or a function argument.
// CHECK-LABEL: func.func @pad
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x8xf32>, %[[V:[^:]*]]: f32
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: fuser.pad %[[A]] low [0, 1] high [0, 2] value %[[Z]] : tensor<4x8xf32>, f32 -> tensor<4x11xf32>
// CHECK: fuser.pad %[[A]] low [2, 0] high [1, 0] value %[[V]] : tensor<4x8xf32>, f32 -> tensor<7x8xf32>
func.func @pad(%a: tensor<4x8xf32>, %v: f32) -> (tensor<4x11xf32>, tensor<7x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %0 = fuser.pad %a low [0, 1] high [0, 2] value %zero : tensor<4x8xf32>, f32 -> tensor<4x11xf32>
  %1 = fuser.pad %a low [2, 0] high [1, 0] value %v : tensor<4x8xf32>, f32 -> tensor<7x8xf32>
  return %0, %1 : tensor<4x11xf32>, tensor<7x8xf32>
}

// CHECK-LABEL: func.func @cat
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x8xf32>, %[[B:[^:]*]]: tensor<4x2xf32>, %[[C:[^:]*]]: tensor<1x8xf32>
// CHECK: fuser.cat %[[A]], %[[B]] dim 1 : tensor<4x8xf32>, tensor<4x2xf32> -> tensor<4x10xf32>
// CHECK: fuser.cat %[[A]], %[[C]], %[[A]] dim 0 : tensor<4x8xf32>, tensor<1x8xf32>, tensor<4x8xf32> -> tensor<9x8xf32>
// CHECK: fuser.cat %[[A]] dim 0 : tensor<4x8xf32> -> tensor<4x8xf32>
func.func @cat(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>, %c: tensor<1x8xf32>)
    -> (tensor<4x10xf32>, tensor<9x8xf32>, tensor<4x8xf32>) {
  %0 = fuser.cat %a, %b dim 1 : tensor<4x8xf32>, tensor<4x2xf32> -> tensor<4x10xf32>
  %1 = fuser.cat %a, %c, %a dim 0 : tensor<4x8xf32>, tensor<1x8xf32>, tensor<4x8xf32> -> tensor<9x8xf32>
  %2 = fuser.cat %a dim 0 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0, %1, %2 : tensor<4x10xf32>, tensor<9x8xf32>, tensor<4x8xf32>
}
