//===- SelectRowKernel.cpp - a block selects the first k of each row ------===//
//
// The sort kinds' segments (SortedRows) with an argsort read only through
// top-k slices (getTopkSelection: its first k along the sorted dim) of at
// most kMaxSelectedPerRow (64), writing values of the slices' shape only
// (a topk: the slice is its indices, a gather of the source there its
// values; a larger k goes to the sort kinds): a block per row selects the
// row's first k (key, position) pairs in the sort order without sorting
// the row. Each thread walks the
// elements t, t + threads, ... keeping the first k it has seen as a sorted
// list in registers (an element that does not sort before the list's last
// costs one comparison; one that does is inserted by a select network) and
// writes its list to workgroup memory; after a barrier thread 0 selects
// the first k of the threads' lists the same way, and after another every
// output is computed at each of the k ranks from the position selected
// there. The order is the block sort's strict total order
// (emitPairBefore: the sort order, then the position), so the k selected
// are the stable argsort's first k, the interpreter's bit for bit. About
// extent + threads * k comparisons per row (extent * k where the row comes
// against the order), and no workgroup memory for the row itself: rows of
// any length take it.
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Analysis/KernelTemplates.h"
#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

/// The most elements per row a selection keeps: a sorted list of k keys
/// and k positions per thread, in registers (ptxas for sm_90: 101
/// registers at k = 32, 204 at k = 64, no spills). A larger k is sorted
/// (BlockSortKernel, MergeSortKernel). f32 [64, 4096], 2 threads,
/// fuser-run --bench: the top 32 took 1.2 ms and the top 64 4.6 ms
/// selected (40 ms for rows in ascending order, the largest 64: every
/// element inserted); sorted, the top 64 took 136 ms (bench/rows_cpu.py).
constexpr int64_t kMaxSelectedPerRow = 64;

/// A thread walks at least this many elements of its row before the block
/// takes another thread, and a block has at most kMaxSelectThreads. Fewer
/// threads insert fewer pairs (a thread's walk of n elements inserts about
/// k (1 + ln(n / k)) of them, each a select network of k comparisons, and
/// thread 0 merges threads * k more): f32 [64, 4096] top 8 on the CPU
/// backend (whose threads of a block run one after the other) took 2.6 ms
/// with a thread per 64 elements, 0.67 ms per 256, 0.48 ms per 1024 and
/// 0.33 ms per 4096 (fuser-run --bench, 2 cores). A GPU block of one thread
/// walks a row of up to 4096 alone (longer rows take more threads).
constexpr int64_t kElementsPerSelectThread = 4096;
constexpr int64_t kMaxSelectThreads = 32;

class SelectRowKernel final : public BlockRowEmitter {
public:
  SelectRowKernel(OpBuilder &builder, const KernelQuery &query)
      : BlockRowEmitter(builder, query), rows(*SortedRows::get(query)) {}
  /// The sort kinds' segments whose argsort is read through top-k slices
  /// of at most kMaxSelectedPerRow.
  static bool matches(const KernelQuery &query) {
    std::optional<SortedRows> rows = SortedRows::get(query);
    return rows && !rows->slices.empty() &&
           rows->ranks <= kMaxSelectedPerRow;
  }

protected:
  LogicalResult emitSkeleton() override;

private:
  /// The list `list` (k keys, then their k i32 positions, in order) with
  /// (key, position) inserted where it sorts before the list's last: an
  /// scf.if of a select network. `before(i)` says whether the pair sorts
  /// before the list's pair i.
  SmallVector<Value> emitInsert(ValueRange list, Value key, Value position,
                                function_ref<Value(size_t)> before);

  const SortedRows rows;
};

} // namespace

SmallVector<Value>
SelectRowKernel::emitInsert(ValueRange list, Value key, Value position,
                            function_ref<Value(size_t)> before) {
  size_t k = list.size() / 2;
  ValueRange keys = list.take_front(k), positions = list.drop_front(k);
  Value beforeLast = before(k - 1);
  auto insert = scf::IfOp::create(b, loc, list.getTypes(), beforeLast,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(insert.elseBlock());
  scf::YieldOp::create(b, loc, list);
  // Slot i takes the new pair where it sorts before slot i's pair but not
  // before slot i - 1's, slot i - 1's pair where it sorts before both.
  b.setInsertionPointToStart(insert.thenBlock());
  SmallVector<Value> inserted(list.size());
  Value beforePrevious;
  for (size_t i = 0; i < k; ++i) {
    Value beforeHere = i + 1 == k ? beforeLast : before(i);
    Value slotKey = key, slotPosition = position;
    if (i != 0) {
      slotKey = arith::SelectOp::create(b, loc, beforePrevious, keys[i - 1], key);
      slotPosition = arith::SelectOp::create(b, loc, beforePrevious,
                                           positions[i - 1], position);
    }
    inserted[i] = arith::SelectOp::create(b, loc, beforeHere, slotKey, keys[i]);
    inserted[k + i] = arith::SelectOp::create(b, loc, beforeHere, slotPosition,
                                              positions[i]);
    beforePrevious = beforeHere;
  }
  scf::YieldOp::create(b, loc, inserted);
  return SmallVector<Value>(insert.getResults());
}

LogicalResult SelectRowKernel::emitSkeleton() {
  ArgsortOp sort = rows.sort;
  int64_t dim = rows.dim, extent = rows.extent, k = rows.ranks;
  bool descending = sort.getDescending();
  int64_t threads = std::clamp<int64_t>(
      llvm::divideCeil(extent, kElementsPerSelectThread), 1,
      kMaxSelectThreads);
  Type keyType = rows.keyType;
  Type i32 = b.getI32Type();
  size_t depth = scopes.size();
  PairRows block =
      emitPairRows("select", threads * k, keyType, rows.getRowShape());
  Value keys = block.keys, positions = block.positions;
  SmallVector<Value> row = block.row;
  OpBuilder::InsertPoint blockBody = block.blockBody;
  // An empty list: k padding pairs (zero keys at the row's end, after
  // every element).
  auto emptyList = [&] {
    SmallVector<Value> list(
        k, arith::ConstantOp::create(b, loc, b.getZeroAttr(keyType)));
    list.append(k, arith::ConstantIntOp::create(b, loc, i32, extent));
    return list;
  };
  // The list carried by `loop` (k keys, then k positions) with each
  // iteration's (key, position) inserted, yielded in its body. Where
  // `walk`, the pairs come in the order of their positions, each in the
  // row: a pair sorts before a listed one where the list's is padding or
  // its key is strictly before (an equal key came earlier). Else the
  // whole order (emitPairBefore).
  auto yieldInserted = [&](scf::ForOp loop, Value key, Value position,
                           bool walk) {
    ValueRange list = loop.getRegionIterArgs();
    auto before = [&](size_t i) -> Value {
      Value listed = list[i], listedPosition = list[k + i];
      if (!walk)
        return emitPairBefore(b, loc, key, position, listed, listedPosition,
                              extent, descending);
      Value padding = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::sge, listedPosition,
          arith::ConstantIntOp::create(b, loc, i32, extent));
      return arith::OrIOp::create(
          b, loc, padding,
          emitSortOrder(b, loc, key, listed, descending).first);
    };
    scf::YieldOp::create(b, loc, emitInsert(list, key, position, before));
  };
  auto storeList = [&](ValueRange list, Value first) {
    for (int64_t i = 0; i < k; ++i) {
      Value slot = add(first, constant(i));
      memref::StoreOp::create(b, loc, list[i], keys, slot);
      memref::StoreOp::create(b, loc, list[k + i], positions, slot);
    }
  };

  // Each thread's first k of the elements it walks, into its k slots.
  {
    size_t before = scopes.size();
    Value thread = emitThreadItems(threads, threads, /*barrier=*/false);
    auto walk = scf::ForOp::create(b, loc, thread, constant(extent),
                                   constant(threads), emptyList());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(walk.getBody());
      pushScope();
      Value j = walk.getInductionVar();
      Lanes at;
      at.base = row;
      at.base[dim] = j;
      FailureOr<Value> element = eval(sort.getSource(), at);
      if (failed(element))
        return failure();
      yieldInserted(walk,
                    extractLane(emitCast(b, loc, *element, keyType), 0),
                    arith::IndexCastOp::create(b, loc, i32, j),
                    /*walk=*/true);
      popScope();
    }
    storeList(walk.getResults(), mul(thread, constant(k)));
    leaveThreadLoop(before, blockBody);
  }

  // Thread 0: the first k of the threads' lists, into the first k slots.
  {
    size_t before = scopes.size();
    emitThreadItems(threads, 1, /*barrier=*/true);
    auto merge = scf::ForOp::create(b, loc, constant(0),
                                    constant(threads * k), constant(1),
                                    emptyList());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(merge.getBody());
      pushScope();
      Value slot = merge.getInductionVar();
      yieldInserted(merge, memref::LoadOp::create(b, loc, keys, slot),
                    memref::LoadOp::create(b, loc, positions, slot),
                    /*walk=*/false);
      popScope();
    }
    storeList(merge.getResults(), constant(0));
    leaveThreadLoop(before, blockBody);
  }

  // Every output at each rank, from the position selected there.
  Value rank = emitThreadItems(threads, k, /*barrier=*/true);
  Value position = arith::ExtSIOp::create(
      b, loc, b.getI64Type(), memref::LoadOp::create(b, loc, positions, rank));
  if (failed(emitRankedOutputs(rows, row, rank, position)))
    return failure();
  while (scopes.size() > depth)
    popScope();
  return success();
}

const KernelKind kernels::selectRowKernel =
    makeKernelKind<SelectRowKernel>("select_rows");
