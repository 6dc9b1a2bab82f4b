"""Reference functions of the OpInfo suite (test_opinfo.py) that numpy does
not have: erf, erfc and lgamma through Python's math module, erfinv and
erfcinv by bisection on math.erf/erfc (an independent method: the
implementation uses Giles' approximation refined by Newton steps), nextafter
on the storage bits of any float dtype, and the integer semantics of
docs/Interpreter.md (two's complement wrap, division and remainder by zero,
shifts out of range) on Python ints."""
import cmath
import fractions
import math

import numpy as np

from opinfo_samples import BF16

_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def elementwise(fn):
    """fn on Python floats, applied to every element of a float64 array."""
    def apply(x):
        x = np.asarray(x, dtype=np.float64)
        return np.array([fn(float(v)) for v in x.ravel()], dtype=np.float64).reshape(x.shape)
    return apply


def _math_or(fn, pole):
    def value(x):
        if math.isnan(x):
            return x
        try:
            return fn(x)
        except ValueError:
            return pole(x)
        except OverflowError:
            return math.inf
    return value


erf = elementwise(_math_or(math.erf, lambda x: math.nan))
erfc = elementwise(_math_or(math.erfc, lambda x: math.nan))
# lgamma's poles (0 and the negative integers) are +inf, as C's lgamma
lgamma = elementwise(_math_or(math.lgamma, lambda x: math.inf))


def _bisect(f, target, lo, hi):
    """The float64 y in [lo, hi] where the increasing f(y) is nearest to
    target."""
    for _ in range(2000):
        mid = lo + (hi - lo) / 2
        if mid in (lo, hi):
            break
        if f(mid) < target:
            lo = mid
        else:
            hi = mid
    return lo if abs(f(lo) - target) <= abs(f(hi) - target) else hi


def _erfinv(x):
    if math.isnan(x) or abs(x) > 1:
        return math.nan
    if abs(x) == 1:
        return math.copysign(math.inf, x)
    if x == 0:
        return x
    a = abs(x)
    if a <= 0.5:
        y = _bisect(math.erf, a, 0.0, 1.0)
    else:
        # erfc(y) = 1 - a (exact), solved on erfc, which keeps the tail's
        # relative accuracy: -erfc is increasing
        c = 1.0 - a
        y = _bisect(lambda t: -math.erfc(t), -c, 0.4, 30.0)
    return math.copysign(y, x)


def _erfcinv(x):
    if math.isnan(x) or x < 0 or x > 2:
        return math.nan
    if x == 0:
        return math.inf
    if x == 2:
        return -math.inf
    if 0.5 <= x <= 1.5:
        return _erfinv(1.0 - x)  # exact (Sterbenz)
    if x > 1.5:
        return -_erfcinv(2.0 - x)
    return _bisect(lambda t: -math.erfc(t), -x, 0.4, 30.0)


erfinv = elementwise(_erfinv)
erfcinv = elementwise(_erfcinv)


def nextafter(a, b):
    """C's nextafter in the dtype of `a` (b has the same dtype), on the
    storage bits."""
    dtype = a.dtype
    bits_t = _UINT[dtype.itemsize]
    sign = 1 << (dtype.itemsize * 8 - 1)
    out = a.copy().ravel()
    ab, bb = a.view(bits_t).ravel(), b.view(bits_t).ravel()
    af, bf = a.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    obits = out.view(bits_t)
    for i in range(len(out)):
        x, y = af[i], bf[i]
        if math.isnan(x) or math.isnan(y):
            out[i] = np.array(math.nan).astype(dtype)
        elif x == y:
            obits[i] = bb[i]
        elif x == 0:
            obits[i] = (int(bb[i]) & sign) | 1
        elif (x < y) == (x > 0):
            obits[i] = int(ab[i]) + 1
        else:
            obits[i] = int(ab[i]) - 1
    return out.reshape(a.shape)


# Integers: Python ints, wrapped into the result dtype by the caller.
def wrap(values, dtype):
    bits = np.dtype(dtype).itemsize * 8
    half = 1 << (bits - 1)
    return np.array([((int(v) + half) % (1 << bits)) - half for v in np.ravel(values)],
                    dtype=dtype).reshape(np.shape(values))


def int_map(fn, *arrays):
    """fn on Python ints, elementwise (the result an object array)."""
    flat = [np.ravel(a).tolist() for a in arrays]
    return np.array([fn(*vals) for vals in zip(*flat)], dtype=object)


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def int_div(a, b):
    # x / 0 is 0; MIN / -1 wraps to MIN (the caller wraps)
    return 0 if b == 0 else _trunc_div(a, b)


def int_fmod(a, b):
    # C's %, without traps: x % 0 is x, MIN % -1 is 0
    return a if b == 0 else a - b * _trunc_div(a, b)


def int_remainder(a, b):
    r = int_fmod(a, b)
    if r != 0 and (r < 0) != (b < 0):
        r += b
    return r


def int_pow(a, b):
    if b < 0:
        return 1 if a == 1 else ((-1 if b % 2 else 1) if a == -1 else 0)
    return pow(a, b, 1 << 64)  # the caller wraps


def shift_ops(width):
    in_range = lambda b: 0 <= b < width
    mask = (1 << width) - 1
    return {
        "bitwise_left_shift": lambda a, b: (a << b) if in_range(b) else 0,
        "bitwise_right_shift": lambda a, b: (a >> b) if in_range(b) else (-1 if a < 0 else 0),
        "logical_right_shift": lambda a, b: ((a & mask) >> b) if in_range(b) else 0,
    }


# Complex: C99 Annex G special values. Python's cmath implements Annex G's
# tables for its functions; division is Annex G's own example (G.5.1,
# _Cdivd), which recovers infinities and zeros from NaN.
def _logb(x):
    if x == 0:
        return -math.inf
    if math.isinf(x):
        return math.inf
    return float(math.frexp(x)[1] - 1)


def cdiv(z, w):
    a, b, c, d = z.real, z.imag, w.real, w.imag
    if all(math.isfinite(v) for v in (a, b, c, d)) and (c != 0 or d != 0):
        # finite operands: the exact quotient, rounded once per part
        fa, fb, fc, fd = (fractions.Fraction(v) for v in (a, b, c, d))
        den = fc * fc + fd * fd
        re, im = (fa * fc + fb * fd) / den, (fb * fc - fa * fd) / den

        def rounded(q, sign_hint):
            if q == 0:
                return math.copysign(0.0, sign_hint)
            try:
                return float(q)
            except OverflowError:
                return math.inf if q > 0 else -math.inf
        with np.errstate(all="ignore"):
            naive = complex(np.complex128(complex(a, b)) / np.complex128(complex(c, d)))
        return complex(rounded(re, naive.real), rounded(im, naive.imag))
    logbw = _logb(max(abs(c), abs(d))) if not (math.isnan(c) or math.isnan(d)) else \
        _logb(abs(d) if math.isnan(c) else abs(c))
    ilogbw = 0
    if math.isfinite(logbw):
        ilogbw = int(logbw)
        c, d = float(np.ldexp(c, -ilogbw)), float(np.ldexp(d, -ilogbw))
    denom = c * c + d * d
    with np.errstate(all="ignore"):
        x = float(np.ldexp((a * c + b * d) / denom, -ilogbw)) if denom != 0 else \
            (np.float64(a * c + b * d) / np.float64(denom))
        y = float(np.ldexp((b * c - a * d) / denom, -ilogbw)) if denom != 0 else \
            (np.float64(b * c - a * d) / np.float64(denom))
    x, y = float(x), float(y)
    if math.isnan(x) and math.isnan(y):
        if denom == 0.0 and (not math.isnan(a) or not math.isnan(b)):
            x, y = math.copysign(math.inf, c) * a, math.copysign(math.inf, c) * b
        elif (math.isinf(a) or math.isinf(b)) and math.isfinite(c) and math.isfinite(d):
            a = math.copysign(1.0 if math.isinf(a) else 0.0, a)
            b = math.copysign(1.0 if math.isinf(b) else 0.0, b)
            x, y = math.inf * (a * c + b * d), math.inf * (b * c - a * d)
        elif math.isinf(logbw) and logbw > 0 and math.isfinite(a) and math.isfinite(b):
            c = math.copysign(1.0 if math.isinf(c) else 0.0, c)
            d = math.copysign(1.0 if math.isinf(d) else 0.0, d)
            x, y = 0.0 * (a * c + b * d), 0.0 * (b * c - a * d)
    return complex(x, y)


def _cmath_or_numpy(fn, np_fn):
    def value(z):
        try:
            return fn(z)
        except (ValueError, OverflowError):
            with np.errstate(all="ignore"):
                return complex(np_fn(np.complex128(z)))
    return value


def complex_elementwise(fn):
    """fn on Python complex numbers, applied to every element (the operands
    complex128 arrays of one shape)."""
    def apply(*arrays):
        flat = [np.asarray(a, dtype=np.complex128).ravel().tolist() for a in arrays]
        return np.array([fn(*vals) for vals in zip(*flat)],
                        dtype=np.complex128).reshape(np.shape(arrays[0]))
    return apply


def _clog(z):
    if z == 0:
        return complex(-math.inf, math.atan2(z.imag, z.real))
    return cmath.log(z)


CMATH = {
    "exp": _cmath_or_numpy(cmath.exp, np.exp),
    "log": _clog,
    "sqrt": cmath.sqrt,
    "sin": _cmath_or_numpy(cmath.sin, np.sin),
    "cos": _cmath_or_numpy(cmath.cos, np.cos),
    "tan": _cmath_or_numpy(cmath.tan, np.tan),
    "sinh": _cmath_or_numpy(cmath.sinh, np.sinh),
    "cosh": _cmath_or_numpy(cmath.cosh, np.cosh),
    "tanh": _cmath_or_numpy(cmath.tanh, np.tanh),
    "asin": _cmath_or_numpy(cmath.asin, np.arcsin),
    "acos": _cmath_or_numpy(cmath.acos, np.arccos),
    "atan": _cmath_or_numpy(cmath.atan, np.arctan),
    "asinh": _cmath_or_numpy(cmath.asinh, np.arcsinh),
    "acosh": _cmath_or_numpy(cmath.acosh, np.arccosh),
    "atanh": _cmath_or_numpy(cmath.atanh, np.arctanh),
}


def _libcxx_tanh(z):
    """libc++'s tanh, nvFuser's runtime (docs/Interpreter.md): where the real
    part is zero and the imaginary part infinite or NaN, its formula gives
    NaN + NaNj (d = cosh(0) + cos(y) is NaN); C11 Annex G and numpy give
    +-0 + NaNj there. Elsewhere they agree."""
    if z.real == 0 and not math.isfinite(z.imag):
        return complex(math.nan, math.nan)
    return _cmath_or_numpy(cmath.tanh, np.tanh)(z)


def _libcxx_tan(z):
    """tan z = -i tanh(iz), as libc++ and nvFuser define it."""
    t = _libcxx_tanh(complex(-z.imag, z.real))
    return complex(t.imag, -t.real)


CMATH["tanh"] = _libcxx_tanh
CMATH["tan"] = lambda z: _libcxx_tan(z) if z.imag == 0 and not math.isfinite(z.real) \
    else _cmath_or_numpy(cmath.tan, np.tan)(z)
CMATH["log10"] = lambda z: (lambda l: complex(l.real / math.log(10), l.imag / math.log(10)))(
    _clog(z))
CMATH["log2"] = lambda z: (lambda l: complex(l.real / math.log(2), l.imag / math.log(2)))(
    _clog(z))
CMATH["rsqrt"] = lambda z: cdiv(1 + 0j, cmath.sqrt(z))
CMATH["reciprocal"] = lambda z: cdiv(1 + 0j, z)
CMATH["div"] = cdiv
CMATH["sigmoid"] = lambda z: cdiv(1 + 0j, 1 + CMATH["exp"](-z))


def cmul(z, w):
    """Annex G's multiplication (G.5.1, _Cmultd): the naive product, with
    infinities recovered where both parts came out NaN."""
    # in the part dtype T (z, w numpy complex scalars), as the product is
    T = type(z.real)
    a, b, c, d = z.real, z.imag, w.real, w.imag
    with np.errstate(all="ignore"):
        ac, bd, ad, bc = a * c, b * d, a * d, b * c
        x, y = ac - bd, ad + bc
    if math.isnan(x) and math.isnan(y):
        cs = math.copysign
        recalc = False
        if math.isinf(a) or math.isinf(b):
            a, b = cs(1.0 if math.isinf(a) else 0.0, a), cs(1.0 if math.isinf(b) else 0.0, b)
            c = cs(0.0, c) if math.isnan(c) else c
            d = cs(0.0, d) if math.isnan(d) else d
            recalc = True
        if math.isinf(c) or math.isinf(d):
            c, d = cs(1.0 if math.isinf(c) else 0.0, c), cs(1.0 if math.isinf(d) else 0.0, d)
            a = cs(0.0, a) if math.isnan(a) else a
            b = cs(0.0, b) if math.isnan(b) else b
            recalc = True
        if not recalc and any(math.isinf(v) for v in (ac, bd, ad, bc)):
            a, b, c, d = (cs(0.0, v) if math.isnan(v) else v for v in (a, b, c, d))
            recalc = True
        if recalc:
            a, b, c, d = T(a), T(b), T(c), T(d)
            with np.errstate(all="ignore"):
                x = T(math.inf) * (a * c - b * d)
                y = T(math.inf) * (a * d + b * c)
    return complex(x, y)


def cmul_elementwise(z, w):
    return np.array([cmul(p, q) for p, q in zip(z.ravel(), w.ravel())],
                    dtype=z.dtype).reshape(z.shape)



# erfcinv's far tail (results above 26, erfc below about 1e-295, where
# glibc's erfc is subnormal and coarse): bisection on the asymptotic series
# log erfc(y) = -y^2 - log(y sqrt(pi)) + log(1 - 1/(2y^2) + 3/(4y^4) - 15/(8y^6)
# + 105/(16y^8)), whose truncation error there is below 1e-12 relative.
def _log_erfc_tail(y):
    t = 1 / (2 * y * y)
    series = 1 - t + 3 * t * t - 15 * t ** 3 + 105 * t ** 4
    return -y * y - math.log(y * math.sqrt(math.pi)) + math.log(series)


_erfcinv_bisect = _erfcinv


def _erfcinv_tail(x):
    if 0 < x < 1e-280:
        return _bisect(lambda t: -_log_erfc_tail(t), -math.log(x), 20.0, 40.0)
    return _erfcinv_bisect(x)


erfcinv = elementwise(_erfcinv_tail)
