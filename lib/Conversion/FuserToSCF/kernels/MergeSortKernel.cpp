//===- MergeSortKernel.cpp - rows longer than a block sorts, in passes ----===//
//
// The sort kinds' segments (SortedRows: one argsort, read whole or through
// top-k slices) whose rows do not fit a block's shared memory: a merge sort
// through global memory, one launch per pass, each pass an scf.parallel
// nest of its own (a block cannot wait for the others of its row).
// - Pass 0: a block per chunk of getSortChunk(key type) elements of a row
//   (4096 for 4- and 8-byte keys) loads its (key, i32 position) pairs into
//   workgroup memory and sorts them with the block-sort kind's bitonic
//   network (the chunk padded past the row's end), then stores the chunk's
//   sorted pairs into a scratch buffer in global memory (a memref.alloc of
//   the host function, freed after the last pass: rows x extent keys and
//   positions).
// - Merge passes, runs of chunk * 2^p pairs (p = 0, 1, ...) merged in
//   pairs: a thread per element finds the number of pairs of the other run
//   of its pair that sort before it by a binary search in it (the order is
//   the block sort's strict total order, emitPairBefore, so no two pairs
//   are equal) and stores it at its own index in its run plus that number,
//   from the merged pair's start, into the other scratch buffer (two
//   alternate; one suffices for a single merge pass). No barrier: every
//   element of a pass is independent, and each pass is a launch after the
//   last.
// - The last merge pass stores nothing: it computes every output at the
//   rank it found (for top-k slices, where the rank is below k).
// For top-k slices every run keeps its first k pairs only: a pair past
// them ranks no better in a merged run, so the chunks store their first k,
// a merge pass moves and searches the first k of each run and stores the
// first k of each merged run (a top 100 of f32 [4, 70000], 2 threads,
// fuser-run --bench: 228 -> 106 ms; each merge pass loaded 29 MB, now
// under 0.5 MB).
// ceil(log2(chunks)) merge passes; O(extent log^2 chunk) comparisons for
// the chunks and O(extent log extent) per merge pass. The results are the
// stable argsort's, the interpreter's bit for bit.
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

constexpr int64_t kMaxChunkSortThreads = 512;

class MergeSortKernel final : public BlockRowEmitter {
public:
  MergeSortKernel(OpBuilder &builder, const KernelQuery &query)
      : BlockRowEmitter(builder, query), rows(*SortedRows::get(query)) {}
  /// The sort kinds' segments whose rows are longer than a chunk.
  static bool matches(const KernelQuery &query) {
    std::optional<SortedRows> rows = SortedRows::get(query);
    return rows && rows->extent > getSortChunk(rows->keyType);
  }

protected:
  LogicalResult emitSkeleton() override;

private:
  /// The scratch buffers of one pass: rows x extent keys and positions.
  struct Scratch {
    Value keys, positions;
  };
  /// Pass 0: each chunk of each row sorted into `to`.
  LogicalResult emitChunkSort(int64_t chunk, Scratch to);
  /// A merge pass of runs of `width` pairs from `from` into `to`, or into
  /// the outputs where `to` is null.
  LogicalResult emitMerge(int64_t width, Scratch from,
                          std::optional<Scratch> to);
  /// Puts the builder after `nest` (a pass's scf.parallel) and pops the
  /// scopes down to `depth`.
  void leaveNest(Operation *nest, size_t depth);

  const SortedRows rows;
};

} // namespace

void MergeSortKernel::leaveNest(Operation *nest, size_t depth) {
  while (scopes.size() > depth)
    popScope();
  b.setInsertionPointAfter(nest);
}

LogicalResult MergeSortKernel::emitChunkSort(int64_t chunk, Scratch to) {
  int64_t chunks = llvm::divideCeil(rows.extent, chunk);
  int64_t threads = std::min(kMaxChunkSortThreads, chunk / 2);
  size_t depth = scopes.size();
  PairRows block = emitPairRows("merge_sort", chunk, rows.keyType,
                                rows.getRowShape(), chunks);
  Operation *nest = b.getInsertionBlock()->getParentOp();
  Value first = mul(block.part, constant(chunk));
  if (failed(emitLoadPairs(rows, block, first, chunk, threads)))
    return failure();
  emitBitonicSort(rows, block, chunk, threads);
  // The chunk's elements sort before its padding: its first
  // min(chunk, extent - first) pairs are the elements (its first k, for the
  // first k ranks).
  Value i = emitThreadItems(threads, std::min(chunk, rows.ranks),
                            /*barrier=*/true);
  Value position = add(first, i);
  b.setInsertionPointToStart(
      scf::IfOp::create(b, loc,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              position, constant(rows.extent)),
                        /*withElseRegion=*/false)
          .thenBlock());
  pushScope();
  Value at = add(mul(block.rowIndex, constant(rows.extent)), position);
  memref::StoreOp::create(b, loc,
                          memref::LoadOp::create(b, loc, block.keys, i),
                          to.keys, at);
  memref::StoreOp::create(b, loc,
                          memref::LoadOp::create(b, loc, block.positions, i),
                          to.positions, at);
  leaveNest(nest, depth);
  return success();
}

LogicalResult MergeSortKernel::emitMerge(int64_t width, Scratch from,
                                         std::optional<Scratch> to) {
  int64_t extent = rows.extent;
  int64_t elements = getSaturatedNumElements(rows.getRowShape()) * extent;
  size_t depth = scopes.size();
  // A thread per element: the rows of [elements, 1] along dim 1.
  Value flat = emitRowNest({elements, 1}, 1).front();
  Operation *nest = &*scalarPoint.getPoint();
  Value rowIndex = div(flat, constant(extent));
  Value rowStart = mul(rowIndex, constant(extent));
  Value i = rem(flat, constant(extent));
  // Its run [start, start + width) and the other run of the pair: the
  // next (empty where it starts past the row) or the previous.
  Value run = div(i, constant(width));
  Value start = mul(run, constant(width));
  // For the first k ranks only, a run's pairs past its first k can rank
  // no better in a merged run: they neither move nor are searched.
  int64_t kept = std::min(rows.ranks, width);
  if (kept < width) {
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc,
                          arith::CmpIOp::create(b, loc,
                                                arith::CmpIPredicate::ult,
                                                sub(i, start), constant(kept)),
                          /*withElseRegion=*/false)
            .thenBlock());
    pushScope();
  }
  Value key = memref::LoadOp::create(b, loc, from.keys, flat);
  Value position = memref::LoadOp::create(b, loc, from.positions, flat);
  Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     rem(run, constant(2)), constant(0));
  Value next = add(start, constant(width));
  Value nextLength = arith::SelectOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                            constant(extent)),
      sub(indexOp(IndexOp::Min, add(next, constant(width)), constant(extent)),
          next),
      constant(0));
  // An odd run starts at width or later.
  Value otherStart = arith::SelectOp::create(
      b, loc, even, next, sub(start, indexOp(IndexOp::Min, start,
                                             constant(width))));
  Value otherLength = indexOp(
      IndexOp::Min,
      arith::SelectOp::create(b, loc, even, nextLength, constant(width)),
      constant(kept));
  // The pairs of the other run before this one: a binary search over
  // [low, high), at most log2(kept) + 1 halvings.
  Value otherBase = add(rowStart, otherStart);
  auto search = scf::ForOp::create(
      b, loc, constant(0), constant(llvm::Log2_64(kept) + 1), constant(1),
      ValueRange{constant(0), otherLength});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(search.getBody());
    pushScope();
    Value low = search.getRegionIterArgs()[0];
    Value high = search.getRegionIterArgs()[1];
    Value open = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, low,
                                       high);
    auto halve = scf::IfOp::create(b, loc, TypeRange{low.getType(),
                                                     high.getType()},
                                   open, /*withElseRegion=*/true);
    b.setInsertionPointToStart(halve.elseBlock());
    scf::YieldOp::create(b, loc, ValueRange{low, high});
    b.setInsertionPointToStart(halve.thenBlock());
    pushScope();
    Value middle = div(add(low, high), constant(2));
    Value at = add(otherBase, middle);
    ArgsortOp sort = rows.sort;
    Value before = emitPairBefore(
        b, loc, memref::LoadOp::create(b, loc, from.keys, at),
        memref::LoadOp::create(b, loc, from.positions, at), key, position,
        extent, sort.getDescending());
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::SelectOp::create(b, loc, before,
                                           add(middle, constant(1)), low)
                       .getResult(),
                   arith::SelectOp::create(b, loc, before, high, middle)
                       .getResult()});
    popScope();
    b.setInsertionPointAfter(halve);
    scf::YieldOp::create(b, loc, halve.getResults());
    popScope();
  }
  // Its rank in the merged run, from the merged run's start.
  Value mergedStart = indexOp(IndexOp::Min, start, otherStart);
  Value rank = add(add(mergedStart, sub(i, start)), search.getResult(0));
  if (to) {
    // The merged run's first k only.
    if (rows.ranks < 2 * width) {
      b.setInsertionPointToStart(
          scf::IfOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                    sub(rank, mergedStart),
                                    constant(rows.ranks)),
              /*withElseRegion=*/false)
              .thenBlock());
      pushScope();
    }
    Value at = add(rowStart, rank);
    memref::StoreOp::create(b, loc, key, to->keys, at);
    memref::StoreOp::create(b, loc, position, to->positions, at);
  } else if (failed(emitRankedOutputs(
                 rows, delinearize(rowIndex, rows.getRowShape()), rank,
                 arith::ExtSIOp::create(b, loc, b.getI64Type(), position),
                 /*anyRank=*/true))) {
    return failure();
  }
  leaveNest(nest, depth);
  return success();
}

LogicalResult MergeSortKernel::emitSkeleton() {
  int64_t chunk = getSortChunk(rows.keyType);
  int64_t chunks = llvm::divideCeil(rows.extent, chunk);
  int64_t passes = llvm::Log2_64_Ceil(chunks);
  int64_t elements = getSaturatedNumElements(rows.getRowShape()) * rows.extent;
  // The scratch buffers, allocated before the first pass and freed after
  // the last.
  auto allocate = [&]() -> Scratch {
    auto allocate = [&](Type type) -> Value {
      return memref::AllocOp::create(b, loc,
                                     MemRefType::get({elements}, type),
                                     /*alignment=*/b.getI64IntegerAttr(16));
    };
    return {allocate(rows.keyType), allocate(b.getI32Type())};
  };
  SmallVector<Scratch, 2> scratch = {allocate()};
  if (passes > 1)
    scratch.push_back(allocate());
  if (failed(emitChunkSort(chunk, scratch[0])))
    return failure();
  for (int64_t pass = 0; pass < passes; ++pass) {
    std::optional<Scratch> to;
    if (pass + 1 < passes)
      to = scratch[(pass + 1) % 2];
    if (failed(emitMerge(chunk << pass, scratch[pass % 2], to)))
      return failure();
  }
  for (Scratch &buffers : scratch) {
    memref::DeallocOp::create(b, loc, buffers.keys);
    memref::DeallocOp::create(b, loc, buffers.positions);
  }
  return success();
}

const KernelKind kernels::mergeSortKernel =
    makeKernelKind<MergeSortKernel>("merge_sort");
