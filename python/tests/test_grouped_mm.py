"""nvFuser's unscaled grouped_mm (torch._grouped_mm; issue 47) through the
direct API: G gemms split by Int32 offsets (cumulative group ends) of the
rows ([M, K] x [G, K, N] -> [M, N]), the columns ([G, M, K] x [K, N] ->
[M, N]) or the contraction ([M, K] x [K, N] -> [G, M, N]), in bf16, f16 and
f32, against a numpy f64 reference that loops over the groups (computed
independently of fuser_mlir), within nvFuser's matmul tolerance for K, on
the interpreter, the CPU backend (a BLAS gemm per group) and SIMT (the CUDA
backend copies the offsets to the host and makes a cuBLASLt call per group,
to the emulator's fake cuBLASLt). Rows (columns) past the last offset
are 0 (torch leaves them unwritten); empty groups give no rows, or zeros
for a grouped contraction. An MoE block (gate/up, silu, down, routing
probabilities) segments into three library segments with the pointwise
work fused between them. Bad definitions and bad offsets raise."""
import collections

import ml_dtypes
import numpy as np
import pytest

from fuser_mlir import (DataType, FusionDefinition, FusionError, FusionTypeError,
                        FusionValueError, nvfuser_direct)
from fuser_mlir._errors import FusionNotImplementedError

BF16 = ml_dtypes.bfloat16
DTYPES = {"bf16": (BF16, DataType.BFloat16), "f16": (np.float16, DataType.Half),
          "f32": (np.float32, DataType.Float)}
NP_TO_DTYPE = {np.dtype(np_dtype): dtype for np_dtype, dtype in DTYPES.values()}
NP_TO_DTYPE[np.dtype(np.int32)] = DataType.Int32
NP_TO_DTYPE[np.dtype(np.int64)] = DataType.Int
NP_TO_DTYPE[np.dtype(np.float64)] = DataType.Double


def define(fd, array):
    return fd.define_tensor(shape=list(array.shape), dtype=NP_TO_DTYPE[array.dtype])


def reference(mat1, mat2, offsets):
    """torch._grouped_mm's loop over groups, in f64, rounded once to the
    dtype; rows (columns) past the last offset 0."""
    a, b = mat1.astype(np.float64), mat2.astype(np.float64)
    starts = [0] + list(offsets[:-1])
    if b.ndim == 3:
        out = np.zeros((a.shape[0], b.shape[2]))
        for g, (start, end) in enumerate(zip(starts, offsets)):
            out[start:end] = a[start:end] @ b[g]
    elif a.ndim == 3:
        out = np.zeros((a.shape[1], b.shape[1]))
        for g, (start, end) in enumerate(zip(starts, offsets)):
            out[:, start:end] = a[g] @ b[:, start:end]
    else:
        out = np.zeros((len(offsets), a.shape[0], b.shape[1]))
        for g, (start, end) in enumerate(zip(starts, offsets)):
            out[g] = a[:, start:end] @ b[start:end]
    return out.astype(mat1.dtype)


def grouped_fusion(*arrays):
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.grouped_mm(*[define(fd, a) for a in arrays]))
    return fd


# (mat1 shape, mat2 shape, offsets): odd sizes, an empty group, a last
# offset before the extent, and one at it.
FORMS = {
    "rows": ((19, 24), (4, 24, 13), [0, 3, 10, 16]),
    "rows_full": ((10, 7), (3, 7, 5), [4, 4, 10]),
    "columns": ((3, 6, 9), (9, 17), [0, 4, 10]),
    "contraction": ((5, 23), (23, 6), [0, 4, 13, 22]),
    "contraction_full": ((7, 33), (33, 9), [11, 11, 33]),
}


def inputs_for(form, np_dtype, seed):
    shape1, shape2, offsets = FORMS[form]
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape1).astype(np_dtype),
            rng.standard_normal(shape2).astype(np_dtype), np.array(offsets, np.int32)]


@pytest.mark.parametrize("backend", ["interp", "cpu", "simt"])
@pytest.mark.parametrize("dtype_name", list(DTYPES))
@pytest.mark.parametrize("form", list(FORMS))
def test_grouped_mm(form, dtype_name, backend):
    np_dtype, _ = DTYPES[dtype_name]
    inputs = inputs_for(form, np_dtype, seed=len(form) * 10 + len(dtype_name))
    expected = reference(*inputs)
    fd = grouped_fusion(*inputs)
    (out,) = fd.validate(inputs, [expected], backend=backend)
    assert out.dtype == np_dtype and out.shape == expected.shape
    # What no group covers is exactly +0.0, not merely within tolerance.
    mat1, mat2, offsets = inputs
    last = int(offsets[-1])
    if mat2.ndim == 3:
        assert not out[last:].astype(np.float64).any()
    elif mat1.ndim == 3:
        assert not out[:, last:].astype(np.float64).any()
    empty = [g for g in range(len(offsets)) if offsets[g] == (offsets[g - 1] if g else 0)]
    if mat1.ndim == 2 and mat2.ndim == 2:
        for g in empty:
            assert not out[g].astype(np.float64).any()


@pytest.mark.parametrize("backend", ["cpu", "simt"])
def test_matches_interpreter(backend):
    """The BLAS (and the fake cuBLASLt, which calls it) adds in its own
    order: within the rule of the interpreter."""
    inputs = inputs_for("rows", BF16, seed=3)
    fd = grouped_fusion(*inputs)
    (interp,) = fd.execute(inputs, backend="interp")
    fd.validate(inputs, [interp], backend=backend)


def test_nvfuser_case():
    """python/tests_nvfuser/cases.py's grouped_mm: [32, 32] x [2, 32, 16]."""
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal((32, 32)).astype(BF16),
              rng.standard_normal((2, 32, 16)).astype(BF16), np.array([12, 32], np.int32)]
    fd = grouped_fusion(*inputs)
    for backend in ("interp", "cpu", "simt"):
        (out,) = fd.validate(inputs, [reference(*inputs)], backend=backend)
        assert out.shape == (32, 16) and out.dtype == BF16


def moe_fusion(tokens, hidden, inter, experts, dtype):
    with FusionDefinition() as fd:
        x = fd.define_tensor(shape=[tokens, hidden], dtype=dtype)
        w_gate = fd.define_tensor(shape=[experts, hidden, inter], dtype=dtype)
        w_up = fd.define_tensor(shape=[experts, hidden, inter], dtype=dtype)
        w_down = fd.define_tensor(shape=[experts, inter, hidden], dtype=dtype)
        offsets = fd.define_tensor(shape=[experts], dtype=DataType.Int32)
        probs = fd.define_tensor(shape=[tokens, 1], dtype=DataType.Float)
        gate = fd.ops.grouped_mm(x, w_gate, offsets)
        up = fd.ops.grouped_mm(x, w_up, offsets)
        h = fd.ops.cast(fd.ops.mul(fd.ops.silu(gate), up), dtype)
        down = fd.ops.grouped_mm(h, w_down, offsets)
        fd.add_output(fd.ops.cast(fd.ops.mul(down, probs), dtype))
    return fd


def moe_inputs(tokens, hidden, inter, offsets, np_dtype, seed):
    rng = np.random.default_rng(seed)
    experts = len(offsets)
    return [rng.standard_normal((tokens, hidden)).astype(np_dtype),
            (rng.standard_normal((experts, hidden, inter)) / np.sqrt(hidden)).astype(np_dtype),
            (rng.standard_normal((experts, hidden, inter)) / np.sqrt(hidden)).astype(np_dtype),
            (rng.standard_normal((experts, inter, hidden)) / np.sqrt(inter)).astype(np_dtype),
            np.array(offsets, np.int32), rng.uniform(size=(tokens, 1)).astype(np.float32)]


def moe_reference(x, w_gate, w_up, w_down, offsets, probs):
    """In f64, rounded to the dtype where the program rounds."""
    dtype = x.dtype
    gate = reference(x, w_gate, offsets).astype(np.float64)
    up = reference(x, w_up, offsets).astype(np.float64)
    h = (gate / (1.0 + np.exp(-gate)) * up).astype(dtype)
    down = reference(h, w_down, offsets).astype(np.float64)
    return (down * probs.astype(np.float64)).astype(dtype)


@pytest.mark.parametrize("backend", ["interp", "cpu", "simt"])
@pytest.mark.parametrize("dtype_name", ["bf16", "f32"])
def test_moe(dtype_name, backend):
    np_dtype, dtype = DTYPES[dtype_name]
    tokens, hidden, inter, offsets = 21, 16, 24, [0, 6, 12, 18]
    fd = moe_fusion(tokens, hidden, inter, len(offsets), dtype)
    inputs = moe_inputs(tokens, hidden, inter, offsets, np_dtype, seed=7)
    expected = moe_reference(*inputs)
    (out,) = fd.validate(inputs, [expected], backend=backend)
    # Tokens past the last offset (dropped) are 0.
    assert not out[18:].astype(np.float64).any()
    error = np.linalg.norm(out.astype(np.float64) - expected.astype(np.float64)) \
        / np.linalg.norm(expected.astype(np.float64))
    assert error < (1e-2 if np_dtype == BF16 else 1e-5), error


def test_moe_segments():
    """One library segment per grouped_mm (as nvFuser's ExprEval segments)
    and two pointwise kernels: silu(gate) * up cast to bf16, which the down
    projection reads, and the routing probability times its result."""
    tokens, hidden, inter, offsets = 21, 16, 24, [0, 6, 12, 18]
    fd = moe_fusion(tokens, hidden, inter, len(offsets), DataType.BFloat16)
    segments = fd.segments()
    assert collections.Counter(s.kind for s in segments) == {"library": 3, "pointwise": 2}
    library = [s for s in segments if s.kind == "library"]
    # Each call reads its activation, its expert weights and the offsets.
    for s in library:
        assert [i["dtype"] for i in s.inputs][-1] == DataType.Int32
    inputs = moe_inputs(tokens, hidden, inter, offsets, BF16, seed=9)
    np.testing.assert_array_equal(fd.segment().execute(inputs, backend="interp")[0],
                                  fd.execute(inputs, backend="interp")[0])


@pytest.mark.parametrize("backend", ["interp", "cpu", "simt"])
@pytest.mark.parametrize("offsets, message", [
    ([10, 7, 4], "grouped_mm's offsets[1] = 7 is less than offsets[0] = 10: offsets must not "
                 "decrease"),
    ([5, 25, 25], "grouped_mm's offsets[1] = 25 is past the grouped dim's extent 16"),
    ([-1, 2, 3], "grouped_mm's offsets[0] = -1 is negative"),
])
def test_bad_offsets(offsets, message, backend):
    inputs = [np.ones((16, 4), np.float32), np.ones((3, 4, 5), np.float32),
              np.array(offsets, np.int32)]
    fd = grouped_fusion(*inputs)
    with pytest.raises(FusionError, match=message.replace("[", r"\[").replace("]", r"\]")):
        fd.execute(inputs, backend=backend)


def test_bad_definitions():
    f32 = np.zeros((4, 3), np.float32)
    weights = np.zeros((2, 3, 5), np.float32)
    with pytest.raises(FusionTypeError, match="'grouped_mm' takes Int32 offsets"):
        grouped_fusion(f32, weights, np.zeros(2, np.int64))
    with pytest.raises(FusionValueError, match="offsets must be a 1-D tensor of i32"):
        grouped_fusion(f32, weights, np.zeros((1, 2), np.int32))
    with pytest.raises(FusionValueError, match="contraction extents differ: 3 in mat1 dim 1, "
                                               "6 in mat2 dim 1"):
        grouped_fusion(f32, np.zeros((2, 6, 5), np.float32), np.zeros(2, np.int32))
    with pytest.raises(FusionValueError, match="offsets has 3 groups, but mat2's dim 0 has 2"):
        grouped_fusion(f32, weights, np.zeros(3, np.int32))
    with pytest.raises(FusionValueError, match="takes no two 3-D operands"):
        grouped_fusion(np.zeros((2, 4, 3), np.float32), weights, np.zeros(2, np.int32))
    with pytest.raises(FusionTypeError, match="'grouped_mm' takes f16, bf16 or f32 tensors"):
        grouped_fusion(f32.astype(np.float64), weights.astype(np.float64),
                       np.zeros(2, np.int32))


@pytest.mark.parametrize("keyword", ["scale1", "alpha", "bias", "dtype",
                                     "output_block_scale_size", "output_gamma"])
def test_scaled_forms_refused(keyword):
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[4, 3], dtype=DataType.BFloat16)
        b = fd.define_tensor(shape=[2, 3, 5], dtype=DataType.BFloat16)
        offsets = fd.define_tensor(shape=[2], dtype=DataType.Int32)
        value = {"output_block_scale_size": 16, "output_gamma": True,
                 "dtype": DataType.BFloat16}.get(keyword, a)
        with pytest.raises(FusionNotImplementedError,
                           match="grouped_mm's scaled forms \\(%s\\) are not modelled" % keyword):
            fd.ops.grouped_mm(a, b, offsets, **{keyword: value})


def test_repr():
    """repr(fd) prints nvFuser's text of the unscaled form (its
    python_translate.cpp: fd.ops.grouped_mm(mat1, mat2, offsets)), which
    runs again and computes the same."""
    inputs = inputs_for("rows", BF16, seed=11)
    with nvfuser_direct.FusionDefinition() as fd:
        fd.add_output(fd.ops.grouped_mm(*[define(fd, a) for a in inputs]))
    text = repr(fd)
    assert "    tv3 = fd.ops.grouped_mm(tv0, tv1, tv2)\n" in text, text
    namespace = {"DataType": DataType, "FusionDefinition": nvfuser_direct.FusionDefinition}
    exec(text, namespace)
    with nvfuser_direct.FusionDefinition() as again:
        namespace["nvfuser_fusion"](again)
    np.testing.assert_array_equal(again.execute(inputs)[0], fd.execute(inputs)[0])


@pytest.mark.parametrize("backend", ["interp", "cpu"])
def test_symbolic_extents(backend):
    """A definition with symbolic M and K runs for each input's extents (a
    kernel of its own per shape), the groups following the offsets."""
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        b = fd.define_tensor(shape=[3, -1, 4], dtype=DataType.Float)
        offsets = fd.define_tensor(shape=[3], dtype=DataType.Int32)
        fd.add_output(fd.ops.grouped_mm(a, b, offsets))
    rng = np.random.default_rng(5)
    for m, k, ends in [(6, 5, [1, 1, 6]), (11, 2, [4, 7, 9])]:
        inputs = [rng.standard_normal((m, k)).astype(np.float32),
                  rng.standard_normal((3, k, 4)).astype(np.float32), np.array(ends, np.int32)]
        (out,) = fd.validate(inputs, [reference(*inputs)], backend=backend)
        assert out.shape == (m, 4)


@pytest.mark.parametrize("backend", ["interp", "cpu", "simt"])
def test_strided_offsets(backend):
    """Offsets that are a strided view of an input (a column of a [G, 2]
    table: stride 2) are read where they lie by the call, as its other
    operands are, with no kernel before it."""
    rng = np.random.default_rng(8)
    x = rng.standard_normal((12, 5)).astype(np.float32)
    w = rng.standard_normal((3, 5, 7)).astype(np.float32)
    pairs = np.array([[2, -9], [2, -9], [10, -9]], np.int32)
    with FusionDefinition() as fd:
        mat1, mat2, table = define(fd, x), define(fd, w), define(fd, pairs)
        offsets = fd.ops.squeeze(fd.ops.slice(table, [0, 0], [3, 1]), [1])
        fd.add_output(fd.ops.grouped_mm(mat1, mat2, offsets))
    (segment,) = [s for s in fd.segments() if s.kind == "library"]
    assert [i["shape"] for i in segment.inputs] == [(12, 5), (3, 5, 7), (3, 2)]
    fd.validate([x, w, pairs], [reference(x, w, pairs[:, 0])], backend=backend)
