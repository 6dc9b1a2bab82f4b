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
      : b(b), loc(loc), type(type),
        part(cast<FloatType>(type.getElementType())), realUnary(realUnary) {}

  Value emit(UnaryKind kind, Value z) {
    Parts p = partsOf(z);
    switch (kind) {
    case UnaryKind::Abs:
      return absOf(z, p);
    case UnaryKind::Exp:
      return make(expOf(p));
    case UnaryKind::Log:
      return make(logOf(p));
    case UnaryKind::Sqrt:
      return make(sqrtOf(p));
    case UnaryKind::Rsqrt:
      return make(rsqrtOf(z, p));
    case UnaryKind::Reciprocal:
      return make(divOf({c(1.0), c(0.0)}, p));
    case UnaryKind::Sin: {
      Value upstream = complex::SinOp::create(b, loc, z);
      Parts w = sinh({neg(p.im), p.re});
      return make(unlessSpecial(p, partsOf(upstream), {w.im, neg(w.re)}));
    }
    case UnaryKind::Cos: {
      Value upstream = complex::CosOp::create(b, loc, z);
      return make(unlessSpecial(p, partsOf(upstream), cosh({neg(p.im), p.re})));
    }
    case UnaryKind::Tanh: {
      Value upstream = complex::TanhOp::create(b, loc, z);
      return make(unlessSpecial(p, partsOf(upstream), libcxxTanh(p)));
    }
    case UnaryKind::Tan: {
      Value upstream = complex::TanOp::create(b, loc, z);
      Parts w = libcxxTanh({neg(p.im), p.re});
      return make(unlessSpecial(p, partsOf(upstream), {w.im, neg(w.re)}));
    }
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
      Parts e = expOf({neg(p.re), neg(p.im)});
      return make(divOf({c(1.0), c(0.0)}, {add(c(1.0), e.re), e.im}));
    }
    default:
      llvm_unreachable("not a composed complex function");
    }
  }

  Value emit(BinaryKind kind, Value x, Value y) {
    Parts p = partsOf(x), q = partsOf(y);
    switch (kind) {
    case BinaryKind::Mul:
      return make(mulOf(p, q));
    case BinaryKind::Div:
      return make(divOf(p, q));
    case BinaryKind::Pow: {
      Parts upstream = partsOf(complex::PowOp::create(b, loc, x, y));
      Parts special = expOf(mulOf(q, logOf(p)));
      Value nonFinite = either(notFiniteZ(p), notFiniteZ(q));
      return make({select(nonFinite, special.re, upstream.re),
                   select(nonFinite, special.im, upstream.im)});
    }
    default:
      llvm_unreachable("not a complex binary function");
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
  Value make(Parts p) {
    return complex::CreateOp::create(b, loc, type, p.re, p.im);
  }
  Parts log(Parts p) { return logOf(p); }
  Parts sqrt(Parts p) { return sqrtOf(p); }

  //===--------------------------------------------------------------------===//
  // upstream's ops with libc++'s special values (ComplexSemantics.h's
  // complexAbs, complexExp, ...): the upstream op, then selects.
  //===--------------------------------------------------------------------===//

  Value isPosInf(Value x) { return cmp(arith::CmpFPredicate::OEQ, x, inf()); }
  Value isNegInf(Value x) {
    return cmp(arith::CmpFPredicate::OEQ, x, neg(inf()));
  }
  Value isFinite(Value x) { return real(UnaryKind::Isfinite, x); }
  Value notFiniteZ(Parts z) { return either(notFinite(z.re), notFinite(z.im)); }
  Value anyInf(Parts z) { return either(isInf(z.re), isInf(z.im)); }
  /// A part infinite, NaN or zero (complex_detail::specialOrZeroPart).
  Value specialOrZeroPart(Parts z) {
    return either(notFiniteZ(z), either(isZero(z.re), isZero(z.im)));
  }
  Parts unlessSpecial(Parts z, Parts upstream, Parts special) {
    Value condition = specialOrZeroPart(z);
    return {select(condition, special.re, upstream.re),
            select(condition, special.im, upstream.im)};
  }

  Value absOf(Value z, Parts p) {
    Value upstream = complex::AbsOp::create(b, loc, z);
    return select(anyInf(p), inf(), upstream);
  }

  Parts expOf(Parts z) {
    Parts e = partsOf(complex::ExpOp::create(b, loc, make(z)));
    Value imNotFinite = notFinite(z.im);
    return firstOf({{both(isPosInf(z.re), imNotFinite), {inf(), nan()}},
                    {both(isNegInf(z.re), imNotFinite), {c(0.0), c(0.0)}}},
                   {e.re, select(isZero(z.im), z.im, e.im)});
  }

  Parts logOf(Parts z) {
    Parts l = partsOf(complex::LogOp::create(b, loc, make(z)));
    return {select(anyInf(z), inf(), l.re), l.im};
  }

  Parts sqrtOf(Parts z) {
    Parts r = partsOf(complex::SqrtOp::create(b, loc, make(z)));
    Value imNan = isNan(z.im);
    return firstOf(
        {{isInf(z.im), {inf(), z.im}},
         {isPosInf(z.re), {inf(), select(imNan, z.im, copysign(c(0.0), z.im))}},
         {isNegInf(z.re), {select(imNan, z.im, c(0.0)), copysign(inf(), z.im)}},
         {either(isNan(z.re), imNan), {nan(), nan()}}},
        {r.re, select(isZero(r.im), copysign(c(0.0), z.im), r.im)});
  }

  Parts rsqrtOf(Value z, Parts p) {
    Parts upstream = partsOf(complex::RsqrtOp::create(b, loc, z));
    Parts special = divOf({c(1.0), c(0.0)}, sqrtOf(p));
    Value condition = specialOrZeroPart(p);
    return {select(condition, special.re, upstream.re),
            select(condition, special.im, upstream.im)};
  }

  /// Smith's quotient, and libc++'s third case (a finite numerator over an
  /// infinite denominator) directly.
  Parts divOf(Parts x, Parts y) {
    Parts q = partsOf(complex::DivOp::create(b, loc, make(x), make(y)));
    Value finiteNumInfDenom =
        both(both(isFinite(x.re), isFinite(x.im)), anyInf(y));
    Value reSign = copysign(select(isInf(y.re), c(1.0), c(0.0)), y.re);
    Value imSign = copysign(select(isInf(y.im), c(1.0), c(0.0)), y.im);
    Value re = mul(c(0.0), add(mul(x.re, reSign), mul(x.im, imSign)));
    Value im = mul(c(0.0), sub(mul(x.im, reSign), mul(x.re, imSign)));
    return {select(finiteNumInfDenom, re, q.re),
            select(finiteNumInfDenom, im, q.im)};
  }

  /// (ac - bd, ad + bc), and libc++'s recovery of infinities where both
  /// parts are NaN (ComplexSemantics.h's complexMul, its ifs as selects).
  Parts mulOf(Parts x, Parts y) {
    Parts m = partsOf(complex::MulOp::create(b, loc, make(x), make(y)));
    Value a = x.re, bb = x.im, cc = y.re, d = y.im;
    Value ac = mul(a, cc), bd = mul(bb, d), ad = mul(a, d), bc = mul(bb, cc);
    auto unit = [&](Value v) {
      return copysign(select(isInf(v), c(1.0), c(0.0)), v);
    };
    auto zeroNaN = [&](Value v) {
      return select(isNan(v), copysign(c(0.0), v), v);
    };
    Value abInf = either(isInf(a), isInf(bb));
    Value a1 = select(abInf, unit(a), a), b1 = select(abInf, unit(bb), bb);
    Value c1 = select(abInf, zeroNaN(cc), cc),
          d1 = select(abInf, zeroNaN(d), d);
    Value cdInf = either(isInf(c1), isInf(d1));
    Value c2 = select(cdInf, unit(c1), c1), d2 = select(cdInf, unit(d1), d1);
    Value a2 = select(cdInf, zeroNaN(a1), a1),
          b2 = select(cdInf, zeroNaN(b1), b1);
    Value recalcInf = either(abInf, cdInf);
    Value productInf =
        both(notOf(recalcInf), either(either(isInf(ac), isInf(bd)),
                                      either(isInf(ad), isInf(bc))));
    Value a3 = select(productInf, zeroNaN(a2), a2);
    Value b3 = select(productInf, zeroNaN(b2), b2);
    Value c3 = select(productInf, zeroNaN(c2), c2);
    Value d3 = select(productInf, zeroNaN(d2), d2);
    Value recover =
        both(both(isNan(m.re), isNan(m.im)), either(recalcInf, productInf));
    Value re = mul(inf(), sub(mul(a3, c3), mul(b3, d3)));
    Value im = mul(inf(), add(mul(a3, d3), mul(b3, c3)));
    return {select(recover, re, m.re), select(recover, im, m.im)};
  }

  /// libc++'s tanh (ComplexSemantics.h's libcxxTanh), (re, tan im) on the
  /// imaginary axis.
  Parts libcxxTanh(Parts z) {
    Value x = z.re, y = z.im;
    Value twoRe = mul(c(2.0), x), twoIm = mul(c(2.0), y);
    Value d = add(real(UnaryKind::Cosh, twoRe), real(UnaryKind::Cos, twoIm));
    Value sinhTwoRe = real(UnaryKind::Sinh, twoRe);
    Value sinTwoIm = real(UnaryKind::Sin, twoIm);
    Value one = copysign(c(1.0), x);
    return firstOf({{both(isInf(x), notFinite(y)), {one, c(0.0)}},
                    {isInf(x), {one, copysign(c(0.0), sinTwoIm)}},
                    {both(isNan(x), isZero(y)), {x, y}},
                    {both(isZero(x), isFinite(y)), {x, real(UnaryKind::Tan, y)}},
                    {both(isInf(sinhTwoRe), isInf(d)),
                     {select(isPositive(sinhTwoRe), c(1.0), c(-1.0)),
                      select(isPositive(twoIm), c(0.0), c(-0.0))}}},
                   {div(sinhTwoRe, d), div(sinTwoIm, d)});
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
    Parts l = logOf(partsOf(z));
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
    return firstOf({{both(xInf, isNan(y)), {x, y}},
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
         {both(xInf, isNegative(x)), {piTimes(1.0), select(imSign, neg(x), x)}},
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
    Parts quotient = divOf({add(c(1.0), x), y}, {add(neg(x), c(1.0)), neg(y)});
    Parts w = log(quotient);
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

Value mlir::fuser::emitComplexBinaryFunction(OpBuilder &b, Location loc,
                                             BinaryKind kind, Value x, Value y,
                                             RealUnaryEmitter realUnary) {
  return ComplexFunctionEmitter(b, loc, cast<ComplexType>(x.getType()),
                                realUnary)
      .emit(kind, x, y);
}
