//===- ConstantFolding.cpp - elementwise ops and casts of scalar constants ===//
//
// An elementwise op or cast whose operands are all scalar constants folds to
// the constant the interpreter would compute: the same scalar definitions
// (ElementSemantics.h) in the same compute types, with APFloat doing the
// exact widening and the one rounding to nearest even that Elements.h does
// for the interpreter. Ops whose float results come from the math library
// are not folded (the host's libm need not be the target's), nor anything
// when the compiling thread is not in the IEEE default mode, nor nextafter
// on f16/bf16 (it steps storage bits); tensor constants are not folded
// either: a tensor-valued arith.constant is not an op segmentation can put
// in a kernel, and nvFuser's frontends make scalars.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/ConstantFolding.h"
#include "fuser/Dialect/Fuser/IR/ElementSemantics.h"
#include "fuser/Dialect/Fuser/IR/ElementTypes.h"
#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"

#include <algorithm>
#include <cfenv>
#include <optional>
#include <variant>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::semantics;

namespace {

/// Whether the thread computes floats as the interpreter does: round to
/// nearest even, subnormals kept (x86: MXCSR FTZ and DAZ clear). The folds
/// evaluate in C++ on the compiling thread, which a caller may have put in
/// another mode; they fold nothing then (casts fold with APFloat, in any
/// mode).
bool inDefaultFloatingPointMode() {
  if (std::fegetround() != FE_TONEAREST)
    return false;
#if defined(__x86_64__) || defined(__i386__)
  constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;
  if (_mm_getcsr() & (kFlushToZero | kDenormalsAreZero))
    return false;
#endif
  return true;
}

/// A scalar constant in its compute type (f16/bf16 as float).
using ComputeValue = std::variant<bool, int32_t, int64_t, float, double>;

std::optional<ComputeValue> toCompute(Attribute attr) {
  if (auto integer = dyn_cast_or_null<IntegerAttr>(attr)) {
    const APInt &value = integer.getValue();
    switch (value.getBitWidth()) {
    case 1:
      return ComputeValue(value.getBoolValue());
    case 32:
      return ComputeValue(static_cast<int32_t>(value.getSExtValue()));
    case 64:
      return ComputeValue(value.getSExtValue());
    default:
      return std::nullopt;
    }
  }
  if (auto floating = dyn_cast_or_null<FloatAttr>(attr)) {
    APFloat value = floating.getValue();
    if (floating.getType().isF64())
      return ComputeValue(value.convertToDouble());
    bool losesInfo = false;
    value.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                  &losesInfo); // Exact from f16, bf16 and f32.
    return ComputeValue(value.convertToFloat());
  }
  return std::nullopt;
}

/// `value` rounded once to nearest even into `type`, as the interpreter
/// stores a result.
TypedAttr fromCompute(ComputeValue value, Type type) {
  return std::visit(
      [&](auto v) -> TypedAttr {
        using T = decltype(v);
        if constexpr (std::is_floating_point_v<T>) {
          auto floatType = dyn_cast<FloatType>(type);
          if (!floatType)
            return {};
          APFloat result(v);
          bool losesInfo = false;
          result.convert(floatType.getFloatSemantics(),
                         APFloat::rmNearestTiesToEven, &losesInfo);
          return FloatAttr::get(type, result);
        } else {
          if (!type.isInteger())
            return {};
          return IntegerAttr::get(
              type, APInt(type.getIntOrFloatBitWidth(),
                          static_cast<uint64_t>(static_cast<int64_t>(v)),
                          /*isSigned=*/!std::is_same_v<T, bool>,
                          /*implicitTrunc=*/true));
        }
      },
      value);
}

/// The value of the table op `op` on `operands` (all of one compute type),
/// or nullopt where the op is not defined for that type.
template <typename T>
std::optional<ComputeValue> evaluate(Operation *op, ArrayRef<T> operands) {
  std::optional<ComputeValue> result;
  auto store = [&](auto value) { result = ComputeValue(value); };
  if (std::optional<UnaryKind> kind = getUnaryKind(op)) {
    visitKind<UnaryKind, kNumUnaryKinds>(*kind, [&](auto tag) {
      constexpr UnaryKind U = decltype(tag)::value;
      if constexpr (isInClass<T>(getOpInfo(U).operands))
        store(applyUnary<U>(operands[0]));
    });
  } else if (std::optional<BinaryKind> kind = getBinaryKind(op)) {
    visitKind<BinaryKind, kNumBinaryKinds>(*kind, [&](auto tag) {
      constexpr BinaryKind B = decltype(tag)::value;
      if constexpr (isInClass<T>(getOpInfo(B).operands))
        store(applyBinary<B>(operands[0], operands[1]));
    });
  } else if (std::optional<TernaryKind> kind = getTernaryKind(op)) {
    visitKind<TernaryKind, kNumTernaryKinds>(*kind, [&](auto tag) {
      constexpr TernaryKind K = decltype(tag)::value;
      if constexpr (isInClass<T>(getOpInfo(K).operands))
        store(applyTernary<K>(operands[0], operands[1], operands[2]));
    });
  } else if (std::optional<CompareKind> kind = getCompareKind(op)) {
    visitKind<CompareKind, kNumCompareKinds>(*kind, [&](auto tag) {
      store(applyCompare<decltype(tag)::value>(operands[0], operands[1]));
    });
  }
  return result;
}

} // namespace

OpFoldResult mlir::fuser::foldScalarConstants(Operation *op,
                                              ArrayRef<Attribute> operands) {
  if (op->getNumResults() != 1 || isa<ShapedType>(op->getResult(0).getType()))
    return {};
  if (isTranscendentalOp(op) || !inDefaultFloatingPointMode())
    return {};
  Type operandType = op->getOperand(0).getType();
  if (getBinaryKind(op) == BinaryKind::Nextafter &&
      (operandType.isF16() || operandType.isBF16()))
    return {};
  SmallVector<ComputeValue, 3> values;
  for (Attribute attr : operands) {
    std::optional<ComputeValue> value = toCompute(attr);
    if (!value || (!values.empty() && value->index() != values[0].index()))
      return {};
    values.push_back(*value);
  }
  if (values.empty())
    return {};
  std::optional<ComputeValue> result = std::visit(
      [&](auto first) -> std::optional<ComputeValue> {
        using T = decltype(first);
        SmallVector<T, 3> typed;
        for (const ComputeValue &value : values)
          typed.push_back(std::get<T>(value));
        return evaluate<T>(op, typed);
      },
      values[0]);
  if (!result)
    return {};
  return fromCompute(*result, op->getResult(0).getType());
}

/// `value` in the 8-bit float type `to`, as fuser.cast rounds: to nearest
/// even, saturating at the largest finite magnitude, NaN to the format's NaN
/// with its sign.
static FloatAttr castToFloat8(APFloat value, FloatType to) {
  const Float8Format &format = getFloat8Format(to);
  const llvm::fltSemantics &semantics = to.getFloatSemantics();
  auto fromBits = [&](uint8_t bits) {
    return FloatAttr::get(to, APFloat(semantics, APInt(8, bits)));
  };
  uint8_t sign = value.isNegative() ? 0x80 : 0;
  if (value.isNaN())
    return fromBits(sign | format.nan);
  APFloat largest = APFloat(semantics, APInt(8, format.maxFinite));
  bool losesInfo = false;
  largest.convert(value.getSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
  if (abs(value) > largest)
    return fromBits(sign | format.maxFinite);
  value.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  return FloatAttr::get(to, value);
}

TypedAttr mlir::fuser::castScalarConstant(Attribute source, Type to) {
  if (auto typed = dyn_cast_or_null<TypedAttr>(source);
      typed && typed.getType() == to)
    return typed;
  if (isFloat8Type(to)) {
    if (auto integer = dyn_cast_or_null<IntegerAttr>(source)) {
      // i1 reads unsigned; other integers beyond 2^17 saturate anyway.
      const APInt &bits = integer.getValue();
      int64_t value = bits.getBitWidth() == 1 ? bits.getZExtValue()
                                              : bits.getSExtValue();
      value = std::clamp<int64_t>(value, -(1 << 17), 1 << 17);
      return castToFloat8(APFloat(static_cast<double>(value)),
                          cast<FloatType>(to));
    }
    if (auto floating = dyn_cast_or_null<FloatAttr>(source))
      return castToFloat8(floating.getValue(), cast<FloatType>(to));
    return {};
  }
  // From an 8-bit float every value is exact; NaN widens to a quiet NaN.
  if (auto floating = dyn_cast_or_null<FloatAttr>(source);
      floating && isFloat8Type(floating.getType()) &&
      floating.getValue().isNaN()) {
    if (auto floatType = dyn_cast<FloatType>(to))
      return FloatAttr::get(
          to, APFloat::getQNaN(floatType.getFloatSemantics(),
                               floating.getValue().isNegative()));
  }
  if (auto integer = dyn_cast_or_null<IntegerAttr>(source)) {
    const APInt &value = integer.getValue();
    // i1 is read unsigned: true is 1, not -1.
    bool isSigned = value.getBitWidth() != 1;
    if (to.isInteger(1))
      return IntegerAttr::get(to, APInt(1, value.isZero() ? 0 : 1));
    if (to.isInteger())
      return IntegerAttr::get(
          to, isSigned ? value.sextOrTrunc(to.getIntOrFloatBitWidth())
                       : value.zextOrTrunc(to.getIntOrFloatBitWidth()));
    if (auto floatType = dyn_cast<FloatType>(to)) {
      APFloat result(floatType.getFloatSemantics());
      result.convertFromAPInt(value, isSigned, APFloat::rmNearestTiesToEven);
      return FloatAttr::get(to, result);
    }
    return {};
  }
  auto floating = dyn_cast_or_null<FloatAttr>(source);
  if (!floating)
    return {};
  APFloat value = floating.getValue();
  if (to.isInteger(1)) // != 0: NaN is true, -0.0 false.
    return IntegerAttr::get(to, APInt(1, value.isZero() ? 0 : 1));
  if (to.isInteger()) {
    // Truncation toward zero, saturating; NaN gives 0.
    unsigned width = to.getIntOrFloatBitWidth();
    if (value.isNaN())
      return IntegerAttr::get(to, APInt(width, 0));
    APSInt result(width, /*isUnsigned=*/false);
    bool isExact = false;
    APFloat::opStatus status =
        value.convertToInteger(result, APFloat::rmTowardZero, &isExact);
    if (status & APFloat::opInvalidOp)
      result = value.isNegative() ? APSInt(APInt::getSignedMinValue(width))
                                  : APSInt(APInt::getSignedMaxValue(width));
    return IntegerAttr::get(to, result);
  }
  if (auto floatType = dyn_cast<FloatType>(to)) {
    bool losesInfo = false;
    value.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    return FloatAttr::get(to, value);
  }
  return {};
}
