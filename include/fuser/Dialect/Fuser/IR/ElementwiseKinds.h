//===- ElementwiseKinds.h - kinds of the fuser elementwise ops --*- C++ -*-===//
//
// The unary, binary, ternary and compare ops of ElementwiseOps.def as enums,
// with their table columns, the mapping between ops and kinds, and builders.
// The interpreter, the lowering to arith, the nvFuser importer, the random
// fusion generator and Python's `fd.ops` use these instead of lists of their
// own.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_ELEMENTWISEKINDS_H
#define FUSER_DIALECT_FUSER_IR_ELEMENTWISEKINDS_H

#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <iterator>
#include <optional>
#include <utility>

namespace mlir::fuser {

/// The elementwise op kinds, in table order.
enum class UnaryKind : uint8_t {
#define FUSER_UNARY_OP(CLASS, KIND, ...) KIND,
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
};
enum class BinaryKind : uint8_t {
#define FUSER_BINARY_OP(CLASS, KIND, ...) KIND,
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
};
enum class TernaryKind : uint8_t {
#define FUSER_TERNARY_OP(CLASS, KIND, ...) KIND,
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
};
enum class CompareKind : uint8_t {
#define FUSER_COMPARE_OP(CLASS, KIND, ...) KIND,
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
};

/// The element types an op's operands may have (the OPERANDS column).
enum class OperandClass : uint8_t {
  /// f16, bf16, f32, f64.
  Float,
  /// The floats and complex<f32>, complex<f64>.
  FloatOrComplex,
  /// i32, i64 and the floats.
  Numeric,
  /// The numeric types and the complex ones.
  NumericOrComplex,
  /// i1, i32, i64.
  Integral,
  /// i32, i64.
  Integer,
  /// i1, the integers and the floats (not complex).
  Real,
  /// Every arithmetic element type: i1, the integers, the floats and the
  /// complex types (the 8-bit floats are storage only).
  Any,
};

/// The result element type of an op (the RESULT column).
enum class ResultClass : uint8_t {
  /// The operands' element type.
  Same,
  /// i1.
  Bool,
  /// The operands' element type, or its component type for complex
  /// operands (abs).
  Real,
};

/// Whether the compare kind takes complex operands (eq and ne; complex
/// elements have no order).
constexpr bool comparesComplex(CompareKind kind) {
  return kind == CompareKind::Eq || kind == CompareKind::Ne;
}

/// True when `elementType` is in `operands`.
bool isInOperandClass(Type elementType, OperandClass operands);

/// The class's name in diagnostics ("float", "integer or i1", ...).
llvm::StringRef getOperandClassDescription(OperandClass operands);
/// The class's enumerator in lower case ("float", "integral", ...).
llvm::StringRef getOperandClassName(OperandClass operands);

/// The table columns of one op (see ElementwiseOps.def).
struct ArithmeticOpInfo {
  llvm::StringLiteral mnemonic;
  llvm::StringLiteral nvFuserName;
  /// Empty when nvFuser has no second spelling.
  llvm::StringLiteral nvFuserAlias;
  OperandClass operands;
  ResultClass result;
  /// Float results come from the math library (not correctly rounded).
  bool transcendental;
};
struct TernaryOpInfo {
  llvm::StringLiteral mnemonic;
  llvm::StringLiteral nvFuserName;
  OperandClass operands;
};
struct CompareOpInfo {
  llvm::StringLiteral mnemonic;
  llvm::StringLiteral nvFuserName;
  /// The C++ operator nvFuser prints ("==").
  llvm::StringLiteral infix;
};

inline constexpr ArithmeticOpInfo kUnaryOps[] = {
#define FUSER_UNARY_OP(CLASS, KIND, MNEMONIC, NVFUSER_NAME, NVFUSER_ALIAS,     \
                       OPERANDS, RESULT, TRANSCENDENTAL)                       \
  {MNEMONIC,           NVFUSER_NAME,         NVFUSER_ALIAS,                    \
   OperandClass::OPERANDS, ResultClass::RESULT, TRANSCENDENTAL},
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
};
inline constexpr ArithmeticOpInfo kBinaryOps[] = {
#define FUSER_BINARY_OP(CLASS, KIND, MNEMONIC, NVFUSER_NAME, NVFUSER_ALIAS,    \
                        OPERANDS, RESULT, TRANSCENDENTAL)                      \
  {MNEMONIC,           NVFUSER_NAME,         NVFUSER_ALIAS,                    \
   OperandClass::OPERANDS, ResultClass::RESULT, TRANSCENDENTAL},
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
};
inline constexpr TernaryOpInfo kTernaryOps[] = {
#define FUSER_TERNARY_OP(CLASS, KIND, MNEMONIC, NVFUSER_NAME, OPERANDS)        \
  {MNEMONIC, NVFUSER_NAME, OperandClass::OPERANDS},
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
};
inline constexpr CompareOpInfo kCompareOps[] = {
#define FUSER_COMPARE_OP(CLASS, KIND, MNEMONIC, NVFUSER_NAME, INFIX)           \
  {MNEMONIC, NVFUSER_NAME, INFIX},
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
};

inline constexpr unsigned kNumUnaryKinds = std::size(kUnaryOps);
inline constexpr unsigned kNumBinaryKinds = std::size(kBinaryOps);
inline constexpr unsigned kNumTernaryKinds = std::size(kTernaryOps);
inline constexpr unsigned kNumCompareKinds = std::size(kCompareOps);

constexpr const ArithmeticOpInfo &getOpInfo(UnaryKind kind) {
  return kUnaryOps[static_cast<unsigned>(kind)];
}
constexpr const ArithmeticOpInfo &getOpInfo(BinaryKind kind) {
  return kBinaryOps[static_cast<unsigned>(kind)];
}
constexpr const TernaryOpInfo &getOpInfo(TernaryKind kind) {
  return kTernaryOps[static_cast<unsigned>(kind)];
}
constexpr const CompareOpInfo &getOpInfo(CompareKind kind) {
  return kCompareOps[static_cast<unsigned>(kind)];
}

/// The kind of `op`, or nullopt when it is not an op of that family.
std::optional<UnaryKind> getUnaryKind(Operation *op);
std::optional<BinaryKind> getBinaryKind(Operation *op);
std::optional<TernaryKind> getTernaryKind(Operation *op);
std::optional<CompareKind> getCompareKind(Operation *op);

/// The kind whose mnemonic is `mnemonic` ("neg", "maximum"), or nullopt.
std::optional<UnaryKind> symbolizeUnaryKind(llvm::StringRef mnemonic);
std::optional<BinaryKind> symbolizeBinaryKind(llvm::StringRef mnemonic);
std::optional<TernaryKind> symbolizeTernaryKind(llvm::StringRef mnemonic);
std::optional<CompareKind> symbolizeCompareKind(llvm::StringRef mnemonic);

/// True when `op` is a table op whose float results come from the math
/// library (exp, ..., and pow on floats), or fuser.normal (Box-Muller):
/// results of such ops may differ between correct backends by a few ulp.
/// `onCPU` asks for the CPU backend, which computes f32, f16 and bf16 exp,
/// log, tanh and erf (and sigmoid and silu, built on exp) with the
/// interpreter's own algorithms (PortableMath.h): those give its bits.
bool isTranscendentalOp(Operation *op, bool onCPU = false);

/// Builds the op of `kind`. Result types are inferred, so the operands must
/// be valid for the op (see the verifiers); the importer, which must not
/// assert on bad input, uses visitOpClass with a fallible builder instead.
Value buildUnaryOp(OpBuilder &builder, Location loc, UnaryKind kind,
                   Value operand);
Value buildBinaryOp(OpBuilder &builder, Location loc, BinaryKind kind,
                    Value lhs, Value rhs);
Value buildTernaryOp(OpBuilder &builder, Location loc, TernaryKind kind,
                     Value first, Value second, Value third);
Value buildCompareOp(OpBuilder &builder, Location loc, CompareKind kind,
                     Value lhs, Value rhs);

/// A compile-time op class, passed to the generic lambdas of visitOpClass.
template <typename OpTy> struct OpClassTag { using type = OpTy; };

namespace detail {
/// The op classes of one family in table order, then `void`.
template <typename... OpTys> struct OpClassList {};
template <typename KindT> struct OpClassesOf;
template <> struct OpClassesOf<UnaryKind> {
  using type = OpClassList<
#define FUSER_UNARY_OP(CLASS, ...) CLASS,
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
      void>;
};
template <> struct OpClassesOf<BinaryKind> {
  using type = OpClassList<
#define FUSER_BINARY_OP(CLASS, ...) CLASS,
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
      void>;
};
template <> struct OpClassesOf<TernaryKind> {
  using type = OpClassList<
#define FUSER_TERNARY_OP(CLASS, ...) CLASS,
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
      void>;
};
template <> struct OpClassesOf<CompareKind> {
  using type = OpClassList<
#define FUSER_COMPARE_OP(CLASS, ...) CLASS,
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
      void>;
};

template <typename Fn, typename OpTy, typename... Rest>
auto visitOpClassAt(unsigned index, Fn &&fn, OpClassList<OpTy, Rest...>)
    -> decltype(fn(OpClassTag<OpTy>{})) {
  // The last op class is followed by `void` only.
  if constexpr (sizeof...(Rest) > 1)
    if (index != 0)
      return visitOpClassAt(index - 1, std::forward<Fn>(fn),
                            OpClassList<Rest...>{});
  return fn(OpClassTag<OpTy>{});
}
} // namespace detail

/// Calls `fn(OpClassTag<OpTy>{})` with the op class of `kind` (a UnaryKind,
/// BinaryKind, TernaryKind or CompareKind).
template <typename KindT, typename Fn>
decltype(auto) visitOpClass(KindT kind, Fn &&fn) {
  return detail::visitOpClassAt(static_cast<unsigned>(kind),
                                std::forward<Fn>(fn),
                                typename detail::OpClassesOf<KindT>::type{});
}

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_IR_ELEMENTWISEKINDS_H
