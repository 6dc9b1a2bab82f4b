//===- Passes.td - fuser passes ----------------------------*- tablegen -*-===//

#ifndef FUSER_DIALECT_FUSER_TRANSFORMS_PASSES_TD
#define FUSER_DIALECT_FUSER_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuserSimplify : Pass<"fuser-simplify", "func::FuncOp"> {
  let summary = "Pre-segmentation simplification to a fixpoint";
  let description = [{
    Applies every canonicalization pattern and folder of the fuser dialect
    (cast-chain folding, cast and elementwise motion over meta ops,
    reshape composition, permute composition, set removal) interleaved with
    CSE until nothing changes. Dead ops are removed.

    Motion direction: elementwise unary ops (casts included) rise toward the
    producers across meta ops; unit-dim squeezes and broadcasts sink toward
    the consumers across permutes. Adjacent reshape-like ops (view, squeeze,
    broadcast) compose into one.
  }];
  let options = [
    Option<"foldLossyCastChains", "fold-lossy-cast-chains", "bool",
           /*default=*/"false",
           "Also fold cast chains whose intermediate type is at least as "
           "wide as both ends, as nvFuser does, even when the first cast is "
           "not exact (may change rounding in rare cases)">,
  ];
  let dependentDialects = ["::mlir::fuser::FuserDialect"];
}

def FuserVerifyFusion : Pass<"fuser-verify-fusion", "func::FuncOp"> {
  let summary = "Checks that each function is a well-formed fusion";
  let description = [{
    The output contract of the fuser pipelines: function arguments are
    statically shaped tensors or scalars of fuser element types, results
    are statically shaped tensors, and the body only holds fuser, arith and
    func ops. Violations are reported as located errors.
  }];
}

#endif // FUSER_DIALECT_FUSER_TRANSFORMS_PASSES_TD
