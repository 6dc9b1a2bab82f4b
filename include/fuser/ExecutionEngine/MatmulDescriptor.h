//===- MatmulDescriptor.h - a library call's gemm, decoded ------*- C++ -*-===//
//
// The batched gemm a library::kMatmulFunction descriptor states
// (fuser/Conversion/LibraryCall.h), as both runtimes take it: the CPU
// backend's BLAS calls (LibraryCalls.cpp) and the CUDA backend's cuBLASLt
// calls (CUDALibraryCall.cpp). Batch dims that the rhs broadcasts and that
// continue the lhs's and the result's rows are folded into M, so a linear
// over [B, S, K] is one gemm.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_MATMULDESCRIPTOR_H
#define FUSER_EXECUTIONENGINE_MATMULDESCRIPTOR_H

#include "fuser/Conversion/LibraryCall.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir::fuser::library {

/// One gemm's operands: their offsets in elements and their strides.
struct Gemm {
  int64_t m, n, k;
  int64_t lhs, lhsM, lhsK, rhs, rhsK, rhsN, out, outM, outN;
};

/// A batch dim: its extent and each operand's stride along it.
struct GemmBatchDim {
  int64_t size, lhs, rhs, out;
};

/// The gemm of descriptor `d` and its batch dims, outermost first, with the
/// innermost ones folded into M where the rhs broadcasts them and they
/// continue the lhs's and the result's rows.
inline Gemm decodeMatmul(const int64_t *d,
                         llvm::SmallVectorImpl<GemmBatchDim> &batch) {
  Gemm g{d[M],         d[N],          d[K],          d[LhsOffset],
         d[LhsStrideM], d[LhsStrideK], d[RhsOffset], d[RhsStrideK],
         d[RhsStrideN], d[OutOffset],  d[OutStrideM], d[OutStrideN]};
  batch.clear();
  for (int64_t i = 0; i < d[BatchRank]; ++i) {
    const int64_t *dim = d + FirstBatchDim + i * BatchSlots;
    batch.push_back({dim[BatchSize], dim[BatchLhsStride], dim[BatchRhsStride],
                     dim[BatchOutStride]});
  }
  while (!batch.empty()) {
    const GemmBatchDim &inner = batch.back();
    bool rows = g.m == 1 || (inner.lhs == g.m * g.lhsM &&
                             inner.out == g.m * g.outM);
    if (inner.rhs != 0 || !rows)
      break;
    if (g.m == 1) {
      g.lhsM = inner.lhs;
      g.outM = inner.out;
    }
    g.m *= inner.size;
    batch.pop_back();
  }
  return g;
}

} // namespace mlir::fuser::library

#endif // FUSER_EXECUTIONENGINE_MATMULDESCRIPTOR_H
