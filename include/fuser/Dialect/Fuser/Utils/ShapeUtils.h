//===- ShapeUtils.h - element counts, byte sizes, strides -------*- C++ -*-===//
//
// The one place that counts elements and bytes of fuser values and computes
// row-major strides. Shapes that verify can hold more elements than 64 bits
// count (ShapedType::getNumElements wraps silently), so every count here
// either reports the overflow or saturates, and says which in its name.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_UTILS_SHAPEUTILS_H
#define FUSER_DIALECT_FUSER_UTILS_SHAPEUTILS_H

#include "mlir/IR/Types.h"

#include <string>
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <optional>

namespace mlir::fuser {

/// The number of elements of `shape`, or nullopt where it overflows int64.
std::optional<int64_t> getCheckedNumElements(ArrayRef<int64_t> shape);

/// The number of elements of `shape`, saturated at UINT64_MAX.
uint64_t getSaturatedNumElements(ArrayRef<int64_t> shape);

/// The number of elements of a value of `type`: 1 for a scalar, saturated
/// at UINT64_MAX for a tensor.
uint64_t getSaturatedNumElements(Type type);

/// Bytes per element of a fuser element type (i1 takes one byte), or
/// failure for any other type.
FailureOr<unsigned> getElementByteWidth(Type elementType);

/// Bytes a value of `type` (a statically shaped tensor or a scalar of a
/// fuser element type) takes, saturating at UINT64_MAX instead of wrapping;
/// failure for any other type.
FailureOr<uint64_t> getValueByteSize(Type type);

/// "<bytes> bytes", for a size getValueByteSize gave: a saturated one reads
/// "more than 18446744073709551615 bytes (the size overflows 64 bits)".
std::string formatByteSize(uint64_t bytes);

/// A number of bytes that saturates at UINT64_MAX and remembers that it
/// did: a saturated count alone cannot tell "exactly UINT64_MAX" from "more
/// than fits", and a wrapped one would print as a small, plausible number.
struct ByteCount {
  uint64_t bytes = 0;
  /// Whether the true count exceeds UINT64_MAX (then `bytes` is UINT64_MAX).
  bool overflowed = false;

  ByteCount &operator+=(ByteCount other);
  friend ByteCount operator+(ByteCount lhs, ByteCount rhs) {
    return lhs += rhs;
  }
  bool operator==(const ByteCount &other) const {
    return bytes == other.bytes && overflowed == other.overflowed;
  }
};

/// Bytes a value of `type` takes, like getValueByteSize, but remembering
/// overflow: an empty tensor takes 0 bytes (without overflow), however large
/// its other dims; failure for a type getValueByteSize rejects.
FailureOr<ByteCount> getValueByteCount(Type type);

/// Row-major (contiguous) strides of `shape`, in elements (upstream's
/// computeSuffixProduct); empty for a scalar shape. Unchecked: the strides
/// are exact only where the element count fits in int64, which the caller
/// makes sure of (the interpreter's buffers always fit).
SmallVector<int64_t> getRowMajorStrides(ArrayRef<int64_t> shape);

/// The innermost extent of `shape` other than 1 (1 where there is none):
/// the innermost extent of the tensor a squeeze of its extent-1 axes reads.
int64_t getInnermostNonUnitExtent(ArrayRef<int64_t> shape);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_UTILS_SHAPEUTILS_H
