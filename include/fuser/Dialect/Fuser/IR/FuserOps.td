//===- FuserOps.td - fuser dialect ops ---------------------*- tablegen -*-===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSEROPS_TD
#define FUSER_DIALECT_FUSER_IR_FUSEROPS_TD

include "fuser/Dialect/Fuser/IR/FuserBase.td"
include "fuser/Dialect/Fuser/IR/FuserAttrs.td"
include "fuser/Dialect/Fuser/IR/FuserInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

//===----------------------------------------------------------------------===//
// Meta ops: data movement, no arithmetic
//===----------------------------------------------------------------------===//

class Fuser_MetaOp<string mnemonic, list<Trait> traits = []>
    : Fuser_Op<mnemonic, !listconcat([Pure,
          DeclareOpInterfaceMethods<Fuser_MetaOpInterface,
                                    ["getSourceIndexMap"]>], traits)>;

def Fuser_ViewOp : Fuser_MetaOp<"view"> {
  let summary = "reshape to a shape with the same element count";
  let description = [{
    nvFuser's `view`/`reshape`: reinterprets the row-major element order of
    `source` with the result's shape.

    Index map: the source index is the row-major position of the result
    index, delinearized over the source shape, within each run of dims whose
    element counts agree (`tensor<4x6>` to `tensor<24>`: `(d0) -> (d0
    floordiv 6, d0 mod 6)`); size-1 source dims read 0.

    ```mlir
    %1 = fuser.view %0 : tensor<1x32x4096x128xbf16> -> tensor<1x8x4x4096x128xbf16>
    ```
  }];
  let arguments = (ins Fuser_Tensor:$source);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Fuser_SqueezeOp : Fuser_MetaOp<"squeeze",
    [InferTypeOpAdaptor]> {
  let summary = "remove size-1 dims";
  let description = [{
    Removes the listed dimensions of `source`, each of which has size 1.
    `dims` are source positions, sorted and unique.

    Index map: the result dims in order, with 0 at each squeezed dim
    (`[0]` of `tensor<1x8x4>`: `(d0, d1) -> (0, d0, d1)`).

    ```mlir
    %1 = fuser.squeeze %0 [0] : tensor<1x8x4xf32> -> tensor<8x4xf32>
    ```
  }];
  let arguments = (ins Fuser_Tensor:$source, DenseI64ArrayAttr:$dims);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat =
      "$source $dims attr-dict `:` type($source) `->` type($result)";
  let hasFolder = 1;
}

def Fuser_BroadcastOp : Fuser_MetaOp<"broadcast",
    [InferTypeOpAdaptor]> {
  let summary = "insert size-1 dims";
  let description = [{
    Inserts size-1 dimensions so that they sit at the listed positions of the
    result. `dims` are result positions, sorted and unique (nvFuser's
    `is_broadcast_dim` vector, written as the indices that are true).

    Index map: the result dims that are not in `dims` (`[0, 2]` to
    `tensor<1x8x1x4096>`: `(d0, d1, d2, d3) -> (d1, d3)`).

    ```mlir
    %1 = fuser.broadcast %0 [0, 2] : tensor<8x4096xbf16> -> tensor<1x8x1x4096xbf16>
    ```
  }];
  let arguments = (ins Fuser_Tensor:$source, DenseI64ArrayAttr:$dims);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat =
      "$source $dims attr-dict `:` type($source) `->` type($result)";
  let hasFolder = 1;
}

def Fuser_ExpandOp : Fuser_MetaOp<"expand"> {
  let summary = "expand size-1 dims to size n";
  let description = [{
    Each result dimension equals the source dimension, or the source
    dimension is 1 and its single element is repeated.

    Index map: each result dim, or 0 where a size-1 dim is expanded
    (`tensor<1x128>` to `tensor<64x128>`: `(d0, d1) -> (0, d1)`).

    ```mlir
    %1 = fuser.expand %0 : tensor<1x128xf32> -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins Fuser_Tensor:$source);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Fuser_SetOp : Fuser_MetaOp<"set", [SameOperandsAndResultType]> {
  let summary = "copy, with an optional load cache hint";
  let description = [{
    nvFuser's `Set`: a copy of `source` (index map: the identity).
    `cache_op` is the load cache hint
    nvFuser prints as `cache_op=Streaming`: the PTX cache operator of a load
    from global memory (`all_levels` `.ca`, `global` `.cg`, `streaming`
    `.cs`; `unspecified` is no hint).

    ```mlir
    %1 = fuser.set %0 cache_op = streaming : tensor<8x4096xbf16>
    ```

    A set is never a copy a user can observe (tensors are values; which
    results alias inputs is decided by segmentation): canonicalization and
    pre-segmentation erase every set. Erasing one keeps a hint other than
    `unspecified` on the tensor in memory that the set reads (seen through
    meta ops): as the argument attribute `fuser.cache_op` of a fusion input,
    or as the attribute `fuser.cache_op` of a `segment_set`. Two different
    hints on one tensor meet as `unspecified`. A set of a computed tensor
    drops its hint (no load from memory). See docs/Preseg.md.
  }];
  let arguments = (ins Fuser_Tensor:$source,
                       OptionalAttr<Fuser_CacheOpAttr>:$cache_op);
  let results = (outs Fuser_Tensor:$result);
  let extraClassDeclaration = [{
    /// The attribute that keeps an erased set's hint (docs/Preseg.md).
    static ::llvm::StringRef getCacheHintAttrName() { return "fuser.cache_op"; }

    /// Replaces this copy by its source, moving a hint other than
    /// `unspecified` to the tensor in memory that it reads. Every erasure of
    /// a set goes through here so that no hint is lost.
    void replaceWithSource(::mlir::RewriterBase &rewriter);
  }];
  let assemblyFormat =
      "$source (`cache_op` `=` custom<EnumKeyword>($cache_op)^)? attr-dict `:` type($result)";
}

def Fuser_SegmentSetOp : Fuser_MetaOp<"segment_set",
    [SameOperandsAndResultType]> {
  let summary = "copy that is an explicit segment boundary";
  let description = [{
    nvFuser's `segment_set`: a copy that segmentation never fuses across
    (index map: the identity).

    ```mlir
    %1 = fuser.segment_set %0 : tensor<8x4096xbf16>
    ```
  }];
  let arguments = (ins Fuser_Tensor:$source);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($result)";
}

def Fuser_PermuteOp : Fuser_MetaOp<"permute",
    [InferTypeOpAdaptor]> {
  let summary = "permute dims";
  let description = [{
    Result dimension `i` is source dimension `permutation[i]`.

    Index map: source dim `permutation[i]` is result dim `i` (`[0, 2, 1]`:
    `(d0, d1, d2) -> (d0, d2, d1)`).

    ```mlir
    %1 = fuser.permute %0 [0, 2, 1, 3] : tensor<1x8x4096x128xbf16> -> tensor<1x4096x8x128xbf16>
    ```
  }];
  let arguments = (ins Fuser_Tensor:$source, DenseI64ArrayAttr:$permutation);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat =
      "$source $permutation attr-dict `:` type($source) `->` type($result)";
  let hasFolder = 1;
}

def Fuser_SliceOp : Fuser_MetaOp<"slice",
    [InferTypeOpAdaptor]> {
  let summary = "strided slice";
  let description = [{
    Per dimension `d`, takes source indices `starts[d]`, `starts[d] +
    strides[d]`, ... below `limits[d]`, with
    `0 <= starts[d] <= limits[d] <= size(d)` and `strides[d] >= 1`.

    Index map: `starts[d] + strides[d] * d` in each dim (the example:
    `(d0, d1) -> (d0, d1 + 64)`).

    ```mlir
    %1 = fuser.slice %0 starts [0, 64] limits [8, 128] strides [1, 1] : tensor<8x128xf32> -> tensor<8x64xf32>
    ```
  }];
  let arguments = (ins Fuser_Tensor:$source, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$limits, DenseI64ArrayAttr:$strides);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat = [{
    $source `starts` $starts `limits` $limits `strides` $strides attr-dict
    `:` type($source) `->` type($result)
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Pad and cat
//===----------------------------------------------------------------------===//

def Fuser_PadOp : Fuser_Op<"pad",
    [Pure, InferTypeOpAdaptor]> {
  let summary = "pad with a scalar value";
  let description = [{
    Adds `low[d]` elements before and `high[d]` elements after dimension `d`
    (both non-negative), filled with the scalar `value`, whose type is the
    source element type.

    Index maps (piecewise, docs/IndexMaps.md): the source at `index - low`
    where `low[d] <= index[d] < low[d] + size(d)` in every dim, and `value`
    everywhere else.

    ```mlir
    %1 = fuser.pad %0 low [0, 1] high [0, 2] value %zero : tensor<4x8xf32>, f32 -> tensor<4x11xf32>
    ```
  }];
  let arguments = (ins Fuser_Tensor:$source, DenseI64ArrayAttr:$low,
                       DenseI64ArrayAttr:$high, Fuser_ElementType:$value);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat = [{
    $source `low` $low `high` $high `value` $value attr-dict
    `:` type($source) `,` type($value) `->` type($result)
  }];
  let hasFolder = 1;
}

def Fuser_CatOp : Fuser_Op<"cat",
    [Pure, InferTypeOpAdaptor]> {
  let summary = "concatenate along one dim";
  let description = [{
    Concatenates tensors of equal rank and element type along `dim`; all
    other dimensions agree.

    Index maps (piecewise, docs/IndexMaps.md): input `k` at the result index
    less `offset(k)` along `dim`, where `offset(k) <= index[dim] <
    offset(k) + size_k(dim)`; `offset(k)` is the sum of the earlier inputs'
    sizes along `dim`.

    ```mlir
    %2 = fuser.cat %0, %1 dim 1 : tensor<4x8xf32>, tensor<4x2xf32> -> tensor<4x10xf32>
    ```
  }];
  let arguments = (ins Variadic<Fuser_Tensor>:$inputs, I64Attr:$dim);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat =
      "$inputs `dim` $dim attr-dict `:` type($inputs) `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

def Fuser_CastOp : Fuser_Op<"cast", [Pure, Fuser_ElementwiseOpInterface]> {
  let summary = "element type conversion";
  let description = [{
    Converts each element to the result element type, keeping the shape.
    Float to float and int to float round to nearest even, once (no double
    rounding through f32). Float to int truncates toward zero and saturates
    at the integer range; NaN gives 0. Int to a narrower int wraps (keeps the
    low bits); a wider one sign-extends. Anything to i1 tests `!= 0` (NaN is
    true, `-0.0` false); i1 to anything gives 0 or 1.

    To f8E4M3FN and f8E5M2, as nvFuser's `cvt.rn.satfinite`: rounded once
    to nearest even; a magnitude above the largest finite one (448 and
    57344), infinities included, saturates to it; NaN gives the format's
    NaN (`0x7f`, and `0x7e` for f8E5M2) with its sign. nvFuser itself rounds
    f64 through f16 first (`__double2e4m3`), which differs only when that
    rounding lands on an fp8 midpoint. From the 8-bit floats every value is
    exact in f16, bf16, f32 and f64; NaN widens to a quiet NaN with its sign.

    To complex<f32> and complex<f64>: the value converts to the component
    type as above and the imaginary part is +0. Between the complex types:
    part by part. From a complex type to i1: `!= 0`, true where either part
    is non-zero or NaN (torch's `x != 0`, nvFuser's `operator bool`, as
    logical_not reads it); to any other type its real part converts (the
    imaginary part is dropped, as in nvFuser and torch).

    `cast(cast(x : A -> B) : B -> C)` folds to `cast(x : A -> C)` (or `x`
    when C is A) when every value of A is exact in B: i1 in anything, i32 in
    i64 and f64, f16 and bf16 in f32 and f64, f32 in f64, the 8-bit floats in
    every wider float.

    ```mlir
    %1 = fuser.cast %0 : tensor<8x4096xbf16> to tensor<8x4096xf32>
    ```
  }];
  let arguments = (ins Fuser_Value:$source);
  let results = (outs Fuser_Value:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reduction
//===----------------------------------------------------------------------===//

def Fuser_ReductionOp : Fuser_Op<"reduction",
    [Pure, InferTypeOpAdaptor]> {
  let summary = "reduce over dims";
  let description = [{
    Combines the elements along `dims` (sorted, unique, in range) with `kind`
    (add, mul, max, min). With `keepdim` the reduced dims stay as size 1,
    otherwise they are removed. An empty `dims` list is not allowed.
    Index map: the kept dims of the result index, with one symbol per
    reduced dim ranging over its extent (`[1]` of `tensor<8x4x4096>`:
    `(d0, d1)[s0] -> (d0, s0, d1)`, `s0` in `[0, 4)`).

    Each output starts from the identity of `kind` and combines its inputs in
    row-major order of the reduced dims; over zero elements it is the
    identity. The identities are: add `-0.0` (integers 0), the IEEE identity
    (`-0.0 + x` is `x` for every `x`, `-0.0` and NaN included), so a sum of
    only `-0.0` is `-0.0`; mul 1; max -inf (integers: the minimum); min +inf
    (integers: the maximum). f16 and bf16 accumulate in f32 and round to
    nearest even once at the end; other types accumulate in the element type
    (integers wrap). `max` and `min` combine as `fuser.maximum` and
    `fuser.minimum` do: NaN propagates and `-0.0` orders below `+0.0`.
    So a reduction whose reduced dims all have extent 1 is exactly a
    `squeeze` of them (nothing with `keepdim`), for every kind, and
    canonicalizes to one; a reduced dim of extent 1 among others is dropped
    from `dims`.

    Complex elements reduce with `add` only (part by part, from `(-0.0,
    -0.0)`; the other kinds have no exact identity or no order there).

    ```mlir
    %1 = fuser.reduction add %0 [1] : tensor<8x4x4096xf32> -> tensor<8x4096xf32>
    %2 = fuser.reduction max %0 [1, 2] keepdim : tensor<8x4x4096xf32> -> tensor<8x1x1xf32>
    ```
  }];
  let arguments = (ins Fuser_ReductionKindAttr:$kind,
                       Fuser_NumericOrComplexTensor:$source,
                       DenseI64ArrayAttr:$dims, UnitAttr:$keepdim);
  let results = (outs Fuser_NumericOrComplexTensor:$result);
  let assemblyFormat = [{
    custom<EnumKeyword>($kind) $source $dims (`keepdim` $keepdim^)? attr-dict
    `:` type($source) `->` type($result)
  }];
}

include "fuser/Dialect/Fuser/IR/FuserElementwiseOps.td"
include "fuser/Dialect/Fuser/IR/FuserComplexOps.td"
include "fuser/Dialect/Fuser/IR/FuserLibraryOps.td"
include "fuser/Dialect/Fuser/IR/FuserScanOps.td"
include "fuser/Dialect/Fuser/IR/FuserSortOps.td"
include "fuser/Dialect/Fuser/IR/FuserScatterOps.td"

def Fuser_FullOp : Fuser_Op<"full", [Pure]> {
  let summary = "tensor filled with a scalar";
  let description = [{
    nvFuser's `full`: a tensor of the result shape whose every element is the
    scalar `value` (of the result element type).

    ```mlir
    %c = arith.constant 0.0 : f32
    %t = fuser.full %c : f32 -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Fuser_ElementType:$value);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` type($result)";
  let hasVerifier = 1;
}

def Fuser_IotaOp : Fuser_Op<"iota", [Pure, AllTypesMatch<["start", "step"]>]> {
  let summary = "1-D tensor of start + index * step";
  let description = [{
    nvFuser's `iota(length, start, step, dtype)`: a 1-D tensor whose element
    `i` is `start + i * step`, with `start` and `step` scalars of the
    result's element type (i32, i64, f16, bf16, f32 or f64) and the length
    its extent. Integers compute in their width and wrap. Floats compute in
    their compute type (f32 for f16 and bf16): `i` converted to it, times
    `step`, plus `start`, each rounded there (no fused multiply-add, so every
    backend gives the same bits), then rounded once to the element type.
    nvFuser's `triu`, `arange` and `eye` are built from it
    (docs/Python.md).

    ```mlir
    %start = arith.constant 0 : i64
    %step = arith.constant 1 : i64
    %t = fuser.iota %start, %step : i64 -> tensor<8xi64>
    ```

    Index maps: `start` and `step` at every index; it reads no tensor.
  }];
  let arguments = (ins Fuser_NumericType:$start, Fuser_NumericType:$step);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat =
      "$start `,` $step attr-dict `:` type($start) `->` type($result)";
  let hasVerifier = 1;
}

def Fuser_GatherOp : Fuser_Op<"gather", [Pure]> {
  let summary = "elements of a tensor at indices read from another";
  let description = [{
    nvFuser's `gather(arg, index, dim)` (torch.gather): the result has the
    index tensor's shape and the source's element type, and
    `result[i] = source[i with dim replaced by index[i]]`. Both have the
    same rank; along the other dims the index's extents are at most the
    source's. nvFuser's `take_along_axis`, `index_select`, `select` and
    `embedding_fwd` are built from it (docs/Python.md). An index outside
    `[0, extent)` along `dim` is an error the interpreter reports, naming
    the op, the index and the element; kernels read such an element at the
    index clamped into range (nvFuser does not check on the GPU either).

    ```mlir
    %r = fuser.gather %x[%i] dim 1 : tensor<4x8xf32>, tensor<4x3xi64> -> tensor<4x3xf32>
    ```

    Index maps: `index` at the result index; `source` at the result index
    with `dim` replaced by a runtime value, the element of `index` there
    (IndexingMaps.h, "runtime symbols").
  }];
  let arguments = (ins Fuser_Tensor:$source, Fuser_IntegerTensor:$index,
                       I64Attr:$dim);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat = [{
    $source `[` $index `]` `dim` $dim attr-dict `:` type($source) `,`
    type($index) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Fuser_UniformOp : Fuser_Op<"uniform", [Pure, AllTypesMatch<["low", "high"]>]> {
  let summary = "uniform random numbers in [low, high), nvFuser's Philox";
  let description = [{
    nvFuser's `uniform(low, high, shape, rng_seed, rng_offset, dtype)`. The
    element at row-major index `i` of the result (f16, bf16, f32 or f64)
    comes from one Philox4x32-10 call per 4 elements (2 for f64): key =
    `seed`, counter = (`offset`, `i / 4`) as two 64-bit halves, the element
    taking word `i % 4` (words 2(i % 2) and 2(i % 2) + 1 for f64), then
    nvFuser's transform: a uniform `u` in [0, 1) from the word(s) and
    `fma(high - low, u, low)` (nvFuser compiles with --fmad=true); for f16
    and bf16, computed in f32 from the unmapped (0, 1] value and rounded,
    a result equal to `high` becoming `low`. The values depend only on the
    seed, the offset and the index (RandomSemantics.h), never on the
    schedule, the backend or the vector width. `low` and `high` are f64 for
    f64 results and f32 otherwise.

    ```mlir
    %r = fuser.uniform %low, %high seed %seed offset %offset : f32 -> tensor<4x8xbf16>
    ```

    Index maps: the four scalars at every index; it reads no tensor.
  }];
  let arguments = (ins AnyTypeOf<[F32, F64]>:$low, AnyTypeOf<[F32, F64]>:$high,
                       I64:$seed, I64:$offset);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat = [{
    $low `,` $high `seed` $seed `offset` $offset attr-dict `:` type($low)
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def Fuser_NormalOp : Fuser_Op<"normal", [Pure, AllTypesMatch<["mean", "std"]>]> {
  let summary = "normal random numbers, nvFuser's Philox and Box-Muller";
  let description = [{
    nvFuser's `normal(mean, std, shape, rng_seed, rng_offset, dtype)`: the
    Philox words of `fuser.uniform` (the same key, counter and call per 4
    elements, 2 for f64), then Box-Muller as nvFuser's runtime computes it:
    for f16, bf16 and f32, component `c = i % 4` takes words `c / 2 * 2` and
    `c / 2 * 2 + 1` as uniforms `u` and `v`, and gives
    `sqrt(-2 log u) * sin(2 pi v)` for even `c`, `cos` for odd `c`, in f32;
    for f64, all four words make `u` and `v` in f64 and `c = i % 2` picks
    sin or cos. Then `fma(normal, std, mean)`, rounded to the element type.
    log, sqrt, sin and cos are the math library's (libdevice on the GPU:
    ulp bounds, docs/Interpreter.md). `mean` and `std` are f64 for f64
    results and f32 otherwise.

    ```mlir
    %r = fuser.normal %mean, %std seed %seed offset %offset : f32 -> tensor<1024xf32>
    ```

    Index maps: the four scalars at every index; it reads no tensor.
  }];
  let arguments = (ins AnyTypeOf<[F32, F64]>:$mean, AnyTypeOf<[F32, F64]>:$std,
                       I64:$seed, I64:$offset);
  let results = (outs Fuser_Tensor:$result);
  let assemblyFormat = [{
    $mean `,` $std `seed` $seed `offset` $offset attr-dict `:` type($mean)
    `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Segments
//===----------------------------------------------------------------------===//

def Fuser_SegmentOp : Fuser_Op<"segment",
    [IsolatedFromAbove, SingleBlock]> {
  let summary = "one kernel (or alias) produced by segmentation";
  let description = [{
    The body computes the segment's results from its block arguments, which
    are bound to `inputs` (tensors, or scalars such as nvFuser's
    `define_scalar` inputs). `kind` says how it runs: `pointwise`,
    `reduction` and `normalization` segments are kernels (a `normalization`
    segment holds reductions over the innermost axes whose results meet the
    un-reduced rows again: one persistent kernel, docs/Segmentation.md), an
    `alias` segment launches nothing (its results are views of its inputs in
    memory), a `library` segment is one library call (a `fuser.matmul` or
    `fuser.linear`, its operands possibly views of the inputs through meta
    ops; it yields the op's result and takes no schedule). A kernel segment
    may
    carry the `schedule` that `fuser-schedule` chose for it.

    ```mlir
    %r = fuser.segment reduction (%x) : (tensor<8x4xf32>) -> tensor<8xf32> {
    ^bb0(%a: tensor<8x4xf32>):
      %s = fuser.reduction add %a [1] : tensor<8x4xf32> -> tensor<8xf32>
      fuser.yield %s : tensor<8xf32>
    }
    ```
  }];
  let arguments = (ins Fuser_SegmentKindAttr:$kind,
                       Variadic<Fuser_Value>:$inputs,
                       OptionalAttr<Fuser_ScheduleAttr>:$schedule);
  let results = (outs Variadic<Fuser_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    custom<EnumKeyword>($kind) `(` $inputs `)` attr-dict
    `:` functional-type($inputs, $results)
    $body
  }];
  let hasVerifier = 1;
}

def Fuser_YieldOp : Fuser_Op<"yield",
    [Pure, ReturnLike, Terminator, HasParent<"SegmentOp">]> {
  let summary = "segment terminator";
  let description = [{
    Returns the segment's results, like `func.return` for a function
    (`ReturnLike`): its operands become the results of the enclosing
    `fuser.segment`.
  }];
  let arguments = (ins Variadic<Fuser_Tensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // FUSER_DIALECT_FUSER_IR_FUSEROPS_TD
