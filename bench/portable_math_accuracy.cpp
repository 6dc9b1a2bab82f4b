//===- portable_math_accuracy.cpp - PortableMath.h over every f32 input ---===//
//
// The accuracy of the interpreter's (and the CPU backend's) f32 exp, log,
// tanh and erf, include/fuser/Dialect/Fuser/IR/PortableMath.h, over all
// 2^32 inputs (or every STRIDE-th, or those in [LOW, HIGH]) against the
// host's f64 function: the largest error in ulps of the result and the
// largest distance in ulps to the f64 value rounded to f32 (the correctly
// rounded result but for rare double roundings). Needs no build of the
// project:
//
//   c++ -O2 -std=c++17 -ffp-contract=off -Iinclude
//       bench/portable_math_accuracy.cpp -o /tmp/portable_math_accuracy
//   /tmp/portable_math_accuracy exp [STRIDE [LOW HIGH]]
//
// A full run takes 1 to 3 minutes per function on one core.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/PortableMath.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace mlir::fuser;

namespace {
/// Float bits ordered like the values (-0 just below +0).
int64_t ordered(float x) {
  int32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits < 0 ? -static_cast<int64_t>(bits & 0x7fffffff) - 1 : bits;
}

/// The ulp of the f32 nearest `exact` (the subnormal spacing at least).
double ulpOf(double exact) {
  float rounded = static_cast<float>(exact);
  double smallest = std::ldexp(1.0, -149);
  if (rounded == 0 || std::isinf(rounded))
    return smallest;
  int exponent;
  std::frexp(std::fabs(static_cast<double>(rounded)), &exponent);
  return std::fmax(std::ldexp(1.0, exponent - 24), smallest);
}

uint32_t bitsOf(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits;
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s exp|log|tanh|erf [STRIDE [LOW HIGH]]\n",
                 argv[0]);
    return 2;
  }
  std::string name = argv[1];
  float (*portable)(float) = nullptr;
  double (*reference)(double) = nullptr;
  if (name == "exp")
    portable = semantics::expOf, reference = [](double x) { return std::exp(x); };
  else if (name == "log")
    portable = semantics::logOf, reference = [](double x) { return std::log(x); };
  else if (name == "tanh")
    portable = semantics::tanhOf, reference = [](double x) { return std::tanh(x); };
  else if (name == "erf")
    portable = semantics::erfOf, reference = [](double x) { return std::erf(x); };
  if (!portable) {
    std::fprintf(stderr, "unknown function %s\n", name.c_str());
    return 2;
  }
  uint64_t stride = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  uint64_t low = 0, high = 0xffffffffull;
  if (argc > 4) // A positive range: its bit patterns are in order.
    low = bitsOf(std::strtof(argv[3], nullptr)),
    high = bitsOf(std::strtof(argv[4], nullptr));

  double worstError = 0;
  int64_t worstDistance = 0;
  float errorAt = 0, distanceAt = 0;
  uint64_t wrongClass = 0;
  for (uint64_t bits = low; bits <= high; bits += stride) {
    uint32_t word = static_cast<uint32_t>(bits);
    float x;
    std::memcpy(&x, &word, sizeof(x));
    float got = portable(x);
    double exact = reference(x);
    float rounded = static_cast<float>(exact);
    if (std::isnan(rounded) || std::isnan(got) || std::isinf(rounded) ||
        std::isinf(got)) {
      bool same = std::isnan(rounded) ? std::isnan(got) : got == rounded;
      if (!same && wrongClass++ < 5)
        std::printf("%a: got %a, expected %a\n", x, got, rounded);
      continue;
    }
    int64_t distance = std::llabs(ordered(got) - ordered(rounded));
    if (distance > worstDistance)
      worstDistance = distance, distanceAt = x;
    double error = std::fabs(static_cast<double>(got) - exact) / ulpOf(exact);
    if (error > worstError)
      worstError = error, errorAt = x;
  }
  std::printf("%s: largest error %.3f ulp at %a (%g); largest distance to "
              "the rounded f64 value %lld ulp at %a; %llu NaN/inf "
              "mismatches\n",
              name.c_str(), worstError, errorAt, errorAt,
              static_cast<long long>(worstDistance), distanceAt,
              static_cast<unsigned long long>(wrongClass));
  return wrongClass ? 1 : 0;
}
