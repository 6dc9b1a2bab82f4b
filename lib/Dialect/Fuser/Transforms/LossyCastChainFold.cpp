//===- LossyCastChainFold.cpp - nvFuser's cast-chain rule -----------------===//
//
// The opt-in `fold-lossy-cast-chains` rule of `fuser-preseg`: nvFuser's
// ConsecutiveCastPass (csrc/preseg_passes/consecutive_cast.cpp), applied to
// each maximal straight chain of casts (foldCastChainLossy, CastRules.h).
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/CastRules.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// The single user of `value` when it is a cast, else null.
CastOp getOnlyCastUser(Value value) {
  return value.hasOneUse() ? dyn_cast<CastOp>(*value.getUsers().begin())
                           : CastOp();
}

/// `type` (a tensor or a scalar) with element type `elementType`.
Type withElementType(Type type, Type elementType) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(elementType);
  return elementType;
}

/// Rewires the chain of casts that ends at `cast` as nvFuser does. Like
/// nvFuser's `removeChainedCasts`, the chain extends upward through casts
/// whose result has no other use (a returned intermediate is a use, so it
/// stops the chain), and the rule runs from the chain's last cast: a cast
/// whose only user is a cast is left to that user.
struct FoldCastChainLikeNvFuser : public OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(CastOp cast,
                                PatternRewriter &rewriter) const override {
    if (getOnlyCastUser(cast.getResult()))
      return failure();
    // 1.2: collect the chain, earliest cast first.
    SmallVector<CastOp> chain = {cast};
    for (auto prev = cast.getSource().getDefiningOp<CastOp>();
         prev && prev.getResult().hasOneUse();
         prev = prev.getSource().getDefiningOp<CastOp>())
      chain.push_back(prev);
    if (chain.size() < 2)
      return failure();
    std::reverse(chain.begin(), chain.end());

    Value start = chain.front().getSource();
    SmallVector<Type> types = {getElementTypeOrSelf(start)};
    for (CastOp op : chain)
      types.push_back(getElementTypeOrSelf(op.getResult()));
    SmallVector<Type> kept = foldCastChainLossy(types);
    // The kept types are a subsequence of the chain's: same length, same
    // chain.
    if (kept.size() == types.size())
      return failure();

    Value value = start;
    for (Type elementType : ArrayRef<Type>(kept).drop_front())
      value =
          CastOp::create(rewriter, cast.getLoc(),
                         withElementType(start.getType(), elementType), value);
    rewriter.replaceOp(cast, value);
    return success();
  }
};
} // namespace

void mlir::fuser::populateLossyCastChainFoldPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FoldCastChainLikeNvFuser>(patterns.getContext());
}
