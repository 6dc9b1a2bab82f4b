//===- SegmentRecompute.cpp - recomputing values in readers ---------------===//
//
// Phase 4 of fuser-segment (docs/Segmentation.md, "Replicate"): what each
// planned segment reads, recomputing cheap values of other kernels from
// what it reads anyway, and the kernels that this made independent merged.
//
//===----------------------------------------------------------------------===//

#include "Segmenter.h"
#include "fuser/Analysis/KernelTemplates.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <functional>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::segmentation;

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
  // only where that is indexing and arithmetic (an allow-list,
  // isRecomputableInKernel: not a reduction, not a segment_set, whose result
  // is written, never recomputed), and not a value the segment reads
  // through a segment_set.
  // What reading a value adds: nothing where the segment reads it anyway;
  // its bytes where it is written anyway (a fusion input, a fusion result a
  // kernel writes); else also the bytes of writing it.
  auto isWrittenAnyway = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return !def || returned.contains(v) ||
           viewedByAliases.contains(v) ||
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
    // A segment_set of memory written anyway is a view of it: the memory
    // under it is read as it is, never recomputed.
    if (isa<SegmentSetOp>(def) && roles.lookup(def) == OpRole::View) {
      Value root = getViewRoot(result);
      SetVector<Value> sources;
      sources.insert(root);
      noteRead(root, nullptr);
      return sources;
    }
    // Recomputed only where the kernel templates list the op as cheap and
    // emittable (isRecomputableInKernel: elementwise, meta but segment_set,
    // pad, cat, full); reductions and ops no kernel kind lists are read.
    if (!isRecomputableInKernel(def))
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
        // the segment_set, whichever use came first.
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
  sortByPosition(segment.opsToClone);
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
  // Packing once more, on the planned kernels: recomputing removes edges
  // between kernels that partitioning had to respect (a value preseg's CSE
  // shares, which each reader now recomputes), so kernels it kept apart may
  // now be independent. Two kernels that neither reaches through the
  // others' inputs share one where a template takes the union, those that
  // read a common tensor first (it is then read once).
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
        // The walk over at most a few kernels' inputs before the templates'
        // test, which costs what the two kernels hold.
        if (reaches(earlier, later) || reaches(later, earlier) ||
            !isOneKernel(into, from))
          continue;
        for (Operation *member : from.members)
          segmentOf[member] = earlier;
        into.members.append(from.members.begin(), from.members.end());
        sortByPosition(into.members);
        collectInputs(into);
        from = PlannedSegment();
        break;
      }
    }
  llvm::erase_if(segments, [](const PlannedSegment &segment) {
    return segment.members.empty();
  });
}
