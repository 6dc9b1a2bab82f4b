//===- IndexingMaps.cpp - the operand index maps of each op ---------------===//

#include "fuser/Analysis/IndexingMaps.h"

#include "fuser/Dialect/Fuser/IR/FuserOps.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// The result rank of `op` (0 for a scalar result).
int64_t getResultRank(Operation *op) {
  auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return tensor ? tensor.getRank() : 0;
}

OperandIndexMap getWholeMap(AffineMap map) {
  OperandIndexMap result;
  result.pieces.push_back({map, IntegerSet()});
  return result;
}

/// A scalar operand, read whole at every result index.
OperandIndexMap getScalarMap(Operation *op) {
  return getWholeMap(AffineMap::get(getResultRank(op), 0, op->getContext()));
}

/// Where `lower <= d_dim < upper` of a result of `rank` dims, leaving out
/// the bounds that every index of a dim of extent `extent` meets; null
/// when none is left.
IntegerSet getBoxCondition(MLIRContext *context, int64_t rank,
                           ArrayRef<int64_t> lower, ArrayRef<int64_t> upper,
                           ArrayRef<int64_t> extent) {
  SmallVector<AffineExpr> constraints;
  for (int64_t dim = 0; dim < rank; ++dim) {
    AffineExpr d = getAffineDimExpr(dim, context);
    if (lower[dim] > 0)
      constraints.push_back(d - lower[dim]);
    if (upper[dim] < extent[dim])
      constraints.push_back(upper[dim] - 1 - d);
  }
  if (constraints.empty())
    return IntegerSet();
  return IntegerSet::get(rank, 0, constraints,
                         SmallVector<bool>(constraints.size(), false));
}

/// (d...) -> (d...) shifted by `-offsets`.
AffineMap getShiftMap(MLIRContext *context, ArrayRef<int64_t> offsets) {
  SmallVector<AffineExpr> exprs;
  for (auto [dim, offset] : llvm::enumerate(offsets))
    exprs.push_back(getAffineDimExpr(dim, context) - offset);
  return AffineMap::get(offsets.size(), 0, exprs, context);
}

/// An elementwise operand: the result index, with 0 in each dim of size 1
/// that the result broadcasts.
OperandIndexMap getElementwiseMap(Operation *op, Value operand) {
  auto tensor = dyn_cast<RankedTensorType>(operand.getType());
  if (!tensor)
    return getScalarMap(op);
  return getWholeMap(getBroadcastIndexMap(op->getContext(), tensor.getShape(),
                                          shapeOf(op->getResult(0))));
}

SmallVector<OperandIndexMap> getPadMaps(PadOp pad) {
  MLIRContext *context = pad.getContext();
  ArrayRef<int64_t> sourceShape = shapeOf(pad.getSource());
  ArrayRef<int64_t> resultShape = shapeOf(pad.getResult());
  ArrayRef<int64_t> low = pad.getLow();
  int64_t rank = resultShape.size();
  SmallVector<int64_t> upper;
  for (auto [start, size] : llvm::zip_equal(low, sourceShape))
    upper.push_back(start + size);

  OperandIndexMap source;
  source.pieces.push_back(
      {getShiftMap(context, low),
       getBoxCondition(context, rank, low, upper, resultShape)});

  // The rest of the result is the union of the slabs before and after the
  // box in each dim (a complement is no one IntegerSet): one piece each.
  OperandIndexMap value;
  AffineMap scalar = AffineMap::get(rank, 0, context);
  for (int64_t dim = 0; dim < rank; ++dim) {
    AffineExpr d = getAffineDimExpr(dim, context);
    if (low[dim] > 0)
      value.pieces.push_back(
          {scalar, IntegerSet::get(rank, 0, {low[dim] - 1 - d}, {false})});
    if (upper[dim] < resultShape[dim])
      value.pieces.push_back(
          {scalar, IntegerSet::get(rank, 0, {d - upper[dim]}, {false})});
  }
  return {source, value};
}

SmallVector<OperandIndexMap> getCatMaps(CatOp cat) {
  MLIRContext *context = cat.getContext();
  ArrayRef<int64_t> resultShape = shapeOf(cat.getResult());
  int64_t rank = resultShape.size();
  int64_t dim = cat.getDim();
  SmallVector<int64_t> lower(rank, 0);
  SmallVector<int64_t> upper(resultShape);
  SmallVector<OperandIndexMap> maps;
  for (Value input : cat.getInputs()) {
    upper[dim] = lower[dim] + shapeOf(input)[dim];
    OperandIndexMap map;
    map.pieces.push_back(
        {getShiftMap(context, lower),
         getBoxCondition(context, rank, lower, upper, resultShape)});
    maps.push_back(std::move(map));
    lower[dim] = upper[dim];
  }
  return maps;
}

SmallVector<OperandIndexMap> getReductionMaps(ReductionOp reduction) {
  MLIRContext *context = reduction.getContext();
  ArrayRef<int64_t> sourceShape = shapeOf(reduction.getSource());
  ArrayRef<int64_t> reduced = reduction.getDims();
  OperandIndexMap source;
  SmallVector<AffineExpr> exprs;
  unsigned resultDim = 0;
  for (int64_t dim = 0, rank = sourceShape.size(); dim < rank; ++dim) {
    if (!llvm::is_contained(reduced, dim)) {
      exprs.push_back(getAffineDimExpr(resultDim++, context));
      continue;
    }
    exprs.push_back(getAffineSymbolExpr(source.symbolExtents.size(), context));
    source.symbolExtents.push_back(sourceShape[dim]);
    // With keepdim the reduced dim stays in the result, always at 0.
    if (reduction.getKeepdim())
      ++resultDim;
  }
  source.pieces.push_back(
      {AffineMap::get(getResultRank(reduction), source.symbolExtents.size(),
                      exprs, context),
       IntegerSet()});
  return {source};
}

/// The source of a row op along `dim` (scan, argsort): the result index
/// with `dim` a symbol over its extent, in the piece where `condition` holds.
OperandIndexMap getRowMap(Value source, unsigned dim, IntegerSet condition) {
  MLIRContext *context = source.getContext();
  ArrayRef<int64_t> shape = shapeOf(source);
  unsigned rank = shape.size();
  SmallVector<AffineExpr> exprs;
  for (unsigned d = 0; d < rank; ++d)
    exprs.push_back(d == dim ? getAffineSymbolExpr(0, context)
                             : getAffineDimExpr(d, context));
  OperandIndexMap map;
  map.symbolExtents.push_back(shape[dim]);
  map.pieces.push_back({AffineMap::get(rank, 1, exprs, context), condition});
  return map;
}

/// Result element i reads the source along the scan dim at every s0 <= i.
SmallVector<OperandIndexMap> getScanMaps(ScanOp scan) {
  MLIRContext *context = scan.getContext();
  unsigned rank = shapeOf(scan.getSource()).size(), dim = scan.getDim();
  AffineExpr notAfter =
      getAffineDimExpr(dim, context) - getAffineSymbolExpr(0, context);
  return {getRowMap(scan.getSource(), dim,
                    IntegerSet::get(rank, 1, notAfter, {false}))};
}

/// Each result element reads the source's whole row along the sorted dim.
SmallVector<OperandIndexMap> getArgsortMaps(ArgsortOp argsort) {
  return {getRowMap(argsort.getSource(), argsort.getDim(), IntegerSet())};
}

SmallVector<OperandIndexMap> getGatherMaps(GatherOp gather) {
  MLIRContext *context = gather.getContext();
  int64_t rank = gather.getType().getRank();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  SmallVector<AffineExpr> exprs(identity.getResults());
  exprs[gather.getDim()] = getAffineSymbolExpr(0, context);
  OperandIndexMap source;
  source.pieces.push_back({AffineMap::get(rank, 1, exprs, context), {}});
  source.runtimeSymbols.push_back({/*operand=*/1, identity});
  return {source, getWholeMap(identity)};
}

/// `self` at the result index; `index` and `src` along the row of the
/// scattered dim (s0 over `index`'s extent there), where the result index
/// is inside `index`'s other extents: the rows that can write the element.
SmallVector<OperandIndexMap> getScatterMaps(ScatterOp scatter) {
  MLIRContext *context = scatter.getContext();
  ArrayRef<int64_t> indexShape = shapeOf(scatter.getIndex());
  int64_t rank = indexShape.size(), dim = scatter.getDim();
  SmallVector<AffineExpr> exprs, constraints;
  for (int64_t d = 0; d < rank; ++d) {
    exprs.push_back(d == dim ? getAffineSymbolExpr(0, context)
                             : getAffineDimExpr(d, context));
    if (d != dim)
      constraints.push_back(indexShape[d] - 1 - getAffineDimExpr(d, context));
  }
  OperandIndexMap row;
  row.symbolExtents.push_back(indexShape[dim]);
  IntegerSet inside =
      constraints.empty()
          ? IntegerSet()
          : IntegerSet::get(rank, 0, constraints,
                            SmallVector<bool>(constraints.size(), false));
  row.pieces.push_back({AffineMap::get(rank, 1, exprs, context), inside});
  return {getWholeMap(AffineMap::getMultiDimIdentityMap(rank, context)), row,
          row};
}

/// An operand of a contraction read at `exprs` (result dims and the
/// contraction symbol s0, over `k` elements).
OperandIndexMap getContractionMap(Operation *op, ArrayRef<AffineExpr> exprs,
                                  int64_t k) {
  OperandIndexMap map = getWholeMap(
      AffineMap::get(getResultRank(op), 1, exprs, op->getContext()));
  map.symbolExtents.push_back(k);
  return map;
}

/// A matmul operand's batch dims: the result's batch dims aligned from the
/// right, 0 where the operand broadcasts.
SmallVector<AffineExpr> getBatchExprs(MLIRContext *context,
                                      ArrayRef<int64_t> operandBatch,
                                      ArrayRef<int64_t> resultBatch) {
  SmallVector<AffineExpr> exprs;
  int64_t offset = resultBatch.size() - operandBatch.size();
  for (auto [dim, extent] : llvm::enumerate(operandBatch))
    exprs.push_back(extent == resultBatch[offset + dim]
                        ? getAffineDimExpr(offset + dim, context)
                        : getAffineConstantExpr(0, context));
  return exprs;
}

SmallVector<OperandIndexMap> getMatmulMaps(MatmulOp matmul) {
  MLIRContext *context = matmul.getContext();
  ArrayRef<int64_t> lhs = shapeOf(matmul.getLhs());
  ArrayRef<int64_t> rhs = shapeOf(matmul.getRhs());
  ArrayRef<int64_t> result = shapeOf(matmul.getResult());
  int64_t batchRank =
      result.size() - (lhs.size() >= 2 ? 1 : 0) - (rhs.size() >= 2 ? 1 : 0);
  ArrayRef<int64_t> resultBatch = result.take_front(batchRank);
  AffineExpr k = getAffineSymbolExpr(0, context);
  // The result's m and n dims, where the operands have them.
  int64_t nextDim = batchRank;
  SmallVector<AffineExpr> lhsExprs =
      getBatchExprs(context, lhs.drop_back(std::min<size_t>(lhs.size(), 2)),
                    resultBatch);
  if (lhs.size() >= 2)
    lhsExprs.push_back(getAffineDimExpr(nextDim++, context));
  lhsExprs.push_back(k);
  SmallVector<AffineExpr> rhsExprs =
      getBatchExprs(context, rhs.drop_back(std::min<size_t>(rhs.size(), 2)),
                    resultBatch);
  rhsExprs.push_back(k);
  if (rhs.size() >= 2)
    rhsExprs.push_back(getAffineDimExpr(nextDim, context));
  return {getContractionMap(matmul, lhsExprs, lhs.back()),
          getContractionMap(matmul, rhsExprs, lhs.back())};
}

SmallVector<OperandIndexMap> getLinearMaps(LinearOp linear) {
  MLIRContext *context = linear.getContext();
  int64_t rank = getResultRank(linear);
  int64_t k = shapeOf(linear.getInput()).back();
  AffineExpr n = getAffineDimExpr(rank - 1, context);
  AffineExpr s0 = getAffineSymbolExpr(0, context);
  SmallVector<AffineExpr> inputExprs;
  for (int64_t dim = 0; dim < rank - 1; ++dim)
    inputExprs.push_back(getAffineDimExpr(dim, context));
  inputExprs.push_back(s0);
  SmallVector<OperandIndexMap> maps = {
      getContractionMap(linear, inputExprs, k),
      getContractionMap(linear, {n, s0}, k)};
  if (linear.getBias())
    maps.push_back(getWholeMap(AffineMap::get(rank, 0, {n}, context)));
  return maps;
}

} // namespace

FailureOr<SmallVector<OperandIndexMap>>
mlir::fuser::getOperandIndexMaps(Operation *op) {
  if (auto meta = dyn_cast<MetaOpInterface>(op))
    return SmallVector<OperandIndexMap>{getWholeMap(meta.getSourceIndexMap())};
  if (isa<ElementwiseOpInterface>(op))
    return llvm::map_to_vector(op->getOperands(), [&](Value operand) {
      return getElementwiseMap(op, operand);
    });
  return llvm::TypeSwitch<Operation *, FailureOr<SmallVector<OperandIndexMap>>>(
             op)
      .Case([](PadOp pad) { return getPadMaps(pad); })
      .Case([](CatOp cat) { return getCatMaps(cat); })
      .Case([](ReductionOp reduction) { return getReductionMaps(reduction); })
      .Case([](ScanOp scan) { return getScanMaps(scan); })
      .Case([](ArgsortOp argsort) { return getArgsortMaps(argsort); })
      .Case([](FullOp full) {
        return SmallVector<OperandIndexMap>{getScalarMap(full)};
      })
      .Case([](GatherOp gather) { return getGatherMaps(gather); })
      .Case([](ScatterOp scatter) { return getScatterMaps(scatter); })
      .Case([](MatmulOp matmul) { return getMatmulMaps(matmul); })
      .Case([](LinearOp linear) { return getLinearMaps(linear); })
      .Case([](IotaOp iota) {
        return SmallVector<OperandIndexMap>{getScalarMap(iota),
                                            getScalarMap(iota)};
      })
      .Case<UniformOp, NormalOp>([](Operation *random) {
        return SmallVector<OperandIndexMap>(4, getScalarMap(random));
      })
      .Default([](Operation *) { return failure(); });
}

AffineMap mlir::fuser::getBroadcastIndexMap(MLIRContext *context,
                                            ArrayRef<int64_t> operandShape,
                                            ArrayRef<int64_t> resultShape) {
  SmallVector<AffineExpr> exprs;
  for (auto [dim, size] : llvm::enumerate(operandShape))
    exprs.push_back(size == resultShape[dim]
                        ? getAffineDimExpr(dim, context)
                        : getAffineConstantExpr(0, context));
  return AffineMap::get(resultShape.size(), 0, exprs, context);
}

FailureOr<AffineMap> mlir::fuser::getResultIndexMap(Operation *op) {
  if (!isa<ViewOp, PermuteOp, SqueezeOp, BroadcastOp, SetOp, SegmentSetOp>(op))
    return failure();
  MLIRContext *context = op->getContext();
  ArrayRef<int64_t> sourceShape = shapeOf(op->getOperand(0));
  ArrayRef<int64_t> resultShape = shapeOf(op->getResult(0));
  // A view reads row-major positions both ways.
  if (isa<ViewOp>(op))
    return getReshapeIndexMap(context, resultShape, sourceShape);
  // The others map each result dim to one source dim or to 0 (an inserted
  // or removed dim of extent 1): invert that.
  AffineMap sourceMap = cast<MetaOpInterface>(op).getSourceIndexMap();
  SmallVector<AffineExpr> exprs(resultShape.size(),
                                getAffineConstantExpr(0, context));
  for (auto [sourceDim, expr] : llvm::enumerate(sourceMap.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      exprs[dim.getPosition()] = getAffineDimExpr(sourceDim, context);
  return AffineMap::get(sourceShape.size(), 0, exprs, context);
}
