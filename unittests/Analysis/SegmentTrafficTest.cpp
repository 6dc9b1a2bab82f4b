//===- SegmentTrafficTest.cpp - the FusionTraffic analysis, queried -------===//
//
// What the segment report prints is tested by lit; these tests query the
// analysis the way other consumers (the demo, bindings) will: counts, value
// references, readers and alias views as data.
//
//===----------------------------------------------------------------------===//

#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/AnalysisManager.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {

class SegmentTrafficTest : public ::testing::Test {
protected:
  SegmentTrafficTest() {
    context.loadDialect<FuserDialect, func::FuncDialect, arith::ArithDialect>();
  }

  func::FuncOp parseFunc(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    return *module->getOps<func::FuncOp>().begin();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

// A pointwise kernel reading a tensor twice and an outside constant, an
// alias of its result, and a return of both.
constexpr const char *kKernelAndAlias = R"mlir(
func.func @f(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %c = arith.constant 2.0 : f32
  %0 = fuser.segment pointwise(%x, %x, %c) : (tensor<4x8xf32>, tensor<4x8xf32>, f32) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %s: f32):
    %1 = fuser.add %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    %2 = fuser.mul %1, %s : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
    fuser.yield %2 : tensor<4x8xf32>
  }
  %3 = fuser.segment alias(%0) : (tensor<4x8xf32>) -> tensor<8x4xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %4 = fuser.permute %a [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
    fuser.yield %4 : tensor<8x4xf32>
  }
  return %0, %3 : tensor<4x8xf32>, tensor<8x4xf32>
}
)mlir";

TEST_F(SegmentTrafficTest, KernelAndAlias) {
  func::FuncOp func = parseFunc(kKernelAndAlias);
  FusionTraffic fusion(func);
  ASSERT_TRUE(fusion.isSegmented());
  EXPECT_TRUE(succeeded(fusion.emitUnsegmentedError()));
  EXPECT_EQ(fusion.getNumKernels(), 1u);
  ASSERT_EQ(fusion.getNumSegments(), 2u);
  // The input is read once although passed twice; the constant is free.
  EXPECT_EQ(fusion.getBytesRead(), (ByteCount{128, false}));
  EXPECT_EQ(fusion.getBytesWritten(), (ByteCount{128, false}));

  const SegmentTraffic &kernel = fusion.getSegments()[0];
  EXPECT_EQ(kernel.kind, SegmentKind::Pointwise);
  EXPECT_EQ(kernel.numKernelLaunches, 1u);
  EXPECT_EQ(kernel.inputBytes,
            (SmallVector<ByteCount>{{128, false}, {128, false}, {0, false}}));
  EXPECT_EQ(kernel.resultBytes, (SmallVector<ByteCount>{{128, false}}));
  EXPECT_TRUE(kernel.aliasViews.empty());

  const SegmentTraffic &alias = fusion.getSegments()[1];
  EXPECT_TRUE(alias.isAlias());
  EXPECT_EQ(alias.numKernelLaunches, 0u);
  EXPECT_EQ(alias.bytesRead, ByteCount{});
  EXPECT_EQ(alias.bytesWritten, ByteCount{});
  ASSERT_EQ(alias.aliasViews.size(), 1u);
  ASSERT_TRUE(alias.aliasViews[0].has_value());
  EXPECT_EQ(alias.aliasViews[0]->inputIndex, 0u);
  StridedView expected;
  expected.sizes = {8, 4};
  expected.strides = {1, 8};
  EXPECT_EQ(alias.aliasViews[0]->view, expected);

  Value constant = fusion.getOutsideValues().front();
  ASSERT_EQ(fusion.getOutsideValues().size(), 1u);
  EXPECT_EQ(fusion.getName(func.getArgument(0)), "%arg0");
  EXPECT_EQ(fusion.getName(constant), "%s0");
  EXPECT_EQ(fusion.getRef(constant).kind, FusionValueRef::Kind::Outside);
  SegmentOp kernelOp = kernel.op, aliasOp = alias.op;
  Value written = kernelOp.getResult(0);
  EXPECT_EQ(fusion.getName(written), "#0.0");
  EXPECT_EQ(fusion.getName(aliasOp.getResult(0)), "#1.0");
  EXPECT_EQ(fusion.getSegmentIndex(aliasOp), 1u);
  EXPECT_EQ(fusion.getSegmentIndex(constant.getDefiningOp()), std::nullopt);

  SmallVector<FusionValueReader> readers = fusion.getReaders(written);
  ASSERT_EQ(readers.size(), 2u);
  EXPECT_EQ(readers[0].kind, FusionValueReader::Kind::Segment);
  EXPECT_EQ(readers[0].number, 1u);
  EXPECT_EQ(readers[1].kind, FusionValueReader::Kind::Return);
  EXPECT_EQ(readers[1].number, 0u);
}

TEST_F(SegmentTrafficTest, FromAnalysisManager) {
  func::FuncOp func = parseFunc(kKernelAndAlias);
  ModuleAnalysisManager moduleAnalyses(*module, /*passInstrumentor=*/nullptr);
  AnalysisManager analyses = moduleAnalyses;
  const FusionTraffic &fusion = analyses.getChildAnalysis<FusionTraffic>(func);
  EXPECT_EQ(fusion.getNumKernels(), 1u);
  // Cached: asking again gives the same object.
  EXPECT_EQ(&fusion, &analyses.getChildAnalysis<FusionTraffic>(func));
}

TEST_F(SegmentTrafficTest, Unsegmented) {
  func::FuncOp func = parseFunc(R"mlir(
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
})mlir");
  FusionTraffic fusion(func);
  EXPECT_FALSE(fusion.isSegmented());
  ASSERT_NE(fusion.getUnsegmentedOp(), nullptr);
  EXPECT_EQ(fusion.getUnsegmentedOp()->getName().getStringRef(), "fuser.neg");
  EXPECT_EQ(fusion.getNumSegments(), 0u);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    message = diagnostic.str();
    return success();
  });
  EXPECT_TRUE(failed(fusion.emitUnsegmentedError()));
  EXPECT_EQ(message, "'fuser.neg' op computes outside a fuser.segment: @g is "
                     "not segmented (run fuser-segment)");
}

TEST_F(SegmentTrafficTest, TransferBytes) {
  auto parse = [&](StringRef text) { return parseType(text, &context); };
  EXPECT_EQ(getTransferBytes(parse("f64")), ByteCount{});
  EXPECT_EQ(getTransferBytes(parse("tensor<3xi1>")), (ByteCount{3, false}));
  EXPECT_EQ(getTransferBytes(parse("tensor<2305843009213693952xf64>")),
            (ByteCount{UINT64_MAX, true}));
}

} // namespace
