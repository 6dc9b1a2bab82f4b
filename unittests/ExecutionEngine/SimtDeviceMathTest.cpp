//===- SimtDeviceMathTest.cpp - PTX arithmetic of the SIMT emulator -------===//
//
// The rounding-mode and flush-to-zero forms the emulator computes for NVVM
// intrinsics and libdevice's inline PTX (lib/ExecutionEngine/Simt/
// DeviceMath.h): each mode rounds the exact result the way its name says.
//
//===----------------------------------------------------------------------===//

#include "ExecutionEngine/Simt/DeviceMath.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mlir::fuser::simt;

namespace {
constexpr uint32_t kNearest = uint32_t(Rounding::Nearest),
                   kZero = uint32_t(Rounding::TowardZero),
                   kDown = uint32_t(Rounding::Down),
                   kUp = uint32_t(Rounding::Up);

float arith(ArithOp op, uint32_t mode, float a, float b = 0, float c = 0,
            bool ftz = false) {
  return fuserSimtArithF32(uint32_t(op), mode, ftz, a, b, c);
}

TEST(SimtDeviceMath, FmaRoundsTheExactResultOnce) {
  // 1 * 1 + 2^-30: between 1 and the next float up.
  float tiny = std::ldexp(1.0f, -30);
  float above = std::nextafter(1.0f, 2.0f);
  EXPECT_EQ(arith(ArithOp::Fma, kNearest, 1, 1, tiny), 1.0f);
  EXPECT_EQ(arith(ArithOp::Fma, kDown, 1, 1, tiny), 1.0f);
  EXPECT_EQ(arith(ArithOp::Fma, kZero, 1, 1, tiny), 1.0f);
  EXPECT_EQ(arith(ArithOp::Fma, kUp, 1, 1, tiny), above);
  // Negative: toward zero and up go to -1, down away from it.
  EXPECT_EQ(arith(ArithOp::Fma, kUp, -1, 1, -tiny), -1.0f);
  EXPECT_EQ(arith(ArithOp::Fma, kZero, -1, 1, -tiny), -1.0f);
  EXPECT_EQ(arith(ArithOp::Fma, kDown, -1, 1, -tiny), -above);
}

TEST(SimtDeviceMath, AddSubMulDivInEachMode) {
  float tiny = std::ldexp(1.0f, -25);
  EXPECT_EQ(arith(ArithOp::Add, kUp, 1, tiny), std::nextafter(1.0f, 2.0f));
  EXPECT_EQ(arith(ArithOp::Add, kZero, 1, tiny), 1.0f);
  EXPECT_EQ(arith(ArithOp::Sub, kDown, 1, tiny), std::nextafter(1.0f, 0.0f));
  EXPECT_EQ(arith(ArithOp::Sub, kNearest, 1, tiny), 1.0f);
  // The float nearest 1/3 lies above it (0x3EAAAAAB): up gives it, down
  // and toward zero the float below.
  float third = arith(ArithOp::Div, kNearest, 1, 3);
  float below = std::nextafter(third, 0.0f);
  EXPECT_EQ(third, 1.0f / 3.0f);
  EXPECT_GT(double(third), 1.0 / 3.0);
  EXPECT_EQ(arith(ArithOp::Div, kUp, 1, 3), third);
  EXPECT_EQ(arith(ArithOp::Div, kDown, 1, 3), below);
  EXPECT_EQ(arith(ArithOp::Rcp, kZero, 3), below);
  // third * 3 is exactly 1 + 2^-25: between 1 and the next float.
  EXPECT_EQ(double(third) * 3, 1.0 + std::ldexp(1.0, -25));
  EXPECT_EQ(arith(ArithOp::Mul, kUp, third, 3), std::nextafter(1.0f, 2.0f));
  EXPECT_EQ(arith(ArithOp::Mul, kDown, third, 3), 1.0f);
}

TEST(SimtDeviceMath, SqrtRoundsTowardItsMode) {
  float nearest = arith(ArithOp::Sqrt, kNearest, 2);
  float down = arith(ArithOp::Sqrt, kDown, 2);
  float up = arith(ArithOp::Sqrt, kUp, 2);
  EXPECT_EQ(nearest, std::sqrt(2.0f));
  EXPECT_EQ(std::nextafter(down, 2.0f), up);
  EXPECT_LT(double(down) * down, 2.0);
  EXPECT_GT(double(up) * up, 2.0);
  EXPECT_EQ(arith(ArithOp::Sqrt, kZero, 2), down);
  // Exact roots stay exact in every mode.
  EXPECT_EQ(arith(ArithOp::Sqrt, kUp, 4), 2.0f);
  EXPECT_EQ(arith(ArithOp::Sqrt, kDown, 4), 2.0f);
}

TEST(SimtDeviceMath, FtzFlushesInputsAndResults) {
  float subnormal = std::numeric_limits<float>::denorm_min() * 8;
  EXPECT_EQ(arith(ArithOp::Add, kNearest, subnormal, 0), subnormal);
  float flushed = arith(ArithOp::Add, kNearest, -subnormal, -0.0f, 0, true);
  EXPECT_EQ(flushed, 0.0f);
  EXPECT_TRUE(std::signbit(flushed));
  // A product that underflows to a subnormal is flushed too.
  float small = std::ldexp(1.0f, -70);
  EXPECT_NE(arith(ArithOp::Mul, kNearest, small, small), 0.0f);
  EXPECT_EQ(arith(ArithOp::Mul, kNearest, small, small, 0, true), 0.0f);
  EXPECT_EQ(fuserSimtApproxF32(uint32_t(ApproxOp::Ex2), 1, -130.0f, 0), 0.0f);
}

TEST(SimtDeviceMath, DoubleArithmeticAndConversions) {
  double tiny = std::ldexp(1.0, -60);
  EXPECT_EQ(fuserSimtArithF64(uint32_t(ArithOp::Add), kUp, 0, 1, tiny, 0),
            std::nextafter(1.0, 2.0));
  EXPECT_EQ(fuserSimtArithF64(uint32_t(ArithOp::Add), kNearest, 0, 1, tiny, 0),
            1.0);
  double between = 1.0 + std::ldexp(1.0, -30);
  EXPECT_EQ(fuserSimtDoubleToFloat(kZero, 0, between), 1.0f);
  EXPECT_EQ(fuserSimtDoubleToFloat(kUp, 0, between),
            std::nextafter(1.0f, 2.0f));
  EXPECT_EQ(fuserSimtDoubleToFloat(kDown, 0, -between),
            -std::nextafter(1.0f, 2.0f));
}

TEST(SimtDeviceMath, ApproximationsAndSaturate) {
  EXPECT_EQ(fuserSimtApproxF32(uint32_t(ApproxOp::Rcp), 1, 4.0f, 0), 0.25f);
  EXPECT_EQ(fuserSimtApproxF32(uint32_t(ApproxOp::Div), 0, 1.0f, 8.0f), 0.125f);
  EXPECT_EQ(fuserSimtApproxF64(uint32_t(ApproxOp::Rsqrt), 1, 16.0, 0), 0.25);
  EXPECT_EQ(fuserSimtSaturateF32(0, std::nanf("")), 0.0f);
  EXPECT_EQ(fuserSimtSaturateF32(0, 1.5f), 1.0f);
  EXPECT_EQ(fuserSimtSaturateF32(0, -2.0f), 0.0f);
  EXPECT_EQ(fuserSimtSaturateF64(0, 0.25), 0.25);
  // Results that are NaN are the canonical NaN.
  EXPECT_TRUE(std::isnan(arith(ArithOp::Sub, kNearest,
                               std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::infinity())));
}

TEST(SimtDeviceMath, ParsesPTXNames) {
  EXPECT_EQ(parseArithOp("fma"), ArithOp::Fma);
  EXPECT_EQ(parseArithOp("exp"), std::nullopt);
  EXPECT_EQ(parseRounding("rm"), Rounding::Down);
  EXPECT_EQ(parseRounding("rni"), std::nullopt);
  EXPECT_EQ(parseApproxOp("lg2"), ApproxOp::Lg2);
}
} // namespace
