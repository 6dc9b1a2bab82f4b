//===- ImportNvFuser.cpp - import nvFuser's printed fusion math -----------===//
//
// A recursive-descent parser over NvFuserLexer tokens that builds fuser ops
// as it reads each statement. Every tensor in the text carries its declared
// type (`T46_l_float[iS187{8}, ...]`); ops whose result type follows from
// their operands are built by type inference and then checked against that
// declaration, so a mismatch is reported where the text states it.
//
//===----------------------------------------------------------------------===//

#include "fuser/Target/NvFuser/ImportNvFuser.h"

#include "NvFuserLexer.h"

#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/Reshape.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
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

/// A printed tensor: `T38_l___bfloat[bS153{1}, iS158{8}rf, ...]`.
struct TensorDecl {
  llvm::StringRef name; // "T38"
  llvm::SMLoc loc;
  Type elementType;
  SmallVector<IterDomainDecl> domain;
  RankedTensorType type; // the domain without reduction IterDomains

  /// The IterDomains that are dims of `type`.
  SmallVector<IterDomainDecl> logicalDomain() const {
    return llvm::to_vector(llvm::make_filter_range(
        domain, [](const IterDomainDecl &id) { return !id.isReduction(); }));
  }
};

/// A scalar literal (`float(0)`, `double(-inf)`, `2`, `true`). Its MLIR type
/// is chosen where it is used: nvFuser keeps a tensor's dtype when it meets a
/// scalar of another dtype, so a literal takes the type of the tensor it is
/// combined with.
struct Literal {
  bool isFloat = false;
  double floatValue = 0;
  int64_t intValue = 0;
  Type printedType;
};

/// An operand of a pointwise expression: a value, or a literal not built yet.
struct Operand {
  Value value;
  Literal literal;
  llvm::SMLoc loc;

  bool isLiteral() const { return !value; }
  bool isTensor() const {
    return value && isa<RankedTensorType>(value.getType());
  }
};

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
      .Default(Type());
}

/// The dtype names inside cast functions such as `__bfloat2float`.
Type parseCastTypeName(llvm::StringRef name, MLIRContext *context) {
  Builder b(context);
  return llvm::StringSwitch<Type>(name)
      .Case("bfloat", b.getBF16Type())
      .Case("half", b.getF16Type())
      .Case("float", b.getF32Type())
      .Case("double", b.getF64Type())
      .Case("int", b.getI32Type())
      .Case("int64", b.getI64Type())
      .Case("bool", b.getI1Type())
      .Default(Type());
}

/// `__bfloat2float` -> (bf16, f32). The split is at the `2` that leaves a
/// dtype name on both sides.
std::optional<std::pair<Type, Type>> parseCastFunction(llvm::StringRef name,
                                                       MLIRContext *context) {
  if (!name.consume_front("__"))
    return std::nullopt;
  for (size_t pos = name.find('2'); pos != llvm::StringRef::npos;
       pos = name.find('2', pos + 1)) {
    Type from = parseCastTypeName(name.take_front(pos), context);
    Type to = parseCastTypeName(name.drop_front(pos + 1), context);
    if (from && to)
      return std::make_pair(from, to);
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

/// `T38_l___bfloat` starts a tensor: `T`, digits, `_`, memory type, `_`.
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

/// Operations that define a tensor from the printed result type; they must be
/// the whole right-hand side of a statement.
bool isTensorOpName(llvm::StringRef name) {
  return llvm::is_contained({"view", "squeeze", "broadcast", "expand",
                             "reduction", "Set", "SegmenterSet", "pad", "slice",
                             "cat", "full"},
                            name);
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
  Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context)
      : sourceMgr(sourceMgr), context(context), builder(context),
        lexer(
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer()) {
    bufferName = StringAttr::get(
        context, sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                     ->getBufferIdentifier());
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

  Location getLoc(llvm::SMLoc loc) const {
    auto [line, column] = sourceMgr.getLineAndColumn(loc);
    return FileLineColLoc::get(bufferName, line, column);
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

  //--- Structure ------------------------------------------------------------//

  LogicalResult parseFusion();
  LogicalResult parseGroup();
  LogicalResult parseDeclarationList(bool stopAtStatement,
                                     SmallVectorImpl<Definition> &decls);
  LogicalResult parseBody(llvm::function_ref<bool()> atEnd);
  LogicalResult finishFunction(func::FuncOp func, ArrayRef<Definition> outputs);
  func::FuncOp createFunction(llvm::SMLoc loc, llvm::StringRef name,
                              ArrayRef<Definition> inputs,
                              ArrayRef<Definition> outputs);
  LogicalResult parseStatement();

  //--- Declarations ---------------------------------------------------------//

  FailureOr<TensorDecl> parseTensorDecl();
  FailureOr<IterDomainDecl> parseIterDomain();
  FailureOr<int64_t> parseInteger(llvm::StringRef context);
  FailureOr<Definition> parseScalarDecl();

  //--- Right-hand sides -----------------------------------------------------//

  LogicalResult parseRightHandSide(const Definition &def);
  FailureOr<Value> parseTensorOp(const TensorDecl &out);
  struct TensorRef {
    TensorDecl decl;
    Value value;
  };
  FailureOr<TensorRef> parseTensorRef();
  FailureOr<Value> parseView(const TensorDecl &out, Location loc);
  FailureOr<Value> parseSqueeze(const TensorDecl &out, Location loc);
  FailureOr<Value> parseBroadcast(const TensorDecl &out, Location loc);
  FailureOr<Value> parseExpand(const TensorDecl &out, Location loc);
  FailureOr<Value> parseReduction(const TensorDecl &out, Location loc);
  FailureOr<Value> parseLoadStore(const TensorDecl &out, Location loc,
                                  llvm::StringRef opName);
  FailureOr<Value> parsePad(const TensorDecl &out, Location loc);
  FailureOr<Value> parseSlice(const TensorDecl &out, Location loc);
  FailureOr<Value> parseCat(const TensorDecl &out, Location loc);
  FailureOr<Value> parseFull(const TensorDecl &out, Location loc);
  FailureOr<SmallVector<int64_t>> parseFlags(size_t rank,
                                             llvm::StringRef construct);
  FailureOr<SmallVector<int64_t>> parseIntegerList(llvm::StringRef context);
  LogicalResult skipExtentList();

  //--- Pointwise expressions ------------------------------------------------//

  FailureOr<Operand> parseExpression(Type hint);
  FailureOr<Operand> parseAdditive(Type hint);
  FailureOr<Operand> parseMultiplicative(Type hint);
  FailureOr<Operand> parseUnary(Type hint);
  FailureOr<Operand> parsePrimary(Type hint);
  FailureOr<Operand> parseCall(Type hint);
  FailureOr<Literal> parseLiteralValue(Type printedType);
  FailureOr<Literal> parseLiteral();
  FailureOr<Operand> parseCast(llvm::SMLoc loc, Type from, Type to,
                               llvm::StringRef name);

  FailureOr<Operand> buildUnary(UnaryKind kind, llvm::SMLoc loc,
                                Operand operand);
  /// A binary op (`KindT` is BinaryKind) or a comparison (CompareKind).
  template <typename KindT>
  FailureOr<Operand> buildBinary(KindT kind, llvm::SMLoc loc, Operand lhs,
                                 Operand rhs, Type hint);
  FailureOr<Operand> buildWhere(llvm::SMLoc loc, Operand condition, Operand lhs,
                                Operand rhs, Type hint);
  Type chooseElementType(ArrayRef<Operand> operands, Type hint) const;
  FailureOr<Value> materialize(const Operand &operand, Type elementType);
  FailureOr<Value> buildConstant(const Literal &literal, Type type,
                                 llvm::SMLoc loc);

  //--- Building ops ---------------------------------------------------------//

  /// Builds an InferTypeOpAdaptor op from its operands and attributes alone.
  template <typename OpTy, typename... Args>
  FailureOr<Value> buildInferred(Location loc, Args &&...args);
  /// Builds an op whose type the statement declares: inferred ops are checked
  /// against `out`, the others take its type and are verified.
  template <typename OpTy, typename... Args>
  FailureOr<Value> buildDeclared(const TensorDecl &out, Location loc,
                                 Args &&...args);
  LogicalResult checkDeclaredType(Value value, const Definition &def,
                                  llvm::StringRef construct);

  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  OpBuilder builder;
  Lexer lexer;
  Token tok;
  StringAttr bufferName;
  OwningOpRef<ModuleOp> module;
  /// Values of the function being imported, by printed name ("T38", "d5").
  llvm::StringMap<Value> values;
  unsigned fusionCount = 0;
};

//===----------------------------------------------------------------------===//
// Structure: fusions and groups
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> Importer::import() {
  consume();
  module = ModuleOp::create(getLoc(tok.getLoc()));
  if (tok.is(Kind::Eof)) {
    emitError(tok.getLoc()) << "expected nvFuser fusion math ('Inputs:') or "
                               "a segmented group ('g{'), found an empty input";
    return nullptr;
  }
  while (!tok.is(Kind::Eof)) {
    LogicalResult parsed = failure();
    if (tok.isIdentifier("Inputs")) {
      parsed = parseFusion();
    } else if (tok.isIdentifier("g") && peek().is(Kind::LBrace)) {
      parsed = parseGroup();
    } else {
      emitError(tok.getLoc())
          << "expected nvFuser fusion math ('Inputs:') or a segmented group "
             "('g{'), found "
          << describeCurrent();
    }
    if (failed(parsed))
      return nullptr;
  }
  if (failed(verify(*module)))
    return nullptr;
  return std::move(module);
}

/// Inputs: <decls> Outputs: <decls> %kernel_math { <statements> }
LogicalResult Importer::parseFusion() {
  llvm::SMLoc loc = tok.getLoc();
  SmallVector<Definition> inputs, outputs;
  if (failed(expectKeyword("Inputs", "to start the fusion")) ||
      failed(expect(Kind::Colon, ":", "after 'Inputs'")) ||
      failed(parseDeclarationList(/*stopAtStatement=*/false, inputs)) ||
      failed(expectKeyword("Outputs", "after the fusion inputs")) ||
      failed(expect(Kind::Colon, ":", "after 'Outputs'")) ||
      failed(parseDeclarationList(/*stopAtStatement=*/false, outputs)) ||
      failed(
          expect(Kind::Percent, "%kernel_math", "after the fusion outputs")) ||
      failed(expectKeyword("kernel_math", "after '%'")) ||
      failed(expect(Kind::LBrace, "{", "to open '%kernel_math'")))
    return failure();

  std::string name = fusionCount == 0 ? std::string("fusion")
                                      : "fusion_" + std::to_string(fusionCount);
  ++fusionCount;
  func::FuncOp func = createFunction(loc, name, inputs, outputs);
  if (failed(
          parseBody([&] { return tok.is(Kind::RBrace) || tok.is(Kind::Eof); })))
    return failure();
  // The report this importer was written for lost the closing brace; the
  // statements are all there, so the fusion still imports.
  if (tok.is(Kind::Eof))
    mlir::emitWarning(getLoc(tok.getLoc()))
        << "'%kernel_math' body is not closed with '}' before the end of "
           "input; imported the statements read so far";
  else
    consume();
  return finishFunction(func, outputs);
}

/// g{(kind) group id: N inputs: <decls> outputs: <decls> <statements> }
LogicalResult Importer::parseGroup() {
  llvm::SMLoc loc = tok.getLoc();
  consume(); // g
  if (failed(expect(Kind::LBrace, "{", "after 'g'")) ||
      failed(expect(Kind::LParen, "(", "before the group's scheduler kind")))
    return failure();
  if (!tok.is(Kind::Identifier))
    return emitError(tok.getLoc())
           << "expected the group's scheduler kind (e.g. 'reduction'), found "
           << describeCurrent();
  llvm::StringRef scheduler = tok.spelling;
  consume();
  if (failed(expect(Kind::RParen, ")", "after the scheduler kind")) ||
      failed(expectKeyword("group", "in the group header")) ||
      failed(expectKeyword("id", "after 'group'")) ||
      failed(expect(Kind::Colon, ":", "after 'group id'")))
    return failure();
  llvm::SMLoc idLoc = tok.getLoc();
  FailureOr<int64_t> groupId = parseInteger("as the group id");
  if (failed(groupId))
    return failure();
  SmallVector<Definition> inputs, outputs;
  if (failed(expectKeyword("inputs", "after the group id")) ||
      failed(expect(Kind::Colon, ":", "after 'inputs'")) ||
      failed(parseDeclarationList(/*stopAtStatement=*/true, inputs)) ||
      failed(expectKeyword("outputs", "after the group inputs")) ||
      failed(expect(Kind::Colon, ":", "after 'outputs'")) ||
      failed(parseDeclarationList(/*stopAtStatement=*/true, outputs)))
    return failure();

  std::string name = "group_" + std::to_string(*groupId);
  if (module->lookupSymbol(name))
    return emitError(idLoc) << "group id " << *groupId << " appears twice";
  func::FuncOp func = createFunction(loc, name, inputs, outputs);
  func->setAttr("nvfuser.scheduler", builder.getStringAttr(scheduler));
  if (failed(parseBody(
          [&] { return tok.is(Kind::RBrace) || tok.is(Kind::Eof); })) ||
      failed(expect(Kind::RBrace, "}", "to close the group")))
    return failure();
  return finishFunction(func, outputs);
}

/// Tensors and named scalars, each optionally followed by its dtype (group
/// dumps print `T3_g___bfloat[...] __bfloat`). In a group the statements
/// follow the outputs directly; a declaration followed by `=` is a statement.
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
    if (stopAtStatement && tok.is(Kind::Equal)) {
      restore(start);
      return success();
    }
    if (tok.is(Kind::Identifier)) {
      if (Type dtype = parseDataType(tok.spelling, context)) {
        if (dtype != getElementTypeOrSelf(decl.type))
          return emitError(tok.getLoc())
                 << "dtype '" << tok.spelling << "' does not match '"
                 << decl.name << "', which is " << decl.type;
        consume();
      }
    }
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

LogicalResult Importer::parseStatement() {
  Definition def;
  if (tok.is(Kind::Identifier) && isTensorName(tok.spelling)) {
    FailureOr<TensorDecl> tensor = parseTensorDecl();
    if (failed(tensor))
      return failure();
    def = {tensor->name, tensor->loc, tensor->type, *tensor};
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
  // prints `%T38` for nvFuser's T38.
  if (Operation *op = values[def.name].getDefiningOp())
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

/// `T38_l___bfloat[bS153{1}, iS158{8}rf]`: name, memory type, dtype, domain.
FailureOr<TensorDecl> Importer::parseTensorDecl() {
  TensorDecl decl;
  decl.loc = tok.getLoc();
  llvm::StringRef spelling = tok.spelling;
  size_t nameEnd = spelling.find('_');
  // After the name come the memory type (g, l, s) and the dtype.
  llvm::StringRef memoryAndType = spelling.drop_front(nameEnd + 1);
  if (memoryAndType.size() < 3 || memoryAndType[1] != '_' ||
      !llvm::is_contained({'g', 'l', 's'}, memoryAndType[0]))
    return emitError(decl.loc)
           << "expected a tensor like 'T3_g_float[...]' (name, memory type "
              "g/l/s, dtype), found '"
           << spelling << "'";
  decl.name = spelling.take_front(nameEnd);
  llvm::StringRef dtype = memoryAndType.drop_front(2);
  decl.elementType = parseDataType(dtype, context);
  if (!decl.elementType)
    return emitError(decl.loc)
           << "unsupported dtype '" << dtype << "' in '" << spelling
           << "' (supported: __bfloat, __half, float, "
              "double, int, int64_t, bool)";
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

  SmallVector<int64_t> shape = extentsOf(decl.logicalDomain());
  if (!getCheckedNumElements(shape))
    return emitError(decl.loc) << "tensor '" << decl.name
                               << "' has more elements than fit in 64 bits";
  decl.type = RankedTensorType::get(shape, decl.elementType);
  return decl;
}

/// `iS12{32}`, `bS5{1 ex 4}`, `iS158{8}rf`: iter type, parallel type `S`,
/// number, extent, optional rfactor marker.
FailureOr<IterDomainDecl> Importer::parseIterDomain() {
  IterDomainDecl id;
  id.loc = tok.getLoc();
  if (tok.is(Kind::Invalid) && tok.spelling == "?")
    return emitError(id.loc) << "symbolic iteration domains ('?S') are not "
                                "supported yet; only static shapes are";
  llvm::StringRef spelling = tok.spelling;
  if (!tok.is(Kind::Identifier) || spelling.size() < 2 ||
      !llvm::is_contained({'i', 'b', 'r'}, spelling[0]))
    return emitError(id.loc)
           << "expected an iteration domain like 'iS12{128}' (iS, bS or rS), "
              "found "
           << describeCurrent();
  if (spelling[1] != 'S' || spelling.drop_front(2).getAsInteger(10, id.number))
    return emitError(id.loc)
           << "unsupported iteration domain '" << spelling
           << "': only unscheduled domains (iS, bS, rS and a number) are "
              "supported";
  id.iterType = spelling[0];
  consume();
  if (failed(expect(Kind::LBrace, "{", "to open the extent")))
    return failure();
  if (!tok.is(Kind::Integer))
    return emitError(tok.getLoc())
           << "symbolic extent " << describeCurrent()
           << " is not supported yet; only static extents like '{128}' are";
  FailureOr<int64_t> extent = parseInteger("as the extent");
  if (failed(extent))
    return failure();
  id.extent = *extent;
  // An expanded broadcast, `bS5{1 ex 4}`, has logical extent 4.
  if (tok.isIdentifier("ex")) {
    consume();
    if (!tok.is(Kind::Integer))
      return emitError(tok.getLoc())
             << "symbolic expanded extent " << describeCurrent()
             << " is not supported yet; only static extents are";
    FailureOr<int64_t> expanded = parseInteger("as the expanded extent");
    if (failed(expanded))
      return failure();
    id.extent = *expanded;
  }
  if (failed(expect(Kind::RBrace, "}", "to close the extent")))
    return failure();
  if (tok.isIdentifier("rf"))
    consume();
  return id;
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
  Type elementType = getElementTypeOrSelf(def.type);
  FailureOr<Operand> operand = parseExpression(elementType);
  if (failed(operand))
    return failure();
  FailureOr<Value> value = materialize(*operand, elementType);
  if (failed(value))
    return failure();
  if (failed(checkDeclaredType(*value, def, "the expression")))
    return failure();
  values[def.name] = *value;
  return success();
}

LogicalResult Importer::checkDeclaredType(Value value, const Definition &def,
                                          llvm::StringRef construct) {
  if (value.getType() == def.type)
    return success();
  return emitError(def.loc)
         << construct << " produces " << value.getType() << " but '" << def.name
         << "' is declared as " << def.type;
}

FailureOr<Importer::TensorRef> Importer::parseTensorRef() {
  if (!tok.is(Kind::Identifier) || !isTensorName(tok.spelling))
    return emitError(tok.getLoc())
           << "expected a tensor operand like 'T3_g_float[...]', found "
           << describeCurrent();
  FailureOr<TensorDecl> decl = parseTensorDecl();
  if (failed(decl))
    return failure();
  auto it = values.find(decl->name);
  if (it == values.end())
    return emitError(decl->loc)
           << "'" << decl->name << "' is used before it is defined";
  if (it->second.getType() != decl->type)
    return emitError(decl->loc)
           << "'" << decl->name << "' is printed here as " << decl->type
           << " but was defined as " << it->second.getType();
  return TensorRef{*decl, it->second};
}

template <typename OpTy, typename... Args>
FailureOr<Value> Importer::buildInferred(Location loc, Args &&...args) {
  // Built with a placeholder result type, which inference then replaces.
  auto op = OpTy::create(builder, loc, builder.getNoneType(),
                         std::forward<Args>(args)...);
  SmallVector<Type, 1> inferred;
  if (failed(OpTy::inferReturnTypes(
          context, loc, op->getOperands(), op->getRawDictionaryAttrs(),
          op->getPropertiesStorage(), op->getRegions(), inferred))) {
    op->erase();
    return failure();
  }
  op->getResult(0).setType(inferred.front());
  if (failed(verify(op))) {
    op->erase();
    return failure();
  }
  return op->getResult(0);
}

template <typename OpTy, typename... Args>
FailureOr<Value> Importer::buildDeclared(const TensorDecl &out, Location loc,
                                         Args &&...args) {
  if constexpr (OpTy::template hasTrait<InferTypeOpInterface::Trait>()) {
    FailureOr<Value> value =
        buildInferred<OpTy>(loc, std::forward<Args>(args)...);
    if (failed(value))
      return failure();
    if (value->getType() != out.type) {
      Operation *op = value->getDefiningOp();
      emitError(out.loc) << "'" << OpTy::getOperationName() << "' infers "
                         << value->getType() << " but '" << out.name
                         << "' is declared as " << out.type;
      op->erase();
      return failure();
    }
    return value;
  } else {
    auto op = OpTy::create(builder, loc, out.type, std::forward<Args>(args)...);
    if (failed(verify(op))) {
      op->erase();
      return failure();
    }
    return op->getResult(0);
  }
}

FailureOr<Value> Importer::parseTensorOp(const TensorDecl &out) {
  llvm::StringRef name = tok.spelling;
  Location loc = getLoc(tok.getLoc());
  consume();
  FailureOr<Value> value = failure();
  if (name == "view")
    value = parseView(out, loc);
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
  else
    value = parseLoadStore(out, loc, name);
  if (failed(value) ||
      failed(expect(Kind::RParen, ")", ("to close '" + name + "'").str())))
    return failure();
  return value;
}

/// view( T )
FailureOr<Value> Importer::parseView(const TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'view'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source))
    return failure();
  return buildDeclared<ViewOp>(out, loc, source->value);
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
FailureOr<Value> Importer::parseSqueeze(const TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'squeeze'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source))
    return failure();
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
  return buildDeclared<SqueezeOp>(out, loc, source->value, dims);
}

/// broadcast( T [, flags = {...}] ): the inserted dims are the result's
/// size-1 dims missing from the operand (its bS dims when they account for
/// all).
FailureOr<Value> Importer::parseBroadcast(const TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'broadcast'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source))
    return failure();
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
  return buildDeclared<BroadcastOp>(out, loc, source->value, dims);
}

/// Skips `{4, i3, ...}`: the extents an expand prints repeat the result's
/// domain, which is what the import uses.
LogicalResult Importer::skipExtentList() {
  if (failed(expect(Kind::LBrace, "{", "to open the expanded extents")))
    return failure();
  while (!tok.is(Kind::RBrace)) {
    if (!tok.is(Kind::Integer) && !tok.is(Kind::Identifier))
      return emitError(tok.getLoc())
             << "expected an extent, found " << describeCurrent();
    consume();
    if (!tok.is(Kind::Comma))
      break;
    consume();
  }
  return expect(Kind::RBrace, "}", "to close the expanded extents");
}

/// expand( T [, {extents}] )
FailureOr<Value> Importer::parseExpand(const TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'expand'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source))
    return failure();
  if (tok.is(Kind::Comma)) {
    consume();
    if (failed(skipExtentList()))
      return failure();
  }
  return buildDeclared<ExpandOp>(out, loc, source->value);
}

/// reduction( T, op = add, initial value = float(0), allreduce = false ).
/// The reduced dims are the rS positions of the result; nvFuser drops
/// reduction domains from a tensor's logical shape (keepdim inserts a
/// separate broadcast), so the result has them removed.
FailureOr<Value> Importer::parseReduction(const TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'reduction'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source) || failed(expect(Kind::Comma, ",", "after the operand")) ||
      failed(expectKeyword("op", "in 'reduction'")) ||
      failed(expect(Kind::Equal, "=", "after 'op'")))
    return failure();
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
           << "unsupported reduction op '" << tok.spelling
           << "': it ignores NaN (IEEE maxNum/minNum), which the max/min "
              "reductions do not model";
  if (!kind)
    return emitError(kindLoc)
           << "unsupported reduction op " << describeCurrent()
           << " (supported: add, mul, max, min)";
  consume();
  if (failed(expect(Kind::Comma, ",", "after the reduction op")) ||
      failed(expectKeyword("initial", "in 'reduction'")) ||
      failed(expectKeyword("value", "after 'initial'")) ||
      failed(expect(Kind::Equal, "=", "after 'initial value'")))
    return failure();
  llvm::SMLoc initLoc = tok.getLoc();
  FailureOr<Literal> init = parseLiteral();
  if (failed(init))
    return failure();
  // fuser.reduction starts from the identity of its kind; nvFuser's sum,
  // prod, max and min do too.
  // For max and min the identity is the lowest (highest) value of the
  // element type: -inf for floats, the type's minimum (maximum) for integers
  // (false and true for bool).
  double initValue =
      init->isFloat ? init->floatValue : static_cast<double>(init->intValue);
  Type elementType = source->decl.elementType;
  std::optional<std::pair<int64_t, int64_t>> intRange;
  if (elementType.isInteger(1))
    intRange = {0, 1};
  else if (auto intType = dyn_cast<IntegerType>(elementType))
    intRange = {llvm::minIntN(intType.getWidth()),
                llvm::maxIntN(intType.getWidth())};
  bool isIdentity = false;
  switch (*kind) {
  case ReductionKind::Add:
    isIdentity = initValue == 0;
    break;
  case ReductionKind::Mul:
    isIdentity = initValue == 1;
    break;
  case ReductionKind::Max:
    isIdentity =
        initValue == -std::numeric_limits<double>::infinity() ||
        (intRange && !init->isFloat && init->intValue <= intRange->first);
    break;
  case ReductionKind::Min:
    isIdentity =
        initValue == std::numeric_limits<double>::infinity() ||
        (intRange && !init->isFloat && init->intValue >= intRange->second);
    break;
  }
  if (!isIdentity)
    return emitError(initLoc) << "reduction initial value is not the identity "
                                 "of '"
                              << stringifyReductionKind(*kind)
                              << "'; fuser.reduction has no initial value";
  // `allreduce` is a scheduling property; the value computed is the same.
  if (tok.is(Kind::Comma)) {
    consume();
    if (failed(expectKeyword("allreduce", "in 'reduction'")) ||
        failed(expect(Kind::Equal, "=", "after 'allreduce'")))
      return failure();
    if (!tok.isIdentifier("true") && !tok.isIdentifier("false"))
      return emitError(tok.getLoc())
             << "expected 'true' or 'false' after 'allreduce =', found "
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
  return buildDeclared<ReductionOp>(out, loc, *kind, source->value, dims,
                                    /*keepdim=*/false);
}

/// Set( T [, cache_op=Streaming] ), Set.Permute( ... ), SegmenterSet( ... ).
///
/// Set.Permute: nvFuser clones the operand's IterDomains into the result's
/// root domain in operand order, so their numbers ascend in operand order,
/// and prints the permuted logical domain. Result dim i is therefore operand
/// dim rank(number_i). When the numbers do not give a permutation consistent
/// with the extents, the extents decide if they are all distinct; otherwise
/// the permutation is ambiguous and reported.
FailureOr<Value> Importer::parseLoadStore(const TensorDecl &out, Location loc,
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

  if (opName == "SegmenterSet")
    return buildDeclared<SegmentSetOp>(out, loc, source->value);
  if (!isPermute) {
    CacheOpAttr cacheAttr =
        cacheOp ? CacheOpAttr::get(context, *cacheOp) : CacheOpAttr();
    return buildDeclared<SetOp>(out, loc, source->value, cacheAttr);
  }

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
  for (auto [i, id] : llvm::enumerate(outDomain))
    permutation[i] =
        llvm::count_if(outDomain, [&](const IterDomainDecl &other) {
          return other.number < id.number;
        });
  bool numbersArePermutation =
      llvm::all_of(outDomain, [&](const IterDomainDecl &id) {
        return llvm::count_if(outDomain, [&](const IterDomainDecl &other) {
                 return other.number == id.number;
               }) == 1;
      });
  if (numbersArePermutation && isConsistent(permutation))
    return buildDeclared<PermuteOp>(out, loc, source->value, permutation);

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
  return buildDeclared<PermuteOp>(out, loc, source->value, permutation);
}

FailureOr<SmallVector<int64_t>>
Importer::parseIntegerList(llvm::StringRef context) {
  if (failed(expect(Kind::LBrace, "{", ("to open " + context).str())))
    return failure();
  SmallVector<int64_t> list;
  while (!tok.is(Kind::RBrace)) {
    bool negative = tok.is(Kind::Minus);
    if (negative)
      consume();
    if (!tok.is(Kind::Integer))
      return emitError(tok.getLoc())
             << "expected a static integer in " << context << ", found "
             << describeCurrent() << " (symbolic values are not supported yet)";
    FailureOr<int64_t> value = parseInteger(("in " + context).str());
    if (failed(value))
      return failure();
    list.push_back(negative ? -*value : *value);
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
FailureOr<Value> Importer::parsePad(const TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'pad'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source) || failed(expect(Kind::Comma, ",", "after the operand")))
    return failure();
  llvm::SMLoc widthsLoc = tok.getLoc();
  FailureOr<SmallVector<int64_t>> widths = parseIntegerList("the pad widths");
  if (failed(widths))
    return failure();
  int64_t rank = source->decl.type.getRank();
  if (static_cast<int64_t>(widths->size()) != 2 * rank)
    return emitError(widthsLoc) << "'pad' needs 2 widths per dim (" << 2 * rank
                                << "), found " << widths->size();
  SmallVector<int64_t> low, high;
  for (int64_t d = 0; d < rank; ++d) {
    low.push_back((*widths)[2 * d]);
    high.push_back((*widths)[2 * d + 1]);
  }
  FailureOr<Value> zero = buildConstant(Literal{}, out.elementType, widthsLoc);
  if (failed(zero))
    return failure();
  return buildDeclared<PadOp>(out, loc, source->value, low, high, *zero);
}

/// slice( T, { {start, stop, step} {start, stop, step} } )
FailureOr<Value> Importer::parseSlice(const TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'slice'")))
    return failure();
  FailureOr<TensorRef> source = parseTensorRef();
  if (failed(source) || failed(expect(Kind::Comma, ",", "after the operand")) ||
      failed(expect(Kind::LBrace, "{", "to open the slice ranges")))
    return failure();
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
  return buildDeclared<SliceOp>(out, loc, source->value, starts, limits,
                                strides);
}

/// cat( T0, T1, ..., dim ). nvFuser pads each input to the full result
/// extent along `dim` before its CatOp; such pads are unwrapped here when
/// they place the inputs one after another, since fuser.cat takes the
/// unpadded pieces.
FailureOr<Value> Importer::parseCat(const TensorDecl &out, Location loc) {
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
  return buildDeclared<CatOp>(out, loc, pieces, static_cast<uint64_t>(*dim));
}

/// full({4, 8}, float(0))
FailureOr<Value> Importer::parseFull(const TensorDecl &out, Location loc) {
  if (failed(expect(Kind::LParen, "(", "after 'full'")) ||
      failed(skipExtentList()) ||
      failed(expect(Kind::Comma, ",", "after the extents of 'full'")))
    return failure();
  llvm::SMLoc valueLoc = tok.getLoc();
  FailureOr<Operand> fill = parseExpression(out.elementType);
  if (failed(fill))
    return failure();
  FailureOr<Value> value = materialize(*fill, out.elementType);
  if (failed(value))
    return failure();
  if (isa<RankedTensorType>(value->getType()))
    return emitError(valueLoc) << "the fill value of 'full' must be a scalar";
  return buildDeclared<FullOp>(out, loc, *value);
}

//===----------------------------------------------------------------------===//
// Pointwise expressions
//===----------------------------------------------------------------------===//

/// Comparisons bind loosest, then + -, then * /, then unary minus. nvFuser
/// prints one operation per statement; nesting is accepted for scalars.
FailureOr<Operand> Importer::parseExpression(Type hint) {
  FailureOr<Operand> lhs = parseAdditive(hint);
  if (failed(lhs))
    return failure();
  std::optional<CompareKind> kind = lookUpCompareInfix(tok.spelling);
  if (!kind)
    return lhs;
  llvm::SMLoc loc = tok.getLoc();
  consume();
  FailureOr<Operand> rhs = parseAdditive(hint);
  if (failed(rhs))
    return failure();
  return buildBinary(*kind, loc, *lhs, *rhs, hint);
}

FailureOr<Operand> Importer::parseAdditive(Type hint) {
  FailureOr<Operand> lhs = parseMultiplicative(hint);
  while (succeeded(lhs) && (tok.is(Kind::Plus) || tok.is(Kind::Minus))) {
    BinaryKind kind = tok.is(Kind::Plus) ? BinaryKind::Add : BinaryKind::Sub;
    llvm::SMLoc loc = tok.getLoc();
    consume();
    FailureOr<Operand> rhs = parseMultiplicative(hint);
    if (failed(rhs))
      return failure();
    lhs = buildBinary(kind, loc, *lhs, *rhs, hint);
  }
  return lhs;
}

FailureOr<Operand> Importer::parseMultiplicative(Type hint) {
  FailureOr<Operand> lhs = parseUnary(hint);
  while (succeeded(lhs) && (tok.is(Kind::Star) || tok.is(Kind::Slash))) {
    BinaryKind kind = tok.is(Kind::Star) ? BinaryKind::Mul : BinaryKind::Div;
    llvm::SMLoc loc = tok.getLoc();
    consume();
    FailureOr<Operand> rhs = parseUnary(hint);
    if (failed(rhs))
      return failure();
    lhs = buildBinary(kind, loc, *lhs, *rhs, hint);
  }
  return lhs;
}

FailureOr<Operand> Importer::parseUnary(Type hint) {
  if (!tok.is(Kind::Minus))
    return parsePrimary(hint);
  llvm::SMLoc loc = tok.getLoc();
  consume();
  FailureOr<Operand> operand = parseUnary(hint);
  if (failed(operand))
    return failure();
  if (operand->isLiteral()) {
    if (!operand->literal.isFloat &&
        operand->literal.intValue == std::numeric_limits<int64_t>::min())
      return emitError(loc) << "negating " << operand->literal.intValue
                            << " does not fit in 64 bits";
    operand->literal.floatValue = -operand->literal.floatValue;
    operand->literal.intValue = -operand->literal.intValue;
    operand->loc = loc;
    return operand;
  }
  return buildUnary(UnaryKind::Neg, loc, *operand);
}

/// `(-)digits`, `inf`, `nan` inside `float(...)`; the caller consumed `(`.
FailureOr<Literal> Importer::parseLiteralValue(Type printedType) {
  Literal literal;
  literal.printedType = printedType;
  literal.isFloat = isa<FloatType>(printedType);
  bool negative = tok.is(Kind::Minus);
  if (negative)
    consume();
  if (tok.isIdentifier("inf") || tok.isIdentifier("nan")) {
    literal.isFloat = true;
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
    literal.isFloat |= tok.is(Kind::Float);
  } else {
    return emitError(tok.getLoc())
           << "expected a number in the scalar literal, found "
           << describeCurrent();
  }
  consume();
  if (negative)
    literal.floatValue = -literal.floatValue;
  return literal;
}

/// `float(0)`, `double(-inf)`, `3`, `true`.
FailureOr<Literal> Importer::parseLiteral() {
  if (tok.is(Kind::Integer) || tok.is(Kind::Float) || tok.is(Kind::Minus))
    return parseLiteralValue(tok.is(Kind::Float) ? Type(builder.getF64Type())
                                                 : Type(builder.getI64Type()));
  if (tok.isIdentifier("true") || tok.isIdentifier("false")) {
    Literal literal;
    literal.intValue = tok.isIdentifier("true");
    literal.floatValue = literal.intValue;
    literal.printedType = builder.getI1Type();
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
  FailureOr<Literal> literal = parseLiteralValue(printedType);
  if (failed(literal) ||
      failed(expect(Kind::RParen, ")", "to close the scalar literal")))
    return failure();
  return literal;
}

FailureOr<Operand> Importer::parsePrimary(Type hint) {
  llvm::SMLoc loc = tok.getLoc();
  switch (tok.kind) {
  case Kind::Integer:
  case Kind::Float: {
    FailureOr<Literal> literal = parseLiteral();
    if (failed(literal))
      return failure();
    return Operand{Value(), *literal, loc};
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
    FailureOr<Operand> inner = parseExpression(hint);
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
    return Operand{ref->value, Literal{}, loc};
  }
  bool isCall = peek().is(Kind::LParen);
  if (tok.isIdentifier("true") || tok.isIdentifier("false") ||
      (isCall && parseDataType(tok.spelling, context))) {
    FailureOr<Literal> literal = parseLiteral();
    if (failed(literal))
      return failure();
    return Operand{Value(), *literal, loc};
  }
  if (isCall)
    return parseCall(hint);
  if (parseScalarName(tok.spelling, context)) {
    auto it = values.find(tok.spelling);
    if (it == values.end())
      return emitError(loc)
             << "scalar '" << tok.spelling << "' is used before it is defined";
    consume();
    return Operand{it->second, Literal{}, loc};
  }
  return emitError(loc) << "unexpected '" << tok.spelling
                        << "' where an operand was expected";
}

/// name( args ): casts, unary and binary functions, where.
FailureOr<Operand> Importer::parseCall(Type hint) {
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
  if (!cast && !unary && !binary && !compare && name != "where")
    return emitError(loc) << "unsupported nvFuser operation '" << name << "'";
  consume(); // name
  if (cast)
    return parseCast(loc, cast->first, cast->second, name);

  if (failed(expect(Kind::LParen, "(", ("after '" + name + "'").str())))
    return failure();
  size_t arity = unary ? 1 : binary || compare ? 2 : 3;
  SmallVector<Operand, 3> args;
  for (size_t i = 0; i < arity; ++i) {
    if (i > 0 &&
        failed(expect(Kind::Comma, ",",
                      ("between the operands of '" + name + "'").str())))
      return failure();
    FailureOr<Operand> arg = parseExpression(hint);
    if (failed(arg))
      return failure();
    args.push_back(*arg);
  }
  if (failed(expect(Kind::RParen, ")", ("to close '" + name + "'").str())))
    return failure();
  if (unary)
    return buildUnary(*unary, loc, args[0]);
  if (binary)
    return buildBinary(*binary, loc, args[0], args[1], hint);
  if (compare)
    return buildBinary(*compare, loc, args[0], args[1], hint);
  return buildWhere(loc, args[0], args[1], args[2], hint);
}

/// `__bfloat2float(x)` (`from` known) or `(float)(x)` (`from` null): `to` is
/// the result element type; the shape is the operand's.
FailureOr<Operand> Importer::parseCast(llvm::SMLoc loc, Type from, Type to,
                                       llvm::StringRef name) {
  if (failed(expect(Kind::LParen, "(", ("after '" + name + "'").str())))
    return failure();
  FailureOr<Operand> operand = parseExpression(from ? from : to);
  if (failed(operand) ||
      failed(expect(Kind::RParen, ")", ("to close '" + name + "'").str())))
    return failure();
  Type sourceElementType =
      from ? from
           : (operand->isLiteral() ? operand->literal.printedType
                                   : getElementTypeOrSelf(operand->value));
  FailureOr<Value> source = materialize(*operand, sourceElementType);
  if (failed(source))
    return failure();
  if (getElementTypeOrSelf(source->getType()) != sourceElementType)
    return emitError(operand->loc)
           << "'" << name << "' converts from " << sourceElementType
           << " but its operand is " << source->getType();
  Type resultType = to;
  if (auto tensorType = dyn_cast<RankedTensorType>(source->getType()))
    resultType = tensorType.clone(to);
  auto op = CastOp::create(builder, getLoc(loc), resultType, *source);
  if (failed(verify(op))) {
    op->erase();
    return failure();
  }
  return Operand{op.getResult(), Literal{}, loc};
}

/// A tensor's element type decides; then a named scalar's; then `hint`, the
/// element type the statement declares; then a literal's printed dtype.
Type Importer::chooseElementType(ArrayRef<Operand> operands, Type hint) const {
  for (const Operand &operand : operands)
    if (operand.isTensor())
      return getElementTypeOrSelf(operand.value);
  for (const Operand &operand : operands)
    if (!operand.isLiteral())
      return operand.value.getType();
  if (hint)
    return hint;
  return operands.front().literal.printedType;
}

FailureOr<Value> Importer::buildConstant(const Literal &literal, Type type,
                                         llvm::SMLoc loc) {
  TypedAttr attr;
  if (auto floatType = dyn_cast<FloatType>(type)) {
    attr = builder.getFloatAttr(floatType, literal.isFloat
                                               ? literal.floatValue
                                               : double(literal.intValue));
  } else if (type.isInteger(1)) {
    attr = builder.getBoolAttr(literal.isFloat ? literal.floatValue != 0
                                               : literal.intValue != 0);
  } else {
    auto intType = cast<IntegerType>(type);
    if (literal.isFloat && literal.floatValue != std::trunc(literal.floatValue))
      return emitError(loc) << "literal " << literal.floatValue
                            << " is not an integer but is used as " << type;
    // Converting a double outside int64 (or infinite) is undefined.
    if (literal.isFloat &&
        !(literal.floatValue >= -0x1p63 && literal.floatValue < 0x1p63))
      return emitError(loc)
             << "literal " << literal.floatValue << " does not fit " << type;
    int64_t value = literal.isFloat ? static_cast<int64_t>(literal.floatValue)
                                    : literal.intValue;
    if (!llvm::isIntN(intType.getWidth(), value))
      return emitError(loc) << "literal " << value << " does not fit " << type;
    attr = builder.getIntegerAttr(intType, value);
  }
  return arith::ConstantOp::create(builder, getLoc(loc), attr).getResult();
}

/// Literals become constants of `elementType`; named scalars of another type
/// are cast to it (nvFuser promotes a scalar to the tensor's dtype). Tensors
/// pass through: their dtypes must already agree, as nvFuser prints casts.
FailureOr<Value> Importer::materialize(const Operand &operand,
                                       Type elementType) {
  if (operand.isLiteral())
    return buildConstant(operand.literal, elementType, operand.loc);
  if (operand.isTensor() || operand.value.getType() == elementType)
    return operand.value;
  auto op =
      CastOp::create(builder, getLoc(operand.loc), elementType, operand.value);
  if (failed(verify(op))) {
    op->erase();
    return failure();
  }
  return op.getResult();
}

FailureOr<Operand> Importer::buildUnary(UnaryKind kind, llvm::SMLoc loc,
                                        Operand operand) {
  Type elementType = chooseElementType(operand, Type());
  FailureOr<Value> value = materialize(operand, elementType);
  if (failed(value))
    return failure();
  Operation *op =
      buildUnaryOp(builder, getLoc(loc), kind, *value).getDefiningOp();
  if (failed(verify(op))) {
    op->erase();
    return failure();
  }
  return Operand{op->getResult(0), Literal{}, loc};
}

template <typename KindT>
FailureOr<Operand> Importer::buildBinary(KindT kind, llvm::SMLoc loc,
                                         Operand lhs, Operand rhs, Type hint) {
  // A comparison's declared type is i1; it says nothing about its operands.
  constexpr bool isComparison = std::is_same_v<KindT, CompareKind>;
  Type elementType =
      chooseElementType({lhs, rhs}, isComparison ? Type() : hint);
  FailureOr<Value> lhsValue = materialize(lhs, elementType);
  if (failed(lhsValue))
    return failure();
  FailureOr<Value> rhsValue = materialize(rhs, elementType);
  if (failed(rhsValue))
    return failure();
  Location opLoc = getLoc(loc);
  FailureOr<Value> value = visitOpClass(kind, [&](auto tag) {
    using OpTy = typename decltype(tag)::type;
    return buildInferred<OpTy>(opLoc, *lhsValue, *rhsValue);
  });
  if (failed(value))
    return failure();
  return Operand{*value, Literal{}, loc};
}

FailureOr<Operand> Importer::buildWhere(llvm::SMLoc loc, Operand condition,
                                        Operand lhs, Operand rhs, Type hint) {
  FailureOr<Value> conditionValue = materialize(condition, builder.getI1Type());
  if (failed(conditionValue))
    return failure();
  Type elementType = chooseElementType({lhs, rhs}, hint);
  FailureOr<Value> lhsValue = materialize(lhs, elementType);
  if (failed(lhsValue))
    return failure();
  FailureOr<Value> rhsValue = materialize(rhs, elementType);
  if (failed(rhsValue))
    return failure();
  FailureOr<Value> value = buildInferred<WhereOp>(getLoc(loc), *conditionValue,
                                                  *lhsValue, *rhsValue);
  if (failed(value))
    return failure();
  return Operand{*value, Literal{}, loc};
}

} // namespace

OwningOpRef<ModuleOp> mlir::fuser::importNvFuser(llvm::SourceMgr &sourceMgr,
                                                 MLIRContext *context) {
  context->loadDialect<FuserDialect, func::FuncDialect, arith::ArithDialect>();
  return Importer(sourceMgr, context).import();
}

void mlir::fuser::registerImportNvFuserTranslation() {
  TranslateToMLIRRegistration registration(
      "import-nvfuser", "import nvFuser's printed fusion math as fuser IR",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        return importNvFuser(sourceMgr, context);
      },
      [](DialectRegistry &registry) { registerFuserDialect(registry); });
}
