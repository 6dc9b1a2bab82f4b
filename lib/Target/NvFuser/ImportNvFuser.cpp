//===- ImportNvFuser.cpp - import nvFuser's printed fusion math -----------===//
//
// A recursive-descent parser over NvFuserLexer tokens that builds fuser ops
// as it reads each statement, through the FusionBuilder (nvFuser's
// construction rules, shared with the Python frontend). Every tensor in the
// text carries its declared shape (`T46_l_float[iS187{8}, ...]`) and, except
// in the print format before September 2024, its dtype: the importer derives
// what the print leaves implicit (squeezed and broadcast dims, permutations,
// cat's pads) from the declarations, and checks the built op's type against
// them, so a mismatch is reported where the text states it.
//
//===----------------------------------------------------------------------===//

#include "fuser/Target/NvFuser/ImportNvFuser.h"

#include "NvFuserLexer.h"

#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/Reshape.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "fuser/FusionBuilder/FusionBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <limits>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::nvfuser;
using Kind = Token::Kind;

namespace {

//===----------------------------------------------------------------------===//
// Declarations as printed
//===----------------------------------------------------------------------===//

/// One IterDomain of a printed tensor, e.g. `iS12{32}` or `bS5{1 ex 4}`.
struct IterDomainDecl {
  char iterType;  // 'i' iteration, 'b' broadcast, 'r' reduction
  int64_t number; // nvFuser's name for the IterDomain: 12 in `iS12`
  int64_t extent; // the expanded extent for an expanded broadcast
  llvm::SMLoc loc;

  bool isReduction() const { return iterType == 'r'; }
  bool isBroadcast() const { return iterType == 'b'; }
};

/// A printed tensor: `T38_l___bfloat[bS153{1}, iS158{8}rf, ...]`, or in the
/// format before nvFuser PR #2889 (2024-09-03) `T38_l[ bS153{1}, ... ]`,
/// whose dtype is printed only in input and output lists.
struct TensorDecl {
  llvm::StringRef name; // "T38"
  llvm::SMLoc loc;
  /// Null while the dtype is not known: an old-format tensor in a statement
  /// takes the dtype its producer gives it.
  Type elementType;
  SmallVector<IterDomainDecl> domain;
  SmallVector<int64_t> shape; // the domain without reduction IterDomains
  RankedTensorType type;      // null while `elementType` is
  /// Printed `uint64_t` (elementType i64): fuser IR has no unsigned
  /// integers, so only sdpa's philox_seed and philox_offset, which fuser
  /// models as i64, may be one (checked where a tensor is defined or read).
  bool isUInt64 = false;

  void setElementType(Type type) {
    elementType = type;
    this->type = RankedTensorType::get(shape, type);
  }

  /// The IterDomains that are dims of `type`.
  SmallVector<IterDomainDecl> logicalDomain() const {
    return llvm::to_vector(llvm::make_filter_range(
        domain, [](const IterDomainDecl &id) { return !id.isReduction(); }));
  }
};

/// An operand of a pointwise expression (a value, or a literal whose type
/// the FusionBuilder chooses where it is used) and where it was printed.
struct LocatedOperand {
  fuser::Operand operand;
  llvm::SMLoc loc;
  /// Whether the expression is a named tensor as it is (`T4_g[...]`, maybe
  /// in parentheses), not something computed from it.
  bool isTensorReference = false;
};

/// nvFuser printed every cast it made, so the importer promotes nothing the
/// print does not show: a tensor's dtype wins over a scalar's of the same or
/// a lower category, and f16, bf16 and integer tensors keep their dtype.
constexpr PromotionConfig kPrintedDTypes{/*promoteIntToFloat=*/false,
                                         /*castHalfToFloat=*/false};

/// The left-hand side of a statement: a tensor or a named scalar (`d5`).
struct Definition {
  llvm::StringRef name;
  llvm::SMLoc loc;
  Type type;
  std::optional<TensorDecl> tensor;
};

//===----------------------------------------------------------------------===//
// nvFuser spellings
//===----------------------------------------------------------------------===//

/// nvFuser's DataType names as it prints them.
Type parseDataType(llvm::StringRef name, MLIRContext *context) {
  Builder b(context);
  return llvm::StringSwitch<Type>(name)
      .Case("__bfloat", b.getBF16Type())
      .Case("__half", b.getF16Type())
      .Case("float", b.getF32Type())
      .Case("double", b.getF64Type())
      .Case("int", b.getI32Type())
      .Case("int64_t", b.getI64Type())
      .Case("nvfuser_index_t", b.getI64Type())
      .Case("bool", b.getI1Type())
      .Case("__e4m3", b.getType<Float8E4M3FNType>())
      .Case("__e5m2", b.getType<Float8E5M2Type>())
      .Case("std::complex<float>", ComplexType::get(b.getF32Type()))
      .Case("std::complex<double>", ComplexType::get(b.getF64Type()))
      .Default(Type());
}

/// The dtype names inside cast functions such as `__bfloat2float` and
/// `__to_double`. As a target `int` is int64 (`__half2int`; int32 is
/// `__half2int32`); as a source (`__int2half`) it is any integer type, which
/// `parseCastFunction` leaves to the operand.
Type parseCastTypeName(llvm::StringRef name, MLIRContext *context) {
  Builder b(context);
  return llvm::StringSwitch<Type>(name)
      .Case("bfloat", b.getBF16Type())
      .Case("half", b.getF16Type())
      .Case("float", b.getF32Type())
      .Case("double", b.getF64Type())
      .Cases({"int", "int64", "index"}, b.getI64Type())
      .Case("int32", b.getI32Type())
      .Case("bool", b.getI1Type())
      .Case("e4m3", b.getType<Float8E4M3FNType>())
      .Case("e5m2", b.getType<Float8E5M2Type>())
      .Case("complex_float", ComplexType::get(b.getF32Type()))
      .Case("complex_double", ComplexType::get(b.getF64Type()))
      .Default(Type());
}

/// `__bfloat2float` -> (bf16, f32); `__to_double` (nvFuser PR #4695,
/// 2025-07-03, for the casts that printed C-style before) -> (null, f64). A
/// null source type means "the operand's". The split is at the `2` that
/// leaves a dtype name on both sides.
std::optional<std::pair<Type, Type>> parseCastFunction(llvm::StringRef name,
                                                       MLIRContext *context) {
  if (!name.consume_front("__"))
    return std::nullopt;
  // `__real_then_to_float`: from a complex value, whose real part converts,
  // which fuser.cast does.
  if (name.consume_front("to_") || name.consume_front("real_then_to_")) {
    if (Type to = parseCastTypeName(name, context))
      return std::make_pair(Type(), to);
    return std::nullopt;
  }
  for (size_t pos = name.find('2'); pos != llvm::StringRef::npos;
       pos = name.find('2', pos + 1)) {
    llvm::StringRef fromName = name.take_front(pos);
    Type from = parseCastTypeName(fromName, context);
    Type to = parseCastTypeName(name.drop_front(pos + 1), context);
    if (from && to)
      return std::make_pair(fromName == "int" ? Type() : from, to);
  }
  return std::nullopt;
}

/// Named scalars print as a dtype prefix and a number (`d5`, `i2`, `b0`).
Type parseScalarName(llvm::StringRef name, MLIRContext *context) {
  if (name.size() < 2 || !llvm::all_of(name.drop_front(), llvm::isDigit))
    return Type();
  Builder b(context);
  switch (name.front()) {
  case 'd':
    return b.getF64Type();
  case 'f':
    return b.getF32Type();
  case 'h':
    return b.getF16Type();
  case 'i':
    return b.getI64Type();
  case 'b':
    return b.getI1Type();
  default:
    return Type();
  }
}

/// The dtype category of a scalar: what a named scalar's prefix can say.
enum class ScalarCategory { Float, Integer, Bool };
ScalarCategory getScalarCategory(Type type) {
  if (isa<FloatType>(type))
    return ScalarCategory::Float;
  return type.isInteger(1) ? ScalarCategory::Bool : ScalarCategory::Integer;
}

/// `T38_l___bfloat` (or `T38_l` before PR #2889) starts a tensor: `T`,
/// digits, `_`, memory type.
bool isTensorName(llvm::StringRef name) {
  if (!name.consume_front("T"))
    return false;
  size_t digits = name.find_first_not_of("0123456789");
  return digits != 0 && digits != llvm::StringRef::npos &&
         name.drop_front(digits).starts_with("_");
}

/// nvFuser prints float versions of math functions with an `f` suffix
/// (`expf`, `powf`); both spellings are accepted.
template <typename EnumT>
std::optional<EnumT>
lookUpFunction(llvm::StringRef name,
               std::optional<EnumT> (*lookUp)(llvm::StringRef)) {
  if (std::optional<EnumT> kind = lookUp(name))
    return kind;
  if (name.consume_back("f"))
    return lookUp(name);
  return std::nullopt;
}

/// The kind whose nvFuser spelling (NVFUSER_NAME or NVFUSER_ALIAS in
/// ElementwiseOps.def) is `name`.
template <typename KindT, typename Table>
std::optional<KindT> lookUpNvFuserName(const Table &table,
                                       llvm::StringRef name) {
  for (auto [i, info] : llvm::enumerate(table))
    if (name == info.nvFuserName ||
        (!info.nvFuserAlias.empty() && name == info.nvFuserAlias))
      return static_cast<KindT>(i);
  return std::nullopt;
}

std::optional<UnaryKind> lookUpUnaryName(llvm::StringRef name) {
  return lookUpNvFuserName<UnaryKind>(kUnaryOps, name);
}

std::optional<BinaryKind> lookUpBinaryName(llvm::StringRef name) {
  return lookUpNvFuserName<BinaryKind>(kBinaryOps, name);
}

std::optional<TernaryKind> lookUpTernaryName(llvm::StringRef name) {
  for (auto [i, info] : llvm::enumerate(kTernaryOps))
    if (name == info.nvFuserName)
      return static_cast<TernaryKind>(i);
  return std::nullopt;
}

std::optional<CompareKind> lookUpCompareName(llvm::StringRef name) {
  for (auto [i, info] : llvm::enumerate(kCompareOps))
    if (name == info.nvFuserName)
      return static_cast<CompareKind>(i);
  return std::nullopt;
}

/// The comparison nvFuser prints as the C++ operator `spelling` (`<=`).
std::optional<CompareKind> lookUpCompareInfix(llvm::StringRef spelling) {
  for (auto [i, info] : llvm::enumerate(kCompareOps))
    if (spelling == info.infix)
      return static_cast<CompareKind>(i);
  return std::nullopt;
}

/// nvFuser's fmax/fmin ignore NaN (IEEE maxNum/minNum); fuser.maximum and
/// the max/min reductions propagate it. Importing one as the other would
/// change results on NaN inputs silently, so they are refused.
bool isNaNIgnoringName(llvm::StringRef name) {
  return name == "fmax" || name == "fmin";
}

/// nvFuser's RNGOp as it prints each RNGOpType.
bool isRandomOpName(llvm::StringRef name) {
  return llvm::is_contained({"rng_uniform", "rng_uniform_range",
                             "rng_normal_standard", "rng_normal_general"},
                            name);
}

/// GatherOp as it prints a gather or, with exact sizes, a take-along-axis,
/// today and before nvFuser PR #3204 (2024-10-17).
bool isGatherOpName(llvm::StringRef name) {
  return llvm::is_contained(
      {"torchGather", "torch_gather", "takeAlongAxis", "take_along_axis"},
      name);
}

/// Operations that define a tensor from the printed result type; they must be
/// the whole right-hand side of a statement.
bool isTensorOpName(llvm::StringRef name) {
  return llvm::is_contained(
             {"view", "reshape", "squeeze", "broadcast", "expand", "reduction",
              "Set", "SegmenterSet", "pad", "slice", "cat", "full", "iota",
              "indexSelect", "index_select", "select", "embedding", "scan",
              "scatter", "argsort", "GroupedMmaOp", "matmul", "linear"},
             name) ||
         isRandomOpName(name) || isGatherOpName(name);
}

/// Finds the dims of `longer` that are missing from `shorter`, where every
/// missing dim has extent 1. `preferred` (when it has the right count and
/// fits) wins; otherwise dims are matched left to right by extent, which is
/// the earliest match and therefore finds an answer whenever one exists.
/// Which of several adjacent size-1 dims is chosen does not change the data.
std::optional<SmallVector<int64_t>>
findMissingUnitDims(ArrayRef<int64_t> longer, ArrayRef<int64_t> shorter,
                    ArrayRef<int64_t> preferred) {
  if (longer.size() < shorter.size())
    return std::nullopt;
  auto remainingMatches = [&](ArrayRef<int64_t> missing) {
    SmallVector<int64_t> kept;
    for (auto [i, extent] : llvm::enumerate(longer))
      if (!llvm::is_contained(missing, static_cast<int64_t>(i)))
        kept.push_back(extent);
    return llvm::all_of(missing, [&](int64_t i) { return longer[i] == 1; }) &&
           ArrayRef<int64_t>(kept) == shorter;
  };
  if (preferred.size() == longer.size() - shorter.size() &&
      remainingMatches(preferred))
    return SmallVector<int64_t>(preferred);

  return fuser::getSqueezedDims(longer, shorter);
}

SmallVector<int64_t> extentsOf(ArrayRef<IterDomainDecl> domain) {
  return llvm::map_to_vector(
      domain, [](const IterDomainDecl &id) { return id.extent; });
}

SmallVector<int64_t> broadcastPositions(ArrayRef<IterDomainDecl> domain) {
  SmallVector<int64_t> positions;
  for (auto [i, id] : llvm::enumerate(domain))
    if (id.isBroadcast())
      positions.push_back(i);
  return positions;
}

//===----------------------------------------------------------------------===//
// The importer
//===----------------------------------------------------------------------===//

class Importer {
public:
  Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context,
           const ImportNvFuserOptions &options)
      : sourceMgr(sourceMgr), context(context), options(options),
        builder(context), fusionBuilder(builder, UnknownLoc::get(context)),
        buffer(
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer()),
        lexer(buffer) {
    bufferName = StringAttr::get(
        context, sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                     ->getBufferIdentifier());
    lineStarts.push_back(0);
    for (size_t i = 0, e = buffer.size(); i < e; ++i)
      if (buffer[i] == '\n')
        lineStarts.push_back(i + 1);
  }

  OwningOpRef<ModuleOp> import();

private:
  //--- Tokens and diagnostics ---------------------------------------------//

  struct SavedPosition {
    Token token;
    const char *position;
  };
  SavedPosition save() const { return {tok, lexer.getPosition()}; }
  void restore(const SavedPosition &saved) {
    tok = saved.token;
    lexer.resetTo(saved.position);
  }
  void consume() { tok = lexer.lex(); }
  Token peek() {
    SavedPosition saved = save();
    consume();
    Token next = tok;
    restore(saved);
    return next;
  }

  /// The location of `loc`, found in `lineStarts` (SourceMgr's
  /// getLineAndColumn scans back to the previous newline, which is
  /// quadratic on a long line: a 50000-term sum on one line took 141 s,
  /// now 0.6 s).
  Location getLoc(llvm::SMLoc loc) const {
    size_t offset = loc.getPointer() - buffer.data();
    auto next = llvm::upper_bound(lineStarts, offset);
    size_t line = next - lineStarts.begin();
    return FileLineColLoc::get(bufferName, line, offset - *(next - 1) + 1);
  }
  InFlightDiagnostic emitError(llvm::SMLoc loc) {
    return mlir::emitError(getLoc(loc));
  }
  /// "found 'x'" for the current token, "found end of input" at the end.
  std::string describeCurrent() const {
    if (tok.is(Kind::Eof))
      return "end of input";
    return ("'" + tok.spelling + "'").str();
  }
  LogicalResult expect(Kind kind, llvm::StringRef spelling,
                       llvm::StringRef context) {
    if (tok.is(kind)) {
      consume();
      return success();
    }
    return emitError(tok.getLoc())
           << "expected '" << spelling << "' " << context << ", found "
           << describeCurrent();
  }
  LogicalResult expectKeyword(llvm::StringRef keyword,
                              llvm::StringRef context) {
    if (tok.isIdentifier(keyword)) {
      consume();
      return success();
    }
    return emitError(tok.getLoc()) << "expected '" << keyword << "' " << context
                                   << ", found " << describeCurrent();
  }

  /// Counts one level of expression nesting while it lives.
  struct NestingScope {
    explicit NestingScope(unsigned &depth) : depth(depth) { ++depth; }
    ~NestingScope() { --depth; }
    unsigned &depth;
  };
  static constexpr unsigned kMaxNesting = 256;
  LogicalResult checkNesting() {
    if (nesting <= kMaxNesting)
      return success();
    return emitError(tok.getLoc())
           << "expression nested more than " << kMaxNesting << " levels deep";
  }

  /// Whether `loc` is on the last line of the input that is not blank.
  bool isOnLastLine(llvm::SMLoc loc) const;

  //--- Structure ------------------------------------------------------------//

  bool skipBanner(std::optional<std::string> &fusionName,
                  unsigned &openBanners);
  void skipSegmentSummary();
  LogicalResult checkExtentSymbols();
  LogicalResult importFunction(bool isFusion,
                               const std::optional<std::string> &bannerName);
  std::string getUniqueFunctionName(llvm::StringRef base);
  LogicalResult parseFusion(const std::optional<std::string> &bannerName);
  LogicalResult parseGroup();
  /// Skips tokens up to the `}` that closes the current scope, or to where
  /// `stopAt` holds outside nested braces.
  void skipToUnmatchedBrace(llvm::function_ref<bool()> stopAt = nullptr);
  LogicalResult parseDeclarationList(bool stopAtStatement,
                                     SmallVectorImpl<Definition> &decls);
  /// Whether the current token is the comma after the first result of a
  /// statement with several (`T3_g_float[...],\n T4_g_float[...]\n =
  /// sdpa(...)`), which in a group follows the outputs directly: tensors
  /// separated by commas, then `=`. Consumes nothing.
  bool startsResultList();
  LogicalResult parseBody(llvm::function_ref<bool()> atEnd);
  LogicalResult finishFunction(func::FuncOp func, ArrayRef<Definition> outputs);
  func::FuncOp createFunction(llvm::SMLoc loc, llvm::StringRef name,
                              ArrayRef<Definition> inputs,
                              ArrayRef<Definition> outputs);
  LogicalResult parseStatement();
  /// `T1(Avg),\n T2(Var),\n T3(Count)\n = Welford ( T0(Avg), allreduce =
  /// false )` (`first` holds T1, parsed) or `WelfordResult(T1, T2, T3) =
  /// Welford ( ... )` (`first` empty).
  LogicalResult parseWelfordStatement(std::optional<TensorDecl> first);
  /// `( T1, T2 ) = topk( T0, 3, dim = 1, largest = True, sorted = True )`
  /// (TopKOp): the values T1 and the i64 indices T2.
  LogicalResult parseTopkStatement();
  /// The error for the operation of a statement with several outputs that
  /// neither Welford nor topk is, at the current token.
  LogicalResult emitUnsupportedMultiOutput();
  /// The error for a `uint64_t` tensor outside sdpa's Philox state.
  LogicalResult emitUInt64Error(const TensorDecl &decl) {
    return emitError(decl.loc)
           << "unsupported dtype 'uint64_t' of '" << decl.name
           << "' here: fuser IR has no unsigned integers; a uint64_t tensor "
              "imports (as i64) only as sdpa's philox_seed or philox_offset";
  }
  /// `T3,\n T4,\n ... T6\n = op(...)`, results separated by commas
  /// (`first` holds T3, parsed): sdpa and sdpa_bwd.
  LogicalResult parseResultListStatement(TensorDecl first);
  /// `sdpa(Q, K, V, bias=B, mask=M, dropout_p = double(0), is_causal=true,
  /// scale=double(0.125), )` (SdpaFwdOp; bias and mask where given):
  /// fuser.sdpfa_fwd.
  LogicalResult parseSdpaFwd(ArrayRef<TensorDecl> outs);
  /// `sdpa_bwd(dO, Q, K, V, O, logsum_exp = L, dropout_p = ..., is_causal =
  /// ..., philox_seed = S, philox_offset = P, , scale = ...)` (SdpaBwdOp):
  /// fuser.sdpfa_bwd.
  LogicalResult parseSdpaBwd(ArrayRef<TensorDecl> outs);
  /// `key = T...` (key bias or mask of sdpa, logsum_exp or a Philox
  /// tensor of sdpa_bwd) into `tensor`, which must not be set yet.
  LogicalResult parseAttentionTensor(llvm::StringRef key,
                                     llvm::StringRef opName, Value &tensor,
                                     bool allowUInt64);
  /// Checks and names the results of a statement with several outputs.
  LogicalResult defineResults(ArrayRef<TensorDecl> outs, ValueRange results,
                              llvm::StringRef opName);
  /// dropout_p, is_causal and scale of sdpa and sdpa_bwd, where printed.
  struct AttentionScalars {
    std::optional<double> dropoutP, scale;
    std::optional<bool> isCausal;
  };
  /// `key = constant` (key dropout_p, is_causal or scale) into `scalars`.
  LogicalResult parseAttentionScalar(llvm::StringRef key,
                                     llvm::StringRef opName,
                                     AttentionScalars &scalars);
  /// `opName(` after the results, checked to be `resultNames` (comma
  /// separated), and the first `operandCount` tensors, each with its comma.
  FailureOr<SmallVector<Value>> parseAttentionHead(ArrayRef<TensorDecl> outs,
                                                   llvm::StringRef opName,
                                                   llvm::StringRef resultNames,
                                                   size_t operandCount);
  /// A constant scalar argument (`double(0.125)`, `true`) of `opName`; a
  /// named or computed one is refused: fuser's library ops take it as an
  /// attribute.
  FailureOr<ScalarLiteral> parseConstantArgument(llvm::StringRef name,
                                                 llvm::StringRef opName,
                                                 bool isFlag);

  //--- Declarations ---------------------------------------------------------//

  FailureOr<TensorDecl> parseTensorDecl();
  FailureOr<IterDomainDecl> parseIterDomain();
  FailureOr<int64_t> parseInteger(llvm::StringRef context);
  FailureOr<Definition> parseScalarDecl();
  LogicalResult rejectScheduledDomain(llvm::StringRef spelling);
  FailureOr<int64_t> parseExtent(llvm::StringRef what);
  FailureOr<int64_t> parseExtentSum(llvm::StringRef what);
  FailureOr<int64_t> parseExtentProduct(llvm::StringRef what);
  FailureOr<int64_t> parseExtentPrimary(llvm::StringRef what);

  //--- Right-hand sides -----------------------------------------------------//

  LogicalResult parseRightHandSide(const Definition &def);
  FailureOr<Value> parseTensorOp(TensorDecl out);
  struct TensorRef {
    TensorDecl decl;
    Value value;
  };
  /// A tensor operand; a `uint64_t` one only where `allowUInt64`.
  FailureOr<TensorRef> parseTensorRef(bool allowUInt64 = false);
  FailureOr<Value> parseView(TensorDecl &out, Location loc,
                             llvm::StringRef opName);
  FailureOr<Value> parseSqueeze(TensorDecl &out, Location loc);
  FailureOr<Value> parseBroadcast(TensorDecl &out, Location loc);
  FailureOr<Value> parseExpand(TensorDecl &out, Location loc);
  FailureOr<Value> parseReduction(TensorDecl &out, Location loc);
  FailureOr<Value> parseLoadStore(TensorDecl &out, Location loc,
                                  llvm::StringRef opName);
  FailureOr<Value> parsePad(TensorDecl &out, Location loc);
  FailureOr<Value> parseSlice(TensorDecl &out, Location loc);
  FailureOr<Value> parseCat(TensorDecl &out, Location loc);
  FailureOr<Value> parseFull(TensorDecl &out, Location loc);
  FailureOr<Value> parseIota(TensorDecl &out, Location loc);
  FailureOr<Value> parseRandom(TensorDecl &out, Location loc,
                               llvm::StringRef opName);
  /// The seed and offset of the next draw from torch's generator (a random
  /// op printed without a seed, or sdpa's dropout): the function's
  /// `rng_seed` and `rng_offset` arguments, the offset plus k for the k-th
  /// draw (parseRandom).
  FailureOr<std::pair<Value, Value>> drawFromGenerator(Location loc);
  FailureOr<Value> parseGather(TensorDecl &out, Location loc,
                               llvm::StringRef opName);
  FailureOr<Value> parseIndexSelect(TensorDecl &out, Location loc,
                                    llvm::StringRef opName);
  FailureOr<Value> parseSelect(TensorDecl &out, Location loc);
  FailureOr<Value> parseEmbedding(TensorDecl &out, Location loc);
  FailureOr<Value> parseScan(TensorDecl &out, Location loc);
  FailureOr<Value> parseScatter(TensorDecl &out, Location loc);
  FailureOr<Value> parseArgsort(TensorDecl &out, Location loc);
  FailureOr<Value> parseGroupedMm(TensorDecl &out, Location loc);
  FailureOr<Value> parseMatmul(TensorDecl &out, Location loc,
                               llvm::StringRef opName);
  FailureOr<bool> parseFlagArgument(llvm::StringRef name,
                                    llvm::StringRef opName);
  FailureOr<ReductionKind> parseCombinerKind(llvm::StringRef opName);
  LogicalResult parseIdentity(ReductionKind kind, Type elementType,
                              llvm::StringRef opName);
  /// `opName(` and the tensor operand after it.
  FailureOr<TensorRef> parseFirstOperand(llvm::StringRef opName);
  /// `keyword =` among the arguments of `opName` (`dim = 1`, `op_type=add`).
  LogicalResult expectArgumentName(llvm::StringRef keyword,
                                   llvm::StringRef opName);
  /// `dim = 1` in the indexing ops, `dim=1` in scan.
  FailureOr<int64_t> parseDimArgument(llvm::StringRef opName);
  /// The index tensor as fuser.gather reads it: nvFuser converts each index
  /// it reads to its index type (IndexLowering, not printed), truncating a
  /// float toward zero; integer indices are read as they are.
  FailureOr<Value> castIndex(Value index);
  /// Appends an i64 argument named `name` to the function being imported.
  FailureOr<Value> addScalarArgument(llvm::StringRef name, Location loc);
  FailureOr<SmallVector<int64_t>> parseFlags(size_t rank,
                                             llvm::StringRef construct);
  FailureOr<SmallVector<int64_t>> parseIntegerList(llvm::StringRef context);
  LogicalResult skipExtentList();

  //--- Pointwise expressions ------------------------------------------------//

  FailureOr<LocatedOperand> parseExpression();
  FailureOr<LocatedOperand> parseComparison();
  /// Left-associative level `level` of `levels` (kLooseLevels or
  /// kTightLevels): the next level joined by any of its operators; past the
  /// last level, `innermost`.
  FailureOr<LocatedOperand>
  parseBinaryLevel(ArrayRef<ArrayRef<std::pair<Kind, BinaryKind>>> levels,
                   size_t level, FailureOr<LocatedOperand> (Importer::*innermost)());
  FailureOr<LocatedOperand> parseTightLevels();
  FailureOr<LocatedOperand> parseUnary();
  FailureOr<LocatedOperand> parsePrimary();
  FailureOr<LocatedOperand> parseCall();
  FailureOr<ScalarLiteral> parseLiteralValue(Type printedType);
  FailureOr<ScalarLiteral> parseLiteral();
  FailureOr<LocatedOperand> parseSingleArgument(llvm::StringRef name);
  FailureOr<LocatedOperand> parseComplexPart(llvm::SMLoc loc,
                                             llvm::StringRef name);
  FailureOr<LocatedOperand> parseCast(llvm::SMLoc loc, Type from, Type to,
                                      llvm::StringRef name);

  //--- Building ops ---------------------------------------------------------//

  /// The ops are built by the FusionBuilder (nvFuser's construction rules,
  /// shared with the Python frontend), at the printed location.
  void setBuildLoc(llvm::SMLoc loc) { fusionBuilder.setLoc(getLoc(loc)); }
  static FailureOr<LocatedOperand> located(FailureOr<Value> value,
                                           llvm::SMLoc loc) {
    if (failed(value))
      return failure();
    return LocatedOperand{*value, loc};
  }
  /// A tensor op's result must have the type its statement declares.
  FailureOr<Value> checkDeclared(FailureOr<Value> value, const TensorDecl &out,
                                 llvm::StringRef opName);
  LogicalResult checkDeclaredType(Value value, const Definition &def,
                                  llvm::StringRef construct);
  static void resolveElementType(TensorDecl &out, Type elementType) {
    if (!out.elementType)
      out.setElementType(elementType);
  }

  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  const ImportNvFuserOptions &options;
  OpBuilder builder;
  FusionBuilder fusionBuilder;
  llvm::StringRef buffer;
  /// The offset in `buffer` at which each line starts.
  std::vector<size_t> lineStarts;
  Lexer lexer;
  Token tok;
  StringAttr bufferName;
  OwningOpRef<ModuleOp> module;
  /// The function being imported and its values by printed name ("T38").
  func::FuncOp function;
  llvm::StringMap<Value> values;
  /// The seed and offset arguments of the function's random ops printed
  /// without a seed, and of sdpa's dropout (added at the first such op),
  /// and how many such ops were read.
  Value generatorSeed, generatorOffset;
  int64_t generatorDraws = 0;
  /// How many functions were named after each base name (`fusion`,
  /// `preseg`, ...).
  llvm::StringMap<unsigned> functionNames;
  unsigned groupCount = 0;
  unsigned completeFunctions = 0;
  /// How deep the expression being parsed nests; parsing recurses, so
  /// deeper input is refused before the stack runs out.
  unsigned nesting = 0;
};

//===----------------------------------------------------------------------===//
// Structure: banners, fusions and groups
//===----------------------------------------------------------------------===//

/// A line nvFuser prints before a fusion. Those that name a fusion give the
/// function its name; one ending in `{` has a `}` of its own after the
/// fusion (`} // {Re-written complete fusion}`).
struct Banner {
  llvm::StringLiteral text;
  llvm::StringLiteral fusionName;
  bool opensScope;
};
constexpr Banner kBanners[] = {
    {"Segment the fusion (Original Fusion Un-modified):", "original", false},
    {"Segmented_Fusion Dump: -- Re-written complete fusion:{", "rewritten",
     true},
    {"Segmented_Fusion Dump: -- fusion segments:", "", false},
    {"Fusion IR after pre-segmenter optimization passes:", "preseg", false},
    {"Fusion before concretization:", "before_concretization", false},
    {"Concretized Fusion:", "concretized", false},
    {"**Segmenter** Considering fusion:", "segmenter_considering", false},
};

bool Importer::isOnLastLine(llvm::SMLoc loc) const {
  llvm::StringRef rest = buffer.drop_front(loc.getPointer() - buffer.data());
  size_t newline = rest.find('\n');
  return newline == llvm::StringRef::npos ||
         rest.drop_front(newline).trim().empty();
}

/// Skips the banner line at the current token, if it is one.
bool Importer::skipBanner(std::optional<std::string> &fusionName,
                          unsigned &openBanners) {
  if (tok.is(Kind::Eof))
    return false;
  llvm::StringRef rest = buffer.drop_front(tok.spelling.data() - buffer.data());
  llvm::StringRef line = rest.take_until([](char c) { return c == '\n'; });
  for (const Banner &banner : kBanners) {
    if (line.rtrim() != banner.text)
      continue;
    if (!banner.fusionName.empty())
      fusionName = banner.fusionName.str();
    openBanners += banner.opensScope;
    lexer.resetTo(line.end());
    consume();
    return true;
  }
  return false;
}

/// `Segmented_Fusion{ groups: ... edges: ... group details:` lists the
/// groups and the tensors between them; the `g{...}` blocks that follow are
/// imported. Skips to the first block or to the `}` closing the dump.
void Importer::skipSegmentSummary() {
  consume(); // Segmented_Fusion
  consume(); // {
  skipToUnmatchedBrace(
      [&] { return tok.isIdentifier("g") && peek().is(Kind::LBrace); });
}

void Importer::skipToUnmatchedBrace(llvm::function_ref<bool()> stopAt) {
  unsigned depth = 0;
  while (!tok.is(Kind::Eof)) {
    if (depth == 0 && (tok.is(Kind::RBrace) || (stopAt && stopAt())))
      return;
    if (tok.is(Kind::LBrace))
      ++depth;
    else if (tok.is(Kind::RBrace))
      --depth;
    consume();
  }
}

/// fuser IR has static shapes, so every symbol a tensor's extent uses
/// (`iS0{i0}`, `iS22{( ceilDiv(i2, 3) )}`) needs an `--extent` value. The
/// symbols are collected from the whole input first, so that one error lists
/// all of them.
LogicalResult Importer::checkExtentSymbols() {
  Lexer scanner(buffer);
  llvm::MapVector<llvm::StringRef, llvm::SMLoc> unbound;
  bool inDomain = false;
  unsigned braceDepth = 0;
  for (Token t = scanner.lex(); !t.is(Kind::Eof); t = scanner.lex()) {
    if (!inDomain) {
      if (t.is(Kind::Identifier) && isTensorName(t.spelling)) {
        const char *afterName = scanner.getPosition();
        inDomain = scanner.lex().is(Kind::LSquare);
        if (!inDomain)
          scanner.resetTo(afterName);
        braceDepth = 0;
      }
      continue;
    }
    if (t.is(Kind::LBrace))
      ++braceDepth;
    else if (t.is(Kind::RBrace) && braceDepth > 0)
      --braceDepth;
    else if (t.is(Kind::RSquare) && braceDepth == 0)
      inDomain = false;
    else if (braceDepth > 0 && t.is(Kind::Identifier) &&
             parseScalarName(t.spelling, context) &&
             !options.extents.count(t.spelling))
      unbound.insert({t.spelling, t.getLoc()});
  }
  if (unbound.empty())
    return success();
  InFlightDiagnostic diag = emitError(unbound.front().second);
  diag << "symbolic extent" << (unbound.size() == 1 ? " " : "s ");
  llvm::interleaveComma(unbound, diag, [&](const auto &entry) {
    diag << "'" << entry.first << "'";
  });
  diag << (unbound.size() == 1 ? " has" : " have")
       << " no value; fuser IR has static shapes: give each a value with "
          "fuser-translate's option";
  for (const auto &entry : unbound)
    diag << " --extent " << entry.first << "=N";
  for (const auto &entry : llvm::drop_begin(unbound))
    diag.attachNote(getLoc(entry.second))
        << "'" << entry.first << "' is first used here";
  return failure();
}

OwningOpRef<ModuleOp> Importer::import() {
  consume();
  module = ModuleOp::create(getLoc(tok.getLoc()));
  if (tok.is(Kind::Eof)) {
    emitError(tok.getLoc()) << "expected nvFuser fusion math ('Inputs:') or "
                               "a segmented group ('g{'), found an empty input";
    return nullptr;
  }
  if (failed(checkExtentSymbols()))
    return nullptr;
  std::optional<std::string> bannerName;
  unsigned openBanners = 0;
  while (!tok.is(Kind::Eof)) {
    if (skipBanner(bannerName, openBanners))
      continue;
    if (tok.is(Kind::RBrace) && openBanners > 0) {
      consume();
      --openBanners;
      continue;
    }
    if (tok.isIdentifier("Segmented_Fusion") && peek().is(Kind::LBrace)) {
      skipSegmentSummary();
      ++openBanners;
      continue;
    }
    bool isFusion = tok.isIdentifier("Inputs");
    bool isGroup = tok.isIdentifier("g") && peek().is(Kind::LBrace);
    if (!isFusion && !isGroup) {
      // A dump cut off in the middle of a banner.
      if (completeFunctions > 0 && isOnLastLine(tok.getLoc())) {
        mlir::emitWarning(getLoc(tok.getLoc()))
            << "ignored the last line, which is not nvFuser fusion math (a "
               "truncated dump?)";
        break;
      }
      emitError(tok.getLoc())
          << "expected nvFuser fusion math ('Inputs:') or a segmented group "
             "('g{'), found "
          << describeCurrent();
      return nullptr;
    }
    if (failed(importFunction(isFusion, bannerName)))
      return nullptr;
    bannerName.reset();
  }
  // Banners (or a segment summary) and nothing else: no fusion to import.
  if (completeFunctions == 0) {
    emitError(tok.getLoc()) << "expected nvFuser fusion math ('Inputs:') or "
                               "a segmented group ('g{') after the banners, "
                               "found "
                            << describeCurrent();
    return nullptr;
  }
  if (failed(verify(*module)))
    return nullptr;
  return std::move(module);
}

/// Imports one fusion or group. After complete functions, one that the input
/// ends inside is a truncated tail (pasted dumps are often cut off): it is
/// dropped with a warning instead of failing the whole import, so its
/// diagnostics are held back until that is known.
LogicalResult
Importer::importFunction(bool isFusion,
                         const std::optional<std::string> &bannerName) {
  llvm::SMLoc start = tok.getLoc();
  bool mayBeTail = completeFunctions > 0;
  SmallVector<Diagnostic> held;
  std::optional<ScopedDiagnosticHandler> holder;
  if (mayBeTail)
    holder.emplace(context, [&](Diagnostic &diag) {
      held.push_back(std::move(diag));
      return success();
    });
  function = nullptr;
  LogicalResult parsed = isFusion ? parseFusion(bannerName) : parseGroup();
  holder.reset();
  bool isTail = failed(parsed) && mayBeTail &&
                (tok.is(Kind::Eof) || isOnLastLine(tok.getLoc()));
  if (!isTail) {
    for (Diagnostic &diag : held)
      context->getDiagEngine().emit(std::move(diag));
    if (succeeded(parsed))
      ++completeFunctions;
    return parsed;
  }
  if (function)
    function.erase();
  InFlightDiagnostic warning = mlir::emitWarning(getLoc(start));
  warning << "the input ends inside this " << (isFusion ? "fusion" : "group")
          << "; skipped it and imported the " << completeFunctions
          << " complete function" << (completeFunctions == 1 ? "" : "s")
          << " before it";
  for (Diagnostic &diag : held)
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      warning.attachNote(diag.getLocation()) << diag.str();
  return success();
}

std::string Importer::getUniqueFunctionName(llvm::StringRef base) {
  while (true) {
    unsigned count = functionNames[base]++;
    std::string name =
        count == 0 ? base.str() : (base + "_" + llvm::Twine(count)).str();
    if (!module->lookupSymbol(name))
      return name;
  }
}

/// Inputs: <decls> Outputs: <decls> %kernel_math { <statements> }
/// (`Fusion::printMath`), or `%kernel {` (`Fusion::print`), whose body may
/// end in a `TransformPrinter :` section before the closing brace.
LogicalResult
Importer::parseFusion(const std::optional<std::string> &bannerName) {
  llvm::SMLoc loc = tok.getLoc();
  SmallVector<Definition> inputs, outputs;
  if (failed(expectKeyword("Inputs", "to start the fusion")) ||
      failed(expect(Kind::Colon, ":", "after 'Inputs'")) ||
      failed(parseDeclarationList(/*stopAtStatement=*/false, inputs)) ||
      failed(expectKeyword("Outputs", "after the fusion inputs")) ||
      failed(expect(Kind::Colon, ":", "after 'Outputs'")) ||
      failed(parseDeclarationList(/*stopAtStatement=*/false, outputs)) ||
      failed(expect(Kind::Percent, "%kernel_math", "after the fusion outputs")))
    return failure();
  if (!tok.isIdentifier("kernel_math") && !tok.isIdentifier("kernel"))
    return emitError(tok.getLoc())
           << "expected 'kernel_math' or 'kernel' after '%', found "
           << describeCurrent();
  std::string bodyName = ("%" + tok.spelling).str();
  consume();
  if (failed(expect(Kind::LBrace, "{", "to open '" + bodyName + "'")))
    return failure();

  function =
      createFunction(loc, getUniqueFunctionName(bannerName.value_or("fusion")),
                     inputs, outputs);
  if (failed(parseBody([&] {
        return tok.is(Kind::RBrace) || tok.is(Kind::Eof) ||
               tok.isIdentifier("TransformPrinter");
      })))
    return failure();
  // `TransformPrinter :` lists each tensor's domains and the splits and
  // merges of scheduling, which say nothing about the math.
  if (tok.isIdentifier("TransformPrinter"))
    skipToUnmatchedBrace();
  // The report this importer was written for lost the closing brace; the
  // statements are all there, so the fusion still imports.
  if (tok.is(Kind::Eof))
    mlir::emitWarning(getLoc(tok.getLoc()))
        << "'" << bodyName
        << "' body is not closed with '}' before the end of "
           "input; imported the statements read so far";
  else
    consume();
  return finishFunction(function, outputs);
}

/// g{(kind) group id: N inputs: <decls> outputs: <decls> <statements> }.
/// Blocks before PR #2708 (2024-07-29) have no `group id:` line and, without
/// a scheduler, print a bare `g{`; they are numbered by position.
LogicalResult Importer::parseGroup() {
  llvm::SMLoc loc = tok.getLoc();
  consume(); // g
  if (failed(expect(Kind::LBrace, "{", "after 'g'")))
    return failure();
  std::optional<llvm::StringRef> scheduler;
  if (tok.is(Kind::LParen)) {
    consume();
    if (!tok.is(Kind::Identifier))
      return emitError(tok.getLoc())
             << "expected the group's scheduler kind (e.g. 'reduction'), found "
             << describeCurrent();
    scheduler = tok.spelling;
    consume();
    if (failed(expect(Kind::RParen, ")", "after the scheduler kind")))
      return failure();
  }
  unsigned position = groupCount++;
  std::string name;
  if (tok.isIdentifier("group")) {
    consume();
    if (failed(expectKeyword("id", "after 'group'")) ||
        failed(expect(Kind::Colon, ":", "after 'group id'")))
      return failure();
    llvm::SMLoc idLoc = tok.getLoc();
    FailureOr<int64_t> groupId = parseInteger("as the group id");
    if (failed(groupId))
      return failure();
    name = "group_" + std::to_string(*groupId);
    if (module->lookupSymbol(name))
      return emitError(idLoc) << "group id " << *groupId << " appears twice";
  } else {
    name = getUniqueFunctionName("group_" + std::to_string(position));
  }
  SmallVector<Definition> inputs, outputs;
  if (failed(expectKeyword("inputs", "in the group header")) ||
      failed(expect(Kind::Colon, ":", "after 'inputs'")) ||
      failed(parseDeclarationList(/*stopAtStatement=*/true, inputs)) ||
      failed(expectKeyword("outputs", "after the group inputs")) ||
      failed(expect(Kind::Colon, ":", "after 'outputs'")) ||
      failed(parseDeclarationList(/*stopAtStatement=*/true, outputs)))
    return failure();

  function = createFunction(loc, name, inputs, outputs);
  if (scheduler)
    function->setAttr("nvfuser.scheduler", builder.getStringAttr(*scheduler));
  if (failed(parseBody(
          [&] { return tok.is(Kind::RBrace) || tok.is(Kind::Eof); })) ||
      failed(expect(Kind::RBrace, "}", "to close the group")))
    return failure();
  return finishFunction(function, outputs);
}

/// Tensors and named scalars, each optionally followed by its dtype: group
/// dumps print `T3_g___bfloat[...] __bfloat`, and before PR #2889 the
/// Inputs/Outputs lists printed `T0_g[ iS0{4} ], float` and `d2, double`,
/// the only place an old-format tensor's dtype appears. In a group the
/// statements follow the outputs directly; a declaration followed by `=` is a
/// statement.
LogicalResult
Importer::parseDeclarationList(bool stopAtStatement,
                               SmallVectorImpl<Definition> &decls) {
  while (tok.is(Kind::Identifier)) {
    SavedPosition start = save();
    Definition decl;
    if (isTensorName(tok.spelling)) {
      FailureOr<TensorDecl> tensor = parseTensorDecl();
      if (failed(tensor))
        return failure();
      decl = {tensor->name, tensor->loc, tensor->type, *tensor};
    } else if (parseScalarName(tok.spelling, context)) {
      FailureOr<Definition> scalar = parseScalarDecl();
      if (failed(scalar))
        return failure();
      decl = *scalar;
    } else {
      return success();
    }
    if (stopAtStatement && (tok.is(Kind::Equal) || startsResultList())) {
      restore(start);
      return success();
    }
    // A tensor's `uint64_t` (sdpa's Philox state) is i64, marked unsigned.
    auto parseListDataType = [&](const Token &t) -> Type {
      if (decl.tensor && t.isIdentifier("uint64_t") &&
          (decl.tensor->isUInt64 || !decl.tensor->elementType))
        return IntegerType::get(context, 64);
      return parseDataType(t.spelling, context);
    };
    if (tok.is(Kind::Comma) && peek().is(Kind::Identifier) &&
        parseListDataType(peek()))
      consume();
    if (tok.is(Kind::Identifier)) {
      if (Type dtype = parseListDataType(tok)) {
        if (decl.tensor && tok.isIdentifier("uint64_t"))
          decl.tensor->isUInt64 = true;
        if (decl.tensor && !decl.tensor->elementType) {
          decl.tensor->setElementType(dtype);
          decl.type = decl.tensor->type;
        } else if (!decl.tensor &&
                   getScalarCategory(dtype) == getScalarCategory(decl.type)) {
          // The prefix gives the category (`f` for every float type); the
          // printed dtype the width.
          decl.type = dtype;
        } else if (dtype != getElementTypeOrSelf(decl.type)) {
          return emitError(tok.getLoc())
                 << "dtype '" << tok.spelling << "' does not match '"
                 << decl.name << "', which is " << decl.type;
        }
        consume();
      }
    }
    if (decl.tensor && !decl.tensor->elementType)
      return emitError(decl.loc)
             << "'" << decl.name
             << "' has no dtype: in the print format before nvFuser PR #2889 "
                "(2024-09), inputs and outputs are followed by it, as in "
                "'T0_g[ iS0{4} ], float'";
    if (llvm::any_of(decls, [&](const Definition &other) {
          return other.name == decl.name;
        }))
      return emitError(decl.loc) << "'" << decl.name << "' is listed twice";
    decls.push_back(std::move(decl));
    if (tok.is(Kind::Comma))
      consume();
  }
  return success();
}

bool Importer::startsResultList() {
  SavedPosition start = save();
  bool sawTensor = false;
  while (tok.is(Kind::Comma)) {
    consume();
    if (!tok.is(Kind::Identifier) || !isTensorName(tok.spelling))
      break;
    consume();
    if (!tok.is(Kind::LSquare))
      break;
    unsigned depth = 0;
    do {
      if (tok.is(Kind::LSquare))
        ++depth;
      else if (tok.is(Kind::RSquare))
        --depth;
      consume();
    } while (depth > 0 && !tok.is(Kind::Eof));
    sawTensor = true;
  }
  bool isResultList = sawTensor && tok.is(Kind::Equal);
  restore(start);
  return isResultList;
}

func::FuncOp Importer::createFunction(llvm::SMLoc loc, llvm::StringRef name,
                                      ArrayRef<Definition> inputs,
                                      ArrayRef<Definition> outputs) {
  auto argTypes = llvm::map_to_vector(
      inputs, [](const Definition &def) { return def.type; });
  auto resultTypes = llvm::map_to_vector(
      outputs, [](const Definition &def) { return def.type; });
  builder.setInsertionPointToEnd(module->getBody());
  auto func =
      func::FuncOp::create(builder, getLoc(loc), name,
                           builder.getFunctionType(argTypes, resultTypes));
  Block *body = func.addEntryBlock();
  values.clear();
  generatorSeed = generatorOffset = nullptr;
  generatorDraws = 0;
  for (auto [decl, arg] : llvm::zip_equal(inputs, body->getArguments())) {
    arg.setLoc(
        NameLoc::get(builder.getStringAttr(decl.name), getLoc(decl.loc)));
    values[decl.name] = arg;
  }
  builder.setInsertionPointToEnd(body);
  return func;
}

LogicalResult Importer::parseBody(llvm::function_ref<bool()> atEnd) {
  while (!atEnd()) {
    // Segmented dumps print the expression's id, `(43)`, after a statement.
    if (tok.is(Kind::LParen) && peek().is(Kind::Integer)) {
      consume();
      consume();
      if (failed(expect(Kind::RParen, ")", "after the expression id")))
        return failure();
      continue;
    }
    if (failed(parseStatement()))
      return failure();
  }
  return success();
}

LogicalResult Importer::finishFunction(func::FuncOp func,
                                       ArrayRef<Definition> outputs) {
  SmallVector<Value> results;
  for (const Definition &output : outputs) {
    auto it = values.find(output.name);
    if (it == values.end())
      return emitError(output.loc)
             << "output '" << output.name << "' is never defined";
    if (it->second.getType() != output.type)
      return emitError(output.loc)
             << "output '" << output.name << "' is declared as " << output.type
             << " but computed as " << it->second.getType();
    results.push_back(it->second);
  }
  func::ReturnOp::create(builder, func.getLoc(), results);
  // nvFuser prints only what the outputs need; what is dead here is what the
  // import itself left over (cat's unwrapped pads, unused constants).
  Block &body = func.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (isOpTriviallyDead(&op))
      op.erase();
  return success();
}

LogicalResult Importer::emitUnsupportedMultiOutput() {
  if (!tok.is(Kind::Identifier))
    return emitError(tok.getLoc())
           << "unsupported nvFuser statement with several outputs: fuser "
              "IR has no op for it";
  return emitError(tok.getLoc())
         << "unsupported nvFuser operation '" << tok.spelling
         << "' (a statement with several outputs): fuser IR has no op for it";
}

LogicalResult Importer::parseWelfordStatement(
    std::optional<TensorDecl> first) {
  SmallVector<TensorDecl, 3> outs;
  llvm::StringLiteral labels[] = {"Avg", "Var", "Count"};
  auto parseLabel = [&](llvm::StringRef label) -> LogicalResult {
    if (failed(expect(Kind::LParen, "(", "after a Welford result")) ||
        failed(expectKeyword(label, "as the Welford result's role")) ||
        failed(expect(Kind::RParen, ")", "after the Welford result's role")))
      return failure();
    return success();
  };
  if (first) {
    outs.push_back(*first);
    for (unsigned i = 0; i < 3; ++i) {
      if (i > 0) {
        FailureOr<TensorDecl> decl = parseTensorDecl();
        if (failed(decl))
          return failure();
        outs.push_back(*decl);
      }
      if (failed(parseLabel(labels[i])))
        return failure();
      if (i < 2 && failed(expect(Kind::Comma, ",", "between Welford results")))
        return failure();
    }
  } else {
    consume(); // WelfordResult
    if (failed(expect(Kind::LParen, "(", "after 'WelfordResult'")))
      return failure();
    for (unsigned i = 0; i < 3; ++i) {
      if (i > 0 &&
          failed(expect(Kind::Comma, ",", "between Welford results")))
        return failure();
      FailureOr<TensorDecl> decl = parseTensorDecl();
      if (failed(decl))
        return failure();
      outs.push_back(*decl);
    }
    if (failed(expect(Kind::RParen, ")", "after the Welford results")))
      return failure();
  }
  if (failed(expect(Kind::Equal, "=", "after the Welford results")))
    return failure();
  if (!tok.isIdentifier("Welford"))
    return emitUnsupportedMultiOutput();
  Location loc = getLoc(tok.getLoc());
  consume();
  if (failed(expect(Kind::LParen, "(", "after 'Welford'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source) || failed(parseLabel("Avg")))
    return failure();
  if (tok.is(Kind::Comma))
    consume();
  // A Welford of partial results (an rfactor's, or a grouped one) reads
  // (Avg, Var, Count) operands and may start from initial values: fuser has
  // only the Welford of a tensor.
  if (tok.is(Kind::Identifier) && isTensorName(tok.spelling))
    return emitError(tok.getLoc())
           << "unsupported Welford of partial results (Var and Count "
              "operands): only the Welford of a tensor imports";
  if (tok.isIdentifier("initial"))
    return emitError(tok.getLoc())
           << "unsupported Welford with an initial value";
  if (failed(expectKeyword("allreduce", "in 'Welford'")) ||
      failed(expect(Kind::Equal, "=", "after 'allreduce'")))
    return failure();
  if (!tok.isIdentifier("true") && !tok.isIdentifier("false"))
    return emitError(tok.getLoc())
           << "expected 'true' or 'false' after 'allreduce =', found "
           << describeCurrent();
  consume();
  if (failed(expect(Kind::RParen, ")", "to close 'Welford'")))
    return failure();
  if (tok.is(Kind::Semicolon))
    consume();

  SmallVector<int64_t> dims;
  for (auto [i, id] : llvm::enumerate(outs[0].domain))
    if (id.isReduction())
      dims.push_back(i);
  if (dims.empty())
    return emitError(outs[0].loc) << "Welford result '" << outs[0].name
                                  << "' has no reduction domain (rS)";
  if (outs[0].domain.size() != source->decl.logicalDomain().size())
    return emitError(outs[0].loc)
           << "Welford result '" << outs[0].name << "' has "
           << outs[0].domain.size() << " domains but its operand '"
           << source->decl.name << "' has "
           << source->decl.logicalDomain().size() << " dims";
  for (const TensorDecl &out : outs)
    if (values.count(out.name))
      return emitError(out.loc) << "'" << out.name << "' is defined twice";
  fusionBuilder.setLoc(loc);
  FailureOr<FusionBuilder::WelfordResult> result =
      fusionBuilder.welford(source->value, dims);
  if (failed(result))
    return failure();
  Value results[] = {result->avg, result->varSum, result->n};
  for (auto [out, value] : llvm::zip_equal(outs, results)) {
    // An old-format result takes the dtype the Welford gives it.
    resolveElementType(out, getElementTypeOrSelf(value.getType()));
    if (failed(checkDeclared(value, out, "Welford")))
      return failure();
    values[out.name] = value;
  }
  return success();
}

/// topk as fuser_mlir's Python frontend builds it (`topk` in
/// python/fuser_mlir/_ops.py): `fuser.argsort` (descending for `largest`),
/// `fuser.slice` of its first k along dim (the indices) and `fuser.gather`
/// of the operand there (the values). The results are always sorted, which
/// `sorted = False` allows. k must be a constant: the results' extents are.
LogicalResult Importer::parseTopkStatement() {
  llvm::SMLoc openLoc = tok.getLoc();
  consume(); // (
  SmallVector<TensorDecl, 2> outs;
  while (true) {
    if (!tok.is(Kind::Identifier) || !isTensorName(tok.spelling))
      return emitError(tok.getLoc())
             << "expected a tensor among the results of a statement with "
                "several outputs, found "
             << describeCurrent();
    FailureOr<TensorDecl> decl = parseTensorDecl();
    if (failed(decl))
      return failure();
    outs.push_back(*decl);
    if (!tok.is(Kind::Comma))
      break;
    consume();
  }
  if (failed(expect(Kind::RParen, ")", "after the results")) ||
      failed(expect(Kind::Equal, "=", "after the results")))
    return failure();
  if (!tok.isIdentifier("topk"))
    return emitUnsupportedMultiOutput();
  llvm::SMLoc opLoc = tok.getLoc();
  Location loc = getLoc(opLoc);
  consume();
  if (outs.size() != 2)
    return emitError(openLoc)
           << "'topk' has two results (values, indices), found "
           << outs.size();
  auto comma = [&] { return expect(Kind::Comma, ",", "in 'topk'"); };
  FailureOr<TensorRef> source = parseFirstOperand("topk");
  if (failed(source) || failed(comma()))
    return failure();
  llvm::SMLoc kLoc = tok.getLoc();
  if (!tok.is(Kind::Integer))
    return emitError(kLoc) << "expected a constant integer as k of 'topk', "
                              "found "
                           << describeCurrent()
                           << " (the results' extents depend on k)";
  FailureOr<int64_t> k = parseInteger("as k of 'topk'");
  if (failed(k) || failed(comma()))
    return failure();
  FailureOr<int64_t> dim = parseDimArgument("topk");
  if (failed(dim) || failed(comma()))
    return failure();
  FailureOr<bool> largest = parseFlagArgument("largest", "topk");
  if (failed(largest) || failed(comma()) ||
      failed(parseFlagArgument("sorted", "topk")) ||
      failed(expect(Kind::RParen, ")", "to close 'topk'")))
    return failure();
  if (tok.is(Kind::Semicolon))
    consume();
  for (const TensorDecl &out : outs)
    if (values.count(out.name))
      return emitError(out.loc) << "'" << out.name << "' is defined twice";

  ArrayRef<int64_t> extents =
      cast<RankedTensorType>(source->value.getType()).getShape();
  int64_t rank = extents.size();
  if (rank && (*dim < -rank || *dim >= rank))
    return emitError(opLoc) << "the topk dim " << *dim
                            << " is out of range for a tensor of rank " << rank;
  fusionBuilder.setLoc(loc);
  FailureOr<Value> order =
      fusionBuilder.argsort(source->value, *dim, *largest);
  if (failed(order))
    return failure();
  int64_t axis = rank ? (*dim < 0 ? *dim + rank : *dim) : 0;
  int64_t extent = rank ? extents[axis] : 1;
  if (*k < 0 || *k > extent)
    return emitError(kLoc) << "k of 'topk' is " << *k << ", out of range for "
                           << extent << " elements along dim " << axis;
  Value indices = *order, topValues = source->value;
  if (rank) {
    SmallVector<int64_t> starts(rank, 0), ends(extents);
    ends[axis] = *k;
    FailureOr<Value> sliced = fusionBuilder.slice(*order, starts, ends, {});
    if (failed(sliced))
      return failure();
    indices = *sliced;
    FailureOr<Value> gathered =
        fusionBuilder.gather(source->value, indices, axis);
    if (failed(gathered))
      return failure();
    topValues = *gathered;
  }
  Value results[] = {topValues, indices};
  Type elementTypes[] = {getElementTypeOrSelf(source->value.getType()),
                         builder.getI64Type()};
  for (auto [out, value, elementType] :
       llvm::zip_equal(outs, results, elementTypes)) {
    resolveElementType(out, elementType);
    if (failed(checkDeclared(value, out, "topk")))
      return failure();
    values[out.name] = value;
    if (Operation *op = value.getDefiningOp();
        op && !isa<NameLoc>(op->getLoc()))
      op->setLoc(NameLoc::get(builder.getStringAttr(out.name), op->getLoc()));
  }
  return success();
}

LogicalResult Importer::parseStatement() {
  Definition def;
  if (tok.isIdentifier("WelfordResult"))
    return parseWelfordStatement(std::nullopt);
  if (tok.is(Kind::LParen))
    return parseTopkStatement();
  if (tok.is(Kind::Identifier) && isTensorName(tok.spelling)) {
    FailureOr<TensorDecl> tensor = parseTensorDecl();
    if (failed(tensor))
      return failure();
    def = {tensor->name, tensor->loc, tensor->type, *tensor};
    if (tok.is(Kind::LParen))
      return parseWelfordStatement(*tensor);
    if (tok.is(Kind::Comma) && peek().is(Kind::Identifier) &&
        isTensorName(peek().spelling))
      return parseResultListStatement(*tensor);
    if (tensor->isUInt64)
      return emitUInt64Error(*tensor);
    // EmbeddingFwdOp prints a comma after its result.
    if (tok.is(Kind::Comma) && peek().is(Kind::Equal))
      consume();
  } else if (tok.is(Kind::Identifier) &&
             parseScalarName(tok.spelling, context)) {
    def = {tok.spelling, tok.getLoc(), parseScalarName(tok.spelling, context),
           std::nullopt};
    consume();
  } else {
    return emitError(tok.getLoc())
           << "expected a statement defining a tensor (like "
              "'T1_l_float[iS0{4}] = ...') or a scalar, found "
           << describeCurrent();
  }
  if (values.count(def.name))
    return emitError(def.loc) << "'" << def.name << "' is defined twice";
  if (failed(expect(Kind::Equal, "=", "after the defined value")) ||
      failed(parseRightHandSide(def)))
    return failure();
  // Named after the printed value, so that `--mlir-use-nameloc-as-prefix`
  // prints `%T38` for nvFuser's T38; a scalar copy (`d5 = d4;`) keeps the
  // name of what it copies.
  if (Operation *op = values[def.name].getDefiningOp();
      op && !isa<NameLoc>(op->getLoc()))
    op->setLoc(NameLoc::get(builder.getStringAttr(def.name), op->getLoc()));
  if (tok.is(Kind::Semicolon))
    consume();
  return success();
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

FailureOr<int64_t> Importer::parseInteger(llvm::StringRef context) {
  int64_t value;
  if (!tok.is(Kind::Integer))
    return emitError(tok.getLoc()) << "expected an integer " << context
                                   << ", found " << describeCurrent();
  if (tok.spelling.getAsInteger(10, value))
    return emitError(tok.getLoc())
           << "integer '" << tok.spelling << "' does not fit in 64 bits";
  consume();
  return value;
}

/// `T38_l___bfloat[bS153{1}, iS158{8}rf]`: name, memory type, dtype, domain;
/// `T38_l[ bS153{1}, ... ]` before PR #2889, whose dtype comes from
/// elsewhere.
FailureOr<TensorDecl> Importer::parseTensorDecl() {
  TensorDecl decl;
  decl.loc = tok.getLoc();
  llvm::StringRef spelling = tok.spelling;
  size_t nameEnd = spelling.find('_');
  decl.name = spelling.take_front(nameEnd);
  // After the name come the memory type and, since PR #2889, the dtype.
  llvm::StringRef memoryAndType = spelling.drop_front(nameEnd + 1);
  llvm::StringRef memory =
      memoryAndType.take_until([](char c) { return c == '_'; });
  if (!llvm::is_contained({"g", "l", "s", "t", "sym"}, memory))
    return emitError(decl.loc)
           << "expected a tensor like 'T3_g_float[...]' (name, memory type "
              "g/l/s/t/sym, dtype), found '"
           << spelling << "'";
  llvm::StringRef dtype = memoryAndType.drop_front(memory.size());
  if (dtype.consume_front("_")) {
    decl.elementType = parseDataType(dtype, context);
    if (dtype == "uint64_t") {
      decl.elementType = IntegerType::get(context, 64);
      decl.isUInt64 = true;
    }
    if (!decl.elementType)
      return emitError(decl.loc)
             << "unsupported dtype '" << dtype << "' in '" << spelling
             << "' (supported: __bfloat, __half, float, "
                "double, int, int64_t, nvfuser_index_t, bool, __e4m3, "
                "__e5m2, std::complex<float>, std::complex<double>)";
  }
  consume();
  if (failed(expect(Kind::LSquare, "[", "to open the domain of a tensor")))
    return failure();
  while (!tok.is(Kind::RSquare)) {
    FailureOr<IterDomainDecl> id = parseIterDomain();
    if (failed(id))
      return failure();
    decl.domain.push_back(*id);
    if (!tok.is(Kind::Comma))
      break;
    consume();
  }
  if (failed(expect(Kind::RSquare, "]", "to close the domain of a tensor")))
    return failure();
  // Scheduled fusions print the computeAt positions after the domain.
  for (llvm::StringRef position : {"ca_pos", "produce_pos", "compute_with"})
    if (tok.isIdentifier(position))
      return emitError(tok.getLoc())
             << "unsupported scheduled fusion: '" << position << "' after '"
             << decl.name
             << "' is a scheduling position; only unscheduled fusions import";

  decl.shape = extentsOf(decl.logicalDomain());
  if (!getCheckedNumElements(decl.shape))
    return emitError(decl.loc) << "tensor '" << decl.name
                               << "' has more elements than fit in 64 bits";
  if (decl.elementType)
    decl.setElementType(decl.elementType);
  return decl;
}

/// Scheduled fusions parallelize domains: `iblockIdx.x12{...}`,
/// `ithreadIdx.x`, `iV`, `iUR`, ... in place of the serial `S`.
LogicalResult Importer::rejectScheduledDomain(llvm::StringRef spelling) {
  llvm::StringRef rest = buffer.drop_front(spelling.data() - buffer.data());
  llvm::StringRef printed = rest.take_until(
      [](char c) { return c == '{' || c == ',' || c == ']' || c == '\n'; });
  return emitError(llvm::SMLoc::getFromPointer(spelling.data()))
         << "unsupported scheduled fusion: iteration domain '"
         << printed.rtrim()
         << "' is parallelized or scheduled; only unscheduled fusions (iS, "
            "bS, rS, nS and ?S domains) import";
}

/// `iS12{32}`, `bS5{1 ex 4}`, `iS158{8}rf`, `iS0{i0}`,
/// `iS22{( ceilDiv(i2, 3) )}`: iter type, parallel type `S`, number, extent,
/// optional rfactor marker. A symbolic domain (`?S3{i1}`, before
/// concretization) becomes a broadcast when its extent is 1 and an iteration
/// domain otherwise, as concretization decides.
FailureOr<IterDomainDecl> Importer::parseIterDomain() {
  IterDomainDecl id;
  id.loc = tok.getLoc();
  bool isSymbolic = tok.is(Kind::Invalid) && tok.spelling == "?";
  if (isSymbolic) {
    consume();
    if (!tok.is(Kind::Identifier) ||
        tok.spelling.data() != id.loc.getPointer() + 1)
      return emitError(id.loc) << "expected a symbolic iteration domain like "
                                  "'?S3{i1}', found "
                               << describeCurrent();
  }
  llvm::StringRef spelling = tok.spelling;
  llvm::StringRef parallelAndNumber =
      isSymbolic ? spelling : spelling.drop_front();
  if (!tok.is(Kind::Identifier) || parallelAndNumber.empty() ||
      (!isSymbolic && !llvm::is_contained({'i', 'b', 'r', 'n'}, spelling[0])))
    return emitError(id.loc)
           << "expected an iteration domain like 'iS12{128}' (iS, bS, rS, nS "
              "or ?S), found "
           << describeCurrent();
  if (parallelAndNumber[0] != 'S')
    return rejectScheduledDomain(spelling);
  if (parallelAndNumber.drop_front().getAsInteger(10, id.number))
    return emitError(id.loc) << "unsupported iteration domain '" << spelling
                             << "': only unscheduled domains (iS, bS, rS, nS, "
                                "?S and a number) are supported";
  // `nS` (GatherScatter) is what torchGather makes of its index's
  // iteration domains: a dim like any other.
  id.iterType = isSymbolic ? '?' : spelling[0] == 'n' ? 'i' : spelling[0];
  consume();
  if (failed(expect(Kind::LBrace, "{", "to open the extent")))
    return failure();
  // `{start : stop : extent}` for resized domains; the last is the extent.
  FailureOr<int64_t> extent = parseExtent("as the extent");
  while (succeeded(extent) && tok.is(Kind::Colon)) {
    consume();
    extent = parseExtent("as the extent");
  }
  if (failed(extent))
    return failure();
  id.extent = *extent;
  // An expanded broadcast, `bS5{1 ex 4}`, has logical extent 4.
  if (tok.isIdentifier("ex")) {
    consume();
    FailureOr<int64_t> expanded = parseExtent("as the expanded extent");
    if (failed(expanded))
      return failure();
    id.extent = *expanded;
  }
  if (failed(expect(Kind::RBrace, "}", "to close the extent")))
    return failure();
  if (id.iterType == '?')
    id.iterType = id.extent == 1 ? 'b' : 'i';
  if (tok.isIdentifier("rf"))
    consume();
  return id;
}

/// An extent as nvFuser prints it (`Val::toInlineString`): an integer, a
/// symbol bound with `--extent`, `( a op b )` for + - * / %, `ceilDiv(a, b)`,
/// `max(a, b)`, `min(a, b)` and casts such as `(nvfuser_index_t)(i5)`.
/// It must be a non-negative 64-bit integer.
FailureOr<int64_t> Importer::parseExtent(llvm::StringRef what) {
  llvm::SMLoc loc = tok.getLoc();
  FailureOr<int64_t> value = parseExtentSum(what);
  if (failed(value))
    return failure();
  if (*value < 0)
    return emitError(loc) << "extent evaluates to " << *value
                          << ", which is negative";
  return value;
}

FailureOr<int64_t> Importer::parseExtentSum(llvm::StringRef what) {
  FailureOr<int64_t> lhs = parseExtentProduct(what);
  while (succeeded(lhs) && (tok.is(Kind::Plus) || tok.is(Kind::Minus))) {
    bool isAdd = tok.is(Kind::Plus);
    llvm::SMLoc loc = tok.getLoc();
    consume();
    FailureOr<int64_t> rhs = parseExtentProduct(what);
    if (failed(rhs))
      return failure();
    std::optional<int64_t> result =
        isAdd ? llvm::checkedAdd(*lhs, *rhs) : llvm::checkedSub(*lhs, *rhs);
    if (!result)
      return emitError(loc) << "extent arithmetic overflows 64 bits";
    lhs = *result;
  }
  return lhs;
}

/// Integer division as nvFuser's index arithmetic does it (C++: truncating),
/// by a non-zero `rhs`; nullopt where the quotient overflows.
static std::optional<int64_t> divideExtent(Kind op, int64_t lhs, int64_t rhs) {
  if (lhs == std::numeric_limits<int64_t>::min() && rhs == -1)
    return std::nullopt;
  return op == Kind::Slash ? lhs / rhs : lhs % rhs;
}

FailureOr<int64_t> Importer::parseExtentProduct(llvm::StringRef what) {
  FailureOr<int64_t> lhs = parseExtentPrimary(what);
  while (succeeded(lhs) &&
         (tok.is(Kind::Star) || tok.is(Kind::Slash) || tok.is(Kind::Percent))) {
    Kind op = tok.kind;
    llvm::SMLoc loc = tok.getLoc();
    consume();
    FailureOr<int64_t> rhs = parseExtentPrimary(what);
    if (failed(rhs))
      return failure();
    if (op != Kind::Star && *rhs == 0)
      return emitError(loc) << "extent arithmetic divides by zero";
    std::optional<int64_t> result = op == Kind::Star
                                        ? llvm::checkedMul(*lhs, *rhs)
                                        : divideExtent(op, *lhs, *rhs);
    if (!result)
      return emitError(loc) << "extent arithmetic overflows 64 bits";
    lhs = *result;
  }
  return lhs;
}

FailureOr<int64_t> Importer::parseExtentPrimary(llvm::StringRef what) {
  NestingScope scope(nesting);
  if (failed(checkNesting()))
    return failure();
  llvm::SMLoc loc = tok.getLoc();
  if (tok.is(Kind::Minus)) {
    consume();
    FailureOr<int64_t> operand = parseExtentPrimary(what);
    if (failed(operand))
      return failure();
    if (*operand == std::numeric_limits<int64_t>::min())
      return emitError(loc) << "extent arithmetic overflows 64 bits";
    return -*operand;
  }
  if (tok.is(Kind::Integer))
    return parseInteger(what);
  if (tok.is(Kind::LParen)) {
    consume();
    // `(nvfuser_index_t)(i5)`: casts between integer types keep the value.
    if (tok.is(Kind::Identifier) && parseDataType(tok.spelling, context) &&
        peek().is(Kind::RParen)) {
      consume();
      consume();
      return parseExtentPrimary(what);
    }
    FailureOr<int64_t> inner = parseExtentSum(what);
    if (failed(inner) ||
        failed(expect(Kind::RParen, ")", "to close the parenthesis")))
      return failure();
    return inner;
  }
  if (!tok.is(Kind::Identifier))
    return emitError(loc) << "expected an integer, a symbol or an index "
                             "expression "
                          << what << ", found " << describeCurrent();
  llvm::StringRef name = tok.spelling;
  if (parseScalarName(name, context)) {
    auto it = options.extents.find(name);
    if (it == options.extents.end())
      return emitError(loc) << "symbolic value '" << name
                            << "' has no value; give it one with "
                               "fuser-translate's option --extent "
                            << name << "=N";
    consume();
    return it->second;
  }
  bool isFunction = llvm::is_contained({"ceilDiv", "max", "min"}, name);
  if (!isFunction && !parseDataType(name, context))
    return emitError(loc) << "unsupported '" << name << "' " << what
                          << " (index expressions use integers, symbols, + - "
                             "* / %, ceilDiv, max and min)";
  consume();
  if (failed(expect(Kind::LParen, "(", ("after '" + name + "'").str())))
    return failure();
  FailureOr<int64_t> lhs = parseExtentSum(what);
  if (failed(lhs))
    return failure();
  // `nvfuser_index_t(3)`: a typed integer literal.
  if (!isFunction)
    return failed(expect(Kind::RParen, ")", ("to close '" + name + "'").str()))
               ? FailureOr<int64_t>(failure())
               : lhs;
  if (failed(expect(Kind::Comma, ",", ("in '" + name + "'").str())))
    return failure();
  FailureOr<int64_t> rhs = parseExtentSum(what);
  if (failed(rhs) ||
      failed(expect(Kind::RParen, ")", ("to close '" + name + "'").str())))
    return failure();
  if (name == "max")
    return std::max(*lhs, *rhs);
  if (name == "min")
    return std::min(*lhs, *rhs);
  // ceilDiv of the non-negative extents it is printed for.
  if (*rhs <= 0 || *lhs < 0)
    return emitError(loc) << "ceilDiv(" << *lhs << ", " << *rhs
                          << ") needs a non-negative dividend and a positive "
                             "divisor";
  return *lhs / *rhs + (*lhs % *rhs != 0);
}

/// `d2` with an optional dtype after it; the prefix gives the type.
FailureOr<Definition> Importer::parseScalarDecl() {
  Definition decl{tok.spelling, tok.getLoc(),
                  parseScalarName(tok.spelling, context), std::nullopt};
  consume();
  return decl;
}

//===----------------------------------------------------------------------===//
// Right-hand sides
//===----------------------------------------------------------------------===//

LogicalResult Importer::parseRightHandSide(const Definition &def) {
  if (tok.isIdentifier("sdpa") || tok.isIdentifier("sdpa_bwd"))
    return emitError(def.loc)
           << "'" << tok.spelling << "' has "
           << (tok.spelling == "sdpa"
                   ? "4 results (output, log_sumexp, philox_seed, "
                     "philox_offset)"
                   : "3 results (grad_query, grad_key, grad_value)")
           << ", found 1";
  if (tok.is(Kind::Identifier) && isTensorOpName(tok.spelling)) {
    if (!def.tensor)
      return emitError(tok.getLoc())
             << "'" << tok.spelling << "' defines a tensor, but '" << def.name
             << "' is a scalar";
    FailureOr<Value> value = parseTensorOp(*def.tensor);
    if (failed(value))
      return failure();
    values[def.name] = *value;
    return success();
  }
  // Null for an old-format tensor: the expression gives the dtype.
  Type elementType =
      def.tensor ? def.tensor->elementType : getElementTypeOrSelf(def.type);
  FailureOr<LocatedOperand> parsed = parseExpression();
  if (failed(parsed))
    return failure();
  const fuser::Operand &operand = parsed->operand;
  if (!elementType)
    elementType = operand.getDType(context);
  setBuildLoc(parsed->loc);
  FailureOr<Value> value = failure();
  if (operand.isTensor()) {
    // A bare assignment, `T5_l[...] = T4_g[...];`, is how nvFuser printed a
    // Set before LoadStoreOp: a copy. A tensor of another dtype than the
    // declared one is an error below, not a cast nvFuser did not print.
    value = parsed->isTensorReference && def.tensor
                ? fusionBuilder.set(operand.getValue())
                : operand.getValue();
  } else {
    value = fusionBuilder.materialize(operand, elementType);
  }
  if (failed(value) || failed(checkDeclaredType(*value, def, "the expression")))
    return failure();
  values[def.name] = *value;
  return success();
}

LogicalResult Importer::checkDeclaredType(Value value, const Definition &def,
                                          llvm::StringRef construct) {
  if (value.getType() == def.type)
    return success();
  if (def.tensor && !def.tensor->elementType) {
    auto tensorType = dyn_cast<RankedTensorType>(value.getType());
    if (tensorType && tensorType.getShape() == ArrayRef(def.tensor->shape))
      return success();
    InFlightDiagnostic diag = emitError(def.loc);
    diag << construct << " produces " << value.getType() << " but '" << def.name
         << "' is declared with shape [";
    llvm::interleaveComma(def.tensor->shape, diag);
    return diag << "]";
  }
  return emitError(def.loc)
         << construct << " produces " << value.getType() << " but '" << def.name
         << "' is declared as " << def.type;
}

FailureOr<Importer::TensorRef> Importer::parseTensorRef(bool allowUInt64) {
  if (!tok.is(Kind::Identifier) || !isTensorName(tok.spelling))
    return emitError(tok.getLoc())
           << "expected a tensor operand like 'T3_g_float[...]', found "
           << describeCurrent();
  FailureOr<TensorDecl> decl = parseTensorDecl();
  if (failed(decl))
    return failure();
  if (decl->isUInt64 && !allowUInt64)
    return emitUInt64Error(*decl);
  auto it = values.find(decl->name);
  if (it == values.end())
    return emitError(decl->loc)
           << "'" << decl->name << "' is used before it is defined";
  // Only tensors are named `T<n>` (scalars are `d2`, `i5`, ...), and a
  // statement defining one checks that it produced a tensor.
  assert(isa<RankedTensorType>(it->second.getType()) &&
         "a tensor name holds a scalar");
  resolveElementType(*decl, getElementTypeOrSelf(it->second.getType()));
  if (it->second.getType() != decl->type)
    return emitError(decl->loc)
           << "'" << decl->name << "' is printed here as " << decl->type
           << " but was defined as " << it->second.getType();
  return TensorRef{*decl, it->second};
}

FailureOr<Value> Importer::checkDeclared(FailureOr<Value> value,
                                         const TensorDecl &out,
                                         llvm::StringRef opName) {
  if (failed(value))
    return failure();
  if (value->getType() != out.type)
    return emitError(out.loc)
           << "'" << opName << "' produces " << value->getType() << " but '"
           << out.name << "' is declared as " << out.type;
  return value;
}

FailureOr<Value> Importer::parseTensorOp(TensorDecl out) {
  llvm::StringRef name = tok.spelling;
  Location loc = getLoc(tok.getLoc());
  consume();
  FailureOr<Value> value = failure();
  if (name == "view" || name == "reshape")
    value = parseView(out, loc, name);
  else if (name == "squeeze")
    value = parseSqueeze(out, loc);
  else if (name == "broadcast")
    value = parseBroadcast(out, loc);
  else if (name == "expand")
    value = parseExpand(out, loc);
  else if (name == "reduction")
    value = parseReduction(out, loc);
  else if (name == "pad")
    value = parsePad(out, loc);
  else if (name == "slice")
    value = parseSlice(out, loc);
  else if (name == "cat")
    value = parseCat(out, loc);
  else if (name == "full")
    value = parseFull(out, loc);
  else if (name == "iota")
    value = parseIota(out, loc);
  else if (isRandomOpName(name))
    value = parseRandom(out, loc, name);
  else if (isGatherOpName(name))
    value = parseGather(out, loc, name);
  else if (name == "indexSelect" || name == "index_select")
    value = parseIndexSelect(out, loc, name);
  else if (name == "select")
    value = parseSelect(out, loc);
  else if (name == "embedding")
    value = parseEmbedding(out, loc);
  else if (name == "scan")
    value = parseScan(out, loc);
  else if (name == "scatter")
    value = parseScatter(out, loc);
  else if (name == "argsort")
    value = parseArgsort(out, loc);
  else if (name == "GroupedMmaOp")
    value = parseGroupedMm(out, loc);
  else if (name == "matmul" || name == "linear")
    value = parseMatmul(out, loc, name);
  else
    value = parseLoadStore(out, loc, name);
  if (failed(value) ||
      failed(expect(Kind::RParen, ")", ("to close '" + name + "'").str())))
    return failure();
  return value;
}

/// view( T ), printed as reshape( T ) since nvFuser PR #5801 (2026-01-12).
FailureOr<Value> Importer::parseView(TensorDecl &out, Location loc,
                                     llvm::StringRef opName) {
  if (failed(expect(Kind::LParen, "(", ("after '" + opName + "'").str())))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source))
    return failure();
  resolveElementType(out, source->decl.elementType);
  fusionBuilder.setLoc(loc);
  return checkDeclared(fusionBuilder.reshape(source->value, out.shape), out,
                       opName);
}

/// `, flags = {true, false, ...}`: newer nvFuser prints which dims a squeeze
/// removes or a broadcast inserts. Returns the positions that are true.
FailureOr<SmallVector<int64_t>>
Importer::parseFlags(size_t rank, llvm::StringRef construct) {
  llvm::SMLoc loc = tok.getLoc();
  if (failed(expectKeyword("flags", ("in '" + construct + "'").str())) ||
      failed(expect(Kind::Equal, "=", "after 'flags'")) ||
      failed(expect(Kind::LBrace, "{", "to open the flags")))
    return failure();
  SmallVector<int64_t> positions;
  size_t count = 0;
  while (!tok.is(Kind::RBrace)) {
    if (!tok.isIdentifier("true") && !tok.isIdentifier("false"))
      return emitError(tok.getLoc())
             << "expected 'true' or 'false' in the flags, found "
             << describeCurrent();
    if (tok.isIdentifier("true"))
      positions.push_back(count);
    ++count;
    consume();
    if (!tok.is(Kind::Comma))
      break;
    consume();
  }
  if (failed(expect(Kind::RBrace, "}", "to close the flags")))
    return failure();
  if (count != rank)
    return emitError(loc) << "'" << construct << "' has " << count
                          << " flags for " << rank << " dims";
  return positions;
}

/// squeeze( T [, flags = {...}] ): the removed dims are the operand's size-1
/// dims missing from the result (its bS dims when they account for all).
FailureOr<Value> Importer::parseSqueeze(TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'squeeze'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source))
    return failure();
  resolveElementType(out, source->decl.elementType);
  SmallVector<IterDomainDecl> sourceDomain = source->decl.logicalDomain();
  SmallVector<int64_t> dims;
  if (tok.is(Kind::Comma)) {
    consume();
    FailureOr<SmallVector<int64_t>> flagged =
        parseFlags(sourceDomain.size(), "squeeze");
    if (failed(flagged))
      return failure();
    dims = *flagged;
  } else {
    std::optional<SmallVector<int64_t>> missing = findMissingUnitDims(
        extentsOf(sourceDomain), extentsOf(out.logicalDomain()),
        broadcastPositions(sourceDomain));
    if (!missing)
      return emitError(out.loc)
             << "'" << out.name << "' (" << out.type << ") is not '"
             << source->decl.name << "' (" << source->decl.type
             << ") with size-1 dims removed";
    dims = *missing;
  }
  fusionBuilder.setLoc(loc);
  return checkDeclared(fusionBuilder.squeeze(source->value, dims), out,
                       "squeeze");
}

/// broadcast( T [, flags = {...}] ): the inserted dims are the result's
/// size-1 dims missing from the operand (its bS dims when they account for
/// all).
FailureOr<Value> Importer::parseBroadcast(TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'broadcast'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source))
    return failure();
  resolveElementType(out, source->decl.elementType);
  SmallVector<IterDomainDecl> outDomain = out.logicalDomain();
  SmallVector<int64_t> dims;
  if (tok.is(Kind::Comma)) {
    consume();
    FailureOr<SmallVector<int64_t>> flagged =
        parseFlags(outDomain.size(), "broadcast");
    if (failed(flagged))
      return failure();
    dims = *flagged;
  } else {
    std::optional<SmallVector<int64_t>> missing = findMissingUnitDims(
        extentsOf(outDomain), extentsOf(source->decl.logicalDomain()),
        broadcastPositions(outDomain));
    if (!missing)
      return emitError(out.loc)
             << "'" << out.name << "' (" << out.type << ") is not '"
             << source->decl.name << "' (" << source->decl.type
             << ") with size-1 dims inserted";
    dims = *missing;
  }
  SmallVector<bool> isBroadcastDim(outDomain.size(), false);
  for (int64_t dim : dims)
    isBroadcastDim[dim] = true;
  fusionBuilder.setLoc(loc);
  return checkDeclared(fusionBuilder.broadcast(source->value, isBroadcastDim),
                       out, "broadcast");
}

/// Skips `{4, i3, ( ceilDiv(i2, 3) ), ...}`: the extents an expand or a
/// full prints repeat the result's domain, which is what the import uses.
LogicalResult Importer::skipExtentList() {
  if (failed(expect(Kind::LBrace, "{", "to open the extents")))
    return failure();
  skipToUnmatchedBrace();
  return expect(Kind::RBrace, "}", "to close the extents");
}

/// expand( T [, {extents}] )
FailureOr<Value> Importer::parseExpand(TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'expand'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source))
    return failure();
  resolveElementType(out, source->decl.elementType);
  if (tok.is(Kind::Comma)) {
    consume();
    if (failed(skipExtentList()))
      return failure();
  }
  fusionBuilder.setLoc(loc);
  return checkDeclared(fusionBuilder.expand(source->value, out.shape), out,
                       "expand");
}

/// `add`, `mul`, `max` or `min`: the op of a reduction (`op = add`) or a
/// scan (`op_type=add`), whose spelling `opName` the errors use.
FailureOr<ReductionKind> Importer::parseCombinerKind(llvm::StringRef opName) {
  llvm::SMLoc kindLoc = tok.getLoc();
  std::optional<ReductionKind> kind;
  if (tok.is(Kind::Identifier))
    kind = llvm::StringSwitch<std::optional<ReductionKind>>(tok.spelling)
               .Case("add", ReductionKind::Add)
               .Case("mul", ReductionKind::Mul)
               .Case("max", ReductionKind::Max)
               .Case("min", ReductionKind::Min)
               .Default(std::nullopt);
  if (tok.is(Kind::Identifier) && isNaNIgnoringName(tok.spelling))
    return emitError(kindLoc)
           << "unsupported " << opName << " op '" << tok.spelling
           << "': it ignores NaN (IEEE maxNum/minNum), which the max/min "
           << opName << "s do not model";
  if (!kind)
    return emitError(kindLoc)
           << "unsupported " << opName << " op " << describeCurrent()
           << " (supported: add, mul, max, min)";
  consume();
  return *kind;
}

/// The initial value nvFuser prints for a reduction or a scan of
/// `elementType`; fuser.reduction and fuser.scan start from the identity of
/// their kind, and so do nvFuser's sum, prod, max and min and its cumsum,
/// cumprod, cummax and cummin. For max and min the identity is the lowest
/// (highest) value of the element type: -inf for floats, the type's minimum
/// (maximum) for integers (false and true for bool).
LogicalResult Importer::parseIdentity(ReductionKind kind, Type elementType,
                                      llvm::StringRef opName) {
  llvm::SMLoc initLoc = tok.getLoc();
  FailureOr<ScalarLiteral> init = parseLiteral();
  if (failed(init))
    return failure();
  bool isFloatInit = init->kind == ScalarLiteral::Kind::Float;
  double initValue =
      isFloatInit ? init->floatValue : static_cast<double>(init->intValue);
  std::optional<std::pair<int64_t, int64_t>> intRange;
  if (elementType.isInteger(1))
    intRange = {0, 1};
  else if (auto intType = dyn_cast<IntegerType>(elementType))
    intRange = {llvm::minIntN(intType.getWidth()),
                llvm::maxIntN(intType.getWidth())};
  bool isIdentity = false;
  switch (kind) {
  case ReductionKind::Add:
    isIdentity = initValue == 0;
    break;
  case ReductionKind::Mul:
    isIdentity = initValue == 1;
    break;
  case ReductionKind::Max:
    isIdentity =
        initValue == -std::numeric_limits<double>::infinity() ||
        (intRange && !isFloatInit && init->intValue <= intRange->first);
    break;
  case ReductionKind::Min:
    isIdentity =
        initValue == std::numeric_limits<double>::infinity() ||
        (intRange && !isFloatInit && init->intValue >= intRange->second);
    break;
  }
  if (!isIdentity)
    return emitError(initLoc)
           << opName << " initial value is not the identity of '"
           << stringifyReductionKind(kind) << "'; fuser." << opName
           << " has no initial value";
  return success();
}

/// reduction( T, op = add, initial value = float(0), allreduce = false ).
/// The reduced dims are the rS positions of the result; nvFuser drops
/// reduction domains from a tensor's logical shape (keepdim inserts a
/// separate broadcast), so the result has them removed.
FailureOr<Value> Importer::parseReduction(TensorDecl &out, Location loc) {
  FailureOr<TensorRef> source = parseFirstOperand("reduction");
  if (failed(source) || failed(expect(Kind::Comma, ",", "after the operand")) ||
      failed(expectArgumentName("op", "reduction")))
    return failure();
  resolveElementType(out, source->decl.elementType);
  FailureOr<ReductionKind> kind = parseCombinerKind("reduction");
  if (failed(kind) ||
      failed(expect(Kind::Comma, ",", "after the reduction op")) ||
      failed(expectKeyword("initial", "in 'reduction'")) ||
      failed(expectKeyword("value", "after 'initial'")) ||
      failed(expect(Kind::Equal, "=", "after 'initial value'")) ||
      failed(parseIdentity(*kind, source->decl.elementType, "reduction")))
    return failure();
  // `allreduce` is a scheduling property; the value computed is the same.
  // Old dumps print it as 0 or 1.
  if (tok.is(Kind::Comma)) {
    consume();
    if (failed(expectKeyword("allreduce", "in 'reduction'")) ||
        failed(expect(Kind::Equal, "=", "after 'allreduce'")))
      return failure();
    if (!tok.isIdentifier("true") && !tok.isIdentifier("false") &&
        !(tok.is(Kind::Integer) &&
          (tok.spelling == "0" || tok.spelling == "1")))
      return emitError(tok.getLoc())
             << "expected 'true', 'false', 0 or 1 after 'allreduce =', found "
             << describeCurrent();
    consume();
  }

  SmallVector<int64_t> dims;
  for (auto [i, id] : llvm::enumerate(out.domain))
    if (id.isReduction())
      dims.push_back(i);
  if (dims.empty())
    return emitError(out.loc) << "reduction result '" << out.name
                              << "' has no reduction domain (rS)";
  if (out.domain.size() != source->decl.logicalDomain().size())
    return emitError(out.loc)
           << "reduction result '" << out.name << "' has " << out.domain.size()
           << " domains but its operand '" << source->decl.name << "' has "
           << source->decl.logicalDomain().size() << " dims";
  // The printed reduction keeps its operand's dtype: nvFuser printed the
  // cast to int64 that its sum of ints makes.
  bool accumulates = *kind == ReductionKind::Add || *kind == ReductionKind::Mul;
  fusionBuilder.setLoc(loc);
  return checkDeclared(
      fusionBuilder.reduction(*kind, source->value, dims, /*keepdim=*/false,
                              accumulates ? source->decl.elementType : Type()),
      out, "reduction");
}

/// Set( T [, cache_op=Streaming] ), Set.Permute( ... ), SegmenterSet( ... ).
///
/// Set.Permute: nvFuser clones the operand's IterDomains into the result's
/// root domain in operand order, so their numbers ascend in operand order,
/// and prints the permuted logical domain. Result dim i is therefore operand
/// dim rank(number_i). When the numbers do not give a permutation consistent
/// with the extents, the extents decide if they are all distinct; otherwise
/// the permutation is ambiguous and reported.
FailureOr<Value> Importer::parseLoadStore(TensorDecl &out, Location loc,
                                          llvm::StringRef opName) {
  bool isPermute = false;
  if (opName == "Set" && tok.is(Kind::Dot)) {
    consume();
    if (failed(expectKeyword("Permute", "after 'Set.'")))
      return failure();
    isPermute = true;
  }
  if (failed(expect(Kind::LParen, "(", ("after '" + opName + "'").str())))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source))
    return failure();
  resolveElementType(out, source->decl.elementType);
  std::optional<CacheOp> cacheOp;
  if (tok.is(Kind::Comma)) {
    consume();
    if (failed(expectKeyword("cache_op", "in '" + opName.str() + "'")) ||
        failed(expect(Kind::Equal, "=", "after 'cache_op'")))
      return failure();
    if (tok.is(Kind::Identifier))
      cacheOp = llvm::StringSwitch<std::optional<CacheOp>>(tok.spelling)
                    .Case("Unspecified", CacheOp::Unspecified)
                    .Case("AllLevels", CacheOp::AllLevels)
                    .Case("Streaming", CacheOp::Streaming)
                    .Case("Global", CacheOp::Global)
                    .Default(std::nullopt);
    if (!cacheOp)
      return emitError(tok.getLoc())
             << "unknown cache_op " << describeCurrent()
             << " (known: Unspecified, AllLevels, Streaming, Global)";
    consume();
  }

  fusionBuilder.setLoc(loc);
  if (opName == "SegmenterSet")
    return checkDeclared(fusionBuilder.segmentSet(source->value), out, opName);
  if (!isPermute)
    return checkDeclared(fusionBuilder.set(source->value, cacheOp), out,
                         opName);

  // fuser.permute carries no cache hint; Set.Permute's is dropped.
  SmallVector<IterDomainDecl> outDomain = out.logicalDomain();
  SmallVector<int64_t> sourceExtents = extentsOf(source->decl.logicalDomain());
  if (outDomain.size() != sourceExtents.size())
    return emitError(out.loc)
           << "'Set.Permute' result '" << out.name << "' and operand '"
           << source->decl.name << "' differ in rank";
  auto isConsistent = [&](ArrayRef<int64_t> permutation) {
    return llvm::all_of(llvm::enumerate(permutation), [&](auto entry) {
      return outDomain[entry.index()].extent == sourceExtents[entry.value()];
    });
  };
  SmallVector<int64_t> permutation(outDomain.size());
  // An index loop: clang before 16 cannot capture structured bindings.
  for (size_t i = 0; i < outDomain.size(); ++i)
    permutation[i] =
        llvm::count_if(outDomain, [&](const IterDomainDecl &other) {
          return other.number < outDomain[i].number;
        });
  bool numbersArePermutation =
      llvm::all_of(outDomain, [&](const IterDomainDecl &id) {
        return llvm::count_if(outDomain, [&](const IterDomainDecl &other) {
                 return other.number == id.number;
               }) == 1;
      });
  if (numbersArePermutation && isConsistent(permutation))
    return checkDeclared(fusionBuilder.permute(source->value, permutation), out,
                         "Set.Permute");

  for (auto [i, id] : llvm::enumerate(outDomain)) {
    if (llvm::count(sourceExtents, id.extent) != 1)
      return emitError(out.loc)
             << "cannot derive the permutation of 'Set.Permute': the "
                "IterDomain numbers of '"
             << out.name << "' do not order its dims consistently with '"
             << source->decl.name << "' and extent " << id.extent
             << " is ambiguous";
    permutation[i] =
        llvm::find(sourceExtents, id.extent) - sourceExtents.begin();
  }
  return checkDeclared(fusionBuilder.permute(source->value, permutation), out,
                       "Set.Permute");
}

FailureOr<SmallVector<int64_t>>
Importer::parseIntegerList(llvm::StringRef context) {
  if (failed(expect(Kind::LBrace, "{", ("to open " + context).str())))
    return failure();
  SmallVector<int64_t> list;
  while (!tok.is(Kind::RBrace)) {
    FailureOr<int64_t> value = parseExtentSum(("in " + context).str());
    if (failed(value))
      return failure();
    list.push_back(*value);
    if (!tok.is(Kind::Comma))
      break;
    consume();
  }
  if (failed(expect(Kind::RBrace, "}", ("to close " + context).str())))
    return failure();
  return list;
}

/// pad( T, {low0, high0, low1, high1, ...} ): widths in dim order. nvFuser
/// does not print the pad value; it is 0 unless a user passed another, which
/// the printed form cannot show.
FailureOr<Value> Importer::parsePad(TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'pad'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source) || failed(expect(Kind::Comma, ",", "after the operand")))
    return failure();
  resolveElementType(out, source->decl.elementType);
  llvm::SMLoc widthsLoc = tok.getLoc();
  FailureOr<SmallVector<int64_t>> widths = parseIntegerList("the pad widths");
  if (failed(widths))
    return failure();
  int64_t rank = source->decl.type.getRank();
  if (static_cast<int64_t>(widths->size()) != 2 * rank)
    return emitError(widthsLoc) << "'pad' needs 2 widths per dim (" << 2 * rank
                                << "), found " << widths->size();
  // The print lists (low, high) outermost dim first; the FusionBuilder
  // takes them innermost first, as nvFuser's Python API does.
  SmallVector<int64_t> innermostFirst;
  for (int64_t d = rank - 1; d >= 0; --d)
    llvm::append_range(innermostFirst,
                       ArrayRef<int64_t>(*widths).slice(2 * d, 2));
  fusionBuilder.setLoc(loc);
  return checkDeclared(fusionBuilder.pad(source->value, innermostFirst), out,
                       "pad");
}

/// slice( T, { {start, stop, step} {start, stop, step} } )
FailureOr<Value> Importer::parseSlice(TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'slice'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source) || failed(expect(Kind::Comma, ",", "after the operand")) ||
      failed(expect(Kind::LBrace, "{", "to open the slice ranges")))
    return failure();
  resolveElementType(out, source->decl.elementType);
  SmallVector<int64_t> starts, limits, strides;
  while (tok.is(Kind::LBrace)) {
    llvm::SMLoc rangeLoc = tok.getLoc();
    FailureOr<SmallVector<int64_t>> range = parseIntegerList("a slice range");
    if (failed(range))
      return failure();
    if (range->size() != 3)
      return emitError(rangeLoc)
             << "a slice range is {start, stop, step}, found " << range->size()
             << " values";
    starts.push_back((*range)[0]);
    limits.push_back((*range)[1]);
    strides.push_back((*range)[2]);
    if (tok.is(Kind::Comma))
      consume();
  }
  if (failed(expect(Kind::RBrace, "}", "to close the slice ranges")))
    return failure();
  fusionBuilder.setLoc(loc);
  return checkDeclared(
      fusionBuilder.slice(source->value, starts, limits, strides), out,
      "slice");
}

/// cat( T0, T1, ..., dim ). nvFuser pads each input to the full result
/// extent along `dim` before its CatOp; such pads are unwrapped here when
/// they place the inputs one after another, since fuser.cat takes the
/// unpadded pieces.
FailureOr<Value> Importer::parseCat(TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'cat'")))
    return failure();
  SmallVector<TensorRef> inputs;
  while (!tok.is(Kind::Integer)) {
    FailureOr<TensorRef> input = parseTensorRef();
    if (failed(input) ||
        failed(expect(Kind::Comma, ",", "after a 'cat' operand")))
      return failure();
    inputs.push_back(*input);
  }
  llvm::SMLoc dimLoc = tok.getLoc();
  FailureOr<int64_t> dim = parseInteger("as the concatenated dim");
  if (failed(dim))
    return failure();
  if (inputs.empty())
    return emitError(dimLoc) << "'cat' needs at least one operand";
  resolveElementType(out, inputs.front().decl.elementType);
  if (*dim < 0 || *dim >= out.type.getRank())
    return emitError(dimLoc)
           << "'cat' dim " << *dim << " is out of range for rank "
           << out.type.getRank();

  int64_t total = out.type.getDimSize(*dim);
  auto isPlacingPad = [&](const TensorRef &input) {
    auto pad = input.value.getDefiningOp<PadOp>();
    // An operand of another rank is reported by fuser.cat's verifier.
    if (!pad || input.decl.type.getRank() != out.type.getRank() ||
        input.decl.type.getDimSize(*dim) != total)
      return false;
    return llvm::all_of(
        llvm::seq<int64_t>(0, out.type.getRank()), [&](int64_t d) {
          return d == *dim || (pad.getLow()[d] == 0 && pad.getHigh()[d] == 0);
        });
  };
  SmallVector<Value> pieces;
  if (llvm::all_of(inputs, isPlacingPad)) {
    int64_t offset = 0;
    for (const TensorRef &input : inputs) {
      auto pad = input.value.getDefiningOp<PadOp>();
      if (pad.getLow()[*dim] != offset)
        return emitError(input.decl.loc)
               << "'cat' operand '" << input.decl.name
               << "' is padded to start at " << pad.getLow()[*dim]
               << " along dim " << *dim << ", not at " << offset
               << " after the operands before it";
      offset += pad.getSource().getType().getDimSize(*dim);
      pieces.push_back(pad.getSource());
    }
  } else {
    pieces = llvm::map_to_vector(
        inputs, [](const TensorRef &input) { return input.value; });
  }
  fusionBuilder.setLoc(loc);
  return checkDeclared(fusionBuilder.cat(pieces, *dim), out, "cat");
}

/// full({4, 8}, float(0))
FailureOr<Value> Importer::parseFull(TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'full'")) ||
      failed(skipExtentList()) ||
      failed(expect(Kind::Comma, ",", "after the extents of 'full'")))
    return failure();
  FailureOr<LocatedOperand> fill = parseExpression();
  if (failed(fill))
    return failure();
  // An old-format result takes the fill value's dtype.
  resolveElementType(out, fill->operand.getDType(context));
  fusionBuilder.setLoc(getLoc(fill->loc));
  return checkDeclared(
      fusionBuilder.full(out.shape, fill->operand, out.elementType), out,
      "full");
}

/// iota(length, start, step, dtype): the length is an extent (`8`, or `i1`
/// where nvFuser's triu takes it from its operand's shape), which must be the
/// declared result's; the dtype is the declared result's.
FailureOr<Value> Importer::parseIota(TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'iota'")))
    return failure();
  llvm::SMLoc lengthLoc = tok.getLoc();
  FailureOr<int64_t> length = parseExtent("as the length of 'iota'");
  if (failed(length) ||
      failed(expect(Kind::Comma, ",", "after the length of 'iota'")))
    return failure();
  FailureOr<LocatedOperand> start = parseExpression();
  if (failed(start) ||
      failed(expect(Kind::Comma, ",", "after the start of 'iota'")))
    return failure();
  FailureOr<LocatedOperand> step = parseExpression();
  if (failed(step) ||
      failed(expect(Kind::Comma, ",", "after the step of 'iota'")))
    return failure();
  if (!tok.is(Kind::Identifier))
    return emitError(tok.getLoc())
           << "expected the dtype of 'iota', found " << describeCurrent();
  consume();
  if (out.shape.size() != 1)
    return emitError(tok.getLoc()) << "'iota' declares a 1-D result";
  if (*length != out.shape[0])
    return emitError(lengthLoc)
           << "'iota' has length " << *length << " but '" << out.name
           << "' is declared with extent " << out.shape[0];
  fusionBuilder.setLoc(getLoc(start->loc));
  return checkDeclared(fusionBuilder.iota(out.shape[0], start->operand,
                                          step->operand, out.elementType),
                       out, "iota");
}

FailureOr<Value> Importer::addScalarArgument(llvm::StringRef name,
                                             Location loc) {
  unsigned index = function.getNumArguments();
  if (failed(function.insertArgument(
          index, builder.getI64Type(), /*argAttrs=*/{},
          NameLoc::get(builder.getStringAttr(name), loc))))
    return failure();
  return function.getArgument(index);
}

/// rng_uniform({extents}, dtype), rng_uniform_range({extents}, low, high,
/// dtype), rng_normal_standard({extents}, dtype) and
/// rng_normal_general({extents}, mean, std, dtype) (RNGOp::toString), each
/// followed by `, seed` when the op was given rng_seed and rng_offset. The
/// extents are the declared result's; the parameterless forms are
/// uniform(0, 1) and normal(0, 1), as nvFuser's Python frontend builds them.
///
/// nvFuser never prints the Philox offset, so the import makes it a function
/// argument:
/// - with a printed seed, an i64 argument `<T>_rng_offset` of that op alone
///   (appended after the printed inputs; the printed input that held the
///   offset stays an argument of its own);
/// - without one, nvFuser draws from torch's generator: at the first such op
///   two i64 arguments `rng_seed` and `rng_offset` are appended, and the k-th
///   such op (k from 0, in print order) draws at offset `rng_offset + k`, as
///   nvFuser's kernel gives its k-th generator op and as fuser_mlir's Python
///   frontend builds it (python/fuser_mlir/_generator.py).
FailureOr<Value> Importer::parseRandom(TensorDecl &out, Location loc,
                                       llvm::StringRef opName) {
  bool isNormal =
      opName == "rng_normal_standard" || opName == "rng_normal_general";
  bool hasParameters =
      opName == "rng_uniform_range" || opName == "rng_normal_general";
  if (failed(expect(Kind::LParen, "(", ("after '" + opName + "'").str())) ||
      failed(skipExtentList()) ||
      failed(expect(Kind::Comma, ",",
                    ("after the extents of '" + opName + "'").str())))
    return failure();
  fuser::Operand first = ScalarLiteral::getFloat(0);
  fuser::Operand second = ScalarLiteral::getFloat(1);
  if (hasParameters) {
    FailureOr<LocatedOperand> low = parseExpression();
    if (failed(low) ||
        failed(expect(Kind::Comma, ",",
                      ("after the first parameter of '" + opName + "'").str())))
      return failure();
    FailureOr<LocatedOperand> high = parseExpression();
    if (failed(high) ||
        failed(
            expect(Kind::Comma, ",",
                   ("after the second parameter of '" + opName + "'").str())))
      return failure();
    first = low->operand;
    second = high->operand;
  }
  Type dtype =
      tok.is(Kind::Identifier) ? parseDataType(tok.spelling, context) : Type();
  if (!dtype)
    return emitError(tok.getLoc()) << "expected the dtype of '" << opName
                                   << "', found " << describeCurrent();
  consume();
  resolveElementType(out, dtype);

  std::optional<fuser::Operand> seed, offset;
  if (tok.is(Kind::Comma)) {
    consume();
    FailureOr<LocatedOperand> printedSeed = parseExpression();
    if (failed(printedSeed))
      return failure();
    FailureOr<Value> offsetArgument =
        addScalarArgument((out.name + "_rng_offset").str(), loc);
    if (failed(offsetArgument))
      return failure();
    seed = printedSeed->operand;
    offset = *offsetArgument;
  } else {
    FailureOr<std::pair<Value, Value>> draw = drawFromGenerator(loc);
    if (failed(draw))
      return failure();
    std::tie(seed, offset) = *draw;
  }
  fusionBuilder.setLoc(loc);
  return checkDeclared(fusionBuilder.random(isNormal, out.shape, first, second,
                                            *seed, *offset, dtype),
                       out, opName);
}

FailureOr<std::pair<Value, Value>>
Importer::drawFromGenerator(Location loc) {
  if (!generatorSeed) {
    FailureOr<Value> seedArgument = addScalarArgument("rng_seed", loc);
    FailureOr<Value> offsetArgument = addScalarArgument("rng_offset", loc);
    if (failed(seedArgument) || failed(offsetArgument))
      return failure();
    generatorSeed = *seedArgument;
    generatorOffset = *offsetArgument;
  }
  Value offset = generatorOffset;
  if (generatorDraws > 0) {
    fusionBuilder.setLoc(loc);
    FailureOr<Value> drawOffset =
        fusionBuilder.binary(BinaryKind::Add, generatorOffset,
                             ScalarLiteral::getInt(generatorDraws));
    if (failed(drawOffset))
      return failure();
    offset = *drawOffset;
  }
  ++generatorDraws;
  return std::make_pair(generatorSeed, offset);
}

FailureOr<Importer::TensorRef>
Importer::parseFirstOperand(llvm::StringRef opName) {
  if (failed(expect(Kind::LParen, "(", ("after '" + opName + "'").str())))
    return failure();
  return parseTensorRef();
}

/// GroupedMmaOp(mat1=T, mat2=T, offsets=T): nvFuser's unscaled grouped_mm,
/// fuser.grouped_mm. The scaled form prints scale1=, alpha=, bias= and
/// beta= after the offsets, and block-scaled outputs; none is modelled.
FailureOr<Value> Importer::parseGroupedMm(TensorDecl &out, Location loc) {
  constexpr llvm::StringLiteral opName = "GroupedMmaOp";
  if (failed(expect(Kind::LParen, "(", "after 'GroupedMmaOp'")))
    return failure();
  SmallVector<Value, 3> operands;
  for (llvm::StringRef label : {"mat1", "mat2", "offsets"}) {
    if (!operands.empty() &&
        failed(expect(Kind::Comma, ",", "in 'GroupedMmaOp'")))
      return failure();
    if (failed(expectArgumentName(label, opName)))
      return failure();
    FailureOr<TensorRef> operand = parseTensorRef();
    if (failed(operand))
      return failure();
    if (operands.empty())
      resolveElementType(out, operand->decl.elementType);
    operands.push_back(operand->value);
  }
  if (tok.is(Kind::Comma))
    return emitError(tok.getLoc())
           << "unsupported scaled GroupedMmaOp (scale1, alpha, bias or beta "
              "after the offsets): fuser.grouped_mm models the unscaled form";
  fusionBuilder.setLoc(loc);
  return checkDeclared(
      fusionBuilder.groupedMm(operands[0], operands[1], operands[2]), out,
      opName);
}

/// matmul(A,\n B) (MatmulOp::toString) and linear(A,\n B) or linear(A,\n
/// B,\n bias) (LinearOp::toString): fuser.matmul and fuser.linear, built
/// by the FusionBuilder (torch.matmul's and F.linear's shapes). The result
/// prints the contraction as a trailing `rS` dim (none where K is a
/// broadcast), which the declared type drops.
FailureOr<Value> Importer::parseMatmul(TensorDecl &out, Location loc,
                                       llvm::StringRef opName) {
  std::string context = ("in '" + opName + "'").str();
  FailureOr<TensorRef> lhs = parseFirstOperand(opName);
  if (failed(lhs) || failed(expect(Kind::Comma, ",", context)))
    return failure();
  FailureOr<TensorRef> rhs = parseTensorRef();
  if (failed(rhs))
    return failure();
  Value bias;
  if (opName == "linear" && tok.is(Kind::Comma)) {
    consume();
    FailureOr<TensorRef> biasRef = parseTensorRef();
    if (failed(biasRef))
      return failure();
    bias = biasRef->value;
  }
  if (tok.is(Kind::Comma))
    return emitError(tok.getLoc())
           << "unexpected argument after the operands of '" << opName
           << "': it takes " << (opName == "linear" ? "two or three" : "two")
           << " tensors";
  resolveElementType(out, lhs->decl.elementType);
  fusionBuilder.setLoc(loc);
  FailureOr<Value> value =
      opName == "matmul" ? fusionBuilder.matmul(lhs->value, rhs->value)
                         : fusionBuilder.linear(lhs->value, rhs->value, bias);
  return checkDeclared(value, out, opName);
}

LogicalResult Importer::parseResultListStatement(TensorDecl first) {
  SmallVector<TensorDecl, 4> outs = {first};
  while (tok.is(Kind::Comma)) {
    consume();
    FailureOr<TensorDecl> decl = parseTensorDecl();
    if (failed(decl))
      return failure();
    outs.push_back(*decl);
  }
  if (failed(expect(Kind::Equal, "=", "after the results")))
    return failure();
  for (const TensorDecl &out : outs)
    if (values.count(out.name))
      return emitError(out.loc) << "'" << out.name << "' is defined twice";
  LogicalResult result = tok.isIdentifier("sdpa") ? parseSdpaFwd(outs)
                         : tok.isIdentifier("sdpa_bwd")
                             ? parseSdpaBwd(outs)
                             : emitUnsupportedMultiOutput();
  if (succeeded(result) && tok.is(Kind::Semicolon))
    consume();
  return result;
}

LogicalResult Importer::defineResults(ArrayRef<TensorDecl> outs,
                                      ValueRange results,
                                      llvm::StringRef opName) {
  for (auto [out, value] : llvm::zip_equal(outs, results)) {
    TensorDecl decl = out;
    // An old-format result takes the dtype the op gives it.
    resolveElementType(decl, getElementTypeOrSelf(value.getType()));
    if (failed(checkDeclared(value, decl, opName)))
      return failure();
    values[decl.name] = value;
  }
  if (Operation *op = results.front().getDefiningOp();
      op && !isa<NameLoc>(op->getLoc()))
    op->setLoc(
        NameLoc::get(builder.getStringAttr(outs.front().name), op->getLoc()));
  return success();
}

FailureOr<ScalarLiteral> Importer::parseConstantArgument(llvm::StringRef name,
                                                         llvm::StringRef opName,
                                                         bool isFlag) {
  llvm::SMLoc loc = tok.getLoc();
  if (tok.is(Kind::LParen) ||
      (tok.is(Kind::Identifier) && parseScalarName(tok.spelling, context)))
    return emitError(loc) << "unsupported '" << opName << "' with a "
                          << (tok.is(Kind::LParen) ? "computed" : "named")
                          << " " << name
                          << ": fuser IR takes it as a constant attribute";
  FailureOr<ScalarLiteral> literal = parseLiteral();
  if (failed(literal))
    return failure();
  bool isBool = literal->kind == ScalarLiteral::Kind::Bool;
  if (isFlag != isBool)
    return emitError(loc) << "expected "
                          << (isFlag ? "true or false" : "a number") << " as "
                          << name << " of '" << opName << "'";
  return literal;
}

LogicalResult Importer::parseAttentionScalar(llvm::StringRef key,
                                             llvm::StringRef opName,
                                             AttentionScalars &scalars) {
  llvm::SMLoc keyLoc = tok.getLoc();
  bool isFlag = key == "is_causal";
  std::optional<double> &real =
      key == "scale" ? scalars.scale : scalars.dropoutP;
  if (isFlag ? scalars.isCausal.has_value() : real.has_value())
    return emitError(keyLoc) << "'" << key << "' is given twice";
  if (failed(expectArgumentName(key, opName)))
    return failure();
  FailureOr<ScalarLiteral> value = parseConstantArgument(key, opName, isFlag);
  if (failed(value))
    return failure();
  if (isFlag)
    scalars.isCausal = value->intValue != 0;
  else
    real = value->kind == ScalarLiteral::Kind::Float
               ? value->floatValue
               : static_cast<double>(value->intValue);
  return success();
}

FailureOr<SmallVector<Value>>
Importer::parseAttentionHead(ArrayRef<TensorDecl> outs, llvm::StringRef opName,
                             llvm::StringRef resultNames, size_t operandCount) {
  size_t resultCount = llvm::count(resultNames, ',') + 1;
  consume(); // the op name
  if (outs.size() != resultCount)
    return emitError(outs.front().loc)
           << "'" << opName << "' has " << resultCount << " results ("
           << resultNames << "), found " << outs.size();
  std::string context = ("in '" + opName + "'").str();
  if (failed(expect(Kind::LParen, "(", context)))
    return failure();
  SmallVector<Value> operands;
  for (size_t i = 0; i < operandCount; ++i) {
    FailureOr<TensorRef> operand = parseTensorRef();
    if (failed(operand) || failed(expect(Kind::Comma, ",", context)))
      return failure();
    operands.push_back(operand->value);
  }
  return operands;
}

LogicalResult Importer::parseAttentionTensor(llvm::StringRef key,
                                             llvm::StringRef opName,
                                             Value &tensor, bool allowUInt64) {
  if (tensor)
    return emitError(tok.getLoc()) << "'" << key << "' is given twice";
  if (failed(expectArgumentName(key, opName)))
    return failure();
  FailureOr<TensorRef> operand = parseTensorRef(allowUInt64);
  if (failed(operand))
    return failure();
  tensor = operand->value;
  return success();
}

LogicalResult Importer::parseSdpaFwd(ArrayRef<TensorDecl> outs) {
  constexpr llvm::StringLiteral opName = "sdpa";
  Location loc = getLoc(tok.getLoc());
  FailureOr<SmallVector<Value>> operands = parseAttentionHead(
      outs, opName, "output, log_sumexp, philox_seed, philox_offset", 3);
  if (failed(operands))
    return failure();
  // nvFuser prints `bias=` and `mask=` operands, then `dropout_p = `,
  // `is_causal=` and, where given, `scale=`, each followed by a comma.
  AttentionScalars scalars;
  Value bias, mask;
  while (!tok.is(Kind::RParen)) {
    llvm::SMLoc keyLoc = tok.getLoc();
    llvm::StringRef key = tok.is(Kind::Identifier) ? tok.spelling : "";
    if (key == "bias" || key == "mask") {
      if (failed(parseAttentionTensor(key, opName, key == "bias" ? bias : mask,
                                      /*allowUInt64=*/false)))
        return failure();
    } else if (key == "dropout_p" || key == "is_causal" || key == "scale") {
      if (failed(parseAttentionScalar(key, opName, scalars)))
        return failure();
    } else {
      return emitError(keyLoc) << "expected an 'sdpa' argument (bias, mask, "
                                  "dropout_p, is_causal, scale) or ')', found "
                               << describeCurrent();
    }
    if (!tok.is(Kind::RParen) &&
        failed(expect(Kind::Comma, ",", "between the arguments of 'sdpa'")))
      return failure();
  }
  consume(); // )
  // nvFuser's defaults where an argument is missing: no dropout, not causal.
  // A dropout draws its Philox seed and offset from the generator, as a
  // random op printed without a seed does.
  double dropoutP = scalars.dropoutP.value_or(0.0);
  Value seed, offset;
  if (dropoutP != 0) {
    FailureOr<std::pair<Value, Value>> draw = drawFromGenerator(loc);
    if (failed(draw))
      return failure();
    std::tie(seed, offset) = *draw;
  }
  fusionBuilder.setLoc(loc);
  FailureOr<SmallVector<Value>> results = fusionBuilder.sdpfaFwd(
      (*operands)[0], (*operands)[1], (*operands)[2], bias, mask, dropoutP,
      scalars.isCausal.value_or(false), scalars.scale, seed, offset);
  if (failed(results))
    return failure();
  for (int i : {2, 3})
    if (outs[i].elementType && outs[i].elementType.isInteger(64) &&
        !outs[i].isUInt64 && outs[i].type != (*results)[i].getType())
      return emitError(outs[i].loc)
             << "'sdpa' " << (i == 2 ? "philox_seed" : "philox_offset") << " '"
             << outs[i].name << "' is declared as " << outs[i].type
             << ", nvFuser's form before torch 2.7 (int64 scalars); "
                "fuser.sdpfa_fwd returns torch 2.7's (uint64[2] and a "
                "uint64 scalar, as i64): "
             << (*results)[i].getType();
  return defineResults(outs, *results, opName);
}

LogicalResult Importer::parseSdpaBwd(ArrayRef<TensorDecl> outs) {
  constexpr llvm::StringLiteral opName = "sdpa_bwd";
  Location loc = getLoc(tok.getLoc());
  // grad_output, query, key, value, output.
  FailureOr<SmallVector<Value>> operands =
      parseAttentionHead(outs, opName, "grad_query, grad_key, grad_value", 5);
  if (failed(operands))
    return failure();
  // `logsum_exp = `, `dropout_p = `, `is_causal = `, `philox_seed = `,
  // `philox_offset = `, each followed by a comma, then where given
  // `, scale = ...` (nvFuser prints that comma too: `philox_offset = T6,
  // , scale = ...`).
  llvm::StringLiteral tensorKeys[] = {"logsum_exp", "philox_seed",
                                      "philox_offset"};
  Value tensors[3];
  AttentionScalars scalars;
  while (!tok.is(Kind::RParen)) {
    if (tok.is(Kind::Comma)) {
      consume();
      continue;
    }
    llvm::SMLoc keyLoc = tok.getLoc();
    llvm::StringRef key = tok.is(Kind::Identifier) ? tok.spelling : "";
    const llvm::StringLiteral *tensorKey = llvm::find(tensorKeys, key);
    if (tensorKey != std::end(tensorKeys)) {
      if (failed(parseAttentionTensor(
              key, opName, tensors[tensorKey - std::begin(tensorKeys)],
              /*allowUInt64=*/key != "logsum_exp")))
        return failure();
    } else if (key == "dropout_p" || key == "is_causal" || key == "scale") {
      if (failed(parseAttentionScalar(key, opName, scalars)))
        return failure();
    } else {
      return emitError(keyLoc)
             << "expected an 'sdpa_bwd' argument (logsum_exp, dropout_p, "
                "is_causal, philox_seed, philox_offset, scale) or ')', found "
             << describeCurrent();
    }
    if (!tok.is(Kind::RParen) &&
        failed(expect(Kind::Comma, ",", "between the arguments of 'sdpa_bwd'")))
      return failure();
  }
  for (size_t i = 0; i < std::size(tensors); ++i)
    if (!tensors[i])
      return emitError(tok.getLoc())
             << "'sdpa_bwd' without '" << tensorKeys[i] << "'";
  consume(); // )
  fusionBuilder.setLoc(loc);
  FailureOr<SmallVector<Value>> results = fusionBuilder.sdpfaBwd(
      (*operands)[0], (*operands)[1], (*operands)[2], (*operands)[3],
      (*operands)[4], tensors[0], scalars.dropoutP.value_or(0.0),
      scalars.isCausal.value_or(false), tensors[1], tensors[2], scalars.scale);
  if (failed(results))
    return failure();
  return defineResults(outs, *results, opName);
}

LogicalResult Importer::expectArgumentName(llvm::StringRef keyword,
                                           llvm::StringRef opName) {
  if (failed(expectKeyword(keyword, ("in '" + opName + "'").str())))
    return failure();
  return expect(Kind::Equal, "=", ("after '" + keyword + "'").str());
}

FailureOr<int64_t> Importer::parseDimArgument(llvm::StringRef opName) {
  if (failed(expectArgumentName("dim", opName)))
    return failure();
  return parseInteger(("as the dim of '" + opName + "'").str());
}

FailureOr<Value> Importer::castIndex(Value index) {
  Type element = getElementTypeOrSelf(index.getType());
  if (element.isInteger(32) || element.isInteger(64))
    return index;
  return fusionBuilder.cast(index, builder.getI64Type());
}

/// torchGather( T0, dim = 1, T1 ) and takeAlongAxis( T0, T1, dim = 0 )
/// (GatherOp::toString; `torch_gather` and `take_along_axis` before nvFuser
/// PR #3204, 2024-10-17): `fuser.gather`. takeAlongAxis's operands agree in
/// every dim but `dim`, an extent 1 of either broadcasting against the
/// other's (its broadcast domains), so the import expands them to each
/// other first, as fuser_mlir's Python take_along_axis does.
FailureOr<Value> Importer::parseGather(TensorDecl &out, Location loc,
                                       llvm::StringRef opName) {
  bool isTakeAlongAxis =
      opName == "takeAlongAxis" || opName == "take_along_axis";
  FailureOr<TensorRef> source = parseFirstOperand(opName);
  if (failed(source) ||
      failed(expect(Kind::Comma, ",", ("in '" + opName + "'").str())))
    return failure();
  FailureOr<TensorRef> index = failure();
  FailureOr<int64_t> dim = failure();
  if (isTakeAlongAxis) {
    index = parseTensorRef();
    if (failed(index) ||
        failed(expect(Kind::Comma, ",", ("in '" + opName + "'").str())))
      return failure();
    dim = parseDimArgument(opName);
  } else {
    dim = parseDimArgument(opName);
    if (failed(dim) ||
        failed(expect(Kind::Comma, ",", ("in '" + opName + "'").str())))
      return failure();
    index = parseTensorRef();
  }
  if (failed(index) || failed(dim))
    return failure();
  resolveElementType(out, source->decl.elementType);
  fusionBuilder.setLoc(loc);
  FailureOr<Value> indices = castIndex(index->value);
  if (failed(indices))
    return failure();
  Value lookup = source->value;
  ArrayRef<int64_t> sourceShape = source->decl.type.getShape();
  ArrayRef<int64_t> indexShape = index->decl.type.getShape();
  // Operands of different ranks or a dim out of range: the gather below
  // reports them.
  if (isTakeAlongAxis && sourceShape.size() == indexShape.size() && *dim >= 0 &&
      *dim < static_cast<int64_t>(sourceShape.size())) {
    SmallVector<int64_t> sourceTarget(sourceShape), indexTarget(indexShape);
    for (size_t k = 0; k < sourceShape.size(); ++k) {
      int64_t a = sourceShape[k], b = indexShape[k];
      if (static_cast<int64_t>(k) == *dim || a == b)
        continue;
      if (a != 1 && b != 1)
        return mlir::emitError(loc)
               << "'" << opName << "' operands '" << source->decl.name
               << "' and '" << index->decl.name << "' have extents " << a
               << " and " << b << " in dim " << k << "; only dim " << *dim
               << " may differ";
      sourceTarget[k] = indexTarget[k] = std::max(a, b);
    }
    if (ArrayRef<int64_t>(sourceTarget) != sourceShape) {
      FailureOr<Value> expanded = fusionBuilder.expand(lookup, sourceTarget);
      if (failed(expanded))
        return failure();
      lookup = *expanded;
    }
    if (ArrayRef<int64_t>(indexTarget) != indexShape)
      indices = fusionBuilder.expand(*indices, indexTarget);
    if (failed(indices))
      return failure();
  }
  return checkDeclared(fusionBuilder.gather(lookup, *indices, *dim), out,
                       opName);
}

/// scatter(in = T0, dim = 0, src = T2, idx = T1 ) (ScatterOp::toString; src
/// a tensor or a scalar): `fuser.scatter` of src cast to the input's dtype.
/// nvFuser prints the result with the index's extents and fuser.scatter's
/// result has the input's, so an index of another shape than the input is
/// refused.
FailureOr<Value> Importer::parseScatter(TensorDecl &out, Location loc) {
  auto comma = [&] { return expect(Kind::Comma, ",", "in 'scatter'"); };
  if (failed(expect(Kind::LParen, "(", "after 'scatter'")) ||
      failed(expectArgumentName("in", "scatter")))
    return failure();
  FailureOr<TensorRef> self = parseTensorRef();
  if (failed(self) || failed(comma()))
    return failure();
  FailureOr<int64_t> dim = parseDimArgument("scatter");
  if (failed(dim) || failed(comma()) ||
      failed(expectArgumentName("src", "scatter")))
    return failure();
  FailureOr<LocatedOperand> src = parseExpression();
  if (failed(src) || failed(comma()) ||
      failed(expectArgumentName("idx", "scatter")))
    return failure();
  FailureOr<TensorRef> index = parseTensorRef();
  if (failed(index))
    return failure();
  if (self->decl.type.getShape() != index->decl.type.getShape())
    return mlir::emitError(loc)
           << "'scatter' of '" << index->decl.name << "' into '"
           << self->decl.name << "' of another shape: nvFuser types the "
           << "result with the index's extents, fuser_mlir with the input's "
           << "(an index of the input's shape imports)";
  resolveElementType(out, self->decl.elementType);
  fusionBuilder.setLoc(loc);
  FailureOr<Value> indices = castIndex(index->value);
  if (failed(indices))
    return failure();
  return checkDeclared(fusionBuilder.scatter(self->value, *indices,
                                             src->operand, *dim,
                                             std::nullopt),
                       out, "scatter");
}

/// indexSelect( T0, dim = 0, T2 ) (`index_select` before nvFuser PR #3161,
/// 2024-10-17). nvFuser broadcasts a 1-D index to the operand's rank before
/// the op (every dim but `dim` of extent 1), which is what it prints; a
/// 1-D index (older prints) is broadcast the same way here. The index is
/// expanded to the operand's extents but along `dim` and gathered along
/// `dim`.
FailureOr<Value> Importer::parseIndexSelect(TensorDecl &out, Location loc,
                                            llvm::StringRef opName) {
  FailureOr<TensorRef> source = parseFirstOperand(opName);
  if (failed(source) ||
      failed(expect(Kind::Comma, ",", ("in '" + opName + "'").str())))
    return failure();
  llvm::SMLoc dimLoc = tok.getLoc();
  FailureOr<int64_t> dim = parseDimArgument(opName);
  if (failed(dim) ||
      failed(expect(Kind::Comma, ",", ("in '" + opName + "'").str())))
    return failure();
  FailureOr<TensorRef> index = parseTensorRef();
  if (failed(index))
    return failure();
  resolveElementType(out, source->decl.elementType);
  ArrayRef<int64_t> sourceShape = source->decl.type.getShape();
  ArrayRef<int64_t> indexShape = index->decl.type.getShape();
  int64_t rank = sourceShape.size();
  if (*dim < 0 || *dim >= rank)
    return emitError(dimLoc)
           << "'" << opName << "' dim " << *dim << " is out of range for '"
           << source->decl.name << "' of rank " << rank;
  bool isBroadcastIndex =
      static_cast<int64_t>(indexShape.size()) == rank &&
      llvm::all_of(llvm::enumerate(indexShape), [&](auto entry) {
        return static_cast<int64_t>(entry.index()) == *dim ||
               entry.value() == 1;
      });
  if (indexShape.size() != 1 && !isBroadcastIndex)
    return emitError(index->decl.loc)
           << "'" << opName << "' index '" << index->decl.name << "' ("
           << index->decl.type
           << ") must be 1-D or have extent 1 in every dim but dim " << *dim;
  fusionBuilder.setLoc(loc);
  FailureOr<Value> indices = castIndex(index->value);
  if (failed(indices))
    return failure();
  if (!isBroadcastIndex) {
    SmallVector<bool> isBroadcastDim(rank, true);
    isBroadcastDim[*dim] = false;
    indices = fusionBuilder.broadcast(*indices, isBroadcastDim);
    if (failed(indices))
      return failure();
  }
  SmallVector<int64_t> shape(sourceShape);
  shape[*dim] = indexShape.size() == 1 ? indexShape[0] : indexShape[*dim];
  indices = fusionBuilder.expand(*indices, shape);
  if (failed(indices))
    return failure();
  return checkDeclared(fusionBuilder.gather(source->value, *indices, *dim), out,
                       opName);
}

/// select( T0, axis = iS1{8}, index = 1 ) (SelectOp::toString): the axis
/// is printed as the operand's IterDomain, found by its number. As in
/// fuser_mlir's Python select: a `fuser.full` index of extent 1 along the
/// axis, gathered along it, and the axis squeezed.
FailureOr<Value> Importer::parseSelect(TensorDecl &out, Location loc) {
  FailureOr<TensorRef> source = parseFirstOperand("select");
  if (failed(source) || failed(expect(Kind::Comma, ",", "in 'select'")) ||
      failed(expectArgumentName("axis", "select")))
    return failure();
  FailureOr<IterDomainDecl> axis = parseIterDomain();
  if (failed(axis) || failed(expect(Kind::Comma, ",", "in 'select'")) ||
      failed(expectArgumentName("index", "select")))
    return failure();
  FailureOr<LocatedOperand> index = parseExpression();
  if (failed(index))
    return failure();
  resolveElementType(out, source->decl.elementType);
  SmallVector<IterDomainDecl> sourceDomain = source->decl.logicalDomain();
  const auto *position =
      llvm::find_if(sourceDomain, [&](const IterDomainDecl &id) {
        return id.number == axis->number;
      });
  if (position == sourceDomain.end())
    return emitError(axis->loc)
           << "'select' axis is IterDomain " << axis->number
           << ", which is not a dim of '" << source->decl.name << "'";
  int64_t dim = position - sourceDomain.begin();
  if (axis->extent != position->extent)
    return emitError(axis->loc)
           << "'select' axis has extent " << axis->extent << " but dim " << dim
           << " of '" << source->decl.name << "' has extent "
           << position->extent;
  SmallVector<int64_t> shape(source->decl.type.getShape());
  shape[dim] = 1;
  fusionBuilder.setLoc(loc);
  FailureOr<Value> indices =
      fusionBuilder.full(shape, index->operand, builder.getI64Type());
  if (failed(indices))
    return failure();
  FailureOr<Value> picked = fusionBuilder.gather(source->value, *indices, dim);
  if (failed(picked))
    return failure();
  return checkDeclared(fusionBuilder.squeeze(*picked, {dim}), out, "select");
}

/// embedding(T0, T1, padding_idx = 0, max_norm = ..., norm_type =
/// double(2), scale_grad_by_freq = false, sparse = false)
/// (EmbeddingFwdOp::toString; padding_idx and max_norm only when given): the
/// rows of the 2-D weight T1 at the indices T0. As in fuser_mlir's Python
/// embedding_fwd: the indices flattened, broadcast and expanded along the
/// row, `fuser.gather` along dim 0, reshaped to the indices' shape plus the
/// row. padding_idx, scale_grad_by_freq and sparse change only the backward,
/// and norm_type only matters with max_norm, which is refused: nvFuser
/// renormalizes the rows it reads in place (as torch.embedding does), a
/// write fuser IR does not model.
FailureOr<Value> Importer::parseEmbedding(TensorDecl &out, Location loc) {
  FailureOr<TensorRef> input = parseFirstOperand("embedding");
  if (failed(input) || failed(expect(Kind::Comma, ",", "in 'embedding'")))
    return failure();
  FailureOr<TensorRef> weight = parseTensorRef();
  if (failed(weight))
    return failure();
  while (tok.is(Kind::Comma)) {
    consume();
    llvm::SMLoc keyLoc = tok.getLoc();
    if (!tok.is(Kind::Identifier) ||
        !llvm::is_contained({"padding_idx", "max_norm", "norm_type",
                             "scale_grad_by_freq", "sparse"},
                            tok.spelling))
      return emitError(keyLoc)
             << "expected an 'embedding' argument (padding_idx, max_norm, "
                "norm_type, scale_grad_by_freq, sparse), found "
             << describeCurrent();
    if (tok.spelling == "max_norm")
      return emitError(keyLoc)
             << "unsupported 'embedding' with max_norm: nvFuser renormalizes "
                "the rows it reads in place, which fuser IR does not model";
    if (failed(expectArgumentName(tok.spelling, "embedding")) ||
        failed(parseExpression()))
      return failure();
  }
  resolveElementType(out, weight->decl.elementType);
  ArrayRef<int64_t> indexShape = input->decl.type.getShape();
  ArrayRef<int64_t> tableShape = weight->decl.type.getShape();
  if (tableShape.size() != 2)
    return emitError(weight->decl.loc)
           << "'embedding' weight '" << weight->decl.name
           << "' must be 2-D, found " << weight->decl.type;
  // The indices' declaration checked that their count fits in 64 bits.
  int64_t count = input->decl.type.getNumElements();
  fusionBuilder.setLoc(loc);
  FailureOr<Value> rows = fusionBuilder.reshape(input->value, {count});
  if (succeeded(rows))
    rows = fusionBuilder.broadcast(*rows, {false, true});
  if (succeeded(rows))
    rows = fusionBuilder.expand(*rows, {count, tableShape[1]});
  FailureOr<Value> picked = succeeded(rows)
                                ? fusionBuilder.gather(weight->value, *rows, 0)
                                : FailureOr<Value>(failure());
  if (failed(picked))
    return failure();
  SmallVector<int64_t> shape(indexShape);
  shape.push_back(tableShape[1]);
  return checkDeclared(fusionBuilder.reshape(*picked, shape), out, "embedding");
}

/// scan(T0, dim=1, op_type=add, init=float(0)) (ScanOp::toString: cumsum,
/// cumprod, cummax and cummin), built by the FusionBuilder as the Python
/// frontend's cumsum and friends: `fuser.scan`, whose start is the identity
/// of its kind, so the printed init must be that identity.
FailureOr<Value> Importer::parseScan(TensorDecl &out, Location loc) {
  FailureOr<TensorRef> source = parseFirstOperand("scan");
  if (failed(source) || failed(expect(Kind::Comma, ",", "in 'scan'")))
    return failure();
  FailureOr<int64_t> dim = parseDimArgument("scan");
  if (failed(dim) || failed(expect(Kind::Comma, ",", "in 'scan'")) ||
      failed(expectArgumentName("op_type", "scan")))
    return failure();
  FailureOr<ReductionKind> kind = parseCombinerKind("scan");
  if (failed(kind) || failed(expect(Kind::Comma, ",", "in 'scan'")) ||
      failed(expectArgumentName("init", "scan")) ||
      failed(parseIdentity(*kind, source->decl.elementType, "scan")))
    return failure();
  resolveElementType(out, source->decl.elementType);
  fusionBuilder.setLoc(loc);
  return checkDeclared(fusionBuilder.scan(*kind, source->value, *dim), out,
                       "scan");
}

/// `name = True` or `name = False`, as nvFuser prints a bool attribute.
FailureOr<bool> Importer::parseFlagArgument(llvm::StringRef name,
                                            llvm::StringRef opName) {
  if (failed(expectArgumentName(name, opName)))
    return failure();
  if (tok.is(Kind::Identifier) &&
      (tok.spelling == "True" || tok.spelling == "False")) {
    bool value = tok.spelling == "True";
    consume();
    return value;
  }
  return emitError(tok.getLoc())
         << "expected True or False as '" << name << "' of '" << opName
         << "', found " << describeCurrent();
}

/// argsort( T0, dim = 1, descending = True, stable = True ) (ArgsortOp):
/// `fuser.argsort`, always stable (what `stable = False` allows too).
FailureOr<Value> Importer::parseArgsort(TensorDecl &out, Location loc) {
  auto comma = [&] { return expect(Kind::Comma, ",", "in 'argsort'"); };
  FailureOr<TensorRef> source = parseFirstOperand("argsort");
  if (failed(source) || failed(comma()))
    return failure();
  FailureOr<int64_t> dim = parseDimArgument("argsort");
  if (failed(dim) || failed(comma()))
    return failure();
  FailureOr<bool> descending = parseFlagArgument("descending", "argsort");
  if (failed(descending) || failed(comma()) ||
      failed(parseFlagArgument("stable", "argsort")))
    return failure();
  resolveElementType(out, builder.getI64Type());
  fusionBuilder.setLoc(loc);
  return checkDeclared(fusionBuilder.argsort(source->value, *dim, *descending),
                       out, "argsort");
}

//===----------------------------------------------------------------------===//
// Pointwise expressions
//===----------------------------------------------------------------------===//

using OperatorLevel = ArrayRef<std::pair<Kind, BinaryKind>>;
constexpr std::pair<Kind, BinaryKind> kLogicalOr[] = {
    {Kind::PipePipe, BinaryKind::LogicalOr}};
constexpr std::pair<Kind, BinaryKind> kLogicalAnd[] = {
    {Kind::AmpAmp, BinaryKind::LogicalAnd}};
constexpr std::pair<Kind, BinaryKind> kBitwiseOr[] = {
    {Kind::Pipe, BinaryKind::BitwiseOr}};
constexpr std::pair<Kind, BinaryKind> kBitwiseXor[] = {
    {Kind::Caret, BinaryKind::BitwiseXor}};
constexpr std::pair<Kind, BinaryKind> kBitwiseAnd[] = {
    {Kind::Amp, BinaryKind::BitwiseAnd}};
constexpr std::pair<Kind, BinaryKind> kShifts[] = {
    {Kind::LessLess, BinaryKind::BitwiseLeftShift},
    {Kind::GreaterGreater, BinaryKind::BitwiseRightShift}};
constexpr std::pair<Kind, BinaryKind> kAdditive[] = {
    {Kind::Plus, BinaryKind::Add}, {Kind::Minus, BinaryKind::Sub}};
// nvFuser prints its Mod (C's % on integers, fmod on floats) as `%`.
constexpr std::pair<Kind, BinaryKind> kMultiplicative[] = {
    {Kind::Star, BinaryKind::Mul},
    {Kind::Slash, BinaryKind::Div},
    {Kind::Percent, BinaryKind::Mod}};
/// The levels looser than the comparisons and those tighter.
const OperatorLevel kLooseLevels[] = {kLogicalOr, kLogicalAnd, kBitwiseOr,
                                      kBitwiseXor, kBitwiseAnd};
const OperatorLevel kTightLevels[] = {kShifts, kAdditive, kMultiplicative};

/// C's precedence, loosest first: `||`, `&&`, `|`, `^`, `&`, the
/// comparisons (one non-associative level), `<< >>`, `+ -`, `* / %`, then
/// the unary `- ! ~`. nvFuser prints one operation per statement (its
/// inline operators for add, sub, mul, div, mod, the shifts, the bitwise
/// and logical ops and the comparisons); nesting is accepted for scalars.
FailureOr<LocatedOperand> Importer::parseExpression() {
  return parseBinaryLevel(kLooseLevels, 0, &Importer::parseComparison);
}

FailureOr<LocatedOperand> Importer::parseComparison() {
  FailureOr<LocatedOperand> lhs = parseTightLevels();
  if (failed(lhs))
    return failure();
  std::optional<CompareKind> kind = lookUpCompareInfix(tok.spelling);
  if (!kind)
    return lhs;
  llvm::SMLoc loc = tok.getLoc();
  consume();
  FailureOr<LocatedOperand> rhs = parseTightLevels();
  if (failed(rhs))
    return failure();
  setBuildLoc(loc);
  return located(
      fusionBuilder.compare(*kind, lhs->operand, rhs->operand, kPrintedDTypes),
      loc);
}

FailureOr<LocatedOperand> Importer::parseTightLevels() {
  return parseBinaryLevel(kTightLevels, 0, &Importer::parseUnary);
}

FailureOr<LocatedOperand> Importer::parseBinaryLevel(
    ArrayRef<ArrayRef<std::pair<Kind, BinaryKind>>> levels, size_t level,
    FailureOr<LocatedOperand> (Importer::*innermost)()) {
  auto next = [&] {
    return level + 1 < levels.size()
               ? parseBinaryLevel(levels, level + 1, innermost)
               : (this->*innermost)();
  };
  ArrayRef<std::pair<Kind, BinaryKind>> operators = levels[level];
  FailureOr<LocatedOperand> lhs = next();
  while (succeeded(lhs)) {
    const auto *match = llvm::find_if(
        operators, [&](const auto &entry) { return tok.is(entry.first); });
    if (match == operators.end())
      break;
    llvm::SMLoc loc = tok.getLoc();
    consume();
    FailureOr<LocatedOperand> rhs = next();
    if (failed(rhs))
      return failure();
    setBuildLoc(loc);
    lhs = located(fusionBuilder.binary(match->second, lhs->operand,
                                       rhs->operand, kPrintedDTypes),
                  loc);
  }
  return lhs;
}

FailureOr<LocatedOperand> Importer::parseUnary() {
  NestingScope scope(nesting);
  if (failed(checkNesting()))
    return failure();
  if (tok.is(Kind::Bang) || tok.is(Kind::Tilde)) {
    UnaryKind kind =
        tok.is(Kind::Bang) ? UnaryKind::LogicalNot : UnaryKind::BitwiseNot;
    llvm::SMLoc loc = tok.getLoc();
    consume();
    FailureOr<LocatedOperand> operand = parseUnary();
    if (failed(operand))
      return failure();
    setBuildLoc(loc);
    return located(fusionBuilder.unary(kind, operand->operand, kPrintedDTypes),
                   loc);
  }
  if (!tok.is(Kind::Minus))
    return parsePrimary();
  llvm::SMLoc loc = tok.getLoc();
  consume();
  FailureOr<LocatedOperand> operand = parseUnary();
  if (failed(operand))
    return failure();
  if (operand->operand.isLiteral()) {
    ScalarLiteral literal = operand->operand.getLiteral();
    if (literal.kind != ScalarLiteral::Kind::Float &&
        literal.intValue == std::numeric_limits<int64_t>::min())
      return emitError(loc)
             << "negating " << literal.intValue << " does not fit in 64 bits";
    literal.floatValue = -literal.floatValue;
    literal.intValue = -literal.intValue;
    return LocatedOperand{literal, loc};
  }
  setBuildLoc(loc);
  return located(
      fusionBuilder.unary(UnaryKind::Neg, operand->operand, kPrintedDTypes),
      loc);
}

/// `(-)digits`, `inf`, `nan` inside `float(...)`; the caller consumed `(`.
/// `printedType` is null for a bare number (`2`, `0.5`).
FailureOr<ScalarLiteral> Importer::parseLiteralValue(Type printedType) {
  ScalarLiteral literal;
  literal.type = printedType;
  bool isFloat = printedType && isa<FloatType>(printedType);
  bool negative = tok.is(Kind::Minus);
  if (negative)
    consume();
  if (tok.isIdentifier("inf") || tok.isIdentifier("nan")) {
    isFloat = true;
    literal.floatValue = tok.isIdentifier("inf")
                             ? std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::quiet_NaN();
  } else if (tok.is(Kind::Integer) || tok.is(Kind::Float)) {
    if (tok.spelling.getAsDouble(literal.floatValue))
      return emitError(tok.getLoc())
             << "malformed number '" << tok.spelling << "'";
    if (tok.is(Kind::Integer)) {
      // The magnitude of a negative literal may be 2^63: nvFuser prints the
      // int64 max identity as -9223372036854775808.
      uint64_t magnitude;
      uint64_t limit =
          static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) +
          (negative ? 1 : 0);
      if (tok.spelling.getAsInteger(10, magnitude) || magnitude > limit)
        return emitError(tok.getLoc())
               << "integer '" << (negative ? "-" : "") << tok.spelling
               << "' does not fit in 64 bits";
      literal.intValue =
          static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
    }
    isFloat |= tok.is(Kind::Float);
  } else {
    return emitError(tok.getLoc())
           << "expected a number in the scalar literal, found "
           << describeCurrent();
  }
  consume();
  if (negative)
    literal.floatValue = -literal.floatValue;
  literal.kind = isFloat ? ScalarLiteral::Kind::Float
                 : printedType && printedType.isInteger(1)
                     ? ScalarLiteral::Kind::Bool
                     : ScalarLiteral::Kind::Int;
  return literal;
}

/// `float(0)`, `double(-inf)`, `3`, `true`.
FailureOr<ScalarLiteral> Importer::parseLiteral() {
  if (tok.is(Kind::Integer) || tok.is(Kind::Float) || tok.is(Kind::Minus))
    return parseLiteralValue(Type());
  if (tok.isIdentifier("true") || tok.isIdentifier("false")) {
    ScalarLiteral literal = ScalarLiteral::getBool(tok.isIdentifier("true"));
    consume();
    return literal;
  }
  Type printedType =
      tok.is(Kind::Identifier) ? parseDataType(tok.spelling, context) : Type();
  if (!printedType)
    return emitError(tok.getLoc())
           << "expected a scalar literal like 'float(0)', found "
           << describeCurrent();
  consume();
  if (failed(expect(Kind::LParen, "(", "after the literal's dtype")))
    return failure();
  FailureOr<ScalarLiteral> literal = parseLiteralValue(printedType);
  if (failed(literal) ||
      failed(expect(Kind::RParen, ")", "to close the scalar literal")))
    return failure();
  return literal;
}

FailureOr<LocatedOperand> Importer::parsePrimary() {
  llvm::SMLoc loc = tok.getLoc();
  switch (tok.kind) {
  case Kind::Integer:
  case Kind::Float: {
    FailureOr<ScalarLiteral> literal = parseLiteral();
    if (failed(literal))
      return failure();
    return LocatedOperand{*literal, loc};
  }
  case Kind::LParen: {
    consume();
    // `(float)(T1)`: a C-style cast.
    Type castType = tok.is(Kind::Identifier)
                        ? parseDataType(tok.spelling, context)
                        : Type();
    if (castType && peek().is(Kind::RParen)) {
      llvm::StringRef name = tok.spelling;
      consume();
      consume();
      return parseCast(loc, Type(), castType, name);
    }
    FailureOr<LocatedOperand> inner = parseExpression();
    if (failed(inner) ||
        failed(expect(Kind::RParen, ")", "to close the parenthesis")))
      return failure();
    return inner;
  }
  case Kind::Identifier:
    break;
  default:
    return emitError(loc) << "expected an operand, found " << describeCurrent();
  }

  if (isTensorName(tok.spelling)) {
    FailureOr<TensorRef> ref = parseTensorRef();
    if (failed(ref))
      return failure();
    return LocatedOperand{ref->value, loc, /*isTensorReference=*/true};
  }
  bool isCall = peek().is(Kind::LParen);
  if (tok.isIdentifier("true") || tok.isIdentifier("false") ||
      (isCall && parseDataType(tok.spelling, context))) {
    FailureOr<ScalarLiteral> literal = parseLiteral();
    if (failed(literal))
      return failure();
    return LocatedOperand{*literal, loc};
  }
  if (isCall)
    return parseCall();
  if (parseScalarName(tok.spelling, context)) {
    auto it = values.find(tok.spelling);
    if (it == values.end())
      return emitError(loc)
             << "scalar '" << tok.spelling << "' is used before it is defined";
    consume();
    return LocatedOperand{it->second, loc};
  }
  return emitError(loc) << "unexpected '" << tok.spelling
                        << "' where an operand was expected";
}

/// name( args ): casts, unary, binary and ternary functions, where.
FailureOr<LocatedOperand> Importer::parseCall() {
  llvm::StringRef name = tok.spelling;
  llvm::SMLoc loc = tok.getLoc();
  if (isTensorOpName(name))
    return emitError(loc) << "'" << name
                          << "' must be the whole right-hand side of a "
                             "statement defining a tensor";
  if (isNaNIgnoringName(name))
    return emitError(loc) << "unsupported nvFuser operation '" << name
                          << "': it ignores NaN (IEEE maxNum/minNum), which "
                             "fuser.maximum/minimum do not model";
  std::optional<std::pair<Type, Type>> cast = parseCastFunction(name, context);
  std::optional<UnaryKind> unary = lookUpFunction(name, &lookUpUnaryName);
  std::optional<BinaryKind> binary = lookUpFunction(name, &lookUpBinaryName);
  std::optional<CompareKind> compare = lookUpFunction(name, &lookUpCompareName);
  std::optional<TernaryKind> ternary = lookUpFunction(name, &lookUpTernaryName);
  bool part = name == "std::real" || name == "std::imag";
  if (!cast && !unary && !binary && !compare && !ternary && !part &&
      name != "where")
    return emitError(loc) << "unsupported nvFuser operation '" << name << "'";
  consume(); // name
  if (cast)
    return parseCast(loc, cast->first, cast->second, name);
  if (part)
    return parseComplexPart(loc, name);

  if (failed(expect(Kind::LParen, "(", ("after '" + name + "'").str())))
    return failure();
  size_t arity = unary ? 1 : binary || compare ? 2 : 3;
  SmallVector<fuser::Operand, 3> args;
  for (size_t i = 0; i < arity; ++i) {
    if (i > 0 &&
        failed(expect(Kind::Comma, ",",
                      ("between the operands of '" + name + "'").str())))
      return failure();
    FailureOr<LocatedOperand> arg = parseExpression();
    if (failed(arg))
      return failure();
    args.push_back(arg->operand);
  }
  if (failed(expect(Kind::RParen, ")", ("to close '" + name + "'").str())))
    return failure();
  setBuildLoc(loc);
  if (unary)
    return located(fusionBuilder.unary(*unary, args[0], kPrintedDTypes), loc);
  if (binary)
    return located(
        fusionBuilder.binary(*binary, args[0], args[1], kPrintedDTypes), loc);
  if (compare)
    return located(
        fusionBuilder.compare(*compare, args[0], args[1], kPrintedDTypes), loc);
  if (ternary)
    return located(fusionBuilder.ternary(*ternary, args[0], args[1], args[2],
                                         kPrintedDTypes),
                   loc);
  return located(fusionBuilder.where(args[0], args[1], args[2]), loc);
}

/// `__bfloat2float(x)` (`from` known) or `(float)(x)`, `__to_float(x)`
/// (`from` null): `to` is the result element type; the shape is the
/// operand's. A tensor must already have the `from` dtype (nvFuser prints
/// every cast); a literal or a named scalar is converted to it.
/// `(x)` after the function `name`.
FailureOr<LocatedOperand> Importer::parseSingleArgument(llvm::StringRef name) {
  if (failed(expect(Kind::LParen, "(", ("after '" + name + "'").str())))
    return failure();
  FailureOr<LocatedOperand> operand = parseExpression();
  if (failed(operand) ||
      failed(expect(Kind::RParen, ")", ("to close '" + name + "'").str())))
    return failure();
  return operand;
}

FailureOr<LocatedOperand> Importer::parseCast(llvm::SMLoc loc, Type from,
                                              Type to, llvm::StringRef name) {
  FailureOr<LocatedOperand> operand = parseSingleArgument(name);
  if (failed(operand))
    return failure();
  Type sourceType = from ? from : operand->operand.getDType(context);
  if (operand->operand.isTensor() &&
      operand->operand.getDType(context) != sourceType)
    return emitError(operand->loc)
           << "'" << name << "' converts from " << sourceType
           << " but its operand is " << operand->operand.getValue().getType();
  setBuildLoc(operand->loc);
  FailureOr<Value> source =
      fusionBuilder.materialize(operand->operand, sourceType);
  if (failed(source))
    return failure();
  setBuildLoc(loc);
  return located(fusionBuilder.cast(*source, to), loc);
}

/// `std::real(x)` / `std::imag(x)`: fuser.real / fuser.imag.
FailureOr<LocatedOperand> Importer::parseComplexPart(llvm::SMLoc loc,
                                                     llvm::StringRef name) {
  FailureOr<LocatedOperand> operand = parseSingleArgument(name);
  if (failed(operand))
    return failure();
  if (operand->operand.isLiteral())
    return emitError(operand->loc)
           << "'" << name << "' of a literal: expected a complex value";
  setBuildLoc(loc);
  Value value = operand->operand.getValue();
  return located(name == "std::real" ? fusionBuilder.real(value)
                                     : fusionBuilder.imag(value),
                 loc);
}

} // namespace

OwningOpRef<ModuleOp>
mlir::fuser::importNvFuser(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                           const ImportNvFuserOptions &options) {
  context->loadDialect<FuserDialect, func::FuncDialect, arith::ArithDialect>();
  return Importer(sourceMgr, context, options).import();
}

std::string mlir::fuser::addExtentBinding(llvm::StringRef binding,
                                          ImportNvFuserOptions &options) {
  auto [name, valueText] = binding.split('=');
  int64_t value;
  if (name.empty() || valueText.empty() || valueText.getAsInteger(10, value) ||
      value < 0)
    return ("--extent '" + binding +
            "': expected NAME=VALUE with a non-negative integer VALUE, as in "
            "--extent i0=8")
        .str();
  auto [it, inserted] = options.extents.try_emplace(name, value);
  if (!inserted && it->second != value)
    return ("--extent '" + binding + "': '" + name + "' is bound to " +
            llvm::Twine(it->second) + " already")
        .str();
  return "";
}

void mlir::fuser::registerImportNvFuserTranslation() {
  static llvm::cl::list<std::string> extentBindings(
      "extent",
      llvm::cl::desc("with --import-nvfuser: the value of a symbolic extent "
                     "(repeatable), e.g. --extent i0=8"),
      llvm::cl::value_desc("NAME=VALUE"));
  TranslateToMLIRRegistration registration(
      "import-nvfuser", "import nvFuser's printed fusion math as fuser IR",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        ImportNvFuserOptions options;
        for (const std::string &binding : extentBindings) {
          std::string error = addExtentBinding(binding, options);
          if (!error.empty()) {
            mlir::emitError(UnknownLoc::get(context)) << error;
            return nullptr;
          }
        }
        return importNvFuser(sourceMgr, context, options);
      },
      [](DialectRegistry &registry) { registerFuserDialect(registry); });
}
