//===- DeviceMath.h - PTX arithmetic on the host ----------------*- C++ -*-===//
//
// What the emulator calls for the NVVM arithmetic intrinsics and libdevice's
// inline PTX that the host has no instruction for: the rounding-mode forms
// (`fma.rm.f`, `add.rz.d`, `sub.rp.ftz.f32`, ...), computed exactly with
// APFloat in the requested mode; the `.ftz` forms, which flush subnormal
// inputs and results to zero of the same sign; and the `.approx` forms,
// computed with the host's correctly or nearly correctly rounded libm, which
// is within the error bound the PTX ISA documents for each (so results agree
// with the GPU's only to those bounds; docs/Lowering.md lists them).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_LIB_EXECUTIONENGINE_SIMT_DEVICEMATH_H
#define FUSER_LIB_EXECUTIONENGINE_SIMT_DEVICEMATH_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::fuser::simt {

/// The operations of the rounding-mode forms.
enum class ArithOp : uint32_t { Add, Sub, Mul, Div, Fma, Rcp, Sqrt };
/// PTX's rounding modifiers: .rn, .rz, .rm, .rp.
enum class Rounding : uint32_t { Nearest, TowardZero, Down, Up };
/// The `.approx` instructions.
enum class ApproxOp : uint32_t { Ex2, Lg2, Sin, Cos, Rcp, Rsqrt, Sqrt, Div };

std::optional<ArithOp> parseArithOp(llvm::StringRef name);
std::optional<Rounding> parseRounding(llvm::StringRef name);
std::optional<ApproxOp> parseApproxOp(llvm::StringRef name);

extern "C" {
/// `op` (ArithOp) of a, b, c (unused operands ignored) rounded as `mode`
/// (Rounding); `ftz` flushes subnormal inputs and the result.
float fuserSimtArithF32(uint32_t op, uint32_t mode, uint32_t ftz, float a,
                        float b, float c);
double fuserSimtArithF64(uint32_t op, uint32_t mode, uint32_t ftz, double a,
                         double b, double c);
/// `op` (ApproxOp) of a (Div: a / b); `ftz` flushes subnormal inputs and
/// the result.
float fuserSimtApproxF32(uint32_t op, uint32_t ftz, float a, float b);
double fuserSimtApproxF64(uint32_t op, uint32_t ftz, double a, double b);
/// `d2f.<mode>[.ftz]`: `a` rounded to f32 as `mode`.
float fuserSimtDoubleToFloat(uint32_t mode, uint32_t ftz, double a);
/// `saturate`: clamped to [0, 1], NaN to 0.
float fuserSimtSaturateF32(uint32_t ftz, float a);
double fuserSimtSaturateF64(uint32_t ftz, double a);
}

} // namespace mlir::fuser::simt

#endif // FUSER_LIB_EXECUTIONENGINE_SIMT_DEVICEMATH_H
