"""The elementwise ops and statistics from nvFuser's op set (issue 26), in
both APIs: each op's fusion runs on the reference interpreter to what numpy
computes (torch's semantics where they differ from C's), exactly for the
exact ops and to 1e-6 relative for the math-library ones, with nvFuser's
result dtypes."""
import math

import ml_dtypes
import numpy as np
import pytest

from conftest import check_op_case
from fuser_mlir import DataType, FusionDefinition, nvfuser_direct

BF16 = ml_dtypes.bfloat16
rng = np.random.default_rng(26)
x = (rng.integers(-64, 65, size=(3, 4)) / 8).astype(np.float32)  # multiples of 1/8
u = np.linspace(-0.9, 0.9, 12, dtype=np.float32).reshape(3, 4)  # in (-1, 1)
p = (rng.integers(9, 65, size=(3, 4)) / 8).astype(np.float32)  # > 1
i = rng.integers(-100, 101, size=(3, 4)).astype(np.int32)
j = rng.integers(1, 9, size=(3, 4)).astype(np.int32) * np.where(rng.random((3, 4)) < 0.5, -1, 1).astype(np.int32)
s = rng.integers(0, 40, size=(3, 4)).astype(np.int32)  # shift amounts, some past 31
b = rng.random((3, 4)) < 0.5
special = np.array([[np.nan, np.inf, -np.inf, -0.0], [0.0, 2.5, -2.5, 0.5],
                    [-0.5, 1e-45, 3.75, -3.75]], dtype=np.float32)

DTYPES = {np.dtype(np.float32): DataType.Float, np.dtype(np.float64): DataType.Double,
          np.dtype(BF16): DataType.BFloat16, np.dtype(np.int32): DataType.Int32,
          np.dtype(np.int64): DataType.Int, np.dtype(np.bool_): DataType.Bool}


def f32(ref, *args):
    return ref(*[a.astype(np.float64) for a in args]).astype(np.float32)


def op(name):
    return lambda fd, *operands: getattr(fd.ops, name)(*operands)


def case(name, build, inputs, expected, rtol=0.0):
    return pytest.param(build, inputs, expected, rtol, id=name)


def torch_remainder(a, b):
    r = np.fmod(a, b)
    return np.where((r != 0) & ((r < 0) != (b < 0)), r + b, r)


def shift_left(a, n):
    return np.where((n >= 0) & (n < 32), (a.astype(np.int64) << np.clip(n, 0, 31)).astype(np.int32), 0)


def erfinv(v):
    # Bisection on math.erf in f64: far below f32's precision.
    def one(t):
        lo, hi = -6.0, 6.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if math.erf(mid) < t else (lo, mid)
        return (lo + hi) / 2
    return np.vectorize(one)(v)


CASES = [
    *[case(name, op(name), [arg], f32(ref, arg), rtol=1e-6) for name, ref, arg in [
        ("acos", np.arccos, u), ("acosh", np.arccosh, p), ("asin", np.arcsin, u),
        ("asinh", np.arcsinh, x), ("atan", np.arctan, x), ("atanh", np.arctanh, u),
        ("cosh", np.cosh, u), ("sinh", np.sinh, u), ("tan", np.tan, u),
        ("erf", np.vectorize(math.erf), x), ("erfc", np.vectorize(math.erfc), u),
        ("erfinv", erfinv, u), ("erfcinv", lambda v: erfinv(1 - v), u + 1),
        ("exp2", np.exp2, x), ("expm1", np.expm1, u), ("lgamma", np.vectorize(math.lgamma), p),
        ("log10", np.log10, p), ("log1p", np.log1p, u), ("log2", np.log2, p),
        ("silu", lambda v: v / (1 + np.exp(-v)), x)]],
    case("erf int32 -> f32", op("erf"), [i], f32(np.vectorize(math.erf), i), rtol=1e-6),
    # Exact ops on special values (NaN, +-inf, +-0, halfway cases).
    case("ceil", op("ceil"), [special], np.ceil(special)),
    case("floor", op("floor"), [special], np.floor(special)),
    case("trunc", op("trunc"), [special], np.trunc(special)),
    case("round half to even", op("round"), [special], np.round(special)),
    case("frac", op("frac"), [special], special - np.trunc(special)),
    case("relu", op("relu"), [special], np.where(special <= 0, np.float32(0), special)),
    case("sign", op("sign"), [special], np.nan_to_num(np.sign(special), nan=0.0)),
    case("relu int32", op("relu"), [i], np.maximum(i, 0)),
    case("floor int32 is the identity", op("floor"), [i], i),
    case("bitwise_not", op("bitwise_not"), [i], ~i),
    case("bitwise_not bool", op("bitwise_not"), [b], ~b),
    case("logical_not", op("logical_not"), [special], special == 0),
    *[case(name, op(name), [special], ref(special)) for name, ref in [
        ("isfinite", np.isfinite), ("isinf", np.isinf), ("isnan", np.isnan),
        ("isneginf", np.isneginf), ("isposinf", np.isposinf), ("signbit", np.signbit),
        ("isreal", np.isreal)]],
    case("signbit int32", op("signbit"), [i], i < 0),
    # Binary ops.
    case("atan2", op("atan2"), [x, p], f32(np.arctan2, x, p), rtol=1e-6),
    case("fmod", op("fmod"), [x, p], np.fmod(x, p)),
    case("remainder", op("remainder"), [x, -p], torch_remainder(x, -p)),
    case("mod", op("mod"), [i, j], np.fmod(i, j)),
    case("remainder int32", op("remainder"), [i, j], np.remainder(i, j)),
    case("gcd", op("gcd"), [i, j], np.gcd(i, j)),
    case("nextafter", op("nextafter"), [x, p], np.nextafter(x, p)),
    case("bitwise_and", op("bitwise_and"), [i, j], i & j),
    case("bitwise_or", op("bitwise_or"), [i, j], i | j),
    case("bitwise_xor bool", op("bitwise_xor"), [b, ~b], b ^ ~b),
    case("bitwise_left_shift", op("bitwise_left_shift"), [i, s], shift_left(i, s)),
    case("bitwise_right_shift", op("bitwise_right_shift"), [i, s],
         np.where(s < 32, i >> np.clip(s, 0, 31), np.where(i < 0, -1, 0)).astype(np.int32)),
    case("logical_right_shift", op("logical_right_shift"), [i, s],
         np.where(s < 32, (i.view(np.uint32) >> np.clip(s, 0, 31).astype(np.uint32)).view(np.int32), 0)),
    case("logical_and", op("logical_and"), [x, i], (x != 0) & (i != 0)),
    case("logical_or", op("logical_or"), [x, b], (x != 0) | b),
    # Ternary ops and addcmul.
    case("lerp", op("lerp"), [x, p, u + 0.5],
         np.where(u + 0.5 < 0.5, x + (u + 0.5) * (p - x), p - (p - x) * (1 - (u + 0.5)))),
    case("clamp", lambda fd, a: fd.ops.clamp(a, -1.5, 2.0), [special],
         np.clip(special, np.float32(-1.5), np.float32(2.0))),
    case("threshold", lambda fd, a: fd.ops.threshold(a, 0.5, 9.0), [special],
         np.where(special <= 0.5, np.float32(9.0), special)),
    case("addcmul", lambda fd, a, c, d: fd.ops.addcmul(a, c, d, 0.5), [x, p, u],
         x + p * (u * np.float32(0.5))),
    # Statistics: nvFuser's var (correction 1 by default), var_mean (var,
    # mean), welford (avg, var_sum, n as int64).
    case("var", lambda fd, a: fd.ops.var(a, [1]), [x], np.var(x, axis=1, ddof=1), rtol=1e-6),
    case("var correction 0 keepdim", lambda fd, a: fd.ops.var(a, [0], correction=0, keepdim=True),
         [x], np.var(x, axis=0, keepdims=True), rtol=1e-6),
    case("var bf16 -> f32", lambda fd, a: fd.ops.var(a, [1]), [x.astype(BF16)],
         np.var(x, axis=1, ddof=1), rtol=1e-6),
    case("var_mean mean", lambda fd, a: fd.ops.var_mean(a, [1])[1], [x], x.mean(axis=1)),
    case("welford var_sum", lambda fd, a: fd.ops.welford(a, [0, 1])[1], [x],
         np.float32(((x - x.mean()) ** 2).sum()), rtol=1e-6),
    case("welford n", lambda fd, a: fd.ops.welford(a, [1])[2], [x], np.full(3, 4, dtype=np.int64)),
]


@pytest.mark.parametrize("module", [pytest.importorskip("fuser_mlir"), nvfuser_direct],
                         ids=["nvfuser", "nvfuser_direct"])
@pytest.mark.parametrize("build, inputs, expected, rtol", CASES)
def test_op_matches_numpy(module, build, inputs, expected, rtol):
    # atol for math-library results near 0 (erf, expm1, log1p of small x).
    check_op_case(module, build, inputs, expected, rtol, DTYPES, atol=1e-7)


def test_var_of_one_element_is_nan_or_inf():
    """var divides by max(N - correction, 0): 0 / 0 is NaN, as nvFuser."""
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[2, 1], dtype=DataType.Float)
        fd.add_output(fd.ops.var(t, [1]))
    (result,) = fd.execute([np.ones((2, 1), np.float32)])
    assert np.isnan(result).all()


def test_statistics_errors():
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[2, 3], dtype=DataType.Float)
        with pytest.raises(ValueError, match="correction must be non-negative, but got -1"):
            fd.ops.var(t, [1], correction=-1)
        with pytest.raises(TypeError, match="'gcd' needs integer"):
            fd.ops.gcd(t, t)
        with pytest.raises(TypeError, match="the bounds of 'clamp' must be scalars"):
            fd.ops.clamp(t, t, 1.0)


def test_var_mean_layer_norm_is_one_kernel():
    """LayerNorm as Thunder writes it (var_mean, broadcast_in_dim back) is
    one normalization kernel after preseg."""
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[8, 64], dtype=DataType.BFloat16)
        t32 = fd.ops.cast(t, DataType.Float)
        var, mean = fd.ops.var_mean(t32, [1], correction=0, keepdim=False)
        rstd = fd.ops.rsqrt(fd.ops.add(var, 1e-5))
        mean_b = fd.ops.broadcast_in_dim(mean, shape=[8, 64], broadcast_dims=[0])
        rstd_b = fd.ops.broadcast_in_dim(rstd, shape=[8, 64], broadcast_dims=[0])
        fd.add_output(fd.ops.cast(fd.ops.mul(fd.ops.sub(t32, mean_b), rstd_b), DataType.BFloat16))
    segmented = fd.segment()
    assert [s.kind for s in segmented.segments()] == ["normalization"]
