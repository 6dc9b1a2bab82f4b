//===- SegmentViews.cpp - planning views and copies -----------------------===//
//
// Phase 3 of fuser-segment (docs/Segmentation.md, "Plan views"): which
// meta ops of a kernel become views of memory written anyway, which values
// are written once for their views, and which returned views are aliases or
// copies.
//
//===----------------------------------------------------------------------===//

#include "Segmenter.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::segmentation;

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
      // and can recompute from the value (phase 4), whereas a returned
      // view would be an alias the caller copies, and a segment_set is
      // written by the kernel that computes it.
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
  sortByPosition(kernel.ops);
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
    if (wanted.contains(op) &&
        !viewedByReturnedTrees.contains(op->getResult(0)))
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

std::vector<PlannedSegment> Segmenter::planSegments() {
  // Kernels are planned as pointwise; the template that takes each one
  // decides its kind once it is materialized.
  std::vector<PlannedSegment> segments;
  for (KernelGroup &group : groups) {
    if (group.ops.empty())
      continue;
    PlannedSegment &segment = segments.emplace_back();
    segment.kind = SegmentKind::Pointwise;
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
  // first kernel that reads it (a sibling of the same input): no
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
    sortByPosition(segment.members);
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
      sortByPosition(segment.members);
    }
  }

  for (auto &[root, views] : aliases)
    viewedByAliases.insert(root);
  for (PlannedSegment &segment : segments) {
    segment.firstPosition = position.lookup(segment.members.front());
    collectInputs(segment);
  }
  // Recomputing removed edges between kernels: merge the ones now independent
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

void Segmenter::sortByPosition(SmallVectorImpl<Operation *> &ops) const {
  // Keyed once: a comparator that hashes is slow on large kernels.
  SmallVector<std::pair<unsigned, Operation *>> keyed;
  keyed.reserve(ops.size());
  for (Operation *op : ops)
    keyed.push_back({position.lookup(op), op});
  llvm::sort(keyed, llvm::less_first());
  llvm::copy(llvm::make_second_range(keyed), ops.begin());
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
  // Partitioning wrote a value for its views before recomputing chose
  // what each kernel reads; where now only an alias reads the value, and
  // its views hold fewer bytes (a `slice`), the kernel writes the views
  // instead of the value, as a copy kernel joins the kernel that computes
  // what it copies (a `segment_set` on the way included).
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
    // writes anyway (recomputing chose to read that one), the alias views that
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
      sortByPosition(alias.opsToClone);
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
    if (!isOneKernel(kernel, alias))
      continue;
    kernel.members.append(alias.members.begin(), alias.members.end());
    sortByPosition(kernel.members);
    for (Operation *op : alias.opsToClone)
      if (!llvm::is_contained(kernel.opsToClone, op))
        kernel.opsToClone.push_back(op);
    sortByPosition(kernel.opsToClone);
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
  // View planning once more, on the planned kernels: recomputing can make
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
    // The kernel's members, gathered when a returned meta op needs them
    // (again after a peel).
    DenseSet<Operation *> members;
    for (Value output : outputs) {
      PlannedSegment &segment = segments[index];
      if (!returned.contains(output) ||
          !isa_and_present<MetaOpInterface>(output.getDefiningOp()) ||
          llvm::any_of(output.getUsers(),
                       [&](Operation *user) { return user != returnOp; }))
        continue;
      if (members.empty())
        members.insert_range(segment.members);
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
      members.clear();
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
