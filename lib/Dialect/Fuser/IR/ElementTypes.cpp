//===- ElementTypes.cpp - the fuser element types -------------------------===//

#include "fuser/Dialect/Fuser/IR/ElementTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

bool mlir::fuser::isFloat8Type(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

const mlir::fuser::Float8Format &mlir::fuser::getFloat8Format(Type type) {
  assert(isFloat8Type(type) && "not an 8-bit float");
  return isa<Float8E4M3FNType>(type) ? kFloat8E4M3FN : kFloat8E5M2;
}

bool mlir::fuser::isComplexElementType(Type type) {
  auto complex = dyn_cast<ComplexType>(type);
  return complex &&
         (complex.getElementType().isF32() || complex.getElementType().isF64());
}

bool mlir::fuser::isArithmeticElementType(Type type) {
  return type.isInteger(1) || type.isInteger(32) || type.isInteger(64) ||
         type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         isComplexElementType(type);
}

bool mlir::fuser::isFuserElementType(Type type) {
  return isArithmeticElementType(type) || isFloat8Type(type);
}

Type mlir::fuser::getComplexPartType(Type type) {
  auto complex = dyn_cast<ComplexType>(getElementTypeOrSelf(type));
  if (!complex)
    return type;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(complex.getElementType());
  return complex.getElementType();
}
