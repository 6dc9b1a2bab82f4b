// RUN: fuser-opt %s --fuser-preseg -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize="top-down=false" -split-input-file | FileCheck %s
// RUN: fuser-opt %s --fuser-preseg=fold-lossy-cast-chains=true -split-input-file | FileCheck %s --check-prefix=LOSSY

// Rule 1: cast(cast(x : A -> B) : B -> C) -> cast(x : A -> C), or x when
// C == A, exactly when every value of A is exact in B.
// bf16 -> f32 -> bf16 is x: bf16 is exact in f32.
// CHECK-LABEL: func.func @up_down(
// CHECK-SAME:    %[[X:.*]]: tensor<4xbf16>)
// CHECK-NEXT:    return %[[X]]
func.func @up_down(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xbf16>
  return %1 : tensor<4xbf16>
}

// -----

// bf16 -> f32 -> f16 is bf16 -> f16.
// CHECK-LABEL: func.func @through_wider(
// CHECK-NEXT:    %[[C:.*]] = fuser.cast %{{.*}} : tensor<4xbf16> to tensor<4xf16>
// CHECK-NEXT:    return %[[C]]
func.func @through_wider(%x: tensor<4xbf16>) -> tensor<4xf16> {
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// i32 -> i64 -> i32 is x.
// CHECK-LABEL: func.func @int_widen_narrow(
// CHECK-SAME:    %[[X:.*]]: tensor<4xi32>)
// CHECK-NEXT:    return %[[X]]
func.func @int_widen_narrow(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuser.cast %x : tensor<4xi32> to tensor<4xi64>
  %1 = fuser.cast %0 : tensor<4xi64> to tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// i1 -> f32 -> i1 is x, and i1 -> i32 -> f16 is i1 -> f16.
// CHECK-LABEL: func.func @bool_chains(
// CHECK-SAME:    %[[X:.*]]: tensor<4xi1>)
// CHECK-NEXT:    %[[C:.*]] = fuser.cast %[[X]] : tensor<4xi1> to tensor<4xf16>
// CHECK-NEXT:    return %[[X]], %[[C]]
func.func @bool_chains(%x: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xf16>) {
  %0 = fuser.cast %x : tensor<4xi1> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xi1>
  %2 = fuser.cast %x : tensor<4xi1> to tensor<4xi32>
  %3 = fuser.cast %2 : tensor<4xi32> to tensor<4xf16>
  return %1, %3 : tensor<4xi1>, tensor<4xf16>
}

// -----

// bf16 -> f32 -> f64 -> f32 -> bf16 folds all the way to x.
// CHECK-LABEL: func.func @long_chain(
// CHECK-SAME:    %[[X:.*]]: tensor<4xbf16>)
// CHECK-NEXT:    return %[[X]]
func.func @long_chain(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf64>
  %2 = fuser.cast %1 : tensor<4xf64> to tensor<4xf32>
  %3 = fuser.cast %2 : tensor<4xf32> to tensor<4xbf16>
  return %3 : tensor<4xbf16>
}

// -----

// f32 -> bf16 -> f64 -> f32: only the exact tail folds, to f32 -> bf16 -> f32.
// CHECK-LABEL: func.func @partial_chain(
// CHECK-NEXT:    %[[N:.*]] = fuser.cast %{{.*}} : tensor<4xf32> to tensor<4xbf16>
// CHECK-NEXT:    %[[W:.*]] = fuser.cast %[[N]] : tensor<4xbf16> to tensor<4xf32>
// CHECK-NEXT:    return %[[W]]
func.func @partial_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.cast %x : tensor<4xf32> to tensor<4xbf16>
  %1 = fuser.cast %0 : tensor<4xbf16> to tensor<4xf64>
  %2 = fuser.cast %1 : tensor<4xf64> to tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Scalars fold like tensors.
// CHECK-LABEL: func.func @scalar(
// CHECK-SAME:    %[[X:.*]]: bf16)
// CHECK-NEXT:    %[[F:.*]] = fuser.full %[[X]] : bf16 -> tensor<4xbf16>
// CHECK-NEXT:    return %[[F]]
func.func @scalar(%x: bf16) -> tensor<4xbf16> {
  %0 = fuser.cast %x : bf16 to f32
  %1 = fuser.cast %0 : f32 to bf16
  %2 = fuser.full %1 : bf16 -> tensor<4xbf16>
  return %2 : tensor<4xbf16>
}

// -----

// The inner cast keeps its other use; the chain still folds, adding no cast.
// CHECK-LABEL: func.func @inner_multi_use(
// CHECK-SAME:    %[[X:.*]]: tensor<4xbf16>)
// CHECK-NEXT:    %[[W:.*]] = fuser.cast %[[X]] : tensor<4xbf16> to tensor<4xf32>
// CHECK-NEXT:    %[[H:.*]] = fuser.cast %[[X]] : tensor<4xbf16> to tensor<4xf16>
// CHECK-NEXT:    return %[[W]], %[[H]]
func.func @inner_multi_use(%x: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xf16>) {
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf16>
  return %0, %1 : tensor<4xf32>, tensor<4xf16>
}

// -----

// Lossy chains stay: f32 -> bf16 -> f32 rounds.
// CHECK-LABEL: func.func @lossy_narrow_widen(
// CHECK-NEXT:    %[[N:.*]] = fuser.cast %{{.*}} : tensor<4xf32> to tensor<4xbf16>
// CHECK-NEXT:    %[[W:.*]] = fuser.cast %[[N]] : tensor<4xbf16> to tensor<4xf32>
// CHECK-NEXT:    return %[[W]]
// LOSSY-LABEL: func.func @lossy_narrow_widen(
// LOSSY-COUNT-2: fuser.cast
func.func @lossy_narrow_widen(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.cast %x : tensor<4xf32> to tensor<4xbf16>
  %1 = fuser.cast %0 : tensor<4xbf16> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// f16 <-> bf16 stays both ways: neither holds the other.
// CHECK-LABEL: func.func @half_bfloat(
// CHECK-COUNT-4: fuser.cast
// CHECK-NEXT:    return
func.func @half_bfloat(%x: tensor<4xf16>, %y: tensor<4xbf16>) -> (tensor<4xf16>, tensor<4xbf16>) {
  %0 = fuser.cast %x : tensor<4xf16> to tensor<4xbf16>
  %1 = fuser.cast %0 : tensor<4xbf16> to tensor<4xf16>
  %2 = fuser.cast %y : tensor<4xbf16> to tensor<4xf16>
  %3 = fuser.cast %2 : tensor<4xf16> to tensor<4xbf16>
  return %1, %3 : tensor<4xf16>, tensor<4xbf16>
}

// -----

// f64 -> f32 -> f16 stays: double rounding can differ from one rounding.
// CHECK-LABEL: func.func @double_rounding(
// CHECK-NEXT:    fuser.cast %{{.*}} : tensor<4xf64> to tensor<4xf32>
// CHECK-NEXT:    fuser.cast %{{.*}} : tensor<4xf32> to tensor<4xf16>
// nvFuser's rule folds it to f64 -> f16 (f16 is the narrowest type and the
// output): one rounding instead of two (preseg-cast-lossy.mlir).
// LOSSY-LABEL: func.func @double_rounding(
// LOSSY-NEXT:    %[[C:.*]] = fuser.cast %{{.*}} : tensor<4xf64> to tensor<4xf16>
// LOSSY-NEXT:    return %[[C]]
func.func @double_rounding(%x: tensor<4xf64>) -> tensor<4xf16> {
  %0 = fuser.cast %x : tensor<4xf64> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// float -> int -> float stays (truncation); i64 -> f64 -> i64 stays (i64 is
// not exact in f64).
// CHECK-LABEL: func.func @int_float(
// CHECK-COUNT-4: fuser.cast
// CHECK-NEXT:    return
// nvFuser's rule keeps both too: f32/i32 and i64/f64 are incompatible
// (neither includes the other), so each chain restarts at its middle type.
// LOSSY-LABEL: func.func @int_float(
// LOSSY-COUNT-4: fuser.cast
// LOSSY-NEXT:    return
func.func @int_float(%x: tensor<4xf32>, %y: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %0 = fuser.cast %x : tensor<4xf32> to tensor<4xi32>
  %1 = fuser.cast %0 : tensor<4xi32> to tensor<4xf32>
  %2 = fuser.cast %y : tensor<4xi64> to tensor<4xf64>
  %3 = fuser.cast %2 : tensor<4xf64> to tensor<4xi64>
  return %1, %3 : tensor<4xf32>, tensor<4xi64>
}

// -----

// Even the lossy rule keeps an integer between floats: it truncates.
// CHECK-LABEL: func.func @int_between_floats(
// CHECK-COUNT-2: fuser.cast
// LOSSY-LABEL: func.func @int_between_floats(
// LOSSY-COUNT-2: fuser.cast
func.func @int_between_floats(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.cast %x : tensor<4xf32> to tensor<4xi64>
  %1 = fuser.cast %0 : tensor<4xi64> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// The 8-bit floats are exact in every wider float: fp8 -> f32 -> f16 is
// fp8 -> f16 and fp8 -> bf16 -> fp8 is x (FP8-style dequantize/requantize).
// CHECK-LABEL: func.func @float8_up(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf8E4M3FN>)
// CHECK-NEXT:    %[[H:.*]] = fuser.cast %[[X]] : tensor<4xf8E4M3FN> to tensor<4xf16>
// CHECK-NEXT:    return %[[H]], %[[X]]
func.func @float8_up(%x: tensor<4xf8E4M3FN>) -> (tensor<4xf16>, tensor<4xf8E4M3FN>) {
  %0 = fuser.cast %x : tensor<4xf8E4M3FN> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf16>
  %2 = fuser.cast %x : tensor<4xf8E4M3FN> to tensor<4xbf16>
  %3 = fuser.cast %2 : tensor<4xbf16> to tensor<4xf8E4M3FN>
  return %1, %3 : tensor<4xf16>, tensor<4xf8E4M3FN>
}

// -----

// Bail-outs: a cast to fp8 rounds and saturates, so f32 -> fp8 -> f32 stays;
// e4m3 and e5m2 hold different values (neither includes the other), so
// e4m3 -> e5m2 -> e4m3 stays too.
// CHECK-LABEL: func.func @float8_down(
// CHECK-COUNT-4: fuser.cast
// CHECK-NEXT:    return
// LOSSY-LABEL: func.func @float8_down(
// LOSSY-COUNT-4: fuser.cast
// LOSSY-NEXT:    return
func.func @float8_down(%x: tensor<4xf32>, %y: tensor<4xf8E4M3FN>) -> (tensor<4xf32>, tensor<4xf8E4M3FN>) {
  %0 = fuser.cast %x : tensor<4xf32> to tensor<4xf8E5M2>
  %1 = fuser.cast %0 : tensor<4xf8E5M2> to tensor<4xf32>
  %2 = fuser.cast %y : tensor<4xf8E4M3FN> to tensor<4xf8E5M2>
  %3 = fuser.cast %2 : tensor<4xf8E5M2> to tensor<4xf8E4M3FN>
  return %1, %3 : tensor<4xf32>, tensor<4xf8E4M3FN>
}
