//===- Float8Test.cpp - the interpreter's 8-bit float conversions ---------===//
//
// Elements.h converts to and from f8E4M3FN and f8E5M2 with integer code (the
// code FuserToArith emits). Checked here against APFloat, which rounds
// correctly but neither saturates nor picks fuser.cast's NaN: every f16 and
// every 257th f32 bit pattern to fp8, and every fp8 back to f32.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/Elements.h"

#include "llvm/ADT/APFloat.h"

#include "gtest/gtest.h"

using namespace mlir::fuser;
using namespace mlir::fuser::detail;
using llvm::APFloat;
using llvm::APInt;

namespace {

struct Format {
  const char *name;
  const Float8Format &layout;
  const llvm::fltSemantics &semantics;
};

const Format kFormats[] = {
    {"f8E4M3FN", kFloat8E4M3FN, APFloat::Float8E4M3FN()},
    {"f8E5M2", kFloat8E5M2, APFloat::Float8E5M2()},
};

/// fuser.cast's f32 -> fp8 from APFloat: saturate, then round once.
uint8_t referenceToFloat8(float value, const Format &format) {
  uint8_t sign = std::signbit(value) ? 0x80 : 0;
  if (std::isnan(value))
    return sign | format.layout.nan;
  APFloat largest(format.semantics, APInt(8, format.layout.maxFinite));
  if (std::fabs(value) > largest.convertToFloat())
    return sign | format.layout.maxFinite;
  APFloat converted(value);
  bool losesInfo = false;
  converted.convert(format.semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint8_t>(converted.bitcastToAPInt().getZExtValue());
}

TEST(Float8Test, FromFloatMatchesAPFloat) {
  for (const Format &format : kFormats) {
    auto check = [&](float value) {
      ASSERT_EQ(floatToFloat8(value, format.layout),
                referenceToFloat8(value, format))
          << format.name << " of " << value;
    };
    for (uint32_t half = 0; half < 0x10000; ++half)
      check(halfToFloat(static_cast<uint16_t>(half)));
    for (uint64_t bits = 0; bits <= 0xffffffffu; bits += 257) {
      uint32_t narrow = static_cast<uint32_t>(bits);
      check(bitCast<float>(&narrow));
    }
  }
}

TEST(Float8Test, ToFloatIsExact) {
  for (const Format &format : kFormats) {
    for (unsigned bits = 0; bits < 256; ++bits) {
      APFloat exact(format.semantics, APInt(8, bits));
      float value = float8ToFloat(static_cast<uint8_t>(bits), format.layout);
      if (exact.isNaN()) {
        // A quiet NaN with the sign kept.
        uint32_t raw = bitCast<uint32_t>(&value);
        EXPECT_EQ(raw & 0x7fffffff, 0x7fc00000u) << format.name << " " << bits;
        EXPECT_EQ(std::signbit(value), exact.isNegative());
        continue;
      }
      float expected = exact.convertToFloat();
      EXPECT_EQ(bitCast<uint32_t>(&value), bitCast<uint32_t>(&expected))
          << format.name << " " << bits;
      // And back: every finite value round-trips (infinities saturate).
      if (!exact.isInfinity())
        EXPECT_EQ(floatToFloat8(value, format.layout), bits) << format.name;
    }
  }
}

TEST(Float8Test, WideSourcesRoundOnce) {
  // Just above the e4m3 midpoint between 1 and 1.125: a first rounding to
  // f32 or f16 would land on the midpoint and then round to even (1.0).
  double above = 1.0625 + std::ldexp(1.0, -40);
  EXPECT_EQ(convertTo<ElemKind::F8E4M3FN>(above), 0x39); // 1.125
  EXPECT_EQ(convertTo<ElemKind::F8E4M3FN>(1.0625), 0x38); // 1.0, even
  // Integers saturate and round from their exact value.
  EXPECT_EQ(convertTo<ElemKind::F8E4M3FN>(int64_t(1) << 40), 0x7e);
  EXPECT_EQ(convertTo<ElemKind::F8E5M2>(std::numeric_limits<int32_t>::min()),
            0xfb);
  EXPECT_EQ(convertTo<ElemKind::F8E4M3FN>(int32_t(17)), 0x58); // 16, even
  EXPECT_EQ(convertTo<ElemKind::F8E4M3FN>(true), 0x38);
}

} // namespace
