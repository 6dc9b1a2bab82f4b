//===- TiledSplitReductionKernel.cpp - the tiled split of an outer reduction
//---===//
//
// The tiled split of an outer reduction (1 < split < threads): a block
// covers threads / split consecutive outputs, split thread groups share
// each one's reduced elements, and the partials meet in workgroup memory.
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Conversion/Utils/WorkgroupBuffer.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

class TiledSplitReductionKernel final : public EmitterBase {
public:
  TiledSplitReductionKernel(OpBuilder &builder, const KernelQuery &query)
      : EmitterBase(builder, query) {}
  static bool matches(const KernelQuery &query) {
    int64_t split = query.schedule.getSplit();
    return split > 1 && split < query.schedule.getThreads();
  }

protected:
  LogicalResult emitSkeleton() override;
};

} // namespace

LogicalResult TiledSplitReductionKernel::emitSkeleton() {
  FailureOr<ReductionStructure> analyzed = analyzeSplitReduction();
  if (failed(analyzed))
    return failure();
  ReductionStructure &structure = *analyzed;
  ReductionOp reduction = structure.reductions.front();
  Type elementType = getElementTypeOrSelf(reduction.getType());
  Type computeType = getComputeType(elementType);
  int64_t blocks = schedule.getBlocks(), threads = schedule.getThreads();
  int64_t groups = schedule.getSplit(), tile = threads / groups;

  auto [keptShape, reducedShape] = splitExtents(reduction);
  int64_t outputCount = getSaturatedNumElements(keptShape);
  if (llvm::divideCeil(outputCount, tile) != uint64_t(blocks))
    return segment.emitError("a tiled split schedule needs one block per ")
           << tile << " reduction outputs (" << outputCount
           << " outputs: " << llvm::divideCeil(outputCount, tile)
           << " blocks), got " << blocks;
  int64_t reducedCount = getSaturatedNumElements(reducedShape);

  // The block's partials, one per thread, in workgroup memory.
  memref::GlobalOp partials =
      createWorkgroupBuffer(b, loc, segment->getParentOfType<ModuleOp>(),
                            "__fuser_partials", {threads}, computeType);

  Value block = emitBlockLoop(blocks);
  Value buffer = memref::GetGlobalOp::create(b, loc, partials.getType(),
                                             partials.getSymName());
  Value identity =
      emitReductionIdentity(b, loc, reduction.getKind(), computeType);

  // Thread loop 1: thread `g * tile + t` folds the reduced elements g,
  // g + groups, ... of the block's output t, consecutive threads reading
  // consecutive outputs. Outputs that do not need the reduction go first,
  // a grid-stride loop of all threads.
  {
    OpBuilder::InsertionGuard guard(b);
    scf::ParallelOp threadLoop =
        createMappedLoop(b, loc, {threads}, {gpu::Processor::ThreadX});
    Value thread = threadLoop.getInductionVars()[0];
    pushScope();
    if (failed(emitOutputsBesideReduction(structure, block, thread)))
      return failure();
    Value output = add(mul(block, constant(tile)), rem(thread, constant(tile)));
    // Always a conditional, even over full tiles: convert-parallel-loops-to-
    // gpu refuses stores directly in a thread loop that another follows.
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          output, constant(outputCount));
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, inRange, /*withElse=*/false).thenBlock());
    pushScope();
    SmallVector<Value> kept = delinearize(output, keptShape);
    auto loop = scf::ForOp::create(
        b, loc, div(thread, constant(tile)), constant(reducedCount),
        constant(groups),
        emitPartialInit(reduction, identity, /*split=*/groups > 1,
                        /*steps=*/llvm::divideCeil(reducedCount, groups)));
    {
      OpBuilder::InsertionGuard loopGuard(b);
      b.setInsertionPointToStart(loop.getBody());
      pushScope();
      SmallVector<Value> reduced =
          delinearize(loop.getInductionVar(), reducedShape);
      Lanes at;
      at.base = interleaveSourceIndex(reduction, kept, reduced);
      FailureOr<Value> element = eval(reduction.getSource(), at);
      if (failed(element))
        return failure();
      Value scalar = emitCast(b, loc, extractLane(*element, 0), computeType);
      scf::YieldOp::create(
          b, loc, emitPartialStep(reduction, loop.getRegionIterArgs(), scalar));
      popScope();
    }
    memref::StoreOp::create(b, loc, loop.getResult(0), buffer, thread);
    popScope();
    popScope();
  }

  // Thread loop 2, after a barrier: thread t < tile combines the partials
  // of output t in group order (fixed, so every run rounds alike) and
  // writes the outputs computed from the reduction.
  scf::ParallelOp combineLoop =
      createMappedLoop(b, loc, {threads}, {gpu::Processor::ThreadX});
  // The partials are complete before any thread reads them back.
  gpu::BarrierOp::create(b, loc);
  Value thread = combineLoop.getInductionVars()[0];
  pushScope();
  Value output = add(mul(block, constant(tile)), thread);
  Value combines = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, thread,
                            constant(tile)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, output,
                            constant(outputCount)));
  b.setInsertionPointToStart(
      scf::IfOp::create(b, loc, combines, /*withElse=*/false).thenBlock());
  pushScope();
  reducedValues[reduction] = emitCast(
      b, loc, combineGroupPartials(reduction, buffer, groups, tile, thread),
      elementType);
  if (failed(emitReducedOutputs(structure, delinearize(output, keptShape))))
    return failure();
  popScope();
  popScope();
  popScope();
  return success();
}

const KernelKind kernels::tiledSplitReductionKernel =
    makeKernelKind<TiledSplitReductionKernel>("tiled split reduction");
