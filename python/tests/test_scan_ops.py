"""nvFuser's scans (issue 46: cumsum, cumprod, cummax, cummin) through the
direct API, against numpy's accumulate (sequential, as the dialect defines a
scan): rows of odd lengths up to 70000, every dim, integers wrapping (also
in rows long enough for a block scan), half
types accumulated in float32 with each prefix rounded once, NaN propagating
through max and min, bools (any / all so far, as nvFuser's bool scans),
empty dims, nvFuser's printed form and its construction errors; on the
interpreter, the CPU backend and the SIMT emulator."""
import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition, FusionTypeError, FusionValueError, nvfuser_direct

NUMPY = {"cumsum": np.add, "cumprod": np.multiply, "cummax": np.maximum,
         "cummin": np.minimum}


def scan_fusion(op, dtype, rank, dim):
    with FusionDefinition() as fd:
        x = fd.define_tensor(shape=[-1] * rank, dtype=dtype)
        fd.add_output(getattr(fd.ops, op)(x, dim))
    return fd


BACKENDS = ["interp", "cpu", "simt"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", sorted(NUMPY))
@pytest.mark.parametrize("length", [1, 31, 33, 1000, 70000])
def test_rows_of_odd_lengths_float32(op, length, backend):
    if backend == "simt" and length > 1000:
        pytest.skip("the SIMT emulator runs 1000 elements a row in time")
    rng = np.random.default_rng(length)
    # Products of values near 1 stay finite over long rows.
    x = (rng.standard_normal((3, length)) * (0.01 if op == "cumprod" else 1) +
         (1 if op == "cumprod" else 0)).astype(np.float32)
    (out,) = scan_fusion(op, DataType.Float, 2, 1).execute([x], backend=backend)
    np.testing.assert_array_equal(out, NUMPY[op].accumulate(x, axis=1))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", sorted(NUMPY))
@pytest.mark.parametrize("dim", [0, 1, 2, -1, -3])
def test_every_dim_float64(op, dim, backend):
    x = np.random.default_rng(5).standard_normal((4, 5, 6))
    (out,) = scan_fusion(op, DataType.Double, 3, dim).execute([x], backend=backend)
    np.testing.assert_array_equal(out, NUMPY[op].accumulate(x, axis=dim))


@pytest.mark.parametrize("op", sorted(NUMPY))
@pytest.mark.parametrize("dtype, np_dtype", [(DataType.Int32, np.int32),
                                             (DataType.Int, np.int64)])
@pytest.mark.parametrize("backend", BACKENDS)
def test_integers_wrap(op, dtype, np_dtype, backend):
    info = np.iinfo(np_dtype)
    x = np.array([[info.max - 1, 3, info.max, 7], [-5, 9, info.min, 2]], np_dtype)
    (out,) = scan_fusion(op, dtype, 2, 1).execute([x], backend=backend)
    with np.errstate(over="ignore"):
        expected = NUMPY[op].accumulate(x, axis=1, dtype=np_dtype)
    assert out.dtype == np_dtype
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", sorted(NUMPY))
@pytest.mark.parametrize("length", [2048, 4097, 70000])
def test_long_integer_rows_in_a_block(op, length, backend):
    # Rows of 2048 and more whose combine is order-free (integers, max,
    # min) are scanned by a block (BlockScanKernel: a chunk per thread,
    # then each chunk again from the totals before it), wrapping as numpy
    # does in order.
    if backend == "simt" and length > 4097:
        pytest.skip("the SIMT emulator runs 4097 elements a row in time")
    rng = np.random.default_rng(length)
    x = rng.integers(-2 ** 31, 2 ** 31, (2, length), dtype=np.int64).astype(np.int32)
    if op == "cumprod":
        x = x | 1  # odd factors: the wrapped product never reaches 0
    (out,) = scan_fusion(op, DataType.Int32, 2, 1).execute([x], backend=backend)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, NUMPY[op].accumulate(x, axis=1, dtype=np.int32))


@pytest.mark.parametrize("backend", BACKENDS)
def test_half_accumulates_in_float32(backend):
    # 2048 + 1 + 1: float16 holds 2048 and 2050 but not 2049; the prefixes
    # in float32 are 2049 (a tie, to the even 2048) and 2050, where adding in
    # float16 step by step would stay at 2048.
    x = np.array([2048, 1, 1, 0.5, -3], np.float16)
    (out,) = scan_fusion("cumsum", DataType.Half, 1, 0).execute([x], backend=backend)
    expected = np.add.accumulate(x.astype(np.float32)).astype(np.float16)
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, expected)
    assert out[2] == 2050


def test_bfloat16_accumulates_in_float32():
    # The scan of a bf16 cast of float32 values, read back as float32.
    x = np.random.default_rng(3).standard_normal((2, 300)).astype(np.float32)
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        h = fd.ops.cast(t, DataType.BFloat16)
        fd.add_output(fd.ops.cast(h, DataType.Float))
        fd.add_output(fd.ops.cast(fd.ops.cumsum(h, 1), DataType.Float))
    rounded, out = fd.execute([x])

    def to_bf16(values):
        bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
        return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16).astype(
            np.uint32).view(np.float32)
    np.testing.assert_array_equal(out, to_bf16(np.add.accumulate(rounded, axis=1)))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", ["cummax", "cummin"])
def test_nan_propagates(op, backend):
    x = np.array([[1, np.nan, 3, -2], [np.inf, -np.inf, 0, np.nan]], np.float32)
    (out,) = scan_fusion(op, DataType.Float, 2, 1).execute([x], backend=backend)
    np.testing.assert_array_equal(out, NUMPY[op].accumulate(x, axis=1))


@pytest.mark.parametrize("backend", BACKENDS)
def test_bools_scan_as_nvfuser(backend):
    # nvFuser keeps bool: add and max are "any so far", mul and min "all so
    # far".
    x = np.array([[False, True, False, True], [True, True, False, True]])
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], dtype=DataType.Bool)
        for op in ("cumsum", "cummax", "cumprod", "cummin"):
            fd.add_output(getattr(fd.ops, op)(t, 1))
    out = fd.execute([x], backend=backend)
    any_so_far, all_so_far = np.logical_or.accumulate(x, 1), np.logical_and.accumulate(x, 1)
    for got, expected in zip(out, [any_so_far, any_so_far, all_so_far, all_so_far]):
        assert got.dtype == np.bool_
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_empty_dims(backend):
    for shape, dim in [((3, 0), 1), ((0, 4), 1), ((0, 4), 0)]:
        x = np.zeros(shape, np.float32)
        (out,) = scan_fusion("cumsum", DataType.Float, 2, dim).execute([x], backend=backend)
        assert out.shape == shape


def test_repr_as_nvfuser_prints_it():
    # repr(fd) of the real nvFuser 0.2.36 for this definition: dims wrapped,
    # constants inlined.
    with nvfuser_direct.FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        t1 = fd.ops.cumsum(t0, -1)
        s = fd.define_scalar(dtype=DataType.Float)
        fd.add_output(fd.ops.mul(t1, s))
    assert repr(fd).splitlines()[1:5] == [
        "    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, False], "
        "dtype=DataType.Float, is_cpu=False)",
        "    c10 = fd.define_scalar(None, dtype=DataType.Float)",
        "    tv1 = fd.ops.cumsum(tv0, dim=1)",
        "    tv2 = fd.ops.mul(tv1, c10)",
    ]


def test_construction_errors():
    # At the call, as nvFuser raises them (RuntimeError, which both are).
    with pytest.raises(FusionValueError, match="out of range"):
        scan_fusion("cumsum", DataType.Float, 1, 1)
    with pytest.raises(FusionValueError, match="out of range"):
        scan_fusion("cumsum", DataType.Float, 0, 0)
    with pytest.raises(FusionTypeError, match="complex elements scan with cumsum only"):
        scan_fusion("cummax", DataType.ComplexFloat, 1, 0)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", sorted(NUMPY))
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_init_starts_the_scan(op, dim, backend):
    # nvFuser's init keyword: the scan from init, in the same order of
    # operations (init then each element), so bit for bit against numpy's
    # accumulate over init and the row; a half tensor takes init in its dtype.
    x = (np.random.default_rng(7).standard_normal((5, 6)) + 1.0).astype(np.float16)
    with nvfuser_direct.FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], dtype=DataType.Half)
        init = fd.define_scalar(dtype=DataType.Double)
        fd.add_output(getattr(fd.ops, op)(t, dim, init=init))
    (out,) = fd.execute([x, 0.625], backend=backend)
    front = np.full((1, 6) if dim == 0 else (5, 1), 0.625, np.float32)
    whole = NUMPY[op].accumulate(np.concatenate([front, x.astype(np.float32)], axis=dim),
                                 axis=dim)
    expected = (whole[1:] if dim == 0 else whole[:, 1:]).astype(np.float16)
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, expected)


def test_init_must_be_a_scalar():
    # nvFuser's binding takes a Val, not a Python number.
    with pytest.raises(FusionTypeError, match="init must be a Scalar"):
        with FusionDefinition() as fd:
            fd.ops.cumsum(fd.define_tensor(shape=[-1], dtype=DataType.Float), 0, init=1.0)
