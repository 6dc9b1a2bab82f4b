//===- FuserToArith.h - fuser element semantics in arith/math ---*- C++ -*-===//
//
// The numeric semantics of the fuser elementwise ops, casts and reduction
// combiners, emitted as arith/math (and vector) ops on loaded elements. Both
// kernel paths (GPU and the CPU backend) compute through these functions, so
// the semantics exist once; they match the interpreter bit for bit (within
// the ulp tolerance for transcendental ops), including the cases where arith
// alone is undefined or poison but the fuser ops are defined (integer x / 0,
// INT_MIN / -1, float -> int out of range and NaN), which are guarded here.
//
// Values are scalars or vectors (vector<N x T>) of element types; all
// operands of one call have the same shape (callers splat scalars first).
// Elements are passed in their storage type (the tensor's element type, e.g.
// bf16); f16/bf16 arithmetic is computed in f32 and rounded to nearest even
// once per op, as the interpreter does.
//
// The emitted ops are from the arith, math and vector dialects, scf.while
// (integer pow, gcd) and func.call of libdevice functions where MLIR's math
// lowering has no exact form (erfinv, erfcinv, lgamma, expm1, log1p, fmod;
// declared in the nearest symbol table, bound to host functions by the CPU
// backend), so those dialects must be loaded; the guards of each undefined
// arith case are listed in docs/Lowering.md, "Element semantics".
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_CONVERSION_FUSERTOARITH_FUSERTOARITH_H
#define FUSER_CONVERSION_FUSERTOARITH_FUSERTOARITH_H

#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::fuser {

/// The element type arithmetic on `storageType` elements is computed in:
/// f32 for f16 and bf16, the type itself otherwise.
Type getComputeType(Type storageType);

/// Converts `value` (scalar or vector) to element type `to` with the
/// semantics of fuser.cast: floats round to nearest even (once, also from
/// f64 to f16/bf16), float -> int truncates toward zero and saturates (NaN
/// gives 0), anything -> i1 is `!= 0`, i1 -> numbers is 0/1, integers wrap
/// (narrowing) or sign-extend (widening).
Value emitCast(OpBuilder &builder, Location loc, Value value, Type to);

/// Emits elementwise op `op` (a unary, binary or compare fuser op, where,
/// or cast) applied to `operands` in storage types; returns the result in
/// the element type of op's result, shaped like the operands. Fails with a
/// diagnostic on `op` for any other op.
FailureOr<Value> emitElementwise(OpBuilder &builder, Location loc,
                                 Operation *op, ValueRange operands);

/// Expands the `complex` dialect arithmetic under `root` (what
/// emitElementwise emits for complex elements) into arith/math on the parts
/// with upstream's convert-complex-to-standard patterns (complex-range
/// improved), which ComplexSemantics.h mirrors. Folding is off: the complex
/// folders rewrite inexactly (log(exp(x)) to x, add(sub(a, b), b) to a).
/// The expansion's math.expm1 and math.rsqrt become what fuser.expm1 and
/// fuser.rsqrt lower to. create, re, im and constant remain for the LLVM
/// lowering.
LogicalResult expandComplexArithmetic(Operation *root);

/// The start value of a reduction of `kind` in `computeType` (scalar or
/// vector): -0.0 for float add (so that a reduction over size-1 dims is
/// exactly a squeeze), 1 for mul, -inf / INT_MIN for max, +inf / INT_MAX for
/// min.
Value emitReductionIdentity(OpBuilder &builder, Location loc,
                            ReductionKind kind, Type computeType);

/// combine(accumulator, element) of a reduction of `kind`, both in the
/// compute type: wrapping integer add/mul, float add/mul, and max/min that
/// propagate NaN and order -0.0 below +0.0 (arith.maximumf/minimumf).
Value emitReductionCombine(OpBuilder &builder, Location loc, ReductionKind kind,
                           Value accumulator, Value element);

} // namespace mlir::fuser

#endif // FUSER_CONVERSION_FUSERTOARITH_FUSERTOARITH_H
