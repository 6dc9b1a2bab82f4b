//===- KernelEmitter.cpp - one kernel segment as an scf.parallel nest -----===//
//
// A kernel computes each element of each output by evaluating the segment's
// ops backwards from that element: meta ops (view, permute, squeeze,
// broadcast, expand, slice, pad, cat) are index arithmetic, elementwise ops
// go through FuserToArith, reductions are loops (or, in split schedules, a
// loop per thread combined across the block with scf.reduce). No
// intermediate tensor of the segment is materialized.
//
// Each thread evaluates `width` consecutive elements of the innermost output
// axis at once, as vectors. How those lanes move through the index maps is
// tracked per value (Lanes): all lanes at one index (Uniform), lanes at
// consecutive indices of one axis (Unit, aligned to the width: loads of the
// innermost axis become one aligned vector load), or anything else (Gather:
// one scalar load per lane).
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Conversion/Utils/WorkgroupBuffer.h"
#include "fuser/Analysis/KernelTemplates.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <tuple>

using namespace mlir;
using namespace mlir::fuser;

namespace {

enum class LaneKind { Uniform, Unit, Gather };

/// Where the lanes of one evaluation read a value.
struct Lanes {
  LaneKind kind = LaneKind::Uniform;
  /// Unit: the axis along which lane l reads base[dim] + l.
  int64_t dim = -1;
  /// Lane 0's index.
  SmallVector<Value> base;
  /// Gather: every lane's index.
  SmallVector<SmallVector<Value>> perLane;

  bool operator==(const Lanes &other) const {
    return kind == other.kind && dim == other.dim && base == other.base &&
           perLane == other.perLane;
  }
};

enum class IndexOp { Add, Sub, Mul, Div, Rem, Min, Max };

/// Values created in one region: they may be reused in it and in regions
/// nested in it, never outside.
struct Scope {
  DenseMap<std::tuple<int, Value, Value>, Value> indexOps;
  DenseMap<int64_t, Value> constants;
  DenseMap<Value, SmallVector<std::pair<Lanes, Value>, 1>> values;
  /// (shape, index, flat) of every delinearization, so that linearizing the
  /// index again (a view after a view) gives back the flat position.
  SmallVector<std::tuple<SmallVector<int64_t>, SmallVector<Value>, Value>>
      delinearized;
};

class KernelEmitter {
public:
  KernelEmitter(OpBuilder &builder, SegmentOp segment, ScheduleAttr schedule)
      : b(builder), loc(segment.getLoc()), segment(segment),
        schedule(schedule) {}

  LogicalResult emit(ValueRange inputMemrefs, ValueRange outputMemrefs);

private:
  /// Binds each squeeze of an input to a collapsed view of the input's
  /// memref: the kernel indexes it in the squeezed shape its ops compute
  /// in (fuser-segment drops extent-1 axes), and a normalization stages it
  /// as rows of that shape.
  void bindSqueezedInputs(Block &body);

  //===--------------------------------------------------------------------===//
  // Index arithmetic, folded and shared within a scope
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
  Value linearize(ArrayRef<Value> index, ArrayRef<int64_t> shape);

  void pushScope() { scopes.emplace_back(); }
  void popScope() { scopes.pop_back(); }

  //===--------------------------------------------------------------------===//
  // Lanes through the index maps
  //===--------------------------------------------------------------------===//

  /// The index of the source of meta op `op` read at `index` of its result.
  SmallVector<Value> mapIndex(Operation *op, ArrayRef<Value> index);
  /// The index of the result of one-to-one meta op `op` (view, permute,
  /// squeeze, broadcast, set) that reads `index` of its source.
  SmallVector<Value> mapIndexForward(Operation *op, ArrayRef<Value> index);
  /// The lanes of meta op `op`'s source for lanes `at` of its result.
  Lanes mapLanes(Operation *op, const Lanes &at);
  /// Lanes `at` of a Unit kind, spelled out one index per lane.
  Lanes toGather(const Lanes &at);
  /// Applies `map` to every index of `at`, keeping Unit lanes on `unitDim`
  /// (Gather when it is negative) or making them Uniform.
  Lanes transform(const Lanes &at,
                  function_ref<SmallVector<Value>(ArrayRef<Value>)> map,
                  std::optional<int64_t> unitDim);
  /// The lanes of a broadcasting operand of shape `shape` read at lanes
  /// `at` of a result of shape `resultShape`: size-1 dims stay at 0.
  Lanes broadcastLanes(const Lanes &at, ArrayRef<int64_t> shape,
                       ArrayRef<int64_t> resultShape);
  /// A condition (i1, or vector of i1 for Gather lanes) computed per index.
  Value laneCondition(const Lanes &at,
                      function_ref<Value(ArrayRef<Value>)> condition);

  //===--------------------------------------------------------------------===//
  // Evaluation
  //===--------------------------------------------------------------------===//

  /// The type of `width` lanes of `elementType`: a vector, except that
  /// complex elements (which no vector holds; their kernels have width 1)
  /// are the scalar itself.
  Type vectorOf(Type elementType) {
    if (isa<ComplexType>(elementType)) {
      assert(width == 1 && "complex kernels run one element per thread");
      return elementType;
    }
    return VectorType::get({width}, elementType);
  }
  Value splat(Value scalar) {
    if (isa<ComplexType>(scalar.getType()))
      return scalar;
    return vector::BroadcastOp::create(b, loc, vectorOf(scalar.getType()),
                                       scalar);
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
  /// recurse, at most kMaxNestedEvaluations deep.
  FailureOr<Value> eval(Value value, const Lanes &at);
  /// The value computed for `value` at `at` in this scope or an enclosing
  /// one, or null.
  Value lookUpEvaluated(Value value, const Lanes &at);
  /// The op whose operands eval() evaluates on its stack (a meta op that
  /// reads its source one to one, or an elementwise op) when it defines
  /// `value`, or null.
  Operation *getChainedOp(Value value);
  /// The lanes at which chained op `op` reads operand `index` for lanes
  /// `at` of its result.
  Lanes getOperandLanes(Operation *op, unsigned index, const Lanes &at);
  /// `value` at `at` when getChainedOp(value) is null.
  FailureOr<Value> evalUnchained(Value value, const Lanes &at);
  FailureOr<Value> evalPad(PadOp op, const Lanes &at);
  FailureOr<Value> evalCat(CatOp op, const Lanes &at);
  FailureOr<Value> evalReduction(ReductionOp op, const Lanes &at);
  /// A load of `memref` at lanes `at`, from the row's shared buffer where
  /// it is staged.
  Value load(Value memref, const Lanes &at);
  Value loadGlobal(Value memref, const Lanes &at);
  void store(Value vector, Value memref, const Lanes &at);

  //===--------------------------------------------------------------------===//
  // Kernel structure
  //===--------------------------------------------------------------------===//

  /// Computes and stores `width` elements of output `index` from slot
  /// `slot` (its elements slot * width ...).
  LogicalResult emitOutputSlot(unsigned index, Value slot);
  /// Computes and stores `width` elements of output `index` from `base`
  /// along its innermost axis.
  LogicalResult emitOutputAt(unsigned index, SmallVector<Value> base);
  /// `index` of shape `from` as an index of `to`, which holds the same
  /// elements in the same order up to extent-1 axes: the unit axes of
  /// `from` dropped, index 0 on those of `to`.
  SmallVector<Value> mapUnitAxes(ArrayRef<Value> index, ArrayRef<int64_t> from,
                                 ArrayRef<int64_t> to);
  /// Every slot of output `index` a thread owns: slot `first`, then strides
  /// of `stride` slots.
  LogicalResult emitOutputSlots(unsigned index, Value first, int64_t stride);
  /// The kernel skeleton of the schedule's kind.
  LogicalResult emitScheduledKernel();
  LogicalResult emitPerOutputKernel();
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
  LogicalResult emitSplitKernel();
  /// The tiled split of an outer reduction (split < threads): a block
  /// covers threads / split consecutive outputs, split thread groups share
  /// each one's reduced elements, and the partials meet in workgroup memory.
  LogicalResult emitTiledSplitKernel();
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
  LogicalResult emitNormalizationKernel();
  /// The last thread loop of a normalization block: the outputs that are
  /// neither rows nor reduced rows (`besideRows`, computed from no
  /// reduction), a grid-stride loop over all threads of all blocks.
  LogicalResult emitOutputsBesideRows(const NormalizationStructure &structure,
                                      Value block);
  /// An outer normalization: a block per `threads / split` consecutive
  /// columns, `split` thread groups sharing each column's reduced elements
  /// (docs/Lowering.md, "Outer normalizations").
  LogicalResult
  emitOuterNormalizationKernel(const NormalizationStructure &structure);
  /// One thread loop of an outer normalization block `block` (after a
  /// barrier unless it is the first): thread `group * tile + lane` of a
  /// column in range gets the values of the reductions before `combined`
  /// (each thread combines their partials itself, in group order) and the
  /// inputs that `roots` read once per column, then runs `body` with its
  /// group and the indices of the column's kept dims.
  LogicalResult
  emitColumnLoop(const NormalizationStructure &structure, Value block,
                 int64_t combined, ArrayRef<memref::GlobalOp> partials,
                 ArrayRef<Value> roots,
                 function_ref<LogicalResult(Value thread, Value group,
                                            Value lane, ArrayRef<Value> kept)>
                     body);
  /// The loop over `blocks` blocks, with the builder and a new scope inside;
  /// scalars go before it. Returns the block index.
  Value emitBlockLoop(int64_t blocks);
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

  OpBuilder &b;
  Location loc;
  SegmentOp segment;
  ScheduleAttr schedule;
  /// Lanes of the evaluation in progress.
  int64_t width = 1;
  SmallVector<Scope> scopes;
  /// Segment block arguments, and squeezes of them -> kernel values;
  /// scalars computed before the kernel.
  IRMapping bindings;
  /// The segment's inputs as its ops read them: each block argument, and
  /// each squeeze of one (bindSqueezedInputs).
  SmallVector<Value> inputs;
  SmallVector<Value> outputs;
  /// Where scalars are computed: just before the kernel nest.
  OpBuilder::InsertPoint scalarPoint;
  /// In split schedules: the block's value of the reduction, per reduction.
  DenseMap<Operation *, Value> reducedValues;
  /// How deep evalUnchained's pad, cat and reduction cases nest now, and
  /// how deep they may (each level costs a few C++ frames).
  unsigned nestedEvaluations = 0;
  static constexpr unsigned kMaxNestedEvaluations = 200;

  /// Normalization kernels keep the block's row of each input in shared
  /// memory: the thread loop that first reads an element of a row input
  /// from global memory also stores it there, and later thread loops read it
  /// back. Every loop walks the row alike (thread t at t * lanes, striding
  /// threads * lanes), so each thread reads back only what it stored and no
  /// barrier is needed.
  struct RowStage {
    memref::GlobalOp buffer;
    /// The thread loop that fills it (loops are numbered in order).
    int64_t filledBy = -1;
    /// Whether it holds the current row of an input of the rows' shape
    /// (refilled for each row of the block) rather than an input broadcast
    /// along the rows (a weight: filled once per block).
    bool perRow = true;
  };
  DenseMap<Value, RowStage> rowStages;
  /// The thread loop being emitted, and whether it may fill stages (the
  /// last one need not).
  int64_t rowLoop = -1;
  bool fillRowStages = false;
  /// The lanes of the row step being emitted and its position in the row.
  std::optional<Lanes> rowLanes;
  Value rowPosition;
  /// The number of kept (outer) dims of the rows' shape.
  int64_t rowOuterDims = 0;
  /// The shape the staged rows are indexed in (inner normalizations): a
  /// reduction that spells the rows with other extent-1 axes walks them in
  /// its own shape, and its row lanes map to this one.
  SmallVector<int64_t> rowSpelling;
  /// Outer normalization kernels keep a column's element of each input
  /// broadcast along the reduced axes (a per-column weight) in workgroup
  /// memory: group 0 loads it in the loop before the first that reads it
  /// (`filledBy`), the later loops read it back after their barrier, so
  /// each is read from global memory once per column.
  struct ColumnStage {
    memref::GlobalOp buffer;
    int64_t filledBy = -1;
  };
  /// In order of insertion (the inputs' order), which decides the order of
  /// the loads a column loop emits.
  llvm::MapVector<Value, ColumnStage> columnStages;
};

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

Value KernelEmitter::constant(int64_t value) {
  for (Scope &scope : llvm::reverse(scopes))
    if (Value hit = scope.constants.lookup(value))
      return hit;
  Value result = arith::ConstantIndexOp::create(b, loc, value);
  scopes.back().constants[value] = result;
  return result;
}

Value KernelEmitter::indexOp(IndexOp kind, Value lhs, Value rhs) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  switch (kind) {
  case IndexOp::Add:
    if (l && r)
      return constant(*l + *r);
    if (l == 0)
      return rhs;
    if (r == 0)
      return lhs;
    break;
  case IndexOp::Sub:
    if (l && r)
      return constant(*l - *r);
    if (r == 0)
      return lhs;
    break;
  case IndexOp::Mul:
    if (l && r)
      return constant(*l * *r);
    if (l == 0 || r == 0)
      return constant(0);
    if (l == 1)
      return rhs;
    if (r == 1)
      return lhs;
    break;
  // A zero extent divides only in code that never runs (kernels over
  // empty tensors); it is left to the kernel rather than folded here.
  case IndexOp::Div:
    if (l && r && *r != 0)
      return constant(*l / *r);
    if (l == 0)
      return constant(0);
    if (r == 1)
      return lhs;
    break;
  case IndexOp::Rem:
    if (l && r && *r != 0)
      return constant(*l % *r);
    if (l == 0 || r == 1)
      return constant(0);
    break;
  case IndexOp::Min:
    if (l && r)
      return constant(std::min(*l, *r));
    break;
  case IndexOp::Max:
    if (l && r)
      return constant(std::max(*l, *r));
    break;
  }
  auto key = std::make_tuple(static_cast<int>(kind), lhs, rhs);
  for (Scope &scope : llvm::reverse(scopes))
    if (Value hit = scope.indexOps.lookup(key))
      return hit;
  Value result;
  switch (kind) {
  case IndexOp::Add:
    result = arith::AddIOp::create(b, loc, lhs, rhs);
    break;
  case IndexOp::Sub:
    result = arith::SubIOp::create(b, loc, lhs, rhs);
    break;
  case IndexOp::Mul:
    result = arith::MulIOp::create(b, loc, lhs, rhs);
    break;
  // Indices are never negative where they are divided.
  case IndexOp::Div:
    result = arith::DivUIOp::create(b, loc, lhs, rhs);
    break;
  case IndexOp::Rem:
    result = arith::RemUIOp::create(b, loc, lhs, rhs);
    break;
  case IndexOp::Min:
    result = arith::MinSIOp::create(b, loc, lhs, rhs);
    break;
  case IndexOp::Max:
    result = arith::MaxSIOp::create(b, loc, lhs, rhs);
    break;
  }
  scopes.back().indexOps[key] = result;
  return result;
}

SmallVector<Value> KernelEmitter::delinearize(Value flat,
                                              ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = getRowMajorStrides(shape);
  SmallVector<Value> index;
  for (auto [d, size] : llvm::enumerate(shape)) {
    if (size == 1) {
      index.push_back(constant(0));
      continue;
    }
    Value quotient = div(flat, constant(strides[d]));
    // The outermost non-unit dim needs no remainder: flat is in range.
    bool outermost =
        llvm::all_of(shape.take_front(d), [](int64_t s) { return s == 1; });
    index.push_back(outermost ? quotient : rem(quotient, constant(size)));
  }
  scopes.back().delinearized.emplace_back(SmallVector<int64_t>(shape), index,
                                          flat);
  return index;
}

Value KernelEmitter::linearize(ArrayRef<Value> index, ArrayRef<int64_t> shape) {
  for (Scope &scope : llvm::reverse(scopes))
    for (auto &[knownShape, knownIndex, flat] : scope.delinearized)
      if (ArrayRef<int64_t>(knownShape) == shape &&
          ArrayRef<Value>(knownIndex) == index)
        return flat;
  SmallVector<int64_t> strides = getRowMajorStrides(shape);
  Value flat = constant(0);
  for (auto [d, value] : llvm::enumerate(index))
    flat = add(flat, mul(value, constant(strides[d])));
  return flat;
}

//===----------------------------------------------------------------------===//
// Lanes
//===----------------------------------------------------------------------===//

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

SmallVector<Value> KernelEmitter::mapUnitAxes(ArrayRef<Value> index,
                                              ArrayRef<int64_t> from,
                                              ArrayRef<int64_t> to) {
  SmallVector<Value> kept;
  for (auto [value, size] : llvm::zip_equal(index, from))
    if (size != 1)
      kept.push_back(value);
  SmallVector<Value> mapped;
  auto next = kept.begin();
  for (int64_t size : to)
    mapped.push_back(size == 1 ? constant(0) : *next++);
  return mapped;
}

SmallVector<Value> KernelEmitter::mapIndex(Operation *op,
                                           ArrayRef<Value> index) {
  return llvm::TypeSwitch<Operation *, SmallVector<Value>>(op)
      .Case([&](ViewOp view) {
        return delinearize(linearize(index, shapeOf(view.getResult())),
                           shapeOf(view.getSource()));
      })
      .Case([&](PermuteOp permute) {
        SmallVector<Value> source(index.size());
        for (auto [i, dim] : llvm::enumerate(permute.getPermutation()))
          source[dim] = index[i];
        return source;
      })
      .Case([&](SqueezeOp squeeze) {
        SmallVector<Value> source;
        auto it = index.begin();
        for (int64_t d = 0, e = shapeOf(squeeze.getSource()).size(); d < e; ++d)
          source.push_back(
              llvm::is_contained(squeeze.getDims(), d) ? constant(0) : *it++);
        return source;
      })
      .Case([&](BroadcastOp broadcast) {
        SmallVector<Value> source;
        for (auto [d, value] : llvm::enumerate(index))
          if (!llvm::is_contained(broadcast.getDims(), int64_t(d)))
            source.push_back(value);
        return source;
      })
      .Case([&](ExpandOp expand) {
        SmallVector<Value> source;
        for (auto [d, size] : llvm::enumerate(shapeOf(expand.getSource())))
          source.push_back(size == 1 ? constant(0) : index[d]);
        return source;
      })
      .Case([&](SliceOp slice) {
        SmallVector<Value> source;
        for (auto [d, value] : llvm::enumerate(index))
          source.push_back(add(constant(slice.getStarts()[d]),
                               mul(value, constant(slice.getStrides()[d]))));
        return source;
      })
      .Default([&](Operation *) {
        // set, segment_set: the same element.
        return SmallVector<Value>(index);
      });
}

SmallVector<Value> KernelEmitter::mapIndexForward(Operation *op,
                                                  ArrayRef<Value> index) {
  return llvm::TypeSwitch<Operation *, SmallVector<Value>>(op)
      .Case([&](ViewOp view) {
        return delinearize(linearize(index, shapeOf(view.getSource())),
                           shapeOf(view.getResult()));
      })
      .Case([&](PermuteOp permute) {
        SmallVector<Value> result;
        for (int64_t dim : permute.getPermutation())
          result.push_back(index[dim]);
        return result;
      })
      .Case([&](SqueezeOp squeeze) {
        SmallVector<Value> result;
        for (auto [d, value] : llvm::enumerate(index))
          if (!llvm::is_contained(squeeze.getDims(), int64_t(d)))
            result.push_back(value);
        return result;
      })
      .Case([&](BroadcastOp broadcast) {
        SmallVector<Value> result;
        auto it = index.begin();
        for (int64_t d = 0, e = shapeOf(broadcast.getResult()).size(); d < e;
             ++d)
          result.push_back(
              llvm::is_contained(broadcast.getDims(), d) ? constant(0) : *it++);
        return result;
      })
      .Default([&](Operation *) { return SmallVector<Value>(index); });
}

Lanes KernelEmitter::toGather(const Lanes &at) {
  if (at.kind == LaneKind::Gather)
    return at;
  Lanes gather;
  gather.kind = LaneKind::Gather;
  gather.base = at.base;
  for (int64_t lane = 0; lane < width; ++lane) {
    SmallVector<Value> index = at.base;
    if (at.kind == LaneKind::Unit)
      index[at.dim] = add(index[at.dim], constant(lane));
    gather.perLane.push_back(index);
  }
  return gather;
}

Lanes KernelEmitter::transform(
    const Lanes &at, function_ref<SmallVector<Value>(ArrayRef<Value>)> map,
    std::optional<int64_t> unitDim) {
  Lanes result;
  if (at.kind == LaneKind::Uniform || (at.kind == LaneKind::Unit && !unitDim)) {
    result.kind = LaneKind::Uniform;
    result.base = map(at.base);
    return result;
  }
  if (at.kind == LaneKind::Unit && *unitDim >= 0) {
    result.kind = LaneKind::Unit;
    result.dim = *unitDim;
    result.base = map(at.base);
    return result;
  }
  Lanes gather = toGather(at);
  result.kind = LaneKind::Gather;
  for (ArrayRef<Value> index : gather.perLane)
    result.perLane.push_back(map(index));
  result.base = result.perLane.front();
  return result;
}

Lanes KernelEmitter::mapLanes(Operation *op, const Lanes &at) {
  auto map = [&](ArrayRef<Value> index) { return mapIndex(op, index); };
  if (at.kind != LaneKind::Unit)
    return transform(at, map, -1);
  // Where lane l of the result at base + l * e_k reads the source: at
  // base' + l * e_j (unit dim j), all at base' (nullopt), or scattered (-1).
  int64_t k = at.dim;
  ArrayRef<int64_t> resultShape = shapeOf(op->getResult(0));
  ArrayRef<int64_t> sourceShape = shapeOf(op->getOperand(0));
  std::optional<int64_t> unitDim =
      llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
          .Case([&](ViewOp) -> std::optional<int64_t> {
            // Row-major order is kept: a source axis with the same stride
            // whose extent the width divides holds the same run of lanes.
            int64_t stride = getRowMajorStrides(resultShape)[k];
            SmallVector<int64_t> strides = getRowMajorStrides(sourceShape);
            for (auto [j, size] : llvm::enumerate(sourceShape))
              if (size != 1 && strides[j] == stride && size % width == 0)
                return int64_t(j);
            return -1;
          })
          .Case([&](PermuteOp permute) -> std::optional<int64_t> {
            return permute.getPermutation()[k];
          })
          .Case([&](SqueezeOp squeeze) -> std::optional<int64_t> {
            int64_t seen = -1;
            for (int64_t d = 0, e = sourceShape.size(); d < e; ++d)
              if (!llvm::is_contained(squeeze.getDims(), d) && ++seen == k)
                return d;
            return -1;
          })
          .Case([&](BroadcastOp broadcast) -> std::optional<int64_t> {
            int64_t inserted = llvm::count_if(broadcast.getDims(),
                                              [&](int64_t d) { return d < k; });
            return k - inserted;
          })
          .Case([&](ExpandOp) -> std::optional<int64_t> {
            if (sourceShape[k] == 1)
              return std::nullopt;
            return k;
          })
          .Case([&](SliceOp slice) -> std::optional<int64_t> {
            if (slice.getStrides()[k] == 1 &&
                slice.getStarts()[k] % width == 0 &&
                sourceShape[k] % width == 0)
              return k;
            return -1;
          })
          .Default([&](Operation *) -> std::optional<int64_t> { return k; });
  return transform(at, map, unitDim);
}

Lanes KernelEmitter::broadcastLanes(const Lanes &at, ArrayRef<int64_t> shape,
                                    ArrayRef<int64_t> resultShape) {
  if (shape == resultShape)
    return at;
  auto map = [&](ArrayRef<Value> index) {
    SmallVector<Value> source(index);
    for (auto [d, size] : llvm::enumerate(shape))
      if (size == 1)
        source[d] = constant(0);
    return source;
  };
  std::optional<int64_t> unitDim = -1;
  if (at.kind == LaneKind::Unit)
    unitDim = shape[at.dim] == 1 ? std::nullopt : std::optional(at.dim);
  return transform(at, map, unitDim);
}

Value KernelEmitter::laneCondition(
    const Lanes &at, function_ref<Value(ArrayRef<Value>)> condition) {
  if (at.kind != LaneKind::Gather)
    return condition(at.base);
  SmallVector<Value> bits;
  for (ArrayRef<Value> index : at.perLane)
    bits.push_back(condition(index));
  return vector::FromElementsOp::create(
      b, loc, cast<VectorType>(vectorOf(b.getI1Type())), bits);
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

FailureOr<Value> KernelEmitter::evalScalar(Value value) {
  // Depth first, operands in order, on an explicit stack: scalar chains
  // may be long too.
  SmallVector<std::pair<Value, bool>> stack = {{value, false}};
  while (!stack.empty()) {
    auto [scalar, operandsDone] = stack.pop_back_val();
    if (bindings.contains(scalar))
      continue;
    Operation *op = scalar.getDefiningOp();
    if (!op || op->getNumRegions() != 0 || op->getNumResults() != 1)
      return emitError(scalar.getLoc(),
                       "cannot compute this scalar in a kernel");
    if (!operandsDone) {
      stack.push_back({scalar, true});
      for (Value operand : llvm::reverse(op->getOperands()))
        stack.push_back({operand, false});
      continue;
    }
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(bindings.lookup(operand));
    OpBuilder::InsertionGuard guard(b);
    b.restoreInsertionPoint(scalarPoint);
    FailureOr<Value> result = emitScalarOp(b, op, operands);
    if (failed(result))
      return failure();
    bindings.map(scalar, *result);
  }
  return bindings.lookup(value);
}

Value KernelEmitter::lookUpEvaluated(Value value, const Lanes &at) {
  for (Scope &scope : llvm::reverse(scopes)) {
    auto it = scope.values.find(value);
    if (it == scope.values.end())
      continue;
    for (auto &[lanes, result] : it->second)
      if (lanes == at)
        return result;
  }
  return Value();
}

Operation *KernelEmitter::getChainedOp(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op || !isa<RankedTensorType>(value.getType()) ||
      bindings.contains(value) || reducedValues.contains(op))
    return nullptr;
  if (isa<ViewOp, PermuteOp, SqueezeOp, BroadcastOp, ExpandOp, SliceOp, SetOp,
          SegmentSetOp, ElementwiseOpInterface>(op))
    return op;
  return nullptr;
}

Lanes KernelEmitter::getOperandLanes(Operation *op, unsigned index,
                                     const Lanes &at) {
  if (!isa<ElementwiseOpInterface>(op))
    return mapLanes(op, at);
  Value operand = op->getOperand(index);
  if (!isa<RankedTensorType>(operand.getType()))
    return at;
  return broadcastLanes(at, shapeOf(operand), shapeOf(op->getResult(0)));
}

FailureOr<Value> KernelEmitter::eval(Value value, const Lanes &at) {
  if (Value cached = lookUpEvaluated(value, at))
    return cached;
  // One frame per value being evaluated: its operands are evaluated in
  // order, each after its own operands (as a recursion would, so the IR is
  // emitted in the same order).
  struct Frame {
    Value value;
    Lanes at;
    Operation *op;
    SmallVector<Value> operands;
  };
  SmallVector<Frame> stack;
  stack.push_back({value, at, getChainedOp(value), {}});
  while (true) {
    Frame &frame = stack.back();
    Value result;
    if (!frame.op) {
      FailureOr<Value> unchained = evalUnchained(frame.value, frame.at);
      if (failed(unchained))
        return failure();
      result = *unchained;
    } else {
      // Meta ops read their source only.
      unsigned count =
          isa<ElementwiseOpInterface>(frame.op) ? frame.op->getNumOperands() : 1;
      if (frame.operands.size() < count) {
        Value operand = frame.op->getOperand(frame.operands.size());
        Lanes lanes = getOperandLanes(frame.op, frame.operands.size(), frame.at);
        if (Value cached = lookUpEvaluated(operand, lanes)) {
          frame.operands.push_back(cached);
          continue;
        }
        Operation *chained = getChainedOp(operand);
        stack.push_back({operand, std::move(lanes), chained, {}});
        continue;
      }
      if (isa<ElementwiseOpInterface>(frame.op)) {
        FailureOr<Value> computed =
            emitElementwise(b, loc, frame.op, frame.operands);
        if (failed(computed))
          return failure();
        // A real result of complex operands (abs, real, casts) comes back
        // as a scalar: lanes of it as every real value has them.
        result = isa<ComplexType, VectorType>(computed->getType())
                     ? *computed
                     : splat(*computed);
      } else {
        result = frame.operands.front();
      }
    }
    scopes.back().values[frame.value].push_back({frame.at, result});
    stack.pop_back();
    if (stack.empty())
      return result;
    stack.back().operands.push_back(result);
  }
}

FailureOr<Value> KernelEmitter::evalUnchained(Value value, const Lanes &at) {
  if (!isa<RankedTensorType>(value.getType())) {
    FailureOr<Value> scalar = evalScalar(value);
    if (failed(scalar))
      return failure();
    return splat(*scalar);
  }
  if (Value bound = bindings.lookupOrNull(value)) {
    // An input without elements is never read at an index in range (its
    // reads sit in loops that do not run or in lanes a select drops): the
    // kernel does not reference it, so it never becomes a kernel argument,
    // which the bare-pointer convention refuses (an identity layout with a
    // zero extent has dynamic strides).
    if (getSaturatedNumElements(bound.getType()) == 0) {
      Type element = cast<MemRefType>(bound.getType()).getElementType();
      if (auto complex = dyn_cast<ComplexType>(element)) {
        Value zero = arith::ConstantOp::create(
            b, loc, b.getZeroAttr(complex.getElementType()));
        return complex::CreateOp::create(b, loc, complex, zero, zero)
            .getResult();
      }
      return arith::ConstantOp::create(
                 b, loc, cast<TypedAttr>(b.getZeroAttr(vectorOf(element))))
          .getResult();
    }
    return load(bound, at);
  }
  Operation *op = value.getDefiningOp();
  if (Value reduced = reducedValues.lookup(op))
    return splat(reduced);
  if (isa<FullOp>(op)) {
    FailureOr<Value> scalar = evalScalar(cast<FullOp>(op).getValue());
    if (failed(scalar))
      return failure();
    return splat(*scalar);
  }
  if (!isa<PadOp, CatOp, ReductionOp>(op))
    return op->emitError("the kernel lowering does not support '")
           << op->getName() << "'";
  // These evaluate their operands from inside their own structure (loops,
  // selects between operands), recursively.
  if (nestedEvaluations == kMaxNestedEvaluations)
    return op->emitError("the kernel lowering nests pad, cat and reduction "
                         "evaluations at most ")
           << kMaxNestedEvaluations
           << " deep in one kernel; split the fusion here (fuser.segment_set)";
  ++nestedEvaluations;
  FailureOr<Value> result =
      llvm::TypeSwitch<Operation *, FailureOr<Value>>(op)
          .Case([&](PadOp pad) { return evalPad(pad, at); })
          .Case([&](CatOp cat) { return evalCat(cat, at); })
          .Case([&](ReductionOp reduction) {
            return evalReduction(reduction, at);
          });
  --nestedEvaluations;
  return result;
}

FailureOr<Value> KernelEmitter::evalPad(PadOp pad, const Lanes &at) {
  ArrayRef<int64_t> sourceShape = shapeOf(pad.getSource());
  ArrayRef<int64_t> low = pad.getLow();
  std::optional<int64_t> unitDim = -1;
  if (at.kind == LaneKind::Unit && low[at.dim] % width == 0 &&
      sourceShape[at.dim] % width == 0)
    unitDim = at.dim;
  // In range of the source where every index minus `low` is; reading at the
  // clamped index keeps the loads in bounds (a vector of lanes starts at
  // most `width` before the end).
  auto sourceIndex = [&](ArrayRef<Value> index) {
    SmallVector<Value> source;
    for (auto [d, value] : llvm::enumerate(index)) {
      int64_t last = sourceShape[d] - (unitDim == int64_t(d) ? width : 1);
      source.push_back(clamp(sub(value, constant(low[d])), 0, last));
    }
    return source;
  };
  auto inRange = [&](ArrayRef<Value> index) {
    Value all = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    for (auto [d, value] : llvm::enumerate(index)) {
      Value shifted = sub(value, constant(low[d]));
      Value aboveLow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                             shifted, constant(0));
      Value belowHigh = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, shifted, constant(sourceShape[d]));
      all = arith::AndIOp::create(
          b, loc, all, arith::AndIOp::create(b, loc, aboveLow, belowHigh));
    }
    return all;
  };
  Lanes lanes = at.kind == LaneKind::Unit && unitDim == -1 ? toGather(at) : at;
  FailureOr<Value> source =
      eval(pad.getSource(), transform(lanes, sourceIndex, unitDim));
  FailureOr<Value> padding = evalScalar(pad.getValue());
  if (failed(source) || failed(padding))
    return failure();
  return arith::SelectOp::create(b, loc, laneCondition(lanes, inRange), *source,
                                 splat(*padding))
      .getResult();
}

FailureOr<Value> KernelEmitter::evalCat(CatOp cat, const Lanes &at) {
  int64_t dim = cat.getDim();
  SmallVector<int64_t> offsets;
  int64_t offset = 0;
  bool aligned = true;
  for (Value input : cat.getInputs()) {
    offsets.push_back(offset);
    aligned &= offset % width == 0 && shapeOf(input)[dim] % width == 0;
    offset += shapeOf(input)[dim];
  }
  Lanes lanes = at.kind == LaneKind::Unit && at.dim == dim && !aligned
                    ? toGather(at)
                    : at;
  // Later inputs win where the index has passed their offset.
  Value result;
  for (auto [input, start] : llvm::zip_equal(cat.getInputs(), offsets)) {
    // Clamped in bounds, for a whole vector of lanes along `dim`.
    int64_t last =
        shapeOf(input)[dim] -
        (lanes.kind == LaneKind::Unit && lanes.dim == dim ? width : 1);
    auto inputIndex = [&, start = start](ArrayRef<Value> index) {
      SmallVector<Value> source(index);
      source[dim] = clamp(sub(index[dim], constant(start)), 0, last);
      return source;
    };
    std::optional<int64_t> unitDim =
        lanes.kind == LaneKind::Unit ? std::optional(lanes.dim) : -1;
    FailureOr<Value> value = eval(input, transform(lanes, inputIndex, unitDim));
    if (failed(value))
      return failure();
    if (!result) {
      result = *value;
      continue;
    }
    Value past =
        laneCondition(lanes, [&, start = start](ArrayRef<Value> index) {
          return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                       index[dim], constant(start))
              .getResult();
        });
    result = arith::SelectOp::create(b, loc, past, *value, result);
  }
  return result;
}

FailureOr<Value> KernelEmitter::evalReduction(ReductionOp op, const Lanes &at) {
  ArrayRef<int64_t> sourceShape = shapeOf(op.getSource());
  ArrayRef<int64_t> dims = op.getDims();
  bool keepdim = op.getKeepdim();
  // Result axis of each kept source axis.
  SmallVector<int64_t> resultDim(sourceShape.size(), -1);
  for (int64_t d = 0, r = 0, e = sourceShape.size(); d < e; ++d) {
    bool reduced = llvm::is_contained(dims, d);
    if (!reduced)
      resultDim[d] = r;
    if (!reduced || keepdim)
      ++r;
  }
  std::optional<int64_t> unitDim = -1;
  if (at.kind == LaneKind::Unit)
    for (auto [d, r] : llvm::enumerate(resultDim))
      if (r == at.dim)
        unitDim = d;

  Type elementType = getElementTypeOrSelf(op.getType());
  Type accumulatorType = vectorOf(getComputeType(elementType));
  Value accumulator =
      emitReductionIdentity(b, loc, op.getKind(), accumulatorType);

  // One loop per reduced axis of extent > 1, outermost first, so the source
  // is read in row-major order.
  SmallVector<Value> loopIndex(sourceShape.size());
  SmallVector<scf::ForOp> loops;
  for (int64_t d : dims) {
    if (sourceShape[d] == 1) {
      loopIndex[d] = constant(0);
      continue;
    }
    auto loop =
        scf::ForOp::create(b, loc, constant(0), constant(sourceShape[d]),
                           constant(1), ValueRange{accumulator});
    if (!loops.empty()) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfter(loop);
      scf::YieldOp::create(b, loc, loop.getResults());
    }
    loops.push_back(loop);
    b.setInsertionPointToStart(loop.getBody());
    pushScope();
    loopIndex[d] = loop.getInductionVar();
    accumulator = loop.getRegionIterArgs().front();
  }
  auto sourceIndex = [&](ArrayRef<Value> index) {
    SmallVector<Value> source(loopIndex);
    for (auto [d, r] : llvm::enumerate(resultDim))
      if (r >= 0)
        source[d] = index[r];
    return source;
  };
  FailureOr<Value> element =
      eval(op.getSource(), transform(at, sourceIndex, unitDim));
  if (failed(element))
    return failure();
  Value combined = emitReductionCombine(
      b, loc, op.getKind(), accumulator,
      emitCast(b, loc, *element, getComputeType(elementType)));
  if (!loops.empty()) {
    scf::YieldOp::create(b, loc, combined);
    for (size_t i = 0; i < loops.size(); ++i)
      popScope();
    b.setInsertionPointAfter(loops.front());
    combined = loops.front().getResult(0);
  }
  return emitCast(b, loc, combined, elementType);
}

/// The innermost stride and alignment (in elements) of accesses to a memref
/// whose layout is static, or nullopt.
static std::optional<std::pair<int64_t, int64_t>>
getInnermostStride(MemRefType type, int64_t width) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  bool aligned = offset % width == 0;
  for (int64_t stride : ArrayRef(strides).drop_back())
    aligned &= stride % width == 0;
  return std::make_pair(strides.back(), aligned ? width : int64_t(1));
}

/// The alignment an access of `bytes` at a multiple of its own size may
/// claim: buffers are 16-byte aligned (memref.alloc in the host function,
/// cudaMalloc, the backends' buffers), and no access is wider on the GPU.
static uint64_t getAlignment(uint64_t bytes) {
  return std::min<uint64_t>(uint64_t(1) << llvm::Log2_64(bytes), 16);
}

Value KernelEmitter::load(Value memref, const Lanes &at) {
  auto type = cast<MemRefType>(memref.getType());
  Type elementType = type.getElementType();
  auto stageLanes = [&](const RowStage &stage) {
    if (stage.perRow)
      return *rowLanes;
    // A weight's index is the row position alone.
    Lanes lanes = *rowLanes;
    lanes.base.erase(lanes.base.begin(), lanes.base.begin() + rowOuterDims);
    if (lanes.kind == LaneKind::Unit)
      lanes.dim -= rowOuterDims;
    return lanes;
  };
  if (auto it = rowStages.find(memref);
      it != rowStages.end() && rowLanes && at == stageLanes(it->second)) {
    RowStage &stage = it->second;
    OpBuilder::InsertionGuard guard(b);
    Value buffer = memref::GetGlobalOp::create(b, loc, stage.buffer.getType(),
                                               stage.buffer.getSymName());
    Type vectorType = vectorOf(elementType);
    if (stage.filledBy >= 0 && stage.filledBy < rowLoop) {
      if (!isa<VectorType>(vectorType))
        return memref::LoadOp::create(b, loc, buffer, ValueRange{rowPosition});
      return vector::LoadOp::create(b, loc, vectorType, buffer,
                                    ValueRange{rowPosition});
    }
    Value value = loadGlobal(memref, at);
    if (fillRowStages) {
      if (!isa<VectorType>(vectorType))
        memref::StoreOp::create(b, loc, value, buffer, ValueRange{rowPosition});
      else
        vector::StoreOp::create(b, loc, value, buffer,
                                ValueRange{rowPosition});
      stage.filledBy = rowLoop;
    }
    return value;
  }
  return loadGlobal(memref, at);
}

Value KernelEmitter::loadGlobal(Value memref, const Lanes &at) {
  auto type = cast<MemRefType>(memref.getType());
  Type elementType = type.getElementType();
  if (at.kind == LaneKind::Uniform)
    return splat(memref::LoadOp::create(b, loc, memref, at.base));
  // One vector load along the innermost axis when it is contiguous; i1 is
  // one byte per element in memory but one bit per lane in vectors.
  std::optional<std::pair<int64_t, int64_t>> innermost =
      getInnermostStride(type, width);
  if (at.kind == LaneKind::Unit && at.dim == type.getRank() - 1 &&
      !elementType.isInteger(1) && !isa<ComplexType>(elementType) &&
      innermost && innermost->first == 1) {
    unsigned bytes = *getElementByteWidth(elementType);
    return vector::LoadOp::create(
        b, loc, cast<VectorType>(vectorOf(elementType)), memref, at.base,
        /*nontemporal=*/false,
        llvm::MaybeAlign(getAlignment(innermost->second * bytes)));
  }
  SmallVector<Value> elements;
  for (ArrayRef<Value> index : toGather(at).perLane)
    elements.push_back(memref::LoadOp::create(b, loc, memref, index));
  if (!isa<VectorType>(vectorOf(elementType)))
    return elements.front();
  return vector::FromElementsOp::create(
      b, loc, cast<VectorType>(vectorOf(elementType)), elements);
}

void KernelEmitter::store(Value vector, Value memref, const Lanes &at) {
  auto type = cast<MemRefType>(memref.getType());
  Type elementType = type.getElementType();
  if (width > 1 && at.kind == LaneKind::Unit && at.dim == type.getRank() - 1 &&
      !elementType.isInteger(1)) {
    unsigned bytes = *getElementByteWidth(elementType);
    vector::StoreOp::create(b, loc, vector, memref, at.base,
                            /*nontemporal=*/false,
                            llvm::MaybeAlign(getAlignment(width * bytes)));
    return;
  }
  for (auto [lane, index] : llvm::enumerate(toGather(at).perLane))
    memref::StoreOp::create(b, loc, extractLane(vector, lane), memref, index);
}

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

static gpu::ParallelLoopDimMappingAttr getMapping(MLIRContext *context,
                                                  gpu::Processor processor) {
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  return gpu::ParallelLoopDimMappingAttr::get(context, processor, identity,
                                              identity);
}

/// An scf.parallel over [0, counts[i]) mapped to `processors[i]`, with the
/// builder inside its body.
static scf::ParallelOp createMappedLoop(OpBuilder &b, Location loc,
                                        ArrayRef<int64_t> counts,
                                        ArrayRef<gpu::Processor> processors,
                                        ValueRange inits = {}) {
  SmallVector<Value> lower, upper, steps;
  SmallVector<Attribute> mappings;
  for (auto [count, processor] : llvm::zip_equal(counts, processors)) {
    lower.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    upper.push_back(arith::ConstantIndexOp::create(b, loc, count));
    steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
    mappings.push_back(getMapping(b.getContext(), processor));
  }
  auto loop = scf::ParallelOp::create(b, loc, lower, upper, steps, inits);
  loop->setAttr(gpu::getMappingAttrName(), b.getArrayAttr(mappings));
  b.setInsertionPointToStart(loop.getBody());
  return loop;
}

LogicalResult KernelEmitter::emitOutputSlot(unsigned index, Value slot) {
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  Value result = yield.getValues()[index];
  auto type = cast<ShapedType>(result.getType());
  width = getOutputVectorWidth(schedule, type);
  return emitOutputAt(index,
                      delinearize(mul(slot, constant(width)), type.getShape()));
}

LogicalResult KernelEmitter::emitOutputAt(unsigned index,
                                          SmallVector<Value> base) {
  // An output without elements is not written (nor referenced, as inputs
  // without elements are not).
  if (getSaturatedNumElements(outputs[index].getType()) == 0)
    return success();
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  Value result = yield.getValues()[index];
  Lanes lanes;
  lanes.base = std::move(base);
  if (width > 1) {
    lanes.kind = LaneKind::Unit;
    lanes.dim = lanes.base.size() - 1;
  }
  FailureOr<Value> value = eval(result, lanes);
  if (failed(value))
    return failure();
  store(*value, outputs[index], lanes);
  return success();
}

LogicalResult KernelEmitter::emitOutputSlots(unsigned index, Value first,
                                             int64_t stride) {
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  auto type = cast<ShapedType>(yield.getValues()[index].getType());
  int64_t slots = getSaturatedNumElements(type.getShape()) /
                  getOutputVectorWidth(schedule, type);
  if (slots == 0)
    return success();
  OpBuilder::InsertionGuard guard(b);
  pushScope();
  LogicalResult result = success();
  if (slots == stride) {
    result = emitOutputSlot(index, first);
  } else if (slots < stride) {
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          first, constant(slots));
    auto ifOp = scf::IfOp::create(b, loc, inRange, /*withElse=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
    pushScope();
    result = emitOutputSlot(index, first);
    popScope();
  } else {
    auto loop =
        scf::ForOp::create(b, loc, first, constant(slots), constant(stride));
    b.setInsertionPointToStart(loop.getBody());
    pushScope();
    result = emitOutputSlot(index, loop.getInductionVar());
    popScope();
  }
  popScope();
  return result;
}

LogicalResult KernelEmitter::emitPerOutputKernel() {
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

FailureOr<Value> KernelEmitter::emitBlockReduction(
    ReductionOp reduction, ArrayRef<Value> kept, int64_t threads, int64_t lanes,
    function_ref<LogicalResult(Value thread)> prologue) {
  Type computeType = getComputeType(getElementTypeOrSelf(reduction.getType()));
  ArrayRef<int64_t> sourceShape = shapeOf(reduction.getSource());
  ArrayRef<int64_t> dims = reduction.getDims();
  SmallVector<int64_t> reducedShape;
  for (int64_t d : dims)
    reducedShape.push_back(sourceShape[d]);

  width = 1;
  Value identity =
      emitReductionIdentity(b, loc, reduction.getKind(), computeType);
  scf::ParallelOp threadLoop = createMappedLoop(
      b, loc, {threads}, {gpu::Processor::ThreadX}, ValueRange{identity});
  Value thread = threadLoop.getInductionVars()[0];
  ++rowLoop;
  pushScope();
  if (prologue && failed(prologue(thread)))
    return failure();

  // Each thread combines `lanes` consecutive elements of the innermost
  // reduced axis at a time, striding over the block's reduced elements.
  width = lanes;
  int64_t reducedCount = getSaturatedNumElements(reducedShape);
  Value partialIdentity =
      emitReductionIdentity(b, loc, reduction.getKind(), vectorOf(computeType));
  auto loop = scf::ForOp::create(
      b, loc, mul(thread, constant(lanes)), constant(reducedCount),
      constant(threads * lanes), ValueRange{partialIdentity});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    pushScope();
    SmallVector<Value> reduced =
        delinearize(loop.getInductionVar(), reducedShape);
    Lanes at;
    at.base = interleaveSourceIndex(reduction, kept, reduced);
    if (lanes > 1) {
      at.kind = LaneKind::Unit;
      at.dim = dims.back();
    }
    rowLanes = at;
    if (!rowSpelling.empty() && ArrayRef(rowSpelling) != sourceShape) {
      rowLanes->base = mapUnitAxes(at.base, sourceShape, rowSpelling);
      if (lanes > 1)
        rowLanes->dim = rowSpelling.size() - 1;
    }
    rowPosition = loop.getInductionVar();
    FailureOr<Value> element = eval(reduction.getSource(), at);
    rowLanes.reset();
    if (failed(element))
      return failure();
    scf::YieldOp::create(
        b, loc,
        emitReductionCombine(b, loc, reduction.getKind(),
                             loop.getRegionIterArgs().front(),
                             emitCast(b, loc, *element, computeType)));
    popScope();
  }
  Value partial = extractLane(loop.getResult(0), 0);
  for (int64_t lane = 1; lane < lanes; ++lane)
    partial = emitReductionCombine(b, loc, reduction.getKind(), partial,
                                   extractLane(loop.getResult(0), lane));
  // Across the threads of the block.
  // (scf.parallel builds a terminator only for loops without results.)
  Block *threadBody = threadLoop.getBody();
  if (!threadBody->empty() &&
      threadBody->back().hasTrait<OpTrait::IsTerminator>())
    threadBody->back().erase();
  b.setInsertionPointToEnd(threadBody);
  auto reduce = scf::ReduceOp::create(b, loc, ValueRange{partial});
  {
    OpBuilder::InsertionGuard guard(b);
    Block &combiner = reduce.getReductions().front().front();
    b.setInsertionPointToStart(&combiner);
    scf::ReduceReturnOp::create(
        b, loc,
        emitReductionCombine(b, loc, reduction.getKind(),
                             combiner.getArgument(0), combiner.getArgument(1)));
  }
  popScope();
  b.setInsertionPointAfter(threadLoop);
  return threadLoop.getResult(0);
}

Value KernelEmitter::emitBlockLoop(int64_t blocks) {
  scf::ParallelOp blockLoop =
      createMappedLoop(b, loc, {blocks}, {gpu::Processor::BlockX});
  scalarPoint =
      OpBuilder::InsertPoint(blockLoop->getBlock(), Block::iterator(blockLoop));
  pushScope();
  return blockLoop.getInductionVars()[0];
}

FailureOr<ReductionStructure> KernelEmitter::analyzeSplitReduction() {
  ReductionStructure structure = analyzeReductions(segment);
  if (!structure.whyNotSplittable.empty())
    return segment.emitError("the schedule splits the reduction across "
                             "threads, but ")
           << structure.whyNotSplittable;
  if (structure.reductions.size() != 1)
    return segment.emitError("a split schedule combines one reduction per "
                             "block; this segment has ")
           << structure.reductions.size();
  return structure;
}

std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
KernelEmitter::splitExtents(ReductionOp reduction) {
  std::pair<SmallVector<int64_t>, SmallVector<int64_t>> extents;
  for (auto [d, size] : llvm::enumerate(shapeOf(reduction.getSource())))
    (llvm::is_contained(reduction.getDims(), int64_t(d)) ? extents.second
                                                         : extents.first)
        .push_back(size);
  return extents;
}

SmallVector<Value> KernelEmitter::interleaveSourceIndex(
    ReductionOp reduction, ArrayRef<Value> kept, ArrayRef<Value> reduced) {
  SmallVector<Value> index;
  const Value *keptIt = kept.begin(), *reducedIt = reduced.begin();
  for (int64_t d = 0, e = shapeOf(reduction.getSource()).size(); d < e; ++d)
    index.push_back(llvm::is_contained(reduction.getDims(), d) ? *reducedIt++
                                                               : *keptIt++);
  return index;
}

LogicalResult KernelEmitter::emitGridStrideOutputs(ArrayRef<unsigned> indices,
                                                   Value block, Value thread) {
  int64_t blocks = schedule.getBlocks(), threads = schedule.getThreads();
  Value slot = add(mul(block, constant(threads)), thread);
  for (unsigned i : indices)
    if (failed(emitOutputSlots(i, slot, blocks * threads)))
      return failure();
  return success();
}

LogicalResult
KernelEmitter::emitOutputsBesideReduction(const ReductionStructure &structure,
                                          Value block, Value thread) {
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  SmallVector<unsigned> indices;
  for (auto [i, result] : llvm::enumerate(yield.getValues()))
    if (!structure.metaChains.count(result))
      indices.push_back(i);
  return emitGridStrideOutputs(indices, block, thread);
}

LogicalResult KernelEmitter::emitSplitKernel() {
  FailureOr<ReductionStructure> analyzed = analyzeSplitReduction();
  if (failed(analyzed))
    return failure();
  ReductionStructure &structure = *analyzed;
  ReductionOp reduction = structure.reductions.front();
  Type elementType = getElementTypeOrSelf(reduction.getType());
  Type computeType = getComputeType(elementType);
  // gpu.all_reduce shuffles 32-bit values.
  if (computeType.getIntOrFloatBitWidth() != 32)
    return segment.emitError("a split schedule combines 32-bit values; this "
                             "reduction accumulates in ")
           << computeType;
  int64_t blocks = schedule.getBlocks(), threads = schedule.getThreads();

  auto [keptShape, reducedShape] = splitExtents(reduction);
  if (getSaturatedNumElements(keptShape) != uint64_t(blocks))
    return segment.emitError("a split schedule needs one block per reduction "
                             "output (")
           << getSaturatedNumElements(keptShape) << "), got " << blocks;
  int64_t lanes = schedule.getVector();
  if (reducedShape.back() % lanes != 0)
    return segment.emitError("the vector width ")
           << lanes << " does not divide the innermost reduced extent "
           << reducedShape.back();

  Value block = emitBlockLoop(blocks);
  SmallVector<Value> kept = delinearize(block, keptShape);

  FailureOr<Value> combined =
      emitBlockReduction(reduction, kept, threads, lanes, [&](Value thread) {
        return emitOutputsBesideReduction(structure, block, thread);
      });
  if (failed(combined))
    return failure();

  // Outputs computed from the reduction: the block's one element of each,
  // found by mapping the reduction output forward through the views, and
  // written by thread 0 (code outside a thread loop runs in every thread,
  // which would store the element once per thread).
  width = 1;
  reducedValues[reduction] = emitCast(b, loc, *combined, elementType);
  OpBuilder::InsertionGuard storeGuard(b);
  scf::ParallelOp storeLoop =
      createMappedLoop(b, loc, {threads}, {gpu::Processor::ThreadX});
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            storeLoop.getInductionVars()[0], constant(0));
  b.setInsertionPointToStart(
      scf::IfOp::create(b, loc, isFirst, /*withElse=*/false).thenBlock());
  pushScope();
  if (failed(emitReducedOutputs(structure, kept)))
    return failure();
  popScope();
  popScope();
  return success();
}

LogicalResult
KernelEmitter::emitReducedOutputs(const ReductionStructure &structure,
                                  ArrayRef<Value> kept) {
  ReductionOp reduction = structure.reductions.front();
  ArrayRef<int64_t> dims = reduction.getDims();
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  for (auto [i, result] : llvm::enumerate(yield.getValues())) {
    auto chain = structure.metaChains.find(result);
    if (chain == structure.metaChains.end() ||
        getSaturatedNumElements(outputs[i].getType()) == 0)
      continue;
    SmallVector<Value> index;
    for (int64_t d = 0, k = 0, e = shapeOf(reduction.getSource()).size(); d < e;
         ++d) {
      if (!llvm::is_contained(dims, d))
        index.push_back(kept[k++]);
      else if (reduction.getKeepdim())
        index.push_back(constant(0));
    }
    for (Operation *op : chain->second)
      index = mapIndexForward(op, index);
    Lanes at;
    at.base = index;
    FailureOr<Value> value = eval(result, at);
    if (failed(value))
      return failure();
    store(*value, outputs[i], at);
  }
  return success();
}

Value KernelEmitter::combineGroupPartials(ReductionOp reduction, Value buffer,
                                          int64_t groups, int64_t tile,
                                          Value lane) {
  Value identity = emitReductionIdentity(
      b, loc, reduction.getKind(),
      getComputeType(getElementTypeOrSelf(reduction.getType())));
  auto groupLoop = scf::ForOp::create(b, loc, constant(0), constant(groups),
                                      constant(1), ValueRange{identity});
  OpBuilder::InsertionGuard loopGuard(b);
  b.setInsertionPointToStart(groupLoop.getBody());
  pushScope();
  Value partial = memref::LoadOp::create(
      b, loc, buffer,
      ValueRange{add(mul(groupLoop.getInductionVar(), constant(tile)), lane)});
  scf::YieldOp::create(
      b, loc,
      emitReductionCombine(b, loc, reduction.getKind(),
                           groupLoop.getRegionIterArgs().front(), partial));
  popScope();
  return groupLoop.getResult(0);
}

LogicalResult KernelEmitter::emitTiledSplitKernel() {
  FailureOr<ReductionStructure> analyzed = analyzeSplitReduction();
  if (failed(analyzed))
    return failure();
  ReductionStructure &structure = *analyzed;
  ReductionOp reduction = structure.reductions.front();
  Type elementType = getElementTypeOrSelf(reduction.getType());
  Type computeType = getComputeType(elementType);
  int64_t blocks = schedule.getBlocks(), threads = schedule.getThreads();
  int64_t groups = schedule.getSplit(), tile = threads / groups;

  auto [keptShape, reducedShape] = splitExtents(reduction);
  int64_t outputCount = getSaturatedNumElements(keptShape);
  if (llvm::divideCeil(outputCount, tile) != uint64_t(blocks))
    return segment.emitError("a tiled split schedule needs one block per ")
           << tile << " reduction outputs (" << outputCount
           << " outputs: " << llvm::divideCeil(outputCount, tile)
           << " blocks), got " << blocks;
  int64_t reducedCount = getSaturatedNumElements(reducedShape);

  // The block's partials, one per thread, in workgroup memory.
  memref::GlobalOp partials =
      createWorkgroupBuffer(b, loc, segment->getParentOfType<ModuleOp>(),
                            "__fuser_partials", {threads}, computeType);

  Value block = emitBlockLoop(blocks);
  Value buffer = memref::GetGlobalOp::create(b, loc, partials.getType(),
                                             partials.getSymName());
  Value identity =
      emitReductionIdentity(b, loc, reduction.getKind(), computeType);
  width = 1;

  // Thread loop 1: thread `g * tile + t` folds the reduced elements g,
  // g + groups, ... of the block's output t, consecutive threads reading
  // consecutive outputs. Outputs that do not need the reduction go first,
  // a grid-stride loop of all threads.
  {
    OpBuilder::InsertionGuard guard(b);
    scf::ParallelOp threadLoop =
        createMappedLoop(b, loc, {threads}, {gpu::Processor::ThreadX});
    Value thread = threadLoop.getInductionVars()[0];
    pushScope();
    if (failed(emitOutputsBesideReduction(structure, block, thread)))
      return failure();
    width = 1;
    Value output = add(mul(block, constant(tile)), rem(thread, constant(tile)));
    // Always a conditional, even over full tiles: convert-parallel-loops-to-
    // gpu refuses stores directly in a thread loop that another follows.
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          output, constant(outputCount));
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, inRange, /*withElse=*/false).thenBlock());
    pushScope();
    SmallVector<Value> kept = delinearize(output, keptShape);
    auto loop = scf::ForOp::create(b, loc, div(thread, constant(tile)),
                                   constant(reducedCount), constant(groups),
                                   ValueRange{identity});
    {
      OpBuilder::InsertionGuard loopGuard(b);
      b.setInsertionPointToStart(loop.getBody());
      pushScope();
      SmallVector<Value> reduced =
          delinearize(loop.getInductionVar(), reducedShape);
      Lanes at;
      at.base = interleaveSourceIndex(reduction, kept, reduced);
      FailureOr<Value> element = eval(reduction.getSource(), at);
      if (failed(element))
        return failure();
      Value scalar = emitCast(b, loc, extractLane(*element, 0), computeType);
      scf::YieldOp::create(
          b, loc,
          emitReductionCombine(b, loc, reduction.getKind(),
                               loop.getRegionIterArgs().front(), scalar));
      popScope();
    }
    memref::StoreOp::create(b, loc, loop.getResult(0), buffer, thread);
    popScope();
    popScope();
  }

  // Thread loop 2, after a barrier: thread t < tile combines the partials
  // of output t in group order (fixed, so every run rounds alike) and
  // writes the outputs computed from the reduction.
  scf::ParallelOp combineLoop =
      createMappedLoop(b, loc, {threads}, {gpu::Processor::ThreadX});
  // The partials are complete before any thread reads them back.
  gpu::BarrierOp::create(b, loc);
  Value thread = combineLoop.getInductionVars()[0];
  pushScope();
  Value output = add(mul(block, constant(tile)), thread);
  Value combines = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, thread,
                            constant(tile)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, output,
                            constant(outputCount)));
  b.setInsertionPointToStart(
      scf::IfOp::create(b, loc, combines, /*withElse=*/false).thenBlock());
  pushScope();
  reducedValues[reduction] = emitCast(
      b, loc, combineGroupPartials(reduction, buffer, groups, tile, thread),
      elementType);
  if (failed(emitReducedOutputs(structure, delinearize(output, keptShape))))
    return failure();
  popScope();
  popScope();
  popScope();
  return success();
}

/// The segment inputs that computing `roots` reads, up to the reductions
/// (whose values a column loop already has).
static SetVector<BlockArgument> getArgumentsRead(ArrayRef<Value> roots) {
  SetVector<BlockArgument> arguments;
  DenseSet<Value> seen;
  SmallVector<Value> worklist(roots);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      arguments.insert(argument);
      continue;
    }
    Operation *op = value.getDefiningOp();
    if (op && !isa<ReductionOp>(op))
      llvm::append_range(worklist, op->getOperands());
  }
  return arguments;
}

LogicalResult KernelEmitter::emitColumnLoop(
    const NormalizationStructure &structure, Value block, int64_t combined,
    ArrayRef<memref::GlobalOp> partials, ArrayRef<Value> roots,
    function_ref<LogicalResult(Value thread, Value group, Value lane,
                               ArrayRef<Value> kept)>
        body) {
  int64_t threads = schedule.getThreads(), groups = schedule.getSplit();
  int64_t tile = threads / groups;
  ReductionOp first = structure.reductions.front();
  SmallVector<int64_t> keptShape = splitExtents(first).first;
  OpBuilder::InsertionGuard guard(b);
  scf::ParallelOp threadLoop =
      createMappedLoop(b, loc, {threads}, {gpu::Processor::ThreadX});
  // What the previous loops stored (partials) is complete before any
  // thread reads it.
  if (rowLoop >= 0)
    gpu::BarrierOp::create(b, loc);
  ++rowLoop;
  Value thread = threadLoop.getInductionVars()[0];
  pushScope();
  width = 1;
  Value lane = rem(thread, constant(tile));
  Value group = div(thread, constant(tile));
  Value column = add(mul(block, constant(tile)), lane);
  // Always a conditional, even over full tiles: convert-parallel-loops-to-
  // gpu refuses stores directly in a thread loop that another follows.
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        column, constant(structure.rows));
  b.setInsertionPointToStart(
      scf::IfOp::create(b, loc, inRange, /*withElse=*/false).thenBlock());
  pushScope();
  SmallVector<Value> kept = delinearize(column, keptShape);

  // The column's value of each reduction combined so far: every thread
  // combines the groups' partials itself, which needs no second barrier.
  for (int64_t k = 0; k < combined; ++k) {
    ReductionOp reduction = structure.reductions[k];
    memref::GlobalOp buffer = partials[k];
    Value partialBuffer = memref::GetGlobalOp::create(b, loc, buffer.getType(),
                                                      buffer.getSymName());
    reducedValues[reduction] = emitCast(
        b, loc,
        combineGroupPartials(reduction, partialBuffer, groups, tile, lane),
        getElementTypeOrSelf(reduction.getType()));
  }

  // Inputs broadcast along the reduced axes are read once per column, not
  // once per reduced element: evaluated here, the reads in the loop over
  // the reduced elements find them in the scope. Those staged by an earlier
  // loop come from workgroup memory; this loop's group 0 stages those that
  // the next loop reads first.
  ArrayRef<int64_t> sourceShape = structure.sourceShape;
  SmallVector<Value> zeros(structure.dims.size(), constant(0));
  SmallVector<Value> keptIndex = interleaveSourceIndex(first, kept, zeros);
  SetVector<Value> columnInputs;
  for (BlockArgument argument : getArgumentsRead(roots))
    columnInputs.insert(argument);
  for (auto &[argument, stage] : columnStages)
    if (stage.filledBy == rowLoop)
      columnInputs.insert(argument);
  for (Value argument : columnInputs) {
    auto type = dyn_cast<RankedTensorType>(argument.getType());
    if (!type || !isColumnInput(structure, type))
      continue;
    Lanes at;
    if (type.getShape() == ArrayRef(keptShape)) {
      at.base = kept;
    } else {
      Lanes column;
      column.base = keptIndex;
      at = broadcastLanes(column, type.getShape(), sourceShape);
    }
    auto stage = columnStages.find(argument);
    if (stage == columnStages.end()) {
      if (failed(eval(argument, at)))
        return failure();
      continue;
    }
    memref::GlobalOp buffer = stage->second.buffer;
    Value staged = memref::GetGlobalOp::create(b, loc, buffer.getType(),
                                               buffer.getSymName());
    if (stage->second.filledBy < rowLoop) {
      scopes.back().values[argument].push_back(
          {at, splat(memref::LoadOp::create(b, loc, staged, lane))});
      continue;
    }
    OpBuilder::InsertionGuard stageGuard(b);
    Value isGroupZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              group, constant(0));
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, isGroupZero, /*withElse=*/false).thenBlock());
    pushScope();
    FailureOr<Value> value = eval(argument, at);
    if (failed(value))
      return failure();
    memref::StoreOp::create(b, loc, extractLane(*value, 0), staged, lane);
    popScope();
  }

  if (failed(body(thread, group, lane, kept)))
    return failure();
  popScope();
  popScope();
  return success();
}

LogicalResult KernelEmitter::emitOuterNormalizationKernel(
    const NormalizationStructure &structure) {
  int64_t blocks = schedule.getBlocks(), threads = schedule.getThreads();
  int64_t groups = schedule.getSplit(), tile = threads / groups;
  if (schedule.getVector() != 1)
    return segment.emitError("an outer normalization schedule reads one "
                             "element per thread at a time: vector must be "
                             "1, got ")
           << schedule.getVector();
  if (llvm::divideCeil(structure.rows, tile) != uint64_t(blocks))
    return segment.emitError("an outer normalization schedule needs one "
                             "block per ")
           << tile << " columns (" << structure.rows
           << " columns: " << llvm::divideCeil(structure.rows, tile)
           << " blocks), got " << blocks;
  Block &body = segment.getBody().front();
  ReductionOp first = structure.reductions.front();
  SmallVector<int64_t> reducedShape = splitExtents(first).second;
  int64_t reducedCount = structure.rowElements;
  ArrayRef<int64_t> sourceShape = structure.sourceShape;

  // A partial per thread and reduction, and the column block of each input
  // of the source shape (budgeted by fuser-segment), in workgroup memory; i1
  // is not staged (no vector accesses of i1).
  auto module = segment->getParentOfType<ModuleOp>();
  SmallVector<memref::GlobalOp> partials;
  for (ReductionOp reduction : structure.reductions)
    partials.push_back(createWorkgroupBuffer(
        b, loc, module, "__fuser_partials", {threads},
        getComputeType(getElementTypeOrSelf(reduction.getType()))));
  for (Value input : inputs) {
    auto memref = dyn_cast<MemRefType>(bindings.lookup(input).getType());
    if (!memref || memref.getShape() != sourceShape ||
        memref.getElementType().isInteger(1) ||
        getSaturatedNumElements(memref) == 0)
      continue;
    RowStage &stage = rowStages[bindings.lookup(input)];
    stage.buffer =
        createWorkgroupBuffer(b, loc, module, "__fuser_columns",
                              {reducedCount * tile}, memref.getElementType());
  }
  rowOuterDims = 0;

  // The roots each thread loop computes: a reduction's source per
  // reduction, then every output.
  auto yield = cast<YieldOp>(body.getTerminator());
  SmallVector<SmallVector<Value>> loopRoots;
  for (ReductionOp reduction : structure.reductions)
    loopRoots.push_back({reduction.getSource()});
  SmallVector<Value> outputRoots;
  for (auto [number, value] : llvm::enumerate(yield.getValues()))
    if (!llvm::is_contained(structure.besideRows, number))
      outputRoots.push_back(value);
  loopRoots.push_back(outputRoots);
  // Inputs broadcast along the reduced axes (not i1) are staged by group 0
  // in the loop before the one that reads them first; for those the first
  // loop reads, that is a loop of their own before it.
  SmallVector<std::pair<BlockArgument, int64_t>> firstUses;
  for (BlockArgument argument : body.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(argument.getType());
    if (!type || !isColumnInput(structure, type) ||
        type.getElementType().isInteger(1))
      continue;
    auto firstUse = llvm::find_if(loopRoots, [&](ArrayRef<Value> roots) {
      return getArgumentsRead(roots).contains(argument);
    });
    if (firstUse != loopRoots.end())
      firstUses.push_back(
          {argument, std::distance(loopRoots.begin(), firstUse)});
  }
  bool stagingLoop = llvm::any_of(
      firstUses, [](auto firstUse) { return firstUse.second == 0; });
  for (auto [argument, loop] : firstUses)
    columnStages[argument] = {
        createWorkgroupBuffer(
            b, loc, module, "__fuser_column_inputs", {tile},
            cast<RankedTensorType>(argument.getType()).getElementType()),
        loop - (stagingLoop ? 0 : 1)};

  Value block = emitBlockLoop(blocks);
  if (stagingLoop &&
      failed(emitColumnLoop(structure, block, 0, partials, {},
                            [](Value, Value, Value, ArrayRef<Value>) {
                              return success();
                            })))
    return failure();
  // The loop over a thread's reduced elements r = group, group + groups,
  // ... of its column; the element's staged copy is at r * tile + lane.
  auto forEachElement =
      [&](Value group, Value lane, ArrayRef<Value> kept, ValueRange inits,
          function_ref<FailureOr<Value>(ArrayRef<Value> index, Value acc)> step)
      -> FailureOr<scf::ForOp> {
    auto loop = scf::ForOp::create(b, loc, group, constant(reducedCount),
                                   constant(groups), inits);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    pushScope();
    Value r = loop.getInductionVar();
    Lanes at;
    at.base = interleaveSourceIndex(first, kept, delinearize(r, reducedShape));
    rowLanes = at;
    rowPosition = add(mul(r, constant(tile)), lane);
    FailureOr<Value> next = step(
        at.base, inits.empty() ? Value() : loop.getRegionIterArgs().front());
    rowLanes.reset();
    if (failed(next))
      return failure();
    if (!inits.empty())
      scf::YieldOp::create(b, loc, *next);
    popScope();
    return loop;
  };

  // A thread loop per reduction, in program order (a later one reads the
  // earlier ones' values): each thread folds its share of its column from
  // the identity and stores the partial.
  fillRowStages = true;
  for (int64_t k = 0, e = structure.reductions.size(); k < e; ++k) {
    ReductionOp reduction = structure.reductions[k];
    memref::GlobalOp partial = partials[k];
    Type computeType =
        getComputeType(getElementTypeOrSelf(reduction.getType()));
    if (failed(emitColumnLoop(
            structure, block, k, partials, {reduction.getSource()},
            [&](Value thread, Value group, Value lane, ArrayRef<Value> kept) {
              Value identity = emitReductionIdentity(
                  b, loc, reduction.getKind(), computeType);
              FailureOr<scf::ForOp> loop = forEachElement(
                  group, lane, kept, identity,
                  [&](ArrayRef<Value> index, Value acc) -> FailureOr<Value> {
                    Lanes at;
                    at.base.assign(index.begin(), index.end());
                    FailureOr<Value> element = eval(reduction.getSource(), at);
                    if (failed(element))
                      return failure();
                    return emitReductionCombine(
                        b, loc, reduction.getKind(), acc,
                        emitCast(b, loc, extractLane(*element, 0),
                                 computeType));
                  });
              if (failed(loop))
                return failure();
              Value buffer = memref::GetGlobalOp::create(
                  b, loc, partial.getType(), partial.getSymName());
              memref::StoreOp::create(b, loc, (*loop).getResult(0), buffer,
                                      thread);
              return success();
            })))
      return failure();
  }

  // Then the outputs, from the reduced values: elements of the source shape
  // by the threads that folded them (also rows with extent-1 axes dropped,
  // analyzeNormalization), reduced ones by group 0.
  SmallVector<int64_t> keptShape = splitExtents(first).first;
  SmallVector<int64_t> keepdimShape(sourceShape);
  for (int64_t d : structure.dims)
    keepdimShape[d] = 1;
  auto isRowOutput = [&](ArrayRef<int64_t> shape) {
    return shape == sourceShape ||
           (shape != ArrayRef(keptShape) && shape != ArrayRef(keepdimShape) &&
            isSameShapeUpToUnitDims(shape, sourceShape));
  };
  fillRowStages = false;
  LogicalResult emitted = emitColumnLoop(
      structure, block, structure.reductions.size(), partials, loopRoots.back(),
      [&](Value, Value group, Value lane,
          ArrayRef<Value> kept) -> LogicalResult {
        for (auto [output, result] : llvm::enumerate(yield.getValues())) {
          // A named copy: lambdas may not capture structured bindings
          // before C++20 (clang 14, the fuzz build).
          size_t i = output;
          if (llvm::is_contained(structure.besideRows, i))
            continue;
          OpBuilder::InsertionGuard guard(b);
          width = 1;
          ArrayRef<int64_t> shape = shapeOf(result);
          if (isRowOutput(shape)) {
            if (failed(forEachElement(
                    group, lane, kept, {},
                    [&](ArrayRef<Value> index, Value) -> FailureOr<Value> {
                      if (failed(emitOutputAt(
                              i, shape == sourceShape
                                     ? SmallVector<Value>(index)
                                     : mapUnitAxes(index, sourceShape, shape))))
                        return failure();
                      return Value();
                    })))
              return failure();
            continue;
          }
          Value isGroupZero = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::eq, group, constant(0));
          b.setInsertionPointToStart(
              scf::IfOp::create(b, loc, isGroupZero, /*withElse=*/false)
                  .thenBlock());
          pushScope();
          // A reduced row in any spelling of extent-1 axes, the reduced
          // dims kept as 1 included (analyzeNormalization).
          LogicalResult stored =
              emitOutputAt(i, mapUnitAxes(kept, keptShape, shape));
          popScope();
          if (failed(stored))
            return failure();
        }
        return success();
      });
  if (succeeded(emitted))
    emitted = emitOutputsBesideRows(structure, block);
  popScope();
  return emitted;
}

LogicalResult
KernelEmitter::emitOutputsBesideRows(const NormalizationStructure &structure,
                                     Value block) {
  if (structure.besideRows.empty())
    return success();
  OpBuilder::InsertionGuard guard(b);
  scf::ParallelOp threadLoop = createMappedLoop(b, loc, {schedule.getThreads()},
                                                {gpu::Processor::ThreadX});
  ++rowLoop;
  fillRowStages = false;
  pushScope();
  LogicalResult emitted = emitGridStrideOutputs(
      structure.besideRows, block, threadLoop.getInductionVars()[0]);
  popScope();
  return emitted;
}

LogicalResult KernelEmitter::emitNormalizationKernel() {
  Block &body = segment.getBody().front();
  NormalizationStructure structure = analyzeNormalization(body);
  if (!structure.whyNot.empty())
    return segment.emitError("a normalization schedule needs a "
                             "normalization, but ")
           << structure.whyNot;
  if (structure.outer)
    return emitOuterNormalizationKernel(structure);
  if (schedule.getSplit() != schedule.getThreads())
    return segment.emitError("an inner normalization schedule shares each "
                             "row among all threads of its block: split "
                             "must equal threads, got split = ")
           << schedule.getSplit() << ", threads = " << schedule.getThreads();
  int64_t blocks = schedule.getBlocks(), threads = schedule.getThreads();
  int64_t lanes = schedule.getVector();
  if (structure.rows % blocks != 0)
    return segment.emitError("a normalization schedule needs a whole number "
                             "of rows per block (")
           << structure.rows << " rows), got " << blocks << " blocks";
  int64_t rowsPerBlock = structure.rows / blocks;
  ArrayRef<int64_t> sourceShape = structure.sourceShape;
  int64_t innermost = sourceShape.empty() ? 1 : sourceShape.back();
  if (innermost % lanes != 0)
    return segment.emitError("the vector width ")
           << lanes << " does not divide the innermost extent " << innermost
           << " along which every reduction walks the row";
  int64_t outer = sourceShape.size() - structure.dims.size();
  ArrayRef<int64_t> keptShape = sourceShape.take_front(outer);
  ArrayRef<int64_t> rowShape = sourceShape.drop_front(outer);
  SmallVector<int64_t> keepdimShape(keptShape);
  keepdimShape.append(structure.dims.size(), 1);
  rowOuterDims = outer;
  rowSpelling.assign(sourceShape.begin(), sourceShape.end());

  Value block = emitBlockLoop(blocks);

  // Inputs of the rows' shape are staged in shared memory (budgeted by
  // fuser-segment), and with several rows per block so are inputs broadcast
  // along the rows; i1 is not (no vector accesses of i1).
  auto module = segment->getParentOfType<ModuleOp>();
  for (Value input : inputs) {
    auto memref = dyn_cast<MemRefType>(bindings.lookup(input).getType());
    if (!memref || memref.getElementType().isInteger(1) ||
        getSaturatedNumElements(memref) == 0)
      continue;
    bool perRow = memref.getShape() == sourceShape;
    if (!perRow && (rowsPerBlock == 1 || memref.getShape() != rowShape))
      continue;
    memref::GlobalOp buffer = createWorkgroupBuffer(
        b, loc, module, "__fuser_row", {structure.rowElements},
        memref.getElementType(), /*alignment=*/16);
    RowStage &stage = rowStages[bindings.lookup(input)];
    stage.buffer = buffer;
    stage.perRow = perRow;
  }

  // The block's rows one after another, each reusing the row buffers (each
  // thread reads back only what it stored, so no barrier between rows).
  auto yield = cast<YieldOp>(body.getTerminator());
  for (int64_t r = 0; r < rowsPerBlock; ++r) {
    SmallVector<Value> kept = delinearize(
        add(mul(block, constant(rowsPerBlock)), constant(r)), keptShape);
    for (auto &entry : rowStages)
      if (entry.second.perRow)
        entry.second.filledBy = -1;
    fillRowStages = true;

    // One block-wide combine per reduction, in program order: a later
    // reduction reads the earlier ones' values (softmax's max, LayerNorm's
    // mean).
    for (ReductionOp reduction : structure.reductions) {
      FailureOr<Value> combined =
          emitBlockReduction(reduction, kept, threads, lanes, nullptr);
      if (failed(combined))
        return failure();
      reducedValues[reduction] = emitCast(
          b, loc, *combined, getElementTypeOrSelf(reduction.getType()));
    }

    // Then the row's outputs, from the reduced values: the threads stride
    // over the row as in the reductions; outputs of reduced rows are written
    // by thread 0.
    OpBuilder::InsertionGuard rowGuard(b);
    scf::ParallelOp threadLoop =
        createMappedLoop(b, loc, {threads}, {gpu::Processor::ThreadX});
    Value thread = threadLoop.getInductionVars()[0];
    ++rowLoop;
    fillRowStages = r + 1 < rowsPerBlock;
    pushScope();
    for (auto [i, result] : llvm::enumerate(yield.getValues())) {
      if (llvm::is_contained(structure.besideRows, i))
        continue;
      auto type = cast<ShapedType>(result.getType());
      ArrayRef<int64_t> shape = type.getShape();
      OpBuilder::InsertionGuard guard(b);
      // A row, or one with extent-1 axes dropped (analyzeNormalization)
      // that is not a reduced row: its index maps from the row's, and its
      // elements are computed apart from the row's staged walk.
      bool exactRow = shape == sourceShape;
      if (exactRow ||
          (shape != keptShape && shape != ArrayRef(keepdimShape) &&
           isSameShapeUpToUnitDims(shape, sourceShape))) {
        // At most the schedule's vector, which divides the innermost extent
        // of the row; a result whose innermost extent is not 1 shares that
        // axis with the row.
        width = getOutputVectorWidth(schedule, type);
        auto loop = scf::ForOp::create(b, loc, mul(thread, constant(width)),
                                       constant(structure.rowElements),
                                       constant(threads * width));
        b.setInsertionPointToStart(loop.getBody());
        pushScope();
        SmallVector<Value> index(kept);
        llvm::append_range(index,
                           delinearize(loop.getInductionVar(), rowShape));
        // The row is walked as in the reductions when the widths agree; a
        // row written in another spelling reads the staged rows too, at the
        // row's index, and is written at that index mapped to its axes.
        if (width == lanes || !exactRow) {
          rowLanes = Lanes();
          rowLanes->base = index;
          if (width > 1) {
            rowLanes->kind = LaneKind::Unit;
            rowLanes->dim = index.size() - 1;
          }
          rowPosition = loop.getInductionVar();
        }
        if (!exactRow)
          index = mapUnitAxes(index, sourceShape, shape);
        LogicalResult emitted = emitOutputAt(i, index);
        rowLanes.reset();
        if (failed(emitted))
          return failure();
        popScope();
        continue;
      }
      width = 1;
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          thread, constant(0));
      auto ifOp = scf::IfOp::create(b, loc, first, /*withElse=*/false);
      b.setInsertionPointToStart(ifOp.thenBlock());
      pushScope();
      // A reduced row in any spelling of extent-1 axes, the reduced dims
      // kept as 1 included (analyzeNormalization).
      if (failed(emitOutputAt(i, mapUnitAxes(kept, keptShape, shape))))
        return failure();
      popScope();
    }
    popScope();
  }
  if (failed(emitOutputsBesideRows(structure, block)))
    return failure();
  popScope();
  return success();
}

void KernelEmitter::bindSqueezedInputs(Block &body) {
  for (BlockArgument argument : body.getArguments()) {
    inputs.push_back(argument);
    Value memref = bindings.lookup(argument);
    // An input without elements stays unreferenced (evalUnchained).
    auto type = dyn_cast<MemRefType>(memref.getType());
    if (!type || !type.getLayout().isIdentity() ||
        getSaturatedNumElements(type) == 0)
      continue;
    for (Operation *user : argument.getUsers()) {
      auto squeeze = dyn_cast<SqueezeOp>(user);
      if (!squeeze || bindings.contains(squeeze.getResult()))
        continue;
      std::optional<SmallVector<ReassociationIndices>> reassociation =
          getReassociationIndicesForCollapse(type.getShape(),
                                             squeeze.getType().getShape());
      if (!reassociation)
        continue;
      bindings.map(squeeze.getResult(), memref::CollapseShapeOp::create(
                                            b, loc, memref, *reassociation)
                                            .getResult());
      inputs.push_back(squeeze.getResult());
    }
  }
}

LogicalResult KernelEmitter::emit(ValueRange inputMemrefs,
                                  ValueRange outputMemrefs) {
  // A kernel without output elements launches nothing (a grid of 0 blocks
  // is not a launch: cuLaunchKernel refuses it).
  if (llvm::all_of(outputMemrefs.getTypes(), [](Type type) {
        return getSaturatedNumElements(type) == 0;
      }))
    return success();
  Block &body = segment.getBody().front();
  bindings.map(body.getArguments(), inputMemrefs);
  bindSqueezedInputs(body);
  outputs.assign(outputMemrefs.begin(), outputMemrefs.end());
  OpBuilder::InsertionGuard guard(b);
  pushScope();
  LogicalResult result = emitScheduledKernel();
  popScope();
  return result;
}

LogicalResult KernelEmitter::emitScheduledKernel() {
  int64_t split = schedule.getSplit();
  switch (schedule.getKind()) {
  case ScheduleKind::Normalization:
    return emitNormalizationKernel();
  case ScheduleKind::OuterReduction:
    if (split > 1 && split < schedule.getThreads())
      return emitTiledSplitKernel();
    [[fallthrough]];
  case ScheduleKind::Pointwise:
  case ScheduleKind::InnerReduction:
    return split > 1 ? emitSplitKernel() : emitPerOutputKernel();
  }
  llvm_unreachable("unknown schedule kind");
}

} // namespace

FailureOr<Value> mlir::fuser::emitScalarOp(OpBuilder &builder, Operation *op,
                                           ValueRange operands) {
  if (isa<ElementwiseOpInterface>(op))
    return emitElementwise(builder, op->getLoc(), op, operands);
  if (isa<FuserDialect>(op->getDialect()))
    return op->emitError("the kernel lowering does not support '")
           << op->getName() << "' on scalars";
  IRMapping mapping;
  mapping.map(op->getOperands(), operands);
  return builder.clone(*op, mapping)->getResult(0);
}

LogicalResult mlir::fuser::emitKernel(OpBuilder &builder, SegmentOp segment,
                                      ValueRange inputs, ValueRange outputs) {
  ScheduleAttr schedule = segment.getScheduleAttr();
  if (!schedule)
    return segment.emitError("kernel segment has no schedule; run "
                             "fuser-schedule first");
  // Index arithmetic is in 64-bit `index`: every flat position must fit.
  WalkResult tooLarge = segment.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto shaped = dyn_cast<ShapedType>(type);
          shaped && !getCheckedNumElements(shaped.getShape())) {
        op->emitError("the kernel lowering indexes with 64-bit integers; ")
            << type << " has more elements";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (tooLarge.wasInterrupted())
    return failure();
  KernelEmitter emitter(builder, segment, schedule);
  return emitter.emit(inputs, outputs);
}
