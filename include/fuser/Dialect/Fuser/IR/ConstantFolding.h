//===- ConstantFolding.h - folding of scalar constants ----------*- C++ -*-===//
//
// The constant folds of the elementwise ops and of fuser.cast: scalar
// constant operands give the constant the interpreter computes
// (ConstantFolding.cpp says which ops are left alone).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_CONSTANTFOLDING_H
#define FUSER_DIALECT_FUSER_IR_CONSTANTFOLDING_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::fuser {

/// The result of the elementwise table op `op` on the scalar constants
/// `operands`, or null when an operand is not one or the op is not folded.
OpFoldResult foldScalarConstants(Operation *op, ArrayRef<Attribute> operands);

/// The scalar constant `source` converted to `to` with fuser.cast's
/// semantics, or null when `source` is not a scalar constant.
TypedAttr castScalarConstant(Attribute source, Type to);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_IR_CONSTANTFOLDING_H
