//===- Fusion.h - what a fusion is ------------------------------*- C++ -*-===//
//
// The functions the fuser passes, pipelines and backends work on: every
// layer asks, so the answer lives with the dialect.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSION_H
#define FUSER_DIALECT_FUSER_IR_FUSION_H

namespace mlir {
class Operation;
namespace fuser {

/// Whether `op` is a fusion: a `func.func` with a body that holds at least
/// one fuser op, or one that returns a tensor and holds nothing but scalar
/// `arith` ops and the return (a fusion whose ops all folded away, or that
/// returns its inputs). The fuser pipelines below run their passes on fusions
/// only and leave every other function of the module (linalg, scf, external
/// declarations, ...) untouched, and `fuser-verify-fusion` checks fusions
/// only.
bool isFusion(Operation *op);

/// Whether `op` is a fusion not segmented yet: fuser ops but no
/// `fuser.segment`. The kernel backends segment such a fusion first.
bool needsSegmentation(Operation *op);

} // namespace fuser
} // namespace mlir

#endif // FUSER_DIALECT_FUSER_IR_FUSION_H
