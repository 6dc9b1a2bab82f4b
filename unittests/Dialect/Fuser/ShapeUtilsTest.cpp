//===- ShapeUtilsTest.cpp - element and byte counts, row-major strides ----===//
//
// Each count has one overflow policy, named by its function: checked
// (nullopt past int64), saturated (UINT64_MAX) or remembered (ByteCount).
// These tests pin the policies at the edges: empty shapes (scalars), zero
// extents (which win over any overflow) and products just past each limit.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <limits>

using namespace mlir;
using namespace mlir::fuser;

namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr uint64_t kUInt64Max = std::numeric_limits<uint64_t>::max();

TEST(ShapeUtilsTest, CheckedNumElements) {
  EXPECT_EQ(getCheckedNumElements({}), 1);
  EXPECT_EQ(getCheckedNumElements({4, 8}), 32);
  EXPECT_EQ(getCheckedNumElements({0}), 0);
  EXPECT_EQ(getCheckedNumElements({3, 0, 5}), 0);
  EXPECT_EQ(getCheckedNumElements({kInt64Max}), kInt64Max);
  EXPECT_EQ(getCheckedNumElements({1, kInt64Max, 1}), kInt64Max);
  // 2^62 * 2 = 2^63 is one past int64.
  EXPECT_EQ(getCheckedNumElements({int64_t(1) << 62, 2}), std::nullopt);
  EXPECT_EQ(getCheckedNumElements({kInt64Max, kInt64Max}), std::nullopt);
}

TEST(ShapeUtilsTest, SaturatedNumElementsOfShape) {
  EXPECT_EQ(getSaturatedNumElements(ArrayRef<int64_t>{}), 1u);
  EXPECT_EQ(getSaturatedNumElements({4, 8}), 32u);
  EXPECT_EQ(getSaturatedNumElements({3, 0, 5}), 0u);
  // 2^63 fits in uint64 although not in int64.
  EXPECT_EQ(getSaturatedNumElements({int64_t(1) << 62, 2}), uint64_t(1) << 63);
  EXPECT_EQ(getSaturatedNumElements({kInt64Max, kInt64Max}), kUInt64Max);
  EXPECT_EQ(getSaturatedNumElements({kInt64Max, 4, 1}), kUInt64Max);
  // Zero wins over a saturated product.
  EXPECT_EQ(getSaturatedNumElements({kInt64Max, kInt64Max, 0}), 0u);
}

class ShapeUtilsTypeTest : public ::testing::Test {
protected:
  Type parse(StringRef text) { return parseType(text, &context); }

  MLIRContext context;
};

TEST_F(ShapeUtilsTypeTest, SaturatedNumElementsOfType) {
  EXPECT_EQ(getSaturatedNumElements(parse("f32")), 1u);
  EXPECT_EQ(getSaturatedNumElements(parse("tensor<f32>")), 1u);
  EXPECT_EQ(getSaturatedNumElements(parse("tensor<2x3xi1>")), 6u);
  EXPECT_EQ(getSaturatedNumElements(parse("tensor<0x7xf64>")), 0u);
  EXPECT_EQ(getSaturatedNumElements(parse("tensor<9223372036854775807x3xf32>")),
            kUInt64Max);
}

TEST_F(ShapeUtilsTypeTest, ElementByteWidth) {
  for (auto [name, width] : {std::pair<StringRef, unsigned>{"i1", 1},
                             {"i32", 4},
                             {"i64", 8},
                             {"f16", 2},
                             {"bf16", 2},
                             {"f32", 4},
                             {"f64", 8},
                             {"f8E4M3FN", 1},
                             {"f8E5M2", 1}}) {
    FailureOr<unsigned> actual = getElementByteWidth(parse(name));
    ASSERT_TRUE(succeeded(actual)) << name.str();
    EXPECT_EQ(*actual, width) << name.str();
  }
  for (StringRef name : {"i8", "i16", "index", "f8E4M3FNUZ", "tensor<4xf32>"})
    EXPECT_TRUE(failed(getElementByteWidth(parse(name)))) << name.str();
  EXPECT_TRUE(failed(getElementByteWidth(Type())));
}

TEST_F(ShapeUtilsTypeTest, ValueByteSize) {
  EXPECT_EQ(*getValueByteSize(parse("f64")), 8u);
  EXPECT_EQ(*getValueByteSize(parse("i1")), 1u);
  EXPECT_EQ(*getValueByteSize(parse("tensor<f16>")), 2u);
  EXPECT_EQ(*getValueByteSize(parse("tensor<4x8xf32>")), 128u);
  EXPECT_EQ(*getValueByteSize(parse("tensor<3xi1>")), 3u);
  EXPECT_EQ(*getValueByteSize(parse("tensor<0x4611686018427387904xf64>")), 0u);
  // 2^61 f64 elements are 2^64 bytes: saturated, not wrapped to 0.
  EXPECT_EQ(*getValueByteSize(parse("tensor<2305843009213693952xf64>")),
            kUInt64Max);
  EXPECT_TRUE(failed(getValueByteSize(parse("tensor<?xf32>"))));
  EXPECT_TRUE(failed(getValueByteSize(parse("tensor<*xf32>"))));
  EXPECT_TRUE(failed(getValueByteSize(parse("tensor<4xi8>"))));
  EXPECT_TRUE(failed(getValueByteSize(parse("vector<4xf32>"))));
  EXPECT_TRUE(failed(getValueByteSize(parse("index"))));
}

TEST_F(ShapeUtilsTypeTest, ValueByteCountRemembersOverflow) {
  auto count = [&](StringRef text) { return *getValueByteCount(parse(text)); };
  EXPECT_EQ(count("f32"), (ByteCount{4, false}));
  EXPECT_EQ(count("tensor<4x8xf32>"), (ByteCount{128, false}));
  // 2^63 bytes fit.
  EXPECT_EQ(count("tensor<1152921504606846976xf64>"),
            (ByteCount{uint64_t(1) << 63, false}));
  // 2^64 bytes do not.
  EXPECT_EQ(count("tensor<2305843009213693952xf64>"),
            (ByteCount{kUInt64Max, true}));
  // Exactly UINT64_MAX bytes (3 * 5 * 17 * 257 * 641 * 65537 * 6700417) is
  // not an overflow, which a saturated count alone could not tell.
  EXPECT_EQ(count("tensor<3x5x17x257x641x65537x6700417xi1>"),
            (ByteCount{kUInt64Max, false}));
  // An empty tensor takes nothing, however large its other dims.
  EXPECT_EQ(count("tensor<0x4611686018427387904x8xf64>"), (ByteCount{}));
  EXPECT_EQ(count("tensor<4611686018427387904x8x0xf64>"), (ByteCount{}));
  EXPECT_TRUE(failed(getValueByteCount(parse("tensor<?xf32>"))));
  EXPECT_TRUE(failed(getValueByteCount(parse("tensor<4xi8>"))));
}

TEST(ShapeUtilsTest, ByteCountSum) {
  ByteCount sum;
  sum += ByteCount{uint64_t(1) << 63, false};
  EXPECT_EQ(sum, (ByteCount{uint64_t(1) << 63, false}));
  sum += ByteCount{(uint64_t(1) << 63) - 1, false};
  EXPECT_EQ(sum, (ByteCount{kUInt64Max, false}));
  // One more byte no longer fits.
  EXPECT_EQ((sum + ByteCount{1, false}), (ByteCount{kUInt64Max, true}));
  // An overflowed term keeps the sum overflowed.
  EXPECT_EQ((ByteCount{} + ByteCount{kUInt64Max, true}),
            (ByteCount{kUInt64Max, true}));
  EXPECT_EQ(ByteCount{} + ByteCount{}, ByteCount{});
}

TEST(ShapeUtilsTest, RowMajorStrides) {
  EXPECT_TRUE(getRowMajorStrides({}).empty());
  EXPECT_EQ(getRowMajorStrides({7}), (SmallVector<int64_t>{1}));
  EXPECT_EQ(getRowMajorStrides({2, 3, 4}), (SmallVector<int64_t>{12, 4, 1}));
  EXPECT_EQ(getRowMajorStrides({1, 8, 1}), (SmallVector<int64_t>{8, 1, 1}));
  // A zero extent zeroes the strides of the dims outside it.
  EXPECT_EQ(getRowMajorStrides({2, 0, 3}), (SmallVector<int64_t>{0, 3, 1}));
}

} // namespace
