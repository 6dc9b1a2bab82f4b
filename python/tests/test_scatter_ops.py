"""nvFuser's scatter and indexPutAccumulate (issue 46) through the direct
API on the interpreter, the CPU backend and the SIMT emulator, against
references written as loops over the index in row-major order (the
documented order: a later duplicate wins, or is combined later, one
rounding per write): every dim, row lengths 1 to 1000, duplicates, a
shorter index than self and a longer src, scalar src, each combiner,
embedding backward, a consumer of the scatter, nvFuser's printed form and
its construction errors."""
import numpy as np
import pytest

from fuser_mlir import FusionError, FusionTypeError, FusionValueError
from fuser_mlir.nvfuser_direct import DataType, FusionDefinition

BACKENDS = ["interp", "cpu", "simt"]
COMBINE = {None: lambda old, new: new, "add": lambda old, new: old + new,
           "mul": lambda old, new: old * new, "max": max, "min": min}


def reference(self, dim, index, src, reduce=None):
    """torch.scatter(_reduce, include_self=True) in row-major index order,
    in the element type (float32 and int32: every write rounds or wraps
    there, as the kernels compute them)."""
    out = self.copy()
    combine = COMBINE[reduce]
    for p in np.ndindex(*index.shape):
        q = list(p)
        q[dim] = index[p]
        out[tuple(q)] = combine(out[tuple(q)], src[p])
    return out




@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("length", [1, 31, 33, 1000])
def test_duplicates_in_rows_of_any_length(backend, dim, length):
    rng = np.random.default_rng(length + dim)
    shape = [length, 3] if dim == 0 else [3, length]
    index_shape = list(shape)
    index_shape[dim] = max(length // 2, 1)
    src_shape = [e + 1 for e in index_shape]
    x = rng.standard_normal(shape).astype(np.float32)
    index = rng.integers(0, length, index_shape)
    src = rng.standard_normal(src_shape).astype(np.float32)
    with FusionDefinition() as fd:
        t = [fd.define_tensor(shape=[-1, -1], dtype=d)
             for d in (DataType.Float, DataType.Int, DataType.Float)]
        fd.add_output(fd.ops.scatter(t[0], t[1], t[2], dim))
    (out,) = fd.execute([x, index, src], backend=backend)
    np.testing.assert_array_equal(out, reference(x, dim % 2, index, src))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("reduce", ["add", "mul", "max", "min"])
@pytest.mark.parametrize("np_dtype, dtype", [(np.float32, DataType.Float),
                                             (np.int32, DataType.Int32)])
def test_combiners(backend, reduce, np_dtype, dtype):
    rng = np.random.default_rng(3)
    x = rng.integers(-5, 6, (6, 7)).astype(np_dtype)
    index = rng.integers(0, 6, (9, 5))
    src = (rng.standard_normal((9, 7)) * 3).astype(np_dtype)
    with FusionDefinition() as fd:
        t = [fd.define_tensor(shape=[-1, -1], dtype=d) for d in (dtype, DataType.Int, dtype)]
        fd.add_output(fd.ops.scatter(t[0], t[1], t[2], 0, reduce=reduce))
    (out,) = fd.execute([x, index, src], backend=backend)
    np.testing.assert_array_equal(out, reference(x, 0, index, src, reduce))


@pytest.mark.parametrize("backend", BACKENDS)
def test_scalar_src_as_nvfuser_tests_it(backend):
    # nvFuser's test_scatter_scalar_src: distinct indices of a topk along
    # dim 0, a Double scalar written into a float tensor.
    x = np.random.default_rng(1).standard_normal((16, 8)).astype(np.float32)
    index = np.argsort(-x, axis=0, kind="stable")[:4]
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        t1 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Int)
        s2 = fd.define_scalar(None, dtype=DataType.Double)
        fd.add_output(fd.ops.scatter(t0, t1, s2, 0))
    (out,) = fd.execute([x, index, 1.5], backend=backend)
    expected = x.copy()
    np.put_along_axis(expected, index, np.float32(1.5), 0)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_consumer_of_the_scatter(backend):
    # nvFuser's test_scatter_output_intermediate: sigmoid of the scatter.
    rng = np.random.default_rng(2)
    x = rng.standard_normal((32, 16)).astype(np.float32)
    index = np.argsort(-x, axis=0, kind="stable")[:8]
    src = rng.standard_normal((8, 16)).astype(np.float32)
    with FusionDefinition() as fd:
        t = [fd.define_tensor(shape=[-1, -1], dtype=d)
             for d in (DataType.Float, DataType.Int, DataType.Float)]
        fd.add_output(fd.ops.sigmoid(fd.ops.scatter(t[0], t[1], t[2], 0)))
    (out,) = fd.execute([x, index, src], backend=backend)
    scattered = reference(x, 0, index, src).astype(np.float64)
    np.testing.assert_allclose(out, 1 / (1 + np.exp(-scattered)), rtol=1e-6)


@pytest.mark.parametrize("backend", BACKENDS)
def test_index_put_accumulate_as_embedding_backward(backend):
    rng = np.random.default_rng(4)
    grad = rng.standard_normal((50, 16)).astype(np.float32)
    ids = rng.integers(0, 7, 50)
    with FusionDefinition() as fd:
        acc = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        i = fd.define_tensor(shape=[-1], dtype=DataType.Int)
        v = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        fd.add_output(fd.ops.index_put_accumulate(acc, i, v))
    table = np.zeros((7, 16), np.float32)
    (out,) = fd.execute([table, ids, grad], backend=backend)
    expected = table.copy()
    for row, token in enumerate(ids):
        expected[token] += grad[row]
    np.testing.assert_array_equal(out, expected)


def test_index_out_of_range_is_a_located_error():
    with FusionDefinition() as fd:
        t = [fd.define_tensor(shape=[-1], dtype=d)
             for d in (DataType.Float, DataType.Int, DataType.Float)]
        fd.add_output(fd.ops.scatter(t[0], t[1], t[2], 0))
    args = [np.zeros(4, np.float32), np.array([0, 4]), np.ones(2, np.float32)]
    for backend in ("interp", "cpu"):
        with pytest.raises(FusionError, match="index 4 is out of range \\[0, 4\\) along dim 0 "
                                              "at index element 1"):
            fd.execute(args, backend=backend)


def test_repr_as_nvfuser_prints_it():
    # repr(fd) of the real nvFuser 0.2.36 for these definitions.
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        t1 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Int)
        t2 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        s = fd.define_scalar(None, dtype=DataType.Double)
        t3 = fd.ops.scatter(t0, t1, t2, -2)
        fd.add_output(fd.ops.relu(t3))
        t5 = fd.ops.scatter(t0, t1, s, 1)
        fd.add_output(fd.ops.add(t5, fd.define_scalar(2.0)))
    assert repr(fd).splitlines()[4:9] == [
        "    c7 = fd.define_scalar(None, dtype=DataType.Double)",
        "    tv3 = fd.ops.scatter(tv0, tv1, tv2, dim=0)",
        "    tv4 = fd.ops.relu(tv3)",
        "    tv5 = fd.ops.scatter(tv0, tv1, c7, dim=1)",
        "    tv6 = fd.ops.add(tv5, 2.00000)",
    ]


def test_construction_errors():
    # nvFuser's messages for rank and dim; a Python number as src is a
    # TypeError there too (its binding takes a TensorView or a Val).
    with pytest.raises(FusionValueError, match="different dimensions 2, 1 and 1"):
        with FusionDefinition() as fd:
            a = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
            i = fd.define_tensor(shape=[-1], dtype=DataType.Int)
            s = fd.define_tensor(shape=[-1], dtype=DataType.Float)
            fd.ops.scatter(a, i, s, 0)
    with pytest.raises(FusionValueError, match="-2 <= dim < 2, but received 2"):
        with FusionDefinition() as fd:
            a = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
            i = fd.define_tensor(shape=[-1, -1], dtype=DataType.Int)
            fd.ops.scatter(a, i, a, 2)
    with pytest.raises(FusionTypeError, match="src must be a Tensor or a Scalar"):
        with FusionDefinition() as fd:
            a = fd.define_tensor(shape=[-1], dtype=DataType.Float)
            i = fd.define_tensor(shape=[-1], dtype=DataType.Int)
            fd.ops.scatter(a, i, 1.5, 0)
    with pytest.raises(FusionValueError, match="reduce must be one of"):
        with FusionDefinition() as fd:
            a = fd.define_tensor(shape=[-1], dtype=DataType.Float)
            i = fd.define_tensor(shape=[-1], dtype=DataType.Int)
            fd.ops.scatter(a, i, a, 0, reduce="mean")
    with pytest.raises(FusionValueError, match="more than the tensor's 3"):
        with FusionDefinition() as fd:
            a = fd.define_tensor(shape=[4, 3], dtype=DataType.Float)
            i = fd.define_tensor(shape=[2, 5], dtype=DataType.Int)
            s = fd.define_tensor(shape=[2, 5], dtype=DataType.Float)
            fd.ops.scatter(a, i, s, 0)
