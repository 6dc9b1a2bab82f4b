//===- CopyKernel.cpp - strided copies as kernel nests --------------------===//

#include "fuser/Conversion/FuserToGPU/CopyKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

/// Threads per block of a copy kernel.
static constexpr int64_t kCopyBlockSize = 256;

FailureOr<scf::ParallelOp>
mlir::fuser::replaceWithCopyKernel(memref::CopyOp copy) {
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
    return scf::ParallelOp();
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
      arith::MulIOp::create(b, loc, loop.getInductionVars()[0], cst(threads)),
      loop.getInductionVars()[1]);
  if (blocks * threads != numElements) {
    Value inBounds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           linear, cst(numElements));
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
  return loop;
}
