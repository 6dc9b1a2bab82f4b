#!/usr/bin/env python3
"""The accuracy of the math-library ops on this host, measured: for each
transcendental elementwise op and float dtype, the largest distance in ulps
between what the reference interpreter (and so the CPU backend, which calls
the same functions) computes and the correctly rounded result, which mpmath
gives at 128 bits. The inputs are spread over each op's domain (log-spaced
magnitudes of both signs where the domain allows, plus a uniform sample).

Usage: bench/ulp_bounds.py [--build-dir build] [--count N] [--ops a,b]
                           [--dtypes f32,f64,bf16] [--json FILE]
Needs mpmath (pip install mpmath). The GPU computes these ops with libdevice,
whose bounds NVIDIA documents (CUDA C Programming Guide, "Mathematical
Functions"); docs/Interpreter.md puts the two side by side.
"""

import argparse
import json
import math
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def domains(mp):
    """op -> (mpmath function, sampler(rng, count) of f64 inputs)."""
    def spread(low, high, positive_only=False):
        def sample(rng, count):
            uniform = rng.uniform(low, high, count // 2)
            magnitudes = np.exp(rng.uniform(math.log(1e-6), math.log(max(abs(low), abs(high))),
                                            count - count // 2))
            signs = 1 if positive_only else rng.choice([-1, 1], magnitudes.size)
            logs = np.clip(magnitudes * signs, low, high)
            return np.concatenate([uniform, logs])
        return sample

    def lgamma(x):
        return mp.log(abs(mp.gamma(x))) if x != mp.floor(x) or x > 0 else mp.inf

    return {
        "exp": (mp.exp, spread(-80, 80)),
        "exp2": (lambda x: mp.power(2, x), spread(-120, 120)),
        "expm1": (mp.expm1, spread(-80, 80)),
        "log": (mp.log, spread(1e-30, 1e30, True)),
        "log2": (lambda x: mp.log(x, 2), spread(1e-30, 1e30, True)),
        "log10": (mp.log10, spread(1e-30, 1e30, True)),
        "log1p": (mp.log1p, spread(-0.999, 1e30)),
        "sin": (mp.sin, spread(-100, 100)),
        "cos": (mp.cos, spread(-100, 100)),
        "tan": (mp.tan, spread(-100, 100)),
        "asin": (mp.asin, spread(-1, 1)),
        "acos": (mp.acos, spread(-1, 1)),
        "atan": (mp.atan, spread(-1e6, 1e6)),
        "sinh": (mp.sinh, spread(-80, 80)),
        "cosh": (mp.cosh, spread(-80, 80)),
        "tanh": (mp.tanh, spread(-20, 20)),
        "asinh": (mp.asinh, spread(-1e6, 1e6)),
        "acosh": (mp.acosh, spread(1, 1e6, True)),
        "atanh": (mp.atanh, spread(-0.999, 0.999)),
        "erf": (mp.erf, spread(-6, 6)),
        "erfc": (mp.erfc, spread(-6, 9)),
        "erfinv": (lambda x: mp.erfinv(x), spread(-0.9999, 0.9999)),
        "erfcinv": (lambda x: mp.erfinv(1 - x), spread(1e-30, 1.9999, True)),
        "lgamma": (lgamma, spread(-30, 1e6)),
        "sigmoid": (lambda x: 1 / (1 + mp.exp(-x)), spread(-80, 80)),
        "silu": (lambda x: x / (1 + mp.exp(-x)), spread(-80, 80)),
        "rsqrt": (lambda x: 1 / mp.sqrt(x), spread(1e-30, 1e30, True)),
    }


NUMPY = {"f32": np.float32, "f64": np.float64}


def ordered(bits, width):
    """Float bit patterns as integers ordered like the values (-0 == +0)."""
    bits = bits.astype(np.int64)
    if width == 64:  # a signed view already: the sign bit makes it negative
        magnitude = bits & np.int64(0x7FFFFFFFFFFFFFFF)
        return np.where(bits < 0, -magnitude, magnitude)
    sign = np.int64(1) << (width - 1)
    return np.where(bits & sign, -(bits & (sign - 1)), bits)


def to_bits(values, dtype):
    if dtype == "bf16":
        return values.view(np.uint16).astype(np.int64), 16
    if dtype == "f32":
        return values.view(np.uint32).astype(np.int64), 32
    return values.view(np.uint64).astype(np.int64), 64


def rounded(mp, values, dtype, ml_dtypes):
    """The mpmath values correctly rounded to dtype, through a decimal string
    of 40 digits and numpy's correctly rounded parsing (bf16 from that f64:
    a double rounding needs a value within 2^-40 of a bf16 midpoint)."""
    text = [mp.nstr(v, 40, min_fixed=0, max_fixed=0) if mp.isfinite(v) else
            ("nan" if mp.isnan(v) else ("inf" if v > 0 else "-inf")) for v in values]
    if dtype == "f32":
        return np.array([np.float32(t) for t in text], dtype=np.float32)
    wide = np.array([np.float64(t) for t in text], dtype=np.float64)
    return wide if dtype == "f64" else wide.astype(ml_dtypes.bfloat16)


def measure(op, dtype, count, seed, mp, fd_module, ml_dtypes):
    function, sampler = domains(mp)[op]
    rng = np.random.default_rng(seed)
    inputs64 = sampler(rng, count)
    if dtype == "bf16":
        inputs = inputs64.astype(ml_dtypes.bfloat16)
        exact_inputs = inputs.astype(np.float64)
        data_type = fd_module.DataType.BFloat16
    else:
        inputs = inputs64.astype(NUMPY[dtype])
        exact_inputs = inputs.astype(np.float64)
        data_type = fd_module.DataType.Float if dtype == "f32" else fd_module.DataType.Double
    with fd_module.FusionDefinition() as fd:
        t = fd.define_tensor(shape=[inputs.size], dtype=data_type)
        out = getattr(fd.ops, op)(t)
        if dtype == "bf16":
            out = fd.ops.cast(out, fd_module.DataType.BFloat16)
        fd.add_output(out)
    (got,) = fd.execute([inputs])
    mp.prec = 128
    reference = rounded(mp, [function(mp.mpf(float(v))) for v in exact_inputs], dtype, ml_dtypes)
    got_bits, width = to_bits(np.ascontiguousarray(got), dtype)
    ref_bits, _ = to_bits(np.ascontiguousarray(reference), dtype)
    got_f = got.astype(np.float64)
    ref_f = reference.astype(np.float64)
    both_nan = np.isnan(got_f) & np.isnan(ref_f)
    distance = np.abs(ordered(got_bits, width) - ordered(ref_bits, width))
    distance = np.where(both_nan, 0, distance)
    nan_mismatch = int((np.isnan(got_f) != np.isnan(ref_f)).sum())
    worst = int(np.argmax(distance))
    return {"op": op, "dtype": dtype, "count": int(inputs.size), "max_ulp": int(distance[worst]),
            "at": float(exact_inputs[worst]), "nan_mismatches": nan_mismatch}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--ops", default=None)
    parser.add_argument("--dtypes", default="f32,f64,bf16")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.build_dir, "python_packages"))
    import ml_dtypes
    import mpmath
    import fuser_mlir
    ops = args.ops.split(",") if args.ops else list(domains(mpmath.mp))
    dtypes = args.dtypes.split(",")
    start = time.time()
    rows = [measure(op, dtype, args.count, 26, mpmath.mp, fuser_mlir, ml_dtypes)
            for op in ops for dtype in dtypes]
    print("| op | " + " | ".join("%s max ulp (at)" % d for d in dtypes) + " |")
    print("|---|" + "---|" * len(dtypes))
    for op in ops:
        cells = []
        for row in rows:
            if row["op"] == op:
                cell = "%d (%.6g)" % (row["max_ulp"], row["at"])
                if row["nan_mismatches"]:
                    cell += ", %d NaN mismatches" % row["nan_mismatches"]
                cells.append(cell)
        print("| %s | %s |" % (op, " | ".join(cells)))
    print("\n(%d inputs per op and dtype; %.1f s)" % (args.count, time.time() - start))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
