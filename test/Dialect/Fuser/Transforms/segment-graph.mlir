// RUN: fuser-opt --fuser-segment=normalization=false --fuser-segment-graph %s -o /dev/null | FileCheck %s
// RUN: fuser-opt --fuser-segment=normalization=false --fuser-segment-graph=output=%t.dot %s -o /dev/null
// RUN: FileCheck %s < %t.dot

// Fusion inputs and results are ellipses, kernels boxes, aliases dashed
// boxes; edges carry the value's report name.
// CHECK-LABEL: digraph "add_twice" {
// CHECK-NEXT:   node [fontname="monospace"];
// CHECK-NEXT:   arg0 [shape=ellipse, label="%arg0\ntensor<4x8xf32>"];
// CHECK-NEXT:   seg0 [shape=box, label="#0 pointwise\nreads 128 B, writes 128 B"];
// CHECK-NEXT:   seg1 [shape=box, style=dashed, label="#1 alias\nno kernel"];
// CHECK-NEXT:   result0 [shape=ellipse, label="return 0\ntensor<4x8xf32>"];
// CHECK-NEXT:   result1 [shape=ellipse, label="return 1\ntensor<8x4xf32>"];
// CHECK-NEXT:   arg0 -> seg0 [label="%arg0"];
// CHECK-NEXT:   seg0 -> seg1 [label="#0.0"];
// CHECK-NEXT:   seg0 -> result0 [label="#0.0"];
// CHECK-NEXT:   seg1 -> result1 [label="#1.0"];
// CHECK-NEXT: }
func.func @add_twice(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %0 = fuser.add %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = fuser.permute %0 [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<8x4xf32>
}

// CHECK-LABEL: digraph "mistral" {
// CHECK-NEXT:   node [fontname="monospace"];
// CHECK-NEXT:   arg0 [shape=ellipse, label="%arg0\ntensor<1x32x4096x128xbf16>"];
// CHECK-NEXT:   seg0 [shape=box, label="#0 reduction\nreads 32 MiB, writes 8 MiB"];
// CHECK-NEXT:   result0 [shape=ellipse, label="return 0\ntensor<1x4096x1024xbf16>"];
// CHECK-NEXT:   arg0 -> seg0 [label="%arg0"];
// CHECK-NEXT:   seg0 -> result0 [label="#0.0"];
// CHECK-NEXT: }
func.func @mistral(%arg0: tensor<1x32x4096x128xbf16>) -> tensor<1x4096x1024xbf16> {
  %0 = fuser.view %arg0 : tensor<1x32x4096x128xbf16> -> tensor<8x4x4096x128xbf16>
  %1 = fuser.cast %0 : tensor<8x4x4096x128xbf16> to tensor<8x4x4096x128xf32>
  %2 = fuser.reduction add %1 [1] : tensor<8x4x4096x128xf32> -> tensor<8x4096x128xf32>
  %3 = fuser.cast %2 : tensor<8x4096x128xf32> to tensor<8x4096x128xbf16>
  %4 = fuser.permute %3 [1, 0, 2] : tensor<8x4096x128xbf16> -> tensor<4096x8x128xbf16>
  %5 = fuser.view %4 : tensor<4096x8x128xbf16> -> tensor<1x4096x1024xbf16>
  return %5 : tensor<1x4096x1024xbf16>
}

// A returned input is an edge from the input straight to the result.
// CHECK-LABEL: digraph "passthrough" {
// CHECK:        arg0 -> result0 [label="%arg0"];
func.func @passthrough(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
