//===- ExpandMath.cpp - f32 math as the interpreter computes it -----------===//
//
// Each rewritten op becomes PortableMath.h's algorithm, evaluated by
// IRMath: the same IEEE operations, in the same order, that ScalarMath
// performs in the interpreter, so a kernel's result is the interpreter's
// bit for bit at any vector width (every operation is elementwise, exact or
// correctly rounded, and independent of the rounding mode).
//
//===----------------------------------------------------------------------===//

#include "fuser/Conversion/ExpandMath/ExpandMath.h"
#include "fuser/Conversion/Passes.h"
#include "fuser/Dialect/Fuser/IR/PortableMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSEREXPANDMATH
#include "fuser/Conversion/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

namespace {
/// PortableMath.h's evaluator that emits each operation as an op on values
/// of `floatType` (f32 or a vector of f32) and the i32 type of its shape.
struct IRMath {
  using F = Value;
  using I = Value;
  using B = Value;

  IRMath(ImplicitLocOpBuilder &b, Type floatType)
      : b(b), floatType(floatType),
        intType(cloneWith(floatType, b.getI32Type())) {}

  F constant(float value) {
    return arith::ConstantOp::create(b, floatType,
                                     splat(b.getF32FloatAttr(value)));
  }
  I constantInt(int32_t value) {
    return arith::ConstantOp::create(b, intType,
                                     splat(b.getI32IntegerAttr(value)));
  }
  F add(F x, F y) { return arith::AddFOp::create(b, x, y); }
  F sub(F x, F y) { return arith::SubFOp::create(b, x, y); }
  F mul(F x, F y) { return arith::MulFOp::create(b, x, y); }
  F div(F x, F y) { return arith::DivFOp::create(b, x, y); }
  F fma(F x, F y, F z) { return math::FmaOp::create(b, x, y, z); }
  F abs(F x) { return math::AbsFOp::create(b, x); }
  F copySign(F magnitude, F sign) {
    return math::CopySignOp::create(b, magnitude, sign);
  }
  F roundEven(F x) { return math::RoundEvenOp::create(b, x); }
  F minNum(F x, F y) { return arith::MinNumFOp::create(b, x, y); }
  F maxNum(F x, F y) { return arith::MaxNumFOp::create(b, x, y); }
  B less(F x, F y) {
    return arith::CmpFOp::create(b, arith::CmpFPredicate::OLT, x, y);
  }
  B isNaN(F x) {
    return arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, x, x);
  }
  F select(B condition, F x, F y) {
    return arith::SelectOp::create(b, condition, x, y);
  }
  I selectInt(B condition, I x, I y) {
    return arith::SelectOp::create(b, condition, x, y);
  }
  I bitsOf(F x) { return arith::BitcastOp::create(b, intType, x); }
  F fromBits(I x) { return arith::BitcastOp::create(b, floatType, x); }
  I toInt(F x) { return arith::FPToSIOp::create(b, intType, x); }
  F toFloat(I x) { return arith::SIToFPOp::create(b, floatType, x); }
  I addInt(I x, I y) { return arith::AddIOp::create(b, x, y); }
  I subInt(I x, I y) { return arith::SubIOp::create(b, x, y); }
  I andInt(I x, I y) { return arith::AndIOp::create(b, x, y); }
  I orInt(I x, I y) { return arith::OrIOp::create(b, x, y); }
  I shiftLeft(I x, I amount) { return arith::ShLIOp::create(b, x, amount); }
  I shiftRightArithmetic(I x, I amount) {
    return arith::ShRSIOp::create(b, x, amount);
  }

private:
  static Type cloneWith(Type type, Type element) {
    if (auto shaped = dyn_cast<ShapedType>(type))
      return shaped.clone(element);
    return element;
  }
  TypedAttr splat(TypedAttr value) {
    if (auto shaped = dyn_cast<ShapedType>(intType))
      return DenseElementsAttr::get(shaped.clone(value.getType()), value);
    return value;
  }

  ImplicitLocOpBuilder &b;
  Type floatType, intType;
};

/// Rewrites a one-operand math op on f32 (scalar or vector) with
/// `expand`, one of PortableMath.h's functions.
template <typename MathOp, Value (*expand)(IRMath &, Value)>
struct ExpandUnary : OpRewritePattern<MathOp> {
  using OpRewritePattern<MathOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(MathOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    IRMath evaluator(b, type);
    rewriter.replaceOp(op, expand(evaluator, op.getOperand()));
    return success();
  }
};

Value expandExp(IRMath &o, Value x) { return portable::exp(o, x); }
Value expandLog(IRMath &o, Value x) { return portable::log(o, x); }
Value expandTanh(IRMath &o, Value x) { return portable::tanh(o, x); }
Value expandErf(IRMath &o, Value x) { return portable::erf(o, x); }

struct FuserExpandMath
    : mlir::fuser::impl::FuserExpandMathBase<FuserExpandMath> {
  void runOnOperation() final {
    RewritePatternSet patterns(&getContext());
    populateExpandMathPatterns(patterns);
    // One visit per op and no folding: a math op of a constant would fold
    // with the host libm.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace

void mlir::fuser::populateExpandMathPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandUnary<math::ExpOp, expandExp>,
               ExpandUnary<math::LogOp, expandLog>,
               ExpandUnary<math::TanhOp, expandTanh>,
               ExpandUnary<math::ErfOp, expandErf>>(patterns.getContext());
}
