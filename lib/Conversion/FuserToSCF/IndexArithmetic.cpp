//===- IndexArithmetic.cpp - index arithmetic of kernels ------------------===//
//
// Index arithmetic in `index`: index maps evaluated as arith ops, folded by
// the arith dialect's own folders as they are created and shared within a
// scope (EmitterBase::constant, indexOp).
//
//===----------------------------------------------------------------------===//

#include "EmitterBase.h"

#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

Value EmitterBase::constant(int64_t value) {
  for (Scope &scope : llvm::reverse(scopes))
    if (Value hit = scope.constants.lookup(value))
      return hit;
  Value result = arith::ConstantIndexOp::create(b, loc, value);
  scopes.back().constants[value] = result;
  return result;
}

static Operation *createIndexOp(OpBuilder &b, Location loc, IndexOp kind,
                                Value lhs, Value rhs) {
  switch (kind) {
  case IndexOp::Add:
    return arith::AddIOp::create(b, loc, lhs, rhs);
  case IndexOp::Sub:
    return arith::SubIOp::create(b, loc, lhs, rhs);
  case IndexOp::Mul:
    return arith::MulIOp::create(b, loc, lhs, rhs);
  // Indices are never negative where they are divided.
  case IndexOp::Div:
    return arith::DivUIOp::create(b, loc, lhs, rhs);
  case IndexOp::Rem:
    return arith::RemUIOp::create(b, loc, lhs, rhs);
  case IndexOp::Min:
    return arith::MinSIOp::create(b, loc, lhs, rhs);
  case IndexOp::Max:
    return arith::MaxSIOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown index op");
}

Value EmitterBase::indexOp(IndexOp kind, Value lhs, Value rhs) {
  auto key = std::make_tuple(static_cast<int>(kind), lhs, rhs);
  for (Scope &scope : llvm::reverse(scopes))
    if (Value hit = scope.indexOps.lookup(key))
      return hit;
  // Built detached and folded by its op's folder (a zero divisor is left
  // alone: it occurs only in code that never runs, kernels over empty
  // tensors); what folds to a constant is the scope's constant.
  OpBuilder detached(b.getContext());
  Operation *op = createIndexOp(detached, loc, kind, lhs, rhs);
  SmallVector<OpFoldResult> folded;
  if (succeeded(op->fold(folded)) && !folded.empty()) {
    op->erase();
    if (auto attr = dyn_cast<Attribute>(folded.front()))
      return constant(cast<IntegerAttr>(attr).getInt());
    return cast<Value>(folded.front());
  }
  b.insert(op);
  Value result = op->getResult(0);
  scopes.back().indexOps[key] = result;
  return result;
}

SmallVector<Value> EmitterBase::delinearize(Value flat,
                                            ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = getRowMajorStrides(shape);
  SmallVector<Value> index;
  for (auto [d, size] : llvm::enumerate(shape)) {
    if (size == 1) {
      index.push_back(constant(0));
      continue;
    }
    Value quotient = div(flat, constant(strides[d]));
    // The outermost non-unit dim needs no remainder: flat is in range.
    bool outermost =
        llvm::all_of(shape.take_front(d), [](int64_t s) { return s == 1; });
    index.push_back(outermost ? quotient : rem(quotient, constant(size)));
  }
  return index;
}

/// `expr` as `positive - negative`, each a sum of terms with positive
/// coefficients, so that `expr >= 0` compares two indices.
static std::pair<AffineExpr, AffineExpr> splitSigns(AffineExpr expr) {
  MLIRContext *context = expr.getContext();
  AffineExpr zero = getAffineConstantExpr(0, context);
  if (expr.getKind() == AffineExprKind::Add) {
    auto binary = cast<AffineBinaryOpExpr>(expr);
    auto [lhsPositive, lhsNegative] = splitSigns(binary.getLHS());
    auto [rhsPositive, rhsNegative] = splitSigns(binary.getRHS());
    return {lhsPositive + rhsPositive, lhsNegative + rhsNegative};
  }
  if (auto value = dyn_cast<AffineConstantExpr>(expr))
    return value.getValue() < 0 ? std::pair(zero, -expr)
                                : std::pair(expr, zero);
  if (expr.getKind() == AffineExprKind::Mul)
    if (auto factor = dyn_cast<AffineConstantExpr>(
            cast<AffineBinaryOpExpr>(expr).getRHS());
        factor && factor.getValue() < 0)
      return {zero, -expr};
  return {expr, zero};
}

Value EmitterBase::applyIndexExpr(AffineExpr expr, ArrayRef<Value> index,
                                  ArrayRef<Value> symbols) {
  if (auto value = dyn_cast<AffineConstantExpr>(expr))
    return constant(value.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return index[dim.getPosition()];
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[symbol.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Value lhs = applyIndexExpr(binary.getLHS(), index, symbols);
  // `a + b * -c` (how AffineExpr spells `a - b * c`) is a subtraction.
  if (expr.getKind() == AffineExprKind::Add) {
    auto [positive, negative] = splitSigns(binary.getRHS());
    if (positive == getAffineConstantExpr(0, expr.getContext()))
      return sub(lhs, applyIndexExpr(negative, index, symbols));
  }
  Value rhs = applyIndexExpr(binary.getRHS(), index, symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return add(lhs, rhs);
  case AffineExprKind::Mul:
    return mul(lhs, rhs);
  case AffineExprKind::FloorDiv:
    return div(lhs, rhs);
  case AffineExprKind::Mod:
    return rem(lhs, rhs);
  default:
    llvm_unreachable("no index map has a ceildiv");
  }
}

SmallVector<Value> EmitterBase::applyIndexMap(AffineMap map,
                                              ArrayRef<Value> index,
                                              ArrayRef<Value> symbols) {
  return llvm::map_to_vector(map.getResults(), [&](AffineExpr expr) {
    return applyIndexExpr(expr, index, symbols);
  });
}

Value EmitterBase::applyCondition(IntegerSet set, ArrayRef<Value> index) {
  Value all;
  for (auto [constraint, isEquality] :
       llvm::zip_equal(set ? set.getConstraints() : ArrayRef<AffineExpr>(),
                       set ? set.getEqFlags() : ArrayRef<bool>())) {
    auto [positive, negative] = splitSigns(constraint);
    Value holds = arith::CmpIOp::create(b, loc,
                                        isEquality ? arith::CmpIPredicate::eq
                                                   : arith::CmpIPredicate::sge,
                                        applyIndexExpr(positive, index, {}),
                                        applyIndexExpr(negative, index, {}));
    all = all ? arith::AndIOp::create(b, loc, all, holds).getResult() : holds;
  }
  return all ? all : arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
}
