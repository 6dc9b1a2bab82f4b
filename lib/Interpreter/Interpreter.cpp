//===- Interpreter.cpp - reference evaluator for fuser fusions ------------===//
//
// Evaluates a fusion op by op on row-major byte buffers. Each op is
// dispatched once to a loop templated on its element kind and operation, so
// the per-element work is a few loads, one arithmetic expression and a
// store. Buffers are released after their last use, and moved rather than
// copied into ops that only reinterpret the shape.
//
// Numerics (docs/Interpreter.md): f16/bf16 are computed in f32 and rounded
// to nearest even per op; reductions accumulate in the compute type from the
// kind's identity, float and complex sums and products pairwise.
//
//===----------------------------------------------------------------------===//

#include "fuser/Interpreter/Interpreter.h"
#include "fuser/Dialect/Fuser/IR/Attention.h"
#include "fuser/Dialect/Fuser/IR/Contraction.h"
#include "fuser/Dialect/Fuser/IR/GroupedMm.h"
#include "fuser/Dialect/Fuser/IR/ElementSemantics.h"
#include "fuser/Dialect/Fuser/IR/RandomSemantics.h"
#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/StridedView.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "fuser/ExecutionEngine/Elements.h"
#include "fuser/ExecutionEngine/FloatingPointEnvironment.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::detail;
using namespace mlir::fuser::semantics;

namespace {

//===----------------------------------------------------------------------===//
// Element access and index iteration
//===----------------------------------------------------------------------===//

template <typename T> T loadElement(const uint8_t *base, int64_t index) {
  return bitCast<T>(base + index * sizeof(T));
}
template <typename T> void storeElement(uint8_t *base, int64_t index, T value) {
  std::memcpy(base + index * sizeof(T), &value, sizeof(T));
}

/// Where the elements of `buffer` lie in its bytes: row-major.
StridedView getLayout(const Buffer &buffer) {
  return StridedView::getContiguous(buffer.shape);
}

/// Calls `fn(offsets)` for every index of `shape` in row-major order, where
/// offsets[k] = base[k] + sum over d of index[d] * strides[k][d]. The
/// innermost dimension is a plain loop; the outer ones advance an odometer.
template <size_t N, typename Fn>
void forEachIndex(ArrayRef<int64_t> shape,
                  const std::array<SmallVector<int64_t>, N> &strides,
                  std::array<int64_t, N> offsets, Fn &&fn) {
  if (llvm::is_contained(shape, 0))
    return;
  int64_t rank = shape.size();
  if (rank == 0) {
    fn(offsets);
    return;
  }
  std::array<int64_t, N> innerStrides;
  for (size_t k = 0; k < N; ++k)
    innerStrides[k] = strides[k][rank - 1];
  SmallVector<int64_t> counter(rank, 0);
  while (true) {
    std::array<int64_t, N> at = offsets;
    for (int64_t i = 0; i < shape[rank - 1]; ++i) {
      fn(at);
      for (size_t k = 0; k < N; ++k)
        at[k] += innerStrides[k];
    }
    int64_t d = rank - 2;
    for (; d >= 0; --d) {
      for (size_t k = 0; k < N; ++k)
        offsets[k] += strides[k][d];
      if (++counter[d] < shape[d])
        break;
      for (size_t k = 0; k < N; ++k)
        offsets[k] -= strides[k][d] * shape[d];
      counter[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// Strides that read `operand` at each index of `resultShape`: scalars and
/// size-1 dims do not move.
SmallVector<int64_t> broadcastStrides(const Buffer &operand,
                                      ArrayRef<int64_t> resultShape) {
  if (operand.isScalar)
    return SmallVector<int64_t>(resultShape.size(), 0);
  return getLayout(operand).expandTo(resultShape).strides;
}

/// Calls `fn(offsets)` with offsets[0] into `result` and offsets[1 + k] into
/// `operands[k]`, broadcast to the result shape.
template <size_t N, typename Fn>
void forEachBroadcastElement(const Buffer &result,
                             std::array<const Buffer *, N> operands, Fn &&fn) {
  std::array<SmallVector<int64_t>, N + 1> strides;
  strides[0] = getRowMajorStrides(result.shape);
  for (size_t k = 0; k < N; ++k)
    strides[k + 1] = broadcastStrides(*operands[k], result.shape);
  forEachIndex<N + 1>(result.shape, strides, {}, fn);
}

/// Copies each element of `source` that view `from` selects to the element
/// of `dest` that view `to` selects at the same index (both views have the
/// same sizes); the work of every meta op, pad and cat.
void copyStrided(const Buffer &source, const StridedView &from, Buffer &dest,
                 const StridedView &to) {
  assert(from.sizes == to.sizes && "copy between views of different sizes");
  std::array<SmallVector<int64_t>, 2> strides = {from.strides, to.strides};
  auto copy = [&](auto width) {
    constexpr size_t W = decltype(width)::value;
    const uint8_t *fromBytes = source.getBytes().data();
    uint8_t *toBytes = dest.bytes.data();
    forEachIndex<2>(from.sizes, strides, {from.offset, to.offset},
                    [&](const std::array<int64_t, 2> &at) {
                      std::memcpy(toBytes + at[1] * W, fromBytes + at[0] * W,
                                  W);
                    });
  };
  switch (*getElementByteWidth(source.elementType)) {
  case 1:
    return copy(std::integral_constant<size_t, 1>{});
  case 2:
    return copy(std::integral_constant<size_t, 2>{});
  case 4:
    return copy(std::integral_constant<size_t, 4>{});
  case 8:
    return copy(std::integral_constant<size_t, 8>{});
  case 16: // complex<f64>
    return copy(std::integral_constant<size_t, 16>{});
  }
  llvm_unreachable("element widths are 1, 2, 4, 8 or 16 bytes");
}

/// Copies the result of meta op `op` (permute, slice or expand) from
/// `source` into `result`, reading it through the strided view of `source`
/// that applyMetaOp gives for the op's result.
void copyMetaOpResult(Operation *op, const Buffer &source, Buffer &result) {
  std::optional<StridedView> view = applyMetaOp(op, getLayout(source));
  assert(view && "permute, slice and expand results are strided views");
  copyStrided(source, *view, result, getLayout(result));
}

void fillWithScalar(Buffer &dest, const Buffer &scalar) {
  size_t width = scalar.getBytes().size();
  for (size_t at = 0; at < dest.bytes.size(); at += width)
    std::memcpy(dest.bytes.data() + at, scalar.getBytes().data(), width);
}

//===----------------------------------------------------------------------===//
// The evaluator
//===----------------------------------------------------------------------===//

class Evaluator {
public:
  explicit Evaluator(const BackendOptions &options) : options(options) {}

  /// Binds `args` to the arguments of `block`, evaluates its ops and returns
  /// the operands of its terminator.
  FailureOr<SmallVector<Buffer>> runBlock(Block &block,
                                          SmallVector<Buffer> args);

private:
  LogicalResult evaluate(Operation *op);

  /// A fresh zeroed buffer for `value`'s type, or a diagnostic on `op` when
  /// the type is not supported or the buffer would be too large.
  FailureOr<Buffer> allocate(Operation *op, Type type);
  /// The same checks and shape as allocate, without the bytes: for results
  /// that take over the bytes of an operand.
  FailureOr<Buffer> describe(Operation *op, Type type);

  const Buffer &get(Value value) { return values.find(value)->second; }
  /// The buffer of `value`, moved out when `op` is its last user.
  Buffer take(Value value);
  void bind(Value value, Buffer buffer);

  LogicalResult evalReshape(Operation *op, Value source);
  /// Expand, permute and slice: a copy of a strided view of the source.
  LogicalResult evalStridedView(Operation *op, Value source);
  LogicalResult evalPad(PadOp op);
  LogicalResult evalCat(CatOp op);
  LogicalResult evalFull(FullOp op);
  LogicalResult evalIota(IotaOp op);
  LogicalResult evalRandom(Operation *op, bool normal);
  LogicalResult evalGather(GatherOp op);
  /// matmul and linear (LibraryOpInterface).
  LogicalResult evalContraction(Operation *op);
  /// grouped_mm: a gemm per group, summed as evalContraction sums
  /// (docs/Interpreter.md).
  LogicalResult evalGroupedMm(GroupedMmOp op);
  /// sdpfa_fwd and sdpfa_bwd, per head in f32 (docs/Interpreter.md).
  LogicalResult evalAttention(Operation *op);
  LogicalResult evalCast(Operation *op, Value source);
  LogicalResult evalReduction(ReductionOp op);
  LogicalResult evalScan(ScanOp op);
  LogicalResult evalArgsort(ArgsortOp op);
  LogicalResult evalScatter(ScatterOp op);
  LogicalResult evalUnary(Operation *op, UnaryKind kind);
  LogicalResult evalBinary(Operation *op, BinaryKind kind);
  LogicalResult evalTernary(Operation *op, TernaryKind kind);
  LogicalResult evalCompare(Operation *op, CompareKind kind);
  LogicalResult evalWhere(WhereOp op);
  LogicalResult evalComplex(ComplexOp op);
  /// real (`imag` false) and imag: one part of each complex element.
  LogicalResult evalComplexPart(Operation *op, bool imag);
  LogicalResult evalConstant(arith::ConstantOp op);
  LogicalResult evalSegment(SegmentOp op);

  const BackendOptions &options;
  DenseMap<Value, Buffer> values;
  /// Uses of each bound value not yet evaluated; at zero it is released.
  DenseMap<Value, unsigned> pendingUses;
  /// The bytes of the bound values (borrowed inputs included), against
  /// options.maxTotalBytes.
  uint64_t heldBytes = 0;
};

FailureOr<Buffer> Evaluator::allocate(Operation *op, Type type) {
  FailureOr<Buffer> buffer = describe(op, type);
  if (succeeded(buffer))
    buffer->bytes.resize(*getValueByteSize(type), 0);
  return buffer;
}

FailureOr<Buffer> Evaluator::describe(Operation *op, Type type) {
  Buffer buffer;
  auto tensor = dyn_cast<RankedTensorType>(type);
  buffer.isScalar = !tensor;
  buffer.elementType = getElementTypeOrSelf(type);
  if (tensor && !tensor.hasStaticShape())
    return op->emitError("the interpreter needs static shapes, got ") << type;
  if (!tensor && isa<ShapedType>(type))
    return op->emitError("the interpreter supports ranked tensors and "
                         "scalars only, got ")
           << type;
  FailureOr<unsigned> width = getElementByteWidth(buffer.elementType);
  if (failed(width))
    return op->emitError("unsupported element type ")
           << buffer.elementType << " (expected i1, i32, i64, f16, bf16, f32 "
           << "or f64)";
  if (tensor)
    buffer.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  uint64_t bytes = *getValueByteSize(type);
  if (bytes > options.maxBufferBytes)
    return op->emitError("a value of type ")
           << type << " takes " << formatByteSize(bytes)
           << ", more than the limit of "
           << options.maxBufferBytes << " bytes";
  uint64_t held = heldBytes;
  if (failed(reserveRunBytes(op->getLoc(), options, held, bytes, "a value",
                             type)))
    return failure();
  return buffer;
}

Buffer Evaluator::take(Value value) {
  auto it = values.find(value);
  if (pendingUses.lookup(value) != 1)
    return it->second;
  heldBytes -= it->second.getBytes().size();
  Buffer taken = std::move(it->second);
  // A moved-from optional stays engaged: the entry, released after this
  // use, must hold nothing.
  it->second.borrowed.reset();
  return taken;
}

void Evaluator::bind(Value value, Buffer buffer) {
  unsigned uses = std::distance(value.use_begin(), value.use_end());
  if (uses == 0)
    return;
  pendingUses[value] = uses;
  heldBytes += buffer.getBytes().size();
  values[value] = std::move(buffer);
}

FailureOr<SmallVector<Buffer>> Evaluator::runBlock(Block &block,
                                                   SmallVector<Buffer> args) {
  for (auto [arg, buffer] : llvm::zip_equal(block.getArguments(), args))
    bind(arg, std::move(buffer));
  for (Operation &op : block.without_terminator()) {
    if (failed(evaluate(&op)))
      return failure();
    for (Value operand : op.getOperands()) {
      if (--pendingUses[operand] != 0)
        continue;
      auto it = values.find(operand);
      heldBytes -= it->second.getBytes().size();
      values.erase(it);
    }
  }
  SmallVector<Buffer> results;
  for (Value operand : block.getTerminator()->getOperands())
    results.push_back(take(operand));
  return results;
}

LogicalResult Evaluator::evaluate(Operation *op) {
  // The elementwise ops of ElementwiseOps.def.
  if (std::optional<UnaryKind> kind = getUnaryKind(op))
    return evalUnary(op, *kind);
  if (std::optional<BinaryKind> kind = getBinaryKind(op))
    return evalBinary(op, *kind);
  if (std::optional<TernaryKind> kind = getTernaryKind(op))
    return evalTernary(op, *kind);
  if (std::optional<CompareKind> kind = getCompareKind(op))
    return evalCompare(op, *kind);
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<ViewOp, SqueezeOp, BroadcastOp, SetOp, SegmentSetOp>(
          [&](auto op) { return evalReshape(op, op.getSource()); })
      .Case<ExpandOp, PermuteOp, SliceOp>(
          [&](auto op) { return evalStridedView(op, op.getSource()); })
      .Case([&](PadOp op) { return evalPad(op); })
      .Case([&](CatOp op) { return evalCat(op); })
      .Case([&](FullOp op) { return evalFull(op); })
      .Case([&](IotaOp op) { return evalIota(op); })
      .Case([&](GatherOp op) { return evalGather(op); })
      .Case<MatmulOp, LinearOp>([&](Operation *op) {
        return evalContraction(op);
      })
      .Case([&](GroupedMmOp op) { return evalGroupedMm(op); })
      .Case<SdpfaFwdOp, SdpfaBwdOp>(
          [&](Operation *op) { return evalAttention(op); })
      .Case([&](UniformOp op) { return evalRandom(op, /*normal=*/false); })
      .Case([&](NormalOp op) { return evalRandom(op, /*normal=*/true); })
      .Case<CastOp, arith::ExtFOp, arith::SIToFPOp, arith::FPToSIOp>(
          [&](auto op) { return evalCast(op, op->getOperand(0)); })
      .Case([&](arith::TruncFOp op) -> LogicalResult {
        if (op.getRoundingmode() &&
            *op.getRoundingmode() != arith::RoundingMode::to_nearest_even)
          return op.emitError("the interpreter supports only the default "
                              "rounding (to nearest even)");
        return evalCast(op, op.getIn());
      })
      .Case([&](ReductionOp op) { return evalReduction(op); })
      .Case([&](ScanOp op) { return evalScan(op); })
      .Case([&](ArgsortOp op) { return evalArgsort(op); })
      .Case([&](ScatterOp op) { return evalScatter(op); })
      // arith ops evaluated like their fuser counterparts.
      .Case([&](arith::NegFOp op) { return evalUnary(op, UnaryKind::Neg); })
      .Case<arith::AddFOp, arith::AddIOp>(
          [&](auto op) { return evalBinary(op, BinaryKind::Add); })
      .Case<arith::SubFOp, arith::SubIOp>(
          [&](auto op) { return evalBinary(op, BinaryKind::Sub); })
      .Case<arith::MulFOp, arith::MulIOp>(
          [&](auto op) { return evalBinary(op, BinaryKind::Mul); })
      .Case([&](arith::DivFOp op) { return evalBinary(op, BinaryKind::Div); })
      .Case([&](arith::MaximumFOp op) {
        return evalBinary(op, BinaryKind::Maximum);
      })
      .Case([&](arith::MinimumFOp op) {
        return evalBinary(op, BinaryKind::Minimum);
      })
      .Case([&](WhereOp op) { return evalWhere(op); })
      .Case([&](ComplexOp op) { return evalComplex(op); })
      .Case([&](RealOp op) { return evalComplexPart(op, /*imag=*/false); })
      .Case([&](ImagOp op) { return evalComplexPart(op, /*imag=*/true); })
      .Case([&](arith::ConstantOp op) { return evalConstant(op); })
      .Case([&](SegmentOp op) { return evalSegment(op); })
      .Default([](Operation *op) -> LogicalResult {
        return op->emitError("unsupported op '")
               << op->getName() << "' in the interpreter";
      });
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult Evaluator::evalReshape(Operation *op, Value source) {
  FailureOr<Buffer> result = describe(op, op->getResult(0).getType());
  if (failed(result))
    return failure();
  // Same row-major bytes, new shape (still borrowed where the source is).
  Buffer taken = take(source);
  result->bytes = std::move(taken.bytes);
  result->borrowed = taken.borrowed;
  bind(op->getResult(0), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalStridedView(Operation *op, Value source) {
  FailureOr<Buffer> result = allocate(op, op->getResult(0).getType());
  if (failed(result))
    return failure();
  copyMetaOpResult(op, get(source), *result);
  bind(op->getResult(0), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalPad(PadOp op) {
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  fillWithScalar(*result, get(op.getValue()));
  // The source goes to the block of the result that starts at `low`.
  const Buffer &source = get(op.getSource());
  SmallVector<int64_t> steps(source.shape.size(), 1);
  copyStrided(source, getLayout(source), *result,
              getLayout(*result).getSubview(op.getLow(), source.shape, steps));
  bind(op.getResult(), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalCat(CatOp op) {
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  // Each input goes to the block of the result that starts where the
  // previous one ended along `dim`.
  StridedView resultLayout = getLayout(*result);
  SmallVector<int64_t> offsets(result->shape.size(), 0);
  SmallVector<int64_t> steps(result->shape.size(), 1);
  int64_t dim = op.getDim();
  for (Value input : op.getInputs()) {
    const Buffer &source = get(input);
    copyStrided(source, getLayout(source), *result,
                resultLayout.getSubview(offsets, source.shape, steps));
    offsets[dim] += source.shape[dim];
  }
  bind(op.getResult(), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalFull(FullOp op) {
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  fillWithScalar(*result, get(op.getValue()));
  bind(op.getResult(), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalIota(IotaOp op) {
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  const uint8_t *start = get(op.getStart()).getBytes().data();
  const uint8_t *step = get(op.getStep()).getBytes().data();
  uint8_t *out = result->bytes.data();
  int64_t length = op.getType().getDimSize(0);
  visitElemKind(*getElemKind(result->elementType), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    using T = ComputeOf<K>;
    using Storage = StorageOf<K>;
    if constexpr (isFloatKind<K>) {
      // start + i * step in the compute type, each op rounded there.
      T first = Elem<K>::load(loadElement<Storage>(start, 0));
      T stride = Elem<K>::load(loadElement<Storage>(step, 0));
      for (int64_t i = 0; i < length; ++i) {
        T product = stride * static_cast<T>(i);
        storeElement(out, i, Elem<K>::store(first + product));
      }
    } else if constexpr (K == ElemKind::I32 || K == ElemKind::I64) {
      // Wrapping in the element's width.
      using Unsigned = std::make_unsigned_t<Storage>;
      auto first = static_cast<Unsigned>(loadElement<Storage>(start, 0));
      auto stride = static_cast<Unsigned>(loadElement<Storage>(step, 0));
      for (int64_t i = 0; i < length; ++i)
        storeElement(out, i,
                     static_cast<Storage>(static_cast<Unsigned>(
                         first + static_cast<Unsigned>(i) * stride)));
    }
  });
  bind(op.getResult(), std::move(*result));
  return success();
}

namespace {
/// Reads the elements of an index tensor (i32 or i64) for an indexing op
/// along a dim of `extent`, stopping at the first one outside [0, extent),
/// which the op reports as its error.
class IndexReader {
public:
  IndexReader(const Buffer &index, int64_t extent)
      : indices(index.getBytes().data()),
        wide(index.elementType.isInteger(64)), extent(extent) {}

  /// The index at `offset`, or nullopt once one was out of range.
  std::optional<int64_t> read(int64_t offset) {
    if (outOfRange)
      return std::nullopt;
    int64_t position = wide ? loadElement<int64_t>(indices, offset)
                            : loadElement<int32_t>(indices, offset);
    if (position >= 0 && position < extent)
      return position;
    outOfRange = {position, offset};
    return std::nullopt;
  }

  /// The error of `op` (indexing along `dim`) where an index was out of
  /// range.
  LogicalResult check(Operation *op, int64_t dim) const {
    if (!outOfRange)
      return success();
    return op->emitError("index ")
           << outOfRange->first << " is out of range [0, " << extent
           << ") along dim " << dim << " at index element "
           << outOfRange->second;
  }

private:
  const uint8_t *indices;
  bool wide;
  int64_t extent;
  std::optional<std::pair<int64_t, int64_t>> outOfRange;
};
} // namespace

LogicalResult Evaluator::evalGather(GatherOp op) {
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  const Buffer &source = get(op.getSource());
  int64_t dim = op.getDim();
  IndexReader indices(get(op.getIndex()), source.shape[dim]);
  unsigned width = *getElementByteWidth(result->elementType);
  // Offsets of the result element, its index element, and the source
  // element less the gathered dim's term (added per element).
  SmallVector<int64_t> rowMajor = getRowMajorStrides(result->shape);
  SmallVector<int64_t> sourceStrides = getRowMajorStrides(source.shape);
  int64_t gatheredStride = sourceStrides[dim];
  sourceStrides[dim] = 0;
  forEachIndex<2>(result->shape, {rowMajor, sourceStrides}, {0, 0},
                  [&](const std::array<int64_t, 2> &at) {
                    std::optional<int64_t> position = indices.read(at[0]);
                    if (!position)
                      return;
                    std::memcpy(result->bytes.data() + at[0] * width,
                                source.getBytes().data() +
                                    (at[1] + *position * gatheredStride) *
                                        width,
                                width);
                  });
  if (failed(indices.check(op, dim)))
    return failure();
  bind(op.getResult(), std::move(*result));
  return success();
}

namespace {
/// The sum over kk < count of lhs[lhsOffset + kk * lhsStride] *
/// rhs[rhsOffset + kk * rhsStride] in the accumulation type T (f32 for f16
/// and bf16): in increasing kk from -0.0, the IEEE identity (so one product
/// is the product itself, as the preseg rule for K = 1 needs), each product
/// and sum rounded to T (no fused multiply-add: -ffp-contract=off); over
/// none, +0.0 as torch's zeros.
template <ElemKind K>
ComputeOf<K> sumProducts(const uint8_t *lhs, int64_t lhsOffset,
                         int64_t lhsStride, const uint8_t *rhs,
                         int64_t rhsOffset, int64_t rhsStride,
                         int64_t count) {
  using T = ComputeOf<K>;
  auto load = [](const uint8_t *base, int64_t offset) {
    return Elem<K>::load(loadElement<StorageOf<K>>(base, offset));
  };
  T acc = count == 0 ? T(0) : -T(0);
  for (int64_t kk = 0; kk < count; ++kk)
    acc += load(lhs, lhsOffset + kk * lhsStride) *
           load(rhs, rhsOffset + kk * rhsStride);
  return acc;
}
} // namespace

LogicalResult Evaluator::evalContraction(Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  FailureOr<Buffer> result = allocate(op, type);
  if (failed(result))
    return failure();
  Contraction contraction = getContraction(op);
  const uint8_t *lhs = get(op->getOperand(0)).getBytes().data();
  const uint8_t *rhs = get(op->getOperand(1)).getBytes().data();
  const uint8_t *bias = contraction.hasBias
                            ? get(op->getOperand(2)).getBytes().data()
                            : nullptr;
  uint8_t *out = result->bytes.data();
  int64_t m = contraction.m, n = contraction.n, k = contraction.k;
  // B(kk, j) of the rhs: K x N, or N x K transposed.
  int64_t rhsRowStride = contraction.rhsTransposed ? 1 : n;
  int64_t rhsColumnStride = contraction.rhsTransposed ? k : 1;
  visitElemKind(*getElemKind(type.getElementType()), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    if constexpr (isFloatKind<K> && !isFloat8Kind<K>) {
      for (int64_t batch = 0, count = contraction.getBatchCount();
           batch < count; ++batch) {
        auto [lhsOffset, rhsOffset] = contraction.getOperandOffsets(batch);
        int64_t outOffset = batch * m * n;
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            ComputeOf<K> acc = sumProducts<K>(
                lhs, lhsOffset + i * k, 1, rhs, rhsOffset + j * rhsColumnStride,
                rhsRowStride, k);
            if (bias)
              acc += Elem<K>::load(loadElement<StorageOf<K>>(bias, j));
            storeElement(out, outOffset + i * n + j, Elem<K>::store(acc));
          }
        }
      }
    }
  });
  bind(op->getResult(0), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalGroupedMm(GroupedMmOp op) {
  // Allocated zeroed: rows (columns) past the last offset stay +0.0.
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  GroupedMm g = getGroupedMm(op);
  const uint8_t *offsetBytes = get(op.getOffsets()).getBytes().data();
  std::vector<int32_t> offsets(g.groups);
  for (int64_t i = 0; i < g.groups; ++i)
    offsets[i] = loadElement<int32_t>(offsetBytes, i);
  if (std::optional<std::string> error = checkGroupOffsets(
          offsets.data(), 1, g.groups, g.getGroupedExtent()))
    return op.emitError(*error);
  const uint8_t *a = get(op.getMat1()).getBytes().data();
  const uint8_t *b = get(op.getMat2()).getBytes().data();
  uint8_t *out = result->bytes.data();
  int64_t m = g.m, n = g.n, k = g.k;
  visitElemKind(*getElemKind(op.getType().getElementType()), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    if constexpr (isFloatKind<K> && !isFloat8Kind<K>) {
      auto store = [&](int64_t offset, ComputeOf<K> acc) {
        storeElement(out, offset, Elem<K>::store(acc));
      };
      for (int64_t group = 0, start = 0; group < g.groups;
           start = offsets[group++]) {
        int64_t end = offsets[group];
        switch (g.grouped) {
        case GroupedDim::Rows: // mat1 [M, K], mat2[group] [K, N]
          for (int64_t i = start; i < end; ++i)
            for (int64_t j = 0; j < n; ++j)
              store(i * n + j, sumProducts<K>(a, i * k, 1, b,
                                              group * k * n + j, n, k));
          break;
        case GroupedDim::Columns: // mat1[group] [M, K], mat2 [K, N]
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = start; j < end; ++j)
              store(i * n + j,
                    sumProducts<K>(a, (group * m + i) * k, 1, b, j, n, k));
          break;
        case GroupedDim::Contraction: // k in [start, end)
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j)
              store((group * m + i) * n + j,
                    sumProducts<K>(a, i * k + start, 1, b, start * n + j, n,
                                   end - start));
          break;
        }
      }
    }
  });
  bind(op.getResult(), std::move(*result));
  return success();
}

namespace {
/// The elements of a float tensor, row-major, widened to f32.
std::vector<float> widenToF32(const Buffer &buffer) {
  std::vector<float> values;
  visitElemKind(*getElemKind(buffer.elementType), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    if constexpr (std::is_same_v<ComputeOf<K>, float>) {
      size_t count = buffer.getBytes().size() / sizeof(StorageOf<K>);
      values.reserve(count);
      for (size_t i = 0; i < count; ++i)
        values.push_back(
            Elem<K>::load(loadElement<StorageOf<K>>(buffer.getBytes().data(), i)));
    }
  });
  return values;
}

/// Writes f32 `values` into `buffer`'s elements, each rounded once.
void storeFromF32(ArrayRef<float> values, Buffer &buffer) {
  visitElemKind(*getElemKind(buffer.elementType), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    if constexpr (std::is_same_v<ComputeOf<K>, float>)
      for (auto [i, value] : llvm::enumerate(values))
        storeElement(buffer.bytes.data(), i, Elem<K>::store(value));
  });
}

/// sum over i < n of at(i), in increasing i from +0.0, in f32.
template <typename Fn> float sumF32(int64_t n, Fn at) {
  float sum = 0;
  for (int64_t i = 0; i < n; ++i)
    sum += at(i);
  return sum;
}

/// What the forward adds to the scores beyond scale * q . k: its bias
/// (widened to f32) and mask, each of the scores' rank with dims of 1
/// broadcast, and the dropout's Philox state.
struct ScoreTerms {
  /// The scores' shape, [N..., H, L, S].
  SmallVector<int64_t> scores;
  std::vector<float> bias;
  SmallVector<int64_t> biasShape;
  ArrayRef<uint8_t> mask;
  SmallVector<int64_t> maskShape;
  uint64_t seed = 0, offset = 0;

  /// The element of a tensor of `shape` at score (head, row, col).
  int64_t at(ArrayRef<int64_t> shape, int64_t head, int64_t row,
             int64_t col) const {
    int64_t rank = scores.size(), index = 0, stride = 1;
    auto step = [&](int64_t dim, int64_t coordinate) {
      if (shape[dim] != 1)
        index += coordinate * stride;
      stride *= shape[dim];
    };
    step(rank - 1, col);
    step(rank - 2, row);
    for (int64_t dim = rank - 3; dim >= 0; --dim) {
      step(dim, head % scores[dim]);
      head /= scores[dim];
    }
    return index;
  }
};

/// The scores of one head: scale * q[l] . k[s] + bias in f32, -inf where
/// the mask or the causal mask hides the key.
std::vector<float> getScores(const Attention &a, const ScoreTerms &terms,
                             int64_t head, const float *q, const float *k) {
  std::vector<float> scores(a.l * a.s);
  for (int64_t i = 0; i < a.l; ++i)
    for (int64_t j = 0; j < a.s; ++j) {
      bool hidden = a.isMasked(i, j) ||
                    (!terms.mask.empty() &&
                     !terms.mask[terms.at(terms.maskShape, head, i, j)]);
      float score = hidden ? -INFINITY : sumF32(a.e, [&](int64_t e) {
        return q[i * a.e + e] * k[j * a.e + e];
      }) * a.scale;
      if (!hidden && !terms.bias.empty())
        score += terms.bias[terms.at(terms.biasShape, head, i, j)];
      scores[i * a.s + j] = score;
    }
  return scores;
}

/// The dropout's factors of `head`'s scores (row-major L x S): 1 without
/// dropout, else `keepScale` where kept and 0 where dropped.
std::vector<float> getKeepFactors(const Attention &a, const ScoreTerms &terms,
                                  int64_t head) {
  std::vector<float> factors(a.l * a.s, 1.0f);
  if (a.hasDropout())
    random::fillKeepFactors(terms.seed, terms.offset,
                            uint64_t(head * a.l * a.s), factors.size(),
                            a.dropoutThreshold, a.keepScale, factors.data());
  return factors;
}
} // namespace

LogicalResult Evaluator::evalAttention(Operation *op) {
  Attention a = getAttention(op);
  SmallVector<Buffer> results;
  for (Value result : op->getResults()) {
    FailureOr<Buffer> buffer = allocate(op, result.getType());
    if (failed(buffer))
      return failure();
    results.push_back(std::move(*buffer));
  }
  auto forward = dyn_cast<SdpfaFwdOp>(op);
  ScoreTerms terms;
  Value queryValue = forward ? forward.getQuery()
                             : cast<SdpfaBwdOp>(op).getQuery();
  llvm::append_range(
      terms.scores,
      cast<RankedTensorType>(queryValue.getType()).getShape().drop_back());
  terms.scores.push_back(a.s);
  std::vector<std::vector<float>> in;
  if (forward) {
    for (Value operand : {forward.getQuery(), forward.getKey(),
                          forward.getValue()})
      in.push_back(widenToF32(get(operand)));
    if (Value bias = forward.getBias()) {
      terms.bias = widenToF32(get(bias));
      terms.biasShape = llvm::to_vector(
          cast<RankedTensorType>(bias.getType()).getShape());
    }
    if (Value mask = forward.getMask()) {
      terms.mask = get(mask).getBytes();
      terms.maskShape = llvm::to_vector(
          cast<RankedTensorType>(mask.getType()).getShape());
    }
    if (a.hasDropout()) {
      terms.seed = static_cast<uint64_t>(
          loadElement<int64_t>(get(forward.getSeed()).getBytes().data(), 0));
      terms.offset = static_cast<uint64_t>(
          loadElement<int64_t>(get(forward.getOffset()).getBytes().data(), 0));
    }
  } else {
    auto backward = cast<SdpfaBwdOp>(op);
    for (Value operand : op->getOperands())
      if (isa<FloatType>(getElementTypeOrSelf(operand.getType())))
        in.push_back(widenToF32(get(operand)));
    const uint8_t *philox = get(backward.getPhiloxSeed()).getBytes().data();
    terms.seed = static_cast<uint64_t>(loadElement<int64_t>(philox, 0));
    terms.offset = static_cast<uint64_t>(loadElement<int64_t>(philox, 1));
  }
  int64_t qe = a.l * a.e, ke = a.s * a.e, vv = a.s * a.ev, ov = a.l * a.ev;
  if (forward) {
    std::vector<float> out(a.batch * ov), lse(a.batch * a.l);
    for (int64_t b = 0; b < a.batch; ++b) {
      const float *q = in[0].data() + b * qe, *k = in[1].data() + b * ke,
                  *v = in[2].data() + b * vv;
      std::vector<float> scores = getScores(a, terms, b, q, k);
      std::vector<float> factors = getKeepFactors(a, terms, b);
      for (int64_t i = 0; i < a.l; ++i) {
        const float *row = scores.data() + i * a.s;
        float max = -INFINITY;
        for (int64_t j = 0; j < a.s; ++j)
          max = std::max(max, row[j]);
        float *o = out.data() + b * ov + i * a.ev;
        if (max == -INFINITY) {
          // No key to attend to: logsumexp -inf, output 0.
          lse[b * a.l + i] = -INFINITY;
          continue;
        }
        std::vector<float> p(a.s), kept(a.s);
        for (int64_t j = 0; j < a.s; ++j) {
          p[j] = std::exp(row[j] - max);
          kept[j] = p[j] * factors[i * a.s + j];
        }
        float sum = sumF32(a.s, [&](int64_t j) { return p[j]; });
        lse[b * a.l + i] = max + std::log(sum);
        for (int64_t c = 0; c < a.ev; ++c)
          o[c] = sumF32(a.s,
                        [&](int64_t j) { return kept[j] * v[j * a.ev + c]; }) /
                 sum;
      }
    }
    storeFromF32(out, results[0]);
    storeFromF32(lse, results[1]);
    // philox_seed = [seed, offset] (zeros without dropout); philox_offset 0.
    uint8_t *seed = results[2].bytes.data();
    storeElement(seed, 0, static_cast<int64_t>(terms.seed));
    storeElement(seed, 1, static_cast<int64_t>(terms.offset));
    storeElement(results[3].bytes.data(), 0, int64_t(0));
  } else {
    std::vector<float> dq(a.batch * qe), dk(a.batch * ke), dv(a.batch * vv);
    for (int64_t b = 0; b < a.batch; ++b) {
      const float *dout = in[0].data() + b * ov, *q = in[1].data() + b * qe,
                  *k = in[2].data() + b * ke, *v = in[3].data() + b * vv,
                  *o = in[4].data() + b * ov, *lse = in[5].data() + b * a.l;
      // p, and z = p times the dropout's factor.
      std::vector<float> p = getScores(a, terms, b, q, k), z(a.l * a.s),
                         ds(a.l * a.s), factors = getKeepFactors(a, terms, b);
      for (int64_t i = 0; i < a.l; ++i) {
        float d = sumF32(a.ev, [&](int64_t c) {
          return dout[i * a.ev + c] * o[i * a.ev + c];
        });
        for (int64_t j = 0; j < a.s; ++j) {
          float &pij = p[i * a.s + j];
          pij = a.isMasked(i, j) ? 0.0f : std::exp(pij - lse[i]);
          float keep = factors[i * a.s + j];
          z[i * a.s + j] = pij * keep;
          float dp = sumF32(a.ev, [&](int64_t c) {
            return dout[i * a.ev + c] * v[j * a.ev + c];
          });
          ds[i * a.s + j] = pij * (dp * keep - d);
        }
      }
      for (int64_t j = 0; j < a.s; ++j)
        for (int64_t c = 0; c < a.ev; ++c)
          dv[b * vv + j * a.ev + c] = sumF32(a.l, [&](int64_t i) {
            return z[i * a.s + j] * dout[i * a.ev + c];
          });
      for (int64_t i = 0; i < a.l; ++i)
        for (int64_t e = 0; e < a.e; ++e)
          dq[b * qe + i * a.e + e] = a.scale * sumF32(a.s, [&](int64_t j) {
                                       return ds[i * a.s + j] * k[j * a.e + e];
                                     });
      for (int64_t j = 0; j < a.s; ++j)
        for (int64_t e = 0; e < a.e; ++e)
          dk[b * ke + j * a.e + e] = a.scale * sumF32(a.l, [&](int64_t i) {
                                       return ds[i * a.s + j] * q[i * a.e + e];
                                     });
    }
    storeFromF32(dq, results[0]);
    storeFromF32(dk, results[1]);
    storeFromF32(dv, results[2]);
  }
  for (auto [result, buffer] : llvm::zip_equal(op->getResults(), results))
    bind(result, std::move(buffer));
  return success();
}

LogicalResult Evaluator::evalRandom(Operation *op, bool normal) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  FailureOr<Buffer> result = allocate(op, type);
  if (failed(result))
    return failure();
  auto scalar = [&](unsigned index) {
    return get(op->getOperand(index)).getBytes().data();
  };
  auto seed = static_cast<uint64_t>(loadElement<int64_t>(scalar(2), 0));
  auto offset = static_cast<uint64_t>(loadElement<int64_t>(scalar(3), 0));
  uint8_t *out = result->bytes.data();
  int64_t count = type.getNumElements();
  Type element = type.getElementType();
  if (element.isF64()) {
    double first = loadElement<double>(scalar(0), 0);
    double second = loadElement<double>(scalar(1), 0);
    for (int64_t i = 0; i < count; ++i) {
      uint64_t component = uint64_t(i) % 2;
      random::PhiloxWords words = random::philox(seed, uint64_t(i) / 2, offset);
      double value =
          normal ? std::fma(random::normalDouble(words, component), second,
                            first)
                 : std::fma(second - first,
                            random::uniformDouble(words[2 * component],
                                                  words[2 * component + 1]),
                            first);
      storeElement(out, i, value);
    }
  } else {
    float first = loadElement<float>(scalar(0), 0);
    float second = loadElement<float>(scalar(1), 0);
    visitElemKind(*getElemKind(element), [&](auto tag) {
      constexpr ElemKind K = decltype(tag)::kind;
      if constexpr (K == ElemKind::F32 || isHalfKind<K>) {
        for (int64_t i = 0; i < count; ++i) {
          uint64_t component = uint64_t(i) % 4;
          random::PhiloxWords words =
              random::philox(seed, uint64_t(i) / 4, offset);
          StorageOf<K> value;
          if (normal) {
            uint64_t pair = component / 2 * 2;
            value = Elem<K>::store(std::fma(
                random::normalFloat(words[pair], words[pair + 1], component),
                second, first));
          } else if constexpr (K == ElemKind::F32) {
            value = std::fma(second - first,
                             random::uniformFloat(words[component]), first);
          } else {
            // f16/bf16: from the unmapped (0, 1] value; `high` becomes
            // `low`.
            value = Elem<K>::store(
                std::fma(second - first,
                         random::rawUniformFloat(words[component]), first));
            if (Elem<K>::load(value) == Elem<K>::load(Elem<K>::store(second)))
              value = Elem<K>::store(first);
          }
          storeElement(out, i, value);
        }
      }
    });
  }
  bind(op->getResult(0), std::move(*result));
  return success();
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

LogicalResult Evaluator::evalCast(Operation *op, Value sourceValue) {
  FailureOr<Buffer> result = allocate(op, op->getResult(0).getType());
  if (failed(result))
    return failure();
  const Buffer &source = get(sourceValue);
  ElemKind from = *getElemKind(source.elementType);
  ElemKind to = *getElemKind(result->elementType);
  // arith.sitofp reads i1 as signed (true is -1), unlike fuser.cast.
  if (from == ElemKind::I1 && isa<arith::SIToFPOp>(op))
    return op->emitError("unsupported: arith.sitofp from i1");
  int64_t count = getSaturatedNumElements(result->shape);
  // A cast to its own type is the identity (f8E5M2 infinities included,
  // which a conversion to f8E5M2 saturates).
  if (from == to) {
    result->bytes.assign(source.getBytes().begin(), source.getBytes().end());
    bind(op->getResult(0), std::move(*result));
    return success();
  }
  visitElemKind(from, [&](auto fromTag) {
    visitElemKind(to, [&](auto toTag) {
      constexpr ElemKind From = decltype(fromTag)::kind;
      constexpr ElemKind To = decltype(toTag)::kind;
      const uint8_t *in = source.getBytes().data();
      uint8_t *out = result->bytes.data();
      for (int64_t i = 0; i < count; ++i)
        storeElement(out, i,
                     convertTo<To>(Elem<From>::load(
                         loadElement<StorageOf<From>>(in, i))));
    });
  });
  bind(op->getResult(0), std::move(*result));
  return success();
}

/// The start value of a reduction: the identity of its combiner. Float `add`
/// starts from -0.0, the IEEE identity (-0.0 + x == x for every x, -0.0 and
/// NaN included; +0.0 + -0.0 would be +0.0), so a reduction over extent-1
/// dims is exactly a squeeze.
template <typename T> T reductionIdentity(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::Add:
    if constexpr (std::is_floating_point_v<T>)
      return -T(0);
    else
      return T(0);
  case ReductionKind::Mul:
    return T(1);
  case ReductionKind::Max:
    if constexpr (std::is_floating_point_v<T>)
      return -std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::min();
  case ReductionKind::Min:
    break;
  }
  if constexpr (std::is_floating_point_v<T>)
    return std::numeric_limits<T>::infinity();
  else
    return std::numeric_limits<T>::max();
}

/// The elements a reduction combines into each of its outputs: the source
/// offsets of output `o`'s k-th element (k in row-major order of the reduced
/// dims) are base(o) + offset(k).
class ReducedElements {
public:
  ReducedElements(ArrayRef<int64_t> shape, ArrayRef<int64_t> dims) {
    SmallVector<int64_t> strides = getRowMajorStrides(shape);
    for (auto [d, size] : llvm::enumerate(shape)) {
      bool reduced = llvm::is_contained(dims, static_cast<int64_t>(d));
      (reduced ? reducedShape : keptShape).push_back(size);
      (reduced ? reducedStrides : keptStrides).push_back(strides[d]);
    }
    count = getSaturatedNumElements(reducedShape);
  }

  /// How many elements each output combines.
  int64_t size() const { return count; }

  /// Calls `fn(base)` for every output in row-major order.
  template <typename Fn> void forEachOutput(Fn &&fn) const {
    std::array<SmallVector<int64_t>, 1> strides = {keptStrides};
    forEachIndex<1>(keptShape, strides, {},
                    [&](const std::array<int64_t, 1> &at) { fn(at[0]); });
  }

  /// Calls `fn(offset)` for elements first .. first + n - 1 of the output at
  /// `base`, in order.
  template <typename Fn>
  void forEachInRange(int64_t base, int64_t first, int64_t n, Fn &&fn) const {
    if (n == 0)
      return;
    int64_t rank = reducedShape.size();
    SmallVector<int64_t, 8> index(rank);
    int64_t offset = base;
    for (int64_t d = rank - 1, rest = first; d >= 0; --d) {
      index[d] = rest % reducedShape[d];
      rest /= reducedShape[d];
      offset += index[d] * reducedStrides[d];
    }
    for (int64_t k = 0; k < n; ++k) {
      fn(offset);
      for (int64_t d = rank - 1; d >= 0; --d) {
        offset += reducedStrides[d];
        if (++index[d] < reducedShape[d])
          break;
        offset -= reducedStrides[d] * reducedShape[d];
        index[d] = 0;
      }
    }
  }

private:
  SmallVector<int64_t> keptShape, keptStrides, reducedShape, reducedStrides;
  int64_t count;
};

/// Ranges of at most this many elements are combined in sequence; longer
/// ones are split in halves.
constexpr int64_t kPairwiseLeaf = 8;

/// Combines elements first .. first + n - 1 of the output at `base`
/// pairwise: a range of up to kPairwiseLeaf elements in sequence from the
/// identity, a longer one as (its first floor(n/2) elements) combined with
/// (the rest). Rounding errors then grow with log2(n), not n.
template <typename T, typename Combine, typename Load>
T reducePairwise(const ReducedElements &elements, int64_t base, int64_t first,
                 int64_t n, T identity, const Combine &combine,
                 const Load &load) {
  if (n <= kPairwiseLeaf) {
    T acc = identity;
    elements.forEachInRange(base, first, n, [&](int64_t offset) {
      acc = combine(acc, load(offset));
    });
    return acc;
  }
  int64_t half = n / 2;
  T lhs = reducePairwise(elements, base, first, half, identity, combine, load);
  T rhs = reducePairwise(elements, base, first + half, n - half, identity,
                         combine, load);
  return combine(lhs, rhs);
}

/// Calls `visit(identity, combine, load, store, reorders)` with how kind
/// `kind` combines elements of `elementType` read from `in` and written to
/// `out` (load(offset) and store(offset, value) in the compute type;
/// load(offset, from) reads another buffer of the element type),
/// starting from the kind's identity; `reorders` says whether the result
/// depends on the order (float and complex sums and products).
template <typename Visit>
static void visitCombiner(Type elementType, ReductionKind kind,
                          const uint8_t *in, uint8_t *out, Visit &&visit) {
  visitElemKind(*getElemKind(elementType), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    using T = ComputeOf<K>;
    if constexpr (isNumericKind<K>) {
      // `from`: another buffer of the element type (a scatter's result).
      auto load = [&](int64_t offset, const uint8_t *from = nullptr) {
        return Elem<K>::load(loadElement<StorageOf<K>>(from ? from : in, offset));
      };
      auto store = [&](int64_t offset, T value) {
        storeElement(out, offset, Elem<K>::store(value));
      };
      auto with = [&](auto binaryKind) {
        constexpr BinaryKind B = decltype(binaryKind)::value;
        bool reorders = std::is_floating_point_v<T> &&
                        (B == BinaryKind::Add || B == BinaryKind::Mul);
        visit(
            reductionIdentity<T>(kind),
            [](T acc, T value) { return applyBinary<B>(acc, value); }, load,
            store, reorders);
      };
      switch (kind) {
      case ReductionKind::Add:
        return with(std::integral_constant<BinaryKind, BinaryKind::Add>{});
      case ReductionKind::Mul:
        return with(std::integral_constant<BinaryKind, BinaryKind::Mul>{});
      case ReductionKind::Max:
        return with(
            std::integral_constant<BinaryKind, BinaryKind::Maximum>{});
      case ReductionKind::Min:
        return with(
            std::integral_constant<BinaryKind, BinaryKind::Minimum>{});
      }
    } else if constexpr (isComplexKind<K>) {
      // add only (the verifiers): part by part from (-0.0, -0.0).
      using Part = typename T::Component;
      visit(
          T{-Part(0), -Part(0)},
          [](T acc, T value) {
            return applyBinary<BinaryKind::Add>(acc, value);
          },
          [&](int64_t offset, const uint8_t *from = nullptr) {
            return loadElement<StorageOf<K>>(from ? from : in, offset);
          },
          [&](int64_t offset, T value) { storeElement(out, offset, value); },
          /*reorders=*/true);
    }
  });
}

LogicalResult Evaluator::evalReduction(ReductionOp op) {
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  const Buffer &source = get(op.getSource());
  ReductionKind kind = op.getKind();
  ReducedElements elements(source.shape, op.getDims());
  // Reduces every output with `combine` from `identity`, storing it with
  // `store`. Float and complex sums and products are pairwise, unless split
  // reductions are off (the order of the kernels that do not split them);
  // integer arithmetic and max/min do not depend on the order, and go
  // through the source in sequence for every output at once.
  auto reduce = [&](auto identity, auto combine, auto load, auto store,
                    bool pairwise) {
    using T = decltype(identity);
    int64_t count = getSaturatedNumElements(result->shape);
    if (pairwise && options.splitReductions) {
      int64_t index = 0;
      elements.forEachOutput([&](int64_t base) {
        store(index++, reducePairwise(elements, base, 0, elements.size(),
                                      identity, combine, load));
      });
      return;
    }
    // Walk the source in row-major order; each element lands in the
    // accumulator of its output position (reduced dims do not move it).
    SmallVector<int64_t> outStrides(source.shape.size(), 0);
    int64_t stride = 1;
    for (int64_t d = static_cast<int64_t>(source.shape.size()) - 1; d >= 0;
         --d) {
      if (llvm::is_contained(op.getDims(), d))
        continue;
      outStrides[d] = stride;
      stride *= source.shape[d];
    }
    std::array<SmallVector<int64_t>, 2> strides = {
        getRowMajorStrides(source.shape), std::move(outStrides)};
    std::vector<T> accumulators(count, identity);
    forEachIndex<2>(source.shape, strides, {},
                    [&](const std::array<int64_t, 2> &at) {
                      T &acc = accumulators[at[1]];
                      acc = combine(acc, load(at[0]));
                    });
    for (int64_t i = 0; i < count; ++i)
      store(i, accumulators[i]);
  };
  visitCombiner(source.elementType, kind, source.getBytes().data(),
                result->bytes.data(), reduce);
  bind(op.getResult(), std::move(*result));
  return success();
}

/// Calls `visit(offset)` for each row of a row-major tensor of `shape` along
/// `dim`, where offset(i) is the position of the row's element i.
static void forEachRow(ArrayRef<int64_t> shape, int64_t dim,
                       function_ref<void(function_ref<int64_t(int64_t)>)> visit) {
  int64_t outer = 1, extent = shape[dim], inner = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= shape[d];
  for (int64_t d = dim + 1; d < int64_t(shape.size()); ++d)
    inner *= shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t n = 0; n < inner; ++n)
      visit([&](int64_t i) { return (o * extent + i) * inner + n; });
}

LogicalResult Evaluator::evalScan(ScanOp op) {
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  const Buffer &source = get(op.getSource());
  int64_t extent = source.shape[op.getDim()];
  // Each row in order from the identity, every prefix stored.
  auto scan = [&](auto identity, auto combine, auto load, auto store) {
    forEachRow(source.shape, op.getDim(), [&](auto offset) {
      auto acc = identity;
      for (int64_t i = 0; i < extent; ++i) {
        acc = combine(acc, load(offset(i)));
        store(offset(i), acc);
      }
    });
  };
  visitCombiner(source.elementType, op.getKind(), source.getBytes().data(),
                result->bytes.data(),
                [&](auto identity, auto combine, auto load, auto store,
                    bool /*reorders*/) { scan(identity, combine, load, store); });
  bind(op.getResult(), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalArgsort(ArgsortOp op) {
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  const Buffer &source = get(op.getSource());
  int64_t extent = source.shape[op.getDim()];
  bool descending = op.getDescending();
  const uint8_t *in = source.getBytes().data();
  uint8_t *out = result->bytes.data();
  visitElemKind(*getElemKind(source.elementType), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    using T = ComputeOf<K>;
    if constexpr (isNumericKind<K>) {
      // NaN orders above every number; equal elements keep their order.
      auto before = [&](T x, T y) {
        if constexpr (std::is_floating_point_v<T>) {
          if (descending)
            return !std::isnan(y) && (std::isnan(x) || x > y);
          return !std::isnan(x) && (std::isnan(y) || x < y);
        } else {
          return descending ? x > y : x < y;
        }
      };
      std::vector<T> row(extent);
      std::vector<int64_t> order(extent);
      forEachRow(source.shape, op.getDim(), [&](auto offset) {
        for (int64_t i = 0; i < extent; ++i)
          row[i] = Elem<K>::load(loadElement<StorageOf<K>>(in, offset(i)));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          return before(row[a], row[b]);
        });
        for (int64_t i = 0; i < extent; ++i)
          storeElement(out, offset(i), order[i]);
      });
    }
  });
  bind(op.getResult(), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalScatter(ScatterOp op) {
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  const Buffer &self = get(op.getSelf());
  const Buffer &index = get(op.getIndex());
  const Buffer &src = get(op.getSrc());
  llvm::copy(self.getBytes(), result->bytes.begin());
  int64_t dim = op.getDim();
  IndexReader indices(index, self.shape[dim]);
  // Offsets of the index element, its src element, and the result element
  // less the scattered dim's term (added per element).
  SmallVector<int64_t> resultStrides = getRowMajorStrides(result->shape);
  int64_t scatteredStride = resultStrides[dim];
  resultStrides[dim] = 0;
  // Calls write(src offset, result offset) for the index elements in
  // row-major order (the documented order of duplicate writes).
  auto forEachWrite = [&](auto write) {
    forEachIndex<3>(
        index.shape,
        {getRowMajorStrides(index.shape), getRowMajorStrides(src.shape),
         resultStrides},
        {0, 0, 0}, [&](const std::array<int64_t, 3> &at) {
          if (std::optional<int64_t> position = indices.read(at[0]))
            write(at[1], at[2] + *position * scatteredStride);
        });
  };
  uint8_t *out = result->bytes.data();
  if (std::optional<ReductionKind> reduce = op.getReduce()) {
    visitCombiner(src.elementType, *reduce, src.getBytes().data(), out,
                  [&](auto, auto combine, auto load, auto store, bool) {
                    forEachWrite([&](int64_t from, int64_t to) {
                      store(to, combine(load(to, out), load(from)));
                    });
                  });
  } else {
    unsigned width = *getElementByteWidth(result->elementType);
    forEachWrite([&](int64_t from, int64_t to) {
      std::memcpy(out + to * width, src.getBytes().data() + from * width,
                  width);
    });
  }
  if (failed(indices.check(op, dim)))
    return failure();
  bind(op.getResult(), std::move(*result));
  return success();
}

/// Stores one result element: bool values (the Bool-result ops, and the
/// Integral ones on i1) as i1, the part of a complex kind K (abs) as that
/// part, others in the storage of kind K.
template <ElemKind K, typename V>
void storeResult(uint8_t *out, int64_t index, V value) {
  if constexpr (std::is_same_v<V, bool>)
    out[index] = value;
  else if constexpr (isComplexKind<K> && !semantics::isComplexV<V>)
    storeElement(out, index, value);
  else
    storeElement(out, index, Elem<K>::store(value));
}

/// Stores one binary result; nextafter on f16/bf16 steps their own format's
/// bits, not their f32's. (A function, not a branch in evalBinary's nested
/// generic lambdas, where clang 14 instantiates discarded branches.)
template <BinaryKind B, ElemKind K>
void storeBinaryResult(uint8_t *out, int64_t index, StorageOf<K> x,
                       StorageOf<K> y) {
  if constexpr (B == BinaryKind::Nextafter && isHalfKind<K>) {
    auto vx = Elem<K>::load(x), vy = Elem<K>::load(y);
    storeElement(out, index,
                 nextafterBits<StorageOf<K>>(x, y, vx, vy,
                                             Elem<K>::store(vx + vy)));
  } else {
    storeResult<K>(out, index,
                   applyBinary<B>(Elem<K>::load(x), Elem<K>::load(y)));
  }
}

LogicalResult Evaluator::evalUnary(Operation *op, UnaryKind kind) {
  FailureOr<Buffer> result = allocate(op, op->getResult(0).getType());
  if (failed(result))
    return failure();
  const Buffer &source = get(op->getOperand(0));
  visitElemKind(*getElemKind(source.elementType), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    visitKind<UnaryKind, kNumUnaryKinds>(kind, [&](auto unaryKind) {
      constexpr UnaryKind U = decltype(unaryKind)::value;
      if constexpr (isInClass<ComputeOf<K>>(getOpInfo(U).operands)) {
        const uint8_t *in = source.getBytes().data();
        uint8_t *out = result->bytes.data();
        int64_t count = getSaturatedNumElements(result->shape);
        for (int64_t i = 0; i < count; ++i)
          storeResult<K>(out, i,
                         applyUnary<U>(Elem<K>::load(
                             loadElement<StorageOf<K>>(in, i))));
      }
    });
  });
  bind(op->getResult(0), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalBinary(Operation *op, BinaryKind kind) {
  FailureOr<Buffer> result = allocate(op, op->getResult(0).getType());
  if (failed(result))
    return failure();
  const Buffer &lhs = get(op->getOperand(0));
  const Buffer &rhs = get(op->getOperand(1));
  visitElemKind(*getElemKind(lhs.elementType), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    visitKind<BinaryKind, kNumBinaryKinds>(kind, [&](auto binaryKind) {
      constexpr BinaryKind B = decltype(binaryKind)::value;
      if constexpr (isInClass<ComputeOf<K>>(getOpInfo(B).operands)) {
        using Storage = StorageOf<K>;
        const uint8_t *a = lhs.getBytes().data(), *b = rhs.getBytes().data();
        uint8_t *out = result->bytes.data();
        forEachBroadcastElement<2>(
            *result, {&lhs, &rhs}, [&](const std::array<int64_t, 3> &at) {
              storeBinaryResult<B, K>(out, at[0],
                                      loadElement<Storage>(a, at[1]),
                                      loadElement<Storage>(b, at[2]));
            });
      }
    });
  });
  bind(op->getResult(0), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalTernary(Operation *op, TernaryKind kind) {
  FailureOr<Buffer> result = allocate(op, op->getResult(0).getType());
  if (failed(result))
    return failure();
  const Buffer &first = get(op->getOperand(0));
  const Buffer &second = get(op->getOperand(1));
  const Buffer &third = get(op->getOperand(2));
  visitElemKind(*getElemKind(result->elementType), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    visitKind<TernaryKind, kNumTernaryKinds>(kind, [&](auto ternaryKind) {
      constexpr TernaryKind T = decltype(ternaryKind)::value;
      if constexpr (isInClass<ComputeOf<K>>(getOpInfo(T).operands)) {
        using Storage = StorageOf<K>;
        const uint8_t *a = first.getBytes().data(), *b = second.getBytes().data(),
                      *c = third.getBytes().data();
        uint8_t *out = result->bytes.data();
        forEachBroadcastElement<3>(
            *result, {&first, &second, &third},
            [&](const std::array<int64_t, 4> &at) {
              storeElement(
                  out, at[0],
                  Elem<K>::store(applyTernary<T>(
                      Elem<K>::load(loadElement<Storage>(a, at[1])),
                      Elem<K>::load(loadElement<Storage>(b, at[2])),
                      Elem<K>::load(loadElement<Storage>(c, at[3])))));
            });
      }
    });
  });
  bind(op->getResult(0), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalCompare(Operation *op, CompareKind kind) {
  FailureOr<Buffer> result = allocate(op, op->getResult(0).getType());
  if (failed(result))
    return failure();
  const Buffer &lhs = get(op->getOperand(0));
  const Buffer &rhs = get(op->getOperand(1));
  visitElemKind(*getElemKind(lhs.elementType), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    visitKind<CompareKind, kNumCompareKinds>(kind, [&](auto compareKind) {
      constexpr CompareKind C = decltype(compareKind)::value;
      if constexpr (!isComplexKind<K> || comparesComplex(C)) {
        using Storage = StorageOf<K>;
        const uint8_t *a = lhs.getBytes().data(), *b = rhs.getBytes().data();
        uint8_t *out = result->bytes.data();
        forEachBroadcastElement<2>(
            *result, {&lhs, &rhs}, [&](const std::array<int64_t, 3> &at) {
              out[at[0]] = applyCompare<C>(
                  Elem<K>::load(loadElement<Storage>(a, at[1])),
                  Elem<K>::load(loadElement<Storage>(b, at[2])));
            });
      }
    });
  });
  bind(op->getResult(0), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalWhere(WhereOp op) {
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  const Buffer &condition = get(op.getCondition());
  const Buffer &lhs = get(op.getLhs());
  const Buffer &rhs = get(op.getRhs());
  visitElemKind(*getElemKind(result->elementType), [&](auto tag) {
    using Storage = StorageOf<decltype(tag)::kind>;
    const uint8_t *c = condition.getBytes().data(), *a = lhs.getBytes().data(),
                  *b = rhs.getBytes().data();
    uint8_t *out = result->bytes.data();
    forEachBroadcastElement<3>(*result, {&condition, &lhs, &rhs},
                               [&](const std::array<int64_t, 4> &at) {
                                 storeElement(
                                     out, at[0],
                                     c[at[1]] ? loadElement<Storage>(a, at[2])
                                              : loadElement<Storage>(b, at[3]));
                               });
  });
  bind(op.getResult(), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalComplex(ComplexOp op) {
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  const Buffer &re = get(op.getRe());
  const Buffer &im = get(op.getIm());
  auto build = [&](auto part) {
    using Part = decltype(part);
    const uint8_t *a = re.getBytes().data(), *b = im.getBytes().data();
    uint8_t *out = result->bytes.data();
    forEachBroadcastElement<2>(
        *result, {&re, &im}, [&](const std::array<int64_t, 3> &at) {
          storeElement(out, at[0],
                       semantics::Complex<Part>{loadElement<Part>(a, at[1]),
                                                loadElement<Part>(b, at[2])});
        });
  };
  if (re.elementType.isF32())
    build(float());
  else
    build(double());
  bind(op.getResult(), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalComplexPart(Operation *op, bool imag) {
  FailureOr<Buffer> result = allocate(op, op->getResult(0).getType());
  if (failed(result))
    return failure();
  const Buffer &source = get(op->getOperand(0));
  auto split = [&](auto part) {
    using Part = decltype(part);
    const uint8_t *in = source.getBytes().data();
    uint8_t *out = result->bytes.data();
    int64_t count = getSaturatedNumElements(result->shape);
    for (int64_t i = 0; i < count; ++i) {
      auto z = loadElement<semantics::Complex<Part>>(in, i);
      storeElement(out, i, imag ? z.im : z.re);
    }
  };
  if (result->elementType.isF32())
    split(float());
  else
    split(double());
  bind(op->getResult(0), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalConstant(arith::ConstantOp op) {
  FailureOr<Buffer> result = allocate(op, op.getType());
  if (failed(result))
    return failure();
  unsigned width = *getElementByteWidth(result->elementType);
  auto storeBits = [&](int64_t index, const APInt &bits) {
    // i1 is stored as one byte holding 0 or 1.
    uint64_t raw = bits.zextOrTrunc(64).getZExtValue();
    std::memcpy(result->bytes.data() + index * width, &raw, width);
  };
  Attribute value = op.getValue();
  if (auto floatAttr = dyn_cast<FloatAttr>(value))
    storeBits(0, floatAttr.getValue().bitcastToAPInt());
  else if (auto intAttr = dyn_cast<IntegerAttr>(value))
    storeBits(0, intAttr.getValue());
  else if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(value);
           dense && isa<FloatType>(dense.getElementType()))
    for (auto [i, element] : llvm::enumerate(dense.getValues<APFloat>()))
      storeBits(i, element.bitcastToAPInt());
  else if (dense)
    for (auto [i, element] : llvm::enumerate(dense.getValues<APInt>()))
      storeBits(i, element);
  else
    return op.emitError("unsupported constant ") << value;
  bind(op.getResult(), std::move(*result));
  return success();
}

LogicalResult Evaluator::evalSegment(SegmentOp op) {
  SmallVector<Buffer> inputs;
  for (Value input : op.getInputs())
    inputs.push_back(take(input));
  FailureOr<SmallVector<Buffer>> results =
      runBlock(op.getBody().front(), std::move(inputs));
  if (failed(results))
    return failure();
  for (auto [value, buffer] : llvm::zip_equal(op.getResults(), *results))
    bind(value, std::move(buffer));
  return success();
}

} // namespace

FailureOr<SmallVector<Buffer>>
mlir::fuser::interpret(func::FuncOp func, ArrayRef<Buffer> inputs,
                       const BackendOptions &options) {
  if (func.isExternal())
    return func.emitError("cannot interpret a function without a body");
  if (!func.getBody().hasOneBlock())
    return func.emitError("the interpreter needs a single-block function");
  FunctionType type = func.getFunctionType();
  if (inputs.size() != type.getNumInputs())
    return func.emitError("expected ")
           << type.getNumInputs() << " inputs, got " << inputs.size();
  for (auto [i, input, argType] : llvm::enumerate(inputs, type.getInputs())) {
    FailureOr<uint64_t> bytes = getValueByteSize(input.getType());
    if (failed(bytes) || input.getType() != argType ||
        input.getBytes().size() != *bytes)
      return func.emitError("input ")
             << i << " of type " << input.getType() << " and "
             << input.getBytes().size()
             << " bytes does not fit argument type " << argType;
  }
  // The interpreter reads its inputs where they lie, borrowed from the
  // caller (no copy); they count against the budget until their last use,
  // as the values the run allocates do.
  SmallVector<Buffer> args;
  for (const Buffer &input : inputs) {
    Buffer arg;
    arg.elementType = input.elementType;
    arg.shape = input.shape;
    arg.isScalar = input.isScalar;
    arg.borrowed = input.getBytes();
    args.push_back(std::move(arg));
  }
  ScopedDefaultFloatingPointEnvironment defaultEnvironment;
  Evaluator evaluator(options);
  FailureOr<SmallVector<Buffer>> results =
      evaluator.runBlock(func.getBody().front(), std::move(args));
  if (failed(results))
    return failure();
  // A result that is an input (or a reshape of one) becomes a copy of its
  // own: results own their bytes.
  uint64_t resultBytes = 0;
  for (const Buffer &result : *results)
    resultBytes += result.bytes.size();
  for (auto [i, result] : llvm::enumerate(*results)) {
    if (!result.borrowed)
      continue;
    if (failed(reserveRunBytes(func.getLoc(), options, resultBytes,
                               result.borrowed->size(), "result " + Twine(i),
                               result.getType())))
      return failure();
    result.bytes.assign(result.borrowed->begin(), result.borrowed->end());
    result.borrowed.reset();
  }
  return results;
}

namespace {
/// The interpreter compiles nothing: it walks its copy of the fusion.
class InterpretedFusion : public CompiledFusion {
public:
  InterpretedFusion(func::FuncOp func, const BackendOptions &options)
      : CompiledFusion(func), options(options) {}

private:
  FailureOr<SmallVector<Buffer>>
  runCompiled(ArrayRef<Buffer> inputs) override {
    return interpret(getFunc(), inputs, options);
  }

  BackendOptions options;
};

class InterpreterBackend : public Backend {
public:
  explicit InterpreterBackend(const BackendOptions &options)
      : Backend("interp"), options(options) {}

private:
  FailureOr<std::unique_ptr<CompiledFusion>>
  compileFusion(func::FuncOp func) override {
    return std::unique_ptr<CompiledFusion>(
        std::make_unique<InterpretedFusion>(func, options));
  }

  BackendOptions options;
};
} // namespace

std::unique_ptr<Backend>
mlir::fuser::createInterpreterBackend(const BackendOptions &options) {
  return std::make_unique<InterpreterBackend>(options);
}
