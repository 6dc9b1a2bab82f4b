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
#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "fuser/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {

class CPUBackend : public Backend {
public:
  explicit CPUBackend(const BackendOptions &options)
      : Backend("cpu"), options(options) {}

private:
  FailureOr<SmallVector<Buffer>> runFusion(func::FuncOp func,
                                           ArrayRef<Buffer> inputs) override;

  BackendOptions options;
};

FailureOr<SmallVector<Buffer>> CPUBackend::runFusion(func::FuncOp func,
                                                     ArrayRef<Buffer> inputs) {
  if (failed(checkBackendInputs(func, inputs)))
    return failure();

  FailureOr<OwningOpRef<ModuleOp>> lowered =
      lowerFusionToKernelLoops(func, options);
  if (failed(lowered))
    return failure();
  OwningOpRef<ModuleOp> module = std::move(*lowered);

  // One compiled module per run: all kernels of the fusion in one engine.
  FailureOr<std::unique_ptr<CPUKernelModule>> compiled =
      CPUKernelModule::compile(*module, options);
  if (failed(compiled))
    return failure();
  FailureOr<SmallVector<Buffer>> outputs =
      (*compiled)->run(func.getSymName(), inputs);
  if (failed(outputs))
    return failure();

  if (failed(adoptKernelOutputs(func, *outputs)))
    return failure();
  return outputs;
}
} // namespace

FailureOr<OwningOpRef<ModuleOp>>
mlir::fuser::lowerFusionToKernelLoops(func::FuncOp func,
                                      const BackendOptions &options) {
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
