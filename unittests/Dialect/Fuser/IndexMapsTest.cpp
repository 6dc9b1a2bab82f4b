//===- IndexMapsTest.cpp - the meta ops' index maps against StridedView ---===//
//
// Ties the two statements of the meta ops' index semantics together:
// MetaOpInterface::getSourceIndexMap (result index -> source index) and
// StridedView::applyMetaOp (where each result element lies in the source's
// memory). For every meta op over seeded random shapes and ranks (extent-1
// and zero-size dims included), every result index must land, through the
// result's view, on the memory of the source element that the map names,
// both from a contiguous source and from strided ones (a permuted, stepped,
// offset or broadcast source).
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/StridedView.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <numeric>
#include <random>

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// Every index of `shape` in row-major order (none when a dim is 0; one,
/// the empty index, for a scalar).
SmallVector<SmallVector<int64_t>> allIndices(ArrayRef<int64_t> shape) {
  SmallVector<SmallVector<int64_t>> indices;
  if (llvm::is_contained(shape, 0))
    return indices;
  SmallVector<int64_t> index(shape.size(), 0);
  while (true) {
    indices.push_back(index);
    int64_t dim = static_cast<int64_t>(shape.size()) - 1;
    for (; dim >= 0; --dim) {
      if (++index[dim] < shape[dim])
        break;
      index[dim] = 0;
    }
    if (dim < 0)
      return indices;
  }
}

std::string formatMap(AffineMap map) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << map;
  return text;
}

std::string formatIndex(ArrayRef<int64_t> index) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(index, os);
  os << "]";
  return text;
}

class IndexMapsTest : public ::testing::Test {
protected:
  IndexMapsTest() : builder(&context) {
    context.loadDialect<FuserDialect, func::FuncDialect>();
    module = ModuleOp::create(UnknownLoc::get(&context));
    builder.setInsertionPointToEnd(module->getBody());
  }

  int64_t random(int64_t low, int64_t high) {
    return std::uniform_int_distribution<int64_t>(low, high)(rng);
  }
  bool percent(int64_t p) { return random(0, 99) < p; }

  /// A random extent: mostly 2..5, often 1, sometimes 0.
  int64_t randomExtent() {
    int64_t roll = random(0, 99);
    if (roll < 8)
      return 0;
    if (roll < 35)
      return 1;
    return random(2, 5);
  }
  SmallVector<int64_t> randomShape(int64_t rank) {
    SmallVector<int64_t> shape;
    for (int64_t dim = 0; dim < rank; ++dim)
      shape.push_back(randomExtent());
    return shape;
  }

  /// A shape of `numel` elements (0: one dim of size 0) and random rank.
  SmallVector<int64_t> randomShapeOf(int64_t numel) {
    int64_t rank = random(numel == 1 ? 0 : 1, 4);
    SmallVector<int64_t> shape(rank, 1);
    if (numel == 0) {
      shape = randomShape(rank);
      shape[random(0, rank - 1)] = 0;
      return shape;
    }
    for (int64_t factor = 2; numel > 1; ++factor)
      for (; numel % factor == 0; numel /= factor)
        shape[random(0, rank - 1)] *= factor;
    return shape;
  }

  /// A value of type tensor<shape x f32>: the argument of a new function.
  Value makeSource(ArrayRef<int64_t> shape) {
    auto type = RankedTensorType::get(shape, builder.getF32Type());
    builder.setInsertionPointToEnd(module->getBody());
    auto func = func::FuncOp::create(builder, builder.getUnknownLoc(), "f",
                                     builder.getFunctionType({type}, {}));
    Block *body = func.addEntryBlock();
    builder.setInsertionPointToStart(body);
    return body->getArgument(0);
  }

  /// One random instance of meta op `kind` (a mnemonic).
  Operation *makeMetaOp(StringRef kind) {
    Location loc = builder.getUnknownLoc();
    int64_t rank = random(0, 4);
    if (kind == "view") {
      SmallVector<int64_t> from = randomShape(rank);
      int64_t numel = getCheckedNumElements(from).value();
      Value source = makeSource(from);
      auto type = cast<RankedTensorType>(source.getType())
                      .clone(randomShapeOf(numel));
      return ViewOp::create(builder, loc, type, source);
    }
    if (kind == "squeeze") {
      SmallVector<int64_t> shape = randomShape(rank);
      SmallVector<int64_t> dims;
      for (int64_t dim = 0; dim < rank; ++dim) {
        if (percent(40))
          shape[dim] = 1;
        if (shape[dim] == 1 && percent(70))
          dims.push_back(dim);
      }
      return SqueezeOp::create(builder, loc, makeSource(shape), dims);
    }
    if (kind == "broadcast") {
      // A random choice of the result positions that are inserted.
      SmallVector<int64_t> dims(rank + random(0, 2));
      std::iota(dims.begin(), dims.end(), 0);
      std::shuffle(dims.begin(), dims.end(), rng);
      dims.resize(dims.size() - rank);
      llvm::sort(dims);
      return BroadcastOp::create(builder, loc, makeSource(randomShape(rank)),
                                 dims);
    }
    if (kind == "expand") {
      SmallVector<int64_t> to = randomShape(rank), from = to;
      for (int64_t &size : from)
        if (percent(50))
          size = 1;
      Value source = makeSource(from);
      return ExpandOp::create(
          builder, loc, cast<RankedTensorType>(source.getType()).clone(to),
          source);
    }
    if (kind == "permute") {
      SmallVector<int64_t> permutation(rank);
      std::iota(permutation.begin(), permutation.end(), 0);
      std::shuffle(permutation.begin(), permutation.end(), rng);
      return PermuteOp::create(builder, loc, makeSource(randomShape(rank)),
                               permutation);
    }
    if (kind == "slice") {
      SmallVector<int64_t> shape = randomShape(rank), starts, limits, strides;
      for (int64_t size : shape) {
        starts.push_back(random(0, size / 2));
        limits.push_back(percent(50) ? size : random(starts.back(), size));
        strides.push_back(random(1, 3));
      }
      return SliceOp::create(builder, loc, makeSource(shape), starts, limits,
                             strides);
    }
    if (kind == "set")
      return SetOp::create(builder, loc, makeSource(randomShape(rank)),
                           CacheOpAttr());
    assert(kind == "segment_set" && "not a meta op of this test");
    return SegmentSetOp::create(builder, loc, makeSource(randomShape(rank)));
  }

  /// Layouts of a source of `shape`: contiguous, then random strided ones
  /// (dims in a random order, each stepped by 1 or 2, some read with stride
  /// 0 as an expanded dim is, at an offset).
  SmallVector<StridedView> sourceLayouts(ArrayRef<int64_t> shape) {
    SmallVector<StridedView> layouts = {StridedView::getContiguous(shape)};
    for (int trial = 0; trial < 3; ++trial) {
      SmallVector<int64_t> order(shape.size());
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
      StridedView view;
      view.sizes.assign(shape.begin(), shape.end());
      view.strides.assign(shape.size(), 0);
      view.offset = random(0, 7);
      int64_t stride = 1;
      for (auto dim = order.rbegin(); dim != order.rend(); ++dim) {
        int64_t step = random(1, 2);
        view.strides[*dim] = percent(15) ? 0 : stride * step;
        stride *= std::max<int64_t>(shape[*dim], 1) * step;
      }
      layouts.push_back(view);
    }
    return layouts;
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  std::mt19937_64 rng{20260415};
};

constexpr StringLiteral kMetaOps[] = {"view",  "squeeze", "broadcast",
                                      "expand", "permute", "slice",
                                      "set",   "segment_set"};

TEST_F(IndexMapsTest, MapsAgreeWithStridedViews) {
  constexpr int kShapesPerOp = 300;
  for (StringRef kind : kMetaOps) {
    int64_t checkedIndices = 0, stridedSources = 0;
    for (int trial = 0; trial < kShapesPerOp; ++trial) {
      Operation *op = makeMetaOp(kind);
      ASSERT_TRUE(succeeded(verify(op))) << kind.str() << " trial " << trial;
      std::string text;
      llvm::raw_string_ostream os(text);
      os << *op;
      auto meta = cast<MetaOpInterface>(op);
      ArrayRef<int64_t> sourceShape =
          cast<RankedTensorType>(meta.getSource().getType()).getShape();
      ArrayRef<int64_t> resultShape =
          cast<RankedTensorType>(op->getResult(0).getType()).getShape();
      AffineMap map = meta.getSourceIndexMap();
      ASSERT_EQ(map.getNumDims(), resultShape.size()) << text;
      ASSERT_EQ(map.getNumSymbols(), 0u) << text;
      ASSERT_EQ(map.getNumResults(), sourceShape.size()) << text;
      SmallVector<SmallVector<int64_t>> resultIndices =
          allIndices(resultShape);
      for (auto [layoutNumber, source] :
           llvm::enumerate(sourceLayouts(sourceShape))) {
        std::optional<StridedView> result = applyMetaOp(op, source);
        // From a contiguous source every meta op is a view.
        if (layoutNumber == 0) {
          ASSERT_TRUE(result) << text;
        }
        if (!result)
          continue;
        stridedSources += layoutNumber != 0;
        ASSERT_EQ(ArrayRef<int64_t>(result->sizes), resultShape) << text;
        for (ArrayRef<int64_t> index : resultIndices) {
          SmallVector<int64_t> sourceIndex = map.compose(index);
          for (auto [i, size] : llvm::zip_equal(sourceIndex, sourceShape))
            ASSERT_TRUE(0 <= i && i < size)
                << text << "\nmap " << formatMap(map) << " sends " << formatIndex(index)
                << " out of the source: " << formatIndex(sourceIndex);
          ASSERT_EQ(result->getLocation(index), source.getLocation(sourceIndex))
              << text << "\nmap " << formatMap(map) << ", result index "
              << formatIndex(index) << ", source index "
              << formatIndex(sourceIndex) << ", layout " << layoutNumber;
          ++checkedIndices;
        }
      }
      op->getParentOp()->erase();
    }
    // The random shapes must exercise the check, not skip it.
    EXPECT_GT(checkedIndices, 5 * kShapesPerOp) << kind.str();
    if (kind != "view") {
      EXPECT_GT(stridedSources, kShapesPerOp) << kind.str();
    }
  }
}

/// The maps as the op descriptions state them.
TEST_F(IndexMapsTest, MapsOfEachOp) {
  OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(
      R"mlir(func.func @f(%x: tensor<2x3x1xf32>, %y: tensor<4x6xf32>) {
  %0 = fuser.permute %x [2, 0, 1] : tensor<2x3x1xf32> -> tensor<1x2x3xf32>
  %1 = fuser.squeeze %x [2] : tensor<2x3x1xf32> -> tensor<2x3xf32>
  %2 = fuser.broadcast %x [0, 2] : tensor<2x3x1xf32> -> tensor<1x2x1x3x1xf32>
  %3 = fuser.expand %x : tensor<2x3x1xf32> -> tensor<2x3x4xf32>
  %4 = fuser.slice %y starts [1, 0] limits [4, 6] strides [1, 2] : tensor<4x6xf32> -> tensor<3x3xf32>
  %5 = fuser.view %y : tensor<4x6xf32> -> tensor<2x2x3x2xf32>
  %6 = fuser.view %y : tensor<4x6xf32> -> tensor<24xf32>
  %7 = fuser.view %y : tensor<4x6xf32> -> tensor<3x8xf32>
  %8 = fuser.view %x : tensor<2x3x1xf32> -> tensor<1x6xf32>
  %9 = fuser.set %x : tensor<2x3x1xf32>
  %10 = fuser.segment_set %x : tensor<2x3x1xf32>
  return
})mlir",
      &context);
  ASSERT_TRUE(parsed);
  auto func = *parsed->getOps<func::FuncOp>().begin();
  SmallVector<std::string> maps;
  for (Operation &op : func.getBody().front().without_terminator()) {
    maps.push_back(formatMap(cast<MetaOpInterface>(op).getSourceIndexMap()));
  }
  EXPECT_EQ(maps, (SmallVector<std::string>{
                      "(d0, d1, d2) -> (d1, d2, d0)",
                      "(d0, d1) -> (d0, d1, 0)",
                      "(d0, d1, d2, d3, d4) -> (d1, d3, d4)",
                      "(d0, d1, d2) -> (d0, d1, 0)",
                      "(d0, d1) -> (d0 + 1, d1 * 2)",
                      // Runs of dims split and merge on their own.
                      "(d0, d1, d2, d3) -> (d0 * 2 + d1, d2 * 2 + d3)",
                      "(d0) -> (d0 floordiv 6, d0 mod 6)",
                      "(d0, d1) -> ((d0 * 8 + d1) floordiv 6, "
                      "(d0 * 8 + d1) mod 6)",
                      "(d0, d1) -> (d1 floordiv 3, d1 mod 3, 0)",
                      "(d0, d1, d2) -> (d0, d1, d2)",
                      "(d0, d1, d2) -> (d0, d1, d2)",
                  }));
}

} // namespace
