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

/// Fewest reduced elements per output worth a block of threads.
static constexpr int64_t kMinSplitReduction = 32;
/// The most blocks a grid holds in x.
static constexpr int64_t kMaxBlocks = (int64_t(1) << 31) - 1;

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

ScheduleAttr mlir::fuser::chooseSchedule(SegmentOp segment,
                                         const ScheduleTarget &target,
                                         bool splitReductions) {
  MLIRContext *context = segment.getContext();
  int64_t smCount = target.smCount;
  // At least a warp of threads where rows are split.
  int64_t maxRowThreads = std::max<int64_t>(target.maxRowThreads, kWarpSize);
  bool complex = touchesComplex(segment);
  splitReductions = splitReductions && !complex;
  // A normalization: one block per row, its threads covering the row
  // `lanes` (target.accessBytes of the widest input) at a time; on a GPU,
  // a row of 4096 bf16 is 512 threads of 8 lanes.
  if (segment.getKind() == SegmentKind::Normalization) {
    NormalizationStructure structure =
        analyzeNormalization(segment.getBody().front(), splitReductions);
    // An outer normalization: a block per tile of consecutive columns, its
    // threads / tile groups sharing each column's reduced elements (one
    // group without splits: each column folded in sequence).
    if (structure.outer)
      return ScheduleAttr::get(
          context, ScheduleKind::Normalization, /*vector=*/1, structure.threads,
          structure.threads / structure.tile,
          std::clamp<int64_t>(llvm::divideCeil(structure.rows, structure.tile),
                              1, kMaxBlocks),
          /*accumulators=*/1);
    int64_t rows = std::clamp<int64_t>(structure.rows, 1, kMaxBlocks);
    // Without splits, one thread reduces each row in the interpreter's
    // order.
    if (!splitReductions)
      return ScheduleAttr::get(context, ScheduleKind::Normalization, 1, 1, 1,
                               rows, /*accumulators=*/1);
    // accessBytes of the widest input that varies along the row (up to the
    // extent-1 axes its squeeze drops); every reduction walks the row along
    // its innermost extent.
    int64_t innermost =
        structure.sourceShape.empty() ? 1 : structure.sourceShape.back();
    int64_t widest = 1;
    for (Type type : segment.getInputs().getTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type);
          tensor && tensor.getRank() > 0 &&
          getInnermostNonUnitExtent(tensor.getShape()) == innermost)
        widest = std::max<int64_t>(
            widest, *getElementByteWidth(tensor.getElementType()));
    int64_t lanes = std::max<int64_t>(target.accessBytes / widest, 1);
    while (lanes > 1 && innermost % lanes != 0)
      lanes /= 2;
    int64_t threads = std::clamp<int64_t>(
        llvm::PowerOf2Ceil(llvm::divideCeil(structure.rowElements, lanes)),
        kWarpSize, maxRowThreads);
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
                             threads, threads, rows / rowsPerBlock,
                             threads > 1 ? target.accumulators : 1);
  }
  ReductionStructure structure = analyzeReductions(segment);
  ScheduleKind kind = structure.reductions.empty() ? ScheduleKind::Pointwise
                      : structure.reducesInnermost
                          ? ScheduleKind::InnerReduction
                          : ScheduleKind::OuterReduction;

  // accessBytes-wide accesses for the widest element the kernel moves.
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
              : std::max<int64_t>(
                    target.accessBytes /
                        std::max(widestElement(segment.getInputs().getTypes()),
                                 widestElement(segment.getResultTypes())),
                    1);
  // A pointwise thread's lanes of the values it computes fill at most one
  // register of target.registerBytes; halves and 8-bit floats compute in
  // f32. Wider, a chain of math (erf's polynomials) spills its constants.
  if (kind == ScheduleKind::Pointwise && target.registerBytes > 0) {
    auto computeBytes = [](TypeRange types) {
      int64_t widest = 1;
      for (Type type : types) {
        Type element = getElementTypeOrSelf(type);
        int64_t bytes = *getElementByteWidth(element);
        widest = std::max<int64_t>(
            widest, isa<FloatType>(element) ? std::max<int64_t>(bytes, 4)
                                            : bytes);
      }
      return widest;
    };
    int64_t widestCompute =
        std::max(computeBytes(segment.getInputs().getTypes()),
                 computeBytes(segment.getResultTypes()));
    vector = std::clamp<int64_t>(target.registerBytes / widestCompute, 1,
                                 vector);
  }

  // One thread per `vector` outputs of the largest output.
  auto perOutput = ScheduleAttr::get(context, kind, vector, kThreadsPerBlock,
                                     /*split=*/1, /*blocks=*/1,
                                     /*accumulators=*/1);
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
                                 tiles, /*accumulators=*/1);
    }
    // An inner reduction: a block per output.
    if (kind == ScheduleKind::InnerReduction && reduced >= kMinSplitReduction &&
        outputs > 0 && outputs <= uint64_t(kMaxBlocks)) {
      // Lanes along the innermost reduced axis, accessBytes of the widest
      // input a load reads.
      int64_t lanes = std::max<int64_t>(
          target.accessBytes / widestElement(segment.getInputs().getTypes()),
          1);
      while (lanes > 1 && innermostReduced % lanes != 0)
        lanes /= 2;
      int64_t threads = std::clamp<int64_t>(
          llvm::PowerOf2Ceil(llvm::divideCeil(reduced, lanes)), kWarpSize,
          std::min<int64_t>(kThreadsPerBlock, maxRowThreads));
      return ScheduleAttr::get(context, kind, lanes, threads, threads,
                               static_cast<int64_t>(outputs),
                               target.accumulators);
    }
  }
  return ScheduleAttr::get(context, kind, vector, kThreadsPerBlock, 1,
                           std::max<int64_t>(blocks, 1), /*accumulators=*/1);
}

namespace {
struct FuserSchedulePass
    : public fuser::impl::FuserScheduleBase<FuserSchedulePass> {
  using FuserScheduleBase::FuserScheduleBase;

  void runOnOperation() override {
    getOperation().walk([&](SegmentOp segment) {
      if (segment.getKind() == SegmentKind::Alias ||
          segment.getKind() == SegmentKind::Library || segment.getSchedule())
        return;
      segment.setScheduleAttr(chooseSchedule(
          segment,
          ScheduleTarget{smCount, accessBytes, maxRowThreads, accumulators,
                         registerBytes},
          splitReductions));
    });
  }
};
} // namespace
