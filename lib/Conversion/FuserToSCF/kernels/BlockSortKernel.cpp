//===- BlockSortKernel.cpp - a block sorts each row of an argsort ---------===//
//
// The sort kinds' segments (SortedRows: one argsort, read whole or through
// top-k slices) whose rows are long enough that ranking them in one thread
// each (SortRowKernel, O(extent^2)) costs more than sorting them together:
// a block per row sorts (key, position) pairs in workgroup memory with a
// bitonic network over the row padded to a power of two, one thread loop
// per stage with a barrier before it, then computes every output at each
// rank it holds (all, or the first k) from the position sorted there. The
// comparison is a strict total order (the sort order, then the position;
// padding after every element), so the network gives the stable order,
// the interpreter's bit for bit. O(extent log^2 extent) comparisons per
// row; rows whose pairs do not fit the block's shared memory go to
// MergeSortKernel, which sorts chunks of them as this kind sorts a row.
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Analysis/TargetInfo.h"
#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Conversion/Utils/WorkgroupBuffer.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

/// Rows shorter than this rank in a thread each: few comparisons, and a
/// thread per row keeps more rows in flight than a block per row.
constexpr int64_t kMinBlockSortExtent = 64;
constexpr int64_t kMaxBlockSortThreads = 512;
constexpr int64_t kMaxSortChunk = 4096;

class BlockSortKernel final : public BlockRowEmitter {
public:
  BlockSortKernel(OpBuilder &builder, const KernelQuery &query)
      : BlockRowEmitter(builder, query), rows(*SortedRows::get(query)) {}
  /// The sort kinds' segments (SortedRows) whose rows have at least
  /// kMinBlockSortExtent elements and whose pairs, padded to a power of
  /// two, fit the block's shared memory.
  static bool matches(const KernelQuery &query) {
    std::optional<SortedRows> rows = SortedRows::get(query);
    return rows && rows->extent >= kMinBlockSortExtent &&
           rows->extent <= getSortChunk(rows->keyType);
  }

protected:
  LogicalResult emitSkeleton() override;

private:
  const SortedRows rows;
};

} // namespace

int64_t kernels::getSortChunk(Type keyType) {
  // A key and an i32 position per element.
  int64_t pairBytes = *getElementByteWidth(keyType) + 4;
  return std::min<int64_t>(
      kMaxSortChunk,
      int64_t(1) << llvm::Log2_64(TargetInfo().sharedMemoryPerBlock /
                                  pairBytes));
}

BlockRowEmitter::PairRows
BlockRowEmitter::emitPairRows(StringRef name, int64_t count, Type keyType,
                              ArrayRef<int64_t> rowShape,
                              int64_t blocksPerRow) {
  auto module = segment->getParentOfType<ModuleOp>();
  memref::GlobalOp keysBuffer = createWorkgroupBuffer(
      b, loc, module, ("__fuser_" + name + "_keys").str(), {count}, keyType);
  memref::GlobalOp positionsBuffer =
      createWorkgroupBuffer(b, loc, module,
                            ("__fuser_" + name + "_positions").str(), {count},
                            b.getI32Type());
  Value block =
      emitBlockLoop(getSaturatedNumElements(rowShape) * blocksPerRow);
  PairRows rows;
  rows.keys = memref::GetGlobalOp::create(b, loc, keysBuffer.getType(),
                                          keysBuffer.getSymName());
  rows.positions = memref::GetGlobalOp::create(
      b, loc, positionsBuffer.getType(), positionsBuffer.getSymName());
  rows.rowIndex = blocksPerRow == 1 ? block : div(block, constant(blocksPerRow));
  rows.part = blocksPerRow == 1 ? constant(0) : rem(block, constant(blocksPerRow));
  rows.row = delinearize(rows.rowIndex, rowShape);
  rows.blockBody = b.saveInsertionPoint();
  return rows;
}

Value BlockRowEmitter::emitThreadItems(int64_t threads, int64_t count,
                                       bool barrier) {
  scf::ParallelOp loop =
      createMappedLoop(b, loc, {threads}, {gpu::Processor::ThreadX});
  if (barrier)
    gpu::BarrierOp::create(b, loc);
  pushScope();
  // Memory effects stay inside the scf.for (convert-parallel-loops-to-gpu
  // refuses them directly in a thread loop that another follows).
  auto items = scf::ForOp::create(b, loc, loop.getInductionVars()[0],
                                  constant(count), constant(threads));
  b.setInsertionPointToStart(items.getBody());
  pushScope();
  return items.getInductionVar();
}

void BlockRowEmitter::leaveThreadLoop(size_t scopesBefore,
                                      OpBuilder::InsertPoint blockBody) {
  while (scopes.size() > scopesBefore)
    popScope();
  b.restoreInsertionPoint(blockBody);
}

Value kernels::emitPairBefore(OpBuilder &b, Location loc, Value aKey,
                              Value aPosition, Value bKey, Value bPosition,
                              int64_t extent, bool descending) {
  auto cmp = [&](arith::CmpIPredicate predicate, Value lhs,
                 Value rhs) -> Value {
    return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
  };
  Value end = arith::ConstantIntOp::create(b, loc, b.getI32Type(), extent);
  Value aPadding = cmp(arith::CmpIPredicate::sge, aPosition, end);
  Value bPadding = cmp(arith::CmpIPredicate::sge, bPosition, end);
  Value earlier = cmp(arith::CmpIPredicate::slt, aPosition, bPosition);
  auto [ordered, equal] = emitSortOrder(b, loc, aKey, bKey, descending);
  Value elementBefore = arith::OrIOp::create(
      b, loc, ordered, arith::AndIOp::create(b, loc, equal, earlier));
  return arith::SelectOp::create(
      b, loc, aPadding, arith::AndIOp::create(b, loc, bPadding, earlier),
      arith::OrIOp::create(b, loc, bPadding, elementBefore));
}

LogicalResult BlockRowEmitter::emitLoadPairs(const SortedRows &rows,
                                             const PairRows &block,
                                             Value first, int64_t count,
                                             int64_t threads) {
  size_t before = scopes.size();
  Value i = emitThreadItems(threads, count, /*barrier=*/false);
  Value position = add(first, i);
  Value inRow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                      position, constant(rows.extent));
  auto key = scf::IfOp::create(b, loc, rows.keyType, inRow,
                               /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(key.thenBlock());
    pushScope();
    Lanes at;
    at.base = block.row;
    at.base[rows.dim] = position;
    ArgsortOp sort = rows.sort;
    FailureOr<Value> element = eval(sort.getSource(), at);
    if (failed(element))
      return failure();
    scf::YieldOp::create(
        b, loc, extractLane(emitCast(b, loc, *element, rows.keyType), 0));
    popScope();
    b.setInsertionPointToStart(key.elseBlock());
    scf::YieldOp::create(
        b, loc,
        arith::ConstantOp::create(b, loc, b.getZeroAttr(rows.keyType))
            .getResult());
  }
  memref::StoreOp::create(b, loc, key.getResult(0), block.keys, i);
  memref::StoreOp::create(
      b, loc, arith::IndexCastOp::create(b, loc, b.getI32Type(), position),
      block.positions, i);
  leaveThreadLoop(before, block.blockBody);
  return success();
}

void BlockRowEmitter::emitBitonicSort(const SortedRows &rows,
                                      const PairRows &block, int64_t count,
                                      int64_t threads) {
  Value keys = block.keys, positions = block.positions;
  ArgsortOp sort = rows.sort;
  bool descending = sort.getDescending();
  // Stage (k, j) compares elements j apart, in runs of k sorted
  // alternately up and down (up throughout the last).
  for (int64_t k = 2; k <= count; k *= 2) {
    for (int64_t j = k / 2; j > 0; j /= 2) {
      size_t before = scopes.size();
      Value pair = emitThreadItems(threads, count / 2, /*barrier=*/true);
      Value i = add(mul(div(pair, constant(j)), constant(2 * j)),
                    rem(pair, constant(j)));
      Value l = add(i, constant(j));
      Value up = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       rem(div(i, constant(k)), constant(2)),
                                       constant(0));
      Value iKey = memref::LoadOp::create(b, loc, keys, i);
      Value lKey = memref::LoadOp::create(b, loc, keys, l);
      Value iPosition = memref::LoadOp::create(b, loc, positions, i);
      Value lPosition = memref::LoadOp::create(b, loc, positions, l);
      // The order is strict and total over distinct positions: where l's
      // pair is not before i's, i's is before l's. So a run sorted up
      // swaps where l's is before, a run sorted down where it is not.
      Value down = arith::XOrIOp::create(
          b, loc, up, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
      Value swap = arith::XOrIOp::create(
          b, loc,
          emitPairBefore(b, loc, lKey, lPosition, iKey, iPosition,
                         rows.extent, descending),
          down);
      b.setInsertionPointToStart(
          scf::IfOp::create(b, loc, swap, /*withElseRegion=*/false)
              .thenBlock());
      memref::StoreOp::create(b, loc, lKey, keys, i);
      memref::StoreOp::create(b, loc, iKey, keys, l);
      memref::StoreOp::create(b, loc, lPosition, positions, i);
      memref::StoreOp::create(b, loc, iPosition, positions, l);
      leaveThreadLoop(before, block.blockBody);
    }
  }
}

LogicalResult BlockRowEmitter::emitRankedOutputs(const SortedRows &rows,
                                                 ArrayRef<Value> row,
                                                 Value rank, Value position,
                                                 bool anyRank) {
  if (anyRank && rows.ranks < rows.extent) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc,
                          arith::CmpIOp::create(b, loc,
                                                arith::CmpIPredicate::ult,
                                                rank, constant(rows.ranks)),
                          /*withElseRegion=*/false)
            .thenBlock());
    pushScope();
    LogicalResult result = emitRankedOutputs(rows, row, rank, position);
    popScope();
    return result;
  }
  SmallVector<Value> ranked(row);
  // A single rank is rank 0, spelled as delinearize spells unit dims
  // (constant 0): meta ops of the argsort read it at that index.
  ranked[rows.dim] = rows.ranks == 1 ? constant(0) : rank;
  Value element = splat(position, 1);
  ArgsortOp sort = rows.sort;
  if (rows.slices.empty())
    return emitOutputsGiven(sort.getResult(), element, ranked,
                            rows.writtenShape);
  Lanes at;
  at.base = ranked;
  for (SliceOp slice : ArrayRef(rows.slices).drop_front())
    scopes.back().values[slice.getResult()].push_back({at, element});
  SliceOp first = rows.slices.front();
  return emitOutputsGiven(first.getResult(), element, ranked,
                          rows.writtenShape);
}

LogicalResult BlockSortKernel::emitSkeleton() {
  int64_t padded = llvm::PowerOf2Ceil(rows.extent);
  int64_t threads = std::min(kMaxBlockSortThreads, padded / 2);
  size_t depth = scopes.size();
  PairRows block =
      emitPairRows("sort", padded, rows.keyType, rows.getRowShape());
  if (failed(emitLoadPairs(rows, block, constant(0), padded, threads)))
    return failure();
  emitBitonicSort(rows, block, padded, threads);
  // Every output at each rank it holds, from the position sorted there.
  Value rank = emitThreadItems(threads, rows.ranks, /*barrier=*/true);
  Value position = arith::ExtSIOp::create(
      b, loc, b.getI64Type(),
      memref::LoadOp::create(b, loc, block.positions, rank));
  if (failed(emitRankedOutputs(rows, block.row, rank, position)))
    return failure();
  while (scopes.size() > depth)
    popScope();
  return success();
}

const KernelKind kernels::blockSortKernel =
    makeKernelKind<BlockSortKernel>("block_sort");
