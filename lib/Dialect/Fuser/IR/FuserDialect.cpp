//===- FuserDialect.cpp - fuser dialect registration ----------------------===//

#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuser;

#include "fuser/Dialect/Fuser/IR/FuserEnums.cpp.inc"
#include "fuser/Dialect/Fuser/IR/FuserInterfaces.cpp.inc"
#include "fuser/Dialect/Fuser/IR/FuserOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "fuser/Dialect/Fuser/IR/FuserAttrs.cpp.inc"

void FuserDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fuser/Dialect/Fuser/IR/FuserAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "fuser/Dialect/Fuser/IR/FuserOps.cpp.inc"
      >();
}

Operation *FuserDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

void mlir::fuser::registerFuserDialect(DialectRegistry &registry) {
  registry.insert<FuserDialect, func::FuncDialect, arith::ArithDialect>();
}
