//===- CastRules.cpp - when cast chains may fold --------------------------===//

#include "fuser/Dialect/Fuser/IR/CastRules.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

/// Bits of precision: significand bits for floats (including the implicit
/// one), value bits for signed integers, 1 for i1. A type can hold every
/// value of another when it has at least as many precision bits and at
/// least the same exponent range; integers are never exact in floats beyond
/// their significand.
bool mlir::fuser::isExactCast(Type from, Type to) {
  if (from == to || from.isInteger(1))
    return true;
  if (from.isInteger(32))
    return to.isInteger(64) || to.isF64();
  if (from.isF16() || from.isBF16())
    return to.isF32() || to.isF64();
  if (from.isF32())
    return to.isF64();
  return false;
}

namespace {
/// Width rank for nvFuser's rule: bitwidth, floats above ints of equal width.
unsigned widthRank(Type type) {
  return 2 * type.getIntOrFloatBitWidth() + (isa<FloatType>(type) ? 1 : 0);
}

bool isAtLeastAsWide(Type wide, Type narrow) {
  // An integer never holds a float's fraction, whatever its width.
  if (isa<IntegerType>(wide) && isa<FloatType>(narrow))
    return false;
  // f16 and bf16 hold different value sets: neither is wider.
  if (wide.getIntOrFloatBitWidth() == 16 &&
      narrow.getIntOrFloatBitWidth() == 16 && wide != narrow &&
      isa<FloatType>(wide) && isa<FloatType>(narrow))
    return false;
  return widthRank(wide) >= widthRank(narrow);
}
} // namespace

bool mlir::fuser::isWideIntermediate(Type from, Type mid, Type to) {
  return isAtLeastAsWide(mid, from) && isAtLeastAsWide(mid, to);
}
