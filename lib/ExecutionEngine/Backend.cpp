//===- Backend.cpp - the backend interface --------------------------------===//

#include "fuser/ExecutionEngine/Backend.h"
#include "fuser/ExecutionEngine/FloatingPointEnvironment.h"

using namespace mlir;
using namespace mlir::fuser;

// Anchors the vtable in this library.
Backend::~Backend() = default;

FailureOr<SmallVector<Buffer>> Backend::run(func::FuncOp func,
                                            ArrayRef<Buffer> inputs) {
  ScopedDefaultFloatingPointEnvironment defaultEnvironment;
  return runFusion(func, inputs);
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
