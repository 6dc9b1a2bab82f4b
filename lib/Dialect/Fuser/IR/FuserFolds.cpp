//===- FuserFolds.cpp - fuser op folders ----------------------------------===//

#include "fuser/Dialect/Fuser/IR/FuserOps.h"

using namespace mlir;
using namespace mlir::fuser;

/// A meta op or cast whose result type equals its source type is the
/// identity: a view to the same shape, a cast to the same type, an expand
/// that expands nothing, a squeeze or broadcast of no dims.
static OpFoldResult foldSameType(Value source, Value result) {
  return source.getType() == result.getType() ? source : Value();
}

OpFoldResult ViewOp::fold(FoldAdaptor) {
  return foldSameType(getSource(), getResult());
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  return foldSameType(getSource(), getResult());
}

OpFoldResult ExpandOp::fold(FoldAdaptor) {
  return foldSameType(getSource(), getResult());
}

OpFoldResult SqueezeOp::fold(FoldAdaptor) {
  return getDims().empty() ? getSource() : Value();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  return getDims().empty() ? getSource() : Value();
}

OpFoldResult PermuteOp::fold(FoldAdaptor) {
  for (auto [i, p] : llvm::enumerate(getPermutation()))
    if (p != static_cast<int64_t>(i))
      return {};
  return getSource();
}
