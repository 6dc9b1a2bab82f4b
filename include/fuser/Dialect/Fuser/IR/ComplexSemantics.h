//===- ComplexSemantics.h - scalar semantics of complex elements -*- C++
//-*-===//
//
// What the elementwise ops compute on complex<f32> and complex<f64>
// elements: the reference the interpreter uses. The lowering does not
// restate these: FuserToArith emits upstream's `complex` dialect and
// `convert-complex-to-standard` (complex-range=improved) expands it, so each
// function here follows that conversion's arith/math expansion step for step
// (mlir/lib/Conversion/ComplexToStandard and ComplexCommon/DivisionConverter
// as LLVM 22.1 has them: `mlir-opt --convert-complex-to-standard` prints
// each), and FuserToArithTest checks both against each other on every pair
// of special parts.
//
// Consequences, stated in the ops' descriptions: add, sub, neg, mul, div, eq
// and ne round each real operation once (mul is (ac - bd, ad + bc) without
// C Annex G's recovery of infinities from NaN; div is Smith's algorithm with
// the expansion's corner cases), so they are exact to the bit on every
// backend. abs, exp, log, sqrt, sin, cos, tan and tanh combine the math
// library's real functions and inherit their ulp bounds.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_COMPLEXSEMANTICS_H
#define FUSER_DIALECT_FUSER_IR_COMPLEXSEMANTICS_H

#include "fuser/Dialect/Fuser/IR/PortableMath.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace mlir::fuser::semantics {

/// A complex element as memory holds it: the real part, then the imaginary
/// part (the layout of std::complex and of LLVM's {T, T}). No operators: each
/// op below says how it computes.
template <typename T> struct Complex {
  static_assert(std::is_floating_point_v<T>, "complex of f32 or f64");
  using Component = T;
  T re, im;
};

template <typename T> struct IsComplex : std::false_type {};
template <typename T> struct IsComplex<Complex<T>> : std::true_type {};
template <typename T> constexpr bool isComplexV = IsComplex<T>::value;

namespace complex_detail {
/// arith.maximumf / arith.minimumf: NaN if either operand is NaN.
template <typename T> T maximumF(T a, T b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <typename T> T minimumF(T a, T b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
} // namespace complex_detail

namespace complex_detail {
/// Whether a part is infinite or NaN.
template <typename T> bool nonFinite(Complex<T> z) {
  return !std::isfinite(z.re) || !std::isfinite(z.im);
}
/// Whether z takes libc++'s path for the special values (C99 Annex G): a
/// part infinite, NaN or zero.
template <typename T> bool specialOrZeroPart(Complex<T> z) {
  return nonFinite(z) || z.re == T(0) || z.im == T(0);
}
} // namespace complex_detail

/// upstream's |z|: max * sqrt(1 + (min / max)^2), and min where that is NaN.
template <typename T> T upstreamAbs(Complex<T> z) {
  using namespace complex_detail;
  T absRe = std::fabs(z.re), absIm = std::fabs(z.im);
  T max = maximumF(absRe, absIm), min = minimumF(absRe, absIm);
  T ratio = min / max;
  T result = max * std::sqrt(ratio * ratio + T(1));
  return std::isnan(result) ? min : result;
}

/// |z|: upstream's, and +inf where a part is infinite (hypot's rule, as
/// libc++'s abs and Annex G: |inf + nan i| = inf).
template <typename T> T complexAbs(Complex<T> z) {
  if (std::isinf(z.re) || std::isinf(z.im))
    return std::numeric_limits<T>::infinity();
  return upstreamAbs(z);
}

/// (ac - bd, ad + bc), and where both parts are NaN libc++'s operator*
/// (C Annex G's recovery of infinities): infinite parts become +-1, NaN
/// parts +-0, and the product is recomputed times infinity.
template <typename T> Complex<T> complexMul(Complex<T> x, Complex<T> y) {
  T a = x.re, b = x.im, c = y.re, d = y.im;
  T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  T re = ac - bd;
  T im = bc + ad;
  if (!(std::isnan(re) && std::isnan(im)))
    return {re, im};
  auto unit = [](T v) { return std::copysign(std::isinf(v) ? T(1) : T(0), v); };
  auto zeroNaN = [](T v) { return std::isnan(v) ? std::copysign(T(0), v) : v; };
  bool recalc = false;
  if (std::isinf(a) || std::isinf(b)) {
    a = unit(a);
    b = unit(b);
    c = zeroNaN(c);
    d = zeroNaN(d);
    recalc = true;
  }
  if (std::isinf(c) || std::isinf(d)) {
    c = unit(c);
    d = unit(d);
    a = zeroNaN(a);
    b = zeroNaN(b);
    recalc = true;
  }
  if (!recalc &&
      (std::isinf(ac) || std::isinf(bd) || std::isinf(ad) || std::isinf(bc))) {
    a = zeroNaN(a);
    b = zeroNaN(b);
    c = zeroNaN(c);
    d = zeroNaN(d);
    recalc = true;
  }
  if (!recalc)
    return {re, im};
  const T inf = std::numeric_limits<T>::infinity();
  return {inf * (a * c - b * d), inf * (a * d + b * c)};
}

/// Smith's algorithm with the corner cases of DivisionConverter's
/// convertDivToStandardUsingRangeReduction; a finite numerator over an
/// infinite denominator takes the third case directly, as libc++ does.
template <typename T> Complex<T> complexDiv(Complex<T> a, Complex<T> b) {
  const T inf = std::numeric_limits<T>::infinity();
  T ratio1 = b.re / b.im;
  T denom1 = b.im + ratio1 * b.re;
  T re1 = (a.re * ratio1 + a.im) / denom1;
  T im1 = (a.im * ratio1 - a.re) / denom1;
  T ratio2 = b.im / b.re;
  T denom2 = b.re + ratio2 * b.im;
  T re2 = (a.re + a.im * ratio2) / denom2;
  T im2 = (a.im - a.re * ratio2) / denom2;

  T bReAbs = std::fabs(b.re), bImAbs = std::fabs(b.im);
  T aReAbs = std::fabs(a.re), aImAbs = std::fabs(a.im);
  // 1. Zero denominator, at most one NaN in the numerator.
  bool resultIsInfinity = (!std::isnan(a.re) || !std::isnan(a.im)) &&
                          bReAbs == T(0) && bImAbs == T(0);
  T signedInf = std::copysign(inf, b.re);
  T re3 = signedInf * a.re, im3 = signedInf * a.im;
  // 2. Infinite numerator, finite denominator.
  bool bFinite = (bReAbs != inf && !std::isnan(bReAbs)) &&
                 (bImAbs != inf && !std::isnan(bImAbs));
  bool aReInf = aReAbs == inf, aImInf = aImAbs == inf;
  bool infNumFiniteDenom = (aReInf || aImInf) && bFinite;
  T aReSign = std::copysign(aReInf ? T(1) : T(0), a.re);
  T aImSign = std::copysign(aImInf ? T(1) : T(0), a.im);
  T re4 = inf * (aReSign * b.re + aImSign * b.im);
  T im4 = inf * (aImSign * b.re - aReSign * b.im);
  // 3. Finite numerator, infinite denominator.
  bool aFinite = (aReAbs != inf && !std::isnan(aReAbs)) &&
                 (aImAbs != inf && !std::isnan(aImAbs));
  bool bReInf = bReAbs == inf, bImInf = bImAbs == inf;
  bool finiteNumInfDenom = aFinite && (bReInf || bImInf);
  T bReSign = std::copysign(bReInf ? T(1) : T(0), b.re);
  T bImSign = std::copysign(bImInf ? T(1) : T(0), b.im);
  T re5 = T(0) * (a.re * bReSign + a.im * bImSign);
  T im5 = T(0) * (a.im * bReSign - a.re * bImSign);

  // libc++'s operator/ always reaches its third case here (its quotient is
  // NaN in both parts); Smith's may not, with other signs of zero.
  if (finiteNumInfDenom)
    return {re5, im5};
  bool reFirst = bReAbs < bImAbs;
  T re = reFirst ? re1 : re2, im = reFirst ? im1 : im2;
  if (!(std::isnan(re) && std::isnan(im)))
    return {re, im};
  if (resultIsInfinity)
    return {re3, im3};
  if (infNumFiniteDenom)
    return {re4, im4};
  if (finiteNumInfDenom)
    return {re5, im5};
  return {re, im};
}

/// e^z = e^re (cos im, sin im); where e^re overflows, e^(re/2) scales
/// twice, and a zero imaginary part gives +0 (upstream's expansion).
template <typename T> Complex<T> upstreamExp(Complex<T> z) {
  T expRe = expOf(z.re), expHalf = expOf(z.re * T(0.5));
  T cos = std::cos(z.im), sin = std::sin(z.im);
  bool overflows = expRe == std::numeric_limits<T>::infinity();
  T re = overflows ? (expHalf * cos) * expHalf : expRe * cos;
  T im = overflows ? (expHalf * sin) * expHalf : expRe * sin;
  return {re, z.im == T(0) ? T(0) : im};
}

/// e^z: upstream's, with libc++'s special values: a zero imaginary part
/// stays (its sign too), e^(+inf + i y) = (inf, nan) and e^(-inf + i y) =
/// (0, 0) for y infinite or NaN.
template <typename T> Complex<T> complexExp(Complex<T> z) {
  const T inf = std::numeric_limits<T>::infinity();
  if (z.re == inf && !std::isfinite(z.im))
    return {inf, std::numeric_limits<T>::quiet_NaN()};
  if (z.re == -inf && !std::isfinite(z.im))
    return {T(0), T(0)};
  Complex<T> e = upstreamExp(z);
  return {e.re, z.im == T(0) ? z.im : e.im};
}

/// upstream's log z = (log |z|, atan2(im, re)) with upstream's |z|.
template <typename T> Complex<T> upstreamLog(Complex<T> z) {
  return {logOf(upstreamAbs(z)), std::atan2(z.im, z.re)};
}

/// log z = (log |z|, atan2(im, re)): upstream's, with +inf as the real part
/// where a part is infinite (libc++'s log(abs(z)), abs by hypot).
template <typename T> Complex<T> complexLog(Complex<T> z) {
  Complex<T> l = upstreamLog(z);
  if (std::isinf(z.re) || std::isinf(z.im))
    l.re = std::numeric_limits<T>::infinity();
  return l;
}

/// sqrt z = sqrt|z| (cos(arg/2), sin(arg/2)) with |z|'s square root as
/// sqrt(max) * (1 + (min/max)^2)^0.25, and the infinite and zero cases.
template <typename T> Complex<T> upstreamSqrt(Complex<T> z) {
  using namespace complex_detail;
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  T absRe = std::fabs(z.re), absIm = std::fabs(z.im);
  T max = maximumF(absRe, absIm), min = minimumF(absRe, absIm);
  T ratio = min / max;
  T absSqrt = std::sqrt(max) * std::pow(ratio * ratio + T(1), T(0.25));
  if (std::isnan(absSqrt))
    absSqrt = min;
  T half = std::atan2(z.im, z.re) * T(0.5);
  T cos = std::cos(half), sin = std::sin(half);
  T re = absSqrt * cos;
  T im = sin == T(0) ? T(0) : absSqrt * sin;
  bool imagIsInf = absIm == inf;
  bool realIsInf = z.re == inf, realIsNegInf = z.re == -inf;
  if (realIsNegInf && !imagIsInf && !std::isnan(absIm))
    re = T(0);
  if (imagIsInf || realIsInf)
    re = inf;
  if (std::isnan(absSqrt))
    im = nan;
  if (imagIsInf || realIsNegInf)
    im = std::copysign(inf, z.im);
  if (absSqrt == T(0))
    return {T(0), T(0)};
  return {re, im};
}

/// sqrt z: upstream's, with libc++'s special values (first match wins):
/// (inf, im) for an infinite im; (inf, +-0 or NaN) for re = +inf; (+0 or
/// NaN, +-inf) for re = -inf; (nan, nan) for a NaN part; and a zero
/// imaginary part of the result takes im's sign (sqrt(conj z) =
/// conj(sqrt z)).
template <typename T> Complex<T> complexSqrt(Complex<T> z) {
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  if (std::isinf(z.im))
    return {inf, z.im};
  if (z.re == inf)
    return {inf, std::isnan(z.im) ? z.im : std::copysign(T(0), z.im)};
  if (z.re == -inf)
    return {std::isnan(z.im) ? z.im : T(0), std::copysign(inf, z.im)};
  if (std::isnan(z.re) || std::isnan(z.im))
    return {nan, nan};
  Complex<T> r = upstreamSqrt(z);
  return {r.re, r.im == T(0) ? std::copysign(T(0), z.im) : r.im};
}

/// 1 / sqrt: |z|'s rsqrt as rsqrt(max) * sqrt(rsqrt(1 + (min/max)^2)) (and
/// rsqrt(min) where that is NaN), each rsqrt as 1 / sqrt (fuser.rsqrt's
/// definition, which the lowering substitutes for math.rsqrt), turned by
/// -arg/2, with the zero and infinite cases.
template <typename T> Complex<T> upstreamRsqrt(Complex<T> z) {
  using namespace complex_detail;
  const T inf = std::numeric_limits<T>::infinity();
  auto rsqrt = [](T x) { return T(1) / std::sqrt(x); };
  T absRe = std::fabs(z.re), absIm = std::fabs(z.im);
  T max = maximumF(absRe, absIm), min = minimumF(absRe, absIm);
  T ratio = min / max;
  T absRsqrt = rsqrt(max) * std::sqrt(rsqrt(ratio * ratio + T(1)));
  if (std::isnan(absRsqrt))
    absRsqrt = rsqrt(min);
  T angle = std::atan2(z.im, z.re) * T(-0.5);
  T re = absRsqrt * std::cos(angle), im = absRsqrt * std::sin(angle);
  if ((absIm == inf && std::isnan(z.re)) || absRe == inf) {
    re = std::copysign(T(0), z.re);
    im = T(-1) * std::copysign(T(0), z.im);
  }
  if (z.re == T(0) && z.im == T(0))
    return {inf, std::numeric_limits<T>::quiet_NaN()};
  return {re, im};
}

template <typename T> Complex<T> complexDiv(Complex<T> a, Complex<T> b);

/// 1 / sqrt z: upstream's, and where a part is infinite, NaN or zero the
/// quotient 1 / sqrt(z) of the functions here (libc++'s ops).
template <typename T> Complex<T> complexRsqrt(Complex<T> z) {
  if (complex_detail::specialOrZeroPart(z))
    return complexDiv(Complex<T>{T(1), T(0)}, complexSqrt(z));
  return upstreamRsqrt(z);
}

/// z^w = |z|^c e^(-d arg z) (cos q, sin q), q = c arg z + d log|z|, with
/// the expansion's cases for a zero, one or infinite base and a zero
/// exponent.
template <typename T> Complex<T> upstreamPow(Complex<T> z, Complex<T> w) {
  const T inf = std::numeric_limits<T>::infinity();
  T a = z.re, b = z.im, c = w.re, d = w.im;
  T abs = upstreamAbs(z);
  T arg = std::atan2(b, a);
  T coeff = std::pow(abs, c) * expOf(-d * arg);
  T q = c * arg + d * logOf(abs);
  Complex<T> result{coeff * std::cos(q), coeff * std::sin(q)};
  const Complex<T> one{T(1), T(0)}, zero{T(0), T(0)};
  if (abs == T(0) && d == T(0) && T(0) <= c)
    result = c == T(0) ? one : zero;
  if (c == T(0) && d == T(0))
    result = one;
  if (a == T(1) && b == T(0))
    result = one;
  if (a == inf && b == T(0) && d == T(0) && c > T(0))
    result = {inf, T(0)};
  if (a == inf && b == T(0) && d == T(0) && c < T(0))
    result = zero;
  return result;
}

/// z^w: upstream's, and where a part of z or w is infinite or NaN libc++'s
/// pow, e^(w log z) with the mul, log and exp here.
template <typename T> Complex<T> complexPow(Complex<T> z, Complex<T> w) {
  if (complex_detail::nonFinite(z) || complex_detail::nonFinite(w))
    return complexExp(complexMul(w, complexLog(z)));
  return upstreamPow(z, w);
}

/// sin and cos from t = e^im: sin z = ((t/2 + 0.5/t) sin re,
/// (t/2 - 0.5/t) cos re), cos z = ((0.5/t + t/2) cos re,
/// (0.5/t - t/2) sin re).
template <typename T> Complex<T> upstreamSin(Complex<T> z) {
  T exp = expOf(z.im);
  T scaled = T(0.5) * exp, reciprocal = T(0.5) / exp;
  return {(scaled + reciprocal) * std::sin(z.re),
          (scaled - reciprocal) * std::cos(z.re)};
}
template <typename T> Complex<T> upstreamCos(Complex<T> z) {
  T exp = expOf(z.im);
  T scaled = T(0.5) * exp, reciprocal = T(0.5) / exp;
  return {(reciprocal + scaled) * std::cos(z.re),
          (reciprocal - scaled) * std::sin(z.re)};
}

/// tanh z from expm1(±2 re), cos im and sin im; tan z = -i tanh(i z).
template <typename T> Complex<T> upstreamTanh(Complex<T> z) {
  const T inf = std::numeric_limits<T>::infinity();
  T twoRe = z.re + z.re;
  T negTwoRe = T(-1) * twoRe;
  T expTwoReM1 = std::expm1(twoRe), expNegTwoReM1 = std::expm1(negTwoRe);
  T realNum = expTwoReM1 - expNegTwoReM1;
  T cosIm = std::cos(z.im);
  T fourCosSq = cosIm * cosIm * T(4);
  T imagNum = T(4) * (cosIm * std::sin(z.im));
  T expSumMinusTwo = expTwoReM1 + expNegTwoReM1;
  T denom = expSumMinusTwo + fourCosSq;
  T re = expSumMinusTwo == inf ? std::copysign(T(1), z.re) : realNum / denom;
  T im = imagNum / denom;
  bool absReIsInf = std::fabs(z.re) == inf;
  bool imagNumIsNaN = std::isnan(imagNum);
  if (imagNumIsNaN && !absReIsInf)
    re = std::numeric_limits<T>::quiet_NaN();
  if (z.im == T(0) || (absReIsInf && imagNumIsNaN))
    im = T(0);
  return {re, im};
}
template <typename T> Complex<T> upstreamTan(Complex<T> z) {
  Complex<T> t = upstreamTanh(Complex<T>{z.im * T(-1), z.re});
  return {t.im, t.re * T(-1)};
}

//===----------------------------------------------------------------------===//
// Functions nvFuser's runtime composes (runtime/complex_number.cu, from
// libc++'s <complex>): its special cases for infinite and NaN parts, first
// match wins, then its formula, built from the functions above (upstream's
// expansions, not libc++'s log, sqrt, exp and division). The lowering
// (FuserToArith's ComplexFunctions.cpp) emits the same steps.
//===----------------------------------------------------------------------===//

namespace complex_detail {
template <typename T> T pi() { return static_cast<T>(3.14159265358979323846); }
/// z^2 as libc++'s __sqr: ((re - im)(re + im), 2 re im).
template <typename T> Complex<T> square(Complex<T> z) {
  return {(z.re - z.im) * (z.re + z.im), T(2) * z.re * z.im};
}
template <typename T> Complex<T> add(Complex<T> a, Complex<T> b) {
  return {a.re + b.re, a.im + b.im};
}
/// log(z) / c for a real c, part by part.
template <typename T> Complex<T> logOver(Complex<T> z, T c) {
  Complex<T> l = complexLog(z);
  return {l.re / c, l.im / c};
}
} // namespace complex_detail

/// log10 z = log z / log 10 and log2 z = log z / log 2, part by part.
template <typename T> Complex<T> complexLog10(Complex<T> z) {
  return complex_detail::logOver(z, logOf(T(10)));
}
template <typename T> Complex<T> complexLog2(Complex<T> z) {
  return complex_detail::logOver(z, logOf(T(2)));
}

/// sinh z = (sinh re cos im, cosh re sin im).
template <typename T> Complex<T> complexSinh(Complex<T> z) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  if (std::isinf(z.re) && !std::isfinite(z.im))
    return {z.re, nan};
  if (z.re == T(0) && !std::isfinite(z.im))
    return {z.re, nan};
  if (z.im == T(0) && !std::isfinite(z.re))
    return z;
  return {std::sinh(z.re) * std::cos(z.im), std::cosh(z.re) * std::sin(z.im)};
}

/// cosh z = (cosh re cos im, sinh re sin im).
template <typename T> Complex<T> complexCosh(Complex<T> z) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  if (std::isinf(z.re) && !std::isfinite(z.im))
    return {std::fabs(z.re), nan};
  if (z.re == T(0) && !std::isfinite(z.im))
    return {nan, z.re};
  if (z.re == T(0) && z.im == T(0))
    return {T(1), z.im};
  if (z.im == T(0) && !std::isfinite(z.re))
    return {std::fabs(z.re), z.im};
  return {std::cosh(z.re) * std::cos(z.im), std::sinh(z.re) * std::sin(z.im)};
}

/// libc++'s tanh: its special cases, then (sinh 2re, sin 2im) / (cosh 2re +
/// cos 2im). On the imaginary axis (a zero real part, a finite imaginary
/// one) that formula is sin 2y / (1 + cos 2y), which cancels wherever
/// cos 2y is near -1 (33 ulp at tanh(1.5i); NaN real part where cos 2y
/// rounds to -1): there it is (re, tan im) instead, libc++'s value (its
/// real part is sinh(±0) / d = re) without the cancellation.
template <typename T> Complex<T> libcxxTanh(Complex<T> z) {
  if (std::isinf(z.re)) {
    if (!std::isfinite(z.im))
      return {std::copysign(T(1), z.re), T(0)};
    return {std::copysign(T(1), z.re),
            std::copysign(T(0), std::sin(T(2) * z.im))};
  }
  if (std::isnan(z.re) && z.im == T(0))
    return z;
  if (z.re == T(0) && std::isfinite(z.im))
    return {z.re, std::tan(z.im)};
  T twoRe = T(2) * z.re, twoIm = T(2) * z.im;
  T d = std::cosh(twoRe) + std::cos(twoIm);
  T sinhTwoRe = std::sinh(twoRe);
  if (std::isinf(sinhTwoRe) && std::isinf(d))
    return {sinhTwoRe > T(0) ? T(1) : T(-1), twoIm > T(0) ? T(0) : T(-0.0)};
  return {sinhTwoRe / d, std::sin(twoIm) / d};
}

/// sin, cos, tan and tanh: upstream's, and where a part is infinite, NaN or
/// zero libc++'s (sin z = -i sinh(iz), cos z = cosh(iz), tan z =
/// -i tanh(iz), with sinh, cosh and tanh above; so tanh(iy) = i tan y and
/// tan(x + 0i) = tan x).
template <typename T> Complex<T> complexSin(Complex<T> z) {
  if (!complex_detail::specialOrZeroPart(z))
    return upstreamSin(z);
  Complex<T> w = complexSinh(Complex<T>{-z.im, z.re});
  return {w.im, -w.re};
}
template <typename T> Complex<T> complexCos(Complex<T> z) {
  if (!complex_detail::specialOrZeroPart(z))
    return upstreamCos(z);
  return complexCosh(Complex<T>{-z.im, z.re});
}
template <typename T> Complex<T> complexTanh(Complex<T> z) {
  if (!complex_detail::specialOrZeroPart(z))
    return upstreamTanh(z);
  return libcxxTanh(z);
}
template <typename T> Complex<T> complexTan(Complex<T> z) {
  if (!complex_detail::specialOrZeroPart(z))
    return upstreamTan(z);
  Complex<T> w = libcxxTanh(Complex<T>{-z.im, z.re});
  return {w.im, -w.re};
}

/// asinh z = log(z + sqrt(z^2 + 1)), the parts' signs copied from z.
template <typename T> Complex<T> complexAsinh(Complex<T> z) {
  using namespace complex_detail;
  const T pi = complex_detail::pi<T>();
  if (std::isinf(z.re)) {
    if (std::isnan(z.im))
      return z;
    if (std::isinf(z.im))
      return {z.re, std::copysign(pi * T(0.25), z.im)};
    return {z.re, std::copysign(T(0), z.im)};
  }
  if (std::isnan(z.re)) {
    if (std::isinf(z.im))
      return {z.im, z.re};
    if (z.im == T(0))
      return z;
    return {z.re, z.re};
  }
  if (std::isinf(z.im))
    return {std::copysign(z.im, z.re), std::copysign(pi / T(2), z.im)};
  Complex<T> s = square(z);
  Complex<T> w = complexLog(add(z, complexSqrt(Complex<T>{s.re + T(1), s.im})));
  return {std::copysign(w.re, z.re), std::copysign(w.im, z.im)};
}

/// acosh z = log(z + sqrt(z^2 - 1)): real part |.|, imaginary part's sign
/// from z.
template <typename T> Complex<T> complexAcosh(Complex<T> z) {
  using namespace complex_detail;
  const T pi = complex_detail::pi<T>();
  if (std::isinf(z.re)) {
    if (std::isnan(z.im))
      return {std::fabs(z.re), z.im};
    if (std::isinf(z.im)) {
      if (z.re > T(0))
        return {z.re, std::copysign(pi * T(0.25), z.im)};
      return {-z.re, std::copysign(pi * T(0.75), z.im)};
    }
    if (z.re < T(0))
      return {-z.re, std::copysign(pi, z.im)};
    return {z.re, std::copysign(T(0), z.im)};
  }
  if (std::isnan(z.re)) {
    if (std::isinf(z.im))
      return {std::fabs(z.im), z.re};
    return {z.re, z.re};
  }
  if (std::isinf(z.im))
    return {std::fabs(z.im), std::copysign(pi / T(2), z.im)};
  Complex<T> s = square(z);
  Complex<T> w = complexLog(add(z, complexSqrt(Complex<T>{s.re - T(1), s.im})));
  return {std::fabs(w.re), std::copysign(w.im, z.im)};
}

/// acos z = -i log(z + sqrt(z^2 - 1)) with the branch chosen by im's sign.
template <typename T> Complex<T> complexAcos(Complex<T> z) {
  using namespace complex_detail;
  const T pi = complex_detail::pi<T>();
  if (std::isinf(z.re)) {
    if (std::isnan(z.im))
      return {z.im, z.re};
    if (std::isinf(z.im)) {
      if (z.re < T(0))
        return {T(0.75) * pi, -z.im};
      return {T(0.25) * pi, -z.im};
    }
    if (z.re < T(0))
      return {pi, std::signbit(z.im) ? -z.re : z.re};
    return {T(0), std::signbit(z.im) ? z.re : -z.re};
  }
  if (std::isnan(z.re)) {
    if (std::isinf(z.im))
      return {z.re, -z.im};
    return {z.re, z.re};
  }
  if (std::isinf(z.im))
    return {pi / T(2), -z.im};
  if (z.re == T(0) && (z.im == T(0) || std::isnan(z.im)))
    return {pi / T(2), -z.im};
  Complex<T> s = square(z);
  Complex<T> w = complexLog(add(z, complexSqrt(Complex<T>{s.re - T(1), s.im})));
  if (std::signbit(z.im))
    return {std::fabs(w.im), std::fabs(w.re)};
  return {std::fabs(w.im), -std::fabs(w.re)};
}

/// atanh z = log((1 + z) / (1 - z)) / 2, the parts' signs copied from z.
template <typename T> Complex<T> complexAtanh(Complex<T> z) {
  const T pi = complex_detail::pi<T>();
  const T inf = std::numeric_limits<T>::infinity();
  if (std::isinf(z.im))
    return {std::copysign(T(0), z.re), std::copysign(pi / T(2), z.im)};
  if (std::isnan(z.im)) {
    if (std::isinf(z.re) || z.re == T(0))
      return {std::copysign(T(0), z.re), z.im};
    return {z.im, z.im};
  }
  if (std::isnan(z.re))
    return {z.re, z.re};
  if (std::isinf(z.re))
    return {std::copysign(T(0), z.re), std::copysign(pi / T(2), z.im)};
  if (std::fabs(z.re) == T(1) && z.im == T(0))
    return {std::copysign(inf, z.re), std::copysign(T(0), z.im)};
  // 1 - z as libc++ computes it: (-z) + 1.
  Complex<T> quotient = complexDiv(Complex<T>{T(1) + z.re, z.im},
                                   Complex<T>{-z.re + T(1), -z.im});
  Complex<T> w = complexLog(quotient);
  return {std::copysign(w.re / T(2), z.re), std::copysign(w.im / T(2), z.im)};
}

/// asin z = -i asinh(i z) and atan z = -i atanh(i z).
template <typename T> Complex<T> complexAsin(Complex<T> z) {
  Complex<T> w = complexAsinh(Complex<T>{-z.im, z.re});
  return {w.im, -w.re};
}
template <typename T> Complex<T> complexAtan(Complex<T> z) {
  Complex<T> w = complexAtanh(Complex<T>{-z.im, z.re});
  return {w.im, -w.re};
}

/// sigmoid z = 1 / (1 + e^-z).
template <typename T> Complex<T> complexSigmoid(Complex<T> z) {
  Complex<T> e = complexExp(Complex<T>{-z.re, -z.im});
  return complexDiv(Complex<T>{T(1), T(0)}, Complex<T>{T(1) + e.re, e.im});
}

} // namespace mlir::fuser::semantics

#endif // FUSER_DIALECT_FUSER_IR_COMPLEXSEMANTICS_H
