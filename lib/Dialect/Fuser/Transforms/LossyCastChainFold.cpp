//===- LossyCastChainFold.cpp - nvFuser's cast-chain rule -----------------===//

#include "fuser/Dialect/Fuser/IR/CastRules.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {
/// cast(cast(x : A -> B) : B -> C) -> cast(x : A -> C) when B is at least as
/// wide as A and C. Unlike the exact folder this drops a rounding step when
/// A -> B is inexact (e.g. i64 -> f64 -> i32), which is why it is opt-in.
struct FoldWideIntermediateCast : public OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(CastOp cast,
                                PatternRewriter &rewriter) const override {
    auto inner = cast.getSource().getDefiningOp<CastOp>();
    if (!inner || !isWideIntermediate(getElementTypeOrSelf(inner.getSource()),
                                      getElementTypeOrSelf(inner.getResult()),
                                      getElementTypeOrSelf(cast.getResult())))
      return failure();
    if (inner.getSource().getType() == cast.getType())
      rewriter.replaceOp(cast, inner.getSource());
    else
      rewriter.replaceOpWithNewOp<CastOp>(cast, cast.getType(),
                                          inner.getSource());
    return success();
  }
};
} // namespace

void mlir::fuser::populateLossyCastChainFoldPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FoldWideIntermediateCast>(patterns.getContext());
}
