//===- CastRulesTest.cpp - the cast-chain fold rule, checked by execution -===//
//
// For every triple of element types (A, B, C), runs cast(cast(x : A -> B) :
// B -> C) and the direct cast(x : A -> C) in the reference interpreter over
// every value of A (all i1, f16 and bf16 bit patterns; edge cases plus a
// large pseudo-random sample for the 32- and 64-bit types). Whenever
// isExactCast(A, B) says the chain may fold, both must give the same bits.
// Signaling NaNs are left out: every conversion quiets them (as IEEE 754 and
// the hardware do), so a folded chain can pass an input sNaN through
// unquieted. No fuser op produces one (docs/Preseg.md).
// Conversely, every pair the rule rejects must have a witness value x with
// cast(cast(x : A -> B) : B -> A) != x, so the rule is as loose as it can be
// for round trips. The opt-in lossy rule (nvFuser's ConsecutiveCastPass,
// foldCastChainLossy) is checked against nvFuser's own test chains, and
// every chain of three it shortens beyond the exact rule has a witness.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/CastRules.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/Interpreter/Interpreter.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::fuser;

namespace {

constexpr const char *kTypeNames[] = {"i1",   "i32", "i64", "f16",
                                      "bf16", "f32", "f64"};

uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Whether `bits` of a float format with `mantissaBits` stored mantissa bits
/// and `exponentMask` is a signaling NaN (all-ones exponent, nonzero
/// mantissa, quiet bit clear).
bool isSignalingNaN(uint64_t bits, uint64_t exponentMask, int mantissaBits) {
  uint64_t mantissa = bits & ((1ull << mantissaBits) - 1);
  uint64_t quietBit = 1ull << (mantissaBits - 1);
  return (bits & exponentMask) == exponentMask && mantissa != 0 &&
         !(mantissa & quietBit);
}

template <typename T> void append(std::vector<uint8_t> &bytes, T value) {
  uint8_t raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  bytes.insert(bytes.end(), raw, raw + sizeof(T));
}

/// Every value of a type of at most 16 bits, else edge cases and a sample.
std::vector<uint8_t> allValues(StringRef type) {
  std::vector<uint8_t> bytes;
  if (type == "i1")
    return {0, 1};
  if (type == "f16" || type == "bf16") {
    bool half = type == "f16";
    for (uint32_t bits = 0; bits < 0x10000; ++bits)
      if (!isSignalingNaN(bits, half ? 0x7c00 : 0x7f80, half ? 10 : 7))
        append<uint16_t>(bytes, bits);
    return bytes;
  }
  constexpr int kSample = 100000;
  uint64_t state = 42;
  auto sample = [&](auto edges, auto fromBits) {
    for (auto edge : edges)
      append(bytes, edge);
    for (int i = 0; i < kSample; ++i)
      append(bytes, fromBits(splitmix64(state)));
  };
  if (type == "i32")
    sample(std::initializer_list<int32_t>{0, 1, -1, 16777217, -16777217,
                                          std::numeric_limits<int32_t>::min(),
                                          std::numeric_limits<int32_t>::max()},
           [](uint64_t h) { return static_cast<int32_t>(h >> (h & 31)); });
  else if (type == "i64")
    sample(std::initializer_list<int64_t>{0, 1, -1, (1ll << 53) + 1, 1ll << 32,
                                          std::numeric_limits<int64_t>::min(),
                                          std::numeric_limits<int64_t>::max()},
           [](uint64_t h) { return static_cast<int64_t>(h >> (h & 63)); });
  else if (type == "f32")
    sample(
        std::initializer_list<float>{0.f, -0.f, 0.5f, 1.f / 3, 65504.f, 65520.f,
                                     1e-8f, 3e38f,
                                     std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::quiet_NaN(),
                                     std::numeric_limits<float>::denorm_min()},
        [](uint64_t h) {
          float value;
          uint32_t bits = static_cast<uint32_t>(h);
          if (isSignalingNaN(bits, 0x7f800000, 23))
            bits |= 1u << 22;
          std::memcpy(&value, &bits, sizeof(value));
          return value;
        });
  else
    sample(
        std::initializer_list<double>{0., -0., 0.5, 1. / 3, 1e-300, 1e300,
                                      // f16 / bf16 midpoints nudged up: one
                                      // rounding goes up, via f32 it ties
                                      // to even (double rounding).
                                      1 + 0x1p-11 + 0x1p-40,
                                      1 + 0x1p-8 + 0x1p-40,
                                      std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::quiet_NaN()},
        [](uint64_t h) {
          double value;
          if (isSignalingNaN(h, 0x7ff0000000000000ull, 52))
            h |= 1ull << 51;
          std::memcpy(&value, &h, sizeof(value));
          return value;
        });
  return bytes;
}

class CastRulesTest : public ::testing::Test {
protected:
  CastRulesTest() { context.loadDialect<FuserDialect, func::FuncDialect>(); }

  Type parseElementType(StringRef name) { return parseType(name, &context); }

  /// Results of [cast(cast(x : A -> B) : B -> C), cast(x : A -> C)].
  SmallVector<Buffer> runChainAndDirect(StringRef a, StringRef b, StringRef c,
                                        const std::vector<uint8_t> &values) {
    unsigned width = *getElementByteWidth(parseElementType(a));
    int64_t count = values.size() / width;
    std::string t = "tensor<" + std::to_string(count) + "x";
    std::string ta = t + a.str() + ">", tb = t + b.str() + ">",
                tc = t + c.str() + ">";
    std::string direct = a == c ? "%x" : "%d";
    std::string source =
        "func.func @f(%x: " + ta + ") -> (" + tc + ", " + tc + ") {\n" +
        "  %m = fuser.cast %x : " + ta + " to " + tb + "\n" +
        "  %r = fuser.cast %m : " + tb + " to " + tc + "\n" +
        (a == c ? "" : "  %d = fuser.cast %x : " + ta + " to " + tc + "\n") +
        "  return %r, " + direct + " : " + tc + ", " + tc + "\n}\n";
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module) << source;
    auto func = cast<func::FuncOp>(module->getBody()->front());
    Buffer input;
    input.elementType = parseElementType(a);
    input.shape = {count};
    input.bytes.assign(values.begin(), values.end());
    FailureOr<SmallVector<Buffer>> results = interpret(func, {input});
    EXPECT_TRUE(succeeded(results)) << source;
    return succeeded(results) ? *results : SmallVector<Buffer>();
  }

  MLIRContext context;
};

TEST_F(CastRulesTest, ExactChainsFoldBitIdentically) {
  int checked = 0;
  for (StringRef a : kTypeNames) {
    std::vector<uint8_t> values = allValues(a);
    for (StringRef b : kTypeNames) {
      if (!isExactCast(parseElementType(a), parseElementType(b)))
        continue;
      for (StringRef c : kTypeNames) {
        SmallVector<Buffer> results = runChainAndDirect(a, b, c, values);
        ASSERT_EQ(results.size(), 2u);
        EXPECT_EQ(results[0].bytes, results[1].bytes)
            << a.str() << " -> " << b.str() << " -> " << c.str()
            << " differs from " << a.str() << " -> " << c.str();
        ++checked;
      }
    }
  }
  // 7 identities, i1 into 6 others, i32 into 2, f16/bf16 into 2 each, f32
  // into 1: 20 foldable (A, B) pairs, each against 7 targets.
  EXPECT_EQ(checked, 20 * 7);
}

TEST_F(CastRulesTest, RejectedPairsHaveRoundTripWitnesses) {
  for (StringRef a : kTypeNames) {
    std::vector<uint8_t> values = allValues(a);
    for (StringRef b : kTypeNames) {
      if (isExactCast(parseElementType(a), parseElementType(b)))
        continue;
      SmallVector<Buffer> results = runChainAndDirect(a, b, a, values);
      ASSERT_EQ(results.size(), 2u);
      EXPECT_NE(results[0].bytes, results[1].bytes)
          << a.str() << " -> " << b.str() << " -> " << a.str()
          << " is the identity on every sampled value, yet the rule rejects it";
    }
  }
}

/// foldCastChainLossy on the chains of nvFuser's
/// PresegTest.FusionTestCastOptimization (tests/cpp/test_preseg_passes.cpp,
/// complex types left out) and of the issue.
TEST_F(CastRulesTest, LossyRuleIsNvFusersConsecutiveCast) {
  auto fold = [&](std::initializer_list<StringRef> names) {
    SmallVector<Type> types;
    for (StringRef name : names)
      types.push_back(parseElementType(name));
    std::string folded;
    for (Type type : foldCastChainLossy(types)) {
      llvm::raw_string_ostream os(folded);
      os << (folded.empty() ? "" : " -> ") << type;
    }
    return folded;
  };
  // nvFuser's test chains.
  EXPECT_EQ(fold({"f64", "f32", "f16", "f32", "f64"}), "f64 -> f16 -> f64");
  EXPECT_EQ(fold({"f64", "f32", "f64", "f16"}), "f64 -> f16");
  EXPECT_EQ(fold({"f64", "f32", "f16", "f32", "f64", "f16"}), "f64 -> f16");
  EXPECT_EQ(fold({"f32", "f64", "f32"}), "f32");
  EXPECT_EQ(fold({"f32", "f64", "f16", "f32", "f64", "f32", "f64", "f32", "f64",
                  "f32"}),
            "f32 -> f16 -> f32");
  EXPECT_EQ(fold({"f32", "f64", "f16", "f32", "bf16", "f32"}),
            "f32 -> f16 -> bf16 -> f32");
  EXPECT_EQ(fold({"i32", "f64", "i64", "bf16", "f32", "f64"}),
            "i32 -> bf16 -> f64");
  EXPECT_EQ(fold({"f64", "f16", "f64", "f32"}), "f64 -> f16 -> f32");
  EXPECT_EQ(fold({"f32", "f16", "bf16", "f16"}), "f32 -> f16 -> bf16 -> f16");
  // The examples.
  EXPECT_EQ(fold({"f64", "f32", "f16"}), "f64 -> f16");
  EXPECT_EQ(fold({"f16", "f32", "f64", "f16"}), "f16");
  EXPECT_EQ(fold({"f64", "f32", "f16", "f64"}), "f64 -> f16 -> f64");
  EXPECT_EQ(fold({"f32", "bf16", "f32"}), "f32 -> bf16 -> f32");
  // Integers and floats are incompatible unless one includes the other.
  EXPECT_EQ(fold({"i64", "f64", "i32"}), "i64 -> f64 -> i32");
  EXPECT_EQ(fold({"f32", "i64", "f32"}), "f32 -> i64 -> f32");
  // nvFuser's isInclusiveType is isExactCast over the fuser types.
  EXPECT_EQ(fold({"i64", "i32", "i1"}), "i64 -> i1");
}

/// Every chain A -> B -> C that the lossy rule shortens beyond the exact
/// rule (A -> B inexact) either has a witness value where the folded chain
/// differs, or A has at most 16 bits and the chain agrees on every value of
/// A (a proof by exhaustion). With the fuser types every such chain narrows
/// from a 32- or 64-bit type, and each has a witness.
TEST_F(CastRulesTest, LossyFoldsHaveWitnesses) {
  int lossy = 0;
  for (StringRef a : kTypeNames) {
    std::vector<uint8_t> values = allValues(a);
    for (StringRef b : kTypeNames) {
      if (isExactCast(parseElementType(a), parseElementType(b)))
        continue;
      for (StringRef c : kTypeNames) {
        if (c == b)
          continue;
        SmallVector<Type> folded = foldCastChainLossy(
            {parseElementType(a), parseElementType(b), parseElementType(c)});
        if (folded.size() == 3)
          continue;
        // Shortened: it can only be A -> C (or A when C == A).
        ASSERT_EQ(folded.back(), parseElementType(c));
        ++lossy;
        SmallVector<Buffer> results = runChainAndDirect(a, b, c, values);
        ASSERT_EQ(results.size(), 2u);
        bool exhaustive = a == "i1" || a == "f16" || a == "bf16";
        if (results[0].bytes == results[1].bytes) {
          EXPECT_TRUE(exhaustive)
              << a.str() << " -> " << b.str() << " -> " << c.str()
              << " folds lossily but no sampled value tells it apart";
          continue;
        }
        // Report the witness.
        unsigned inWidth = *getElementByteWidth(parseElementType(a));
        unsigned outWidth = *getElementByteWidth(parseElementType(c));
        for (size_t i = 0; i * outWidth < results[0].bytes.size(); ++i) {
          if (std::memcmp(results[0].bytes.data() + i * outWidth,
                          results[1].bytes.data() + i * outWidth,
                          outWidth) == 0)
            continue;
          uint64_t bits = 0;
          std::memcpy(&bits, values.data() + i * inWidth, inWidth);
          std::printf("lossy %s -> %s -> %s: witness bits 0x%llx\n",
                      a.str().c_str(), b.str().c_str(), c.str().c_str(),
                      static_cast<unsigned long long>(bits));
          break;
        }
      }
    }
  }
  // i64 -> i32 -> i1, f64 -> i32 -> i1, f32 -> f16/bf16 -> i1,
  // f64 -> f16/bf16/f32 -> i1, f64 -> f32 -> f16/bf16.
  EXPECT_EQ(lossy, 9);
}

} // namespace
