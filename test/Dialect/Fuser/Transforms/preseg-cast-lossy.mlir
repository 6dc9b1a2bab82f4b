// RUN: fuser-opt %s --fuser-preseg -split-input-file | FileCheck %s --check-prefix=EXACT
// RUN: fuser-opt %s --canonicalize -split-input-file | FileCheck %s --check-prefix=EXACT
// RUN: fuser-opt %s --canonicalize="top-down=false" -split-input-file | FileCheck %s --check-prefix=EXACT
// RUN: fuser-opt %s --fuser-preseg=fold-lossy-cast-chains=true -split-input-file | FileCheck %s --check-prefix=LOSSY
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(fuser-simplify{fold-lossy-cast-chains=true}))' -split-input-file | FileCheck %s --check-prefix=LOSSY

// The opt-in rule `fold-lossy-cast-chains` is nvFuser's ConsecutiveCastPass
// (csrc/preseg_passes/consecutive_cast.cpp): walk a chain of casts from its
// start keeping lo_anchor, the narrowest type seen; skip a cast to a type
// that includes the anchor; a narrower type becomes the anchor; an
// incompatible type (f16 vs bf16, an int vs a float that does not hold it)
// keeps start -> lo_anchor -> it and restarts there; at the end the section
// is start -> output when lo_anchor includes the output, else
// start -> lo_anchor -> output. A chain stops at a cast result with another
// use (a returned one included). The functions below are the chains of
// nvFuser's PresegTest.FusionTestCastOptimization
// (tests/cpp/test_preseg_passes.cpp; its complex-double step left out) and
// the chains of the issue. EXACT is the default rule (rule 1 of
// docs/Preseg.md): it only drops exact steps.

// nvFuser: double -> float -> half -> float -> double is double -> half -> double.
// EXACT-LABEL: func.func @nv_f64_f32_f16_f32_f64(
// EXACT-NEXT: fuser.cast %{{.*}} : tensor<3x7xf64> to tensor<3x7xf32>
// EXACT-NEXT: fuser.cast %{{.*}} : tensor<3x7xf32> to tensor<3x7xf16>
// EXACT-NEXT: fuser.cast %{{.*}} : tensor<3x7xf16> to tensor<3x7xf64>
// EXACT-NEXT: return
// LOSSY-LABEL: func.func @nv_f64_f32_f16_f32_f64(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xf64>)
// LOSSY-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<3x7xf64> to tensor<3x7xf16>
// LOSSY-NEXT: %[[B:.*]] = fuser.cast %[[A]] : tensor<3x7xf16> to tensor<3x7xf64>
// LOSSY-NEXT: return %[[B]]
func.func @nv_f64_f32_f16_f32_f64(%x: tensor<3x7xf64>) -> tensor<3x7xf64> {
  %0 = fuser.cast %x : tensor<3x7xf64> to tensor<3x7xf32>
  %1 = fuser.cast %0 : tensor<3x7xf32> to tensor<3x7xf16>
  %2 = fuser.cast %1 : tensor<3x7xf16> to tensor<3x7xf32>
  %3 = fuser.cast %2 : tensor<3x7xf32> to tensor<3x7xf64>
  return %3 : tensor<3x7xf64>
}

// -----

// nvFuser: double -> float -> double -> half is double -> half.
// EXACT-LABEL: func.func @nv_f64_f32_f64_f16(
// EXACT-NEXT: fuser.cast %{{.*}} : tensor<3x7xf64> to tensor<3x7xf32>
// EXACT-NEXT: fuser.cast %{{.*}} : tensor<3x7xf32> to tensor<3x7xf16>
// EXACT-NEXT: return
// LOSSY-LABEL: func.func @nv_f64_f32_f64_f16(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xf64>)
// LOSSY-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<3x7xf64> to tensor<3x7xf16>
// LOSSY-NEXT: return %[[A]]
func.func @nv_f64_f32_f64_f16(%x: tensor<3x7xf64>) -> tensor<3x7xf16> {
  %0 = fuser.cast %x : tensor<3x7xf64> to tensor<3x7xf32>
  %1 = fuser.cast %0 : tensor<3x7xf32> to tensor<3x7xf64>
  %2 = fuser.cast %1 : tensor<3x7xf64> to tensor<3x7xf16>
  return %2 : tensor<3x7xf16>
}

// -----

// nvFuser: double -> float -> half -> float -> double -> half is double -> half.
// EXACT-LABEL: func.func @nv_f64_f32_f16_f32_f64_f16(
// EXACT-NEXT: fuser.cast %{{.*}} : tensor<3x7xf64> to tensor<3x7xf32>
// EXACT-NEXT: fuser.cast %{{.*}} : tensor<3x7xf32> to tensor<3x7xf16>
// EXACT-NEXT: return
// LOSSY-LABEL: func.func @nv_f64_f32_f16_f32_f64_f16(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xf64>)
// LOSSY-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<3x7xf64> to tensor<3x7xf16>
// LOSSY-NEXT: return %[[A]]
func.func @nv_f64_f32_f16_f32_f64_f16(%x: tensor<3x7xf64>) -> tensor<3x7xf16> {
  %0 = fuser.cast %x : tensor<3x7xf64> to tensor<3x7xf32>
  %1 = fuser.cast %0 : tensor<3x7xf32> to tensor<3x7xf16>
  %2 = fuser.cast %1 : tensor<3x7xf16> to tensor<3x7xf32>
  %3 = fuser.cast %2 : tensor<3x7xf32> to tensor<3x7xf64>
  %4 = fuser.cast %3 : tensor<3x7xf64> to tensor<3x7xf16>
  return %4 : tensor<3x7xf16>
}

// -----

// nvFuser: float -> double -> float is the input (exact: both rules).
// EXACT-LABEL: func.func @nv_f32_f64_f32(
// EXACT-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xf32>)
// EXACT-NEXT: return %[[X]]
// LOSSY-LABEL: func.func @nv_f32_f64_f32(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xf32>)
// LOSSY-NEXT: return %[[X]]
func.func @nv_f32_f64_f32(%x: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %0 = fuser.cast %x : tensor<3x7xf32> to tensor<3x7xf64>
  %1 = fuser.cast %0 : tensor<3x7xf64> to tensor<3x7xf32>
  return %1 : tensor<3x7xf32>
}

// -----

// nvFuser: float -> double -> half -> float -> double -> float -> double ->
// float -> double -> float is float -> half -> float (both rules: the only
// inexact step, double -> half, is the narrowest).
// EXACT-LABEL: func.func @nv_long(
// EXACT-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xf32>)
// EXACT-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<3x7xf32> to tensor<3x7xf16>
// EXACT-NEXT: %[[B:.*]] = fuser.cast %[[A]] : tensor<3x7xf16> to tensor<3x7xf32>
// EXACT-NEXT: return %[[B]]
// LOSSY-LABEL: func.func @nv_long(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xf32>)
// LOSSY-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<3x7xf32> to tensor<3x7xf16>
// LOSSY-NEXT: %[[B:.*]] = fuser.cast %[[A]] : tensor<3x7xf16> to tensor<3x7xf32>
// LOSSY-NEXT: return %[[B]]
func.func @nv_long(%x: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %0 = fuser.cast %x : tensor<3x7xf32> to tensor<3x7xf64>
  %1 = fuser.cast %0 : tensor<3x7xf64> to tensor<3x7xf16>
  %2 = fuser.cast %1 : tensor<3x7xf16> to tensor<3x7xf32>
  %3 = fuser.cast %2 : tensor<3x7xf32> to tensor<3x7xf64>
  %4 = fuser.cast %3 : tensor<3x7xf64> to tensor<3x7xf32>
  %5 = fuser.cast %4 : tensor<3x7xf32> to tensor<3x7xf64>
  %6 = fuser.cast %5 : tensor<3x7xf64> to tensor<3x7xf32>
  %7 = fuser.cast %6 : tensor<3x7xf32> to tensor<3x7xf64>
  %8 = fuser.cast %7 : tensor<3x7xf64> to tensor<3x7xf32>
  return %8 : tensor<3x7xf32>
}

// -----

// nvFuser: float -> double -> half -> float -> bfloat16 -> float is
// float -> half -> bfloat16 -> float (half and bfloat16 are incompatible:
// the chain restarts at bfloat16).
// EXACT-LABEL: func.func @nv_half_bfloat(
// EXACT-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xf32>)
// EXACT-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<3x7xf32> to tensor<3x7xf16>
// EXACT-NEXT: %[[B:.*]] = fuser.cast %[[A]] : tensor<3x7xf16> to tensor<3x7xbf16>
// EXACT-NEXT: %[[C:.*]] = fuser.cast %[[B]] : tensor<3x7xbf16> to tensor<3x7xf32>
// EXACT-NEXT: return %[[C]]
// LOSSY-LABEL: func.func @nv_half_bfloat(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xf32>)
// LOSSY-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<3x7xf32> to tensor<3x7xf16>
// LOSSY-NEXT: %[[B:.*]] = fuser.cast %[[A]] : tensor<3x7xf16> to tensor<3x7xbf16>
// LOSSY-NEXT: %[[C:.*]] = fuser.cast %[[B]] : tensor<3x7xbf16> to tensor<3x7xf32>
// LOSSY-NEXT: return %[[C]]
func.func @nv_half_bfloat(%x: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %0 = fuser.cast %x : tensor<3x7xf32> to tensor<3x7xf64>
  %1 = fuser.cast %0 : tensor<3x7xf64> to tensor<3x7xf16>
  %2 = fuser.cast %1 : tensor<3x7xf16> to tensor<3x7xf32>
  %3 = fuser.cast %2 : tensor<3x7xf32> to tensor<3x7xbf16>
  %4 = fuser.cast %3 : tensor<3x7xbf16> to tensor<3x7xf32>
  return %4 : tensor<3x7xf32>
}

// -----

// nvFuser: int32 -> double -> int64 -> bfloat16 -> float -> double is
// int32 -> bfloat16 -> double (int32 is exact in double and int64;
// bfloat16 is incompatible with int32, so the chain restarts there).
// EXACT-LABEL: func.func @nv_int(
// EXACT-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xi32>)
// EXACT-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<3x7xi32> to tensor<3x7xbf16>
// EXACT-NEXT: %[[B:.*]] = fuser.cast %[[A]] : tensor<3x7xbf16> to tensor<3x7xf64>
// EXACT-NEXT: return %[[B]]
// LOSSY-LABEL: func.func @nv_int(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xi32>)
// LOSSY-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<3x7xi32> to tensor<3x7xbf16>
// LOSSY-NEXT: %[[B:.*]] = fuser.cast %[[A]] : tensor<3x7xbf16> to tensor<3x7xf64>
// LOSSY-NEXT: return %[[B]]
func.func @nv_int(%x: tensor<3x7xi32>) -> tensor<3x7xf64> {
  %0 = fuser.cast %x : tensor<3x7xi32> to tensor<3x7xf64>
  %1 = fuser.cast %0 : tensor<3x7xf64> to tensor<3x7xi64>
  %2 = fuser.cast %1 : tensor<3x7xi64> to tensor<3x7xbf16>
  %3 = fuser.cast %2 : tensor<3x7xbf16> to tensor<3x7xf32>
  %4 = fuser.cast %3 : tensor<3x7xf32> to tensor<3x7xf64>
  return %4 : tensor<3x7xf64>
}

// -----

// nvFuser: float -> double(output0) -> half -> double -> float(output1) is
// float -> double(output0) -> half -> float(output1): a returned
// intermediate ends nvFuser's chain. Here the exact rule goes further (a
// fold through an exact step ignores other uses, rule 1): the second output
// reads float -> half -> float from the input.
// EXACT-LABEL: func.func @nv_outputs(
// EXACT-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xf32>)
// EXACT-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<3x7xf32> to tensor<3x7xf64>
// EXACT-NEXT: %[[B:.*]] = fuser.cast %[[X]] : tensor<3x7xf32> to tensor<3x7xf16>
// EXACT-NEXT: %[[C:.*]] = fuser.cast %[[B]] : tensor<3x7xf16> to tensor<3x7xf32>
// EXACT-NEXT: return %[[A]], %[[C]]
// LOSSY-LABEL: func.func @nv_outputs(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xf32>)
// LOSSY-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<3x7xf32> to tensor<3x7xf64>
// LOSSY-NEXT: %[[B:.*]] = fuser.cast %[[X]] : tensor<3x7xf32> to tensor<3x7xf16>
// LOSSY-NEXT: %[[C:.*]] = fuser.cast %[[B]] : tensor<3x7xf16> to tensor<3x7xf32>
// LOSSY-NEXT: return %[[A]], %[[C]]
func.func @nv_outputs(%x: tensor<3x7xf32>) -> (tensor<3x7xf64>, tensor<3x7xf32>) {
  %0 = fuser.cast %x : tensor<3x7xf32> to tensor<3x7xf64>
  %1 = fuser.cast %0 : tensor<3x7xf64> to tensor<3x7xf16>
  %2 = fuser.cast %1 : tensor<3x7xf16> to tensor<3x7xf64>
  %3 = fuser.cast %2 : tensor<3x7xf64> to tensor<3x7xf32>
  return %0, %3 : tensor<3x7xf64>, tensor<3x7xf32>
}

// -----

// nvFuser: float -> half -> bfloat16 -> half stays (half and bfloat16 are
// incompatible both ways).
// EXACT-LABEL: func.func @nv_half_bfloat_half(
// EXACT-COUNT-3: fuser.cast
// EXACT-NEXT: return
// LOSSY-LABEL: func.func @nv_half_bfloat_half(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<3x7xf32>)
// LOSSY-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<3x7xf32> to tensor<3x7xf16>
// LOSSY-NEXT: %[[B:.*]] = fuser.cast %[[A]] : tensor<3x7xf16> to tensor<3x7xbf16>
// LOSSY-NEXT: %[[C:.*]] = fuser.cast %[[B]] : tensor<3x7xbf16> to tensor<3x7xf16>
// LOSSY-NEXT: return %[[C]]
func.func @nv_half_bfloat_half(%x: tensor<3x7xf32>) -> tensor<3x7xf16> {
  %0 = fuser.cast %x : tensor<3x7xf32> to tensor<3x7xf16>
  %1 = fuser.cast %0 : tensor<3x7xf16> to tensor<3x7xbf16>
  %2 = fuser.cast %1 : tensor<3x7xbf16> to tensor<3x7xf16>
  return %2 : tensor<3x7xf16>
}

// -----

// The issue: f64 -> f32 -> f16 is f64 -> f16 (one rounding instead of two).
// EXACT-LABEL: func.func @f64_f32_f16(
// EXACT-COUNT-2: fuser.cast
// EXACT-NEXT: return
// LOSSY-LABEL: func.func @f64_f32_f16(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<4xf64>)
// LOSSY-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<4xf64> to tensor<4xf16>
// LOSSY-NEXT: return %[[A]]
func.func @f64_f32_f16(%x: tensor<4xf64>) -> tensor<4xf16> {
  %0 = fuser.cast %x : tensor<4xf64> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// The issue: f16 -> f32 -> f64 -> f16 is the input (exact: both rules).
// EXACT-LABEL: func.func @f16_f32_f64_f16(
// EXACT-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<4xf16>)
// EXACT-NEXT: return %[[X]]
// LOSSY-LABEL: func.func @f16_f32_f64_f16(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<4xf16>)
// LOSSY-NEXT: return %[[X]]
func.func @f16_f32_f64_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = fuser.cast %x : tensor<4xf16> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf64>
  %2 = fuser.cast %1 : tensor<4xf64> to tensor<4xf16>
  return %2 : tensor<4xf16>
}

// -----

// The issue: f64 -> f32 -> f16 -> f64 is f64 -> f16 -> f64.
// EXACT-LABEL: func.func @f64_f32_f16_f64(
// EXACT-NEXT: fuser.cast %{{.*}} : tensor<4xf64> to tensor<4xf32>
// EXACT-NEXT: fuser.cast %{{.*}} : tensor<4xf32> to tensor<4xf16>
// EXACT-NEXT: fuser.cast %{{.*}} : tensor<4xf16> to tensor<4xf64>
// EXACT-NEXT: return
// LOSSY-LABEL: func.func @f64_f32_f16_f64(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<4xf64>)
// LOSSY-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<4xf64> to tensor<4xf16>
// LOSSY-NEXT: %[[B:.*]] = fuser.cast %[[A]] : tensor<4xf16> to tensor<4xf64>
// LOSSY-NEXT: return %[[B]]
func.func @f64_f32_f16_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = fuser.cast %x : tensor<4xf64> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf16>
  %2 = fuser.cast %1 : tensor<4xf16> to tensor<4xf64>
  return %2 : tensor<4xf64>
}

// -----

// Bail-out, the issue: f32 -> bf16 -> f32 stays (bf16 is the narrowest type
// and does not include the output).
// EXACT-LABEL: func.func @f32_bf16_f32(
// EXACT-COUNT-2: fuser.cast
// EXACT-NEXT: return
// LOSSY-LABEL: func.func @f32_bf16_f32(
// LOSSY-COUNT-2: fuser.cast
// LOSSY-NEXT: return
func.func @f32_bf16_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.cast %x : tensor<4xf32> to tensor<4xbf16>
  %1 = fuser.cast %0 : tensor<4xbf16> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Bail-out: an intermediate with another use ends the chain: the f32 is
// also negated, so f64 -> f32 -> f16 keeps its f32.
// EXACT-LABEL: func.func @shared_intermediate(
// EXACT-COUNT-2: fuser.cast
// LOSSY-LABEL: func.func @shared_intermediate(
// LOSSY-SAME: %[[X:[a-zA-Z0-9_]+]]: tensor<4xf64>)
// LOSSY-NEXT: %[[A:.*]] = fuser.cast %[[X]] : tensor<4xf64> to tensor<4xf32>
// LOSSY-NEXT: %[[B:.*]] = fuser.cast %[[A]] : tensor<4xf32> to tensor<4xf16>
// LOSSY-NEXT: %[[N:.*]] = fuser.neg %[[A]]
// LOSSY-NEXT: return %[[B]], %[[N]]
func.func @shared_intermediate(%x: tensor<4xf64>) -> (tensor<4xf16>, tensor<4xf32>) {
  %0 = fuser.cast %x : tensor<4xf64> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf16>
  %2 = fuser.neg %0 : tensor<4xf32>
  return %1, %2 : tensor<4xf16>, tensor<4xf32>
}

// -----

// Bail-out: int and float are incompatible unless one includes the other:
// i64 -> f64 -> i32 stays under nvFuser's rule (i64 is not exact in f64).
// EXACT-LABEL: func.func @i64_f64_i32(
// EXACT-COUNT-2: fuser.cast
// LOSSY-LABEL: func.func @i64_f64_i32(
// LOSSY-COUNT-2: fuser.cast
// LOSSY-NEXT: return
func.func @i64_f64_i32(%x: tensor<4xi64>) -> tensor<4xi32> {
  %0 = fuser.cast %x : tensor<4xi64> to tensor<4xf64>
  %1 = fuser.cast %0 : tensor<4xf64> to tensor<4xi32>
  return %1 : tensor<4xi32>
}
