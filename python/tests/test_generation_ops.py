"""nvFuser's iota and triu (issue 45, generation ops) through the direct API,
against numpy on every host backend: values in every dtype (integers wrap,
floats are start + i * step rounded in the compute type, then once to the
dtype), symbolic lengths, triu's diagonal offsets and batch dims, and the
construction errors nvFuser raises."""
import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition, FusionTypeError, FusionValueError

BACKENDS = ["interp", "cpu", "simt"]


def run(fd, inputs, backend):
    return fd.execute(inputs, backend=backend)


def f32_to_bf16(values):
    """float32 -> bfloat16 (round to nearest even), back as float32."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return rounded.astype(np.uint32).view(np.float32)


@pytest.mark.parametrize("backend", BACKENDS)
def test_iota_values_in_every_dtype(backend):
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.iota(9, 2147483600, 10, DataType.Int32))
        fd.add_output(fd.ops.iota(6))
        fd.add_output(fd.ops.iota(7, 0.25, 1.5, DataType.Float))
        fd.add_output(fd.ops.iota(5, -1.0, 0.1, DataType.Double))
        fd.add_output(fd.ops.iota(8, -3.0, 0.1, DataType.Half))
        fd.add_output(fd.ops.iota(8, -3.0, 0.1, DataType.BFloat16))
    i32, i64, f32, f64, f16, bf16 = run(fd, [], backend)
    index = np.arange(9, dtype=np.int64)
    wide = 2147483600 + index * 10
    np.testing.assert_array_equal(i32, ((wide + 2**31) % 2**32 - 2**31).astype(np.int32))
    assert i32.dtype == np.int32
    np.testing.assert_array_equal(i64, np.arange(6, dtype=np.int64))
    np.testing.assert_array_equal(
        f32, np.float32(0.25) + np.float32(1.5) * np.arange(7, dtype=np.float32))
    np.testing.assert_array_equal(f64, -1.0 + 0.1 * np.arange(5, dtype=np.float64))
    # Half dtypes: start and step rounded to the dtype, the sum in float32,
    # rounded once.
    step16 = np.float32(np.float16(0.1))
    np.testing.assert_array_equal(
        f16, (np.float32(-3.0) + step16 * np.arange(8, dtype=np.float32)).astype(np.float16))
    step_bf16 = f32_to_bf16(np.float32(0.1))
    np.testing.assert_array_equal(
        np.asarray(bf16, np.float32),
        f32_to_bf16(np.float32(-3.0) + step_bf16 * np.arange(8, dtype=np.float32)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_iota_of_a_symbolic_length_fuses_with_its_reader(backend):
    # A causal mask as Thunder builds one: iota over the sequence length.
    with FusionDefinition() as fd:
        x = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        n = fd.ops.size(x, 1)
        cols = fd.ops.broadcast_in_dim(fd.ops.iota(n), shape=[1, n], broadcast_dims=[1])
        rows = fd.ops.broadcast_in_dim(fd.ops.iota(fd.ops.size(x, 0)),
                                       shape=[fd.ops.size(x, 0), 1], broadcast_dims=[0])
        fd.add_output(fd.ops.where(fd.ops.le(cols, rows), x, float("-inf")))
    x = np.arange(20, dtype=np.float32).reshape(4, 5)
    (out,) = run(fd, [x], backend)
    np.testing.assert_array_equal(out, np.where(np.tril(np.ones((4, 5), bool)), x, -np.inf))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("diagonal", [-2, -1, 0, 1, 3, 7])
def test_triu_against_numpy(backend, diagonal):
    with FusionDefinition() as fd:
        x = fd.define_tensor(shape=[-1, -1, -1], dtype=DataType.Float)
        fd.add_output(fd.ops.triu(x, diagonal))
    x = np.random.default_rng(diagonal + 10).standard_normal((2, 5, 6)).astype(np.float32)
    (out,) = run(fd, [x], backend)
    np.testing.assert_array_equal(out, np.triu(x, diagonal))


def test_triu_keeps_integer_and_bool_dtypes():
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[-1, -1], dtype=DataType.Int)
        b = fd.define_tensor(shape=[-1, -1], dtype=DataType.Bool)
        fd.add_output(fd.ops.triu(a))
        fd.add_output(fd.ops.triu(b, -1))
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    b = np.ones((3, 4), bool)
    out_a, out_b = fd.execute([a, b])
    np.testing.assert_array_equal(out_a, np.triu(a))
    np.testing.assert_array_equal(out_b, np.triu(b, -1))
    assert out_a.dtype == np.int64 and out_b.dtype == np.bool_


def test_construction_errors_as_nvfuser_raises_them():
    # iota: start of another kind than the dtype (csrc/ops/arith.cpp).
    with pytest.raises(FusionTypeError, match="iota: start dtype does not match"):
        with FusionDefinition() as fd:
            fd.ops.iota(4, 0.5, 1, DataType.Int)
    with pytest.raises(FusionTypeError, match="iota: step dtype does not match"):
        with FusionDefinition() as fd:
            fd.ops.iota(4, 0.0, 1, DataType.Float)
    with pytest.raises(FusionTypeError):
        with FusionDefinition() as fd:
            fd.ops.iota(4, dtype=DataType.Bool)
    # nvFuser's checks on numbers given to iota (its opinfo error samples).
    with pytest.raises(FusionTypeError, match="length must be integer"):
        with FusionDefinition() as fd:
            fd.ops.iota(2.5)
    with pytest.raises(FusionTypeError, match="iota: start dtype does not match"):
        with FusionDefinition() as fd:
            fd.ops.iota(4, 1 + 2j, 1.0, DataType.Double)
    with pytest.raises(FusionValueError, match="must be finite numbers"):
        with FusionDefinition() as fd:
            fd.ops.iota(4, float("inf"), 1.0, DataType.Float)
    with pytest.raises(FusionValueError, match="step value must not equal zero"):
        with FusionDefinition() as fd:
            fd.ops.iota(4, 1, 0)
    # The same checks on constant Scalars (nvFuser's opinfo error samples
    # define their numbers with fd.define_scalar); a scalar input is not
    # checked (nvFuser checks constants only).
    with pytest.raises(FusionValueError, match="must be finite numbers"):
        with FusionDefinition() as fd:
            fd.ops.iota(fd.define_scalar(8), fd.define_scalar(float("inf")),
                        fd.define_scalar(float("inf")), DataType.Double)
    with pytest.raises(FusionValueError, match="step value must not equal zero"):
        with FusionDefinition() as fd:
            fd.ops.iota(fd.define_scalar(10), fd.define_scalar(-4.0), fd.define_scalar(0.0),
                        DataType.Double)
    with pytest.raises(FusionValueError, match="step value must not equal zero"):
        with FusionDefinition() as fd:
            fd.ops.iota(fd.define_scalar(10), fd.define_scalar(1), fd.define_scalar(0),
                        DataType.Int)
    with FusionDefinition() as fd:
        step = fd.define_scalar(DataType.Int)
        fd.add_output(fd.ops.iota(3, 2, step, DataType.Int))
    np.testing.assert_array_equal(fd.execute([3])[0], [2, 5, 8])
    # triu needs two dims (csrc/ops/composite.cpp).
    with pytest.raises(FusionValueError, match="must have 2 or more dims"):
        with FusionDefinition() as fd:
            fd.ops.triu(fd.define_tensor(shape=[-1], dtype=DataType.Float))
    with pytest.raises(FusionTypeError):
        with FusionDefinition() as fd:
            fd.ops.triu(fd.define_tensor(shape=[-1, -1], dtype=DataType.Float), 1.5)


@pytest.mark.parametrize("backend", BACKENDS)
def test_arange_and_eye(backend):
    # nvFuser's C++ arange and eye (csrc/ops/arith.h), composed of iotas.
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.arange(2, 11, 3))
        fd.add_output(fd.ops.arange(5))
        fd.add_output(fd.ops.arange(10, 1, -4))
        fd.add_output(fd.ops.arange(0.5, 2.0, 0.25, dtype=DataType.Float))
        fd.add_output(fd.ops.arange(3, 3))
        fd.add_output(fd.ops.eye(3, 4))
        fd.add_output(fd.ops.eye(2, dtype=DataType.Bool))
    out = run(fd, [], backend)
    expected = [np.arange(2, 11, 3), np.arange(5), np.arange(10, 1, -4),
                np.arange(0.5, 2.0, 0.25, dtype=np.float32), np.arange(3, 3),
                np.eye(3, 4, dtype=np.float32), np.eye(2, dtype=bool)]
    for got, want in zip(out, expected):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_arange_errors():
    with pytest.raises(FusionValueError, match="step must not be zero"):
        with FusionDefinition() as fd:
            fd.ops.arange(0, 4, 0)
    with pytest.raises(FusionTypeError, match="arange's end must be a Python int or float"):
        with FusionDefinition() as fd:
            fd.ops.arange(0, fd.define_scalar(dtype=DataType.Int))
