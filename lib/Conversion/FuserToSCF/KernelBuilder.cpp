//===- KernelBuilder.cpp - loops, output slots and kernel kinds -----------===//
//
// The parts of kernels that several kinds share: the block and thread loops,
// the output slots a thread owns (grid-stride loops), block-wide reductions,
// the outputs computed from a reduction, and the table of kernel kinds
// through which emitKernel chooses the skeleton of a segment's schedule.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "kernels/KernelKinds.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

static gpu::ParallelLoopDimMappingAttr getMapping(MLIRContext *context,
                                                  gpu::Processor processor) {
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  return gpu::ParallelLoopDimMappingAttr::get(context, processor, identity,
                                              identity);
}

/// An scf.parallel over [0, counts[i]) mapped to `processors[i]`, with the
/// builder inside its body.
scf::ParallelOp kernels::createMappedLoop(OpBuilder &b, Location loc,
                                          ArrayRef<int64_t> counts,
                                          ArrayRef<gpu::Processor> processors,
                                          ValueRange inits) {
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

LogicalResult EmitterBase::emitOutputSlot(unsigned index, Value slot) {
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  Value result = yield.getValues()[index];
  auto type = cast<ShapedType>(result.getType());
  int64_t width = getOutputVectorWidth(schedule, type);
  return emitOutputAt(
      index, delinearize(mul(slot, constant(width)), type.getShape()), width);
}

LogicalResult EmitterBase::emitOutputAt(unsigned index, SmallVector<Value> base,
                                        int64_t width, const RowStep *rowStep) {
  // An output without elements is not written (nor referenced, as inputs
  // without elements are not).
  if (getSaturatedNumElements(outputs[index].getType()) == 0)
    return success();
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  Value result = yield.getValues()[index];
  Lanes lanes;
  lanes.width = width;
  lanes.base = std::move(base);
  if (width > 1) {
    lanes.kind = LaneKind::Unit;
    lanes.dim = lanes.base.size() - 1;
  }
  FailureOr<Value> value = eval(result, lanes, rowStep);
  if (failed(value))
    return failure();
  store(*value, outputs[index], lanes);
  return success();
}

LogicalResult EmitterBase::emitOutputsAt(ArrayRef<Value> index,
                                         ArrayRef<int64_t> shape) {
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  for (auto [i, result] : llvm::enumerate(yield.getValues())) {
    ArrayRef<int64_t> spelling = shapeOf(result);
    SmallVector<Value> at = spelling == shape
                                ? SmallVector<Value>(index)
                                : reshapeIndex(index, shape, spelling);
    if (failed(emitOutputAt(i, std::move(at), /*width=*/1)))
      return failure();
  }
  return success();
}

LogicalResult EmitterBase::emitOutputsGiven(Value value, Value element,
                                            ArrayRef<Value> index,
                                            ArrayRef<int64_t> shape) {
  Lanes at;
  at.base.assign(index.begin(), index.end());
  scopes.back().values[value].push_back({at, element});
  return emitOutputsAt(index, shape);
}

LogicalResult EmitterBase::emitOutputSlots(unsigned index, Value first,
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

FailureOr<Value> EmitterBase::emitBlockReduction(
    ReductionOp reduction, ArrayRef<Value> kept, int64_t threads, int64_t lanes,
    function_ref<LogicalResult(Value thread)> prologue) {
  Type computeType = getComputeType(getElementTypeOrSelf(reduction.getType()));
  ArrayRef<int64_t> sourceShape = shapeOf(reduction.getSource());
  ArrayRef<int64_t> dims = reduction.getDims();
  SmallVector<int64_t> reducedShape;
  for (int64_t d : dims)
    reducedShape.push_back(sourceShape[d]);

  Value identity =
      emitReductionIdentity(b, loc, reduction.getKind(), computeType);
  scf::ParallelOp threadLoop = createMappedLoop(
      b, loc, {threads}, {gpu::Processor::ThreadX}, ValueRange{identity});
  Value thread = threadLoop.getInductionVars()[0];
  if (staging)
    ++staging->loop;
  pushScope();
  if (prologue && failed(prologue(thread)))
    return failure();

  // Each thread combines `lanes` consecutive elements of the innermost
  // reduced axis at a time, striding over the block's reduced elements,
  // into `accumulators` independent partials (step j of each group of
  // `accumulators` into the j-th), so that as many dependent chains run
  // interleaved.
  int64_t reducedCount = getSaturatedNumElements(reducedShape);
  int64_t stride = threads * lanes;
  // Fewer where the groups would not divide the walk (every thread then
  // makes the same number of steps into each partial).
  int64_t accumulators = schedule.getAccumulators();
  while (accumulators > 1 && reducedCount % (stride * accumulators) != 0)
    accumulators /= 2;
  Value partialIdentity = emitReductionIdentity(b, loc, reduction.getKind(),
                                                vectorOf(computeType, lanes));
  SmallVector<Value> init = emitPartialInit(
      reduction, partialIdentity, /*split=*/threads > 1,
      /*steps=*/llvm::divideCeil(reducedCount, stride * accumulators));
  size_t carriedPerPartial = init.size();
  SmallVector<Value> inits;
  for (int64_t j = 0; j < accumulators; ++j)
    llvm::append_range(inits, init);
  auto loop = scf::ForOp::create(b, loc, mul(thread, constant(lanes)),
                                 constant(reducedCount),
                                 constant(stride * accumulators), inits);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> yielded;
    for (int64_t j = 0; j < accumulators; ++j) {
      pushScope();
      Value position = add(loop.getInductionVar(), constant(j * stride));
      SmallVector<Value> reduced = delinearize(position, reducedShape);
      Lanes at;
      at.width = lanes;
      at.base = interleaveSourceIndex(reduction, kept, reduced);
      if (lanes > 1) {
        at.kind = LaneKind::Unit;
        at.dim = dims.back();
      }
      std::optional<RowStep> rowStep;
      if (staging) {
        rowStep = RowStep{at, position};
        if (!staging->spelling.empty() &&
            ArrayRef(staging->spelling) != sourceShape) {
          rowStep->lanes.base =
              reshapeIndex(at.base, sourceShape, staging->spelling);
          if (lanes > 1)
            rowStep->lanes.dim = staging->spelling.size() - 1;
        }
      }
      FailureOr<Value> element =
          eval(reduction.getSource(), at, rowStep ? &*rowStep : nullptr);
      if (failed(element))
        return failure();
      llvm::append_range(
          yielded,
          emitPartialStep(reduction,
                          loop.getRegionIterArgs().slice(j * carriedPerPartial,
                                                         carriedPerPartial),
                          emitCast(b, loc, *element, computeType)));
      popScope();
    }
    scf::YieldOp::create(b, loc, yielded);
  }
  // The partials pairwise, then the lanes pairwise (halves of the vector):
  // chains of log2 steps rather than one step per partial and lane.
  SmallVector<Value> partials;
  for (int64_t j = 0; j < accumulators; ++j)
    partials.push_back(loop.getResult(j * carriedPerPartial));
  while (partials.size() > 1) {
    SmallVector<Value> halved;
    for (size_t j = 0; j + 1 < partials.size(); j += 2)
      halved.push_back(emitReductionCombine(b, loc, reduction.getKind(),
                                            partials[j], partials[j + 1]));
    if (partials.size() % 2)
      halved.push_back(partials.back());
    partials = std::move(halved);
  }
  Value folded = partials.front();
  int64_t width = lanes;
  for (; width % 2 == 0; width /= 2) {
    auto half = [&](int64_t offset) -> Value {
      SmallVector<int64_t> mask =
          llvm::to_vector(llvm::seq<int64_t>(offset, offset + width / 2));
      return vector::ShuffleOp::create(b, loc, folded, folded, mask);
    };
    Value low = half(0);
    Value high = half(width / 2);
    folded = emitReductionCombine(b, loc, reduction.getKind(), low, high);
  }
  Value partial = extractLane(folded, 0);
  for (int64_t lane = 1; lane < width; ++lane)
    partial = emitReductionCombine(b, loc, reduction.getKind(), partial,
                                   extractLane(folded, lane));
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

/// The most elements a split float sum's partial takes in sequence without
/// Kahan's compensation: as many as the interpreter's pairwise sum takes in
/// sequence (docs/Interpreter.md), so a short partial errs no more than the
/// reference does, and a row split into many short partials (a row of 4096
/// f32 is 2 steps of 32 threads x 16 lanes x 4 accumulators on the CPU)
/// does not pay four dependent operations per vector for nothing.
constexpr int64_t kPlainPartialSteps = 8;

SmallVector<Value> EmitterBase::emitPartialInit(ReductionOp reduction,
                                                Value identity, bool split,
                                                int64_t steps) {
  Type type = identity.getType();
  if (!split || steps <= kPlainPartialSteps ||
      reduction.getKind() != ReductionKind::Add ||
      !isa<FloatType>(getElementTypeOrSelf(type)))
    return {identity};
  return {identity,
          arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type))};
}

SmallVector<Value> EmitterBase::emitPartialStep(ReductionOp reduction,
                                                ValueRange carried,
                                                Value value) {
  if (carried.size() == 1)
    return {emitReductionCombine(b, loc, reduction.getKind(), carried.front(),
                                 value)};
  // Kahan: y = x - c; t = s + y; c = (t - s) - y. Where t is not finite the
  // compensation is meaningless (inf - inf) and restarts from 0, so that
  // infinities and NaN propagate as in a plain sum.
  Value sum = carried[0], compensation = carried[1];
  Value y = arith::SubFOp::create(b, loc, value, compensation);
  Value total = arith::AddFOp::create(b, loc, sum, y);
  Value lost = arith::SubFOp::create(
      b, loc, arith::SubFOp::create(b, loc, total, sum), y);
  // t - t is 0 exactly where t is finite (inf - inf and NaN - NaN are NaN).
  Value zero = arith::ConstantOp::create(b, loc, total.getType(),
                                         b.getZeroAttr(total.getType()));
  Value finite =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                            arith::SubFOp::create(b, loc, total, total), zero);
  return {total, arith::SelectOp::create(b, loc, finite, lost, zero)};
}

Value EmitterBase::emitBlockLoop(int64_t blocks) {
  scf::ParallelOp blockLoop =
      createMappedLoop(b, loc, {blocks}, {gpu::Processor::BlockX});
  scalarPoint =
      OpBuilder::InsertPoint(blockLoop->getBlock(), Block::iterator(blockLoop));
  pushScope();
  return blockLoop.getInductionVars()[0];
}

SmallVector<Value> EmitterBase::emitRowNest(ArrayRef<int64_t> shape,
                                            int64_t dim) {
  SmallVector<int64_t> rowShape(shape);
  rowShape[dim] = 1;
  int64_t rows = 1;
  for (int64_t size : rowShape)
    rows *= size;
  int64_t threads = std::min<int64_t>(
      kThreadsPerBlock, llvm::alignTo(std::max<int64_t>(rows, 1), kWarpSize));
  int64_t blocks = llvm::divideCeil(rows, threads);
  scf::ParallelOp nest =
      createMappedLoop(b, loc, {blocks, threads},
                       {gpu::Processor::BlockX, gpu::Processor::ThreadX});
  scalarPoint = OpBuilder::InsertPoint(nest->getBlock(), Block::iterator(nest));
  pushScope();
  Value row = add(mul(nest.getInductionVars()[0], constant(threads)),
                  nest.getInductionVars()[1]);
  if (blocks * threads != rows) {
    auto inRange = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                              constant(rows)),
        /*withElseRegion=*/false);
    b.setInsertionPointToStart(inRange.thenBlock());
    pushScope();
  }
  return delinearize(row, rowShape);
}

FailureOr<ReductionStructure> EmitterBase::analyzeSplitReduction() {
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
EmitterBase::splitExtents(ReductionOp reduction) {
  std::pair<SmallVector<int64_t>, SmallVector<int64_t>> extents;
  for (auto [d, size] : llvm::enumerate(shapeOf(reduction.getSource())))
    (llvm::is_contained(reduction.getDims(), int64_t(d)) ? extents.second
                                                         : extents.first)
        .push_back(size);
  return extents;
}

SmallVector<Value> EmitterBase::interleaveSourceIndex(ReductionOp reduction,
                                                      ArrayRef<Value> kept,
                                                      ArrayRef<Value> reduced) {
  SmallVector<Value> index;
  const Value *keptIt = kept.begin(), *reducedIt = reduced.begin();
  for (int64_t d = 0, e = shapeOf(reduction.getSource()).size(); d < e; ++d)
    index.push_back(llvm::is_contained(reduction.getDims(), d) ? *reducedIt++
                                                               : *keptIt++);
  return index;
}

LogicalResult EmitterBase::emitGridStrideOutputs(ArrayRef<unsigned> indices,
                                                 Value block, Value thread) {
  int64_t blocks = schedule.getBlocks(), threads = schedule.getThreads();
  Value slot = add(mul(block, constant(threads)), thread);
  for (unsigned i : indices)
    if (failed(emitOutputSlots(i, slot, blocks * threads)))
      return failure();
  return success();
}

LogicalResult
EmitterBase::emitOutputsBesideReduction(const ReductionStructure &structure,
                                        Value block, Value thread) {
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  SmallVector<unsigned> indices;
  for (auto [i, result] : llvm::enumerate(yield.getValues()))
    if (!structure.metaChains.count(result))
      indices.push_back(i);
  return emitGridStrideOutputs(indices, block, thread);
}

LogicalResult
EmitterBase::emitReducedOutputs(const ReductionStructure &structure,
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
      index = applyIndexMap(*getResultIndexMap(op), index);
    Lanes at;
    at.base = index;
    FailureOr<Value> value = eval(result, at);
    if (failed(value))
      return failure();
    store(*value, outputs[i], at);
  }
  return success();
}

Value EmitterBase::combineGroupPartials(ReductionOp reduction, Value buffer,
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

LogicalResult
EmitterBase::emitOutputsBesideRows(const NormalizationStructure &structure,
                                   Value block) {
  if (structure.besideRows.empty())
    return success();
  OpBuilder::InsertionGuard guard(b);
  scf::ParallelOp threadLoop = createMappedLoop(b, loc, {schedule.getThreads()},
                                                {gpu::Processor::ThreadX});
  ++staging->loop;
  staging->fill = false;
  pushScope();
  LogicalResult emitted = emitGridStrideOutputs(
      structure.besideRows, block, threadLoop.getInductionVars()[0]);
  popScope();
  return emitted;
}

SmallVector<Value> EmitterBase::bindInputs(ValueRange memrefs) {
  Block &body = segment.getBody().front();
  bindings.map(body.getArguments(), memrefs);
  SmallVector<Value> inputs;
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
  return inputs;
}

LogicalResult EmitterBase::run() {
  OpBuilder::InsertionGuard guard(b);
  pushScope();
  LogicalResult result = emitSkeleton();
  popScope();
  return result;
}

//===----------------------------------------------------------------------===//
// The kernel kinds
//===----------------------------------------------------------------------===//

/// The kinds that ScopedKernelKinds hold, latest first.
static SmallVector<KernelTableRow> &getScopedKinds() {
  static SmallVector<KernelTableRow> kinds;
  return kinds;
}

ScopedKernelKind::ScopedKernelKind(KernelTableRow row) : row(row) {
  getScopedKinds().insert(getScopedKinds().begin(), row);
}

ScopedKernelKind::~ScopedKernelKind() {
  auto &kinds = getScopedKinds();
  kinds.erase(llvm::find_if(kinds, [&](const KernelTableRow &other) {
    return other.kind == row.kind && other.scheduleKind == row.scheduleKind;
  }));
}

ArrayRef<KernelTableRow> kernels::getKernelKinds() {
  static const KernelTableRow table[] = {
      {ScheduleKind::Pointwise, &blockScanKernel},
      {ScheduleKind::Pointwise, &scanRowKernel},
      {ScheduleKind::Pointwise, &selectRowKernel},
      {ScheduleKind::Pointwise, &blockSortKernel},
      {ScheduleKind::Pointwise, &mergeSortKernel},
      {ScheduleKind::Pointwise, &sortRowKernel},
      {ScheduleKind::Pointwise, &scatterRowKernel},
      {ScheduleKind::Pointwise, &pointwiseKernel},
      {ScheduleKind::OuterReduction, &tiledSplitReductionKernel},
      {ScheduleKind::OuterReduction, &splitReductionKernel},
      {ScheduleKind::OuterReduction, &pointwiseKernel},
      {ScheduleKind::InnerReduction, &splitReductionKernel},
      {ScheduleKind::InnerReduction, &pointwiseKernel},
      {ScheduleKind::Normalization, &outerNormalizationKernel},
      {ScheduleKind::Normalization, &innerNormalizationKernel},
  };
  return table;
}

LogicalResult mlir::fuser::emitKernel(OpBuilder &builder, SegmentOp segment,
                                      ValueRange inputs, ValueRange outputs,
                                      bool checkIndices) {
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
  // A kernel without output elements launches nothing (a grid of 0 blocks
  // is not a launch: cuLaunchKernel refuses it).
  if (llvm::all_of(outputs.getTypes(), [](Type type) {
        return getSaturatedNumElements(type) == 0;
      }))
    return success();

  KernelQuery query{segment, schedule, inputs, outputs};
  query.checkIndices = checkIndices;
  std::optional<NormalizationStructure> normalization;
  if (schedule.getKind() == ScheduleKind::Normalization) {
    normalization = analyzeNormalization(segment.getBody().front());
    if (!normalization->whyNot.empty())
      return segment.emitError("a normalization schedule needs a "
                               "normalization, but ")
             << normalization->whyNot;
    query.normalization = &*normalization;
  }
  for (const KernelTableRow &row :
       llvm::concat<const KernelTableRow>(getScopedKinds(), getKernelKinds())) {
    if (row.scheduleKind != schedule.getKind() || !row.kind->matches(query))
      continue;
    std::unique_ptr<EmitterBase> kernel = row.kind->create(builder, query);
    return kernel->run();
  }
  return segment.emitError("no kernel kind emits the schedule ") << schedule;
}
