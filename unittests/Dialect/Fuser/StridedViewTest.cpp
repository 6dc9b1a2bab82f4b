//===- StridedViewTest.cpp - the layout semantics of the meta ops ---------===//
//
// applyMetaOp on each meta op, from a contiguous source and from views that
// are already strided, and the reshape rule (PyTorch's `view`): a reshape is
// a view exactly when every merged run of dims is contiguous.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/StridedView.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {

StridedView makeView(ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides,
                     int64_t offset = 0) {
  StridedView view;
  view.sizes.assign(sizes.begin(), sizes.end());
  view.strides.assign(strides.begin(), strides.end());
  view.offset = offset;
  return view;
}

std::string format(const std::optional<StridedView> &view) {
  if (!view)
    return "none";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "sizes [";
  llvm::interleaveComma(view->sizes, os);
  os << "], strides [";
  llvm::interleaveComma(view->strides, os);
  os << "], offset " << view->offset;
  return text;
}

TEST(StridedViewTest, Contiguous) {
  EXPECT_EQ(StridedView::getContiguous({}), makeView({}, {}));
  EXPECT_EQ(StridedView::getContiguous({2, 3, 4}),
            makeView({2, 3, 4}, {12, 4, 1}));
  EXPECT_EQ(StridedView::getContiguous({4, 0}), makeView({4, 0}, {0, 1}));
}

TEST(StridedViewTest, Subview) {
  StridedView matrix = StridedView::getContiguous({4, 6});
  // Rows 1..3, every second column from 2.
  EXPECT_EQ(matrix.getSubview({1, 2}, {3, 2}, {1, 2}),
            makeView({3, 2}, {6, 2}, 8));
  // A subview of a subview adds the offsets and multiplies the steps.
  EXPECT_EQ(matrix.getSubview({1, 2}, {3, 2}, {1, 2})
                .getSubview({1, 1}, {1, 1}, {2, 1}),
            makeView({1, 1}, {12, 2}, 16));
  EXPECT_EQ(StridedView::getContiguous({}).getSubview({}, {}, {}),
            makeView({}, {}));
}

TEST(StridedViewTest, ExpandTo) {
  // Only the dims that grow get stride 0.
  EXPECT_EQ(StridedView::getContiguous({2, 1, 1}).expandTo({2, 5, 1}),
            makeView({2, 5, 1}, {1, 0, 1}));
  EXPECT_EQ(makeView({1, 3}, {3, 1}, 7).expandTo({4, 3}),
            makeView({4, 3}, {0, 1}, 7));
}

/// Parses meta ops of one function and applies them in order, each to the
/// view of its source (a function argument starts contiguous).
class MetaOpTest : public ::testing::Test {
protected:
  MetaOpTest() { context.loadDialect<FuserDialect, func::FuncDialect>(); }

  /// The view of each op's result of `body`, a function of `signature`.
  SmallVector<std::string> apply(StringRef signature, StringRef body) {
    std::string source =
        ("func.func @f" + signature + " {\n" + body + "\n}\n").str();
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module) << source;
    SmallVector<std::string> views;
    if (!module)
      return views;
    auto func = *module->getOps<func::FuncOp>().begin();
    DenseMap<Value, std::optional<StridedView>> viewOf;
    for (BlockArgument argument : func.getArguments())
      viewOf[argument] = StridedView::getContiguous(
          cast<RankedTensorType>(argument.getType()).getShape());
    for (Operation &op : func.getBody().front().without_terminator()) {
      std::optional<StridedView> source =
          viewOf.lookup(cast<MetaOpInterface>(op).getSource());
      std::optional<StridedView> result =
          source ? applyMetaOp(&op, *source) : std::nullopt;
      viewOf[op.getResult(0)] = result;
      views.push_back(format(result));
    }
    return views;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(MetaOpTest, EachMetaOpFromContiguous) {
  SmallVector<std::string> views =
      apply("(%x: tensor<2x3x1xf32>) -> tensor<2x3x1xf32>",
            R"mlir(
  %0 = fuser.permute %x [2, 0, 1] : tensor<2x3x1xf32> -> tensor<1x2x3xf32>
  %1 = fuser.squeeze %x [2] : tensor<2x3x1xf32> -> tensor<2x3xf32>
  %2 = fuser.broadcast %x [0, 2] : tensor<2x3x1xf32> -> tensor<1x2x1x3x1xf32>
  %3 = fuser.expand %x : tensor<2x3x1xf32> -> tensor<2x3x4xf32>
  %4 = fuser.slice %x starts [1, 0, 0] limits [2, 3, 1] strides [1, 2, 1] : tensor<2x3x1xf32> -> tensor<1x2x1xf32>
  %5 = fuser.view %x : tensor<2x3x1xf32> -> tensor<6xf32>
  %6 = fuser.set %x : tensor<2x3x1xf32>
  %7 = fuser.segment_set %x : tensor<2x3x1xf32>
  return %x : tensor<2x3x1xf32>)mlir");
  EXPECT_EQ(views, (SmallVector<std::string>{
                       "sizes [1, 2, 3], strides [1, 3, 1], offset 0",
                       "sizes [2, 3], strides [3, 1], offset 0",
                       "sizes [1, 2, 1, 3, 1], strides [0, 3, 0, 1, 1], "
                       "offset 0",
                       "sizes [2, 3, 4], strides [3, 1, 0], offset 0",
                       "sizes [1, 2, 1], strides [3, 2, 1], offset 3",
                       "sizes [6], strides [1], offset 0",
                       "sizes [2, 3, 1], strides [3, 1, 1], offset 0",
                       "sizes [2, 3, 1], strides [3, 1, 1], offset 0",
                   }));
}

TEST_F(MetaOpTest, ReshapeOfStridedViews) {
  SmallVector<std::string> views =
      apply("(%x: tensor<4x6xf32>) -> tensor<4x6xf32>",
            R"mlir(
  %0 = fuser.permute %x [1, 0] : tensor<4x6xf32> -> tensor<6x4xf32>
  %1 = fuser.view %0 : tensor<6x4xf32> -> tensor<2x3x4xf32>
  %2 = fuser.view %0 : tensor<6x4xf32> -> tensor<24xf32>
  %3 = fuser.view %0 : tensor<6x4xf32> -> tensor<6x2x2xf32>
  %4 = fuser.slice %x starts [0, 1] limits [4, 5] strides [1, 1] : tensor<4x6xf32> -> tensor<4x4xf32>
  %5 = fuser.view %4 : tensor<4x4xf32> -> tensor<2x2x4xf32>
  %6 = fuser.view %4 : tensor<4x4xf32> -> tensor<16xf32>
  return %x : tensor<4x6xf32>)mlir");
  EXPECT_EQ(views, (SmallVector<std::string>{
                       "sizes [6, 4], strides [1, 6], offset 0",
                       // Splitting a dim keeps it a view.
                       "sizes [2, 3, 4], strides [3, 1, 6], offset 0",
                       // Merging the dims the permute swapped does not.
                       "none",
                       "sizes [6, 2, 2], strides [1, 12, 6], offset 0",
                       "sizes [4, 4], strides [6, 1], offset 1",
                       "sizes [2, 2, 4], strides [12, 6, 1], offset 1",
                       // Rows of a column slice are not contiguous.
                       "none",
                   }));
}

TEST_F(MetaOpTest, NotAMetaOp) {
  context.loadDialect<FuserDialect>();
  OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(
      R"mlir(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
})mlir",
      &context);
  ASSERT_TRUE(parsed);
  auto func = *parsed->getOps<func::FuncOp>().begin();
  Operation &neg = func.getBody().front().front();
  EXPECT_EQ(applyMetaOp(&neg, StridedView::getContiguous({4})), std::nullopt);
}

} // namespace
