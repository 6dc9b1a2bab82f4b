//===- ShapeUtils.cpp - element counts, byte sizes, strides ---------------===//

#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

std::optional<int64_t> fuser::getCheckedNumElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape) {
    std::optional<int64_t> product = llvm::checkedMul(count, size);
    if (!product)
      return std::nullopt;
    count = *product;
  }
  return count;
}

uint64_t fuser::getSaturatedNumElements(ArrayRef<int64_t> shape) {
  uint64_t count = 1;
  for (int64_t size : shape)
    count = llvm::SaturatingMultiply(count, static_cast<uint64_t>(size));
  return count;
}

uint64_t fuser::getSaturatedNumElements(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type); shaped && shaped.hasRank())
    return getSaturatedNumElements(shaped.getShape());
  return 1;
}

FailureOr<unsigned> fuser::getElementByteWidth(Type elementType) {
  if (!elementType)
    return failure();
  if (elementType.isInteger(1) ||
      isa<Float8E4M3FNType, Float8E5M2Type>(elementType))
    return 1;
  if (elementType.isInteger(32) || elementType.isF32())
    return 4;
  if (elementType.isInteger(64) || elementType.isF64())
    return 8;
  if (elementType.isF16() || elementType.isBF16())
    return 2;
  if (auto complex = dyn_cast<ComplexType>(elementType)) {
    FailureOr<unsigned> part = getElementByteWidth(complex.getElementType());
    if (failed(part))
      return failure();
    return 2 * *part;
  }
  return failure();
}

FailureOr<uint64_t> fuser::getValueByteSize(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor && isa<ShapedType>(type))
    return failure();
  if (tensor && !tensor.hasStaticShape())
    return failure();
  FailureOr<unsigned> width = getElementByteWidth(getElementTypeOrSelf(type));
  if (failed(width))
    return failure();
  return llvm::SaturatingMultiply(static_cast<uint64_t>(*width),
                                  getSaturatedNumElements(type));
}

std::string fuser::formatByteSize(uint64_t bytes) {
  if (bytes == UINT64_MAX)
    return "more than " + std::to_string(bytes) +
           " bytes (the size overflows 64 bits)";
  return std::to_string(bytes) + " bytes";
}

fuser::ByteCount &fuser::ByteCount::operator+=(ByteCount other) {
  bool sumOverflowed = false;
  bytes = llvm::SaturatingAdd(bytes, other.bytes, &sumOverflowed);
  overflowed |= other.overflowed || sumOverflowed;
  return *this;
}

FailureOr<fuser::ByteCount> fuser::getValueByteCount(Type type) {
  // getValueByteSize checks the type, and is exact for a scalar.
  FailureOr<uint64_t> saturated = getValueByteSize(type);
  if (failed(saturated))
    return failure();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return ByteCount{*saturated, /*overflowed=*/false};
  // An empty tensor takes nothing, however large its other dims.
  if (llvm::is_contained(tensor.getShape(), 0))
    return ByteCount{};
  ByteCount count{*getElementByteWidth(tensor.getElementType()),
                  /*overflowed=*/false};
  for (int64_t size : tensor.getShape()) {
    bool productOverflowed = false;
    count.bytes = llvm::SaturatingMultiply(
        count.bytes, static_cast<uint64_t>(size), &productOverflowed);
    count.overflowed |= productOverflowed;
  }
  return count;
}

SmallVector<int64_t> fuser::getRowMajorStrides(ArrayRef<int64_t> shape) {
  return computeSuffixProduct(shape);
}

int64_t fuser::getInnermostNonUnitExtent(ArrayRef<int64_t> shape) {
  auto innermost = llvm::find_if(llvm::reverse(shape),
                                 [](int64_t size) { return size != 1; });
  return innermost == llvm::reverse(shape).end() ? 1 : *innermost;
}
