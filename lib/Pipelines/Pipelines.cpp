//===- Pipelines.cpp - fuser pass pipelines -------------------------------===//

#include "fuser/Pipelines/Pipelines.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::fuser;

void mlir::fuser::buildPresegPipeline(OpPassManager &pm,
                                      const PresegPipelineOptions &options) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  FuserSimplifyOptions simplify;
  simplify.foldLossyCastChains = options.foldLossyCastChains;
  funcPm.addPass(createFuserSimplify(simplify));
  funcPm.addPass(createFuserVerifyFusion());
}

void mlir::fuser::registerFuserPipelines() {
  PassPipelineRegistration<PresegPipelineOptions>(
      "fuser-preseg",
      "Pre-segmentation simplification of fusions to a fixpoint: cast-chain "
      "folding, cast/squeeze/broadcast motion, reshape and permute "
      "composition, set removal, CSE and dead-op removal",
      buildPresegPipeline);
}
