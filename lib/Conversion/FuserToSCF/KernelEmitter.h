//===- KernelEmitter.h - one kernel segment as an scf.parallel nest -*- C++
//-*-===//
//
// Private to the FuserToSCF conversion.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_LIB_CONVERSION_FUSERTOSCF_KERNELEMITTER_H
#define FUSER_LIB_CONVERSION_FUSERTOSCF_KERNELEMITTER_H

#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::fuser {

/// Emits kernel segment `segment` (which carries a schedule) at the
/// builder's insertion point as one `scf.parallel` nest over blocks and
/// threads. `inputs` are the values bound to the segment's inputs (memrefs
/// for tensors, scalars as they are), `outputs` the memrefs its results are
/// written to. Ops the lowering cannot handle are reported on the op.
/// `checkIndices`: convert-fuser-to-scf's check-indices.
LogicalResult emitKernel(OpBuilder &builder, SegmentOp segment,
                         ValueRange inputs, ValueRange outputs,
                         bool checkIndices);

/// Emits library segment `segment` (one library op) as one call of its
/// library function (LibraryCall.cpp) writing `outputs`, the results the
/// segment yields; operands are read through strided views of `inputs`
/// (createAliasView, whose contiguous copies are appended to
/// `contiguousCopies`).
LogicalResult emitLibraryCall(OpBuilder &builder, SegmentOp segment,
                              ValueRange inputs, ValueRange outputs,
                              SmallVectorImpl<Value> &contiguousCopies);

/// The number of `loc` in `module`'s list of checked locations
/// (kIndexChecksAttr), added when absent: where the run reports an error
/// found in the data (a gather index out of range, grouped_mm offsets).
int64_t getIndexCheck(ModuleOp module, Location loc);

/// The strided memref through which `yielded`, a value of `segment`'s body
/// computed from an input by meta ops, views that input (FuserToSCF.cpp).
FailureOr<Value> createAliasView(OpBuilder &b, SegmentOp segment,
                                 Value yielded, ValueRange inputs,
                                 SmallVectorImpl<Value> &contiguousCopies);

/// Emits scalar op `op` of a fusion (arith, or a fuser elementwise op on
/// scalars) on `operands` at the builder's insertion point.
FailureOr<Value> emitScalarOp(OpBuilder &builder, Operation *op,
                              ValueRange operands);

} // namespace mlir::fuser

#endif // FUSER_LIB_CONVERSION_FUSERTOSCF_KERNELEMITTER_H
