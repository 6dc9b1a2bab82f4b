//===- RandomSemanticsTest.cpp - nvFuser's random numbers -----------------===//
//
// Philox4x32-10 against Random123's known-answer vectors (kat_vectors), the
// transforms' edge cases as nvFuser's runtime/random_numbers.cu has them,
// and the moments of 10^6 draws.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/RandomSemantics.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::fuser::random;

namespace {

TEST(RandomSemanticsTest, PhiloxKnownAnswers) {
  // Random123 kat_vectors: philox4x32 10 <counter> <key> <result>.
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}),
            (PhiloxWords{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                          {0xffffffff, 0xffffffff}),
            (PhiloxWords{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                          {0xa4093822, 0x299f31d0}),
            (PhiloxWords{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(RandomSemanticsTest, NvFuserCounterLayout) {
  // key = seed (low word first); counter = offset, then the subsequence.
  uint64_t seed = 0x0123456789abcdefULL, offset = 0x1122334455667788ULL;
  uint64_t subsequence = 0x99aabbccddeeff00ULL;
  EXPECT_EQ(philox(seed, subsequence, offset),
            philox4x32_10({0x55667788, 0x11223344, 0xddeeff00, 0x99aabbcc},
                          {0x89abcdef, 0x01234567}));
}

TEST(RandomSemanticsTest, UniformEdges) {
  // The largest word rounds to 1 in f32, which becomes 0; the smallest is
  // half a step above 0.
  EXPECT_EQ(rawUniformFloat(0xffffffff), 1.0f);
  EXPECT_EQ(uniformFloat(0xffffffff), 0.0f);
  EXPECT_EQ(uniformFloat(0), 0x1p-33f);
  EXPECT_EQ(uniformDouble(0, 0), 0x1p-54);
  // 53 bits: x in the low bits, y shifted by 21 and xored in.
  EXPECT_EQ(rawUniformDouble(0xffffffff, 0),
            double(0xffffffffULL) * 0x1p-53 + 0x1p-54);
  EXPECT_EQ(rawUniformDouble(0, 0xffffffff),
            double(0xffffffffULL << 21) * 0x1p-53 + 0x1p-54);
  EXPECT_LT(uniformDouble(0xffffffff, 0xffffffff), 1.0);
}

TEST(RandomSemanticsTest, MomentsOfAMillionDraws) {
  constexpr int64_t count = 1 << 20;
  double uniformSum = 0, uniformSquares = 0, normalSum = 0, normalSquares = 0;
  double uniformMin = 1, uniformMax = 0;
  for (int64_t i = 0; i < count; ++i) {
    PhiloxWords words = philox(/*seed=*/42, uint64_t(i) / 4, /*offset=*/7);
    uint64_t component = uint64_t(i) % 4;
    double u = uniformFloat(words[component]);
    uniformSum += u;
    uniformSquares += u * u;
    uniformMin = std::min(uniformMin, u);
    uniformMax = std::max(uniformMax, u);
    uint64_t pair = component / 2 * 2;
    double n = normalFloat(words[pair], words[pair + 1], component);
    normalSum += n;
    normalSquares += n * n;
  }
  double uniformMean = uniformSum / count;
  double uniformVariance = uniformSquares / count - uniformMean * uniformMean;
  double normalMean = normalSum / count;
  double normalVariance = normalSquares / count - normalMean * normalMean;
  // Within 6 standard errors of 1/2, 1/12, 0 and 1.
  EXPECT_NEAR(uniformMean, 0.5, 6 * std::sqrt(1.0 / 12 / count));
  EXPECT_NEAR(uniformVariance, 1.0 / 12, 6 * std::sqrt(1.0 / 180 / count));
  EXPECT_NEAR(normalMean, 0.0, 6 * std::sqrt(1.0 / count));
  EXPECT_NEAR(normalVariance, 1.0, 6 * std::sqrt(2.0 / count));
  EXPECT_GE(uniformMin, 0.0);
  EXPECT_LT(uniformMax, 1.0);
}

} // namespace
