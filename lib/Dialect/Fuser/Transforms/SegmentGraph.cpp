//===- SegmentGraph.cpp - kernels as a graph of op groups -----------------===//
//
// See SegmentGraph.h and docs/Segmentation.md ("Partitioning").
//
//===----------------------------------------------------------------------===//

#include "SegmentGraph.h"

#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Dialect/Fuser/IR/Reshape.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::fuser;

/// Kernels that the packing phase tries to join, at most: the most recent
/// open ones, which keeps packing linear in the kernels.
static constexpr size_t kPackingWindow = 16;
/// Rounds of packing and merging again (a packed pair can make a producer
/// and consumer merge that a cycle through it forbade).
static constexpr unsigned kPackingRounds = 4;

SegmentGraph::SegmentGraph(ArrayRef<Operation *> ops,
                           llvm::function_ref<Value(Value)> getRoot,
                           const DenseSet<Value> &returned,
                           const TargetInfo &target, bool allowNormalization,
                           Order order)
    : target(target), allowNormalization(allowNormalization), order(order),
      returned(returned), opsInOrder(ops) {
  double launch =
      target.launchOverheadSeconds * target.bandwidthBytesPerSecond;
  launchBytes = launch >= double(std::numeric_limits<uint64_t>::max() / 2)
                    ? std::numeric_limits<uint64_t>::max() / 2
                    : static_cast<uint64_t>(std::max(launch, 0.0));
  for (Value value : returned) {
    writtenAnyway.insert(value);
    for (Operation *def = value.getDefiningOp(); def && isReshapeLike(def);
         def = def->getOperand(0).getDefiningOp())
      writtenAnyway.insert(def->getOperand(0));
  }
  groups.reserve(ops.size());
  for (auto [index, op] : llvm::enumerate(ops)) {
    opIndex[op] = index;
    groupIndex.push_back(index);
    Group &group = groups.emplace_back();
    group.ops.push_back(op);
    group.order = index;
    group.firstPosition = index;
    // Ops that not every kernel kind emits (reductions, which the pointwise
    // kind does not; scans, which only it does) shape the kernel: the
    // templates track the group from them on.
    group.pointwise = canEmitInKernel(op, SegmentKind::Pointwise) &&
                      canEmitInKernel(op, SegmentKind::Reduction) &&
                      canEmitInKernel(op, SegmentKind::Normalization);
    group.library = isa<LibraryOpInterface>(op);
    if (!group.pointwise) {
      group.templates = std::make_unique<KernelTemplateBuilder>();
      group.templates->addOp(op);
    }
    if (isa<ReductionOp>(op)) {
      group.numReductions = 1;
      group.firstReduction = index;
    }
    if (isa<SegmentSetOp>(op))
      group.segmentSets.push_back(op);
  }
  for (auto [index, op] : llvm::enumerate(ops)) {
    Group &group = groups[index];
    for (Value result : op->getResults())
      if (group.templates && leavesPair(result, index, index))
        group.templates->addOutput(result, 0);
    for (Value operand : op->getOperands()) {
      Value root = getRoot(operand);
      if (!root || !isa<TensorType>(root.getType()))
        continue;
      SmallVector<Operation *> &rootReaders = readers[root];
      if (rootReaders.empty() || rootReaders.back() != op)
        rootReaders.push_back(op);
      Operation *def = root.getDefiningOp();
      if (def == op)
        continue;
      addRead(group, root);
      if (def && opIndex.count(def)) {
        unsigned producer = opIndex.lookup(def);
        group.predecessors.insert(producer);
        groups[producer].successors.insert(index);
      }
    }
  }
}

bool SegmentGraph::Worse::operator()(const Candidate &a,
                                     const Candidate &b) const {
  if (order == Order::BySaving && a.saving != b.saving)
    return a.saving < b.saving;
  // At equal savings, the pair earlier in the program first.
  return std::tie(a.firstPosition, a.secondPosition) >
         std::tie(b.firstPosition, b.secondPosition);
}

unsigned SegmentGraph::groupOf(Operation *op) const {
  return groupIndex[opIndex.lookup(op)];
}

uint64_t SegmentGraph::bytesOf(Value value) const {
  auto [it, inserted] = bytesByType.try_emplace(value.getType(), 0);
  if (inserted) {
    ByteCount bytes = getTransferBytes(value.getType());
    it->second = bytes.overflowed ? std::numeric_limits<uint64_t>::max() / 4
                                  : bytes.bytes;
  }
  return it->second;
}

void SegmentGraph::addRead(Group &group, Value value) {
  if (group.reads.insert(value).second)
    ++group.readTypes[value.getType()];
}

void SegmentGraph::eraseRead(Group &group, Value value) {
  if (group.reads.erase(value))
    --group.readTypes[value.getType()];
}

void SegmentGraph::forEachPassed(unsigned writer, unsigned reader,
                                 llvm::function_ref<void(Value)> fn) const {
  const Group &from = groups[writer], &to = groups[reader];
  if (to.reads.size() <= from.ops.size()) {
    for (Value value : to.reads)
      if (Operation *def = value.getDefiningOp();
          def && opIndex.count(def) && groupOf(def) == writer)
        fn(value);
    return;
  }
  for (Operation *op : from.ops)
    for (Value result : op->getResults())
      if (to.reads.contains(result))
        fn(result);
}

uint64_t SegmentGraph::estimateSaving(unsigned lhs, unsigned rhs) const {
  // One launch fewer, a tensor both read is read once, and a value one
  // writes for the other is no longer read (nor written, where nobody
  // else needs it).
  uint64_t saving = launchBytes;
  const Group &a = groups[lhs], &b = groups[rhs];
  const Group &fewer = a.reads.size() <= b.reads.size() ? a : b;
  const Group &more = &fewer == &a ? b : a;
  for (Value value : fewer.reads)
    if (more.reads.contains(value))
      saving = llvm::SaturatingAdd(saving, bytesOf(value));
  auto inPair = [&](Operation *op) { return isInPair(op, lhs, rhs); };
  auto addPassed = [&](Value value) {
    saving = llvm::SaturatingAdd(saving, bytesOf(value));
    if (!returned.contains(value) && llvm::all_of(value.getUsers(), inPair))
      saving = llvm::SaturatingAdd(saving, bytesOf(value));
  };
  forEachPassed(lhs, rhs, addPassed);
  forEachPassed(rhs, lhs, addPassed);
  return saving;
}

SmallVector<InputTypeCount> SegmentGraph::getUnionInputs(unsigned lhs,
                                                         unsigned rhs) const {
  // The counts of the group that reads more, plus what the other reads
  // beyond it, less what the other writes for it.
  unsigned fewer = groups[lhs].reads.size() <= groups[rhs].reads.size()
                       ? lhs
                       : rhs;
  unsigned more = fewer == lhs ? rhs : lhs;
  llvm::SmallDenseMap<Type, int64_t, 4> counts = groups[more].readTypes;
  for (Value value : groups[fewer].reads) {
    Operation *def = value.getDefiningOp();
    if (!groups[more].reads.contains(value) && !(def && isInPair(def, lhs, rhs)))
      ++counts[value.getType()];
  }
  forEachPassed(fewer, more,
                [&](Value value) { --counts[value.getType()]; });
  // Sums and minima over the types decide the match: their order does not.
  SmallVector<InputTypeCount> inputs;
  for (auto [type, count] : counts)
    if (count > 0)
      inputs.push_back({type, count});
  return inputs;
}

void SegmentGraph::enqueue(unsigned lhsOp, unsigned rhsOp) {
  unsigned lhs = groupIndex[lhsOp], rhs = groupIndex[rhsOp];
  if (lhs == rhs || !groups[lhs].alive || !groups[rhs].alive)
    return;
  unsigned lhsPosition = groups[lhs].firstPosition;
  unsigned rhsPosition = groups[rhs].firstPosition;
  if (rhsPosition < lhsPosition) {
    std::swap(lhs, rhs);
    std::swap(lhsOp, rhsOp);
    std::swap(lhsPosition, rhsPosition);
  }
  if (isRefused(lhs, rhs))
    return;
  queue.push_back({estimateSaving(lhs, rhs), lhsPosition, rhsPosition, lhsOp,
                   rhsOp, lhs, rhs, groups[lhs].version, groups[rhs].version});
  std::push_heap(queue.begin(), queue.end(), Worse{order});
}

void SegmentGraph::enqueueNeighbours(unsigned group) {
  // Producers and consumers; siblings stay queued as pairs of ops.
  SmallVector<unsigned> neighbours;
  llvm::append_range(neighbours, groups[group].successors);
  llvm::append_range(neighbours, groups[group].predecessors);
  llvm::sort(neighbours);
  unsigned self = opIndex.lookup(groups[group].ops.front());
  for (unsigned neighbour : neighbours)
    enqueue(self, opIndex.lookup(groups[neighbour].ops.front()));
}

bool SegmentGraph::crossesSegmentSet(unsigned lhs, unsigned rhs) const {
  // Readers read the segment_set's result, or views of it (reads holds
  // the memory under views).
  for (auto [writer, reader] : {std::pair(lhs, rhs), std::pair(rhs, lhs)})
    for (Operation *segmentSet : groups[writer].segmentSets)
      if (groups[reader].reads.contains(segmentSet->getResult(0)))
        return true;
  return false;
}

ArrayRef<Operation *> SegmentGraph::sortedOps(unsigned group) {
  // Members are appended as groups merge; sorted when asked for.
  SmallVector<Operation *> &ops = groups[group].ops;
  if (!llvm::is_sorted(ops, [&](Operation *x, Operation *y) {
        return positionOf(x) < positionOf(y);
      }))
    llvm::sort(ops, [&](Operation *x, Operation *y) {
      return positionOf(x) < positionOf(y);
    });
  return ops;
}

bool SegmentGraph::isInPair(Operation *op, unsigned lhs, unsigned rhs) const {
  auto it = opIndex.find(op);
  if (it == opIndex.end())
    return false;
  unsigned group = groupIndex[it->second];
  return group == lhs || group == rhs;
}

bool SegmentGraph::leavesPair(Value value, unsigned lhs,
                              unsigned rhs) const {
  return returned.contains(value) ||
         llvm::any_of(value.getUsers(), [&](Operation *user) {
           return !isInPair(user, lhs, rhs);
         });
}

/// Whether the ops of two groups, if they hold an argsort, compute tensors
/// of its rows' shape only (up to extent-1 dims): planning views later may
/// make a kernel write any value it computes, and the sort kinds write
/// their rows only. Where they hold a top-k slice of it (getTopkSelection),
/// the selection kind writes the first k of the rows only: the ops compute
/// tensors of the slice's shape, but for the argsort and ops of the rows'
/// shape read by ops of the two groups only, none a meta op (the argsort's
/// source computed where the selection reads it, never written nor
/// viewed).
static bool keepsArgsortRows(ArrayRef<Operation *> a,
                             ArrayRef<Operation *> b) {
  auto ops = llvm::concat<Operation *const>(a, b);
  auto sort = llvm::find_if(ops, [](Operation *op) {
    return isa<ArgsortOp>(op);
  });
  if (sort == ops.end())
    return true;
  auto shapeOf = [](Operation *op) {
    return cast<ShapedType>(op->getResult(0).getType()).getShape();
  };
  ArrayRef<int64_t> rows = shapeOf(*sort);
  auto hasShape = [](Operation *op, ArrayRef<int64_t> shape) {
    return llvm::all_of(op->getResultTypes(), [&](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      return !tensor || isSameShapeUpToUnitDims(tensor.getShape(), shape);
    });
  };
  auto selection = llvm::find_if(ops, [](Operation *op) {
    auto slice = dyn_cast<SliceOp>(op);
    return slice && getTopkSelection(slice);
  });
  if (selection == ops.end())
    return llvm::all_of(ops, [&](Operation *op) { return hasShape(op, rows); });
  ArrayRef<int64_t> selected = shapeOf(*selection);
  DenseSet<Operation *> members(ops.begin(), ops.end());
  auto readInsideOnly = [&](Operation *op) {
    return llvm::all_of(op->getUsers(), [&](Operation *user) {
      return members.contains(user) && !isa<MetaOpInterface>(user);
    });
  };
  return llvm::all_of(ops, [&](Operation *op) {
    return op == *sort || hasShape(op, selected) ||
           (hasShape(op, rows) && readInsideOnly(op));
  });
}

/// Whether reshape `op` of `producer` renames a top-k slice's elements
/// other than by extent-1 dims.
static bool isTopkReshape(Operation *op, Operation *producer) {
  auto slice = dyn_cast<SliceOp>(producer);
  return slice && getTopkSelection(slice) &&
         !isSameShapeUpToUnitDims(
             cast<ShapedType>(op->getResult(0).getType()).getShape(),
             cast<ShapedType>(slice.getResult().getType()).getShape());
}

FailureOr<std::unique_ptr<KernelTemplateBuilder>>
SegmentGraph::matchUnion(unsigned lhs, unsigned rhs, bool &tooLarge) {
  Group &a = groups[lhs], &b = groups[rhs];
  if (!keepsArgsortRows(a.ops, b.ops))
    return failure();
  // A library op is a segment of its own: what fuses around it fuses in
  // the neighbouring kernels (its operands' views join it when the segment
  // is built, where they read memory that exists).
  if (a.library || b.library)
    return failure();
  // Two groups of ops the pointwise kind emits are a pointwise kernel: the
  // templates need not see them.
  if (a.pointwise && b.pointwise)
    return std::unique_ptr<KernelTemplateBuilder>();
  SmallVector<InputTypeCount> inputs = getUnionInputs(lhs, rhs);
  const Group &first = a.firstReduction != b.firstReduction
                           ? (a.firstReduction < b.firstReduction ? a : b)
                           : (a.pointwise ? b : a);
  const Group &second = &first == &a ? b : a;
  static const KernelTemplateBuilder kNoReduction;
  if (!first.templates->canBeKernelWith(
          second.templates ? *second.templates : kNoReduction, inputs, target)) {
    tooLarge = true;
    return failure();
  }
  // Grow one group's templates by the other's ops where that gives what
  // analysing the union would: the added group feeds nothing of the grown
  // one and has no reduction before the grown one's first (which decides
  // the rows), and the grown one's written values passed their test (in
  // the union they only get fewer).
  unsigned larger = a.ops.size() >= b.ops.size() ? lhs : rhs;
  unsigned smaller = larger == lhs ? rhs : lhs;
  for (auto [grown, added] :
       {std::pair(larger, smaller), std::pair(smaller, larger)}) {
    Group &into = groups[grown];
    const Group &from = groups[added];
    // The argsort and scatter rules read every written value, which a
    // group has not recorded (without templates, or grown from a singleton
    // that records its op only): such a union is analysed whole.
    if (into.predecessors.contains(added) ||
        (into.templates && into.templates->hasOutputFailure()) ||
        (from.templates && from.templates->hasRowOp()) ||
        (into.templates && into.templates->hasRowOp()) ||
        (into.numReductions && from.firstReduction < into.firstReduction &&
         !into.templates->hasSameFirstReduction(
             from.templates ? *from.templates : kNoReduction)))
      continue;
    if (!into.templates)
      into.templates = std::make_unique<KernelTemplateBuilder>();
    KernelTemplateBuilder &templates = *into.templates;
    KernelTemplateBuilder::Checkpoint checkpoint = templates.checkpoint();
    for (Operation *op : sortedOps(added))
      templates.addOp(op);
    for (Operation *op : from.ops)
      for (Value result : op->getResults())
        if (leavesPair(result, lhs, rhs))
          templates.addOutput(result, 0);
    if (templates.getTemplate(inputs, target, allowNormalization))
      return std::move(into.templates);
    templates.rollback(std::move(checkpoint));
    return failure();
  }
  KernelOps kernel;
  llvm::append_range(kernel.ops, sortedOps(lhs));
  llvm::append_range(kernel.ops, sortedOps(rhs));
  llvm::sort(kernel.ops, [&](Operation *x, Operation *y) {
    return positionOf(x) < positionOf(y);
  });
  for (Operation *op : kernel.ops)
    for (Value result : op->getResults())
      if (leavesPair(result, lhs, rhs))
        kernel.outputs.push_back(result);
  auto templates = std::make_unique<KernelTemplateBuilder>();
  templates->add(kernel);
  if (!templates->getTemplate(inputs, target, allowNormalization))
    return failure();
  return templates;
}

bool SegmentGraph::createsCycle(unsigned lhs, unsigned rhs,
                                SmallVectorImpl<unsigned> &ancestors,
                                SmallVectorImpl<unsigned> &descendants) const {
  // Every path between the two runs through groups between them in the
  // topological order: walk forward from the earlier one and backward from
  // the later one, no further.
  unsigned first = groups[lhs].order < groups[rhs].order ? lhs : rhs;
  unsigned last = first == lhs ? rhs : lhs;
  unsigned low = groups[first].order, high = groups[last].order;
  DenseSet<unsigned> visited;
  SmallVector<unsigned> worklist = {first};
  while (!worklist.empty()) {
    unsigned group = worklist.pop_back_val();
    for (unsigned successor : groups[group].successors) {
      if (successor == last) {
        if (group != first)
          return true;
        continue;
      }
      if (groups[successor].order < high && visited.insert(successor).second) {
        descendants.push_back(successor);
        worklist.push_back(successor);
      }
    }
  }
  visited.clear();
  worklist = {last};
  while (!worklist.empty()) {
    unsigned group = worklist.pop_back_val();
    for (unsigned predecessor : groups[group].predecessors) {
      if (predecessor == first)
        continue;
      if (groups[predecessor].order > low &&
          visited.insert(predecessor).second) {
        ancestors.push_back(predecessor);
        worklist.push_back(predecessor);
      }
    }
  }
  return false;
}

unsigned SegmentGraph::merge(unsigned lhs, unsigned rhs,
                             ArrayRef<unsigned> ancestors,
                             ArrayRef<unsigned> descendants) {
  // A new topological order (Pearce-Kelly): the slots of the moved groups,
  // sorted, go to the ancestors, then the merged group, then the
  // descendants, each in their old order.
  auto byOrder = [&](unsigned x, unsigned y) {
    return groups[x].order < groups[y].order;
  };
  SmallVector<unsigned> before(ancestors), after(descendants);
  llvm::sort(before, byOrder);
  llvm::sort(after, byOrder);
  SmallVector<unsigned> slots;
  for (unsigned group : llvm::concat<const unsigned>(before, after))
    slots.push_back(groups[group].order);
  slots.push_back(groups[lhs].order);
  slots.push_back(groups[rhs].order);
  llvm::sort(slots);
  for (auto [group, slot] : llvm::zip(before, slots))
    groups[group].order = slot;
  unsigned mergedOrder = slots[before.size()];
  for (auto [group, slot] :
       llvm::zip(after, ArrayRef(slots).take_back(after.size())))
    groups[group].order = slot;

  // The larger group takes the smaller one's ops.
  unsigned into = groups[lhs].ops.size() >= groups[rhs].ops.size() ? lhs : rhs;
  unsigned from = into == lhs ? rhs : lhs;
  Group &target = groups[into];
  Group &source = groups[from];
  target.order = mergedOrder;
  for (Operation *op : source.ops)
    groupIndex[opIndex.lookup(op)] = into;
  llvm::append_range(target.ops, source.ops);
  target.firstPosition = std::min(target.firstPosition, source.firstPosition);
  for (Value value : source.reads) {
    Operation *def = value.getDefiningOp();
    if (!def || !opIndex.count(def) || groupOf(def) != into)
      addRead(target, value);
  }
  for (Operation *op : source.ops)
    for (Value result : op->getResults())
      eraseRead(target, result);
  for (unsigned successor : source.successors) {
    groups[successor].predecessors.erase(from);
    if (successor != into) {
      groups[successor].predecessors.insert(into);
      target.successors.insert(successor);
    }
  }
  for (unsigned predecessor : source.predecessors) {
    groups[predecessor].successors.erase(from);
    if (predecessor != into) {
      groups[predecessor].successors.insert(into);
      target.predecessors.insert(predecessor);
    }
  }
  target.successors.erase(from);
  target.predecessors.erase(from);
  llvm::append_range(target.segmentSets, source.segmentSets);
  target.pointwise &= source.pointwise;
  target.numReductions += source.numReductions;
  target.firstReduction =
      std::min(target.firstReduction, source.firstReduction);
  ++target.version;
  target.refusals.clear();
  target.pruneRefusalsAt = kMinPruneRefusalsAt;
  source = Group();
  source.alive = false;
  return into;
}

bool SegmentGraph::isCurrent(const Refusal &record) const {
  const Group &group = groups[record.group];
  return group.alive && group.version == record.version;
}

bool SegmentGraph::isRefused(unsigned lhs, unsigned rhs) const {
  // A current record is in both groups' lists.
  if (groups[rhs].refusals.size() < groups[lhs].refusals.size())
    std::swap(lhs, rhs);
  return llvm::any_of(groups[lhs].refusals, [&](const Refusal &record) {
    return record.group == rhs && isCurrent(record);
  });
}

bool SegmentGraph::keepsUnionGrowing(unsigned added, unsigned grown,
                                     unsigned other) const {
  if (groups[added].firstReduction <
      std::min(groups[grown].firstReduction, groups[other].firstReduction))
    return false;
  bool passes = false;
  auto setPasses = [&](Value) { passes = true; };
  forEachPassed(added, grown, setPasses);
  forEachPassed(added, other, setPasses);
  return !passes;
}

void SegmentGraph::addRefusal(unsigned lhs, unsigned rhs, bool tooLarge) {
  for (auto [group, other] : {std::pair(lhs, rhs), std::pair(rhs, lhs)}) {
    Group &records = groups[group];
    records.refusals.push_back({other, groups[other].version, tooLarge});
    // Stale records (of groups merged since) go once the list doubles.
    if (records.refusals.size() < records.pruneRefusalsAt)
      continue;
    llvm::erase_if(records.refusals, [&](const Refusal &record) {
      return !isCurrent(record);
    });
    records.pruneRefusalsAt =
        std::max<unsigned>(kMinPruneRefusalsAt, 2 * records.refusals.size());
  }
}

SmallVector<unsigned> SegmentGraph::getTooLargeWithUnion(unsigned lhs,
                                                         unsigned rhs) const {
  // canBeKernelWith's answer only grows with the union's reductions and
  // inputs over fixed rows, so it carries over to a larger union.
  SmallVector<unsigned> tooLarge;
  for (auto [grown, added] : {std::pair(lhs, rhs), std::pair(rhs, lhs)})
    for (const Refusal &record : groups[grown].refusals)
      if (record.tooLarge && record.group != added && isCurrent(record) &&
          !llvm::is_contained(tooLarge, record.group) &&
          keepsUnionGrowing(added, grown, record.group))
        tooLarge.push_back(record.group);
  return tooLarge;
}

bool SegmentGraph::tryMerge(unsigned lhs, unsigned rhs, bool carryRefusals) {
  SmallVector<unsigned> ancestors, descendants;
  bool tooLarge = false;
  FailureOr<std::unique_ptr<KernelTemplateBuilder>> templates = failure();
  if (!crossesSegmentSet(lhs, rhs) &&
      !createsCycle(lhs, rhs, ancestors, descendants))
    templates = matchUnion(lhs, rhs, tooLarge);
  if (mlir::failed(templates)) {
    addRefusal(lhs, rhs, tooLarge);
    return false;
  }
  SmallVector<unsigned> carried;
  if (carryRefusals)
    carried = getTooLargeWithUnion(lhs, rhs);
  unsigned merged = merge(lhs, rhs, ancestors, descendants);
  Group &group = groups[merged];
  group.templates = std::move(*templates);
  for (unsigned other : carried)
    addRefusal(merged, other, /*tooLarge=*/true);
  enqueueNeighbours(merged);
  return true;
}

void SegmentGraph::packIndependentKernels() {
  // Kernels in program order each join the first of the most recent open
  // kernels that a template takes them with: one launch fewer.
  SmallVector<unsigned> live;
  for (auto [index, group] : llvm::enumerate(groups))
    if (group.alive)
      live.push_back(index);
  llvm::sort(live, [&](unsigned x, unsigned y) {
    return groups[x].firstPosition < groups[y].firstPosition;
  });
  SmallVector<unsigned> open;
  for (unsigned group : live) {
    if (!groups[group].alive)
      continue;
    bool merged = false;
    for (unsigned &earlier : open) {
      if (!groups[earlier].alive || isRefused(earlier, group) ||
          !tryMerge(earlier, group, /*carryRefusals=*/false))
        continue;
      earlier = groups[earlier].alive ? earlier : group;
      merged = true;
      break;
    }
    if (merged)
      continue;
    open.push_back(group);
    if (open.size() > kPackingWindow)
      open.erase(open.begin());
  }
}

void SegmentGraph::partition() {
  // A reshape of a computed value renames its elements: it joins the
  // producer first, so that it does not stand between the producer and
  // the reshape's readers as an op of its own. Not a top-k slice's
  // (getTopkSelection) reshape that is more than extent-1 dims (an MoE
  // router's topk indices flattened): it reads the slice other than
  // element by element, which would keep the slice out of its argsort's
  // kernel; alone, it becomes a view of the slice that kernel writes.
  for (auto [index, op] : llvm::enumerate(opsInOrder))
    if (isReshapeLike(op))
      if (Operation *producer = op->getOperand(0).getDefiningOp();
          producer && opIndex.contains(producer) &&
          !isTopkReshape(op, producer))
        tryMerge(groupIndex[opIndex.lookup(producer)], groupIndex[index],
                 /*carryRefusals=*/true);
  for (auto [index, group] : llvm::enumerate(groups)) {
    SmallVector<unsigned> predecessors(group.predecessors.begin(),
                                       group.predecessors.end());
    llvm::sort(predecessors);
    for (unsigned predecessor : predecessors)
      enqueue(predecessor, index);
  }
  for (auto &[root, rootReaders] : readers)
    for (auto [reader, next] :
         llvm::zip(rootReaders, ArrayRef(rootReaders).drop_front()))
      enqueue(opIndex.lookup(reader), opIndex.lookup(next));
  for (unsigned round = 0; round < kPackingRounds; ++round) {
    while (!queue.empty()) {
      std::pop_heap(queue.begin(), queue.end(), Worse{order});
      Candidate candidate = queue.back();
      queue.pop_back();
      unsigned lhs = groupIndex[candidate.lhsOp];
      unsigned rhs = groupIndex[candidate.rhsOp];
      if (lhs != candidate.lhs || rhs != candidate.rhs ||
          groups[lhs].version != candidate.lhsVersion ||
          groups[rhs].version != candidate.rhsVersion) {
        enqueue(candidate.lhsOp, candidate.rhsOp);
        continue;
      }
      tryMerge(lhs, rhs, /*carryRefusals=*/true);
    }
    unsigned before = getNumGroups();
    packIndependentKernels();
    if (getNumGroups() == before)
      break;
  }
}

std::vector<SmallVector<Operation *>> SegmentGraph::getGroups() const {
  std::vector<SmallVector<Operation *>> result;
  for (const Group &group : groups) {
    if (!group.alive)
      continue;
    SmallVector<Operation *> &ops = result.emplace_back(group.ops);
    llvm::sort(ops, [&](Operation *x, Operation *y) {
      return positionOf(x) < positionOf(y);
    });
  }
  llvm::sort(result, [&](const auto &x, const auto &y) {
    return positionOf(x.front()) < positionOf(y.front());
  });
  return result;
}

uint64_t SegmentGraph::estimateTrafficBytes() const {
  // A sum: the order of the sets does not matter.
  uint64_t bytes = 0;
  DenseSet<Value> written;
  for (const Group &group : groups) {
    if (!group.alive)
      continue;
    for (Value value : group.reads) {
      bytes = llvm::SaturatingAdd(bytes, bytesOf(value));
      Operation *def = value.getDefiningOp();
      if (def && opIndex.contains(def) && !writtenAnyway.contains(value) &&
          written.insert(value).second)
        bytes = llvm::SaturatingAdd(bytes, bytesOf(value));
    }
  }
  return bytes;
}

unsigned SegmentGraph::getNumGroups() const {
  return llvm::count_if(groups, [](const Group &group) { return group.alive; });
}
