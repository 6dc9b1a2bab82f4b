//===- BlockScanKernel.cpp - a block scans each long row ------------------===//
//
// Pointwise schedules of a segment with one scan (the scan-rows kind's
// segments) whose rows are long and whose combine gives the same bits in
// any order: wrapping integer add and mul, and max and min (NaN absorbs,
// -0.0 orders below +0.0). A block per row splits it into one contiguous
// chunk per thread: each thread combines its chunk from the identity and
// stores the total in workgroup memory; after a barrier each thread
// combines the totals of the chunks before its own (its offset) and walks
// its chunk again from the offset, computing every output at each position
// from the prefix. The prefixes are the interpreter's bit for bit, since
// the combine does not depend on the order; float add and mul, which do,
// keep the scan-rows kind's walk in order (ScanRowKernel). Each element is
// read twice.
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Conversion/Utils/WorkgroupBuffer.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

/// Rows shorter than this are walked by a thread each (ScanRowKernel); a
/// block takes a thread per kElementsPerScanThread elements of a longer
/// row, at most kMaxScanThreads.
constexpr int64_t kMinBlockScanExtent = 2048;
constexpr int64_t kElementsPerScanThread = 1024;
constexpr int64_t kMaxScanThreads = 32;

/// Whether a scan of `kind` over `elementType` combines to the same bits
/// in any order.
bool isOrderFree(ReductionKind kind, Type elementType) {
  return isa<IntegerType>(elementType) ||
         (isa<FloatType>(elementType) &&
          (kind == ReductionKind::Max || kind == ReductionKind::Min));
}

class BlockScanKernel final : public BlockRowEmitter {
public:
  BlockScanKernel(OpBuilder &builder, const KernelQuery &query)
      : BlockRowEmitter(builder, query) {}
  /// The scan-rows kind's segments whose rows have kMinBlockScanExtent
  /// elements or more and whose combine is order-free.
  static bool matches(const KernelQuery &query) {
    if (!matchesScanRows(query))
      return false;
    ScanOp scan = getOnlyOp<ScanOp>(query.segment);
    return shapeOf(scan.getResult())[scan.getDim()] >= kMinBlockScanExtent &&
           isOrderFree(scan.getKind(), getElementTypeOrSelf(scan.getType()));
  }

protected:
  LogicalResult emitSkeleton() override;
};

} // namespace

LogicalResult BlockScanKernel::emitSkeleton() {
  ScanOp scan = getOnlyOp<ScanOp>(segment);
  int64_t dim = scan.getDim();
  ArrayRef<int64_t> shape = shapeOf(scan.getResult());
  int64_t extent = shape[dim];
  int64_t threads = std::min<int64_t>(
      kMaxScanThreads, llvm::divideCeil(extent, kElementsPerScanThread));
  int64_t chunk = llvm::divideCeil(extent, threads);
  Type elementType = getElementTypeOrSelf(scan.getType());
  Type computeType = getComputeType(elementType);
  ReductionKind kind = scan.getKind();
  SmallVector<int64_t> rowShape(shape);
  rowShape[dim] = 1;
  memref::GlobalOp totalsBuffer = createWorkgroupBuffer(
      b, loc, segment->getParentOfType<ModuleOp>(), "__fuser_scan_totals",
      {threads}, computeType);

  size_t depth = scopes.size();
  Value block = emitBlockLoop(getSaturatedNumElements(rowShape));
  Value totals = memref::GetGlobalOp::create(
      b, loc, totalsBuffer.getType(), totalsBuffer.getSymName());
  SmallVector<Value> row = delinearize(block, rowShape);
  OpBuilder::InsertPoint blockBody = b.saveInsertionPoint();
  auto identity = [&] {
    return emitReductionIdentity(b, loc, kind, vectorOf(computeType, 1));
  };
  // Thread `thread`'s chunk combined in order from `start`, with `each`
  // (where given) called at every position with the prefix there. Returns
  // the chunk's last prefix.
  auto walkChunk =
      [&](Value thread, Value start,
          function_ref<LogicalResult(ArrayRef<Value>, Value)> each)
      -> FailureOr<Value> {
    Value begin = mul(thread, constant(chunk));
    Value end = indexOp(IndexOp::Min, add(begin, constant(chunk)),
                        constant(extent));
    auto walk = scf::ForOp::create(b, loc, begin, end, constant(1),
                                   ValueRange{start});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(walk.getBody());
    pushScope();
    SmallVector<Value> index = row;
    index[dim] = walk.getInductionVar();
    Lanes at;
    at.base = index;
    FailureOr<Value> element = eval(scan.getSource(), at);
    if (failed(element))
      return failure();
    Value prefix =
        emitReductionCombine(b, loc, kind, walk.getRegionIterArgs().front(),
                             emitCast(b, loc, *element, computeType));
    if (each && failed(each(index, prefix)))
      return failure();
    scf::YieldOp::create(b, loc, prefix);
    popScope();
    return walk.getResult(0);
  };

  // Each thread's chunk total, into its slot.
  {
    size_t before = scopes.size();
    Value thread = emitThreadItems(threads, threads, /*barrier=*/false);
    FailureOr<Value> total = walkChunk(thread, identity(), nullptr);
    if (failed(total))
      return failure();
    memref::StoreOp::create(b, loc, extractLane(*total, 0), totals, thread);
    leaveThreadLoop(before, blockBody);
  }

  // Each thread's offset (the totals before its chunk, in order), then its
  // chunk again with every output at each position.
  Value thread = emitThreadItems(threads, threads, /*barrier=*/true);
  auto offset = scf::ForOp::create(b, loc, constant(0), thread, constant(1),
                                   ValueRange{identity()});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(offset.getBody());
    Value total = splat(
        memref::LoadOp::create(b, loc, totals, offset.getInductionVar()), 1);
    scf::YieldOp::create(
        b, loc,
        emitReductionCombine(b, loc, kind, offset.getRegionIterArgs().front(),
                             total));
  }
  if (failed(walkChunk(thread, offset.getResult(0),
                       [&](ArrayRef<Value> index, Value prefix) {
                         return emitOutputsGiven(
                             scan.getResult(),
                             emitCast(b, loc, prefix, elementType), index,
                             shape);
                       })))
    return failure();
  while (scopes.size() > depth)
    popScope();
  return success();
}

const KernelKind kernels::blockScanKernel =
    makeKernelKind<BlockScanKernel>("block_scan");
