//===- FuserOps.cpp - fuser op verifiers and type inference ---------------===//
//
// Shape rules live in the type inference of each op, so that builders,
// parsers and the verifier share one definition. Folders are in
// FuserFolds.cpp.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/Attention.h"
#include "fuser/Dialect/Fuser/IR/Contraction.h"
#include "fuser/Dialect/Fuser/IR/ElementTypes.h"
#include "fuser/Dialect/Fuser/IR/GroupedMm.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {
/// Emits "'<op>' op <message>" at `loc` when a location is given (type
/// inference also runs from builders, where failures are silent).
template <typename OpTy, typename... Args>
LogicalResult opError(std::optional<Location> loc, Args &&...args) {
  return emitOptionalError(loc, "'", OpTy::getOperationName(), "' op ",
                           std::forward<Args>(args)...);
}

template <typename OpTy>
FailureOr<RankedTensorType> getTensorOperand(std::optional<Location> loc,
                                             Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return opError<OpTy>(loc, "expected a statically shaped tensor, got ",
                         value.getType());
  return type;
}

/// Checks that `dims` are sorted, unique and in [0, rank).
template <typename OpTy>
LogicalResult verifyDimList(std::optional<Location> loc, ArrayRef<int64_t> dims,
                            int64_t rank, StringRef what) {
  for (auto [i, dim] : llvm::enumerate(dims)) {
    if (dim < 0 || dim >= rank)
      return opError<OpTy>(loc, what, " ", dim, " is out of range for rank ",
                           rank);
    if (i > 0 && dims[i - 1] >= dim)
      return opError<OpTy>(loc, what, "s must be sorted and unique, got [",
                           dims, "]");
  }
  return success();
}
/// Enum attributes print as a bare keyword in the custom form (`add`,
/// `streaming`) and keep their `#fuser<...>` spelling in the generic form.
template <typename AttrT>
ParseResult parseEnumKeyword(OpAsmParser &parser, AttrT &attr) {
  using EnumT = decltype(std::declval<AttrT>().getValue());
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<EnumT> value = symbolizeEnum<EnumT>(keyword);
  if (!value) {
    InFlightDiagnostic diag = parser.emitError(loc, "unknown ")
                              << AttrT::getMnemonic() << " '" << keyword
                              << "'; expected one of:";
    // The enum cases are numbered 0..n-1; past the last one the name is "".
    StringRef separator = " ";
    for (uint32_t i = 0;; ++i) {
      StringRef name = stringifyEnum(static_cast<EnumT>(i));
      if (name.empty())
        break;
      diag << separator << name;
      separator = ", ";
    }
    return diag;
  }
  attr = AttrT::get(parser.getContext(), *value);
  return success();
}

template <typename AttrT>
void printEnumKeyword(OpAsmPrinter &printer, Operation *, AttrT attr) {
  printer << stringifyEnum(attr.getValue());
}
/// A scatter's dim and optional combiner: `dim <n> [reduce <kind>]`.
ParseResult parseScatterDim(OpAsmParser &parser, IntegerAttr &dim,
                            ReductionKindAttr &reduce) {
  int64_t value;
  if (parser.parseKeyword("dim") || parser.parseInteger(value))
    return failure();
  dim = parser.getBuilder().getI64IntegerAttr(value);
  if (failed(parser.parseOptionalKeyword("reduce")))
    return success();
  return parseEnumKeyword(parser, reduce);
}

void printScatterDim(OpAsmPrinter &printer, Operation *op, IntegerAttr dim,
                     ReductionKindAttr reduce) {
  printer << "dim " << dim.getInt();
  if (!reduce)
    return;
  printer << " reduce ";
  printEnumKeyword(printer, op, reduce);
}
} // namespace

//===----------------------------------------------------------------------===//
// Meta ops
//===----------------------------------------------------------------------===//

LogicalResult ViewOp::verify() {
  // Checked: ShapedType::getNumElements wraps around silently.
  std::optional<int64_t> from =
      getCheckedNumElements(getSource().getType().getShape());
  std::optional<int64_t> to = getCheckedNumElements(getType().getShape());
  if (!from || !to)
    return emitOpError("element count of ")
           << (from ? getType() : getSource().getType()) << " overflows int64";
  if (*from != *to)
    return emitOpError("changes the element count from ")
           << *from << " to " << *to;
  return success();
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  auto source = getTensorOperand<SqueezeOp>(loc, adaptor.getSource());
  if (failed(source))
    return failure();
  ArrayRef<int64_t> shape = source->getShape();
  ArrayRef<int64_t> dims = adaptor.getDims();
  if (failed(verifyDimList<SqueezeOp>(loc, dims, shape.size(), "squeeze dim")))
    return failure();
  SmallVector<int64_t> resultShape;
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (!llvm::is_contained(dims, static_cast<int64_t>(i))) {
      resultShape.push_back(size);
      continue;
    }
    if (size != 1)
      return opError<SqueezeOp>(loc, "cannot squeeze dim ", i, " of size ",
                                size, "; only size-1 dims can be squeezed");
  }
  results.push_back(source->clone(resultShape));
  return success();
}

LogicalResult BroadcastOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  auto source = getTensorOperand<BroadcastOp>(loc, adaptor.getSource());
  if (failed(source))
    return failure();
  ArrayRef<int64_t> dims = adaptor.getDims();
  int64_t resultRank = source->getRank() + dims.size();
  if (failed(
          verifyDimList<BroadcastOp>(loc, dims, resultRank, "broadcast dim")))
    return failure();
  SmallVector<int64_t> resultShape;
  auto sourceSizes = source->getShape().begin();
  for (int64_t i = 0; i < resultRank; ++i)
    resultShape.push_back(llvm::is_contained(dims, i) ? 1 : *sourceSizes++);
  results.push_back(source->clone(resultShape));
  return success();
}

LogicalResult ExpandOp::verify() {
  ArrayRef<int64_t> from = getSource().getType().getShape();
  ArrayRef<int64_t> to = getType().getShape();
  if (from.size() != to.size())
    return emitOpError("cannot change the rank from ")
           << from.size() << " to " << to.size();
  for (auto [i, sizes] : llvm::enumerate(llvm::zip_equal(from, to))) {
    auto [fromSize, toSize] = sizes;
    if (fromSize != toSize && fromSize != 1)
      return emitOpError("cannot expand dim ")
             << i << " of size " << fromSize << " to " << toSize
             << "; only size-1 dims can be expanded";
  }
  return success();
}

LogicalResult PermuteOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  auto source = getTensorOperand<PermuteOp>(loc, adaptor.getSource());
  if (failed(source))
    return failure();
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  int64_t rank = source->getRank();
  SmallVector<bool> seen(rank, false);
  bool valid = static_cast<int64_t>(perm.size()) == rank;
  for (int64_t p : perm) {
    if (!valid || p < 0 || p >= rank || seen[p]) {
      valid = false;
      break;
    }
    seen[p] = true;
  }
  if (!valid)
    return opError<PermuteOp>(loc, "[", perm, "] is not a permutation of the ",
                              rank, " dims of the source");
  SmallVector<int64_t> resultShape;
  for (int64_t p : perm)
    resultShape.push_back(source->getDimSize(p));
  results.push_back(source->clone(resultShape));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  auto source = getTensorOperand<SliceOp>(loc, adaptor.getSource());
  if (failed(source))
    return failure();
  ArrayRef<int64_t> starts = adaptor.getStarts(), limits = adaptor.getLimits(),
                    strides = adaptor.getStrides();
  int64_t rank = source->getRank();
  if (static_cast<int64_t>(starts.size()) != rank ||
      static_cast<int64_t>(limits.size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank)
    return opError<SliceOp>(loc, "needs one start, limit and stride per dim ",
                            "(rank ", rank, "), got ", starts.size(), ", ",
                            limits.size(), " and ", strides.size());
  SmallVector<int64_t> resultShape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = source->getDimSize(d);
    if (starts[d] < 0 || starts[d] > limits[d] || limits[d] > size)
      return opError<SliceOp>(loc, "dim ", d, ": bounds [", starts[d], ", ",
                              limits[d], ") are not within [0, ", size, "]");
    if (strides[d] < 1)
      return opError<SliceOp>(loc, "dim ", d, ": stride ", strides[d],
                              " is not positive");
    resultShape.push_back(llvm::divideCeil(limits[d] - starts[d], strides[d]));
  }
  results.push_back(source->clone(resultShape));
  return success();
}

//===----------------------------------------------------------------------===//
// Pad and cat
//===----------------------------------------------------------------------===//

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  auto source = getTensorOperand<PadOp>(loc, adaptor.getSource());
  if (failed(source))
    return failure();
  ArrayRef<int64_t> low = adaptor.getLow(), high = adaptor.getHigh();
  int64_t rank = source->getRank();
  if (static_cast<int64_t>(low.size()) != rank ||
      static_cast<int64_t>(high.size()) != rank)
    return opError<PadOp>(loc, "needs one low and one high pad width per dim ",
                          "(rank ", rank, "), got ", low.size(), " and ",
                          high.size());
  if (adaptor.getValue().getType() != source->getElementType())
    return opError<PadOp>(loc, "pad value type ", adaptor.getValue().getType(),
                          " differs from the element type ",
                          source->getElementType());
  SmallVector<int64_t> resultShape;
  for (int64_t d = 0; d < rank; ++d) {
    if (low[d] < 0 || high[d] < 0)
      return opError<PadOp>(loc, "dim ", d, ": pad widths must be ",
                            "non-negative, got low ", low[d], " and high ",
                            high[d]);
    std::optional<int64_t> size =
        llvm::checkedAdd(low[d], source->getDimSize(d));
    if (size)
      size = llvm::checkedAdd(*size, high[d]);
    if (!size)
      return opError<PadOp>(loc, "dim ", d, ": padded size overflows int64");
    resultShape.push_back(*size);
  }
  results.push_back(source->clone(resultShape));
  return success();
}

LogicalResult CatOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return opError<CatOp>(loc, "needs at least one input");
  auto first = getTensorOperand<CatOp>(loc, inputs.front());
  if (failed(first))
    return failure();
  int64_t rank = first->getRank();
  int64_t dim = adaptor.getDim();
  if (dim < 0 || dim >= rank)
    return opError<CatOp>(loc, "dim ", dim, " is out of range for rank ", rank);
  SmallVector<int64_t> resultShape(first->getShape());
  for (auto [i, input] : llvm::enumerate(inputs.drop_front())) {
    auto type = getTensorOperand<CatOp>(loc, input);
    if (failed(type))
      return failure();
    if (type->getElementType() != first->getElementType() ||
        type->getRank() != rank)
      return opError<CatOp>(loc, "input ", i + 1, " of type ", *type,
                            " does not match the rank and element type of ",
                            *first);
    for (int64_t d = 0; d < rank; ++d) {
      if (d == dim)
        continue;
      if (type->getDimSize(d) != resultShape[d])
        return opError<CatOp>(loc, "input ", i + 1, " has size ",
                              type->getDimSize(d), " in dim ", d, ", expected ",
                              resultShape[d]);
    }
    std::optional<int64_t> size =
        llvm::checkedAdd(resultShape[dim], type->getDimSize(dim));
    if (!size)
      return opError<CatOp>(loc, "concatenated size overflows int64");
    resultShape[dim] = *size;
  }
  results.push_back(first->clone(resultShape));
  return success();
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  auto sourceTensor = dyn_cast<RankedTensorType>(getSource().getType());
  auto resultTensor = dyn_cast<RankedTensorType>(getType());
  if (static_cast<bool>(sourceTensor) != static_cast<bool>(resultTensor))
    return emitOpError("cannot cast between a tensor and a scalar");
  if (sourceTensor && sourceTensor.getShape() != resultTensor.getShape())
    return emitOpError("cannot change the shape from ")
           << sourceTensor << " to " << resultTensor;
  return success();
}

//===----------------------------------------------------------------------===//
// Reduction
//===----------------------------------------------------------------------===//

LogicalResult ReductionOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  auto source = getTensorOperand<ReductionOp>(loc, adaptor.getSource());
  if (failed(source))
    return failure();
  ArrayRef<int64_t> dims = adaptor.getDims();
  if (dims.empty())
    return opError<ReductionOp>(loc, "needs at least one dim to reduce");
  if (isa<ComplexType>(source->getElementType()) &&
      adaptor.getKind() != ReductionKind::Add)
    return opError<ReductionOp>(loc, "reduces complex elements with add "
                                     "only, not ",
                                stringifyReductionKind(adaptor.getKind()));
  if (failed(verifyDimList<ReductionOp>(loc, dims, source->getRank(),
                                        "reduction dim")))
    return failure();
  SmallVector<int64_t> resultShape;
  for (auto [i, size] : llvm::enumerate(source->getShape())) {
    if (!llvm::is_contained(dims, static_cast<int64_t>(i)))
      resultShape.push_back(size);
    else if (adaptor.getKeepdim())
      resultShape.push_back(1);
  }
  results.push_back(source->clone(resultShape));
  return success();
}

//===----------------------------------------------------------------------===//
// Broadcasting elementwise ops
//===----------------------------------------------------------------------===//

namespace {
/// The result type of an elementwise op over `operands` with nvFuser's
/// size-1 broadcasting: a scalar of `elementType` if every operand is a
/// scalar, otherwise a tensor with the larger size of each dim.
template <typename OpTy>
FailureOr<Type> inferBroadcastType(std::optional<Location> loc,
                                   ValueRange operands, Type elementType) {
  std::optional<SmallVector<int64_t>> shape;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    auto tensor = dyn_cast<RankedTensorType>(operand.getType());
    if (!tensor)
      continue;
    if (!tensor.hasStaticShape())
      return opError<OpTy>(loc, "operand ", i, " has a dynamic shape");
    if (!shape) {
      shape.emplace(tensor.getShape());
      continue;
    }
    if (tensor.getRank() != static_cast<int64_t>(shape->size()))
      return opError<OpTy>(loc, "operand ", i, " has rank ", tensor.getRank(),
                           ", expected ", shape->size(),
                           " (use fuser.broadcast to add dims)");
    for (auto [d, size] : llvm::enumerate(tensor.getShape())) {
      int64_t &merged = (*shape)[d];
      if (size == merged || size == 1)
        continue;
      if (merged != 1)
        return opError<OpTy>(loc, "operand ", i, " has size ", size, " in dim ",
                             d, ", which neither equals nor ",
                             "broadcasts with ", merged);
      merged = size;
    }
  }
  if (!shape)
    return elementType;
  return Type(RankedTensorType::get(*shape, elementType));
}

/// Checks that all `operands` share one element type and returns it.
template <typename OpTy>
FailureOr<Type> commonElementType(std::optional<Location> loc,
                                  ValueRange operands) {
  Type elementType = getElementTypeOrSelf(operands.front().getType());
  for (Value operand : operands.drop_front())
    if (getElementTypeOrSelf(operand.getType()) != elementType)
      return opError<OpTy>(loc, "operand element types differ: ", elementType,
                           " and ", getElementTypeOrSelf(operand.getType()),
                           " (insert a fuser.cast)");
  return elementType;
}

template <typename OpTy>
LogicalResult inferArithmeticType(std::optional<Location> loc,
                                  ValueRange operands,
                                  SmallVectorImpl<Type> &results) {
  FailureOr<Type> elementType = commonElementType<OpTy>(loc, operands);
  if (failed(elementType))
    return failure();
  FailureOr<Type> type = inferBroadcastType<OpTy>(loc, operands, *elementType);
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

template <typename OpTy>
LogicalResult inferCompareType(MLIRContext *context,
                               std::optional<Location> loc, ValueRange operands,
                               SmallVectorImpl<Type> &results) {
  if (failed(commonElementType<OpTy>(loc, operands)))
    return failure();
  FailureOr<Type> type =
      inferBroadcastType<OpTy>(loc, operands, IntegerType::get(context, 1));
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}
} // namespace

// Result types by the RESULT column of ElementwiseOps.def: the operands'
// element type (Same) or i1 (Bool), in the broadcast shape. Unary ops of
// the Same class get theirs from SameOperandsAndResultType.
#define FUSER_INFER_Same(OP)                                                   \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, Adaptor adaptor,             \
      SmallVectorImpl<Type> &results) {                                        \
    return inferArithmeticType<OP>(loc, adaptor.getOperands(), results);       \
  }
#define FUSER_INFER_Bool(OP)                                                   \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,      \
      SmallVectorImpl<Type> &results) {                                        \
    return inferCompareType<OP>(context, loc, adaptor.getOperands(), results); \
  }
// Real: the operand's type, with a complex element type replaced by its
// component type (abs).
#define FUSER_UNARY_INFER_Real(OP)                                             \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location>, Adaptor adaptor,                 \
      SmallVectorImpl<Type> &results) {                                        \
    results.push_back(getComplexPartType(adaptor.getOperand().getType()));    \
    return success();                                                          \
  }
#define FUSER_UNARY_INFER_Same(OP)
#define FUSER_UNARY_INFER_Bool(OP) FUSER_INFER_Bool(OP)
#define FUSER_UNARY_OP(CLASS, KIND, MNEMONIC, NAME, ALIAS, OPERANDS, RESULT,   \
                       TRANSCENDENTAL)                                         \
  FUSER_UNARY_INFER_##RESULT(CLASS)
#define FUSER_BINARY_OP(CLASS, KIND, MNEMONIC, NAME, ALIAS, OPERANDS, RESULT,  \
                        TRANSCENDENTAL)                                        \
  FUSER_INFER_##RESULT(CLASS)
#define FUSER_TERNARY_OP(CLASS, ...) FUSER_INFER_Same(CLASS)
#define FUSER_COMPARE_OP(CLASS, ...) FUSER_INFER_Bool(CLASS)
#include "fuser/Dialect/Fuser/IR/ElementwiseOps.def"
#undef FUSER_INFER_Same
#undef FUSER_INFER_Bool
// fuser.real and fuser.imag give the component type, as abs does.
FUSER_UNARY_INFER_Real(RealOp)
FUSER_UNARY_INFER_Real(ImagOp)
#undef FUSER_UNARY_INFER_Same
#undef FUSER_UNARY_INFER_Bool
#undef FUSER_UNARY_INFER_Real

//===----------------------------------------------------------------------===//
// Complex numbers from parts
//===----------------------------------------------------------------------===//

LogicalResult ComplexOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  FailureOr<Type> elementType =
      commonElementType<ComplexOp>(loc, adaptor.getOperands());
  if (failed(elementType))
    return failure();
  FailureOr<Type> type = inferBroadcastType<ComplexOp>(
      loc, adaptor.getOperands(), ComplexType::get(*elementType));
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  FailureOr<Type> elementType = commonElementType<WhereOp>(
      loc, ValueRange{adaptor.getLhs(), adaptor.getRhs()});
  if (failed(elementType))
    return failure();
  FailureOr<Type> type =
      inferBroadcastType<WhereOp>(loc, adaptor.getOperands(), *elementType);
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

LogicalResult FullOp::verify() {
  if (getValue().getType() != getType().getElementType())
    return emitOpError("fill value type ")
           << getValue().getType() << " differs from the element type "
           << getType().getElementType();
  return success();
}

LogicalResult GatherOp::verify() {
  RankedTensorType source = getSource().getType(), index = getIndex().getType();
  RankedTensorType result = getType();
  int64_t rank = source.getRank(), dim = getDim();
  if (index.getRank() != rank)
    return emitOpError("source and index ranks differ: ")
           << rank << " and " << index.getRank();
  if (dim < 0 || dim >= rank)
    return emitOpError("dim ") << dim << " is out of range for rank " << rank;
  if (result != index.clone(source.getElementType()))
    return emitOpError("result type must be ")
           << index.clone(source.getElementType()) << ", got " << result;
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim && index.getDimSize(d) > source.getDimSize(d))
      return emitOpError("index extent ")
             << index.getDimSize(d) << " exceeds the source's "
             << source.getDimSize(d) << " in dim " << d;
  return success();
}

LogicalResult ScatterOp::verify() {
  RankedTensorType self = getSelf().getType(), index = getIndex().getType(),
                   src = getSrc().getType();
  int64_t rank = self.getRank(), dim = getDim();
  if (index.getRank() != rank || src.getRank() != rank)
    return emitOpError("self, index and src ranks differ: ")
           << rank << ", " << index.getRank() << " and " << src.getRank();
  if (dim < 0 || dim >= rank)
    return emitOpError("dim ") << dim << " is out of range for rank " << rank;
  if (src.getElementType() != self.getElementType())
    return emitOpError("src element type must be self's, ")
           << self.getElementType() << ", got " << src.getElementType();
  for (int64_t d = 0; d < rank; ++d) {
    if (index.getDimSize(d) > src.getDimSize(d))
      return emitOpError("index extent ")
             << index.getDimSize(d) << " exceeds src's " << src.getDimSize(d)
             << " in dim " << d;
    if (d != dim && index.getDimSize(d) > self.getDimSize(d))
      return emitOpError("index extent ")
             << index.getDimSize(d) << " exceeds self's "
             << self.getDimSize(d) << " in dim " << d;
  }
  std::optional<ReductionKind> reduce = getReduce();
  if (!reduce)
    return success();
  Type element = self.getElementType();
  if (isa<ComplexType>(element) ? *reduce != ReductionKind::Add
                                : !isa<IntegerType, Float16Type, BFloat16Type,
                                       Float32Type, Float64Type>(element) ||
                                      element.isInteger(1))
    return emitOpError("cannot combine ")
           << element << " elements with reduce "
           << stringifyReductionKind(*reduce);
  return success();
}

LogicalResult ScanOp::verify() {
  RankedTensorType type = getType();
  int64_t rank = type.getRank(), dim = getDim();
  if (dim < 0 || dim >= rank)
    return emitOpError("dim ") << dim << " is out of range for rank " << rank;
  if (isa<ComplexType>(type.getElementType()) &&
      getKind() != ReductionKind::Add)
    return emitOpError("complex elements scan with add only, not ")
           << stringifyReductionKind(getKind());
  return success();
}

LogicalResult ArgsortOp::verify() {
  RankedTensorType source = getSource().getType(), result = getType();
  int64_t rank = source.getRank(), dim = getDim();
  if (dim < 0 || dim >= rank)
    return emitOpError("dim ") << dim << " is out of range for rank " << rank;
  if (result.getShape() != source.getShape())
    return emitOpError("result shape must be the source's, ")
           << source.clone(result.getElementType()) << ", got " << result;
  return success();
}

/// The result of a random op is f16, bf16, f32 or f64, its two parameters
/// f64 for an f64 result and f32 otherwise.
static LogicalResult verifyRandomOp(Operation *op, Type parameterType,
                                    RankedTensorType resultType) {
  Type element = resultType.getElementType();
  if (!isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(element))
    return op->emitOpError("result element type must be f16, bf16, f32 or "
                           "f64, got ")
           << element;
  Type expected = element.isF64() ? element : Float32Type::get(op->getContext());
  if (parameterType != expected)
    return op->emitOpError("parameters of ")
           << element << " results must be " << expected << ", got "
           << parameterType;
  return success();
}

LogicalResult UniformOp::verify() {
  return verifyRandomOp(*this, getLow().getType(), getType());
}

LogicalResult NormalOp::verify() {
  return verifyRandomOp(*this, getMean().getType(), getType());
}

LogicalResult IotaOp::verify() {
  if (getType().getRank() != 1)
    return emitOpError("result must be 1-D, got ") << getType();
  if (getStart().getType() != getType().getElementType())
    return emitOpError("start and step type ")
           << getStart().getType() << " differs from the element type "
           << getType().getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// Library ops
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  auto lhs = getTensorOperand<MatmulOp>(loc, adaptor.getLhs());
  auto rhs = getTensorOperand<MatmulOp>(loc, adaptor.getRhs());
  if (failed(lhs) || failed(rhs))
    return failure();
  ArrayRef<int64_t> a = lhs->getShape(), b = rhs->getShape();
  if (a.empty() || b.empty())
    return opError<MatmulOp>(loc, "operands must be at least 1-D, got ranks ",
                             a.size(), " and ", b.size());
  if (lhs->getElementType() != rhs->getElementType())
    return opError<MatmulOp>(loc, "operand element types differ: ",
                             lhs->getElementType(), " and ",
                             rhs->getElementType());
  // torch.matmul: a 1-D lhs is a row, a 1-D rhs a column.
  int64_t rhsK = b.size() == 1 ? 0 : b.size() - 2;
  if (a.back() != b[rhsK])
    return opError<MatmulOp>(loc, "contraction extents differ: ", a.back(),
                             " in lhs dim ", a.size() - 1, ", ", b[rhsK],
                             " in rhs dim ", rhsK);
  ArrayRef<int64_t> lhsBatch = a.drop_back(std::min<size_t>(a.size(), 2));
  ArrayRef<int64_t> rhsBatch = b.drop_back(std::min<size_t>(b.size(), 2));
  size_t rank = std::max(lhsBatch.size(), rhsBatch.size());
  SmallVector<int64_t> shape;
  for (size_t dim = 0; dim < rank; ++dim) {
    // Aligned from the right; a missing dim broadcasts as an extent 1.
    int64_t lhsDim = dim + lhsBatch.size() - rank;
    int64_t rhsDim = dim + rhsBatch.size() - rank;
    int64_t x = lhsDim >= 0 ? lhsBatch[lhsDim] : 1;
    int64_t y = rhsDim >= 0 ? rhsBatch[rhsDim] : 1;
    if (x != y && x != 1 && y != 1)
      return opError<MatmulOp>(loc, "batch extents ", x, " and ", y,
                               " do not broadcast (lhs dim ", lhsDim,
                               ", rhs dim ", rhsDim, ")");
    shape.push_back(x == 1 ? y : x);
  }
  if (a.size() >= 2)
    shape.push_back(a[a.size() - 2]);
  if (b.size() >= 2)
    shape.push_back(b.back());
  results.push_back(lhs->clone(shape));
  return success();
}

LogicalResult LinearOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  auto input = getTensorOperand<LinearOp>(loc, adaptor.getInput());
  auto weight = getTensorOperand<LinearOp>(loc, adaptor.getWeight());
  if (failed(input) || failed(weight))
    return failure();
  if (input->getRank() < 1)
    return opError<LinearOp>(loc, "input must be at least 1-D");
  if (weight->getRank() != 2)
    return opError<LinearOp>(loc, "weight must be 2-D (N x K), got ",
                             *weight);
  Type element = input->getElementType();
  if (weight->getElementType() != element)
    return opError<LinearOp>(loc, "input and weight element types differ: ",
                             element, " and ", weight->getElementType());
  int64_t k = input->getShape().back(), n = weight->getDimSize(0);
  if (weight->getDimSize(1) != k)
    return opError<LinearOp>(loc, "contraction extents differ: ", k,
                             " in the input's last dim, ",
                             weight->getDimSize(1), " in the weight's dim 1");
  if (Value biasValue = adaptor.getBias()) {
    auto bias = getTensorOperand<LinearOp>(loc, biasValue);
    if (failed(bias))
      return failure();
    if (bias->getElementType() != element)
      return opError<LinearOp>(loc, "bias element type ",
                               bias->getElementType(),
                               " differs from the input's ", element);
    auto expected = RankedTensorType::get({n}, element);
    if (*bias != expected)
      return opError<LinearOp>(loc, "bias must be ", expected,
                               " (the weight's N), got ", *bias);
  }
  SmallVector<int64_t> shape(input->getShape().drop_back());
  shape.push_back(n);
  results.push_back(input->clone(shape));
  return success();
}

/// The grouped gemm of operands shaped `a` and `b` (ranks 2 or 3, not
/// both 3) split by `groups` offsets: the form by the ranks, its extents.
static GroupedMm classifyGroupedMm(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                                   int64_t groups) {
  int64_t k = a.back(), n = b.back();
  if (b.size() == 3)
    return {GroupedDim::Rows, groups, a[0], n, k};
  if (a.size() == 3)
    return {GroupedDim::Columns, groups, a[1], n, k};
  return {GroupedDim::Contraction, groups, a[0], n, k};
}

LogicalResult GroupedMmOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  auto mat1 = getTensorOperand<GroupedMmOp>(loc, adaptor.getMat1());
  auto mat2 = getTensorOperand<GroupedMmOp>(loc, adaptor.getMat2());
  auto offsets = getTensorOperand<GroupedMmOp>(loc, adaptor.getOffsets());
  if (failed(mat1) || failed(mat2) || failed(offsets))
    return failure();
  Type element = mat1->getElementType();
  // torch._grouped_mm's dtypes; it has no f64 kernel.
  if (!isa<Float16Type, BFloat16Type, Float32Type>(element))
    return opError<GroupedMmOp>(loc, "takes f16, bf16 or f32, got ", element);
  if (mat2->getElementType() != element)
    return opError<GroupedMmOp>(loc, "operand element types differ: ",
                                element, " and ", mat2->getElementType());
  if (offsets->getRank() != 1 || !offsets->getElementType().isInteger(32))
    return opError<GroupedMmOp>(
        loc, "offsets must be a 1-D tensor of i32 (torch's int32), got ",
        *offsets);
  ArrayRef<int64_t> a = mat1->getShape(), b = mat2->getShape();
  int64_t groups = offsets->getDimSize(0);
  if (a.size() == 3 && b.size() == 3)
    return opError<GroupedMmOp>(loc, "takes no two 3-D operands (that is a "
                                     "batched fuser.matmul)");
  if (a.size() < 2 || a.size() > 3 || b.size() < 2 || b.size() > 3)
    return opError<GroupedMmOp>(
        loc, "operands must be [M, K] x [G, K, N], [G, M, K] x [K, N] or "
             "[M, K] x [K, N], got ranks ",
        a.size(), " and ", b.size());
  if (a.back() != b[b.size() - 2])
    return opError<GroupedMmOp>(loc, "contraction extents differ: ", a.back(),
                                " in mat1 dim ", a.size() - 1, ", ",
                                b[b.size() - 2], " in mat2 dim ",
                                b.size() - 2);
  auto checkGroups = [&](int64_t extent, StringRef which) -> LogicalResult {
    if (extent == groups)
      return success();
    return opError<GroupedMmOp>(loc, "offsets has ", groups,
                                " groups, but ", which, "'s dim 0 has ",
                                extent);
  };
  GroupedMm grouped = classifyGroupedMm(a, b, groups);
  if ((grouped.grouped == GroupedDim::Rows &&
       failed(checkGroups(b[0], "mat2"))) ||
      (grouped.grouped == GroupedDim::Columns &&
       failed(checkGroups(a[0], "mat1"))))
    return failure();
  SmallVector<int64_t> shape = {grouped.m, grouped.n};
  if (grouped.grouped == GroupedDim::Contraction)
    shape.insert(shape.begin(), groups);
  results.push_back(RankedTensorType::get(shape, element));
  return success();
}

bool mlir::fuser::isScalarComputation(Operation *op) {
  return op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         !isa<TensorType>(op->getResult(0).getType());
}

GroupedMm mlir::fuser::getGroupedMm(Operation *op) {
  auto groupedMm = cast<GroupedMmOp>(op);
  return classifyGroupedMm(groupedMm.getMat1().getType().getShape(),
                           groupedMm.getMat2().getType().getShape(),
                           groupedMm.getOffsets().getType().getDimSize(0));
}

int64_t GroupedMmOp::getFlopCount() {
  // Every result element of a group sums K products (the contraction form
  // sums K in all over its groups): 2 M N K, fewer where offsets stop short.
  GroupedMm g = getGroupedMm(*this);
  return 2 * g.m * g.n * g.k;
}

int64_t GroupedMmOp::getReductionSize() { return getGroupedMm(*this).k; }

namespace {
/// The forward's result types from `query`, `key` and `value` (output,
/// logsumexp), after the checks of both attention ops.
template <typename OpTy>
FailureOr<std::pair<RankedTensorType, RankedTensorType>>
inferAttention(std::optional<Location> loc, typename OpTy::Adaptor adaptor) {
  auto query = getTensorOperand<OpTy>(loc, adaptor.getQuery());
  auto key = getTensorOperand<OpTy>(loc, adaptor.getKey());
  auto value = getTensorOperand<OpTy>(loc, adaptor.getValue());
  if (failed(query) || failed(key) || failed(value))
    return failure();
  Type element = query->getElementType();
  if (!isa<Float16Type, BFloat16Type, Float32Type>(element))
    return opError<OpTy>(loc, "takes f16, bf16 or f32, got ", element);
  if (key->getElementType() != element || value->getElementType() != element)
    return opError<OpTy>(loc, "query, key and value element types differ: ",
                         element, ", ", key->getElementType(), " and ",
                         value->getElementType());
  int64_t rank = query->getRank();
  if (rank < 4 || key->getRank() != rank || value->getRank() != rank)
    return opError<OpTy>(loc, "query, key and value must have one rank, 4 or "
                              "more ([N..., H, L, E]), got ranks ",
                         rank, ", ", key->getRank(), " and ",
                         value->getRank());
  ArrayRef<int64_t> q = query->getShape(), k = key->getShape(),
                    v = value->getShape();
  if (k.drop_back(2) != q.drop_back(2) || v.drop_back(2) != q.drop_back(2))
    return opError<OpTy>(loc, "batch and head dims differ: [", q.drop_back(2),
                         "], [", k.drop_back(2), "] and [", v.drop_back(2),
                         "]");
  if (k.back() != q.back())
    return opError<OpTy>(loc, "key width ", k.back(),
                         " differs from the query's ", q.back());
  if (v[rank - 2] != k[rank - 2])
    return opError<OpTy>(loc, "value length ", v[rank - 2],
                         " differs from the key's ", k[rank - 2]);
  double p = adaptor.getDropoutP().convertToDouble();
  if (!(p >= 0 && p <= 1))
    return opError<OpTy>(loc, "dropout_p must be in [0, 1], got ", p);
  SmallVector<int64_t> outShape(q.drop_back());
  outShape.push_back(v.back());
  return std::make_pair(
      RankedTensorType::get(outShape, element),
      RankedTensorType::get(q.drop_back(), Float32Type::get(element.getContext())));
}

/// The Philox state types of the attention ops (nvFuser's uint64[2] seed
/// and uint64 offset, signless here).
std::pair<RankedTensorType, RankedTensorType> getPhiloxTypes(MLIRContext *context) {
  auto i64 = IntegerType::get(context, 64);
  return {RankedTensorType::get({2}, i64), RankedTensorType::get({}, i64)};
}
} // namespace

namespace {
/// The forward's bias, mask and Philox operands: a bias of the element type
/// and a bool mask, each of the query's rank with every dim the score's
/// ([N..., H, L, S]) or 1; a seed and offset exactly where dropout_p > 0,
/// and then no bias or mask (nvFuser's math attention has no dropout
/// state).
LogicalResult checkAttentionExtras(std::optional<Location> loc,
                                   SdpfaFwdOp::Adaptor adaptor) {
  auto query = cast<RankedTensorType>(adaptor.getQuery().getType());
  SmallVector<int64_t> scores(query.getShape().drop_back());
  scores.push_back(
      cast<RankedTensorType>(adaptor.getKey().getType()).getShape().end()[-2]);
  auto checkShape = [&](StringRef name, Value operand) -> LogicalResult {
    if (!operand)
      return success();
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type)
      return opError<SdpfaFwdOp>(loc, name, " must be a tensor, got ",
                                 operand.getType());
    if (type.getRank() != query.getRank())
      return opError<SdpfaFwdOp>(loc, name, " must have the query's rank ",
                                 query.getRank(), ", got ", type);
    for (auto [dim, extent] : llvm::enumerate(type.getShape()))
      if (extent != 1 && extent != scores[dim])
        return opError<SdpfaFwdOp>(
            loc, name, " dim ", dim, " is ", extent,
            ": it must be 1 or the scores' extent ", scores[dim], " (scores [",
            ArrayRef<int64_t>(scores), "])");
    return success();
  };
  Value bias = adaptor.getBias();
  if (bias && getElementTypeOrSelf(bias) != query.getElementType())
    return opError<SdpfaFwdOp>(loc, "bias element type ",
                               getElementTypeOrSelf(bias),
                               " differs from the query's ",
                               query.getElementType());
  if (failed(checkShape("bias", bias)) ||
      failed(checkShape("mask", adaptor.getMask())))
    return failure();
  bool dropout = !adaptor.getDropoutP().isZero();
  if (bool(adaptor.getSeed()) != bool(adaptor.getOffset()))
    return opError<SdpfaFwdOp>(loc, "takes a Philox seed and offset together");
  if (dropout != bool(adaptor.getSeed()))
    return opError<SdpfaFwdOp>(
        loc, dropout ? "dropout_p > 0 needs a Philox seed and offset"
                     : "a Philox seed and offset need dropout_p > 0");
  if (dropout && (bias || adaptor.getMask()))
    return opError<SdpfaFwdOp>(loc, "takes a bias or mask only without "
                                    "dropout (nvFuser's math attention "
                                    "reports no Philox state)");
  return success();
}

/// The result types of either attention op: the forward's four; the
/// backward's three after checking the forward's results it takes.
template <typename OpTy>
LogicalResult inferAttentionResults(MLIRContext *context,
                                    std::optional<Location> loc,
                                    typename OpTy::Adaptor adaptor,
                                    SmallVectorImpl<Type> &results) {
  auto types = inferAttention<OpTy>(loc, adaptor);
  if (failed(types))
    return failure();
  auto [seed, offset] = getPhiloxTypes(context);
  if constexpr (std::is_same_v<OpTy, SdpfaFwdOp>) {
    if (failed(checkAttentionExtras(loc, adaptor)))
      return failure();
    results.append({types->first, types->second, seed, offset});
  } else {
    auto expect = [&](StringRef name, Value value, Type type) -> LogicalResult {
      if (value.getType() == type)
        return success();
      return opError<OpTy>(loc, name, " must be ", type, ", got ",
                           value.getType());
    };
    if (failed(expect("grad_output", adaptor.getGradOutput(), types->first)) ||
        failed(expect("output", adaptor.getOutput(), types->first)) ||
        failed(expect("logsumexp", adaptor.getLogsumexp(), types->second)) ||
        failed(expect("philox_seed", adaptor.getPhiloxSeed(), seed)) ||
        failed(expect("philox_offset", adaptor.getPhiloxOffset(), offset)))
      return failure();
    results.append({adaptor.getQuery().getType(), adaptor.getKey().getType(),
                    adaptor.getValue().getType()});
  }
  return success();
}
} // namespace

LogicalResult SdpfaFwdOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  return inferAttentionResults<SdpfaFwdOp>(context, loc, adaptor, results);
}

LogicalResult SdpfaBwdOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  return inferAttentionResults<SdpfaBwdOp>(context, loc, adaptor, results);
}

int64_t SdpfaFwdOp::getFlopCount() {
  // QK^T and PV, masked products included (the gemms compute them).
  Attention a = getAttention(*this);
  return 2 * a.batch * a.l * a.s * (a.e + a.ev);
}

int64_t SdpfaBwdOp::getFlopCount() {
  // QK^T again, dP = dO V^T, dV = P^T dO, dQ = dS K and dK = dS^T Q.
  Attention a = getAttention(*this);
  return 2 * a.batch * a.l * a.s * (3 * a.e + 2 * a.ev);
}

int64_t SdpfaFwdOp::getReductionSize() {
  Attention a = getAttention(*this);
  return a.e + a.s;
}

int64_t SdpfaBwdOp::getReductionSize() {
  Attention a = getAttention(*this);
  return a.e + a.ev + a.l + a.s;
}

int64_t MatmulOp::getReductionSize() { return getContraction(*this).k; }

int64_t LinearOp::getReductionSize() { return getContraction(*this).k; }

int64_t MatmulOp::getFlopCount() {
  Contraction contraction = getContraction(*this);
  return 2 * contraction.getBatchCount() * contraction.m * contraction.n *
         contraction.k;
}

int64_t LinearOp::getFlopCount() {
  Contraction contraction = getContraction(*this);
  int64_t outputs = contraction.m * contraction.n;
  return outputs * (2 * contraction.k + (contraction.hasBias ? 1 : 0));
}

//===----------------------------------------------------------------------===//
// Segments
//===----------------------------------------------------------------------===//

LogicalResult SegmentOp::verify() {
  Block &body = getBody().front();
  if (body.getArgumentTypes() != getInputs().getTypes())
    return emitOpError("body arguments ")
           << body.getArgumentTypes() << " do not match the inputs "
           << getInputs().getTypes();
  // The last op need not be a terminator yet: block terminators are checked
  // after this verifier, and Block::getTerminator() asserts that it is one.
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return emitOpError("body must end with fuser.yield");
  if (yield.getValues().getTypes() != getResultTypes())
    return yield.emitOpError("yields ")
           << yield.getValues().getTypes() << " but the segment returns "
           << getResultTypes();
  if (getSchedule() && getKind() == SegmentKind::Alias)
    return emitOpError("an alias segment launches nothing and takes no "
                       "schedule");
  if (getKind() == SegmentKind::Library) {
    if (getSchedule())
      return emitOpError("a library segment is one library call and takes "
                         "no schedule");
    // Some or all of the results of one library op (the call writes the
    // others to buffers of its own), its tensor operands meta ops of the
    // inputs, its scalar ones scalar computations (the lowering's).
    Operation *library = yield.getValues().empty()
                             ? nullptr
                             : yield.getValues()[0].getDefiningOp();
    bool oneOp = llvm::all_of(yield.getValues(), [&](Value value) {
      return value.getDefiningOp() == library;
    });
    bool onlyViews = llvm::all_of(body.without_terminator(), [&](Operation &op) {
      return &op == library || isScalarComputation(&op) ||
             (isa<MetaOpInterface>(op) && !isa<SegmentSetOp>(op));
    });
    if (!isa_and_present<LibraryOpInterface>(library) || !oneOp ||
        !onlyViews)
      return emitOpError("a library segment yields results of one library "
                         "op, computed from meta ops of its inputs and "
                         "scalar computations");
  }
  if (getKind() == SegmentKind::Normalization &&
      body.getOps<ReductionOp>().empty())
    return emitOpError("a normalization segment holds at least one reduction");
  if (ScheduleAttr schedule = getScheduleAttr();
      schedule && (schedule.getKind() == ScheduleKind::Normalization) !=
                      (getKind() == SegmentKind::Normalization))
    return emitOpError("a normalization segment, and only one, takes a "
                       "normalization schedule");
  return success();
}

#define GET_OP_CLASSES
#include "fuser/Dialect/Fuser/IR/FuserOps.cpp.inc"
