//===- LaneAnalysisTest.cpp - lanes through the index maps ----------------===//
//
// Pins the answers of the kernel emitter's lane analysis
// (getOperandLaneDim, lib/Conversion/FuserToSCF/LaneAnalysis.cpp): for
// `width` aligned lanes along one result dim, which operand dim they step
// along (a vector load), whether they all read one element (a splat), or
// anything else (one load per lane). Each case's operand index map is the
// op's own (getOperandIndexMaps).
//
//===----------------------------------------------------------------------===//

#include "Conversion/FuserToSCF/EmitterBase.h"

#include "fuser/Analysis/IndexingMaps.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {

constexpr std::optional<int64_t> kUniform = std::nullopt;
constexpr std::optional<int64_t> kGather = -1;

class LaneAnalysisTest : public ::testing::Test {
protected:
  LaneAnalysisTest() {
    context.loadDialect<FuserDialect, func::FuncDialect, arith::ArithDialect>();
  }

  /// The lane dim of operand `operand` of the one op of `body` (a function
  /// body from %x), for `width` lanes along result dim `dim`.
  std::optional<int64_t> laneDim(StringRef argumentType, StringRef body,
                                 int64_t dim, int64_t width,
                                 unsigned operand = 0) {
    std::string source =
        ("func.func @f(%x: " + argumentType + ") {\n" + body + "\n  return\n}")
            .str();
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module) << source;
    if (!module)
      return kGather;
    auto func = *module->getOps<func::FuncOp>().begin();
    Operation *op = &func.getBody().front().front();
    FailureOr<SmallVector<OperandIndexMap>> maps = getOperandIndexMaps(op);
    EXPECT_TRUE(succeeded(maps));
    AffineMap map = (*maps)[operand].pieces.front().map;
    auto shape = cast<ShapedType>(op->getOperand(operand).getType()).getShape();
    return kernels::getOperandLaneDim(map, shape, dim, width);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(LaneAnalysisTest, PermuteSqueezeBroadcastFollowTheDim) {
  // (d0, d1, d2) -> (d0, d2, d1): lanes along result dim 2 step source dim 1.
  EXPECT_EQ(laneDim("tensor<2x8x4xf32>",
                    "%r = fuser.permute %x [0, 2, 1] : tensor<2x8x4xf32> -> "
                    "tensor<2x4x8xf32>",
                    2, 4),
            1);
  EXPECT_EQ(laneDim("tensor<2x1x8xf32>",
                    "%r = fuser.squeeze %x [1] : tensor<2x1x8xf32> -> "
                    "tensor<2x8xf32>",
                    1, 4),
            2);
  EXPECT_EQ(laneDim("tensor<2x8xf32>",
                    "%r = fuser.broadcast %x [1] : tensor<2x8xf32> -> "
                    "tensor<2x1x8xf32>",
                    2, 4),
            1);
}

TEST_F(LaneAnalysisTest, ExpandedDimIsUniform) {
  StringRef expand = "%r = fuser.expand %x : tensor<1x8xf32> -> "
                     "tensor<4x8xf32>";
  EXPECT_EQ(laneDim("tensor<1x8xf32>", expand, 0, 4), kUniform);
  EXPECT_EQ(laneDim("tensor<1x8xf32>", expand, 1, 4), 1);
}

TEST_F(LaneAnalysisTest, ViewKeepsRunsThatTheWidthDivides) {
  // 4x8 -> 32: (d0) -> (d0 floordiv 8, d0 mod 8); aligned runs of 4 stay in
  // one row.
  EXPECT_EQ(laneDim("tensor<4x8xf32>",
                    "%r = fuser.view %x : tensor<4x8xf32> -> tensor<32xf32>", 0,
                    4),
            1);
  // 4x6 -> 24: a run of 4 crosses rows of 6.
  EXPECT_EQ(laneDim("tensor<4x6xf32>",
                    "%r = fuser.view %x : tensor<4x6xf32> -> tensor<24xf32>", 0,
                    4),
            kGather);
  // 32 -> 4x8: (d0, d1) -> (d0 * 8 + d1).
  EXPECT_EQ(laneDim("tensor<32xf32>",
                    "%r = fuser.view %x : tensor<32xf32> -> tensor<4x8xf32>", 1,
                    4),
            0);
  // 2x4x3 -> 8x3: lanes along the 8 (stride 3) step the 4.
  EXPECT_EQ(laneDim("tensor<2x4x3xf32>",
                    "%r = fuser.view %x : tensor<2x4x3xf32> -> "
                    "tensor<8x3xf32>",
                    0, 4),
            1);
  // 8 -> 4x2: lanes along the 4 step by 2 in the source.
  EXPECT_EQ(laneDim("tensor<8xf32>",
                    "%r = fuser.view %x : tensor<8xf32> -> tensor<4x2xf32>", 0,
                    4),
            kGather);
}

TEST_F(LaneAnalysisTest, SliceKeepsAlignedUnitStrides) {
  EXPECT_EQ(
      laneDim(
          "tensor<2x16xf32>",
          "%r = fuser.slice %x starts [0, 4] limits [2, 12] strides [1, 1] : "
          "tensor<2x16xf32> -> tensor<2x8xf32>",
          1, 4),
      1);
  // Unaligned start, stride 2, a source row the width does not divide.
  EXPECT_EQ(
      laneDim(
          "tensor<2x16xf32>",
          "%r = fuser.slice %x starts [0, 2] limits [2, 10] strides [1, 1] : "
          "tensor<2x16xf32> -> tensor<2x8xf32>",
          1, 4),
      kGather);
  EXPECT_EQ(
      laneDim(
          "tensor<2x16xf32>",
          "%r = fuser.slice %x starts [0, 0] limits [2, 16] strides [1, 2] : "
          "tensor<2x16xf32> -> tensor<2x8xf32>",
          1, 4),
      kGather);
  EXPECT_EQ(
      laneDim(
          "tensor<2x18xf32>",
          "%r = fuser.slice %x starts [0, 4] limits [2, 12] strides [1, 1] : "
          "tensor<2x18xf32> -> tensor<2x8xf32>",
          1, 4),
      kGather);
}

TEST_F(LaneAnalysisTest, PadAndCatPieces) {
  StringRef aligned = "%c = arith.constant 0.0 : f32\n"
                      "%r = fuser.pad %x low [0, 4] high [0, 4] value %c : "
                      "tensor<2x8xf32>, f32 -> tensor<2x16xf32>";
  // The constant is the function's first op; the pad reads %x through
  // (d0, d1) -> (d0, d1 - 4).
  module = parseSourceString<ModuleOp>(
      ("func.func @f(%x: tensor<2x8xf32>) {\n" + aligned + "\n return\n}")
          .str(),
      &context);
  ASSERT_TRUE(module);
  auto func = *module->getOps<func::FuncOp>().begin();
  Operation *pad = &*std::next(func.getBody().front().begin());
  AffineMap map = (*getOperandIndexMaps(pad))[0].pieces.front().map;
  EXPECT_EQ(kernels::getOperandLaneDim(map, {2, 8}, 1, 4), 1);
  EXPECT_EQ(kernels::getOperandLaneDim(map, {2, 8}, 1, 8), kGather);
  EXPECT_EQ(kernels::getOperandLaneDim(map, {2, 8}, 0, 2), 0);
}

TEST_F(LaneAnalysisTest, ReductionSymbolsStay) {
  // (d0)[s0] -> (s0, d0): the reduced dim is a loop, not a lane.
  EXPECT_EQ(laneDim("tensor<16x8xf32>",
                    "%r = fuser.reduction add %x [0] : tensor<16x8xf32> "
                    "-> tensor<8xf32>",
                    0, 4),
            1);
}

TEST_F(LaneAnalysisTest, ElementwiseBroadcastOperand) {
  // A 1x8 operand of a 4x8 result: lanes along the rows all read one.
  StringRef add = "%r = fuser.add %x, %x : tensor<1x8xf32>, tensor<1x8xf32> "
                  "-> tensor<1x8xf32>";
  EXPECT_EQ(laneDim("tensor<1x8xf32>", add, 1, 4), 1);
  AffineMap broadcast = getBroadcastIndexMap(&context, {1, 8}, {4, 8});
  EXPECT_EQ(kernels::getOperandLaneDim(broadcast, {1, 8}, 0, 4), kUniform);
  EXPECT_EQ(kernels::getOperandLaneDim(broadcast, {1, 8}, 1, 4), 1);
}

} // namespace
