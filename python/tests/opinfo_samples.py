"""Sample inputs of the OpInfo suite (test_opinfo.py), in the spirit of
nvFuser's tests/python/opinfo input generators: per dtype, the extremal values
(zeros of both signs, subnormals, the smallest normal, the largest finite
values, infinities, NaN, huge and tiny magnitudes, ties for rounding) followed
by seeded random normals; for complex dtypes every pair of parts drawn from
{+0, -0, finite, inf, -inf, nan} and random pairs; for binary and ternary ops
the cross product of the extremal values plus random tuples. All samples of one
op and dtype go into one flat array, so each op and dtype is one execute."""
import itertools

import ml_dtypes
import numpy as np

BF16 = np.dtype(ml_dtypes.bfloat16)
FLOAT_DTYPES = [np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.float16), BF16]
INT_DTYPES = [np.dtype(np.int32), np.dtype(np.int64)]
COMPLEX_DTYPES = [np.dtype(np.complex64), np.dtype(np.complex128)]
BOOL = np.dtype(np.bool_)
ALL_DTYPES = FLOAT_DTYPES + INT_DTYPES + [BOOL] + COMPLEX_DTYPES


def finfo(dtype):
    return ml_dtypes.finfo(dtype) if dtype == BF16 else np.finfo(dtype)


def float_extremals(dtype):
    """The extremal values of a float dtype, as float64 (each exactly
    representable in `dtype`)."""
    info = finfo(dtype)
    tiny, big = float(info.tiny), float(info.max)
    sub_min = float(info.smallest_subnormal)
    sub_max = tiny - sub_min
    eps = float(info.eps)
    values = [0.0, -0.0, sub_min, -sub_min, sub_max, -sub_max, tiny, -tiny,
              big, -big, np.inf, -np.inf, np.nan,
              1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 2.5, 3.0, 1.0 + eps, 1.0 - eps / 2,
              # huge and tiny (beyond exp's and log's comfortable ranges)
              big / 4, -big / 4, tiny * 16, -tiny * 16,
              # around the largest integer below 2^mantissa (round, floor, casts)
              1.0 / eps + 1.0, -(1.0 / eps) - 1.0, 1.0 / eps / 2 + 0.5,
              100.25, -100.75, 88.5, -88.5, 710.0, 1e-3, -1e-3]
    return np.array(values, dtype=np.float64).astype(dtype).astype(np.float64)


def int_extremals(dtype):
    info = np.iinfo(dtype)
    values = [0, 1, -1, 2, -2, 3, 7, -7, 31, 32, 33, 63, 64, 100, -100,
              int(info.max), int(info.min), int(info.max) - 1, int(info.min) + 1,
              int(info.max) // 2, int(info.min) // 2]
    return np.array(values, dtype=dtype)


def random_values(dtype, count, rng):
    """Seeded random normals (scaled by 3) in `dtype`, and for floats a
    spread of magnitudes as well."""
    if dtype == BOOL:
        return rng.integers(0, 2, size=count).astype(BOOL)
    if dtype in INT_DTYPES:
        return np.concatenate([rng.integers(-100, 101, size=count // 2),
                               rng.integers(np.iinfo(dtype).min, np.iinfo(dtype).max,
                                            size=count - count // 2, dtype=dtype)]).astype(dtype)
    if dtype in COMPLEX_DTYPES:
        parts = rng.standard_normal((2, count)) * 3
        return (parts[0] + 1j * parts[1]).astype(dtype)
    normals = rng.standard_normal(count - count // 4) * 3
    info = finfo(dtype)
    exponents = rng.uniform(np.log2(float(info.tiny)), np.log2(float(info.max)) - 1,
                            size=count // 4)
    spread = np.where(rng.integers(0, 2, size=count // 4) == 1, 1.0, -1.0) * 2.0 ** exponents
    return np.concatenate([normals, spread]).astype(dtype)


def complex_specials(dtype):
    """Every pair (re, im) over {+0, -0, 1.5, -2.5, inf, -inf, nan}, and
    huge and tiny parts."""
    part = np.finfo(dtype).dtype
    values = [0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan]
    pairs = list(itertools.product(values, values))
    big, tiny = float(np.finfo(part).max), float(np.finfo(part).tiny)
    pairs += [(big / 2, 1.0), (1.0, big / 2), (big / 2, big / 2), (tiny, tiny), (tiny, 1.0),
              (-tiny, -1e-3), (1e-3, 1e3), (-50.0, 0.5), (50.0, -0.5)]
    out = np.empty(len(pairs), dtype=dtype)
    out.real = [p[0] for p in pairs]
    out.imag = [p[1] for p in pairs]
    return out


def extremals(dtype):
    if dtype == BOOL:
        return np.array([False, True])
    if dtype in INT_DTYPES:
        return int_extremals(dtype)
    if dtype in COMPLEX_DTYPES:
        return complex_specials(dtype)
    return float_extremals(dtype).astype(dtype)


def unary_samples(dtype, rng, count=48):
    """One flat array: the extremal values, then random ones."""
    return np.concatenate([extremals(dtype), random_values(dtype, count, rng)]).astype(dtype)


def _reduced_extremals(dtype):
    """A shorter list for cross products (binary and ternary ops)."""
    values = extremals(dtype)
    if dtype in FLOAT_DTYPES:
        return values[:24]
    if dtype in COMPLEX_DTYPES:
        # keep the 7x7 special pairs' diagonal and a row and column through them
        return values[::3]
    return values


def nary_samples(dtype, arity, rng, count=64, limit=None):
    """`arity` flat arrays of one length: the cross product of (a reduced set
    of) extremal values, then random tuples."""
    values = _reduced_extremals(dtype)
    if limit is not None:
        values = values[:limit]
    grid = np.array(list(itertools.product(range(len(values)), repeat=arity))).T
    columns = [values[g] for g in grid]
    return [np.concatenate([c, random_values(dtype, count, rng)]).astype(dtype)
            for c in columns]


def shift_amounts(dtype, length, rng):
    """Shift amounts for the shift ops: in range, negative, the width and
    beyond."""
    width = np.dtype(dtype).itemsize * 8
    specials = np.array([0, 1, 2, width - 1, width, width + 1, -1, -width, 100, 5],
                        dtype=dtype)
    return np.resize(np.concatenate([specials, rng.integers(-2, width + 2, size=16).astype(dtype)]),
                     length).astype(dtype)


def reduction_rows(dtype, rng, length=16):
    """A 2-D array whose rows are reduced: random rows and rows with one
    extremal value each (NaN, infinities of one or both signs, zeros of both
    signs, subnormals, a huge value), so that the result does not depend on
    the order of accumulation beyond rounding."""
    rows = [random_values(dtype, length, rng) for _ in range(6)]
    if dtype in FLOAT_DTYPES:
        info = finfo(dtype)
        base = lambda: (rng.standard_normal(length)).astype(dtype)
        specials = [np.nan, np.inf, -np.inf, float(info.smallest_subnormal),
                    float(info.max) / 4, -float(info.max) / 4, -0.0]
        for value in specials:
            row = base()
            row[rng.integers(0, length)] = value
            rows.append(row)
        both = base()
        both[1], both[5] = np.inf, -np.inf
        rows.append(both)
        rows.append(np.full(length, -0.0, dtype=dtype))
        rows.append(np.full(length, 0.0, dtype=dtype))
        mixed = np.full(length, -0.0, dtype=dtype)
        mixed[3] = 0.0
        rows.append(mixed)
        rows.append(np.full(length, float(info.smallest_subnormal), dtype=dtype))
    elif dtype in INT_DTYPES:
        info = np.iinfo(dtype)
        rows.append(np.full(length, info.max, dtype=dtype))  # wraps in sums
        rows.append(np.full(length, info.min, dtype=dtype))
        rows.append(np.zeros(length, dtype=dtype))
    elif dtype in COMPLEX_DTYPES:
        specials = complex_specials(dtype)
        for value in specials[::5]:
            row = random_values(dtype, length, rng)
            row[rng.integers(0, length)] = value
            rows.append(row)
        rows.append(np.full(length, complex(-0.0, -0.0), dtype=dtype))
    else:
        rows += [np.zeros(length, dtype=BOOL), np.ones(length, dtype=BOOL)]
    return np.stack([np.asarray(r, dtype=dtype) for r in rows])
