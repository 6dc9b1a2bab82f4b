//===- CPUBackend.cpp - the `cpu` backend ---------------------------------===//
//
// Runs a fusion through the shared kernel lowering (the one the GPU path
// uses) and executes the resulting `scf.parallel` nests on the host with a
// CPUKernelModule (CPUKernelRunner.cpp). A fusion that is not segmented yet
// is segmented first, with `fuser-preseg` and `fuser-segment`, as
// `fuser-opt --fuser-preseg --fuser-segment` would.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CPUBackend.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/Fusion.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "fuser/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// All kernels of a fusion in one JIT-compiled engine.
class CPUCompiledFusion : public CompiledFusion {
public:
  CPUCompiledFusion(func::FuncOp func,
                    std::unique_ptr<CPUKernelModule> kernels)
      : CompiledFusion(func), kernels(std::move(kernels)) {}

private:
  FailureOr<SmallVector<Buffer>>
  runCompiled(ArrayRef<Buffer> inputs) override {
    FailureOr<SmallVector<Buffer>> outputs =
        kernels->run(getFunc().getSymName(), inputs);
    if (failed(outputs) || failed(adoptKernelOutputs(getFunc(), *outputs)))
      return failure();
    return outputs;
  }

  std::unique_ptr<CPUKernelModule> kernels;
};

class CPUBackend : public Backend {
public:
  explicit CPUBackend(const BackendOptions &options)
      : Backend("cpu"), options(options) {}

private:
  FailureOr<std::unique_ptr<CompiledFusion>>
  compileFusion(func::FuncOp func) override {
    FailureOr<OwningOpRef<ModuleOp>> lowered =
        lowerFusionToKernelLoops(func, options);
    if (failed(lowered))
      return failure();
    FailureOr<std::unique_ptr<CPUKernelModule>> kernels =
        CPUKernelModule::compile(**lowered, options);
    if (failed(kernels))
      return failure();
    return std::unique_ptr<CompiledFusion>(
        std::make_unique<CPUCompiledFusion>(func, std::move(*kernels)));
  }

  BackendOptions options;
};
} // namespace

FailureOr<OwningOpRef<ModuleOp>>
mlir::fuser::lowerFusionToKernelLoops(func::FuncOp func,
                                      const BackendOptions &options,
                                      bool checkIndices) {
  // The fusion alone, in a module of its own: the lowering rewrites it.
  MLIRContext *context = func.getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(func.getLoc());
  module->getBody()->push_back(func->clone());

  PassManager pm(context, ModuleOp::getOperationName());
  if (needsSegmentation(func)) {
    buildPresegPipeline(pm, PresegPipelineOptions());
    pm.nest<func::FuncOp>().addPass(createFuserSegment());
  }
  KernelLoopsOptions loops;
  loops.splitReductions = options.splitReductions;
  loops.checkIndices = checkIndices;
  buildLowerToKernelLoopsPipeline(pm, loops);
  if (failed(pm.run(*module)))
    return func.emitError("the CPU backend could not lower '")
           << func.getSymName() << "' to kernel loops";
  return module;
}

std::unique_ptr<Backend>
mlir::fuser::createCPUBackend(const BackendOptions &options) {
  return std::make_unique<CPUBackend>(options);
}
