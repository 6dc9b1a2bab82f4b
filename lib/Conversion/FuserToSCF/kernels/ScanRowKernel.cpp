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
// threads (BlockScanKernel splits long rows whose combine is order-free).
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

class ScanRowKernel final : public EmitterBase {
public:
  ScanRowKernel(OpBuilder &builder, const KernelQuery &query)
      : EmitterBase(builder, query) {}
  /// Unsplit schedules of a segment with one scan and only outputs of its
  /// shape (each computed at the positions the rows walk), and no argsort
  /// (matchesScanRows).
  static bool matches(const KernelQuery &query) {
    return matchesScanRows(query);
  }

protected:
  LogicalResult emitSkeleton() override;
};

} // namespace

bool kernels::matchesScanRows(const KernelQuery &query) {
  SegmentOp segment = query.segment;
  return matchesRowsOf<ScanOp>(query) &&
         segment.getBody().front().getOps<ArgsortOp>().empty();
}

LogicalResult ScanRowKernel::emitSkeleton() {
  ScanOp scan = getOnlyOp<ScanOp>(segment);
  int64_t dim = scan.getDim();
  int64_t extent = shapeOf(scan.getResult())[dim];
  size_t depth = scopes.size();
  SmallVector<Value> index = emitRowNest(shapeOf(scan.getResult()), dim);
  Type elementType = getElementTypeOrSelf(scan.getType());
  Type computeType = vectorOf(getComputeType(elementType), 1);
  Value identity =
      emitReductionIdentity(b, loc, scan.getKind(), computeType);
  auto loop = scf::ForOp::create(b, loc, constant(0), constant(extent),
                                 constant(1), ValueRange{identity});
  b.setInsertionPointToStart(loop.getBody());
  pushScope();
  // An extent-1 dim is spelled as delinearize spells unit dims (constant
  // 0): meta ops of the scan read it at that index.
  index[dim] = extent == 1 ? constant(0) : loop.getInductionVar();
  Lanes at;
  at.base = index;
  FailureOr<Value> element = eval(scan.getSource(), at);
  if (failed(element))
    return failure();
  Value prefix = emitReductionCombine(b, loc, scan.getKind(),
                                      loop.getRegionIterArgs().front(),
                                      emitCast(b, loc, *element,
                                               getComputeType(elementType)));
  if (failed(emitOutputsGiven(scan.getResult(),
                              emitCast(b, loc, prefix, elementType), index,
                              shapeOf(scan.getResult()))))
    return failure();
  scf::YieldOp::create(b, loc, prefix);
  while (scopes.size() > depth)
    popScope();
  return success();
}

const KernelKind kernels::scanRowKernel =
    makeKernelKind<ScanRowKernel>("scan_rows");
