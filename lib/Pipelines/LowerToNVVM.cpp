//===- LowerToNVVM.cpp - the --fuser-lower-to-nvvm pipeline ---------------===//
//
// Segmented fusions -> host functions + gpu.binary kernels. The front half
// (fuser-schedule, convert-fuser-to-scf) is shared with the CPU backend; the
// GPU half below turns the mapped scf.parallel nests into outlined kernels
// and compiles them with LLVM's NVPTX backend and ptxas. docs/Lowering.md,
// "GPU path", lists the passes and why each is there.
//
//===----------------------------------------------------------------------===//

#include "fuser/Conversion/Passes.h"
#include "fuser/Pipelines/Pipelines.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {

void addCheckPass(OpPassManager &pm, const LowerToNVVMOptions &options,
                  bool kernelLoops) {
  FuserCheckNVVMLoweringOptions check;
  check.chip = options.chip;
  check.features = options.features;
  check.format = options.format;
  check.optLevel = options.optLevel;
  check.toolkit = options.toolkit;
  check.kernelLoops = kernelLoops;
  pm.addPass(createFuserCheckNVVMLowering(check));
}

/// The GPU half without its check.
void addKernelLoopsToNVVMPasses(OpPassManager &pm,
                                const LowerToNVVMOptions &options) {
  // Host functions: device buffers and copies, then each mapped
  // scf.parallel nest becomes a gpu.launch, outlined into a gpu.module.
  pm.addPass(createFuserGPUHostMemory());
  OpPassManager &hostPm = pm.nest<func::FuncOp>();
  hostPm.addPass(createConvertParallelLoopToGpuPass());
  hostPm.addPass(createGpuLaunchSinkIndexComputationsPass());
  hostPm.addPass(createFuserGPUSinkScalars());
  pm.addPass(createGpuKernelOutliningPass());
  // Launch bounds come out as affine.apply on constants: fold them so the
  // host function shows the launch geometry.
  pm.addPass(createLowerAffinePass());
  OpPassManager &hostFoldPm = pm.nest<func::FuncOp>();
  hostFoldPm.addPass(createCanonicalizerPass());
  hostFoldPm.addPass(createCSEPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  // Kernels: noalias/readonly inputs, uniform block reductions, subgroup
  // reductions as shuffles; then to the NVVM dialect.
  OpPassManager &kernelPm = pm.nest<gpu::GPUModuleOp>();
  kernelPm.addPass(createFuserGPUPrepareKernels());
  kernelPm.addPass(memref::createExpandStridedMetadataPass());
  kernelPm.addPass(createLowerAffinePass());
  kernelPm.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.useBarePtrCallConv = true;
  kernelPm.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  // The math ops convert-gpu-to-nvvm has no libdevice call for (math.trunc:
  // fuser.trunc and fuser.frac) become LLVM intrinsics, which NVPTX selects
  // (cvt.rzi).
  kernelPm.addPass(createConvertMathToLLVMPass());
  kernelPm.addPass(createCanonicalizerPass());
  kernelPm.addPass(createCSEPass());
  kernelPm.addPass(createReconcileUnrealizedCastsPass());

  // The SIMT emulator reports the source location of a faulting access:
  // line tables for the offload bitcode it runs (not for PTX, where they
  // would change what ptxas gets).
  if (options.format == "llvm")
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass());

  GpuModuleToBinaryPassOptions toBinary;
  toBinary.toolkitPath = options.toolkit;
  toBinary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(toBinary));
}

} // namespace

void mlir::fuser::buildKernelLoopsToNVVMPipeline(
    OpPassManager &pm, const LowerToNVVMOptions &options) {
  addCheckPass(pm, options, /*kernelLoops=*/true);
  addKernelLoopsToNVVMPasses(pm, options);
}

void mlir::fuser::registerLowerToNVVMDependencies(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

void mlir::fuser::buildLowerToNVVMPipeline(OpPassManager &pm,
                                           const LowerToNVVMOptions &options) {
  addCheckPass(pm, options, /*kernelLoops=*/false);
  buildLowerToKernelLoopsPipeline(pm);
  addKernelLoopsToNVVMPasses(pm, options);
}
