//===- InnerNormalizationKernel.cpp - a block per row of a normalization
//----===//
//
// Inner normalizations (the reduced axes innermost): each block walks its
// rows one after another, its threads combining each reduction of the row
// block-wide, the row's inputs staged in workgroup memory (RowStaging),
// then writing the row's outputs from the reduced values.
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Conversion/Utils/WorkgroupBuffer.h"
#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

class InnerNormalizationKernel final : public EmitterBase {
public:
  InnerNormalizationKernel(OpBuilder &builder, const KernelQuery &query)
      : EmitterBase(builder, query, &rows), structure(*query.normalization),
        rows(structure.sourceShape.size() - structure.dims.size(),
             structure.sourceShape) {}
  static bool matches(const KernelQuery &query) {
    return !query.normalization->outer;
  }

protected:
  LogicalResult emitSkeleton() override;

private:
  const NormalizationStructure structure;
  RowStaging rows;
};

} // namespace

LogicalResult InnerNormalizationKernel::emitSkeleton() {
  Block &body = segment.getBody().front();
  if (schedule.getSplit() != schedule.getThreads())
    return segment.emitError("an inner normalization schedule shares each "
                             "row among all threads of its block: split "
                             "must equal threads, got split = ")
           << schedule.getSplit() << ", threads = " << schedule.getThreads();
  int64_t blocks = schedule.getBlocks(), threads = schedule.getThreads();
  int64_t lanes = schedule.getVector();
  if (structure.rows % blocks != 0)
    return segment.emitError("a normalization schedule needs a whole number "
                             "of rows per block (")
           << structure.rows << " rows), got " << blocks << " blocks";
  int64_t rowsPerBlock = structure.rows / blocks;
  ArrayRef<int64_t> sourceShape = structure.sourceShape;
  int64_t innermost = sourceShape.empty() ? 1 : sourceShape.back();
  if (innermost % lanes != 0)
    return segment.emitError("the vector width ")
           << lanes << " does not divide the innermost extent " << innermost
           << " along which every reduction walks the row";
  int64_t outer = sourceShape.size() - structure.dims.size();
  ArrayRef<int64_t> keptShape = sourceShape.take_front(outer);
  ArrayRef<int64_t> rowShape = sourceShape.drop_front(outer);
  SmallVector<int64_t> keepdimShape(keptShape);
  keepdimShape.append(structure.dims.size(), 1);

  Value block = emitBlockLoop(blocks);

  // Inputs of the rows' shape are staged in shared memory (budgeted by
  // fuser-segment), and with several rows per block so are inputs broadcast
  // along the rows; i1 is not (no vector accesses of i1).
  auto module = segment->getParentOfType<ModuleOp>();
  for (Value input : inputs) {
    auto memref = dyn_cast<MemRefType>(bindings.lookup(input).getType());
    if (!memref || memref.getElementType().isInteger(1) ||
        getSaturatedNumElements(memref) == 0)
      continue;
    bool perRow = memref.getShape() == sourceShape;
    if (!perRow && (rowsPerBlock == 1 || memref.getShape() != rowShape))
      continue;
    memref::GlobalOp buffer = createWorkgroupBuffer(
        b, loc, module, "__fuser_row", {structure.rowElements},
        memref.getElementType(), /*alignment=*/16);
    RowStage &stage = rows.stages[bindings.lookup(input)];
    stage.buffer = buffer;
    stage.perRow = perRow;
  }

  // A later reduction's source that the row's outputs read too and that
  // costs more to compute than to load (a transcendental function:
  // softmax's exp) is staged as well, where shared memory allows: the
  // output pass loads it instead of computing it again.
  int64_t combines = structure.reductions.size();
  int64_t budgetLeft = kNormalizationRowBudgetBytes - structure.sharedBytes -
                       (2 * rowsPerBlock - 1) * 128 * combines;
  bool sameSpelling = rows.spelling.empty() ||
                      ArrayRef<int64_t>(rows.spelling) == sourceShape;
  for (ReductionOp reduction : structure.reductions) {
    Value source = reduction.getSource();
    Operation *def = source.getDefiningOp();
    Type elementType = getElementTypeOrSelf(source.getType());
    if (!sameSpelling || !def || !isTranscendentalOp(def) ||
        !isa<Float32Type, Float64Type>(elementType) ||
        shapeOf(source) != sourceShape || rows.stages.count(source) ||
        llvm::all_of(source.getUsers(),
                     [](Operation *user) { return isa<ReductionOp>(user); }))
      continue;
    int64_t bytes =
        structure.rowElements * *getElementByteWidth(elementType);
    if (bytes > budgetLeft)
      continue;
    budgetLeft -= bytes;
    RowStage &stage = rows.stages[source];
    stage.buffer =
        createWorkgroupBuffer(b, loc, module, "__fuser_row",
                              {structure.rowElements}, elementType,
                              /*alignment=*/16);
  }

  // The block's rows one after another, each reusing the row buffers (each
  // thread reads back only what it stored, so no barrier between rows).
  auto yield = cast<YieldOp>(body.getTerminator());
  for (int64_t r = 0; r < rowsPerBlock; ++r) {
    SmallVector<Value> kept = delinearize(
        add(mul(block, constant(rowsPerBlock)), constant(r)), keptShape);
    for (auto &entry : rows.stages)
      if (entry.second.perRow)
        entry.second.filledBy = -1;
    rows.fill = true;

    // One block-wide combine per reduction, in program order: a later
    // reduction reads the earlier ones' values (softmax's max, LayerNorm's
    // mean).
    for (ReductionOp reduction : structure.reductions) {
      FailureOr<Value> combined =
          emitBlockReduction(reduction, kept, threads, lanes, nullptr);
      if (failed(combined))
        return failure();
      reducedValues[reduction] = emitCast(
          b, loc, *combined, getElementTypeOrSelf(reduction.getType()));
    }

    // Then the row's outputs, from the reduced values: the threads stride
    // over the row as in the reductions; outputs of reduced rows are written
    // by thread 0.
    OpBuilder::InsertionGuard rowGuard(b);
    scf::ParallelOp threadLoop =
        createMappedLoop(b, loc, {threads}, {gpu::Processor::ThreadX});
    Value thread = threadLoop.getInductionVars()[0];
    ++rows.loop;
    rows.fill = r + 1 < rowsPerBlock;
    pushScope();
    for (auto [i, result] : llvm::enumerate(yield.getValues())) {
      if (llvm::is_contained(structure.besideRows, i))
        continue;
      auto type = cast<ShapedType>(result.getType());
      ArrayRef<int64_t> shape = type.getShape();
      OpBuilder::InsertionGuard guard(b);
      // A row, or one with extent-1 axes dropped (analyzeNormalization)
      // that is not a reduced row: its index maps from the row's, and its
      // elements are computed apart from the row's staged walk.
      bool exactRow = shape == sourceShape;
      if (exactRow || (shape != keptShape && shape != ArrayRef(keepdimShape) &&
                       isSameShapeUpToUnitDims(shape, sourceShape))) {
        // At most the schedule's vector, which divides the innermost extent
        // of the row; a result whose innermost extent is not 1 shares that
        // axis with the row.
        int64_t width = getOutputVectorWidth(schedule, type);
        auto loop = scf::ForOp::create(b, loc, mul(thread, constant(width)),
                                       constant(structure.rowElements),
                                       constant(threads * width));
        b.setInsertionPointToStart(loop.getBody());
        pushScope();
        SmallVector<Value> index(kept);
        llvm::append_range(index,
                           delinearize(loop.getInductionVar(), rowShape));
        // The row is walked as in the reductions when the widths agree; a
        // row written in another spelling reads the staged rows too, at the
        // row's index, and is written at that index mapped to its axes.
        std::optional<RowStep> rowStep;
        if (width == lanes || !exactRow) {
          rowStep = RowStep{Lanes(), loop.getInductionVar()};
          rowStep->lanes.width = width;
          rowStep->lanes.base = index;
          if (width > 1) {
            rowStep->lanes.kind = LaneKind::Unit;
            rowStep->lanes.dim = index.size() - 1;
          }
        }
        if (!exactRow)
          index = reshapeIndex(index, sourceShape, shape);
        LogicalResult emitted =
            emitOutputAt(i, index, width, rowStep ? &*rowStep : nullptr);
        if (failed(emitted))
          return failure();
        popScope();
        continue;
      }
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          thread, constant(0));
      auto ifOp = scf::IfOp::create(b, loc, first, /*withElse=*/false);
      b.setInsertionPointToStart(ifOp.thenBlock());
      pushScope();
      // A reduced row in any spelling of extent-1 axes, the reduced dims
      // kept as 1 included (analyzeNormalization).
      if (failed(emitOutputAt(i, reshapeIndex(kept, keptShape, shape),
                              /*width=*/1)))
        return failure();
      popScope();
    }
    popScope();
  }
  if (failed(emitOutputsBesideRows(structure, block)))
    return failure();
  popScope();
  return success();
}

const KernelKind kernels::innerNormalizationKernel =
    makeKernelKind<InnerNormalizationKernel>("inner normalization");
