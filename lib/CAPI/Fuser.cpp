//===- Fuser.cpp - C API for the fuser dialect, passes and pipelines ------===//

#include "fuser-c/Dialects.h"
#include "fuser-c/Passes.h"

#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/Dialect/Fuser/IR/Fusion.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "fuser/Pipelines/Pipelines.h"
#include "fuser/Registration.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Fuser, fuser, mlir::fuser::FuserDialect)

void fuserRegisterDialects(MlirDialectRegistry registry) {
  fuser::registerFuserDialect(*unwrap(registry));
}

void fuserRegisterPasses(void) { fuser::registerFuserPasses(); }

FuserPresegOptions fuserPresegOptionsGetDefault(void) {
  return FuserPresegOptions{/*foldLossyCastChains=*/false};
}

FuserSegmentOptions fuserSegmentOptionsGetDefault(void) {
  return FuserSegmentOptions{/*preseg=*/false, /*foldLossyCastChains=*/false};
}

void fuserAddPresegPipeline(MlirOpPassManager pm, FuserPresegOptions options) {
  fuser::PresegPipelineOptions cxxOptions;
  cxxOptions.foldLossyCastChains = options.foldLossyCastChains;
  fuser::buildPresegPipeline(*unwrap(pm), cxxOptions);
}

void fuserAddSegmentPipeline(MlirOpPassManager pm,
                             FuserSegmentOptions options) {
  fuser::SegmentPipelineOptions cxxOptions;
  cxxOptions.preseg = options.preseg;
  cxxOptions.foldLossyCastChains = options.foldLossyCastChains;
  fuser::buildSegmentPipeline(*unwrap(pm), cxxOptions);
}

/// Runs what `build` adds on `module`, in a pass manager anchored on it.
static MlirLogicalResult
runOnModule(MlirModule module,
            llvm::function_ref<void(OpPassManager &)> build) {
  ModuleOp op = unwrap(module);
  PassManager pm(op.getContext(), ModuleOp::getOperationName());
  build(pm);
  return wrap(pm.run(op));
}

MlirLogicalResult fuserRunPresegPipeline(MlirModule module,
                                         FuserPresegOptions options) {
  return runOnModule(module, [&](OpPassManager &pm) {
    fuserAddPresegPipeline(wrap(&pm), options);
  });
}

MlirLogicalResult fuserRunSegmentPipeline(MlirModule module,
                                          FuserSegmentOptions options) {
  return runOnModule(module, [&](OpPassManager &pm) {
    fuserAddSegmentPipeline(wrap(&pm), options);
  });
}

MlirLogicalResult fuserPrintSegmentReport(MlirModule module,
                                          MlirStringCallback callback,
                                          void *userData) {
  // fuser-segment-report writes to a file: give it a temporary one.
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("fuser-segment-report", "txt",
                                         path)) {
    unwrap(module).emitError("cannot create a temporary file for the report");
    return mlirLogicalResultFailure();
  }
  fuser::FuserSegmentReportOptions reportOptions;
  reportOptions.output = std::string(path);
  // The report covers the fusions: run it on a copy of the module without
  // the host's other functions.
  OwningOpRef<ModuleOp> fusions = unwrap(module).clone();
  for (Operation &op : llvm::make_early_inc_range(fusions->getOps()))
    if (isa<func::FuncOp>(op) && !fuser::isFusion(&op))
      op.erase();
  MlirLogicalResult result = runOnModule(
      wrap(fusions.get()), [&](OpPassManager &pm) {
        pm.addPass(fuser::createFuserSegmentReport(reportOptions));
      });
  if (mlirLogicalResultIsSuccess(result)) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
        llvm::MemoryBuffer::getFile(path);
    if (text) {
      callback(wrap((*text)->getBuffer()), userData);
    } else {
      unwrap(module).emitError("cannot read the segment report back");
      result = mlirLogicalResultFailure();
    }
  }
  llvm::sys::fs::remove(path);
  return result;
}
