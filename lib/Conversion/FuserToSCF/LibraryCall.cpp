//===- LibraryCall.cpp - a library segment as one host call ---------------===//
//
// A `library` segment (one library op, its operands views of the segment's
// inputs) becomes one call of a library function with a constant
// descriptor: for a fuser.matmul or fuser.linear, library::kMatmulFunction
// and its batched gemm (the extents, and the offset and strides in elements
// of each operand's strided view and of the result); for fuser.grouped_mm,
// library::kGroupedMmFunction and the whole gemm its groups split; for
// fuser.sdpfa_fwd and fuser.sdpfa_bwd, the attention functions and the offset
// and strides of every operand (a scalar one: its rank-0 memref) and result
// (fuser/Conversion/LibraryCall.h). A
// transposed operand is a stride, not a copy; the CPU backend's runtime
// picks the BLAS layout or packs.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Conversion/LibraryCall.h"
#include "fuser/Dialect/Fuser/IR/Attention.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/GroupedMm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::library;

namespace {
/// A buffer the call reads or writes: its memref and its static layout.
struct StridedBuffer {
  Value memref;
  SmallVector<int64_t> sizes, strides;
  int64_t offset = 0;
};
} // namespace

static FailureOr<StridedBuffer> getStridedBuffer(Operation *op, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  StridedBuffer buffer{memref, llvm::to_vector(type.getShape()), {}, 0};
  if (failed(type.getStridesAndOffset(buffer.strides, buffer.offset)) ||
      ShapedType::isDynamic(buffer.offset) ||
      llvm::any_of(buffer.strides, ShapedType::isDynamic))
    return op->emitError("the library call needs static strides, not ")
           << type;
  return buffer;
}

/// The strided view through which the call reads `operand`, a value of the
/// segment body computed from an input by meta ops.
static FailureOr<StridedBuffer>
getOperandBuffer(OpBuilder &b, SegmentOp segment, Operation *op,
                 Value operand, ValueRange inputs,
                 SmallVectorImpl<Value> &contiguousCopies) {
  if (!getAliasView(operand))
    return op->emitError("operand is not a strided view of a segment input: "
                         "the library call cannot read it");
  FailureOr<Value> view =
      createAliasView(b, segment, operand, inputs, contiguousCopies);
  if (failed(view))
    return failure();
  return getStridedBuffer(op, *view);
}

static std::optional<MatmulElement> getMatmulElement(Type type) {
  if (type.isF32())
    return MatmulElement::F32;
  if (type.isF64())
    return MatmulElement::F64;
  if (type.isF16())
    return MatmulElement::F16;
  if (type.isBF16())
    return MatmulElement::BF16;
  return std::nullopt;
}

/// The descriptor of `op` over its buffers (LibraryCall.h). Dims of one
/// element have stride 0, so that the runtime need not tell them apart.
static SmallVector<int64_t> describe(Operation *op, const StridedBuffer &lhs,
                                     const StridedBuffer &rhs,
                                     const StridedBuffer *bias,
                                     const StridedBuffer &out) {
  SmallVector<int64_t> d(FirstBatchDim, 0);
  d[Element] = int64_t(*getMatmulElement(
      cast<MemRefType>(out.memref.getType()).getElementType()));
  int64_t lhsRank = lhs.sizes.size(), rhsRank = rhs.sizes.size();
  int64_t outRank = out.sizes.size();
  d[LhsOffset] = lhs.offset;
  d[RhsOffset] = rhs.offset;
  d[OutOffset] = out.offset;
  d[K] = lhs.sizes.back();
  d[LhsStrideK] = lhs.strides.back();
  bool lhsVector = lhsRank == 1;
  d[M] = lhsVector ? 1 : lhs.sizes[lhsRank - 2];
  d[LhsStrideM] = lhsVector ? 0 : lhs.strides[lhsRank - 2];
  int64_t batchRank = std::max<int64_t>(lhsRank - 2, 0);
  int64_t lhsBatchRank = batchRank, rhsBatchRank = 0;
  bool rhsVector = false;
  if (isa<LinearOp>(op)) {
    // rhs(k, n) = weight[n, k].
    d[N] = rhs.sizes[0];
    d[RhsStrideN] = rhs.strides[0];
    d[RhsStrideK] = rhs.strides[1];
  } else {
    rhsVector = rhsRank == 1;
    d[N] = rhsVector ? 1 : rhs.sizes[rhsRank - 1];
    d[RhsStrideN] = rhsVector ? 0 : rhs.strides[rhsRank - 1];
    d[RhsStrideK] = rhs.strides[rhsVector ? 0 : rhsRank - 2];
    rhsBatchRank = std::max<int64_t>(rhsRank - 2, 0);
    batchRank = outRank - (lhsVector ? 0 : 1) - (rhsVector ? 0 : 1);
  }
  d[OutStrideM] = lhsVector ? 0 : out.strides[batchRank];
  d[OutStrideN] = rhsVector ? 0 : out.strides[outRank - 1];
  if (bias) {
    d[HasBias] = 1;
    d[BiasOffset] = bias->offset;
    d[BiasStrideN] = bias->strides[0];
  }
  d[BatchRank] = batchRank;
  // Batch dims align from the right; an operand without the dim, or with
  // extent 1 against a larger one, broadcasts it.
  auto batchStride = [&](const StridedBuffer &buffer, int64_t operandBatchRank,
                         int64_t dim) -> int64_t {
    int64_t own = dim - (batchRank - operandBatchRank);
    if (own < 0 || buffer.sizes[own] != out.sizes[dim])
      return 0;
    return buffer.strides[own];
  };
  for (int64_t dim = 0; dim < batchRank; ++dim) {
    d.push_back(out.sizes[dim]);
    d.push_back(batchStride(lhs, lhsBatchRank, dim));
    d.push_back(batchStride(rhs, rhsBatchRank, dim));
    d.push_back(out.strides[dim]);
  }
  if (d[M] == 1)
    d[LhsStrideM] = d[OutStrideM] = 0;
  if (d[N] == 1)
    d[RhsStrideN] = d[OutStrideN] = d[BiasStrideN] = 0;
  return d;
}

/// The descriptor of grouped_mm `op` over its buffers (LibraryCall.h,
/// GroupedMmSlot): the operand with a group dim has its matrix dims after
/// it.
static SmallVector<int64_t> describeGroupedMm(Operation *op, int64_t check,
                                              const StridedBuffer &mat1,
                                              const StridedBuffer &mat2,
                                              const StridedBuffer &offsets,
                                              const StridedBuffer &out) {
  GroupedMm grouped = getGroupedMm(op);
  SmallVector<int64_t> d(FirstGemmSlot, 0);
  d[GroupedDimension] = int64_t(grouped.grouped);
  d[Groups] = grouped.groups;
  d[GroupedCheck] = check;
  d[OffsetsOffset] = offsets.offset;
  d[OffsetsStride] = offsets.strides[0];
  // The strides of the two matrix dims: the last two of each buffer.
  auto matrix = [](const StridedBuffer &buffer) {
    ArrayRef<int64_t> strides = buffer.strides;
    return strides.take_back(2);
  };
  if (grouped.grouped == GroupedDim::Rows)
    d[Mat2GroupStride] = mat2.strides[0];
  else if (grouped.grouped == GroupedDim::Columns)
    d[Mat1GroupStride] = mat1.strides[0];
  else
    d[OutGroupStride] = out.strides[0];
  SmallVector<int64_t> gemm(FirstBatchDim, 0);
  gemm[Element] = int64_t(*getMatmulElement(
      cast<MemRefType>(out.memref.getType()).getElementType()));
  gemm[M] = grouped.m;
  gemm[N] = grouped.n;
  gemm[K] = grouped.k;
  gemm[LhsOffset] = mat1.offset;
  gemm[LhsStrideM] = matrix(mat1)[0];
  gemm[LhsStrideK] = matrix(mat1)[1];
  gemm[RhsOffset] = mat2.offset;
  gemm[RhsStrideK] = matrix(mat2)[0];
  gemm[RhsStrideN] = matrix(mat2)[1];
  gemm[OutOffset] = out.offset;
  gemm[OutStrideM] = matrix(out)[0];
  gemm[OutStrideN] = matrix(out)[1];
  llvm::append_range(d, gemm);
  return d;
}

/// The module's declaration of library function `name` of `arity` index
/// arguments.
static func::FuncOp getLibraryFunction(OpBuilder &b, ModuleOp module,
                                       StringRef name, unsigned arity) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto function = func::FuncOp::create(
      b, module.getLoc(), name,
      b.getFunctionType(SmallVector<Type>(arity, b.getIndexType()), {}));
  function.setPrivate();
  return function;
}

/// The address of `descriptor` as a constant global of the module, named
/// after `function` (library::isLibraryFunction knows the names).
static Value createDescriptor(OpBuilder &b, Location loc, ModuleOp module,
                              StringRef function,
                              ArrayRef<int64_t> descriptor) {
  auto descriptorType =
      MemRefType::get({int64_t(descriptor.size())}, b.getI64Type());
  memref::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    // Named by their number among the module's globals, so unique.
    auto globals = module.getOps<memref::GlobalOp>();
    std::string name = function.str() + "_descriptor_" +
                       std::to_string(std::distance(globals.begin(),
                                                    globals.end()));
    global = memref::GlobalOp::create(
        b, loc, name, b.getStringAttr("private"), descriptorType,
        DenseElementsAttr::get(
            RankedTensorType::get(descriptorType.getShape(), b.getI64Type()),
            descriptor),
        /*constant=*/true, /*alignment=*/IntegerAttr());
  }
  Value value = memref::GetGlobalOp::create(b, loc, descriptorType,
                                            global.getSymName());
  return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, value);
}

/// The descriptor of an attention call over `buffers`, the op's operands
/// then its results (LibraryCall.h, AttentionSlot).
static SmallVector<int64_t>
describeAttention(Operation *op, ArrayRef<StridedBuffer> buffers) {
  Attention attention = getAttention(op);
  auto query = cast<RankedTensorType>(
      op->getOperand(isa<SdpfaFwdOp>(op) ? 0 : 1).getType());
  int64_t rank = query.getRank();
  SmallVector<int64_t> d(AttentionFirstBatchDim, 0);
  d[AttentionElement] = int64_t(*getMatmulElement(query.getElementType()));
  d[AttentionRank] = rank;
  d[AttentionL] = attention.l;
  d[AttentionS] = attention.s;
  d[AttentionE] = attention.e;
  d[AttentionEv] = attention.ev;
  d[AttentionCausal] = attention.causal;
  d[AttentionScaleBits] = llvm::bit_cast<uint32_t>(attention.scale);
  d[AttentionHasDropout] = attention.hasDropout();
  d[AttentionDropoutThresholdBits] =
      llvm::bit_cast<uint32_t>(attention.dropoutThreshold);
  d[AttentionKeepScaleBits] = llvm::bit_cast<uint32_t>(attention.keepScale);
  llvm::append_range(d, query.getShape().drop_back(2));
  for (const StridedBuffer &buffer : buffers) {
    d.push_back(buffer.offset);
    SmallVector<int64_t> strides(buffer.strides);
    // A broadcast dim (a bias or mask's 1) is read at stride 0.
    for (auto [stride, size] : llvm::zip(strides, buffer.sizes))
      if (size == 1)
        stride = 0;
    strides.resize(rank, 0);
    llvm::append_range(d, strides);
  }
  return d;
}

/// The value of a scalar operand of a library op: a segment input (a scalar
/// value), or a scalar computation the segment replicates, emitted here.
static FailureOr<Value> emitScalarOperand(OpBuilder &b, Value operand,
                                          ValueRange inputs) {
  if (auto argument = dyn_cast<BlockArgument>(operand))
    return inputs[argument.getArgNumber()];
  Operation *def = operand.getDefiningOp();
  SmallVector<Value> operands;
  for (Value source : def->getOperands()) {
    FailureOr<Value> value = emitScalarOperand(b, source, inputs);
    if (failed(value))
      return failure();
    operands.push_back(*value);
  }
  return emitScalarOp(b, def, operands);
}

/// The buffers of an attention call's operands in its argument order
/// (LibraryCall.h): the forward's query, key, value, bias, mask, seed and
/// offset (an absent one without a memref), the backward's operands.
static FailureOr<SmallVector<StridedBuffer>>
getAttentionOperandBuffers(OpBuilder &b, SegmentOp segment, Operation *op,
                           ValueRange inputs,
                           SmallVectorImpl<Value> &contiguousCopies) {
  SmallVector<Value> operands(op->getOperands());
  if (auto forward = dyn_cast<SdpfaFwdOp>(op))
    operands = {forward.getQuery(), forward.getKey(), forward.getValue(),
                forward.getBias(),  forward.getMask(), forward.getSeed(),
                forward.getOffset()};
  SmallVector<StridedBuffer> buffers;
  for (Value operand : operands) {
    FailureOr<StridedBuffer> buffer = StridedBuffer{};
    if (operand && isa<RankedTensorType>(operand.getType())) {
      buffer = getOperandBuffer(b, segment, op, operand, inputs,
                                contiguousCopies);
    } else if (operand) {
      // A scalar, stored for the call.
      FailureOr<Value> scalar = emitScalarOperand(b, operand, inputs);
      if (failed(scalar))
        return failure();
      Value memref = memref::AllocaOp::create(
          b, op->getLoc(), MemRefType::get({}, scalar->getType()));
      memref::StoreOp::create(b, op->getLoc(), *scalar, memref);
      buffer = getStridedBuffer(op, memref);
    }
    if (failed(buffer))
      return failure();
    buffers.push_back(std::move(*buffer));
  }
  return buffers;
}

LogicalResult mlir::fuser::emitLibraryCall(
    OpBuilder &b, SegmentOp segment, ValueRange inputs, ValueRange outputs,
    SmallVectorImpl<Value> &contiguousCopies) {
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  Operation *op = yield.getValues()[0].getDefiningOp();
  Location loc = op->getLoc();
  bool attention = isa<SdpfaFwdOp, SdpfaBwdOp>(op);
  if (!getMatmulElement(getElementTypeOrSelf(op->getResult(0).getType())))
    return op->emitError("the library call takes f16, bf16, f32 or f64");
  // A matmul, linear or grouped_mm without result elements (M or N is 0,
  // or a batch dim) computes nothing; its buffers need no strides (MLIR
  // gives an empty memref's no static ones).
  if (!attention &&
      cast<ShapedType>(op->getResult(0).getType()).getNumElements() == 0)
    return success();
  SmallVector<StridedBuffer> buffers;
  if (attention) {
    FailureOr<SmallVector<StridedBuffer>> operands =
        getAttentionOperandBuffers(b, segment, op, inputs, contiguousCopies);
    if (failed(operands))
      return failure();
    buffers = std::move(*operands);
  } else {
    for (Value operand : op->getOperands()) {
      FailureOr<StridedBuffer> buffer = getOperandBuffer(
          b, segment, op, operand, inputs, contiguousCopies);
      if (failed(buffer))
        return failure();
      buffers.push_back(std::move(*buffer));
    }
  }
  // Every result has a buffer: the segment's output where it yields the
  // result, else one of the call's own, freed after it.
  SmallVector<Value> scratch;
  for (OpResult result : op->getResults()) {
    Value memref;
    for (auto [yielded, output] : llvm::zip_equal(yield.getValues(), outputs))
      if (yielded == result)
        memref = output;
    if (!memref) {
      auto tensor = cast<RankedTensorType>(result.getType());
      memref = memref::AllocOp::create(
          b, loc, MemRefType::get(tensor.getShape(), tensor.getElementType()),
          /*alignment=*/b.getI64IntegerAttr(16));
      scratch.push_back(memref);
    }
    FailureOr<StridedBuffer> buffer = getStridedBuffer(op, memref);
    if (failed(buffer))
      return failure();
    buffers.push_back(std::move(*buffer));
  }

  auto module = segment->getParentOfType<ModuleOp>();
  bool grouped = isa<GroupedMmOp>(op);
  StringRef name = isa<SdpfaFwdOp>(op)   ? kAttentionForwardFunction
                   : isa<SdpfaBwdOp>(op) ? kAttentionBackwardFunction
                   : grouped             ? kGroupedMmFunction
                                         : kMatmulFunction;
  SmallVector<int64_t> descriptor =
      attention ? describeAttention(op, buffers)
      : grouped
          ? describeGroupedMm(op, getIndexCheck(module, loc), buffers[0],
                              buffers[1], buffers[2], buffers[3])
          : describe(op, buffers[0], buffers[1],
                     op->getNumOperands() > 2 ? &buffers[2] : nullptr,
                     buffers.back());
  auto address = [&](Value memref) -> Value {
    return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  };
  SmallVector<Value> arguments = {
      createDescriptor(b, loc, module, name, descriptor)};
  if (attention || grouped) {
    // grouped_mm: mat1, mat2, offsets, out; attention: 0 for an absent
    // operand.
    for (const StridedBuffer &buffer : buffers)
      arguments.push_back(buffer.memref
                              ? address(buffer.memref)
                              : arith::ConstantIndexOp::create(b, loc, 0));
  } else {
    // lhs, rhs, bias (0 without one), out.
    arguments.push_back(address(buffers[0].memref));
    arguments.push_back(address(buffers[1].memref));
    arguments.push_back(op->getNumOperands() > 2
                            ? address(buffers[2].memref)
                            : arith::ConstantIndexOp::create(b, loc, 0));
    arguments.push_back(address(buffers.back().memref));
  }
  func::CallOp::create(
      b, loc, getLibraryFunction(b, module, name, arguments.size()),
      arguments);
  for (Value buffer : scratch)
    memref::DeallocOp::create(b, loc, buffer);
  return success();
}
