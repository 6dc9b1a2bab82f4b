//===- KernelKinds.h - one kernel skeleton per kind -------------*- C++ -*-===//
//
// Private to the FuserToSCF conversion. Each kernel kind is one file in this
// folder: a class over EmitterBase that emits its skeleton, with a static
// `matches` that says which segments of its table row's schedule kind it
// takes. emitKernel (KernelBuilder.cpp) picks the first kind of the table
// (getKernelKinds) whose schedule kind is the segment's and which matches.
// A new kind is one file here, its declaration below and one row of the
// table; a kind defined elsewhere is asked first while a ScopedKernelKind
// holds it.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_LIB_CONVERSION_FUSERTOSCF_KERNELS_KERNELKINDS_H
#define FUSER_LIB_CONVERSION_FUSERTOSCF_KERNELS_KERNELKINDS_H

#include "../EmitterBase.h"

#include <memory>

namespace mlir::fuser::kernels {

/// One kernel kind: whether it takes a segment, and its emitter.
struct KernelKind {
  const char *name;
  bool (*matches)(const KernelQuery &query);
  std::unique_ptr<EmitterBase> (*create)(OpBuilder &builder,
                                         const KernelQuery &query);
};

/// The KernelKind of class `Kind`: `Kind::matches(query)` and a constructor
/// `Kind(builder, query)`.
template <typename Kind> constexpr KernelKind makeKernelKind(const char *name) {
  return {name, &Kind::matches,
          [](OpBuilder &builder,
             const KernelQuery &query) -> std::unique_ptr<EmitterBase> {
            return std::make_unique<Kind>(builder, query);
          }};
}

/// One row of the table: the schedule kind and a kernel kind that may emit
/// it, in the order they are asked.
struct KernelTableRow {
  ScheduleKind scheduleKind;
  const KernelKind *kind;
};

/// The table, in KernelBuilder.cpp.
ArrayRef<KernelTableRow> getKernelKinds();

/// A kind asked before the table's while this object lives: a kind defined
/// outside this folder (a test's, unittests/Conversion/FuserToSCF). Not
/// synchronized with emission: create it before lowering starts.
class ScopedKernelKind {
public:
  explicit ScopedKernelKind(KernelTableRow row);
  ~ScopedKernelKind();
  ScopedKernelKind(const ScopedKernelKind &) = delete;
  ScopedKernelKind &operator=(const ScopedKernelKind &) = delete;

private:
  KernelTableRow row;
};

/// What the sort kinds compute of a segment's argsort: its rows, or only
/// their first k where every user of the argsort is a top-k slice of it
/// (getTopkSelection), all of one shape; the segment writes values of that
/// shape only.
struct SortedRows {
  ArgsortOp sort;
  /// The top-k slices the argsort is read through; empty: its whole rows.
  SmallVector<SliceOp> slices;
  int64_t dim, extent;
  /// The ranks of each row the outputs hold: k, or the extent.
  int64_t ranks;
  /// The shape of the values written: the slices' or the argsort's.
  SmallVector<int64_t> writtenShape;
  /// The key type: the compute type of the argsort's source.
  Type keyType;

  /// The query's, where its schedule is unsplit, its segment has one
  /// argsort and its outputs are of the written shape (up to extent-1
  /// dims).
  static std::optional<SortedRows> get(const KernelQuery &query);
  /// The written shape with extent 1 along the sorted dim.
  SmallVector<int64_t> getRowShape() const {
    SmallVector<int64_t> shape(writtenShape);
    shape[dim] = 1;
    return shape;
  }
};

/// The most (key, i32 position) pairs of `keyType`, a power of two of at
/// most 4096, that a block's shared memory holds: the longest row the
/// block-sort kind sorts, the chunk the merge-sort kind sorts in a block.
int64_t getSortChunk(Type keyType);

/// An emitter of a block per row whose threads take turns through
/// workgroup memory, one thread loop per turn (BlockSortKernel,
/// SelectRowKernel, MergeSortKernel); also the sort-rows kind's, for
/// emitRankedOutputs.
class BlockRowEmitter : public EmitterBase {
public:
  using EmitterBase::EmitterBase;

protected:
  /// A block's workgroup (key, i32 position) pairs and its row.
  struct PairRows {
    /// The `count` keys and positions (memref.get_global in the block).
    Value keys, positions;
    /// The block's row: its index in the rows' shape (0 along the row).
    SmallVector<Value> row;
    /// The row's flat index, and which of its `blocksPerRow` blocks this
    /// is (0 where there is one).
    Value rowIndex, part;
    /// The block loop's body, where each thread loop goes.
    OpBuilder::InsertPoint blockBody;
  };
  /// Workgroup buffers `__fuser_<name>_keys` (of `keyType`) and
  /// `__fuser_<name>_positions` of `count` pairs, and the block loop over
  /// the rows of `rowShape` (extent 1 along the row), `blocksPerRow`
  /// blocks each, with the builder and a new scope inside.
  PairRows emitPairRows(StringRef name, int64_t count, Type keyType,
                        ArrayRef<int64_t> rowShape, int64_t blocksPerRow = 1);
  /// A thread loop storing the (key, i32 position) pairs of `count`
  /// positions of `rows`' source from `first` along the sorted dim, of
  /// block row `row`, into the workgroup buffers: the keys in the key
  /// type, positions at or past the extent padding (a zero key, sorted
  /// after every element by emitPairBefore).
  LogicalResult emitLoadPairs(const SortedRows &rows, const PairRows &block,
                              Value first, int64_t count, int64_t threads);
  /// The thread loops of a bitonic network sorting the `count` pairs (a
  /// power of two) of `block` in emitPairBefore's order, a barrier before
  /// each.
  void emitBitonicSort(const SortedRows &rows, const PairRows &block,
                       int64_t count, int64_t threads);
  /// Every output at rank `rank` of row `row` (of the rows' shape), from
  /// the source position `position` (an i64) sorted there: the argsort's
  /// element, and every slice's, is `position` (emitOutputsGiven). Where
  /// `anyRank`, the rank may be any of the row's, and only those below
  /// `rows.ranks` are written (an scf.if where that is not all).
  LogicalResult emitRankedOutputs(const SortedRows &rows, ArrayRef<Value> row,
                                  Value rank, Value position,
                                  bool anyRank = false);
  /// A thread loop of `threads` (after a barrier where `barrier`) with a
  /// loop over `count` items striding by the threads inside, the builder
  /// and a new scope in its body. Returns the item.
  Value emitThreadItems(int64_t threads, int64_t count, bool barrier);
  /// Pops the scopes of a thread loop (down to `scopesBefore`) and puts
  /// the builder back at `blockBody`, after the loop.
  void leaveThreadLoop(size_t scopesBefore, OpBuilder::InsertPoint blockBody);
};

/// The segment's one op of type OpTy, or null where it has none or several.
template <typename OpTy> OpTy getOnlyOp(SegmentOp segment) {
  OpTy only;
  for (auto op : segment.getBody().front().getOps<OpTy>()) {
    if (only)
      return OpTy();
    only = op;
  }
  return only;
}

/// Whether a row kernel of OpTy takes the query: an unsplit schedule of a
/// segment with one OpTy and only outputs of its result's shape, up to
/// extent-1 dims (each computed at the positions the rows walk).
template <typename OpTy> bool matchesRowsOf(const KernelQuery &query) {
  if (query.schedule.getSplit() != 1)
    return false;
  OpTy op = getOnlyOp<OpTy>(query.segment);
  if (!op)
    return false;
  SegmentOp segment = query.segment;
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  return llvm::all_of(yield.getValues().getTypes(), [&](Type type) {
    return isSameShapeUpToUnitDims(cast<ShapedType>(type).getShape(),
                                   shapeOf(op->getResult(0)));
  });
}

/// Whether a kind that walks the rows of a scan takes the query:
/// matchesRowsOf<ScanOp>, and no argsort in the segment (which only the
/// sort kinds evaluate; they evaluate a scan per element). ScanRowKernel.cpp.
bool matchesScanRows(const KernelQuery &query);

/// Whether scalar `x` (an element of an argsort's row, in its compute type)
/// is ordered before `y`, or equal to it, as i1s: ascending or
/// `descending`, NaN above every number and equal to NaN, -0.0 equal to
/// +0.0 (the sort kinds' order; SortRowKernel.cpp).
std::pair<Value, Value> emitSortOrder(OpBuilder &b, Location loc, Value x,
                                      Value y, bool descending);

/// Whether the pair (aKey, aPosition) sorts before (bKey, bPosition), as
/// an i1 (keys in the compute type, i32 positions): padding (a position of
/// `extent` or past it) after every element, then the sort order
/// (emitSortOrder), then the position. A strict total order, so a sorting
/// network or a selection over it gives the stable order
/// (BlockSortKernel.cpp).
Value emitPairBefore(OpBuilder &b, Location loc, Value aKey, Value aPosition,
                     Value bKey, Value bPosition, int64_t extent,
                     bool descending);

/// The kinds, one per file of kernels/.
extern const KernelKind pointwiseKernel;
extern const KernelKind blockScanKernel;
extern const KernelKind scanRowKernel;
extern const KernelKind selectRowKernel;
extern const KernelKind blockSortKernel;
extern const KernelKind mergeSortKernel;
extern const KernelKind sortRowKernel;
extern const KernelKind scatterRowKernel;
extern const KernelKind splitReductionKernel;
extern const KernelKind tiledSplitReductionKernel;
extern const KernelKind innerNormalizationKernel;
extern const KernelKind outerNormalizationKernel;

} // namespace mlir::fuser::kernels

#endif // FUSER_LIB_CONVERSION_FUSERTOSCF_KERNELS_KERNELKINDS_H
