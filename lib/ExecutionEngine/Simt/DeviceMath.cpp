//===- DeviceMath.cpp - PTX arithmetic on the host ------------------------===//

#include "DeviceMath.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir::fuser::simt;
using llvm::APFloat;

std::optional<ArithOp> mlir::fuser::simt::parseArithOp(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ArithOp>>(name)
      .Case("add", ArithOp::Add)
      .Case("sub", ArithOp::Sub)
      .Case("mul", ArithOp::Mul)
      .Case("div", ArithOp::Div)
      .Case("fma", ArithOp::Fma)
      .Case("rcp", ArithOp::Rcp)
      .Case("sqrt", ArithOp::Sqrt)
      .Default(std::nullopt);
}

std::optional<Rounding> mlir::fuser::simt::parseRounding(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Rounding>>(name)
      .Case("rn", Rounding::Nearest)
      .Case("rz", Rounding::TowardZero)
      .Case("rm", Rounding::Down)
      .Case("rp", Rounding::Up)
      .Default(std::nullopt);
}

std::optional<ApproxOp> mlir::fuser::simt::parseApproxOp(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ApproxOp>>(name)
      .Case("ex2", ApproxOp::Ex2)
      .Case("lg2", ApproxOp::Lg2)
      .Case("sin", ApproxOp::Sin)
      .Case("cos", ApproxOp::Cos)
      .Case("rcp", ApproxOp::Rcp)
      .Case("rsqrt", ApproxOp::Rsqrt)
      .Case("sqrt", ApproxOp::Sqrt)
      .Case("div", ApproxOp::Div)
      .Default(std::nullopt);
}

namespace {
template <typename T> T flush(T value, bool ftz) {
  if (ftz && std::fpclassify(value) == FP_SUBNORMAL)
    return std::copysign(T(0), value);
  return value;
}

APFloat::roundingMode toAPFloat(uint32_t mode) {
  switch (static_cast<Rounding>(mode)) {
  case Rounding::TowardZero:
    return APFloat::rmTowardZero;
  case Rounding::Down:
    return APFloat::rmTowardNegative;
  case Rounding::Up:
    return APFloat::rmTowardPositive;
  case Rounding::Nearest:
    break;
  }
  return APFloat::rmNearestTiesToEven;
}

template <typename T> APFloat toAP(T value) { return APFloat(value); }
template <typename T> T fromAP(const APFloat &value);
template <> float fromAP<float>(const APFloat &value) {
  return value.convertToFloat();
}
template <> double fromAP<double>(const APFloat &value) {
  return value.convertToDouble();
}

/// sqrt(a) rounded as `mode`: the correctly rounded root, moved one step
/// in the mode's direction where the sign of the residual a - r*r (one
/// rounding of an exact value keeps its sign) puts sqrt(a) on that side.
template <typename T> T sqrtRounded(T a, APFloat::roundingMode mode) {
  T r = std::sqrt(a);
  if (mode == APFloat::rmNearestTiesToEven || !std::isfinite(r) || r == 0)
    return r;
  APFloat residual = toAP(-r);
  residual.fusedMultiplyAdd(toAP(r), toAP(a), APFloat::rmNearestTiesToEven);
  if (residual.isZero())
    return r;
  bool rootBelowR = residual.isNegative();
  if (rootBelowR && mode != APFloat::rmTowardPositive)
    return std::nextafter(r, T(0));
  if (!rootBelowR && mode == APFloat::rmTowardPositive)
    return std::nextafter(r, std::numeric_limits<T>::infinity());
  return r;
}

template <typename T>
T arith(uint32_t op, uint32_t mode, uint32_t ftz, T a, T b, T c) {
  a = flush(a, ftz);
  b = flush(b, ftz);
  c = flush(c, ftz);
  APFloat::roundingMode rm = toAPFloat(mode);
  APFloat x = toAP(a);
  switch (static_cast<ArithOp>(op)) {
  case ArithOp::Add:
    x.add(toAP(b), rm);
    break;
  case ArithOp::Sub:
    x.subtract(toAP(b), rm);
    break;
  case ArithOp::Mul:
    x.multiply(toAP(b), rm);
    break;
  case ArithOp::Div:
    x.divide(toAP(b), rm);
    break;
  case ArithOp::Fma:
    x.fusedMultiplyAdd(toAP(b), toAP(c), rm);
    break;
  case ArithOp::Rcp:
    x = toAP(T(1));
    x.divide(toAP(a), rm);
    break;
  case ArithOp::Sqrt:
    return flush(sqrtRounded(a, rm), ftz);
  }
  // PTX results are canonical NaNs.
  if (x.isNaN())
    return std::numeric_limits<T>::quiet_NaN();
  return flush(fromAP<T>(x), ftz);
}

template <typename T> T approx(uint32_t op, uint32_t ftz, T a, T b) {
  a = flush(a, ftz);
  b = flush(b, ftz);
  T r = a;
  switch (static_cast<ApproxOp>(op)) {
  case ApproxOp::Ex2:
    r = std::exp2(a);
    break;
  case ApproxOp::Lg2:
    r = std::log2(a);
    break;
  case ApproxOp::Sin:
    r = std::sin(a);
    break;
  case ApproxOp::Cos:
    r = std::cos(a);
    break;
  case ApproxOp::Rcp:
    r = T(1) / a;
    break;
  case ApproxOp::Rsqrt:
    r = T(1) / std::sqrt(a);
    break;
  case ApproxOp::Sqrt:
    r = std::sqrt(a);
    break;
  case ApproxOp::Div:
    r = a / b;
    break;
  }
  return flush(r, ftz);
}

template <typename T> T saturate(uint32_t ftz, T a) {
  a = flush(a, ftz);
  if (std::isnan(a))
    return T(0);
  return std::fmin(std::fmax(a, T(0)), T(1));
}
} // namespace

extern "C" {
float mlir::fuser::simt::fuserSimtArithF32(uint32_t op, uint32_t mode,
                                           uint32_t ftz, float a, float b,
                                           float c) {
  return arith(op, mode, ftz, a, b, c);
}
double mlir::fuser::simt::fuserSimtArithF64(uint32_t op, uint32_t mode,
                                            uint32_t ftz, double a, double b,
                                            double c) {
  return arith(op, mode, ftz, a, b, c);
}
float mlir::fuser::simt::fuserSimtApproxF32(uint32_t op, uint32_t ftz, float a,
                                            float b) {
  return approx(op, ftz, a, b);
}
double mlir::fuser::simt::fuserSimtApproxF64(uint32_t op, uint32_t ftz,
                                             double a, double b) {
  return approx(op, ftz, a, b);
}
float mlir::fuser::simt::fuserSimtDoubleToFloat(uint32_t mode, uint32_t ftz,
                                                double a) {
  APFloat x(a);
  bool losesInfo = false;
  x.convert(APFloat::IEEEsingle(), toAPFloat(mode), &losesInfo);
  if (x.isNaN())
    return std::numeric_limits<float>::quiet_NaN();
  return flush(x.convertToFloat(), ftz != 0);
}
float mlir::fuser::simt::fuserSimtSaturateF32(uint32_t ftz, float a) {
  return saturate(ftz, a);
}
double mlir::fuser::simt::fuserSimtSaturateF64(uint32_t ftz, double a) {
  return saturate(ftz, a);
}
}
