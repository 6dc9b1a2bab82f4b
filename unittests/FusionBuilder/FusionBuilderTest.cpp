//===- FusionBuilderTest.cpp - nvFuser's construction rules ---------------===//
//
// The promotion table against nvFuser's computeTypes, the ops each builder
// call makes (one per nvFuser op, nothing simplified) and the error kinds
// that Python turns into TypeError and ValueError.
//
//===----------------------------------------------------------------------===//

#include "fuser/FusionBuilder/FusionBuilder.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSwitch.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::fuser;

namespace {

class FusionBuilderTest : public ::testing::Test {
protected:
  FusionBuilderTest()
      : fusion((loadDialects(), &context), "fusion", UnknownLoc::get(&context)),
        handler(&context, [this](Diagnostic &diag) {
          diagnostics += diag.str() + "\n";
          return success();
        }) {}

  void loadDialects() {
    context.loadDialect<FuserDialect, func::FuncDialect, arith::ArithDialect>();
  }

  Type type(StringRef name) {
    Builder b(&context);
    return llvm::StringSwitch<Type>(name)
        .Case("i1", b.getI1Type())
        .Case("i32", b.getI32Type())
        .Case("i64", b.getI64Type())
        .Case("f16", b.getF16Type())
        .Case("bf16", b.getBF16Type())
        .Case("f32", b.getF32Type())
        .Case("f64", b.getF64Type());
  }
  Value input(ArrayRef<int64_t> shape, StringRef elementType) {
    return fusion.addInput(RankedTensorType::get(shape, type(elementType)));
  }
  /// The op names of the function body, without the return.
  std::string ops() {
    std::string names;
    for (Operation &op :
         fusion.getFunc().getBody().front().without_terminator())
      names += (names.empty() ? "" : " ") + op.getName().getStringRef().str();
    return names;
  }

  MLIRContext context;
  FusionFunction fusion;
  ScopedDiagnosticHandler handler;
  std::string diagnostics;
};

TEST_F(FusionBuilderTest, PromotionFollowsComputeTypes) {
  Value bf16 = input({4}, "bf16"), f16 = input({4}, "f16"),
        i32 = input({4}, "i32"), i1 = input({4}, "i1"), f32 = input({4}, "f32");
  Value f32Rank0 = input({}, "f32"), f64Rank0 = input({}, "f64");
  auto common = [&](ArrayRef<Operand> operands, PromotionConfig config = {}) {
    return computeCommonType(operands, config, &context);
  };
  // Half precision computes in f32; equal dtypes stay unless half.
  EXPECT_EQ(common({bf16, bf16}), type("f32"));
  EXPECT_EQ(common({bf16, f16}), type("f32"));
  EXPECT_EQ(common({i32, i32}), type("i32"));
  // The tensor's category wins over a scalar's of the same category...
  EXPECT_EQ(common({f32, ScalarLiteral::getFloat(0.5)}), type("f32"));
  EXPECT_EQ(common({i32, ScalarLiteral::getInt(2)}), type("i32"));
  // ...a scalar of a higher category promotes with it (Double, not Float).
  EXPECT_EQ(common({i32, ScalarLiteral::getFloat(0.5)}), type("f64"));
  EXPECT_EQ(common({i1, ScalarLiteral::getInt(2)}), type("i64"));
  // Rank-0 tensors rank below tensors of rank > 0.
  EXPECT_EQ(common({f32, f64Rank0}), type("f32"));
  EXPECT_EQ(common({f32Rank0, f64Rank0}), type("f64"));
  // Float ops turn ints into f32; abs and where keep half precision.
  EXPECT_EQ(common({i32}, getPromotionConfig(UnaryKind::Exp)), type("f32"));
  EXPECT_EQ(common({bf16}, getPromotionConfig(UnaryKind::Abs)), type("bf16"));
  EXPECT_EQ(common({bf16}, getPromotionConfig(UnaryKind::Neg)), type("f32"));
  EXPECT_EQ(common({i32}, getPromotionConfig(UnaryKind::Neg)), type("i32"));
}

TEST_F(FusionBuilderTest, HalfArithmeticCastsToF32) {
  FusionBuilder &b = fusion.getBuilder();
  Value x = input({2, 3}, "bf16"), y = input({2, 3}, "bf16");
  FailureOr<Value> sum = b.binary(BinaryKind::Add, x, y);
  ASSERT_TRUE(succeeded(sum));
  EXPECT_EQ(sum->getType(), RankedTensorType::get({2, 3}, type("f32")));
  EXPECT_EQ(ops(), "fuser.cast fuser.cast fuser.add");
  // The importer's config keeps the printed dtype.
  FailureOr<Value> kept =
      b.binary(BinaryKind::Add, x, y, PromotionConfig{false, false});
  ASSERT_TRUE(succeeded(kept));
  EXPECT_EQ(kept->getType(), x.getType());
}

TEST_F(FusionBuilderTest, ScalarsTakeTheTensorDtype) {
  FusionBuilder &b = fusion.getBuilder();
  Value x = input({2}, "f32");
  FailureOr<Value> scaled =
      b.binary(BinaryKind::Mul, x, ScalarLiteral::getFloat(0.5));
  ASSERT_TRUE(succeeded(scaled));
  EXPECT_EQ(getElementTypeOrSelf(scaled->getType()), type("f32"));
  // A defined scalar (a value) is cast; a literal is built in the dtype.
  FailureOr<Value> two = b.constant(ScalarLiteral::getFloat(2), type("f64"));
  ASSERT_TRUE(succeeded(two));
  ASSERT_TRUE(succeeded(b.binary(BinaryKind::Add, x, *two)));
  EXPECT_EQ(ops(),
            "arith.constant fuser.mul arith.constant fuser.cast fuser.add");
}

TEST_F(FusionBuilderTest, LowerRankOperandsGetLeadingDims) {
  FusionBuilder &b = fusion.getBuilder();
  Value x = input({4, 8}, "f32"), y = input({8}, "f32");
  FailureOr<Value> sum = b.binary(BinaryKind::Add, x, y);
  ASSERT_TRUE(succeeded(sum));
  EXPECT_EQ(ops(), "fuser.broadcast fuser.add");
  EXPECT_EQ(sum->getType(), RankedTensorType::get({4, 8}, type("f32")));
}

TEST_F(FusionBuilderTest, BroadcastInDimExpandsOnlyWhereAnExtentGrows) {
  FusionBuilder &b = fusion.getBuilder();
  // The Mistral chain: new dims, nothing grows -> broadcast, set.
  Value x = input({8, 4096, 128}, "bf16");
  ASSERT_TRUE(succeeded(b.broadcastInDim(x, {1, 8, 1, 4096, 128}, {1, 3, 4})));
  EXPECT_EQ(ops(), "fuser.broadcast fuser.set");
  // No new dim, one grows -> expand only.
  Value y = input({1, 128}, "f32");
  FailureOr<Value> expanded = b.broadcastInDim(y, {64, 128}, {0, 1});
  ASSERT_TRUE(succeeded(expanded));
  EXPECT_EQ(ops(), "fuser.broadcast fuser.set fuser.expand");
  EXPECT_EQ(expanded->getType(), RankedTensorType::get({64, 128}, type("f32")));
  // A dim that is neither 1 nor the output extent is an error.
  EXPECT_TRUE(failed(b.broadcastInDim(y, {64, 64}, {0, 1})));
  EXPECT_EQ(b.getLastErrorKind(), BuildErrorKind::Value);
}

TEST_F(FusionBuilderTest, ReductionDtypes) {
  FusionBuilder &b = fusion.getBuilder();
  Value x = input({8, 4}, "bf16");
  // bf16 with dtype f32: cast first, reduce in f32.
  FailureOr<Value> sum =
      b.reduction(ReductionKind::Add, x, {-1}, /*keepdim=*/false, type("f32"));
  ASSERT_TRUE(succeeded(sum));
  EXPECT_EQ(sum->getType(), RankedTensorType::get({8}, type("f32")));
  EXPECT_EQ(ops(), "fuser.cast fuser.reduction");
  // Without dtype a bf16 sum stays bf16 (accumulating in f32 inside).
  FailureOr<Value> plain = b.reduction(ReductionKind::Add, x, {0}, true);
  ASSERT_TRUE(succeeded(plain));
  EXPECT_EQ(plain->getType(), RankedTensorType::get({1, 4}, type("bf16")));
  // Integer sums accumulate in i64.
  Value i = input({3}, "i32");
  FailureOr<Value> intSum = b.reduction(ReductionKind::Add, i, {0}, false);
  ASSERT_TRUE(succeeded(intSum));
  EXPECT_EQ(intSum->getType(), RankedTensorType::get({}, type("i64")));
  // max takes no dtype; a missing axis is a value error.
  EXPECT_TRUE(
      failed(b.reduction(ReductionKind::Max, x, {0}, false, type("f32"))));
  EXPECT_EQ(b.getLastErrorKind(), BuildErrorKind::Type);
  EXPECT_TRUE(failed(b.reduction(ReductionKind::Add, x, {2}, false)));
  EXPECT_EQ(b.getLastErrorKind(), BuildErrorKind::Value);
  EXPECT_NE(diagnostics.find(
                "reduction dim 2 is out of range for a tensor of rank 2"),
            std::string::npos)
      << diagnostics;
}

TEST_F(FusionBuilderTest, CastToTheSameDtypeIsASet) {
  FusionBuilder &b = fusion.getBuilder();
  Value x = input({2}, "f32");
  ASSERT_TRUE(succeeded(b.cast(x, type("f32"))));
  ASSERT_TRUE(succeeded(b.cast(x, type("bf16"))));
  EXPECT_EQ(ops(), "fuser.set fuser.cast");
}

TEST_F(FusionBuilderTest, ShapeAndDtypeErrors) {
  FusionBuilder &b = fusion.getBuilder();
  Value x = input({2, 3}, "f32"), y = input({4, 3}, "f32");
  EXPECT_TRUE(failed(b.binary(BinaryKind::Add, x, y)));
  EXPECT_EQ(b.getLastErrorKind(), BuildErrorKind::Value);
  EXPECT_NE(diagnostics.find("incompatible shapes"), std::string::npos);
  // Checked before the bf16 operands would be cast.
  EXPECT_TRUE(failed(
      b.binary(BinaryKind::Add, input({2, 3}, "bf16"), input({4, 3}, "bf16"))));
  EXPECT_TRUE(failed(b.where(x, x, x)));
  EXPECT_EQ(b.getLastErrorKind(), BuildErrorKind::Type);
  EXPECT_TRUE(failed(b.squeeze(x, {0})));
  EXPECT_TRUE(failed(b.reshape(x, {4, -1})));
  EXPECT_TRUE(
      failed(b.binary(BinaryKind::Mul, input({2}, "i32"),
                      ScalarLiteral::getInt(int64_t(1) << 40, type("i32")))));
  // Nothing half-built is left behind.
  EXPECT_EQ(ops(), "");
}

// What only C++ callers can ask for: the Python API and the importer give
// the builder tensors where it needs them and fuser dtypes only.
TEST_F(FusionBuilderTest, ErrorsOfCppCallers) {
  FusionBuilder &b = fusion.getBuilder();
  Value scalar = fusion.addInput(type("f32"));
  Value ints = input({2}, "i32");
  auto expectError = [&](FailureOr<Value> result, BuildErrorKind kind,
                         StringRef message) {
    EXPECT_TRUE(failed(result)) << message.str();
    EXPECT_EQ(b.getLastErrorKind(), kind) << message.str();
    EXPECT_NE(diagnostics.find(message.str()), std::string::npos)
        << diagnostics;
  };
  expectError(b.permute(scalar, {}), BuildErrorKind::Type,
              "'permute' operand must be a tensor, found 'f32'");
  Type i8 = IntegerType::get(&context, 8);
  expectError(b.cast(ints, i8), BuildErrorKind::Type,
              "cannot cast to 'i8': fusions hold i1, i32, i64, f16, bf16, "
              "f32, f64, complex<f32>, complex<f64>, f8E4M3FN and f8E5M2");
  expectError(b.constant(ScalarLiteral::getInt(1), IndexType::get(&context)),
              BuildErrorKind::Type, "a scalar cannot have type 'index'");
  // The importer keeps printed dtypes (no promotion): exp of ints is an
  // error there, where Python computes it in f32.
  expectError(b.unary(UnaryKind::Exp, ints,
                      PromotionConfig{/*promoteIntToFloat=*/false,
                                      /*castHalfToFloat=*/false}),
              BuildErrorKind::Type,
              "'exp' needs a float or complex operand, found i32");
  EXPECT_EQ(ops(), "");
}

TEST_F(FusionBuilderTest, FailedCallsRollBack) {
  FusionBuilder &b = fusion.getBuilder();
  Value x = input({2, 3}, "f32");
  // The cast to i1 is built before the reduction rejects its dtype; a
  // broadcast is built before the expand rejects a negative extent.
  auto sumToBool = [&] {
    return b.reduction(ReductionKind::Add, x, {0}, false, type("i1"));
  };
  EXPECT_TRUE(failed(sumToBool()));
  EXPECT_EQ(ops(), "fuser.cast");
  fusion.getFunc().getBody().front().front().erase();
  EXPECT_TRUE(failed(fusion.buildOrRollBack(sumToBool)));
  EXPECT_TRUE(failed(fusion.buildOrRollBack([&] {
    return b.broadcastInDim(x, {2, -5, 3}, {0, 2});
  })));
  EXPECT_EQ(ops(), "");
  // A call that succeeds keeps what it built, and so do the calls before.
  ASSERT_TRUE(succeeded(fusion.buildOrRollBack(
      [&] { return b.unary(UnaryKind::Neg, input({2}, "bf16")); })));
  EXPECT_TRUE(failed(fusion.buildOrRollBack(sumToBool)));
  EXPECT_EQ(ops(), "fuser.cast fuser.neg");
}

TEST_F(FusionBuilderTest, FunctionIsValidAfterEveryCall) {
  FusionBuilder &b = fusion.getBuilder();
  Value x = input({2, 8}, "f32");
  FailureOr<Value> padded = b.pad(x, {1, 2});
  ASSERT_TRUE(succeeded(padded));
  EXPECT_EQ(padded->getType(), RankedTensorType::get({2, 11}, type("f32")));
  FailureOr<Value> sliced = b.slice(*padded, {0, -4}, {2, 100}, {});
  ASSERT_TRUE(succeeded(sliced));
  EXPECT_EQ(sliced->getType(), RankedTensorType::get({2, 4}, type("f32")));
  fusion.addOutput(*sliced);
  EXPECT_TRUE(succeeded(verify(fusion.getModule())));
  EXPECT_EQ(fusion.getFunc().getFunctionType().getNumResults(), 1u);
}

TEST_F(FusionBuilderTest, DataMovementRules) {
  FusionBuilder &b = fusion.getBuilder();
  Value x = input({2, 1, 4}, "f32");
  // Negative dims wrap; a permutation keeps its order.
  FailureOr<Value> permuted = b.permute(x, {-1, 0, 1});
  ASSERT_TRUE(succeeded(permuted));
  EXPECT_EQ(permuted->getType(), RankedTensorType::get({4, 2, 1}, type("f32")));
  EXPECT_TRUE(failed(b.permute(x, {0, 0, 1})));
  // broadcast without a new dim builds nothing (nvFuser returns its input).
  FailureOr<Value> same = b.broadcast(x, {false, false, false});
  ASSERT_TRUE(succeeded(same));
  EXPECT_EQ(*same, x);
  // expand only grows size-1 dims; -1 keeps an extent.
  FailureOr<Value> expanded = b.expand(x, {-1, 3, 4});
  ASSERT_TRUE(succeeded(expanded));
  EXPECT_EQ(expanded->getType(), RankedTensorType::get({2, 3, 4}, type("f32")));
  EXPECT_TRUE(failed(b.expand(x, {3, 1, 4})));
  EXPECT_EQ(b.getLastErrorKind(), BuildErrorKind::Value);
  // slice clamps and wraps like nvFuser; an end before its start is empty.
  FailureOr<Value> empty = b.slice(x, {1, 0, 3}, {0, 1, -5}, {});
  ASSERT_TRUE(succeeded(empty));
  EXPECT_EQ(empty->getType(), RankedTensorType::get({0, 1, 0}, type("f32")));
  EXPECT_TRUE(failed(b.slice(x, {0, 0, 0}, {2, 1, 4}, {1, 1, 0})));
  // pad widths cover at most every dim; cat needs one dtype.
  EXPECT_TRUE(failed(b.pad(x, {0, 0, 0, 0, 0, 0, 1, 1})));
  EXPECT_TRUE(failed(b.cat({x, input({2, 1, 4}, "bf16")}, 0)));
  EXPECT_EQ(b.getLastErrorKind(), BuildErrorKind::Type);
  FailureOr<Value> joined = b.cat({x, x}, -1);
  ASSERT_TRUE(succeeded(joined));
  EXPECT_EQ(joined->getType(), RankedTensorType::get({2, 1, 8}, type("f32")));
  EXPECT_EQ(ops(), "fuser.permute fuser.expand fuser.slice fuser.cat");
}

TEST_F(FusionBuilderTest, FullAndWhereTakeScalars) {
  FusionBuilder &b = fusion.getBuilder();
  FailureOr<Value> filled =
      b.full({2, 2}, ScalarLiteral::getInt(3), type("bf16"));
  ASSERT_TRUE(succeeded(filled));
  EXPECT_EQ(filled->getType(), RankedTensorType::get({2, 2}, type("bf16")));
  EXPECT_TRUE(failed(b.full({-1}, ScalarLiteral::getInt(0), type("f32"))));
  Value mask = input({2, 2}, "i1");
  // where promotes its values without turning bf16 into f32.
  FailureOr<Value> selected =
      b.where(mask, *filled, ScalarLiteral::getFloat(0.5));
  ASSERT_TRUE(succeeded(selected));
  EXPECT_EQ(selected->getType(), RankedTensorType::get({2, 2}, type("bf16")));
  EXPECT_EQ(ops(), "arith.constant fuser.full arith.constant fuser.where");
}

} // namespace
