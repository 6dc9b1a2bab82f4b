//===- ElementSemantics.cpp - erfinv and erfcinv on the host --------------===//
//
// No C library has erfinv or erfcinv, and the GPU gets them from libdevice.
// On the host they start from Giles' single-precision approximation
// ("Approximating the erfinv function", GPU Computing Gems, 2011) in f64,
// written in terms of w = -log((1 - x)(1 + x)) = -log(z (2 - z)) so that
// erfcinv of small z never forms 1 - z, and refine it by Newton steps on
// the C library's erf (results below erfinv(0.5), where erf is relatively
// accurate) or on log(erfc) (the tails, where the logarithm keeps the steps
// well scaled). Each step doubles the
// correct digits; the loop ends when a step changes less than an f64 ulp.
// From x = 26 on (erfc(x) below 6e-296) log(erfc) comes from the asymptotic
// series instead: there erfc and exp(-x^2) approach the subnormal range,
// where glibc's erfc keeps only a few bits, and Newton on them converged to
// the wrong point (erfcinv(5e-324) was 27.213305586561788, 5e-7 relative
// off; exact 27.21329321081...).
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/ElementSemantics.h"

#include <cmath>
#include <limits>

using namespace mlir::fuser;

namespace {

constexpr double kTwoOverSqrtPi = 1.1283791670955126;

/// Giles' approximation of erfinv(1 - z) with w = -log(z (2 - z)).
double initialGuess(double oneMinusZ, double w) {
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  return p * oneMinusZ;
}

/// From here on log(erfc(x)) is the asymptotic series below, not the C
/// library's erfc, which loses bits where its result is subnormal (x above
/// 26.55).
constexpr double kAsymptoticFrom = 26.0;

/// log(erfc(x)) - log(z) and the slope d/dx log(erfc(x)) for x >= 26:
/// erfc(x) = exp(-x^2) / (x sqrt(pi)) * S, S = sum_n (-1)^n (2n-1)!! /
/// (2x^2)^n (the terms fall below 1e-19 by n = 8 at x = 26; the series'
/// error is below its first omitted term). x^2 is split exactly (fma) so
/// that -x^2 - log(z), two values near 700 that nearly cancel, loses
/// nothing beyond log(z)'s own rounding.
void asymptoticLogErfc(double x, double logZ, double &residual,
                       double &slope) {
  double square = x * x;
  double squareLow = std::fma(x, x, -square);
  double r = 0.5 / square; // 1 / (2x^2)
  double term = 1.0, sum = 1.0;
  for (int n = 1; n <= 12; ++n) {
    term *= -(2.0 * n - 1.0) * r;
    sum += term;
  }
  double logScale = std::log(sum) - std::log(x * 1.7724538509055159);
  residual = ((-square - logZ) - squareLow) + logScale;
  // d/dx log(erfc(x)) = -2/sqrt(pi) exp(-x^2) / erfc(x) = -2x / S.
  slope = -2.0 * x / sum;
}

/// erfcinv(z) for 0 < z <= 1 (a non-negative result), refined on
/// log(erfc(x)) = log(z).
double erfcinvUpperHalf(double z) {
  double w = -std::log(z * (2.0 - z));
  double x;
  if (w <= 16.0) {
    x = initialGuess(1.0 - z, w);
  } else {
    // Beyond the single-precision range Giles fitted (z below about 1e-7):
    // the asymptote erfc(x) ~ exp(-x^2) / (x sqrt(pi)), solved by fixed
    // point, x^2 = -log(z) - log(x sqrt(pi)).
    double t = -std::log(z);
    x = std::sqrt(t);
    for (int step = 0; step < 3; ++step)
      x = std::sqrt(t - std::log(x * 1.7724538509055159));
  }
  double logZ = std::log(z);
  for (int step = 0; step < 8; ++step) {
    if (!std::isfinite(x))
      break;
    double residual, slope;
    if (x >= kAsymptoticFrom) {
      asymptoticLogErfc(x, logZ, residual, slope);
    } else {
      double erfcX = std::erfc(x);
      if (erfcX == 0.0)
        break;
      // d/dx log(erfc(x)) = -2/sqrt(pi) exp(-x^2) / erfc(x).
      slope = -kTwoOverSqrtPi * std::exp(-x * x) / erfcX;
      residual = std::log(erfcX) - logZ;
    }
    double delta = residual / slope;
    x -= delta;
    if (std::fabs(delta) <= std::fabs(x) * 0x1p-53)
      break;
  }
  return x;
}

} // namespace

double semantics::hostErfcinv(double z) {
  if (std::isnan(z) || z < 0.0 || z > 2.0)
    return std::numeric_limits<double>::quiet_NaN();
  if (z == 0.0)
    return std::numeric_limits<double>::infinity();
  if (z == 2.0)
    return -std::numeric_limits<double>::infinity();
  // Near 1, erfcinv(z) = erfinv(1 - z) with 1 - z exact (Sterbenz): the
  // refinement on erf keeps the small result's relative accuracy, where
  // log(erfc(x)) near 0 would not.
  if (z >= 0.5 && z <= 1.5)
    return hostErfinv(1.0 - z);
  // erfcinv(2 - z) = -erfcinv(z); 2 - z is exact for z in [1, 2].
  if (z > 1.0)
    return -erfcinvUpperHalf(2.0 - z);
  return erfcinvUpperHalf(z);
}

double semantics::hostErfinv(double x) {
  if (std::isnan(x) || x < -1.0 || x > 1.0)
    return std::numeric_limits<double>::quiet_NaN();
  if (x == 1.0 || x == -1.0)
    return std::copysign(std::numeric_limits<double>::infinity(), x);
  if (x == 0.0)
    return x; // Keeps the sign of zero.
  double magnitude = std::fabs(x);
  double result;
  if (magnitude > 0.5) {
    // 1 - |x| is exact here (Sterbenz).
    result = erfcinvUpperHalf(1.0 - magnitude);
  } else {
    result = initialGuess(magnitude,
                          -std::log((1.0 - magnitude) * (1.0 + magnitude)));
    for (int step = 0; step < 8; ++step) {
      double slope = kTwoOverSqrtPi * std::exp(-result * result);
      double delta = (std::erf(result) - magnitude) / slope;
      result -= delta;
      if (std::fabs(delta) <= std::fabs(result) * 0x1p-53)
        break;
    }
  }
  return std::copysign(result, x);
}

float semantics::hostErfinvf(float x) {
  return static_cast<float>(hostErfinv(x));
}

float semantics::hostErfcinvf(float x) {
  return static_cast<float>(hostErfcinv(x));
}
