//===- SortRowKernel.cpp - a thread ranks each row of an argsort ----------===//
//
// Pointwise schedules of a segment with an argsort (the templates give such
// a segment one argsort and only outputs of its shape): each thread takes a
// row along the sorted dim and, for each element j, counts the elements
// ordered before it (before in the order, or equal and earlier: the stable
// rank), then computes every output at the rank's position from j (the
// argsort's value bound there). O(extent^2) comparisons per row, with the
// source evaluated at each; a block-wide sort in shared memory (bitonic or
// radix) is later work. The ranks are exact, so the results are the
// interpreter's bit for bit.
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

class SortRowKernel final : public EmitterBase {
public:
  SortRowKernel(OpBuilder &builder, const KernelQuery &query)
      : EmitterBase(builder, query) {}
  /// Unsplit schedules of a segment with one argsort and only outputs of
  /// its shape.
  static bool matches(const KernelQuery &query) {
    return matchesRowsOf<ArgsortOp>(query);
  }

protected:
  LogicalResult emitSkeleton() override;
};

} // namespace

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
  ArgsortOp sort = getOnlyOp<ArgsortOp>(segment);
  int64_t dim = sort.getDim();
  int64_t extent = shapeOf(sort.getResult())[dim];
  size_t depth = scopes.size();
  SmallVector<Value> index = emitRowNest(shapeOf(sort.getResult()), dim);
  Type computeType =
      getComputeType(getElementTypeOrSelf(sort.getSource().getType()));
  // The row's element at `position` along the sorted dim, as a scalar of
  // the compute type.
  auto elementAt = [&](Value position) -> FailureOr<Value> {
    Lanes at;
    at.base = index;
    at.base[dim] = position;
    FailureOr<Value> element = eval(sort.getSource(), at);
    if (failed(element))
      return failure();
    return extractLane(emitCast(b, loc, *element, computeType), 0);
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
  SmallVector<Value> ranked = index;
  // An extent-1 row has rank 0, spelled as delinearize spells unit dims
  // (constant 0): meta ops of the argsort read it at that index.
  ranked[dim] = extent == 1 ? constant(0) : count.getResult(0);
  Value position = arith::IndexCastOp::create(b, loc, b.getI64Type(), j);
  if (failed(emitOutputsGiven(sort.getResult(), splat(position, 1), ranked,
                              shapeOf(sort.getResult()))))
    return failure();
  while (scopes.size() > depth)
    popScope();
  return success();
}

const KernelKind kernels::sortRowKernel =
    makeKernelKind<SortRowKernel>("sort_rows");
