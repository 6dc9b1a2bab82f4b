//===- Elements.h - element storage and conversions -------------*- C++ -*-===//
//
// How each fuser element type is stored in a Buffer and the type in which the
// interpreter computes its arithmetic. f16, bf16 and the fp8 types are stored
// as raw bits and computed in f32; the bit conversions here are exact
// (widening) and round to nearest even (narrowing), without APFloat in the
// hot loops. FuserToArith emits the same fp8 conversions op for op.
// complex<f32> and complex<f64> are stored as (re, im) and computed as
// semantics::Complex (ComplexSemantics.h).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_ELEMENTS_H
#define FUSER_EXECUTIONENGINE_ELEMENTS_H

#include "fuser/Dialect/Fuser/IR/ComplexSemantics.h"
#include "fuser/Dialect/Fuser/IR/ElementTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

namespace mlir::fuser::detail {

enum class ElemKind {
  I1,
  I32,
  I64,
  F16,
  BF16,
  F32,
  F64,
  F8E4M3FN,
  F8E5M2,
  C64,
  C128
};

inline std::optional<ElemKind> getElemKind(Type type) {
  if (!type)
    return std::nullopt;
  if (type.isInteger(1))
    return ElemKind::I1;
  if (type.isInteger(32))
    return ElemKind::I32;
  if (type.isInteger(64))
    return ElemKind::I64;
  if (type.isF16())
    return ElemKind::F16;
  if (type.isBF16())
    return ElemKind::BF16;
  if (type.isF32())
    return ElemKind::F32;
  if (type.isF64())
    return ElemKind::F64;
  if (isa<Float8E4M3FNType>(type))
    return ElemKind::F8E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return ElemKind::F8E5M2;
  if (auto complex = dyn_cast<ComplexType>(type)) {
    if (complex.getElementType().isF32())
      return ElemKind::C64;
    if (complex.getElementType().isF64())
      return ElemKind::C128;
  }
  return std::nullopt;
}

template <typename T> T bitCast(const void *from) {
  T to;
  std::memcpy(&to, from, sizeof(T));
  return to;
}

inline float halfToFloat(uint16_t half) {
  uint32_t sign = static_cast<uint32_t>(half & 0x8000) << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | (mantissa << 13);
  } else if (exponent == 0) {
    // Subnormal (or zero): mantissa * 2^-24 is exact in f32.
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    bits = sign | bitCast<uint32_t>(&magnitude);
  } else {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  }
  return bitCast<float>(&bits);
}

inline uint16_t floatToHalf(float value) {
  uint32_t bits = bitCast<uint32_t>(&value);
  uint16_t sign = (bits >> 16) & 0x8000;
  bits &= 0x7fffffff;
  if (bits > 0x7f800000) // NaN: quiet, keeping the top payload bits.
    return sign | 0x7e00 | ((bits >> 13) & 0x3ff);
  if (bits >= 0x477ff000) // At or above the midpoint 65520: infinity.
    return sign | 0x7c00;
  if (bits < 0x38800000) {
    // Below the smallest normal 2^-14: the subnormal mantissa is |x| * 2^24
    // rounded to nearest even (1024 carries into the smallest normal).
    float magnitude = bitCast<float>(&bits);
    return sign |
           static_cast<uint16_t>(std::nearbyint(std::ldexp(magnitude, 24)));
  }
  // Rebias the exponent (127 -> 15) and round the 13 dropped bits to nearest
  // even; a carry correctly bumps the exponent.
  uint32_t rebiased = bits - 0x38000000;
  return sign | static_cast<uint16_t>(
                    (rebiased + 0xfff + ((rebiased >> 13) & 1)) >> 13);
}

inline float bf16ToFloat(uint16_t bf16) {
  uint32_t bits = static_cast<uint32_t>(bf16) << 16;
  return bitCast<float>(&bits);
}

inline uint16_t floatToBF16(float value) {
  uint32_t bits = bitCast<uint32_t>(&value);
  if ((bits & 0x7fffffff) > 0x7f800000) // NaN: keep it quiet.
    return static_cast<uint16_t>(bits >> 16) | 0x40;
  return static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

/// `value >> shift` rounded to nearest even (1 <= shift <= 31).
inline uint32_t shiftRightRoundingToEven(uint32_t value, uint32_t shift) {
  uint32_t kept = value >> shift;
  uint32_t rest = value & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  return kept + (rest > half || (rest == half && (kept & 1)) ? 1 : 0);
}

/// f32 to fp8, as nvFuser's `cvt.rn.satfinite`: rounded once to nearest
/// even; magnitudes above the largest finite one (infinities included)
/// saturate to it; NaN gives the format's NaN with the sign kept.
inline uint8_t floatToFloat8(float value, Float8Format format) {
  uint32_t bits = bitCast<uint32_t>(&value);
  uint8_t sign = static_cast<uint8_t>((bits >> 24) & 0x80);
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000)
    return sign | format.nan;
  uint32_t exponentField = magnitude >> 23;
  // f32's exponent field of the format's smallest normal, 2^(1 - bias).
  uint32_t minNormalField = 128 - format.bias;
  uint32_t dropped = 23 - format.mantissaBits;
  uint32_t rounded;
  if (exponentField >= minNormalField) {
    // Rebias; a carry out of the mantissa correctly bumps the exponent.
    rounded = shiftRightRoundingToEven(
        magnitude - ((127 - format.bias) << 23), dropped);
  } else {
    // Subnormal in the format (f32 subnormals are far below its smallest
    // subnormal): the significand, implicit bit included, shifted further.
    uint32_t shift = dropped + (minNormalField - exponentField);
    rounded = shiftRightRoundingToEven((magnitude & 0x7fffff) | 0x800000,
                                       shift < 25 ? shift : 25);
  }
  return sign | static_cast<uint8_t>(rounded < format.maxFinite
                                         ? rounded
                                         : format.maxFinite);
}

/// fp8 to f32, exactly; NaN gives f32's quiet NaN with the sign kept.
inline float float8ToFloat(uint8_t bits, Float8Format format) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x80) << 24;
  uint32_t exponentField = (bits & 0x7f) >> format.mantissaBits;
  uint32_t mantissa = bits & ((1u << format.mantissaBits) - 1);
  uint32_t maxExponentField = (0x7fu >> format.mantissaBits);
  uint32_t result;
  if (format.hasInfinity ? exponentField == maxExponentField
                         : (bits & 0x7f) == 0x7f) {
    result = (format.hasInfinity && mantissa == 0) ? 0x7f800000 : 0x7fc00000;
  } else if (exponentField != 0) {
    result = ((exponentField + 127 - format.bias) << 23) |
             (mantissa << (23 - format.mantissaBits));
  } else if (mantissa != 0) {
    // mantissa * 2^(1 - bias - mantissaBits): the exact f32 of the integer
    // mantissa, with its exponent lowered.
    float whole = static_cast<float>(mantissa);
    result = bitCast<uint32_t>(&whole) -
             ((format.bias + format.mantissaBits - 1) << 23);
  } else {
    result = 0;
  }
  result |= sign;
  return bitCast<float>(&result);
}

/// f64 rounded to f32 with round-to-odd (truncated, and the last bit set
/// when inexact): a following rounding to nearest even into a format with
/// at most 22 mantissa bits is then the one correct rounding of the f64.
inline float roundDoubleToOddFloat(double value) {
  float nearest = static_cast<float>(value);
  double back = nearest;
  if (back == value || std::isnan(value))
    return nearest;
  uint32_t bits = bitCast<uint32_t>(&nearest);
  if ((bits & 1) == 0)
    bits = std::fabs(back) > std::fabs(value) ? bits - 1 : bits + 1;
  return bitCast<float>(&bits);
}

/// Storage and compute types of one element kind.
template <ElemKind K> struct Elem;

template <> struct Elem<ElemKind::I1> {
  using Storage = uint8_t;
  using Compute = bool;
  static Compute load(Storage s) { return s != 0; }
  static Storage store(Compute c) { return c ? 1 : 0; }
};
template <> struct Elem<ElemKind::I32> {
  using Storage = int32_t;
  using Compute = int32_t;
  static Compute load(Storage s) { return s; }
  static Storage store(Compute c) { return c; }
};
template <> struct Elem<ElemKind::I64> {
  using Storage = int64_t;
  using Compute = int64_t;
  static Compute load(Storage s) { return s; }
  static Storage store(Compute c) { return c; }
};
template <> struct Elem<ElemKind::F16> {
  using Storage = uint16_t;
  using Compute = float;
  static Compute load(Storage s) { return halfToFloat(s); }
  static Storage store(Compute c) { return floatToHalf(c); }
  static const llvm::fltSemantics &semantics() {
    return llvm::APFloat::IEEEhalf();
  }
};
template <> struct Elem<ElemKind::BF16> {
  using Storage = uint16_t;
  using Compute = float;
  static Compute load(Storage s) { return bf16ToFloat(s); }
  static Storage store(Compute c) { return floatToBF16(c); }
  static const llvm::fltSemantics &semantics() {
    return llvm::APFloat::BFloat();
  }
};
template <> struct Elem<ElemKind::F8E4M3FN> {
  using Storage = uint8_t;
  using Compute = float;
  static Compute load(Storage s) { return float8ToFloat(s, kFloat8E4M3FN); }
  static Storage store(Compute c) { return floatToFloat8(c, kFloat8E4M3FN); }
};
template <> struct Elem<ElemKind::F8E5M2> {
  using Storage = uint8_t;
  using Compute = float;
  static Compute load(Storage s) { return float8ToFloat(s, kFloat8E5M2); }
  static Storage store(Compute c) { return floatToFloat8(c, kFloat8E5M2); }
};
template <> struct Elem<ElemKind::F32> {
  using Storage = float;
  using Compute = float;
  static Compute load(Storage s) { return s; }
  static Storage store(Compute c) { return c; }
};
template <> struct Elem<ElemKind::F64> {
  using Storage = double;
  using Compute = double;
  static Compute load(Storage s) { return s; }
  static Storage store(Compute c) { return c; }
};

template <> struct Elem<ElemKind::C64> {
  using Storage = semantics::Complex<float>;
  using Compute = semantics::Complex<float>;
  static Compute load(Storage s) { return s; }
  static Storage store(Compute c) { return c; }
};
template <> struct Elem<ElemKind::C128> {
  using Storage = semantics::Complex<double>;
  using Compute = semantics::Complex<double>;
  static Compute load(Storage s) { return s; }
  static Storage store(Compute c) { return c; }
};

template <ElemKind K> using StorageOf = typename Elem<K>::Storage;
template <ElemKind K> using ComputeOf = typename Elem<K>::Compute;

template <ElemKind K>
constexpr bool isFloatKind = std::is_floating_point_v<ComputeOf<K>>;
template <ElemKind K>
constexpr bool isHalfKind = K == ElemKind::F16 || K == ElemKind::BF16;
template <ElemKind K>
constexpr bool isFloat8Kind = K == ElemKind::F8E4M3FN || K == ElemKind::F8E5M2;
template <ElemKind K>
constexpr bool isComplexKind = K == ElemKind::C64 || K == ElemKind::C128;
/// The real kinds but i1: those every reduction kind takes.
template <ElemKind K>
constexpr bool isNumericKind = K != ElemKind::I1 && !isComplexKind<K>;
/// The kind of a complex kind's parts (F32 or F64).
template <ElemKind K>
constexpr ElemKind ComponentKindOf =
    K == ElemKind::C64 ? ElemKind::F32 : ElemKind::F64;

/// A compile-time element kind, passed to the generic lambdas of
/// visitElemKind.
template <ElemKind K> struct KindTag { static constexpr ElemKind kind = K; };

template <typename Fn> decltype(auto) visitElemKind(ElemKind kind, Fn &&fn) {
  switch (kind) {
  case ElemKind::I1:
    return fn(KindTag<ElemKind::I1>{});
  case ElemKind::I32:
    return fn(KindTag<ElemKind::I32>{});
  case ElemKind::I64:
    return fn(KindTag<ElemKind::I64>{});
  case ElemKind::F16:
    return fn(KindTag<ElemKind::F16>{});
  case ElemKind::BF16:
    return fn(KindTag<ElemKind::BF16>{});
  case ElemKind::F32:
    return fn(KindTag<ElemKind::F32>{});
  case ElemKind::F8E4M3FN:
    return fn(KindTag<ElemKind::F8E4M3FN>{});
  case ElemKind::F8E5M2:
    return fn(KindTag<ElemKind::F8E5M2>{});
  case ElemKind::C64:
    return fn(KindTag<ElemKind::C64>{});
  case ElemKind::C128:
    return fn(KindTag<ElemKind::C128>{});
  case ElemKind::F64:
    break;
  }
  return fn(KindTag<ElemKind::F64>{});
}

/// Converts a compute value of any kind to the storage of `To` with the
/// cast semantics of fuser.cast: floats round to nearest even, float to int
/// truncates toward zero and saturates (NaN gives 0), anything to i1 tests
/// `!= 0`, ints wrap. A complex value to i1 is `!= 0` too (either part
/// non-zero or NaN, as torch, nvFuser's `operator bool` and logical_not);
/// to any other real type its real part converts; a real value to complex
/// gives (value converted to the component type, +0).
template <ElemKind To, typename From> StorageOf<To> convertTo(From value) {
  using ToCompute = ComputeOf<To>;
  if constexpr (semantics::isComplexV<From> && isComplexKind<To>) {
    return {convertTo<ComponentKindOf<To>>(value.re),
            convertTo<ComponentKindOf<To>>(value.im)};
  } else if constexpr (semantics::isComplexV<From> && To == ElemKind::I1) {
    return value.re != 0 || value.im != 0;
  } else if constexpr (semantics::isComplexV<From>) {
    return convertTo<To>(value.re);
  } else if constexpr (isComplexKind<To>) {
    return {convertTo<ComponentKindOf<To>>(value),
            StorageOf<ComponentKindOf<To>>(0)};
  } else if constexpr (To == ElemKind::I1) {
    return value != 0;
  } else if constexpr (std::is_same_v<From, bool>) {
    return Elem<To>::store(static_cast<ToCompute>(value ? 1 : 0));
  } else if constexpr (!isFloatKind<To>) {
    if constexpr (std::is_floating_point_v<From>) {
      double wide = value;
      if (std::isnan(wide))
        return 0;
      // 2^(bits-1) is exact in double; at or beyond it the result saturates.
      constexpr double limit =
          static_cast<double>(std::numeric_limits<ToCompute>::max()) + 1.0;
      if (wide >= limit)
        return std::numeric_limits<ToCompute>::max();
      if (wide < -limit)
        return std::numeric_limits<ToCompute>::min();
      return static_cast<ToCompute>(wide);
    } else {
      return static_cast<ToCompute>(value);
    }
  } else if constexpr (isFloat8Kind<To>) {
    // Rounded once: f64 through a round-to-odd f32; integers beyond 2^17
    // saturate anyway, and smaller ones are exact in f32.
    if constexpr (std::is_same_v<From, float>) {
      return Elem<To>::store(value);
    } else if constexpr (std::is_floating_point_v<From>) {
      return Elem<To>::store(roundDoubleToOddFloat(value));
    } else {
      constexpr From limit = From(1) << 17;
      return Elem<To>::store(static_cast<float>(
          value > limit ? limit : value < -limit ? -limit : value));
    }
  } else if constexpr (!isHalfKind<To>) {
    // The host conversion to f32/f64 rounds to nearest even.
    return static_cast<ToCompute>(value);
  } else {
    // f16/bf16: rounding through f32 is exact when the value fits in f32
    // exactly (then only one rounding happens); otherwise round once with
    // APFloat.
    if constexpr (std::is_same_v<From, float>) {
      return Elem<To>::store(value);
    } else {
      if constexpr (std::is_floating_point_v<From>) {
        float narrow = static_cast<float>(value);
        if (static_cast<From>(narrow) == value || std::isnan(narrow))
          return Elem<To>::store(narrow);
      } else if (value >= -(1 << 24) && value <= (1 << 24)) {
        return Elem<To>::store(static_cast<float>(value));
      }
      llvm::APFloat wide(0.0);
      if constexpr (std::is_floating_point_v<From>) {
        wide = llvm::APFloat(static_cast<double>(value));
      } else {
        wide = llvm::APFloat(llvm::APFloat::IEEEquad());
        wide.convertFromAPInt(llvm::APInt(64, static_cast<int64_t>(value),
                                          /*isSigned=*/true),
                              /*IsSigned=*/true,
                              llvm::APFloat::rmNearestTiesToEven);
      }
      bool losesInfo;
      wide.convert(Elem<To>::semantics(), llvm::APFloat::rmNearestTiesToEven,
                   &losesInfo);
      return static_cast<StorageOf<To>>(wide.bitcastToAPInt().getZExtValue());
    }
  }
}

} // namespace mlir::fuser::detail

#endif // FUSER_EXECUTIONENGINE_ELEMENTS_H
