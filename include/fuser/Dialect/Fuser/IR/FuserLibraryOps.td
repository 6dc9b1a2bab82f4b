//===- FuserLibraryOps.td - ops a library call computes ----*- tablegen -*-===//
//
// nvFuser's matmul and linear (csrc/ops/composite.h): ops that no generated
// kernel computes. nvFuser evaluates each in a segment of its own through
// ATen (its ExprEval scheduler); here a `library` segment holds one and a
// BLAS call computes it (docs/Segmentation.md, docs/Lowering.md).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSERLIBRARYOPS_TD
#define FUSER_DIALECT_FUSER_IR_FUSERLIBRARYOPS_TD

class Fuser_LibraryOp<string mnemonic, list<Trait> traits = []>
    : Fuser_Op<mnemonic, !listconcat([Pure, InferTypeOpAdaptor,
          DeclareOpInterfaceMethods<Fuser_LibraryOpInterface>], traits)>;

def Fuser_MatmulOp : Fuser_LibraryOp<"matmul"> {
  let summary = "matrix product with torch.matmul's shapes";
  let description = [{
    nvFuser's `matmul(a, b)`, torch.matmul's semantics: a 1-D `lhs` of
    extent K is a row `[1, K]` and a 1-D `rhs` a column `[K, 1]`, whose
    unit dim is then dropped from the result; the dims before the last two
    are batch dims, aligned from the right and broadcast (extents equal, or
    1 against any). The result is `batch x M x N`, without `M` for a 1-D
    `lhs` and without `N` for a 1-D `rhs` (`[4]` times `[4]` is a 0-D
    tensor). Both operands have one float element type (f16, bf16, f32,
    f64), which the result has too.

    `result[b, m, n] = sum over k of lhs[b, m, k] * rhs[b, k, n]`,
    accumulated in f32 for f16 and bf16 (cuBLAS's compute type 32F) and in
    the element type otherwise, rounded once to the element type; with
    K = 0 every element is +0.0. The interpreter adds the products in
    increasing k from -0.0, the IEEE identity, so a matmul with K = 1 is
    exactly the product (docs/Interpreter.md); other backends may add them
    in another order, so their results are compared within nvFuser's
    matmul tolerance.

    Index maps: from the result index with one symbol `k` over `[0, K)`:
    `lhs` at `(batch, m, k)` and `rhs` at `(batch, k, n)`, with 0 in each
    batch dim the operand broadcasts.

    ```mlir
    %c = fuser.matmul %a, %b : tensor<2x1x3x4xbf16>, tensor<5x4x6xbf16> -> tensor<2x5x3x6xbf16>
    ```
  }];
  let arguments = (ins Fuser_FloatTensor:$lhs, Fuser_FloatTensor:$rhs);
  let results = (outs Fuser_FloatTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def Fuser_LinearOp : Fuser_LibraryOp<"linear"> {
  let summary = "x W^T + b with torch.nn.functional.linear's shapes";
  let description = [{
    nvFuser's `linear(input, weight, bias)`: `input` is `[..., K]` with any
    number of leading dims (a 1-D input has none), `weight` is `[N, K]` and
    the optional `bias` is `[N]`; the result is `[..., N]`. All have one
    float element type (f16, bf16, f32, f64), which the result has too.

    `result[i, n] = sum over k of input[i, k] * weight[n, k] + bias[n]`,
    accumulated as `fuser.matmul` accumulates (f32 for f16 and bf16), the
    bias added to the sum in the accumulation type, rounded once.

    Index maps: from the result index with one symbol `k` over `[0, K)`:
    `input` at `(i, k)`, `weight` at `(n, k)`, `bias` at `(n)`.

    ```mlir
    %y = fuser.linear %x, %w bias %b : tensor<2x3x4xf32>, tensor<5x4xf32>, tensor<5xf32> -> tensor<2x3x5xf32>
    %z = fuser.linear %x, %w : tensor<2x3x4xf32>, tensor<5x4xf32> -> tensor<2x3x5xf32>
    ```
  }];
  let arguments = (ins Fuser_FloatTensor:$input, Fuser_FloatTensor:$weight,
                       Optional<Fuser_FloatTensor>:$bias);
  let results = (outs Fuser_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`bias` $bias^)? attr-dict `:` type($input) `,`
    type($weight) (`,` type($bias)^)? `->` type($result)
  }];
}

#endif // FUSER_DIALECT_FUSER_IR_FUSERLIBRARYOPS_TD
