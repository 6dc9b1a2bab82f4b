//===- CastRules.h - when cast chains may fold ------------------*- C++ -*-===//

#ifndef FUSER_DIALECT_FUSER_IR_CASTRULES_H
#define FUSER_DIALECT_FUSER_IR_CASTRULES_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::fuser {

/// True when every value of element type `from` is exactly representable in
/// `to`, so that cast(cast(x : from -> to) : to -> C) equals
/// cast(x : from -> C) for every C (and x itself when C == from). Over the
/// fuser element types this is nvFuser's `isInclusiveType(from, to)`
/// (csrc/type.cpp) restricted to the fuser element types.
bool isExactCast(Type from, Type to);

/// nvFuser's ConsecutiveCastPass (csrc/preseg_passes/consecutive_cast.cpp,
/// `removeChainedCasts`) on one straight chain of casts. `chain` holds the
/// element types start, t1, ..., tn: the chain's source, then the result of
/// each cast in order (tn is the chain's output). Returns the element types
/// of the rewired chain, a subsequence of `chain` that starts with the same
/// start and ends with tn, or just {start} when the chain folds to its
/// source (then tn == start).
///
/// The rule: walk from the start, keeping `lo_anchor`, the narrowest type
/// seen since the current section start. A cast to a type that includes
/// the anchor (isExactCast(anchor, t)) is skipped; a cast to a type the
/// anchor includes becomes the new anchor (the earlier narrowing is
/// dropped); a cast to an incompatible type (f16 vs bf16, an integer vs a
/// float that does not hold it) keeps `section start -> lo_anchor -> t` and
/// starts a new section at t. At the end the section folds to
/// `section start -> tn` when the anchor includes tn, else to
/// `section start -> lo_anchor -> tn`.
///
/// Dropping a narrowing step is not exact: f64 -> f32 -> f16 becomes
/// f64 -> f16 (one rounding instead of two), f32 -> f16 -> i1 becomes
/// f32 -> i1 (1e-8 stays true), i64 -> i32 -> i1 becomes i64 -> i1 (2^32
/// stays true). That is why the fold is opt-in (`fold-lossy-cast-chains`).
SmallVector<Type> foldCastChainLossy(ArrayRef<Type> chain);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_IR_CASTRULES_H
