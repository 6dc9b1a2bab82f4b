//===- Compare.cpp - comparing and printing result buffers ----------------===//

#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/ExecutionEngine/Buffer.h"
#include "fuser/ExecutionEngine/Elements.h"

#include <charconv>
#include <string>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::detail;

bool mlir::fuser::usesTranscendentalOps(func::FuncOp func) {
  // Everything else the interpreter computes is correctly rounded IEEE
  // arithmetic (sqrt included), which any backend must match bit for bit.
  WalkResult result = func.walk([](Operation *op) {
    return isTranscendentalOp(op) ? WalkResult::interrupt()
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
