"""The tolerances of FusionDefinition.validate: nvFuser's (its
validator_utils: getTolerance over the size of the reductions an output
depends on), so that a check that passes with nvFuser passes here."""

__all__ = ["reduction_sizes", "tolerance"]

# (reduction size, absolute tolerance): measured by nvFuser on randn + add +
# sum against double precision.
_SUM_TOLERANCES_FLOAT = [
    (4, 1.68222e-06), (8, 2.23704e-06), (16, 2.95788e-06), (32, 4.4778e-06),
    (64, 6.75395e-06), (128, 8.57934e-06), (256, 1.30594e-05), (512, 2.19122e-05),
    (1024, 3.3451e-05), (2048, 5.78476e-05), (4096, 0.000108292), (8192, 0.00012207),
    (16384, 0.000136882), (32768, 0.000248561), (65536, 0.000407594),
    (131072, 0.000500901), (262144, 0.000923019), (524288, 0.00156909),
    (1048576, 0.00223107), (2097152, 0.00343043)]
_SUM_TOLERANCES_HALF = [
    (4, 0.00390625), (8, 0.0078125), (16, 0.0078125), (32, 0.0155334), (64, 0.0156269),
    (128, 0.0312042), (256, 0.0312548), (512, 0.0619979), (1024, 0.0625103),
    (2048, 0.124686), (4096, 0.12501), (8192, 0.24945), (16384, 0.250049),
    (32768, 0.498946), (65536, 0.500071), (131072, 0.985087), (262144, 1.00006),
    (524288, 1.99234), (1048576, 2.00032), (2097152, 3.99073)]


def tolerance(dtype, reduction_size):
    """(atol, rtol) for an output of numpy dtype name `dtype` over
    reductions of `reduction_size` elements (1: none)."""
    if dtype in ("float32", "float64", "complex64", "complex128"):
        table, scale = _SUM_TOLERANCES_FLOAT, 1.0
    elif dtype == "float16":
        table, scale = _SUM_TOLERANCES_HALF, 1.0
    elif dtype == "bfloat16":
        table, scale = _SUM_TOLERANCES_HALF, 10.0
    elif dtype in ("float8_e4m3fn", "float8_e5m2"):
        # A result rounded to 4 (3) significant bits: one ulp is 2^-3 (2^-2)
        # of the value.
        return 0.0, 0.125 if dtype == "float8_e4m3fn" else 0.25
    else:
        return 0.0, 0.0
    if reduction_size <= 1:
        return table[0][1], table[1][1]
    entry = next((i for i, (size, _) in enumerate(table) if size >= reduction_size),
                 len(table))
    atol = table[entry + 1][1] if entry + 1 < len(table) else table[-1][1] * 2
    return atol * scale, atol * 0.01 * scale


_REDUCTIONS = ("ops.sum", "ops.prod", "ops.max", "ops.min", "ops.var", "ops.var_mean",
               "ops.welford")
# Ops whose output sums over the last extent of their first operand (K), as
# nvFuser's matmul, linear and grouped_mm outputs hold a reduction domain of
# extent K (a grouped contraction sums a part of it).
_CONTRACTIONS = ("ops.matmul", "ops.linear", "ops.grouped_mm")
# Attention ops: the position of the query among their tensor operands.
_ATTENTION = {"ops.sdpfa_fwd": 0, "ops.sdpfa_bwd": 1}


def reduction_sizes(records, build):
    """State index -> how many elements the reductions and contractions a
    tensor depends on combine (products along a chain, the largest over
    operands)."""
    from ._states import Tensor
    sizes = {}
    for record in records:
        if not isinstance(record.out, Tensor):
            continue
        operands = [a for arg in record.args
                    for a in (arg if isinstance(arg, list) else [arg]) if isinstance(a, Tensor)]
        size = max([sizes.get(a.index, 1) for a in operands] + [1])
        if record.call in _REDUCTIONS:
            shape = build.tensor_type(operands[0])[0]
            for dim in build.extents(record.kwargs["dims"], "the reduction's dims"):
                size *= shape[dim]
        elif record.call in _CONTRACTIONS:
            size *= build.tensor_type(operands[0])[0][-1]
        elif record.call in _ATTENTION:
            # The chained sums' extents (LibraryOpInterface::getReductionSize):
            # E + S forward, E + Ev + L + S backward.
            q, _, v = (build.tensor_type(t)[0] for t in operands[_ATTENTION[record.call]:][:3])
            size *= q[-1] + v[-2] + (v[-1] + q[-2] if record.call == "ops.sdpfa_bwd" else 0)
        for out in (record.out,) + tuple(getattr(record, "extra_outs", ())):
            sizes[out.index] = size
    return sizes
