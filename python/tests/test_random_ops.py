"""nvFuser's uniform and normal with explicit rng_seed and rng_offset (issue
45, random numbers) through the direct API, against an independent numpy
implementation of nvFuser's runtime/random_numbers.cu written from its
formulas (Philox4x32-10 and the uniform transforms in philox_reference.py,
Box-Muller here), on every host backend; the values depend only on the
seed, the offset and the index."""
from fractions import Fraction

import numpy as np
import pytest

import fuser_mlir
from fuser_mlir import DataType, FusionDefinition, FusionTypeError, FusionValueError
from fuser_mlir import _generator
from philox_reference import philox, uniform01_f32, uniform01_f64

BACKENDS = ["interp", "cpu", "simt"]


def fma(a, b, c, dtype):
    """a * b + c rounded once: exactly for float64; for float32 the product
    is exact in float64 and the sum rounds to float64 and then float32 (a
    double rounding, off only where the float64 sum lands on a float32
    midpoint)."""
    if dtype == np.float32:
        return (np.float64(a) * b.astype(np.float64) + np.float64(c)).astype(np.float32)
    exact = [Fraction(float(a)) * Fraction(float(v)) + Fraction(float(c)) for v in np.ravel(b)]
    return np.array([float(x) for x in exact]).reshape(np.shape(b))


def reference(kind, first, second, shape, seed, offset, dtype):
    n = int(np.prod(shape))
    i = np.arange(n, dtype=np.uint64)
    if dtype == np.float64:
        w = philox(seed, i // np.uint64(2), offset)
        comp = (i % np.uint64(2)).astype(np.int64)
        if kind == "uniform":
            x = np.where(comp == 0, w[0], w[2])
            y = np.where(comp == 0, w[1], w[3])
            out = fma(second - first, uniform01_f64(x, y), first, np.float64)
        else:
            u = uniform01_f64(w[0], w[1])
            v = uniform01_f64(w[2], w[3]) * 6.2831853071795860
            n01 = np.sqrt(-2.0 * np.log(u)) * np.where(comp % 2 == 0, np.sin(v), np.cos(v))
            out = fma(second, n01, first, np.float64)
        return out.reshape(shape)
    w = philox(seed, i // np.uint64(4), offset)
    comp = (i % np.uint64(4)).astype(np.int64)
    words = np.stack(w)
    f32 = np.float32
    if kind == "uniform":
        word = words[comp, np.arange(n)]
        if dtype == np.float32:
            out = fma(f32(second) - f32(first), uniform01_f32(word), f32(first), np.float32)
        else:
            value = fma(f32(second) - f32(first), uniform01_f32(word, mapped=False),
                        f32(first), np.float32)
            out = cast_half(value, dtype)
            high = cast_half(np.array([f32(second)]), dtype)[0]
            out = np.where(out == high, cast_half(np.array([f32(first)]), dtype)[0], out)
        return out.reshape(shape)
    pair = comp // 2 * 2
    u = uniform01_f32(words[pair, np.arange(n)])
    v = uniform01_f32(words[pair + 1, np.arange(n)]) * f32(6.2831855)
    n01 = (np.sqrt(f32(-2.0) * np.log(u)) *
           np.where(comp % 2 == 0, np.sin(v), np.cos(v))).astype(np.float32)
    value = fma(f32(second), n01, f32(first), np.float32)
    out = value if dtype == np.float32 else cast_half(value, dtype)
    return out.reshape(shape)


def cast_half(values, dtype):
    """float32 -> float16 (np.float16) or bfloat16 ("bf16"), rounded to
    nearest even, as float32."""
    values = np.asarray(values, np.float32)
    if dtype == np.float16:
        return values.astype(np.float16).astype(np.float32)
    bits = values.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> np.uint64(16)) & np.uint64(1))) >> np.uint64(16) << np.uint64(16)
    return rounded.astype(np.uint32).view(np.float32)


CASES = [
    ("uniform", -1.5, 2.0, [3, 7], 1234567, 8, DataType.Float, np.float32),
    ("uniform", 0.0, 1.0, [5, 3], 99, 0, DataType.BFloat16, "bf16"),
    ("uniform", 0.0, 1.0, [9], 99, 12, DataType.Half, np.float16),
    ("uniform", 0.0, 10.0, [7], 2**40 + 3, 2**33, DataType.Double, np.float64),
    ("normal", 0.5, 2.0, [6, 5], 7, 4294967300, DataType.Float, np.float32),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: "%s-%s" % (c[0], c[6]))
def test_against_nvfusers_formulas(backend, case):
    kind, first, second, shape, seed, offset, dtype, np_dtype = case
    with FusionDefinition() as fd:
        s = fd.define_scalar(dtype=DataType.Int)
        o = fd.define_scalar(dtype=DataType.Int)
        op = getattr(fd.ops, kind)
        fd.add_output(op(first, second, shape, rng_seed=s, rng_offset=o, dtype=dtype))
    (out,) = fd.execute([seed, offset], backend=backend)
    expected = reference(kind, first, second, shape, seed, offset, np_dtype)
    actual = np.asarray(out, np.float64)
    if kind == "normal":
        # numpy's float32 log/sin/cos (and libdevice's, under simt) are not
        # the C library's: a few ulp apart (the backends' own agreement is
        # test/ExecutionEngine/random.mlir).
        np.testing.assert_allclose(actual, expected, rtol=4e-6, atol=1e-6)
    else:
        np.testing.assert_array_equal(actual, np.asarray(expected, np.float64))


def test_values_depend_only_on_seed_offset_and_index():
    # The same draws whatever the tensor's shape (row-major index), and
    # other draws for another seed or offset.
    def draw(shape, seed, offset):
        with FusionDefinition() as fd:
            fd.add_output(fd.ops.uniform(0.0, 1.0, shape, rng_seed=seed, rng_offset=offset))
        return fd.execute([], backend="cpu")[0].ravel()
    a = draw([4, 6], 5, 0)
    np.testing.assert_array_equal(a, draw([24], 5, 0))
    np.testing.assert_array_equal(a[:12], draw([3, 4], 5, 0))
    assert not np.array_equal(a, draw([24], 6, 0))
    assert not np.array_equal(a, draw([24], 5, 1))


def test_errors():
    with pytest.raises(FusionTypeError, match="floating dtype"):
        with FusionDefinition() as fd:
            fd.ops.normal(0.0, 1.0, [4], rng_seed=1, rng_offset=0, dtype=DataType.Int)
    # nvFuser's RNGOp takes both or neither.
    with pytest.raises(FusionValueError, match="the other must be also"):
        with FusionDefinition() as fd:
            fd.ops.uniform(0.0, 1.0, [4], rng_seed=1)
    with pytest.raises(FusionValueError, match="the other must be also"):
        with FusionDefinition() as fd:
            fd.ops.rand_like(fd.define_tensor(shape=[2]), rng_offset=1)
    # rand_like/randn_like: a floating-point tensor (nvFuser's message).
    with pytest.raises(FusionTypeError, match="input must have floating point type, but got "
                                              "int64_t"):
        with FusionDefinition() as fd:
            fd.ops.randn_like(fd.define_tensor(shape=[-1], dtype=DataType.Int))
    with pytest.raises(FusionTypeError):
        with FusionDefinition() as fd:
            fd.ops.rand_like(fd.define_scalar(1.0))


# Without rng_seed and rng_offset: the generator (fuser_mlir._generator) ----


def explicit(kind, first, second, shape, seed, offset, dtype=DataType.Float):
    with FusionDefinition() as fd:
        fd.add_output(getattr(fd.ops, kind)(first, second, shape, rng_seed=seed,
                                            rng_offset=offset, dtype=dtype))
    return fd.execute([])[0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_unseeded_draws_from_the_generator(backend):
    # nvFuser's contract (csrc/rng.cpp): a run takes the generator's seed
    # and offset and advances the offset by 4 per random op; the op draws
    # with Philox offset offset / 4 (test_deterministic_random).
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.uniform(0.3, 1.7, [5, 9]))
    fuser_mlir.manual_seed(123456789)
    runs = [fd.execute([], backend=backend)[0] for _ in range(4)]
    assert fuser_mlir.get_rng_state() == (123456789, 16)
    for offset, run in enumerate(runs):
        np.testing.assert_array_equal(run, explicit("uniform", 0.3, 1.7, [5, 9], 123456789,
                                                    offset))
        np.testing.assert_array_equal(run, reference("uniform", 0.3, 1.7, [5, 9], 123456789,
                                                     offset, np.float32))
    assert not np.array_equal(runs[0], runs[1])
    # The same seed and the same runs reproduce them.
    fuser_mlir.manual_seed(123456789)
    np.testing.assert_array_equal(fd.execute([], backend=backend)[0], runs[0])


@pytest.mark.parametrize("backend", ["cpu", "simt"])
def test_unseeded_ops_on_the_kernel_backends(backend):
    # The k-th unseeded op draws at offset + k, computed from the offset
    # argument: on the GPU path inside the kernel (fuser-gpu-sink-scalars;
    # the CUDA backend's host function runs no arithmetic).
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.uniform(0.0, 1.0, [5]))
        fd.add_output(fd.ops.uniform(0.0, 1.0, [5]))
    state = fuser_mlir.get_rng_state()
    expected = fd.execute([], backend="interp")
    fuser_mlir.set_rng_state(state)
    for got, want in zip(fd.execute([], backend=backend), expected):
        np.testing.assert_array_equal(got, want)
    assert not np.array_equal(expected[0], expected[1])


def test_unseeded_ops_of_one_definition_take_consecutive_offsets():
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Double)
        fd.add_output(fd.ops.rand_like(t0))
        fd.add_output(fd.ops.normal(2.0, 0.5, [7], dtype=DataType.Float))
        s = fd.define_scalar(dtype=DataType.Int)
        fd.add_output(fd.ops.uniform(0.0, 1.0, [3], rng_seed=s, rng_offset=s))
        fd.add_output(fd.ops.randn_like(t0))
    x = np.zeros((3, 5))
    fuser_mlir.set_rng_state((2**64 - 5, 40))  # a seed beyond int64: its bits
    a, b, c, d = fd.execute([x, 9])
    assert fuser_mlir.get_rng_state() == (2**64 - 5, 52)
    np.testing.assert_array_equal(a, reference("uniform", 0.0, 1.0, [3, 5], 2**64 - 5, 10,
                                               np.float64))
    np.testing.assert_allclose(b, reference("normal", 2.0, 0.5, [7], 2**64 - 5, 11,
                                            np.float32), rtol=4e-6, atol=1e-6)
    np.testing.assert_array_equal(c, explicit("uniform", 0.0, 1.0, [3], 9, 9))
    np.testing.assert_allclose(d, reference("normal", 0.0, 1.0, [3, 5], 2**64 - 5, 12,
                                            np.float64), rtol=1e-12, atol=1e-12)
    # The generator's inputs come after the inputs defined before the first
    # such op: the scalar input defined after it still takes inputs[1].
    assert fd.mlir([x, 9]).count(": i64") >= 2


@pytest.mark.parametrize("dtype,np_dtype", [(DataType.Float, np.float32),
                                            (DataType.Half, np.float16),
                                            (DataType.BFloat16, "bf16"),
                                            (DataType.Double, np.float64)])
def test_rand_like_and_randn_like(dtype, np_dtype):
    # uniform(0, 1) / normal(0, 1) of the operand's shape and dtype, seeded
    # (the legacy frontend's keywords) or from the generator.
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], dtype=dtype)
        s = fd.define_scalar(dtype=DataType.Int)
        o = fd.define_scalar(dtype=DataType.Int)
        fd.add_output(fd.ops.rand_like(t0, rng_seed=s, rng_offset=o))
        fd.add_output(fd.ops.randn_like(t0, rng_seed=s, rng_offset=o))
    x = np.zeros((4, 3), _numpy_of(dtype))
    u, n = fd.execute([x, 31, 6])
    np.testing.assert_array_equal(np.asarray(u, np.float64),
                                  reference("uniform", 0.0, 1.0, [4, 3], 31, 6, np_dtype))
    tolerance = 1e-12 if np_dtype == np.float64 else 4e-6 if np_dtype == np.float32 else 1e-2
    np.testing.assert_allclose(np.asarray(n, np.float64),
                               reference("normal", 0.0, 1.0, [4, 3], 31, 6, np_dtype),
                               rtol=tolerance, atol=tolerance)
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.rand_like(fd.define_tensor(shape=[-1, -1], dtype=dtype)))
    fuser_mlir.manual_seed(31)
    fd.execute([x])
    np.testing.assert_array_equal(np.asarray(fd.execute([x])[0], np.float64),
                                  reference("uniform", 0.0, 1.0, [4, 3], 31, 1, np_dtype))


def _numpy_of(dtype):
    import ml_dtypes
    return {DataType.Float: np.float32, DataType.Half: np.float16,
            DataType.BFloat16: ml_dtypes.bfloat16, DataType.Double: np.float64}[dtype]


def test_validate_compares_the_same_draws():
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        fd.add_output(fd.ops.mul(t0, fd.ops.rand_like(t0)))
    fuser_mlir.manual_seed(5)
    fd.validate([np.ones(37, np.float32)])
    assert fuser_mlir.get_rng_state() == (5, 4)


class _FakeTorch:
    """What the generator reads of torch: initial_seed() and the callback
    torch.manual_seed queues for the CUDA generators."""

    def __init__(self):
        self.cuda = type("cuda", (), {})()
        self.cuda._lazy_seed_tracker = type("tracker", (), {})()
        self.manual_seed(67280421310721)

    def manual_seed(self, seed):
        self.seed = seed
        self.cuda._lazy_seed_tracker.manual_seed_all_cb = (lambda: None, [])

    def initial_seed(self):
        return self.seed


def test_torch_seeds_the_generator(monkeypatch):
    fake = _FakeTorch()
    monkeypatch.setattr(_generator._GENERATOR, "torch", fake)
    monkeypatch.setattr(_generator._GENERATOR, "torch_marker", None)
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.uniform(0.0, 1.0, [6]))
    first = fd.execute([])[0]  # torch's default seed, offset 0
    np.testing.assert_array_equal(first, explicit("uniform", 0.0, 1.0, [6], 67280421310721, 0))
    fake.manual_seed(77)
    a = fd.execute([])[0]
    b = fd.execute([])[0]
    np.testing.assert_array_equal(a, explicit("uniform", 0.0, 1.0, [6], 77, 0))
    np.testing.assert_array_equal(b, explicit("uniform", 0.0, 1.0, [6], 77, 1))
    # torch.manual_seed with the same seed starts the offset again.
    fake.manual_seed(77)
    np.testing.assert_array_equal(fd.execute([])[0], a)
    assert fuser_mlir.initial_seed() == 77
