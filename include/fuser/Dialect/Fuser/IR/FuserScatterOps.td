//===- FuserScatterOps.td - writes at indices read from a tensor -*- tablegen -*-===//
//
// nvFuser's scatter (csrc/ops/indexing.h; torch.scatter and, with a
// combiner, torch.scatter_reduce); its indexPutAccumulate is a scatter-add
// along dim 0 (python/fuser_mlir/_ops.py).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSERSCATTEROPS_TD
#define FUSER_DIALECT_FUSER_IR_FUSERSCATTEROPS_TD

def Fuser_ScatterOp : Fuser_Op<"scatter",
    [Pure, AllTypesMatch<["self", "result"]>]> {
  let summary = "a tensor with elements of another written at indices";
  let description = [{
    nvFuser's `scatter(self, dim, index, src)` (torch.scatter): the result
    is `self` with, for every element position `p` of `index`,
    `result[p with dim replaced by index[p]] = src[p]`. All three have the
    same rank; `index`'s extents are at most `src`'s in every dim and at
    most `self`'s in the others. With `reduce`, the written element is
    combined with the one there instead (`add`, `mul`, `max`, `min`, as
    `fuser.reduction` combines: torch's `scatter_reduce(...,
    include_self=True)`; nvFuser's `indexPutAccumulate` is `add`), in the
    compute type, rounded to the element type at each write; booleans take
    no `reduce`, complex elements `add` only.

    Order: the positions of `index` are taken in row-major order, so where
    two write one element, the later one wins (or is combined later). The
    positions that write one element differ only along `dim` (one row), so
    the row kernels (ScatterRowKernel) keep this order without atomics and
    every backend gives the interpreter's bits; torch and nvFuser leave the
    winner of duplicate indices unspecified and may differ. An index outside
    `[0, extent)` of `self` along `dim` is an error the interpreter reports;
    kernels skip such a write (the CPU backend with `check-indices` reports
    it as the interpreter does).

    Index maps: `self` at the result index; `index` and `src` along the row
    of `dim`: the result index with `dim` a symbol over `index`'s extent
    there, where the result index is inside `index`'s other extents.

    ```mlir
    %r = fuser.scatter %x[%i] = %s dim 0 : tensor<8x3xf32>, tensor<4x3xi64>, tensor<4x3xf32>
    %a = fuser.scatter %x[%i] = %s dim 0 reduce add : tensor<8x3xf32>, tensor<4x3xi64>, tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Fuser_Tensor:$self, Fuser_IntegerTensor:$index,
                       Fuser_Tensor:$src, I64Attr:$dim,
                       OptionalAttr<Fuser_ReductionKindAttr>:$reduce);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat = [{
    $self `[` $index `]` `=` $src custom<ScatterDim>($dim, $reduce)
    attr-dict `:` type($self) `,` type($index) `,` type($src)
  }];
  let hasVerifier = 1;
}

#endif // FUSER_DIALECT_FUSER_IR_FUSERSCATTEROPS_TD
