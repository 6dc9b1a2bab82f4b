//===- OuterNormalizationKernel.cpp - column blocks of an outer normalization
//---===//
//
// Outer normalizations (the innermost axis kept): a block per threads /
// split consecutive columns, split thread groups sharing each column's
// reduced elements (docs/Lowering.md, "Outer normalizations"). The column
// block of each input of the source shape is staged in workgroup memory
// (RowStaging), and so is a column's element of each input broadcast along
// the reduced axes (ColumnStage).
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Conversion/Utils/WorkgroupBuffer.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

class OuterNormalizationKernel final : public EmitterBase {
public:
  OuterNormalizationKernel(OpBuilder &builder, const KernelQuery &query)
      : EmitterBase(builder, query, &rows), structure(*query.normalization) {}
  static bool matches(const KernelQuery &query) {
    return query.normalization->outer;
  }

protected:
  LogicalResult emitSkeleton() override;

private:
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

  const NormalizationStructure structure;
  RowStaging rows;
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

} // namespace

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

LogicalResult OuterNormalizationKernel::emitColumnLoop(
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
  if (rows.loop >= 0)
    gpu::BarrierOp::create(b, loc);
  ++rows.loop;
  Value thread = threadLoop.getInductionVars()[0];
  pushScope();
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
    if (stage.filledBy == rows.loop)
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
      at = mapLanes(
          getBroadcastIndexMap(b.getContext(), type.getShape(), sourceShape),
          type.getShape(), column);
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
    if (stage->second.filledBy < rows.loop) {
      scopes.back().values[argument].push_back(
          {at, splat(memref::LoadOp::create(b, loc, staged, lane), at.width)});
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

LogicalResult OuterNormalizationKernel::emitSkeleton() {
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
    RowStage &stage = rows.stages[bindings.lookup(input)];
    stage.buffer =
        createWorkgroupBuffer(b, loc, module, "__fuser_columns",
                              {reducedCount * tile}, memref.getElementType());
  }

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
      failed(emitColumnLoop(
          structure, block, 0, partials, {},
          [](Value, Value, Value, ArrayRef<Value>) { return success(); })))
    return failure();
  // The loop over a thread's reduced elements r = group, group + groups,
  // ... of its column; the element's staged copy is at r * tile + lane.
  // `step` runs at each element, a step of the walk over the staged rows.
  auto forEachElement =
      [&](Value group, Value lane, ArrayRef<Value> kept, ValueRange inits,
          function_ref<FailureOr<Value>(const RowStep &rowStep, Value acc)>
              step) -> FailureOr<scf::ForOp> {
    auto loop = scf::ForOp::create(b, loc, group, constant(reducedCount),
                                   constant(groups), inits);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    pushScope();
    Value r = loop.getInductionVar();
    Lanes at;
    at.base = interleaveSourceIndex(first, kept, delinearize(r, reducedShape));
    RowStep rowStep{at, add(mul(r, constant(tile)), lane)};
    FailureOr<Value> next = step(
        rowStep, inits.empty() ? Value() : loop.getRegionIterArgs().front());
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
  rows.fill = true;
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
                  [&](const RowStep &rowStep, Value acc) -> FailureOr<Value> {
                    Lanes at;
                    at.base = rowStep.lanes.base;
                    FailureOr<Value> element =
                        eval(reduction.getSource(), at, &rowStep);
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
  rows.fill = false;
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
          ArrayRef<int64_t> shape = shapeOf(result);
          if (isRowOutput(shape)) {
            if (failed(forEachElement(
                    group, lane, kept, {},
                    [&](const RowStep &rowStep, Value) -> FailureOr<Value> {
                      ArrayRef<Value> index = rowStep.lanes.base;
                      if (failed(emitOutputAt(
                              i,
                              shape == sourceShape
                                  ? SmallVector<Value>(index)
                                  : reshapeIndex(index, sourceShape, shape),
                              /*width=*/1, &rowStep)))
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
          LogicalResult stored = emitOutputAt(
              i, reshapeIndex(kept, keptShape, shape), /*width=*/1);
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

const KernelKind kernels::outerNormalizationKernel =
    makeKernelKind<OuterNormalizationKernel>("outer normalization");
