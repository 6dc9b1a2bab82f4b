// The identity folders: each rule is written above its case, and beside it a
// bail-out case that must not fold.
// RUN: fuser-opt %s -canonicalize | FileCheck %s
// RUN: fuser-opt %s -canonicalize | fuser-opt -canonicalize | FileCheck %s

// view(x : T -> T) -> x
// CHECK-LABEL: func.func @view_same_shape
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NOT: fuser.view
// CHECK: return %[[X]] : tensor<4x8xf32>
func.func @view_same_shape(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fuser.view %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Bail-out: a view to a different shape stays.
// CHECK-LABEL: func.func @view_real
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[V:.*]] = fuser.view %[[X]] : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK-NEXT: return %[[V]] : tensor<8x4xf32>
func.func @view_real(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = fuser.view %x : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// permute(x, [0, 1, ..., n-1]) -> x
// CHECK-LABEL: func.func @permute_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xbf16>)
// CHECK-NOT: fuser.permute
// CHECK: return %[[X]] : tensor<2x3x4xbf16>
func.func @permute_identity(%x: tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16> {
  %0 = fuser.permute %x [0, 1, 2] : tensor<2x3x4xbf16> -> tensor<2x3x4xbf16>
  return %0 : tensor<2x3x4xbf16>
}

// Bail-out: a non-identity permutation stays, even one that keeps the type.
// CHECK-LABEL: func.func @permute_real
// CHECK-SAME: (%[[X:.*]]: tensor<4x4xbf16>)
// CHECK-NEXT: %[[P:.*]] = fuser.permute %[[X]] [1, 0] : tensor<4x4xbf16> -> tensor<4x4xbf16>
// CHECK-NEXT: return %[[P]] : tensor<4x4xbf16>
func.func @permute_real(%x: tensor<4x4xbf16>) -> tensor<4x4xbf16> {
  %0 = fuser.permute %x [1, 0] : tensor<4x4xbf16> -> tensor<4x4xbf16>
  return %0 : tensor<4x4xbf16>
}

// cast(x : T to T) -> x, for tensors and scalars
// CHECK-LABEL: func.func @cast_same_type
// CHECK-SAME: (%[[X:[^:]*]]: tensor<4xbf16>, %[[S:[^:]*]]: f32)
// CHECK-NOT: fuser.cast
// CHECK: return %[[X]], %[[S]] : tensor<4xbf16>, f32
func.func @cast_same_type(%x: tensor<4xbf16>, %s: f32) -> (tensor<4xbf16>, f32) {
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xbf16>
  %1 = fuser.cast %s : f32 to f32
  return %0, %1 : tensor<4xbf16>, f32
}

// Bail-out: a cast that changes the element type stays.
// CHECK-LABEL: func.func @cast_real
// CHECK-SAME: (%[[X:[^:]*]]: tensor<4xbf16>, %[[S:[^:]*]]: f32)
// CHECK-NEXT: %[[C:.*]] = fuser.cast %[[X]] : tensor<4xbf16> to tensor<4xf32>
// CHECK-NEXT: %[[D:.*]] = fuser.cast %[[S]] : f32 to f64
// CHECK-NEXT: return %[[C]], %[[D]] : tensor<4xf32>, f64
func.func @cast_real(%x: tensor<4xbf16>, %s: f32) -> (tensor<4xf32>, f64) {
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = fuser.cast %s : f32 to f64
  return %0, %1 : tensor<4xf32>, f64
}

// squeeze(x, []) -> x
// CHECK-LABEL: func.func @squeeze_no_dims
// CHECK-SAME: (%[[X:.*]]: tensor<1x4xf32>)
// CHECK-NOT: fuser.squeeze
// CHECK: return %[[X]] : tensor<1x4xf32>
func.func @squeeze_no_dims(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = fuser.squeeze %x [] : tensor<1x4xf32> -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// Bail-out: a squeeze of a size-1 dim stays.
// CHECK-LABEL: func.func @squeeze_real
// CHECK-SAME: (%[[X:.*]]: tensor<1x4xf32>)
// CHECK-NEXT: %[[S:.*]] = fuser.squeeze %[[X]] [0] : tensor<1x4xf32> -> tensor<4xf32>
// CHECK-NEXT: return %[[S]] : tensor<4xf32>
func.func @squeeze_real(%x: tensor<1x4xf32>) -> tensor<4xf32> {
  %0 = fuser.squeeze %x [0] : tensor<1x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// broadcast(x, []) -> x
// CHECK-LABEL: func.func @broadcast_no_dims
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
// CHECK-NOT: fuser.broadcast
// CHECK: return %[[X]] : tensor<4xi32>
func.func @broadcast_no_dims(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuser.broadcast %x [] : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Bail-out: a broadcast that inserts a dim stays.
// CHECK-LABEL: func.func @broadcast_real
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
// CHECK-NEXT: %[[B:.*]] = fuser.broadcast %[[X]] [1] : tensor<4xi32> -> tensor<4x1xi32>
// CHECK-NEXT: return %[[B]] : tensor<4x1xi32>
func.func @broadcast_real(%x: tensor<4xi32>) -> tensor<4x1xi32> {
  %0 = fuser.broadcast %x [1] : tensor<4xi32> -> tensor<4x1xi32>
  return %0 : tensor<4x1xi32>
}

// expand(x : T -> T) -> x (size-1 dims that stay size 1 expand nothing)
// CHECK-LABEL: func.func @expand_same_shape
// CHECK-SAME: (%[[X:.*]]: tensor<1x8xf16>)
// CHECK-NOT: fuser.expand
// CHECK: return %[[X]] : tensor<1x8xf16>
func.func @expand_same_shape(%x: tensor<1x8xf16>) -> tensor<1x8xf16> {
  %0 = fuser.expand %x : tensor<1x8xf16> -> tensor<1x8xf16>
  return %0 : tensor<1x8xf16>
}

// Bail-out: an expand of a size-1 dim to size 3 stays.
// CHECK-LABEL: func.func @expand_real
// CHECK-SAME: (%[[X:.*]]: tensor<1x8xf16>)
// CHECK-NEXT: %[[E:.*]] = fuser.expand %[[X]] : tensor<1x8xf16> -> tensor<3x8xf16>
// CHECK-NEXT: return %[[E]] : tensor<3x8xf16>
func.func @expand_real(%x: tensor<1x8xf16>) -> tensor<3x8xf16> {
  %0 = fuser.expand %x : tensor<1x8xf16> -> tensor<3x8xf16>
  return %0 : tensor<3x8xf16>
}

// The identities fold inside a chain too, and leave the real ops around
// them alone: view -> identity permute -> same-type cast -> real permute.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[P:.*]] = fuser.permute %[[X]] [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT: return %[[P]] : tensor<3x2xf32>
func.func @chain(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = fuser.view %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = fuser.permute %0 [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = fuser.cast %1 : tensor<2x3xf32> to tensor<2x3xf32>
  %3 = fuser.squeeze %2 [] : tensor<2x3xf32> -> tensor<2x3xf32>
  %4 = fuser.broadcast %3 [] : tensor<2x3xf32> -> tensor<2x3xf32>
  %5 = fuser.expand %4 : tensor<2x3xf32> -> tensor<2x3xf32>
  %6 = fuser.permute %5 [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %6 : tensor<3x2xf32>
}

// Folding also works inside a segment body.
// CHECK-LABEL: func.func @in_segment
// CHECK: ^bb0(%[[A:.*]]: tensor<4xf32>):
// CHECK-NEXT: fuser.yield %[[A]] : tensor<4xf32>
func.func @in_segment(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = fuser.segment pointwise (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %v = fuser.view %a : tensor<4xf32> -> tensor<4xf32>
    fuser.yield %v : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// slice(x) keeping every element (start 0, stride 1, full limit) -> x
// CHECK-LABEL: func.func @slice_everything
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NOT: fuser.slice
// CHECK: return %[[X]] : tensor<4x8xf32>
func.func @slice_everything(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fuser.slice %x starts [0, 0] limits [4, 8] strides [1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Bail-out: a slice that drops elements stays.
// CHECK-LABEL: func.func @slice_real
// CHECK: fuser.slice
func.func @slice_real(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %0 = fuser.slice %x starts [0, 4] limits [4, 8] strides [1, 1] : tensor<4x8xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// pad(x) by zero widths -> x; cat(x) of one input -> x
// CHECK-LABEL: func.func @pad_nothing_cat_one
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NOT: fuser.pad
// CHECK-NOT: fuser.cat
// CHECK: return %[[X]], %[[X]] : tensor<4x8xf32>, tensor<4x8xf32>
func.func @pad_nothing_cat_one(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %0 = fuser.pad %x low [0, 0] high [0, 0] value %zero : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
  %1 = fuser.cat %x dim 1 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// Bail-out: a real pad and a cat of two inputs stay.
// CHECK-LABEL: func.func @pad_cat_real
// CHECK: fuser.pad
// CHECK: fuser.cat
func.func @pad_cat_real(%x: tensor<4x8xf32>) -> (tensor<4x9xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %0 = fuser.pad %x low [0, 1] high [0, 0] value %zero : tensor<4x8xf32>, f32 -> tensor<4x9xf32>
  %1 = fuser.cat %x, %x dim 1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
  return %0, %1 : tensor<4x9xf32>, tensor<4x16xf32>
}
