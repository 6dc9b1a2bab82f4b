//===- Buffer.cpp - deterministic inputs and checksums --------------------===//
//
// The input formula and the checksum are part of the product contract
// (docs PRODUCT.md, "Deterministic inputs"): any independent implementation
// must reproduce these bytes, so this file follows it literally.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/Buffer.h"
#include "fuser/ExecutionEngine/Elements.h"

#include "mlir/IR/TypeUtilities.h"

#include <array>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::detail;

Type Buffer::getType() const {
  if (isScalar)
    return elementType;
  return RankedTensorType::get(shape, elementType);
}

namespace {
uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Fills `buffer` with h % tableSize picked from `table`, so each element
/// costs one hash and one table lookup.
template <typename Storage, size_t N>
void fillFromTable(Buffer &buffer, const std::array<Storage, N> &table,
                   uint64_t base) {
  uint8_t *data = buffer.bytes.data();
  size_t count = buffer.bytes.size() / sizeof(Storage);
  for (size_t i = 0; i < count; ++i)
    std::memcpy(data + i * sizeof(Storage), &table[splitmix64(base + i) % N],
                sizeof(Storage));
}
} // namespace

Buffer mlir::fuser::makeDeterministicInput(Type type, unsigned argIndex,
                                           uint64_t seed) {
  Buffer buffer;
  auto tensor = dyn_cast<RankedTensorType>(type);
  buffer.isScalar = !tensor;
  buffer.elementType = tensor ? tensor.getElementType() : type;
  if (tensor)
    buffer.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  std::optional<ElemKind> kind = getElemKind(buffer.elementType);
  if (!kind || (tensor && !tensor.hasStaticShape()))
    return buffer; // Callers check the signature first; nothing to fill.

  int64_t count = tensor ? tensor.getNumElements() : 1;
  uint64_t base = seed * 0x9E3779B97F4A7C15ull +
                  static_cast<uint64_t>(argIndex) * 0x100000001B3ull;
  visitElemKind(*kind, [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    using Storage = StorageOf<K>;
    buffer.bytes.resize(count * sizeof(Storage), 0);
    if constexpr (K == ElemKind::I1) {
      fillFromTable(buffer, std::array<Storage, 2>{0, 1}, base);
    } else if constexpr (isFloatKind<K>) {
      std::array<Storage, 129> table;
      for (int64_t r = 0; r < 129; ++r)
        table[r] = convertTo<K>(static_cast<double>(r - 64) / 8.0);
      fillFromTable(buffer, table, base);
    } else if constexpr (isComplexKind<K>) {
      // Each part as an element of the part's float type: the real part of
      // element i is part 2i, the imaginary part 2i + 1.
      using Part = StorageOf<ComponentKindOf<K>>;
      std::array<Part, 129> table;
      for (int64_t r = 0; r < 129; ++r)
        table[r] = static_cast<Part>(static_cast<double>(r - 64) / 8.0);
      fillFromTable(buffer, table, base);
    } else {
      std::array<Storage, 201> table;
      for (int64_t r = 0; r < 201; ++r)
        table[r] = static_cast<Storage>(r - 100);
      fillFromTable(buffer, table, base);
    }
  });
  return buffer;
}

uint64_t mlir::fuser::fnv1a64(ArrayRef<uint8_t> bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint8_t byte : bytes) {
    hash ^= byte;
    hash *= 0x100000001b3ull;
  }
  return hash;
}
