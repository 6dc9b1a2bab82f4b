//===- FusionBuilder.cpp - build fusions with nvFuser's rules -------------===//
//
// Each builder follows the nvFuser function of the same name (csrc/ops/,
// csrc/type_promotion.cpp); see the header for the rules.
//
//===----------------------------------------------------------------------===//

#include "fuser/FusionBuilder/FusionBuilder.h"
#include "fuser/Dialect/Fuser/IR/ConstantFolding.h"
#include "fuser/Dialect/Fuser/IR/ElementTypes.h"

#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fuser;

//===----------------------------------------------------------------------===//
// Scalars and operands
//===----------------------------------------------------------------------===//

ScalarLiteral ScalarLiteral::getFloat(double value, Type type) {
  ScalarLiteral literal;
  literal.kind = Kind::Float;
  literal.floatValue = value;
  literal.type = type;
  return literal;
}

ScalarLiteral ScalarLiteral::getInt(int64_t value, Type type) {
  ScalarLiteral literal;
  literal.kind = Kind::Int;
  literal.intValue = value;
  literal.floatValue = static_cast<double>(value);
  literal.type = type;
  return literal;
}

ScalarLiteral ScalarLiteral::getBool(bool value, Type type) {
  ScalarLiteral literal;
  literal.kind = Kind::Bool;
  literal.intValue = value;
  literal.floatValue = value;
  literal.type = type;
  return literal;
}

Type ScalarLiteral::getType(MLIRContext *context) const {
  if (type)
    return type;
  Builder b(context);
  switch (kind) {
  case Kind::Bool:
    return b.getI1Type();
  case Kind::Int:
    return b.getI64Type();
  case Kind::Float:
    return b.getF64Type();
  }
  llvm_unreachable("unknown literal kind");
}

bool Operand::isTensor() const {
  return value && isa<RankedTensorType>(value.getType());
}

Type Operand::getDType(MLIRContext *context) const {
  return value ? getElementTypeOrSelf(value.getType())
               : literal->getType(context);
}

//===----------------------------------------------------------------------===//
// Type promotion (nvFuser's computeTypes, PyTorch's result_type)
//===----------------------------------------------------------------------===//

namespace {
/// PyTorch's type categories: bool < integral < floating < complex.
enum class Category { Bool, Integral, Floating, Complex };

Category getCategory(Type type) {
  if (type.isInteger(1))
    return Category::Bool;
  if (isa<IntegerType>(type))
    return Category::Integral;
  if (isa<ComplexType>(type))
    return Category::Complex;
  return Category::Floating;
}

bool isHalf(Type type) { return type.isF16() || type.isBF16(); }

/// f16, bf16 and the 8-bit floats: the floats nvFuser computes in f32.
bool isReducedPrecision(Type type) {
  return isHalf(type) || isFloat8Type(type);
}

/// The type arithmetic on `common` computes in: the 8-bit floats are storage
/// types, whose values f32 holds exactly.
Type getArithmeticType(Type common) {
  return isFloat8Type(common) ? Float32Type::get(common.getContext()) : common;
}

/// PyTorch's promote_skip_undefined.
Type promoteSkipUndefined(Type a, Type b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return promoteTypes(a, b);
}

/// PyTorch's combine_categories: the operands of a higher priority (tensors
/// of rank > 0 over rank-0 tensors over scalars) keep their dtype unless the
/// lower ones are of a higher category.
Type combineCategories(Type higher, Type lower) {
  if (!higher)
    return lower;
  Category lowerCategory = lower ? getCategory(lower) : Category::Bool;
  if (getCategory(higher) == Category::Complex)
    return higher;
  // A complex scalar with a float tensor keeps the tensor's width
  // (c10's toComplexType: Float gives ComplexFloat; halves, which have no
  // complex form here, ComplexFloat too).
  if (getCategory(higher) == Category::Floating &&
      lowerCategory == Category::Complex)
    return ComplexType::get(higher.isF64()
                                ? higher
                                : Float32Type::get(higher.getContext()));
  if (getCategory(higher) == Category::Floating)
    return higher;
  if (higher.isInteger(1) || lowerCategory >= Category::Floating)
    return promoteSkipUndefined(higher, lower);
  return higher;
}
} // namespace

Type mlir::fuser::promoteTypes(Type lhs, Type rhs) {
  if (lhs == rhs)
    return lhs;
  // Complex with anything: complex of the promoted parts (f64 and
  // complex<f32> give complex<f64>, as in PyTorch).
  auto lhsComplex = dyn_cast<ComplexType>(lhs);
  auto rhsComplex = dyn_cast<ComplexType>(rhs);
  if (lhsComplex || rhsComplex) {
    Type lhsPart = lhsComplex ? lhsComplex.getElementType() : lhs;
    Type rhsPart = rhsComplex ? rhsComplex.getElementType() : rhs;
    Type part = promoteTypes(lhsPart, rhsPart);
    if (!part.isF64())
      part = Float32Type::get(lhs.getContext());
    return ComplexType::get(part);
  }
  Category lhsCategory = getCategory(lhs), rhsCategory = getCategory(rhs);
  if (lhsCategory != rhsCategory)
    return lhsCategory > rhsCategory ? lhs : rhs;
  if (lhsCategory == Category::Integral)
    return lhs.getIntOrFloatBitWidth() >= rhs.getIntOrFloatBitWidth() ? lhs
                                                                      : rhs;
  // f16 and bf16 (and e4m3 and e5m2) have the same width but neither holds
  // the other.
  if (isReducedPrecision(lhs) && isReducedPrecision(rhs) &&
      lhs.getIntOrFloatBitWidth() == rhs.getIntOrFloatBitWidth())
    return Float32Type::get(lhs.getContext());
  return lhs.getIntOrFloatBitWidth() > rhs.getIntOrFloatBitWidth() ? lhs : rhs;
}

Type mlir::fuser::computeCommonType(ArrayRef<Operand> operands,
                                    PromotionConfig config,
                                    MLIRContext *context) {
  Type common;
  bool differ = false;
  for (const Operand &operand : operands) {
    Type dtype = operand.getDType(context);
    if (!common)
      common = dtype;
    else if (dtype != common)
      differ = true;
  }
  if (differ) {
    Type dimResult, zeroResult, wrappedResult;
    for (const Operand &operand : operands) {
      Type dtype = operand.getDType(context);
      if (operand.isTensor()) {
        Type &result =
            cast<RankedTensorType>(operand.getValue().getType()).getRank() > 0
                ? dimResult
                : zeroResult;
        result = promoteSkipUndefined(result, dtype);
        continue;
      }
      // A reduced-precision scalar counts as the default float dtype.
      if (isReducedPrecision(dtype))
        dtype = Float32Type::get(context);
      wrappedResult = promoteSkipUndefined(wrappedResult, dtype);
    }
    common = combineCategories(dimResult,
                               combineCategories(zeroResult, wrappedResult));
  }
  if (config.promoteIntToFloat && getCategory(common) < Category::Floating)
    common = Float32Type::get(context);
  if (config.castHalfToFloat && isReducedPrecision(common))
    common = Float32Type::get(context);
  return common;
}

namespace {
/// nvFuser's promotion by operand and result class: float ops promote
/// integers to f32 (float_op_config), Bool-result and integer-only ops keep
/// the operands' dtype, the rest use the default config.
PromotionConfig getClassPromotion(OperandClass operands, ResultClass result) {
  if (operands == OperandClass::Float ||
      operands == OperandClass::FloatOrComplex)
    return {/*promoteIntToFloat=*/true, /*castHalfToFloat=*/true};
  if (result == ResultClass::Bool || operands == OperandClass::Integer ||
      operands == OperandClass::Integral)
    return {/*promoteIntToFloat=*/false, /*castHalfToFloat=*/false};
  return {/*promoteIntToFloat=*/false, /*castHalfToFloat=*/true};
}
} // namespace

/// "a float operand", "integer (i32 or i64) operands": what an op of class
/// `operands` takes, for messages.
static std::string describeOperands(OperandClass operands, unsigned count) {
  std::string description = getOperandClassDescription(operands).str();
  if (count > 1)
    return description + " operands";
  bool vowel = llvm::StringRef("aeiou").contains(description.front());
  return (vowel ? "an " : "a ") + description + " operand";
}

/// `type` as the IR prints it, without the quotes of a diagnostic argument.
static std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

PromotionConfig mlir::fuser::getPromotionConfig(UnaryKind kind) {
  // abs keeps its dtype (nvFuser's unaryOp without a config); neg uses the
  // default config; the float-only ops are nvFuser's UNARY_FLOAT_OPs.
  if (kind == UnaryKind::Abs)
    return {/*promoteIntToFloat=*/false, /*castHalfToFloat=*/false};
  // ceil, floor, frac, relu, round, trunc (NVFUSER_DEFINE_UNARY_OP, no
  // config) and sign keep f16 and bf16 too: exact ops, whose result nvFuser
  // gives in the operand's dtype.
  switch (kind) {
  case UnaryKind::Ceil:
  case UnaryKind::Floor:
  case UnaryKind::Frac:
  case UnaryKind::Relu:
  case UnaryKind::Round:
  case UnaryKind::Trunc:
  case UnaryKind::Sign:
    return {/*promoteIntToFloat=*/false, /*castHalfToFloat=*/false};
  default:
    break;
  }
  return getClassPromotion(getOpInfo(kind).operands, getOpInfo(kind).result);
}

PromotionConfig mlir::fuser::getPromotionConfig(BinaryKind kind) {
  // add, sub, mul, div, maximum, minimum, pow: BINARY_CAST_OPs with the
  // default config (div of ints stays integral: that is nvFuser's `div`,
  // not `truediv`).
  return getClassPromotion(getOpInfo(kind).operands, getOpInfo(kind).result);
}

PromotionConfig mlir::fuser::getPromotionConfig(TernaryKind kind) {
  // lerp: the default config, with integers made floats (the dialect's
  // lerp takes floats). clamp and threshold keep their operand's dtype
  // (FusionBuilder::ternary casts their bounds to it).
  if (kind == TernaryKind::Lerp)
    return {/*promoteIntToFloat=*/true, /*castHalfToFloat=*/true};
  return {/*promoteIntToFloat=*/false, /*castHalfToFloat=*/false};
}

PromotionConfig mlir::fuser::getPromotionConfig(CompareKind kind) {
  return {/*promoteIntToFloat=*/false, /*castHalfToFloat=*/true};
}

//===----------------------------------------------------------------------===//
// FusionBuilder
//===----------------------------------------------------------------------===//

FusionBuilder::FusionBuilder(OpBuilder &builder, Location loc)
    : builder(builder), loc(loc) {}

InFlightDiagnostic FusionBuilder::typeError() {
  lastErrorKind = BuildErrorKind::Type;
  return emitError(loc);
}

InFlightDiagnostic FusionBuilder::valueError() {
  lastErrorKind = BuildErrorKind::Value;
  return emitError(loc);
}

template <typename OpTy, typename... Args>
FailureOr<SmallVector<Value>>
FusionBuilder::buildInferredResults(unsigned count, Args &&...args) {
  lastErrorKind = BuildErrorKind::Value;
  // Built with placeholder result types, which inference then replaces
  // (the inferring builders assert on operands they reject).
  auto op = OpTy::create(
      builder, loc, TypeRange(SmallVector<Type>(count, builder.getNoneType())),
      std::forward<Args>(args)...);
  SmallVector<Type> inferred;
  if (failed(OpTy::inferReturnTypes(
          getContext(), loc, op->getOperands(), op->getRawDictionaryAttrs(),
          op->getPropertiesStorage(), op->getRegions(), inferred))) {
    op->erase();
    return failure();
  }
  for (auto [result, type] : llvm::zip_equal(op->getResults(), inferred))
    result.setType(type);
  if (failed(verify(op))) {
    op->erase();
    return failure();
  }
  lastErrorKind = BuildErrorKind::None;
  return SmallVector<Value>(op->getResults());
}

template <typename OpTy, typename... Args>
FailureOr<Value> FusionBuilder::buildInferred(Args &&...args) {
  FailureOr<SmallVector<Value>> results =
      buildInferredResults<OpTy>(1, std::forward<Args>(args)...);
  if (failed(results))
    return failure();
  return results->front();
}

template <typename OpTy, typename... Args>
FailureOr<Value> FusionBuilder::buildVerified(Type resultType, Args &&...args) {
  auto op = OpTy::create(builder, loc, resultType, std::forward<Args>(args)...);
  if (failed(verify(op))) {
    lastErrorKind = BuildErrorKind::Value;
    op->erase();
    return failure();
  }
  lastErrorKind = BuildErrorKind::None;
  return op->getResult(0);
}

FailureOr<RankedTensorType> FusionBuilder::getTensorType(Value value,
                                                         StringRef what) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return typeError() << what << " must be a tensor, found "
                       << value.getType();
  return type;
}

FailureOr<SmallVector<int64_t>>
FusionBuilder::normalizeDims(ArrayRef<int64_t> dims, int64_t rank,
                             StringRef what, bool keepOrder) {
  SmallVector<int64_t> normalized;
  for (int64_t dim : dims) {
    if (dim < -rank || dim >= rank)
      return valueError() << what << " dim " << dim
                          << " is out of range for a tensor of rank " << rank;
    int64_t wrapped = dim < 0 ? dim + rank : dim;
    if (llvm::is_contained(normalized, wrapped))
      return valueError() << what << " dim " << dim << " is given twice";
    normalized.push_back(wrapped);
  }
  if (!keepOrder)
    llvm::sort(normalized);
  return normalized;
}

FailureOr<Value> FusionBuilder::constant(const ScalarLiteral &literal,
                                         Type type) {
  TypedAttr attr;
  if (auto complexType = dyn_cast<ComplexType>(type)) {
    // (literal, +0): fuser.complex of two constants of the part type.
    Type part = complexType.getElementType();
    FailureOr<Value> re = constant(literal, part);
    if (failed(re))
      return failure();
    Value im = arith::ConstantOp::create(builder, loc,
                                         builder.getFloatAttr(part, 0.0));
    return buildInferred<ComplexOp>(*re, im);
  }
  if (isa<FloatType>(type)) {
    // Rounded as fuser.cast rounds (the 8-bit floats saturate).
    attr = castScalarConstant(builder.getF64FloatAttr(literal.floatValue),
                              type);
  } else if (type.isInteger(1)) {
    attr = builder.getBoolAttr(literal.kind == ScalarLiteral::Kind::Float
                                   ? literal.floatValue != 0
                                   : literal.intValue != 0);
  } else if (auto intType = dyn_cast<IntegerType>(type)) {
    bool isFloat = literal.kind == ScalarLiteral::Kind::Float;
    if (isFloat && literal.floatValue != std::trunc(literal.floatValue))
      return typeError() << "literal " << literal.floatValue
                         << " is not an integer but is used as " << type;
    // Converting a double outside int64 (or infinite) is undefined.
    if (isFloat &&
        !(literal.floatValue >= -0x1p63 && literal.floatValue < 0x1p63))
      return valueError() << "literal " << literal.floatValue
                          << " does not fit " << type;
    int64_t value =
        isFloat ? static_cast<int64_t>(literal.floatValue) : literal.intValue;
    if (!llvm::isIntN(intType.getWidth(), value))
      return valueError() << "literal " << value << " does not fit " << type;
    attr = builder.getIntegerAttr(intType, value);
  } else {
    return typeError() << "a scalar cannot have type " << type;
  }
  lastErrorKind = BuildErrorKind::None;
  return arith::ConstantOp::create(builder, loc, attr).getResult();
}

FailureOr<Value> FusionBuilder::cast(Value value, Type elementType) {
  if (failed(getElementByteWidth(elementType)))
    return typeError() << "cannot cast to " << elementType
                       << ": fusions hold i1, i32, i64, f16, bf16, f32, f64, "
                          "complex<f32>, complex<f64>, f8E4M3FN and f8E5M2";
  if (getElementTypeOrSelf(value.getType()) == elementType) {
    // nvFuser's castOp to the same dtype is a set.
    if (isa<RankedTensorType>(value.getType()))
      return set(value);
    return value;
  }
  Type resultType = elementType;
  if (auto tensorType = dyn_cast<RankedTensorType>(value.getType()))
    resultType = tensorType.clone(elementType);
  return buildVerified<CastOp>(resultType, value);
}

FailureOr<Value> FusionBuilder::materialize(const Operand &operand,
                                            Type elementType) {
  if (operand.isLiteral())
    return constant(operand.getLiteral(), elementType);
  Value value = operand.getValue();
  if (getElementTypeOrSelf(value.getType()) == elementType)
    return value;
  Type resultType = elementType;
  if (auto tensorType = dyn_cast<RankedTensorType>(value.getType()))
    resultType = tensorType.clone(elementType);
  return buildVerified<CastOp>(resultType, value);
}

FailureOr<SmallVector<Value>>
FusionBuilder::broadcastToCommonRank(ArrayRef<Value> values) {
  int64_t rank = 0;
  for (Value value : values)
    if (auto type = dyn_cast<RankedTensorType>(value.getType()))
      rank = std::max(rank, type.getRank());
  SmallVector<Value> result;
  for (Value value : values) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || type.getRank() == rank) {
      result.push_back(value);
      continue;
    }
    SmallVector<bool> isBroadcastDim(rank, false);
    for (int64_t i = 0; i < rank - type.getRank(); ++i)
      isBroadcastDim[i] = true;
    FailureOr<Value> broadcasted = broadcast(value, isBroadcastDim);
    if (failed(broadcasted))
      return failure();
    result.push_back(*broadcasted);
  }
  return result;
}

FailureOr<SmallVector<Value>> FusionBuilder::promote(ArrayRef<Operand> operands,
                                                     Type elementType) {
  SmallVector<Value> values;
  for (const Operand &operand : operands) {
    FailureOr<Value> value = materialize(operand, elementType);
    if (failed(value))
      return failure();
    values.push_back(*value);
  }
  return broadcastToCommonRank(values);
}

FailureOr<Value> FusionBuilder::unary(UnaryKind kind, const Operand &operand,
                                      std::optional<PromotionConfig> config) {
  Type common = getArithmeticType(computeCommonType(
      operand, config.value_or(getPromotionConfig(kind)), getContext()));
  if (!isInOperandClass(common, getOpInfo(kind).operands))
    return typeError() << "'" << getOpInfo(kind).mnemonic << "' needs "
                       << describeOperands(getOpInfo(kind).operands, 1)
                       << ", found " << typeText(common);
  FailureOr<Value> value = materialize(operand, common);
  if (failed(value))
    return failure();
  return visitOpClass(kind, [&](auto tag) {
    using OpTy = typename decltype(tag)::type;
    return buildInferred<OpTy>(*value);
  });
}

/// Two tensor operands whose dims, aligned at the innermost one (as the
/// leading size-1 dims of broadcastToCommonRank make them), are neither equal
/// nor 1; checked before anything is built so that a failed call leaves no
/// casts behind.
static std::optional<std::pair<RankedTensorType, RankedTensorType>>
findIncompatibleShapes(ArrayRef<Operand> operands) {
  RankedTensorType first;
  for (const Operand &operand : operands) {
    if (!operand.isTensor())
      continue;
    auto type = cast<RankedTensorType>(operand.getValue().getType());
    if (!first) {
      first = type;
      continue;
    }
    ArrayRef<int64_t> a = first.getShape(), b = type.getShape();
    size_t common = std::min(a.size(), b.size());
    for (auto [x, y] : llvm::zip(a.take_back(common), b.take_back(common)))
      if (x != y && x != 1 && y != 1)
        return std::make_pair(first, type);
  }
  return std::nullopt;
}

template <typename KindT>
FailureOr<Value> FusionBuilder::buildBinaryLike(KindT kind, const Operand &lhs,
                                                const Operand &rhs,
                                                PromotionConfig config) {
  StringRef name = getOpInfo(kind).mnemonic;
  Type common =
      getArithmeticType(computeCommonType({lhs, rhs}, config, getContext()));
  if constexpr (std::is_same_v<KindT, BinaryKind>)
    if (!isInOperandClass(common, getOpInfo(kind).operands))
      return typeError() << "'" << name << "' needs "
                         << describeOperands(getOpInfo(kind).operands, 2)
                         << ", found " << typeText(common);
  if constexpr (std::is_same_v<KindT, CompareKind>)
    if (isa<ComplexType>(common) && !comparesComplex(kind))
      return typeError() << "'" << name << "' needs "
                         << describeOperands(OperandClass::Real, 2)
                         << " (complex elements have no order), found "
                         << typeText(common);
  if (auto shapes = findIncompatibleShapes({lhs, rhs}))
    return valueError() << "operands of '" << name
                        << "' have incompatible shapes " << shapes->first
                        << " and " << shapes->second;
  FailureOr<SmallVector<Value>> values = promote({lhs, rhs}, common);
  if (failed(values))
    return failure();
  return visitOpClass(kind, [&](auto tag) {
    using OpTy = typename decltype(tag)::type;
    return buildInferred<OpTy>((*values)[0], (*values)[1]);
  });
}

FailureOr<Value> FusionBuilder::binary(BinaryKind kind, const Operand &lhs,
                                       const Operand &rhs,
                                       std::optional<PromotionConfig> config) {
  return buildBinaryLike(kind, lhs, rhs,
                         config.value_or(getPromotionConfig(kind)));
}

FailureOr<Value> FusionBuilder::compare(CompareKind kind, const Operand &lhs,
                                        const Operand &rhs,
                                        std::optional<PromotionConfig> config) {
  return buildBinaryLike(kind, lhs, rhs,
                         config.value_or(getPromotionConfig(kind)));
}

FailureOr<Value> FusionBuilder::ternary(TernaryKind kind,
                                        const Operand &first,
                                        const Operand &second,
                                        const Operand &third,
                                        std::optional<PromotionConfig> config) {
  StringRef name = getOpInfo(kind).mnemonic;
  Type common;
  if (kind == TernaryKind::Lerp) {
    common = computeCommonType({first, second, third},
                               config.value_or(getPromotionConfig(kind)),
                               getContext());
  } else {
    // clamp and threshold: scalar bounds, cast to the operand's dtype.
    if (second.isTensor() || third.isTensor())
      return typeError() << "the bounds of '" << name
                         << "' must be scalars, not tensors";
    common = first.getDType(getContext());
  }
  common = getArithmeticType(common);
  if (!isInOperandClass(common, getOpInfo(kind).operands))
    return typeError() << "'" << name << "' needs "
                       << describeOperands(getOpInfo(kind).operands, 3)
                       << ", found " << typeText(common);
  if (auto shapes = findIncompatibleShapes({first, second, third}))
    return valueError() << "operands of '" << name
                        << "' have incompatible shapes " << shapes->first
                        << " and " << shapes->second;
  FailureOr<SmallVector<Value>> values =
      promote({first, second, third}, common);
  if (failed(values))
    return failure();
  return visitOpClass(kind, [&](auto tag) {
    using OpTy = typename decltype(tag)::type;
    return buildInferred<OpTy>((*values)[0], (*values)[1], (*values)[2]);
  });
}

FailureOr<Value> FusionBuilder::where(const Operand &condition,
                                      const Operand &lhs, const Operand &rhs) {
  Type conditionType = condition.getDType(getContext());
  if (!conditionType.isInteger(1))
    return typeError() << "the condition of 'where' must be bool (i1), found "
                       << conditionType;
  Type common = computeCommonType(
      {lhs, rhs}, {/*promoteIntToFloat=*/false, /*castHalfToFloat=*/false},
      getContext());
  if (auto shapes = findIncompatibleShapes({condition, lhs, rhs}))
    return valueError() << "operands of 'where' have incompatible shapes "
                        << shapes->first << " and " << shapes->second;
  FailureOr<Value> conditionValue = materialize(condition, conditionType);
  if (failed(conditionValue))
    return failure();
  SmallVector<Value> values = {*conditionValue};
  for (const Operand *operand : {&lhs, &rhs}) {
    FailureOr<Value> value = materialize(*operand, common);
    if (failed(value))
      return failure();
    values.push_back(*value);
  }
  FailureOr<SmallVector<Value>> broadcasted = broadcastToCommonRank(values);
  if (failed(broadcasted))
    return failure();
  return buildInferred<WhereOp>((*broadcasted)[0], (*broadcasted)[1],
                                (*broadcasted)[2]);
}

FailureOr<Value> FusionBuilder::complex(const Operand &re, const Operand &im) {
  Type reType = re.getDType(getContext()), imType = im.getDType(getContext());
  // nvFuser's complex(): both parts of one dtype (a literal takes the other
  // part's).
  if (!re.isLiteral() && !im.isLiteral() && reType != imType)
    return typeError() << "'complex' needs real and imaginary parts of one "
                          "dtype, found "
                       << typeText(reType) << " and " << typeText(imType);
  Type part = re.isLiteral() ? imType : reType;
  if (!part.isF32() && !part.isF64())
    return typeError() << "'complex' needs f32 or f64 parts, found "
                       << typeText(part);
  if (auto shapes = findIncompatibleShapes({re, im}))
    return valueError() << "operands of 'complex' have incompatible shapes "
                        << shapes->first << " and " << shapes->second;
  FailureOr<SmallVector<Value>> values = promote({re, im}, part);
  if (failed(values))
    return failure();
  return buildInferred<ComplexOp>((*values)[0], (*values)[1]);
}

FailureOr<Value> FusionBuilder::real(Value value) {
  // nvFuser's real() of a real value is a set of it.
  if (!isa<ComplexType>(getElementTypeOrSelf(value.getType())))
    return isa<RankedTensorType>(value.getType()) ? set(value)
                                                  : FailureOr<Value>(value);
  return buildInferred<RealOp>(value);
}

FailureOr<Value> FusionBuilder::imag(Value value) {
  if (!isa<ComplexType>(getElementTypeOrSelf(value.getType())))
    return typeError() << "'imag' needs a complex operand, found "
                       << typeText(getElementTypeOrSelf(value.getType()));
  return buildInferred<ImagOp>(value);
}

FailureOr<Value> FusionBuilder::full(ArrayRef<int64_t> shape,
                                     const Operand &fill, Type elementType) {
  if (llvm::any_of(shape, [](int64_t extent) { return extent < 0; }))
    return valueError() << "'full' needs non-negative extents";
  if (fill.isTensor())
    return typeError() << "the fill value of 'full' must be a scalar";
  FailureOr<Value> value = materialize(fill, elementType);
  if (failed(value))
    return failure();
  return buildVerified<FullOp>(RankedTensorType::get(shape, elementType),
                               *value);
}

FailureOr<Value> FusionBuilder::iota(int64_t length,
                                     std::optional<Operand> start,
                                     std::optional<Operand> step,
                                     Type elementType) {
  if (length < 0)
    return valueError() << "'iota' needs a non-negative length, got "
                        << length;
  if (!elementType.isInteger(32) && !elementType.isInteger(64) &&
      !isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(elementType))
    return typeError() << "'iota' takes an integer or floating dtype, got "
                       << typeText(elementType);
  bool isFloat = isa<FloatType>(elementType);
  SmallVector<Value, 2> scalars;
  for (auto [operand, name, fallback] :
       {std::tuple(start, "start", int64_t(0)),
        std::tuple(step, "step", int64_t(1))}) {
    if (!operand) {
      FailureOr<Value> value =
          constant(isFloat ? ScalarLiteral::getFloat(double(fallback))
                           : ScalarLiteral::getInt(fallback),
                   elementType);
      if (failed(value))
        return failure();
      scalars.push_back(*value);
      continue;
    }
    if (operand->isTensor())
      return typeError() << "the " << name << " of 'iota' must be a scalar";
    Type type = operand->getDType(getContext());
    bool operandIsFloat = isa<FloatType>(type);
    bool operandIsInteger = type.isInteger(32) || type.isInteger(64);
    if (operandIsFloat != isFloat || (!isFloat && !operandIsInteger))
      return typeError() << "iota: " << name
                         << " dtype does not match specified dtype argument, "
                            "should be "
                         << typeText(elementType) << " but get "
                         << typeText(type);
    FailureOr<Value> value = materialize(*operand, elementType);
    if (failed(value))
      return failure();
    scalars.push_back(*value);
  }
  return buildVerified<IotaOp>(RankedTensorType::get({length}, elementType),
                               scalars[0], scalars[1]);
}

FailureOr<Value> FusionBuilder::random(bool normal, ArrayRef<int64_t> shape,
                                       const Operand &first,
                                       const Operand &second,
                                       const Operand &seed,
                                       const Operand &offset,
                                       Type elementType) {
  StringRef name = normal ? "normal" : "uniform";
  if (llvm::any_of(shape, [](int64_t extent) { return extent < 0; }))
    return valueError() << "'" << name << "' needs non-negative extents";
  if (!isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(elementType))
    return typeError() << "'" << name
                       << "' takes a floating dtype, got "
                       << typeText(elementType);
  for (const Operand *operand : {&first, &second, &seed, &offset})
    if (operand->isTensor())
      return typeError() << "the parameters, seed and offset of '" << name
                         << "' are scalars";
  for (const Operand *operand : {&seed, &offset}) {
    Type type = operand->getDType(getContext());
    if (!type.isInteger(32) && !type.isInteger(64))
      return typeError() << "the rng_seed and rng_offset of '" << name
                         << "' are integers, got " << typeText(type);
  }
  Type parameterType = elementType.isF64() ? elementType
                                           : Float32Type::get(getContext());
  Type i64 = IntegerType::get(getContext(), 64);
  FailureOr<Value> a = materialize(first, parameterType);
  FailureOr<Value> b = materialize(second, parameterType);
  FailureOr<Value> s = materialize(seed, i64);
  FailureOr<Value> o = materialize(offset, i64);
  if (failed(a) || failed(b) || failed(s) || failed(o))
    return failure();
  auto type = RankedTensorType::get(shape, elementType);
  if (normal)
    return buildVerified<NormalOp>(type, *a, *b, *s, *o);
  return buildVerified<UniformOp>(type, *a, *b, *s, *o);
}

FailureOr<Value> FusionBuilder::gather(Value source, Value index,
                                       int64_t dim) {
  auto sourceType = dyn_cast<RankedTensorType>(source.getType());
  auto indexType = dyn_cast<RankedTensorType>(index.getType());
  if (!sourceType || !indexType)
    return typeError() << "'gather' takes tensors";
  int64_t rank = sourceType.getRank();
  if (indexType.getRank() != rank)
    return valueError() << "Tensor arguments have different dimensions "
                        << rank << " and " << indexType.getRank();
  FailureOr<int64_t> normalized =
      checkIndexing("gather", rank, dim, indexType.getElementType());
  if (failed(normalized))
    return failure();
  return buildVerified<GatherOp>(indexType.clone(sourceType.getElementType()),
                                 source, index, *normalized);
}

FailureOr<int64_t> FusionBuilder::checkIndexing(StringRef name, int64_t rank,
                                                int64_t dim,
                                                Type indexElement) {
  if (dim < -rank || dim >= rank)
    return valueError() << "Tensor arguments have dimension " << rank
                        << " so dim argument must satisfy " << -rank
                        << " <= dim < " << rank << ", but received " << dim;
  if (!indexElement.isInteger(32) && !indexElement.isInteger(64))
    return typeError() << "the index of '" << name
                       << "' must be an integer tensor, got "
                       << typeText(indexElement);
  return dim < 0 ? dim + rank : dim;
}

FailureOr<Value> FusionBuilder::scatter(Value self, Value index,
                                        const Operand &src, int64_t dim,
                                        std::optional<ReductionKind> reduce) {
  auto selfType = dyn_cast<RankedTensorType>(self.getType());
  auto indexType = dyn_cast<RankedTensorType>(index.getType());
  if (!selfType || !indexType)
    return typeError() << "'scatter' writes into a tensor at a tensor of "
                          "indices";
  int64_t rank = selfType.getRank();
  auto srcType =
      src.isTensor() ? llvm::cast<RankedTensorType>(src.getValue().getType())
                     : RankedTensorType();
  int64_t srcRank = srcType ? srcType.getRank() : indexType.getRank();
  if (indexType.getRank() != rank || srcRank != rank)
    return valueError() << "Tensor arguments have different dimensions "
                        << rank << ", " << indexType.getRank() << " and "
                        << srcRank;
  FailureOr<int64_t> normalized =
      checkIndexing("scatter", rank, dim, indexType.getElementType());
  if (failed(normalized))
    return failure();
  dim = *normalized;
  for (int64_t d = 0; d < rank; ++d) {
    if (srcType && indexType.getDimSize(d) > srcType.getDimSize(d))
      return valueError() << "the index of 'scatter' has extent "
                          << indexType.getDimSize(d) << " in dim " << d
                          << ", more than src's " << srcType.getDimSize(d);
    if (d != dim && indexType.getDimSize(d) > selfType.getDimSize(d))
      return valueError() << "the index of 'scatter' has extent "
                          << indexType.getDimSize(d) << " in dim " << d
                          << ", more than the tensor's "
                          << selfType.getDimSize(d);
  }
  Type element = selfType.getElementType();
  FailureOr<Value> values =
      !srcType ? full(indexType.getShape(), src, element)
      : srcType.getElementType() == element ? src.getValue()
                                            : cast(src.getValue(), element);
  if (failed(values))
    return failure();
  return buildVerified<ScatterOp>(
      selfType, self, index, *values, dim,
      reduce ? ReductionKindAttr::get(builder.getContext(), *reduce)
             : ReductionKindAttr());
}

LogicalResult FusionBuilder::checkLibraryOperands(StringRef name,
                                                  ValueRange operands) {
  for (Value operand : operands) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    Type element = type ? type.getElementType() : Type();
    if (!isa_and_present<Float16Type, BFloat16Type, Float32Type, Float64Type>(
            element))
      return typeError() << "'" << name
                         << "' takes f16, bf16, f32 or f64 tensors, got "
                         << typeText(operand.getType());
  }
  return success();
}

FailureOr<Value> FusionBuilder::matmul(Value lhs, Value rhs) {
  if (failed(checkLibraryOperands("matmul", {lhs, rhs})))
    return failure();
  return buildInferred<MatmulOp>(lhs, rhs);
}

FailureOr<Value> FusionBuilder::linear(Value input, Value weight, Value bias) {
  SmallVector<Value, 3> operands = {input, weight};
  if (bias)
    operands.push_back(bias);
  if (failed(checkLibraryOperands("linear", operands)))
    return failure();
  return buildInferred<LinearOp>(input, weight, bias);
}

FailureOr<Value> FusionBuilder::groupedMm(Value mat1, Value mat2,
                                          Value offsets) {
  for (Value operand : {mat1, mat2}) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type ||
        !isa<Float16Type, BFloat16Type, Float32Type>(type.getElementType()))
      return typeError() << "'grouped_mm' takes f16, bf16 or f32 tensors "
                            "(torch._grouped_mm's dtypes), got "
                         << typeText(operand.getType());
  }
  auto offsetsType = dyn_cast<RankedTensorType>(offsets.getType());
  if (!offsetsType || !offsetsType.getElementType().isInteger(32))
    return typeError() << "'grouped_mm' takes Int32 offsets (torch's int32), "
                          "got "
                       << typeText(offsets.getType());
  return buildInferred<GroupedMmOp>(mat1, mat2, offsets);
}

FailureOr<SmallVector<Value>>
FusionBuilder::sdpfaFwd(Value query, Value key, Value value, Value bias,
                        Value mask, double dropoutP, bool isCausal,
                        std::optional<double> scale, Value seed,
                        Value offset) {
  if (failed(checkLibraryOperands("sdpfa_fwd", {query, key, value})))
    return failure();
  if (mask) {
    auto maskType = dyn_cast<RankedTensorType>(mask.getType());
    if (!maskType || !maskType.getElementType().isInteger(1))
      return typeError() << "'sdpfa_fwd' takes a Bool mask, got "
                         << typeText(mask.getType());
  }
  return buildInferredResults<SdpfaFwdOp>(
      4, query, key, value, bias, mask, seed, offset,
      builder.getF64FloatAttr(dropoutP),
      isCausal ? builder.getUnitAttr() : UnitAttr(),
      scale ? builder.getF64FloatAttr(*scale) : FloatAttr());
}

FailureOr<SmallVector<Value>>
FusionBuilder::sdpfaBwd(Value gradOutput, Value query, Value key, Value value,
                        Value output, Value logsumexp, double dropoutP,
                        bool isCausal, Value philoxSeed, Value philoxOffset,
                        std::optional<double> scale) {
  if (failed(checkLibraryOperands(
          "sdpfa_bwd", {gradOutput, query, key, value, output, logsumexp})))
    return failure();
  return buildInferredResults<SdpfaBwdOp>(
      3, gradOutput, query, key, value, output, logsumexp, philoxSeed,
      philoxOffset, builder.getF64FloatAttr(dropoutP),
      isCausal ? builder.getUnitAttr() : UnitAttr(),
      scale ? builder.getF64FloatAttr(*scale) : FloatAttr());
}

FailureOr<Value> FusionBuilder::triu(Value source, int64_t diagonal) {
  auto type = dyn_cast<RankedTensorType>(source.getType());
  if (!type)
    return typeError() << "'triu' takes a tensor";
  int64_t rank = type.getRank();
  if (rank < 2)
    return valueError() << "input tensor for triu must have 2 or more dims, "
                           "but got "
                        << rank << " dims";
  Type index = IntegerType::get(getContext(), 64);
  FailureOr<Value> rows = iota(type.getDimSize(rank - 2),
                               Operand(ScalarLiteral::getInt(0)),
                               Operand(ScalarLiteral::getInt(1)), index);
  FailureOr<Value> columns = iota(type.getDimSize(rank - 1),
                                  Operand(ScalarLiteral::getInt(-diagonal)),
                                  Operand(ScalarLiteral::getInt(1)), index);
  if (failed(rows) || failed(columns))
    return failure();
  FailureOr<Value> rowsBroadcast = broadcast(*rows, {false, true});
  FailureOr<Value> columnsBroadcast = broadcast(*columns, {true, false});
  if (failed(rowsBroadcast) || failed(columnsBroadcast))
    return failure();
  FailureOr<Value> mask =
      compare(CompareKind::Le, *rowsBroadcast, *columnsBroadcast);
  if (failed(mask))
    return failure();
  Type element = type.getElementType();
  ScalarLiteral zero = isa<FloatType, ComplexType>(element)
                           ? ScalarLiteral::getFloat(0, element)
                       : element.isInteger(1) ? ScalarLiteral::getBool(false)
                                              : ScalarLiteral::getInt(0, element);
  FailureOr<Value> zeroValue = constant(zero, element);
  if (failed(zeroValue))
    return failure();
  return where(*mask, source, *zeroValue);
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

FailureOr<Value> FusionBuilder::reshape(Value source,
                                        ArrayRef<int64_t> newShape) {
  FailureOr<RankedTensorType> type = getTensorType(source, "'reshape' operand");
  if (failed(type))
    return failure();
  int64_t known = 1;
  std::optional<size_t> inferred;
  for (auto [i, extent] : llvm::enumerate(newShape)) {
    if (extent == -1 && !inferred) {
      inferred = i;
      continue;
    }
    if (extent < 0)
      return valueError() << "'reshape' extent " << extent
                          << " is invalid (one -1 may be inferred)";
    known *= extent;
  }
  int64_t count = type->getNumElements();
  SmallVector<int64_t> shape(newShape);
  if (inferred) {
    if (known == 0 || count % known != 0)
      return valueError() << "'reshape' cannot infer the -1 extent: " << count
                          << " elements do not divide by " << known;
    shape[*inferred] = count / known;
    known = count;
  }
  if (known != count)
    return valueError() << "'reshape' of " << *type << " (" << count
                        << " elements) to [" << newShape << "] (" << known
                        << " elements)";
  return buildVerified<ViewOp>(type->clone(shape), source);
}

FailureOr<Value> FusionBuilder::squeeze(Value source, ArrayRef<int64_t> dims) {
  FailureOr<RankedTensorType> type = getTensorType(source, "'squeeze' operand");
  if (failed(type))
    return failure();
  FailureOr<SmallVector<int64_t>> normalized =
      normalizeDims(dims, type->getRank(), "'squeeze'");
  if (failed(normalized))
    return failure();
  for (int64_t dim : *normalized)
    if (type->getDimSize(dim) != 1)
      return valueError() << "'squeeze' dim " << dim << " of " << *type
                          << " has extent " << type->getDimSize(dim)
                          << ", not 1";
  return buildInferred<SqueezeOp>(source, *normalized);
}

FailureOr<Value> FusionBuilder::broadcast(Value source,
                                          ArrayRef<bool> isBroadcastDim) {
  FailureOr<RankedTensorType> type =
      getTensorType(source, "'broadcast' operand");
  if (failed(type))
    return failure();
  SmallVector<int64_t> dims;
  for (auto [i, isBroadcast] : llvm::enumerate(isBroadcastDim))
    if (isBroadcast)
      dims.push_back(i);
  int64_t kept = isBroadcastDim.size() - dims.size();
  if (kept != type->getRank())
    return valueError() << "'broadcast' of " << *type << " needs "
                        << type->getRank()
                        << " false entries in is_broadcast_dim, found " << kept;
  if (dims.empty())
    return source;
  return buildInferred<BroadcastOp>(source, dims);
}

FailureOr<Value> FusionBuilder::expand(Value source, ArrayRef<int64_t> shape) {
  FailureOr<RankedTensorType> type = getTensorType(source, "'expand' operand");
  if (failed(type))
    return failure();
  if (static_cast<int64_t>(shape.size()) != type->getRank())
    return valueError() << "'expand' of " << *type << " needs "
                        << type->getRank() << " extents, found "
                        << shape.size();
  SmallVector<int64_t> resultShape(type->getShape());
  bool grows = false;
  for (auto [i, extent] : llvm::enumerate(shape)) {
    int64_t from = type->getDimSize(i);
    if (extent == -1 || extent == from)
      continue;
    if (from != 1 || extent < 0)
      return valueError() << "'expand' cannot change dim " << i << " of "
                          << *type << " from " << from << " to " << extent
                          << " (only size-1 dims expand)";
    resultShape[i] = extent;
    grows = true;
  }
  if (!grows)
    return set(source);
  return buildVerified<ExpandOp>(type->clone(resultShape), source);
}

FailureOr<Value>
FusionBuilder::broadcastInDim(Value source, ArrayRef<int64_t> shape,
                              ArrayRef<int64_t> broadcastDims) {
  FailureOr<RankedTensorType> type =
      getTensorType(source, "'broadcast_in_dim' operand");
  if (failed(type))
    return failure();
  int64_t rank = shape.size();
  if (static_cast<int64_t>(broadcastDims.size()) != type->getRank())
    return valueError() << "'broadcast_in_dim' of " << *type << " needs "
                        << type->getRank() << " broadcast_dims, found "
                        << broadcastDims.size();
  SmallVector<bool> isBroadcastDim(rank, true);
  // A negative entry counts from the end, as nvFuser's wrapDim takes it.
  SmallVector<int64_t> dims;
  for (int64_t dim : broadcastDims) {
    if (dim < -rank || dim >= rank)
      return valueError() << "'broadcast_in_dim' broadcast_dims entry " << dim
                          << " is out of range for an output of rank " << rank;
    dims.push_back(dim < 0 ? dim + rank : dim);
  }
  for (auto [i, dim] : llvm::enumerate(dims)) {
    if (i > 0 && dims[i - 1] >= dim)
      return valueError()
             << "'broadcast_in_dim' broadcast_dims must be increasing";
    int64_t from = type->getDimSize(i);
    if (from != 1 && from != shape[dim])
      return valueError() << "'broadcast_in_dim' cannot map dim " << i << " of "
                          << *type << " (extent " << from << ") to output dim "
                          << dim << " of extent " << shape[dim];
    isBroadcastDim[dim] = false;
  }
  FailureOr<Value> broadcasted = broadcast(source, isBroadcastDim);
  if (failed(broadcasted))
    return failure();
  return expand(*broadcasted, shape);
}

FailureOr<Value> FusionBuilder::permute(Value source, ArrayRef<int64_t> dims) {
  FailureOr<RankedTensorType> type = getTensorType(source, "'permute' operand");
  if (failed(type))
    return failure();
  if (static_cast<int64_t>(dims.size()) != type->getRank())
    return valueError() << "'permute' of " << *type << " needs "
                        << type->getRank() << " dims, found " << dims.size();
  FailureOr<SmallVector<int64_t>> normalized =
      normalizeDims(dims, type->getRank(), "'permute'", /*keepOrder=*/true);
  if (failed(normalized))
    return failure();
  return buildInferred<PermuteOp>(source, *normalized);
}

FailureOr<Value> FusionBuilder::set(Value source,
                                    std::optional<CacheOp> cacheOp) {
  FailureOr<RankedTensorType> type = getTensorType(source, "'set' operand");
  if (failed(type))
    return failure();
  CacheOpAttr hint =
      cacheOp ? CacheOpAttr::get(getContext(), *cacheOp) : CacheOpAttr();
  return buildVerified<SetOp>(*type, source, hint);
}

FailureOr<Value> FusionBuilder::segmentSet(Value source) {
  FailureOr<RankedTensorType> type =
      getTensorType(source, "'segment_set' operand");
  if (failed(type))
    return failure();
  return buildVerified<SegmentSetOp>(*type, source);
}

FailureOr<Value> FusionBuilder::slice(Value source, ArrayRef<int64_t> starts,
                                      ArrayRef<int64_t> ends,
                                      ArrayRef<int64_t> strides) {
  FailureOr<RankedTensorType> type = getTensorType(source, "'slice' operand");
  if (failed(type))
    return failure();
  int64_t rank = type->getRank();
  if (static_cast<int64_t>(starts.size()) != rank ||
      static_cast<int64_t>(ends.size()) != rank ||
      (!strides.empty() && static_cast<int64_t>(strides.size()) != rank))
    return valueError() << "'slice' of " << *type << " needs " << rank
                        << " start, end and stride entries, found "
                        << starts.size() << ", " << ends.size() << " and "
                        << strides.size();
  SmallVector<int64_t> lows, limits, steps;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t extent = type->getDimSize(d);
    auto normalize = [&](int64_t index) {
      if (index < 0)
        index += extent;
      return std::clamp<int64_t>(index, 0, extent);
    };
    int64_t step = strides.empty() ? 1 : strides[d];
    if (step < 1)
      return valueError() << "'slice' stride " << step << " of dim " << d
                          << " must be positive";
    int64_t start = normalize(starts[d]);
    lows.push_back(start);
    limits.push_back(std::max(start, normalize(ends[d])));
    steps.push_back(step);
  }
  return buildInferred<SliceOp>(source, lows, limits, steps);
}

FailureOr<Value> FusionBuilder::pad(Value source, ArrayRef<int64_t> widths,
                                    std::optional<Operand> value) {
  FailureOr<RankedTensorType> type = getTensorType(source, "'pad' operand");
  if (failed(type))
    return failure();
  int64_t rank = type->getRank();
  if (widths.size() % 2 != 0 || static_cast<int64_t>(widths.size()) > 2 * rank)
    return valueError() << "'pad' widths of " << *type
                        << " are (low, high) pairs for at most " << rank
                        << " dims, found " << widths.size() << " values";
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  for (size_t pair = 0; pair < widths.size() / 2; ++pair) {
    int64_t dim = rank - 1 - pair;
    low[dim] = widths[2 * pair];
    high[dim] = widths[2 * pair + 1];
    if (low[dim] < 0 || high[dim] < 0)
      return valueError() << "'pad' widths must be non-negative";
  }
  Type elementType = type->getElementType();
  if (value && value->isTensor())
    return typeError() << "the pad value must be a scalar";
  FailureOr<Value> padValue = materialize(
      value ? *value : Operand(ScalarLiteral::getInt(0)), elementType);
  if (failed(padValue))
    return failure();
  return buildInferred<PadOp>(source, low, high, *padValue);
}

FailureOr<Value> FusionBuilder::cat(ValueRange inputs, int64_t dim) {
  if (inputs.empty())
    return valueError() << "'cat' needs at least one tensor";
  SmallVector<RankedTensorType> types;
  for (Value input : inputs) {
    FailureOr<RankedTensorType> type = getTensorType(input, "'cat' operand");
    if (failed(type))
      return failure();
    if (!types.empty() && type->getElementType() != types[0].getElementType())
      return typeError() << "'cat' operands have different dtypes: " << types[0]
                         << " and " << *type;
    if (!types.empty() && type->getRank() != types[0].getRank())
      return valueError() << "'cat' operands have different ranks: " << types[0]
                          << " and " << *type;
    types.push_back(*type);
  }
  FailureOr<SmallVector<int64_t>> normalized =
      normalizeDims(dim, types[0].getRank(), "'cat'");
  if (failed(normalized))
    return failure();
  for (RankedTensorType type : types)
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != normalized->front() &&
          type.getDimSize(d) != types[0].getDimSize(d))
        return valueError() << "'cat' operands " << types[0] << " and " << type
                            << " differ in dim " << d;
  return buildInferred<CatOp>(inputs,
                              static_cast<uint64_t>(normalized->front()));
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

FailureOr<Value> FusionBuilder::reduction(ReductionKind kind, Value source,
                                          ArrayRef<int64_t> dims, bool keepdim,
                                          Type dtype) {
  StringRef name = stringifyReductionKind(kind);
  FailureOr<RankedTensorType> type =
      getTensorType(source, "the reduction operand");
  if (failed(type))
    return failure();
  bool accumulates = kind == ReductionKind::Add || kind == ReductionKind::Mul;
  if (dtype && !accumulates)
    return typeError() << "a " << name
                       << " reduction takes no dtype (nvFuser's max and min "
                          "support only DataType.Null)";
  // sum and prod of integers and bools accumulate in int64; the 8-bit floats
  // reduce in f32.
  if (!dtype && accumulates && isa<IntegerType>(type->getElementType()))
    dtype = builder.getI64Type();
  if (!dtype && isFloat8Type(type->getElementType()))
    dtype = builder.getF32Type();
  Type reduced = dtype ? dtype : type->getElementType();
  if (isa<ComplexType>(reduced) && kind != ReductionKind::Add)
    return typeError() << "a " << name << " reduction of " << typeText(reduced)
                       << ": complex elements reduce with sum only";
  if (dims.empty())
    return valueError() << "a reduction needs at least one dim";
  FailureOr<SmallVector<int64_t>> normalized =
      normalizeDims(dims, type->getRank(), "reduction");
  if (failed(normalized))
    return failure();
  if (dtype && dtype != type->getElementType()) {
    FailureOr<Value> cast = this->cast(source, dtype);
    if (failed(cast))
      return failure();
    source = *cast;
  }
  if (getElementTypeOrSelf(source.getType()).isInteger(1))
    return typeError() << "a " << name << " reduction needs a numeric tensor, "
                       << "found " << source.getType();
  return buildInferred<ReductionOp>(kind, source, *normalized, keepdim);
}

FailureOr<Value> FusionBuilder::argsort(Value source, int64_t dim,
                                        bool descending) {
  FailureOr<RankedTensorType> type =
      getTensorType(source, "the argsort operand");
  if (failed(type))
    return failure();
  auto indexType = type->clone(builder.getI64Type());
  // torch sorts a 0-D tensor along dim 0 or -1: its one element is first.
  if (type->getRank() == 0) {
    if (dim != 0 && dim != -1)
      return valueError() << "the argsort dim " << dim
                          << " is out of range for a tensor of rank 0";
    FailureOr<Value> zero =
        constant(ScalarLiteral::getInt(0), builder.getI64Type());
    if (failed(zero))
      return failure();
    return buildVerified<FullOp>(indexType, *zero);
  }
  FailureOr<SmallVector<int64_t>> normalized =
      normalizeDims({dim}, type->getRank(), "the argsort");
  if (failed(normalized))
    return failure();
  Type element = type->getElementType();
  if (!isa<IntegerType, FloatType>(element) || element.isInteger(1) ||
      isFloat8Type(element))
    return typeError() << "argsort sorts integers and floats, not "
                       << typeText(element);
  return buildVerified<ArgsortOp>(indexType, source, normalized->front(),
                                  descending);
}

FailureOr<Value> FusionBuilder::scan(ReductionKind kind, Value source,
                                     int64_t dim) {
  FailureOr<RankedTensorType> type = getTensorType(source, "the scan operand");
  if (failed(type))
    return failure();
  FailureOr<SmallVector<int64_t>> normalized =
      normalizeDims({dim}, type->getRank(), "the scan");
  if (failed(normalized))
    return failure();
  Type element = type->getElementType();
  if (isa<ComplexType>(element) && kind != ReductionKind::Add)
    return typeError() << "a " << stringifyReductionKind(kind) << " scan of "
                       << typeText(element)
                       << ": complex elements scan with cumsum only";
  if (!element.isInteger(1))
    return buildVerified<ScanOp>(*type, kind, source, normalized->front());
  // A bool stays true once a true (add, max) or a false (mul, min) is seen:
  // the max or min of the values as integers.
  ReductionKind integerKind =
      kind == ReductionKind::Add || kind == ReductionKind::Max
          ? ReductionKind::Max
          : ReductionKind::Min;
  FailureOr<Value> integers = cast(source, builder.getI32Type());
  if (failed(integers))
    return failure();
  FailureOr<Value> scanned = buildVerified<ScanOp>(
      type->clone(builder.getI32Type()), integerKind, *integers,
      normalized->front());
  if (failed(scanned))
    return failure();
  return cast(*scanned, element);
}

//===----------------------------------------------------------------------===//
// Statistics
//===----------------------------------------------------------------------===//

/// The statistics of a complex operand, as torch and nvFuser's
/// variance_mean define them: the mean is complex (of the operand's type),
/// its parts the means of the parts; the variance is real, of the part type:
/// the sum over |x - mean|^2, computed as re(d)^2 + im(d)^2 with d the
/// deviation (torch's var(real) + var(imag)).
static FailureOr<FusionBuilder::WelfordResult>
buildComplexStatistics(FusionBuilder &fb, Value source, ComplexType complexType,
                       ArrayRef<int64_t> dims, int64_t &count,
                       SmallVectorImpl<int64_t> &reducedDims,
                       ArrayRef<int64_t> shape) {
  Type part = complexType.getElementType();
  reducedDims.assign(dims.begin(), dims.end());
  count = 1;
  for (int64_t dim : dims)
    count *= shape[dim];
  FailureOr<Value> re = fb.real(source);
  FailureOr<Value> im = fb.imag(source);
  if (failed(re) || failed(im))
    return failure();
  Value squares;
  Value means[2];
  Value components[2] = {*re, *im};
  for (int index = 0; index < 2; ++index) {
    Value component = components[index];
    FailureOr<Value> sum =
        fb.reduction(ReductionKind::Add, component, dims, /*keepdim=*/true);
    if (failed(sum))
      return failure();
    FailureOr<Value> mean =
        fb.binary(BinaryKind::Div, *sum,
                  ScalarLiteral::getFloat(static_cast<double>(count), part));
    if (failed(mean))
      return failure();
    FailureOr<Value> deviation = fb.binary(BinaryKind::Sub, component, *mean);
    if (failed(deviation))
      return failure();
    FailureOr<Value> square =
        fb.binary(BinaryKind::Mul, *deviation, *deviation);
    if (failed(square))
      return failure();
    if (squares) {
      FailureOr<Value> total = fb.binary(BinaryKind::Add, squares, *square);
      if (failed(total))
        return failure();
      squares = *total;
    } else {
      squares = *square;
    }
    means[index] = *mean;
  }
  FailureOr<Value> mean = fb.complex(means[0], means[1]);
  if (failed(mean))
    return failure();
  FailureOr<Value> varSum =
      fb.reduction(ReductionKind::Add, squares, dims, /*keepdim=*/true);
  if (failed(varSum))
    return failure();
  FailureOr<Value> n = fb.full(
      mlir::cast<RankedTensorType>(varSum->getType()).getShape(),
      ScalarLiteral::getInt(count), IntegerType::get(fb.getContext(), 64));
  if (failed(n))
    return failure();
  return FusionBuilder::WelfordResult{*mean, *varSum, *n};
}

FailureOr<FusionBuilder::WelfordResult>
FusionBuilder::buildTwoPassStatistics(Value source, ArrayRef<int64_t> dims,
                                      StringRef name, int64_t &count,
                                      SmallVectorImpl<int64_t> &reducedDims) {
  FailureOr<RankedTensorType> type =
      getTensorType(source, ("the operand of " + name).str());
  if (failed(type))
    return failure();
  if (dims.empty())
    return valueError() << "'" << name << "' needs at least one dim";
  FailureOr<SmallVector<int64_t>> normalized =
      normalizeDims(dims, type->getRank(), name);
  if (failed(normalized))
    return failure();
  Type element = type->getElementType();
  if (auto complexType = dyn_cast<ComplexType>(element))
    return buildComplexStatistics(*this, source, complexType, *normalized,
                                  count, reducedDims, type->getShape());
  Type compute = !isa<FloatType>(element) ? Type(Float64Type::get(getContext()))
                 : isReducedPrecision(element)
                     ? Type(Float32Type::get(getContext()))
                                            : element;
  if (compute != element) {
    FailureOr<Value> cast = this->cast(source, compute);
    if (failed(cast))
      return failure();
    source = *cast;
  }
  reducedDims.assign(normalized->begin(), normalized->end());
  count = 1;
  for (int64_t dim : *normalized)
    count *= type->getDimSize(dim);
  FailureOr<Value> sum =
      reduction(ReductionKind::Add, source, *normalized, /*keepdim=*/true);
  if (failed(sum))
    return failure();
  FailureOr<Value> mean = binary(
      BinaryKind::Div, *sum,
      ScalarLiteral::getFloat(static_cast<double>(count), compute));
  if (failed(mean))
    return failure();
  FailureOr<Value> deviation = binary(BinaryKind::Sub, source, *mean);
  if (failed(deviation))
    return failure();
  FailureOr<Value> square = binary(BinaryKind::Mul, *deviation, *deviation);
  if (failed(square))
    return failure();
  FailureOr<Value> varSum =
      reduction(ReductionKind::Add, *square, *normalized, /*keepdim=*/true);
  if (failed(varSum))
    return failure();
  FailureOr<Value> n =
      full(mlir::cast<RankedTensorType>(varSum->getType()).getShape(),
           ScalarLiteral::getInt(count), builder.getI64Type());
  if (failed(n))
    return failure();
  return WelfordResult{*mean, *varSum, *n};
}

FailureOr<std::pair<Value, Value>>
FusionBuilder::varMean(Value source, ArrayRef<int64_t> dims,
                       int64_t correction, bool keepdim) {
  if (correction < 0)
    return valueError() << "correction must be non-negative, but got "
                        << correction;
  int64_t count = 0;
  SmallVector<int64_t> reducedDims;
  FailureOr<WelfordResult> statistics =
      buildTwoPassStatistics(source, dims, "var_mean", count, reducedDims);
  if (failed(statistics))
    return failure();
  auto type = mlir::cast<RankedTensorType>(statistics->varSum.getType());
  // 1 / max(N - correction, 0), as nvFuser computes it in f64.
  double denominator =
      std::max(static_cast<double>(count) - static_cast<double>(correction),
               0.0);
  FailureOr<Value> var =
      binary(BinaryKind::Mul, statistics->varSum,
             ScalarLiteral::getFloat(1.0 / denominator, type.getElementType()));
  if (failed(var))
    return failure();
  Value mean = statistics->avg;
  if (!keepdim) {
    FailureOr<Value> squeezedVar = squeeze(*var, reducedDims);
    FailureOr<Value> squeezedMean = squeeze(mean, reducedDims);
    if (failed(squeezedVar) || failed(squeezedMean))
      return failure();
    var = squeezedVar;
    mean = *squeezedMean;
  }
  return std::make_pair(*var, mean);
}

FailureOr<FusionBuilder::WelfordResult>
FusionBuilder::welford(Value source, ArrayRef<int64_t> dims) {
  int64_t count = 0;
  SmallVector<int64_t> reducedDims;
  FailureOr<WelfordResult> statistics =
      buildTwoPassStatistics(source, dims, "welford", count, reducedDims);
  if (failed(statistics))
    return failure();
  WelfordResult result;
  for (auto [from, to] : {std::make_pair(statistics->avg, &result.avg),
                          std::make_pair(statistics->varSum, &result.varSum),
                          std::make_pair(statistics->n, &result.n)}) {
    FailureOr<Value> squeezed = squeeze(from, reducedDims);
    if (failed(squeezed))
      return failure();
    *to = *squeezed;
  }
  return result;
}

//===----------------------------------------------------------------------===//
// FusionFunction
//===----------------------------------------------------------------------===//

FusionFunction::FusionFunction(MLIRContext *context, StringRef name,
                               Location loc)
    : module(ModuleOp::create(loc)), builder(context),
      fusionBuilder(builder, loc) {
  builder.setInsertionPointToEnd(module->getBody());
  func =
      func::FuncOp::create(builder, loc, name, builder.getFunctionType({}, {}));
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  returnOp = func::ReturnOp::create(builder, loc);
  builder.setInsertionPoint(returnOp);
}

BlockArgument FusionFunction::addInput(Type type) {
  BlockArgument argument =
      func.getBody().front().addArgument(type, fusionBuilder.getLoc());
  updateFunctionType();
  return argument;
}

void FusionFunction::addOutput(Value value) {
  returnOp->insertOperands(returnOp->getNumOperands(), value);
  updateFunctionType();
}

FailureOr<Value>
FusionFunction::buildOrRollBack(function_ref<FailureOr<Value>()> build) {
  Operation *lastBefore = returnOp->getPrevNode();
  FailureOr<Value> value = build();
  if (succeeded(value))
    return value;
  // Users follow their operands, so erasing from the back leaves no uses.
  while (Operation *op = returnOp->getPrevNode()) {
    if (op == lastBefore)
      break;
    op->erase();
  }
  return failure();
}

void FusionFunction::updateFunctionType() {
  func.setFunctionType(builder.getFunctionType(
      func.getBody().front().getArgumentTypes(), returnOp->getOperandTypes()));
}
