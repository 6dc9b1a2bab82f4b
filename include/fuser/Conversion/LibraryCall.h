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

} // namespace mlir::fuser::library

#endif // FUSER_CONVERSION_LIBRARYCALL_H
