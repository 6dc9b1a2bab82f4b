//===- Fusion.cpp - what a fusion is --------------------------------------===//

#include "fuser/Dialect/Fuser/IR/Fusion.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

bool mlir::fuser::needsSegmentation(Operation *op) {
  if (!isFusion(op))
    return false;
  WalkResult segment =
      op->walk([](SegmentOp) { return WalkResult::interrupt(); });
  return !segment.wasInterrupted();
}

bool mlir::fuser::isFusion(Operation *op) {
  auto func = dyn_cast<func::FuncOp>(op);
  if (!func || func.isExternal())
    return false;
  // Null where no fuser op was ever parsed or built.
  Dialect *fuserDialect = func.getContext()->getLoadedDialect<FuserDialect>();
  bool onlyScalars = true;
  WalkResult result = func.getBody().walk([&](Operation *nested) {
    if (fuserDialect && nested->getDialect() == fuserDialect)
      return WalkResult::interrupt();
    onlyScalars &=
        isa<func::ReturnOp>(nested) ||
        (isa_and_nonnull<arith::ArithDialect>(nested->getDialect()) &&
         llvm::none_of(nested->getResultTypes(), llvm::IsaPred<ShapedType>));
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return true;
  // A fusion whose ops all folded away (permute(permute(x)) -> x) returns
  // tensors it did not compute.
  return onlyScalars && llvm::any_of(func.getFunctionType().getResults(),
                                     llvm::IsaPred<RankedTensorType>);
}
