//===- FuserOps.h - fuser dialect ops ---------------------------*- C++ -*-===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSEROPS_H
#define FUSER_DIALECT_FUSER_IR_FUSEROPS_H

#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "fuser/Dialect/Fuser/IR/FuserEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "fuser/Dialect/Fuser/IR/FuserAttrs.h.inc"

#include "fuser/Dialect/Fuser/IR/FuserInterfaces.h.inc"

#define GET_OP_CLASSES
#include "fuser/Dialect/Fuser/IR/FuserOps.h.inc"

namespace mlir::fuser {
/// Adds the canonicalization that composes chains of view, squeeze and
/// broadcast into one reshape: fuser-segment normalizes its input with it.
void populateReshapeCompositionPatterns(RewritePatternSet &patterns);

/// The map from an index of a tensor of shape `resultShape` to the index of
/// the element at the same row-major position in a tensor of shape
/// `sourceShape` (of as many elements): a view's source index map
/// (IndexMaps.cpp, docs/IndexMaps.md).
AffineMap getReshapeIndexMap(MLIRContext *context,
                             ArrayRef<int64_t> sourceShape,
                             ArrayRef<int64_t> resultShape);

/// Whether `op` computes one scalar (one result that is no tensor, no
/// regions): what fuser-segment replicates into the segments that read it,
/// kernels evaluate per element and a library call's lowering computes.
bool isScalarComputation(Operation *op);
} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_IR_FUSEROPS_H
