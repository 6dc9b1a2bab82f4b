//===- PortableMath.h - f32 math functions any vector width computes alike ===//
//
// exp, log, tanh and erf on f32, each written once as a sequence of IEEE
// operations (add, mul, fma, divide, comparisons, selects, integer and bit
// operations) over an evaluator: ScalarMath below computes them on one float
// (the reference interpreter and the constant folder, through
// ElementSemantics.h), and the CPU backend's fuser-expand-math pass emits the
// same sequence as arith/math ops on scalars or vectors of any width. Every
// operation is exact or correctly rounded, and none depends on the rounding
// mode, so the interpreter and a vectorized kernel agree to the bit, where
// libm would have forced one scalar call per element.
//
// Accuracy against the correctly rounded result, measured over all 2^32 f32
// inputs against the host's f64 functions (bench/portable_math_accuracy.cpp;
// ExpandMathTest checks samples): exp, log, tanh and erf within 1 ulp
// (CUDA's expf, tanhf and erff: 2 ulp; logf: 1 ulp). The algorithms are Cephes' (exp,
// log, tanh) and a fit of our own (erf); constants are exact f32 values.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_PORTABLEMATH_H
#define FUSER_DIALECT_FUSER_IR_PORTABLEMATH_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace mlir::fuser::portable {

/// x rounded to the nearest integer, ties to even, whatever the rounding
/// mode (llvm.roundeven; not std::nearbyint): std::round rounds ties away
/// from zero, so a tie is rounded as half of it.
template <typename T> T roundHalfToEven(T x) {
  return std::fabs(x - std::trunc(x)) == T(0.5) ? T(2) * std::round(x / T(2))
                                                : std::round(x);
}

/// The evaluator of one float: each member is the one IEEE operation (or
/// exact bit operation) that the IR evaluator emits for it.
struct ScalarMath {
  using F = float;
  using I = int32_t;
  using B = bool;

  F constant(float value) { return value; }
  I constantInt(int32_t value) { return value; }
  F add(F a, F b) { return a + b; }
  F sub(F a, F b) { return a - b; }
  F mul(F a, F b) { return a * b; }
  F div(F a, F b) { return a / b; }
  F fma(F a, F b, F c) { return std::fma(a, b, c); }
  F abs(F a) { return std::fabs(a); }
  F copySign(F magnitude, F sign) { return std::copysign(magnitude, sign); }
  F roundEven(F a) { return roundHalfToEven(a); }
  /// NaN operands give the other operand (arith.minnumf/maxnumf); the
  /// callers never compare zeros of both signs.
  F minNum(F a, F b) { return std::fmin(a, b); }
  F maxNum(F a, F b) { return std::fmax(a, b); }
  B less(F a, F b) { return a < b; }
  B isNaN(F a) { return a != a; }
  F select(B condition, F a, F b) { return condition ? a : b; }
  I selectInt(B condition, I a, I b) { return condition ? a : b; }
  I bitsOf(F a) {
    I bits;
    std::memcpy(&bits, &a, sizeof(bits));
    return bits;
  }
  F fromBits(I bits) {
    F a;
    std::memcpy(&a, &bits, sizeof(a));
    return a;
  }
  /// Truncating; callers keep the operand in range.
  I toInt(F a) { return static_cast<I>(a); }
  F toFloat(I a) { return static_cast<F>(a); }
  I addInt(I a, I b) { return static_cast<I>(static_cast<uint32_t>(a) +
                                             static_cast<uint32_t>(b)); }
  I subInt(I a, I b) { return static_cast<I>(static_cast<uint32_t>(a) -
                                             static_cast<uint32_t>(b)); }
  I andInt(I a, I b) { return a & b; }
  I orInt(I a, I b) { return a | b; }
  I shiftLeft(I a, I amount) {
    return static_cast<I>(static_cast<uint32_t>(a) << amount);
  }
  I shiftRightArithmetic(I a, I amount) { return a >> amount; }
};

/// Horner's rule with one fma per coefficient, highest degree first.
template <typename Ops, size_t N>
typename Ops::F polynomial(Ops &o, typename Ops::F x,
                           const float (&coefficients)[N]) {
  typename Ops::F result = o.constant(coefficients[0]);
  for (size_t i = 1; i < N; ++i)
    result = o.fma(result, x, o.constant(coefficients[i]));
  return result;
}

/// y 2^k for an integral float k in [-252, 254], by two powers of two
/// that are normal floats (so that a subnormal result rounds once).
template <typename Ops>
typename Ops::F scaleByPowerOfTwo(Ops &o, typename Ops::F y,
                                  typename Ops::F k) {
  using I = typename Ops::I;
  I ki = o.toInt(k);
  I half = o.shiftRightArithmetic(ki, o.constantInt(1));
  I rest = o.subInt(ki, half);
  auto power = [&](I e) {
    return o.fromBits(o.shiftLeft(o.addInt(e, o.constantInt(127)),
                                  o.constantInt(23)));
  };
  // Sequenced, so that the emitted IR does not depend on the order in
  // which a compiler evaluates arguments.
  auto first = power(half);
  auto second = power(rest);
  return o.mul(o.mul(y, first), second);
}

/// e^x: x = k ln2 + r with |r| <= ln2 / 2 (ln2 in two parts, so r is
/// exact), e^r by Cephes' expf polynomial, times 2^k.
template <typename Ops> typename Ops::F exp(Ops &o, typename Ops::F x) {
  using F = typename Ops::F;
  static constexpr float coefficients[] = {
      1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f,
      4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f};
  // Beyond these, e^x overflows or rounds to 0 anyway; NaN becomes a
  // bound here and is restored at the end.
  F clamped = o.minNum(o.maxNum(x, o.constant(-104.0f)), o.constant(89.0f));
  F k = o.roundEven(o.mul(clamped, o.constant(1.44269504088896341f)));
  F r = o.fma(k, o.constant(-0.693359375f), clamped);
  r = o.fma(k, o.constant(2.12194440e-4f), r);
  F r2 = o.mul(r, r);
  F y = o.add(o.fma(polynomial(o, r, coefficients), r2, r), o.constant(1.0f));
  F result = scaleByPowerOfTwo(o, y, k);
  return o.select(o.isNaN(x), x, result);
}

/// ln x: x = m 2^e with m in [sqrt(1/2), sqrt(2)) (subnormals scaled up
/// first), ln m = f - f^2/2 + f^3 P(f) for f = m - 1 by Cephes' logf
/// polynomial, plus e ln2 in two parts.
template <typename Ops> typename Ops::F log(Ops &o, typename Ops::F x) {
  using F = typename Ops::F;
  using I = typename Ops::I;
  static constexpr float coefficients[] = {
      7.0376836292e-2f,  -1.1514610310e-1f, 1.1676998740e-1f,
      -1.2420140846e-1f, 1.4249322787e-1f,  -1.6668057665e-1f,
      2.0000714765e-1f,  -2.4999993993e-1f, 3.3333331174e-1f};
  auto subnormal = o.less(x, o.constant(0x1p-126f));
  F scaled = o.select(subnormal, o.mul(x, o.constant(0x1p23f)), x);
  I bits = o.bitsOf(scaled);
  // The exponent for a mantissa in [0.5, 1).
  I e = o.subInt(o.shiftRightArithmetic(bits, o.constantInt(23)),
                 o.constantInt(126));
  e = o.subInt(e, o.selectInt(subnormal, o.constantInt(23), o.constantInt(0)));
  F m = o.fromBits(o.orInt(o.andInt(bits, o.constantInt(0x007fffff)),
                           o.constantInt(0x3f000000)));
  // m < sqrt(1/2): use 2m and e - 1, so that m - 1 is in [-0.29, 0.41).
  auto low = o.less(m, o.constant(0.707106781186547524f));
  F f = o.sub(o.select(low, o.add(m, m), m), o.constant(1.0f));
  F exponent = o.sub(o.toFloat(e), o.select(low, o.constant(1.0f),
                                            o.constant(0.0f)));
  F f2 = o.mul(f, f);
  F y = o.mul(o.mul(polynomial(o, f, coefficients), f), f2);
  y = o.fma(exponent, o.constant(-2.12194440e-4f), y);
  y = o.fma(f2, o.constant(-0.5f), y);
  F result = o.fma(exponent, o.constant(0.693359375f), o.add(f, y));
  // ln 0 = -inf, ln of a negative or NaN is NaN, ln inf = inf.
  result = o.select(o.less(o.constant(0.0f), x), result,
                    o.select(o.less(x, o.constant(0.0f)),
                             o.constant(NAN), o.constant(-INFINITY)));
  result = o.select(o.less(x, o.constant(INFINITY)), result, x);
  return o.select(o.isNaN(x), x, result);
}

/// tanh x: x + x^3 P(x^2) by Cephes' tanhf polynomial where |x| < 0.625,
/// else 1 - 2 / (e^{2|x|} + 1) with the sign of x.
template <typename Ops> typename Ops::F tanh(Ops &o, typename Ops::F x) {
  using F = typename Ops::F;
  static constexpr float coefficients[] = {
      -5.70498872745e-3f, 2.06390887954e-2f, -5.37397155531e-2f,
      1.33314422036e-1f, -3.33332819422e-1f};
  F x2 = o.mul(x, x);
  F small = o.fma(o.mul(polynomial(o, x2, coefficients), x2), x, x);
  // Past 9.01, tanh rounds to 1; from 10 on, so does 1 - 2 / (e^20 + 1).
  F magnitude = o.minNum(o.abs(x), o.constant(10.0f));
  F large = o.sub(o.constant(1.0f),
                  o.div(o.constant(2.0f),
                        o.add(exp(o, o.add(magnitude, magnitude)),
                              o.constant(1.0f))));
  F result = o.select(o.less(o.abs(x), o.constant(0.625f)), small,
                      o.copySign(large, x));
  return o.select(o.isNaN(x), x, result);
}

/// erf x: x + x P(x^2) where |x| < 1; else 1 - e^{Q(|x| - 1)} with the
/// sign of x, where Q fits ln erfc on [1, 4] (past 4, erf rounds to 1).
/// Q is taken around 1, where erfc is largest and its error shows most.
/// P and Q are minimax fits with f32 coefficients (Lawson's algorithm
/// against mpmath, each coefficient rounded in turn and the rest refitted).
template <typename Ops> typename Ops::F erf(Ops &o, typename Ops::F x) {
  using F = typename Ops::F;
  static constexpr float smallCoefficients[] = {
      7.8891229350e-05f,  -8.0208422150e-04f, 5.1895352080e-03f,
      -2.6854444295e-02f, 1.1283600330e-01f,  -3.7612625957e-01f,
      1.2837916613e-01f};
  static constexpr float largeCoefficients[] = {
      -2.9162518445e-07f, 3.3119738418e-06f,  -1.4391368495e-05f,
      1.0076592844e-05f,  2.5043918868e-04f,  -1.9845983479e-03f,
      1.0035899468e-02f,  -4.1561458260e-02f, -8.4310722351e-01f,
      -2.6389675140e+00f, -1.8496055603e+00f};
  F small = o.fma(x, polynomial(o, o.mul(x, x), smallCoefficients), x);
  // |x| - 1 is exact on [1, 4].
  F u = o.sub(o.minNum(o.maxNum(o.abs(x), o.constant(1.0f)),
                       o.constant(4.0f)),
              o.constant(1.0f));
  F large = o.sub(o.constant(1.0f),
                  exp(o, polynomial(o, u, largeCoefficients)));
  F result = o.select(o.less(o.abs(x), o.constant(1.0f)), small,
                      o.copySign(large, x));
  return o.select(o.isNaN(x), x, result);
}

} // namespace mlir::fuser::portable

namespace mlir::fuser::semantics {
namespace detail {
template <float (*Function)(portable::ScalarMath &, float)>
float onScalar(float x) {
  portable::ScalarMath o;
  return Function(o, x);
}
} // namespace detail

/// The interpreter's exp, log, tanh and erf in its compute types: f32 (f16
/// and bf16 compute in it) by the algorithms above, f64 by the C library.
inline float expOf(float x) {
  return detail::onScalar<portable::exp<portable::ScalarMath>>(x);
}
inline float logOf(float x) {
  return detail::onScalar<portable::log<portable::ScalarMath>>(x);
}
inline float tanhOf(float x) {
  return detail::onScalar<portable::tanh<portable::ScalarMath>>(x);
}
inline float erfOf(float x) {
  return detail::onScalar<portable::erf<portable::ScalarMath>>(x);
}
inline double expOf(double x) { return std::exp(x); }
inline double logOf(double x) { return std::log(x); }
inline double tanhOf(double x) { return std::tanh(x); }
inline double erfOf(double x) { return std::erf(x); }
} // namespace mlir::fuser::semantics

#endif // FUSER_DIALECT_FUSER_IR_PORTABLEMATH_H
