"""How the OpInfo suite (test_opinfo.py) compares a result with its
reference: exactly for bool and integer results, in ulps of the result dtype
for floats (docs/Interpreter.md's distance: the number of representable values
between the two, -0 one below +0, NaN against NaN equal whatever its sign and
payload, NaN against a number never within tolerance), and for complex results
part by part where a part of either side is not finite, else normwise
(|got - expected| in ulps of |expected|, what complex libraries quote and
docs/Interpreter.md's complex table states). Also the exact rounding of
integers and fractions into a float dtype, for references of casts."""
import fractions
import math

import numpy as np

from opinfo_samples import BF16, COMPLEX_DTYPES, FLOAT_DTYPES

_BITS = {np.dtype(np.float16): np.uint16, BF16: np.uint16,
         np.dtype(np.float32): np.uint32, np.dtype(np.float64): np.uint64}
# (significand bits including the implicit one, exponent of the smallest normal)
_FORMAT = {np.dtype(np.float16): (11, -14), BF16: (8, -126),
           np.dtype(np.float32): (24, -126), np.dtype(np.float64): (53, -1022)}


def ordered(values):
    """Python ints ordered as the floats are (sign-magnitude to integers)."""
    dtype = values.dtype
    bits = values.view(_BITS[dtype]).ravel()
    sign = 1 << (dtype.itemsize * 8 - 1)
    out = []
    for b in bits.tolist():
        out.append(-(b & (sign - 1)) - 1 if b & sign else b)
    return out


def ulp_distance(got, expected):
    """Elementwise distance in ulps (a list of Python ints; math.inf where
    one side is NaN and the other is not)."""
    got_nan, exp_nan = np.isnan(got).ravel(), np.isnan(expected).ravel()
    out = []
    for g, e, gn, en in zip(ordered(got), ordered(expected), got_nan, exp_nan):
        if gn or en:
            out.append(0 if gn and en else math.inf)
        else:
            out.append(abs(g - e))
    return out


def ulp_of(magnitude, dtype):
    """The spacing of `dtype` at |magnitude| (float64)."""
    bits, emin = _FORMAT[dtype]
    m = np.abs(np.asarray(magnitude, dtype=np.float64))
    e = np.floor(np.log2(np.where(m > 0, m, 1.0)))
    e = np.maximum(np.where(m > 0, e, emin), emin)
    return np.ldexp(1.0, (e - (bits - 1)).astype(np.int64))


def round_exact(value, dtype):
    """An int or Fraction rounded to nearest even into float `dtype`,
    returned as a Python float (exact in float64)."""
    if value == 0:
        return 0.0
    bits, emin = _FORMAT[dtype]
    a = abs(fractions.Fraction(value))
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if fractions.Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    q = fractions.Fraction(2) ** (e - (bits - 1))
    r = round(a / q) * q
    top = (2 - fractions.Fraction(2) ** (1 - bits)) * fractions.Fraction(2) ** (
        {11: 15, 8: 127, 24: 127, 53: 1023}[bits])
    result = math.inf if r > top else float(r)
    return result if value > 0 else -result


def _same_class(g, e, distance, cnorm):
    """A part of a non-finite complex result: NaN where the reference has
    NaN, an infinity where it has one, a zero where it has one (C99 Annex G
    leaves some of their signs unspecified), else within cnorm ulps."""
    g, e = float(g), float(e)
    if math.isnan(e) or math.isnan(g):
        return math.isnan(e) and math.isnan(g)
    if math.isinf(e) or math.isinf(g):
        return math.isinf(e) and math.isinf(g)
    if e == 0 or g == 0:
        return e == 0 and g == 0 or distance <= cnorm
    return distance <= cnorm


def mismatches(got, expected, ulp=0, cnorm=None, atol=0.0, loose=None):
    """Indices (into the flattened arrays) where `got` is not within
    tolerance of `expected`, and the distance there."""
    dtype = expected.dtype
    assert got.dtype == dtype, "dtype %s, expected %s" % (got.dtype, dtype)
    assert got.shape == expected.shape, "shape %s, expected %s" % (got.shape, expected.shape)
    got, expected = got.ravel(), expected.ravel()
    loose = np.zeros(expected.shape, bool) if loose is None else np.ravel(loose)
    if dtype in FLOAT_DTYPES:
        dist = ulp_distance(got, expected)
        with np.errstate(all="ignore"):
            near = np.abs(got.astype(np.float64) - expected.astype(np.float64)) <= atol
        return [(i, d) for i, d in enumerate(dist) if d > ulp and not near[i]]
    if dtype in COMPLEX_DTYPES:
        part = np.finfo(dtype).dtype
        bad = []
        dre = ulp_distance(got.real.copy(), expected.real.copy())
        dim = ulp_distance(got.imag.copy(), expected.imag.copy())
        finite = np.isfinite(got) & np.isfinite(expected)
        with np.errstate(all="ignore"):
            err = np.abs(got.astype(np.complex128) - expected.astype(np.complex128))
            norm_ulps = err / ulp_of(np.abs(expected.astype(np.complex128)), part)
        for i in range(len(expected)):
            if got[i] == expected[i] and np.isfinite(got[i]):
                ok = (dre[i] == 0 and dim[i] == 0) or cnorm is not None
            elif loose[i]:
                ok = np.isnan(got.real[i]) == np.isnan(expected.real[i]) and \
                    np.isnan(got.imag[i]) == np.isnan(expected.imag[i])
            elif cnorm is None:
                ok = dre[i] <= ulp and dim[i] <= ulp
            elif finite[i]:
                ok = norm_ulps[i] <= cnorm
            else:
                # a non-finite part must be the same; a finite part beside it
                # keeps the op's bound
                ok = all(_same_class(g, e, d, cnorm)
                         for d, g, e in ((dre[i], got.real[i], expected.real[i]),
                                         (dim[i], got.imag[i], expected.imag[i])))
            if not ok:
                bad.append((i, (dre[i], dim[i]) if cnorm is None or not finite[i]
                            else float(norm_ulps[i])))
        return bad
    eq = (got == expected)
    return [(i, None) for i in np.flatnonzero(~eq)]


def describe(bad, got, expected, inputs, limit=6):
    """A readable list of the first mismatches, with their operands."""
    lines = []
    for i, d in bad[:limit]:
        operands = ", ".join(repr(np.ravel(x)[i] if np.ndim(x) else x) for x in inputs)
        lines.append("  [%d] (%s): got %r, expected %r (distance %s)"
                     % (i, operands, got.ravel()[i], expected.ravel()[i], d))
    more = "" if len(bad) <= limit else "\n  ... and %d more" % (len(bad) - limit)
    return "%d of %d elements beyond tolerance:\n%s%s" % (
        len(bad), expected.size, "\n".join(lines), more)
