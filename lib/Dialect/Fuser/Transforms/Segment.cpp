//===- Segment.cpp - partition fusions into kernels and aliases -----------===//
//
// Implements `fuser-segment`. The rules (what merges into one kernel, what
// becomes an alias, what splits) are documented in docs/Segmentation.md;
// the comments here say how they are implemented.
//
//===----------------------------------------------------------------------===//

#include "SegmentGraph.h"
#include "fuser/Analysis/KernelTemplates.h"
#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/Fusion.h"
#include "fuser/Dialect/Fuser/IR/StridedView.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "fuser/Dialect/Fuser/Transforms/SegmentPruning.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <vector>

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERSEGMENT
#include "fuser/Dialect/Fuser/Transforms/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// Planned segments at most for which fuser-segment merges kernels that
/// recomputing made independent (mergeIndependentKernels is cubic in them).
constexpr size_t kMaxKernelsMergedAfterRecompute = 16;

/// How segmentation treats an op of the fusion.
enum class OpRole {
  /// Scalar constants and scalar arithmetic on them: cloned into every
  /// segment that uses them.
  Replicated,
  /// A meta op whose result is a view of memory that is written anyway (a
  /// function argument, a segment_set result, a kernel output): cloned into
  /// every segment that reads it, so it never costs a kernel or a write.
  View,
  /// Everything else: a member of exactly one kernel group.
  Grouped,
};

/// Ops that will become one kernel (a group of the partition).
struct KernelGroup {
  SmallVector<Operation *> ops;
  /// The group's first reduction.
  ReductionOp reduction;
};

/// A segment to create: its kind, the ops it owns, and (once planned) what
/// it reads and writes.
struct PlannedSegment {
  SegmentKind kind;
  /// Ops whose results this segment defines, in program order.
  SmallVector<Operation *> members;
  /// Members plus the Replicated and View ops they need, in program order.
  SmallVector<Operation *> opsToClone;
  SmallVector<Value> inputs;
  SmallVector<Value> outputs;
  unsigned firstPosition = 0;
};

/// The bytes of a value, saturated (a count beyond 64 bits compares as the
/// largest).
static uint64_t bytesOf(Value value) {
  ByteCount bytes = getTransferBytes(value.getType());
  return bytes.overflowed ? std::numeric_limits<uint64_t>::max() : bytes.bytes;
}

/// The bytes of `value` that a kernel reading it only under `slice` (nullptr:
/// not under a slice) loads: what the slice covers (as FusionTraffic counts).
static uint64_t readBytesUnder(Value value, Operation *slice) {
  uint64_t whole = bytesOf(value);
  if (!slice)
    return whole;
  Type elementType = cast<TensorType>(value.getType()).getElementType();
  ByteCount covered = getTransferBytes(
      cast<TensorType>(slice->getResult(0).getType()).clone(elementType));
  return covered.overflowed ? whole : std::min(whole, covered.bytes);
}

/// The slice that `operand` of `def` is read under, where `def`'s result is
/// read under `slice`: `def` itself if it is a slice; else `slice` where
/// `def` keeps every element of the operand (a meta op of its size or an
/// elementwise op of its element count); else none.
static Operation *getSliceUnder(Operation *def, Value operand,
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

/// The view a chain of meta ops (`chain`, from its result back to the op
/// that reads `source`) makes of `source` written contiguously, if strided.
static std::optional<StridedView> getChainView(Value source,
                                               ArrayRef<Operation *> chain) {
  std::optional<StridedView> view =
      StridedView::getContiguous(cast<TensorType>(source.getType()).getShape());
  for (Operation *op : llvm::reverse(chain))
    if (view)
      view = applyMetaOp(op, *view);
  return view;
}

class Segmenter {
public:
  /// Groups from the merge queue (SegmentGraph), every kernel checked by
  /// the kernel templates on `target`.
  Segmenter(func::FuncOp func, const TargetInfo &target,
            bool allowNormalization)
      : func(func), body(func.getBody().front()), target(target),
        allowNormalization(allowNormalization) {}

  LogicalResult run();

private:
  LogicalResult classifyOps();
  void viewReturnedExpansions();
  /// The memory under `value` through View ops (itself if it is no view).
  Value getViewRoot(Value value) const;
  /// getViewRoot of a tensor; null for a scalar.
  Value getRoot(Value value) const;
  void partitionGroups();
  bool isOneKernel(ArrayRef<Operation *> members) const;
  bool isInGroup(Operation *op, unsigned group) const;
  void peelViews(unsigned group);
  void materializeViewedValues(unsigned group,
                               const DenseSet<Operation *> &wanted);
  std::optional<StridedView> getView(Value value);
  std::optional<StridedView> getViewOfMaterialized(Value source,
                                                   unsigned group);
  std::vector<PlannedSegment> planSegments();
  void mergeIndependentKernels(std::vector<PlannedSegment> &segments);
  void peelWrittenViews(std::vector<PlannedSegment> &segments);
  void inlineSmallAliases(std::vector<PlannedSegment> &segments);
  void sortByPosition(SmallVectorImpl<Value> &values) const;
  void collectInputs(PlannedSegment &segment);
  SetVector<Value> collectInputs(PlannedSegment &segment,
                                 const DenseSet<Value> *recomputeFrom,
                                 DenseSet<Value> &readThroughSegmentSet);
  std::optional<SetVector<Value>>
  getRecomputeSources(Value value, Operation *readUnder,
                      const DenseSet<Value> &readAnyway,
                      const DenseSet<Value> &readThrough);
  LogicalResult materialize(std::vector<PlannedSegment> &segments);

  func::FuncOp func;
  Block &body;
  const TargetInfo &target;
  bool allowNormalization = true;
  DenseMap<Operation *, unsigned> position;
  DenseMap<Operation *, OpRole> roles;
  DenseMap<Operation *, unsigned> groupOf;
  std::vector<KernelGroup> groups;
  DenseMap<Value, std::optional<StridedView>> viewCache;
  /// Kernel values written although only views of them leave the kernel:
  /// writing them once costs no more than writing each view.
  DenseSet<Value> materializedForViews;
  /// Values that returned meta-op trees view (viewReturnedExpansions): their
  /// kernels write them contiguously, as the trees' views assume, so they
  /// never become views themselves.
  DenseSet<Value> viewedByReturnedTrees;
  /// The values the function returns.
  DenseSet<Value> returned;
  /// Kernel values written for the return (returned, or the memory under a
  /// returned View): reading them adds no write.
  DenseSet<Value> writtenForReturn;
};

} // namespace

LogicalResult Segmenter::classifyOps() {
  for (auto [index, op] : llvm::enumerate(body))
    position[&op] = index;

  for (Operation &op : body.without_terminator()) {
    if (op.getNumRegions() != 0 || isa<YieldOp>(op))
      return op.emitOpError("cannot be segmented: fuser-segment expects a "
                            "fusion of fuser ops");
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
    // segment_set of such memory neither, rule 1).
    auto meta = dyn_cast<MetaOpInterface>(op);
    if (!meta)
      continue;
    Value source = meta.getSource();
    Operation *def = source.getDefiningOp();
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
  // saving and in program order, and the fewer kernels win; at a tie the
  // cost-ordered run (which also weighed the bytes) stays.
  auto getRootOf = [&](Value value) { return getRoot(value); };
  SegmentGraph bySaving(grouped, getRootOf, returned, target,
                        allowNormalization, SegmentGraph::Order::BySaving);
  bySaving.partition();
  SegmentGraph byProgram(grouped, getRootOf, returned, target,
                         allowNormalization, SegmentGraph::Order::ByProgram);
  byProgram.partition();
  const SegmentGraph &graph =
      byProgram.getNumGroups() < bySaving.getNumGroups() ? byProgram
                                                         : bySaving;
  for (SmallVector<Operation *> &ops : graph.getGroups()) {
    unsigned index = groups.size();
    KernelGroup &group = groups.emplace_back();
    group.ops = std::move(ops);
    for (Operation *op : group.ops) {
      groupOf[op] = index;
      if (auto reduction = dyn_cast<ReductionOp>(op); reduction && !group.reduction)
        group.reduction = reduction;
    }
  }
}

bool Segmenter::isOneKernel(ArrayRef<Operation *> members) const {
  // What the templates need of planned members: the values that leave them
  // and the memory they read (through views).
  KernelOps kernel;
  kernel.ops.assign(members.begin(), members.end());
  llvm::sort(kernel.ops, [&](Operation *lhs, Operation *rhs) {
    return position.lookup(lhs) < position.lookup(rhs);
  });
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

bool Segmenter::isInGroup(Operation *op, unsigned group) const {
  auto it = groupOf.find(op);
  return it != groupOf.end() && it->second == group;
}

std::optional<StridedView> Segmenter::getView(Value value) {
  auto cached = viewCache.find(value);
  if (cached != viewCache.end())
    return cached->second;
  // Follow the chain of View ops up to memory something writes
  // contiguously (an argument or a kernel output), then back down.
  SmallVector<Operation *> chain;
  Value root = value;
  while (Operation *def = root.getDefiningOp()) {
    if (roles.lookup(def) != OpRole::View || viewCache.count(root))
      break;
    chain.push_back(def);
    root = cast<MetaOpInterface>(def).getSource();
  }
  std::optional<StridedView> view;
  if (auto rootView = viewCache.find(root); rootView != viewCache.end())
    view = rootView->second;
  else
    view =
        StridedView::getContiguous(cast<TensorType>(root.getType()).getShape());
  for (Operation *op : llvm::reverse(chain)) {
    if (view)
      view = applyMetaOp(op, *view);
    viewCache[op->getResult(0)] = view;
  }
  viewCache[value] = view;
  return view;
}

std::optional<StridedView> Segmenter::getViewOfMaterialized(Value source,
                                                            unsigned group) {
  Operation *def = source.getDefiningOp();
  // Written by the group itself: only if something outside needs it anyway,
  // or if it is written for its views (materializeViewedValues).
  if (def && isInGroup(def, group) && !materializedForViews.contains(source) &&
      llvm::all_of(source.getUsers(),
                   [&](Operation *user) { return isInGroup(user, group); }))
    return std::nullopt;
  return getView(source);
}

void Segmenter::materializeViewedValues(unsigned group,
                                        const DenseSet<Operation *> &wanted) {
  // A value of the kernel that only leaves it through meta ops (say a `neg`
  // returned both broadcast and reshaped) is written once, and what leaves
  // becomes views of it, when that writes fewer bytes than writing each
  // meta op result that leaves: two or more views of its size, or one
  // larger view (an `expand`). Greedily, the value that saves most first.
  auto leaves = [&](Value value) {
    return llvm::any_of(value.getUsers(), [&](Operation *user) {
      return !isInGroup(user, group);
    });
  };
  // For each value of the group, the meta op results leaving the group that
  // are strided views of it through meta ops of the group.
  llvm::MapVector<Value, SmallVector<Value>> viewsOf;
  // Exits whose chain holds a segment_set.
  DenseSet<Value> throughSegmentSet;
  for (Operation *op : groups[group].ops) {
    Value exit = op->getResult(0);
    if (!wanted.contains(op) || !leaves(exit))
      continue;
    SmallVector<Operation *> chain;
    Value source = exit;
    while (Operation *def = source.getDefiningOp()) {
      if (!isInGroup(def, group) || !isa<MetaOpInterface>(def))
        break;
      if (isa<SegmentSetOp>(def))
        throughSegmentSet.insert(exit);
      chain.push_back(def);
      source = cast<MetaOpInterface>(def).getSource();
      Operation *sourceDef = source.getDefiningOp();
      // From a value written anyway (or outside), peelViews makes the
      // views.
      if (!sourceDef || !isInGroup(sourceDef, group) || leaves(source) ||
          materializedForViews.contains(source))
        break;
      std::optional<StridedView> view = getChainView(source, chain);
      if (view)
        viewsOf[source].push_back(exit);
    }
  }
  DenseSet<Value> covered;
  while (true) {
    Value best;
    uint64_t bestSaving = 0;
    for (auto &[value, views] : viewsOf) {
      uint64_t viewBytes = 0;
      bool uncovered = false, keepViews = false;
      for (Value view : views) {
        if (covered.contains(view))
          continue;
        uncovered = true;
        keepViews |=
            returned.contains(view) || throughSegmentSet.contains(view);
        viewBytes = llvm::SaturatingAdd(viewBytes, bytesOf(view));
      }
      uint64_t bytes = bytesOf(value);
      // At equal bytes, the value is written rather than its views when
      // those only feed other kernels: they read through views for free
      // and can recompute from the value (rule 10), whereas a returned
      // view would be an alias the caller copies, and a segment_set is
      // written by its own kernel (rule 1).
      bool saves = viewBytes > bytes || (viewBytes == bytes && !keepViews);
      if (uncovered && saves && (!best || viewBytes - bytes > bestSaving)) {
        best = value;
        bestSaving = viewBytes - bytes;
      }
    }
    if (!best)
      return;
    materializedForViews.insert(best);
    covered.insert(viewsOf[best].begin(), viewsOf[best].end());
  }
}

void Segmenter::peelViews(unsigned group) {
  // A meta op of a kernel whose result leaves the kernel, and whose source
  // is memory that is written anyway, becomes a View (an alias) instead of
  // a second write. `wanted`: meta ops that lead, through meta ops of the
  // group, to a value used outside the group.
  KernelGroup &kernel = groups[group];
  llvm::sort(kernel.ops, [&](Operation *lhs, Operation *rhs) {
    return position.lookup(lhs) < position.lookup(rhs);
  });
  DenseSet<Operation *> wanted;
  for (Operation *op : llvm::reverse(kernel.ops)) {
    if (!isa<MetaOpInterface>(op))
      continue;
    if (llvm::any_of(op->getUsers(), [&](Operation *user) {
          return !isInGroup(user, group) || wanted.contains(user);
        }))
      wanted.insert(op);
  }
  materializeViewedValues(group, wanted);
  SmallVector<Operation *> kept;
  for (Operation *op : kernel.ops) {
    std::optional<StridedView> view;
    if (wanted.contains(op) && !viewedByReturnedTrees.contains(op->getResult(0)))
      if (std::optional<StridedView> sourceView = getViewOfMaterialized(
              cast<MetaOpInterface>(op).getSource(), group))
        view = applyMetaOp(op, *sourceView);
    if (!view) {
      kept.push_back(op);
      continue;
    }
    roles[op] = OpRole::View;
    groupOf.erase(op);
    viewCache[op->getResult(0)] = view;
  }
  kernel.ops = std::move(kept);
}

std::optional<SetVector<Value>>
Segmenter::getRecomputeSources(Value value, Operation *readUnder,
                               const DenseSet<Value> &readAnyway,
                               const DenseSet<Value> &readThrough) {
  // The values a segment would read to recompute `value` (a value of
  // another kernel) instead of reading it, if that reads no more bytes.
  // Each operand on the way is read where the segment reads it anyway (a
  // fusion input or a value another kernel writes), else recomputed in turn
  // or read where it is written anyway (a fusion input, a fusion result a
  // kernel writes), whichever reads fewer new bytes. Ops are recomputed
  // only where that is indexing and arithmetic: not a reduction, not a
  // segment_set (its result is written, never recomputed), and not a value
  // the segment reads through a segment_set.
  // What reading a value adds: nothing where the segment reads it anyway;
  // its bytes where it is written anyway (a fusion input, a fusion result a
  // kernel writes); else also the bytes of writing it.
  auto isWrittenAnyway = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return !def || writtenForReturn.contains(v) ||
           roles.lookup(def) == OpRole::View;
  };
  // While searching, values the search reads elsewhere anyway (`shared`)
  // count as free too.
  DenseSet<Value> shared;
  auto isFree = [&](Value v) {
    return readAnyway.contains(v) || shared.contains(v);
  };
  // A value the search reads only under `slice` ops, through elementwise
  // ops of its size and meta ops that keep every element, is read where
  // the slices cover it (as the lowering loads, and FusionTraffic counts):
  // the slices each such read is under, and the values read otherwise.
  DenseMap<Value, llvm::SmallSetVector<Operation *, 2>> slicesOver;
  DenseSet<Value> readWhole;
  auto noteRead = [&](Value v, Operation *slice) {
    if (slice)
      slicesOver[v].insert(slice);
    else
      readWhole.insert(v);
  };
  auto readCost = [&](Value v) {
    if (isFree(v))
      return uint64_t(0);
    uint64_t bytes = bytesOf(v);
    uint64_t read = bytes;
    auto it = slicesOver.find(v);
    if (it != slicesOver.end() && !readWhole.contains(v)) {
      uint64_t covered = 0;
      for (Operation *slice : it->second)
        covered = llvm::SaturatingAdd(covered, readBytesUnder(v, slice));
      read = std::min(read, covered);
    }
    return isWrittenAnyway(v) ? read : llvm::SaturatingAdd(read, bytes);
  };
  auto newBytes = [&](const SetVector<Value> &sources) {
    uint64_t bytes = 0;
    for (Value source : sources)
      bytes = llvm::SaturatingAdd(bytes, readCost(source));
    return bytes;
  };
  // Deep chains are read, not recomputed: this bounds the search.
  constexpr unsigned kMaxDepth = 32;
  DenseMap<std::pair<Value, Operation *>, std::optional<SetVector<Value>>>
      memo;
  using Search = std::function<std::optional<SetVector<Value>>(
      Value, unsigned, Operation *)>;
  Search recompute;
  Search obtain = [&](Value operand, unsigned depth,
                      Operation *slice) -> std::optional<SetVector<Value>> {
    SetVector<Value> self;
    self.insert(operand);
    if (isFree(operand))
      return self;
    // A view is read through: the memory under it is what is read.
    Operation *def = operand.getDefiningOp();
    bool readable = !def || roles.lookup(def) == OpRole::Grouped;
    std::optional<SetVector<Value>> sources = recompute(operand, depth, slice);
    if (readable)
      noteRead(operand, slice);
    if (readable && (!sources || newBytes(*sources) > newBytes(self)))
      return self;
    return sources;
  };
  recompute = [&](Value result, unsigned depth,
                  Operation *slice) -> std::optional<SetVector<Value>> {
    Operation *def = result.getDefiningOp();
    if (!def || depth > kMaxDepth || readThrough.contains(result) ||
        roles.lookup(def) == OpRole::Replicated || !isMemoryEffectFree(def))
      return std::nullopt;
    // A segment_set of memory written anyway is a view of it (rule 6): the
    // memory under it is read as it is, never recomputed (rule 1).
    if (isa<SegmentSetOp>(def) && roles.lookup(def) == OpRole::View) {
      Value root = getViewRoot(result);
      SetVector<Value> sources;
      sources.insert(root);
      noteRead(root, nullptr);
      return sources;
    }
    if (isa<ReductionOp, SegmentSetOp>(def))
      return std::nullopt;
    // A view through a `slice` of memory the segment does not read anyway
    // reads what the slice covers (as the lowering loads, and
    // FusionTraffic counts): the slice is a source, unless recomputing the
    // memory under it reads fewer bytes.
    std::optional<SetVector<Value>> viaSlice;
    if (roles.lookup(def) == OpRole::View) {
      Value root = result, sliced;
      while (Operation *rootDef = root.getDefiningOp()) {
        if (roles.lookup(rootDef) != OpRole::View)
          break;
        if (!sliced && isa<SliceOp>(rootDef))
          sliced = root;
        root = cast<MetaOpInterface>(rootDef).getSource();
      }
      if (sliced && !isFree(root)) {
        viaSlice.emplace();
        viaSlice->insert(sliced);
      }
    }
    if (auto it = memo.find({result, slice}); it != memo.end())
      return it->second;
    SetVector<Value> sources;
    bool possible = true;
    for (Value operand : def->getOperands()) {
      if (!isa<TensorType>(operand.getType()))
        continue;
      std::optional<SetVector<Value>> operandSources =
          obtain(operand, depth + 1, getSliceUnder(def, operand, slice));
      if (!operandSources) {
        possible = false;
        break;
      }
      sources.insert(operandSources->begin(), operandSources->end());
    }
    std::optional<SetVector<Value>> found;
    if (possible)
      found = std::move(sources);
    if (viaSlice && (!found || newBytes(*viaSlice) < newBytes(*found)))
      found = std::move(viaSlice);
    memo[{result, slice}] = found;
    return found;
  };
  std::optional<SetVector<Value>> sources = recompute(value, 0, nullptr);
  // Each operand chose alone between reading and recomputing; where one
  // recomputes from a value written anyway (a fusion input), others may
  // recompute from it too instead of reading a value that would need a
  // write: search again with those free, and keep the cheaper sources.
  if (sources) {
    for (Value source : *sources)
      if (isWrittenAnyway(source))
        shared.insert(source);
    memo.clear();
    std::optional<SetVector<Value>> again = recompute(value, 0, nullptr);
    shared.clear();
    if (again && newBytes(*again) < newBytes(*sources))
      sources = std::move(again);
  }
  // Not reading `value` saves the bytes this use reads (what `readUnder`
  // covers, where it is a slice), and writing it where nothing else needs
  // it.
  uint64_t saved = readBytesUnder(value, readUnder);
  if (!isWrittenAnyway(value))
    saved = llvm::SaturatingAdd(saved, bytesOf(value));
  if (!sources || newBytes(*sources) > saved)
    return std::nullopt;
  return sources;
}

SetVector<Value>
Segmenter::collectInputs(PlannedSegment &segment,
                         const DenseSet<Value> *recomputeFrom,
                         DenseSet<Value> &readThroughSegmentSet) {
  // Inputs in first-use order; Replicated and View ops the members read
  // are cloned in, so the segment reads what they read. With
  // `recomputeFrom` (the inputs the segment reads anyway), a value of
  // another kernel that is computed by elementwise and meta ops from a
  // value the segment reads anyway (or from a fusion input no larger) is
  // recomputed from there instead of read (getRecomputeSources). Values the
  // segment reads through a segment_set are never recomputed (nor what
  // computes them): without `recomputeFrom` they are collected into
  // `readThroughSegmentSet`.
  DenseSet<Operation *> members(segment.members.begin(), segment.members.end());
  DenseSet<Operation *> cloned;
  // Cloned ops whose operands were visited as read through a segment_set.
  DenseSet<Operation *> clonedReadThrough;
  SetVector<Value> inputs;
  // Whether a value of another kernel may be recomputed, must be (it feeds
  // a recomputed op, up to the value recomputing starts from), or must be
  // read (it is read through a segment_set, which is written by its
  // producer, never recomputed).
  enum class Recompute { May, Must, Never };
  struct Use {
    Value value;
    Recompute mode;
    // The slice the value is read under (getSliceUnder), if any.
    Operation *slice;
  };
  // The values recomputing starts from: where Must ends.
  DenseSet<Value> recomputeSources;
  SmallVector<Use> worklist;
  for (Operation *member : segment.members) {
    for (Value operand : llvm::reverse(member->getOperands()))
      worklist.push_back({operand, Recompute::May,
                          getSliceUnder(member, operand, nullptr)});
    while (!worklist.empty()) {
      Use use = worklist.pop_back_val();
      Value value = use.value;
      if (use.mode == Recompute::Must && recomputeSources.contains(value))
        use.mode = Recompute::May;
      if (use.mode == Recompute::Never && !recomputeFrom)
        readThroughSegmentSet.insert(value);
      Operation *def = value.getDefiningOp();
      if (def && members.contains(def))
        continue;
      OpRole role = def ? roles.lookup(def) : OpRole::Grouped;
      bool recompute = false;
      if (def && role == OpRole::Grouped && recomputeFrom &&
          use.mode != Recompute::Never) {
        if (use.mode == Recompute::Must) {
          recompute = true;
        } else if (std::optional<SetVector<Value>> sources =
                       getRecomputeSources(value, use.slice, *recomputeFrom,
                                           readThroughSegmentSet)) {
          recompute = true;
          recomputeSources.insert(sources->begin(), sources->end());
        }
      }
      if (def && (role != OpRole::Grouped || recompute)) {
        Recompute operandMode = isa<SegmentSetOp>(def) ? Recompute::Never
                                : recompute            ? Recompute::Must
                                                       : use.mode;
        // A view reached first by another path and then through a
        // segment_set passes that on too: what it reads is read through
        // the segment_set, whichever use came first (rule 1).
        bool firstClone = cloned.insert(def).second;
        bool firstReadThrough = operandMode == Recompute::Never &&
                                clonedReadThrough.insert(def).second;
        if (firstClone || firstReadThrough)
          for (Value operand : llvm::reverse(def->getOperands()))
            worklist.push_back({operand, operandMode,
                                getSliceUnder(def, operand, use.slice)});
        continue;
      }
      inputs.insert(value);
    }
  }
  segment.opsToClone.assign(segment.members.begin(), segment.members.end());
  segment.opsToClone.append(cloned.begin(), cloned.end());
  llvm::sort(segment.opsToClone, [&](Operation *lhs, Operation *rhs) {
    return position.lookup(lhs) < position.lookup(rhs);
  });
  return inputs;
}

void Segmenter::collectInputs(PlannedSegment &segment) {
  DenseSet<Value> readThroughSegmentSet;
  SetVector<Value> inputs =
      collectInputs(segment, nullptr, readThroughSegmentSet);
  // Recomputing makes the segment read other values, from which more may
  // be recomputed: repeat while that changes what it reads.
  for (unsigned round = 0; round < 4 && segment.kind != SegmentKind::Alias;
       ++round) {
    DenseSet<Value> readAnyway(inputs.begin(), inputs.end());
    SetVector<Value> next =
        collectInputs(segment, &readAnyway, readThroughSegmentSet);
    bool changed = next != inputs;
    inputs = std::move(next);
    if (!changed)
      break;
  }
  // Recomputing may add what a normalization keeps on chip beyond the
  // budget; such a kernel reads the values instead.
  if (segment.kind != SegmentKind::Alias &&
      !isOneKernel(segment.opsToClone)) {
    readThroughSegmentSet.clear();
    inputs = collectInputs(segment, nullptr, readThroughSegmentSet);
  }
  segment.inputs = inputs.takeVector();
}

void Segmenter::mergeIndependentKernels(std::vector<PlannedSegment> &segments) {
  // Rule 9 once more, on the planned kernels: recomputing (rule 10) removes
  // edges between kernels that grouping had to respect (a value preseg's
  // CSE shares, which each reader now recomputes), so kernels that grouping
  // kept apart may now be independent. Two kernels that neither reaches
  // through the others' inputs share one when the merged kernel is still
  // pointwise or a reduction with one set of axes: no op of one depends on
  // the other, so each keeps rules 1 and 5 as it did alone, and the merged
  // kernel reads a tensor both read once. As in mergeSiblingKernels, those
  // that read a common tensor first.
  auto reductionOf = [](const PlannedSegment &segment) {
    ReductionOp reduction;
    for (Operation *member : segment.members)
      if (auto op = dyn_cast<ReductionOp>(member); op && !reduction)
        reduction = op;
    return reduction;
  };
  auto isKernel = [](const PlannedSegment &segment) {
    return segment.kind != SegmentKind::Alias && !segment.members.empty();
  };
  // The segment of each member, kept up to date as kernels merge (built
  // once: rebuilding it for every pair made this cubic in the fusion's size).
  DenseMap<Operation *, unsigned> segmentOf;
  for (auto [index, segment] : llvm::enumerate(segments))
    for (Operation *member : segment.members)
      segmentOf[member] = index;
  auto reaches = [&](unsigned from, unsigned to) {
    // Whether `to` reads, through other segments, what `from` writes.
    SmallVector<unsigned> worklist = {to};
    DenseSet<unsigned> visited;
    while (!worklist.empty()) {
      unsigned index = worklist.pop_back_val();
      if (!visited.insert(index).second)
        continue;
      for (Value input : segments[index].inputs) {
        Operation *def = input.getDefiningOp();
        auto it = def ? segmentOf.find(def) : segmentOf.end();
        if (it == segmentOf.end())
          continue;
        if (it->second == from)
          return true;
        worklist.push_back(it->second);
      }
    }
    return false;
  };
  SmallVector<unsigned> order;
  for (auto [index, segment] : llvm::enumerate(segments))
    if (isKernel(segment))
      order.push_back(index);
  llvm::sort(order, [&](unsigned lhs, unsigned rhs) {
    return segments[lhs].firstPosition < segments[rhs].firstPosition;
  });
  auto sharesInput = [](const PlannedSegment &lhs, const PlannedSegment &rhs) {
    return llvm::any_of(lhs.inputs, [&](Value input) {
      return isa<TensorType>(input.getType()) &&
             llvm::is_contained(rhs.inputs, input);
    });
  };
  for (bool requireSharedInput : {true, false})
    for (auto [rank, later] : llvm::enumerate(order)) {
      for (unsigned earlier : ArrayRef(order).take_front(rank)) {
        PlannedSegment &into = segments[earlier];
        PlannedSegment &from = segments[later];
        if (!isKernel(into) || !isKernel(from))
          continue;
        if (requireSharedInput && !sharesInput(into, from))
          continue;
        ReductionOp lhs = reductionOf(into), rhs = reductionOf(from);
        SetVector<Operation *> members(into.opsToClone.begin(),
                                       into.opsToClone.end());
        members.insert(from.opsToClone.begin(), from.opsToClone.end());
        if (!isOneKernel(members.getArrayRef()))
          continue;
        if (reaches(earlier, later) || reaches(later, earlier))
          continue;
        for (Operation *member : from.members)
          segmentOf[member] = earlier;
        into.members.append(from.members.begin(), from.members.end());
        llvm::sort(into.members, [&](Operation *a, Operation *b) {
          return position.lookup(a) < position.lookup(b);
        });
        if (lhs || rhs)
          into.kind = SegmentKind::Reduction;
        collectInputs(into);
        from = PlannedSegment();
        break;
      }
    }
  llvm::erase_if(segments, [](const PlannedSegment &segment) {
    return segment.members.empty();
  });
}

std::vector<PlannedSegment> Segmenter::planSegments() {
  // A returned View is an alias of the memory under it, which its kernel
  // writes whoever else reads it.
  for (Value result : returned)
    writtenForReturn.insert(result);
  std::vector<PlannedSegment> segments;
  for (KernelGroup &group : groups) {
    if (group.ops.empty())
      continue;
    PlannedSegment &segment = segments.emplace_back();
    segment.kind =
        group.reduction ? SegmentKind::Reduction : SegmentKind::Pointwise;
    segment.members = group.ops;
  }

  // Results that are views need a segment of their own: an alias of the
  // memory they view, or a copy kernel where no strided view exists.
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  llvm::MapVector<Value, SmallVector<Operation *>> aliases, copies;
  // Returned views of the value a copy kernel writes, and that value.
  SmallVector<std::pair<Value, Value>> copiedViews;
  DenseSet<Operation *> seenViews;
  for (Value result : returnOp.getOperands()) {
    Operation *def = result.getDefiningOp();
    if (!def || roles.lookup(def) != OpRole::View ||
        !seenViews.insert(def).second)
      continue;
    Value root = getViewRoot(result);
    if (getView(result)) {
      aliases[root].push_back(def);
      continue;
    }
    // A copy writes the smallest value on its chain of which the result is
    // a strided view, and the result is an alias of it: an `expand` after
    // the `view` that makes the chain non-strided is not written. So is a
    // returned copy on the chain (written anyway for its return).
    Value written = result;
    SmallVector<Operation *> chain;
    for (Value link = result; link != root;) {
      Operation *linkDef = link.getDefiningOp();
      chain.push_back(linkDef);
      link = cast<MetaOpInterface>(linkDef).getSource();
      if (link == root)
        break;
      std::optional<StridedView> view = getChainView(link, chain);
      if (view && ((returned.contains(link) && !getView(link)) ||
                   getSaturatedNumElements(link.getType()) <
                       getSaturatedNumElements(written.getType())))
        written = link;
    }
    if (!llvm::is_contained(copies[root], written.getDefiningOp()))
      copies[root].push_back(written.getDefiningOp());
    if (written != result)
      copiedViews.emplace_back(written, result);
  }
  // A copy joins the kernel that computes the tensor it copies or else the
  // first kernel that reads it (rule 9: a sibling of the same input): no
  // new dependence, and no launch of its own.
  unsigned numKernels = segments.size();
  SmallVector<DenseSet<Value>> kernelReads;
  for (PlannedSegment &segment : segments) {
    DenseSet<Value> readThroughSegmentSet;
    SetVector<Value> reads =
        collectInputs(segment, nullptr, readThroughSegmentSet);
    kernelReads.emplace_back(reads.begin(), reads.end());
  }
  for (auto &[root, views] : llvm::make_early_inc_range(copies)) {
    std::optional<unsigned> kernel;
    // Only into a kernel that a template still takes.
    // Named, not bound: lambdas may not capture structured bindings before
    // C++20 (clang 14, the fuzz build).
    Value copied = root;
    ArrayRef<Operation *> copyViews = views;
    auto takes = [&](unsigned index) {
      // The kernel computes each copy from `root`: the meta ops between.
      SetVector<Operation *> members(segments[index].members.begin(),
                                     segments[index].members.end());
      for (Operation *view : copyViews)
        for (Value link = view->getResult(0); link != copied;
             link = cast<MetaOpInterface>(link.getDefiningOp()).getSource())
          members.insert(link.getDefiningOp());
      return isOneKernel(members.getArrayRef());
    };
    for (unsigned index = 0; index < numKernels && !kernel; ++index)
      if (llvm::is_contained(segments[index].members, root.getDefiningOp()) &&
          takes(index))
        kernel = index;
    for (unsigned index = 0; index < numKernels && !kernel; ++index)
      if (kernelReads[index].contains(root) && takes(index))
        kernel = index;
    if (!kernel)
      continue;
    PlannedSegment &segment = segments[*kernel];
    segment.members.append(views.begin(), views.end());
    llvm::sort(segment.members, [&](Operation *lhs, Operation *rhs) {
      return position.lookup(lhs) < position.lookup(rhs);
    });
    views.clear();
  }
  for (auto [bucket, kind] :
       {std::make_pair(&aliases, SegmentKind::Alias),
        std::make_pair(&copies, SegmentKind::Pointwise)}) {
    for (auto &[root, views] : *bucket) {
      if (views.empty())
        continue;
      PlannedSegment &segment = segments.emplace_back();
      segment.kind = kind;
      segment.members = views;
      llvm::sort(segment.members, [&](Operation *lhs, Operation *rhs) {
        return position.lookup(lhs) < position.lookup(rhs);
      });
    }
  }

  for (PlannedSegment &segment : segments) {
    segment.firstPosition = position.lookup(segment.members.front());
    collectInputs(segment);
  }
  // Rule 10 removed edges between kernels: merge the ones now independent
  // (in fusions of a bounded number of kernels, as each test walks the
  // kernels; larger ones keep what partitioning packed).
  if (segments.size() <= kMaxKernelsMergedAfterRecompute)
    mergeIndependentKernels(segments);

  // Outputs: member results that another segment or the return reads.
  DenseMap<Operation *, unsigned> segmentOf;
  for (auto [index, segment] : llvm::enumerate(segments))
    for (Operation *member : segment.members)
      segmentOf[member] = index;
  SmallVector<SetVector<Value>> outputs(segments.size());
  auto markOutput = [&](Value value) {
    if (Operation *def = value.getDefiningOp())
      if (auto it = segmentOf.find(def); it != segmentOf.end())
        outputs[it->second].insert(value);
  };
  for (PlannedSegment &segment : segments)
    llvm::for_each(segment.inputs, markOutput);
  llvm::for_each(returnOp.getOperands(), markOutput);
  for (Value written : llvm::make_first_range(copiedViews))
    markOutput(written);
  for (auto [segment, segmentOutputs] : llvm::zip(segments, outputs)) {
    segment.outputs = segmentOutputs.takeVector();
    sortByPosition(segment.outputs);
  }
  for (auto [written, result] : copiedViews) {
    PlannedSegment alias;
    alias.kind = SegmentKind::Alias;
    for (Value link = result; link != written;
         link = cast<MetaOpInterface>(link.getDefiningOp()).getSource())
      alias.members.push_back(link.getDefiningOp());
    std::reverse(alias.members.begin(), alias.members.end());
    alias.opsToClone = alias.members;
    alias.inputs = {written};
    alias.outputs = {result};
    alias.firstPosition = position.lookup(alias.members.front());
    segments.push_back(std::move(alias));
  }
  peelWrittenViews(segments);
  inlineSmallAliases(segments);
  return segments;
}

void Segmenter::sortByPosition(SmallVectorImpl<Value> &values) const {
  llvm::sort(values, [&](Value lhs, Value rhs) {
    auto key = [&](Value value) {
      auto result = cast<OpResult>(value);
      return std::make_pair(position.lookup(result.getOwner()),
                            result.getResultNumber());
    };
    return key(lhs) < key(rhs);
  });
}

void Segmenter::inlineSmallAliases(std::vector<PlannedSegment> &segments) {
  // Grouping wrote a value for its views (rule 6) before rule 10 chose
  // what each kernel reads; where now only an alias reads the value, and
  // its views hold fewer bytes (a `slice`), the kernel writes the views
  // instead of the value, as a copy kernel joins the kernel that computes
  // what it copies (a `segment_set` on the way included).
  auto byPosition = [&](Operation *lhs, Operation *rhs) {
    return position.lookup(lhs) < position.lookup(rhs);
  };
  DenseMap<Operation *, unsigned> segmentOf;
  DenseMap<Value, unsigned> numReaders;
  for (auto [index, segment] : llvm::enumerate(segments)) {
    if (segment.kind != SegmentKind::Alias)
      for (Operation *member : segment.members)
        segmentOf[member] = index;
    for (Value input : segment.inputs)
      ++numReaders[input];
  }
  for (PlannedSegment &alias : segments) {
    if (alias.kind != SegmentKind::Alias || alias.inputs.size() != 1)
      continue;
    Value written = alias.inputs.front();
    Operation *def = written.getDefiningOp();
    auto it = def ? segmentOf.find(def) : segmentOf.end();
    if (it == segmentOf.end() || returned.contains(written) ||
        numReaders.lookup(written) != 1)
      continue;
    PlannedSegment &kernel = segments[it->second];
    // Where the value is a meta op chain of another value the kernel
    // writes anyway (rule 10 chose to read that one), the alias views that
    // one and the value is not written.
    SmallVector<Operation *> chain;
    Value source = written;
    while (Operation *sourceDef = source.getDefiningOp()) {
      if (!isa<MetaOpInterface>(sourceDef) || isa<SegmentSetOp>(sourceDef) ||
          !llvm::is_contained(kernel.members, sourceDef))
        break;
      chain.push_back(sourceDef);
      source = cast<MetaOpInterface>(sourceDef).getSource();
      if (llvm::is_contained(kernel.outputs, source))
        break;
    }
    auto isViewOfSource = [&](Value output) {
      SmallVector<Operation *> outputChain;
      for (Value link = output; link != written;
           link = cast<MetaOpInterface>(link.getDefiningOp()).getSource())
        outputChain.push_back(link.getDefiningOp());
      outputChain.append(chain.begin(), chain.end());
      return getChainView(source, outputChain).has_value();
    };
    if (!chain.empty() && llvm::is_contained(kernel.outputs, source) &&
        llvm::all_of(alias.outputs, isViewOfSource)) {
      alias.inputs = {source};
      alias.opsToClone.append(chain.begin(), chain.end());
      llvm::sort(alias.opsToClone, byPosition);
      llvm::erase(kernel.outputs, written);
      // The source has one reader more: an alias of it that holds fewer
      // bytes may no longer take its place in the kernel.
      ++numReaders[source];
      continue;
    }
    uint64_t viewBytes = 0;
    for (Value output : alias.outputs)
      viewBytes = llvm::SaturatingAdd(viewBytes, bytesOf(output));
    if (viewBytes >= bytesOf(written))
      continue;
    // Only where a template still takes the kernel.
    SetVector<Operation *> members(kernel.opsToClone.begin(),
                                   kernel.opsToClone.end());
    members.insert(alias.opsToClone.begin(), alias.opsToClone.end());
    if (!isOneKernel(members.getArrayRef()))
      continue;
    kernel.members.append(alias.members.begin(), alias.members.end());
    llvm::sort(kernel.members, byPosition);
    for (Operation *op : alias.opsToClone)
      if (!llvm::is_contained(kernel.opsToClone, op))
        kernel.opsToClone.push_back(op);
    llvm::sort(kernel.opsToClone, byPosition);
    llvm::erase(kernel.outputs, written);
    kernel.outputs.append(alias.outputs.begin(), alias.outputs.end());
    sortByPosition(kernel.outputs);
    alias = PlannedSegment();
  }
  llvm::erase_if(segments, [](const PlannedSegment &segment) {
    return segment.members.empty();
  });
}

void Segmenter::peelWrittenViews(std::vector<PlannedSegment> &segments) {
  // Rule 6 once more, on the planned kernels: recomputing (rule 10) can make
  // a kernel write a value that grouping saw only inside it, so a returned
  // meta op chain of that value, written too, becomes an alias of it
  // (segments that read the returned value read the alias). The kernel
  // keeps computing the chain's ops its other ops still need.
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  size_t numPlanned = segments.size();
  for (size_t index = 0; index < numPlanned; ++index) {
    if (segments[index].kind == SegmentKind::Alias)
      continue;
    SmallVector<Value> outputs = segments[index].outputs;
    for (Value output : outputs) {
      PlannedSegment &segment = segments[index];
      if (!llvm::is_contained(returnOp.getOperands(), output) ||
          llvm::any_of(output.getUsers(),
                       [&](Operation *user) { return user != returnOp; }))
        continue;
      DenseSet<Operation *> members(segment.members.begin(),
                                    segment.members.end());
      SmallVector<Operation *> chain;
      Value source = output;
      while (Operation *def = source.getDefiningOp()) {
        if (!isa<MetaOpInterface>(def) || !members.contains(def) ||
            (source != output && !source.hasOneUse()))
          break;
        chain.push_back(def);
        source = cast<MetaOpInterface>(def).getSource();
        if (llvm::is_contained(segment.outputs, source))
          break;
      }
      if (chain.empty() || !llvm::is_contained(segment.outputs, source))
        continue;
      std::optional<StridedView> view = getChainView(source, chain);
      if (!view)
        continue;
      // The chain's ops that the kernel's other ops or outputs still use.
      DenseSet<Operation *> chained(chain.begin(), chain.end());
      DenseSet<Operation *> kept;
      SmallVector<Value> worklist;
      for (Operation *op : segment.opsToClone)
        if (!chained.contains(op))
          llvm::append_range(worklist, op->getOperands());
      for (Value other : segment.outputs)
        if (other != output)
          worklist.push_back(other);
      while (!worklist.empty()) {
        Operation *def = worklist.pop_back_val().getDefiningOp();
        if (def && chained.contains(def) && kept.insert(def).second)
          llvm::append_range(worklist, def->getOperands());
      }
      auto isPeeled = [&](Operation *op) {
        return chained.contains(op) && !kept.contains(op);
      };
      llvm::erase_if(segment.members, isPeeled);
      llvm::erase_if(segment.opsToClone, isPeeled);
      llvm::erase(segment.outputs, output);
      PlannedSegment alias;
      alias.kind = SegmentKind::Alias;
      alias.members.assign(chain.rbegin(), chain.rend());
      alias.opsToClone = alias.members;
      alias.inputs = {source};
      alias.outputs = {output};
      alias.firstPosition = position.lookup(alias.members.front());
      segments.push_back(std::move(alias));
    }
  }
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
    for (Operation *op : planned.opsToClone)
      bodyBuilder.clone(*op, inner);
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

/// Whether `value` is a chain of meta ops that is no strided view of the
/// value it starts from (a fusion input, or a computed value written
/// contiguously): returned, it is written by a kernel of its own (rule 6).
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

/// Lists in the dims of each keepdim reduction of `body` the extent-1 axes
/// after its first reduced one: reducing over them too combines the same
/// elements in the same order and keeps the result's shape, and the kernel
/// templates then see one spelling of "the innermost axes" ([0] of 12x1x1
/// reduces rows as [0, 1, 2] does). Canonicalization drops such axes again.
static void listUnitAxesInReducedDims(Block &body) {
  for (auto reduction : body.getOps<ReductionOp>()) {
    if (!reduction.getKeepdim() || reduction.getDims().empty())
      continue;
    ArrayRef<int64_t> shape = reduction.getSource().getType().getShape();
    SmallVector<int64_t> dims(reduction.getDims());
    for (int64_t d = dims.front() + 1, e = shape.size(); d < e; ++d)
      if (shape[d] == 1 && !llvm::is_contained(dims, d))
        dims.push_back(d);
    llvm::sort(dims);
    reduction.setDims(dims);
  }
}

LogicalResult Segmenter::run() {
  listUnitAxesInReducedDims(body);
  reshapeReturnedCopies(body);
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
      std::optional<KernelTemplate> kind =
          matchKernel(KernelOps::fromBody(segment.getBody().front()), target,
                      allowNormalization)
              .kind;
      if (!kind) {
        matched = false;
        continue;
      }
      switch (*kind) {
      case KernelTemplate::Pointwise:
        segment.setKind(SegmentKind::Pointwise);
        break;
      case KernelTemplate::Reduction:
        segment.setKind(SegmentKind::Reduction);
        break;
      case KernelTemplate::Normalization:
        segment.setKind(SegmentKind::Normalization);
        break;
      }
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
