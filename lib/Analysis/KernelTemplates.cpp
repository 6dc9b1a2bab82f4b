//===- KernelTemplates.cpp - which op sets one kernel can compute ---------===//
//
// The structural analyses of the kernel templates (docs/Segmentation.md,
// "Kernel templates"; docs/Lowering.md for the kernels themselves).
//
//===----------------------------------------------------------------------===//

#include "fuser/Analysis/KernelTemplates.h"

#include "fuser/Analysis/IndexingMaps.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace mlir;
using namespace mlir::fuser;

KernelOps KernelOps::fromBody(Block &body) {
  KernelOps kernel;
  for (Operation &op : body.without_terminator())
    kernel.ops.push_back(&op);
  llvm::append_range(kernel.outputs, body.getTerminator()->getOperands());
  llvm::append_range(kernel.inputTypes, body.getArgumentTypes());
  return kernel;
}

SmallVector<InputTypeCount> mlir::fuser::countInputTypes(ArrayRef<Type> types) {
  SmallVector<InputTypeCount> counts;
  DenseMap<Type, unsigned> position;
  for (Type type : types) {
    auto [it, inserted] = position.try_emplace(type, counts.size());
    if (inserted)
      counts.push_back({type, 0});
    ++counts[it->second].count;
  }
  return counts;
}

KernelMatch mlir::fuser::matchSegmentUnion(SegmentOp producer, SegmentOp reader,
                                           const TargetInfo &target) {
  // Both bodies cloned into one scratch block, whose arguments are the
  // distinct inputs of the two.
  Region scratch;
  Block *block = new Block();
  scratch.push_back(block);
  // (The region has no parent op, so the builder takes the context from
  // the segment.)
  OpBuilder builder(producer.getContext());
  builder.setInsertionPointToEnd(block);
  IRMapping mapping;
  DenseMap<Value, Value> argumentOf;
  auto getArgument = [&](Value input) {
    auto [it, inserted] = argumentOf.try_emplace(input);
    if (inserted)
      it->second = block->addArgument(input.getType(), input.getLoc());
    return it->second;
  };
  Block &producerBody = producer.getBody().front();
  Operation *producerYield = producerBody.getTerminator();
  for (auto [argument, input] :
       llvm::zip_equal(producerBody.getArguments(), producer.getInputs()))
    mapping.map(argument, getArgument(input));
  for (Operation &op : producerBody.without_terminator())
    builder.clone(op, mapping);
  Block &readerBody = reader.getBody().front();
  for (auto [argument, input] :
       llvm::zip_equal(readerBody.getArguments(), reader.getInputs())) {
    auto result = dyn_cast<OpResult>(input);
    if (result && result.getOwner() == producer)
      mapping.map(argument, mapping.lookup(producerYield->getOperand(
                                result.getResultNumber())));
    else
      mapping.map(argument, getArgument(input));
  }
  for (Operation &op : readerBody.without_terminator())
    builder.clone(op, mapping);

  KernelOps kernel;
  for (Operation &op : *block)
    kernel.ops.push_back(&op);
  for (auto [result, yielded] :
       llvm::zip_equal(producer.getResults(), producerYield->getOperands()))
    if (llvm::any_of(result.getUsers(),
                     [&](Operation *user) { return user != reader; }))
      kernel.outputs.push_back(mapping.lookup(yielded));
  for (Value yielded : readerBody.getTerminator()->getOperands())
    kernel.outputs.push_back(mapping.lookup(yielded));
  llvm::append_range(kernel.inputTypes, block->getArgumentTypes());
  return matchKernel(kernel, target);
}

//===----------------------------------------------------------------------===//
// Which ops each kernel kind emits
//===----------------------------------------------------------------------===//
//
// The one list of the ops the kernel emitter (lib/Conversion/FuserToSCF)
// emits, by kernel kind: what its evaluation chains (getChainedOp: meta ops
// and elementwise ops), evaluates unchained (evalUnchained: full, pad, cat,
// reductions) and lowers element by element (emitElementwise: the rows of
// ElementwiseOps.def and the five ops it matches by class). It belongs next
// to the kernel kinds: when the emitter is one file per kind, each kind
// declares its ops there and this table is built from those declarations.
// Until then, an op the emitter learns to emit is added here, and an op not
// listed is refused by fuser-segment (a located error), never merged as
// pointwise or recomputed.

namespace {
/// The kernel kinds that emit an op, one bit per SegmentKind.
using KernelKindSet = unsigned;

constexpr KernelKindSet kindBit(SegmentKind kind) {
  return 1u << static_cast<unsigned>(kind);
}

constexpr KernelKindSet kPointwiseKinds = kindBit(SegmentKind::Pointwise) |
                                          kindBit(SegmentKind::Reduction) |
                                          kindBit(SegmentKind::Normalization);
constexpr KernelKindSet kReductionKinds =
    kindBit(SegmentKind::Reduction) | kindBit(SegmentKind::Normalization);
/// A library segment reads its operands through meta ops of its inputs (a
/// transpose is a layout the call takes), so meta ops join its kind.
constexpr KernelKindSet kMetaKinds =
    kPointwiseKinds | kindBit(SegmentKind::Library);

struct OpClass {
  /// The kinds that emit the op.
  KernelKindSet kinds = 0;
  /// Whether fuser-segment may recompute it in a reader.
  bool recomputable = false;
};

class OpTable {
public:
  OpTable() {
    // Elementwise: each row of ElementwiseOps.def, and the ops
    // emitElementwise matches by class.
#define FUSER_ELEMENTWISE_ROW(CLASS) add<CLASS>(kPointwiseKinds, true);
#define FUSER_UNARY_OP(CLASS, ...) FUSER_ELEMENTWISE_ROW(CLASS)
#define FUSER_BINARY_OP(CLASS, ...) FUSER_ELEMENTWISE_ROW(CLASS)
#define FUSER_TERNARY_OP(CLASS, ...) FUSER_ELEMENTWISE_ROW(CLASS)
#define FUSER_COMPARE_OP(CLASS, ...) FUSER_ELEMENTWISE_ROW(CLASS)
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
#undef FUSER_ELEMENTWISE_ROW
    add<CastOp, ComplexOp, RealOp, ImagOp, WhereOp>(kPointwiseKinds, true);
    // Meta ops: the emitter maps the index to the source's (getChainedOp);
    // a segment_set's result is written, never recomputed.
    add<ViewOp, PermuteOp, SqueezeOp, BroadcastOp, ExpandOp, SliceOp, SetOp>(
        kMetaKinds, true);
    add<SegmentSetOp>(kPointwiseKinds, false);
    // Evaluated from their own structure (evalUnchained).
    add<FullOp, IotaOp, PadOp, CatOp, GatherOp>(kPointwiseKinds, true);
    // A random op is computed where it is defined only: recomputing it in
    // each reader would draw its numbers again in every kernel.
    add<UniformOp, NormalOp>(kPointwiseKinds, false);
    // Reductions shape reduction and normalization kernels; a value computed
    // through one is written, never recomputed.
    add<ReductionOp>(kReductionKinds, false);
    // A scan combines a prefix per element (evalScan), or walks its rows once
    // where the outputs allow (ScanRowKernel); expensive, never recomputed.
    add<ScanOp>(kindBit(SegmentKind::Pointwise), false);
    // An argsort's rows are ranked by one thread each (SortRowKernel).
    add<ArgsortOp>(kindBit(SegmentKind::Pointwise), false);
    // A scatter's rows are written by one thread each (ScatterRowKernel).
    add<ScatterOp>(kindBit(SegmentKind::Pointwise), false);
    // A library call computes each library op, in a segment of its own
    // (nvFuser's ExprEval segments); never recomputed.
    add<MatmulOp, LinearOp, GroupedMmOp, SdpfaFwdOp, SdpfaBwdOp>(
        kindBit(SegmentKind::Library), false);
  }

  OpClass lookup(Operation *op) const {
    return classes.lookup(op->getName().getTypeID());
  }

private:
  template <typename... Ops> void add(KernelKindSet kinds, bool recomputable) {
    (classes.try_emplace(TypeID::get<Ops>(), OpClass{kinds, recomputable}),
     ...);
  }

  DenseMap<TypeID, OpClass> classes;
};
} // namespace

/// The class of `op`: the table's, or for a scalar computation (one result
/// that is no tensor, no region) what the emitter's scalar evaluation
/// takes: elementwise fuser ops, and ops of other dialects (cloned); a
/// library segment takes them too (the call's scalar operands, which its
/// lowering computes: LibraryCall.cpp).
static OpClass classify(Operation *op) {
  static const OpTable table;
  OpClass opClass = table.lookup(op);
  if (!isScalarComputation(op))
    return opClass;
  if (opClass.kinds == 0) {
    if (isa_and_present<FuserDialect>(op->getDialect()))
      return {};
    opClass = {kPointwiseKinds, false};
  }
  opClass.kinds |= kindBit(SegmentKind::Library);
  return opClass;
}

bool mlir::fuser::canEmitInKernel(Operation *op, SegmentKind kind) {
  return classify(op).kinds & kindBit(kind);
}

bool mlir::fuser::canEmitInAnyKernel(Operation *op) {
  return classify(op).kinds != 0;
}

bool mlir::fuser::isRecomputableInKernel(Operation *op) {
  return classify(op).recomputable;
}

SmallVector<std::pair<int64_t, bool>>
mlir::fuser::getReductionAxes(ReductionOp op) {
  ArrayRef<int64_t> shape =
      cast<TensorType>(op.getSource().getType()).getShape();
  ArrayRef<int64_t> dims = op.getDims();
  SmallVector<std::pair<int64_t, bool>> axes;
  for (auto [dim, extent] : llvm::enumerate(shape))
    if (extent != 1)
      axes.emplace_back(extent,
                        llvm::is_contained(dims, static_cast<int64_t>(dim)));
  return axes;
}

/// The map from an index of the value at the end of meta-op chain `chain`
/// to the index of the reduction result it reads: the chain's source index
/// maps composed (null for an empty chain). Chains with equal maps read the
/// reductions alike.
static AffineMap composeChain(ArrayRef<Operation *> chain) {
  AffineMap map;
  for (Operation *op : chain) {
    AffineMap source = cast<MetaOpInterface>(op).getSourceIndexMap();
    map = map ? map.compose(source) : source;
  }
  return map;
}

ReductionStructure mlir::fuser::analyzeReductions(SegmentOp segment) {
  ReductionStructure structure;
  Block &body = segment.getBody().front();
  for (auto reduction : body.getOps<ReductionOp>())
    structure.reductions.push_back(reduction);
  if (structure.reductions.empty())
    return structure;

  ReductionOp first = structure.reductions.front();
  ArrayRef<int64_t> sourceShape = first.getSource().getType().getShape();
  for (int64_t d = static_cast<int64_t>(sourceShape.size()) - 1; d >= 0; --d) {
    if (sourceShape[d] == 1)
      continue;
    structure.reducesInnermost = llvm::is_contained(first.getDims(), d);
    break;
  }

  // The meta-op chain from each reduction-dependent value down to the
  // reductions; elementwise ops must see the same chain on every operand.
  DenseMap<Value, SmallVector<Operation *>> &chains = structure.metaChains;
  for (ReductionOp reduction : structure.reductions)
    chains[reduction.getResult()] = {};
  auto fail = [&](Operation *op, const Twine &why) {
    if (structure.whyNotSplittable.empty())
      structure.whyNotSplittable =
          ("'" + op->getName().getStringRef() + "' " + why).str();
  };
  for (Operation &op : body.without_terminator()) {
    if (isa<ReductionOp>(op)) {
      if (chains.count(cast<ReductionOp>(op).getSource()))
        fail(&op, "reduces a reduction result");
      continue;
    }
    SmallVector<Value> dependent;
    for (Value operand : op.getOperands())
      if (chains.count(operand))
        dependent.push_back(operand);
    if (dependent.empty() || op.getNumResults() != 1)
      continue;
    Value result = op.getResult(0);
    if (succeeded(getResultIndexMap(&op))) {
      SmallVector<Operation *> ops = chains[dependent.front()];
      ops.push_back(&op);
      chains[result] = std::move(ops);
      continue;
    }
    if (!isa<ElementwiseOpInterface>(op)) {
      fail(&op, "uses a reduction result and is not one to one");
      continue;
    }
    for (Value operand : dependent) {
      if (operand.getType() !=
          RankedTensorType::get(cast<ShapedType>(result.getType()).getShape(),
                                getElementTypeOrSelf(operand.getType())))
        fail(&op, "broadcasts a reduction result");
      if (composeChain(chains[operand]) !=
          composeChain(chains[dependent.front()]))
        fail(&op, "combines reduction results through different views");
    }
    chains[result] = chains[dependent.front()];
  }
  // convert-parallel-loops-to-gpu combines one value per block, and
  // gpu.all_reduce shuffles 32-bit values.
  if (structure.reductions.size() > 1)
    fail(first, "shares the kernel with another reduction");
  Type element = first.getType().getElementType();
  if (element.isF64() || element.isInteger(64))
    fail(first, "accumulates in 64 bits");
  return structure;
}

bool mlir::fuser::isColumnInput(const NormalizationStructure &structure,
                                RankedTensorType type) {
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() == structure.sourceShape.size())
    return shape != ArrayRef(structure.sourceShape) &&
           llvm::all_of(llvm::seq<int64_t>(0, shape.size()), [&](int64_t d) {
             return llvm::is_contained(structure.dims, d)
                        ? shape[d] == 1
                        : shape[d] == structure.sourceShape[d] || shape[d] == 1;
           });
  SmallVector<int64_t> dropped;
  for (auto [d, size] : llvm::enumerate(structure.sourceShape))
    if (!llvm::is_contained(structure.dims, int64_t(d)))
      dropped.push_back(size);
  return shape == ArrayRef(dropped);
}

/// Columns an outer normalization block covers at most: a warp's worth of
/// consecutive elements along the innermost axis.
static constexpr int64_t kMaxOuterNormalizationTile = kWarpSize;
/// Bytes of a global memory sector: an outer normalization's tile narrows
/// no further than a sector of its narrowest staged input.
static constexpr int64_t kSectorBytes = 32;

/// Picks the tile and threads of outer normalization `structure` (its
/// rowElements and rows set; `numReductions` reductions) and the shared
/// memory they need;
/// `stagedBytes` are the bytes of one element of every staged input of the
/// source shape, `narrowest` the narrowest of them, `columnInputBytes`
/// those of every input broadcast along the reduced axes (a column's
/// element of each may be staged too).
static void chooseOuterTile(NormalizationStructure &structure,
                            int64_t numReductions, int64_t stagedBytes,
                            int64_t narrowest, int64_t columnInputBytes,
                            bool splitReductions, int64_t sharedMemoryBudget) {
  int64_t tile = std::min<int64_t>(
      kMaxOuterNormalizationTile,
      llvm::PowerOf2Ceil(std::max<int64_t>(structure.rows, 1)));
  int64_t minTile =
      std::min<int64_t>(tile, std::max<int64_t>(1, kSectorBytes / narrowest));
  auto threadsFor = [&](int64_t tile) {
    if (!splitReductions)
      return tile;
    return tile * std::min<int64_t>(kThreadsPerBlock / tile,
                                    llvm::PowerOf2Ceil(std::max<int64_t>(
                                        structure.rowElements, 1)));
  };
  auto columnBlockBytes = [&](int64_t tile) {
    return static_cast<int64_t>(std::min<uint64_t>(
        llvm::SaturatingMultiply(
            llvm::SaturatingMultiply(uint64_t(structure.rowElements),
                                     uint64_t(tile)),
            uint64_t(stagedBytes)),
        uint64_t(1) << 62));
  };
  auto sharedFor = [&](int64_t tile) {
    return columnBlockBytes(tile) + tile * columnInputBytes +
           4 * threadsFor(tile) * numReductions;
  };
  while (tile > minTile && sharedFor(tile) > sharedMemoryBudget)
    tile /= 2;
  structure.tile = tile;
  structure.threads = threadsFor(tile);
  structure.rowBytes = columnBlockBytes(tile);
  structure.sharedBytes = sharedFor(tile);
}

bool mlir::fuser::isSameShapeUpToUnitDims(ArrayRef<int64_t> shape,
                                          ArrayRef<int64_t> other) {
  auto isNotUnit = [](int64_t size) { return size != 1; };
  return llvm::equal(llvm::make_filter_range(shape, isNotUnit),
                     llvm::make_filter_range(other, isNotUnit));
}

//===----------------------------------------------------------------------===//
// KernelTemplateBuilder
//===----------------------------------------------------------------------===//

static ArrayRef<int64_t> getShape(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

static void setFirst(std::string &why, const Twine &reason) {
  if (why.empty())
    why = reason.str();
}

void KernelTemplateBuilder::addFirstReduction(ReductionOp first) {
  NormalizationStructure &structure = state.structure;
  ArrayRef<int64_t> shape = first.getSource().getType().getShape();
  ArrayRef<int64_t> dims = first.getDims();
  structure.sourceShape.assign(shape.begin(), shape.end());
  structure.dims.assign(dims.begin(), dims.end());
  int64_t rank = shape.size();
  bool trailing = true;
  for (auto [i, dim] : llvm::enumerate(dims))
    trailing &= dim == rank - static_cast<int64_t>(dims.size()) + int64_t(i);
  if (!trailing) {
    // An outer normalization keeps the innermost axis.
    structure.outer = !llvm::is_contained(dims, rank - 1);
    if (!structure.outer)
      setFirst(state.whyNotReductions,
               "the reduced dims are neither the innermost ones nor outer "
               "axes that keep the innermost one");
  }
  state.keptShape.assign(shape.begin(), shape.end());
  state.droppedShape.clear();
  structure.rows = 1;
  structure.rowElements = 1;
  for (auto [d, size] : llvm::enumerate(shape)) {
    if (llvm::is_contained(dims, int64_t(d))) {
      state.keptShape[d] = 1;
      structure.rowElements *= size;
    } else {
      state.droppedShape.push_back(size);
      structure.rows *= size;
    }
  }
  state.reductionAxes = getReductionAxes(first);
  state.reductionLimit = getSaturatedNumElements(first.getResult().getType());
}

bool KernelTemplateBuilder::reducesSameRows(ReductionOp reduction) const {
  const NormalizationStructure &structure = state.structure;
  return reduction.getSource().getType().getShape() ==
             ArrayRef(structure.sourceShape) &&
         reduction.getDims() == ArrayRef(structure.dims);
}

bool KernelTemplateBuilder::isRowOrReduced(ArrayRef<int64_t> valueShape) const {
  return valueShape == ArrayRef(state.structure.sourceShape) ||
         valueShape == ArrayRef(state.keptShape) ||
         valueShape == ArrayRef(state.droppedShape);
}

bool KernelTemplateBuilder::isRowOrReducedInAnySpelling(
    ArrayRef<int64_t> valueShape) const {
  return isSameShapeUpToUnitDims(valueShape, state.structure.sourceShape) ||
         isSameShapeUpToUnitDims(valueShape, state.droppedShape);
}

void KernelTemplateBuilder::addReduction(ReductionOp reduction,
                                         bool usesReduction) {
  if (reductions.empty())
    addFirstReduction(reduction);
  reductions.push_back(reduction);
  // The reduction template: one set of axes. A reduction may read another
  // one's result only where nothing is broadcast back, so where they reduce
  // extent-1 axes only (analyzeReductions keeps such kernels unsplit).
  if (usesReduction &&
      getSaturatedNumElements(reduction.getResult().getType()) <
          getSaturatedNumElements(reduction.getSource().getType()))
    setFirst(state.whyNotReductionTemplate,
             "a reduction reads another reduction's result");
  else if (getReductionAxes(reduction) != state.reductionAxes)
    setFirst(state.whyNotReductionTemplate,
             "its reductions reduce different axes");
  // The normalization template: the same rows, 32-bit accumulation.
  if (!reducesSameRows(reduction))
    setFirst(state.whyNotReductions,
             "its reductions differ in source shape or reduced dims");
  Type element = reduction.getType().getElementType();
  // gpu.all_reduce combines 32-bit values; f16/bf16 accumulate in f32.
  if (!element.isF32() && !element.isF16() && !element.isBF16() &&
      !element.isInteger(32))
    setFirst(state.whyNotReductions,
             "a reduction does not accumulate in 32 bits");
}

void KernelTemplateBuilder::addDependentOp(Operation &op) {
  // The reduction template: nothing computed from a reduction is larger
  // than its result (a result broadcast back onto the rows is a
  // normalization).
  for (Value result : op.getResults())
    if (getSaturatedNumElements(result.getType()) > state.reductionLimit)
      setFirst(state.whyNotReductionTemplate,
               "'" + op.getName().getStringRef() +
                   "' broadcasts a reduction result back to more elements");
  // The normalization template: elementwise over rows or reduced rows, or
  // a map between those.
  auto fail = [&](const Twine &why) { setFirst(state.whyNotOps, why); };
  if (op.getNumResults() != 1 ||
      !isa<RankedTensorType>(op.getResult(0).getType())) {
    fail("'" + op.getName().getStringRef() + "' uses a reduction result");
    return;
  }
  ArrayRef<int64_t> resultShape = getShape(op.getResult(0));
  if (isa<ElementwiseOpInterface>(op)) {
    if (!isRowOrReduced(resultShape))
      fail("'" + op.getName().getStringRef() +
           "' computes a reduction result into another shape");
    // Size-1 broadcasting is right only for the spellings above: a reduced
    // row spelled `1x1x4` would broadcast along a `1x4x4` row.
    for (Value operand : op.getOperands())
      if (dependent.contains(operand) && !isRowOrReduced(getShape(operand)))
        fail("'" + op.getName().getStringRef() +
             "' broadcasts a reduced row spelled with other extent-1 axes");
    return;
  }
  // A squeeze, broadcast or view that only drops or inserts extent-1 axes
  // of a row or a reduced row, or a set of one: it keeps the elements in
  // order (how fuser-segment spells a result back after computing it
  // without extent-1 axes).
  if (isa<SqueezeOp, BroadcastOp, ViewOp, SetOp, SegmentSetOp>(op) &&
      isSameShapeUpToUnitDims(getShape(op.getOperand(0)), resultShape) &&
      isRowOrReducedInAnySpelling(resultShape))
    return;
  if (auto broadcast = dyn_cast<BroadcastOp>(op);
      broadcast &&
      getShape(broadcast.getSource()) == ArrayRef(state.droppedShape) &&
      resultShape == ArrayRef(state.keptShape) &&
      broadcast.getDims() == ArrayRef(state.structure.dims))
    return;
  fail("'" + op.getName().getStringRef() +
       "' maps a reduction result other than elementwise over its rows");
}

void KernelTemplateBuilder::addOp(Operation *op) {
  // The kinds that emit every op so far; an op none emits makes the ops no
  // kernel (fuser-segment refuses it before grouping).
  KernelKindSet kinds = classify(op).kinds;
  if (kinds == 0)
    setFirst(state.whyNotEmitted, "op '" + op->getName().getStringRef() +
                                      "' cannot be emitted by any kernel kind");
  state.kinds &= kinds;
  addLibraryRules(op);
  if (auto sort = dyn_cast<ArgsortOp>(op); sort && state.sorts++ == 0)
    state.sortShape.assign(getShape(sort.getResult()).begin(),
                           getShape(sort.getResult()).end());
  if (auto scatter = dyn_cast<ScatterOp>(op); scatter && state.scatters++ == 0)
    state.scatterResult = scatter.getResult();
  if (state.scatterResult && llvm::is_contained(op->getOperands(),
                                                state.scatterResult))
    state.readsScatter = true;
  addSortRules(op);
  bool usesReduction = llvm::any_of(
      op->getOperands(), [&](Value v) { return dependent.contains(v); });
  auto reduction = dyn_cast<ReductionOp>(op);
  if (!reduction && !usesReduction)
    return;
  for (Value result : op->getResults())
    if (dependent.insert(result).second)
      journal.push_back(result);
  if (reduction)
    addReduction(reduction, usesReduction);
  else
    addDependentOp(*op);
}

void KernelTemplateBuilder::addLibraryRules(Operation *op) {
  if (isa<LibraryOpInterface>(op) && ++state.libraryOps > 1)
    setFirst(state.whyNotLibrary, "it holds more than one library op");
  for (Value operand : op->getOperands())
    if (operand.getDefiningOp<LibraryOpInterface>())
      setFirst(state.whyNotLibrary,
               "'" + op->getName().getStringRef().str() +
                   "' reads a library op's result, which the call writes "
                   "as it computes it");
}

/// Whether `op` reads its tensor operands at its result's index (up to
/// extent-1 dims): elementwise ops of one shape, and meta ops that only
/// drop or insert extent-1 dims.
static bool readsElementByElement(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result || !isa<ElementwiseOpInterface, CastOp, WhereOp, SqueezeOp,
                      BroadcastOp, ViewOp, SetOp, SegmentSetOp>(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    return !type || isSameShapeUpToUnitDims(type.getShape(), result.getShape());
  });
}

std::optional<int64_t> mlir::fuser::getTopkSelection(SliceOp slice) {
  auto sort = slice.getSource().getDefiningOp<ArgsortOp>();
  if (!sort)
    return std::nullopt;
  ArrayRef<int64_t> rows = getShape(sort.getResult());
  ArrayRef<int64_t> selected = getShape(slice.getResult());
  int64_t dim = sort.getDim();
  for (auto [d, extent] : llvm::enumerate(selected))
    if (slice.getStarts()[d] != 0 || slice.getStrides()[d] != 1 ||
        (static_cast<int64_t>(d) != dim && extent != rows[d]))
      return std::nullopt;
  int64_t k = selected[dim];
  if (k < 1 || k >= rows[dim])
    return std::nullopt;
  return k;
}

void KernelTemplateBuilder::addSortRules(Operation *op) {
  bool readsSorted = llvm::any_of(op->getOperands(), [&](Value operand) {
    return sortDependent.contains(operand);
  });
  if (!readsSorted && !isa<ArgsortOp>(op))
    return;
  auto slice = dyn_cast<SliceOp>(op);
  // A gather reads its index at its result's index (the same shape).
  auto gather = dyn_cast<GatherOp>(op);
  bool readsIndexOnly = gather && !sortDependent.contains(gather.getSource());
  if (slice && getTopkSelection(slice)) {
    ArrayRef<int64_t> selected = getShape(slice.getResult());
    if (!state.selectedShape)
      state.selectedShape.emplace(selected.begin(), selected.end());
    else if (ArrayRef<int64_t>(*state.selectedShape) != selected)
      state.selectionsDiffer = true;
  } else if (readsSorted && !readsIndexOnly && !readsElementByElement(op)) {
    state.readsSortAcross = true;
  }
  for (Value result : op->getResults())
    if (sortDependent.insert(result).second)
      sortJournal.push_back(result);
}

std::string KernelTemplateBuilder::getWhyNotScatterRows() const {
  if (state.scatters == 0)
    return {};
  if (state.scatters > 1)
    return "it holds more than one scatter";
  if (state.sorts != 0)
    return "it holds an argsort too (each is a kernel kind of its own)";
  if (state.readsScatter)
    return "it reads its scatter's result, which is complete only at the "
           "kernel's end";
  if (state.writesBesideScatter)
    return "it writes a value other than its scatter's result";
  return {};
}

std::string KernelTemplateBuilder::getWhyNotSortRows() const {
  if (state.sorts == 0)
    return {};
  if (state.sorts > 1)
    return "it holds more than one argsort";
  if (state.readsSortAcross)
    return "it reads its argsort's result other than element by element";
  if (state.selectionsDiffer)
    return "it selects a different number of its argsort's first elements "
           "in two slices";
  ArrayRef<int64_t> rows =
      state.selectedShape ? *state.selectedShape : state.sortShape;
  if (state.writtenShapesDiffer ||
      (state.writtenShape &&
       !isSameShapeUpToUnitDims(*state.writtenShape, rows)))
    return state.selectedShape
               ? "it writes a value of another shape than the first k of "
                 "its argsort's rows that it selects"
               : "it writes a value of another shape than its argsort's rows";
  return {};
}

void KernelTemplateBuilder::addOutput(Value value, unsigned number) {
  if (!value.getDefiningOp<ScatterOp>())
    state.writesBesideScatter = true;
  if (auto type = dyn_cast<RankedTensorType>(value.getType())) {
    if (!state.writtenShape)
      state.writtenShape.emplace(type.getShape().begin(),
                                 type.getShape().end());
    else if (!isSameShapeUpToUnitDims(*state.writtenShape, type.getShape()))
      state.writtenShapesDiffer = true;
  }
  if (state.libraryOps != 0 && !value.getDefiningOp<LibraryOpInterface>())
    setFirst(state.whyNotLibrary,
             "it writes a value other than its library op's result");
  // A written value may be a row or a reduced row spelled with other
  // extent-1 axes, as fuser-segment spells results back: it is written at
  // the row's (or kept) index mapped to its axes. A written value computed
  // from no reduction may have any shape: the kernel writes it beside the
  // rows.
  if (!isa<RankedTensorType>(value.getType()) || !hasReduction())
    return;
  if (isRowOrReducedInAnySpelling(getShape(value)))
    return;
  if (dependent.contains(value))
    setFirst(state.whyNotOutputs,
             "it yields a value computed from a reduction that is neither a "
             "row (up to extent-1 axes) nor a reduced row");
  else
    besideRows.push_back(number);
}

std::string KernelTemplateBuilder::getWhyNotNormalization() const {
  if (hasUnemittableOp())
    return state.whyNotEmitted;
  if (!hasReduction())
    return "it has no reduction";
  for (const std::string *why :
       {&state.whyNotReductions, &state.whyNotOps, &state.whyNotOutputs})
    if (!why->empty())
      return *why;
  return {};
}

NormalizationStructure KernelTemplateBuilder::sizeNormalization(
    ArrayRef<InputTypeCount> inputs, int64_t numReductions,
    bool splitReductions, int64_t sharedMemoryBudget) const {
  NormalizationStructure structure = state.structure;
  if (!hasReduction())
    return structure;
  ArrayRef<int64_t> shape = structure.sourceShape;
  // An outer normalization block keeps the column block of every input of
  // the source shape, up to the extent-1 axes its squeeze drops (but i1,
  // which the lowering does not stage).
  if (structure.outer) {
    int64_t stagedBytes = 0, narrowest = 4, columnInputBytes = 0;
    for (auto [input, count] : inputs) {
      auto type = dyn_cast<RankedTensorType>(input);
      if (!type || type.getElementType().isInteger(1))
        continue;
      int64_t bytes =
          std::max<int64_t>(1, *getElementByteWidth(type.getElementType()));
      if (isColumnInput(structure, type))
        columnInputBytes += count * bytes;
      if (!isSameShapeUpToUnitDims(type.getShape(), shape))
        continue;
      stagedBytes += count * bytes;
      narrowest = std::min(narrowest, bytes);
    }
    chooseOuterTile(structure, numReductions, stagedBytes, narrowest,
                    columnInputBytes, splitReductions, sharedMemoryBudget);
    return structure;
  }
  // Inputs that vary along the row (their innermost extent other than 1,
  // which a squeeze drops, is the row's) are what a block keeps on chip.
  for (auto [input, count] : inputs) {
    auto type = dyn_cast<RankedTensorType>(input);
    if (!type || shape.empty() || shape.back() == 1 ||
        getInnermostNonUnitExtent(type.getShape()) != shape.back())
      continue;
    structure.rowBytes +=
        count * structure.rowElements *
        std::max<int64_t>(1, *getElementByteWidth(type.getElementType()));
  }
  structure.sharedBytes = structure.rowBytes + 128 * numReductions;
  return structure;
}

NormalizationStructure
KernelTemplateBuilder::getNormalization(ArrayRef<InputTypeCount> inputs,
                                        bool splitReductions,
                                        int64_t sharedMemoryBudget) const {
  NormalizationStructure structure = sizeNormalization(
      inputs, reductions.size(), splitReductions, sharedMemoryBudget);
  structure.whyNot = getWhyNotNormalization();
  structure.reductions = reductions;
  structure.besideRows = besideRows;
  return structure;
}

std::optional<SegmentKind>
KernelTemplateBuilder::getTemplate(ArrayRef<InputTypeCount> inputs,
                                   const TargetInfo &target,
                                   bool allowNormalization) const {
  // Each template takes only ops its kind emits; the pointwise kind emits
  // every op but reductions.
  auto emits = [&](SegmentKind kind) {
    return (state.kinds & kindBit(kind)) != 0;
  };
  if (emits(SegmentKind::Pointwise) && !hasReduction() &&
      getWhyNotSortRows().empty() && getWhyNotScatterRows().empty())
    return SegmentKind::Pointwise;
  if (state.libraryOps != 0)
    return emits(SegmentKind::Library) && state.whyNotLibrary.empty()
               ? std::optional(SegmentKind::Library)
               : std::nullopt;
  if (emits(SegmentKind::Reduction) && hasReduction() &&
      state.whyNotReductionTemplate.empty())
    return SegmentKind::Reduction;
  if (!allowNormalization || !emits(SegmentKind::Normalization) ||
      !hasReduction() || !state.whyNotReductions.empty() ||
      !state.whyNotOps.empty() || !state.whyNotOutputs.empty())
    return std::nullopt;
  NormalizationStructure structure =
      sizeNormalization(inputs, reductions.size(), /*splitReductions=*/true,
                        target.sharedMemoryPerBlock);
  if (structure.sharedBytes > target.sharedMemoryPerBlock)
    return std::nullopt;
  return SegmentKind::Normalization;
}

KernelMatch KernelTemplateBuilder::match(ArrayRef<InputTypeCount> inputs,
                                         const TargetInfo &target,
                                         bool allowNormalization) const {
  if (std::optional<SegmentKind> kind =
          getTemplate(inputs, target, allowNormalization))
    return {kind, {}};
  if (hasUnemittableOp())
    return {std::nullopt, state.whyNotEmitted};
  if (std::string whyNot = getWhyNotSortRows(); !whyNot.empty())
    return {std::nullopt, "not the rows of an argsort: " + whyNot};
  if (std::string whyNot = getWhyNotScatterRows(); !whyNot.empty())
    return {std::nullopt, "not the rows of a scatter: " + whyNot};
  if (state.kinds == 0)
    return {std::nullopt, "no kernel kind emits all of its ops (scans are "
                          "pointwise kernels' only, reductions reduction and "
                          "normalization kernels')"};
  if (state.libraryOps != 0)
    return {std::nullopt,
            state.whyNotLibrary.empty()
                ? "a library op runs in a segment of its own, with meta ops "
                  "of its operands only"
                : "not a library call: " + state.whyNotLibrary};
  if (!allowNormalization)
    return {std::nullopt, state.whyNotReductionTemplate};
  if (std::string whyNot = getWhyNotNormalization(); !whyNot.empty())
    return {std::nullopt, "not a normalization: " + whyNot};
  NormalizationStructure structure =
      sizeNormalization(inputs, reductions.size(), /*splitReductions=*/true,
                        target.sharedMemoryPerBlock);
  return {std::nullopt,
          "a normalization whose " +
              std::string(structure.outer ? "column blocks" : "rows") +
              " take " + std::to_string(structure.sharedBytes) +
              " bytes of shared memory, over the " +
              std::to_string(target.sharedMemoryPerBlock) + " a block has"};
}

bool KernelTemplateBuilder::hasSameFirstReduction(
    const KernelTemplateBuilder &other) const {
  if (!hasReduction() || !other.hasReduction())
    return false;
  ReductionOp mine = reductions.front();
  ReductionOp theirs = other.reductions.front();
  return mine.getSource().getType().getShape() ==
             theirs.getSource().getType().getShape() &&
         mine.getDims() == theirs.getDims();
}

bool KernelTemplateBuilder::canBeKernelWith(const KernelTemplateBuilder &other,
                                            ArrayRef<InputTypeCount> inputs,
                                            const TargetInfo &target) const {
  // Some kind must emit the ops of both (a scan and a reduction: none).
  if ((state.kinds & other.state.kinds) == 0)
    return false;
  const KernelTemplateBuilder &first = hasReduction() ? *this : other;
  if (!first.hasReduction())
    return true;
  if (state.whyNotReductionTemplate.empty() &&
      other.state.whyNotReductionTemplate.empty())
    return true;
  // The union's normalization has the first reduction's rows, the union's
  // inputs and both builders' reductions: its sizes are known before its
  // ops are added.
  int64_t numReductions = reductions.size() + other.reductions.size();
  return first
             .sizeNormalization(inputs, numReductions,
                                /*splitReductions=*/true,
                                target.sharedMemoryPerBlock)
             .sharedBytes <= target.sharedMemoryPerBlock;
}

KernelTemplateBuilder::Checkpoint KernelTemplateBuilder::checkpoint() {
  journal.clear();
  sortJournal.clear();
  return {state, reductions.size(), besideRows.size()};
}

void KernelTemplateBuilder::rollback(Checkpoint checkpoint) {
  for (Value value : journal)
    dependent.erase(value);
  journal.clear();
  for (Value value : sortJournal)
    sortDependent.erase(value);
  sortJournal.clear();
  state = std::move(checkpoint.state);
  reductions.truncate(checkpoint.numReductions);
  besideRows.truncate(checkpoint.numBesideRows);
}

void KernelTemplateBuilder::add(const KernelOps &kernel) {
  for (Operation *op : kernel.ops)
    addOp(op);
  for (auto [number, value] : llvm::enumerate(kernel.outputs))
    addOutput(value, number);
  journal.clear();
  sortJournal.clear();
}

NormalizationStructure
mlir::fuser::analyzeNormalization(const KernelOps &kernel, bool splitReductions,
                                  int64_t sharedMemoryBudget) {
  KernelTemplateBuilder builder;
  builder.add(kernel);
  return builder.getNormalization(countInputTypes(kernel.inputTypes),
                                  splitReductions, sharedMemoryBudget);
}

NormalizationStructure mlir::fuser::analyzeNormalization(Block &body,
                                                         bool splitReductions) {
  return analyzeNormalization(KernelOps::fromBody(body), splitReductions);
}

int64_t mlir::fuser::getOutputVectorWidth(ScheduleAttr schedule,
                                          ShapedType result) {
  if (result.getRank() == 0)
    return 1;
  int64_t width = schedule.getVector();
  while (width > 1 && result.getShape().back() % width != 0)
    width /= 2;
  return width;
}

KernelMatch mlir::fuser::matchKernel(const KernelOps &kernel,
                                     const TargetInfo &target,
                                     bool allowNormalization) {
  // A segment_set of a value the kernel computes is written by the kernel
  // and read by others: nothing the kernel computes reads it (but meta ops,
  // views of it that the kernel writes instead). One of memory that exists
  // (an input, or a view of one) is a view the kernel reads through.
  DenseSet<Operation *> members(kernel.ops.begin(), kernel.ops.end());
  std::function<bool(Operation *)> computesFrom = [&](Operation *op) {
    return llvm::any_of(op->getUsers(), [&](Operation *user) {
      return members.contains(user) &&
             (!isa<MetaOpInterface>(user) || computesFrom(user));
    });
  };
  auto isComputedInside = [&](Value value) {
    while (Operation *def = value.getDefiningOp()) {
      if (!members.contains(def))
        return false;
      auto meta = dyn_cast<MetaOpInterface>(def);
      if (!meta)
        return true;
      value = meta.getSource();
    }
    return false;
  };
  for (Operation *op : kernel.ops)
    if (auto segmentSet = dyn_cast<SegmentSetOp>(op);
        segmentSet && isComputedInside(segmentSet.getSource()) &&
        computesFrom(op))
      return {std::nullopt, "it reads a segment_set it writes"};
  KernelTemplateBuilder builder;
  builder.add(kernel);
  return builder.match(countInputTypes(kernel.inputTypes), target,
                       allowNormalization);
}
