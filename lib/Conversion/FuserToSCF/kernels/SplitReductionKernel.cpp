//===- SplitReductionKernel.cpp - a block per reduction output
//--------------===//
//
// Split reductions (split > 1, not tiled): a block per output of the
// segment's one reduction, its threads folding the reduced elements and
// combining across the block with scf.reduce; thread 0 writes the outputs
// computed from the reduction.
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

class SplitReductionKernel final : public EmitterBase {
public:
  SplitReductionKernel(OpBuilder &builder, const KernelQuery &query)
      : EmitterBase(builder, query) {}
  /// A reduction schedule that splits the reduction (the tiled split of an
  /// outer reduction is asked first).
  static bool matches(const KernelQuery &query) {
    return query.schedule.getSplit() > 1;
  }

protected:
  LogicalResult emitSkeleton() override;
};

} // namespace

LogicalResult SplitReductionKernel::emitSkeleton() {
  FailureOr<ReductionStructure> analyzed = analyzeSplitReduction();
  if (failed(analyzed))
    return failure();
  ReductionStructure &structure = *analyzed;
  ReductionOp reduction = structure.reductions.front();
  Type elementType = getElementTypeOrSelf(reduction.getType());
  Type computeType = getComputeType(elementType);
  // gpu.all_reduce shuffles 32-bit values.
  if (computeType.getIntOrFloatBitWidth() != 32)
    return segment.emitError("a split schedule combines 32-bit values; this "
                             "reduction accumulates in ")
           << computeType;
  int64_t blocks = schedule.getBlocks(), threads = schedule.getThreads();

  auto [keptShape, reducedShape] = splitExtents(reduction);
  if (getSaturatedNumElements(keptShape) != uint64_t(blocks))
    return segment.emitError("a split schedule needs one block per reduction "
                             "output (")
           << getSaturatedNumElements(keptShape) << "), got " << blocks;
  int64_t lanes = schedule.getVector();
  if (reducedShape.back() % lanes != 0)
    return segment.emitError("the vector width ")
           << lanes << " does not divide the innermost reduced extent "
           << reducedShape.back();

  Value block = emitBlockLoop(blocks);
  SmallVector<Value> kept = delinearize(block, keptShape);

  FailureOr<Value> combined =
      emitBlockReduction(reduction, kept, threads, lanes, [&](Value thread) {
        return emitOutputsBesideReduction(structure, block, thread);
      });
  if (failed(combined))
    return failure();

  // Outputs computed from the reduction: the block's one element of each,
  // found by mapping the reduction output forward through the views, and
  // written by thread 0 (code outside a thread loop runs in every thread,
  // which would store the element once per thread).
  reducedValues[reduction] = emitCast(b, loc, *combined, elementType);
  OpBuilder::InsertionGuard storeGuard(b);
  scf::ParallelOp storeLoop =
      createMappedLoop(b, loc, {threads}, {gpu::Processor::ThreadX});
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            storeLoop.getInductionVars()[0], constant(0));
  b.setInsertionPointToStart(
      scf::IfOp::create(b, loc, isFirst, /*withElse=*/false).thenBlock());
  pushScope();
  if (failed(emitReducedOutputs(structure, kept)))
    return failure();
  popScope();
  popScope();
  return success();
}

const KernelKind kernels::splitReductionKernel =
    makeKernelKind<SplitReductionKernel>("split reduction");
