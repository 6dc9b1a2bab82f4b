//===- MatmulDescriptor.h - a library call's gemm, decoded ------*- C++ -*-===//
//
// The batched gemm a library::kMatmulFunction descriptor states
// (fuser/Conversion/LibraryCall.h), as both runtimes take it: the CPU
// backend's BLAS calls (LibraryCalls.cpp) and the CUDA backend's cuBLASLt
// calls (CUDALibraryCall.cpp). Batch dims that the rhs broadcasts and that
// continue the lhs's and the result's rows are folded into M, so a linear
// over [B, S, K] is one gemm. A library::kGroupedMmFunction descriptor
// is a gemm per group (forEachGroupGemm).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_MATMULDESCRIPTOR_H
#define FUSER_EXECUTIONENGINE_MATMULDESCRIPTOR_H

#include "fuser/Conversion/LibraryCall.h"
#include "fuser/Dialect/Fuser/IR/GroupedMm.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <array>
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

/// A kMatmulFunction descriptor without batch dims.
using GroupGemm = std::array<int64_t, FirstBatchDim>;

/// The grouped_mm that kGroupedMmFunction descriptor `d` states.
inline GroupedMm decodeGroupedMm(const int64_t *d) {
  const int64_t *whole = d + FirstGemmSlot;
  return {GroupedDim(d[GroupedDimension]), d[Groups], whole[M], whole[N],
          whole[K]};
}

/// Calls fn(gemm) with the kMatmulFunction descriptor of each non-empty
/// group of grouped_mm descriptor `d`, its group ends `ends` (G values,
/// `stride` apart, which checkGroupOffsets accepts): the whole gemm
/// narrowed to the group's rows, columns or contraction, then for the rows
/// (columns) past the last offset a gemm with K = 0, which writes zeros and
/// reads no operand.
template <typename Fn>
void forEachGroupGemm(const int64_t *d, const int32_t *ends, int64_t stride,
                      Fn &&fn) {
  const int64_t *whole = d + FirstGemmSlot;
  GroupedMm shape = decodeGroupedMm(d);
  bool rows = shape.grouped == GroupedDim::Rows;
  bool columns = shape.grouped == GroupedDim::Columns;
  bool contraction = shape.grouped == GroupedDim::Contraction;
  // Each operand's stride along the grouped dim (0 where it has none); the
  // group strides are 0 but for the operand with a group dim.
  int64_t lhsAlong = rows          ? whole[LhsStrideM]
                     : contraction ? whole[LhsStrideK]
                                   : 0;
  int64_t rhsAlong = columns       ? whole[RhsStrideN]
                     : contraction ? whole[RhsStrideK]
                                   : 0;
  int64_t outAlong = rows ? whole[OutStrideM] : columns ? whole[OutStrideN] : 0;
  MatmulSlot extent = rows ? M : columns ? N : K;
  auto emit = [&](int64_t group, int64_t start, int64_t end) {
    GroupGemm gemm;
    std::copy(whole, whole + FirstBatchDim, gemm.begin());
    gemm[extent] = end - start;
    gemm[LhsOffset] += start * lhsAlong + group * d[Mat1GroupStride];
    gemm[RhsOffset] += start * rhsAlong + group * d[Mat2GroupStride];
    gemm[OutOffset] += start * outAlong + group * d[OutGroupStride];
    // Past the last offset (group G): zeros, no operand read.
    if (group == shape.groups)
      gemm[K] = gemm[LhsOffset] = gemm[RhsOffset] = 0;
    if (gemm[M] == 0 || gemm[N] == 0)
      return;
    // Dims of one element have stride 0, as the lowering gives them.
    if (gemm[M] == 1)
      gemm[LhsStrideM] = gemm[OutStrideM] = 0;
    if (gemm[N] == 1)
      gemm[RhsStrideN] = gemm[OutStrideN] = 0;
    fn(gemm);
  };
  int64_t start = 0;
  for (int64_t group = 0; group < shape.groups; ++group) {
    int64_t end = ends[group * stride];
    emit(group, start, end);
    start = end;
  }
  if (!contraction && start < shape.getGroupedExtent())
    emit(shape.groups, start, shape.getGroupedExtent());
}

} // namespace mlir::fuser::library

#endif // FUSER_EXECUTIONENGINE_MATMULDESCRIPTOR_H
