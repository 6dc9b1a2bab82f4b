//===- FuserDialect.h - fuser dialect ---------------------------*- C++ -*-===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSERDIALECT_H
#define FUSER_DIALECT_FUSER_IR_FUSERDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dialect.h"

#include "fuser/Dialect/Fuser/IR/FuserOpsDialect.h.inc"

namespace mlir::fuser {
/// Inserts the fuser dialect and the dialects a fusion is written in (func
/// for the fusion itself, arith for its scalar constants). Declared again
/// in fuser/Registration.h, the header tools and host compilers include.
void registerFuserDialect(DialectRegistry &registry);
} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_IR_FUSERDIALECT_H
