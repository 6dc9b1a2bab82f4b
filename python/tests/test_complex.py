"""nvFuser's complex dtypes (DataType.ComplexFloat, ComplexDouble) in both
APIs: numpy's complex64/complex128 arrays in and out, fd.ops.complex, real
and imag, the arithmetic and math ops that take complex, PyTorch's type
promotion with complex, complex sums; the interpreter and the CPU backend
agree bit for bit on the exact ops and within the math ops' bound on the
rest. numpy is the reference (within a few ulp where its formulas differ)."""
import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition, nvfuser_direct

MODULES = pytest.mark.parametrize(
    "module", [pytest.importorskip("fuser_mlir"), nvfuser_direct],
    ids=["nvfuser", "nvfuser_direct"])
BACKENDS = pytest.mark.parametrize("backend", ["interp", "cpu"])
DTYPES = pytest.mark.parametrize("dtype, np_dtype", [
    (DataType.ComplexFloat, np.complex64), (DataType.ComplexDouble, np.complex128)])

rng = np.random.default_rng(26)


def sample(shape, np_dtype):
    parts = rng.standard_normal((2,) + shape) * 3
    return (parts[0] + 1j * parts[1]).astype(np_dtype)


def tolerance(np_dtype):
    return 1e-5 if np_dtype == np.complex64 else 1e-12


def run(module, backend, define, inputs):
    with module.FusionDefinition() as fd:
        define(fd)
    return fd.execute(inputs, backend=backend)


@MODULES
@BACKENDS
@DTYPES
def test_arithmetic_matches_numpy(module, backend, dtype, np_dtype):
    a, b = sample((4, 6), np_dtype), sample((4, 1), np_dtype)

    def define(fd):
        x = fd.define_tensor(shape=[4, 6], dtype=dtype)
        y = fd.define_tensor(shape=[4, 1], dtype=dtype)
        for op in ("add", "sub", "mul", "div"):
            fd.add_output(getattr(fd.ops, op)(x, y))
        fd.add_output(fd.ops.neg(x))
        fd.add_output(fd.ops.abs(x))
        fd.add_output(fd.ops.reciprocal(x))

    outs = run(module, backend, define, [a, b])
    expected = [a + b, a - b, a * b, a / b, -a, np.abs(a), 1 / a]
    assert [o.dtype for o in outs] == [np.dtype(np_dtype)] * 5 + \
        [np.dtype(np_dtype(0).real.dtype), np.dtype(np_dtype)]
    for out, reference in zip(outs[:2] + outs[4:5], expected[:2] + expected[4:5]):
        np.testing.assert_array_equal(out, reference)
    for out, reference in zip(outs, expected):
        np.testing.assert_allclose(out, reference, rtol=tolerance(np_dtype))


@MODULES
@BACKENDS
@DTYPES
def test_math_matches_numpy(module, backend, dtype, np_dtype):
    z = sample((3, 5), np_dtype) / 2
    w = sample((3, 5), np_dtype) / 4
    ops = ["exp", "log", "sqrt", "sin", "cos", "tan", "tanh", "rsqrt"]

    def define(fd):
        x = fd.define_tensor(shape=[3, 5], dtype=dtype)
        y = fd.define_tensor(shape=[3, 5], dtype=dtype)
        for op in ops:
            fd.add_output(getattr(fd.ops, op)(x))
        fd.add_output(fd.ops.pow(x, y))

    references = {"rsqrt": lambda v: 1 / np.sqrt(v)}
    outs = run(module, backend, define, [z, w])
    for op, out in zip(ops, outs):
        np.testing.assert_allclose(out, references.get(op, getattr(np, op, None))(z),
                                   rtol=10 * tolerance(np_dtype), atol=tolerance(np_dtype),
                                   err_msg=op)
    np.testing.assert_allclose(outs[-1], np.power(z, w), rtol=100 * tolerance(np_dtype),
                               atol=tolerance(np_dtype), err_msg="pow")


@MODULES
def test_parts_and_casts(module):
    re, im = rng.standard_normal((2, 8)).astype(np.float32)
    h = rng.standard_normal(8).astype(np.float16)

    def define(fd):
        r = fd.define_tensor(shape=[8], dtype=DataType.Float)
        i = fd.define_tensor(shape=[8], dtype=DataType.Float)
        half = fd.define_tensor(shape=[8], dtype=DataType.Half)
        z = fd.ops.complex(r, i)
        fd.add_output(z)
        fd.add_output(fd.ops.real(z))
        fd.add_output(fd.ops.imag(z))
        fd.add_output(fd.ops.real(r))  # nvFuser: real of a real tensor is itself
        fd.add_output(fd.ops.cast(z, DataType.ComplexDouble))
        fd.add_output(fd.ops.cast(z, DataType.Int32))  # the real part, truncated
        fd.add_output(fd.ops.cast(half, DataType.ComplexFloat))

    for backend in ("interp", "cpu"):
        outs = run(module, backend, define, [re, im, h])
        np.testing.assert_array_equal(outs[0], re + 1j * im)
        assert outs[0].dtype == np.complex64
        np.testing.assert_array_equal(outs[1], re)
        np.testing.assert_array_equal(outs[2], im)
        np.testing.assert_array_equal(outs[3], re)
        np.testing.assert_array_equal(outs[4], (re + 1j * im).astype(np.complex128))
        np.testing.assert_array_equal(outs[5], np.trunc(re).astype(np.int32))
        np.testing.assert_array_equal(outs[6], h.astype(np.complex64))


@MODULES
@BACKENDS
def test_sum_and_predicates(module, backend):
    z = sample((6, 16), np.complex64)
    z[0, 0] = complex(np.inf, 0)
    z[1, 1] = complex(0, np.nan)
    z[2, :] = 0

    def define(fd):
        x = fd.define_tensor(shape=[6, 16], dtype=DataType.ComplexFloat)
        fd.add_output(fd.ops.sum(x, dims=[1]))
        fd.add_output(fd.ops.sum(x, dims=[0]))
        fd.add_output(fd.ops.isfinite(x))
        fd.add_output(fd.ops.isnan(x))
        fd.add_output(fd.ops.isreal(x))
        fd.add_output(fd.ops.eq(x, x))
        fd.add_output(fd.ops.logical_not(x))

    outs = run(module, backend, define, [z])
    # Part by part: numpy sums pairwise (rounding differs), and an infinite
    # part makes numpy compare the other part exactly.
    for out, reference in ((outs[0], z.sum(axis=1)), (outs[1], z.sum(axis=0))):
        np.testing.assert_allclose(out.real, reference.real, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(out.imag, reference.imag, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(outs[2], np.isfinite(z))
    np.testing.assert_array_equal(outs[3], np.isnan(z))
    np.testing.assert_array_equal(outs[4], np.isreal(z))
    np.testing.assert_array_equal(outs[5], z == z)
    np.testing.assert_array_equal(outs[6], z == 0)


@MODULES
def test_backends_agree_bit_for_bit_on_exact_ops(module):
    a, b = sample((8, 32), np.complex64), sample((8, 32), np.complex64)

    def define(fd):
        x = fd.define_tensor(shape=[8, 32], dtype=DataType.ComplexFloat)
        y = fd.define_tensor(shape=[8, 32], dtype=DataType.ComplexFloat)
        fd.add_output(fd.ops.div(fd.ops.mul(x, y), fd.ops.sub(x, y)))
        fd.add_output(fd.ops.abs(x))
        # 8 elements per output: the interpreter sums up to 8 in sequence
        # (longer sums pairwise, docs/Interpreter.md), as a kernel thread does.
        fd.add_output(fd.ops.sum(fd.ops.mul(x, y), dims=[0]))

    interp = run(module, "interp", define, [a, b])
    cpu = run(module, "cpu", define, [a, b])
    for i, c in zip(interp, cpu):
        np.testing.assert_array_equal(i.view(np.uint8), c.view(np.uint8))


@MODULES
def test_promotion(module):
    """PyTorch's: float with complex gives complex, f64 with complex64
    complex128; a Python complex scalar is a ComplexDouble constant that a
    complex64 tensor keeps its dtype against."""
    f = rng.standard_normal(4).astype(np.float32)
    d = rng.standard_normal(4)
    z = sample((4,), np.complex64)

    def define(fd):
        tf = fd.define_tensor(shape=[4], dtype=DataType.Float)
        td = fd.define_tensor(shape=[4], dtype=DataType.Double)
        tz = fd.define_tensor(shape=[4], dtype=DataType.ComplexFloat)
        fd.add_output(fd.ops.mul(tf, tz))
        fd.add_output(fd.ops.add(td, tz))
        fd.add_output(fd.ops.mul(tz, fd.define_scalar(2 - 1j)))
        fd.add_output(fd.ops.add(tz, 1.5))

    outs = run(module, "interp", define, [f, d, z])
    assert [o.dtype for o in outs] == [np.complex64, np.complex128, np.complex64, np.complex64]
    np.testing.assert_allclose(outs[0], f * z, rtol=1e-6)
    np.testing.assert_allclose(outs[1], d + z.astype(np.complex128), rtol=1e-7)
    np.testing.assert_allclose(outs[2], z * (2 - 1j), rtol=1e-6)
    np.testing.assert_array_equal(outs[3], z + np.complex64(1.5))


@MODULES
def test_float_tensor_with_complex_scalar(module):
    """torch's combine_categories: a complex scalar with a float tensor
    takes the tensor's width (toComplexType): Float gives ComplexFloat,
    Double ComplexDouble, as nvFuser gives them."""
    f = rng.standard_normal(4).astype(np.float32)
    d = rng.standard_normal(4)

    def define(fd):
        tf = fd.define_tensor(shape=[4], dtype=DataType.Float)
        td = fd.define_tensor(shape=[4], dtype=DataType.Double)
        fd.add_output(fd.ops.mul(tf, 3 + 0.5j))
        fd.add_output(fd.ops.add(td, fd.define_scalar(2 - 1j)))

    outs = run(module, "interp", define, [f, d])
    assert [o.dtype for o in outs] == [np.complex64, np.complex128]
    np.testing.assert_allclose(outs[0], f * np.complex64(3 + 0.5j), rtol=1e-6)
    np.testing.assert_allclose(outs[1], d + (2 - 1j), rtol=1e-12)


@MODULES
@BACKENDS
def test_python_complex_operands(module, backend):
    """A Python complex number is an operand as nvFuser takes it (its
    repr(fd) prints complex constants so, as `3.00000+0.500000j`): a
    ComplexDouble constant, which a complex64 tensor keeps its dtype
    against; where of two gives ComplexDouble."""
    z = sample((4,), np.complex64)
    c = np.array([True, False, True, False])

    def define(fd):
        tz = fd.define_tensor(shape=[4], dtype=DataType.ComplexFloat)
        tc = fd.define_tensor(shape=[4], dtype=DataType.Bool)
        fd.add_output(fd.ops.mul(tz, 3 + 0.5j))
        fd.add_output(fd.ops.add(tz, np.complex128(2j)))
        fd.add_output(fd.ops.where(tc, 3 + 0j, 5 - 1j))

    scaled, shifted, chosen = run(module, backend, define, [z, c])
    assert (scaled.dtype, shifted.dtype, chosen.dtype) == \
        (np.complex64, np.complex64, np.complex128)
    np.testing.assert_allclose(scaled, z * np.complex64(3 + 0.5j), rtol=1e-6)
    np.testing.assert_array_equal(shifted, z + np.complex64(2j))
    np.testing.assert_array_equal(chosen, np.where(c, 3 + 0j, 5 - 1j))
    if module is nvfuser_direct:
        with nvfuser_direct.FusionDefinition() as fd:
            define(fd)
        assert "fd.ops.mul(tv0, 3.00000+0.500000j)" in repr(fd)
        again = {}
        exec(repr(fd), {"FusionDefinition": nvfuser_direct.FusionDefinition,
                        "DataType": DataType}, again)
        with nvfuser_direct.FusionDefinition() as rebuilt:
            again["nvfuser_fusion"](rebuilt)
        for mine, theirs in zip(fd.execute([z, c], backend=backend),
                                rebuilt.execute([z, c], backend=backend)):
            np.testing.assert_array_equal(mine, theirs)


@MODULES
@BACKENDS
@DTYPES
def test_composed_functions_match_numpy(module, backend, dtype, np_dtype):
    # The functions built from complex log/sqrt/exp/div (nvFuser's runtime
    # formulas): numpy's values within the bounds bench/ulp_bounds.py
    # measures (the log-based inverses cancel near their branch points).
    z = sample((4, 6), np_dtype) / 2
    references = {
        "sinh": np.sinh, "cosh": np.cosh, "asin": np.arcsin, "acos": np.arccos,
        "atan": np.arctan, "asinh": np.arcsinh, "acosh": np.arccosh,
        "atanh": np.arctanh, "log10": np.log10, "log2": np.log2,
        "sigmoid": lambda v: 1 / (1 + np.exp(-v)),
    }

    def define(fd):
        x = fd.define_tensor(shape=[4, 6], dtype=dtype)
        for op in references:
            fd.add_output(getattr(fd.ops, op)(x))

    outs = run(module, backend, define, [z])
    for (op, reference), out in zip(references.items(), outs):
        assert out.dtype == np.dtype(np_dtype), op
        np.testing.assert_allclose(out, reference(z), rtol=100 * tolerance(np_dtype),
                                   atol=10 * tolerance(np_dtype), err_msg=op)


@MODULES
@pytest.mark.parametrize("build, message", [
    (lambda fd, z, f: fd.ops.lt(z, z), "'lt' needs"),
    (lambda fd, z, f: fd.ops.erf(z), "'erf' needs a float operand, found complex<f32>"),
    (lambda fd, z, f: fd.ops.expm1(z), "'expm1' needs a float operand, found complex<f32>"),
    (lambda fd, z, f: fd.ops.maximum(z, z), "'maximum' needs numeric operands"),
    (lambda fd, z, f: fd.ops.imag(f), "'imag' needs a complex operand, found f32"),
    (lambda fd, z, f: fd.ops.complex(f, fd.ops.cast(f, DataType.Double)),
     "'complex' needs real and imaginary parts of one dtype, found f32 and f64"),
    (lambda fd, z, f: fd.ops.complex(fd.ops.cast(f, DataType.Half), fd.ops.cast(f, DataType.Half)),
     "'complex' needs f32 or f64 parts, found f16"),
    (lambda fd, z, f: fd.ops.max(z, dims=[0]), "complex elements reduce with sum only"),
])
def test_errors(module, build, message):
    with pytest.raises(TypeError, match=message):
        with module.FusionDefinition() as fd:
            z = fd.define_tensor(shape=[4], dtype=DataType.ComplexFloat)
            f = fd.define_tensor(shape=[4], dtype=DataType.Float)
            fd.add_output(build(fd, z, f))


@MODULES
@BACKENDS
@DTYPES
def test_statistics_of_complex(module, backend, dtype, np_dtype):
    """var, var_mean and welford of a complex tensor as torch defines them
    (nvFuser's variance_mean too): the mean is complex, of the operand's
    type; the variance is real, of the part type, the mean of |x - mean|^2
    (the real part's variance plus the imaginary part's)."""
    x = sample((4, 5), np_dtype)
    part = np.dtype(np_dtype(0).real.dtype)

    def define(fd):
        t = fd.define_tensor(shape=[4, 5], dtype=dtype)
        fd.add_output(fd.ops.var(t, dims=[0, 1], correction=1))
        var, mean = fd.ops.var_mean(t, dims=[1], correction=0)
        fd.add_output(var)
        fd.add_output(mean)
        avg, var_sum, n = fd.ops.welford(t, dims=[0])
        fd.add_output(avg)
        fd.add_output(var_sum)
        fd.add_output(n)

    var_all, var_rows, mean_rows, avg, var_sum, n = run(module, backend, define, [x])
    assert [o.dtype for o in (var_all, var_rows, mean_rows, avg, var_sum)] == \
        [part, part, np.dtype(np_dtype), np.dtype(np_dtype), part]
    rtol = tolerance(np_dtype) * 10
    np.testing.assert_allclose(var_all, np.var(x, ddof=1), rtol=rtol)
    np.testing.assert_allclose(var_rows, np.var(x, axis=1, ddof=0), rtol=rtol)
    np.testing.assert_allclose(mean_rows, x.mean(axis=1), rtol=rtol)
    np.testing.assert_allclose(avg, x.mean(axis=0), rtol=rtol)
    np.testing.assert_allclose(var_sum, np.var(x, axis=0) * 4, rtol=rtol)
    np.testing.assert_array_equal(n, np.full(5, 4))
    # The example: the variance counts the imaginary part too.
    assert np.var(x, ddof=1) > np.var(x.real, ddof=1)
