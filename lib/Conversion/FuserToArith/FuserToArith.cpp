//===- FuserToArith.cpp - fuser element semantics in arith/math -----------===//
//
// The element semantics of the fuser ops (docs/Dialects/FuserOps.md, the
// interpreter's applyUnary/applyBinary/applyCompare/convertTo) as arith,
// math, vector and scf ops. Every case where arith alone is undefined or
// poison is guarded here, branch-free with selects, so that the emitted IR
// is defined for every input (docs/Lowering.md, "Element semantics"):
//
// - integer div: the divisor is replaced by 1 where it is 0 or -1 before
//   arith.divsi (x / 0 and INT_MIN / -1 are UB there); the results for those
//   divisors (0, and the wrapping 0 - x) are selected afterwards;
// - float -> int: the value is replaced by 0 where it is NaN or outside
//   [-2^(bits-1), 2^(bits-1)) before arith.fptosi (poison there); the
//   saturated limits and 0 for NaN are selected afterwards;
// - integer abs/neg: 0 - x wraps (no overflow flags), abs(INT_MIN) is
//   INT_MIN;
// - integer pow: squaring with wrapping muli; the exponent is replaced by 0
//   where it is negative and the truncated real result selected afterwards;
// - f64 -> f16/bf16 and i64 -> f16/bf16: rounded once (no double rounding
//   through f32/f64) by rounding to odd first, independent of how a
//   backend lowers arith.truncf from f64.
// - integer shifts by a negative amount or the width or more: the amount is
//   replaced by 0 before arith.shli/shrsi/shrui (poison there) and 0, or the
//   sign fill, selected afterwards; integer fmod/remainder guard the divisor
//   as div does.
//
//===----------------------------------------------------------------------===//

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "ComplexFunctions.h"
#include "fuser/Dialect/Fuser/IR/ElementTypes.h"
#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"

#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {

//===----------------------------------------------------------------------===//
// Shapes and constants
//===----------------------------------------------------------------------===//

bool isHalf(Type elementType) {
  return elementType.isF16() || elementType.isBF16();
}

/// `elementType` in the shape of `shapeLike` (a vector or a scalar).
Type withElementType(Type shapeLike, Type elementType) {
  if (auto vector = dyn_cast<VectorType>(shapeLike))
    return vector.clone(elementType);
  return elementType;
}

/// A constant of `type` (scalar or vector) whose elements are `element`.
Value splat(OpBuilder &b, Location loc, Type type, TypedAttr element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(
        b, loc, vector, DenseElementsAttr::get(vector, Attribute(element)));
  return arith::ConstantOp::create(b, loc, type, element);
}

Value floatConstant(OpBuilder &b, Location loc, Type type,
                    const APFloat &value) {
  return splat(b, loc, type,
               b.getFloatAttr(getElementTypeOrSelf(type), value));
}

/// `value` (exactly representable) in the float type of `type`.
Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  auto floatType = cast<FloatType>(getElementTypeOrSelf(type));
  APFloat converted(value);
  bool losesInfo = false;
  converted.convert(floatType.getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &losesInfo);
  return floatConstant(b, loc, type, converted);
}

Value intConstant(OpBuilder &b, Location loc, Type type, const APInt &value) {
  return splat(b, loc, type,
               b.getIntegerAttr(getElementTypeOrSelf(type), value));
}

Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  return intConstant(b, loc, type,
                     APInt(width, static_cast<uint64_t>(value),
                           /*isSigned=*/true, /*implicitTrunc=*/true));
}

Value selectOf(OpBuilder &b, Location loc, Value condition, Value ifTrue,
               Value ifFalse) {
  return arith::SelectOp::create(b, loc, condition, ifTrue, ifFalse);
}

Value cmpi(OpBuilder &b, Location loc, arith::CmpIPredicate predicate,
           Value lhs, Value rhs) {
  return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
}

Value cmpf(OpBuilder &b, Location loc, arith::CmpFPredicate predicate,
           Value lhs, Value rhs) {
  return arith::CmpFOp::create(b, loc, predicate, lhs, rhs);
}

/// f16/bf16 values widened (exactly) to f32; others unchanged.
Value toCompute(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  Type compute = getComputeType(getElementTypeOrSelf(type));
  if (compute == getElementTypeOrSelf(type))
    return value;
  return arith::ExtFOp::create(b, loc, withElementType(type, compute), value);
}

/// A compute value rounded (to nearest even) to `storage` elements.
Value fromCompute(OpBuilder &b, Location loc, Value value, Type storage) {
  Type type = value.getType();
  if (getElementTypeOrSelf(type) == storage)
    return value;
  return arith::TruncFOp::create(b, loc, withElementType(type, storage),
                                 value);
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

/// f64 `value` rounded to f32 with round-to-odd: truncated toward zero and,
/// when inexact, the last mantissa bit set. Rounding that to any format with
/// at most 22 mantissa bits (f16, bf16) to nearest even gives the correctly
/// rounded result, so f64 -> f16/bf16 rounds once whatever a backend does
/// for arith.truncf from f64 (some lower it through f32, with double
/// rounding). Overflow and underflow give FLT_MAX and the smallest
/// subnormal (both odd), which round on to the right infinity and zero.
Value roundF64ToOddF32(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  Type f32 = withElementType(type, b.getF32Type());
  Type i32 = withElementType(type, b.getI32Type());
  Value nearest = arith::TruncFOp::create(b, loc, f32, value);
  Value back = arith::ExtFOp::create(b, loc, type, nearest);
  // Ordered: NaN is never inexact (and stays NaN).
  Value inexact = cmpf(b, loc, arith::CmpFPredicate::ONE, back, value);
  Value bits = arith::BitcastOp::create(b, loc, i32, nearest);
  Value one = intConstant(b, loc, i32, 1);
  Value even = cmpi(b, loc, arith::CmpIPredicate::eq,
                    arith::AndIOp::create(b, loc, bits, one),
                    intConstant(b, loc, i32, 0));
  // Sign-magnitude: one more or less in the bits moves the magnitude.
  Value absBack = math::AbsFOp::create(b, loc, back);
  Value absValue = math::AbsFOp::create(b, loc, value);
  Value roundedUp = cmpf(b, loc, arith::CmpFPredicate::OGT, absBack, absValue);
  Value adjusted = selectOf(b, loc, roundedUp,
                            arith::SubIOp::create(b, loc, bits, one),
                            arith::AddIOp::create(b, loc, bits, one));
  Value fix = arith::AndIOp::create(b, loc, inexact, even);
  Value oddBits = selectOf(b, loc, fix, adjusted, bits);
  return arith::BitcastOp::create(b, loc, f32, oddBits);
}

/// Signed i64 `value` to f64, rounded to odd at bit 11 when |value| >= 2^53:
/// the low 11 bits are replaced by a sticky bit, so that the f64 conversion
/// is exact and a following rounding to f16/bf16 is the only one.
Value roundI64ToOddF64(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  Type f64 = withElementType(type, b.getF64Type());
  Value zero = intConstant(b, loc, type, 0);
  Value negative = cmpi(b, loc, arith::CmpIPredicate::slt, value, zero);
  // |INT_MIN| wraps to 2^63, right as an unsigned value.
  Value magnitude = selectOf(b, loc, negative,
                             arith::SubIOp::create(b, loc, zero, value), value);
  Value lowMask = intConstant(b, loc, type, 0x7ff);
  Value low = arith::AndIOp::create(b, loc, magnitude, lowMask);
  Value sticky = arith::ExtUIOp::create(
      b, loc, type, cmpi(b, loc, arith::CmpIPredicate::ne, low, zero));
  Value high = arith::AndIOp::create(b, loc, magnitude,
                                     intConstant(b, loc, type, ~int64_t(0x7ff)));
  Value odd = arith::OrIOp::create(
      b, loc, high,
      arith::ShLIOp::create(b, loc, sticky, intConstant(b, loc, type, 11)));
  Value large = cmpi(b, loc, arith::CmpIPredicate::uge, magnitude,
                     intConstant(b, loc, type, int64_t(1) << 53));
  Value exact = selectOf(b, loc, large, odd, magnitude);
  Value unsignedResult = arith::UIToFPOp::create(b, loc, f64, exact);
  return selectOf(b, loc, negative,
                  arith::NegFOp::create(b, loc, unsignedResult),
                  unsignedResult);
}

/// Float `value` (f32 or f64) to integer type `to`: truncation toward zero,
/// saturating at the limits, NaN to 0, exactly like the interpreter's
/// convertTo (which compares in double with limit 2^(bits-1); f32 and f64
/// hold that limit exactly, so comparing in the value's type is the same).
Value floatToInt(OpBuilder &b, Location loc, Value value, Type to) {
  Type type = value.getType();
  Type result = withElementType(type, to);
  unsigned bits = to.getIntOrFloatBitWidth();
  double limit = std::ldexp(1.0, bits - 1);
  Value isNaN = cmpf(b, loc, arith::CmpFPredicate::UNO, value, value);
  Value tooLarge = cmpf(b, loc, arith::CmpFPredicate::OGE, value,
                        floatConstant(b, loc, type, limit));
  Value tooSmall = cmpf(b, loc, arith::CmpFPredicate::OLT, value,
                        floatConstant(b, loc, type, -limit));
  Value outside = arith::OrIOp::create(
      b, loc, isNaN, arith::OrIOp::create(b, loc, tooLarge, tooSmall));
  // arith.fptosi is poison for NaN and out-of-range inputs: convert 0 there.
  Value safe =
      selectOf(b, loc, outside, floatConstant(b, loc, type, 0.0), value);
  Value converted = arith::FPToSIOp::create(b, loc, result, safe);
  converted = selectOf(b, loc, tooLarge,
                       intConstant(b, loc, result, APInt::getSignedMaxValue(bits)),
                       converted);
  converted = selectOf(b, loc, tooSmall,
                       intConstant(b, loc, result, APInt::getSignedMinValue(bits)),
                       converted);
  return selectOf(b, loc, isNaN, intConstant(b, loc, result, 0), converted);
}

/// f32 or f64 `value` rounded once to float type `to`.
Value floatToFloat(OpBuilder &b, Location loc, Value value, Type to) {
  Type type = value.getType();
  Type from = getElementTypeOrSelf(type);
  Type result = withElementType(type, to);
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth < toWidth)
    return arith::ExtFOp::create(b, loc, result, value);
  if (from.isF64() && isHalf(to))
    value = roundF64ToOddF32(b, loc, value);
  return arith::TruncFOp::create(b, loc, result, value);
}

//===----------------------------------------------------------------------===//
// 8-bit floats: integer code on the bits, op for op the interpreter's
// floatToFloat8 and float8ToFloat (Elements.h), so every backend gives its
// bits whatever its FP mode.
//===----------------------------------------------------------------------===//

/// f32 `value` to the 8-bit float type `to`: rounded to nearest even,
/// saturating at the largest finite magnitude, NaN to the format's NaN.
Value floatToFloat8(OpBuilder &b, Location loc, Value value, Type to) {
  const Float8Format &format = getFloat8Format(to);
  Type type = value.getType();
  Type i32 = withElementType(type, b.getI32Type());
  Type i8 = withElementType(type, b.getI8Type());
  auto constant = [&](int64_t v) { return intConstant(b, loc, i32, v); };
  Value bits = arith::BitcastOp::create(b, loc, i32, value);
  Value sign = arith::TruncIOp::create(
      b, loc, i8,
      arith::AndIOp::create(b, loc,
                            arith::ShRUIOp::create(b, loc, bits, constant(24)),
                            constant(0x80)));
  Value magnitude = arith::AndIOp::create(b, loc, bits, constant(0x7fffffff));
  Value isNaN =
      cmpi(b, loc, arith::CmpIPredicate::ugt, magnitude, constant(0x7f800000));
  Value exponentField = arith::ShRUIOp::create(b, loc, magnitude, constant(23));
  int64_t minNormalField = 128 - format.bias;
  int64_t dropped = 23 - format.mantissaBits;
  Value isNormal = cmpi(b, loc, arith::CmpIPredicate::uge, exponentField,
                        constant(minNormalField));
  // Both shifts stay in [1, 25]: shifts past the width are poison.
  Value subnormalShift = arith::MinUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, constant(dropped + minNormalField),
                            exponentField),
      constant(25));
  Value shift = selectOf(b, loc, isNormal, constant(dropped), subnormalShift);
  Value rebiased = arith::SubIOp::create(
      b, loc, magnitude, constant(int64_t(127 - format.bias) << 23));
  Value significand = arith::OrIOp::create(
      b, loc, arith::AndIOp::create(b, loc, magnitude, constant(0x7fffff)),
      constant(0x800000));
  Value source = selectOf(b, loc, isNormal, rebiased, significand);
  // shiftRightRoundingToEven(source, shift).
  Value one = constant(1);
  Value kept = arith::ShRUIOp::create(b, loc, source, shift);
  Value rest = arith::AndIOp::create(
      b, loc, source,
      arith::SubIOp::create(b, loc, arith::ShLIOp::create(b, loc, one, shift),
                            one));
  Value half = arith::ShLIOp::create(
      b, loc, one, arith::SubIOp::create(b, loc, shift, one));
  Value keptIsOdd = cmpi(b, loc, arith::CmpIPredicate::ne,
                         arith::AndIOp::create(b, loc, kept, one), constant(0));
  Value roundUp = arith::OrIOp::create(
      b, loc, cmpi(b, loc, arith::CmpIPredicate::ugt, rest, half),
      arith::AndIOp::create(
          b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, rest, half),
          keptIsOdd));
  Value rounded = arith::AddIOp::create(
      b, loc, kept, arith::ExtUIOp::create(b, loc, i32, roundUp));
  Value saturated =
      arith::MinUIOp::create(b, loc, rounded, constant(format.maxFinite));
  Value result = selectOf(b, loc, isNaN, intConstant(b, loc, i8, format.nan),
                          arith::TruncIOp::create(b, loc, i8, saturated));
  result = arith::OrIOp::create(b, loc, result, sign);
  return arith::BitcastOp::create(b, loc, withElementType(type, to), result);
}

/// 8-bit float `value` to f32, exactly; NaN to f32's quiet NaN.
Value float8ToFloat(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  const Float8Format &format =
      getFloat8Format(getElementTypeOrSelf(type));
  Type i32 = withElementType(type, b.getI32Type());
  Type f32 = withElementType(type, b.getF32Type());
  auto constant = [&](int64_t v) { return intConstant(b, loc, i32, v); };
  auto isEqual = [&](Value lhs, int64_t rhs) {
    return cmpi(b, loc, arith::CmpIPredicate::eq, lhs, constant(rhs));
  };
  Value bits = arith::ExtUIOp::create(
      b, loc, i32,
      arith::BitcastOp::create(b, loc, withElementType(type, b.getI8Type()),
                               value));
  Value sign = arith::ShLIOp::create(
      b, loc, arith::AndIOp::create(b, loc, bits, constant(0x80)),
      constant(24));
  Value magnitude = arith::AndIOp::create(b, loc, bits, constant(0x7f));
  Value exponentField = arith::ShRUIOp::create(
      b, loc, magnitude, constant(format.mantissaBits));
  Value mantissa = arith::AndIOp::create(
      b, loc, bits, constant((1 << format.mantissaBits) - 1));
  Value isSpecial = format.hasInfinity
                        ? isEqual(exponentField, 0x7f >> format.mantissaBits)
                        : isEqual(magnitude, 0x7f);
  Value special =
      format.hasInfinity
          ? selectOf(b, loc, isEqual(mantissa, 0), constant(0x7f800000),
                     constant(0x7fc00000))
          : constant(0x7fc00000);
  Value normal = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, exponentField,
                                constant(127 - format.bias)),
          constant(23)),
      arith::ShLIOp::create(b, loc, mantissa,
                            constant(23 - format.mantissaBits)));
  // mantissa * 2^(1 - bias - mantissaBits): the exact f32 of the integer
  // mantissa with its exponent lowered.
  Value whole = arith::BitcastOp::create(
      b, loc, i32, arith::UIToFPOp::create(b, loc, f32, mantissa));
  Value subnormal = selectOf(
      b, loc, isEqual(mantissa, 0), constant(0),
      arith::SubIOp::create(
          b, loc, whole,
          constant(int64_t(format.bias + format.mantissaBits - 1) << 23)));
  Value result =
      selectOf(b, loc, isSpecial, special,
               selectOf(b, loc, isEqual(exponentField, 0), subnormal, normal));
  result = arith::OrIOp::create(b, loc, result, sign);
  return arith::BitcastOp::create(b, loc, f32, result);
}

/// Any non-fp8 `value` as an f32 from which one rounding to nearest even
/// into an 8-bit float is the correct rounding of `value`: floats exact or
/// rounded to odd, integers clamped to +-2^17 (beyond it they saturate
/// anyway) and then exact.
Value toFloat8Source(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  Type from = getElementTypeOrSelf(type);
  Type f32 = withElementType(type, b.getF32Type());
  if (from.isInteger(1))
    return selectOf(b, loc, value, floatConstant(b, loc, f32, 1.0),
                    floatConstant(b, loc, f32, 0.0));
  if (from.isInteger()) {
    Value limit = intConstant(b, loc, type, int64_t(1) << 17);
    Value clamped = arith::MaxSIOp::create(
        b, loc, arith::MinSIOp::create(b, loc, value, limit),
        arith::SubIOp::create(b, loc, intConstant(b, loc, type, 0), limit));
    return arith::SIToFPOp::create(b, loc, f32, clamped);
  }
  if (from.isF64())
    return roundF64ToOddF32(b, loc, value);
  return toCompute(b, loc, value);
}

} // namespace

Type mlir::fuser::getComputeType(Type storageType) {
  if (isHalf(storageType))
    return Float32Type::get(storageType.getContext());
  return storageType;
}

Value mlir::fuser::emitCast(OpBuilder &b, Location loc, Value value,
                            Type to) {
  Type type = value.getType();
  Type from = getElementTypeOrSelf(type);
  Type result = withElementType(type, to);
  if (from == to)
    return value;
  // Complex: to i1 `!= 0` (either part non-zero or NaN), to another real
  // type the real part converts; a real value becomes (value, +0).
  auto fromComplex = dyn_cast<ComplexType>(from);
  auto toComplex = dyn_cast<ComplexType>(to);
  if (fromComplex && toComplex) {
    Type part = toComplex.getElementType();
    Value re = emitCast(b, loc, complex::ReOp::create(b, loc, value), part);
    Value im = emitCast(b, loc, complex::ImOp::create(b, loc, value), part);
    return complex::CreateOp::create(b, loc, toComplex, re, im);
  }
  if (fromComplex && to.isInteger(1))
    return arith::OrIOp::create(
        b, loc, emitCast(b, loc, complex::ReOp::create(b, loc, value), to),
        emitCast(b, loc, complex::ImOp::create(b, loc, value), to));
  if (fromComplex)
    return emitCast(b, loc, complex::ReOp::create(b, loc, value), to);
  if (toComplex) {
    Type part = toComplex.getElementType();
    return complex::CreateOp::create(b, loc, toComplex,
                                     emitCast(b, loc, value, part),
                                     floatConstant(b, loc, part, 0.0));
  }
  // 8-bit floats go through f32, which holds each of their values exactly.
  if (isFloat8Type(from))
    return emitCast(b, loc, float8ToFloat(b, loc, value), to);
  if (isFloat8Type(to))
    return floatToFloat8(b, loc, toFloat8Source(b, loc, value), to);
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);

  // Anything -> i1 is `!= 0`: unordered for floats (NaN is true), and -0.0
  // equals 0.
  if (to.isInteger(1)) {
    if (fromFloat) {
      Value wide = toCompute(b, loc, value);
      return cmpf(b, loc, arith::CmpFPredicate::UNE, wide,
                  floatConstant(b, loc, wide.getType(), 0.0));
    }
    return cmpi(b, loc, arith::CmpIPredicate::ne, value,
                intConstant(b, loc, type, 0));
  }
  // i1 -> numbers is 0 or 1 (not the -1 of a signed reading).
  if (from.isInteger(1)) {
    if (toFloat)
      return selectOf(b, loc, value, floatConstant(b, loc, result, 1.0),
                      floatConstant(b, loc, result, 0.0));
    return arith::ExtUIOp::create(b, loc, result, value);
  }

  if (!fromFloat && !toFloat) {
    if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
      return arith::TruncIOp::create(b, loc, result, value);
    return arith::ExtSIOp::create(b, loc, result, value);
  }
  if (!fromFloat) {
    // Int -> float, rounded once. f32/f64 targets: sitofp rounds once.
    if (!isHalf(to))
      return arith::SIToFPOp::create(b, loc, result, value);
    // f16/bf16 targets: an exact (i32) or round-to-odd (i64) f64 first.
    Value wide =
        from.isInteger(64)
            ? roundI64ToOddF64(b, loc, value)
            : arith::SIToFPOp::create(b, loc,
                                      withElementType(type, b.getF64Type()),
                                      value)
                  .getResult();
    return floatToFloat(b, loc, wide, to);
  }
  // f16/bf16 sources are exact in f32.
  Value wide = toCompute(b, loc, value);
  if (!toFloat)
    return floatToInt(b, loc, wide, to);
  if (getElementTypeOrSelf(wide.getType()) == to)
    return wide;
  return floatToFloat(b, loc, wide, to);
}

namespace {

//===----------------------------------------------------------------------===//
// Arithmetic in the compute type
//===----------------------------------------------------------------------===//

/// A call of the libdevice function `name` (with an `f` suffix for f32) on
/// each element of `args`, declared in the nearest symbol table. The GPU links
/// libdevice; the CPU backend binds these names to host implementations
/// (getDeviceLibraryHostSymbols), which the interpreter calls too.
Value emitDeviceLibraryCall(OpBuilder &b, Location loc, StringRef name,
                            ValueRange args) {
  Type type = args.front().getType();
  Type element = getElementTypeOrSelf(type);
  std::string symbol = (name + (element.isF32() ? "f" : "")).str();
  Operation *symbolTable = SymbolTable::getNearestSymbolTable(
      b.getInsertionBlock()->getParentOp());
  auto functionType = b.getFunctionType(
      SmallVector<Type>(args.size(), element), element);
  if (!SymbolTable::lookupSymbolIn(symbolTable, symbol)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&symbolTable->getRegion(0).front());
    auto declaration = func::FuncOp::create(b, loc, symbol, functionType);
    declaration.setPrivate();
  }
  auto callScalar = [&](ValueRange scalars) -> Value {
    return func::CallOp::create(b, loc, symbol, TypeRange{element}, scalars)
        .getResult(0);
  };
  auto vector = dyn_cast<VectorType>(type);
  if (!vector)
    return callScalar(args);
  Value result = arith::ConstantOp::create(b, loc, vector,
                                           b.getZeroAttr(vector));
  for (int64_t lane = 0; lane < vector.getNumElements(); ++lane) {
    SmallVector<Value> scalars;
    for (Value arg : args)
      scalars.push_back(vector::ExtractOp::create(b, loc, arg, lane));
    result = vector::InsertOp::create(b, loc, callScalar(scalars), result,
                                      lane);
  }
  return result;
}

/// An i1 constant of the shape of `shapeLike`.
Value boolConstant(OpBuilder &b, Location loc, Type shapeLike, bool value) {
  return intConstant(b, loc, withElementType(shapeLike, b.getI1Type()),
                     value ? 1 : 0);
}

/// `x != 0` as i1 (NaN is true, -0.0 false; complex: either part); i1 is
/// itself.
Value isNonZero(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Type element = getElementTypeOrSelf(type);
  if (element.isInteger(1))
    return x;
  if (isa<ComplexType>(element))
    return arith::OrIOp::create(
        b, loc, isNonZero(b, loc, complex::ReOp::create(b, loc, x)),
        isNonZero(b, loc, complex::ImOp::create(b, loc, x)));
  if (isa<FloatType>(element))
    return cmpf(b, loc, arith::CmpFPredicate::UNE, x,
                floatConstant(b, loc, type, 0.0));
  return cmpi(b, loc, arith::CmpIPredicate::ne, x, intConstant(b, loc, type, 0));
}

Value emitUnary(OpBuilder &b, Location loc, UnaryKind kind, Value x);

/// A unary op on a complex scalar: upstream's `complex` ops, which
/// convert-complex-to-standard expands as ComplexSemantics.h's upstream*
/// functions compute, with libc++'s special values as selects
/// (ComplexFunctions.cpp), and the predicates from the parts.
Value emitComplexUnary(OpBuilder &b, Location loc, UnaryKind kind, Value z) {
  auto parts = [&](UnaryKind partKind, bool both) {
    Value re = emitUnary(b, loc, partKind, complex::ReOp::create(b, loc, z));
    Value im = emitUnary(b, loc, partKind, complex::ImOp::create(b, loc, z));
    return both ? arith::AndIOp::create(b, loc, re, im).getResult()
                : arith::OrIOp::create(b, loc, re, im).getResult();
  };
  switch (kind) {
  case UnaryKind::Neg:
    return complex::NegOp::create(b, loc, z);
  case UnaryKind::LogicalNot:
    return arith::XOrIOp::create(b, loc, isNonZero(b, loc, z),
                                 boolConstant(b, loc, b.getI1Type(), true));
  case UnaryKind::Isfinite:
    return parts(UnaryKind::Isfinite, /*both=*/true);
  case UnaryKind::Isinf:
    return parts(UnaryKind::Isinf, /*both=*/false);
  case UnaryKind::Isnan:
    return parts(UnaryKind::Isnan, /*both=*/false);
  case UnaryKind::Isreal: {
    Value im = complex::ImOp::create(b, loc, z);
    return cmpf(b, loc, arith::CmpFPredicate::OEQ, im,
                floatConstant(b, loc, im.getType(), 0.0));
  }
  case UnaryKind::Abs:
  case UnaryKind::Exp:
  case UnaryKind::Log:
  case UnaryKind::Sqrt:
  case UnaryKind::Rsqrt:
  case UnaryKind::Reciprocal:
  case UnaryKind::Sin:
  case UnaryKind::Cos:
  case UnaryKind::Tan:
  case UnaryKind::Tanh:
  case UnaryKind::Sinh:
  case UnaryKind::Cosh:
  case UnaryKind::Asin:
  case UnaryKind::Acos:
  case UnaryKind::Atan:
  case UnaryKind::Asinh:
  case UnaryKind::Acosh:
  case UnaryKind::Atanh:
  case UnaryKind::Log10:
  case UnaryKind::Log2:
  case UnaryKind::Sigmoid:
    return emitComposedComplexUnary(
        b, loc, kind, z, [&](UnaryKind partKind, Value part) {
          return emitUnary(b, loc, partKind, part);
        });
  default:
    llvm_unreachable("unary kind without a complex form (the operand class "
                     "excludes complex)");
  }
}

Value emitUnary(OpBuilder &b, Location loc, UnaryKind kind, Value x) {
  Type type = x.getType();
  if (isa<ComplexType>(type))
    return emitComplexUnary(b, loc, kind, x);
  Type element = getElementTypeOrSelf(type);
  bool isFloat = isa<FloatType>(element);
  auto one = [&] { return floatConstant(b, loc, type, 1.0); };
  auto zero = [&] {
    return isFloat ? floatConstant(b, loc, type, 0.0)
                   : intConstant(b, loc, type, 0);
  };
  auto compare = [&](arith::CmpFPredicate f, arith::CmpIPredicate i, Value l,
                     Value r) {
    return isFloat ? cmpf(b, loc, f, l, r) : cmpi(b, loc, i, l, r);
  };
  switch (kind) {
  case UnaryKind::Neg:
    if (isFloat)
      return arith::NegFOp::create(b, loc, x);
    // 0 - x wraps: neg(INT_MIN) is INT_MIN.
    return arith::SubIOp::create(b, loc, zero(), x);
  case UnaryKind::Abs: {
    if (isFloat)
      return math::AbsFOp::create(b, loc, x);
    return selectOf(b, loc, cmpi(b, loc, arith::CmpIPredicate::slt, x, zero()),
                    arith::SubIOp::create(b, loc, zero(), x), x);
  }
  case UnaryKind::Exp:
    return math::ExpOp::create(b, loc, x);
  case UnaryKind::Log:
    return math::LogOp::create(b, loc, x);
  case UnaryKind::Sqrt:
    return math::SqrtOp::create(b, loc, x);
  case UnaryKind::Rsqrt:
    // Not math.rsqrt, which lowers to an approximation on the GPU.
    return arith::DivFOp::create(b, loc, one(),
                                 math::SqrtOp::create(b, loc, x));
  case UnaryKind::Reciprocal:
    return arith::DivFOp::create(b, loc, one(), x);
  case UnaryKind::Sin:
    return math::SinOp::create(b, loc, x);
  case UnaryKind::Cos:
    return math::CosOp::create(b, loc, x);
  case UnaryKind::Tanh:
    return math::TanhOp::create(b, loc, x);
  case UnaryKind::Sigmoid: {
    // 1 / (1 + exp(-x)), in the interpreter's order.
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    return arith::DivFOp::create(b, loc, one(),
                                 arith::AddFOp::create(b, loc, one(), e));
  }
  case UnaryKind::Acos:
    return math::AcosOp::create(b, loc, x);
  case UnaryKind::Acosh:
    return math::AcoshOp::create(b, loc, x);
  case UnaryKind::Asin:
    return math::AsinOp::create(b, loc, x);
  case UnaryKind::Asinh:
    return math::AsinhOp::create(b, loc, x);
  case UnaryKind::Atan:
    return math::AtanOp::create(b, loc, x);
  case UnaryKind::Atanh:
    return math::AtanhOp::create(b, loc, x);
  case UnaryKind::Cosh:
    return math::CoshOp::create(b, loc, x);
  case UnaryKind::Sinh:
    return math::SinhOp::create(b, loc, x);
  case UnaryKind::Tan:
    return math::TanOp::create(b, loc, x);
  case UnaryKind::Erf:
    return math::ErfOp::create(b, loc, x);
  case UnaryKind::Erfc:
    return math::ErfcOp::create(b, loc, x);
  case UnaryKind::Erfinv:
    return emitDeviceLibraryCall(b, loc, "__nv_erfinv", x);
  case UnaryKind::Erfcinv:
    return emitDeviceLibraryCall(b, loc, "__nv_erfcinv", x);
  case UnaryKind::Lgamma:
    return emitDeviceLibraryCall(b, loc, "__nv_lgamma", x);
  case UnaryKind::Exp2:
    return math::Exp2Op::create(b, loc, x);
  case UnaryKind::Expm1:
    // Not math.expm1 or math.log1p: on the CPU, convert-math-to-llvm
    // expands them to exp(x) - 1 and log(1 + x), losing their accuracy.
    return emitDeviceLibraryCall(b, loc, "__nv_expm1", x);
  case UnaryKind::Log10:
    return math::Log10Op::create(b, loc, x);
  case UnaryKind::Log1p:
    return emitDeviceLibraryCall(b, loc, "__nv_log1p", x);
  case UnaryKind::Log2:
    return math::Log2Op::create(b, loc, x);
  case UnaryKind::Silu: {
    // x * sigmoid(x), in the interpreter's order; a NaN x is the result
    // itself (the product of two NaNs would be whichever operand the
    // compiler puts first).
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    Value sigmoid = arith::DivFOp::create(
        b, loc, one(), arith::AddFOp::create(b, loc, one(), e));
    Value isNaN =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    return arith::SelectOp::create(
        b, loc, isNaN, x, arith::MulFOp::create(b, loc, x, sigmoid));
  }
  case UnaryKind::Ceil:
    return isFloat ? math::CeilOp::create(b, loc, x).getResult() : x;
  case UnaryKind::Floor:
    return isFloat ? math::FloorOp::create(b, loc, x).getResult() : x;
  case UnaryKind::Trunc:
    return isFloat ? math::TruncOp::create(b, loc, x).getResult() : x;
  case UnaryKind::Round:
    return isFloat ? math::RoundEvenOp::create(b, loc, x).getResult() : x;
  case UnaryKind::Frac:
    if (!isFloat)
      return zero();
    return arith::SubFOp::create(b, loc, x, math::TruncOp::create(b, loc, x));
  case UnaryKind::Relu:
    // x <= 0 ? 0 : x, so NaN stays and -0.0 becomes +0.0.
    return selectOf(b, loc,
                    compare(arith::CmpFPredicate::OLE,
                            arith::CmpIPredicate::sle, x, zero()),
                    zero(), x);
  case UnaryKind::Sign: {
    // (0 < x) - (x < 0): 0 for zeros and NaN.
    Value positive = compare(arith::CmpFPredicate::OGT,
                             arith::CmpIPredicate::sgt, x, zero());
    Value negative = compare(arith::CmpFPredicate::OLT,
                             arith::CmpIPredicate::slt, x, zero());
    Value plusOne = isFloat ? one() : intConstant(b, loc, type, 1);
    Value minusOne = isFloat ? floatConstant(b, loc, type, -1.0)
                             : intConstant(b, loc, type, -1);
    return selectOf(b, loc, positive, plusOne,
                    selectOf(b, loc, negative, minusOne, zero()));
  }
  case UnaryKind::BitwiseNot:
    return arith::XOrIOp::create(b, loc, x, intConstant(b, loc, type, -1));
  case UnaryKind::LogicalNot:
    return arith::XOrIOp::create(b, loc, isNonZero(b, loc, x),
                                 boolConstant(b, loc, type, true));
  case UnaryKind::Signbit:
    if (element.isInteger(1))
      return boolConstant(b, loc, type, false);
    if (!isFloat)
      return cmpi(b, loc, arith::CmpIPredicate::slt, x, zero());
  {
    // The sign bit of the compute value, which widening keeps; false for
    // NaN, which has no sign (fuser.signbit).
    Type bits =
        withElementType(type, b.getIntegerType(element.getIntOrFloatBitWidth()));
    Value negative =
        cmpi(b, loc, arith::CmpIPredicate::slt,
             arith::BitcastOp::create(b, loc, bits, x),
             intConstant(b, loc, bits, 0));
    Value ordered =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, x, x);
    return arith::AndIOp::create(b, loc, negative, ordered);
  }
  case UnaryKind::Isfinite:
  case UnaryKind::Isinf:
  case UnaryKind::Isnan:
  case UnaryKind::Isneginf:
  case UnaryKind::Isposinf: {
    if (!isFloat)
      return boolConstant(b, loc, type, kind == UnaryKind::Isfinite);
    auto semantics = &cast<FloatType>(element).getFloatSemantics();
    Value inf = floatConstant(b, loc, type, APFloat::getInf(*semantics));
    if (kind == UnaryKind::Isfinite)
      return cmpf(b, loc, arith::CmpFPredicate::OLT,
                  math::AbsFOp::create(b, loc, x), inf);
    if (kind == UnaryKind::Isinf)
      return cmpf(b, loc, arith::CmpFPredicate::OEQ,
                  math::AbsFOp::create(b, loc, x), inf);
    if (kind == UnaryKind::Isnan)
      return cmpf(b, loc, arith::CmpFPredicate::UNO, x, x);
    if (kind == UnaryKind::Isposinf)
      return cmpf(b, loc, arith::CmpFPredicate::OEQ, x, inf);
    return cmpf(b, loc, arith::CmpFPredicate::OEQ, x,
                floatConstant(b, loc, type,
                              APFloat::getInf(*semantics, /*Negative=*/true)));
  }
  case UnaryKind::Isreal:
    return boolConstant(b, loc, type, true);
  }
  llvm_unreachable("unknown unary kind");
}

/// Integer a / b with x / 0 == 0 and INT_MIN / -1 == INT_MIN (wrapping).
Value emitIntegerDiv(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  Type type = lhs.getType();
  Value zero = intConstant(b, loc, type, 0);
  Value one = intConstant(b, loc, type, 1);
  Value minusOne = intConstant(b, loc, type, -1);
  Value byZero = cmpi(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value byMinusOne = cmpi(b, loc, arith::CmpIPredicate::eq, rhs, minusOne);
  // arith.divsi is UB for a zero divisor and for INT_MIN / -1: divide by 1
  // there and select the defined results.
  Value safeDivisor = selectOf(b, loc,
                               arith::OrIOp::create(b, loc, byZero, byMinusOne),
                               one, rhs);
  Value quotient = arith::DivSIOp::create(b, loc, lhs, safeDivisor);
  Value negated = arith::SubIOp::create(b, loc, zero, lhs);
  quotient = selectOf(b, loc, byMinusOne, negated, quotient);
  return selectOf(b, loc, byZero, zero, quotient);
}

/// Any lane of i1 `condition` (scalar or vector) set.
Value anyOf(OpBuilder &b, Location loc, Value condition) {
  if (!isa<VectorType>(condition.getType()))
    return condition;
  return vector::ReductionOp::create(b, loc, vector::CombiningKind::OR,
                                     condition);
}

/// Integer base ^ exponent by squaring, wrapping; a negative exponent gives
/// the truncated real result: 1 for base 1, +-1 for base -1, 0 otherwise.
/// The loop runs while any lane has exponent bits left (at most the bit
/// width times); lanes that are done multiply on without effect.
Value emitIntegerPow(OpBuilder &b, Location loc, Value base, Value exponent) {
  Type type = base.getType();
  Value zero = intConstant(b, loc, type, 0);
  Value one = intConstant(b, loc, type, 1);
  Value minusOne = intConstant(b, loc, type, -1);
  Value negativeExponent =
      cmpi(b, loc, arith::CmpIPredicate::slt, exponent, zero);
  Value loopExponent = selectOf(b, loc, negativeExponent, zero, exponent);
  SmallVector<Type> types(3, type);
  auto loop = scf::WhileOp::create(
      b, loc, types, ValueRange{one, base, loopExponent},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value more = anyOf(b, loc,
                           cmpi(b, loc, arith::CmpIPredicate::ne, args[2],
                                intConstant(b, loc, type, 0)));
        scf::ConditionOp::create(b, loc, more, args);
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value result = args[0], factor = args[1], e = args[2];
        Value oneHere = intConstant(b, loc, type, 1);
        Value odd = cmpi(b, loc, arith::CmpIPredicate::ne,
                         arith::AndIOp::create(b, loc, e, oneHere),
                         intConstant(b, loc, type, 0));
        result = selectOf(b, loc, odd,
                          arith::MulIOp::create(b, loc, result, factor),
                          result);
        factor = arith::MulIOp::create(b, loc, factor, factor);
        e = arith::ShRUIOp::create(b, loc, e, oneHere);
        scf::YieldOp::create(b, loc, ValueRange{result, factor, e});
      });
  Value power = loop.getResult(0);
  Value oddExponent = cmpi(b, loc, arith::CmpIPredicate::ne,
                           arith::AndIOp::create(b, loc, exponent, one), zero);
  Value ofMinusOne = selectOf(b, loc, oddExponent, minusOne, one);
  Value negativeResult = selectOf(
      b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, base, one), one,
      selectOf(b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, base, minusOne),
               ofMinusOne, zero));
  return selectOf(b, loc, negativeExponent, negativeResult, power);
}

/// C's `%` on integers without traps: x % 0 is x, MIN % -1 is 0.
Value emitIntegerFmod(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  Type type = lhs.getType();
  Value zero = intConstant(b, loc, type, 0);
  Value byZero = cmpi(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value byMinusOne =
      cmpi(b, loc, arith::CmpIPredicate::eq, rhs, intConstant(b, loc, type, -1));
  // arith.remsi is UB for these divisors, as arith.divsi is.
  Value safeDivisor = selectOf(b, loc,
                               arith::OrIOp::create(b, loc, byZero, byMinusOne),
                               intConstant(b, loc, type, 1), rhs);
  Value remainder = arith::RemSIOp::create(b, loc, lhs, safeDivisor);
  remainder = selectOf(b, loc, byMinusOne, zero, remainder);
  return selectOf(b, loc, byZero, lhs, remainder);
}

Value emitFmod(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!isa<FloatType>(getElementTypeOrSelf(lhs.getType())))
    return emitIntegerFmod(b, loc, lhs, rhs);
  // libdevice's fmod is exact; NVPTX's own frem lowering is not.
  return emitDeviceLibraryCall(b, loc, "__nv_fmod", {lhs, rhs});
}

/// fmod, moved into the sign of `rhs` where it is non-zero and differs.
Value emitRemainder(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  Type type = lhs.getType();
  Value r = emitFmod(b, loc, lhs, rhs);
  if (isa<FloatType>(getElementTypeOrSelf(type))) {
    Value zero = floatConstant(b, loc, type, 0.0);
    Value differ = arith::XOrIOp::create(
        b, loc, cmpf(b, loc, arith::CmpFPredicate::OLT, r, zero),
        cmpf(b, loc, arith::CmpFPredicate::OLT, rhs, zero));
    Value adjust = arith::AndIOp::create(
        b, loc, cmpf(b, loc, arith::CmpFPredicate::UNE, r, zero), differ);
    return selectOf(b, loc, adjust, arith::AddFOp::create(b, loc, r, rhs), r);
  }
  Value zero = intConstant(b, loc, type, 0);
  Value differ = arith::XOrIOp::create(
      b, loc, cmpi(b, loc, arith::CmpIPredicate::slt, r, zero),
      cmpi(b, loc, arith::CmpIPredicate::slt, rhs, zero));
  Value adjust = arith::AndIOp::create(
      b, loc, cmpi(b, loc, arith::CmpIPredicate::ne, r, zero), differ);
  return selectOf(b, loc, adjust, arith::AddIOp::create(b, loc, r, rhs), r);
}

/// Euclid on the unsigned magnitudes, wrapping back (|MIN| is MIN); the
/// loop runs while any lane has a non-zero divisor.
Value emitGcd(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  Type type = lhs.getType();
  auto magnitude = [&](Value v) {
    Value zero = intConstant(b, loc, type, 0);
    return selectOf(b, loc, cmpi(b, loc, arith::CmpIPredicate::slt, v, zero),
                    arith::SubIOp::create(b, loc, zero, v), v);
  };
  SmallVector<Type> types(2, type);
  auto loop = scf::WhileOp::create(
      b, loc, types, ValueRange{magnitude(lhs), magnitude(rhs)},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value more = anyOf(b, loc,
                           cmpi(b, loc, arith::CmpIPredicate::ne, args[1],
                                intConstant(b, loc, type, 0)));
        scf::ConditionOp::create(b, loc, more, args);
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value x = args[0], y = args[1];
        Value done = cmpi(b, loc, arith::CmpIPredicate::eq, y,
                          intConstant(b, loc, type, 0));
        Value safeY = selectOf(b, loc, done, intConstant(b, loc, type, 1), y);
        Value t = arith::RemUIOp::create(b, loc, x, safeY);
        scf::YieldOp::create(
            b, loc,
            ValueRange{selectOf(b, loc, done, x, y),
                       selectOf(b, loc, done, y, t)});
      });
  return loop.getResult(0);
}

/// Shifts by a negative amount or by the width or more give 0 (left,
/// logical right) or the sign fill (arithmetic right).
Value emitShift(OpBuilder &b, Location loc, BinaryKind kind, Value lhs,
                Value rhs) {
  Type type = lhs.getType();
  unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  Value inRange = cmpi(b, loc, arith::CmpIPredicate::ult, rhs,
                       intConstant(b, loc, type, width));
  Value amount = selectOf(b, loc, inRange, rhs, intConstant(b, loc, type, 0));
  Value zero = intConstant(b, loc, type, 0);
  switch (kind) {
  case BinaryKind::BitwiseLeftShift:
    return selectOf(b, loc, inRange,
                    arith::ShLIOp::create(b, loc, lhs, amount), zero);
  case BinaryKind::LogicalRightShift:
    return selectOf(b, loc, inRange,
                    arith::ShRUIOp::create(b, loc, lhs, amount), zero);
  default:
    return selectOf(
        b, loc, inRange, arith::ShRSIOp::create(b, loc, lhs, amount),
        arith::ShRSIOp::create(b, loc, lhs,
                               intConstant(b, loc, type, width - 1)));
  }
}

/// nextafter on the storage bits of `lhs` and `rhs` (any float type, f16
/// and bf16 included); NaN operands give lhs + rhs computed as the
/// interpreter does (in f32 for f16/bf16).
Value emitNextafter(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  Type type = lhs.getType();
  Type element = getElementTypeOrSelf(type);
  Type bits =
      withElementType(type, b.getIntegerType(element.getIntOrFloatBitWidth()));
  unsigned width = element.getIntOrFloatBitWidth();
  Value x = toCompute(b, loc, lhs), y = toCompute(b, loc, rhs);
  Value xBits = arith::BitcastOp::create(b, loc, bits, lhs);
  Value yBits = arith::BitcastOp::create(b, loc, bits, rhs);
  Value computeZero = floatConstant(b, loc, x.getType(), 0.0);
  Value one = intConstant(b, loc, bits, 1);
  Value signMask =
      intConstant(b, loc, bits, APInt::getSignMask(width));
  Value towardZeroSide = arith::XOrIOp::create(
      b, loc, cmpf(b, loc, arith::CmpFPredicate::OLT, x, y),
      cmpf(b, loc, arith::CmpFPredicate::OGT, x, computeZero));
  // (x < y) == (x > 0): away from zero, one more in the magnitude.
  Value stepped = selectOf(b, loc, towardZeroSide,
                           arith::SubIOp::create(b, loc, xBits, one),
                           arith::AddIOp::create(b, loc, xBits, one));
  Value fromZero = arith::OrIOp::create(
      b, loc, arith::AndIOp::create(b, loc, yBits, signMask), one);
  Value result = selectOf(
      b, loc, cmpf(b, loc, arith::CmpFPredicate::OEQ, x, computeZero),
      fromZero, stepped);
  result = selectOf(b, loc, cmpf(b, loc, arith::CmpFPredicate::OEQ, x, y),
                    yBits, result);
  Value nan = fromCompute(b, loc, arith::AddFOp::create(b, loc, x, y), element);
  return selectOf(b, loc, cmpf(b, loc, arith::CmpFPredicate::UNO, x, y), nan,
                  arith::BitcastOp::create(b, loc, type, result));
}

Value emitBinary(OpBuilder &b, Location loc, BinaryKind kind, Value lhs,
                 Value rhs) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(lhs.getType()));
  if (isa<ComplexType>(lhs.getType())) {
    switch (kind) {
    case BinaryKind::Add:
      return complex::AddOp::create(b, loc, lhs, rhs);
    case BinaryKind::Sub:
      return complex::SubOp::create(b, loc, lhs, rhs);
    case BinaryKind::Mul:
    case BinaryKind::Div:
    case BinaryKind::Pow:
      return emitComplexBinaryFunction(
          b, loc, kind, lhs, rhs, [&](UnaryKind partKind, Value part) {
            return emitUnary(b, loc, partKind, part);
          });
    case BinaryKind::LogicalAnd:
    case BinaryKind::LogicalOr:
      break;
    default:
      llvm_unreachable("binary kind without a complex form (the operand "
                       "class excludes complex)");
    }
  }
  switch (kind) {
  case BinaryKind::Add:
    if (isFloat)
      return arith::AddFOp::create(b, loc, lhs, rhs);
    return arith::AddIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Sub:
    if (isFloat)
      return arith::SubFOp::create(b, loc, lhs, rhs);
    return arith::SubIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Mul:
    if (isFloat)
      return arith::MulFOp::create(b, loc, lhs, rhs);
    return arith::MulIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Div:
    if (isFloat)
      return arith::DivFOp::create(b, loc, lhs, rhs);
    return emitIntegerDiv(b, loc, lhs, rhs);
  case BinaryKind::Maximum:
    if (isFloat)
      return arith::MaximumFOp::create(b, loc, lhs, rhs);
    return arith::MaxSIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Minimum:
    if (isFloat)
      return arith::MinimumFOp::create(b, loc, lhs, rhs);
    return arith::MinSIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Pow:
    if (isFloat)
      return math::PowFOp::create(b, loc, lhs, rhs);
    return emitIntegerPow(b, loc, lhs, rhs);
  case BinaryKind::Atan2:
    return math::Atan2Op::create(b, loc, lhs, rhs);
  case BinaryKind::Fmod:
  case BinaryKind::Mod:
    return emitFmod(b, loc, lhs, rhs);
  case BinaryKind::Remainder:
    return emitRemainder(b, loc, lhs, rhs);
  case BinaryKind::Nextafter:
    return emitNextafter(b, loc, lhs, rhs);
  case BinaryKind::Gcd:
    return emitGcd(b, loc, lhs, rhs);
  case BinaryKind::BitwiseAnd:
    return arith::AndIOp::create(b, loc, lhs, rhs);
  case BinaryKind::BitwiseOr:
    return arith::OrIOp::create(b, loc, lhs, rhs);
  case BinaryKind::BitwiseXor:
    return arith::XOrIOp::create(b, loc, lhs, rhs);
  case BinaryKind::BitwiseLeftShift:
  case BinaryKind::BitwiseRightShift:
  case BinaryKind::LogicalRightShift:
    return emitShift(b, loc, kind, lhs, rhs);
  case BinaryKind::LogicalAnd:
    return arith::AndIOp::create(b, loc, isNonZero(b, loc, lhs),
                                 isNonZero(b, loc, rhs));
  case BinaryKind::LogicalOr:
    return arith::OrIOp::create(b, loc, isNonZero(b, loc, lhs),
                                isNonZero(b, loc, rhs));
  }
  llvm_unreachable("unknown binary kind");
}

Value emitTernary(OpBuilder &b, Location loc, TernaryKind kind, Value x,
                  Value y, Value z) {
  Type type = x.getType();
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(type));
  switch (kind) {
  case TernaryKind::Lerp: {
    // weight < 0.5 ? start + weight * (end - start)
    //              : end - (end - start) * (1 - weight)
    Value difference = arith::SubFOp::create(b, loc, y, x);
    Value low = arith::AddFOp::create(
        b, loc, x, arith::MulFOp::create(b, loc, z, difference));
    Value oneMinusWeight = arith::SubFOp::create(
        b, loc, floatConstant(b, loc, type, 1.0), z);
    Value high = arith::SubFOp::create(
        b, loc, y, arith::MulFOp::create(b, loc, difference, oneMinusWeight));
    return selectOf(b, loc,
                    cmpf(b, loc, arith::CmpFPredicate::OLT, z,
                         floatConstant(b, loc, type, 0.5)),
                    low, high);
  }
  case TernaryKind::Clamp:
    return emitBinary(b, loc, BinaryKind::Minimum,
                      emitBinary(b, loc, BinaryKind::Maximum, x, y), z);
  case TernaryKind::Threshold: {
    Value atOrBelow = isFloat ? cmpf(b, loc, arith::CmpFPredicate::OLE, x, y)
                              : cmpi(b, loc, arith::CmpIPredicate::sle, x, y);
    return selectOf(b, loc, atOrBelow, z, x);
  }
  }
  llvm_unreachable("unknown ternary kind");
}

Value emitCompare(OpBuilder &b, Location loc, CompareKind kind, Value lhs,
                  Value rhs) {
  Type element = getElementTypeOrSelf(lhs.getType());
  if (isa<ComplexType>(element)) {
    assert(comparesComplex(kind) && "complex elements have no order");
    if (kind == CompareKind::Eq)
      return complex::EqualOp::create(b, loc, lhs, rhs);
    return complex::NotEqualOp::create(b, loc, lhs, rhs);
  }
  if (isa<FloatType>(element)) {
    // C++ comparisons: ordered (false with NaN), except != (true with NaN).
    arith::CmpFPredicate predicate = arith::CmpFPredicate::OEQ;
    switch (kind) {
    case CompareKind::Eq:
      predicate = arith::CmpFPredicate::OEQ;
      break;
    case CompareKind::Ne:
      predicate = arith::CmpFPredicate::UNE;
      break;
    case CompareKind::Lt:
      predicate = arith::CmpFPredicate::OLT;
      break;
    case CompareKind::Le:
      predicate = arith::CmpFPredicate::OLE;
      break;
    case CompareKind::Gt:
      predicate = arith::CmpFPredicate::OGT;
      break;
    case CompareKind::Ge:
      predicate = arith::CmpFPredicate::OGE;
      break;
    }
    return cmpf(b, loc, predicate, lhs, rhs);
  }
  // i1 compares as C++ bool (false < true): unsigned; other ints signed.
  bool isBool = element.isInteger(1);
  arith::CmpIPredicate predicate = arith::CmpIPredicate::eq;
  switch (kind) {
  case CompareKind::Eq:
    predicate = arith::CmpIPredicate::eq;
    break;
  case CompareKind::Ne:
    predicate = arith::CmpIPredicate::ne;
    break;
  case CompareKind::Lt:
    predicate = isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case CompareKind::Le:
    predicate = isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case CompareKind::Gt:
    predicate = isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case CompareKind::Ge:
    predicate = isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return cmpi(b, loc, predicate, lhs, rhs);
}

} // namespace

FailureOr<Value> mlir::fuser::emitElementwise(OpBuilder &b, Location loc,
                                              Operation *op,
                                              ValueRange operands) {
  if (op->getNumResults() != 1)
    return op->emitError("cannot lower '")
           << op->getName() << "' to arith: not an elementwise fuser op";
  if (operands.size() != op->getNumOperands())
    return op->emitError("lowering to arith got ")
           << operands.size() << " operands for " << op->getNumOperands();
  Type resultElement = getElementTypeOrSelf(op->getResult(0).getType());
  if (!isFuserElementType(resultElement))
    return op->emitError("cannot lower element type ")
           << resultElement << " to arith";
  // No vector holds complex elements: an op that touches them computes on
  // scalars, its one-lane vector operands unpacked and a real result packed
  // back (complex kernels run one element per thread).
  bool complexOperands = llvm::any_of(operands, [](Value operand) {
    return isa<ComplexType>(getElementTypeOrSelf(operand.getType()));
  });
  bool vectorOperands = llvm::any_of(operands, [](Value operand) {
    return isa<VectorType>(operand.getType());
  });
  if ((complexOperands || isa<ComplexType>(resultElement)) && vectorOperands) {
    SmallVector<Value, 3> scalars;
    for (Value operand : operands) {
      auto vector = dyn_cast<VectorType>(operand.getType());
      if (vector && vector.getNumElements() != 1)
        return op->emitError("cannot lower '")
               << op->getName() << "' on " << vector
               << ": complex kernels run one element per thread";
      scalars.push_back(vector ? vector::ExtractOp::create(b, loc, operand, 0)
                                     .getResult()
                               : operand);
    }
    FailureOr<Value> result = emitElementwise(b, loc, op, scalars);
    if (failed(result) || isa<ComplexType>(result->getType()))
      return result;
    return vector::BroadcastOp::create(
               b, loc, VectorType::get({1}, result->getType()), *result)
        .getResult();
  }
  for (Value operand : operands) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!isFuserElementType(element))
      return op->emitError("cannot lower element type ")
             << element << " to arith";
    if (isa<ShapedType>(operand.getType()) &&
        !isa<VectorType>(operand.getType()))
      return op->emitError("lowering to arith expects scalars or vectors, "
                           "got ")
             << operand.getType();
    if (isa<VectorType>(operand.getType()) !=
            isa<VectorType>(operands.front().getType()) ||
        (isa<VectorType>(operand.getType()) &&
         cast<VectorType>(operand.getType()).getShape() !=
             cast<VectorType>(operands.front().getType()).getShape()))
      return op->emitError("lowering to arith expects operands of one shape");
  }

  if (isa<CastOp>(op))
    return emitCast(b, loc, operands[0], resultElement);
  if (auto create = dyn_cast<ComplexOp>(op))
    return complex::CreateOp::create(b, loc, cast<ComplexType>(resultElement),
                                     operands[0], operands[1])
        .getResult();
  if (isa<RealOp>(op))
    return complex::ReOp::create(b, loc, operands[0]).getResult();
  if (isa<ImagOp>(op))
    return complex::ImOp::create(b, loc, operands[0]).getResult();

  if (auto where = dyn_cast<WhereOp>(op)) {
    if (!getElementTypeOrSelf(operands[0].getType()).isInteger(1))
      return op->emitError("cannot lower a where whose condition is not i1");
    if (getElementTypeOrSelf(operands[1].getType()) != resultElement ||
        getElementTypeOrSelf(operands[2].getType()) != resultElement)
      return op->emitError("cannot lower a where whose operands' element "
                           "types differ from its result's");
    return selectOf(b, loc, operands[0], operands[1], operands[2]);
  }

  auto checkOperandTypes = [&](Type expected) -> LogicalResult {
    for (Value operand : operands)
      if (getElementTypeOrSelf(operand.getType()) != expected)
        return op->emitError("cannot lower '")
               << op->getName() << "' with operands of element types other "
               << "than " << expected;
    return success();
  };

  if (std::optional<CompareKind> kind = getCompareKind(op)) {
    Type element = getElementTypeOrSelf(operands[0].getType());
    if (failed(checkOperandTypes(element)))
      return failure();
    Value lhs = toCompute(b, loc, operands[0]);
    Value rhs = toCompute(b, loc, operands[1]);
    return emitCompare(b, loc, *kind, lhs, rhs);
  }

  std::optional<UnaryKind> unary = getUnaryKind(op);
  std::optional<BinaryKind> binary = getBinaryKind(op);
  std::optional<TernaryKind> ternary = getTernaryKind(op);
  if (!unary && !binary && !ternary)
    return op->emitError("cannot lower '")
           << op->getName() << "' to arith: not an elementwise fuser op";
  Type operandElement = getElementTypeOrSelf(operands[0].getType());
  if (failed(checkOperandTypes(operandElement)))
    return failure();
  OperandClass operandClass = unary     ? getOpInfo(*unary).operands
                              : binary  ? getOpInfo(*binary).operands
                                        : getOpInfo(*ternary).operands;
  ResultClass resultClass = unary    ? getOpInfo(*unary).result
                            : binary ? getOpInfo(*binary).result
                                     : ResultClass::Same;
  if (!isInOperandClass(operandElement, operandClass))
    return op->emitError("cannot lower '")
           << op->getName() << "' on " << operandElement << ": it takes "
           << getOperandClassDescription(operandClass) << " operands";
  Type expectedResult = resultClass == ResultClass::Bool ? b.getI1Type()
                        : resultClass == ResultClass::Real
                            ? getComplexPartType(operandElement)
                            : operandElement;
  if (resultElement != expectedResult)
    return op->emitError("cannot lower '")
           << op->getName() << "' with result element type " << resultElement
           << " (expected " << expectedResult << ")";

  // nextafter steps the storage bits of f16/bf16 values, not their f32.
  if (binary == BinaryKind::Nextafter)
    return emitNextafter(b, loc, operands[0], operands[1]);

  SmallVector<Value, 3> computeOperands;
  for (Value operand : operands)
    computeOperands.push_back(toCompute(b, loc, operand));
  Value result;
  if (unary)
    result = emitUnary(b, loc, *unary, computeOperands[0]);
  else if (binary)
    result = emitBinary(b, loc, *binary, computeOperands[0],
                        computeOperands[1]);
  else
    result = emitTernary(b, loc, *ternary, computeOperands[0],
                         computeOperands[1], computeOperands[2]);
  if (resultClass == ResultClass::Bool || isa<ComplexType>(operandElement))
    return result;
  return fromCompute(b, loc, result, resultElement);
}

Value mlir::fuser::emitReductionIdentity(OpBuilder &b, Location loc,
                                         ReductionKind kind,
                                         Type computeType) {
  Type element = getElementTypeOrSelf(computeType);
  if (auto complexType = dyn_cast<ComplexType>(computeType)) {
    // add only (the verifier): (-0.0, -0.0), the identity of each part.
    assert(kind == ReductionKind::Add && "complex reductions add");
    Value part = emitReductionIdentity(b, loc, kind,
                                       complexType.getElementType());
    return complex::CreateOp::create(b, loc, complexType, part, part);
  }
  if (auto floatType = dyn_cast<FloatType>(element)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    switch (kind) {
    case ReductionKind::Add:
      return floatConstant(b, loc, computeType,
                           APFloat::getZero(semantics, /*Negative=*/true));
    case ReductionKind::Mul:
      return floatConstant(b, loc, computeType, 1.0);
    case ReductionKind::Max:
      return floatConstant(b, loc, computeType,
                           APFloat::getInf(semantics, /*Negative=*/true));
    case ReductionKind::Min:
      return floatConstant(b, loc, computeType,
                           APFloat::getInf(semantics, /*Negative=*/false));
    }
    llvm_unreachable("unknown reduction kind");
  }
  unsigned width = element.getIntOrFloatBitWidth();
  switch (kind) {
  case ReductionKind::Add:
    return intConstant(b, loc, computeType, 0);
  case ReductionKind::Mul:
    return intConstant(b, loc, computeType, 1);
  case ReductionKind::Max:
    return intConstant(b, loc, computeType, APInt::getSignedMinValue(width));
  case ReductionKind::Min:
    return intConstant(b, loc, computeType, APInt::getSignedMaxValue(width));
  }
  llvm_unreachable("unknown reduction kind");
}

Value mlir::fuser::emitReductionCombine(OpBuilder &b, Location loc,
                                        ReductionKind kind, Value accumulator,
                                        Value element) {
  switch (kind) {
  case ReductionKind::Add:
    return emitBinary(b, loc, BinaryKind::Add, accumulator, element);
  case ReductionKind::Mul:
    return emitBinary(b, loc, BinaryKind::Mul, accumulator, element);
  case ReductionKind::Max:
    return emitBinary(b, loc, BinaryKind::Maximum, accumulator, element);
  case ReductionKind::Min:
    break;
  }
  return emitBinary(b, loc, BinaryKind::Minimum, accumulator, element);
}

LogicalResult mlir::fuser::expandComplexArithmetic(Operation *root) {
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
  populateComplexToStandardConversionPatterns(
      patterns, complex::ComplexRangeFlags::improved);
  ConversionTarget target(*context);
  target.addIllegalDialect<complex::ComplexDialect>();
  target.addLegalOp<complex::CreateOp, complex::ReOp, complex::ImOp,
                    complex::ConstantOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::Never;
  if (failed(applyPartialConversion(root, target, std::move(patterns), config)))
    return failure();
  // The expansion's expm1 (tan, tanh) and rsqrt (complex rsqrt) as
  // fuser.expm1 and fuser.rsqrt compute them: math.expm1 would lower to
  // exp(x) - 1, which loses every small x, and math.rsqrt to the GPU's
  // approximation.
  SmallVector<std::pair<Operation *, UnaryKind>> replaced;
  root->walk([&](Operation *op) {
    if (isa<math::ExpM1Op>(op))
      replaced.push_back({op, UnaryKind::Expm1});
    else if (isa<math::RsqrtOp>(op))
      replaced.push_back({op, UnaryKind::Rsqrt});
  });
  for (auto [op, kind] : replaced) {
    OpBuilder b(op);
    op->getResult(0).replaceAllUsesWith(
        emitUnary(b, op->getLoc(), kind, op->getOperand(0)));
    op->erase();
  }
  return success();
}
