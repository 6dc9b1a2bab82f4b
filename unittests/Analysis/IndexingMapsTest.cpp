//===- IndexingMapsTest.cpp - the operand index maps of each op -----------===//
//
// getOperandIndexMaps: the pieces of pad and cat over seeded random shapes
// (extent-1 and zero-size dims included) against the blocks of the result
// that the interpreter writes each operand to (StridedView::getSubview), and
// the maps of elementwise ops (implicit broadcast, scalars), reductions and
// meta ops as printed.
//
//===----------------------------------------------------------------------===//

#include "fuser/Analysis/IndexingMaps.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/StridedView.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// The constants that `exprs` evaluate to at `dims` and `symbols`.
SmallVector<int64_t> evaluate(ArrayRef<AffineExpr> exprs,
                              ArrayRef<int64_t> dims,
                              ArrayRef<int64_t> symbols, MLIRContext *context) {
  auto constants = [&](ArrayRef<int64_t> values) {
    return llvm::map_to_vector(values, [&](int64_t value) {
      return getAffineConstantExpr(value, context);
    });
  };
  SmallVector<AffineExpr> dimValues = constants(dims);
  SmallVector<AffineExpr> symbolValues = constants(symbols);
  return llvm::map_to_vector(exprs, [&](AffineExpr expr) {
    return cast<AffineConstantExpr>(
               expr.replaceDimsAndSymbols(dimValues, symbolValues))
        .getValue();
  });
}

SmallVector<int64_t> apply(AffineMap map, ArrayRef<int64_t> index) {
  return evaluate(map.getResults(), index, {}, map.getContext());
}

/// Whether `index` is in `set`; a null set holds everywhere.
bool holds(IntegerSet set, ArrayRef<int64_t> index) {
  if (!set)
    return true;
  SmallVector<int64_t> values =
      evaluate(set.getConstraints(), index, {}, set.getContext());
  for (auto [value, isEquality] : llvm::zip_equal(values, set.getEqFlags()))
    if (isEquality ? value != 0 : value < 0)
      return false;
  return true;
}

/// The row-major index of `location` in a tensor of `shape`.
SmallVector<int64_t> delinearize(int64_t location, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size());
  for (int64_t dim = static_cast<int64_t>(shape.size()) - 1; dim >= 0; --dim) {
    index[dim] = location % shape[dim];
    location /= shape[dim];
  }
  return index;
}

std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << *op;
  return text;
}

class IndexingMapsTest : public ::testing::Test {
protected:
  IndexingMapsTest() : builder(&context) {
    context.loadDialect<FuserDialect, func::FuncDialect, arith::ArithDialect>();
    module = ModuleOp::create(UnknownLoc::get(&context));
  }

  int64_t random(int64_t low, int64_t high) {
    return std::uniform_int_distribution<int64_t>(low, high)(rng);
  }

  /// Mostly 2..4, often 1, sometimes 0.
  int64_t randomExtent() {
    int64_t roll = random(0, 99);
    return roll < 10 ? 0 : roll < 35 ? 1 : random(2, 4);
  }

  /// The arguments of a new function of `types`, built into.
  Block::BlockArgListType makeArguments(ArrayRef<Type> types) {
    builder.setInsertionPointToEnd(module->getBody());
    auto func = func::FuncOp::create(builder, builder.getUnknownLoc(), "f",
                                     builder.getFunctionType(types, {}));
    Block *body = func.addEntryBlock();
    builder.setInsertionPointToStart(body);
    return body->getArguments();
  }

  RankedTensorType tensorOf(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, builder.getF32Type());
  }

  /// The maps of the ops of the function in `source`, one line per operand
  /// piece: `map` or `map if condition`.
  SmallVector<std::string> printMaps(StringRef source) {
    OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(parsed) << source.str();
    SmallVector<std::string> lines;
    if (!parsed)
      return lines;
    auto func = *parsed->getOps<func::FuncOp>().begin();
    for (Operation &op : func.getBody().front().without_terminator()) {
      FailureOr<SmallVector<OperandIndexMap>> maps = getOperandIndexMaps(&op);
      if (failed(maps)) {
        lines.push_back("none");
        continue;
      }
      EXPECT_EQ(maps->size(), op.getNumOperands());
      for (const OperandIndexMap &operand : *maps) {
        std::string line;
        llvm::raw_string_ostream os(line);
        llvm::interleave(
            operand.pieces, os,
            [&](const IndexMapPiece &piece) {
              os << piece.map;
              if (IntegerSet condition = piece.condition) {
                os << " if ";
                condition.print(os);
              }
            },
            "; ");
        if (!operand.symbolExtents.empty()) {
          os << " over [";
          llvm::interleaveComma(operand.symbolExtents, os);
          os << "]";
        }
        lines.push_back(line);
      }
    }
    return lines;
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  std::mt19937_64 rng{20260416};
};

/// Every element of a pad's result is the source element the source's piece
/// names, exactly inside the block that the interpreter copies the source
/// to, and the pad value everywhere else.
TEST_F(IndexingMapsTest, PadPiecesAgreeWithSubview) {
  int64_t checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    int64_t rank = random(0, 4);
    SmallVector<int64_t> shape, low, high;
    for (int64_t dim = 0; dim < rank; ++dim) {
      shape.push_back(randomExtent());
      low.push_back(random(0, 2));
      high.push_back(random(0, 2));
    }
    Block::BlockArgListType arguments =
        makeArguments({tensorOf(shape), builder.getF32Type()});
    auto pad = PadOp::create(builder, builder.getUnknownLoc(), arguments[0],
                             low, high, arguments[1]);
    ASSERT_TRUE(succeeded(verify(pad)));
    ArrayRef<int64_t> resultShape = pad.getType().getShape();
    FailureOr<SmallVector<OperandIndexMap>> maps = getOperandIndexMaps(pad);
    ASSERT_TRUE(succeeded(maps));
    ASSERT_EQ(maps->size(), 2u);
    const OperandIndexMap &source = (*maps)[0], &value = (*maps)[1];
    ASSERT_EQ(source.pieces.size(), 1u);
    for (const IndexMapPiece &piece : value.pieces)
      ASSERT_EQ(piece.map.getNumResults(), 0u);

    // Which source element the interpreter writes to each result element.
    int64_t numel = getCheckedNumElements(resultShape).value();
    SmallVector<std::optional<SmallVector<int64_t>>> written(numel);
    StridedView block =
        StridedView::getContiguous(resultShape)
            .getSubview(low, shape, SmallVector<int64_t>(rank, 1));
    int64_t sourceNumel = getCheckedNumElements(shape).value();
    for (int64_t i = 0; i < sourceNumel; ++i) {
      SmallVector<int64_t> sourceIndex = delinearize(i, shape);
      written[block.getLocation(sourceIndex)] = sourceIndex;
    }

    for (int64_t location = 0; location < numel; ++location) {
      SmallVector<int64_t> index = delinearize(location, resultShape);
      const IndexMapPiece &piece = source.pieces.front();
      bool readsValue = llvm::any_of(value.pieces, [&](const auto &piece) {
        return holds(piece.condition, index);
      });
      ASSERT_EQ(holds(piece.condition, index), written[location].has_value())
          << print(pad) << " at result element " << location;
      ASSERT_NE(readsValue, written[location].has_value())
          << print(pad) << " at result element " << location;
      if (written[location]) {
        ASSERT_EQ(apply(piece.map, index), *written[location]) << print(pad);
      }
      ++checked;
    }
    pad->getParentOp()->erase();
  }
  EXPECT_GT(checked, 10000);
}

/// Every element of a cat's result is read from exactly one input, the one
/// whose block the interpreter writes it in, at the index the piece names.
TEST_F(IndexingMapsTest, CatPiecesAgreeWithSubviews) {
  int64_t checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    int64_t rank = random(1, 4);
    int64_t dim = random(0, rank - 1);
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < rank; ++d)
      shape.push_back(randomExtent());
    SmallVector<Type> types;
    for (int64_t input = 0, count = random(1, 3); input < count; ++input) {
      shape[dim] = randomExtent();
      types.push_back(tensorOf(shape));
    }
    Block::BlockArgListType inputs = makeArguments(types);
    auto cat = CatOp::create(builder, builder.getUnknownLoc(), inputs, dim);
    ASSERT_TRUE(succeeded(verify(cat)));
    ArrayRef<int64_t> resultShape = cat.getType().getShape();
    FailureOr<SmallVector<OperandIndexMap>> maps = getOperandIndexMaps(cat);
    ASSERT_TRUE(succeeded(maps));
    ASSERT_EQ(maps->size(), types.size());

    // The interpreter's blocks: input k from where input k - 1 ends.
    int64_t numel = getCheckedNumElements(resultShape).value();
    SmallVector<std::optional<std::pair<size_t, SmallVector<int64_t>>>>
        written(numel);
    SmallVector<int64_t> offsets(rank, 0);
    for (auto [k, type] : llvm::enumerate(types)) {
      ArrayRef<int64_t> inputShape = cast<RankedTensorType>(type).getShape();
      StridedView block =
          StridedView::getContiguous(resultShape)
              .getSubview(offsets, inputShape, SmallVector<int64_t>(rank, 1));
      for (int64_t i = 0, e = getCheckedNumElements(inputShape).value(); i < e;
           ++i) {
        SmallVector<int64_t> inputIndex = delinearize(i, inputShape);
        written[block.getLocation(inputIndex)] = {k, inputIndex};
      }
      offsets[dim] += inputShape[dim];
    }

    for (int64_t location = 0; location < numel; ++location) {
      SmallVector<int64_t> index = delinearize(location, resultShape);
      ASSERT_TRUE(written[location].has_value()) << print(cat);
      auto [owner, inputIndex] = *written[location];
      for (auto [k, map] : llvm::enumerate(*maps)) {
        ASSERT_EQ(map.pieces.size(), 1u);
        const IndexMapPiece &piece = map.pieces.front();
        ASSERT_EQ(holds(piece.condition, index), k == owner)
            << print(cat) << " at result element " << location << ", input " << k;
        if (k == owner) {
          ASSERT_EQ(apply(piece.map, index), inputIndex) << print(cat);
        }
      }
      ++checked;
    }
    cat->getParentOp()->erase();
  }
  EXPECT_GT(checked, 5000);
}

TEST_F(IndexingMapsTest, PadAndCatAsPrinted) {
  EXPECT_EQ(
      printMaps(R"mlir(
func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x2xf32>, %v: f32) {
  %0 = fuser.pad %x low [0, 1] high [0, 2] value %v : tensor<4x8xf32>, f32 -> tensor<4x11xf32>
  %1 = fuser.pad %x low [0, 0] high [0, 0] value %v : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
  %2 = fuser.cat %x, %y dim 1 : tensor<4x8xf32>, tensor<4x2xf32> -> tensor<4x10xf32>
  return
})mlir"),
      (SmallVector<std::string>{
          "(d0, d1) -> (d0, d1 - 1) if (d0, d1) : (d1 - 1 >= 0, -d1 + 8 >= 0)",
          "(d0, d1) -> () if (d0, d1) : (-d1 >= 0); "
          "(d0, d1) -> () if (d0, d1) : (d1 - 9 >= 0)",
          // No padding: the source everywhere, the value nowhere.
          "(d0, d1) -> (d0, d1)",
          "",
          "(d0, d1) -> (d0, d1) if (d0, d1) : (-d1 + 7 >= 0)",
          "(d0, d1) -> (d0, d1 - 8) if (d0, d1) : (d1 - 8 >= 0)",
      }));
}

TEST_F(IndexingMapsTest, ElementwiseBroadcastAndScalars) {
  EXPECT_EQ(
      printMaps(R"mlir(
func.func @f(%a: tensor<1x4xf32>, %b: tensor<3x1xf32>, %c: tensor<3x4xf32>,
             %s: f32, %p: tensor<3x1xi1>, %e: tensor<1x0xf32>) {
  %0 = fuser.add %a, %b : tensor<1x4xf32>, tensor<3x1xf32> -> tensor<3x4xf32>
  %1 = fuser.mul %c, %s : tensor<3x4xf32>, f32 -> tensor<3x4xf32>
  %2 = fuser.where %p, %a, %s : tensor<3x1xi1>, tensor<1x4xf32>, f32 -> tensor<3x4xf32>
  %3 = fuser.neg %a : tensor<1x4xf32>
  %4 = fuser.cast %c : tensor<3x4xf32> to tensor<3x4xf64>
  %5 = fuser.sub %s, %s : f32, f32 -> f32
  %6 = fuser.add %b, %e : tensor<3x1xf32>, tensor<1x0xf32> -> tensor<3x0xf32>
  return
})mlir"),
      (SmallVector<std::string>{
          "(d0, d1) -> (0, d1)",
          "(d0, d1) -> (d0, 0)",
          "(d0, d1) -> (d0, d1)",
          "(d0, d1) -> ()",
          "(d0, d1) -> (d0, 0)",
          "(d0, d1) -> (0, d1)",
          "(d0, d1) -> ()",
          // Size-1 dims the result keeps are read at their index.
          "(d0, d1) -> (d0, d1)",
          "(d0, d1) -> (d0, d1)",
          "() -> ()",
          "() -> ()",
          "(d0, d1) -> (d0, 0)",
          "(d0, d1) -> (0, d1)",
      }));
}

// Matmul and linear read their operands with the contraction dim as a
// symbol over K: torch.matmul's 1-D operands have no m (n) dim, a batch dim
// an operand broadcasts reads 0, linear's bias is read at n.
TEST_F(IndexingMapsTest, ContractionSymbol) {
  EXPECT_EQ(
      printMaps(R"mlir(
func.func @f(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>, %v: tensor<4xf32>,
             %x: tensor<2x3x4xf32>, %w: tensor<5x4xf32>, %c: tensor<5xf32>) {
  %0 = fuser.matmul %a, %b : tensor<2x1x3x4xf32>, tensor<5x4x6xf32> -> tensor<2x5x3x6xf32>
  %1 = fuser.matmul %v, %b : tensor<4xf32>, tensor<5x4x6xf32> -> tensor<5x6xf32>
  %2 = fuser.matmul %x, %v : tensor<2x3x4xf32>, tensor<4xf32> -> tensor<2x3xf32>
  %3 = fuser.linear %x, %w bias %c : tensor<2x3x4xf32>, tensor<5x4xf32>, tensor<5xf32> -> tensor<2x3x5xf32>
  return
})mlir"),
      (SmallVector<std::string>{
          "(d0, d1, d2, d3)[s0] -> (d0, 0, d2, s0) over [4]",
          "(d0, d1, d2, d3)[s0] -> (d1, s0, d3) over [4]",
          "(d0, d1)[s0] -> (s0) over [4]",
          "(d0, d1)[s0] -> (d0, s0, d1) over [4]",
          "(d0, d1)[s0] -> (d0, d1, s0) over [4]",
          "(d0, d1)[s0] -> (s0) over [4]",
          "(d0, d1, d2)[s0] -> (d0, d1, s0) over [4]",
          "(d0, d1, d2)[s0] -> (d2, s0) over [4]",
          "(d0, d1, d2) -> (d2)",
      }));
}

TEST_F(IndexingMapsTest, ReductionKeptDimsAndSymbols) {
  EXPECT_EQ(
      printMaps(R"mlir(
func.func @f(%x: tensor<2x3x4x5xf32>) {
  %0 = fuser.reduction add %x [1, 3] : tensor<2x3x4x5xf32> -> tensor<2x4xf32>
  %1 = fuser.reduction max %x [1, 3] keepdim : tensor<2x3x4x5xf32> -> tensor<2x1x4x1xf32>
  %2 = fuser.reduction add %x [0, 1, 2, 3] : tensor<2x3x4x5xf32> -> tensor<f32>
  return
})mlir"),
      (SmallVector<std::string>{
          "(d0, d1)[s0, s1] -> (d0, s0, d1, s1) over [3, 5]",
          "(d0, d1, d2, d3)[s0, s1] -> (d0, s0, d2, s1) over [3, 5]",
          "()[s0, s1, s2, s3] -> (s0, s1, s2, s3) over [2, 3, 4, 5]",
      }));
}

// A scan reads the prefix along its dim: the symbol over the dim's extent,
// where it is not after the result's index.
TEST_F(IndexingMapsTest, ScanPrefix) {
  EXPECT_EQ(printMaps(R"mlir(
func.func @f(%x: tensor<2x3xf32>) {
  %0 = fuser.scan add %x [1] : tensor<2x3xf32>
  %1 = fuser.scan max %x [0] : tensor<2x3xf32>
  return
})mlir"),
            (SmallVector<std::string>{
                "(d0, d1)[s0] -> (d0, s0) if (d0, d1)[s0] : (d1 - s0 >= 0) "
                "over [3]",
                "(d0, d1)[s0] -> (s0, d1) if (d0, d1)[s0] : (d0 - s0 >= 0) "
                "over [2]",
            }));
}

// An argsort reads its whole row: the symbol over the dim's extent, no
// condition.
TEST_F(IndexingMapsTest, ArgsortRow) {
  EXPECT_EQ(printMaps(R"mlir(
func.func @f(%x: tensor<2x3xf32>) {
  %0 = fuser.argsort %x [0] descending : tensor<2x3xf32> -> tensor<2x3xi64>
  return
})mlir"),
            (SmallVector<std::string>{"(d0, d1)[s0] -> (s0, d1) over [2]"}));
}

// A scatter reads self at the result index, and index and src along the
// row of its dim, where the result index is inside the index's other
// extents (here columns 0 and 1 of 3).
TEST_F(IndexingMapsTest, ScatterRows) {
  EXPECT_EQ(printMaps(R"mlir(
func.func @f(%x: tensor<5x3xf32>, %i: tensor<4x2xi64>, %s: tensor<4x3xf32>) {
  %0 = fuser.scatter %x[%i] = %s dim 0 : tensor<5x3xf32>, tensor<4x2xi64>, tensor<4x3xf32>
  return
})mlir"),
            (SmallVector<std::string>{
                "(d0, d1) -> (d0, d1)",
                "(d0, d1)[s0] -> (s0, d1) if (d0, d1) : (-d1 + 1 >= 0) over [4]",
                "(d0, d1)[s0] -> (s0, d1) if (d0, d1) : (-d1 + 1 >= 0) over [4]",
            }));
}

TEST_F(IndexingMapsTest, MetaOpsFullAndOtherOps) {
  EXPECT_EQ(printMaps(R"mlir(
func.func @f(%x: tensor<2x3xf32>, %v: f32) {
  %0 = fuser.permute %x [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = fuser.full %v : f32 -> tensor<4x8xf32>
  %2 = arith.constant 1.0 : f32
  %3 = fuser.segment pointwise (%x) : (tensor<2x3xf32>) -> tensor<2x3xf32> {
  ^bb0(%a: tensor<2x3xf32>):
    fuser.yield %a : tensor<2x3xf32>
  }
  return
})mlir"),
            (SmallVector<std::string>{
                "(d0, d1) -> (d1, d0)",
                "(d0, d1) -> ()",
                "none",
                "none",
            }));
}

} // namespace
