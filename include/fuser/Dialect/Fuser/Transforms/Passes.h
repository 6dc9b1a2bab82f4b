//===- Passes.h - fuser passes ----------------------------------*- C++ -*-===//

#ifndef FUSER_DIALECT_FUSER_TRANSFORMS_PASSES_H
#define FUSER_DIALECT_FUSER_TRANSFORMS_PASSES_H

#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
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

#define GEN_PASS_DECL
#include "fuser/Dialect/Fuser/Transforms/Passes.h.inc"

/// Folds cast(cast(x : A -> B) : B -> C) into cast(x : A -> C) whenever B is
/// at least as wide as A and C, even if A -> B rounds (nvFuser's rule).
void populateLossyCastChainFoldPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "fuser/Dialect/Fuser/Transforms/Passes.h.inc"

} // namespace fuser
} // namespace mlir

#endif // FUSER_DIALECT_FUSER_TRANSFORMS_PASSES_H
