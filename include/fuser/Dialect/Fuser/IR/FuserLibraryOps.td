//===- FuserLibraryOps.td - ops a library call computes ----*- tablegen -*-===//
//
// nvFuser's matmul, linear, sdpfa_fwd and sdpfa_bwd (csrc/ops/composite.h)
// and grouped_mm (csrc/ops/arith.h):
// ops that no generated kernel computes. nvFuser evaluates each in a segment of its own through
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

def Fuser_GroupedMmOp : Fuser_LibraryOp<"grouped_mm"> {
  let summary = "grouped matrix product (MoE), groups given by offsets";
  let description = [{
    nvFuser's unscaled `grouped_mm(mat1, mat2, offsets)`, which follows
    `torch._grouped_mm`: G gemms, one per group, where `offsets` (`[G]`,
    i32, torch's dtype) holds each group's end along the grouped dim,
    cumulative: group g spans `[offsets[g-1], offsets[g])`, group 0 starts
    at 0. Three forms, by the operands' ranks:

    - `[M, K] x [G, K, N] -> [M, N]`, rows grouped (the MoE form: tokens
      sorted by expert, one weight per expert): `result[m, n] = sum over k
      of mat1[m, k] * mat2[g, k, n]` for the group g of row m;
    - `[G, M, K] x [K, N] -> [M, N]`, columns grouped: `result[m, n] = sum
      over k of mat1[g, m, k] * mat2[k, n]` for the group g of column n;
    - `[M, K] x [K, N] -> [G, M, N]`, the contraction grouped (a weight
      gradient per expert): `result[g, m, n] = sum over k in group g of
      mat1[m, k] * mat2[k, n]`; an empty group is +0.0.

    Two 3-D operands are refused, as nvFuser refuses them (a batched
    `fuser.matmul`). Both operands have one element type, f16, bf16 or f32
    (torch's), which the result has too; sums accumulate as
    `fuser.matmul`'s (f32 for f16 and bf16), rounded once.

    Offsets must not decrease and must lie in `[0, extent]` of the grouped
    dim; others are a located error when it runs (the values are data).
    Rows (columns) past the last offset belong to no group: torch leaves
    them unwritten (its result is `at::empty`) and nvFuser's fallback
    requires the last offset to equal the extent; here they are +0.0, and
    contraction elements past the last offset are not summed.

    No index maps: which operand element a result element reads depends
    on the offsets' values.

    ```mlir
    %y = fuser.grouped_mm %x, %w, %offsets : tensor<32x32xbf16>, tensor<2x32x16xbf16>, tensor<2xi32> -> tensor<32x16xbf16>
    ```
  }];
  let arguments = (ins Fuser_FloatTensor:$mat1, Fuser_FloatTensor:$mat2,
                       Fuser_IntegerTensor:$offsets);
  let results = (outs Fuser_FloatTensor:$result);
  let assemblyFormat = [{
    $mat1 `,` $mat2 `,` $offsets attr-dict `:` type($mat1) `,` type($mat2)
    `,` type($offsets) `->` type($result)
  }];
}

def Fuser_SdpfaFwdOp : Fuser_LibraryOp<"sdpfa_fwd", [AttrSizedOperandSegments]> {
  let summary = "scaled dot-product flash attention, forward";
  let description = [{
    nvFuser's `sdpfa_fwd(query, key, value, bias, mask, dropout_p,
    is_causal, scale)` (ATen's `_scaled_dot_product_flash_attention`, or
    its math attention where a bias or mask is given): `query` is
    `[N..., H, L, E]`, `key` `[N..., H, S, E]` and `value` `[N..., H, S,
    Ev]`, rank 4 or more, with equal batch and head dims and one element
    type (f16, bf16 or f32). The results are the attention `output`
    `[N..., H, L, Ev]` in the element type, its `logsumexp` `[N..., H, L]`
    in f32, and the Philox state of the dropout as nvFuser returns it:
    `philox_seed` (`tensor<2xi64>`, nvFuser's `uint64[2]`, ATen's
    rng_state) and `philox_offset` (`tensor<i64>`).

    The optional `bias` (the element type) and `mask` (i1) have the rank
    of `query`; each of their dims is the score's (`[N..., H, L, S]`) or 1,
    broadcast. Per batch and head, in f32 (docs/Interpreter.md gives the
    order): `s[l, s] = scale * sum over e of query[l, e] * key[s, e] +
    bias[l, s]`, with `s[l, s] = -inf` where `mask` is false or where
    `is_causal` and `s > l` (the upper-left causal mask of torch's
    F.scaled_dot_product_attention), `m[l] = max over s`, `p[l, s] =
    exp(s[l, s] - m[l])`, `logsumexp[l] = m[l] + log(sum over s of p[l,
    s])`, `output[l, v] = sum over s of d[l, s] * value[s, v] / sum over s
    of p[l, s]`, rounded once to the element type, where `d = p` without
    dropout. A row without an unmasked key has `logsumexp` -inf and
    `output` 0. `scale` defaults to `1 / sqrt(E)`.

    `dropout_p` is in [0, 1]. Above 0 the op takes the Philox `seed` and
    `offset` (i64, the generator's draw, as fuser.uniform takes them) and
    returns them as `philox_seed = [seed, offset]` (`philox_offset` 0,
    unused as ATen's); it takes no bias or mask then (nvFuser runs those
    through ATen's math attention, which reports no Philox state). Score
    element `i` (row-major over `[N..., H, L, S]`) is kept where the
    uniform [0, 1) float that fuser.uniform draws at index `i` from
    `seed` and `offset` is at least `dropout_p` (as f32), and `d[l, s] =
    p[l, s] * r` there, `r = 1 / (1 - dropout_p)` rounded to f32 (0 for
    `dropout_p` 1), else 0. Without dropout the seed and offset results
    are zeros. This dropout stream is fuser_mlir's own: the backward
    draws the same mask from `philox_seed`, but it is not ATen's CUDA
    flash kernel's.

    ```mlir
    %o, %lse, %seed, %offset = fuser.sdpfa_fwd %q, %k, %v {is_causal}
        : tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16>
        -> tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64>
    %o2, %lse2, %seed2, %offset2 = fuser.sdpfa_fwd %q, %k, %v
        bias(%b : tensor<2x1x5x7xbf16>) mask(%m : tensor<1x3x1x7xi1>)
        : tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16>
        -> tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64>
    %o3, %lse3, %seed3, %offset3 = fuser.sdpfa_fwd %q, %k, %v
        dropout(seed %s offset %off) {dropout_p = 1.000000e-01 : f64}
        : tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16>
        -> tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>, tensor<2xi64>, tensor<i64>
    ```
  }];
  let arguments = (ins Fuser_FloatTensor:$query, Fuser_FloatTensor:$key,
                       Fuser_FloatTensor:$value,
                       Optional<Fuser_FloatTensor>:$bias,
                       Optional<Fuser_BoolTensor>:$mask,
                       Optional<I64>:$seed, Optional<I64>:$offset,
                       DefaultValuedAttr<F64Attr, "0.0">:$dropout_p,
                       UnitAttr:$is_causal, OptionalAttr<F64Attr>:$scale);
  let results = (outs Fuser_FloatTensor:$output, Fuser_FloatTensor:$logsumexp,
                      Fuser_IntegerTensor:$philox_seed,
                      Fuser_IntegerTensor:$philox_offset);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`dropout` `(` `seed` $seed^ `offset` $offset `)`)? attr-dict `:`
    type($query) `,` type($key) `,` type($value) `->` type(results)
  }];
}

def Fuser_SdpfaBwdOp : Fuser_LibraryOp<"sdpfa_bwd"> {
  let summary = "scaled dot-product flash attention, backward";
  let description = [{
    nvFuser's `sdpfa_bwd(grad_output, query, key, value, output, logsumexp,
    dropout_p, is_causal, philox_seed, philox_offset, scale)`: the gradients
    of `fuser.sdpfa_fwd`'s output with respect to `query`, `key` and `value`,
    from the forward's `output`, `logsumexp` and Philox state. Shapes and
    element types as `fuser.sdpfa_fwd` has them; `grad_output` is shaped as
    `output`. The results have the shapes and element type of `query`,
    `key` and `value`.

    Per batch and head, in f32, as flash attention's backward: with `s` and
    the mask of the forward, `p[l, s] = exp(s[l, s] - logsumexp[l])`,
    `grad_value[s, v] = sum over l of p[l, s] * grad_output[l, v]`,
    `dp[l, s] = sum over v of grad_output[l, v] * value[s, v]`,
    `d[l] = sum over v of grad_output[l, v] * output[l, v]`,
    `ds[l, s] = p[l, s] * (dp[l, s] - d[l])`,
    `grad_query[l, e] = scale * sum over s of ds[l, s] * key[s, e]`,
    `grad_key[s, e] = scale * sum over l of ds[l, s] * query[l, e]`,
    each rounded once to the element type. With `dropout_p` above 0, the
    forward's mask and `r`, drawn from `philox_seed` (`[seed, offset]`):
    `p` is `p * r` where kept and 0 where dropped in `grad_value`, and `dp`
    is `dp * r` where kept and 0 where dropped in `ds` (`d` reads the
    forward's output, dropout included).

    ```mlir
    %dq, %dk, %dv = fuser.sdpfa_bwd %go, %q, %k, %v, %o, %lse, %seed, %offset
        : tensor<2x3x5x4xbf16>, tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>,
          tensor<2x3x7x4xbf16>, tensor<2x3x5x4xbf16>, tensor<2x3x5xf32>,
          tensor<2xi64>, tensor<i64>
        -> tensor<2x3x5x8xbf16>, tensor<2x3x7x8xbf16>, tensor<2x3x7x4xbf16>
    ```
  }];
  let arguments = (ins Fuser_FloatTensor:$grad_output, Fuser_FloatTensor:$query,
                       Fuser_FloatTensor:$key, Fuser_FloatTensor:$value,
                       Fuser_FloatTensor:$output, Fuser_FloatTensor:$logsumexp,
                       Fuser_IntegerTensor:$philox_seed,
                       Fuser_IntegerTensor:$philox_offset,
                       DefaultValuedAttr<F64Attr, "0.0">:$dropout_p,
                       UnitAttr:$is_causal, OptionalAttr<F64Attr>:$scale);
  let results = (outs Fuser_FloatTensor:$grad_query,
                      Fuser_FloatTensor:$grad_key,
                      Fuser_FloatTensor:$grad_value);
  let assemblyFormat = [{
    $grad_output `,` $query `,` $key `,` $value `,` $output `,` $logsumexp `,`
    $philox_seed `,` $philox_offset attr-dict `:` type(operands) `->`
    type(results)
  }];
}

#endif // FUSER_DIALECT_FUSER_IR_FUSERLIBRARYOPS_TD
