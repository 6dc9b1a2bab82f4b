//===- Pipelines.cpp - fuser pass pipelines -------------------------------===//

#include "fuser/Pipelines/Pipelines.h"
#include "fuser/Conversion/Passes.h"
#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Dialect/Fuser/IR/Fusion.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {
/// Runs `fusionPm` (anchored on func.func) on the function it is scheduled on
/// if that is a fusion (isFusion); other functions are left alone.
struct OnFusionsPass
    : public PassWrapper<OnFusionsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OnFusionsPass)

  OnFusionsPass() : fusionPm(func::FuncOp::getOperationName()) {}
  OnFusionsPass(const OnFusionsPass &other)
      : PassWrapper(other), fusionPm(other.fusionPm) {}

  StringRef getArgument() const override { return "fuser-on-fusions"; }
  StringRef getDescription() const override {
    return "Runs a func.func pipeline on the fusions of a module only";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    fusionPm.getDependentDialects(registry);
  }
  void runOnOperation() override {
    if (!isFusion(getOperation()))
      return markAllAnalysesPreserved();
    if (failed(runPipeline(fusionPm, getOperation())))
      signalPassFailure();
  }

  OpPassManager fusionPm;
};

/// The segmentation contract: every tensor of the fusion is computed inside
/// a fuser.segment (what the segment report and the lowering expect).
struct VerifySegmentationPass
    : public PassWrapper<VerifySegmentationPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VerifySegmentationPass)

  StringRef getArgument() const override {
    return "fuser-verify-segmentation";
  }
  StringRef getDescription() const override {
    return "Checks that every tensor of a fusion is computed in a segment";
  }
  void runOnOperation() override {
    if (failed(FusionTraffic(getOperation()).emitUnsegmentedError()))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

/// The pass manager, nested on every func.func of `pm`, whose passes run on
/// the fusions only.
OpPassManager &nestOnFusions(OpPassManager &pm) {
  auto onFusions = std::make_unique<OnFusionsPass>();
  OpPassManager &fusionPm = onFusions->fusionPm;
  pm.nest<func::FuncOp>().addPass(std::move(onFusions));
  return fusionPm;
}

void addPresegPasses(OpPassManager &funcPm,
                     const PresegPipelineOptions &options) {
  FuserSimplifyOptions simplify;
  simplify.foldLossyCastChains = options.foldLossyCastChains;
  funcPm.addPass(createFuserSimplify(simplify));
  funcPm.addPass(createFuserVerifyFusion());
}
} // namespace

void mlir::fuser::buildSegmentPipeline(OpPassManager &pm,
                                       const SegmentPipelineOptions &options) {
  OpPassManager &funcPm = nestOnFusions(pm);
  if (options.preseg) {
    PresegPipelineOptions preseg;
    preseg.foldLossyCastChains = options.foldLossyCastChains;
    addPresegPasses(funcPm, preseg);
  }
  funcPm.addPass(createFuserSegment());
  funcPm.addPass(createFuserVerifyFusion());
  funcPm.addPass(std::make_unique<VerifySegmentationPass>());
}

void mlir::fuser::buildPresegPipeline(OpPassManager &pm,
                                      const PresegPipelineOptions &options) {
  addPresegPasses(nestOnFusions(pm), options);
}

void mlir::fuser::buildLowerToKernelLoopsPipeline(
    OpPassManager &pm, const KernelLoopsOptions &options) {
  FuserScheduleOptions schedule;
  schedule.smCount = options.schedule.smCount;
  schedule.accessBytes = options.schedule.accessBytes;
  schedule.maxRowThreads = options.schedule.maxRowThreads;
  schedule.accumulators = options.schedule.accumulators;
  schedule.registerBytes = options.schedule.registerBytes;
  schedule.splitReductions = options.splitReductions;
  pm.nest<func::FuncOp>().addPass(createFuserSchedule(schedule));
  ConvertFuserToSCFOptions toSCF;
  toSCF.checkIndices = options.checkIndices;
  pm.addPass(createConvertFuserToSCF(toSCF));
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
  PassPipelineRegistration<SegmentPipelineOptions>(
      "fuser-segment-pipeline",
      "fuser-segment on every fusion of the module (optionally after "
      "fuser-preseg), then the segmentation contract check; functions that "
      "are not fusions are left alone",
      buildSegmentPipeline);
  // The GPU half's own passes, for lit tests of each (registering a pass
  // twice, e.g. again through registerFuserConversionPasses, is harmless).
  registerFuserCheckNVVMLowering();
  registerFuserGPUHostMemory();
  registerFuserGPUSinkScalars();
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
