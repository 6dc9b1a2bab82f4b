//===- FuserFolds.cpp - fuser op folders ----------------------------------===//

#include "fuser/Dialect/Fuser/IR/CastRules.h"
#include "fuser/Dialect/Fuser/IR/ConstantFolding.h"
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

/// cast(c) -> the constant c in the result type, for a scalar constant c
/// (the frontends' promotions cast every literal);
/// cast(cast(x : A -> B) : B -> C) -> cast(x : A -> C), or x when C == A,
/// when A -> B is exact (CastRules.h).
OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult same = foldSameType(getSource(), getResult()))
    return same;
  if (!isa<ShapedType>(getType()))
    if (TypedAttr constant = castScalarConstant(adaptor.getSource(), getType()))
      return constant;
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

/// op(c1, ..., cn) -> the interpreter's result, for scalar constants ci
/// (ConstantFolding.cpp).
#define FUSER_FOLD_CONSTANTS(CLASS, ...)                                       \
  OpFoldResult CLASS::fold(FoldAdaptor adaptor) {                              \
    return foldScalarConstants(*this, adaptor.getOperands());                  \
  }
#define FUSER_UNARY_OP FUSER_FOLD_CONSTANTS
#define FUSER_BINARY_OP FUSER_FOLD_CONSTANTS
#define FUSER_TERNARY_OP FUSER_FOLD_CONSTANTS
#define FUSER_COMPARE_OP FUSER_FOLD_CONSTANTS
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
#undef FUSER_FOLD_CONSTANTS
