// Sizes and element counts that overflow int64 are diagnosed. Found with
// test/Fuzz/crashes/*-overflow.mlir: pad and cat sizes were signed-overflow UB
// (the sanitizer build aborted), and view compared wrapped element counts.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @pad(%arg0: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  // expected-error @+2 {{'fuser.pad' op dim 0: padded size overflows int64}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.pad %arg0 low [9223372036854775807] high [0] value %v : tensor<4xf32>, f32 -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cat(%arg0: tensor<9223372036854775807xf32>, %arg1: tensor<1xf32>) -> tensor<1xf32> {
  // expected-error @+2 {{'fuser.cat' op concatenated size overflows int64}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = fuser.cat %arg0, %arg1 dim 0 : tensor<9223372036854775807xf32>, tensor<1xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

// The element count of the source wraps around to 0 in int64.
func.func @view(%arg0: tensor<4294967296x4294967296xf32>) -> tensor<0xf32> {
  // expected-error @+1 {{'fuser.view' op element count of 'tensor<4294967296x4294967296xf32>' overflows int64}}
  %0 = fuser.view %arg0 : tensor<4294967296x4294967296xf32> -> tensor<0xf32>
  return %0 : tensor<0xf32>
}
