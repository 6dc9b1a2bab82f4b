//===- ComplexFunctions.h - complex functions of several steps --*- C++ -*-===//
//
// The complex unary functions that upstream's `complex` dialect has no op
// for (sinh, cosh, asin, acos, atan, asinh, acosh, atanh, log10, log2,
// sigmoid), emitted as ComplexSemantics.h defines them: nvFuser's runtime
// special cases, then its formula from `complex` ops and real part ops; and
// the functions upstream has an op for whose special values (infinite, NaN
// or zero parts) ComplexSemantics.h takes from libc++ instead.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_FUSERTOARITH_COMPLEXFUNCTIONS_H
#define LIB_CONVERSION_FUSERTOARITH_COMPLEXFUNCTIONS_H

#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::fuser {

/// How a real unary op on a part lowers (FuserToArith's emitUnary), so that
/// the parts compute as the real ops do.
using RealUnaryEmitter = llvm::function_ref<Value(UnaryKind, Value)>;

/// `kind`, one of the functions above, or abs, exp, log, sqrt, rsqrt,
/// reciprocal, sin, cos, tan or tanh (upstream's op with libc++'s special
/// values as selects), of the complex scalar `z`.
Value emitComposedComplexUnary(OpBuilder &b, Location loc, UnaryKind kind,
                               Value z, RealUnaryEmitter realUnary);

/// mul, div or pow of complex scalars: upstream's op with libc++'s special
/// values (mul's recovery of infinities, div's infinite denominator, pow's
/// e^(y log x) for infinite or NaN parts) as selects.
Value emitComplexBinaryFunction(OpBuilder &b, Location loc, BinaryKind kind,
                                Value x, Value y, RealUnaryEmitter realUnary);

} // namespace mlir::fuser

#endif // LIB_CONVERSION_FUSERTOARITH_COMPLEXFUNCTIONS_H
