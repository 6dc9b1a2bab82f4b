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
//
//===----------------------------------------------------------------------===//

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
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

Value emitUnary(OpBuilder &b, Location loc, UnaryKind kind, Value x) {
  Type type = x.getType();
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(type));
  auto one = [&] { return floatConstant(b, loc, type, 1.0); };
  switch (kind) {
  case UnaryKind::Neg:
    if (isFloat)
      return arith::NegFOp::create(b, loc, x);
    // 0 - x wraps: neg(INT_MIN) is INT_MIN.
    return arith::SubIOp::create(b, loc, intConstant(b, loc, type, 0), x);
  case UnaryKind::Abs: {
    if (isFloat)
      return math::AbsFOp::create(b, loc, x);
    Value zero = intConstant(b, loc, type, 0);
    return selectOf(b, loc, cmpi(b, loc, arith::CmpIPredicate::slt, x, zero),
                    arith::SubIOp::create(b, loc, zero, x), x);
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

Value emitBinary(OpBuilder &b, Location loc, BinaryKind kind, Value lhs,
                 Value rhs) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(lhs.getType()));
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
  }
  llvm_unreachable("unknown binary kind");
}

Value emitCompare(OpBuilder &b, Location loc, CompareKind kind, Value lhs,
                  Value rhs) {
  Type element = getElementTypeOrSelf(lhs.getType());
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

bool isSupportedElementType(Type type) {
  return type.isInteger(1) || type.isInteger(32) || type.isInteger(64) ||
         type.isF16() || type.isBF16() || type.isF32() || type.isF64();
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
  if (!isSupportedElementType(resultElement))
    return op->emitError("cannot lower element type ")
           << resultElement << " to arith";
  for (Value operand : operands) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!isSupportedElementType(element))
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
  if (!unary && !binary)
    return op->emitError("cannot lower '")
           << op->getName() << "' to arith: not an elementwise fuser op";
  if (failed(checkOperandTypes(resultElement)))
    return failure();
  if (resultElement.isInteger(1))
    return op->emitError("cannot lower arithmetic on i1");
  bool floatOnly = unary ? getOpInfo(*unary).floatOnly
                         : getOpInfo(*binary).floatOnly;
  if (floatOnly && !isa<FloatType>(resultElement))
    return op->emitError("cannot lower '")
           << op->getName() << "' on " << resultElement
           << ": it takes floats only";

  SmallVector<Value, 2> computeOperands;
  for (Value operand : operands)
    computeOperands.push_back(toCompute(b, loc, operand));
  Value result =
      unary ? emitUnary(b, loc, *unary, computeOperands[0])
            : emitBinary(b, loc, *binary, computeOperands[0],
                         computeOperands[1]);
  return fromCompute(b, loc, result, resultElement);
}

Value mlir::fuser::emitReductionIdentity(OpBuilder &b, Location loc,
                                         ReductionKind kind,
                                         Type computeType) {
  Type element = getElementTypeOrSelf(computeType);
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
