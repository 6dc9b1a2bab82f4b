//===- FuserToSCF.cpp - segmented fusions to host functions on memrefs ----===//
//
// convert-fuser-to-scf (docs/Lowering.md): every segmented fusion becomes a
// host function in destination-passing style whose kernels are scf.parallel
// nests (emitKernel: one kernel kind per file in kernels/); alias segments
// become copies of strided views, library segments calls of a library
// (emitLibraryCall, LibraryCall.cpp).
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Conversion/Passes.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/Fusion.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::fuser {
#define GEN_PASS_DEF_CONVERTFUSERTOSCF
#include "fuser/Conversion/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

/// The attribute that records how many trailing arguments of a lowered
/// fusion are its outputs.
static constexpr StringLiteral kOutputsAttrName = "fuser.outputs";

/// The memref that holds a value of `type`: a rank-0 one for a scalar.
static MemRefType getMemRefType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return MemRefType::get(tensor.getShape(), tensor.getElementType());
  return MemRefType::get({}, type);
}

/// Checks that `func` is segmented: only segments, pure scalar computations
/// and the return, over static tensors.
static LogicalResult checkSegmented(func::FuncOp func) {
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if ((tensor && !tensor.hasStaticShape()) ||
        (!tensor && isa<ShapedType>(type)))
      return func.emitError("argument ")
             << i << " has type " << type
             << "; the kernel lowering needs statically shaped tensors";
  }
  for (Operation &op : func.getBody().front()) {
    if (isa<SegmentOp, func::ReturnOp>(op))
      continue;
    bool scalar = op.getNumRegions() == 0 && isMemoryEffectFree(&op) &&
                  llvm::none_of(op.getResultTypes(), [](Type type) {
                    return isa<ShapedType>(type);
                  });
    if (!scalar)
      return op.emitError("'")
             << op.getName()
             << "' is outside every fuser.segment: run fuser-segment before "
                "the kernel lowering";
  }
  return success();
}

/// The layout of `type` (static strides and offset), or nullopt.
static std::optional<StridedView> getLayout(MemRefType type) {
  StridedView layout;
  if (failed(type.getStridesAndOffset(layout.strides, layout.offset)) ||
      ShapedType::isDynamic(layout.offset) ||
      llvm::any_of(layout.strides, ShapedType::isDynamic))
    return std::nullopt;
  layout.sizes.assign(type.getShape().begin(), type.getShape().end());
  return layout;
}

/// The strided memref through which alias result `yielded` of `segment`
/// views its input. An input that an earlier alias made a view is viewed
/// through both views composed; where they compose to no strided view, the
/// input is copied into a contiguous buffer first (appended to
/// `contiguousCopies`, to be freed at the end).
FailureOr<Value>
mlir::fuser::createAliasView(OpBuilder &b, SegmentOp segment, Value yielded,
                             ValueRange inputs,
                             SmallVectorImpl<Value> &contiguousCopies) {
  std::optional<AliasView> alias = getAliasView(yielded);
  if (!alias)
    return segment.emitError("alias result is not a strided view of an input");
  Value source = inputs[alias->inputIndex];
  auto sourceType = cast<MemRefType>(source.getType());
  if (!sourceType.getLayout().isIdentity()) {
    std::optional<StridedView> layout = getLayout(sourceType);
    std::optional<AliasView> composed =
        layout ? getAliasView(yielded, layout) : std::nullopt;
    if (composed) {
      alias = std::move(composed);
    } else {
      auto contiguousType = MemRefType::get(sourceType.getShape(),
                                            sourceType.getElementType());
      Value contiguous = memref::AllocOp::create(
          b, segment.getLoc(), contiguousType,
          /*alignment=*/b.getI64IntegerAttr(16));
      memref::CopyOp::create(b, segment.getLoc(), source, contiguous);
      contiguousCopies.push_back(contiguous);
      source = contiguous;
    }
  }
  const StridedView &view = alias->view;
  auto type = MemRefType::get(
      view.sizes, sourceType.getElementType(),
      StridedLayoutAttr::get(b.getContext(), view.offset, view.strides));
  return memref::ReinterpretCastOp::create(b, segment.getLoc(), type, source,
                                           view.offset, view.sizes,
                                           view.strides)
      .getResult();
}

static LogicalResult convertFusion(func::FuncOp func, bool checkIndices) {
  if (failed(checkSegmented(func)))
    return failure();
  OpBuilder b(func);
  Location loc = func.getLoc();
  FunctionType type = func.getFunctionType();
  SmallVector<Type> arguments;
  for (Type input : type.getInputs())
    arguments.push_back(isa<RankedTensorType>(input) ? getMemRefType(input)
                                                     : input);
  for (Type result : type.getResults())
    arguments.push_back(getMemRefType(result));
  auto lowered = func::FuncOp::create(b, loc, func.getName(),
                                      b.getFunctionType(arguments, {}));
  lowered.setVisibility(func.getVisibility());
  for (unsigned i = 0, e = type.getNumInputs(); i < e; ++i)
    lowered.setArgAttrs(i, func.getArgAttrDict(i));
  lowered->setAttr(kOutputsAttrName, b.getI64IntegerAttr(type.getNumResults()));
  Block *entry = lowered.addEntryBlock();
  b.setInsertionPointToStart(entry);
  ValueRange outputArgs = entry->getArguments().drop_front(type.getNumInputs());

  Block &body = func.getBody().front();
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  IRMapping mapping;
  mapping.map(body.getArguments(),
              entry->getArguments().take_front(type.getNumInputs()));
  // Intermediates are freed after their last reader.
  DenseMap<Operation *, SmallVector<Value>> freeAfter;
  for (Operation &op : body) {
    auto segment = dyn_cast<SegmentOp>(op);
    if (!segment) {
      if (&op == returnOp)
        continue;
      SmallVector<Value> operands;
      for (Value operand : op.getOperands())
        operands.push_back(mapping.lookup(operand));
      FailureOr<Value> scalar = emitScalarOp(b, &op, operands);
      if (failed(scalar))
        return failure();
      mapping.map(op.getResult(0), *scalar);
      continue;
    }
    SmallVector<Value> inputs;
    for (Value input : segment.getInputs())
      inputs.push_back(mapping.lookup(input));
    auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
    if (segment.getKind() == SegmentKind::Alias) {
      for (auto [result, yielded] :
           llvm::zip_equal(segment.getResults(), yield.getValues())) {
        FailureOr<Value> view = createAliasView(b, segment, yielded, inputs,
                                                freeAfter[returnOp]);
        if (failed(view))
          return failure();
        mapping.map(result, *view);
      }
      continue;
    }
    SmallVector<Value> outputs;
    for (Value result : segment.getResults()) {
      // A returned result is written straight into its output.
      Value output;
      for (auto [i, returned] : llvm::enumerate(returnOp.getOperands()))
        if (returned == result) {
          output = outputArgs[i];
          break;
        }
      if (!output) {
        output = memref::AllocOp::create(b, segment.getLoc(),
                                         getMemRefType(result.getType()),
                                         /*alignment=*/b.getI64IntegerAttr(16));
        // Views of it (alias segments) live until the results are copied
        // out, at the end.
        Operation *lastReader = segment;
        for (Operation *user : result.getUsers()) {
          auto reader = dyn_cast<SegmentOp>(user);
          if (!reader || reader.getKind() == SegmentKind::Alias)
            lastReader = returnOp;
          else if (lastReader != returnOp && lastReader->isBeforeInBlock(user))
            lastReader = user;
        }
        freeAfter[lastReader].push_back(output);
      }
      outputs.push_back(output);
      mapping.map(result, output);
    }
    // A library segment is one call into a library (a BLAS gemm).
    if (failed(segment.getKind() == SegmentKind::Library
                   ? emitLibraryCall(b, segment, inputs, outputs,
                                     freeAfter[returnOp])
                   : emitKernel(b, segment, inputs, outputs, checkIndices)))
      return failure();
    for (Value freed : freeAfter.lookup(segment))
      memref::DeallocOp::create(b, segment.getLoc(), freed);
  }
  // Results that are not written by their kernel (inputs, views, a result
  // returned twice) are copied into their outputs; one without elements
  // needs no copy.
  for (auto [i, returned] : llvm::enumerate(returnOp.getOperands())) {
    Value value = mapping.lookup(returned);
    if (!isa<MemRefType>(value.getType()))
      memref::StoreOp::create(b, returnOp.getLoc(), value, outputArgs[i]);
    else if (value != outputArgs[i] &&
             getSaturatedNumElements(value.getType()) != 0)
      memref::CopyOp::create(b, returnOp.getLoc(), value, outputArgs[i]);
  }
  for (Value freed : freeAfter.lookup(returnOp))
    memref::DeallocOp::create(b, returnOp.getLoc(), freed);
  func::ReturnOp::create(b, returnOp.getLoc());
  func.erase();
  return success();
}

namespace {
struct ConvertFuserToSCFPass
    : public fuser::impl::ConvertFuserToSCFBase<ConvertFuserToSCFPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<func::FuncOp> fusions;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (isFusion(func))
        fusions.push_back(func);
    for (func::FuncOp func : fusions)
      if (failed(convertFusion(func, checkIndices)))
        return signalPassFailure();
    if (failed(expandComplexArithmetic(getOperation())))
      return signalPassFailure();
  }
};
} // namespace
