//===- NormalizationSegments.h - normalization kernels ----------*- C++ -*-===//
//
// The last step of fuser-segment: kernels that together form a
// normalization (a reduction whose result meets the un-reduced rows, or for
// a reduction over outer axes the un-reduced columns, again) become one
// `normalization` segment.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_TRANSFORMS_NORMALIZATIONSEGMENTS_H
#define FUSER_DIALECT_FUSER_TRANSFORMS_NORMALIZATIONSEGMENTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::fuser {

/// Name of the string attribute a reduction segment carries when it would
/// form a normalization with a consumer but its rows (or column blocks)
/// exceed the on-chip budget: the segment report prints it.
constexpr llvm::StringLiteral kNormalizationFallbackAttrName =
    "fuser.normalization_fallback";

/// Merges each reduction (or normalization) segment of the segmented fusion
/// `func` with the kernel segments that read its results, while the merged
/// body is a normalization (analyzeNormalization) whose rows or column
/// blocks fit kNormalizationRowBudgetBytes and no cycle forms. Where the
/// whole kernels do not merge, the reduction moves into its reader, or a
/// pointwise reader's results that depend on it join it, when that moves no
/// more (or, for the split, fewer) bytes; then results of other kernels move
/// into a normalization that can compute them where fewer bytes move.
void formNormalizationSegments(func::FuncOp func);

/// Lists in the dims of each keepdim reduction of `body` the extent-1 axes
/// after its first reduced one: reducing over them too combines the same
/// elements in the same order and keeps the result's shape, and the kernel
/// templates then see one spelling of "the innermost axes" ([0] of 12x1x1
/// reduces rows as [0, 1, 2] does). Canonicalization drops such axes again.
/// (fuser-segment normalizes its input with it; it moves there with the
/// legacy segmenter's removal.)
void listUnitAxesInReducedDims(Block &body);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_TRANSFORMS_NORMALIZATIONSEGMENTS_H
