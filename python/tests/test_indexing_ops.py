"""nvFuser's indexing ops (issue 45): gather, take_along_axis, index_select,
select and embedding_fwd through the direct API, against numpy on every
host backend (repeated and reversed indices, negative dims, i32 and i64
indices, odd shapes, an embedding of 3-D indices into bf16 rows), fused
with their producers, and the errors nvFuser raises at definition plus the
interpreter's located error for an index out of range."""
import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition, FusionError, FusionValueError
from fuser_mlir._errors import FusionNotImplementedError

BACKENDS = ["interp", "cpu", "simt"]
RNG = np.random.default_rng(45)


def tensor(fd, array):
    dtype = {np.dtype(np.float32): DataType.Float, np.dtype(np.int64): DataType.Int,
             np.dtype(np.int32): DataType.Int32}[array.dtype]
    return fd.define_tensor(shape=[-1] * array.ndim, dtype=dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_index_select(backend, dim):
    x = RNG.standard_normal((5, 7)).astype(np.float32)
    index = np.array([4, 0, 0, 2, 4, 1], np.int64) % x.shape[dim]
    with FusionDefinition() as fd:
        a, i = tensor(fd, x), tensor(fd, index)
        fd.add_output(fd.ops.index_select(fd.ops.mul(a, 3.0), i, dim))
    (out,) = fd.execute([x, index], backend=backend)
    np.testing.assert_array_equal(out, np.take(x * np.float32(3.0), index, axis=dim))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("index_dtype", [np.int64, np.int32])
def test_take_along_axis_and_gather(backend, index_dtype):
    x = RNG.standard_normal((3, 4, 6)).astype(np.float32)
    along = RNG.integers(0, 6, (3, 4, 5)).astype(index_dtype)
    smaller = RNG.integers(0, 4, (2, 3, 6)).astype(index_dtype)
    with FusionDefinition() as fd:
        a, i, j = tensor(fd, x), tensor(fd, along), tensor(fd, smaller)
        fd.add_output(fd.ops.take_along_axis(a, i, 2))
        fd.add_output(fd.ops.gather(a, j, 1))
    took, gathered = fd.execute([x, along, smaller], backend=backend)
    np.testing.assert_array_equal(took, np.take_along_axis(x, along.astype(np.int64), 2))
    # gather: out[a, b, c] = x[a, j[a, b, c], c] over the index's extents.
    expected = np.take_along_axis(x[:2, :, :], smaller.astype(np.int64), 1)
    np.testing.assert_array_equal(gathered, expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_select(backend):
    x = RNG.standard_normal((4, 5, 3)).astype(np.float32)
    with FusionDefinition() as fd:
        a = tensor(fd, x)
        k = fd.define_scalar(dtype=DataType.Int)
        fd.add_output(fd.ops.select(a, k, 1))
        fd.add_output(fd.ops.select(a, 2, -1))
    first, last = fd.execute([x, 3], backend=backend)
    np.testing.assert_array_equal(first, x[:, 3, :])
    np.testing.assert_array_equal(last, x[..., 2])


@pytest.mark.parametrize("backend", BACKENDS)
def test_embedding_fwd(backend):
    weight = RNG.standard_normal((11, 8)).astype(np.float32)
    ids = RNG.integers(0, 11, (2, 3, 4)).astype(np.int64)
    with FusionDefinition() as fd:
        w, i = tensor(fd, weight), tensor(fd, ids)
        wb = fd.ops.cast(w, DataType.BFloat16)
        fd.add_output(fd.ops.embedding_fwd(i, wb, padding_idx=0))
    (out,) = fd.execute([weight, ids], backend=backend)
    assert out.shape == (2, 3, 4, 8)
    expected = fd.execute([weight, ids], backend="interp")[0]
    np.testing.assert_array_equal(np.asarray(out, np.float32), np.asarray(expected, np.float32))
    # The rows are the bf16 rows of the table (bf16 keeps float32's top bits).
    bf16_rows = (weight.view(np.uint32) + 0x7FFF + ((weight.view(np.uint32) >> 16) & 1)) \
        >> 16 << 16
    np.testing.assert_array_equal(np.asarray(out, np.float32),
                                  bf16_rows.astype(np.uint32).view(np.float32)[ids])


def test_index_out_of_range_is_a_located_error():
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        i = fd.define_tensor(shape=[-1], dtype=DataType.Int)
        fd.add_output(fd.ops.index_select(a, i, 0))
    with pytest.raises(FusionError, match="index 4 is out of range \\[0, 4\\) along dim 0"):
        fd.execute([np.zeros((4, 2), np.float32), np.array([1, 4])], backend="interp")


def test_construction_errors():
    with pytest.raises(FusionValueError, match="different dimensions"):
        with FusionDefinition() as fd:
            a = fd.define_tensor(shape=[4, 5], dtype=DataType.Float)
            i = fd.define_tensor(shape=[4], dtype=DataType.Int)
            fd.ops.gather(a, i, 0)
    with pytest.raises(FusionValueError, match="dim argument must satisfy"):
        with FusionDefinition() as fd:
            a = fd.define_tensor(shape=[4, 5], dtype=DataType.Float)
            i = fd.define_tensor(shape=[4, 5], dtype=DataType.Int)
            fd.ops.take_along_axis(a, i, 2)
    with pytest.raises(FusionValueError, match="differ in dim 0"):
        with FusionDefinition() as fd:
            a = fd.define_tensor(shape=[4, 5], dtype=DataType.Float)
            i = fd.define_tensor(shape=[3, 5], dtype=DataType.Int)
            fd.ops.take_along_axis(a, i, 1)
    with pytest.raises(FusionNotImplementedError, match="max_norm"):
        with FusionDefinition() as fd:
            w = fd.define_tensor(shape=[4, 5], dtype=DataType.Float)
            i = fd.define_tensor(shape=[3], dtype=DataType.Int)
            fd.ops.embedding_fwd(i, w, max_norm=1.0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_take_along_axis_broadcasts_extent_one(backend):
    # torch.take_along_dim: an extent 1 of either side broadcasts against
    # the other's (nvFuser's opinfo take_along_dim samples).
    x = RNG.standard_normal((4, 5, 3)).astype(np.float32)
    index = RNG.integers(0, 4, (2, 5, 1)).astype(np.int64)
    with FusionDefinition() as fd:
        a, i = tensor(fd, x), tensor(fd, index)
        fd.add_output(fd.ops.take_along_axis(a, i, 0))
    (out,) = fd.execute([x, index], backend=backend)
    np.testing.assert_array_equal(out, np.take_along_axis(x, np.broadcast_to(index, (2, 5, 3)), 0))


def test_index_select_of_a_0d_index_keeps_the_dim():
    x = RNG.standard_normal((4, 3)).astype(np.float32)
    with FusionDefinition() as fd:
        a = tensor(fd, x)
        i = fd.define_tensor(shape=[], dtype=DataType.Int)
        fd.add_output(fd.ops.index_select(a, i, 0))
    (out,) = fd.execute([x, np.array(2)])
    np.testing.assert_array_equal(out, x[[2]])



@pytest.mark.parametrize("dim", [0, 1, -1])
def test_select_of_a_0d_index_tensor_runs_nvfusers_text(dim):
    # nvFuser prints index_select of a 0-D index as select(tv, tv_index, dim)
    # and a broadcast; that text runs again and selects the same row.
    from fuser_mlir import nvfuser_direct
    x = RNG.standard_normal((4, 3)).astype(np.float32)
    with nvfuser_direct.FusionDefinition() as fd:
        a = fd.define_tensor(shape=[4, 3], dtype=DataType.Float)
        i = fd.define_tensor(shape=[], dtype=DataType.Int)
        fd.add_output(fd.ops.index_select(a, i, dim))
    text = repr(fd)
    assert "fd.ops.select(tv0, tv1, dim=%d)" % (dim % 2) in text
    namespace = {}
    exec(text, {"FusionDefinition": nvfuser_direct.FusionDefinition, "DataType": DataType},
         namespace)
    with nvfuser_direct.FusionDefinition() as again:
        namespace["nvfuser_fusion"](again)
    (out,) = again.execute([x, np.array(1)])
    np.testing.assert_array_equal(out, np.take(x, [1], axis=dim))
