//===- ScatterRowKernel.cpp - a thread writes each row of a scatter -------===//
//
// Pointwise schedules of a segment with a scatter (the templates give such
// a segment one scatter, whose result it writes and no op of it reads):
// each thread owns a row of the result along the scattered dim. It copies
// `self`'s row into the outputs, then takes the row of `index` (where the
// row lies inside `index`'s other extents) in order and writes `src` at
// each index read, or combines it with the element there (`reduce`, in the
// compute type, rounded at each write). Every write to an element comes
// from the row that owns it, so no two threads write one element: no
// atomics, and duplicate indices resolve in the interpreter's order (the
// later one wins, or is combined later), bit for bit. O(extent + writes)
// per row, with `self`, `index` and `src` evaluated through their
// producers. Indices out of range are skipped (reported with
// check-indices).
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

class ScatterRowKernel final : public EmitterBase {
public:
  ScatterRowKernel(OpBuilder &builder, const KernelQuery &query)
      : EmitterBase(builder, query) {}
  /// Unsplit schedules of a segment with one scatter (the templates check
  /// that it writes the scatter's result only).
  static bool matches(const KernelQuery &query) {
    return query.schedule.getSplit() == 1 &&
           getOnlyOp<ScatterOp>(query.segment);
  }

protected:
  LogicalResult emitSkeleton() override;

private:
  /// `value` (width 1) stored at `index` of every output.
  void storeOutputs(Value value, ArrayRef<Value> index);
  /// The loop over `count` positions with the builder and a new scope in
  /// its body. Returns its induction variable.
  Value emitLoop(int64_t count);
};

} // namespace

void ScatterRowKernel::storeOutputs(Value value, ArrayRef<Value> index) {
  Lanes at;
  at.base.assign(index.begin(), index.end());
  for (Value output : outputs)
    store(value, output, at);
}

Value ScatterRowKernel::emitLoop(int64_t count) {
  auto loop =
      scf::ForOp::create(b, loc, constant(0), constant(count), constant(1));
  b.setInsertionPointToStart(loop.getBody());
  pushScope();
  return loop.getInductionVar();
}

LogicalResult ScatterRowKernel::emitSkeleton() {
  ScatterOp scatter = getOnlyOp<ScatterOp>(segment);
  int64_t dim = scatter.getDim();
  ArrayRef<int64_t> shape = shapeOf(scatter.getResult());
  ArrayRef<int64_t> indexShape = shapeOf(scatter.getIndex());
  size_t depth = scopes.size();
  SmallVector<Value> row = emitRowNest(shape, dim);
  OpBuilder::InsertPoint rowBody = b.saveInsertionPoint();

  // The row of `self`.
  {
    Lanes at;
    at.base = row;
    at.base[dim] = emitLoop(shape[dim]);
    FailureOr<Value> element = eval(scatter.getSelf(), at);
    if (failed(element))
      return failure();
    storeOutputs(*element, at.base);
    popScope();
  }
  b.restoreInsertionPoint(rowBody);

  // The writes of the row of `index`, where the row lies inside its other
  // extents.
  Value inside;
  for (int64_t d = 0, e = shape.size(); d < e; ++d) {
    if (d == dim || indexShape[d] == shape[d])
      continue;
    Value test = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       row[d], constant(indexShape[d]));
    inside = inside ? arith::AndIOp::create(b, loc, inside, test) : test;
  }
  if (inside) {
    auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
    pushScope();
  }
  Lanes at;
  at.base = row;
  at.base[dim] = emitLoop(indexShape[dim]);
  FailureOr<Value> read = eval(scatter.getIndex(), at);
  if (failed(read))
    return failure();
  Value position = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                              extractLane(*read, 0));
  int64_t extent = shape[dim];
  emitIndexCheck(scatter, dim, extent, indexShape, position, at.base);
  // Unsigned: a negative index is out of range too.
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        position, constant(extent));
  auto write = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
  b.setInsertionPointToStart(write.thenBlock());
  pushScope();
  FailureOr<Value> element = eval(scatter.getSrc(), at);
  if (failed(element))
    return failure();
  SmallVector<Value> target = row;
  target[dim] = position;
  Value written = *element;
  if (std::optional<ReductionKind> reduce = scatter.getReduce()) {
    Lanes there;
    there.base = target;
    Type elementType = getElementTypeOrSelf(scatter.getType());
    Type computeType = getComputeType(elementType);
    Value combined = emitReductionCombine(
        b, loc, *reduce,
        emitCast(b, loc, loadGlobal(outputs.front(), there), computeType),
        emitCast(b, loc, written, computeType));
    written = emitCast(b, loc, combined, elementType);
  }
  storeOutputs(written, target);
  while (scopes.size() > depth)
    popScope();
  return success();
}

const KernelKind kernels::scatterRowKernel =
    makeKernelKind<ScatterRowKernel>("scatter_rows");
