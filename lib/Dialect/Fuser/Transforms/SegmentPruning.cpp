//===- SegmentPruning.cpp - drop what segments compute for nobody ---------===//

#include "fuser/Dialect/Fuser/Transforms/SegmentPruning.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::fuser;

/// Erases the dead ops of `segment`'s body; whether any went.
static bool eraseDeadOps(SegmentOp segment) {
  bool erased = false;
  Block &body = segment.getBody().front();
  SmallVector<Operation *> ops = llvm::to_vector(
      llvm::make_pointer_range(body.without_terminator()));
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op)) {
      op->erase();
      erased = true;
    }
  return erased;
}

/// Drops the inputs `segment`'s body does not read; whether any went.
static bool dropUnreadInputs(SegmentOp segment) {
  bool dropped = false;
  Block &body = segment.getBody().front();
  for (unsigned index = body.getNumArguments(); index-- > 0;) {
    if (!body.getArgument(index).use_empty())
      continue;
    segment.getInputsMutable().erase(index);
    body.eraseArgument(index);
    dropped = true;
  }
  return dropped;
}

/// Replaces `segment` by one without the results nothing reads (erasing it
/// when none is read); whether anything changed.
static bool dropUnreadResults(SegmentOp segment) {
  SmallVector<unsigned> read;
  for (OpResult result : segment->getResults())
    if (!result.use_empty())
      read.push_back(result.getResultNumber());
  if (read.size() == segment.getNumResults())
    return false;
  if (read.empty()) {
    segment.erase();
    return true;
  }
  auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
  SmallVector<Value> yielded;
  SmallVector<Type> types;
  for (unsigned number : read) {
    yielded.push_back(yield.getValues()[number]);
    types.push_back(segment.getResult(number).getType());
  }
  yield->setOperands(yielded);
  OpBuilder builder(segment);
  auto pruned =
      SegmentOp::create(builder, segment.getLoc(), types, segment.getKind(),
                        segment.getInputs(), segment.getScheduleAttr());
  pruned->setDiscardableAttrs(segment->getDiscardableAttrDictionary());
  pruned.getBody().takeBody(segment.getBody());
  for (auto [index, number] : llvm::enumerate(read))
    segment.getResult(number).replaceAllUsesWith(pruned.getResult(index));
  segment.erase();
  return true;
}

void mlir::fuser::pruneSegments(func::FuncOp func) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (SegmentOp segment : llvm::make_early_inc_range(
             func.getBody().front().getOps<SegmentOp>())) {
      changed |= dropUnreadResults(segment);
    }
    for (SegmentOp segment : func.getBody().front().getOps<SegmentOp>()) {
      changed |= eraseDeadOps(segment);
      changed |= dropUnreadInputs(segment);
    }
  }
}
