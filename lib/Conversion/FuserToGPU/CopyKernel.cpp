//===- CopyKernel.cpp - strided copies as kernel nests --------------------===//

#include "fuser/Conversion/FuserToGPU/CopyKernel.h"
#include "fuser/Conversion/Utils/WorkgroupBuffer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

/// Threads per block of a copy kernel.
static constexpr int64_t kCopyBlockSize = 256;
/// Elements per side of a transpose tile: a warp reads kTile adjacent source
/// elements, and writes kTile adjacent destination elements.
static constexpr int64_t kTile = 32;

/// The dim of a transposing copy along which the source's elements are
/// adjacent in memory (stride 1) while the destination's are adjacent along
/// the innermost dim; none when the innermost dims agree, a stride is not
/// static, or either extent is below half a tile (a tile would mostly idle).
static std::optional<int64_t> getTransposedDim(MemRefType src, MemRefType dst) {
  SmallVector<int64_t> srcStrides, dstStrides;
  int64_t offset;
  int64_t rank = src.getRank();
  if (rank < 2 || failed(src.getStridesAndOffset(srcStrides, offset)) ||
      failed(dst.getStridesAndOffset(dstStrides, offset)) ||
      dstStrides.back() != 1 || srcStrides.back() == 1 ||
      src.getShape().back() < kTile / 2)
    return std::nullopt;
  for (int64_t d = 0; d + 1 < rank; ++d)
    if (srcStrides[d] == 1 && src.getShape()[d] >= kTile / 2)
      return d;
  return std::nullopt;
}

static gpu::ParallelLoopDimMappingAttr
mapTo(MLIRContext *ctx, gpu::Processor processor, bool bound = true) {
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  return gpu::ParallelLoopDimMappingAttr::get(ctx, processor, id,
                                              bound ? id : AffineMap());
}

/// `dst = src` through a kTile x kTile tile in workgroup memory per block:
/// the first thread loop reads the tile along `transposed` (the source's
/// contiguous dim) and stores it transposed, the second, after a barrier,
/// reads it back along the innermost dim and writes the destination, so the
/// warps' global loads and stores are both contiguous. The tile is padded to
/// kTile + 1 columns: both loops touch distinct banks.
static FailureOr<scf::ParallelOp> emitTiledTranspose(memref::CopyOp copy,
                                                     int64_t transposed) {
  auto srcType = cast<MemRefType>(copy.getSource().getType());
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> shape = srcType.getShape();
  int64_t rank = shape.size(), inner = rank - 1;
  // Constants before the nest, where convert-parallel-loops-to-gpu finds the
  // bounds of every thread loop.
  OpBuilder hoisted(copy);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hoisted, loc, v);
  };

  memref::GlobalOp tile = fuser::createWorkgroupBuffer(
      b, loc, copy->getParentOfType<ModuleOp>(), "__fuser_tile",
      {kTile, kTile + 1}, srcType.getElementType());

  // Blocks: the other dims row-major, then tiles along `transposed`, then
  // tiles along the innermost dim.
  int64_t tilesAcross = llvm::divideCeil(shape[transposed], kTile);
  int64_t tilesInner = llvm::divideCeil(shape[inner], kTile);
  int64_t blocks = tilesAcross * tilesInner;
  for (int64_t d = 0; d < inner; ++d)
    if (d != transposed)
      blocks *= shape[d];
  auto blockLoop = scf::ParallelOp::create(
      b, loc, ValueRange{cst(0)}, ValueRange{cst(blocks)}, ValueRange{cst(1)});
  if (failed(
          gpu::setMappingAttr(blockLoop, {mapTo(ctx, gpu::Processor::BlockX)})))
    return failure();
  hoisted.setInsertionPoint(blockLoop);
  b.setInsertionPointToStart(blockLoop.getBody());
  Value rest = blockLoop.getInductionVars()[0];
  auto divRem = [&](int64_t extent) {
    Value rem = arith::RemUIOp::create(b, loc, rest, cst(extent));
    rest = arith::DivUIOp::create(b, loc, rest, cst(extent));
    return rem;
  };
  SmallVector<Value> base(rank);
  base[inner] = arith::MulIOp::create(b, loc, divRem(tilesInner), cst(kTile));
  base[transposed] =
      arith::MulIOp::create(b, loc, divRem(tilesAcross), cst(kTile));
  SmallVector<int64_t> others;
  for (int64_t d = 0; d < inner; ++d)
    if (d != transposed)
      others.push_back(d);
  for (int64_t k = static_cast<int64_t>(others.size()) - 1; k >= 0; --k)
    base[others[k]] = k == 0 ? rest : divRem(shape[others[k]]);
  Value buffer =
      memref::GetGlobalOp::create(b, loc, tile.getType(), tile.getSymName());

  // One pass of a thread loop: each thread moves kTile * kTile / threads
  // elements, `along` (0: the source's contiguous dim, 1: the innermost)
  // varying fastest across the threads.
  auto emitPass = [&](bool toTile) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    auto threadLoop = scf::ParallelOp::create(b, loc, ValueRange{cst(0)},
                                              ValueRange{cst(kCopyBlockSize)},
                                              ValueRange{cst(1)});
    // convert-parallel-loops-to-gpu takes the block size from one loop.
    if (failed(gpu::setMappingAttr(
            threadLoop,
            {mapTo(ctx, gpu::Processor::ThreadX, /*bound=*/toTile)})))
      return failure();
    b.setInsertionPointToStart(threadLoop.getBody());
    Value thread = threadLoop.getInductionVars()[0];
    // The tile is complete before any thread reads it back.
    if (!toTile)
      gpu::BarrierOp::create(b, loc);
    Value fast = arith::RemUIOp::create(b, loc, thread, cst(kTile));
    Value slowBase = arith::DivUIOp::create(b, loc, thread, cst(kTile));
    // A loop, not unrolled: convert-parallel-loops-to-gpu refuses memory
    // effects directly in a thread loop that another one follows.
    int64_t rowsPerPass = kCopyBlockSize / kTile;
    auto passes =
        scf::ForOp::create(b, loc, slowBase, cst(kTile), cst(rowsPerPass));
    b.setInsertionPointToStart(passes.getBody());
    Value slow = passes.getInductionVar();
    Value across = toTile ? fast : slow, along = toTile ? slow : fast;
    SmallVector<Value> index(base);
    index[transposed] = arith::AddIOp::create(b, loc, base[transposed], across);
    index[inner] = arith::AddIOp::create(b, loc, base[inner], along);
    Value inBounds;
    for (int64_t d : {transposed, inner}) {
      if (shape[d] % kTile == 0)
        continue;
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           index[d], cst(shape[d]));
      inBounds =
          inBounds ? arith::AndIOp::create(b, loc, inBounds, inside).getResult()
                   : inside;
    }
    if (inBounds)
      b.setInsertionPointToStart(
          scf::IfOp::create(b, loc, inBounds, /*withElse=*/false).thenBlock());
    SmallVector<Value> tileIndex = {along, across};
    if (toTile) {
      Value element = memref::LoadOp::create(b, loc, copy.getSource(), index);
      memref::StoreOp::create(b, loc, element, buffer, tileIndex);
    } else {
      Value element = memref::LoadOp::create(b, loc, buffer, tileIndex);
      memref::StoreOp::create(b, loc, element, copy.getTarget(), index);
    }
    return success();
  };
  if (failed(emitPass(/*toTile=*/true)) || failed(emitPass(/*toTile=*/false)))
    return failure();
  copy.erase();
  return blockLoop;
}

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
  if (std::optional<int64_t> transposed = getTransposedDim(srcType, dstType))
    return emitTiledTranspose(copy, *transposed);
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
