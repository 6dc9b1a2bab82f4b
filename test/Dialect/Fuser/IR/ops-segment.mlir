// Round trip of fuser.segment (every kind) and fuser.yield.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s | fuser-opt | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @reduction_segment
// CHECK-SAME: (%[[X:.*]]: tensor<8x4xf32>)
// CHECK-NEXT: %[[R:.*]] = fuser.segment reduction(%[[X]]) : (tensor<8x4xf32>) -> tensor<8xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<8x4xf32>):
// CHECK-NEXT:   %[[S:.*]] = fuser.reduction add %[[A]] [1] : tensor<8x4xf32> -> tensor<8xf32>
// CHECK-NEXT:   fuser.yield %[[S]] : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]] : tensor<8xf32>
func.func @reduction_segment(%x: tensor<8x4xf32>) -> tensor<8xf32> {
  %r = fuser.segment reduction (%x) : (tensor<8x4xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8x4xf32>):
    %s = fuser.reduction add %a [1] : tensor<8x4xf32> -> tensor<8xf32>
    fuser.yield %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// Several inputs and results; a scalar constant inside the body.
// CHECK-LABEL: func.func @pointwise_segment
// CHECK-SAME: (%[[X:[^:]*]]: tensor<4x8xbf16>, %[[Y:[^:]*]]: tensor<1x8xbf16>)
// CHECK-NEXT: %[[R:.*]]:2 = fuser.segment pointwise(%[[X]], %[[Y]]) : (tensor<4x8xbf16>, tensor<1x8xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xi1>) {
// CHECK-NEXT: ^bb0(%[[A:[^:]*]]: tensor<4x8xbf16>, %[[B:[^:]*]]: tensor<1x8xbf16>):
// CHECK-NEXT:   %[[C:.*]] = arith.constant 5.000000e-01 : bf16
// CHECK-NEXT:   %[[M:.*]] = fuser.mul %[[A]], %[[B]] : tensor<4x8xbf16>, tensor<1x8xbf16> -> tensor<4x8xbf16>
// CHECK-NEXT:   %[[G:.*]] = fuser.gt %[[M]], %[[C]] : tensor<4x8xbf16>, bf16 -> tensor<4x8xi1>
// CHECK-NEXT:   fuser.yield %[[M]], %[[G]] : tensor<4x8xbf16>, tensor<4x8xi1>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1
func.func @pointwise_segment(%x: tensor<4x8xbf16>, %y: tensor<1x8xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xi1>) {
  %r:2 = fuser.segment pointwise (%x, %y) : (tensor<4x8xbf16>, tensor<1x8xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xi1>) {
  ^bb0(%a: tensor<4x8xbf16>, %b: tensor<1x8xbf16>):
    %half = arith.constant 0.5 : bf16
    %m = fuser.mul %a, %b : tensor<4x8xbf16>, tensor<1x8xbf16> -> tensor<4x8xbf16>
    %g = fuser.gt %m, %half : tensor<4x8xbf16>, bf16 -> tensor<4x8xi1>
    fuser.yield %m, %g : tensor<4x8xbf16>, tensor<4x8xi1>
  }
  return %r#0, %r#1 : tensor<4x8xbf16>, tensor<4x8xi1>
}

// An alias segment (a view, no kernel); chained segments.
// CHECK-LABEL: func.func @alias_segment
// CHECK-NEXT: %[[V:.*]] = fuser.segment alias(%{{.*}}) : (tensor<2x6xf32>) -> tensor<12xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<2x6xf32>):
// CHECK-NEXT:   %[[W:.*]] = fuser.view %[[A]] : tensor<2x6xf32> -> tensor<12xf32>
// CHECK-NEXT:   fuser.yield %[[W]] : tensor<12xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[E:.*]] = fuser.segment pointwise(%[[V]]) : (tensor<12xf32>) -> tensor<12xf32> {
// CHECK:        fuser.exp
// CHECK:      return %[[E]]
func.func @alias_segment(%x: tensor<2x6xf32>) -> tensor<12xf32> {
  %v = fuser.segment alias (%x) : (tensor<2x6xf32>) -> tensor<12xf32> {
  ^bb0(%a: tensor<2x6xf32>):
    %w = fuser.view %a : tensor<2x6xf32> -> tensor<12xf32>
    fuser.yield %w : tensor<12xf32>
  }
  %e = fuser.segment pointwise (%v) : (tensor<12xf32>) -> tensor<12xf32> {
  ^bb0(%a: tensor<12xf32>):
    %b = fuser.exp %a : tensor<12xf32>
    fuser.yield %b : tensor<12xf32>
  }
  return %e : tensor<12xf32>
}

// A segment with no inputs (it only fills) and one with no results.
// CHECK-LABEL: func.func @degenerate_segments
// CHECK-NEXT: %[[F:.*]] = fuser.segment pointwise() : () -> tensor<4xi32> {
// CHECK-NEXT:   %[[C:.*]] = arith.constant 3 : i32
// CHECK-NEXT:   %[[T:.*]] = fuser.full %[[C]] : i32 -> tensor<4xi32>
// CHECK-NEXT:   fuser.yield %[[T]] : tensor<4xi32>
// CHECK-NEXT: }
// CHECK-NEXT: fuser.segment pointwise(%[[F]]) : (tensor<4xi32>) -> () {
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<4xi32>):
// CHECK-NEXT:   fuser.yield{{$}}
// CHECK-NEXT: }
func.func @degenerate_segments() -> tensor<4xi32> {
  %f = fuser.segment pointwise () : () -> tensor<4xi32> {
    %c = arith.constant 3 : i32
    %t = fuser.full %c : i32 -> tensor<4xi32>
    fuser.yield %t : tensor<4xi32>
  }
  fuser.segment pointwise (%f) : (tensor<4xi32>) -> () {
  ^bb0(%a: tensor<4xi32>):
    fuser.yield
  }
  return %f : tensor<4xi32>
}
