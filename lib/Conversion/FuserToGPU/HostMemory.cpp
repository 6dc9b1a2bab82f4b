//===- HostMemory.cpp - host buffers and copies to the gpu dialect --------===//
//
// `fuser-gpu-host-memory`: in a host function, intermediates become device
// allocations and output copies device-to-device copies (a `gpu.memcpy`
// between identity-layout memrefs, a small copy kernel otherwise, since a
// flat memcpy cannot read a strided view).
//
//===----------------------------------------------------------------------===//

#include "fuser/Conversion/FuserToGPU/CopyKernel.h"
#include "fuser/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERGPUHOSTMEMORY
#include "fuser/Conversion/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// Host code: not inside a kernel nest (or an already formed launch).
bool isHostLevel(Operation *op) {
  return !op->getParentOfType<scf::ParallelOp>() &&
         !op->getParentOfType<gpu::LaunchOp>();
}

/// A block of a normalization kernel runs several thread loops in turn.
/// convert-parallel-loops-to-gpu takes a processor's launch bound from one
/// loop only ("cannot redefine the bound"): the later loops, which must have
/// the first one's trip count, keep their processor without a bound.
LogicalResult unboundLaterThreadLoops(func::FuncOp func) {
  WalkResult result = func.walk([&](scf::ParallelOp blockLoop) {
    if (blockLoop->getParentOfType<scf::ParallelOp>())
      return WalkResult::advance();
    std::optional<int64_t> tripCount;
    for (auto threadLoop : blockLoop.getBody()->getOps<scf::ParallelOp>()) {
      auto mapping =
          threadLoop->getAttrOfType<ArrayAttr>(gpu::getMappingAttrName());
      std::optional<int64_t> lower, upper, step, count;
      if (threadLoop.getNumLoops() == 1) {
        lower = getConstantIntValue(threadLoop.getLowerBound()[0]);
        upper = getConstantIntValue(threadLoop.getUpperBound()[0]);
        step = getConstantIntValue(threadLoop.getStep()[0]);
      }
      if (lower && upper && step && *step > 0)
        count = llvm::divideCeil(*upper - *lower, *step);
      if (!mapping || !count) {
        threadLoop.emitError("a thread loop of a block needs one constant "
                             "trip count and a mapping");
        return WalkResult::interrupt();
      }
      if (!tripCount) {
        tripCount = *count;
        continue;
      }
      if (*count != *tripCount) {
        threadLoop.emitError("thread loops of one block run ")
            << *tripCount << " and " << *count
            << " threads; a launch has one block size";
        return WalkResult::interrupt();
      }
      auto dim = cast<gpu::ParallelLoopDimMappingAttr>(mapping[0]);
      threadLoop->setAttr(
          gpu::getMappingAttrName(),
          ArrayAttr::get(func.getContext(),
                         {gpu::ParallelLoopDimMappingAttr::get(
                             func.getContext(), dim.getProcessor(),
                             dim.getMap(), AffineMap())}));
    }
    return WalkResult::skip();
  });
  return failure(result.wasInterrupted());
}

/// Whether `op` or an op in its regions may write memory (an op that says
/// nothing of its effects may).
bool mayWrite(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(nested))
      return effects.hasEffect<MemoryEffects::Write>() ? WalkResult::interrupt()
                                                       : WalkResult::advance();
    return nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  return result.wasInterrupted();
}

/// convert-parallel-loops-to-gpu refuses a block in which a thread loop
/// writes memory and another thread loop follows (a row reduction that also
/// stores a pointwise output, then its thread-0 store): it left such blocks
/// on the host. A write nested in a one-trip `scf.for` passes its check, so
/// the writes of every thread loop but a block's last are wrapped in one.
void scopeEarlierThreadLoopWrites(func::FuncOp func) {
  for (auto blockLoop : func.getBody().getOps<scf::ParallelOp>()) {
    SmallVector<scf::ParallelOp> threadLoops(
        blockLoop.getBody()->getOps<scf::ParallelOp>());
    if (threadLoops.size() < 2)
      continue;
    for (scf::ParallelOp threadLoop : ArrayRef(threadLoops).drop_back()) {
      SmallVector<Operation *> writes;
      for (Operation &op : threadLoop.getBody()->without_terminator())
        if (op.getNumResults() == 0 && mayWrite(&op))
          writes.push_back(&op);
      for (Operation *op : writes) {
        OpBuilder b(op);
        Value zero = arith::ConstantIndexOp::create(b, op->getLoc(), 0);
        Value one = arith::ConstantIndexOp::create(b, op->getLoc(), 1);
        auto once = scf::ForOp::create(b, op->getLoc(), zero, one, one);
        op->moveBefore(once.getBody()->getTerminator());
      }
    }
  }
}

/// Whether `value` is computed on the host from constants alone, by ops
/// without memory effects (a fusion's scalar constant cast to complex is a
/// complex.create of two constants).
bool isConstantComputation(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op || !isHostLevel(op) || op->getNumRegions() || !isPure(op))
    return false;
  return llvm::all_of(op->getOperands(), isConstantComputation);
}

/// Recomputes inside each kernel nest the host values it uses that come from
/// constants alone. Each would otherwise be a kernel argument, and the
/// launch plan passes scalars of at most 8 bytes (not complex<f64>), while
/// gpu-launch-sink-index-computations sinks constants but not what they
/// compute.
void sinkConstantComputations(func::FuncOp func) {
  for (auto nest : func.getBody().getOps<scf::ParallelOp>()) {
    llvm::SetVector<Value> used;
    getUsedValuesDefinedAbove(nest.getRegion(), used);
    OpBuilder b = OpBuilder::atBlockBegin(nest.getBody());
    IRMapping mapping;
    std::function<Value(Value)> recompute = [&](Value value) -> Value {
      if (Value mapped = mapping.lookupOrNull(value))
        return mapped;
      Operation *op = value.getDefiningOp();
      for (Value operand : op->getOperands())
        recompute(operand);
      Operation *clone = b.clone(*op, mapping);
      return clone->getResult(cast<OpResult>(value).getResultNumber());
    };
    for (Value value : used) {
      if (isa<IndexType>(value.getType()) || !isConstantComputation(value) ||
          value.getDefiningOp()->hasTrait<OpTrait::ConstantLike>())
        continue;
      Value inside = recompute(value);
      replaceAllUsesInRegionWith(value, inside, nest.getRegion());
    }
  }
}

LogicalResult convertHostMemory(func::FuncOp func) {
  // Every kernel nest must be mapped, or convert-parallel-loops-to-gpu
  // silently leaves it on the host (canonicalization that merges nested
  // scf.parallel loops drops the mapping, for example).
  bool unmapped = false;
  func.walk([&](scf::ParallelOp loop) {
    if (loop->getParentOfType<scf::ParallelOp>() ||
        loop->hasAttr(gpu::getMappingAttrName()))
      return;
    loop.emitError() << "kernel nest without a `" << gpu::getMappingAttrName()
                     << "` (#gpu.loop_dim_map) attribute: it would stay on "
                        "the host";
    unmapped = true;
  });
  if (unmapped)
    return failure();
  if (failed(unboundLaterThreadLoops(func)))
    return failure();
  scopeEarlierThreadLoopWrites(func);
  sinkConstantComputations(func);
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp>(op) &&
        isHostLevel(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      auto gpuAlloc = gpu::AllocOp::create(
          b, loc, alloc.getType(), /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
          alloc.getSymbolOperands(), /*hostShared=*/false);
      alloc.replaceAllUsesWith(gpuAlloc.getMemref());
      alloc.erase();
    } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(),
                             dealloc.getMemref());
      dealloc.erase();
    } else {
      auto copy = cast<memref::CopyOp>(op);
      auto srcType = cast<MemRefType>(copy.getSource().getType());
      auto dstType = cast<MemRefType>(copy.getTarget().getType());
      // A copy of no elements copies nothing (a copy kernel of it would
      // launch no block, and take a memref with a zero extent, which the
      // bare-pointer convention refuses).
      if (srcType.hasStaticShape() && srcType.getNumElements() == 0) {
        copy.erase();
      } else if (srcType.getLayout().isIdentity() &&
                 dstType.getLayout().isIdentity()) {
        gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(),
                              copy.getTarget(), copy.getSource());
        copy.erase();
      } else if (failed(replaceWithCopyKernel(copy))) {
        return failure();
      }
    }
  }
  return success();
}

// A module pass: tiled copy kernels declare workgroup buffers in the
// module, which a pass on each function could not do safely in parallel.
struct FuserGPUHostMemoryPass
    : public fuser::impl::FuserGPUHostMemoryBase<FuserGPUHostMemoryPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(convertHostMemory(func)))
        signalPassFailure();
  }
};

} // namespace
