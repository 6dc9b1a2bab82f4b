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
    for (RegisteredOperationName op : context->getRegisteredOperationsByDialect(
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
    // then meets its partner) and vice versa: iterate to a fixpoint. A
    // greedy run that stops at its iteration limit has changed the IR and
    // simply gets another round.
    constexpr int kMaxRounds = 16;
    for (int round = 0; round < kMaxRounds; ++round) {
      bool patternsChanged = false;
      (void)applyPatternsGreedily(func, patterns, GreedyRewriteConfig(),
                                  &patternsChanged);
      bool cseChanged = false;
      DominanceInfo dominance(func);
      eliminateCommonSubExpressions(rewriter, dominance, func, &cseChanged);
      if (!patternsChanged && !cseChanged)
        return;
    }
    func.emitWarning() << "fuser-simplify stopped after " << kMaxRounds
                       << " rounds without reaching a fixpoint";
  }

  FrozenRewritePatternSet patterns;
};
} // namespace
