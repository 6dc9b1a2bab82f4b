#!/usr/bin/env python3
"""The accuracy of the math-library ops on this host, measured: for each
transcendental elementwise op and float dtype, the largest distance in ulps
between what the reference interpreter (and so the CPU backend, which calls
the same functions) computes and the correctly rounded result, which mpmath
gives at 128 bits. The inputs are spread over each op's domain (log-spaced
magnitudes of both signs where the domain allows, plus a uniform sample).

Usage: bench/ulp_bounds.py [--build-dir build] [--count N] [--ops a,b]
                           [--dtypes f32,f64,bf16] [--json FILE] [--complex]

--complex measures the ops that take complex<f32>/complex<f64> instead, on
z = re + im i with both parts spread over [-10, 10] (half uniform, half
log-spaced magnitudes from 1e-3): per result, the error of each part in ulps
of that part, and the normwise error |got - exact| in ulps of |exact| (the
measure complex libraries quote, which a small part beside a large one
does not blow up).
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

COMPLEX_OPS = ["exp", "log", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "pow", "abs",
               "div", "reciprocal", "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh",
               "atanh", "log10", "log2", "sigmoid"]


def complex_reference(mp, op):
    return {"exp": mp.exp, "log": mp.log, "sqrt": mp.sqrt, "rsqrt": lambda z: 1 / mp.sqrt(z),
            "sin": mp.sin, "cos": mp.cos, "tan": mp.tan, "tanh": mp.tanh,
            "pow": lambda z, w: mp.power(z, w), "abs": abs, "div": lambda z, w: z / w,
            "reciprocal": lambda z: 1 / z, "sinh": mp.sinh, "cosh": mp.cosh,
            "asin": mp.asin, "acos": mp.acos, "atan": mp.atan, "asinh": mp.asinh,
            "acosh": mp.acosh, "atanh": mp.atanh, "log10": lambda z: mp.log(z, 10),
            "log2": lambda z: mp.log(z, 2), "sigmoid": lambda z: 1 / (1 + mp.exp(-z))}[op]


def measure_complex(op, dtype, count, seed, mp, fd_module):
    rng = np.random.default_rng(seed)

    def parts(n):
        uniform = rng.uniform(-10, 10, n // 2)
        logs = np.exp(rng.uniform(math.log(1e-3), math.log(10), n - n // 2))
        return np.concatenate([uniform, logs * rng.choice([-1, 1], n - n // 2)])

    np_dtype = np.complex64 if dtype == "c64" else np.complex128
    part_dtype = np.float32 if dtype == "c64" else np.float64
    z = (parts(count) + 1j * parts(count)).astype(np_dtype)
    w = ((parts(count) + 1j * parts(count)) / 4).astype(np_dtype)
    binary = op in ("pow", "div")
    data_type = fd_module.DataType.ComplexFloat if dtype == "c64" else \
        fd_module.DataType.ComplexDouble
    with fd_module.FusionDefinition() as fd:
        t = fd.define_tensor(shape=[count], dtype=data_type)
        u = fd.define_tensor(shape=[count], dtype=data_type)
        fd.add_output(getattr(fd.ops, op)(t, u) if binary else getattr(fd.ops, op)(t))
    (got,) = fd.execute([z, w])
    mp.prec = 128
    function = complex_reference(mp, op)
    exact = [function(mp.mpc(complex(a)), mp.mpc(complex(b))) if binary else
             function(mp.mpc(complex(a))) for a, b in zip(z, w)]
    eps = float(np.finfo(part_dtype).eps)
    worst_part, worst_norm, at = 0.0, 0.0, 0
    for i, (g, e) in enumerate(zip(got, exact)):
        e = mp.mpc(e)
        g_parts = [float(np.real(g)), float(np.imag(g))]
        e_parts = [e.real, e.imag]
        if not all(math.isfinite(v) for v in g_parts) or not mp.isfinite(e):
            continue
        for gp, ep in zip(g_parts, e_parts):
            if ep != 0:
                ulp = eps * 2.0 ** math.floor(math.log2(abs(float(ep)))) \
                    if float(ep) != 0 else eps
                worst_part = max(worst_part, float(abs(gp - ep)) / ulp)
        magnitude = float(abs(e))
        if magnitude:
            error = float(abs(mp.mpc(g_parts[0], g_parts[1]) - e))
            norm = error / (eps * 2.0 ** math.floor(math.log2(magnitude)))
            if norm > worst_norm:
                worst_norm, at = norm, i
    return {"op": op, "dtype": dtype, "count": count, "max_part_ulp": worst_part,
            "max_norm_ulp": worst_norm, "at": str(complex(z[at]))}


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
    parser.add_argument("--complex", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.build_dir, "python_packages"))
    import ml_dtypes
    import mpmath
    import fuser_mlir
    start = time.time()
    if args.complex:
        ops = args.ops.split(",") if args.ops else COMPLEX_OPS
        rows = [measure_complex(op, dtype, args.count, 26, mpmath.mp, fuser_mlir)
                for op in ops for dtype in ("c64", "c128")]
        print("| op | c64 per part | c64 normwise | c128 per part | c128 normwise |")
        print("|---|---|---|---|---|")
        for op in ops:
            cells = ["%.3g" % row[key] for row in rows if row["op"] == op
                     for key in ("max_part_ulp", "max_norm_ulp")]
            print("| %s | %s |" % (op, " | ".join(cells)))
        print("\n(max ulps; %d inputs per op and dtype; %.1f s)" % (args.count,
                                                                 time.time() - start))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(rows, f, indent=1)
        return
    ops = args.ops.split(",") if args.ops else list(domains(mpmath.mp))
    dtypes = args.dtypes.split(",")
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
