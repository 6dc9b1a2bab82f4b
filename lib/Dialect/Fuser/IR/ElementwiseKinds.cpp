//===- ElementwiseKinds.cpp - kinds of the fuser elementwise ops ----------===//

#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "fuser/Dialect/Fuser/IR/ElementTypes.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {
constexpr bool sameString(llvm::StringRef a, llvm::StringRef b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a.data()[i] != b.data()[i])
      return false;
  return true;
}
} // namespace

// The table's mnemonics are the ODS ones.
#define FUSER_CHECK_MNEMONIC(CLASS, MNEMONIC)                                  \
  static_assert(sameString(CLASS::getOperationName(), "fuser." MNEMONIC),      \
                "ElementwiseOps.def: wrong mnemonic for " #CLASS);
#define FUSER_UNARY_OP(CLASS, KIND, MNEMONIC, ...)                             \
  FUSER_CHECK_MNEMONIC(CLASS, MNEMONIC)
#define FUSER_BINARY_OP(CLASS, KIND, MNEMONIC, ...)                            \
  FUSER_CHECK_MNEMONIC(CLASS, MNEMONIC)
#define FUSER_TERNARY_OP(CLASS, KIND, MNEMONIC, ...)                           \
  FUSER_CHECK_MNEMONIC(CLASS, MNEMONIC)
#define FUSER_COMPARE_OP(CLASS, KIND, MNEMONIC, ...)                           \
  FUSER_CHECK_MNEMONIC(CLASS, MNEMONIC)
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
#undef FUSER_CHECK_MNEMONIC

namespace {
template <typename OpTy> bool isOp(Operation *op) {
  if constexpr (std::is_void_v<OpTy>)
    return false;
  else
    return isa<OpTy>(op);
}

/// The position of `op`'s class in the list, as a KindT.
template <typename KindT, typename... OpTys>
std::optional<KindT> getKind(Operation *op,
                             fuser::detail::OpClassList<OpTys...>) {
  unsigned index = 0;
  if (((isOp<OpTys>(op) || (++index, false)) || ...))
    return static_cast<KindT>(index);
  return std::nullopt;
}
} // namespace

std::optional<UnaryKind> mlir::fuser::getUnaryKind(Operation *op) {
  return getKind<UnaryKind>(op, fuser::detail::OpClassesOf<UnaryKind>::type{});
}
std::optional<BinaryKind> mlir::fuser::getBinaryKind(Operation *op) {
  return getKind<BinaryKind>(op,
                             fuser::detail::OpClassesOf<BinaryKind>::type{});
}
std::optional<TernaryKind> mlir::fuser::getTernaryKind(Operation *op) {
  return getKind<TernaryKind>(op,
                              fuser::detail::OpClassesOf<TernaryKind>::type{});
}
std::optional<CompareKind> mlir::fuser::getCompareKind(Operation *op) {
  return getKind<CompareKind>(op,
                              fuser::detail::OpClassesOf<CompareKind>::type{});
}

namespace {
template <typename Kind, typename Table>
std::optional<Kind> symbolize(const Table &table, llvm::StringRef mnemonic) {
  for (auto [i, info] : llvm::enumerate(table))
    if (info.mnemonic == mnemonic)
      return static_cast<Kind>(i);
  return std::nullopt;
}
} // namespace

std::optional<UnaryKind>
mlir::fuser::symbolizeUnaryKind(llvm::StringRef mnemonic) {
  return symbolize<UnaryKind>(kUnaryOps, mnemonic);
}
std::optional<BinaryKind>
mlir::fuser::symbolizeBinaryKind(llvm::StringRef mnemonic) {
  return symbolize<BinaryKind>(kBinaryOps, mnemonic);
}
std::optional<TernaryKind>
mlir::fuser::symbolizeTernaryKind(llvm::StringRef mnemonic) {
  return symbolize<TernaryKind>(kTernaryOps, mnemonic);
}
std::optional<CompareKind>
mlir::fuser::symbolizeCompareKind(llvm::StringRef mnemonic) {
  return symbolize<CompareKind>(kCompareOps, mnemonic);
}

bool mlir::fuser::isInOperandClass(Type elementType, OperandClass operands) {
  bool isBool = elementType.isInteger(1);
  bool isInteger = elementType.isInteger(32) || elementType.isInteger(64);
  bool isFloat = elementType.isF16() || elementType.isBF16() ||
                 elementType.isF32() || elementType.isF64();
  bool isComplex = isComplexElementType(elementType);
  // The 8-bit floats are in no class: arithmetic casts them first.
  switch (operands) {
  case OperandClass::Float:
    return isFloat;
  case OperandClass::FloatOrComplex:
    return isFloat || isComplex;
  case OperandClass::Numeric:
    return isFloat || isInteger;
  case OperandClass::NumericOrComplex:
    return isFloat || isInteger || isComplex;
  case OperandClass::Integral:
    return isBool || isInteger;
  case OperandClass::Integer:
    return isInteger;
  case OperandClass::Real:
    return isBool || isInteger || isFloat;
  case OperandClass::Any:
    return isBool || isInteger || isFloat || isComplex;
  }
  llvm_unreachable("unknown operand class");
}

namespace {
/// The name and the diagnostic description of each OperandClass, in
/// enumerator order.
struct OperandClassText {
  llvm::StringLiteral name, description;
};
constexpr OperandClassText kOperandClassTexts[] = {
    {"float", "float"},
    {"float_or_complex", "float or complex"},
    {"numeric", "numeric"},
    {"numeric_or_complex", "numeric or complex"},
    {"integral", "integer or i1"},
    {"integer", "integer (i32 or i64)"},
    {"real", "i1, integer or float (not complex or 8-bit float)"},
    {"any", "i1, integer, float or complex (not 8-bit float)"},
};
static_assert(std::size(kOperandClassTexts) ==
                  static_cast<size_t>(OperandClass::Any) + 1,
              "one text per operand class");
} // namespace

llvm::StringRef mlir::fuser::getOperandClassDescription(OperandClass operands) {
  return kOperandClassTexts[static_cast<size_t>(operands)].description;
}

llvm::StringRef mlir::fuser::getOperandClassName(OperandClass operands) {
  return kOperandClassTexts[static_cast<size_t>(operands)].name;
}

/// An op the CPU backend computes as the interpreter does (PortableMath.h).
static bool isPortableMathOp(Operation *op) {
  std::optional<UnaryKind> unary = getUnaryKind(op);
  if (!unary || !llvm::is_contained({UnaryKind::Exp, UnaryKind::Log,
                                     UnaryKind::Tanh, UnaryKind::Erf,
                                     UnaryKind::Sigmoid, UnaryKind::Silu},
                                    *unary))
    return false;
  Type element = getElementTypeOrSelf(op->getResult(0));
  return element.isF32() || element.isF16() || element.isBF16();
}

bool mlir::fuser::isTranscendentalOp(Operation *op, bool onCPU) {
  if (onCPU && isPortableMathOp(op))
    return false;
  // Box-Muller: log, sqrt, sin and cos.
  if (isa<NormalOp>(op))
    return true;
  const ArithmeticOpInfo *info = nullptr;
  std::optional<UnaryKind> unary = getUnaryKind(op);
  if (unary)
    info = &getOpInfo(*unary);
  else if (std::optional<BinaryKind> kind = getBinaryKind(op))
    info = &getOpInfo(*kind);
  if (!info)
    return false;
  // Complex sqrt combines atan2, cos, sin and pow (ComplexSemantics.h).
  if (isa<ComplexType>(getElementTypeOrSelf(op->getOperand(0))))
    return info->transcendental || unary == UnaryKind::Sqrt;
  return info->transcendental &&
         isa<FloatType>(getElementTypeOrSelf(op->getResult(0)));
}

Value mlir::fuser::buildUnaryOp(OpBuilder &builder, Location loc,
                                UnaryKind kind, Value operand) {
  return visitOpClass(kind, [&](auto tag) -> Value {
    using OpTy = typename decltype(tag)::type;
    return OpTy::create(builder, loc, operand);
  });
}

Value mlir::fuser::buildBinaryOp(OpBuilder &builder, Location loc,
                                 BinaryKind kind, Value lhs, Value rhs) {
  return visitOpClass(kind, [&](auto tag) -> Value {
    using OpTy = typename decltype(tag)::type;
    return OpTy::create(builder, loc, lhs, rhs);
  });
}

Value mlir::fuser::buildTernaryOp(OpBuilder &builder, Location loc,
                                  TernaryKind kind, Value first, Value second,
                                  Value third) {
  return visitOpClass(kind, [&](auto tag) -> Value {
    using OpTy = typename decltype(tag)::type;
    return OpTy::create(builder, loc, first, second, third);
  });
}

Value mlir::fuser::buildCompareOp(OpBuilder &builder, Location loc,
                                  CompareKind kind, Value lhs, Value rhs) {
  return visitOpClass(kind, [&](auto tag) -> Value {
    using OpTy = typename decltype(tag)::type;
    return OpTy::create(builder, loc, lhs, rhs);
  });
}
