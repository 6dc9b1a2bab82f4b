//===- FuserAttrs.td - fuser enum attributes ---------------*- tablegen -*-===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSERATTRS_TD
#define FUSER_DIALECT_FUSER_IR_FUSERATTRS_TD

include "fuser/Dialect/Fuser/IR/FuserBase.td"
include "mlir/IR/EnumAttr.td"

def Fuser_ReductionKind : I32EnumAttr<"ReductionKind", "reduction combiner", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Mul", 1, "mul">,
    I32EnumAttrCase<"Max", 2, "max">,
    I32EnumAttrCase<"Min", 3, "min">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::fuser";
}
def Fuser_ReductionKindAttr
    : EnumAttr<Fuser_Dialect, Fuser_ReductionKind, "reduction_kind">;

// nvFuser's CacheOp: the load cache hint a `set` carries.
def Fuser_CacheOp : I32EnumAttr<"CacheOp", "load cache hint", [
    I32EnumAttrCase<"Unspecified", 0, "unspecified">,
    I32EnumAttrCase<"AllLevels", 1, "all_levels">,
    I32EnumAttrCase<"Streaming", 2, "streaming">,
    I32EnumAttrCase<"Global", 3, "global">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::fuser";
}
def Fuser_CacheOpAttr : EnumAttr<Fuser_Dialect, Fuser_CacheOp, "cache_op">;

def Fuser_SegmentKind : I32EnumAttr<"SegmentKind", "kind of a segment", [
    I32EnumAttrCase<"Pointwise", 0, "pointwise">,
    I32EnumAttrCase<"Reduction", 1, "reduction">,
    I32EnumAttrCase<"Alias", 2, "alias">,
    I32EnumAttrCase<"Normalization", 3, "normalization">,
    I32EnumAttrCase<"Library", 4, "library">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::fuser";
}
def Fuser_SegmentKindAttr
    : EnumAttr<Fuser_Dialect, Fuser_SegmentKind, "segment_kind">;

def Fuser_ScheduleKind : I32EnumAttr<"ScheduleKind", "kernel schedule", [
    I32EnumAttrCase<"Pointwise", 0, "pointwise">,
    I32EnumAttrCase<"OuterReduction", 1, "outer_reduction">,
    I32EnumAttrCase<"InnerReduction", 2, "inner_reduction">,
    I32EnumAttrCase<"Normalization", 3, "normalization">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::fuser";
}

def Fuser_ScheduleAttr : AttrDef<Fuser_Dialect, "Schedule"> {
  let mnemonic = "schedule";
  let summary = "how a kernel segment runs: chosen by fuser-schedule";
  let description = [{
    Recorded on a kernel `fuser.segment` by `fuser-schedule` and only read by
    the lowering (docs/Lowering.md), as Triton records layouts:

    - `kind`: `pointwise`, `outer_reduction` (no reduced axis is innermost in
      memory: each thread accumulates its outputs over the reduced axes) or
      `inner_reduction` (the innermost axis is reduced: threads of a block
      share each output and combine across lanes and warps) or
      `normalization` (a `normalization` segment: one block per row, one
      block-wide combine per reduction, then the row's outputs; for an
      outer normalization, whose reductions keep the innermost axis, a
      block per tile of columns, as a tiled split);
    - `vector`: consecutive elements of the innermost output axis each
      thread computes, loaded and stored as one vector where the layout
      allows;
    - `threads`: threads per block;
    - `split`: threads that share the reduced axes of one output group (1:
      none; they combine their partial results across the block). An
      `inner_reduction` splits over all its threads (a block per output); an
      `outer_reduction` may split over fewer (a tiled split: a block covers
      `threads / split` consecutive outputs, `split` thread groups each fold
      a strided share of their reduced elements, then one thread per output
      combines the groups' partials through workgroup memory), reading one
      element per thread at a time (`vector = 1`); a `normalization`
      splits over all its threads (a block per row), or, for an outer
      normalization, tiles `threads / split` consecutive columns the same
      way (`vector = 1`; each thread combines the groups' partials of its
      column itself);
    - `blocks`: blocks in the grid;
    - `accumulators` (default 1, then not printed): independent partial
      results each thread of a split `inner_reduction` or inner
      `normalization` keeps per reduction, step j of each group of
      `accumulators` strided steps going to the j-th; they are combined
      pairwise when the thread's walk ends. More dependent chains in flight
      for a CPU core's out-of-order window; a GPU hides that latency with
      other warps.

    ```mlir
    #fuser.schedule<outer_reduction, vector = 8, threads = 256, split = 1, blocks = 2048>
    #fuser.schedule<inner_reduction, vector = 16, threads = 32, split = 32, blocks = 8192, accumulators = 4>
    ```
  }];
  let parameters = (ins EnumParameter<Fuser_ScheduleKind>:$kind,
                        "int64_t":$vector, "int64_t":$threads,
                        "int64_t":$split, "int64_t":$blocks,
                        DefaultValuedParameter<"int64_t", "1">:$accumulators);
  let assemblyFormat = "`<` $kind `,` struct($vector, $threads, $split, $blocks, $accumulators) `>`";
  let genVerifyDecl = 1;
}

#endif // FUSER_DIALECT_FUSER_IR_FUSERATTRS_TD
