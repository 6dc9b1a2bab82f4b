//===- Schedule.cpp - choose kernel schedules (fuser-schedule) ------------===//
//
// Every heuristic that shapes a kernel lives here (docs/Lowering.md,
// "Schedules"); the lowering only reads the #fuser.schedule it records.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/Transforms/Schedule.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERSCHEDULE
#include "fuser/Dialect/Fuser/Transforms/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

/// Threads per block of the thread-per-output schedules (nvFuser's default).
static constexpr int64_t kThreadsPerBlock = 256;
/// Threads of a warp: the consecutive outputs of a tiled split's block.
static constexpr int64_t kWarpSize = 32;
/// Bytes of the widest global memory access of one thread.
static constexpr int64_t kMaxAccessBytes = 16;
/// Fewest reduced elements per output worth a block of threads.
static constexpr int64_t kMinSplitReduction = 32;
/// The most blocks a grid holds in x.
static constexpr int64_t kMaxBlocks = (int64_t(1) << 31) - 1;

/// The meta ops that map the elements of their source one to one onto their
/// result.
static bool isBijectiveMetaOp(Operation *op) {
  return isa<ViewOp, PermuteOp, SqueezeOp, BroadcastOp, SetOp, SegmentSetOp>(
      op);
}

/// A structural key of the meta ops between a reduction-dependent value and
/// the reductions: equal keys mean equal index maps.
static std::string describeChain(ArrayRef<Operation *> chain) {
  std::string key;
  llvm::raw_string_ostream os(key);
  for (Operation *op : chain) {
    os << op->getName() << op->getAttrDictionary() << ":"
       << op->getResult(0).getType() << ";";
  }
  return key;
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
    if (isBijectiveMetaOp(&op)) {
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
      if (describeChain(chains[operand]) !=
          describeChain(chains[dependent.front()]))
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
/// rowElements, rows and reductions set) and the shared memory they need;
/// `stagedBytes` are the bytes of one element of every staged input of the
/// source shape, `narrowest` the narrowest of them, `columnInputBytes`
/// those of every input broadcast along the reduced axes (a column's
/// element of each may be staged too).
static void chooseOuterTile(NormalizationStructure &structure,
                            int64_t stagedBytes, int64_t narrowest,
                            int64_t columnInputBytes, bool splitReductions) {
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
           4 * threadsFor(tile) *
               static_cast<int64_t>(structure.reductions.size());
  };
  while (tile > minTile && sharedFor(tile) > kNormalizationRowBudgetBytes)
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

NormalizationStructure mlir::fuser::analyzeNormalization(Block &body,
                                                         bool splitReductions) {
  NormalizationStructure structure;
  auto fail = [&](const Twine &why) {
    if (structure.whyNot.empty())
      structure.whyNot = why.str();
  };
  for (auto reduction : body.getOps<ReductionOp>())
    structure.reductions.push_back(reduction);
  if (structure.reductions.empty()) {
    fail("it has no reduction");
    return structure;
  }
  ReductionOp first = structure.reductions.front();
  ArrayRef<int64_t> shape = first.getSource().getType().getShape();
  ArrayRef<int64_t> dims = first.getDims();
  structure.sourceShape.assign(shape.begin(), shape.end());
  structure.dims.assign(dims.begin(), dims.end());
  int64_t rank = shape.size();
  bool trailing = true;
  for (auto [i, dim] : llvm::enumerate(dims))
    trailing &= dim == rank - static_cast<int64_t>(dims.size()) + int64_t(i);
  if (!trailing) {
    // An outer normalization keeps the innermost non-unit axis.
    int64_t innermost = rank - 1;
    while (innermost > 0 && shape[innermost] == 1)
      --innermost;
    structure.outer = !llvm::is_contained(dims, innermost);
    if (!structure.outer)
      fail("the reduced dims are neither the innermost ones nor outer axes "
           "that keep the innermost one");
  }
  SmallVector<int64_t> keptShape(shape), droppedShape;
  structure.rows = 1;
  structure.rowElements = 1;
  for (auto [d, size] : llvm::enumerate(shape)) {
    if (llvm::is_contained(dims, int64_t(d))) {
      keptShape[d] = 1;
      structure.rowElements *= size;
    } else {
      droppedShape.push_back(size);
      structure.rows *= size;
    }
  }
  // Of an inner normalization, a reduction may spell the same rows with
  // other extent-1 axes (`min [0]` of 16 beside `add [2, 3, 4]` of
  // 1x1x16x1x1, as preseg leaves it: fuser-gen seed 8063): the same rows
  // and row elements in the same order, its reduced axes the innermost of
  // its non-unit ones. The vector lanes run along the innermost extent
  // where every reduction's is the same (`laneExtent`), else one element at
  // a time (`[0, 1]` of 6x4 beside `[0, 1, 2]` of 6x4x1: fuser-gen seed
  // 4648).
  auto nonUnitExtents = [](ArrayRef<int64_t> extents) {
    SmallVector<int64_t> nonUnit;
    llvm::copy_if(extents, std::back_inserter(nonUnit),
                  [](int64_t size) { return size != 1; });
    return nonUnit;
  };
  auto splitByDims = [](ArrayRef<int64_t> extents, ArrayRef<int64_t> reduced) {
    std::pair<SmallVector<int64_t>, SmallVector<int64_t>> split;
    for (auto [d, size] : llvm::enumerate(extents))
      (llvm::is_contained(reduced, int64_t(d)) ? split.second : split.first)
          .push_back(size);
    return split;
  };
  // Named, not bound: lambdas may not capture structured bindings before
  // C++20 (clang 14, the fuzz build).
  std::pair<SmallVector<int64_t>, SmallVector<int64_t>> firstSplit =
      splitByDims(shape, dims);
  SmallVector<int64_t> firstKept = firstSplit.first,
                       firstReduced = firstSplit.second;
  auto reducesSameRows = [&](ReductionOp reduction) {
    ArrayRef<int64_t> otherShape = reduction.getSource().getType().getShape();
    ArrayRef<int64_t> otherDims = reduction.getDims();
    if (otherShape == shape && otherDims == dims)
      return true;
    if (structure.outer || otherDims.empty())
      return false;
    auto [kept, reduced] = splitByDims(otherShape, otherDims);
    bool inner = true, reducing = false;
    for (auto [d, size] : llvm::enumerate(otherShape)) {
      if (size == 1)
        continue;
      bool isReduced = llvm::is_contained(otherDims, int64_t(d));
      inner &= isReduced || !reducing;
      reducing |= isReduced;
    }
    return inner && nonUnitExtents(kept) == nonUnitExtents(firstKept) &&
           nonUnitExtents(reduced) == nonUnitExtents(firstReduced);
  };
  structure.laneExtent = shape.empty() ? 1 : shape.back();
  for (ReductionOp reduction : structure.reductions) {
    if (!reducesSameRows(reduction))
      fail("its reductions differ in source shape or reduced dims");
    ArrayRef<int64_t> otherShape = reduction.getSource().getType().getShape();
    if ((otherShape.empty() ? 1 : otherShape.back()) != structure.laneExtent)
      structure.laneExtent = 1;
    Type element = reduction.getType().getElementType();
    // gpu.all_reduce combines 32-bit values; f16/bf16 accumulate in f32.
    if (!element.isF32() && !element.isF16() && !element.isBF16() &&
        !element.isInteger(32))
      fail("a reduction does not accumulate in 32 bits");
  }
  auto shapeOf = [](Value value) {
    return cast<ShapedType>(value.getType()).getShape();
  };
  auto isRowOrReduced = [&](ArrayRef<int64_t> valueShape) {
    return valueShape == shape || valueShape == ArrayRef(keptShape) ||
           valueShape == ArrayRef(droppedShape);
  };
  // Of an inner normalization, values may also be rows spelled with other
  // extent-1 axes, and with a single row, its reduced values may be too
  // (the kernels map their index). With several rows a reduced value keeps
  // its keepdim or dropped spelling: `[1, 64]` of 64 rows would broadcast
  // along the row, not across the rows.
  auto isReducedUpToUnitAxes = [&](ArrayRef<int64_t> valueShape) {
    return !structure.outer && structure.rows == 1 &&
           getSaturatedNumElements(valueShape) == 1;
  };
  auto isRowOrReducedUpToUnitAxes = [&](ArrayRef<int64_t> valueShape) {
    return isRowOrReduced(valueShape) || isReducedUpToUnitAxes(valueShape) ||
           (!structure.outer && isSameShapeUpToUnitDims(valueShape, shape) &&
            getSaturatedNumElements(valueShape) ==
                uint64_t(structure.rows) * uint64_t(structure.rowElements));
  };
  DenseSet<Value> dependent;
  for (Operation &op : body.without_terminator()) {
    bool usesReduction = llvm::any_of(
        op.getOperands(), [&](Value v) { return dependent.contains(v); });
    if (isa<ReductionOp>(op) || usesReduction)
      dependent.insert(op.getResults().begin(), op.getResults().end());
    if (!usesReduction || isa<ReductionOp>(op))
      continue;
    if (op.getNumResults() != 1 ||
        !isa<RankedTensorType>(op.getResult(0).getType())) {
      fail("'" + op.getName().getStringRef() + "' uses a reduction result");
      continue;
    }
    ArrayRef<int64_t> resultShape = shapeOf(op.getResult(0));
    if (isa<ElementwiseOpInterface>(op)) {
      if (!isRowOrReducedUpToUnitAxes(resultShape))
        fail("'" + op.getName().getStringRef() +
             "' computes a reduction result into another shape");
      continue;
    }
    // A squeeze, broadcast or view that only drops or inserts extent-1 axes
    // of a row or a reduced row, or a set of one.
    if (isa<SqueezeOp, BroadcastOp, ViewOp, SetOp, SegmentSetOp>(op) &&
        isSameShapeUpToUnitDims(shapeOf(op.getOperand(0)), resultShape) &&
        isRowOrReducedUpToUnitAxes(shapeOf(op.getOperand(0))) &&
        isRowOrReducedUpToUnitAxes(resultShape))
      continue;
    if (auto broadcast = dyn_cast<BroadcastOp>(op);
        broadcast && shapeOf(broadcast.getSource()) == ArrayRef(droppedShape) &&
        resultShape == ArrayRef(keptShape) && broadcast.getDims() == dims)
      continue;
    fail("'" + op.getName().getStringRef() +
         "' maps a reduction result other than elementwise over its rows");
  }
  // A yielded value may be spelled so too: a sibling that preseg left
  // unbroadcast (fuser-gen seed 9614) is written at the row's index mapped
  // to its axes. Of an outer normalization only rows with extent-1 axes
  // dropped that keep the innermost extent are: the outer kernel maps no
  // other spelling.
  auto isRowWithoutUnitAxes = [&](ArrayRef<int64_t> valueShape) {
    return !valueShape.empty() && valueShape.size() < shape.size() &&
           valueShape.back() == shape.back() &&
           isSameShapeUpToUnitDims(valueShape, shape);
  };
  // A yielded value computed from no reduction may have any shape: the
  // kernel writes it beside the rows (a sibling that rule 9 merged into the
  // reduction's kernel, fuser-gen seed 9281).
  for (auto [number, value] :
       llvm::enumerate(body.getTerminator()->getOperands())) {
    if (!isa<RankedTensorType>(value.getType()) ||
        isRowWithoutUnitAxes(shapeOf(value)) ||
        isRowOrReducedUpToUnitAxes(shapeOf(value)))
      continue;
    if (dependent.contains(value))
      fail("it yields a value computed from a reduction that is neither a "
           "row (up to extent-1 axes) nor a reduced row");
    else
      structure.besideRows.push_back(number);
  }
  // An outer normalization block keeps the column block of every input of
  // the source shape (but i1, which the lowering does not stage).
  if (structure.outer) {
    int64_t stagedBytes = 0, narrowest = 4, columnInputBytes = 0;
    for (BlockArgument argument : body.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(argument.getType());
      if (!type || type.getElementType().isInteger(1))
        continue;
      int64_t bytes =
          std::max<int64_t>(1, *getElementByteWidth(type.getElementType()));
      if (isColumnInput(structure, type))
        columnInputBytes += bytes;
      if (type.getShape() != shape)
        continue;
      stagedBytes += bytes;
      narrowest = std::min(narrowest, bytes);
    }
    chooseOuterTile(structure, stagedBytes, narrowest, columnInputBytes,
                    splitReductions);
    return structure;
  }
  // Inputs that vary along the row (their innermost extent is the row's)
  // are what a block keeps on chip.
  for (BlockArgument argument : body.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(argument.getType());
    if (!type || type.getRank() == 0 || shape.back() == 1 ||
        type.getShape().back() != shape.back())
      continue;
    structure.rowBytes +=
        structure.rowElements *
        std::max<int64_t>(1, *getElementByteWidth(type.getElementType()));
  }
  structure.sharedBytes =
      structure.rowBytes +
      128 * static_cast<int64_t>(structure.reductions.size());
  return structure;
}

int64_t mlir::fuser::getVectorWidth(Type elementType, int64_t extent) {
  int64_t bytes = std::max<int64_t>(1, *getElementByteWidth(elementType));
  int64_t width = std::max<int64_t>(1, kMaxAccessBytes / bytes);
  while (width > 1 && extent % width != 0)
    width /= 2;
  return width;
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

/// Threads of a normalization block at most: a row of 4096 bf16 is 512
/// threads of 8 lanes.
static constexpr int64_t kMaxNormalizationThreads = 512;
/// Rows of a normalization block at most (each is unrolled in the kernel).
static constexpr int64_t kMaxRowsPerBlock = 32;
/// A normalization block takes rows until the inputs broadcast along the
/// rows, read once per block, add at most 1/kBroadcastShare of the bytes the
/// kernel must move (the 1.05x target of docs/Performance.md).
static constexpr int64_t kBroadcastShare = 20;

/// Whether a value of the segment has complex elements: those kernels run
/// one element per thread (no vector of complex exists) and reduce without
/// splits (the block-wide combines shuffle floats).
static bool touchesComplex(SegmentOp segment) {
  auto isComplex = [](Type type) {
    return isa<ComplexType>(getElementTypeOrSelf(type));
  };
  if (llvm::any_of(segment.getInputs().getTypes(), isComplex))
    return true;
  WalkResult result = segment.getBody().walk([&](Operation *op) {
    return llvm::any_of(op->getResultTypes(), isComplex)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return result.wasInterrupted();
}

ScheduleAttr mlir::fuser::chooseSchedule(SegmentOp segment, int64_t smCount,
                                         bool splitReductions) {
  MLIRContext *context = segment.getContext();
  bool complex = touchesComplex(segment);
  splitReductions = splitReductions && !complex;
  // A normalization: one block per row, its threads covering the row
  // `lanes` (16 bytes of the widest input) at a time.
  if (segment.getKind() == SegmentKind::Normalization) {
    NormalizationStructure structure =
        analyzeNormalization(segment.getBody().front(), splitReductions);
    // An outer normalization: a block per tile of consecutive columns, its
    // threads / tile groups sharing each column's reduced elements (one
    // group without splits: each column folded in the interpreter's order).
    if (structure.outer)
      return ScheduleAttr::get(
          context, ScheduleKind::Normalization, /*vector=*/1, structure.threads,
          structure.threads / structure.tile,
          std::clamp<int64_t>(llvm::divideCeil(structure.rows, structure.tile),
                              1, kMaxBlocks));
    int64_t rows = std::clamp<int64_t>(structure.rows, 1, kMaxBlocks);
    // Without splits, one thread reduces each row in the interpreter's
    // order.
    if (!splitReductions)
      return ScheduleAttr::get(context, ScheduleKind::Normalization, 1, 1, 1,
                               rows);
    // 16 bytes of the widest input that varies along the row, where every
    // reduction walks the row along the same innermost extent.
    int64_t innermost = structure.laneExtent;
    int64_t widest = 1;
    for (Type type : segment.getInputs().getTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type);
          tensor && tensor.getRank() > 0 &&
          tensor.getShape().back() == innermost)
        widest = std::max<int64_t>(
            widest, *getElementByteWidth(tensor.getElementType()));
    int64_t lanes = kMaxAccessBytes / widest;
    while (lanes > 1 && innermost % lanes != 0)
      lanes /= 2;
    int64_t threads = std::clamp<int64_t>(
        llvm::PowerOf2Ceil(llvm::divideCeil(structure.rowElements, lanes)), 32,
        kMaxNormalizationThreads);
    // Inputs broadcast along the rows (a weight, a bias) are read once per
    // block: a block takes several rows (powers of two up to 32) until those
    // reads add at most 1/kBroadcastShare of the bytes the kernel must move,
    // while the grid keeps a block for every multiprocessor and the
    // block-wide combines' scratch (128 bytes each) still fits. Fewer rows
    // than 2 x kBroadcastShare blocks' worth miss the share (documented in
    // docs/Performance.md).
    ArrayRef<int64_t> rowShape =
        ArrayRef(structure.sourceShape).take_back(structure.dims.size());
    uint64_t broadcastBytes = 0, otherBytes = 0;
    auto addBytes = [&](Type type, bool isInput) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor)
        return;
      uint64_t bytes = llvm::SaturatingMultiply(
          getSaturatedNumElements(tensor.getShape()),
          uint64_t(std::max<int64_t>(
              1, *getElementByteWidth(tensor.getElementType()))));
      bool broadcast = isInput && tensor.getShape() == rowShape &&
                       tensor.getShape() != ArrayRef(structure.sourceShape);
      uint64_t &sum = broadcast ? broadcastBytes : otherBytes;
      sum = llvm::SaturatingAdd(sum, bytes);
    };
    for (Type type : segment.getInputs().getTypes())
      addBytes(type, /*isInput=*/true);
    for (Type type : segment.getResultTypes())
      addBytes(type, /*isInput=*/false);
    // Bytes moved beyond the minimum with `perBlock` rows a block.
    auto extraBytes = [&](int64_t perBlock) {
      return llvm::SaturatingMultiply(uint64_t(rows / perBlock - 1),
                                      broadcastBytes);
    };
    uint64_t minimumBytes = llvm::SaturatingAdd(otherBytes, broadcastBytes);
    int64_t rowsPerBlock = 1;
    int64_t combines = structure.reductions.size();
    while (llvm::SaturatingMultiply(extraBytes(rowsPerBlock),
                                    uint64_t(kBroadcastShare)) >
               minimumBytes &&
           rowsPerBlock < kMaxRowsPerBlock &&
           rows % (2 * rowsPerBlock) == 0 &&
           rows / (2 * rowsPerBlock) >= smCount &&
           structure.sharedBytes + (2 * rowsPerBlock - 1) * 128 * combines <=
               kNormalizationRowBudgetBytes)
      rowsPerBlock *= 2;
    return ScheduleAttr::get(context, ScheduleKind::Normalization, lanes,
                             threads, threads, rows / rowsPerBlock);
  }
  ReductionStructure structure = analyzeReductions(segment);
  ScheduleKind kind = structure.reductions.empty() ? ScheduleKind::Pointwise
                      : structure.reducesInnermost
                          ? ScheduleKind::InnerReduction
                          : ScheduleKind::OuterReduction;

  // 16-byte accesses for the widest element the kernel moves.
  auto widestElement = [](TypeRange types) {
    int64_t widest = 1;
    for (Type type : types)
      if (isa<RankedTensorType>(type))
        widest = std::max<int64_t>(
            widest, *getElementByteWidth(getElementTypeOrSelf(type)));
    return widest;
  };
  int64_t vector =
      complex ? 1
              : kMaxAccessBytes /
                    std::max(widestElement(segment.getInputs().getTypes()),
                             widestElement(segment.getResultTypes()));

  // One thread per `vector` outputs of the largest output.
  auto perOutput = ScheduleAttr::get(context, kind, vector, kThreadsPerBlock,
                                     /*split=*/1, /*blocks=*/1);
  uint64_t slots = 1;
  for (Type type : segment.getResultTypes()) {
    auto shaped = cast<ShapedType>(type);
    slots = std::max(slots, getSaturatedNumElements(shaped.getShape()) /
                                getOutputVectorWidth(perOutput, shaped));
  }
  int64_t blocks = static_cast<int64_t>(std::min<uint64_t>(
      llvm::divideCeil(slots, kThreadsPerBlock), kMaxBlocks));

  // Split reductions: a thread per output leaves the chip idle (outer
  // reductions over few outputs) or reads rows a thread at a time (inner
  // reductions).
  if (splitReductions && kind != ScheduleKind::Pointwise &&
      structure.whyNotSplittable.empty()) {
    ReductionOp reduction = structure.reductions.front();
    ArrayRef<int64_t> shape = reduction.getSource().getType().getShape();
    uint64_t reduced = 1, outputs = 1;
    int64_t innermostReduced = 1;
    for (auto [d, size] : llvm::enumerate(shape)) {
      if (llvm::is_contained(reduction.getDims(), static_cast<int64_t>(d))) {
        reduced = llvm::SaturatingMultiply(reduced, uint64_t(size));
        innermostReduced = size;
      } else {
        outputs = llvm::SaturatingMultiply(outputs, uint64_t(size));
      }
    }
    bool fewOutputs = blocks < smCount;
    // An outer reduction over few outputs: a tiled split. A block covers a
    // tile of consecutive outputs (up to a warp's worth along the innermost,
    // contiguous axis, so a warp's loads are consecutive) and its
    // kThreadsPerBlock / tile thread groups share each output's reduced
    // elements.
    // A split schedule has a block for some reduction outputs (blocks >= 1):
    // a reduction without outputs keeps the thread-per-output schedule.
    if (kind == ScheduleKind::OuterReduction && fewOutputs && outputs > 0 &&
        reduced >= kMinSplitReduction) {
      int64_t innermost = 1;
      for (int64_t size : llvm::reverse(shape))
        if (size != 1) {
          innermost = size;
          break;
        }
      int64_t tile =
          std::min<int64_t>(kWarpSize, llvm::PowerOf2Ceil(innermost));
      int64_t tiles = static_cast<int64_t>(
          std::min<uint64_t>(llvm::divideCeil(outputs, tile), kMaxBlocks));
      if (uint64_t(tiles) * tile >= outputs)
        return ScheduleAttr::get(context, kind, /*vector=*/1,
                                 kThreadsPerBlock, kThreadsPerBlock / tile,
                                 tiles);
    }
    // An inner reduction: a block per output.
    if (kind == ScheduleKind::InnerReduction && reduced >= kMinSplitReduction &&
        outputs > 0 && outputs <= uint64_t(kMaxBlocks)) {
      // Lanes along the innermost reduced axis, 16 bytes of the widest
      // input a load reads.
      int64_t lanes =
          kMaxAccessBytes / widestElement(segment.getInputs().getTypes());
      while (lanes > 1 && innermostReduced % lanes != 0)
        lanes /= 2;
      int64_t threads = std::clamp<int64_t>(
          llvm::PowerOf2Ceil(llvm::divideCeil(reduced, lanes)), 32,
          kThreadsPerBlock);
      return ScheduleAttr::get(context, kind, lanes, threads, threads,
                               static_cast<int64_t>(outputs));
    }
  }
  return ScheduleAttr::get(context, kind, vector, kThreadsPerBlock, 1,
                           std::max<int64_t>(blocks, 1));
}

namespace {
struct FuserSchedulePass
    : public fuser::impl::FuserScheduleBase<FuserSchedulePass> {
  using FuserScheduleBase::FuserScheduleBase;

  void runOnOperation() override {
    getOperation().walk([&](SegmentOp segment) {
      if (segment.getKind() == SegmentKind::Alias || segment.getSchedule())
        return;
      segment.setScheduleAttr(
          chooseSchedule(segment, smCount, splitReductions));
    });
  }
};
} // namespace
