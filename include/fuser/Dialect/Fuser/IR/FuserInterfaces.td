//===- FuserInterfaces.td - meta and elementwise op interfaces -*- tablegen -*-===//
//
// Rewrites are written once over these interfaces instead of once per op
// pair (as Triton does for its elementwise and layout ops).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSERINTERFACES_TD
#define FUSER_DIALECT_FUSER_IR_FUSERINTERFACES_TD

include "mlir/IR/OpBase.td"

def Fuser_MetaOpInterface : OpInterface<"MetaOpInterface"> {
  let cppNamespace = "::mlir::fuser";
  let description = [{
    A meta op moves or re-indexes the elements of one tensor without doing
    arithmetic on them: every result element is a copy of one source element,
    and the element type is preserved. Such ops commute with element-type
    changes (casts) and with elementwise unary ops.
  }];
  let methods = [
    InterfaceMethod<"The tensor whose elements are moved.",
      "::mlir::Value", "getSource">,
  ];
  let verify = [{
    if ($_op->getNumResults() != 1)
      return $_op->emitOpError("meta op must have one result");
    Type sourceElementType = getElementTypeOrSelf($_op->getOperand(0));
    Type resultElementType = getElementTypeOrSelf($_op->getResult(0));
    if (sourceElementType != resultElementType)
      return $_op->emitOpError("meta op must keep the source's element type ")
             << sourceElementType << ", got " << resultElementType;
    return ::mlir::success();
  }];
}

def Fuser_ElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let cppNamespace = "::mlir::fuser";
  let description = [{
    An elementwise op computes each result element from the operand elements
    at the same (broadcast) index. Operands are tensors of equal rank whose
    dimensions are equal or 1, or scalars.
  }];
  let methods = [];
}

#endif // FUSER_DIALECT_FUSER_IR_FUSERINTERFACES_TD
