//===- Simplify.cpp - pre-segmentation simplification ---------------------===//

#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERSIMPLIFY
#include "fuser/Dialect/Fuser/Transforms/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

namespace {
struct FuserSimplifyPass
    : public fuser::impl::FuserSimplifyBase<FuserSimplifyPass> {
  using FuserSimplifyBase::FuserSimplifyBase;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    context->getLoadedDialect<FuserDialect>()->getCanonicalizationPatterns(set);
    for (RegisteredOperationName op :
         context->getRegisteredOperationsByDialect(
             FuserDialect::getDialectNamespace()))
      op.getCanonicalizationPatterns(set, context);
    if (foldLossyCastChains)
      populateLossyCastChainFoldPatterns(set);
    patterns = std::move(set);
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    IRRewriter rewriter(func.getContext());
    // CSE can expose new folds (two casts of one value become one, which
    // then meets its partner) and vice versa: iterate to a fixpoint. Each
    // round strictly shrinks or stabilizes the IR, the bound is a safety net.
    constexpr int kMaxRounds = 16;
    for (int round = 0; round < kMaxRounds; ++round) {
      bool converged = false;
      if (failed(applyPatternsGreedily(func, patterns, GreedyRewriteConfig(),
                                       &converged)) &&
          !converged) {
        func.emitError("fuser-simplify did not converge");
        return signalPassFailure();
      }
      bool cseChanged = false;
      eliminateCommonSubExpressions(rewriter, getAnalysis<DominanceInfo>(),
                                    func, &cseChanged);
      if (!cseChanged)
        return;
    }
  }

  FrozenRewritePatternSet patterns;
};
} // namespace
