//===- Passes.h - fuser passes ----------------------------------*- C++ -*-===//

#ifndef FUSER_DIALECT_FUSER_TRANSFORMS_PASSES_H
#define FUSER_DIALECT_FUSER_TRANSFORMS_PASSES_H

#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace fuser {

#define GEN_PASS_DECL
#include "fuser/Dialect/Fuser/Transforms/Passes.h.inc"

/// Folds cast(cast(x : A -> B) : B -> C) into cast(x : A -> C) whenever B is
/// at least as wide as A and C, even if A -> B rounds (nvFuser's rule).
void populateLossyCastChainFoldPatterns(RewritePatternSet &patterns);

/// fuser.sdpfa_fwd and fuser.sdpfa_bwd (not a backward with dropout whose
/// Philox state no forward of the fusion made) as
/// the matmuls, casts, masked softmax and reductions that compute them
/// (fuser-decompose-attention).
void populateDecomposeAttentionPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "fuser/Dialect/Fuser/Transforms/Passes.h.inc"

} // namespace fuser
} // namespace mlir

#endif // FUSER_DIALECT_FUSER_TRANSFORMS_PASSES_H
