//===- RandomNumbers.cpp - fuser.uniform and fuser.normal in kernels ------===//
//
// The elements of a random op at the lanes of an evaluation, computed from
// their row-major index as RandomSemantics.h (and the interpreter) computes
// them: Philox4x32-10 on vectors of 32-bit words, the word or words of each
// lane's component, nvFuser's uniform and Box-Muller transforms.
//
//===----------------------------------------------------------------------===//

#include "EmitterBase.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"

#include "fuser/Dialect/Fuser/IR/RandomSemantics.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

/// Builds the operations of RandomSemantics.h on vectors of lanes.
struct RandomBuilder {
  OpBuilder &b;
  Location loc;
  int64_t width;

  VectorType vectorType(Type element) const {
    return VectorType::get({width}, element);
  }
  Value splatConstant(Type element, TypedAttr value) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vectorType(element), value));
  }
  Value u32(uint32_t value) {
    return splatConstant(b.getI32Type(), b.getI32IntegerAttr(value));
  }
  Value f32(float value) {
    return splatConstant(b.getF32Type(), b.getF32FloatAttr(value));
  }
  Value f64(double value) {
    return splatConstant(b.getF64Type(), b.getF64FloatAttr(value));
  }
  Value i64(int64_t value) {
    return splatConstant(b.getI64Type(), b.getI64IntegerAttr(value));
  }
  Value low32(Value wide) {
    return arith::TruncIOp::create(b, loc, vectorType(b.getI32Type()), wide);
  }
  Value high32(Value wide) {
    return low32(arith::ShRUIOp::create(b, loc, wide, i64(32)));
  }
  Value select(Value condition, Value lhs, Value rhs) {
    return arith::SelectOp::create(b, loc, condition, lhs, rhs);
  }
  Value equals(Value lhs, int64_t value) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs,
                                 i64(value));
  }

  /// philox(seed, subsequence, offset) on vectors of i64.
  std::array<Value, 4> philox(Value seed, Value subsequence, Value offset) {
    std::array<Value, 4> counter = {low32(offset), high32(offset),
                                    low32(subsequence), high32(subsequence)};
    Value key0 = low32(seed), key1 = high32(seed);
    for (int round = 0; round < 10; ++round) {
      auto product0 = arith::MulUIExtendedOp::create(
          b, loc, u32(random::kPhiloxMultiplier0), counter[0]);
      auto product1 = arith::MulUIExtendedOp::create(
          b, loc, u32(random::kPhiloxMultiplier1), counter[2]);
      auto xor3 = [&](Value x, Value y, Value z) -> Value {
        return arith::XOrIOp::create(b, loc,
                                     arith::XOrIOp::create(b, loc, x, y), z);
      };
      counter = {xor3(product1.getHigh(), counter[1], key0), product1.getLow(),
                 xor3(product0.getHigh(), counter[3], key1), product0.getLow()};
      key0 = arith::AddIOp::create(b, loc, key0, u32(random::kPhiloxKeyStep0));
      key1 = arith::AddIOp::create(b, loc, key1, u32(random::kPhiloxKeyStep1));
    }
    return counter;
  }

  Value rawUniformFloat(Value word) {
    constexpr float scale = float(1.0 / double(1ull << 32));
    Value x = arith::UIToFPOp::create(b, loc, vectorType(b.getF32Type()), word);
    return arith::AddFOp::create(b, loc,
                                 arith::MulFOp::create(b, loc, x, f32(scale)),
                                 f32(0.5f * scale));
  }
  Value mapOneToZero(Value value, Value one, Value zero) {
    return select(
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, value, one),
        zero, value);
  }
  Value uniformFloat(Value word) {
    return mapOneToZero(rawUniformFloat(word), f32(1.0f), f32(0.0f));
  }
  Value uniformDouble(Value x, Value y) {
    constexpr double scale = 1.0 / double(1ull << 53);
    Type i64Vector = vectorType(b.getI64Type());
    Value z = arith::XOrIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, i64Vector, x),
        arith::ShLIOp::create(b, loc,
                              arith::ExtUIOp::create(b, loc, i64Vector, y),
                              i64(53 - 32)));
    Value raw = arith::AddFOp::create(
        b, loc,
        arith::MulFOp::create(
            b, loc,
            arith::UIToFPOp::create(b, loc, vectorType(b.getF64Type()), z),
            f64(scale)),
        f64(0.5 * scale));
    return mapOneToZero(raw, f64(1.0), f64(0.0));
  }
  /// sqrt(-2 log u) * (sin v for even components, cos v for odd ones).
  Value boxMuller(Value u, Value v, Value component, Value minusTwo) {
    Value radius = math::SqrtOp::create(
        b, loc,
        arith::MulFOp::create(b, loc, minusTwo,
                              math::LogOp::create(b, loc, u)));
    Value odd = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, component, i64(1)), i64(0));
    return arith::MulFOp::create(b, loc, radius,
                                 select(odd, math::CosOp::create(b, loc, v),
                                        math::SinOp::create(b, loc, v)));
  }
};

} // namespace

FailureOr<Value> EmitterBase::evalRandom(Operation *op, const Lanes &at) {
  SmallVector<Value, 4> scalars;
  for (Value operand : op->getOperands()) {
    FailureOr<Value> scalar = evalScalar(operand);
    if (failed(scalar))
      return failure();
    scalars.push_back(*scalar);
  }
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Type element = type.getElementType();
  int64_t width = at.width;
  RandomBuilder random{b, loc, width};
  Type i64 = b.getI64Type();

  // Each lane's row-major index.
  AffineMap flatten = getReshapeIndexMap(
      b.getContext(), {std::max<int64_t>(type.getNumElements(), 1)},
      type.getShape());
  auto flatIndex = [&](ArrayRef<Value> index) -> Value {
    return arith::IndexCastOp::create(b, loc, i64,
                                      applyIndexMap(flatten, index).front());
  };
  Value flat;
  if (at.kind == LaneKind::Gather) {
    SmallVector<Value> lanes;
    for (ArrayRef<Value> index : at.perLane)
      lanes.push_back(flatIndex(index));
    flat =
        vector::FromElementsOp::create(b, loc, random.vectorType(i64), lanes);
  } else {
    flat = splat(flatIndex(at.base), width);
    if (at.kind == LaneKind::Unit) {
      int64_t stride = getRowMajorStrides(type.getShape())[at.dim];
      SmallVector<int64_t> steps;
      for (int64_t lane = 0; lane < width; ++lane)
        steps.push_back(lane * stride);
      flat = arith::AddIOp::create(
          b, loc, flat,
          arith::ConstantOp::create(
              b, loc,
              DenseElementsAttr::get(random.vectorType(i64), ArrayRef(steps))));
    }
  }

  bool isF64 = element.isF64();
  int64_t perCall = random::elementsPerCall(isF64);
  Value component = arith::RemUIOp::create(b, loc, flat, random.i64(perCall));
  Value subsequence = arith::DivUIOp::create(b, loc, flat, random.i64(perCall));
  std::array<Value, 4> words = random.philox(
      splat(scalars[2], width), subsequence, splat(scalars[3], width));
  Value first = splat(scalars[0], width);
  Value second = splat(scalars[1], width);
  bool normal = isa<NormalOp>(op);

  Value result;
  if (isF64) {
    if (normal) {
      Value u = random.uniformDouble(words[0], words[1]);
      Value v = arith::MulFOp::create(b, loc,
                                      random.uniformDouble(words[2], words[3]),
                                      random.f64(6.2831853071795860));
      result = math::FmaOp::create(
          b, loc, random.boxMuller(u, v, component, random.f64(-2.0)), second,
          first);
    } else {
      Value isFirst = random.equals(component, 0);
      Value u =
          random.uniformDouble(random.select(isFirst, words[0], words[2]),
                               random.select(isFirst, words[1], words[3]));
      result = math::FmaOp::create(
          b, loc, arith::SubFOp::create(b, loc, second, first), u, first);
    }
  } else if (normal) {
    // Components 0 and 1 take words 0 and 1; 2 and 3 take words 2 and 3.
    Value low = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                      component, random.i64(2));
    Value u = random.uniformFloat(random.select(low, words[0], words[2]));
    Value v = arith::MulFOp::create(
        b, loc, random.uniformFloat(random.select(low, words[1], words[3])),
        random.f32(6.2831855f));
    Value value = math::FmaOp::create(
        b, loc, random.boxMuller(u, v, component, random.f32(-2.0f)), second,
        first);
    result = element.isF32() ? value : emitCast(b, loc, value, element);
  } else {
    Value word =
        random.select(random.equals(component, 0), words[0],
                      random.select(random.equals(component, 1), words[1],
                                    random.select(random.equals(component, 2),
                                                  words[2], words[3])));
    Value range = arith::SubFOp::create(b, loc, second, first);
    if (element.isF32()) {
      result =
          math::FmaOp::create(b, loc, range, random.uniformFloat(word), first);
    } else {
      // f16/bf16: from the unmapped (0, 1] value; `high` becomes `low`.
      Value value =
          emitCast(b, loc,
                   math::FmaOp::create(b, loc, range,
                                       random.rawUniformFloat(word), first),
                   element);
      Value high = emitCast(b, loc, second, element);
      result = random.select(
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, value, high),
          emitCast(b, loc, first, element), value);
    }
  }
  return result;
}
