//===- Compare.cpp - comparing and printing result buffers ----------------===//

#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/ExecutionEngine/Buffer.h"
#include "fuser/ExecutionEngine/Elements.h"

#include <charconv>
#include <functional>
#include <string>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::detail;

bool mlir::fuser::usesTranscendentalOps(func::FuncOp func, bool onCPU) {
  // Everything else the interpreter computes is correctly rounded IEEE
  // arithmetic (sqrt included), which any backend must match bit for bit.
  WalkResult result = func.walk([&](Operation *op) {
    return isTranscendentalOp(op, onCPU) ? WalkResult::interrupt()
                                  : WalkResult::advance();
  });
  return result.wasInterrupted();
}

unsigned mlir::fuser::getResultTolerance(Type elementType,
                                        unsigned tolerance) {
  return isa<FloatType, ComplexType>(elementType) ? tolerance : 0;
}

namespace {
template <ElemKind K> StorageOf<K> loadAt(const Buffer &buffer, size_t i) {
  return bitCast<StorageOf<K>>(buffer.bytes.data() + i * sizeof(StorageOf<K>));
}

/// Maps float bits to integers ordered like the values, -0 one below +0,
/// so that the ulp distance is a difference and a zero of the wrong sign
/// (which the numerics contract distinguishes) is 1 ulp off.
int64_t orderedFloatBits(uint64_t bits, unsigned width) {
  uint64_t signBit = 1ull << (width - 1);
  int64_t magnitude = static_cast<int64_t>(bits & (signBit - 1));
  return (bits & signBit) ? -magnitude - 1 : magnitude;
}

template <ElemKind K>
void accumulateDifference(const Buffer &a, const Buffer &b, size_t count,
                          BufferDifference &diff) {
  using Storage = StorageOf<K>;
  for (size_t i = 0; i < count; ++i) {
    double x = static_cast<double>(Elem<K>::load(loadAt<K>(a, i)));
    double y = static_cast<double>(Elem<K>::load(loadAt<K>(b, i)));
    uint64_t ulps;
    double absError;
    if constexpr (isFloatKind<K>) {
      if (std::isnan(x) || std::isnan(y)) {
        bool both = std::isnan(x) && std::isnan(y);
        ulps = both ? 0 : UINT64_MAX;
        absError = both ? 0 : HUGE_VAL;
      } else {
        uint64_t xBits = 0, yBits = 0;
        Storage xs = loadAt<K>(a, i), ys = loadAt<K>(b, i);
        std::memcpy(&xBits, &xs, sizeof(Storage));
        std::memcpy(&yBits, &ys, sizeof(Storage));
        int64_t xOrd = orderedFloatBits(xBits, 8 * sizeof(Storage));
        int64_t yOrd = orderedFloatBits(yBits, 8 * sizeof(Storage));
        ulps = xOrd > yOrd ? static_cast<uint64_t>(xOrd) - yOrd
                           : static_cast<uint64_t>(yOrd) - xOrd;
        absError = x == y ? 0 : std::fabs(x - y);
      }
    } else {
      absError = std::fabs(x - y);
      int64_t xi = static_cast<int64_t>(Elem<K>::load(loadAt<K>(a, i)));
      int64_t yi = static_cast<int64_t>(Elem<K>::load(loadAt<K>(b, i)));
      ulps = xi > yi ? static_cast<uint64_t>(xi) - yi
                     : static_cast<uint64_t>(yi) - xi;
    }
    diff.maxAbsError = std::max(diff.maxAbsError, absError);
    diff.maxUlpDistance = std::max(diff.maxUlpDistance, ulps);
  }
}
} // namespace

FailureOr<BufferDifference> mlir::fuser::compareBuffers(const Buffer &a,
                                                        const Buffer &b) {
  std::optional<ElemKind> kind = getElemKind(a.elementType);
  if (!kind || a.getType() != b.getType() || a.bytes.size() != b.bytes.size())
    return failure();
  BufferDifference diff;
  visitElemKind(*kind, [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    // Complex elements compare part by part.
    if constexpr (isComplexKind<K>) {
      constexpr ElemKind Part = ComponentKindOf<K>;
      accumulateDifference<Part>(a, b, a.bytes.size() / sizeof(StorageOf<Part>),
                                 diff);
    } else {
      accumulateDifference<K>(a, b, a.bytes.size() / sizeof(StorageOf<K>),
                              diff);
    }
  });
  return diff;
}

namespace {
// (reduction size, absolute tolerance): nvFuser's validator_utils tables,
// measured on randn + add + sum against double precision
// (python/fuser_mlir/_tolerances.py holds the same).
constexpr std::pair<int64_t, double> kSumTolerancesFloat[] = {
    {4, 1.68222e-06},     {8, 2.23704e-06},     {16, 2.95788e-06},
    {32, 4.4778e-06},     {64, 6.75395e-06},    {128, 8.57934e-06},
    {256, 1.30594e-05},   {512, 2.19122e-05},   {1024, 3.3451e-05},
    {2048, 5.78476e-05},  {4096, 0.000108292},  {8192, 0.00012207},
    {16384, 0.000136882}, {32768, 0.000248561}, {65536, 0.000407594},
    {131072, 0.000500901}, {262144, 0.000923019}, {524288, 0.00156909},
    {1048576, 0.00223107}, {2097152, 0.00343043}};
constexpr std::pair<int64_t, double> kSumTolerancesHalf[] = {
    {4, 0.00390625}, {8, 0.0078125},  {16, 0.0078125},   {32, 0.0155334},
    {64, 0.0156269}, {128, 0.0312042}, {256, 0.0312548}, {512, 0.0619979},
    {1024, 0.0625103}, {2048, 0.124686}, {4096, 0.12501}, {8192, 0.24945},
    {16384, 0.250049}, {32768, 0.498946}, {65536, 0.500071},
    {131072, 0.985087}, {262144, 1.00006}, {524288, 1.99234},
    {1048576, 2.00032}, {2097152, 3.99073}};

template <ElemKind K>
void accumulateToleranceRatio(const Buffer &a, const Buffer &b, size_t count,
                              AbsoluteTolerance tolerance, double &ratio);
} // namespace

AbsoluteTolerance mlir::fuser::getReductionTolerance(Type elementType,
                                                     int64_t reductionSize) {
  if (auto complex = dyn_cast<ComplexType>(elementType))
    elementType = complex.getElementType();
  ArrayRef<std::pair<int64_t, double>> table;
  double scale = 1;
  if (elementType.isF32() || elementType.isF64())
    table = kSumTolerancesFloat;
  else if (elementType.isF16())
    table = kSumTolerancesHalf;
  else if (elementType.isBF16())
    table = kSumTolerancesHalf, scale = 10;
  else
    return {};
  if (reductionSize <= 1)
    return {table[0].second, table[1].second};
  size_t entry = llvm::find_if(table, [&](auto row) {
                   return row.first >= reductionSize;
                 }) -
                 table.begin();
  double atol = entry + 1 < table.size() ? table[entry + 1].second
                                         : table.back().second * 2;
  return {atol * scale, atol * 0.01 * scale};
}

SmallVector<std::optional<int64_t>>
mlir::fuser::getLibraryReductionSizes(func::FuncOp func) {
  // value -> (combined elements, whether a library op computes into it),
  // in one post-order walk (a segment's body before the segment; defs
  // before uses), so that chains of any length take no stack.
  DenseMap<Value, std::pair<int64_t, bool>> sizes;
  auto sizeOf = [&](Value value) {
    return sizes.lookup_or(value, std::pair<int64_t, bool>{1, false});
  };
  func.walk<WalkOrder::PostOrder>([&](Operation *op) {
    std::pair<int64_t, bool> size{1, false};
    auto combine = [&](std::pair<int64_t, bool> of) {
      size = {std::max(size.first, of.first), size.second || of.second};
    };
    for (Value operand : op->getOperands())
      combine(sizeOf(operand));
    if (auto library = dyn_cast<LibraryOpInterface>(op)) {
      size.first *= library.getReductionSize();
      size.second = true;
    } else if (auto reduction = dyn_cast<ReductionOp>(op)) {
      ArrayRef<int64_t> shape = reduction.getSource().getType().getShape();
      for (int64_t dim : reduction.getDims())
        size.first *= shape[dim];
    }
    // A segment's results: what its body yields (its arguments stand for
    // the inputs, whose sizes are the operands').
    auto segment = dyn_cast<SegmentOp>(op);
    auto yield = segment ? cast<YieldOp>(segment.getBody().front().getTerminator())
                         : YieldOp();
    for (OpResult result : op->getResults()) {
      std::pair<int64_t, bool> of = size;
      if (yield) {
        std::pair<int64_t, bool> body =
            sizeOf(yield.getValues()[result.getResultNumber()]);
        of = {std::max(of.first, body.first), of.second || body.second};
      }
      sizes[result] = of;
    }
  });
  auto returnOp = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  SmallVector<std::optional<int64_t>> result;
  for (Value returned : returnOp.getOperands()) {
    std::pair<int64_t, bool> size = sizeOf(returned);
    result.push_back(size.second ? std::optional<int64_t>(size.first)
                                 : std::nullopt);
  }
  return result;
}

FailureOr<double> mlir::fuser::getToleranceRatio(const Buffer &a,
                                                 const Buffer &b,
                                                 AbsoluteTolerance tolerance) {
  std::optional<ElemKind> kind = getElemKind(a.elementType);
  if (!kind || a.getType() != b.getType() || a.bytes.size() != b.bytes.size())
    return failure();
  double ratio = 0;
  visitElemKind(*kind, [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    if constexpr (isComplexKind<K>) {
      constexpr ElemKind Part = ComponentKindOf<K>;
      accumulateToleranceRatio<Part>(
          a, b, a.bytes.size() / sizeof(StorageOf<Part>), tolerance, ratio);
    } else if constexpr (isFloatKind<K>) {
      accumulateToleranceRatio<K>(a, b, a.bytes.size() / sizeof(StorageOf<K>),
                                  tolerance, ratio);
    } else {
      ratio = a.bytes == b.bytes ? 0 : HUGE_VAL;
    }
  });
  return ratio;
}

namespace {
template <ElemKind K>
void accumulateToleranceRatio(const Buffer &a, const Buffer &b, size_t count,
                              AbsoluteTolerance tolerance, double &ratio) {
  for (size_t i = 0; i < count; ++i) {
    double x = static_cast<double>(Elem<K>::load(loadAt<K>(a, i)));
    double y = static_cast<double>(Elem<K>::load(loadAt<K>(b, i)));
    if (x == y || (std::isnan(x) && std::isnan(y)))
      continue;
    double allowed = tolerance.atol + tolerance.rtol * std::fabs(y);
    double excess = std::fabs(x - y) / allowed;
    ratio = std::max(ratio, std::isnan(excess) ? HUGE_VAL : excess);
  }
}

/// The shortest decimal that reads back as the same value in the compute
/// type (f32 for f16/bf16, so they print their exact value).
template <ElemKind K> std::string formatFloat(StorageOf<K> stored, bool json) {
  ComputeOf<K> value = Elem<K>::load(stored);
  if (std::isnan(value))
    return json ? "NaN" : "nan";
  if (std::isinf(value))
    return std::string(value < 0 ? "-" : "") + (json ? "Infinity" : "inf");
  char text[64];
  std::to_chars_result end = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, end.ptr);
}

template <ElemKind K>
void printNested(llvm::raw_ostream &os, const Buffer &buffer, size_t dim,
                 size_t &index, bool json) {
  if (dim == buffer.shape.size()) {
    StorageOf<K> stored = loadAt<K>(buffer, index++);
    if constexpr (K == ElemKind::I1)
      os << (stored ? "true" : "false");
    else if constexpr (isFloatKind<K>)
      os << formatFloat<K>(stored, json);
    else if constexpr (isComplexKind<K>) {
      std::string re = formatFloat<ComponentKindOf<K>>(stored.re, json);
      std::string im = formatFloat<ComponentKindOf<K>>(stored.im, json);
      // JSON: [re, im]; text: Python's spelling, (1+2j), (-0-infj).
      if (json)
        os << '[' << re << ", " << im << ']';
      else
        os << '(' << re << (im.front() == '-' ? "" : "+") << im << "j)";
    } else
      os << stored;
    return;
  }
  os << '[';
  for (int64_t i = 0; i < buffer.shape[dim]; ++i) {
    if (i)
      os << ", ";
    printNested<K>(os, buffer, dim + 1, index, json);
  }
  os << ']';
}
} // namespace

void mlir::fuser::printBufferValues(llvm::raw_ostream &os, const Buffer &buffer,
                                    bool json) {
  std::optional<ElemKind> kind = getElemKind(buffer.elementType);
  if (!kind)
    return;
  visitElemKind(*kind, [&](auto tag) {
    size_t index = 0;
    printNested<decltype(tag)::kind>(os, buffer, 0, index, json);
  });
}
