//===- FuserFolds.cpp - fuser op folders ----------------------------------===//

#include "fuser/Dialect/Fuser/IR/CastRules.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"

using namespace mlir;
using namespace mlir::fuser;

/// A meta op or cast whose result type equals its source type is the
/// identity: a view to the same shape, a cast to the same type, an expand
/// that expands nothing, a squeeze or broadcast of no dims, a slice that
/// keeps everything (same sizes force start 0 and stride 1), a pad of
/// nothing, a cat of one tensor.
static OpFoldResult foldSameType(Value source, Value result) {
  return source.getType() == result.getType() ? source : Value();
}

OpFoldResult ViewOp::fold(FoldAdaptor) {
  return foldSameType(getSource(), getResult());
}

/// cast(cast(x : A -> B) : B -> C) -> cast(x : A -> C), or x when C == A,
/// when A -> B is exact (CastRules.h).
OpFoldResult CastOp::fold(FoldAdaptor) {
  if (OpFoldResult same = foldSameType(getSource(), getResult()))
    return same;
  auto inner = getSource().getDefiningOp<CastOp>();
  if (!inner || !isExactCast(getElementTypeOrSelf(inner.getSource()),
                             getElementTypeOrSelf(inner.getResult())))
    return {};
  if (inner.getSource().getType() == getType())
    return inner.getSource();
  getSourceMutable().assign(inner.getSource());
  return getResult();
}

OpFoldResult ExpandOp::fold(FoldAdaptor) {
  return foldSameType(getSource(), getResult());
}

OpFoldResult SqueezeOp::fold(FoldAdaptor) {
  return foldSameType(getSource(), getResult());
}

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  return foldSameType(getSource(), getResult());
}

OpFoldResult PermuteOp::fold(FoldAdaptor) {
  for (auto [i, p] : llvm::enumerate(getPermutation()))
    if (p != static_cast<int64_t>(i))
      return {};
  return getSource();
}

OpFoldResult SliceOp::fold(FoldAdaptor) {
  return foldSameType(getSource(), getResult());
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  return foldSameType(getSource(), getResult());
}

OpFoldResult CatOp::fold(FoldAdaptor) {
  if (getInputs().size() != 1)
    return {};
  return foldSameType(getInputs().front(), getResult());
}
