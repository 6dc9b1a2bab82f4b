//===- ElementSemantics.h - scalar semantics of the elementwise ops -*- C++
//-*-===//
//
// What each op of ElementwiseOps.def computes on one element, in the compute
// type (float for f16/bf16/f32, double, int32_t, int64_t, bool for i1,
// Complex<float> and Complex<double>, ComplexSemantics.h): the
// definition the ODS descriptions state, used by the reference interpreter
// and by the dialect's constant folder, so that folding and interpreting
// cannot disagree. The lowering to arith (FuserToArith.cpp) emits the same
// expressions and is checked against this by FuserToArithTest.
//
// Two ops are not computed in the compute type: nextafter steps in the
// storage format (nextafterBits), and erfinv/erfcinv, which no C library
// has, come from hostErfinv/hostErfcinv (ElementSemantics.cpp), which the
// CPU backend also binds to the GPU's libdevice names.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_ELEMENTSEMANTICS_H
#define FUSER_DIALECT_FUSER_IR_ELEMENTSEMANTICS_H

#include "fuser/Dialect/Fuser/IR/ComplexSemantics.h"
#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace mlir::fuser::semantics {

/// erfinv and erfcinv in f64 (an initial rational approximation refined by
/// Newton steps on the C library's erf/erfc); f32 operands are computed in
/// f64 and rounded once.
double hostErfinv(double x);
double hostErfcinv(double x);
float hostErfinvf(float x);
float hostErfcinvf(float x);

template <typename T> using Unsigned = std::make_unsigned_t<T>;

/// Integer arithmetic wraps (two's complement), as on the GPU.
template <typename T> T wrap(Unsigned<T> value) {
  return static_cast<T>(value);
}

template <typename T> T maximumOf(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b))
      return a + b;
    if (a == b) // +0 is larger than -0.
      return std::signbit(a) ? b : a;
  }
  return a > b ? a : b;
}
template <typename T> T minimumOf(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b))
      return a + b;
    if (a == b)
      return std::signbit(a) ? a : b;
  }
  return a < b ? a : b;
}

/// Integer power by squaring, wrapping; a negative exponent gives the
/// truncated real result (0 unless the base is 1 or -1).
template <typename T> T integerPow(T base, T exponent) {
  if (exponent < 0) {
    if (base == 1)
      return 1;
    if (base == -1)
      return (exponent & 1) ? -1 : 1;
    return 0;
  }
  Unsigned<T> result = 1, factor = static_cast<Unsigned<T>>(base);
  for (Unsigned<T> e = static_cast<Unsigned<T>>(exponent); e; e >>= 1) {
    if (e & 1)
      result *= factor;
    factor *= factor;
  }
  return static_cast<T>(result);
}

/// C's `%` without traps: x % 0 is x and MIN % -1 is 0.
template <typename T> T integerFmod(T a, T b) {
  if (b == 0)
    return a;
  if (b == -1)
    return 0;
  return a % b;
}

/// gcd(|a|, |b|) on the unsigned magnitudes, wrapping back (|MIN| is MIN).
template <typename T> T integerGcd(T a, T b) {
  auto magnitude = [](T v) {
    return v < 0 ? Unsigned<T>(0) - static_cast<Unsigned<T>>(v)
                 : static_cast<Unsigned<T>>(v);
  };
  Unsigned<T> x = magnitude(a), y = magnitude(b);
  while (y != 0) {
    Unsigned<T> t = x % y;
    x = y;
    y = t;
  }
  return wrap<T>(x);
}

/// The shift amount is in range: 0 <= b < the bit width.
template <typename T> bool shiftInRange(T b) {
  return b >= 0 && b < static_cast<T>(sizeof(T) * 8);
}

/// The next representable value after `a` toward `b`, stepping the storage
/// bits `aBits` (of an IEEE format whose sign is the top bit). `nan` is
/// the result for NaN operands (computed by the caller as a + b).
template <typename Bits>
Bits nextafterBits(Bits aBits, Bits bBits, double a, double b, Bits nan) {
  constexpr Bits signMask = Bits(1) << (sizeof(Bits) * 8 - 1);
  if (std::isnan(a) || std::isnan(b))
    return nan;
  if (a == b)
    return bBits;
  if (a == 0)
    return static_cast<Bits>((bBits & signMask) | 1);
  // Sign-magnitude: one more in the bits moves away from zero.
  return (a < b) == (a > 0) ? static_cast<Bits>(aBits + 1)
                            : static_cast<Bits>(aBits - 1);
}

/// A unary op on a complex element (the ops whose operand class takes
/// complex); abs returns the component type, the predicates bool.
template <UnaryKind U, typename T> auto applyComplexUnary(Complex<T> z) {
  if constexpr (U == UnaryKind::Neg)
    return Complex<T>{-z.re, -z.im};
  else if constexpr (U == UnaryKind::Abs)
    return complexAbs(z);
  else if constexpr (U == UnaryKind::Exp)
    return complexExp(z);
  else if constexpr (U == UnaryKind::Log)
    return complexLog(z);
  else if constexpr (U == UnaryKind::Sqrt)
    return complexSqrt(z);
  else if constexpr (U == UnaryKind::Rsqrt)
    return complexRsqrt(z);
  else if constexpr (U == UnaryKind::Reciprocal)
    return complexDiv(Complex<T>{T(1), T(0)}, z);
  else if constexpr (U == UnaryKind::Sin)
    return complexSin(z);
  else if constexpr (U == UnaryKind::Cos)
    return complexCos(z);
  else if constexpr (U == UnaryKind::Tan)
    return complexTan(z);
  else if constexpr (U == UnaryKind::Tanh)
    return complexTanh(z);
  else if constexpr (U == UnaryKind::Sinh)
    return complexSinh(z);
  else if constexpr (U == UnaryKind::Cosh)
    return complexCosh(z);
  else if constexpr (U == UnaryKind::Asin)
    return complexAsin(z);
  else if constexpr (U == UnaryKind::Acos)
    return complexAcos(z);
  else if constexpr (U == UnaryKind::Atan)
    return complexAtan(z);
  else if constexpr (U == UnaryKind::Asinh)
    return complexAsinh(z);
  else if constexpr (U == UnaryKind::Acosh)
    return complexAcosh(z);
  else if constexpr (U == UnaryKind::Atanh)
    return complexAtanh(z);
  else if constexpr (U == UnaryKind::Log10)
    return complexLog10(z);
  else if constexpr (U == UnaryKind::Log2)
    return complexLog2(z);
  else if constexpr (U == UnaryKind::Sigmoid)
    return complexSigmoid(z);
  else if constexpr (U == UnaryKind::LogicalNot)
    return !(z.re != T(0) || z.im != T(0));
  else if constexpr (U == UnaryKind::Isfinite)
    return static_cast<bool>(std::isfinite(z.re) && std::isfinite(z.im));
  else if constexpr (U == UnaryKind::Isinf)
    return static_cast<bool>(std::isinf(z.re) || std::isinf(z.im));
  else if constexpr (U == UnaryKind::Isnan)
    return static_cast<bool>(std::isnan(z.re) || std::isnan(z.im));
  else {
    static_assert(U == UnaryKind::Isreal, "unary kind without complex form");
    return z.im == T(0);
  }
}

/// The value of a unary op (UnaryKind U) on `x` of compute type T. Ops
/// whose operand class excludes T are not instantiated for it (the
/// verifier rejects such operands); the Bool-result ops return bool.
template <UnaryKind U, typename T> auto applyUnary(T x) {
  constexpr bool isFloat = std::is_floating_point_v<T>;
  constexpr bool isBool = std::is_same_v<T, bool>;
  if constexpr (isComplexV<T>) {
    return applyComplexUnary<U>(x);
  } else if constexpr (U == UnaryKind::Neg) {
    if constexpr (isFloat)
      return -x;
    else
      return wrap<T>(Unsigned<T>(0) - static_cast<Unsigned<T>>(x));
  } else if constexpr (U == UnaryKind::Abs) {
    if constexpr (isFloat)
      return std::fabs(x);
    else
      return x < 0 ? wrap<T>(Unsigned<T>(0) - static_cast<Unsigned<T>>(x)) : x;
  } else if constexpr (U == UnaryKind::Exp) {
    return expOf(x);
  } else if constexpr (U == UnaryKind::Log) {
    return logOf(x);
  } else if constexpr (U == UnaryKind::Sqrt) {
    return std::sqrt(x);
  } else if constexpr (U == UnaryKind::Rsqrt) {
    return T(1) / std::sqrt(x);
  } else if constexpr (U == UnaryKind::Reciprocal) {
    return T(1) / x;
  } else if constexpr (U == UnaryKind::Sin) {
    return std::sin(x);
  } else if constexpr (U == UnaryKind::Cos) {
    return std::cos(x);
  } else if constexpr (U == UnaryKind::Tanh) {
    return tanhOf(x);
  } else if constexpr (U == UnaryKind::Sigmoid) {
    return T(1) / (T(1) + expOf(-x));
  } else if constexpr (U == UnaryKind::Acos) {
    return std::acos(x);
  } else if constexpr (U == UnaryKind::Acosh) {
    return std::acosh(x);
  } else if constexpr (U == UnaryKind::Asin) {
    return std::asin(x);
  } else if constexpr (U == UnaryKind::Asinh) {
    return std::asinh(x);
  } else if constexpr (U == UnaryKind::Atan) {
    return std::atan(x);
  } else if constexpr (U == UnaryKind::Atanh) {
    return std::atanh(x);
  } else if constexpr (U == UnaryKind::Cosh) {
    return std::cosh(x);
  } else if constexpr (U == UnaryKind::Sinh) {
    return std::sinh(x);
  } else if constexpr (U == UnaryKind::Tan) {
    return std::tan(x);
  } else if constexpr (U == UnaryKind::Erf) {
    return erfOf(x);
  } else if constexpr (U == UnaryKind::Erfc) {
    return std::erfc(x);
  } else if constexpr (U == UnaryKind::Erfinv) {
    if constexpr (std::is_same_v<T, float>)
      return hostErfinvf(x);
    else
      return hostErfinv(x);
  } else if constexpr (U == UnaryKind::Erfcinv) {
    if constexpr (std::is_same_v<T, float>)
      return hostErfcinvf(x);
    else
      return hostErfcinv(x);
  } else if constexpr (U == UnaryKind::Exp2) {
    return std::exp2(x);
  } else if constexpr (U == UnaryKind::Expm1) {
    return std::expm1(x);
  } else if constexpr (U == UnaryKind::Lgamma) {
    return std::lgamma(x);
  } else if constexpr (U == UnaryKind::Log10) {
    return std::log10(x);
  } else if constexpr (U == UnaryKind::Log1p) {
    return std::log1p(x);
  } else if constexpr (U == UnaryKind::Log2) {
    return std::log2(x);
  } else if constexpr (U == UnaryKind::Silu) {
    // A NaN x is the result itself, whatever order a compiler multiplies in.
    return std::isnan(x) ? x : x * (T(1) / (T(1) + expOf(-x)));
  } else if constexpr (U == UnaryKind::Ceil || U == UnaryKind::Floor ||
                       U == UnaryKind::Trunc || U == UnaryKind::Round) {
    if constexpr (!isFloat)
      return x;
    else if constexpr (U == UnaryKind::Ceil)
      return std::ceil(x);
    else if constexpr (U == UnaryKind::Floor)
      return std::floor(x);
    else if constexpr (U == UnaryKind::Trunc)
      return std::trunc(x);
    else
      return portable::roundHalfToEven(x);
  } else if constexpr (U == UnaryKind::Frac) {
    if constexpr (isFloat)
      return x - std::trunc(x);
    else
      return T(0);
  } else if constexpr (U == UnaryKind::Relu) {
    return x <= T(0) ? T(0) : x;
  } else if constexpr (U == UnaryKind::Sign) {
    return static_cast<T>(static_cast<int>(T(0) < x) -
                          static_cast<int>(x < T(0)));
  } else if constexpr (U == UnaryKind::BitwiseNot) {
    if constexpr (isBool)
      return !x;
    else
      return static_cast<T>(~x);
  } else if constexpr (U == UnaryKind::LogicalNot) {
    return !(x != T(0));
  } else if constexpr (U == UnaryKind::Signbit) {
    // A NaN has no sign (docs/Interpreter.md, "NaN"): which NaN an op
    // returns depends on the operand order a compiler picks.
    if constexpr (isFloat)
      return !std::isnan(x) && std::signbit(x);
    else if constexpr (isBool)
      return false;
    else
      return x < 0;
  } else if constexpr (U == UnaryKind::Isfinite) {
    if constexpr (isFloat)
      return static_cast<bool>(std::isfinite(x));
    else
      return true;
  } else if constexpr (U == UnaryKind::Isinf) {
    if constexpr (isFloat)
      return static_cast<bool>(std::isinf(x));
    else
      return false;
  } else if constexpr (U == UnaryKind::Isnan) {
    if constexpr (isFloat)
      return static_cast<bool>(std::isnan(x));
    else
      return false;
  } else if constexpr (U == UnaryKind::Isneginf) {
    if constexpr (isFloat)
      return x == -std::numeric_limits<T>::infinity();
    else
      return false;
  } else if constexpr (U == UnaryKind::Isposinf) {
    if constexpr (isFloat)
      return x == std::numeric_limits<T>::infinity();
    else
      return false;
  } else {
    static_assert(U == UnaryKind::Isreal, "unhandled unary kind");
    return true;
  }
}

/// A binary op on complex elements (the ops whose operand class takes
/// complex).
template <BinaryKind B, typename T>
auto applyComplexBinary(Complex<T> a, Complex<T> b) {
  if constexpr (B == BinaryKind::Add)
    return Complex<T>{a.re + b.re, a.im + b.im};
  else if constexpr (B == BinaryKind::Sub)
    return Complex<T>{a.re - b.re, a.im - b.im};
  else if constexpr (B == BinaryKind::Mul)
    return complexMul(a, b);
  else if constexpr (B == BinaryKind::Div)
    return complexDiv(a, b);
  else if constexpr (B == BinaryKind::Pow)
    return complexPow(a, b);
  else if constexpr (B == BinaryKind::LogicalAnd)
    return (a.re != T(0) || a.im != T(0)) && (b.re != T(0) || b.im != T(0));
  else {
    static_assert(B == BinaryKind::LogicalOr, "binary kind without complex "
                                              "form");
    return a.re != T(0) || a.im != T(0) || b.re != T(0) || b.im != T(0);
  }
}

/// The value of a binary op (BinaryKind B) on operands of compute type T.
/// Nextafter is computed on the storage bits instead (nextafterBits).
template <BinaryKind B, typename T> auto applyBinary(T a, T b) {
  constexpr bool isFloat = std::is_floating_point_v<T>;
  using U = Unsigned<std::conditional_t<
      isFloat || isComplexV<T> || std::is_same_v<T, bool>, int, T>>;
  if constexpr (isComplexV<T>) {
    return applyComplexBinary<B>(a, b);
  } else if constexpr (B == BinaryKind::Maximum) {
    return maximumOf(a, b);
  } else if constexpr (B == BinaryKind::Minimum) {
    return minimumOf(a, b);
  } else if constexpr (B == BinaryKind::LogicalAnd) {
    return a != T(0) && b != T(0);
  } else if constexpr (B == BinaryKind::LogicalOr) {
    return a != T(0) || b != T(0);
  } else if constexpr (B == BinaryKind::BitwiseAnd) {
    return static_cast<T>(a & b);
  } else if constexpr (B == BinaryKind::BitwiseOr) {
    return static_cast<T>(a | b);
  } else if constexpr (B == BinaryKind::BitwiseXor) {
    return static_cast<T>(a ^ b);
  } else if constexpr (B == BinaryKind::BitwiseLeftShift) {
    return shiftInRange(b) ? wrap<T>(static_cast<U>(a) << b) : T(0);
  } else if constexpr (B == BinaryKind::BitwiseRightShift) {
    return shiftInRange(b) ? static_cast<T>(a >> b) : T(a < 0 ? -1 : 0);
  } else if constexpr (B == BinaryKind::LogicalRightShift) {
    return shiftInRange(b) ? wrap<T>(static_cast<U>(a) >> b) : T(0);
  } else if constexpr (B == BinaryKind::Gcd) {
    return integerGcd(a, b);
  } else if constexpr (B == BinaryKind::Fmod || B == BinaryKind::Mod) {
    if constexpr (isFloat)
      return std::fmod(a, b);
    else
      return integerFmod(a, b);
  } else if constexpr (B == BinaryKind::Remainder) {
    T r;
    if constexpr (isFloat)
      r = std::fmod(a, b);
    else
      r = integerFmod(a, b);
    if (r != T(0) && ((r < T(0)) != (b < T(0)))) {
      if constexpr (isFloat)
        r = r + b;
      else
        r = wrap<T>(static_cast<U>(r) + static_cast<U>(b));
    }
    return r;
  } else if constexpr (B == BinaryKind::Atan2) {
    return std::atan2(a, b);
  } else if constexpr (isFloat) {
    if constexpr (B == BinaryKind::Add)
      return a + b;
    else if constexpr (B == BinaryKind::Sub)
      return a - b;
    else if constexpr (B == BinaryKind::Mul)
      return a * b;
    else if constexpr (B == BinaryKind::Div)
      return a / b;
    else if constexpr (B == BinaryKind::Pow)
      return std::pow(a, b);
    else {
      static_assert(B == BinaryKind::Nextafter, "unhandled binary kind");
      return std::nextafter(a, b);
    }
  } else {
    if constexpr (B == BinaryKind::Add)
      return wrap<T>(static_cast<U>(a) + static_cast<U>(b));
    else if constexpr (B == BinaryKind::Sub)
      return wrap<T>(static_cast<U>(a) - static_cast<U>(b));
    else if constexpr (B == BinaryKind::Mul)
      return wrap<T>(static_cast<U>(a) * static_cast<U>(b));
    else if constexpr (B == BinaryKind::Div) {
      // Division by zero gives 0; MIN / -1 wraps to MIN.
      if (b == 0)
        return T(0);
      if (b == -1)
        return wrap<T>(U(0) - static_cast<U>(a));
      return static_cast<T>(a / b);
    } else {
      static_assert(B == BinaryKind::Pow, "unhandled binary kind");
      return integerPow(a, b);
    }
  }
}

/// The value of a ternary op (TernaryKind K) on operands of compute type T.
template <TernaryKind K, typename T> T applyTernary(T x, T y, T z) {
  if constexpr (K == TernaryKind::Lerp) {
    // lerp(start = x, end = y, weight = z).
    return z < T(0.5) ? x + z * (y - x) : y - (y - x) * (T(1) - z);
  } else if constexpr (K == TernaryKind::Clamp) {
    return minimumOf(maximumOf(x, y), z);
  } else {
    static_assert(K == TernaryKind::Threshold, "unhandled ternary kind");
    return x <= y ? z : x;
  }
}

/// Complex elements are equal when both parts are; only eq and ne take
/// them.
template <CompareKind C, typename T>
bool applyCompare(Complex<T> a, Complex<T> b) {
  static_assert(C == CompareKind::Eq || C == CompareKind::Ne,
                "complex elements are not ordered");
  bool equal = a.re == b.re && a.im == b.im;
  return C == CompareKind::Eq ? equal : !equal;
}

template <CompareKind C, typename T> bool applyCompare(T a, T b) {
  if constexpr (C == CompareKind::Eq)
    return a == b;
  else if constexpr (C == CompareKind::Ne)
    return a != b;
  else if constexpr (C == CompareKind::Lt)
    return a < b;
  else if constexpr (C == CompareKind::Le)
    return a <= b;
  else if constexpr (C == CompareKind::Gt)
    return a > b;
  else
    return a >= b;
}

/// Calls `fn` with std::integral_constant<Kind, value> for a runtime kind
/// value in [0, Count) (a UnaryKind, BinaryKind, TernaryKind or
/// CompareKind).
template <typename Kind, int Count, int I = 0, typename Fn>
void visitKind(Kind value, Fn &&fn) {
  if constexpr (I < Count) {
    if (static_cast<int>(value) == I)
      return fn(std::integral_constant<Kind, static_cast<Kind>(I)>{});
    visitKind<Kind, Count, I + 1>(value, std::forward<Fn>(fn));
  }
}

/// True when compute type T is in the operand class: the instantiations
/// that exist.
template <typename T> constexpr bool isInClass(OperandClass operands) {
  constexpr bool isBool = std::is_same_v<T, bool>;
  constexpr bool isFloat = std::is_floating_point_v<T>;
  constexpr bool isComplex = isComplexV<T>;
  switch (operands) {
  case OperandClass::Float:
    return isFloat;
  case OperandClass::FloatOrComplex:
    return isFloat || isComplex;
  case OperandClass::Numeric:
    return !isBool && !isComplex;
  case OperandClass::NumericOrComplex:
    return !isBool;
  case OperandClass::Integral:
    return !isFloat && !isComplex;
  case OperandClass::Integer:
    return !isFloat && !isBool && !isComplex;
  case OperandClass::Real:
    return !isComplex;
  case OperandClass::Any:
    return true;
  }
  return false;
}

} // namespace mlir::fuser::semantics

#endif // FUSER_DIALECT_FUSER_IR_ELEMENTSEMANTICS_H
