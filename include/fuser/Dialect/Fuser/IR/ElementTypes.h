//===- ElementTypes.h - the fuser element types -----------------*- C++ -*-===//
//
// Which builtin types a fusion's tensors and scalars may have
// (FuserBase.td's Fuser_ElementType), and which of them arithmetic takes.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_ELEMENTTYPES_H
#define FUSER_DIALECT_FUSER_IR_ELEMENTTYPES_H

#include "mlir/IR/Types.h"

#include <cstdint>

namespace mlir::fuser {

/// The layout of an 8-bit float: OCP's E4M3FN (no infinities, one NaN
/// mantissa) or E5M2 (IEEE-like: infinities and NaNs).
struct Float8Format {
  unsigned mantissaBits;
  unsigned bias;
  uint8_t maxFinite; // The largest finite magnitude's bits.
  uint8_t nan;       // The NaN conversions produce (sign added).
  bool hasInfinity;
};
inline constexpr Float8Format kFloat8E4M3FN = {3, 7, 0x7e, 0x7f, false};
inline constexpr Float8Format kFloat8E5M2 = {2, 15, 0x7b, 0x7e, true};

/// f8E4M3FN or f8E5M2: nvFuser's storage-only 8-bit floats, which only move
/// and cast.
bool isFloat8Type(Type type);

/// The layout of 8-bit float type `type` (isFloat8Type).
const Float8Format &getFloat8Format(Type type);

/// complex<f32> or complex<f64> (nvFuser's ComplexFloat and ComplexDouble).
bool isComplexElementType(Type type);

/// `type` (a scalar or tensor type) with a complex element type replaced by
/// its component type (f32 or f64); other types unchanged.
Type getComplexPartType(Type type);

/// i1, i32, i64, f16, bf16, f32, f64, complex<f32> or complex<f64>: the
/// types arithmetic takes.
bool isArithmeticElementType(Type type);

/// Any fuser element type: the arithmetic ones and the 8-bit floats.
bool isFuserElementType(Type type);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_IR_ELEMENTTYPES_H
