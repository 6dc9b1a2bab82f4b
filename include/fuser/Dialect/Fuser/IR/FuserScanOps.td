//===- FuserScanOps.td - prefix operations along one dim ----*- tablegen -*-===//
//
// nvFuser's scan (csrc/ops/arith.h; cumsum, cumprod, cummax and cummin in
// its Python frontend).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSERSCANOPS_TD
#define FUSER_DIALECT_FUSER_IR_FUSERSCANOPS_TD

def Fuser_ScanOp : Fuser_Op<"scan",
    [Pure, AllTypesMatch<["source", "result"]>]> {
  let summary = "inclusive prefix combination along one dim";
  let description = [{
    nvFuser's `scan(input, dim, op_type)`: element `i` along `dim` combines
    the source elements `0..i` along it with `kind` (add, mul, max, min:
    `cumsum`, `cumprod`, `cummax`, `cummin`); the result has the source's
    type.

    Each row along `dim` is combined in order, starting from the kind's
    identity as `fuser.reduction` defines it (add `-0.0`, so every prefix
    is the sequential sum of its elements; mul 1; max and min as
    `fuser.maximum` and `fuser.minimum`, NaN propagating). f16 and bf16
    accumulate in f32 and round each result element once to nearest even
    (as torch's cumsum does with its accumulate type); other types
    accumulate in the element type (integers wrap). Complex elements scan
    with `add` only.

    Index map: the result index with `dim` replaced by a symbol `s0` over
    the dim's extent, where `s0 <= d_dim`.

    ```mlir
    %1 = fuser.scan add %0 [1] : tensor<4x1000xf32>
    %2 = fuser.scan max %0 [0] : tensor<4x1000xf32>
    ```
  }];
  let arguments = (ins Fuser_ReductionKindAttr:$kind,
                       Fuser_NumericOrComplexTensor:$source, I64Attr:$dim);
  let results = (outs Fuser_NumericOrComplexTensor:$result);
  let assemblyFormat = [{
    custom<EnumKeyword>($kind) $source ` ` `[` $dim `]` attr-dict `:`
    type($source)
  }];
  let hasVerifier = 1;
}

#endif // FUSER_DIALECT_FUSER_IR_FUSERSCANOPS_TD
