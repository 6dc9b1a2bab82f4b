//===- SegmentTraffic.cpp - what a segmentation launches and moves --------===//

#include "fuser/Analysis/SegmentTraffic.h"

#include "fuser/Analysis/IndexingMaps.h"

#include <limits>

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::fuser;

ByteCount fuser::getTransferBytes(Type type) {
  if (!isa<TensorType>(type))
    return {};
  FailureOr<ByteCount> bytes = getValueByteCount(type);
  assert(succeeded(bytes) && "segments pass static fuser tensors");
  return *bytes;
}

std::optional<AliasView>
fuser::getAliasView(Value yielded,
                    const std::optional<StridedView> &inputLayout) {
  SmallVector<Operation *> chain;
  Value value = yielded;
  while (Operation *def = value.getDefiningOp()) {
    auto meta = dyn_cast<MetaOpInterface>(def);
    if (!meta)
      return std::nullopt;
    chain.push_back(def);
    value = meta.getSource();
  }
  auto argument = cast<BlockArgument>(value);
  auto tensorType = dyn_cast<TensorType>(argument.getType());
  if (!tensorType)
    return std::nullopt;
  StridedView view = inputLayout
                         ? *inputLayout
                         : StridedView::getContiguous(tensorType.getShape());
  for (Operation *op : llvm::reverse(chain)) {
    std::optional<StridedView> next = applyMetaOp(op, view);
    if (!next)
      return std::nullopt;
    view = std::move(*next);
  }
  return AliasView{argument.getArgNumber(), std::move(view)};
}

/// The bytes a kernel reads of the input bound to `argument`: where it
/// reads the input only through `slice` ops (also after meta ops that read
/// every element once, getResultIndexMap, and elementwise ops that read it
/// through the identity map, which the kernel computes at the sliced
/// elements only), what those slices cover (the lowering loads only the
/// sliced elements), else the whole input.
static ByteCount getReadBytes(BlockArgument argument) {
  auto argumentType = dyn_cast<TensorType>(argument.getType());
  ByteCount whole = getTransferBytes(argument.getType());
  if (!argumentType || argument.use_empty())
    return whole;
  ByteCount sliced;
  DenseSet<Operation *> visited;
  SmallVector<Value> worklist = {argument};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (!visited.insert(user).second)
        continue;
      if (user->getNumResults() != 1)
        return whole;
      Type resultType = user->getResult(0).getType();
      if (isa<SliceOp>(user)) {
        sliced += getTransferBytes(
            cast<TensorType>(resultType).clone(argumentType.getElementType()));
        continue;
      }
      // Every element of `value` is read once into its own result element:
      // a meta op with an inverse index map, or an elementwise op that reads
      // it through the identity (no broadcast).
      bool keepsElements =
          isa<MetaOpInterface>(user)
              ? succeeded(getResultIndexMap(user))
              : isa<ElementwiseOpInterface>(user) &&
                    getBroadcastIndexMap(
                        user->getContext(),
                        cast<ShapedType>(value.getType()).getShape(),
                        cast<ShapedType>(resultType).getShape())
                        .isIdentity();
      if (!keepsElements)
        return whole;
      worklist.push_back(user->getResult(0));
    }
  }
  if (sliced.overflowed)
    return whole;
  return whole.overflowed || sliced.bytes < whole.bytes ? sliced : whole;
}

/// The traffic of `segment` on its own.
static SegmentTraffic analyzeSegment(SegmentOp segment) {
  SegmentTraffic traffic;
  traffic.op = segment;
  traffic.kind = segment.getKind();
  traffic.numKernelLaunches = traffic.isAlias() ? 0 : 1;
  DenseSet<Value> seen;
  Block &body = segment.getBody().front();
  for (auto [input, argument] :
       llvm::zip_equal(segment.getInputs(), body.getArguments())) {
    ByteCount bytes = traffic.isAlias() ? getTransferBytes(input.getType())
                                        : getReadBytes(argument);
    traffic.inputBytes.push_back(bytes);
    if (!traffic.isAlias() && seen.insert(input).second)
      traffic.bytesRead += bytes;
  }
  for (Type type : segment.getResultTypes()) {
    ByteCount bytes = getTransferBytes(type);
    traffic.resultBytes.push_back(bytes);
    if (!traffic.isAlias())
      traffic.bytesWritten += bytes;
  }
  if (traffic.isAlias()) {
    auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
    for (Value yielded : yield.getValues())
      traffic.aliasViews.push_back(getAliasView(yielded));
  }
  return traffic;
}

FusionTraffic::FusionTraffic(Operation *funcOp)
    : func(cast<func::FuncOp>(funcOp)) {
  if (func.isExternal())
    return;
  for (Operation &op : func.getBody().getOps()) {
    if (auto segment = dyn_cast<SegmentOp>(op)) {
      segmentIndex[segment] = segments.size();
      segments.push_back(analyzeSegment(segment));
      continue;
    }
    if (isa<func::ReturnOp>(op))
      continue;
    // Between segments a fusion only passes values and computes scalars.
    if (llvm::any_of(op.getResultTypes(),
                     [](Type type) { return isa<TensorType>(type); })) {
      unsegmentedOp = &op;
      segments.clear();
      segmentIndex.clear();
      outsideValues.clear();
      outsideIndex.clear();
      return;
    }
    for (Value result : op.getResults()) {
      outsideIndex[result] = outsideValues.size();
      outsideValues.push_back(result);
    }
  }
  for (const SegmentTraffic &segment : segments) {
    numKernels += segment.numKernelLaunches;
    bytesRead += segment.bytesRead;
    bytesWritten += segment.bytesWritten;
  }
}

LogicalResult FusionTraffic::emitUnsegmentedError() const {
  if (!unsegmentedOp)
    return success();
  return unsegmentedOp->emitOpError("computes outside a fuser.segment: @")
         << getFunc().getSymName() << " is not segmented (run fuser-segment)";
}

std::optional<unsigned>
FusionTraffic::getSegmentIndex(Operation *segment) const {
  auto it = segmentIndex.find(segment);
  if (it == segmentIndex.end())
    return std::nullopt;
  return it->second;
}

FusionValueRef FusionTraffic::getRef(Value value) const {
  if (auto argument = dyn_cast<BlockArgument>(value))
    return {FusionValueRef::Kind::Argument, argument.getArgNumber()};
  auto result = cast<OpResult>(value);
  if (std::optional<unsigned> index = getSegmentIndex(result.getOwner()))
    return {FusionValueRef::Kind::SegmentResult, *index,
            result.getResultNumber()};
  auto it = outsideIndex.find(value);
  assert(it != outsideIndex.end() && "not a value of the fusion's body");
  return {FusionValueRef::Kind::Outside, it->second};
}

std::string FusionTraffic::getName(Value value) const {
  FusionValueRef ref = getRef(value);
  switch (ref.kind) {
  case FusionValueRef::Kind::Argument:
    return "%arg" + std::to_string(ref.number);
  case FusionValueRef::Kind::SegmentResult:
    return "#" + std::to_string(ref.number) + "." +
           std::to_string(ref.resultNumber);
  case FusionValueRef::Kind::Outside:
    return "%s" + std::to_string(ref.number);
  }
  llvm_unreachable("unknown value kind");
}

SmallVector<FusionValueReader> FusionTraffic::getReaders(Value value) const {
  SmallVector<FusionValueReader> readers;
  for (auto [index, segment] : llvm::enumerate(segments))
    if (llvm::is_contained(segment.op->getOperands(), value))
      readers.push_back(
          {FusionValueReader::Kind::Segment, static_cast<unsigned>(index)});
  Operation *returnOp = getFunc().getBody().front().getTerminator();
  for (OpOperand &operand : returnOp->getOpOperands())
    if (operand.get() == value)
      readers.push_back(
          {FusionValueReader::Kind::Return, operand.getOperandNumber()});
  return readers;
}

SegmentationCost fuser::getSegmentationCost(const FusionTraffic &traffic) {
  return {traffic.getNumKernels(),
          traffic.getBytesRead() + traffic.getBytesWritten()};
}

double fuser::estimateSeconds(unsigned kernels, ByteCount bytes,
                              const TargetInfo &target) {
  if (bytes.overflowed)
    return std::numeric_limits<double>::infinity();
  return kernels * target.launchOverheadSeconds +
         static_cast<double>(bytes.bytes) / target.bandwidthBytesPerSecond;
}

double fuser::estimateSeconds(const SegmentationCost &cost,
                              const TargetInfo &target) {
  return estimateSeconds(cost.kernels, cost.bytes, target);
}
