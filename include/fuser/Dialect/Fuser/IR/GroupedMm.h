//===- GroupedMm.h - the gemms of a fuser.grouped_mm ------------*- C++ -*-===//
//
// fuser.grouped_mm as one statement: G gemms over one grouped dim (rows,
// columns or the contraction) split by cumulative offsets, and the rule
// those offsets obey. The interpreter, the flop count, the CPU lowering and
// its runtime read it; type inference (FuserOps.cpp) checks the shapes.
// Header-only but for getGroupedMm, so that the runtime, which links no
// dialect, checks offsets with the interpreter's rule and words.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_GROUPEDMM_H
#define FUSER_DIALECT_FUSER_IR_GROUPEDMM_H

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::fuser {

/// The dim the offsets split, by the operands' ranks.
enum class GroupedDim : int64_t {
  /// [M, K] x [G, K, N] -> [M, N]: group g's rows use mat2[g].
  Rows = 0,
  /// [G, M, K] x [K, N] -> [M, N]: group g's columns use mat1[g].
  Columns = 1,
  /// [M, K] x [K, N] -> [G, M, N]: result[g] sums group g's k.
  Contraction = 2,
};

struct GroupedMm {
  GroupedDim grouped;
  /// G, and the extents of the whole operands' m, n and k.
  int64_t groups, m, n, k;

  /// The extent the offsets split.
  int64_t getGroupedExtent() const {
    return grouped == GroupedDim::Rows      ? m
           : grouped == GroupedDim::Columns ? n
                                            : k;
  }
};

/// The grouped gemm of a fuser.grouped_mm; `op` must be one.
GroupedMm getGroupedMm(Operation *op);

/// Why `offsets` (G values, `stride` apart) break the rule that each lies
/// in [previous, extent] (group 0's previous being 0), naming the first
/// that does; nullopt when all hold.
inline std::optional<std::string>
checkGroupOffsets(const int32_t *offsets, int64_t stride, int64_t groups,
                  int64_t extent) {
  int64_t previous = 0;
  for (int64_t g = 0; g < groups; ++g) {
    int64_t offset = offsets[g * stride];
    std::string at = "grouped_mm's offsets[" + std::to_string(g) +
                     "] = " + std::to_string(offset);
    if (offset < 0)
      return at + " is negative";
    if (offset > extent)
      return at + " is past the grouped dim's extent " +
             std::to_string(extent);
    if (offset < previous)
      return at + " is less than offsets[" + std::to_string(g - 1) +
             "] = " + std::to_string(previous) + ": offsets must not decrease";
    previous = offset;
  }
  return std::nullopt;
}

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_IR_GROUPEDMM_H
