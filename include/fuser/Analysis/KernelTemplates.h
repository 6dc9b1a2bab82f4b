//===- KernelTemplates.h - which op sets one kernel can compute -*- C++ -*-===//
//
// The kernel templates (pointwise, reduction, inner and outer normalization)
// and the structure of the ops each takes. The one legality test of
// segmentation (`matchKernel`: can these ops be one kernel, and if not, why
// not) and the analyses `fuser-schedule` and the kernel emitter read.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_ANALYSIS_KERNELTEMPLATES_H
#define FUSER_ANALYSIS_KERNELTEMPLATES_H

#include "fuser/Analysis/TargetInfo.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>

namespace mlir::fuser {

/// Threads per block of the thread-per-output schedules (nvFuser's default).
inline constexpr int64_t kThreadsPerBlock = 256;
/// Threads of a warp.
inline constexpr int64_t kWarpSize = 32;

/// The ops of one kernel as the templates see them: a segment body, or a
/// set of ops that segmentation considers making one kernel.
struct KernelOps {
  /// The ops, in program order.
  SmallVector<Operation *> ops;
  /// The values the kernel writes (a segment body yields them).
  SmallVector<Value> outputs;
  /// The types of the tensors the kernel reads (a segment's inputs).
  SmallVector<Type> inputTypes;

  /// The ops of a segment body, its yielded values and its arguments' types.
  static KernelOps fromBody(Block &body);
};

/// The templates are the kernel segment kinds (SegmentKind: pointwise,
/// reduction, normalization, library; an alias segment is no kernel). The
/// library template is one library op (matmul, linear) with meta ops of its
/// operands, writing the op's result: a library call, not a generated
/// kernel.
///
/// Whether the kernel emitter can emit `op` in a kernel of template `kind`:
/// the allow-list of each kernel kind (KernelTemplates.cpp, "Which ops each
/// kernel kind emits"). Pointwise: the elementwise ops of ElementwiseOps.def
/// and cast, complex, real, imag and where (what emitElementwise lowers);
/// the meta ops the emitter chains (view, permute, squeeze, broadcast,
/// expand, slice, set, segment_set); pad, cat and full. Reduction and
/// normalization: those and reductions. Scalar computations (no tensor
/// result) are accepted by every kind where the emitter evaluates them:
/// elementwise fuser ops, and ops of other dialects, which it clones. Every
/// other op (a fuser op not listed, segment, yield) is accepted by no kind.
/// This says which ops a kind can emit, not how they may be arranged (the
/// templates' structural rules, matchKernel).
bool canEmitInKernel(Operation *op, SegmentKind kind);

/// Whether some kernel kind can emit `op`.
bool canEmitInAnyKernel(Operation *op);

/// Whether fuser-segment may recompute `op` in a kernel that reads its
/// result instead of reading it (docs/Segmentation.md, "Replicate"): ops
/// the pointwise kind emits whose cost is indexing and arithmetic per
/// element computed (elementwise, meta, pad, cat, full), but segment_set,
/// whose result is written, never recomputed. An allow-list: a new op is
/// not recomputed until it is listed here.
bool isRecomputableInKernel(Operation *op);

/// Whether the templates take a set of ops, and which.
struct KernelMatch {
  /// The template that takes the ops; none where no template does.
  std::optional<SegmentKind> kind;
  /// Why no template takes them (empty where one does).
  std::string whyNot;
};

/// A type of tensor a kernel reads and how many distinct tensors of it: what
/// the templates need of a kernel's inputs (the on-chip bytes of a row sum
/// over them), which segmentation keeps per group as groups merge.
struct InputTypeCount {
  Type type;
  int64_t count;
};

/// `types` with each distinct type once, counted.
SmallVector<InputTypeCount> countInputTypes(ArrayRef<Type> types);

/// The template that computes `kernel` on `target`, tried in the order
/// pointwise, reduction, normalization (where `allowNormalization`).
KernelMatch matchKernel(const KernelOps &kernel, const TargetInfo &target,
                        bool allowNormalization = true);

/// The template that computes two kernel segments of one fusion as one
/// kernel: `producer`'s body, then `reader`'s (which reads results of
/// `producer`) computing from what `producer` computes, writing what
/// `reader` writes and the results of `producer` that others read.
KernelMatch matchSegmentUnion(SegmentOp producer, SegmentOp reader,
                              const TargetInfo &target);

/// The axes a reduction iterates over, as (extent, reduced) for each dim of
/// its source without the dims of extent 1: two reductions with equal axes
/// iterate over the same space and reduce the same axes of it.
SmallVector<std::pair<int64_t, bool>> getReductionAxes(ReductionOp op);

/// The reductions of a kernel segment, as the schedules see them.
struct ReductionStructure {
  /// The segment's reductions; they share their source shape and reduced
  /// dims (fuser-segment rule 4).
  SmallVector<ReductionOp> reductions;
  /// Whether the innermost non-unit axis of the reductions' source is
  /// reduced (the inner_reduction schedule) rather than kept.
  bool reducesInnermost = false;
  /// Why the threads of a block cannot split the reduced axes (empty when
  /// they can): every op that uses a reduction result must map its elements
  /// one to one onto the reduction's outputs (elementwise ops on equal
  /// shapes, view, permute, squeeze, broadcast, set), the same way on every
  /// path, so that one block owns one reduction output and everything
  /// computed from it; and the block combines one 32-bit value (one
  /// reduction, not of f64 or i64), which is what gpu.all_reduce shuffles.
  std::string whyNotSplittable;
  /// Every value computed from the reductions, with the one-to-one meta ops
  /// between the reductions and it, innermost first (the index maps a block
  /// follows from its reduction output to the outputs computed from it).
  DenseMap<Value, SmallVector<Operation *>> metaChains;
};

/// Analyzes the reductions of `segment` (none for a pointwise segment).
ReductionStructure analyzeReductions(SegmentOp segment);

/// The budget of a normalization kernel's rows or column blocks
/// (docs/Lowering.md): the default target's shared memory per block.
constexpr int64_t kNormalizationRowBudgetBytes =
    TargetInfo().sharedMemoryPerBlock;

/// The k of `slice` where it is a top-k of an argsort: the first k (fewer
/// than the extent) of the argsort's rows along its sorted dim, and all of
/// every other dim. Such a slice and the argsort are one kernel: a
/// selection (SelectRowKernel) for k up to its kMaxSelectedPerRow, else a
/// sort kind that writes the first k ranks of each row.
std::optional<int64_t> getTopkSelection(SliceOp slice);

/// A normalization: reductions whose results meet the un-reduced elements
/// again, in one kernel. An inner one reduces the innermost axes (rows: a
/// block per row); an outer one reduces axes other than the innermost one
/// (columns: a block per tile of consecutive kept elements,
/// thread groups sharing each column's reduced elements).
struct NormalizationStructure {
  /// The reductions in program order; later ones may read earlier ones.
  SmallVector<ReductionOp> reductions;
  /// Their common source shape and reduced dims (the trailing dims of an
  /// inner normalization).
  SmallVector<int64_t> sourceShape, dims;
  /// Whether the innermost axis is kept (an outer normalization).
  bool outer = false;
  /// Rows (kept elements) and elements per row (reduced elements); in an
  /// outer normalization a kept element's "row" is its column of reduced
  /// elements.
  int64_t rows = 0, rowElements = 0;
  /// Outer normalizations: the columns (kept elements, consecutive along
  /// the innermost axis) a block covers and its threads (`tile` threads per
  /// group of reduced elements); the widest tile whose column block fits.
  int64_t tile = 1, threads = 1;
  /// Bytes of what a block holds on chip: one row of every input that
  /// varies along the row (inner), or the column block (`tile` columns of
  /// the reduced elements) of every input of the source shape (outer).
  int64_t rowBytes = 0;
  /// The shared memory the kernel may use at most: rowBytes plus the
  /// scratch of each block-wide combine (inner: gpu.all_reduce keeps one
  /// 32-bit value per warp, 128 bytes; outer: one 32-bit partial per
  /// thread, and a tile of each input broadcast along the reduced axes).
  int64_t sharedBytes = 0;
  /// The yielded values (by position) that depend on no reduction and are
  /// neither rows nor reduced rows: any shape. The kernel writes them beside
  /// the rows, in a grid-stride loop of all its threads (as a reduction
  /// kernel writes its outputs that do not need the reduction).
  SmallVector<unsigned> besideRows;
  /// Why the body is not a normalization (empty when it is).
  std::string whyNot;
};

/// Analyzes a segment body as a normalization: at least one reduction, all
/// with the same source shape and the same reduced dims (the trailing ones,
/// or ones that keep the innermost non-unit axis), 32-bit accumulation;
/// every op that uses a reduction result is elementwise on the source shape
/// or on the reduced shape (keepdim or not), or a broadcast from the one to
/// the other over the reduced dims; every yielded value computed from a
/// reduction has one of those shapes, or is a row with extent-1 axes dropped
/// that keeps the row's innermost extent (isSameShapeUpToUnitDims); the
/// others may have any shape (`besideRows`). Of an inner normalization,
/// "the same" and "those shapes" hold up to extent-1 axes (with several
/// rows, not for reduced values), and squeezes, broadcasts and views that
/// only change extent-1 axes may map them (docs/Segmentation.md). With
/// `splitReductions` false an outer normalization's columns
/// are each folded by one thread (threads == tile).
NormalizationStructure
analyzeNormalization(const KernelOps &kernel, bool splitReductions = true,
                     int64_t sharedMemoryBudget = kNormalizationRowBudgetBytes);
NormalizationStructure analyzeNormalization(Block &body,
                                            bool splitReductions = true);

/// Whether `shape` and `other` hold the same elements in the same order up
/// to extent-1 axes: their extents other than 1 agree, in order (an index of
/// one maps to the other by dropping unit axes and inserting zeros).
bool isSameShapeUpToUnitDims(ArrayRef<int64_t> shape, ArrayRef<int64_t> other);

/// Whether an input of `type` is broadcast along the reduced axes of outer
/// normalization `structure` (a per-column weight): the reduced shape, with
/// or without the reduced dims, or broadcastable to it. The kernel keeps a
/// tile's elements of each in shared memory (docs/Lowering.md).
bool isColumnInput(const NormalizationStructure &structure,
                   RankedTensorType type);

/// Matches ops to the templates one at a time, in a topological order, so
/// that segmentation can test a kernel grown by a few ops without analysing
/// it again, and take the ops back where the test fails. matchKernel and
/// analyzeNormalization are built on it.
class KernelTemplateBuilder {
public:
  /// Adds `op`; every op of the kernel that it reads was added before.
  void addOp(Operation *op);
  /// Checks `value`, which the kernel writes as output `number`.
  void addOutput(Value value, unsigned number);
  /// Adds the ops and outputs of `kernel`.
  void add(const KernelOps &kernel);

  bool hasReduction() const { return !reductions.empty(); }
  /// Whether an op was added that no kernel kind emits.
  bool hasUnemittableOp() const { return !state.whyNotEmitted.empty(); }
  /// Whether a written value failed the normalization template (a test
  /// that stays failed while ops are added).
  bool hasOutputFailure() const { return !state.whyNotOutputs.empty(); }
  /// Whether an argsort or a scatter was added (whose rules read every
  /// written value).
  bool hasRowOp() const { return state.sorts != 0 || state.scatters != 0; }
  /// Whether `other`'s first reduction has the same source shape and dims
  /// as this one's (so either may decide the rows).
  bool hasSameFirstReduction(const KernelTemplateBuilder &other) const;
  /// False where the ops of this builder and `other` together, reading
  /// `inputs`, are certainly no kernel: a reduction-template failure of
  /// either stays in the union, so it would be a normalization, over the
  /// rows of this builder's first reduction (the caller passes the builder
  /// whose first reduction comes first), and that needs more shared memory
  /// than `target` has. Costs what the inputs' types do.
  bool canBeKernelWith(const KernelTemplateBuilder &other,
                       ArrayRef<InputTypeCount> inputs,
                       const TargetInfo &target) const;
  /// The template that takes what was added, with `inputs` read, or none.
  /// Costs what the inputs' distinct types do, not what the kernel holds,
  /// and builds no reason (segmentation asks it for every candidate).
  std::optional<SegmentKind> getTemplate(ArrayRef<InputTypeCount> inputs,
                                         const TargetInfo &target,
                                         bool allowNormalization) const;
  /// getTemplate, with the reason where no template takes the ops.
  KernelMatch match(ArrayRef<InputTypeCount> inputs, const TargetInfo &target,
                    bool allowNormalization) const;
  /// What was added as a normalization, with `inputs` read.
  NormalizationStructure getNormalization(ArrayRef<InputTypeCount> inputs,
                                          bool splitReductions,
                                          int64_t sharedMemoryBudget) const;

  /// What rollback returns to: the state when checkpoint was called. Taking
  /// one copies no list that grows with the kernel.
  struct Checkpoint;
  Checkpoint checkpoint();
  void rollback(Checkpoint checkpoint);

private:
  struct State {
    /// The kernel kinds that emit every op added (canEmitInKernel), one bit
    /// per SegmentKind, and the first op that none emits.
    unsigned kinds = ~0u;
    std::string whyNotEmitted;
    /// The library ops added, and the first break of the library template
    /// (one library op, meta ops of its operands, its result written).
    unsigned libraryOps = 0;
    std::string whyNotLibrary;
    /// The argsorts added and the first one's shape, and the shape of the
    /// values written (unset before the first; `writtenShapesDiffer` once
    /// two differ other than in extent-1 dims): a kernel with an argsort
    /// writes its rows only, in any spelling (SortRowKernel), or the first
    /// k of them where it reads the argsort through top-k slices
    /// (getTopkSelection; SelectRowKernel).
    unsigned sorts = 0;
    SmallVector<int64_t> sortShape;
    /// The shape of the top-k slices of the argsort (unset before the
    /// first), and whether two select different k.
    std::optional<SmallVector<int64_t>> selectedShape;
    bool selectionsDiffer = false;
    std::optional<SmallVector<int64_t>> writtenShape;
    bool writtenShapesDiffer = false;
    /// Whether an op reads a value computed from the argsort other than
    /// element by element (the sort kinds have each element only at its
    /// rank): a top-k slice of the argsort itself and a gather's index
    /// (of a source not computed from the argsort) are read so.
    bool readsSortAcross = false;
    /// The scatters added and the first one's result, whether an op added
    /// reads it, and whether a value other than a scatter's result is
    /// written: a kernel with a scatter writes its result only, which no op
    /// of the kernel reads (ScatterRowKernel).
    unsigned scatters = 0;
    Value scatterResult;
    bool readsScatter = false;
    bool writesBesideScatter = false;
    /// The normalization so far, without its lists (the builder's
    /// `reductions` and `besideRows`) and without rowBytes, tile or
    /// sharedBytes.
    NormalizationStructure structure;
    /// The first reduction's source shape with its reduced dims set to 1,
    /// and without them.
    SmallVector<int64_t> keptShape, droppedShape;
    /// The reduction template: the first reduction's axes and result size.
    SmallVector<std::pair<int64_t, bool>> reductionAxes;
    uint64_t reductionLimit = 0;
    std::string whyNotReductionTemplate;
    /// The normalization template's first failure of its reductions, of an
    /// op computed from one, and of a written value.
    std::string whyNotReductions, whyNotOps, whyNotOutputs;
  };

  void addLibraryRules(Operation *op);
  /// Records what `op` computes from an argsort, and whether it reads such
  /// a value other than element by element.
  void addSortRules(Operation *op);
  /// Why the argsort rule fails (more than one argsort, or a written value
  /// not of its shape), or empty.
  std::string getWhyNotSortRows() const;
  /// Why the scatter rule fails (more than one scatter, its result read in
  /// the kernel, or another value written), or empty.
  std::string getWhyNotScatterRows() const;
  void addFirstReduction(ReductionOp first);
  void addReduction(ReductionOp reduction, bool usesReduction);
  void addDependentOp(Operation &op);
  bool reducesSameRows(ReductionOp reduction) const;
  bool isRowOrReduced(ArrayRef<int64_t> valueShape) const;
  /// A row or a reduced row in any spelling of extent-1 axes: what meta
  /// ops and outputs may carry, not elementwise operands (size-1
  /// broadcasting needs the first reduction's spelling).
  bool isRowOrReducedInAnySpelling(ArrayRef<int64_t> valueShape) const;
  /// Why what was added is no normalization whatever its sizes; empty where
  /// it is one.
  std::string getWhyNotNormalization() const;
  /// The normalization's on-chip sizes with `inputs` read and
  /// `numReductions` reductions, on a copy of the state's structure (its
  /// lists and whyNot left empty).
  NormalizationStructure sizeNormalization(ArrayRef<InputTypeCount> inputs,
                                           int64_t numReductions,
                                           bool splitReductions,
                                           int64_t sharedMemoryBudget) const;

  State state;
  /// The reductions added, in order, and the outputs written beside the
  /// rows: lists only appended to, so a checkpoint keeps their sizes.
  SmallVector<ReductionOp> reductions;
  SmallVector<unsigned> besideRows;
  /// Values computed from a reduction of the kernel.
  DenseSet<Value> dependent;
  /// The values added to `dependent` since the last checkpoint.
  SmallVector<Value> journal;
  /// An argsort's result and the values computed from it, and those added
  /// since the last checkpoint.
  DenseSet<Value> sortDependent;
  SmallVector<Value> sortJournal;
};

struct KernelTemplateBuilder::Checkpoint {
  State state;
  size_t numReductions, numBesideRows;
};

/// The number of elements each thread computes per step for `result` (a
/// segment output) under `schedule`: the schedule's vector width, halved
/// until it divides the innermost extent (1 for rank 0 and for split
/// schedules, whose block-level outputs are scalars).
int64_t getOutputVectorWidth(ScheduleAttr schedule, ShapedType result);

} // namespace mlir::fuser

#endif // FUSER_ANALYSIS_KERNELTEMPLATES_H
