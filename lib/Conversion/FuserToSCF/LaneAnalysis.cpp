//===- LaneAnalysis.cpp - lanes through the index maps
//----------------------===//
//
// How the `width` lanes of an evaluation move through the index maps of
// meta ops and broadcasting operands (Lanes: Uniform, Unit, Gather).
//
//===----------------------------------------------------------------------===//

#include "EmitterBase.h"

#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

SmallVector<Value> EmitterBase::mapUnitAxes(ArrayRef<Value> index,
                                            ArrayRef<int64_t> from,
                                            ArrayRef<int64_t> to) {
  SmallVector<Value> kept;
  for (auto [value, size] : llvm::zip_equal(index, from))
    if (size != 1)
      kept.push_back(value);
  SmallVector<Value> mapped;
  auto next = kept.begin();
  for (int64_t size : to)
    mapped.push_back(size == 1 ? constant(0) : *next++);
  return mapped;
}

SmallVector<Value> EmitterBase::mapIndex(Operation *op, ArrayRef<Value> index) {
  return llvm::TypeSwitch<Operation *, SmallVector<Value>>(op)
      .Case([&](ViewOp view) {
        return delinearize(linearize(index, shapeOf(view.getResult())),
                           shapeOf(view.getSource()));
      })
      .Case([&](PermuteOp permute) {
        SmallVector<Value> source(index.size());
        for (auto [i, dim] : llvm::enumerate(permute.getPermutation()))
          source[dim] = index[i];
        return source;
      })
      .Case([&](SqueezeOp squeeze) {
        SmallVector<Value> source;
        auto it = index.begin();
        for (int64_t d = 0, e = shapeOf(squeeze.getSource()).size(); d < e; ++d)
          source.push_back(
              llvm::is_contained(squeeze.getDims(), d) ? constant(0) : *it++);
        return source;
      })
      .Case([&](BroadcastOp broadcast) {
        SmallVector<Value> source;
        for (auto [d, value] : llvm::enumerate(index))
          if (!llvm::is_contained(broadcast.getDims(), int64_t(d)))
            source.push_back(value);
        return source;
      })
      .Case([&](ExpandOp expand) {
        SmallVector<Value> source;
        for (auto [d, size] : llvm::enumerate(shapeOf(expand.getSource())))
          source.push_back(size == 1 ? constant(0) : index[d]);
        return source;
      })
      .Case([&](SliceOp slice) {
        SmallVector<Value> source;
        for (auto [d, value] : llvm::enumerate(index))
          source.push_back(add(constant(slice.getStarts()[d]),
                               mul(value, constant(slice.getStrides()[d]))));
        return source;
      })
      .Default([&](Operation *) {
        // set, segment_set: the same element.
        return SmallVector<Value>(index);
      });
}

SmallVector<Value> EmitterBase::mapIndexForward(Operation *op,
                                                ArrayRef<Value> index) {
  return llvm::TypeSwitch<Operation *, SmallVector<Value>>(op)
      .Case([&](ViewOp view) {
        return delinearize(linearize(index, shapeOf(view.getSource())),
                           shapeOf(view.getResult()));
      })
      .Case([&](PermuteOp permute) {
        SmallVector<Value> result;
        for (int64_t dim : permute.getPermutation())
          result.push_back(index[dim]);
        return result;
      })
      .Case([&](SqueezeOp squeeze) {
        SmallVector<Value> result;
        for (auto [d, value] : llvm::enumerate(index))
          if (!llvm::is_contained(squeeze.getDims(), int64_t(d)))
            result.push_back(value);
        return result;
      })
      .Case([&](BroadcastOp broadcast) {
        SmallVector<Value> result;
        auto it = index.begin();
        for (int64_t d = 0, e = shapeOf(broadcast.getResult()).size(); d < e;
             ++d)
          result.push_back(
              llvm::is_contained(broadcast.getDims(), d) ? constant(0) : *it++);
        return result;
      })
      .Default([&](Operation *) { return SmallVector<Value>(index); });
}

Lanes EmitterBase::toGather(const Lanes &at) {
  if (at.kind == LaneKind::Gather)
    return at;
  Lanes gather;
  gather.width = at.width;
  gather.kind = LaneKind::Gather;
  gather.base = at.base;
  for (int64_t lane = 0; lane < at.width; ++lane) {
    SmallVector<Value> index = at.base;
    if (at.kind == LaneKind::Unit)
      index[at.dim] = add(index[at.dim], constant(lane));
    gather.perLane.push_back(index);
  }
  return gather;
}

Lanes EmitterBase::transform(
    const Lanes &at, function_ref<SmallVector<Value>(ArrayRef<Value>)> map,
    std::optional<int64_t> unitDim) {
  Lanes result;
  result.width = at.width;
  if (at.kind == LaneKind::Uniform || (at.kind == LaneKind::Unit && !unitDim)) {
    result.kind = LaneKind::Uniform;
    result.base = map(at.base);
    return result;
  }
  if (at.kind == LaneKind::Unit && *unitDim >= 0) {
    result.kind = LaneKind::Unit;
    result.dim = *unitDim;
    result.base = map(at.base);
    return result;
  }
  Lanes gather = toGather(at);
  result.kind = LaneKind::Gather;
  for (ArrayRef<Value> index : gather.perLane)
    result.perLane.push_back(map(index));
  result.base = result.perLane.front();
  return result;
}

Lanes EmitterBase::mapLanes(Operation *op, const Lanes &at) {
  int64_t width = at.width;
  auto map = [&](ArrayRef<Value> index) { return mapIndex(op, index); };
  if (at.kind != LaneKind::Unit)
    return transform(at, map, -1);
  // Where lane l of the result at base + l * e_k reads the source: at
  // base' + l * e_j (unit dim j), all at base' (nullopt), or scattered (-1).
  int64_t k = at.dim;
  ArrayRef<int64_t> resultShape = shapeOf(op->getResult(0));
  ArrayRef<int64_t> sourceShape = shapeOf(op->getOperand(0));
  std::optional<int64_t> unitDim =
      llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
          .Case([&](ViewOp) -> std::optional<int64_t> {
            // Row-major order is kept: a source axis with the same stride
            // whose extent the width divides holds the same run of lanes.
            int64_t stride = getRowMajorStrides(resultShape)[k];
            SmallVector<int64_t> strides = getRowMajorStrides(sourceShape);
            for (auto [j, size] : llvm::enumerate(sourceShape))
              if (size != 1 && strides[j] == stride && size % width == 0)
                return int64_t(j);
            return -1;
          })
          .Case([&](PermuteOp permute) -> std::optional<int64_t> {
            return permute.getPermutation()[k];
          })
          .Case([&](SqueezeOp squeeze) -> std::optional<int64_t> {
            int64_t seen = -1;
            for (int64_t d = 0, e = sourceShape.size(); d < e; ++d)
              if (!llvm::is_contained(squeeze.getDims(), d) && ++seen == k)
                return d;
            return -1;
          })
          .Case([&](BroadcastOp broadcast) -> std::optional<int64_t> {
            int64_t inserted = llvm::count_if(broadcast.getDims(),
                                              [&](int64_t d) { return d < k; });
            return k - inserted;
          })
          .Case([&](ExpandOp) -> std::optional<int64_t> {
            if (sourceShape[k] == 1)
              return std::nullopt;
            return k;
          })
          .Case([&](SliceOp slice) -> std::optional<int64_t> {
            if (slice.getStrides()[k] == 1 &&
                slice.getStarts()[k] % width == 0 &&
                sourceShape[k] % width == 0)
              return k;
            return -1;
          })
          .Default([&](Operation *) -> std::optional<int64_t> { return k; });
  return transform(at, map, unitDim);
}

Lanes EmitterBase::broadcastLanes(const Lanes &at, ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> resultShape) {
  if (shape == resultShape)
    return at;
  auto map = [&](ArrayRef<Value> index) {
    SmallVector<Value> source(index);
    for (auto [d, size] : llvm::enumerate(shape))
      if (size == 1)
        source[d] = constant(0);
    return source;
  };
  std::optional<int64_t> unitDim = -1;
  if (at.kind == LaneKind::Unit)
    unitDim = shape[at.dim] == 1 ? std::nullopt : std::optional(at.dim);
  return transform(at, map, unitDim);
}

Value EmitterBase::laneCondition(
    const Lanes &at, function_ref<Value(ArrayRef<Value>)> condition) {
  if (at.kind != LaneKind::Gather)
    return condition(at.base);
  SmallVector<Value> bits;
  for (ArrayRef<Value> index : at.perLane)
    bits.push_back(condition(index));
  return vector::FromElementsOp::create(
      b, loc, cast<VectorType>(vectorOf(b.getI1Type(), at.width)), bits);
}
