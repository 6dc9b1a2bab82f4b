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
           "Also fold cast chains by nvFuser's ConsecutiveCastPass rule "
           "(keep only the narrowest type of each chain), even where that "
           "drops a rounding step (may change results in rare cases)">,
  ];
  let dependentDialects = ["::mlir::fuser::FuserDialect"];
}

def FuserDecomposeAttention
    : Pass<"fuser-decompose-attention", "func::FuncOp"> {
  let summary = "fuser.sdpfa_fwd and fuser.sdpfa_bwd as gemms around a "
                "softmax";
  let description = [{
    Rewrites each attention op into the fuser ops that compute it in f32,
    as the interpreter does: `fuser.matmul` for `q k^T` (a `permute` of
    the key), the scale, the forward's bias (`expand`, `add`) and mask
    (`expand`, `where` with -inf), the causal mask (`iota`, `gt`, `where`
    with -inf), the row max, `exp`, the row sum and the division (the
    forward's softmax; `logsumexp = max + log(sum)`), the dropout's
    factors (`fuser.uniform` from the op's seed and offset, `ge`, `where`),
    and `fuser.matmul` for the products with the value; the backward's
    `p = exp(s - logsumexp)`, `p^T dO`, `dO v^T`, `sum(dO * O)`, `ds` and
    its two products. Casts to f32 before, to the element type after; the
    Philox seed becomes `[seed, offset]` (zeros without dropout), the
    offset 0. The segmenter then makes library
    segments of the gemms and normalization kernels of the softmax: the
    GPU path, whose cuBLASLt has gemms only, runs attention this way
    (docs/Lowering.md). The scores and probabilities are materialized:
    `batch x L x S` f32 each. A backward with `dropout_p > 0` draws the
    forward's mask from the seed and offset of the `fuser.sdpfa_fwd` that
    made its `philox_seed` (which is decomposed after it); where
    `philox_seed` comes from elsewhere (an input) it is left alone: the
    seed is in a tensor, and `fuser.uniform` takes scalars (the CUDA
    backend refuses it).
  }];
  let dependentDialects = ["::mlir::fuser::FuserDialect",
                           "::mlir::arith::ArithDialect"];
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

def FuserSegment : Pass<"fuser-segment", "func::FuncOp"> {
  let summary = "Partitions each fusion into fuser.segment ops";
  let description = [{
    Partitions each fusion into kernels (`pointwise`, `reduction` and
    `normalization` segments) and `alias` segments that launch nothing, so
    that outside the segments the function only passes values
    (docs/Segmentation.md). Meta ops that only lead to returned values
    larger than their source become views of it. Each other op starts as a
    kernel of its own; a priority queue of candidate merges (producer and
    consumer, and kernels that read a common tensor), keyed by the
    estimated time a merge saves on the target (and once more in program
    order, keeping the run with fewer kernels), merges while a kernel
    template (pointwise, reduction, inner or outer normalization) takes the
    union, no `segment_set` is crossed and no cycle forms. Then kernels that are
    still independent merge where a template takes them (one launch fewer),
    views of memory written anyway become aliases, and cheap values are
    recomputed in their readers where that moves fewer bytes. Functions
    that already hold segments are left alone.
  }];
  let options = [
    Option<"normalization", "normalization", "bool", /*default=*/"true",
           "Let a reduction's kernel also compute what reads its result "
           "back onto its rows or columns (inner and outer normalization "
           "kernels)">,
    Option<"launchOverheadUs", "launch-overhead-us", "double",
           /*default=*/"3.0",
           "Estimated microseconds one kernel launch costs (TargetInfo)">,
    Option<"bandwidthGBps", "bandwidth-gbps", "double", /*default=*/"4300.0",
           "Estimated memory bandwidth in GB/s (TargetInfo: an H200's copy "
           "bandwidth)">,
    Option<"sharedMemoryPerBlock", "shared-memory-per-block", "int64_t",
           /*default=*/"49152",
           "Bytes of shared memory a block may hold: the budget of a "
           "normalization's rows (TargetInfo)">,
  ];
  let dependentDialects = ["::mlir::fuser::FuserDialect"];
}

def FuserSegmentReport : Pass<"fuser-segment-report", "ModuleOp"> {
  let summary = "Prints the kernels and memory traffic of segmented fusions";
  let description = [{
    For each segmented fusion: the number of kernels, and per segment its
    kind, inputs and outputs with types, and the bytes it reads (each
    distinct input once) and writes (each output once); for a segment that
    carries a schedule (fuser-schedule), its launch geometry; for a kernel
    read by another kernel that no kernel template takes together with it,
    the template's reason (on the target of `shared-memory-per-block`, as
    fuser-segment's option of that name: give both the same value). Alias
    segments launch no kernel, move no bytes, and show each result as a
    strided view of an input.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write the report to ('-' is stdout)">,
    Option<"sharedMemoryPerBlock", "shared-memory-per-block", "int64_t",
           /*default=*/"49152",
           "Bytes of shared memory a block may hold, for the reasons two "
           "kernels are not one (fuser-segment's option of that name)">,
  ];
}

def FuserSegmentGraph : Pass<"fuser-segment-graph", "ModuleOp"> {
  let summary = "Writes the segment graph of segmented fusions as Graphviz DOT";
  let description = [{
    One `digraph` per fusion: ellipses for the fusion inputs and results,
    boxes for segments (dashed for aliases) labelled with kind and bytes,
    edges labelled with the value they carry.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write the DOT graph to ('-' is stdout)">,
  ];
}

def FuserSchedule : Pass<"fuser-schedule", "func::FuncOp"> {
  let summary = "Chooses the schedule of every kernel segment";
  let description = [{
    Records a `#fuser.schedule` on every `pointwise` and `reduction`
    segment that has none, from the segment's shapes and layouts, by the
    heuristics of docs/Lowering.md (all of them in Schedule.cpp): the
    schedule kind from where the reduced axes lie in memory, the vector
    width from the innermost extents and element sizes (16-byte accesses
    where they divide), the block size, and a split of the reduced axes
    across threads when the outputs alone cannot fill the chip. Segments
    that already carry a schedule keep it.
  }];
  let options = [
    Option<"smCount", "sm-count", "int64_t", /*default=*/"132",
           "Streaming multiprocessors to fill (132: H100/H200 SXM)">,
    Option<"splitReductions", "split-reductions", "bool", /*default=*/"true",
           "Let the threads of a block split a reduction (false: each "
           "reduction output is computed by one thread in the order the "
           "interpreter uses)">,
    Option<"accessBytes", "access-bytes", "int64_t", /*default=*/"16",
           "Bytes of the widest memory access of one thread (16: a GPU's "
           "128-bit loads; the CPU backend asks for 64)">,
    Option<"maxRowThreads", "max-row-threads", "int64_t", /*default=*/"512",
           "Threads of a block that splits rows (normalizations, inner "
           "reductions) at most, 32 or more (the CPU backend asks for 32)">,
    Option<"accumulators", "accumulators", "int64_t", /*default=*/"1",
           "Independent partials per reduction of a thread that walks a "
           "row (1: a GPU; the CPU backend asks for 4)">,
    Option<"registerBytes", "register-bytes", "int64_t", /*default=*/"0",
           "Bytes of a vector register, which a pointwise thread's lanes "
           "of the f32 (or wider) values it computes fill at most (0: no "
           "bound, a GPU; the CPU backend asks for 64)">,
  ];
}

#endif // FUSER_DIALECT_FUSER_TRANSFORMS_PASSES_TD
