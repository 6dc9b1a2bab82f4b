// fuser.grouped_mm (nvFuser's unscaled grouped_mm, torch._grouped_mm) on
// the CPU backend and under SIMT, one __fuser_grouped_mm call per library
// segment. On the CPU it runs the BLAS gemm of each non-empty group
// (runLibraryMatmul's paths) and zeroes the rows (columns) past the last
// offset; under SIMT the CUDA backend copies the offsets to the host and
// makes a cuBLASLt call per non-empty group, which the emulator's fake
// cuBLASLt checks and computes. Both are checked against the interpreter
// within nvFuser's matmul tolerance for K summed elements. The offsets are
// computed in the fusion (iota clamped: empty groups, and a last offset
// before the extent), so a kernel writes them and the call reads them. The
// three forms, odd sizes, bf16, f16 and f32, transposed operands (expert
// weights stored [G, N, K]), no groups, K = 0, an MoE block; offsets that
// break the rule are a located error on every backend.
// RUN: fuser-run %s --entry rows_bf16 --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry rows_f32 --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry columns_f16 --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry contraction_f32 --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry contraction_bf16 --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry moe_bf16 --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry transposed_weights --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry no_groups --backend cpu --print-values | FileCheck %s --check-prefix=ZEROS
// RUN: fuser-run %s --entry k0 --backend cpu --print-values | FileCheck %s --check-prefix=ZEROS
// The same under SIMT:
// RUN: fuser-run %s --entry rows_bf16 --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry rows_f32 --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry columns_f16 --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry contraction_f32 --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry contraction_bf16 --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry moe_bf16 --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry transposed_weights --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry no_groups --backend simt --print-values | FileCheck %s --check-prefix=ZEROS
// RUN: fuser-run %s --entry k0 --backend simt --print-values | FileCheck %s --check-prefix=ZEROS
// RUN: fuser-run %s --entry k0 --backend interp --print-values | FileCheck %s --check-prefix=ZEROS
// RUN: env FUSER_SIMT_BLASLT_LOG=1 fuser-run %s --entry rows_bf16 --backend simt 2>&1 | FileCheck %s --check-prefix=SIMT-GEMMS
// Rows past the last offset are +0.0 on each backend:
// RUN: fuser-run %s --entry tail --backend interp --print-values | FileCheck %s --check-prefix=TAIL
// RUN: fuser-run %s --entry tail --backend cpu --print-values | FileCheck %s --check-prefix=TAIL
// RUN: fuser-run %s --entry tail --backend simt --print-values | FileCheck %s --check-prefix=TAIL
// One gemm per non-empty group (3 of rows_bf16's 4; group 0 is empty), and
// the rows past the last offset written without one:
// RUN: env FUSER_MATMUL_LOG=1 fuser-run %s --entry rows_bf16 --backend cpu 2>&1 | FileCheck %s --check-prefix=GEMMS
// The lowering: one call per grouped_mm segment.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf | FileCheck %s --check-prefix=LOWER
// The MoE block: 3 library segments and 3 pointwise kernels (the offsets;
// silu(gate) * up cast to bf16, which the down projection reads; the
// routing weight times the down projection), 6 in the report's count.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-segment-report -o /dev/null | FileCheck %s --check-prefix=SEGMENTS
// RUN: fuser-opt %s --fuser-preseg --fuser-segment | FileCheck %s --check-prefix=MOE
// Offsets that break the rule:
// RUN: not fuser-run %s --entry decreasing --backend interp 2>&1 | FileCheck %s --check-prefix=DECREASING
// RUN: not fuser-run %s --entry decreasing --backend cpu 2>&1 | FileCheck %s --check-prefix=DECREASING
// RUN: not fuser-run %s --entry past_extent --backend interp 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: not fuser-run %s --entry past_extent --backend cpu 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: not fuser-run %s --entry negative --backend interp 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not fuser-run %s --entry negative --backend cpu 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not fuser-run %s --entry decreasing --backend simt 2>&1 | FileCheck %s --check-prefix=DECREASING

// OK-NOT: FAILED
// OK: atol={{.*}} (nvFuser's matmul tolerance for {{[0-9]+}} summed elements) ratio={{.*}} ok
// OK-NOT: FAILED

// TAIL: result 0: tensor<3x2xf32>
// TAIL-NEXT: {{\[\[[^]]*\], \[0, 0\], \[0, 0\]\]}}

// ZEROS: result 0: tensor<3x4xf32>
// ZEROS-NEXT: {{\[\[0, 0, 0, 0\], \[0, 0, 0, 0\], \[0, 0, 0, 0\]\]}}

// GEMMS-COUNT-3: fuser matmul: {{.*}}
// GEMMS-NOT: fuser matmul:
// SIMT-GEMMS-COUNT-3: simt: cublasLtMatmul m=13
// SIMT-GEMMS-NOT: simt: cublasLtMatmul

// LOWER-LABEL: func.func @rows_bf16(
// LOWER-COUNT-1: call @__fuser_grouped_mm(
// LOWER-NOT: call @__fuser_grouped_mm(
// LOWER: return

// SEGMENTS: fusion @moe_bf16: 6 kernels, 6 segments
// MOE-LABEL: func.func @moe_bf16
// MOE: fuser.segment pointwise
// MOE: fuser.iota
// MOE: fuser.segment library
// MOE-NEXT: ^bb0
// MOE-NEXT: fuser.grouped_mm
// MOE-NEXT: fuser.yield
// MOE: fuser.segment library
// MOE-NEXT: ^bb0
// MOE-NEXT: fuser.grouped_mm
// MOE-NEXT: fuser.yield
// MOE: fuser.segment pointwise
// MOE: fuser.silu
// MOE: fuser.mul
// MOE: fuser.segment library
// MOE-NEXT: ^bb0
// MOE-NEXT: fuser.grouped_mm
// MOE-NEXT: fuser.yield
// MOE: fuser.segment pointwise
// MOE: fuser.mul
// MOE-NOT: fuser.segment
// MOE: return

// DECREASING: grouped-mm.mlir:[[@LINE+129]]:8: error: grouped_mm's offsets[1] = 7 is less than offsets[0] = 10: offsets must not decrease
// PAST: grouped-mm.mlir:[[@LINE+137]]:8: error: grouped_mm's offsets[1] = 25 is past the grouped dim's extent 16
// NEGATIVE: grouped-mm.mlir:[[@LINE+145]]:8: error: grouped_mm's offsets[0] = -3 is negative

// Rows grouped, bf16: offsets [0, 3, 10, 16] of M = 19 (group 0 empty,
// rows 16..18 past the last offset).
func.func @rows_bf16(%x: tensor<19x24xbf16>, %w: tensor<4x24x13xbf16>) -> tensor<19x13xbf16> {
  %start = arith.constant -4 : i32
  %step = arith.constant 7 : i32
  %zero = arith.constant 0 : i32
  %cap = arith.constant 16 : i32
  %i = fuser.iota %start, %step : i32 -> tensor<4xi32>
  %lo = fuser.maximum %i, %zero : tensor<4xi32>, i32 -> tensor<4xi32>
  %offsets = fuser.minimum %lo, %cap : tensor<4xi32>, i32 -> tensor<4xi32>
  %y = fuser.grouped_mm %x, %w, %offsets : tensor<19x24xbf16>, tensor<4x24x13xbf16>, tensor<4xi32> -> tensor<19x13xbf16>
  return %y : tensor<19x13xbf16>
}

// Rows grouped, f32, the last offset at M: [4, 7, 10].
func.func @rows_f32(%x: tensor<10x7xf32>, %w: tensor<3x7x5xf32>) -> tensor<10x5xf32> {
  %start = arith.constant 4 : i32
  %step = arith.constant 3 : i32
  %offsets = fuser.iota %start, %step : i32 -> tensor<3xi32>
  %y = fuser.grouped_mm %x, %w, %offsets : tensor<10x7xf32>, tensor<3x7x5xf32>, tensor<3xi32> -> tensor<10x5xf32>
  return %y : tensor<10x5xf32>
}

// Columns grouped, f16: offsets [0, 4, 10] of N = 17 (group 0 empty,
// columns 10..16 past the last offset).
func.func @columns_f16(%x: tensor<3x6x9xf16>, %w: tensor<9x17xf16>) -> tensor<6x17xf16> {
  %start = arith.constant -2 : i32
  %step = arith.constant 6 : i32
  %zero = arith.constant 0 : i32
  %i = fuser.iota %start, %step : i32 -> tensor<3xi32>
  %offsets = fuser.maximum %i, %zero : tensor<3xi32>, i32 -> tensor<3xi32>
  %y = fuser.grouped_mm %x, %w, %offsets : tensor<3x6x9xf16>, tensor<9x17xf16>, tensor<3xi32> -> tensor<6x17xf16>
  return %y : tensor<6x17xf16>
}

// The contraction grouped, f32: offsets [0, 4, 13, 22] of K = 23 (group 0
// empty: zeros; k = 22 in no group).
func.func @contraction_f32(%x: tensor<5x23xf32>, %w: tensor<23x6xf32>) -> tensor<4x5x6xf32> {
  %start = arith.constant -5 : i32
  %step = arith.constant 9 : i32
  %zero = arith.constant 0 : i32
  %i = fuser.iota %start, %step : i32 -> tensor<4xi32>
  %offsets = fuser.maximum %i, %zero : tensor<4xi32>, i32 -> tensor<4xi32>
  %y = fuser.grouped_mm %x, %w, %offsets : tensor<5x23xf32>, tensor<23x6xf32>, tensor<4xi32> -> tensor<4x5x6xf32>
  return %y : tensor<4x5x6xf32>
}

// The contraction grouped, bf16, of a transposed operand (a stride, as
// for matmul): offsets [11, 22, 33] of K = 33.
func.func @contraction_bf16(%xt: tensor<33x7xbf16>, %w: tensor<33x9xbf16>) -> tensor<3x7x9xbf16> {
  %start = arith.constant 11 : i32
  %step = arith.constant 11 : i32
  %offsets = fuser.iota %start, %step : i32 -> tensor<3xi32>
  %x = fuser.permute %xt [1, 0] : tensor<33x7xbf16> -> tensor<7x33xbf16>
  %y = fuser.grouped_mm %x, %w, %offsets : tensor<7x33xbf16>, tensor<33x9xbf16>, tensor<3xi32> -> tensor<3x7x9xbf16>
  return %y : tensor<3x7x9xbf16>
}

// An MoE block over 21 tokens sorted by expert (4 experts, offsets
// [0, 6, 12, 18]: expert 0 gets none, the last 3 tokens are dropped):
// silu(x W_gate[e]) * (x W_up[e]), then W_down[e], times the token's routing
// probability. The pointwise work fuses into kernels between the calls.
func.func @moe_bf16(%x: tensor<21x16xbf16>, %gate: tensor<4x16x24xbf16>, %up: tensor<4x16x24xbf16>,
                    %down: tensor<4x24x16xbf16>, %probs: tensor<21x1xf32>) -> tensor<21x16xbf16> {
  %start = arith.constant -6 : i32
  %step = arith.constant 6 : i32
  %zero = arith.constant 0 : i32
  %i = fuser.iota %start, %step : i32 -> tensor<4xi32>
  %offsets = fuser.maximum %i, %zero : tensor<4xi32>, i32 -> tensor<4xi32>
  %g = fuser.grouped_mm %x, %gate, %offsets : tensor<21x16xbf16>, tensor<4x16x24xbf16>, tensor<4xi32> -> tensor<21x24xbf16>
  %u = fuser.grouped_mm %x, %up, %offsets : tensor<21x16xbf16>, tensor<4x16x24xbf16>, tensor<4xi32> -> tensor<21x24xbf16>
  %gf = fuser.cast %g : tensor<21x24xbf16> to tensor<21x24xf32>
  %uf = fuser.cast %u : tensor<21x24xbf16> to tensor<21x24xf32>
  %s = fuser.silu %gf : tensor<21x24xf32>
  %h = fuser.mul %s, %uf : tensor<21x24xf32>, tensor<21x24xf32> -> tensor<21x24xf32>
  %hb = fuser.cast %h : tensor<21x24xf32> to tensor<21x24xbf16>
  %d = fuser.grouped_mm %hb, %down, %offsets : tensor<21x24xbf16>, tensor<4x24x16xbf16>, tensor<4xi32> -> tensor<21x16xbf16>
  %df = fuser.cast %d : tensor<21x16xbf16> to tensor<21x16xf32>
  %p = fuser.mul %df, %probs : tensor<21x16xf32>, tensor<21x1xf32> -> tensor<21x16xf32>
  %o = fuser.cast %p : tensor<21x16xf32> to tensor<21x16xbf16>
  return %o : tensor<21x16xbf16>
}

// Expert weights stored [G, N, K] (nn.Linear's layout) and read through a
// permute: each group's rhs is a transpose flag, not a copy. Offsets
// [1, 3, 5] of M = 9.
func.func @transposed_weights(%x: tensor<9x5xf32>, %wt: tensor<3x6x5xf32>) -> tensor<9x6xf32> {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %offsets = fuser.iota %one, %two : i32 -> tensor<3xi32>
  %w = fuser.permute %wt [0, 2, 1] : tensor<3x6x5xf32> -> tensor<3x5x6xf32>
  %y = fuser.grouped_mm %x, %w, %offsets : tensor<9x5xf32>, tensor<3x5x6xf32>, tensor<3xi32> -> tensor<9x6xf32>
  return %y : tensor<9x6xf32>
}

// No groups: every row is past the (absent) last offset.
func.func @no_groups(%x: tensor<3x2xf32>, %w: tensor<0x2x4xf32>) -> tensor<3x4xf32> {
  %one = arith.constant 1 : i32
  %offsets = fuser.iota %one, %one : i32 -> tensor<0xi32>
  %y = fuser.grouped_mm %x, %w, %offsets : tensor<3x2xf32>, tensor<0x2x4xf32>, tensor<0xi32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// K = 0: the groups' rows (offsets [1, 2]) are empty sums, +0.0, as the
// row past them.
func.func @k0(%x: tensor<3x0xf32>, %w: tensor<2x0x4xf32>) -> tensor<3x4xf32> {
  %one = arith.constant 1 : i32
  %offsets = fuser.iota %one, %one : i32 -> tensor<2xi32>
  %y = fuser.grouped_mm %x, %w, %offsets : tensor<3x0xf32>, tensor<2x0x4xf32>, tensor<2xi32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// One group of row 0: rows 1 and 2 are past the last offset.
func.func @tail(%x: tensor<3x2xf32>, %w: tensor<1x2x2xf32>) -> tensor<3x2xf32> {
  %one = arith.constant 1 : i32
  %offsets = fuser.iota %one, %one : i32 -> tensor<1xi32>
  %y = fuser.grouped_mm %x, %w, %offsets : tensor<3x2xf32>, tensor<1x2x2xf32>, tensor<1xi32> -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// Offsets [10, 7, 4].
func.func @decreasing(%x: tensor<16x4xf32>, %w: tensor<3x4x5xf32>) -> tensor<16x5xf32> {
  %start = arith.constant 10 : i32
  %step = arith.constant -3 : i32
  %offsets = fuser.iota %start, %step : i32 -> tensor<3xi32>
  %y = fuser.grouped_mm %x, %w, %offsets : tensor<16x4xf32>, tensor<3x4x5xf32>, tensor<3xi32> -> tensor<16x5xf32>
  return %y : tensor<16x5xf32>
}

// Offsets [5, 25] of M = 16.
func.func @past_extent(%x: tensor<16x4xf32>, %w: tensor<2x4x5xf32>) -> tensor<16x5xf32> {
  %start = arith.constant 5 : i32
  %step = arith.constant 20 : i32
  %offsets = fuser.iota %start, %step : i32 -> tensor<2xi32>
  %y = fuser.grouped_mm %x, %w, %offsets : tensor<16x4xf32>, tensor<2x4x5xf32>, tensor<2xi32> -> tensor<16x5xf32>
  return %y : tensor<16x5xf32>
}

// Offsets [-3, 2] over N.
func.func @negative(%x: tensor<2x3x4xf32>, %w: tensor<4x6xf32>) -> tensor<3x6xf32> {
  %start = arith.constant -3 : i32
  %step = arith.constant 5 : i32
  %offsets = fuser.iota %start, %step : i32 -> tensor<2xi32>
  %y = fuser.grouped_mm %x, %w, %offsets : tensor<2x3x4xf32>, tensor<4x6xf32>, tensor<2xi32> -> tensor<3x6xf32>
  return %y : tensor<3x6xf32>
}
