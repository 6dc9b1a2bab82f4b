"""Symbolic definitions (-1 extents, scalar and vector inputs as sizes) are
concretized by each input signature and compiled once per signature: the
cache's counters say what compiled."""
import numpy as np
import pytest

from fuser_mlir import DataType, FusionCache, FusionDefinition, FusionError, nvfuser_direct


@pytest.fixture(autouse=True)
def fresh_cache():
    FusionCache.reset()
    yield
    FusionCache.reset()


def softmax_rows():
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        m = fd.ops.max(t0, dims=[1], keepdim=True)
        e = fd.ops.exp(fd.ops.sub(t0, fd.ops.expand(m, t0.shape())))
        s = fd.ops.sum(e, dims=[1], keepdim=True)
        fd.add_output(fd.ops.div(e, fd.ops.expand(s, t0.shape())))
    return fd


def reference_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("backend", ["interp", "cpu"])
def test_one_definition_many_shapes(backend):
    fd = softmax_rows()
    rng = np.random.default_rng(0)
    for shape in [(2, 3), (5, 7), (1, 4), (3, 1), (2, 3)]:
        x = rng.standard_normal(shape).astype(np.float32)
        (out,) = fd.execute([x], backend=backend)
        np.testing.assert_allclose(out, reference_softmax(x), rtol=1e-5)
    # (2, 3) came twice: four signatures compiled, one run found compiled.
    assert fd.cache_info() == (1, 4, 4)


def test_hits_compile_nothing():
    fd = softmax_rows()
    x = np.ones((4, 8), np.float32)
    fd.execute([x], backend="cpu")
    for _ in range(3):
        fd.execute([x], backend="cpu")
    assert fd.cache_info() == (3, 1, 1)
    # Another definition object with the same definition finds it compiled.
    again = softmax_rows()
    again.execute([x], backend="cpu")
    assert again.cache_info() == (4, 1, 1)
    assert FusionCache.get().num_fusions() == 1


def test_misses():
    """A new shape, a new layout, a new value of a size scalar, another
    backend: each compiles; a scalar that is only an operand does not."""
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        n = fd.define_scalar(DataType.Int)
        alpha = fd.define_scalar(DataType.Double)
        fd.add_output(fd.ops.mul(t0, alpha))
        fd.add_output(fd.ops.full([n], 1.0, DataType.Float))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert fd.execute([x, 2, 0.5])[1].shape == (2,)
    fd.execute([x, 2, 4.0])
    assert fd.cache_info() == (1, 1, 1)
    fd.execute([x, 5, 4.0])                   # n decides a shape
    fd.execute([np.ones((3, 3), np.float32), 5, 4.0])
    scaled, _ = fd.execute([np.asfortranarray(x), 5, 4.0])   # another layout
    np.testing.assert_array_equal(scaled, 4 * x)
    fd.execute([x, 5, 4.0], backend="interp")   # not the default, "cpu"
    assert fd.cache_info() == (1, 5, 5)


def test_new_dtype_is_a_new_definition():
    for dtype in (np.float32, np.float64, np.float32):
        x = np.ones((2, 2), dtype)
        with FusionDefinition() as fd:
            t0 = fd.from_pytorch(x)
            fd.add_output(fd.ops.add(t0, t0))
        fd.execute([x])
    assert FusionCache.get().num_fusions() == 2
    assert fd.cache_info() == (1, 1, 1)


def test_sizes_from_scalars_and_vectors():
    """reshape, full, broadcast_in_dim and expand take sizes computed from
    scalar inputs, vector inputs and Tensor.shape()."""
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        rows = fd.define_scalar(None, dtype=DataType.Int)
        v = fd.define_vector(2)
        grid = fd.ops.reshape(t0, [rows, fd.ops.div(t0.size(0), rows)])
        fd.add_output(grid)
        fd.add_output(fd.ops.reshape(t0, v))
        wide = fd.ops.broadcast_in_dim(fd.ops.sum(grid, dims=[1]), shape=grid.shape(),
                                       broadcast_dims=[0])
        fd.add_output(wide)
    x = np.arange(12, dtype=np.float32)
    grid, flat, wide = fd.execute([x, 3, [6, 2]])
    np.testing.assert_array_equal(grid, x.reshape(3, 4))
    np.testing.assert_array_equal(flat, x.reshape(6, 2))
    np.testing.assert_array_equal(wide, np.repeat(x.reshape(3, 4).sum(1)[:, None], 4, 1))
    grid, flat, wide = fd.execute([x, 2, [3, 4]])
    assert (grid.shape, flat.shape) == ((2, 6), (3, 4))
    assert fd.cache_info().variants == 2
    assert "tensor<2x6xf32>" in fd.mlir([x, 2, [3, 4]])
    assert "tensor<4x3xf32>" in fd.mlir(shapes=[[12], 4, [4, 3]])


def test_sizes_computed_in_floating_point():
    """A size computed from a scalar input in Double arithmetic, with
    comparisons and Bool logic, as nvFuser's test_reshape_dynamic writes
    it: 192 * reciprocal(S0) less whether the
    division is inexact and negative; a Double size (6.25) is truncated, as
    nvFuser casts a reshape extent to Index."""
    with nvfuser_direct.FusionDefinition() as fd:
        s0 = fd.define_scalar(None, dtype=DataType.Int)
        t1 = fd.define_tensor(shape=[-1, -1, -1], dtype=DataType.Float)
        s3 = fd.ops.mul(fd.define_scalar(1, dtype=DataType.Int), s0)
        negative = fd.ops.ne(fd.ops.signbit(s3), fd.define_scalar(False, dtype=DataType.Bool))
        inexact = fd.ops.ne(fd.ops.cast(fd.ops.fmod(192, s3), dtype=DataType.Int), 0)
        rounding = fd.ops.cast(fd.ops.bitwise_and(negative, inexact), dtype=DataType.Int)
        s17 = fd.ops.sub(fd.ops.mul(192, fd.ops.reciprocal(s3)), rounding)
        fd.add_output(fd.ops.sum(fd.ops.reshape(t1, new_shape=[s0, s17]), dims=[1]))
        quarter_more = fd.ops.add(fd.ops.truediv(192, s0), 0.25)
        fd.add_output(fd.ops.reshape(t1, new_shape=[quarter_more, s0]))
    x = np.arange(192, dtype=np.float32).reshape(4, 8, 6)
    for rows in (32, 16):
        summed, truncated = fd.execute([rows, x])
        np.testing.assert_array_equal(summed, x.reshape(rows, -1).sum(1))
        np.testing.assert_array_equal(truncated, x.reshape(-1, rows))
    # nvFuser's text (the extents cast to Index) runs again.
    assert "new_shape=[c" in repr(fd) and "dtype=DataType.Index)" in repr(fd)
    namespace = {}
    exec(repr(fd), {"FusionDefinition": nvfuser_direct.FusionDefinition,
                    "DataType": DataType}, namespace)
    with nvfuser_direct.FusionDefinition() as again:
        namespace["nvfuser_fusion"](again)
    for mine, theirs in zip(fd.execute([16, x]), again.execute([16, x])):
        np.testing.assert_array_equal(mine, theirs)


def test_symbolic_needs_shapes():
    fd = softmax_rows()
    with pytest.raises(ValueError, match="mlir of a definition with symbolic extents needs "
                                         r"its inputs or shapes: fd.mlir\(inputs\)"):
        fd.mlir()
    with pytest.raises(ValueError, match="segments of a definition with symbolic extents"):
        fd.segments()
    assert fd.segments(shapes=[[4, 8]])[0].inputs[0]["shape"] == (4, 8)


def test_extents_checked():
    """-1 takes any extent; 1 is a broadcast and must be 1; a static extent
    must match."""
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, 1, 4], dtype=DataType.Float)
        fd.add_output(fd.ops.neg(t0))
    fd.execute([np.ones((7, 1, 4), np.float32)])
    with pytest.raises(ValueError, match=r"inputs\[0\]: expected shape \(\?, 1, 4\), got "
                                         r"\(7, 2, 4\)"):
        fd.execute([np.ones((7, 2, 4), np.float32)])
    with pytest.raises(FusionError):
        fd.execute([np.ones((7, 1), np.float32)])


def test_symbolic_one_is_not_a_broadcast():
    """nvFuser's rule: a -1 extent that is 1 at run time does not broadcast;
    a dim defined as 1 does."""
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        b = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        fd.add_output(fd.ops.add(a, b))
    fd.execute([np.ones(4, np.float32), np.ones(4, np.float32)])
    with pytest.raises(ValueError, match=r"test_symbolic\.py:\d+: 'add' cannot broadcast dim 0 "
                                         r"of T0: its extent is symbolic \(-1\), 1 in these "
                                         r"inputs, 4 in the result"):
        fd.execute([np.ones(1, np.float32), np.ones(4, np.float32)])
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[1], dtype=DataType.Float)
        b = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        fd.add_output(fd.ops.add(a, b))
    (out,) = fd.execute([np.full(1, 2, np.float32), np.ones(4, np.float32)])
    np.testing.assert_array_equal(out, np.full(4, 3, np.float32))


def test_errors_of_a_symbolic_definition_come_at_execute():
    """Placeholder extents may disagree where real ones agree, so the
    provisional build's errors wait for the inputs; real ones come then,
    located."""
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        b = fd.define_tensor(shape=[5], dtype=DataType.Float)
        fd.add_output(fd.ops.add(a, b))
    (out,) = fd.execute([np.ones(5, np.float32), np.ones(5, np.float32)])
    np.testing.assert_array_equal(out, np.full(5, 2, np.float32))
    with pytest.raises(ValueError, match=r"test_symbolic\.py:\d+: operands of 'add' have "
                                         "incompatible shapes"):
        fd.execute([np.ones(3, np.float32), np.ones(5, np.float32)])


def test_symbolic_operand_to_a_static_shape():
    """broadcast_in_dim and expand of -1 extents to static ones: the
    provisional build takes a stand-in (placeholders disagree), the types
    stay known, and the inputs concretize it."""
    with FusionDefinition() as fd:
        cond = fd.define_tensor(shape=[-1, -1], dtype=DataType.Bool)
        wide = fd.ops.broadcast_in_dim(cond, shape=[4, 4, 3], broadcast_dims=[0, 1])
        assert (wide.ndim, wide.dtype) == (3, DataType.Bool)
        values = fd.define_tensor(shape=[-1, -1, -1], dtype=DataType.Float)
        fd.add_output(fd.ops.where(wide, 0.0, values))
    c = np.eye(4, dtype=bool)
    (out,) = fd.execute([c, np.ones((4, 4, 3), np.float32)])
    np.testing.assert_array_equal(out, np.where(np.broadcast_to(c[:, :, None], (4, 4, 3)), 0.0,
                                               1.0).astype(np.float32))
