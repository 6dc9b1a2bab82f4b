//===- IndexMaps.cpp - the source index map of each meta op ---------------===//
//
// MetaOpInterface::getSourceIndexMap for every meta op: the source index
// that a result index copies, as an AffineMap over the static shapes. This is
// the one statement of the meta ops' index semantics (docs/IndexMaps.md);
// StridedView::applyMetaOp states the same as a layout and a unit test ties
// the two (unittests/Dialect/Fuser/IndexMapsTest.cpp).
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/FuserOps.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::fuser;

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// The map from `resultRank` dims to `sourceExprs`.
static AffineMap getMap(MLIRContext *context, int64_t resultRank,
                        ArrayRef<AffineExpr> sourceExprs) {
  return AffineMap::get(resultRank, /*symbolCount=*/0, sourceExprs, context);
}

/// Row-major reinterpretation: delinearize(linearize(index, to), from), split
/// into the runs of dims whose element counts agree, so that each source dim
/// is a floordiv/mod of the result dims of its run only. Size-1 source dims
/// read 0 and size-1 result dims drop out. An empty tensor has no index, so
/// its map is the constant 0 in every source dim.
AffineMap mlir::fuser::getReshapeIndexMap(MLIRContext *context,
                                          ArrayRef<int64_t> from,
                                          ArrayRef<int64_t> to) {
  SmallVector<AffineExpr> exprs(from.size(), getAffineConstantExpr(0, context));
  if (llvm::is_contained(from, 0) || llvm::is_contained(to, 0))
    return getMap(context, to.size(), exprs);
  SmallVector<int64_t> sourceDims, resultDims;
  for (auto [dim, size] : llvm::enumerate(from))
    if (size != 1)
      sourceDims.push_back(dim);
  for (auto [dim, size] : llvm::enumerate(to))
    if (size != 1)
      resultDims.push_back(dim);
  // Every remaining extent is at least 2, so the element counts of the
  // leading runs grow strictly and meet exactly at the run boundaries.
  size_t s = 0, r = 0;
  while (s < sourceDims.size()) {
    size_t sourceBegin = s, resultBegin = r;
    int64_t sourceCount = from[sourceDims[s++]];
    int64_t resultCount = to[resultDims[r++]];
    while (sourceCount != resultCount) {
      if (sourceCount < resultCount)
        sourceCount *= from[sourceDims[s++]];
      else
        resultCount *= to[resultDims[r++]];
    }
    AffineExpr linear = getAffineConstantExpr(0, context);
    for (size_t i = resultBegin; i < r; ++i)
      linear =
          linear * to[resultDims[i]] + getAffineDimExpr(resultDims[i], context);
    int64_t stride = sourceCount;
    for (size_t i = sourceBegin; i < s; ++i) {
      int64_t size = from[sourceDims[i]];
      stride /= size;
      AffineExpr expr = linear.floorDiv(stride);
      exprs[sourceDims[i]] = i == sourceBegin ? expr : expr % size;
    }
  }
  return getMap(context, to.size(), exprs);
}

AffineMap ViewOp::getSourceIndexMap() {
  return getReshapeIndexMap(getContext(), shapeOf(getSource()),
                            shapeOf(getResult()));
}

AffineMap SqueezeOp::getSourceIndexMap() {
  SmallVector<AffineExpr> exprs;
  unsigned resultDim = 0;
  for (int64_t dim = 0, rank = shapeOf(getSource()).size(); dim < rank; ++dim)
    exprs.push_back(llvm::is_contained(getDims(), dim)
                        ? getAffineConstantExpr(0, getContext())
                        : getAffineDimExpr(resultDim++, getContext()));
  return getMap(getContext(), shapeOf(getResult()).size(), exprs);
}

AffineMap BroadcastOp::getSourceIndexMap() {
  SmallVector<AffineExpr> exprs;
  int64_t rank = shapeOf(getResult()).size();
  for (int64_t dim = 0; dim < rank; ++dim)
    if (!llvm::is_contained(getDims(), dim))
      exprs.push_back(getAffineDimExpr(dim, getContext()));
  return getMap(getContext(), rank, exprs);
}

AffineMap ExpandOp::getSourceIndexMap() {
  SmallVector<AffineExpr> exprs;
  for (auto [dim, sizes] : llvm::enumerate(
           llvm::zip_equal(shapeOf(getSource()), shapeOf(getResult())))) {
    auto [sourceSize, resultSize] = sizes;
    exprs.push_back(sourceSize == resultSize
                        ? getAffineDimExpr(dim, getContext())
                        : getAffineConstantExpr(0, getContext()));
  }
  return getMap(getContext(), exprs.size(), exprs);
}

AffineMap SetOp::getSourceIndexMap() {
  return AffineMap::getMultiDimIdentityMap(shapeOf(getResult()).size(),
                                           getContext());
}

AffineMap SegmentSetOp::getSourceIndexMap() {
  return AffineMap::getMultiDimIdentityMap(shapeOf(getResult()).size(),
                                           getContext());
}

AffineMap PermuteOp::getSourceIndexMap() {
  ArrayRef<int64_t> permutation = getPermutation();
  SmallVector<AffineExpr> exprs(permutation.size());
  for (auto [resultDim, sourceDim] : llvm::enumerate(permutation))
    exprs[sourceDim] = getAffineDimExpr(resultDim, getContext());
  return getMap(getContext(), permutation.size(), exprs);
}

AffineMap SliceOp::getSourceIndexMap() {
  SmallVector<AffineExpr> exprs;
  for (auto [dim, start, stride] : llvm::enumerate(getStarts(), getStrides()))
    exprs.push_back(start + getAffineDimExpr(dim, getContext()) * stride);
  return getMap(getContext(), exprs.size(), exprs);
}
