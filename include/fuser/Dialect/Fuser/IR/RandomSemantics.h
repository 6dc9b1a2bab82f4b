//===- RandomSemantics.h - nvFuser's random numbers, one element -*- C++
//-*-===//
//
// What fuser.uniform and fuser.normal compute for the element at row-major
// index `i` of their result, as nvFuser's runtime does
// (runtime/random_numbers.cu, csrc/device_lower/pass/rng.cpp): one
// Philox4x32-10 call per `elementsPerCall` elements (key = seed; counter =
// offset in words 0-1, subsequence i / elementsPerCall in words 2-3), the
// element taking word (or words) i % elementsPerCall, then nvFuser's
// transforms. nvFuser compiles with --fmad=true, so its `from + range * u`
// and `normal * std + mean` are fused multiply-adds; they are here too. The
// interpreter uses these functions; the kernel lowering
// (lib/Conversion/FuserToSCF/RandomNumbers.cpp) emits the same operations.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_RANDOMSEMANTICS_H
#define FUSER_DIALECT_FUSER_IR_RANDOMSEMANTICS_H

#include "fuser/Dialect/Fuser/IR/PortableMath.h"

#include <array>
#include <cmath>
#include <cstdint>

namespace mlir::fuser::random {

using PhiloxWords = std::array<uint32_t, 4>;

inline constexpr uint32_t kPhiloxMultiplier0 = 0xD2511F53;
inline constexpr uint32_t kPhiloxMultiplier1 = 0xCD9E8D57;
inline constexpr uint32_t kPhiloxKeyStep0 = 0x9E3779B9;
inline constexpr uint32_t kPhiloxKeyStep1 = 0xBB67AE85;

/// Philox4x32 with 10 rounds on `counter` and `key` (Random123's
/// philox4x32_10).
inline PhiloxWords philox4x32_10(PhiloxWords counter,
                                 std::array<uint32_t, 2> key) {
  for (int round = 0; round < 10; ++round) {
    uint64_t product0 = uint64_t(kPhiloxMultiplier0) * counter[0];
    uint64_t product1 = uint64_t(kPhiloxMultiplier1) * counter[2];
    counter = {
        uint32_t(product1 >> 32) ^ counter[1] ^ key[0], uint32_t(product1),
        uint32_t(product0 >> 32) ^ counter[3] ^ key[1], uint32_t(product0)};
    key[0] += kPhiloxKeyStep0;
    key[1] += kPhiloxKeyStep1;
  }
  return counter;
}

/// nvFuser's philox(seed, subsequence, offset).
inline PhiloxWords philox(uint64_t seed, uint64_t subsequence,
                          uint64_t offset) {
  return philox4x32_10({uint32_t(offset), uint32_t(offset >> 32),
                        uint32_t(subsequence), uint32_t(subsequence >> 32)},
                       {uint32_t(seed), uint32_t(seed >> 32)});
}

/// Elements per Philox call: 2 for f64 results (two words each), else 4.
inline uint64_t elementsPerCall(bool isF64) { return isF64 ? 2 : 4; }

/// Uniform in (0, 1]: the word's float plus half a step.
inline float rawUniformFloat(uint32_t x) {
  constexpr float scale = float(1.0 / double(1ull << 32));
  return float(x) * scale + 0.5f * scale;
}
inline double rawUniformDouble(uint32_t x, uint32_t y) {
  constexpr double scale = 1.0 / double(1ull << 53);
  uint64_t z = uint64_t(x) ^ (uint64_t(y) << (53 - 32));
  return double(z) * scale + 0.5 * scale;
}
/// Uniform in [0, 1): 1 becomes 0.
inline float uniformFloat(uint32_t x) {
  float result = rawUniformFloat(x);
  return result == 1.0f ? 0.0f : result;
}
inline double uniformDouble(uint32_t x, uint32_t y) {
  double result = rawUniformDouble(x, y);
  return result == 1.0 ? 0.0 : result;
}

/// Attention dropout's factors of the `count` score elements from index
/// `first` (row-major over the scores) into `into`: `keepScale` where
/// fuser.uniform's f32 draw in [0, 1) at the index, from `seed` and
/// `offset`, is at least `threshold` (dropout_p as f32), else 0. One Philox
/// call per 4 indices, as fuser.uniform draws them.
inline void fillKeepFactors(uint64_t seed, uint64_t offset, uint64_t first,
                            uint64_t count, float threshold, float keepScale,
                            float *into) {
  PhiloxWords words{};
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t index = first + i;
    if (i == 0 || index % 4 == 0)
      words = philox(seed, index / 4, offset);
    into[i] = uniformFloat(words[index % 4]) >= threshold ? keepScale : 0.0f;
  }
}

/// Box-Muller on two words: sin for even components, cos for odd ones.
inline float normalFloat(uint32_t x, uint32_t y, uint64_t component) {
  float u = uniformFloat(x);
  float v = uniformFloat(y) * 6.2831855f;
  float radius = std::sqrt(-2.0f * semantics::logOf(u));
  return radius * (component % 2 == 0 ? std::sin(v) : std::cos(v));
}
inline double normalDouble(const PhiloxWords &words, uint64_t component) {
  double u = uniformDouble(words[0], words[1]);
  double v = uniformDouble(words[2], words[3]) * 6.2831853071795860;
  double radius = std::sqrt(-2.0 * std::log(u));
  return radius * (component % 2 == 0 ? std::sin(v) : std::cos(v));
}

} // namespace mlir::fuser::random

#endif // FUSER_DIALECT_FUSER_IR_RANDOMSEMANTICS_H
