//===- ExpandMath.h - f32 math as the interpreter computes it ---*- C++ -*-===//
//
// The patterns of fuser-expand-math: math.exp, math.log, math.tanh and
// math.erf on f32 scalars and vectors become the arith/math sequences of
// PortableMath.h, which the reference interpreter evaluates one float at a
// time.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_CONVERSION_EXPANDMATH_EXPANDMATH_H
#define FUSER_CONVERSION_EXPANDMATH_EXPANDMATH_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::fuser {

void populateExpandMathPatterns(RewritePatternSet &patterns);

} // namespace mlir::fuser

#endif // FUSER_CONVERSION_EXPANDMATH_EXPANDMATH_H
