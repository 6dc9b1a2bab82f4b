//===- PointwiseKernel.cpp - one thread per output slot
//---------------------===//
//
// Pointwise schedules, and reduction schedules that do not split the
// reduction: a block-by-thread loop in which each thread computes its
// slots of every output (a reduction as a loop per element).
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

class PointwiseKernel final : public EmitterBase {
public:
  PointwiseKernel(OpBuilder &builder, const KernelQuery &query)
      : EmitterBase(builder, query) {}
  /// Every schedule that splits no reduction.
  static bool matches(const KernelQuery &query) {
    return query.schedule.getSplit() == 1;
  }

protected:
  LogicalResult emitSkeleton() override;
};

} // namespace

LogicalResult PointwiseKernel::emitSkeleton() {
  int64_t blocks = schedule.getBlocks(), threads = schedule.getThreads();
  // One two-dimensional loop, which canonicalization cannot merge away.
  scf::ParallelOp nest =
      createMappedLoop(b, loc, {blocks, threads},
                       {gpu::Processor::BlockX, gpu::Processor::ThreadX});
  scalarPoint = OpBuilder::InsertPoint(nest->getBlock(), Block::iterator(nest));
  Value block = nest.getInductionVars()[0];
  Value thread = nest.getInductionVars()[1];
  pushScope();
  Value slot = add(mul(block, constant(threads)), thread);
  for (unsigned i = 0, e = segment.getNumResults(); i < e; ++i)
    if (failed(emitOutputSlots(i, slot, blocks * threads)))
      return failure();
  popScope();
  return success();
}

const KernelKind kernels::pointwiseKernel =
    makeKernelKind<PointwiseKernel>("pointwise");
