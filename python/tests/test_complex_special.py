"""Complex functions on infinite, NaN and signed-zero parts (issue 43).

Every complex op of the dialect is evaluated on the cross product of
{0, -0, 1.5, -1.5, inf, -inf, nan} for the real and the imaginary part (a
smaller set for the binary ops), on the interpreter and the CPU backend, for
complex64 and complex128, and compared with C99 Annex G as numpy's complex
functions implement it, except where nvFuser's runtime
(runtime/complex_number.cu, libc++'s <complex>) gives another value: there
the reference is libc++'s (LIBCXX below, and libc++'s operator* and
operator/ ported in mul_libcxx and div_libcxx, which numpy's arithmetic does
not follow). NaN parts compare by NaN-ness only; zeros and infinities
compare with their sign; other values within a few ulp (normwise where the
expected part is an exact zero of a non-zero result). The two backends
agree bit for bit."""
import math
import warnings

import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition

INF, NAN = math.inf, math.nan
PARTS = [0.0, -0.0, 1.5, -1.5, INF, -INF, NAN]
BINARY_PARTS = [0.0, -0.0, 1.5, INF, -INF, NAN]
BACKENDS = ["interp", "cpu"]
DTYPES = pytest.mark.parametrize("dtype, np_dtype", [
    (DataType.ComplexFloat, np.complex64), (DataType.ComplexDouble, np.complex128)])

UNARY = ["neg", "abs", "exp", "log", "sqrt", "rsqrt", "reciprocal", "sin", "cos",
         "tan", "tanh", "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh",
         "atanh", "log10", "log2", "sigmoid"]
PREDICATES = ["isfinite", "isinf", "isnan", "isreal"]
BINARY = ["add", "sub", "mul", "div", "pow"]

NUMPY = {"neg": np.negative, "abs": np.abs, "exp": np.exp, "log": np.log,
         "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos, "tan": np.tan,
         "tanh": np.tanh, "sinh": np.sinh, "cosh": np.cosh, "asin": np.arcsin,
         "acos": np.arccos, "atan": np.arctan, "asinh": np.arcsinh,
         "acosh": np.arccosh, "atanh": np.arctanh, "log10": np.log10,
         "log2": np.log2}

# Where libc++ (nvFuser's runtime) and numpy differ on these inputs: input ->
# libc++'s result. Annex G leaves most of these signs unspecified.
LIBCXX = {
    # exp: re = -inf with a non-finite im sets im to 1: e^-inf (cos 1, sin 1).
    "exp": [((-INF, -INF), (0.0, 0.0))],
    # sin z = -i sinh(iz); sinh(+-inf + i y) for y inf or NaN is (re, NaN).
    "sin": [((INF, -INF), (NAN, -INF)), ((-INF, -INF), (NAN, -INF)),
            ((NAN, -INF), (NAN, -INF))],
    # cos z = cosh(iz): cosh(0 + 0i) = (1, im), cosh(re = 0, y not finite) =
    # (NaN, re), cosh(y = 0, re not finite) = (|re|, im).
    "cos": [((0.0, 0.0), (1.0, 0.0)), ((0.0, INF), (INF, 0.0)),
            ((-0.0, 0.0), (1.0, -0.0)), ((-0.0, INF), (INF, -0.0)),
            ((INF, 0.0), (NAN, -0.0)), ((-INF, 0.0), (NAN, -0.0)),
            ((NAN, 0.0), (NAN, -0.0))],
    # tan z = -i tanh(iz): libc++'s tanh gives NaN for re = 0 and im not
    # finite, and (+-1, +0) for re infinite and im not finite.
    "tan": [((INF, 0.0), (NAN, NAN)), ((INF, -0.0), (NAN, NAN)),
            ((-INF, 0.0), (NAN, NAN)), ((-INF, -0.0), (NAN, NAN)),
            ((-INF, INF), (0.0, 1.0)), ((-INF, -INF), (0.0, -1.0)),
            ((NAN, 0.0), (NAN, NAN)), ((NAN, -0.0), (NAN, NAN))],
    "tanh": [((0.0, INF), (NAN, NAN)), ((0.0, -INF), (NAN, NAN)),
             ((0.0, NAN), (NAN, NAN)), ((-0.0, INF), (NAN, NAN)),
             ((-0.0, -INF), (NAN, NAN)), ((-0.0, NAN), (NAN, NAN)),
             ((INF, -INF), (1.0, 0.0)), ((-INF, -INF), (-1.0, 0.0))],
    # sinh(inf-ish re, y not finite) = (re, NaN): the sign of re stays.
    "sinh": [((-INF, INF), (-INF, NAN)), ((-INF, -INF), (-INF, NAN)),
             ((-INF, NAN), (-INF, NAN))],
    # cosh's cases return im (or re) itself, not Annex G's evenness.
    "cosh": [((-0.0, 0.0), (1.0, 0.0)), ((-0.0, -0.0), (1.0, -0.0)),
             ((-0.0, INF), (NAN, -0.0)), ((-0.0, -INF), (NAN, -0.0)),
             ((-0.0, NAN), (NAN, -0.0)), ((-INF, 0.0), (INF, 0.0)),
             ((-INF, -0.0), (INF, -0.0))],
    # asin z = -i asinh(iz), asinh(+-inf + NaN i) = z; acos(inf + NaN i) =
    # (NaN, re); asinh(NaN + i inf) = (im, re); acosh(NaN i + 0) = NaN.
    "asin": [((INF, NAN), (NAN, -INF))],
    "acos": [((INF, NAN), (NAN, INF))],
    "asinh": [((NAN, -INF), (-INF, NAN))],
    "acosh": [((0.0, NAN), (NAN, NAN)), ((-0.0, NAN), (NAN, NAN))],
}


def _key(re, im):
    return (repr(float(re)), repr(float(im)))


LIBCXX_TABLE = {op: {_key(*z): r for z, r in rows} for op, rows in LIBCXX.items()}


def _unit(v):
    return np.copysign(type(v)(1) if np.isinf(v) else type(v)(0), v)


def _zero_nan(v):
    return np.copysign(type(v)(0), v) if np.isnan(v) else v


def mul_libcxx(x, y):
    """libc++'s operator* (runtime/complex_number.cu): (ac - bd, ad + bc),
    and where both parts are NaN, Annex G's recovery of infinities."""
    a, b, c, d = x.real, x.imag, y.real, y.imag
    ac, bd, ad, bc = a * c, b * d, a * d, b * c
    re, im = ac - bd, ad + bc
    if np.isnan(re) and np.isnan(im):
        recalc = False
        if np.isinf(a) or np.isinf(b):
            a, b, c, d = _unit(a), _unit(b), _zero_nan(c), _zero_nan(d)
            recalc = True
        if np.isinf(c) or np.isinf(d):
            c, d, a, b = _unit(c), _unit(d), _zero_nan(a), _zero_nan(b)
            recalc = True
        if not recalc and any(np.isinf(p) for p in (ac, bd, ad, bc)):
            a, b, c, d = map(_zero_nan, (a, b, c, d))
            recalc = True
        if recalc:
            inf = type(a)(INF)
            re, im = inf * (a * c - b * d), inf * (a * d + b * c)
    return _make(re, im, x)


def _logb(x):
    if np.isnan(x) or np.isinf(x):
        return type(x)(abs(x))
    if x == 0:
        return type(x)(-INF)
    return type(x)(math.frexp(float(x))[1] - 1)


def div_libcxx(x, y):
    """libc++'s operator/ (runtime/complex_number.cu): scaled by a power of
    two, and where both parts are NaN, its three recovery cases."""
    a, b, c, d = x.real, x.imag, y.real, y.imag
    t = type(a)
    ilogbw = 0
    if np.isnan(c) or np.isnan(d):  # fmax ignores one NaN operand
        largest = abs(d) if np.isnan(c) else abs(c)
    else:
        largest = max(abs(c), abs(d))
    logbw = _logb(largest)
    if np.isfinite(logbw):
        ilogbw = int(logbw)
        c, d = t(np.ldexp(c, -ilogbw)), t(np.ldexp(d, -ilogbw))
    denom = c * c + d * d
    re = t(np.ldexp((a * c + b * d) / denom, -ilogbw))
    im = t(np.ldexp((b * c - a * d) / denom, -ilogbw))
    if np.isnan(re) and np.isnan(im):
        if denom == 0 and (not np.isnan(a) or not np.isnan(b)):
            re, im = np.copysign(t(INF), c) * a, np.copysign(t(INF), c) * b
        elif (np.isinf(a) or np.isinf(b)) and np.isfinite(c) and np.isfinite(d):
            a, b = _unit(a), _unit(b)
            re, im = t(INF) * (a * c + b * d), t(INF) * (b * c - a * d)
        elif np.isinf(logbw) and logbw > 0 and np.isfinite(a) and np.isfinite(b):
            c, d = _unit(c), _unit(d)
            re, im = t(0) * (a * c + b * d), t(0) * (b * c - a * d)
    return _make(re, im, x)


def _make(re, im, like):
    z = np.empty(1, dtype=np.asarray(like).dtype)
    z.real, z.imag = re, im
    return z[0]


def exp_libcxx(z):
    """libc++'s exp (runtime/complex_number.cu), for the intermediate values
    of sigmoid and pow."""
    re, im = z.real, z.imag
    t = type(re)
    if im == 0:
        return _make(np.exp(re), im, z)
    if np.isinf(re):
        if re < 0:
            if not np.isfinite(im):
                im = t(1)
        elif not np.isfinite(im):
            return _make(re, t(NAN), z)
    e = np.exp(re)
    return _make(e * np.cos(im), e * np.sin(im), z)


def reference_unary(op, z):
    """The expected value of op(z) (z a numpy complex scalar)."""
    one = _make(1, 0, z)
    if op in LIBCXX_TABLE and _key(z.real, z.imag) in LIBCXX_TABLE[op]:
        re, im = LIBCXX_TABLE[op][_key(z.real, z.imag)]
        return _make(re, im, z)
    if op == "reciprocal":
        return div_libcxx(one, z)
    if op == "rsqrt":  # 1 / sqrt z, with libc++'s division
        return div_libcxx(one, reference_unary("sqrt", z))
    if op == "sigmoid":  # nvFuser: 1 / (1 + exp(-z)), libc++'s ops
        e = exp_libcxx(-z)
        return div_libcxx(one, _make(1 + e.real, e.imag, z))
    return NUMPY[op](np.asarray(z))[()]


def reference_binary(op, x, y):
    if op == "add":
        return x + y
    if op == "sub":
        return x - y
    if op == "mul":
        return mul_libcxx(x, y)
    if op == "div":
        return div_libcxx(x, y)
    # pow: libc++'s e^(y log x) where a part is infinite or NaN; otherwise
    # numpy's (upstream's formula, within the ulp bounds).
    if all(np.isfinite(v) for v in (x.real, x.imag, y.real, y.imag)):
        return np.power(x, y)
    return exp_libcxx(mul_libcxx(y, reference_unary("log", x)))


def _part_matches(got, expected, scale, rtol):
    if np.isnan(expected) or np.isnan(got):
        return bool(np.isnan(expected) and np.isnan(got))
    if np.isinf(expected) or (expected == 0 and got == 0):
        return bool(got == expected and np.signbit(got) == np.signbit(expected))
    return abs(float(got) - float(expected)) <= rtol * scale


def matches(got, expected, rtol):
    got, expected = complex(got), complex(expected)
    finite = [abs(v) for v in (expected.real, expected.imag) if np.isfinite(v)]
    scale = max(finite) if finite else 0.0
    return (_part_matches(got.real, expected.real, scale, rtol) and
            _part_matches(got.imag, expected.imag, scale, rtol))


def grid(np_dtype, parts):
    values = np.empty(len(parts) ** 2, np_dtype)
    values.real = np.repeat(np.array(parts), len(parts))
    values.imag = np.tile(np.array(parts), len(parts))
    return values


def rtol_of(np_dtype):
    return 1e-5 if np_dtype == np.complex64 else 1e-13


def execute_all(define, inputs):
    results = {}
    for backend in BACKENDS:
        with FusionDefinition() as fd:
            define(fd)
        results[backend] = fd.execute(inputs, backend=backend)
    return results


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind == "c":
        a = np.stack([a.real, a.imag])
        b = np.stack([b.real, b.imag])
    return bool(np.all((a == b) & (np.signbit(a) == np.signbit(b)) |
                       (np.isnan(a) & np.isnan(b))))


def finite(*values):
    return all(np.isfinite(v.real) and np.isfinite(v.imag) for v in values)


def excused(op, args, got, expected):
    """The finite-operand results that follow upstream's formulas rather
    than libc++'s (docs/Interpreter.md): the sign of an exact zero part of a
    quotient of finite operands (Smith's algorithm, libc++ scales), and pow
    of a finite zero base with a non-real exponent (upstream's formula gives
    NaN where numpy and libc++ give 0)."""
    if op in ("div", "reciprocal") and finite(*args):
        return matches(got, expected, 0.0) or \
            matches(complex(got) + 0.0, complex(expected) + 0.0, 1e-5)
    if op == "pow" and finite(*args) and args[0] == 0:
        return True
    return False


def mismatches(ops, outs, reference, inputs, rtol):
    bad = []
    for op, out in zip(ops, outs):
        for index in range(len(out)):
            args = [x[index] for x in inputs]
            expected = reference(op, *args)
            if not matches(out[index], expected, rtol) and \
                    not excused(op, args, out[index], expected):
                bad.append("%s%s = %s, expected %s" % (
                    op, tuple(complex(a) for a in args), complex(out[index]),
                    complex(expected)))
    return bad


def check_backends(define, inputs, ops, reference, np_dtype):
    """Each backend's results against the reference, and the backends
    against each other bit for bit."""
    results = execute_all(define, inputs)
    for backend in BACKENDS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bad = mismatches(ops, results[backend], reference, inputs,
                             rtol_of(np_dtype))
        assert not bad, "%s: %d mismatches:\n%s" % (
            backend, len(bad), "\n".join(bad[:40]))
    for op, a, b in zip(ops, results["interp"], results["cpu"]):
        assert same_bits(a, b), op


@DTYPES
def test_unary_special_values(dtype, np_dtype):
    z = grid(np_dtype, PARTS)

    def define(fd):
        x = fd.define_tensor(shape=[z.size], dtype=dtype)
        for op in UNARY:
            fd.add_output(getattr(fd.ops, op)(x))

    check_backends(define, [z], UNARY, reference_unary, np_dtype)


@DTYPES
def test_predicates_special_values(dtype, np_dtype):
    z = grid(np_dtype, PARTS)

    def define(fd):
        x = fd.define_tensor(shape=[z.size], dtype=dtype)
        for op in PREDICATES:
            fd.add_output(getattr(fd.ops, op)(x))

    expected = [np.isfinite(z), np.isinf(z), np.isnan(z), z.imag == 0]
    for backend, outs in execute_all(define, [z]).items():
        for op, out, reference in zip(PREDICATES, outs, expected):
            np.testing.assert_array_equal(out, reference, err_msg=op + " " + backend)


@DTYPES
def test_binary_special_values(dtype, np_dtype):
    values = grid(np_dtype, BINARY_PARTS)
    x = np.repeat(values, values.size)
    y = np.tile(values, values.size)

    def define(fd):
        a = fd.define_tensor(shape=[x.size], dtype=dtype)
        b = fd.define_tensor(shape=[y.size], dtype=dtype)
        for op in BINARY:
            fd.add_output(getattr(fd.ops, op)(a, b))

    check_backends(define, [x, y], BINARY, reference_binary, np_dtype)


@DTYPES
def test_issue_examples(dtype, np_dtype):
    """abs(inf + nan j) = inf, exp(-inf + inf j) = 0, sigmoid(inf + inf j) =
    1, (inf + 0j) * (inf + 0j) = inf."""
    z = np.array([complex(INF, NAN), complex(-INF, INF), complex(INF, INF)], np_dtype)
    w = np.array([complex(INF, 0)], np_dtype)

    def define(fd):
        x = fd.define_tensor(shape=[3], dtype=dtype)
        v = fd.define_tensor(shape=[1], dtype=dtype)
        fd.add_output(fd.ops.abs(x))
        fd.add_output(fd.ops.exp(x))
        fd.add_output(fd.ops.sigmoid(x))
        fd.add_output(fd.ops.mul(v, v))

    for backend, (abs_, exp_, sigmoid_, product) in execute_all(define, [z, w]).items():
        assert abs_[0] == INF, backend
        assert exp_[1] == 0 and not np.signbit(exp_[1].real), backend
        assert sigmoid_[2] == 1, backend
        assert product[0].real == INF, backend
