//===- CastRules.h - when cast chains may fold ------------------*- C++ -*-===//

#ifndef FUSER_DIALECT_FUSER_IR_CASTRULES_H
#define FUSER_DIALECT_FUSER_IR_CASTRULES_H

#include "mlir/IR/Types.h"

namespace mlir::fuser {

/// True when every value of element type `from` is exactly representable in
/// `to`, so that cast(cast(x : from -> to) : to -> C) equals
/// cast(x : from -> C) for every C (and x itself when C == from).
bool isExactCast(Type from, Type to);

/// nvFuser's looser rule: `mid` is at least as wide as both `from` and `to`
/// (floats count as wider than integers of the same width; an integer is
/// never wider than a float), so the chain from -> mid -> to may be
/// shortened to from -> to. This changes results when from -> mid is not
/// exact: i64 -> f64 -> i32 becomes i64 -> i32, which wraps where the chain
/// saturates, and large i64 values lose their rounding to f64.
bool isWideIntermediate(Type from, Type mid, Type to);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_IR_CASTRULES_H
