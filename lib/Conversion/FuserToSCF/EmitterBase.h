//===- EmitterBase.h - what every kernel kind shares ------------*- C++ -*-===//
//
// Private to the FuserToSCF conversion. A kernel computes each element of
// each output by evaluating the segment's ops backwards from that element
// (ElementEmitter.cpp): every operand is read through its index map
// (fuser/Analysis/IndexingMaps.h), evaluated as index arithmetic
// (IndexArithmetic.cpp) and followed by the lanes (LaneAnalysis.cpp);
// elementwise ops go through FuserToArith, reductions are
// loops (or, in split schedules, a loop per thread combined across the block
// with scf.reduce). No intermediate tensor of the segment is materialized.
// The skeletons, one file per kernel kind, are in kernels/.
//
// Each thread evaluates `width` consecutive elements of the innermost output
// axis at once, as vectors; the width is part of the lanes of the evaluation
// (Lanes::width), passed down with them, not state of the emitter. How those
// lanes move through the index maps is tracked per value (Lanes): all lanes at
// one index (Uniform), lanes at consecutive indices of one axis (Unit, aligned
// to the width: loads of the innermost axis become one aligned vector load), or
// anything else (Gather: one scalar load per lane).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_LIB_CONVERSION_FUSERTOSCF_EMITTERBASE_H
#define FUSER_LIB_CONVERSION_FUSERTOSCF_EMITTERBASE_H

#include "fuser/Analysis/IndexingMaps.h"
#include "fuser/Analysis/KernelTemplates.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/IntegerSet.h"

#include <tuple>

namespace mlir::fuser::kernels {

enum class LaneKind { Uniform, Unit, Gather };

/// Where the lanes of one evaluation read a value.
struct Lanes {
  /// How many lanes: the vector width of the evaluation (every value it
  /// computes is a vector of `width` elements).
  int64_t width = 1;
  LaneKind kind = LaneKind::Uniform;
  /// Unit: the axis along which lane l reads base[dim] + l.
  int64_t dim = -1;
  /// Lane 0's index.
  SmallVector<Value> base;
  /// Gather: every lane's index.
  SmallVector<SmallVector<Value>> perLane;

  bool operator==(const Lanes &other) const {
    return width == other.width && kind == other.kind && dim == other.dim &&
           base == other.base && perLane == other.perLane;
  }
};

enum class IndexOp { Add, Sub, Mul, Div, Rem, Min, Max };

/// Values created in one region: they may be reused in it and in regions
/// nested in it, never outside.
struct Scope {
  DenseMap<std::tuple<int, Value, Value>, Value> indexOps;
  DenseMap<int64_t, Value> constants;
  DenseMap<Value, SmallVector<std::pair<Lanes, Value>, 1>> values;
};

/// Normalization kernels keep the block's row of each input in shared
/// memory: the thread loop that first reads an element of a row input from
/// global memory also stores it there, and later thread loops read it back.
/// Every loop walks the row alike (thread t at t * lanes, striding threads *
/// lanes), so each thread reads back only what it stored and no barrier is
/// needed.
struct RowStage {
  memref::GlobalOp buffer;
  /// The thread loop that fills it (loops are numbered in order).
  int64_t filledBy = -1;
  /// Whether it holds the current row of an input of the rows' shape
  /// (refilled for each row of the block) rather than an input broadcast
  /// along the rows (a weight: filled once per block).
  bool perRow = true;
};

/// One step of a thread's walk over the staged rows: the lanes it reads (in
/// the staged rows' spelling) and its position in the row buffers. A load
/// at those lanes of a staged input goes through the stage (load()).
struct RowStep {
  Lanes lanes;
  Value position;
};

/// The staged rows of a normalization kernel and which thread loop its
/// emission is in; load() reads the stages through it.
struct RowStaging {
  explicit RowStaging(int64_t outerDims = 0, ArrayRef<int64_t> spelling = {})
      : outerDims(outerDims), spelling(spelling) {}

  DenseMap<Value, RowStage> stages;
  /// The thread loop being emitted, and whether it may fill stages (the
  /// last one need not).
  int64_t loop = -1;
  bool fill = false;
  /// The number of kept (outer) dims of the rows' shape.
  const int64_t outerDims;
  /// The shape the staged rows are indexed in (inner normalizations): a
  /// reduction that spells the rows with other extent-1 axes walks them in
  /// its own shape, and its row lanes map to this one.
  const SmallVector<int64_t> spelling;
};

inline ArrayRef<int64_t> shapeOf(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

/// What a kernel is emitted for, and what its kind is chosen by
/// (kernels/KernelKinds.h).
struct KernelQuery {
  SegmentOp segment;
  ScheduleAttr schedule;
  /// The values bound to the segment's inputs (memrefs for tensors, scalars
  /// as they are) and the memrefs its results are written to.
  ValueRange inputs, outputs;
  /// Normalization schedules: analyzeNormalization of the segment's body
  /// (a normalization; null for other schedules).
  const NormalizationStructure *normalization = nullptr;
  /// convert-fuser-to-scf's check-indices: gathers report indices out of
  /// range and read clamped in bounds.
  bool checkIndices = false;
};

/// Which dim of an operand of shape `shape` Unit lanes along result dim
/// `dim` (`width` of them, aligned) read through index map `map`: that dim
/// where exactly one operand dim steps by 1 per lane, aligned, and the
/// others stay; nullopt where every operand dim stays (the lanes become
/// Uniform); -1 where they read anything else (Gather).
std::optional<int64_t> getOperandLaneDim(AffineMap map, ArrayRef<int64_t> shape,
                                         int64_t dim, int64_t width);

/// An scf.parallel over [0, counts[i]) mapped to `processors[i]`, with the
/// builder inside its body.
scf::ParallelOp createMappedLoop(OpBuilder &b, Location loc,
                                 ArrayRef<int64_t> counts,
                                 ArrayRef<gpu::Processor> processors,
                                 ValueRange inits = {});

/// What every kernel kind shares: index arithmetic, lanes, element
/// evaluation, loads and stores, and the loops and output slots of kernels.
/// A kernel kind (kernels/KernelKinds.h) derives from it and emits its
/// skeleton, which run() calls. The constructor binds the segment's inputs
/// and outputs; a normalization kind passes the RowStaging it owns.
class EmitterBase {
public:
  EmitterBase(OpBuilder &builder, const KernelQuery &query,
              RowStaging *staging = nullptr)
      : b(builder), loc(query.segment->getLoc()), segment(query.segment),
        schedule(query.schedule), inputs(bindInputs(query.inputs)),
        outputs(query.outputs.begin(), query.outputs.end()),
        checkIndices(query.checkIndices), staging(staging) {}
  virtual ~EmitterBase() = default;

  /// Emits the kernel's skeleton (emitSkeleton) at the builder's insertion
  /// point.
  LogicalResult run();

protected:
  /// The kernel kind's loops, at the builder's insertion point, inside the
  /// kernel's outermost scope.
  virtual LogicalResult emitSkeleton() = 0;

  /// Binds the segment's block arguments to `memrefs`, and each squeeze of
  /// an input to a collapsed view of the input's memref: the kernel indexes
  /// it in the squeezed shape its ops compute in (fuser-segment drops
  /// extent-1 axes), and a normalization stages it as rows of that shape.
  /// Returns the inputs as the segment's ops read them.
  SmallVector<Value> bindInputs(ValueRange memrefs);

  //===--------------------------------------------------------------------===//
  // Index arithmetic, folded by the arith folders and shared within a scope
  //===--------------------------------------------------------------------===//

  Value constant(int64_t value);
  Value indexOp(IndexOp kind, Value lhs, Value rhs);
  Value add(Value lhs, Value rhs) { return indexOp(IndexOp::Add, lhs, rhs); }
  Value sub(Value lhs, Value rhs) { return indexOp(IndexOp::Sub, lhs, rhs); }
  Value mul(Value lhs, Value rhs) { return indexOp(IndexOp::Mul, lhs, rhs); }
  Value div(Value lhs, Value rhs) { return indexOp(IndexOp::Div, lhs, rhs); }
  Value rem(Value lhs, Value rhs) { return indexOp(IndexOp::Rem, lhs, rhs); }
  Value clamp(Value value, int64_t low, int64_t high) {
    return indexOp(IndexOp::Min, indexOp(IndexOp::Max, value, constant(low)),
                   constant(high));
  }
  /// Row-major index of `flat` in `shape`.
  SmallVector<Value> delinearize(Value flat, ArrayRef<int64_t> shape);
  /// The results of index map `map` at dims `index` and symbols `symbols`
  /// (a meta op's, or a piece of getOperandIndexMaps). Indices are never
  /// negative, so floordiv and mod are unsigned.
  SmallVector<Value> applyIndexMap(AffineMap map, ArrayRef<Value> index,
                                   ArrayRef<Value> symbols = {});
  Value applyIndexExpr(AffineExpr expr, ArrayRef<Value> index,
                       ArrayRef<Value> symbols);
  /// Whether `index` satisfies `set` (an i1), or true where `set` is null.
  Value applyCondition(IntegerSet set, ArrayRef<Value> index);
  /// `index` of shape `from` as the index of the element at the same
  /// row-major position in shape `to`.
  SmallVector<Value> reshapeIndex(ArrayRef<Value> index, ArrayRef<int64_t> from,
                                  ArrayRef<int64_t> to) {
    return applyIndexMap(getReshapeIndexMap(b.getContext(), to, from), index);
  }

  void pushScope() { scopes.emplace_back(); }
  void popScope() { scopes.pop_back(); }

  //===--------------------------------------------------------------------===//
  // Lanes through the index maps
  //===--------------------------------------------------------------------===//

  /// The lanes of an operand of shape `operandShape` read through index
  /// map `map` at lanes `at` of the result (getOperandLaneDim).
  Lanes mapLanes(AffineMap map, ArrayRef<int64_t> operandShape,
                 const Lanes &at);
  /// Lanes `at` of a Unit kind, spelled out one index per lane.
  Lanes toGather(const Lanes &at);
  /// Applies `map` to every index of `at`, keeping Unit lanes on `unitDim`
  /// (Gather when it is negative) or making them Uniform.
  Lanes transform(const Lanes &at,
                  function_ref<SmallVector<Value>(ArrayRef<Value>)> map,
                  std::optional<int64_t> unitDim);
  /// Whether `value` is equal at `width` Unit lanes along `dim` (aligned):
  /// whether every value it is computed from is read at one index for all
  /// of them, or is a fill.
  bool isUniformAlong(Value value, int64_t dim, int64_t width);
  /// A condition (i1, or vector of i1 for Gather lanes) computed per index.
  Value laneCondition(const Lanes &at,
                      function_ref<Value(ArrayRef<Value>)> condition);

  //===--------------------------------------------------------------------===//
  // Evaluation
  //===--------------------------------------------------------------------===//

  /// The type of `width` lanes of `elementType`: a vector, except that
  /// complex elements (which no vector holds; their kernels have width 1)
  /// are the scalar itself.
  static Type vectorOf(Type elementType, int64_t width) {
    if (isa<ComplexType>(elementType)) {
      assert(width == 1 && "complex kernels run one element per thread");
      return elementType;
    }
    return VectorType::get({width}, elementType);
  }
  Value splat(Value scalar, int64_t width) {
    if (isa<ComplexType>(scalar.getType()))
      return scalar;
    return vector::BroadcastOp::create(
        b, loc, vectorOf(scalar.getType(), width), scalar);
  }
  /// Lane `lane` of a value of vectorOf's type.
  Value extractLane(Value lanes, int64_t lane) {
    if (!isa<VectorType>(lanes.getType()))
      return lanes;
    return vector::ExtractOp::create(b, loc, lanes, lane).getResult();
  }
  /// A scalar of the segment (argument, constant or scalar arithmetic),
  /// computed before the kernel.
  FailureOr<Value> evalScalar(Value value);
  /// `value` (a tensor of the segment) at lanes `at`, as a vector of
  /// `width` elements.
  /// Chains of elementwise and meta ops are walked with an explicit stack,
  /// so a fusion may chain any number of them; pad, cat and reductions
  /// recurse, at most kMaxNestedEvaluations deep. `rowStep`: the step of
  /// the walk over the staged rows being emitted, or null.
  FailureOr<Value> eval(Value value, const Lanes &at,
                        const RowStep *rowStep = nullptr);
  /// The value computed for `value` at `at` in this scope or an enclosing
  /// one, or null.
  Value lookUpEvaluated(Value value, const Lanes &at);
  /// A value of the segment that the normalization kernel keeps in a row
  /// stage (RowStaging::stages, keyed by the value): its lanes `at` of the
  /// walk `rowStep` loaded from the stage when an earlier thread loop of
  /// the row filled it, else null.
  Value loadStagedValue(Value value, const Lanes &at, const RowStep *rowStep);
  /// Stores `computed`, lanes `at` of staged `value`, when this thread loop
  /// may fill the stage.
  void storeStagedValue(Value value, const Lanes &at, const RowStep *rowStep,
                        Value computed);
  /// The op whose operands eval() evaluates on its stack (a meta op that
  /// reads its source one to one, or an elementwise op) when it defines
  /// `value`, or null.
  Operation *getChainedOp(Value value);
  /// The index map through which chained op `op` reads tensor `operand`:
  /// a meta op's source map, an elementwise op's broadcast map.
  AffineMap getChainedOperandMap(Operation *op, Value operand);
  /// The lanes at which chained op `op` reads operand `index` for lanes
  /// `at` of its result.
  Lanes getOperandLanes(Operation *op, unsigned index, const Lanes &at);
  /// `value` at `at` when getChainedOp(value) is null.
  FailureOr<Value> evalUnchained(Value value, const Lanes &at,
                                 const RowStep *rowStep);
  FailureOr<Value> evalPad(PadOp op, const Lanes &at, const RowStep *rowStep);
  FailureOr<Value> evalCat(CatOp op, const Lanes &at, const RowStep *rowStep);
  FailureOr<Value> evalReduction(ReductionOp op, const Lanes &at,
                                 const RowStep *rowStep);
  /// A scan's elements at lanes `at`, each its prefix combined in a loop.
  FailureOr<Value> evalScan(ScanOp op, const Lanes &at,
                            const RowStep *rowStep);
  FailureOr<Value> evalGather(GatherOp op, const Lanes &at,
                              const RowStep *rowStep);
  /// `position`, an index read by `op` for its result element `element`,
  /// clamped in bounds after a call of kIndexOutOfRangeFunction where it is
  /// out of them (checkIndices), or as read.
  Value checkGatherIndex(GatherOp op, Value position,
                         ArrayRef<Value> element);
  /// Where checkIndices: a call of kIndexOutOfRangeFunction where
  /// `position`, read by `op` at `element` of its index tensor (of
  /// `indexShape`), is outside [0, extent) along `dim`.
  void emitIndexCheck(Operation *op, int64_t dim, int64_t extent,
                      ArrayRef<int64_t> indexShape, Value position,
                      ArrayRef<Value> element);
  /// Iota's elements at lanes `at`, computed from their index.
  FailureOr<Value> evalIota(IotaOp op, const Lanes &at);
  /// A random op's elements at lanes `at` (RandomNumbers.cpp).
  FailureOr<Value> evalRandom(Operation *op, const Lanes &at);
  /// A load of `memref` at lanes `at`, from the row's shared buffer where
  /// it is staged and `at` are the lanes of `rowStep`.
  Value load(Value memref, const Lanes &at, const RowStep *rowStep);
  Value loadGlobal(Value memref, const Lanes &at);
  void store(Value vector, Value memref, const Lanes &at);

  //===--------------------------------------------------------------------===//
  // Kernel structure
  //===--------------------------------------------------------------------===//

  /// Computes and stores `width` elements of output `index` from slot
  /// `slot` (its elements slot * width ...).
  LogicalResult emitOutputSlot(unsigned index, Value slot);
  /// Computes and stores `width` elements of output `index` from `base`
  /// along its innermost axis (at step `rowStep` of a walk over the staged
  /// rows, if not null).
  LogicalResult emitOutputAt(unsigned index, SmallVector<Value> base,
                             int64_t width, const RowStep *rowStep = nullptr);
  /// One element of every output at `index` of `shape` (a row kernel's),
  /// each output indexed in its own spelling of that shape (equal up to
  /// extent-1 dims: the same row-major position).
  LogicalResult emitOutputsAt(ArrayRef<Value> index, ArrayRef<int64_t> shape);
  /// emitOutputsAt, with the element of `value` at `index` known to be
  /// `element` (width 1): the row kernels' own result there (a rank, a
  /// prefix), which evaluating the outputs reads instead of `value`'s op.
  LogicalResult emitOutputsGiven(Value value, Value element,
                                 ArrayRef<Value> index,
                                 ArrayRef<int64_t> shape);
  /// Every slot of output `index` a thread owns: slot `first`, then strides
  /// of `stride` slots.
  LogicalResult emitOutputSlots(unsigned index, Value first, int64_t stride);
  /// The segment's one reduction, when a split schedule can lower it (a
  /// located error otherwise).
  FailureOr<ReductionStructure> analyzeSplitReduction();
  /// The kept and the reduced source extents of `reduction`, in order.
  static std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
  splitExtents(ReductionOp reduction);
  /// The source index of `reduction` made of the kept and the reduced
  /// source dims' indices, each in dim order.
  static SmallVector<Value> interleaveSourceIndex(ReductionOp reduction,
                                                  ArrayRef<Value> kept,
                                                  ArrayRef<Value> reduced);
  /// Inside a thread loop: outputs `indices`, a grid-stride loop over all
  /// threads of all blocks (outputs that need no block's reduction).
  LogicalResult emitGridStrideOutputs(ArrayRef<unsigned> indices, Value block,
                                      Value thread);
  /// Inside a thread loop of a split kernel: the outputs that do not need
  /// the reduction (emitGridStrideOutputs).
  LogicalResult emitOutputsBesideReduction(const ReductionStructure &structure,
                                           Value block, Value thread);
  /// The partials in `buffer` (workgroup memory, `tile` per group) of
  /// column `lane` combined in group order from the identity of
  /// `reduction`: fixed, so every run and every thread rounds alike.
  Value combineGroupPartials(ReductionOp reduction, Value buffer,
                             int64_t groups, int64_t tile, Value lane);
  /// Stores the elements of the outputs computed from the reduction (its
  /// value in reducedValues) at the reduction output `kept` (the indices of
  /// the kept source dims), mapped forward through their views.
  LogicalResult emitReducedOutputs(const ReductionStructure &structure,
                                   ArrayRef<Value> kept);
  /// The last thread loop of a normalization block: the outputs that are
  /// neither rows nor reduced rows (`besideRows`, computed from no
  /// reduction), a grid-stride loop over all threads of all blocks.
  LogicalResult emitOutputsBesideRows(const NormalizationStructure &structure,
                                      Value block);
  /// The loop over `blocks` blocks, with the builder and a new scope inside;
  /// scalars go before it. Returns the block index.
  Value emitBlockLoop(int64_t blocks);
  /// A thread per row along `dim` of `shape` (the row kernels): the block
  /// and thread nest and the test that the thread has a row, with the
  /// builder and new scopes inside; scalars go before it. Returns the row's
  /// index, 0 along `dim`.
  SmallVector<Value> emitRowNest(ArrayRef<int64_t> shape, int64_t dim);
  /// One block-wide combine of `reduction` for the block's output `kept`
  /// (the indices of the kept source dims): a thread loop in which each
  /// thread folds `lanes` consecutive elements of the innermost reduced axis
  /// at a time, striding over the reduced elements, then the lanes, then
  /// the threads (scf.reduce). `prologue` runs first in the thread loop.
  /// Returns the block's value in the compute type.
  FailureOr<Value>
  emitBlockReduction(ReductionOp reduction, ArrayRef<Value> kept,
                     int64_t threads, int64_t lanes,
                     function_ref<LogicalResult(Value thread)> prologue);
  /// What a thread's loop carries for its partial of `reduction`, starting
  /// from `identity` (a scalar or a vector of lanes), where the partial
  /// takes up to `steps` elements in sequence: the partial and, for a float
  /// sum split across threads whose partials take more than
  /// kPlainPartialSteps elements, Kahan's compensation (so that a thread's n
  /// / threads elements err like one addition). An unsplit sum keeps the
  /// interpreter's sequential order.
  SmallVector<Value> emitPartialInit(ReductionOp reduction, Value identity,
                                     bool split, int64_t steps);
  /// The carried values of emitPartialInit after combining `value`.
  SmallVector<Value> emitPartialStep(ReductionOp reduction, ValueRange carried,
                                     Value value);

  OpBuilder &b;
  Location loc;
  SegmentOp segment;
  ScheduleAttr schedule;
  SmallVector<Scope> scopes;
  /// Segment block arguments, and squeezes of them -> kernel values;
  /// scalars computed before the kernel.
  IRMapping bindings;
  /// The segment's inputs as its ops read them: each block argument, and
  /// each squeeze of one (bindInputs).
  const SmallVector<Value> inputs;
  const SmallVector<Value> outputs;
  const bool checkIndices;
  /// Where scalars are computed: just before the kernel nest.
  OpBuilder::InsertPoint scalarPoint;
  /// In split schedules: the block's value of the reduction, per reduction.
  DenseMap<Operation *, Value> reducedValues;
  /// How deep evalUnchained's pad, cat and reduction cases nest now, and
  /// how deep they may (each level costs a few C++ frames).
  unsigned nestedEvaluations = 0;
  static constexpr unsigned kMaxNestedEvaluations = 200;

  /// The row staging of a normalization kernel (owned by its kind), or
  /// null.
  RowStaging *const staging;
};

} // namespace mlir::fuser::kernels

#endif // FUSER_LIB_CONVERSION_FUSERTOSCF_EMITTERBASE_H
