//===- HostMemory.cpp - host buffers and copies to the gpu dialect --------===//
//
// `fuser-gpu-host-memory`: in a host function, intermediates become device
// allocations and output copies device-to-device copies (a `gpu.memcpy`
// between identity-layout memrefs, a small copy kernel otherwise, since a
// flat memcpy cannot read a strided view).
//
//===----------------------------------------------------------------------===//

#include "fuser/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERGPUHOSTMEMORY
#include "fuser/Conversion/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// Threads per block of a copy kernel.
constexpr int64_t kCopyBlockSize = 256;

/// Host code: not inside a kernel nest (or an already formed launch).
bool isHostLevel(Operation *op) {
  return !op->getParentOfType<scf::ParallelOp>() &&
         !op->getParentOfType<gpu::LaunchOp>();
}

/// `dst[i...] = src[i...]` as an `scf.parallel (%block, %thread)` nest mapped
/// to block_x/thread_x, one element per thread, row-major.
LogicalResult buildCopyKernel(memref::CopyOp copy) {
  auto srcType = cast<MemRefType>(copy.getSource().getType());
  auto dstType = cast<MemRefType>(copy.getTarget().getType());
  if (!srcType.hasStaticShape() || !dstType.hasStaticShape())
    return copy.emitError()
           << "a copy between strided views needs static shapes on the GPU";
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  ArrayRef<int64_t> shape = srcType.getShape();
  int64_t numElements = srcType.getNumElements();
  if (numElements == 0) {
    copy.erase();
    return success();
  }
  int64_t threads = std::min(numElements, kCopyBlockSize);
  int64_t blocks = llvm::divideCeil(numElements, threads);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value c0 = cst(0), c1 = cst(1);
  auto loop = scf::ParallelOp::create(b, loc, ValueRange{c0, c0},
                                      ValueRange{cst(blocks), cst(threads)},
                                      ValueRange{c1, c1});
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping = {
      gpu::ParallelLoopDimMappingAttr::get(ctx, gpu::Processor::BlockX, id, id),
      gpu::ParallelLoopDimMappingAttr::get(ctx, gpu::Processor::ThreadX, id,
                                           id)};
  if (failed(gpu::setMappingAttr(loop, mapping)))
    return failure();

  b.setInsertionPointToStart(loop.getBody());
  Value linear = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, loop.getInductionVars()[0],
                            cst(threads)),
      loop.getInductionVars()[1]);
  if (blocks * threads != numElements) {
    Value inBounds = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, linear, cst(numElements));
    auto guard = scf::IfOp::create(b, loc, inBounds, /*withElse=*/false);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
  }
  SmallVector<Value> indices(shape.size());
  Value rest = linear;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (d == 0) {
      indices[d] = rest;
      break;
    }
    Value extent = cst(shape[d]);
    indices[d] = arith::RemUIOp::create(b, loc, rest, extent);
    rest = arith::DivUIOp::create(b, loc, rest, extent);
  }
  Value element = memref::LoadOp::create(b, loc, copy.getSource(), indices);
  memref::StoreOp::create(b, loc, element, copy.getTarget(), indices);
  copy.erase();
  return success();
}

struct FuserGPUHostMemoryPass
    : public fuser::impl::FuserGPUHostMemoryBase<FuserGPUHostMemoryPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Every kernel nest must be mapped, or convert-parallel-loops-to-gpu
    // silently leaves it on the host (canonicalization that merges nested
    // scf.parallel loops drops the mapping, for example).
    bool unmapped = false;
    func.walk([&](scf::ParallelOp loop) {
      if (loop->getParentOfType<scf::ParallelOp>() ||
          loop->hasAttr(gpu::getMappingAttrName()))
        return;
      loop.emitError() << "kernel nest without a `"
                       << gpu::getMappingAttrName()
                       << "` (#gpu.loop_dim_map) attribute: it would stay on "
                          "the host";
      unmapped = true;
    });
    if (unmapped)
      return signalPassFailure();
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
        if (srcType.getLayout().isIdentity() &&
            dstType.getLayout().isIdentity()) {
          gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(),
                                copy.getTarget(), copy.getSource());
          copy.erase();
        } else if (failed(buildCopyKernel(copy))) {
          return signalPassFailure();
        }
      }
    }
  }
};

} // namespace
