//===- IndexArithmetic.cpp - index arithmetic of kernels
//--------------------===//
//
// Index arithmetic in `index`, folded where its operands are constant and
// shared within a scope (EmitterBase::constant, indexOp).
//
//===----------------------------------------------------------------------===//

#include "EmitterBase.h"

#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

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

Value EmitterBase::indexOp(IndexOp kind, Value lhs, Value rhs) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  switch (kind) {
  case IndexOp::Add:
    if (l && r)
      return constant(*l + *r);
    if (l == 0)
      return rhs;
    if (r == 0)
      return lhs;
    break;
  case IndexOp::Sub:
    if (l && r)
      return constant(*l - *r);
    if (r == 0)
      return lhs;
    break;
  case IndexOp::Mul:
    if (l && r)
      return constant(*l * *r);
    if (l == 0 || r == 0)
      return constant(0);
    if (l == 1)
      return rhs;
    if (r == 1)
      return lhs;
    break;
  // A zero extent divides only in code that never runs (kernels over
  // empty tensors); it is left to the kernel rather than folded here.
  case IndexOp::Div:
    if (l && r && *r != 0)
      return constant(*l / *r);
    if (l == 0)
      return constant(0);
    if (r == 1)
      return lhs;
    break;
  case IndexOp::Rem:
    if (l && r && *r != 0)
      return constant(*l % *r);
    if (l == 0 || r == 1)
      return constant(0);
    break;
  case IndexOp::Min:
    if (l && r)
      return constant(std::min(*l, *r));
    break;
  case IndexOp::Max:
    if (l && r)
      return constant(std::max(*l, *r));
    break;
  }
  auto key = std::make_tuple(static_cast<int>(kind), lhs, rhs);
  for (Scope &scope : llvm::reverse(scopes))
    if (Value hit = scope.indexOps.lookup(key))
      return hit;
  Value result;
  switch (kind) {
  case IndexOp::Add:
    result = arith::AddIOp::create(b, loc, lhs, rhs);
    break;
  case IndexOp::Sub:
    result = arith::SubIOp::create(b, loc, lhs, rhs);
    break;
  case IndexOp::Mul:
    result = arith::MulIOp::create(b, loc, lhs, rhs);
    break;
  // Indices are never negative where they are divided.
  case IndexOp::Div:
    result = arith::DivUIOp::create(b, loc, lhs, rhs);
    break;
  case IndexOp::Rem:
    result = arith::RemUIOp::create(b, loc, lhs, rhs);
    break;
  case IndexOp::Min:
    result = arith::MinSIOp::create(b, loc, lhs, rhs);
    break;
  case IndexOp::Max:
    result = arith::MaxSIOp::create(b, loc, lhs, rhs);
    break;
  }
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
  scopes.back().delinearized.emplace_back(SmallVector<int64_t>(shape), index,
                                          flat);
  return index;
}

Value EmitterBase::linearize(ArrayRef<Value> index, ArrayRef<int64_t> shape) {
  for (Scope &scope : llvm::reverse(scopes))
    for (auto &[knownShape, knownIndex, flat] : scope.delinearized)
      if (ArrayRef<int64_t>(knownShape) == shape &&
          ArrayRef<Value>(knownIndex) == index)
        return flat;
  SmallVector<int64_t> strides = getRowMajorStrides(shape);
  Value flat = constant(0);
  for (auto [d, value] : llvm::enumerate(index))
    flat = add(flat, mul(value, constant(strides[d])));
  return flat;
}
