//===- Elements.h - element storage and conversions -------------*- C++ -*-===//
//
// How each fuser element type is stored in a Buffer and the type in which the
// interpreter computes its arithmetic. f16 and bf16 are stored as raw
// bits and computed in f32; the bit conversions here are exact (widening) and
// round to nearest even (narrowing), without APFloat in the hot loops.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_ELEMENTS_H
#define FUSER_EXECUTIONENGINE_ELEMENTS_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

namespace mlir::fuser::detail {

enum class ElemKind { I1, I32, I64, F16, BF16, F32, F64 };

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

template <ElemKind K> using StorageOf = typename Elem<K>::Storage;
template <ElemKind K> using ComputeOf = typename Elem<K>::Compute;

template <ElemKind K>
constexpr bool isFloatKind = std::is_floating_point_v<ComputeOf<K>>;
template <ElemKind K>
constexpr bool isHalfKind = K == ElemKind::F16 || K == ElemKind::BF16;
template <ElemKind K> constexpr bool isNumericKind = K != ElemKind::I1;

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
  case ElemKind::F64:
    break;
  }
  return fn(KindTag<ElemKind::F64>{});
}

/// Converts a compute value of any kind to the storage of `To` with the
/// cast semantics of fuser.cast: floats round to nearest even, float to int
/// truncates toward zero and saturates (NaN gives 0), anything to i1 tests
/// `!= 0`, ints wrap.
template <ElemKind To, typename From> StorageOf<To> convertTo(From value) {
  using ToCompute = ComputeOf<To>;
  if constexpr (To == ElemKind::I1) {
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
