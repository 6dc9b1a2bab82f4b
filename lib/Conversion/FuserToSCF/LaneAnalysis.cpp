//===- LaneAnalysis.cpp - lanes through the index maps --------------------===//
//
// How the `width` lanes of an evaluation move through an operand's index map
// (Lanes: Uniform, Unit, Gather), derived from the map alone: the map says
// which operand dims vary along the lanes and how.
//
//===----------------------------------------------------------------------===//

#include "EmitterBase.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineExprVisitor.h"

#include <numeric>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {
/// The value of an index expression at lane l of Unit lanes along dim
/// `dim`: its value at lane 0, a multiple of `divisor` (0: the value is 0),
/// plus `coefficient` * l.
struct LaneStep {
  int64_t coefficient;
  int64_t divisor;
};
} // namespace

/// The LaneStep of `expr` for `width` lanes along dim `dim`, whose lane 0 is
/// a multiple of the width (Unit lanes are aligned); nullopt where the lanes
/// are no such step (a floordiv or mod that some lanes cross). Indices are
/// never negative, so floordiv and mod stay within a multiple of the
/// divisor when `coefficient * width` divides it.
static std::optional<LaneStep> getLaneStep(AffineExpr expr, unsigned dim,
                                           int64_t width) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return LaneStep{0, std::abs(constant.getValue())};
  if (auto dimExpr = dyn_cast<AffineDimExpr>(expr))
    return dimExpr.getPosition() == dim ? LaneStep{1, width} : LaneStep{0, 1};
  if (isa<AffineSymbolExpr>(expr))
    return LaneStep{0, 1};
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::optional<LaneStep> lhs = getLaneStep(binary.getLHS(), dim, width);
  std::optional<LaneStep> rhs = getLaneStep(binary.getRHS(), dim, width);
  if (!lhs || !rhs)
    return std::nullopt;
  if (expr.getKind() == AffineExprKind::Add)
    return LaneStep{lhs->coefficient + rhs->coefficient,
                    std::gcd(lhs->divisor, rhs->divisor)};
  // The right-hand side of mul, floordiv and mod is a constant.
  auto constant = dyn_cast<AffineConstantExpr>(binary.getRHS());
  if (!constant)
    return std::nullopt;
  int64_t value = constant.getValue();
  if (expr.getKind() == AffineExprKind::Mul)
    return LaneStep{lhs->coefficient * value, lhs->divisor * std::abs(value)};
  if (value <= 0 || lhs->coefficient < 0)
    return std::nullopt;
  int64_t span = lhs->coefficient * width;
  bool withinOne =
      lhs->coefficient == 0 || (value % span == 0 && lhs->divisor % span == 0);
  if (expr.getKind() == AffineExprKind::Mod) {
    if (!withinOne)
      return std::nullopt;
    return LaneStep{lhs->coefficient, std::gcd(lhs->divisor, value)};
  }
  if (expr.getKind() != AffineExprKind::FloorDiv)
    return std::nullopt;
  int64_t quotientDivisor =
      lhs->divisor % value == 0 ? lhs->divisor / value : 1;
  if (withinOne)
    return LaneStep{0, quotientDivisor};
  if (lhs->coefficient % value == 0 && lhs->divisor % value == 0)
    return LaneStep{lhs->coefficient / value, quotientDivisor};
  return std::nullopt;
}

std::optional<int64_t> kernels::getOperandLaneDim(AffineMap map,
                                                  ArrayRef<int64_t> shape,
                                                  int64_t dim, int64_t width) {
  std::optional<int64_t> unitDim;
  for (auto [operandDim, expr] : llvm::enumerate(map.getResults())) {
    std::optional<LaneStep> step = getLaneStep(expr, dim, width);
    if (!step)
      return -1;
    if (step->coefficient == 0)
      continue;
    if (unitDim || step->coefficient != 1 || step->divisor % width != 0 ||
        shape[operandDim] % width != 0)
      return -1;
    unitDim = operandDim;
  }
  return unitDim;
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

Lanes EmitterBase::mapLanes(AffineMap map, ArrayRef<int64_t> operandShape,
                            const Lanes &at) {
  auto apply = [&](ArrayRef<Value> index) { return applyIndexMap(map, index); };
  if (at.kind != LaneKind::Unit)
    return transform(at, apply, -1);
  return transform(at, apply,
                   getOperandLaneDim(map, operandShape, at.dim, at.width));
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

bool EmitterBase::isUniformAlong(Value value, int64_t dim, int64_t width) {
  // Every (value, dim) reached must not vary along dim: through the index
  // maps of elementwise and meta ops, a gather's index and source, and
  // fills; anything else (an input, iota, a random op, a reduction) may.
  SmallVector<std::pair<Value, int64_t>> work = {{value, dim}};
  DenseSet<std::pair<Value, int64_t>> seen;
  while (!work.empty()) {
    auto [current, currentDim] = work.pop_back_val();
    if (!isa<RankedTensorType>(current.getType()) ||
        !seen.insert({current, currentDim}).second)
      continue;
    Operation *op = current.getDefiningOp();
    if (op && isa<FullOp>(op) && !bindings.contains(current))
      continue;
    if (auto gather = dyn_cast_if_present<GatherOp>(op);
        gather && !bindings.contains(current)) {
      if (currentDim == int64_t(gather.getDim()))
        return false;
      work.push_back({gather.getIndex(), currentDim});
      work.push_back({gather.getSource(), currentDim});
      continue;
    }
    if (!getChainedOp(current))
      return false;
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      Value operand = op->getOperand(i);
      if (!isa<RankedTensorType>(operand.getType()))
        continue;
      std::optional<int64_t> operandDim =
          getOperandLaneDim(getChainedOperandMap(op, operand),
                            shapeOf(operand), currentDim, width);
      if (!operandDim)
        continue;
      if (*operandDim < 0)
        return false;
      work.push_back({operand, *operandDim});
    }
  }
  return true;
}
