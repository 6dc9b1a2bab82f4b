//===- Segment.cpp - partition fusions into kernels and aliases -----------===//
//
// Implements `fuser-segment`: the pass, normalizing and classifying the
// fusion's ops, partitioning them (SegmentGraph) and materializing the
// planned segments; planning views is in SegmentViews.cpp, recomputing in
// SegmentRecompute.cpp (Segmenter.h). The rules are documented in
// docs/Segmentation.md; the comments here say how they are implemented.
//
//===----------------------------------------------------------------------===//

#include "SegmentGraph.h"
#include "Segmenter.h"
#include "fuser/Analysis/KernelTemplates.h"
#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/Fusion.h"
#include "fuser/Dialect/Fuser/IR/Reshape.h"
#include "fuser/Dialect/Fuser/IR/StridedView.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "fuser/Dialect/Fuser/Transforms/SegmentPruning.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <vector>

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERSEGMENT
#include "fuser/Dialect/Fuser/Transforms/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::segmentation;

uint64_t segmentation::bytesOf(Value value) {
  ByteCount bytes = getTransferBytes(value.getType());
  return bytes.overflowed ? std::numeric_limits<uint64_t>::max() : bytes.bytes;
}

uint64_t segmentation::readBytesUnder(Value value, Operation *slice) {
  uint64_t whole = bytesOf(value);
  if (!slice)
    return whole;
  Type elementType = cast<TensorType>(value.getType()).getElementType();
  ByteCount covered = getTransferBytes(
      cast<TensorType>(slice->getResult(0).getType()).clone(elementType));
  return covered.overflowed ? whole : std::min(whole, covered.bytes);
}

Operation *segmentation::getSliceUnder(Operation *def, Value operand,
                                       Operation *slice) {
  if (isa<SliceOp>(def))
    return def;
  if (!slice || def->getNumResults() != 1)
    return nullptr;
  Value result = def->getResult(0);
  bool keepsElements =
      isa<MetaOpInterface>(def)
          ? bytesOf(result) == bytesOf(operand)
          : isa<ElementwiseOpInterface>(def) &&
                getSaturatedNumElements(result.getType()) ==
                    getSaturatedNumElements(operand.getType());
  return keepsElements ? slice : nullptr;
}

std::optional<StridedView>
segmentation::getChainView(Value source, ArrayRef<Operation *> chain) {
  std::optional<StridedView> view =
      StridedView::getContiguous(cast<TensorType>(source.getType()).getShape());
  for (Operation *op : llvm::reverse(chain))
    if (view)
      view = applyMetaOp(op, *view);
  return view;
}

/// Whether `value` is a chain of meta ops that is no strided view of the
/// value it starts from (a fusion input, or a computed value written
/// contiguously): returned, it is written by a kernel (a copy).
static bool isCopy(Value value) {
  SmallVector<Operation *> chain;
  Value root = value;
  while (Operation *def = root.getDefiningOp()) {
    auto meta = dyn_cast<MetaOpInterface>(def);
    if (!meta)
      break;
    if (isa<SegmentSetOp>(def))
      return false;
    chain.push_back(def);
    root = meta.getSource();
  }
  return !chain.empty() && !getChainView(root, chain);
}

LogicalResult Segmenter::classifyOps() {
  for (auto [index, op] : llvm::enumerate(body))
    position[&op] = index;

  for (Operation &op : body.without_terminator()) {
    if (op.getNumRegions() != 0 || isa<YieldOp>(op))
      return op.emitOpError("cannot be segmented: fuser-segment expects a "
                            "fusion of fuser ops");
    // Every fuser op is one some kernel kind emits (canEmitInKernel, the
    // kinds' allow-lists); no other runtime path runs an op (alias segments
    // only view memory through meta ops, which kernels emit too), so an op
    // no kind lists is an error rather than a pointwise kernel.
    if (isa_and_present<FuserDialect>(op.getDialect()) &&
        !canEmitInAnyKernel(&op))
      return op.emitError("op '")
             << op.getName() << "' cannot be emitted by any kernel kind";
    bool hasTensorResult = llvm::any_of(
        op.getResultTypes(), [](Type type) { return isa<TensorType>(type); });
    if (!hasTensorResult) {
      // Scalar function arguments (nvFuser's define_scalar inputs) become
      // segment inputs of the segments that use them.
      bool fromReplicated = llvm::all_of(op.getOperands(), [&](Value v) {
        Operation *def = v.getDefiningOp();
        return def ? roles.lookup(def) == OpRole::Replicated
                   : !isa<TensorType>(v.getType());
      });
      if (!fromReplicated || !isMemoryEffectFree(&op))
        return op.emitOpError("cannot be segmented: only pure scalar "
                              "computations on constants and scalar "
                              "arguments may live outside tensor ops");
      roles[&op] = OpRole::Replicated;
      continue;
    }
    // An unregistered op (--allow-unregistered-dialect) has no dialect.
    if (!isa_and_present<FuserDialect>(op.getDialect()))
      return op.emitOpError("cannot be segmented: not a fuser op");
    roles[&op] = OpRole::Grouped;
    // A meta op reading memory that already exists needs no kernel (a
    // segment_set of such memory neither).
    auto meta = dyn_cast<MetaOpInterface>(op);
    if (!meta)
      continue;
    Value source = meta.getSource();
    Operation *def = source.getDefiningOp();
    // A segment_set of a chain no strided view spells is written by a kernel
    // (materializeLibraryOperands).
    if (isa<SegmentSetOp>(op) && isCopy(source))
      continue;
    if (!def || isa<SegmentSetOp>(def) || roles.lookup(def) == OpRole::View)
      roles[&op] = OpRole::View;
  }
  return success();
}

void Segmenter::viewReturnedExpansions() {
  // Meta ops whose results only lead, through meta ops, to returned values
  // form trees, each under a value a kernel computes. Where the tree
  // returns more bytes than that value holds (an expand, say) and every
  // returned value is a strided view of it, the whole tree becomes views:
  // the kernel writes the value and the caller gets the views. peelViews
  // does the same after partitioning; deciding it before keeps
  // partitioning from splitting a kernel around such an expand.
  Operation *terminator = body.getTerminator();
  DenseMap<Operation *, uint64_t> returnedBytes;
  for (Operation &op : llvm::reverse(body.without_terminator())) {
    if (roles.lookup(&op) != OpRole::Grouped || !isa<MetaOpInterface>(op))
      continue;
    Value result = op.getResult(0);
    uint64_t bytes = returned.contains(result) ? bytesOf(result) : 0;
    SmallPtrSet<Operation *, 4> users(llvm::from_range, result.getUsers());
    bool onlyReturned = llvm::all_of(users, [&](Operation *user) {
      auto it = returnedBytes.find(user);
      if (it != returnedBytes.end())
        bytes = llvm::SaturatingAdd(bytes, it->second);
      return user == terminator || it != returnedBytes.end();
    });
    if (onlyReturned)
      returnedBytes[&op] = bytes;
  }
  // Each tree's root (the op reading the computed value), and the trees
  // that stay in kernels.
  DenseMap<Operation *, Operation *> rootOf;
  DenseSet<Operation *> keptRoots;
  SmallVector<Operation *> tree;
  for (Operation &op : body.without_terminator()) {
    auto it = returnedBytes.find(&op);
    if (it == returnedBytes.end())
      continue;
    Value source = cast<MetaOpInterface>(op).getSource();
    Operation *def = source.getDefiningOp();
    Operation *root = returnedBytes.count(def) ? rootOf.lookup(def) : &op;
    rootOf[&op] = root;
    tree.push_back(&op);
    if (root == &op && it->second <= bytesOf(source))
      keptRoots.insert(root);
    if (keptRoots.contains(root))
      continue;
    roles[&op] = OpRole::View;
    if (!getView(op.getResult(0)))
      keptRoots.insert(root);
  }
  for (Operation *op : tree) {
    Operation *root = rootOf.lookup(op);
    if (!keptRoots.contains(root)) {
      if (op == root)
        viewedByReturnedTrees.insert(cast<MetaOpInterface>(op).getSource());
      continue;
    }
    roles[op] = OpRole::Grouped;
    viewCache.erase(op->getResult(0));
  }
}

Value Segmenter::getViewRoot(Value value) const {
  while (Operation *def = value.getDefiningOp()) {
    if (roles.lookup(def) != OpRole::View)
      break;
    value = cast<MetaOpInterface>(def).getSource();
  }
  return value;
}

Value Segmenter::getRoot(Value value) const {
  return isa<TensorType>(value.getType()) ? getViewRoot(value) : Value();
}

void Segmenter::partitionGroups() {
  SmallVector<Operation *> grouped;
  for (Operation &op : body.without_terminator())
    if (roles.lookup(&op) == OpRole::Grouped)
      grouped.push_back(&op);
  // Greedy merging can take a merge early that a later one then cannot
  // cross (a cycle through the merged kernel). The queue runs twice, by
  // saving and in program order, and the fewer kernels win; at a tie, the
  // fewer bytes moved, then the cost-ordered run.
  // Each graph is gone before the next is built: one at a time in memory.
  auto partition = [&](SegmentGraph::Order order) {
    SegmentGraph graph(
        grouped, [&](Value value) { return getRoot(value); }, returned,
        target, allowNormalization, order);
    graph.partition();
    return std::make_pair(graph.getGroups(), graph.estimateTrafficBytes());
  };
  auto [bySaving, bySavingBytes] = partition(SegmentGraph::Order::BySaving);
  auto [byProgram, byProgramBytes] =
      partition(SegmentGraph::Order::ByProgram);
  bool programWins = byProgram.size() != bySaving.size()
                         ? byProgram.size() < bySaving.size()
                         : byProgramBytes < bySavingBytes;
  for (SmallVector<Operation *> &ops : programWins ? byProgram : bySaving) {
    unsigned index = groups.size();
    KernelGroup &group = groups.emplace_back();
    group.ops = std::move(ops);
    for (Operation *op : group.ops)
      groupOf[op] = index;
  }
}

bool Segmenter::isOneKernel(ArrayRef<Operation *> members) const {
  // What the templates need of planned members: the values that leave them
  // and the memory they read (through views).
  KernelOps kernel;
  kernel.ops.assign(members.begin(), members.end());
  sortByPosition(kernel.ops);
  DenseSet<Operation *> inside(members.begin(), members.end());
  DenseSet<Value> reads;
  for (Operation *op : kernel.ops) {
    for (Value result : op->getResults())
      if (returned.contains(result) ||
          llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !inside.contains(user);
          }))
        kernel.outputs.push_back(result);
    for (Value operand : op->getOperands()) {
      Value root = getRoot(operand);
      Operation *def = root ? root.getDefiningOp() : nullptr;
      if (root && !(def && inside.contains(def)) && reads.insert(root).second)
        kernel.inputTypes.push_back(root.getType());
    }
  }
  return matchKernel(kernel, target, allowNormalization).kind.has_value();
}

bool Segmenter::isOneKernel(const PlannedSegment &lhs,
                            const PlannedSegment &rhs) const {
  SetVector<Operation *> members(lhs.opsToClone.begin(), lhs.opsToClone.end());
  members.insert(rhs.opsToClone.begin(), rhs.opsToClone.end());
  return isOneKernel(members.getArrayRef());
}

bool Segmenter::isInGroup(Operation *op, unsigned group) const {
  auto it = groupOf.find(op);
  return it != groupOf.end() && it->second == group;
}

LogicalResult Segmenter::materialize(std::vector<PlannedSegment> &segments) {
  // Topological order of the segments, earliest first among the ready ones.
  DenseMap<Value, unsigned> producerOf;
  for (auto [index, segment] : llvm::enumerate(segments))
    for (Value output : segment.outputs)
      producerOf[output] = index;
  SmallVector<SmallVector<unsigned>> consumers(segments.size());
  SmallVector<unsigned> pendingInputs(segments.size(), 0);
  for (auto [index, segment] : llvm::enumerate(segments)) {
    SetVector<unsigned> producers;
    for (Value input : segment.inputs)
      if (auto it = producerOf.find(input); it != producerOf.end())
        producers.insert(it->second);
    for (unsigned producer : producers)
      consumers[producer].push_back(index);
    pendingInputs[index] = producers.size();
  }
  auto later = [&](unsigned lhs, unsigned rhs) {
    return segments[lhs].firstPosition > segments[rhs].firstPosition;
  };
  std::priority_queue<unsigned, std::vector<unsigned>, decltype(later)> ready(
      later);
  for (unsigned index = 0; index < segments.size(); ++index)
    if (pendingInputs[index] == 0)
      ready.push(index);
  SmallVector<unsigned> order;
  while (!ready.empty()) {
    unsigned index = ready.top();
    ready.pop();
    order.push_back(index);
    for (unsigned consumer : consumers[index])
      if (--pendingInputs[consumer] == 0)
        ready.push(consumer);
  }
  if (order.size() != segments.size())
    return func.emitError("fuser-segment produced cyclic segments");

  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<Operation *> originalOps =
      llvm::to_vector(llvm::make_pointer_range(body.without_terminator()));
  OpBuilder builder(returnOp);
  IRMapping outer;
  for (unsigned index : order) {
    PlannedSegment &planned = segments[index];
    if (planned.outputs.empty())
      continue;
    SmallVector<Location> memberLocs = llvm::map_to_vector(
        planned.members, [](Operation *op) { return op->getLoc(); });
    Location loc = builder.getFusedLoc(memberLocs);
    auto segment = SegmentOp::create(
        builder, loc, ValueRange(planned.outputs).getTypes(), planned.kind,
        llvm::map_to_vector(
            planned.inputs,
            [&](Value input) { return outer.lookupOrDefault(input); }),
        /*schedule=*/nullptr);
    SmallVector<Location> inputLocs = llvm::map_to_vector(
        planned.inputs, [](Value input) { return input.getLoc(); });
    Block *segmentBody = new Block();
    segment.getBody().push_back(segmentBody);
    segmentBody->addArguments(ValueRange(planned.inputs).getTypes(), inputLocs);
    IRMapping inner;
    inner.map(planned.inputs, segmentBody->getArguments());
    OpBuilder bodyBuilder = OpBuilder::atBlockEnd(segmentBody);
    // A segment_set of memory that exists (a View: a fusion input, or a
    // value its kernel writes anyway, such as an operand written once for
    // two calls) is that memory, so a library call reads its source
    // through the same views: a library segment holds its call and strided
    // views only, no copy (SegmentOp's verifier, the library template).
    bool holdsLibraryOp =
        llvm::any_of(planned.members, llvm::IsaPred<LibraryOpInterface>);
    for (Operation *op : planned.opsToClone) {
      if (auto set = dyn_cast<SegmentSetOp>(op);
          set && holdsLibraryOp && roles.lookup(op) == OpRole::View) {
        inner.map(set.getResult(), inner.lookupOrDefault(set.getSource()));
        continue;
      }
      bodyBuilder.clone(*op, inner);
    }
    YieldOp::create(bodyBuilder, loc,
                    llvm::map_to_vector(planned.outputs, [&](Value output) {
                      return inner.lookup(output);
                    }));
    outer.map(planned.outputs, segment.getResults());
  }
  for (OpOperand &result : returnOp->getOpOperands())
    result.set(outer.lookupOrDefault(result.get()));
  for (Operation *op : llvm::reverse(originalOps))
    op->erase();
  return success();
}

/// Whether `value` only leaves the fusion, directly or through meta ops.
static bool isOnlyReturnedThroughMetaOps(Value value) {
  return llvm::all_of(value.getUsers(), [](Operation *user) {
    if (isa<func::ReturnOp>(user))
      return true;
    return isa<MetaOpInterface>(user) && !isa<SegmentSetOp>(user) &&
           isOnlyReturnedThroughMetaOps(user->getResult(0));
  });
}

/// Views of the same value where one is a returned copy (isCopy): the
/// others, where they only leave the fusion (through meta ops), become views
/// of that one, which its kernel writes, so they are aliases of that write
/// instead of copies of their own (preseg folds a cast round trip between
/// two reshapes of one `permute` and leaves them siblings: fuser-gen seeds
/// 11268, 19869, and 26013 through a `permute`).
static void reshapeReturnedCopies(Block &body) {
  DenseSet<Value> returned(body.getTerminator()->operand_begin(),
                           body.getTerminator()->operand_end());
  SmallVector<ViewOp> copies;
  for (auto view : body.getOps<ViewOp>())
    if (returned.contains(view.getResult()) && isCopy(view))
      copies.push_back(view);
  DenseSet<Operation *> erased;
  for (ViewOp copy : copies) {
    if (erased.contains(copy))
      continue;
    SmallVector<ViewOp> siblings;
    for (Operation *user : copy.getSource().getUsers())
      if (auto sibling = dyn_cast<ViewOp>(user);
          sibling && sibling != copy &&
          isOnlyReturnedThroughMetaOps(sibling.getResult()))
        siblings.push_back(sibling);
    for (ViewOp sibling : siblings) {
      // The copy reads only its source, which every sibling reads too.
      if (sibling->isBeforeInBlock(copy))
        copy->moveBefore(sibling);
      OpBuilder builder(sibling);
      sibling.getResult().replaceAllUsesWith(ViewOp::create(
          builder, sibling.getLoc(), sibling.getType(), copy.getResult()));
      erased.insert(sibling);
      sibling.erase();
    }
  }
}

/// A library call reads each operand as a strided view of memory: an
/// operand that is a chain of meta ops no strided view can spell (isCopy: a
/// reshape of a permuted input, say) is written first, by a kernel, through
/// a segment_set in front of the call.
static void materializeLibraryOperands(Block &body) {
  for (auto library : body.getOps<LibraryOpInterface>()) {
    Operation *op = library;
    OpBuilder builder(op);
    for (OpOperand &operand : op->getOpOperands())
      if (isa<RankedTensorType>(operand.get().getType()) &&
          isCopy(operand.get()))
        operand.set(SegmentSetOp::create(builder, op->getLoc(), operand.get()));
  }
}

/// The extent-1 axes of `shape`.
static SmallVector<int64_t> getUnitDims(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> unit;
  for (auto [d, size] : llvm::enumerate(shape))
    if (size == 1)
      unit.push_back(d);
  return unit;
}

/// Every elementwise op and reduction of `body` computes on its iteration
/// space without extent-1 axes (IREE's FoldUnitExtentDims): its tensor
/// operands are squeezed, a reduction loses keepdim, and the result is
/// reshaped back to the type its users read. Reshape chains then compose,
/// so values computed in a kernel have one spelling and the extent-1 axes
/// live only in reshapes of inputs and of returned values.
///   add(x: 4x1x8, y: 4x1x8)          -> broadcast [1] (add(sq(x), sq(y)))
///   reduction(x: 4x8, [1]) keepdim   -> broadcast [1] (reduction(x, [1]))
static void dropUnitAxes(Block &body) {
  // One squeeze per value and dims, before its first reader.
  DenseMap<Value, SmallVector<std::pair<SmallVector<int64_t>, Value>>>
      squeezes;
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    if (op.getNumResults() != 1)
      continue;
    auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!type)
      continue;
    OpBuilder builder(&op);
    Location loc = op.getLoc();
    auto squeeze = [&](Value value, ArrayRef<int64_t> dims) -> Value {
      if (dims.empty())
        return value;
      auto &taken = squeezes[value];
      for (auto &[takenDims, squeezed] : taken)
        if (ArrayRef<int64_t>(takenDims) == dims)
          return squeezed;
      Value squeezed = SqueezeOp::create(builder, loc, value, dims);
      taken.emplace_back(SmallVector<int64_t>(dims), squeezed);
      return squeezed;
    };
    Value replacement;
    if (auto reduction = dyn_cast<ReductionOp>(op)) {
      ArrayRef<int64_t> shape = reduction.getSource().getType().getShape();
      SmallVector<int64_t> unit = getUnitDims(shape), dims;
      for (int64_t d : reduction.getDims())
        if (shape[d] != 1)
          dims.push_back(d - llvm::count_if(unit, [&](int64_t u) {
                           return u < d;
                         }));
      if (reduction.getDims().empty() ||
          (unit.empty() && !reduction.getKeepdim()))
        continue;
      // Over extent-1 axes only, it combines one element: a reshape (its
      // identity gives the element back bit for bit, canonicalization's
      // TrivialReduction).
      replacement =
          dims.empty()
              ? reduction.getSource()
              : ReductionOp::create(builder, loc, reduction.getKind(),
                                    squeeze(reduction.getSource(), unit), dims,
                                    /*keepdim=*/false);
    } else if (isa<ElementwiseOpInterface>(op)) {
      SmallVector<int64_t> unit = getUnitDims(type.getShape());
      if (unit.empty())
        continue;
      IRMapping squeezed;
      for (Value operand : op.getOperands())
        if (auto operandType = dyn_cast<RankedTensorType>(operand.getType());
            operandType && operandType.getRank() == type.getRank())
          squeezed.map(operand, squeeze(operand, unit));
      Operation *clone = builder.clone(op, squeezed);
      SmallVector<int64_t> shape;
      for (int64_t size : type.getShape())
        if (size != 1)
          shape.push_back(size);
      clone->getResult(0).setType(type.clone(shape));
      replacement = clone->getResult(0);
    } else {
      continue;
    }
    op.getResult(0).replaceAllUsesWith(
        createReshape(builder, loc, replacement, type));
    op.erase();
  }
  RewritePatternSet patterns(body.getParentOp()->getContext());
  populateReshapeCompositionPatterns(patterns);
  GreedyRewriteConfig config;
  config.enableFolding(false).enableConstantCSE(false);
  (void)applyPatternsGreedily(*body.getParent(), std::move(patterns), config);
}

LogicalResult Segmenter::run() {
  dropUnitAxes(body);
  reshapeReturnedCopies(body);
  materializeLibraryOperands(body);
  // Dead ops would become kernels that write nothing anyone reads.
  SmallVector<Operation *> ops =
      llvm::to_vector(llvm::make_pointer_range(body.without_terminator()));
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
  if (failed(classifyOps()))
    return failure();
  for (Value result : body.getTerminator()->getOperands())
    returned.insert(result);
  viewReturnedExpansions();
  partitionGroups();
  for (unsigned group = 0; group < groups.size(); ++group)
    peelViews(group);
  std::vector<PlannedSegment> segments = planSegments();
  return materialize(segments);
}

/// Whether `func` is a fusion to segment: functions without fuser ops are
/// left alone, as the pipelines leave a host compiler's other functions, and
/// so are segmented ones (segmenting twice equals once).
static FailureOr<bool> isUnsegmentedFusion(func::FuncOp func) {
  if (!isFusion(func) || !func.getOps<SegmentOp>().empty())
    return false;
  if (!func.getBody().hasOneBlock())
    return func.emitError("fuser-segment expects a fusion with a single block");
  return true;
}

namespace {
struct FuserSegmentPass
    : public mlir::fuser::impl::FuserSegmentBase<FuserSegmentPass> {
  using FuserSegmentBase::FuserSegmentBase;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    FailureOr<bool> segmentable = isUnsegmentedFusion(func);
    if (failed(segmentable))
      return signalPassFailure();
    if (!*segmentable)
      return;
    TargetInfo target;
    target.launchOverheadSeconds = launchOverheadUs * 1e-6;
    target.bandwidthBytesPerSecond = bandwidthGBps * 1e9;
    target.sharedMemoryPerBlock = sharedMemoryPerBlock;
    // Partitioning tests each kernel on what it reads and writes before
    // views are planned and values replicated; those can still change what
    // a normalization keeps on chip or writes. Where a kernel then matches
    // no template, the fusion is segmented again without normalization
    // kernels (whose templates are the ones planning can break).
    OwningOpRef<func::FuncOp> unsegmented;
    if (normalization)
      unsegmented = func.clone();
    FailureOr<bool> matched = segment(func, target, normalization);
    if (succeeded(matched) && !*matched && normalization) {
      func.getBody().takeBody(unsegmented->getBody());
      matched = segment(func, target, /*allowNormalization=*/false);
    }
    if (failed(matched))
      return signalPassFailure();
    if (!*matched) {
      emitUnmatchedKernels(func, target);
      return signalPassFailure();
    }
  }

private:
  /// Segments `fusion`; whether every kernel matches a template (each then
  /// takes its template's kind).
  static FailureOr<bool> segment(func::FuncOp fusion, const TargetInfo &target,
                                 bool allowNormalization) {
    Segmenter segmenter(fusion, target, allowNormalization);
    if (failed(segmenter.run()))
      return failure();
    pruneSegments(fusion);
    bool matched = true;
    for (SegmentOp segment : fusion.getOps<SegmentOp>()) {
      if (segment.getKind() == SegmentKind::Alias)
        continue;
      std::optional<SegmentKind> kind =
          matchKernel(KernelOps::fromBody(segment.getBody().front()), target,
                      allowNormalization)
              .kind;
      if (!kind) {
        matched = false;
        continue;
      }
      segment.setKind(*kind);
    }
    return matched;
  }

  static void emitUnmatchedKernels(func::FuncOp fusion,
                                   const TargetInfo &target) {
    for (SegmentOp segment : fusion.getOps<SegmentOp>()) {
      if (segment.getKind() == SegmentKind::Alias)
        continue;
      KernelMatch match = matchKernel(
          KernelOps::fromBody(segment.getBody().front()), target,
          /*allowNormalization=*/false);
      if (!match.kind)
        segment.emitError("fuser-segment formed a kernel that no template "
                          "takes: ")
            << match.whyNot;
    }
  }
};
} // namespace
