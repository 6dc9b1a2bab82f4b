"""nvFuser's argsort and topk (issue 46) through the direct API on the
interpreter, the CPU backend and the SIMT emulator, against numpy's stable
argsort: rows of odd lengths, every dim, ties in their index order (the
sort is stable; nvFuser's stable=False allows that order too), NaN above
every number (torch's order: last ascending, first descending), integers
and half types, a 0-D tensor, empty dims, a symbolic k, nvFuser's printed
form and its construction errors."""
import numpy as np
import pytest

from fuser_mlir import FusionValueError
from fuser_mlir.nvfuser_direct import DataType, FusionDefinition

BACKENDS = ["interp", "cpu", "simt"]


def reference(x, axis, descending):
    """Stable argsort with NaN above every number (torch's order)."""
    x = np.asarray(x, np.float64) if x.dtype.kind == "f" else x
    if x.dtype.kind == "f":
        # Ascending: NaN last. Descending: sort -x with NaN first, i.e. sort
        # -x where NaN becomes -inf-ish ahead of everything.
        key = np.where(np.isnan(x), -np.inf if descending else np.inf,
                       -x if descending else x)
        # Among NaNs and the infinities they stand next to, keep NaN outside.
        order = np.argsort(key, axis=axis, kind="stable")
        nan_first = np.take_along_axis(np.isnan(x), order, axis)
        rank = np.where(nan_first, 0 if descending else 2, 1)
        return np.take_along_axis(order, np.argsort(rank, axis=axis, kind="stable"), axis)
    return np.argsort(-x if descending else x, axis=axis, kind="stable")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("length", [1, 31, 33, 64, 200, 1000])
@pytest.mark.parametrize("descending", [False, True])
def test_rows_with_ties_and_nan(backend, length, descending):
    rng = np.random.default_rng(length)
    x = np.round(rng.standard_normal((3, length)) * 2).astype(np.float32)
    x[rng.random(x.shape) < 0.1] = np.nan
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        fd.add_output(fd.ops.argsort(t, dim=1, descending=descending, stable=True))
    (out,) = fd.execute([x], backend=backend)
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out, reference(x, 1, descending))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dim", [0, 1, 2, -1, -3])
@pytest.mark.parametrize("dtype, np_dtype", [(DataType.Int32, np.int32),
                                             (DataType.Int, np.int64),
                                             (DataType.Half, np.float16),
                                             (DataType.Double, np.float64)])
def test_every_dim_and_dtype(backend, dim, dtype, np_dtype):
    x = np.random.default_rng(7).integers(-9, 10, (4, 5, 6)).astype(np_dtype)
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1, -1], dtype=dtype)
        fd.add_output(fd.ops.argsort(t, dim=dim))
    (out,) = fd.execute([x], backend=backend)
    np.testing.assert_array_equal(out, reference(x, dim, False))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("largest", [True, False])
def test_topk_values_and_indices(backend, largest):
    x = np.random.default_rng(3).standard_normal((6, 40)).astype(np.float32)
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        k = fd.define_scalar(dtype=DataType.Int)
        values, indices = fd.ops.topk(t, k, dim=1, largest=largest, sorted=True)
        fd.add_output(values)
        fd.add_output(indices)
    got_values, got_indices = fd.execute([x, 5], backend=backend)
    order = reference(x, 1, largest)[:, :5]
    np.testing.assert_array_equal(got_indices, order)
    np.testing.assert_array_equal(got_values, np.take_along_axis(x, order, 1))


def test_zero_dim_and_empty():
    with FusionDefinition() as fd:
        s = fd.define_tensor(shape=[], dtype=DataType.Float)
        e = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        fd.add_output(fd.ops.argsort(s, dim=0))
        fd.add_output(fd.ops.argsort(e, dim=1))
    zero, empty = fd.execute([np.float32(3.5), np.zeros((3, 0), np.float32)])
    assert zero.shape == () and zero == 0
    assert empty.shape == (3, 0) and empty.dtype == np.int64


def test_repr_as_nvfuser_prints_it():
    # repr(fd) of the real nvFuser 0.2.36: dims wrapped, false flags left out.
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        fd.add_output(fd.ops.argsort(t0, dim=-1, descending=True, stable=True))
        fd.add_output(fd.ops.argsort(t0, 0))
    assert repr(fd).splitlines()[2:4] == [
        "    tv1 = fd.ops.argsort(tv0, dim=1, descending=True, stable=True)",
        "    tv2 = fd.ops.argsort(tv0, dim=0)",
    ]


def test_construction_errors():
    # nvFuser's messages, which its opinfo error samples match.
    with pytest.raises(FusionValueError, match="Tried to access out of boundary index"):
        with FusionDefinition() as fd:
            t = fd.define_tensor(shape=[4, 7], dtype=DataType.Float)
            fd.ops.topk(t, 3, dim=2)
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[4, 7], dtype=DataType.Float)
        k = fd.define_scalar(dtype=DataType.Int)
        fd.add_output(fd.ops.topk(t, k, dim=1)[0])
    x = np.zeros((4, 7), np.float32)
    with pytest.raises(FusionValueError, match="k out of range"):
        fd.execute([x, 8])
    with pytest.raises(FusionValueError, match="Invalid resized domain extent"):
        fd.execute([x, -5])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("length, k", [(1, 1), (31, 8), (33, 1), (1000, 16), (70000, 8)])
@pytest.mark.parametrize("largest", [True, False])
def test_topk_selection_against_numpy(backend, length, k, largest):
    # Rows of odd lengths with ties, NaN and both signed zeros: a selection
    # kernel (SelectRowKernel) keeps the first k where k < length, the
    # argsort of the row's one element where length is 1; torch's order
    # (stable, NaN above every number, -0.0 equal to +0.0) either way.
    rng = np.random.default_rng(length + k)
    x = np.round(rng.standard_normal((3, length)) * 2).astype(np.float32)
    x[rng.random(x.shape) < 0.05] = np.nan
    x[rng.random(x.shape) < 0.05] = -0.0
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        values, indices = fd.ops.topk(t, k, dim=1, largest=largest, sorted=True)
        fd.add_output(values)
        fd.add_output(indices)
    got_values, got_indices = fd.execute([x], backend=backend)
    order = reference(x, 1, largest)[:, :k]
    np.testing.assert_array_equal(got_indices, order)
    want = np.take_along_axis(x, order, 1)
    assert np.array_equal(got_values.view(np.uint32), want.view(np.uint32))
    segments = fd.segments(shapes=[list(x.shape)])
    assert len([s for s in segments if s.kind != "alias"]) == 1
