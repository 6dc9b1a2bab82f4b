//===- ComplexFunctions.cpp - complex functions of several steps ----------===//
//
// Each function below is the lowering of its namesake in ComplexSemantics.h,
// step for step: the special cases (first match wins) become a chain of
// selects built from the last case to the first, and the formula uses
// `complex` ops for log, sqrt, exp and division (which
// convert-complex-to-standard expands as the interpreter computes) and the
// real ops' own lowering for the part functions.
//
//===----------------------------------------------------------------------===//

#include "ComplexFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fuser;

namespace {

struct Parts {
  Value re, im;
};

/// A special case: where `condition` holds, the result is `result`.
struct Case {
  Value condition;
  Parts result;
};

class ComplexFunctionEmitter {
public:
  ComplexFunctionEmitter(OpBuilder &b, Location loc, ComplexType type,
                         RealUnaryEmitter realUnary)
      : b(b), loc(loc), type(type), part(cast<FloatType>(type.getElementType())),
        realUnary(realUnary) {}

  Value emit(UnaryKind kind, Value z) {
    Parts p = partsOf(z);
    switch (kind) {
    case UnaryKind::Log10:
      return make(logOver(z, isF32() ? std::log(10.0f) : std::log(10.0)));
    case UnaryKind::Log2:
      return make(logOver(z, isF32() ? std::log(2.0f) : std::log(2.0)));
    case UnaryKind::Sinh:
      return make(sinh(p));
    case UnaryKind::Cosh:
      return make(cosh(p));
    case UnaryKind::Asinh:
      return make(asinh(p));
    case UnaryKind::Acosh:
      return make(acosh(p));
    case UnaryKind::Acos:
      return make(acos(p));
    case UnaryKind::Atanh:
      return make(atanh(p));
    case UnaryKind::Asin: {
      Parts w = asinh({neg(p.im), p.re});
      return make({w.im, neg(w.re)});
    }
    case UnaryKind::Atan: {
      Parts w = atanh({neg(p.im), p.re});
      return make({w.im, neg(w.re)});
    }
    case UnaryKind::Sigmoid: {
      Value exp = complex::ExpOp::create(b, loc, make({neg(p.re), neg(p.im)}));
      Parts e = partsOf(exp);
      return complex::DivOp::create(b, loc, make({c(1.0), c(0.0)}),
                                    make({add(c(1.0), e.re), e.im}));
    }
    default:
      llvm_unreachable("not a composed complex function");
    }
  }

private:
  bool isF32() const { return part.isF32(); }

  //===--------------------------------------------------------------------===//
  // Parts
  //===--------------------------------------------------------------------===//

  Value c(double value) {
    return arith::ConstantOp::create(b, loc, part, b.getFloatAttr(part, value));
  }
  /// factor * pi, rounded as the part type computes it.
  Value piTimes(double factor) {
    if (isF32())
      return c(static_cast<float>(factor) *
               static_cast<float>(3.14159265358979323846));
    return c(factor * 3.14159265358979323846);
  }
  Value nan() { return c(std::numeric_limits<double>::quiet_NaN()); }
  Value inf() { return c(std::numeric_limits<double>::infinity()); }

  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value fabs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value copysign(Value x, Value sign) {
    return math::CopySignOp::create(b, loc, x, sign);
  }
  Value real(UnaryKind kind, Value x) { return realUnary(kind, x); }

  Value isInf(Value x) { return real(UnaryKind::Isinf, x); }
  Value isNan(Value x) { return real(UnaryKind::Isnan, x); }
  Value notFinite(Value x) { return notOf(real(UnaryKind::Isfinite, x)); }
  Value signbit(Value x) { return real(UnaryKind::Signbit, x); }
  Value cmp(arith::CmpFPredicate predicate, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, predicate, x, y);
  }
  Value isZero(Value x) { return cmp(arith::CmpFPredicate::OEQ, x, c(0.0)); }
  Value isPositive(Value x) {
    return cmp(arith::CmpFPredicate::OGT, x, c(0.0));
  }
  Value isNegative(Value x) {
    return cmp(arith::CmpFPredicate::OLT, x, c(0.0));
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value either(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value notOf(Value x) {
    Value t = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    return arith::XOrIOp::create(b, loc, x, t);
  }
  Value select(Value condition, Value ifTrue, Value ifFalse) {
    return arith::SelectOp::create(b, loc, condition, ifTrue, ifFalse);
  }

  //===--------------------------------------------------------------------===//
  // Complex values
  //===--------------------------------------------------------------------===//

  Parts partsOf(Value z) {
    return {complex::ReOp::create(b, loc, z), complex::ImOp::create(b, loc, z)};
  }
  Value make(Parts p) { return complex::CreateOp::create(b, loc, type, p.re, p.im); }
  Parts log(Parts p) { return partsOf(complex::LogOp::create(b, loc, make(p))); }
  Parts sqrt(Parts p) {
    return partsOf(complex::SqrtOp::create(b, loc, make(p)));
  }

  /// The first case whose condition holds, else `otherwise`.
  Parts firstOf(ArrayRef<Case> cases, Parts otherwise) {
    Parts result = otherwise;
    for (const Case &special : llvm::reverse(cases))
      result = {select(special.condition, special.result.re, result.re),
                select(special.condition, special.result.im, result.im)};
    return result;
  }

  Parts logOver(Value z, double divisor) {
    Parts l = partsOf(complex::LogOp::create(b, loc, z));
    Value d = c(divisor);
    return {div(l.re, d), div(l.im, d)};
  }

  /// log(z + sqrt(z^2 + 1)), or with z^2 - 1; z^2 as ((re - im)(re + im),
  /// 2 re im).
  Parts logOfSumWithRoot(Parts z, bool minusOne) {
    Parts square = {mul(sub(z.re, z.im), add(z.re, z.im)),
                    mul(mul(c(2.0), z.re), z.im)};
    Value shifted = minusOne ? sub(square.re, c(1.0)) : add(square.re, c(1.0));
    Parts root = sqrt({shifted, square.im});
    return log({add(z.re, root.re), add(z.im, root.im)});
  }

  //===--------------------------------------------------------------------===//
  // The functions
  //===--------------------------------------------------------------------===//

  Parts sinh(Parts z) {
    Value x = z.re, y = z.im;
    Parts formula = {mul(real(UnaryKind::Sinh, x), real(UnaryKind::Cos, y)),
                     mul(real(UnaryKind::Cosh, x), real(UnaryKind::Sin, y))};
    return firstOf({{both(isInf(x), notFinite(y)), {x, nan()}},
                    {both(isZero(x), notFinite(y)), {x, nan()}},
                    {both(isZero(y), notFinite(x)), {x, y}}},
                   formula);
  }

  Parts cosh(Parts z) {
    Value x = z.re, y = z.im;
    Parts formula = {mul(real(UnaryKind::Cosh, x), real(UnaryKind::Cos, y)),
                     mul(real(UnaryKind::Sinh, x), real(UnaryKind::Sin, y))};
    return firstOf({{both(isInf(x), notFinite(y)), {fabs(x), nan()}},
                    {both(isZero(x), notFinite(y)), {nan(), x}},
                    {both(isZero(x), isZero(y)), {c(1.0), y}},
                    {both(isZero(y), notFinite(x)), {fabs(x), y}}},
                   formula);
  }

  Parts asinh(Parts z) {
    Value x = z.re, y = z.im;
    Parts w = logOfSumWithRoot(z, /*minusOne=*/false);
    Parts formula = {copysign(w.re, x), copysign(w.im, y)};
    Value xInf = isInf(x), xNan = isNan(x), yInf = isInf(y);
    return firstOf(
        {{both(xInf, isNan(y)), {x, y}},
         {both(xInf, yInf), {x, copysign(piTimes(0.25), y)}},
         {xInf, {x, copysign(c(0.0), y)}},
         {both(xNan, yInf), {y, x}},
         {both(xNan, isZero(y)), {x, y}},
         {xNan, {x, x}},
         {yInf, {copysign(y, x), copysign(piTimes(0.5), y)}}},
        formula);
  }

  Parts acosh(Parts z) {
    Value x = z.re, y = z.im;
    Parts w = logOfSumWithRoot(z, /*minusOne=*/true);
    Parts formula = {fabs(w.re), copysign(w.im, y)};
    Value xInf = isInf(x), xNan = isNan(x), yInf = isInf(y);
    return firstOf(
        {{both(xInf, isNan(y)), {fabs(x), y}},
         {both(both(xInf, yInf), isPositive(x)),
          {x, copysign(piTimes(0.25), y)}},
         {both(xInf, yInf), {neg(x), copysign(piTimes(0.75), y)}},
         {both(xInf, isNegative(x)), {neg(x), copysign(piTimes(1.0), y)}},
         {xInf, {x, copysign(c(0.0), y)}},
         {both(xNan, yInf), {fabs(y), x}},
         {xNan, {x, x}},
         {yInf, {fabs(y), copysign(piTimes(0.5), y)}}},
        formula);
  }

  Parts acos(Parts z) {
    Value x = z.re, y = z.im;
    Parts w = logOfSumWithRoot(z, /*minusOne=*/true);
    Value imSign = signbit(y);
    Parts formula = {fabs(w.im), select(imSign, fabs(w.re), neg(fabs(w.re)))};
    Value xInf = isInf(x), xNan = isNan(x), yInf = isInf(y);
    return firstOf(
        {{both(xInf, isNan(y)), {y, x}},
         {both(both(xInf, yInf), isNegative(x)), {piTimes(0.75), neg(y)}},
         {both(xInf, yInf), {piTimes(0.25), neg(y)}},
         {both(xInf, isNegative(x)),
          {piTimes(1.0), select(imSign, neg(x), x)}},
         {xInf, {c(0.0), select(imSign, x, neg(x))}},
         {both(xNan, yInf), {x, neg(y)}},
         {xNan, {x, x}},
         {yInf, {piTimes(0.5), neg(y)}},
         {both(isZero(x), either(isZero(y), isNan(y))),
          {piTimes(0.5), neg(y)}}},
        formula);
  }

  Parts atanh(Parts z) {
    Value x = z.re, y = z.im;
    Value quotient = complex::DivOp::create(
        b, loc, make({add(c(1.0), x), y}), make({add(neg(x), c(1.0)), neg(y)}));
    Parts w = log(partsOf(quotient));
    Parts formula = {copysign(div(w.re, c(2.0)), x),
                     copysign(div(w.im, c(2.0)), y)};
    Value signedZero = copysign(c(0.0), x);
    Value halfPi = copysign(piTimes(0.5), y);
    Value yNan = isNan(y);
    return firstOf(
        {{isInf(y), {signedZero, halfPi}},
         {both(yNan, either(isInf(x), isZero(x))), {signedZero, y}},
         {yNan, {y, y}},
         {isNan(x), {x, x}},
         {isInf(x), {signedZero, halfPi}},
         {both(cmp(arith::CmpFPredicate::OEQ, fabs(x), c(1.0)), isZero(y)),
          {copysign(inf(), x), copysign(c(0.0), y)}}},
        formula);
  }

  OpBuilder &b;
  Location loc;
  ComplexType type;
  FloatType part;
  RealUnaryEmitter realUnary;
};

} // namespace

Value mlir::fuser::emitComposedComplexUnary(OpBuilder &b, Location loc,
                                           UnaryKind kind, Value z,
                                           RealUnaryEmitter realUnary) {
  return ComplexFunctionEmitter(b, loc, cast<ComplexType>(z.getType()),
                                realUnary)
      .emit(kind, z);
}
