"""nvFuser's current API, nvfuser_direct: from_pytorch, validate, the forms
of define_scalar, Tensor.shape()/ndim, execute's keyword arguments, and the
exception types nvFuser's callers catch."""
import numpy as np
import pytest

from fuser_mlir import FusionError, FusionTypeError, FusionValueError, UnsupportedOpError
from fuser_mlir.nvfuser_direct import DataType, FusionDefinition


def test_from_pytorch_defines_like_the_array():
    x = np.zeros((4, 1, 6), np.float32)
    with FusionDefinition() as fd:
        t = fd.from_pytorch(x)
        s = fd.from_pytorch(np.zeros((4, 1, 6), np.float64)[:, :, ::2], static_sizes=True)
        c = fd.from_pytorch(np.asfortranarray(np.zeros((2, 3), np.float32)))
        fd.add_output(fd.ops.add(t, fd.ops.cast(s, DataType.Float)))
        fd.add_output(c)
    # nvFuser 0.2.36's repr(fd) of the same definition (its define_tensor
    # with these shapes, contiguities and stride orders), byte for byte.
    assert repr(fd) == """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, 1, -1], contiguity=[True, None, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[4, 1, 3], contiguity=[True, None, False], dtype=DataType.Double, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[0, 1])
    tv3 = fd.ops.cast(tv1, dtype=DataType.Float)
    tv4 = fd.ops.add(tv0, tv3)
    fd.add_output(tv4)
    fd.add_output(tv2)
"""
    # The recorded calls keep from_pytorch's stride orders.
    assert "stride_order=[2, 1, 0]" in fd._recorded_text()
    assert (t.ndim, s.ndim, t.dtype()) == (3, 3, DataType.Float)


def test_execute_and_validate():
    with FusionDefinition() as fd:
        t = fd.from_pytorch(np.zeros((2, 3), np.float32))
        n = fd.define_scalar(DataType.Double)
        fd.add_output(fd.ops.mul(t, n))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (out,) = fd.execute([x, 2.0], device=0, profile=False, _enable_options=[])
    np.testing.assert_array_equal(out, 2 * x)
    fd.validate([x, 2.0], [2 * x])
    with pytest.raises(AssertionError, match="output 0"):
        fd.validate([x, 2.0], [3 * x])
    with pytest.raises(TypeError, match="execute\\(\\) got an unexpected keyword argument "
                                        "'fast'"):
        fd.execute([x, 2.0], fast=True)


def test_shape_and_size():
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, 8], dtype=DataType.Float)
        rows, cols = t.shape()
        assert cols.dtype == DataType.Int and t.size(1).dtype == DataType.Int
        fd.add_output(fd.ops.reshape(t, [fd.ops.mul(rows, 2), fd.ops.div(cols, 2)]))
    (out,) = fd.execute([np.zeros((3, 8), np.float32)])
    assert out.shape == (6, 4)


def test_exception_types():
    """nvFuser raises RuntimeError; the precise type is a second base."""
    assert issubclass(FusionTypeError, RuntimeError) and issubclass(FusionTypeError, TypeError)
    assert issubclass(FusionValueError, RuntimeError) and issubclass(FusionValueError, ValueError)
    assert issubclass(UnsupportedOpError, RuntimeError)
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[2, 3], dtype=DataType.Float)
        b = fd.define_tensor(shape=[4, 3], dtype=DataType.Float)
        with pytest.raises(RuntimeError, match="incompatible shapes"):
            fd.ops.add(a, b)
        with pytest.raises(RuntimeError, match="is not supported by fuser_mlir"):
            fd.ops.no_such_op(a)
        fd.add_output(a)
    with pytest.raises(RuntimeError, match="expects 2 inputs, got 1"):
        fd.execute([np.zeros((2, 3), np.float32)])
    with pytest.raises(FusionError, match="expected dtype float32, got float64"):
        fd.execute([np.zeros((2, 3)), np.zeros((4, 3))])


def test_validate_without_references():
    """The interpreter's run checked against the CPU backend's kernels."""
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        fd.add_output(fd.ops.sum(fd.ops.exp(t), DataType.Float))
    x = np.random.default_rng(0).standard_normal((3, 5)).astype(np.float32)
    (out,) = fd.validate([x])
    np.testing.assert_allclose(out, np.exp(x).sum(), rtol=1e-6)


def test_nothing_to_run():
    """nvFuser's NotImplementedError for an undefined or empty definition."""
    with pytest.raises(NotImplementedError, match="Fusion does not exist!"):
        FusionDefinition().execute([])
    with FusionDefinition() as fd:
        pass
    with pytest.raises(NotImplementedError, match="Fusion is empty!"):
        fd.execute([])


def test_stride_order_op_lays_out_the_output():
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[2, 3, 4], dtype=DataType.Float)
        b = fd.ops.broadcast(t, is_broadcast_dim=[False, True, False, False])
        fd.add_output(fd.ops.stride_order(b, stride_order=[0, 1, 2, 3]))
    (out,) = fd.execute([np.zeros((2, 3, 4), np.float32)])
    assert tuple(s // 4 for s in out.strides) == (1, 2, 2, 6)


@pytest.mark.parametrize("sizes, strides, contiguity, stride_order", [
    ([2, 1, 3, 1, 4, 3], [12, 4, 4, 4, 1, 0], [True, None, True, None, True, None],
     [5, 4, 3, 2, 1, 0]),
    ([2, 3, 1, 5, 4], [28, 4, 14, 0, 1], [False, None, True, None, True], [4, 2, 3, 1, 0]),
    ([2, 2, 1, 1, 2, 2, 2], [8, 4, 3, 9, 2, 0, 1], [None, True, True, None, True, None, True],
     [5, 4, 3, 6, 2, 1, 0]),
])
def test_compute_tensor_descriptor(sizes, strides, contiguity, stride_order):
    """Contiguity in allocation order; stride-0 dims keep their place."""
    from fuser_mlir.nvfuser_direct import compute_tensor_descriptor
    assert compute_tensor_descriptor(sizes, strides) == (contiguity, stride_order)


def test_lru_cache_and_executor_cache():
    """What nvFuser's suite fixture does: compile through LRUCache, drop
    fd._fusion, execute."""
    from fuser_mlir.nvfuser_direct import FusionExecutorCache, LRUCache
    cache = LRUCache(max_fusions=4)

    def define(fd):
        t = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        fd.add_output(fd.ops.neg(t))

    for _ in range(2):
        with FusionDefinition() as fd:
            define(fd)
        fd.fec = cache.cache_compile(fd.fusion)
        del fd._fusion
    assert cache.num_fusions() == 1
    assert "Cache Hits: 1" in cache.stats()
    assert isinstance(fd.fec, FusionExecutorCache) and fd.fusion is fd.fec.fusion()
    (out,) = fd.execute([np.ones(3, np.float32)])
    np.testing.assert_array_equal(out, -np.ones(3, np.float32))
    (again,) = fd.fec.execute([np.ones(3, np.float32)])
    np.testing.assert_array_equal(again, out)


def test_vector_of_scalar_inputs():
    """nvfuser_direct's define_vector(n): n Int scalar inputs, given as n
    scalars or as one list or tuple."""
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        fd.add_output(fd.ops.reshape(t, fd.define_vector(2)))
    x = np.arange(6, dtype=np.float32)
    for inputs in ([x, 2, 3], [x, [3, 2]], [x, (6, 1)]):
        (out,) = fd.execute(inputs)
        assert out.size == 6 and out.shape == tuple(inputs[1:] if len(inputs) == 3
                                                      else inputs[1])
    assert fd.cache_info().variants == 3


def test_lru_fusion_cache_decorator_and_version():
    from fuser_mlir.nvfuser_direct import LruFusionCache, nvfuser_direct_version, version

    @LruFusionCache(max_fusions=2)
    def make(n):
        with FusionDefinition() as fd:
            fd.add_output(fd.ops.mul(fd.define_tensor(shape=[-1], dtype=DataType.Float), n))
        return fd

    assert "The fusion cache is empty." in make.stats()
    assert make(2.0) is make(2.0) and make(3.0) is not make(2.0)
    assert make.num_fusions() == 2
    assert version() > "0.0.0" and version() > nvfuser_direct_version.Version("0.0.9")
