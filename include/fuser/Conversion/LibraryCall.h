//===- LibraryCall.h - the host call that runs a library segment -*- C++ -*-===//
//
// convert-fuser-to-scf lowers a `library` segment (a fuser.matmul or
// fuser.linear, docs/Segmentation.md) to one call of kMatmulFunction,
//   void(index descriptor, index lhs, index rhs, index bias, index out),
// each argument the aligned base address of a memref: `descriptor` of an
// i64 constant laid out as MatmulSlot below, the others of the operands'
// and the result's buffers (bias 0 when there is none). The descriptor
// states one batched gemm over strided operands,
//   out[b, m, n] = sum over k of lhs[b, m, k] * rhs[b, k, n] (+ bias[n]),
// every offset and stride in elements. The CPU backend resolves the symbol
// to a BLAS call (lib/ExecutionEngine/LibraryCalls.cpp, docs/Lowering.md).
//
// A fuser.grouped_mm segment calls kGroupedMmFunction,
//   void(index descriptor, index mat1, index mat2, index offsets, index out),
// with a descriptor laid out as GroupedMmSlot: the grouped dim, G, the
// offsets' layout and each operand's group stride, then a kMatmulFunction
// descriptor (without batch dims) of the whole gemm, M, N and K the whole
// extents, which each group narrows (the runtime calls kMatmulFunction's
// gemm once per non-empty group).
//
// A fuser.sdpfa_fwd segment calls kAttentionForwardFunction,
//   void(index descriptor, index query, index key, index value, index bias,
//        index mask, index seed, index offset, index output,
//        index logsumexp, index philox_seed, index philox_offset)
// (bias, mask, and the rank-0 seed and offset 0 where the op has none),
// a fuser.sdpfa_bwd one kAttentionBackwardFunction,
//   void(index descriptor, index grad_output, index query, index key,
//        index value, index output, index logsumexp, index philox_seed,
//        index philox_offset, index grad_query, index grad_key,
//        index grad_value),
// with the op's operands then all its results (a result the segment does
// not yield is written to a buffer of the call's own), and a descriptor
// laid out as AttentionSlot: the extents, then per buffer in argument
// order its offset and Rank strides in elements (a broadcast dim of a bias
// or mask: stride 0).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_CONVERSION_LIBRARYCALL_H
#define FUSER_CONVERSION_LIBRARYCALL_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::fuser::library {

constexpr llvm::StringLiteral kMatmulFunction = "__fuser_matmul";

/// The element type of all operands and the result.
enum class MatmulElement : int64_t { F32 = 0, F64 = 1, F16 = 2, BF16 = 3 };

/// The descriptor's slots, then BatchRank groups of BatchSlot.
enum MatmulSlot : int64_t {
  Element,
  M,
  N,
  K,
  LhsOffset,
  LhsStrideM,
  LhsStrideK,
  RhsOffset,
  RhsStrideK,
  RhsStrideN,
  OutOffset,
  OutStrideM,
  OutStrideN,
  HasBias,
  BiasOffset,
  BiasStrideN,
  BatchRank,
  FirstBatchDim
};

/// One batch dim, outermost first: its extent and each buffer's stride
/// along it (0 where that operand broadcasts it).
enum BatchSlot : int64_t {
  BatchSize,
  BatchLhsStride,
  BatchRhsStride,
  BatchOutStride,
  BatchSlots
};

constexpr llvm::StringLiteral kGroupedMmFunction = "__fuser_grouped_mm";

/// A grouped_mm call's descriptor: these slots, then the FirstBatchDim
/// slots of a kMatmulFunction descriptor with BatchRank 0 (the bias slots
/// 0).
enum GroupedMmSlot : int64_t {
  /// The GroupedDim (fuser/Dialect/Fuser/IR/GroupedMm.h).
  GroupedDimension,
  Groups,
  /// The op's number in the module's kIndexChecksAttr list (Passes.h):
  /// where the run reports offsets that break the rule.
  GroupedCheck,
  /// The i32 offsets' element offset and stride.
  OffsetsOffset,
  OffsetsStride,
  /// The stride between groups of the operand that has a group dim (mat2
  /// for grouped rows, mat1 for grouped columns, the result for a grouped
  /// contraction; 0 for the others).
  Mat1GroupStride,
  Mat2GroupStride,
  OutGroupStride,
  FirstGemmSlot
};

constexpr llvm::StringLiteral kAttentionForwardFunction = "__fuser_sdpfa_fwd";
constexpr llvm::StringLiteral kAttentionBackwardFunction = "__fuser_sdpfa_bwd";

/// Whether `name` is one of the library functions above, or a descriptor
/// global (named after its function).
inline bool isLibraryFunction(llvm::StringRef name) {
  return name.starts_with(kMatmulFunction) ||
         name.starts_with(kGroupedMmFunction) ||
         name.starts_with(kAttentionForwardFunction) ||
         name.starts_with(kAttentionBackwardFunction);
}

/// An attention call's descriptor: these slots (the element type as
/// MatmulElement; the bits of the f32 scale, dropout threshold and keep
/// scale of fuser/Dialect/Fuser/IR/Attention.h), then Rank - 2 batch
/// extents, then
/// per buffer AttentionBufferSlots: its offset, then Rank strides (a buffer
/// of lower rank leaves the last ones 0).
enum AttentionSlot : int64_t {
  AttentionElement,
  AttentionRank,
  AttentionL,
  AttentionS,
  AttentionE,
  AttentionEv,
  AttentionCausal,
  AttentionScaleBits,
  AttentionHasDropout,
  AttentionDropoutThresholdBits,
  AttentionKeepScaleBits,
  AttentionFirstBatchDim
};

/// The descriptor slots of a buffer of an attention call of rank `rank`.
constexpr int64_t getAttentionBufferSlots(int64_t rank) { return 1 + rank; }

} // namespace mlir::fuser::library

#endif // FUSER_CONVERSION_LIBRARYCALL_H
