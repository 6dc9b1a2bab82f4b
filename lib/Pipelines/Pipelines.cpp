//===- Pipelines.cpp - fuser pass pipelines -------------------------------===//

#include "fuser/Pipelines/Pipelines.h"
#include "fuser/Conversion/Passes.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

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

void mlir::fuser::buildLowerToKernelLoopsPipeline(
    OpPassManager &pm, const KernelLoopsOptions &options) {
  FuserScheduleOptions schedule;
  schedule.smCount = options.smCount;
  schedule.splitReductions = options.splitReductions;
  pm.nest<func::FuncOp>().addPass(createFuserSchedule(schedule));
  pm.addPass(createConvertFuserToSCF());
  // Shares the index arithmetic of a kernel. (Not canonicalize: it would
  // rewrite the mapped scf.parallel nests and drop their GPU mapping.)
  pm.addPass(createCSEPass());
}

void mlir::fuser::registerFuserPipelines() {
  PassPipelineRegistration<PresegPipelineOptions>(
      "fuser-preseg",
      "Pre-segmentation simplification of fusions to a fixpoint: cast-chain "
      "folding, cast/squeeze/broadcast motion, reshape and permute "
      "composition, set removal, CSE and dead-op removal",
      buildPresegPipeline);
  // The GPU half's own passes, for lit tests of each (registering a pass
  // twice, e.g. again through registerFuserConversionPasses, is harmless).
  registerFuserCheckNVVMLowering();
  registerFuserGPUHostMemory();
  registerFuserGPUPrepareKernels();
  PassPipelineRegistration<LowerToNVVMOptions>(
      "fuser-lower-to-nvvm",
      "Segmented fusions to host functions that launch GPU kernels compiled "
      "for NVIDIA GPUs (gpu.binary: PTX, cubin or fatbin; docs/Lowering.md)",
      buildLowerToNVVMPipeline);
  PassPipelineRegistration<LowerToNVVMOptions>(
      "fuser-kernel-loops-to-nvvm",
      "The GPU half of --fuser-lower-to-nvvm, on host functions whose kernels "
      "are mapped scf.parallel nests (the output of convert-fuser-to-scf)",
      buildKernelLoopsToNVVMPipeline);
}
