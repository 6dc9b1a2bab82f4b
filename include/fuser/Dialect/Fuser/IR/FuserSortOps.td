//===- FuserSortOps.td - sorting along one dim --------------*- tablegen -*-===//
//
// nvFuser's argsort (csrc/ops/arith.h); its topk is a slice of an argsort
// and a gather of the values there (python/fuser_mlir/_ops.py).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSERSORTOPS_TD
#define FUSER_DIALECT_FUSER_IR_FUSERSORTOPS_TD

def Fuser_ArgsortOp : Fuser_Op<"argsort", [Pure]> {
  let summary = "the indices that sort each row along one dim";
  let description = [{
    nvFuser's `argsort(input, dim, descending, stable)`: element `i` along
    `dim` of the i64 result is the index along `dim` of the source element
    of rank `i` in its row: ascending, or `descending`. Equal elements keep
    their order (the sort is stable, which nvFuser's `stable=False` allows
    too); NaN orders above every number (last ascending, first descending),
    as torch orders it, and `-0.0` equals `+0.0`.

    Index map: the result index with `dim` replaced by a symbol `s0` over
    the dim's extent (each element's rank depends on its whole row).

    ```mlir
    %i = fuser.argsort %x [1] : tensor<4x8xf32> -> tensor<4x8xi64>
    %d = fuser.argsort %x [0] descending : tensor<4x8xf32> -> tensor<4x8xi64>
    ```
  }];
  let arguments = (ins Fuser_NumericTensor:$source, I64Attr:$dim,
                       UnitAttr:$descending);
  let results = (outs StaticShapeTensorOf<[I64]>:$result);
  let assemblyFormat = [{
    $source ` ` `[` $dim `]` (`descending` $descending^)? attr-dict `:`
    type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // FUSER_DIALECT_FUSER_IR_FUSERSORTOPS_TD
