//===- ScanRowKernel.cpp - a thread walks each row of a scan --------------===//
//
// Pointwise schedules of a segment with one scan whose outputs all have the
// scan's shape: each thread walks a row along the scan dim once, carrying
// the prefix in the compute type, and computes every output at each
// position from it (the scan's value bound at that index, so evaluating an
// output reads it instead of combining the prefix again as evalScan does).
// A row is combined in order from the identity, as the interpreter combines
// it: the results are the interpreter's bit for bit. O(extent) per row
// where evalScan is O(extent) per element; rows are not split across
// threads (a block scan is later work).
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

/// The segment's one scan, or null where it has none or several.
static ScanOp getOnlyScan(SegmentOp segment) {
  ScanOp only;
  for (auto scan : segment.getBody().front().getOps<ScanOp>()) {
    if (only)
      return ScanOp();
    only = scan;
  }
  return only;
}

namespace {

class ScanRowKernel final : public EmitterBase {
public:
  ScanRowKernel(OpBuilder &builder, const KernelQuery &query)
      : EmitterBase(builder, query) {}
  /// Unsplit schedules of a segment with one scan and only outputs of its
  /// shape (each computed at the positions the rows walk).
  static bool matches(const KernelQuery &query) {
    if (query.schedule.getSplit() != 1)
      return false;
    ScanOp scan = getOnlyScan(query.segment);
    if (!scan)
      return false;
    SegmentOp segment = query.segment;
    auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
    return llvm::all_of(yield.getValues().getTypes(), [&](Type type) {
      return cast<ShapedType>(type).getShape() == shapeOf(scan.getResult());
    });
  }

protected:
  LogicalResult emitSkeleton() override;
};

} // namespace

LogicalResult ScanRowKernel::emitSkeleton() {
  ScanOp scan = getOnlyScan(segment);
  int64_t dim = scan.getDim();
  SmallVector<int64_t> rowShape(shapeOf(scan.getResult()));
  int64_t extent = rowShape[dim];
  rowShape[dim] = 1;
  int64_t rows = 1;
  for (int64_t size : rowShape)
    rows *= size;
  int64_t threads = std::min<int64_t>(
      kThreadsPerBlock, llvm::alignTo(std::max<int64_t>(rows, 1), kWarpSize));
  int64_t blocks = llvm::divideCeil(rows, threads);
  scf::ParallelOp nest =
      createMappedLoop(b, loc, {blocks, threads},
                       {gpu::Processor::BlockX, gpu::Processor::ThreadX});
  scalarPoint = OpBuilder::InsertPoint(nest->getBlock(), Block::iterator(nest));
  size_t depth = scopes.size();
  pushScope();
  Value row = add(mul(nest.getInductionVars()[0], constant(threads)),
                  nest.getInductionVars()[1]);
  if (blocks * threads != rows) {
    auto inRange = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                              constant(rows)),
        /*withElseRegion=*/false);
    b.setInsertionPointToStart(inRange.thenBlock());
    pushScope();
  }

  Type elementType = getElementTypeOrSelf(scan.getType());
  Type computeType = vectorOf(getComputeType(elementType), 1);
  Value identity =
      emitReductionIdentity(b, loc, scan.getKind(), computeType);
  SmallVector<Value> index = delinearize(row, rowShape);
  auto loop = scf::ForOp::create(b, loc, constant(0), constant(extent),
                                 constant(1), ValueRange{identity});
  b.setInsertionPointToStart(loop.getBody());
  pushScope();
  index[dim] = loop.getInductionVar();
  Lanes at;
  at.base = index;
  FailureOr<Value> element = eval(scan.getSource(), at);
  if (failed(element))
    return failure();
  Value prefix = emitReductionCombine(b, loc, scan.getKind(),
                                      loop.getRegionIterArgs().front(),
                                      emitCast(b, loc, *element,
                                               getComputeType(elementType)));
  scopes.back().values[scan.getResult()].push_back(
      {at, emitCast(b, loc, prefix, elementType)});
  for (unsigned i = 0, e = segment.getNumResults(); i < e; ++i)
    if (failed(emitOutputAt(i, index, /*width=*/1)))
      return failure();
  scf::YieldOp::create(b, loc, prefix);
  while (scopes.size() > depth)
    popScope();
  return success();
}

const KernelKind kernels::scanRowKernel =
    makeKernelKind<ScanRowKernel>("scan_rows");
