//===- KernelTemplatesTest.cpp - the incremental template builder ---------===//
//
// Segmentation grows KernelTemplateBuilders op by op, takes ops back and
// rejects unions before adding their ops (docs/Segmentation.md). These tests
// hold each shortcut to the answer of analysing the whole kernel at once.
//
//===----------------------------------------------------------------------===//

#include "fuser/Analysis/KernelTemplates.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {

// Three softmax-style normalizations of 64 rows of 4096 f32 (16 KiB a row):
// two fit a 48 KiB block, three do not.
constexpr const char *kThreeNormalizations = R"mlir(
func.func @f(%x: tensor<64x4096xf32>, %y: tensor<64x4096xf32>,
             %z: tensor<64x4096xf32>)
    -> (tensor<64x4096xf32>, tensor<64x4096xf32>, tensor<64x4096xf32>) {
  %mx = fuser.reduction max %x [1] keepdim : tensor<64x4096xf32> -> tensor<64x1xf32>
  %sx = fuser.sub %x, %mx : tensor<64x4096xf32>, tensor<64x1xf32> -> tensor<64x4096xf32>
  %my = fuser.reduction max %y [1] keepdim : tensor<64x4096xf32> -> tensor<64x1xf32>
  %sy = fuser.sub %y, %my : tensor<64x4096xf32>, tensor<64x1xf32> -> tensor<64x4096xf32>
  %mz = fuser.reduction max %z [1] keepdim : tensor<64x4096xf32> -> tensor<64x1xf32>
  %sz = fuser.sub %z, %mz : tensor<64x4096xf32>, tensor<64x1xf32> -> tensor<64x4096xf32>
  return %sx, %sy, %sz : tensor<64x4096xf32>, tensor<64x4096xf32>, tensor<64x4096xf32>
}
)mlir";

class KernelTemplatesTest : public ::testing::Test {
protected:
  KernelTemplatesTest() {
    context.loadDialect<FuserDialect, func::FuncDialect>();
    module = parseSourceString<ModuleOp>(kThreeNormalizations, &context);
    EXPECT_TRUE(module);
    auto func = *module->getOps<func::FuncOp>().begin();
    for (Operation &op : func.getBody().front().without_terminator())
      ops.push_back(&op);
    rowType = func.getArgumentTypes().front();
  }

  /// A builder of normalizations `first` to `last` (0..2), each writing its
  /// `sub`.
  KernelTemplateBuilder build(unsigned first, unsigned last) {
    KernelTemplateBuilder builder;
    for (unsigned i = first; i <= last; ++i) {
      builder.addOp(ops[2 * i]);
      builder.addOp(ops[2 * i + 1]);
      builder.addOutput(ops[2 * i + 1]->getResult(0), i - first);
    }
    return builder;
  }

  SmallVector<InputTypeCount> rows(int64_t count) {
    return {{rowType, count}};
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  SmallVector<Operation *> ops;
  Type rowType;
  TargetInfo target;
};

TEST_F(KernelTemplatesTest, CountInputTypesKeepsFirstSeenOrder) {
  Type f32 = Float32Type::get(&context);
  SmallVector<InputTypeCount> counts =
      countInputTypes({rowType, f32, rowType, rowType});
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[0].type, rowType);
  EXPECT_EQ(counts[0].count, 3);
  EXPECT_EQ(counts[1].type, f32);
  EXPECT_EQ(counts[1].count, 1);
}

TEST_F(KernelTemplatesTest, RowsDecideWhetherNormalizationsShareAKernel) {
  EXPECT_EQ(build(0, 1).getTemplate(rows(2), target, true),
            SegmentKind::Normalization);
  EXPECT_EQ(build(0, 2).getTemplate(rows(3), target, true), std::nullopt);
  KernelMatch refused = build(0, 2).match(rows(3), target, true);
  EXPECT_FALSE(refused.kind);
  EXPECT_NE(refused.whyNot.find("over the 49152 a block has"),
            std::string::npos)
      << refused.whyNot;
}

TEST_F(KernelTemplatesTest, RollbackForgetsWhatWasAdded) {
  KernelTemplateBuilder builder = build(0, 0);
  NormalizationStructure before =
      builder.getNormalization(rows(1), true, target.sharedMemoryPerBlock);
  KernelTemplateBuilder::Checkpoint checkpoint = builder.checkpoint();
  for (Operation *op : ArrayRef(ops).drop_front(2))
    builder.addOp(op);
  builder.addOutput(ops[3]->getResult(0), 1);
  EXPECT_EQ(builder.getTemplate(rows(3), target, true), std::nullopt);
  builder.rollback(std::move(checkpoint));
  NormalizationStructure after =
      builder.getNormalization(rows(1), true, target.sharedMemoryPerBlock);
  EXPECT_EQ(after.reductions.size(), before.reductions.size());
  EXPECT_EQ(after.sharedBytes, before.sharedBytes);
  EXPECT_EQ(after.besideRows, before.besideRows);
  // The `sub`s added after the checkpoint no longer count as computed from
  // a reduction: adding the first normalization's again gives the same.
  EXPECT_EQ(builder.getTemplate(rows(1), target, true),
            SegmentKind::Normalization);
}

TEST_F(KernelTemplatesTest, CanBeKernelWithAgreesWithTheUnion) {
  // Before adding ops, the union's rows, inputs and reductions decide: the
  // answer is the one analysing the union gives.
  for (int64_t inputs : {2, 3}) {
    bool early = build(0, 0).canBeKernelWith(build(1, 1), rows(inputs), target);
    bool whole = build(0, 1).getTemplate(rows(inputs), target, true) ==
                  SegmentKind::Normalization;
    EXPECT_EQ(early, whole) << inputs << " inputs";
  }
  EXPECT_FALSE(build(0, 1).canBeKernelWith(build(2, 2), rows(3), target));
  EXPECT_EQ(build(0, 2).getTemplate(rows(3), target, true), std::nullopt);
}

} // namespace
