// RUN: fuser-opt --fuser-segment=normalization=false --fuser-segment-report %s -o /dev/null | FileCheck %s
// The motivating case, from the example through preseg: one reduction kernel
// that reads the bf16 input once (32 MiB) and writes the result once (8 MiB).
// RUN: fuser-opt --fuser-preseg --fuser-segment=normalization=false --fuser-segment-report %fuser_src_root/examples/mistral_rope_bwd.mlir -o /dev/null | FileCheck %s --check-prefix=EXAMPLE
// The report can go to a file.
// RUN: fuser-opt --fuser-segment=normalization=false --fuser-segment-report=output=%t.txt %s -o /dev/null
// RUN: FileCheck %s < %t.txt
// A fusion that was not segmented is an error.
// RUN: not fuser-opt --fuser-segment-report %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNSEGMENTED

// EXAMPLE:      fusion @mistral_rope_bwd: 1 kernel, 1 segment, reads 33554432 bytes (32 MiB), writes 8388608 bytes (8 MiB)
// EXAMPLE-NEXT:   segment #0 reduction: reads 33554432 bytes (32 MiB), writes 8388608 bytes (8 MiB)
// EXAMPLE-NEXT:     in  %arg0: tensor<1x32x4096x128xbf16>, 33554432 bytes (32 MiB)
// EXAMPLE-NEXT:     out #0.0: tensor<1x4096x1024xbf16>, 8388608 bytes (8 MiB) -> return 0
// EXAMPLE-NOT: segment #1

// UNSEGMENTED: error: 'fuser.view' op computes outside a fuser.segment: @mistral is not segmented (run fuser-segment)

// CHECK:      fusion @mistral: 1 kernel, 1 segment, reads 33554432 bytes (32 MiB), writes 8388608 bytes (8 MiB)
// CHECK-NEXT:   segment #0 reduction: reads 33554432 bytes (32 MiB), writes 8388608 bytes (8 MiB)
// CHECK-NEXT:     in  %arg0: tensor<1x32x4096x128xbf16>, 33554432 bytes (32 MiB)
// CHECK-NEXT:     out #0.0: tensor<1x4096x1024xbf16>, 8388608 bytes (8 MiB) -> return 0
func.func @mistral(%arg0: tensor<1x32x4096x128xbf16>) -> tensor<1x4096x1024xbf16> {
  %0 = fuser.view %arg0 : tensor<1x32x4096x128xbf16> -> tensor<8x4x4096x128xbf16>
  %1 = fuser.cast %0 : tensor<8x4x4096x128xbf16> to tensor<8x4x4096x128xf32>
  %2 = fuser.reduction add %1 [1] : tensor<8x4x4096x128xf32> -> tensor<8x4096x128xf32>
  %3 = fuser.cast %2 : tensor<8x4096x128xf32> to tensor<8x4096x128xbf16>
  %4 = fuser.permute %3 [1, 0, 2] : tensor<8x4096x128xbf16> -> tensor<4096x8x128xbf16>
  %5 = fuser.view %4 : tensor<4096x8x128xbf16> -> tensor<1x4096x1024xbf16>
  return %5 : tensor<1x4096x1024xbf16>
}

// One kernel plus an alias that launches nothing and moves no bytes.
// CHECK:      fusion @add_twice: 1 kernel, 2 segments, reads 128 bytes, writes 128 bytes
// CHECK-NEXT:   segment #0 pointwise: reads 128 bytes, writes 128 bytes
// CHECK-NEXT:     in  %arg0: tensor<4x8xf32>, 128 bytes
// CHECK-NEXT:     out #0.0: tensor<4x8xf32>, 128 bytes -> #1, return 0
// CHECK-NEXT:   segment #1 alias (no kernel): reads 0 bytes, writes 0 bytes
// CHECK-NEXT:     in  #0.0: tensor<4x8xf32>
// CHECK-NEXT:     out #1.0: tensor<8x4xf32>, view of in 0: sizes [8, 4], strides [1, 8], offset 0 -> return 1
func.func @add_twice(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %0 = fuser.add %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = fuser.permute %0 [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<8x4xf32>
}

// No kernel at all; each result is a strided view of the input.
// CHECK:      fusion @views_only: 0 kernels, 1 segment, reads 0 bytes, writes 0 bytes
// CHECK-NEXT:   segment #0 alias (no kernel): reads 0 bytes, writes 0 bytes
// CHECK-NEXT:     in  %arg0: tensor<2x3x1xf32>
// CHECK-NEXT:     out #0.0: tensor<3x2xf32>, view of in 0: sizes [3, 2], strides [1, 3], offset 0 -> return 0
// CHECK-NEXT:     out #0.1: tensor<1x2x3x1xf32>, view of in 0: sizes [1, 2, 3, 1], strides [0, 3, 1, 1], offset 0 -> return 1
// CHECK-NEXT:     out #0.2: tensor<2x3x4xf32>, view of in 0: sizes [2, 3, 4], strides [3, 1, 0], offset 0 -> return 2
// CHECK-NEXT:     out #0.3: tensor<2x2xf32>, view of in 0: sizes [2, 2], strides [3, 0], offset 1 -> return 3
func.func @views_only(%x: tensor<2x3x1xf32>) -> (tensor<3x2xf32>, tensor<1x2x3x1xf32>, tensor<2x3x4xf32>, tensor<2x2xf32>) {
  %0 = fuser.squeeze %x [2] : tensor<2x3x1xf32> -> tensor<2x3xf32>
  %1 = fuser.permute %0 [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %2 = fuser.broadcast %x [0] : tensor<2x3x1xf32> -> tensor<1x2x3x1xf32>
  %3 = fuser.expand %x : tensor<2x3x1xf32> -> tensor<2x3x4xf32>
  %4 = fuser.slice %0 starts [0, 1] limits [2, 3] strides [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>
  %5 = fuser.expand %4 : tensor<2x1xf32> -> tensor<2x2xf32>
  return %1, %2, %3, %5 : tensor<3x2xf32>, tensor<1x2x3x1xf32>, tensor<2x3x4xf32>, tensor<2x2xf32>
}

// Intermediate tensors count once as written and once per reading kernel;
// i1 takes a byte per element. The where/cast epilogue joins the first
// reduction; the second recomputes the cast from the f32 where result
// (rule 10): 32 bytes written and read instead of 64.
// CHECK:      fusion @two_kernels: 2 kernels, 2 segments, reads 1064 bytes, writes 40 bytes
// CHECK-NEXT:   segment #0 reduction: reads 1032 bytes, writes 32 bytes
// CHECK-NEXT:     in  %arg0: tensor<8x32xf32>, 1024 bytes (1 KiB)
// CHECK-NEXT:     in  %arg1: tensor<8xi1>, 8 bytes
// CHECK-NEXT:     out #0.0: tensor<8xf32>, 32 bytes -> #1
// CHECK-NEXT:     not one kernel with #1: not a normalization: its reductions differ in source shape or reduced dims
// CHECK-NEXT:   segment #1 reduction: reads 32 bytes, writes 8 bytes
// CHECK-NEXT:     in  #0.0: tensor<8xf32>, 32 bytes
// CHECK-NEXT:     out #1.0: tensor<f64>, 8 bytes -> return 0
func.func @two_kernels(%x: tensor<8x32xf32>, %mask: tensor<8xi1>) -> tensor<f64> {
  %0 = fuser.reduction add %x [1] : tensor<8x32xf32> -> tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %1 = fuser.where %mask, %0, %zero : tensor<8xi1>, tensor<8xf32>, f32 -> tensor<8xf32>
  %2 = fuser.cast %1 : tensor<8xf32> to tensor<8xf64>
  %3 = fuser.reduction add %2 [0] : tensor<8xf64> -> tensor<f64>
  return %3 : tensor<f64>
}

// A scalar argument travels as a kernel argument: no memory traffic.
// CHECK:      fusion @scalar_argument: 1 kernel, 1 segment, reads 128 bytes, writes 16 bytes
// CHECK-NEXT:   segment #0 reduction: reads 128 bytes, writes 16 bytes
// CHECK-NEXT:     in  %arg0: tensor<4x8xf32>, 128 bytes
// CHECK-NEXT:     in  %arg1: f32, 0 bytes
func.func @scalar_argument(%x: tensor<4x8xf32>, %s: f32) -> tensor<4xf32> {
  %0 = fuser.mul %x, %s : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
  %1 = fuser.reduction add %0 [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// A kernel that reads an input only through elementwise ops of its shape
// and then slices computes those ops at the sliced elements only, so it
// reads what the slices cover: 12 of the 216 f32 elements (fuser-run
// --memory-report gives the same minimum). Seeds 2011, 7478, 8848 of
// fuser-diff --check-preseg-monotone.
// CHECK-LABEL: fusion @elementwise_then_slice: 1 kernel, 1 segment, reads 48 bytes, writes 24 bytes
// CHECK-NEXT:  segment #0 pointwise: reads 48 bytes, writes 24 bytes
// CHECK-NEXT:    in  %arg0: tensor<3x6x12xf32>, 48 bytes
func.func @elementwise_then_slice(%x: tensor<3x6x12xf32>) -> tensor<1x1x12xf16> {
  %p = fuser.pow %x, %x : tensor<3x6x12xf32>, tensor<3x6x12xf32> -> tensor<3x6x12xf32>
  %s = fuser.slice %p starts [1, 0, 0] limits [3, 1, 12] strides [3, 1, 1] : tensor<3x6x12xf32> -> tensor<1x1x12xf32>
  %c = fuser.cast %s : tensor<1x1x12xf32> to tensor<1x1x12xf16>
  return %c : tensor<1x1x12xf16>
}

// Not where the elementwise result is also written whole: all of the input.
// CHECK-LABEL: fusion @elementwise_beside_slice: 1 kernel, 1 segment, reads 864 bytes, writes 888 bytes
func.func @elementwise_beside_slice(%x: tensor<3x6x12xf32>) -> (tensor<1x1x12xf16>, tensor<3x6x12xf32>) {
  %p = fuser.pow %x, %x : tensor<3x6x12xf32>, tensor<3x6x12xf32> -> tensor<3x6x12xf32>
  %s = fuser.slice %p starts [1, 0, 0] limits [3, 1, 12] strides [3, 1, 1] : tensor<3x6x12xf32> -> tensor<1x1x12xf32>
  %c = fuser.cast %s : tensor<1x1x12xf32> to tensor<1x1x12xf16>
  return %c, %p : tensor<1x1x12xf16>, tensor<3x6x12xf32>
}

// Why a kernel's reader is a kernel of its own, where a template refuses the
// two as one: here the template's segment_set rule.
// CHECK-LABEL: fusion @split_by_segment_set: 2 kernels, 2 segments
// CHECK:         out #0.0: tensor<8xf32>, 32 bytes -> #1
// CHECK-NEXT:    not one kernel with #1: it reads a segment_set it writes
func.func @split_by_segment_set(%x: tensor<8xf32>) -> tensor<8xf32> {
  %n = fuser.neg %x : tensor<8xf32>
  %s = fuser.segment_set %n : tensor<8xf32>
  %a = fuser.abs %s : tensor<8xf32>
  return %a : tensor<8xf32>
}

// Bail-out: normalization=false split what the normalization template takes
// (on the default target): no template refuses the two, no reason.
// CHECK-LABEL: fusion @split_by_option: 2 kernels, 2 segments
// CHECK-NOT: not one kernel
func.func @split_by_option(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = fuser.reduction add %x [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = fuser.sub %x, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
