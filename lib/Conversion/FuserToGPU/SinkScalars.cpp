//===- SinkScalars.cpp - a launch's scalar operands computed in its kernel -===//
//
// fuser-gpu-sink-scalars (Passes.td): the kernel recomputes, per thread,
// the few scalar ops between the host function's arguments and a launch,
// which costs nothing next to a load and leaves the host function to
// buffers, copies and launches.
//
//===----------------------------------------------------------------------===//

#include "fuser/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERGPUSINKSCALARS
#include "fuser/Conversion/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

/// Side-effect free, without regions, and on scalars only.
static bool isScalarComputation(Operation *op) {
  auto isScalar = [](Type type) { return type.isIntOrIndexOrFloat(); };
  return isMemoryEffectFree(op) && op->getNumRegions() == 0 &&
         op->getNumResults() != 0 &&
         llvm::all_of(op->getOperandTypes(), isScalar) &&
         llvm::all_of(op->getResultTypes(), isScalar);
}

/// Clones into `launch` the scalar computations of the values it reads from
/// above, back to values that are not one (arguments, loads), which the
/// kernel then reads instead. (MLIR's sinkOperationsIntoLaunchOp sinks only
/// ops whose operands the launch already reads or can sink too, which
/// keeps `offset + 1` of an argument `offset` on the host.)
static void sinkScalarComputations(gpu::LaunchOp launch) {
  Region &body = launch.getBody();
  SetVector<Value> above;
  getUsedValuesDefinedAbove(body, above);
  IRMapping mapping;
  OpBuilder builder = OpBuilder::atBlockBegin(&body.front());
  std::function<Value(Value)> sink = [&](Value value) -> Value {
    if (Value sunk = mapping.lookupOrNull(value))
      return sunk;
    Operation *def = value.getDefiningOp();
    if (!def || !isScalarComputation(def))
      return value;
    for (Value operand : def->getOperands())
      sink(operand);
    builder.clone(*def, mapping);
    return mapping.lookup(value);
  };
  for (Value value : above)
    if (Value sunk = sink(value); sunk != value)
      replaceAllUsesInRegionWith(value, sunk, body);
}

namespace {
struct FuserGPUSinkScalarsPass
    : public fuser::impl::FuserGPUSinkScalarsBase<FuserGPUSinkScalarsPass> {
  void runOnOperation() override {
    getOperation().walk(sinkScalarComputations);
  }
};
} // namespace
