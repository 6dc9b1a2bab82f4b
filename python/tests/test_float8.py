"""nvFuser's 8-bit floats (DataType.Float8_e4m3fn, Float8_e5m2) in both
APIs: casts round to nearest even and saturate (nvFuser's
cvt.rn.satfinite), dequantization is exact, arithmetic on fp8 tensors
computes in f32 (the ops nvFuser gives in the operand's dtype, abs, the
rounding ops, silu, the reductions and welford, cast back to it), and the
interpreter and the CPU backend agree bit for bit. ml_dtypes is the reference (it rounds the same way but overflows to
NaN/inf where nvFuser saturates)."""
import ml_dtypes
import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition, nvfuser_direct

MODULES = pytest.mark.parametrize(
    "module", [pytest.importorskip("fuser_mlir"), nvfuser_direct],
    ids=["nvfuser", "nvfuser_direct"])
BACKENDS = pytest.mark.parametrize("backend", ["interp", "cpu"])
FORMATS = pytest.mark.parametrize("name, largest", [("float8_e4m3fn", 448.0),
                                                    ("float8_e5m2", 57344.0)])
NVFUSER_DTYPES = {"float8_e4m3fn": DataType.Float8_e4m3fn,
                  "float8_e5m2": DataType.Float8_e5m2}

rng = np.random.default_rng(8)
# Normal values, values past the largest finite one, subnormals, specials.
values = np.concatenate([
    rng.standard_normal(48).astype(np.float32) * 4,
    np.array([448, 464, 480, 500, 57344, 61440, 1e9, np.inf, -np.inf, np.nan,
              0.0, -0.0, 2.0**-9, 2.0**-10, 3 * 2.0**-10, 2.0**-16, 2.0**-17,
              1.0625, 1.1875, 1.125, -1.0625, 1e-30], np.float32),
    rng.uniform(-2.0**-6, 2.0**-6, 42).astype(np.float32),
]).reshape(8, 14)


def reference_cast(array, name, largest):
    """ml_dtypes' rounding, with nvFuser's saturation of magnitudes above
    the largest finite value (infinities included)."""
    saturated = np.where(np.isnan(array), array, np.clip(array, -largest, largest))
    return saturated.astype(getattr(ml_dtypes, name))


@MODULES
@BACKENDS
@FORMATS
def test_quantize_matches_ml_dtypes(module, backend, name, largest):
    with module.FusionDefinition() as fd:
        t = fd.define_tensor(shape=list(values.shape), dtype=DataType.Float)
        fd.add_output(fd.ops.cast(t, NVFUSER_DTYPES[name]))
    (result,) = fd.execute([values], backend=backend)
    assert result.dtype.name == name
    expected = reference_cast(values, name, largest)
    np.testing.assert_array_equal(result.astype(np.float32), expected.astype(np.float32))
    # Signs and NaN bits too: NaN is the format's NaN with its sign.
    nan = np.isnan(values)
    np.testing.assert_array_equal(result.view(np.uint8)[~nan], expected.view(np.uint8)[~nan])


@MODULES
@BACKENDS
@FORMATS
def test_dequantize_is_exact(module, backend, name, largest):
    every = np.arange(256, dtype=np.uint8).view(getattr(ml_dtypes, name)).reshape(16, 16)
    with module.FusionDefinition() as fd:
        t = fd.define_tensor(shape=[16, 16], dtype=NVFUSER_DTYPES[name])
        fd.add_output(fd.ops.cast(t, DataType.Float))
        fd.add_output(fd.ops.cast(t, DataType.BFloat16))
    as_f32, as_bf16 = fd.execute([every], backend=backend)
    np.testing.assert_array_equal(as_f32, every.astype(np.float32))
    np.testing.assert_array_equal(as_bf16.astype(np.float32), every.astype(np.float32))


@MODULES
@BACKENDS
def test_arithmetic_on_fp8_computes_in_f32(module, backend):
    """A scaled FP8 matmul epilogue's elementwise part: dequantize by the
    promotion, scale, requantize. abs and sum give fp8, as nvFuser's
    (computed in f32, rounded once)."""
    a = reference_cast(values, "float8_e4m3fn", 448.0)
    b = reference_cast(values[::-1].copy(), "float8_e5m2", 57344.0)
    with module.FusionDefinition() as fd:
        ta = fd.define_tensor(shape=list(a.shape), dtype=DataType.Float8_e4m3fn)
        tb = fd.define_tensor(shape=list(b.shape), dtype=DataType.Float8_e5m2)
        product = fd.ops.mul(ta, tb)
        scaled = fd.ops.mul(product, 0.5)
        fd.add_output(scaled)
        fd.add_output(fd.ops.cast(scaled, DataType.Float8_e4m3fn))
        fd.add_output(fd.ops.abs(ta))
        fd.add_output(fd.ops.isnan(tb))
        fd.add_output(fd.ops.sum(ta, [1]))
    scaled, requantized, magnitude, nan, total = fd.execute([a, b], backend=backend)
    exact = a.astype(np.float32) * b.astype(np.float32) * np.float32(0.5)
    assert scaled.dtype == np.float32
    np.testing.assert_array_equal(scaled, exact)
    np.testing.assert_array_equal(requantized.astype(np.float32),
                                  reference_cast(exact, "float8_e4m3fn", 448.0).astype(np.float32))
    assert magnitude.dtype.name == "float8_e4m3fn"
    np.testing.assert_array_equal(magnitude.view(np.uint8), np.abs(a).view(np.uint8))
    np.testing.assert_array_equal(nan, np.isnan(b.astype(np.float32)))
    assert total.dtype.name == "float8_e4m3fn"
    np.testing.assert_array_equal(
        total.astype(np.float32),
        reference_cast(a.astype(np.float32).sum(axis=1, dtype=np.float64).astype(np.float32),
                       "float8_e4m3fn", 448.0).astype(np.float32))


KEEPING_DTYPE = [("abs", np.abs), ("ceil", np.ceil), ("floor", np.floor),
                 ("round", np.round), ("trunc", np.trunc),
                 ("frac", lambda x: x - np.trunc(x)), ("relu", lambda x: np.maximum(x, 0)),
                 ("sign", lambda x: np.where(x > 0, 1, np.where(x < 0, -1, 0))), ("silu", lambda x: x / (1 + np.exp(-x)))]


@MODULES
@BACKENDS
@FORMATS
def test_ops_keeping_the_dtype_give_fp8(module, backend, name, largest):
    """nvFuser's unary ops without promotion, its reductions and welford
    give an fp8 operand's dtype: computed in f32, the result rounded to the
    format once (saturating)."""
    a = reference_cast(values[:, :12], name, largest)
    dtype = NVFUSER_DTYPES[name]
    with module.FusionDefinition() as fd:
        t = fd.define_tensor(shape=list(a.shape), dtype=dtype)
        for op, _ in KEEPING_DTYPE:
            fd.add_output(getattr(fd.ops, op)(t))
        for op in ("sum", "prod", "max", "min"):
            fd.add_output(getattr(fd.ops, op)(t, dims=[1]))
        avg, var_sum, n = fd.ops.welford(t, dims=[1])
        for result in (avg, var_sum, n):
            fd.add_output(result)
        assert [fd._type_of(o)[1] for o in fd._fusion_outputs()] == \
            [name] * (len(KEEPING_DTYPE) + 6) + ["int64"]
    results = fd.execute([a], backend=backend)
    x = a.astype(np.float32)
    finite = np.isfinite(x).all(axis=1)
    with np.errstate(all="ignore"):
        mean = x.astype(np.float64).mean(axis=1)
        expected = [fn(x) for _, fn in KEEPING_DTYPE] + [
            x.sum(axis=1, dtype=np.float64), x.prod(axis=1, dtype=np.float64),
            x.max(axis=1), x.min(axis=1), mean, ((x - mean[:, None]) ** 2).sum(axis=1)]
    for index, (result, reference) in enumerate(zip(results, expected)):
        assert result.dtype.name == name, index
        want = reference_cast(np.asarray(reference, np.float32), name, largest)
        got, want = result.astype(np.float32), want.astype(np.float32)
        if index < len(KEEPING_DTYPE) + 4:
            # One rounding of an f32 result (silu's f32 exp may differ from
            # numpy's by an ulp, far below fp8's).
            np.testing.assert_array_equal(got, want, err_msg=KEEPING_DTYPE[index][0]
                                          if index < len(KEEPING_DTYPE) else "reduction")
        else:
            # welford's running update rounds otherwise than the two-pass
            # f64 reference: within one fp8 step, on rows without inf/NaN.
            np.testing.assert_allclose(got[finite], want[finite], rtol=2.0**-2)
    np.testing.assert_array_equal(results[-1], np.full(a.shape[0], a.shape[1]))


def test_fp8_moves_without_casts():
    """Data movement keeps the dtype: permute, broadcast, where."""
    a = reference_cast(values, "float8_e5m2", 57344.0)
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=list(a.shape), dtype=DataType.Float8_e5m2)
        c = fd.define_tensor(shape=list(a.shape), dtype=DataType.Bool)
        p = fd.ops.permute(t, [1, 0])
        fd.add_output(p)
        fd.add_output(fd.ops.where(c, t, t))
    condition = rng.random(a.shape) < 0.5
    permuted, chosen = fd.execute([a, condition], backend="cpu")
    assert permuted.dtype.name == "float8_e5m2"
    np.testing.assert_array_equal(permuted.view(np.uint8), a.T.view(np.uint8))
    np.testing.assert_array_equal(chosen.view(np.uint8), a.view(np.uint8))


def test_fp8_scalar_literal_saturates():
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[2], dtype=DataType.Float8_e4m3fn)
        s = fd.define_scalar(1000.0, dtype=DataType.Float8_e4m3fn)
        fd.add_output(fd.ops.where(fd.ops.gt(t, 0.0), s, t))
    (result,) = fd.execute([np.array([1, -1], ml_dtypes.float8_e4m3fn)])
    np.testing.assert_array_equal(result.astype(np.float32), [448, -1])
