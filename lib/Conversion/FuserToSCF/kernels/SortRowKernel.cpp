//===- SortRowKernel.cpp - a thread ranks each row of an argsort ----------===//
//
// The sort kinds' segments (SortedRows: one argsort, read whole or through
// top-k slices, and only outputs of the shape read) that no block kind
// takes: rows shorter than BlockSortKernel's. Each thread takes a row along
// the sorted dim and, for each element j, counts the elements ordered
// before it (before in the order, or equal and earlier: the stable rank),
// then computes every output at the rank's position from j (the argsort's
// value bound there) where the outputs hold that rank. O(extent^2)
// comparisons per row, with the source evaluated at each. The ranks are
// exact, so the results are the interpreter's bit for bit.
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

class SortRowKernel final : public BlockRowEmitter {
public:
  SortRowKernel(OpBuilder &builder, const KernelQuery &query)
      : BlockRowEmitter(builder, query), rows(*SortedRows::get(query)) {}
  static bool matches(const KernelQuery &query) {
    return SortedRows::get(query).has_value();
  }

protected:
  LogicalResult emitSkeleton() override;

private:
  const SortedRows rows;
};

} // namespace

std::optional<SortedRows> SortedRows::get(const KernelQuery &query) {
  if (query.schedule.getSplit() != 1)
    return std::nullopt;
  auto sort = getOnlyOp<ArgsortOp>(query.segment);
  if (!sort)
    return std::nullopt;
  SortedRows rows;
  rows.sort = sort;
  rows.dim = sort.getDim();
  rows.extent = shapeOf(sort.getResult())[rows.dim];
  rows.keyType =
      getComputeType(getElementTypeOrSelf(sort.getSource().getType()));
  // Every user a top-k slice, all of one shape: the first k of the rows.
  for (Operation *user : sort->getUsers()) {
    auto slice = dyn_cast<SliceOp>(user);
    if (!slice || !getTopkSelection(slice) ||
        (!rows.slices.empty() && shapeOf(slice.getResult()) !=
                                     shapeOf(rows.slices.front().getResult())))
    {
      rows.slices.clear();
      break;
    }
    rows.slices.push_back(slice);
  }
  ArrayRef<int64_t> written = rows.slices.empty()
                                  ? shapeOf(sort.getResult())
                                  : shapeOf(rows.slices.front().getResult());
  rows.writtenShape.assign(written.begin(), written.end());
  rows.ranks = rows.writtenShape[rows.dim];
  SegmentOp segment = query.segment;
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  if (!llvm::all_of(yield.getValues().getTypes(), [&](Type type) {
        return isSameShapeUpToUnitDims(cast<ShapedType>(type).getShape(),
                                       written);
      }))
    return std::nullopt;
  return rows;
}

std::pair<Value, Value> kernels::emitSortOrder(OpBuilder &b, Location loc,
                                               Value x, Value y,
                                               bool descending) {
  if (isa<IntegerType>(x.getType())) {
    auto predicate =
        descending ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt;
    return {arith::CmpIOp::create(b, loc, predicate, x, y),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y)};
  }
  auto cmp = [&](arith::CmpFPredicate predicate, Value lhs,
                 Value rhs) -> Value {
    return arith::CmpFOp::create(b, loc, predicate, lhs, rhs);
  };
  Value xNaN = cmp(arith::CmpFPredicate::UNO, x, x);
  Value yNaN = cmp(arith::CmpFPredicate::UNO, y, y);
  Value ordered = cmp(descending ? arith::CmpFPredicate::OGT
                                 : arith::CmpFPredicate::OLT,
                      x, y);
  // NaN is above every number: first descending, last ascending.
  Value one = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  auto andNot = [&](Value p, Value q) -> Value {
    return arith::AndIOp::create(b, loc, p,
                                 arith::XOrIOp::create(b, loc, q, one));
  };
  Value nanFirst = descending ? andNot(xNaN, yNaN) : andNot(yNaN, xNaN);
  Value before = arith::OrIOp::create(b, loc, ordered, nanFirst);
  Value equal =
      arith::OrIOp::create(b, loc, cmp(arith::CmpFPredicate::OEQ, x, y),
                           arith::AndIOp::create(b, loc, xNaN, yNaN));
  return {before, equal};
}

LogicalResult SortRowKernel::emitSkeleton() {
  ArgsortOp sort = rows.sort;
  int64_t dim = rows.dim, extent = rows.extent;
  size_t depth = scopes.size();
  SmallVector<Value> index = emitRowNest(rows.writtenShape, dim);
  // The row's element at `position` along the sorted dim, as a scalar of
  // the compute type.
  auto elementAt = [&](Value position) -> FailureOr<Value> {
    Lanes at;
    at.base = index;
    at.base[dim] = position;
    FailureOr<Value> element = eval(sort.getSource(), at);
    if (failed(element))
      return failure();
    return extractLane(emitCast(b, loc, *element, rows.keyType), 0);
  };

  auto outer = scf::ForOp::create(b, loc, constant(0), constant(extent),
                                  constant(1));
  b.setInsertionPointToStart(outer.getBody());
  pushScope();
  Value j = outer.getInductionVar();
  FailureOr<Value> xj = elementAt(j);
  if (failed(xj))
    return failure();
  auto count = scf::ForOp::create(b, loc, constant(0), constant(extent),
                                  constant(1), ValueRange{constant(0)});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(count.getBody());
    pushScope();
    Value k = count.getInductionVar();
    FailureOr<Value> xk = elementAt(k);
    if (failed(xk))
      return failure();
    auto [before, equal] = emitSortOrder(b, loc, *xk, *xj, sort.getDescending());
    Value earlier =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, k, j);
    Value counts = arith::OrIOp::create(
        b, loc, before, arith::AndIOp::create(b, loc, equal, earlier));
    Value rank = count.getRegionIterArgs().front();
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::SelectOp::create(b, loc, counts,
                                           add(rank, constant(1)), rank)
                       .getResult()});
    popScope();
  }
  Value position = arith::IndexCastOp::create(b, loc, b.getI64Type(), j);
  if (failed(emitRankedOutputs(rows, index, count.getResult(0), position,
                               /*anyRank=*/true)))
    return failure();
  while (scopes.size() > depth)
    popScope();
  return success();
}

const KernelKind kernels::sortRowKernel =
    makeKernelKind<SortRowKernel>("sort_rows");
