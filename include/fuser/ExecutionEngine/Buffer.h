//===- Buffer.h - values every backend consumes and produces ----*- C++ -*-===//
//
// The execution layer's data: a value held as raw little-endian row-major
// bytes, the deterministic inputs of PRODUCT.md, the FNV-1a checksum, and
// the bit-level comparison and printing of results. Every backend (the
// interpreter, the CPU and CUDA kernels) reads and writes these buffers, so
// results are hashed and compared the same way whichever backend made them.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_BUFFER_H
#define FUSER_EXECUTIONENGINE_BUFFER_H

#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "fuser/ExecutionEngine/HostBlockCache.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <utility>
#include <vector>

namespace mlir::fuser {

/// Allocates 64-byte aligned storage, as the kernels' buffers on a GPU
/// (cuMemAlloc: 256) and the CPU backend's, so that kernels on the CPU read
/// and write a Buffer's own elements and the memory report counts the same
/// sectors for every buffer. Large blocks are reused (HostBlockCache.h).
/// Elements made without a value are default-initialized, so left as they
/// are: `resize(n)` gives uninitialized storage (as torch.empty does, for
/// outputs a kernel writes whole), `resize(n, 0)` zeroes it.
template <typename T> struct AlignedAllocator {
  using value_type = T;
  AlignedAllocator() = default;
  template <typename U> AlignedAllocator(const AlignedAllocator<U> &) {}
  T *allocate(std::size_t n) {
    return static_cast<T *>(allocateHostBlock(n * sizeof(T)));
  }
  void deallocate(T *p, std::size_t n) {
    deallocateHostBlock(p, n * sizeof(T));
  }
  template <typename U> void construct(U *p) noexcept {
    ::new (static_cast<void *>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U *p, Args &&...args) {
    ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
  }
  template <typename U> bool operator==(const AlignedAllocator<U> &) const {
    return true;
  }
  template <typename U> bool operator!=(const AlignedAllocator<U> &) const {
    return false;
  }
};

/// The elements of a Buffer.
using ByteVector = std::vector<uint8_t, AlignedAllocator<uint8_t>>;

/// A tensor (or, with an empty shape and isScalar, a scalar) value.
struct Buffer {
  Type elementType;
  SmallVector<int64_t> shape;
  bool isScalar = false;
  /// Row-major elements, little-endian, i1 as one byte (0 or 1).
  ByteVector bytes;
  /// Or the same, borrowed from the caller (an array a Python run passes
  /// without copying), who keeps it alive and unchanged while a backend runs
  /// on it. Backends read inputs through getBytes(); they never write them.
  std::optional<ArrayRef<uint8_t>> borrowed;

  /// The elements: the borrowed ones, else `bytes`.
  ArrayRef<uint8_t> getBytes() const {
    return borrowed ? *borrowed : ArrayRef<uint8_t>(bytes);
  }

  /// The MLIR type of this value (tensor<...> or the scalar type).
  Type getType() const;
};

/// The deterministic input of PRODUCT.md for argument `argIndex` of `type`.
Buffer makeDeterministicInput(Type type, unsigned argIndex, uint64_t seed);

/// FNV-1a 64 over `bytes`.
uint64_t fnv1a64(ArrayRef<uint8_t> bytes);

/// Whether `func` holds ops whose results depend on the math library
/// (exp, log, sin, ...), so that backends may differ by a few ulp; `onCPU`:
/// on the CPU backend (isTranscendentalOp).
bool usesTranscendentalOps(func::FuncOp func, bool onCPU = false);

/// The ulp distance two backends may be apart on such fusions.
constexpr unsigned kTranscendentalUlpTolerance = 4;

/// The part of a fusion's ulp `tolerance` that applies to a result of
/// `elementType`: float and complex results may be that far apart, integer
/// and boolean ones (a predicate or a cast of a transcendental value
/// included) must be equal.
unsigned getResultTolerance(Type elementType, unsigned tolerance);

/// nvFuser's tolerance for a result that depends on matmul or linear
/// (FusionDefinition.validate, its validator_utils getTolerance; the same
/// table as python/fuser_mlir/_tolerances.py): the absolute and relative
/// tolerance for an element of `elementType` whose value combines
/// `reductionSize` elements (K of each contraction and the extents of each
/// reduction along the chain that computes it). f32/f64 take the float
/// table, f16 the half table, bf16 ten times it.
struct AbsoluteTolerance {
  double atol = 0, rtol = 0;
};
AbsoluteTolerance getReductionTolerance(Type elementType,
                                        int64_t reductionSize);

/// For each result of fusion `func`: how many elements the reductions and
/// contractions it depends on combine (products along a chain, the largest
/// over operands), when it depends on a library op (matmul, linear), whose
/// results backends add in different orders; nullopt when it does not.
/// One walk of `func` for all results.
SmallVector<std::optional<int64_t>> getLibraryReductionSizes(func::FuncOp func);

/// The largest |a - b| / (atol + rtol * |b|) over the elements (0 where
/// they are equal, NaN against NaN included; infinite for NaN against a
/// number); failure if their types or shapes differ.
FailureOr<double> getToleranceRatio(const Buffer &a, const Buffer &b,
                                    AbsoluteTolerance tolerance);

/// How far two buffers of the same type and shape are apart.
struct BufferDifference {
  /// Largest |a - b| over the elements; infinite where exactly one is NaN
  /// or the infinities differ.
  double maxAbsError = 0;
  /// Largest distance in units in the last place of the element type (for
  /// integers, the difference itself); -0.0 against +0.0 counts as 1, NaN
  /// against NaN (any payload) as 0, NaN against a number as UINT64_MAX.
  uint64_t maxUlpDistance = 0;
};

/// Compares `a` and `b`; failure if their types or shapes differ.
FailureOr<BufferDifference> compareBuffers(const Buffer &a, const Buffer &b);

/// Prints the elements of `buffer` as nested lists, row-major. With `json`,
/// non-finite floats are spelled NaN/Infinity/-Infinity (as Python's json
/// module reads them) and i1 as true/false in both forms.
void printBufferValues(llvm::raw_ostream &os, const Buffer &buffer, bool json);

} // namespace mlir::fuser

#endif // FUSER_EXECUTIONENGINE_BUFFER_H
