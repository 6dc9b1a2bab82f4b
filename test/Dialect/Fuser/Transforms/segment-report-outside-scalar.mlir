// RUN: fuser-opt --fuser-segment-report %s -o /dev/null | FileCheck %s
// RUN: fuser-opt --fuser-segment-graph %s -o /dev/null | FileCheck %s --check-prefix=DOT
//
// Regression: a scalar computed outside all segments (fuser-segment clones
// constants into the segments, hand-written segmentations need not) was
// named `?` in the report and drawn as a node named `seg` in the graph.
// Such values are `%sN`, numbered in program order, and the report says
// what computes them.

// CHECK:      fusion @outside_scalars: 1 kernel, 1 segment, reads 16 bytes, writes 16 bytes
// CHECK-NEXT:   %s0 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:   %s1 = arith.addf %s0, %arg1 : f32
// CHECK-NEXT:   segment #0 pointwise: reads 16 bytes, writes 16 bytes
// CHECK-NEXT:     in  %arg0: tensor<4xf32>, 16 bytes
// CHECK-NEXT:     in  %s0: f32, 0 bytes
// CHECK-NEXT:     in  %s1: f32, 0 bytes
// CHECK-NEXT:     out #0.0: tensor<4xf32>, 16 bytes -> return 0
// CHECK-NOT:  ?

// DOT-LABEL: digraph "outside_scalars" {
// DOT-NEXT:   node [fontname="monospace"];
// DOT-NEXT:   arg0 [shape=ellipse, label="%arg0\ntensor<4xf32>"];
// DOT-NEXT:   arg1 [shape=ellipse, label="%arg1\nf32"];
// DOT-NEXT:   s0 [shape=ellipse, label="%s0\narith.constant 2.000000e+00 : f32"];
// DOT-NEXT:   s1 [shape=ellipse, label="%s1\narith.addf %s0, %arg1 : f32"];
// DOT-NEXT:   seg0 [shape=box, label="#0 pointwise\nreads 16 B, writes 16 B"];
// DOT-NEXT:   result0 [shape=ellipse, label="return 0\ntensor<4xf32>"];
// DOT-NEXT:   s0 -> s1 [label="%s0"];
// DOT-NEXT:   arg1 -> s1 [label="%arg1"];
// DOT-NEXT:   arg0 -> seg0 [label="%arg0"];
// DOT-NEXT:   s0 -> seg0 [label="%s0"];
// DOT-NEXT:   s1 -> seg0 [label="%s1"];
// DOT-NEXT:   seg0 -> result0 [label="#0.0"];
// DOT-NEXT: }
func.func @outside_scalars(%x: tensor<4xf32>, %y: f32) -> tensor<4xf32> {
  %c = arith.constant 2.0 : f32
  %s = arith.addf %c, %y : f32
  %0 = fuser.segment pointwise(%x, %c, %s) : (tensor<4xf32>, f32, f32) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: f32, %d: f32):
    %1 = fuser.add %a, %b : tensor<4xf32>, f32 -> tensor<4xf32>
    %2 = fuser.mul %1, %d : tensor<4xf32>, f32 -> tensor<4xf32>
    fuser.yield %2 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// An alias segment may read a constant too; its views are unaffected.
// CHECK:      fusion @alias_and_constant: 1 kernel, 2 segments, reads 32 bytes, writes 32 bytes
// CHECK-NEXT:   %s0 = arith.constant 1 : i32
// CHECK-NEXT:   segment #0 pointwise: reads 32 bytes, writes 32 bytes
// CHECK-NEXT:     in  %arg0: tensor<2x4xi32>, 32 bytes
// CHECK-NEXT:     in  %s0: i32, 0 bytes
// CHECK-NEXT:     out #0.0: tensor<2x4xi32>, 32 bytes -> #1
// CHECK-NEXT:   segment #1 alias (no kernel): reads 0 bytes, writes 0 bytes
// CHECK-NEXT:     in  #0.0: tensor<2x4xi32>
// CHECK-NEXT:     out #1.0: tensor<4x2xi32>, view of in 0: sizes [4, 2], strides [1, 4], offset 0 -> return 0

// DOT-LABEL: digraph "alias_and_constant" {
// DOT:        s0 [shape=ellipse, label="%s0\narith.constant 1 : i32"];
// DOT:        s0 -> seg0 [label="%s0"];
// DOT-NOT:    seg ->
func.func @alias_and_constant(%x: tensor<2x4xi32>) -> tensor<4x2xi32> {
  %c = arith.constant 1 : i32
  %0 = fuser.segment pointwise(%x, %c) : (tensor<2x4xi32>, i32) -> tensor<2x4xi32> {
  ^bb0(%a: tensor<2x4xi32>, %b: i32):
    %1 = fuser.add %a, %b : tensor<2x4xi32>, i32 -> tensor<2x4xi32>
    fuser.yield %1 : tensor<2x4xi32>
  }
  %2 = fuser.segment alias(%0) : (tensor<2x4xi32>) -> tensor<4x2xi32> {
  ^bb0(%a: tensor<2x4xi32>):
    %3 = fuser.permute %a [1, 0] : tensor<2x4xi32> -> tensor<4x2xi32>
    fuser.yield %3 : tensor<4x2xi32>
  }
  return %2 : tensor<4x2xi32>
}
