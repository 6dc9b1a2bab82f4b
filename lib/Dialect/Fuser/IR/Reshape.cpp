//===- Reshape.cpp - canonical reshape construction -----------------------===//

#include "fuser/Dialect/Fuser/IR/Reshape.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"

using namespace mlir;
using namespace mlir::fuser;

std::optional<SmallVector<int64_t>>
mlir::fuser::getSqueezedDims(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (to.size() > from.size())
    return std::nullopt;
  SmallVector<int64_t> squeezed;
  size_t next = 0;
  for (auto [i, size] : llvm::enumerate(from)) {
    if (next < to.size() && to[next] == size) {
      ++next;
      continue;
    }
    if (size != 1)
      return std::nullopt;
    squeezed.push_back(i);
  }
  if (next != to.size())
    return std::nullopt;
  return squeezed;
}

bool mlir::fuser::isReshapeLike(Operation *op) {
  return isa<ViewOp, SqueezeOp, BroadcastOp>(op);
}

Value mlir::fuser::createReshape(OpBuilder &builder, Location loc, Value source,
                                 RankedTensorType type) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  if (sourceType == type)
    return source;
  if (auto dims = getSqueezedDims(sourceType.getShape(), type.getShape()))
    return SqueezeOp::create(builder, loc, source, *dims);
  // A broadcast is a squeeze read backwards: its dims are result positions.
  if (auto dims = getSqueezedDims(type.getShape(), sourceType.getShape()))
    return BroadcastOp::create(builder, loc, source, *dims);
  return ViewOp::create(builder, loc, type, source);
}
