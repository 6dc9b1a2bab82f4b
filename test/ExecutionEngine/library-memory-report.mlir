// The memory report of fusions with library segments (docs/Performance.md):
// a library computes each library op, so it is not instrumented; the report
// lists it with its op's figures: each operand read once, each result
// written once, and the flops of LibraryOpInterface::getFlopCount (2 per
// multiply-add). The kernels around it are measured as in any fusion, and
// the library calls stay out of the kernels' moved and minimum bytes.
// RUN: fuser-run %s --entry mlp --backend cpu --memory-report --cuda-toolkit= | FileCheck %s --check-prefix=MLP
// RUN: fuser-run %s --entry mlp --backend cpu --memory-report --cuda-toolkit= --json | FileCheck %s --check-prefix=JSON
// RUN: fuser-run %s --entry moe --backend cpu --memory-report --cuda-toolkit= | FileCheck %s --check-prefix=MOE
// RUN: fuser-run %s --entry attention --backend cpu --memory-report --cuda-toolkit= | FileCheck %s --check-prefix=ATTENTION
// A fusion without library ops prints no library lines.
// RUN: fuser-run %s --entry pointwise --backend cpu --memory-report --cuda-toolkit= | FileCheck %s --check-prefix=NONE

// Up projection 8x64 by 128x64: reads 1024 + 16384 bytes, writes 2048,
// 2 * 8 * 128 * 64 flops; the silu kernel between; the down projection
// with a bias (one add per result element: 2 * 8 * 64 * 128 + 8 * 64).
// MLP: kernel 0:
// MLP: library call 0: fuser.linear tensor<8x64xbf16>, tensor<128x64xbf16> -> tensor<8x128xbf16>: read 17408 bytes, written 2048 bytes, 131072 flops (6.74 per byte; a library computes it, not measured)
// MLP-NEXT: library call 1: fuser.linear tensor<8x128xbf16>, tensor<64x128xbf16>, tensor<64xbf16> -> tensor<8x64xbf16>: read 18560 bytes, written 1024 bytes, 131584 flops (6.72 per byte; a library computes it, not measured)
// MLP: fusion: 1 kernel(s), moved 4096 bytes
// MLP-NEXT: library: 2 call(s), read 35968 bytes, written 3072 bytes, 262656 flops
// JSON: "library_calls": [{"op": "fuser.linear", "signature": "tensor<8x64xbf16>, tensor<128x64xbf16> -> tensor<8x128xbf16>", "read_bytes": 17408, "written_bytes": 2048, "flops": 131072}, {"op": "fuser.linear", {{.*}}"flops": 131584}], "result_fnv1a64"
func.func @mlp(%x: tensor<8x64xbf16>, %w1: tensor<128x64xbf16>, %w2: tensor<64x128xbf16>, %b2: tensor<64xbf16>) -> tensor<8x64xbf16> {
  %h = fuser.linear %x, %w1 : tensor<8x64xbf16>, tensor<128x64xbf16> -> tensor<8x128xbf16>
  %hf = fuser.cast %h : tensor<8x128xbf16> to tensor<8x128xf32>
  %s = fuser.silu %hf : tensor<8x128xf32>
  %sb = fuser.cast %s : tensor<8x128xf32> to tensor<8x128xbf16>
  %y = fuser.linear %sb, %w2 bias %b2 : tensor<8x128xbf16>, tensor<64x128xbf16>, tensor<64xbf16> -> tensor<8x64xbf16>
  return %y : tensor<8x64xbf16>
}

// Tokens 16x32 against 4 experts' 32x8 weights: every row in some group,
// 2 * 16 * 8 * 32 flops.
// MOE: library call 0: fuser.grouped_mm tensor<16x32xf32>, tensor<4x32x8xf32>, tensor<4xi32> -> tensor<16x8xf32>: read 6160 bytes, written 512 bytes, 8192 flops
// MOE: library: 1 call(s)
func.func @moe(%tokens: tensor<16x32xf32>, %experts: tensor<4x32x8xf32>) -> tensor<16x8xf32> {
  %four = arith.constant 4 : i32
  // 4, 8, 12, 16: four tokens per expert.
  %offsets = fuser.iota %four, %four : i32 -> tensor<4xi32>
  %y = fuser.grouped_mm %tokens, %experts, %offsets : tensor<16x32xf32>, tensor<4x32x8xf32>, tensor<4xi32> -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}

// Attention over 2 heads of 5 queries and 7 keys of 8: the forward's
// results are the output, the f32 logsumexp and the Philox state; the
// flops are QK^T's and PV's, 2 * 2 * 5 * 7 * (8 + 8).
// ATTENTION: library call 0: fuser.sdpfa_fwd tensor<1x2x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>: read 1216 bytes, written 384 bytes, 2240 flops
// ATTENTION: library: 1 call(s)
func.func @attention(%q: tensor<1x2x5x8xf32>, %k: tensor<1x2x7x8xf32>, %v: tensor<1x2x7x8xf32>) -> tensor<1x2x5x8xf32> {
  %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v : tensor<1x2x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5xf32>, tensor<2xi64>, tensor<i64>
  return %o : tensor<1x2x5x8xf32>
}

// NONE-NOT: library
func.func @pointwise(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = fuser.exp %x : tensor<64xf32>
  return %y : tensor<64xf32>
}
