//===- CastRules.cpp - when cast chains may fold --------------------------===//

#include "fuser/Dialect/Fuser/IR/CastRules.h"
#include "fuser/Dialect/Fuser/IR/ElementTypes.h"

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
  if (isFloat8Type(from))
    return to.isF16() || to.isBF16() || to.isF32() || to.isF64();
  return false;
}

/// nvFuser's `removeChainedCasts` (consecutive_cast.cpp), step for step:
/// `isInclusiveType(base, wider)` is isExactCast(base, wider) over the fuser
/// types, and the rewiring is recorded as the list of kept types.
SmallVector<Type> mlir::fuser::foldCastChainLossy(ArrayRef<Type> chain) {
  assert(!chain.empty() && "a chain has at least its start");
  // 1.3.1: starting_anchor and lo_anchor point at the chain's start.
  SmallVector<Type> kept = {chain.front()};
  Type anchor = chain.front();
  bool anchorIsStart = true; // lo_anchor == starting_anchor
  Type output = chain.back();
  for (Type type : chain.drop_front().drop_back()) {
    // 1.3.2.a: a cast to a type that includes the anchor loses nothing.
    if (isExactCast(anchor, type))
      continue;
    // 1.3.2.c: incompatible types: keep starting_anchor -> lo_anchor -> type
    // and start the next section at type.
    if (!isExactCast(type, anchor)) {
      if (!anchorIsStart)
        kept.push_back(anchor);
      kept.push_back(type);
      anchor = type;
      anchorIsStart = true;
      continue;
    }
    // 1.3.2.b: type is narrower: the cast to the old anchor is dropped.
    anchor = type;
    anchorIsStart = false;
  }
  // 1.4.a: the anchor includes the output: starting_anchor -> output (or
  // starting_anchor itself when it has the output type).
  if (isExactCast(output, anchor)) {
    if (kept.back() != output)
      kept.push_back(output);
    return kept;
  }
  // 1.4.b: starting_anchor -> lo_anchor -> output.
  if (!anchorIsStart)
    kept.push_back(anchor);
  kept.push_back(output);
  return kept;
}
