//===- SegmentPruning.h - drop what segments compute for nobody -*- C++ -*-===//
//
// Segmented fusions keep only what someone uses: ops of a segment body that
// nothing yields, segment results that nothing reads, and segment inputs
// that the body does not read.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_TRANSFORMS_SEGMENTPRUNING_H
#define FUSER_DIALECT_FUSER_TRANSFORMS_SEGMENTPRUNING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::fuser {

/// Removes, to a fixpoint, the dead ops of every segment body of `func`,
/// the results no op reads (a segment left without results goes), and the
/// inputs its body does not read. Segmentation plans a kernel's ops before
/// rule 10 decides who recomputes what, so a kernel can keep an op, a
/// write, or a read that only a value now recomputed elsewhere needed; the
/// traffic counts each of them.
void pruneSegments(func::FuncOp func);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_TRANSFORMS_SEGMENTPRUNING_H
