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
    InterfaceMethod<[{
      The index map of this op: from a result index (one dim per result
      dim, no symbols) to the index of the source element it copies, over
      the static shapes. Dims a result index leaves fixed at 0 in the source
      (expanded or squeezed size-1 dims) map to the constant 0. Each op's
      description states its map; lib/Dialect/Fuser/IR/IndexMaps.cpp builds
      them, and StridedView::applyMetaOp, the same semantics as a layout, is
      tied to them by a unit test (docs/IndexMaps.md).
    }], "::mlir::AffineMap", "getSourceIndexMap">,
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
    dimensions are equal or 1, or scalars. Index map of a tensor operand:
    the result index, with 0 in each size-1 dim that the result broadcasts
    (`tensor<1x4>` into `tensor<3x4>`: `(d0, d1) -> (0, d1)`); a scalar has
    no index (docs/IndexMaps.md).
  }];
  let methods = [];
}

def Fuser_LibraryOpInterface : OpInterface<"LibraryOpInterface"> {
  let cppNamespace = "::mlir::fuser";
  let description = [{
    An op that a library call computes (BLAS gemms), never a generated
    kernel: segmentation gives each one a `library` segment of its own, as
    nvFuser's ExprEval scheduler does (docs/Segmentation.md). Its operands
    are read through index maps with a contraction symbol
    (docs/IndexMaps.md).
  }];
  let methods = [
    InterfaceMethod<[{
      The floating-point operations it performs: 2 per multiply-add of its
      contractions (a bias adds one per result element).
    }], "int64_t", "getFlopCount">,
    InterfaceMethod<[{
      The elements a result element sums, for nvFuser's tolerance by
      reduction size that compares library results (docs/Interpreter.md):
      K for a matmul or linear; the extents of the chained sums for
      attention (E + S forward, E + Ev + L + S backward), whose rounding
      errors add up.
    }], "int64_t", "getReductionSize">,
  ];
}

#endif // FUSER_DIALECT_FUSER_IR_FUSERINTERFACES_TD
