//===- Attention.cpp - the shape of a flash attention op ------------------===//

#include "fuser/Dialect/Fuser/IR/Attention.h"

#include "fuser/Dialect/Fuser/IR/FuserOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fuser;

namespace {
template <typename OpTy> Attention getAttentionOf(OpTy op) {
  ArrayRef<int64_t> query = op.getQuery().getType().getShape();
  ArrayRef<int64_t> value = op.getValue().getType().getShape();
  Attention attention;
  for (int64_t extent : query.drop_back(2))
    attention.batch *= extent;
  attention.l = query[query.size() - 2];
  attention.e = query.back();
  attention.s = value[value.size() - 2];
  attention.ev = value.back();
  std::optional<APFloat> scale = op.getScale();
  attention.scale = static_cast<float>(
      scale ? scale->convertToDouble() : 1.0 / std::sqrt(double(attention.e)));
  attention.causal = op.getIsCausal();
  attention.dropoutP = op.getDropoutP().convertToDouble();
  attention.dropoutThreshold = static_cast<float>(attention.dropoutP);
  attention.keepScale =
      attention.dropoutP == 1 ? 0.0f
                              : static_cast<float>(1 / (1 - attention.dropoutP));
  return attention;
}
} // namespace

Attention mlir::fuser::getAttention(Operation *op) {
  if (auto forward = dyn_cast<SdpfaFwdOp>(op))
    return getAttentionOf(forward);
  return getAttentionOf(cast<SdpfaBwdOp>(op));
}
