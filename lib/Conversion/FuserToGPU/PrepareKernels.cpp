//===- PrepareKernels.cpp - ready outlined kernels for NVVM ---------------===//
//
// `fuser-gpu-prepare-kernels`: what `convert-gpu-to-nvvm` needs or misses on
// the kernels that `gpu-kernel-outlining` made from the scf.parallel nests.
//
//===----------------------------------------------------------------------===//

#include "fuser/Conversion/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERGPUPREPAREKERNELS
#include "fuser/Conversion/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// Lanes per warp on NVIDIA GPUs.
constexpr unsigned kWarpSize = 32;

/// Whether the memref `arg` is only read: every use, through ops that make
/// new memrefs from it (views, casts), is an op whose only memory effects on
/// it are reads. Anything unknown (calls, terminators passing it on, ops
/// with regions, ops without declared effects) counts as a write.
bool isOnlyRead(Value arg) {
  SmallVector<Value> worklist = {arg};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (Operation *user : value.getUsers()) {
      if (user->hasTrait<OpTrait::IsTerminator>() || user->getNumRegions())
        return false;
      auto effectsOp = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effectsOp)
        return false;
      SmallVector<MemoryEffects::EffectInstance> effects;
      effectsOp.getEffects(effects);
      for (const MemoryEffects::EffectInstance &effect : effects) {
        if (isa<MemoryEffects::Read>(effect.getEffect()))
          continue;
        // A write (or free, alloc) of this value or of unknown memory.
        if (!effect.getValue() || effect.getValue() == value)
          return false;
      }
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType()))
          worklist.push_back(result);
    }
  }
  return true;
}

/// Whether every thread of the block reaches `op`: it sits in the kernel's
/// entry block, possibly inside `scf.for` loops with constant bounds.
bool isReachedByAllThreads(Operation *op, gpu::GPUFuncOp func) {
  Operation *current = op;
  while (true) {
    Operation *parent = current->getParentOp();
    if (parent == func.getOperation())
      return current->getBlock() == &func.getBody().front();
    auto loop = dyn_cast<scf::ForOp>(parent);
    if (!loop || !matchPattern(loop.getLowerBound(), m_Constant()) ||
        !matchPattern(loop.getUpperBound(), m_Constant()) ||
        !matchPattern(loop.getStep(), m_Constant()))
      return false;
    current = parent;
  }
}

struct FuserGPUPrepareKernelsPass
    : public fuser::impl::FuserGPUPrepareKernelsBase<
          FuserGPUPrepareKernelsPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    bool failed = false;
    for (auto func : module.getOps<gpu::GPUFuncOp>()) {
      if (!func.isKernel())
        continue;
      for (BlockArgument arg : func.getArguments()) {
        if (!isa<MemRefType>(arg.getType()) || arg.use_empty() ||
            !isOnlyRead(arg))
          continue;
        func.setArgAttr(arg.getArgNumber(),
                        LLVM::LLVMDialect::getNoAliasAttrName(),
                        UnitAttr::get(ctx));
        func.setArgAttr(arg.getArgNumber(),
                        LLVM::LLVMDialect::getReadonlyAttrName(),
                        UnitAttr::get(ctx));
      }
      func.walk([&](gpu::AllReduceOp reduce) {
        if (reduce.getUniform())
          return;
        if (!isReachedByAllThreads(reduce, func)) {
          reduce.emitError()
              << "a block-wide reduction under thread-dependent control flow "
                 "(all threads of the block must reach it; give the "
                 "reducing scf.parallel the block's full thread extent)";
          failed = true;
          return;
        }
        reduce.setUniform(true);
      });
    }
    if (failed)
      return signalPassFailure();

    // libdevice's __nv_sqrtf, what convert-gpu-to-nvvm makes of math.sqrt
    // (and of llvm.intr.sqrt), is sqrt.approx.f32; the fuser ops promise a
    // correctly rounded square root (and so 1 / sqrt(x) for rsqrt), which a
    // plain call of the llvm.sqrt intrinsic gives (sqrt.rn).
    module.walk([&](math::SqrtOp sqrt) {
      OpBuilder builder(sqrt);
      auto call = LLVM::CallIntrinsicOp::create(
          builder, sqrt.getLoc(), sqrt.getType(),
          builder.getStringAttr("llvm.sqrt"), ValueRange{sqrt.getOperand()});
      sqrt.replaceAllUsesWith(call.getResult(0));
      sqrt.erase();
    });

    RewritePatternSet patterns(ctx);
    populateGpuBreakDownSubgroupReducePatterns(patterns,
                                               /*maxShuffleBitwidth=*/32);
    populateGpuLowerSubgroupReduceToShufflePatterns(patterns, kWarpSize,
                                                    /*shuffleBitwidth=*/32);
    populateGpuLowerClusteredSubgroupReduceToShufflePatterns(
        patterns, kWarpSize, /*shuffleBitwidth=*/32);
    if (mlir::failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
