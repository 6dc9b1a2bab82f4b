//===- Backend.cpp - the backend interface --------------------------------===//

#include "fuser/ExecutionEngine/Backend.h"
#include "fuser/ExecutionEngine/FloatingPointEnvironment.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>

using namespace mlir;
using namespace mlir::fuser;

CompiledFusion::CompiledFusion(func::FuncOp fusion)
    : module(ModuleOp::create(fusion.getLoc())) {
  func = cast<func::FuncOp>(fusion->clone());
  module->getBody()->push_back(func);
}

// Anchors the vtables in this library.
CompiledFusion::~CompiledFusion() = default;
Backend::~Backend() = default;

FailureOr<SmallVector<Buffer>> CompiledFusion::run(ArrayRef<Buffer> inputs) {
  if (failed(checkBackendInputs(func, inputs)))
    return failure();
  ScopedDefaultFloatingPointEnvironment defaultEnvironment;
  return runCompiled(inputs);
}

FailureOr<std::unique_ptr<CompiledFusion>>
Backend::compile(func::FuncOp func) {
  ScopedDefaultFloatingPointEnvironment defaultEnvironment;
  return compileFusion(func);
}

FailureOr<SmallVector<Buffer>> Backend::run(func::FuncOp func,
                                            ArrayRef<Buffer> inputs) {
  if (failed(checkBackendInputs(func, inputs)))
    return failure();
  FailureOr<std::unique_ptr<CompiledFusion>> compiled = compile(func);
  if (failed(compiled))
    return failure();
  return (*compiled)->run(inputs);
}

LogicalResult mlir::fuser::checkBackendInputs(func::FuncOp func,
                                              ArrayRef<Buffer> inputs) {
  FunctionType type = func.getFunctionType();
  if (inputs.size() != type.getNumInputs())
    return func.emitError("expected ")
           << type.getNumInputs() << " inputs, got " << inputs.size();
  for (auto [i, input, argType] : llvm::enumerate(inputs, type.getInputs()))
    if (input.getType() != argType)
      return func.emitError("input ")
             << i << " has type " << input.getType() << " but argument " << i
             << " has type " << argType;
  return success();
}

uint64_t mlir::fuser::getDefaultMaxTotalBytes() {
  static const uint64_t bytes = [] {
    uint64_t available = UINT64_MAX;
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
      available = uint64_t(pages) * uint64_t(pageSize);
    for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
      struct rlimit limit;
      if (getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        available = std::min<uint64_t>(available, limit.rlim_cur);
    }
    return available / 4 * 3;
  }();
  return bytes;
}

LogicalResult mlir::fuser::reserveRunBytes(Location loc,
                                           const BackendOptions &options,
                                           uint64_t &heldBytes, uint64_t bytes,
                                           const Twine &what, Type type) {
  if (bytes <= options.maxTotalBytes &&
      heldBytes <= options.maxTotalBytes - bytes) {
    heldBytes += bytes;
    return success();
  }
  InFlightDiagnostic diagnostic = emitError(loc);
  diagnostic << what;
  if (type)
    diagnostic << " of type " << type;
  diagnostic << " takes " << formatByteSize(bytes);
  if (heldBytes != 0)
    diagnostic << "; with the " << heldBytes
               << " bytes the run holds already, that is";
  else
    diagnostic << ",";
  diagnostic << " more than the limit of " << options.maxTotalBytes
             << " bytes for all its buffers together (--max-total-bytes)";
  return diagnostic;
}

LogicalResult mlir::fuser::adoptKernelOutputs(func::FuncOp func,
                                              MutableArrayRef<Buffer> outputs) {
  FunctionType type = func.getFunctionType();
  if (outputs.size() != type.getNumResults())
    return func.emitError("the lowered function has ")
           << outputs.size() << " outputs but '" << func.getSymName()
           << "' has " << type.getNumResults() << " results";
  for (auto [i, output, resultType] :
       llvm::enumerate(outputs, type.getResults())) {
    if (!isa<ShapedType>(resultType))
      output.isScalar = output.shape.empty();
    if (output.getType() != resultType)
      return func.emitError("output ")
             << i << " of the lowered function has type " << output.getType()
             << " but result " << i << " has type " << resultType;
  }
  return success();
}
