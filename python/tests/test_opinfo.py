"""The OpInfo suite: an independent oracle for every elementwise op, cast,
reduction and statistics composite that fd.ops exposes, on the interpreter
and the CPU backend, modelled on nvFuser's tests/python/opinfo: one OpInfo
record per op (its reference, the dtypes it takes, its tolerance per result
dtype), sample generators with extremal values (opinfo_samples.py), and
references from numpy, ml_dtypes and Python's math module
(opinfo_references.py) rather than from the project's own code. Tolerances
(opinfo_compare.py): bit-exact for the exact ops, ulp bounds from
docs/Interpreter.md's accuracy tables for the math-library ops, NaN equal to
NaN, integers and bools exact. Every sample of one op and dtype is one
execute: one compile per op and dtype on the CPU backend.
docs/Testing.md ("OpInfo suite") gives its size."""
import math
import operator
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np
import pytest

import fuser_mlir
from fuser_mlir import DataType, FusionDefinition
from opinfo_compare import describe, mismatches
import opinfo_references as R
from opinfo_samples import (ALL_DTYPES, BF16, BOOL, COMPLEX_DTYPES, FLOAT_DTYPES,
                            INT_DTYPES, nary_samples, reduction_rows, shift_amounts,
                            unary_samples)

F32, F64, F16 = np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.float16)
I32, I64 = np.dtype(np.int32), np.dtype(np.int64)
C64, C128 = np.dtype(np.complex64), np.dtype(np.complex128)
DT = {F32: DataType.Float, F64: DataType.Double, F16: DataType.Half,
      BF16: DataType.BFloat16, I32: DataType.Int32, I64: DataType.Int,
      BOOL: DataType.Bool, C64: DataType.ComplexFloat, C128: DataType.ComplexDouble}
BACKENDS = ["interp", "cpu"]
NUMERIC = tuple(FLOAT_DTYPES + INT_DTYPES)
REAL = NUMERIC + (BOOL,)
INTEGRAL = tuple(INT_DTYPES) + (BOOL,)

# Known defects: strict xfails with the reason (a strict xfail that passes
# fails the suite, so a fix must remove its entry). None at present.


@dataclass
class OpInfo:
    """One op: `reference` maps the operands, widened (floats to float64 after
    the fusion's own conversion to its compute dtype, complex to complex128,
    integers to Python ints when `int_reference` is given), to the exact or
    float64 result, which the test rounds into the result dtype. `ulp` is the
    tolerance per result dtype in ulps (missing: 0, bit-exact); `cnorm` the
    normwise one for complex results (None: part by part, bit-exact)."""
    name: str
    reference: Callable
    dtypes: tuple
    arity: int = 1
    int_reference: Optional[Callable] = None
    complex_reference: Optional[Callable] = None
    ulp: dict = field(default_factory=dict)
    atol: dict = field(default_factory=dict)  # result dtype -> absolute slack beside ulp
    cnorm: Optional[float] = None
    result: str = "same"    # same | bool | real (abs) | float (ints and 16-bit to f32)
    in_compute_dtype: bool = False  # reference evaluated in the result dtype
    samples: Optional[Callable] = None
    xfail: dict = field(default_factory=dict)  # dtype name or (dtype, backend) -> reason


def np_fn(fn):
    def apply(*args):
        with np.errstate(all="ignore"):
            return fn(*args)
    return apply


def math_ulps(b32, b64, b16=1):
    """docs/Interpreter.md's measured bound plus the reference's own error:
    half an ulp for f32 (computed in f64, rounded once), two for f64 (numpy's
    own f64 functions, up to a few ulp)."""
    return {"float32": b32 + 1, "float64": b64 + 2, "float16": b16, "bfloat16": b16}


def complex_bound(c64, c128):
    """docs/Interpreter.md's normwise complex bounds (upstream MLIR's
    expansions, a documented deviation from libc++), doubled for samples
    beyond the measured [-10, 10] square, plus the reference's error."""
    return 2 * max(c64, c128) + 4


FLOAT_OPS = FLOAT_DTYPES + INT_DTYPES + [BOOL]

# (name, numpy reference, f32 ulps, f64 ulps, complex normwise bound or None)
MATH_UNARY = [
    ("exp", np.exp, 1, 1, complex_bound(1.36, 1.39)),
    ("log", np.log, 0, 0, complex_bound(283, 80.2)),
    ("rsqrt", lambda x: 1 / np.sqrt(x), 1, 1, complex_bound(2.55, 3.13)),
    ("sin", np.sin, 1, 1, complex_bound(274, 269)),
    ("cos", np.cos, 1, 1, complex_bound(44.2, 41.9)),
    ("tan", np.tan, 1, 1, complex_bound(22.9, 11.2)),
    ("tanh", np.tanh, 2, 2, complex_bound(5.26, 7.48)),
    ("sigmoid", lambda x: 1 / (1 + np.exp(-x)), 2, 2, complex_bound(17, 50.3)),
    ("asin", np.arcsin, 1, 1, complex_bound(819, 751)),
    ("acos", np.arccos, 1, 1, complex_bound(165, 223)),
    ("atan", np.arctan, 1, 1, complex_bound(599, 361)),
    ("sinh", np.sinh, 1, 1, complex_bound(1.88, 1.89)),
    ("cosh", np.cosh, 1, 1, complex_bound(1.91, 1.71)),
    ("asinh", np.arcsinh, 1, 1, complex_bound(1e3, 1.29e3)),
    ("acosh", np.arccosh, 1, 1, complex_bound(165, 223)),
    ("atanh", np.arctanh, 1, 1, complex_bound(628, 390)),
    ("log10", np.log10, 1, 1, complex_bound(491, 140)),
    ("log2", np.log2, 0, 1, complex_bound(408, 116)),
    ("exp2", np.exp2, 0, 1, None),
    ("expm1", np.expm1, 1, 1, None),
    ("log1p", np.log1p, 1, 1, None),
    ("erf", R.erf, 1, 1, None),
    ("erfc", R.erfc, 2, 2, None),
    ("erfinv", R.erfinv, 0, 1, None),
    ("erfcinv", R.erfcinv, 0, 1, None),
    ("lgamma", R.lgamma, 3, 2, None),
    ("silu", lambda x: x * (1 / (1 + np.exp(-x))), 2, 2, None),
]


# Absolute slack beside the ulp bound:
# - sigmoid and silu are 1 / (1 + exp(-x)) with each step rounded
#   (docs/Interpreter.md, Semantics): exp(-x) overflows where the exact result
#   is below the smallest normal, which then comes out 0;
# - lgamma's float64 reference is CPython's own math.lgamma (not glibc's),
#   which is off by up to about 1e-15 absolute near lgamma's zeros at 1 and 2.
MATH_ATOL = {
    "sigmoid": {"float32": float(np.finfo(np.float32).tiny),
                "float64": float(np.finfo(np.float64).tiny)},
    # silu: x times that 0, |x| up to about 104 (710) before the exact result
    # underflows
    "silu": {"float32": 4e-37, "float64": 1e-305},
    "lgamma": {"float64": 2e-15},
}


MATH_XFAIL = {}


def _sign(x):
    # torch's and nvFuser's sign: (0 < x) - (x < 0); NaN gives 0
    return ((x > 0).astype(np.float64) - (x < 0).astype(np.float64))


def _remainder(a, b):
    r = np.fmod(a, b)
    return np.where((r != 0) & ((r < 0) != (b < 0)), r + b, r)


def _maximum(a, b):
    # NaN wins; -0 orders below +0
    return np.where(np.isnan(a) | np.isnan(b), np.nan,
                    np.where(a == b, np.where(np.signbit(a), b, a), np.maximum(a, b)))


def _minimum(a, b):
    return np.where(np.isnan(a) | np.isnan(b), np.nan,
                    np.where(a == b, np.where(np.signbit(a), a, b), np.minimum(a, b)))


def _lerp(s, e, w):
    # torch's two-branch formula, in the compute dtype
    return np.where(w < 0.5, s + w * (e - s), e - (e - s) * (1 - w))


def _pow_samples(dtype, rng):
    if dtype in COMPLEX_DTYPES:
        from opinfo_samples import random_values
        return [random_values(dtype, 128, rng), random_values(dtype, 128, rng)]
    return nary_samples(dtype, 2, rng)


def _gcd(a, b):
    return math.gcd(a, b)


def _bool_of(x):
    return (x.real != 0) | (x.imag != 0) if np.iscomplexobj(x) else (x != 0)


def _shift_ref(name):
    def ref(a, b, width):
        return R.shift_ops(width)[name](a, b)
    return ref


OPINFOS = [
    # unary, exact
    OpInfo("neg", np_fn(np.negative), tuple(NUMERIC) + tuple(COMPLEX_DTYPES),
           int_reference=lambda a: -a, result="arith"),
    OpInfo("abs", np_fn(np.abs), tuple(NUMERIC) + tuple(COMPLEX_DTYPES),
           int_reference=abs, result="real"),
    OpInfo("sqrt", np_fn(np.sqrt), tuple(FLOAT_OPS) + tuple(COMPLEX_DTYPES), result="float",
           cnorm=complex_bound(2.47, 2.34)),
    OpInfo("reciprocal", np_fn(lambda x: 1 / x), tuple(FLOAT_OPS) + tuple(COMPLEX_DTYPES),
           result="float", cnorm=complex_bound(1.39, 1.49)),
    *[OpInfo(name, np_fn(ref), tuple(FLOAT_OPS) + (tuple(COMPLEX_DTYPES) if cb else ()),
             result="float", ulp=math_ulps(b32, b64), cnorm=cb, atol=MATH_ATOL.get(name, {}),
             xfail=MATH_XFAIL.get(name, {}))
      for name, ref, b32, b64, cb in MATH_UNARY],
    # Exact ops: nvFuser gives them in the operand's dtype, f16 and bf16 too.
    *[OpInfo(name, np_fn(ref), NUMERIC, int_reference=lambda a: a)
      for name, ref in [("ceil", np.ceil), ("floor", np.floor), ("trunc", np.trunc),
                        ("round", np.rint)]],
    OpInfo("frac", np_fn(lambda x: x - np.trunc(x)), NUMERIC, int_reference=lambda a: 0),
    OpInfo("relu", np_fn(lambda x: np.where(x <= 0, 0.0, x)), NUMERIC,
           int_reference=lambda a: max(a, 0)),
    OpInfo("sign", np_fn(_sign), NUMERIC, int_reference=lambda a: (a > 0) - (a < 0)),
    OpInfo("bitwise_not", None, INTEGRAL,
           int_reference=lambda a: (not a) if isinstance(a, bool) else ~a),
    OpInfo("logical_not", np_fn(lambda x: ~_bool_of(x)), ALL_DTYPES, result="bool",
           int_reference=lambda a: not a),
    OpInfo("signbit", np_fn(np.signbit), REAL, result="bool"),
    OpInfo("isfinite", np_fn(np.isfinite), ALL_DTYPES, result="bool"),
    OpInfo("isinf", np_fn(np.isinf), ALL_DTYPES, result="bool"),
    OpInfo("isnan", np_fn(np.isnan), ALL_DTYPES, result="bool"),
    OpInfo("isneginf", np_fn(np.isneginf), REAL, result="bool"),
    OpInfo("isposinf", np_fn(np.isposinf), REAL, result="bool"),
    OpInfo("isreal", np_fn(lambda x: np.imag(x) == 0), ALL_DTYPES, result="bool"),
    # binary
    OpInfo("add", np_fn(np.add), NUMERIC + tuple(COMPLEX_DTYPES), 2,
           int_reference=lambda a, b: a + b, result="arith"),
    OpInfo("sub", np_fn(np.subtract), NUMERIC + tuple(COMPLEX_DTYPES), 2,
           int_reference=lambda a, b: a - b, result="arith"),
    # complex mul is (ac - bd, ad + bc) in the part dtype: rounded twice
    OpInfo("mul", np_fn(np.multiply), NUMERIC + tuple(COMPLEX_DTYPES), 2,
           int_reference=lambda a, b: a * b, result="arith", cnorm=4,
           complex_reference=R.cmul_elementwise),
    OpInfo("div", np_fn(np.divide), NUMERIC + tuple(COMPLEX_DTYPES), 2,
           int_reference=R.int_div, result="arith", cnorm=complex_bound(1.91, 2.11)),
    OpInfo("truediv", np_fn(np.divide), FLOAT_OPS, 2, result="float"),
    OpInfo("maximum", np_fn(_maximum), NUMERIC, 2, int_reference=max, result="arith"),
    OpInfo("minimum", np_fn(_minimum), NUMERIC, 2, int_reference=min, result="arith"),
    # Annex G gives cpow no special values (G.6.4.1: it may be cexp(w clog(z))):
    # complex pow is checked on finite non-zero operands only
    OpInfo("pow", np_fn(np.power), NUMERIC + tuple(COMPLEX_DTYPES), 2,
           int_reference=R.int_pow, result="arith", ulp=math_ulps(1, 1),
           cnorm=complex_bound(13.5, 14.1), samples=_pow_samples),
    OpInfo("atan2", np_fn(np.arctan2), tuple(FLOAT_OPS), 2, result="float",
           ulp=math_ulps(1, 1)),
    OpInfo("fmod", np_fn(np.fmod), NUMERIC, 2, int_reference=R.int_fmod, result="arith"),
    OpInfo("mod", np_fn(np.fmod), NUMERIC, 2, int_reference=R.int_fmod, result="arith"),
    OpInfo("remainder", np_fn(_remainder), NUMERIC, 2, int_reference=R.int_remainder,
           result="arith", in_compute_dtype=True),
    OpInfo("nextafter", R.nextafter, tuple(FLOAT_DTYPES), 2, result="float",
           in_compute_dtype=True),
    OpInfo("gcd", None, tuple(INT_DTYPES), 2, int_reference=_gcd),
    OpInfo("bitwise_and", None, INTEGRAL, 2, int_reference=lambda a, b: a & b),
    OpInfo("bitwise_or", None, INTEGRAL, 2, int_reference=lambda a, b: a | b),
    OpInfo("bitwise_xor", None, INTEGRAL, 2, int_reference=lambda a, b: a ^ b),
    *[OpInfo(name, None, tuple(INT_DTYPES), 2, int_reference=_shift_ref(name))
      for name in ("bitwise_left_shift", "bitwise_right_shift", "logical_right_shift")],
    OpInfo("logical_and", np_fn(lambda a, b: _bool_of(a) & _bool_of(b)), ALL_DTYPES, 2,
           result="bool", int_reference=lambda a, b: bool(a) and bool(b)),
    OpInfo("logical_or", np_fn(lambda a, b: _bool_of(a) | _bool_of(b)), ALL_DTYPES, 2,
           result="bool", int_reference=lambda a, b: bool(a) or bool(b)),
    *[OpInfo(name, np_fn(ref), REAL + ((tuple(COMPLEX_DTYPES)) if name in ("eq", "ne") else ()),
             2, result="bool", int_reference=iref)
      for name, ref, iref in [
          ("eq", np.equal, operator.eq), ("ne", np.not_equal, operator.ne),
          ("lt", np.less, operator.lt), ("le", np.less_equal, operator.le),
          ("gt", np.greater, operator.gt), ("ge", np.greater_equal, operator.ge)]],
    # ternary
    OpInfo("lerp", np_fn(_lerp), tuple(FLOAT_DTYPES), 3, result="float", in_compute_dtype=True),
    OpInfo("clamp", np_fn(lambda x, lo, hi: _minimum(_maximum(x, lo), hi)), NUMERIC, 3,
           int_reference=lambda x, lo, hi: min(max(x, lo), hi)),
    OpInfo("threshold", np_fn(lambda x, t, v: np.where(x <= t, v, x)), NUMERIC, 3,
           int_reference=lambda x, t, v: v if x <= t else x),
    OpInfo("where", np_fn(lambda c, a, b: np.where(c, a, b)), ALL_DTYPES, 3,
           int_reference=lambda c, a, b: a if c else b),
]
BY_NAME = {info.name: info for info in OPINFOS}
# Complex references: C99 Annex G (Python's cmath, Annex G's division).
for _name, _fn in R.CMATH.items():
    BY_NAME[_name].complex_reference = R.complex_elementwise(_fn)


def result_dtype(info, dtype):
    """nvFuser's promotion: float ops make integers and bools float32;
    arithmetic computes float16 and bfloat16 in float32; abs of complex is
    its part dtype; predicates are bool."""
    if info.result == "bool":
        return BOOL
    if info.result == "real":
        return np.dtype(np.finfo(dtype).dtype) if dtype in COMPLEX_DTYPES else dtype
    if info.result == "float" and dtype in INT_DTYPES + [BOOL]:
        return F32
    if info.name == "silu":
        # nvFuser's silu has no promotion config: f16 and bf16 computed in
        # f32 and given in their dtype.
        return dtype
    if info.result in ("float", "arith") and dtype in (F16, BF16):
        return F32
    return dtype


def make_samples(info, dtype, rng):
    if info.samples:
        return info.samples(dtype, rng)
    if info.name == "where":
        cond, a, b = nary_samples(BOOL, 1, rng)[0], None, None
        a, b = nary_samples(dtype, 2, rng, limit=12)
        cond = np.resize(cond, a.shape)
        return [cond, a, b]
    if info.arity == 1:
        return [unary_samples(dtype, rng)]
    if info.name.endswith("shift"):
        (a,) = nary_samples(dtype, 1, rng)
        a = np.repeat(a, 6)
        return [a, shift_amounts(dtype, len(a), rng)]
    return nary_samples(dtype, info.arity, rng, limit=None if info.arity == 2 else 10)


def reference(info, args, out_dtype):
    """The expected result, rounded into out_dtype."""
    if out_dtype in INT_DTYPES or (info.int_reference and all(a.dtype in INTEGRAL for a in args)
                                   and info.name != "where"):
        if info.name.endswith("shift"):
            width = args[0].dtype.itemsize * 8
            values = R.int_map(lambda a, b: info.int_reference(a, b, width), *args)
        else:
            values = R.int_map(info.int_reference, *[a.astype(object) for a in args])
        if out_dtype == BOOL:
            return values.astype(bool)
        return R.wrap(values, out_dtype)
    if info.name == "where":
        return np.where(args[0], args[1], args[2]).astype(out_dtype)
    complex_in = any(a.dtype in COMPLEX_DTYPES for a in args)
    if complex_in:
        wide = [a if info.name == "mul" else a.astype(np.complex128) for a in args]
        fn = info.complex_reference or info.reference
    else:
        compute = out_dtype if out_dtype in FLOAT_DTYPES else F32
        if out_dtype == BOOL or info.result == "real":
            compute = None
        wide = [a if compute is None or a.dtype == BOOL and out_dtype == BOOL
                else a.astype(compute) for a in args]
        if not info.in_compute_dtype:
            wide = [a if a.dtype == BOOL else a.astype(np.float64) for a in wide]
        fn = info.reference
    out = np.asarray(fn(*wide))
    if out_dtype in COMPLEX_DTYPES:
        return out.astype(out_dtype)
    if out_dtype == BOOL:
        return out.astype(bool)
    with np.errstate(all="ignore"):
        return out.astype(np.float64).astype(out_dtype) if out.dtype != out_dtype else out


def run_fusion(build, inputs, backend):
    with FusionDefinition() as fd:
        tensors = [fd.define_tensor(shape=list(a.shape), contiguity=[True] * a.ndim,
                                    dtype=DT[a.dtype]) for a in inputs]
        outs = build(fd, *tensors)
        for out in (outs if isinstance(outs, (list, tuple)) else [outs]):
            fd.add_output(out)
    with np.errstate(all="ignore"):
        return fd.execute(list(inputs), backend=backend)


def _outside_complex_domain(info, inputs):
    """docs/Interpreter.md bounds the complex math ops (upstream MLIR's
    expansions and nvFuser's libc++ formulas on them, which cancel for small
    |z| and overflow in z^2 for huge |z|) only for parts in [-10, 10] with
    magnitudes from 1e-3: beyond it (finite operands only) a result is only
    required to be NaN exactly where the reference is."""
    if info.cnorm is None or info.name in ("mul", "div", "reciprocal", "abs", "sqrt",
                                           "rsqrt", "exp"):
        return None
    mask = np.zeros(inputs[0].shape, bool)
    for a in inputs:
        if a.dtype not in COMPLEX_DTYPES:
            return None
        for part in (np.abs(a.real), np.abs(a.imag)):
            mask |= np.isfinite(part) & (part != 0) & ((part < 1e-3) | (part > 10))
    finite = np.ones(inputs[0].shape, bool)
    for a in inputs:
        finite &= np.isfinite(a)
    return mask & finite


def tolerance(info, out_dtype, in_dtype=None):
    if info.name == "abs" and in_dtype in COMPLEX_DTYPES:
        # max * sqrt(1 + (min/max)^2): docs/Interpreter.md's 1.71 (c64) and
        # 1.72 (c128) ulp, plus numpy's hypot for the reference
        return 3
    return info.ulp.get(out_dtype.name, 0)


def _params():
    for info in OPINFOS:
        for dtype in info.dtypes:
            for backend in BACKENDS:
                reason = info.xfail.get((dtype.name, backend)) or info.xfail.get(dtype.name)
                marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
                yield pytest.param(info, dtype, backend, marks=marks,
                                   id="%s-%s-%s" % (info.name, dtype.name, backend))


def _seed(*words):
    return sum(ord(c) * (i + 1) for i, c in enumerate("-".join(words)))


def _scalar_bounds_case(info, dtype, backend, rng):
    """clamp and threshold take scalars for their bounds (nvFuser's): one
    fusion with two scalar inputs, executed for each pair of extremal
    bounds (a new scalar value runs the same compiled fusion)."""
    (x,) = [unary_samples(dtype, rng)]
    values = nary_samples(dtype, 1, rng, count=0)[0]
    values = values[:14] if dtype in FLOAT_DTYPES else values[:12]
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[len(x)], contiguity=[True], dtype=DT[dtype])
        s0 = fd.define_scalar(None, dtype=DT[dtype])
        s1 = fd.define_scalar(None, dtype=DT[dtype])
        fd.add_output(getattr(fd.ops, info.name)(t, s0, s1))
    out_dtype = result_dtype(info, dtype)
    for lo in values:
        for hi in values:
            scalar = (lambda v: float(v)) if dtype in FLOAT_DTYPES else int
            (got,) = fd.execute([x, scalar(lo), scalar(hi)], backend=backend)
            args = [x, np.full(x.shape, lo, dtype), np.full(x.shape, hi, dtype)]
            expected = reference(info, args, out_dtype)
            bad = mismatches(got, expected)
            assert not bad, "%s %s on %s: %s" % (info.name, dtype, backend,
                                                 describe(bad, got, expected, args))


@pytest.mark.parametrize("info, dtype, backend", list(_params()))
def test_elementwise(info, dtype, backend):
    rng = np.random.default_rng(_seed(info.name, dtype.name))
    if info.name in ("clamp", "threshold"):
        return _scalar_bounds_case(info, dtype, backend, rng)
    inputs = make_samples(info, dtype, rng)
    (got,) = run_fusion(lambda fd, *ts: getattr(fd.ops, info.name)(*ts), inputs, backend)
    out_dtype = result_dtype(info, dtype)
    assert got.dtype == out_dtype, "%s(%s) gave %s" % (info.name, dtype, got.dtype)
    expected = reference(info, inputs, out_dtype)
    loose = _outside_complex_domain(info, inputs)
    bad = mismatches(got, expected, tolerance(info, out_dtype, dtype), info.cnorm,
                     atol=info.atol.get(out_dtype.name, 0.0), loose=loose)
    assert not bad, "%s %s on %s: %s" % (info.name, dtype, backend,
                                         describe(bad, got, expected, inputs))


def test_every_elementwise_op_has_an_opinfo():
    ops = fuser_mlir._ops
    exposed = set(ops.UNARY_OPS) | set(ops.BINARY_OPS) | set(ops.TERNARY_OPS) | {"truediv"}
    exposed |= {"eq", "ne", "lt", "le", "gt", "ge", "where"}
    assert sorted(exposed - set(BY_NAME)) == []


# Casts: every pair of the nine dtypes. float to float and int to float round
# to nearest even (exactly, through Fractions), float to int truncates,
# saturates and maps NaN to 0, ints wrap, anything to bool is != 0 (NaN is
# true), complex to real takes the real part, real to complex is (x, +0).
def cast_reference(values, to):
    frm = values.dtype
    if to == BOOL:
        return _bool_of(values.astype(np.complex128) if frm in COMPLEX_DTYPES else values)
    if frm in COMPLEX_DTYPES and to not in COMPLEX_DTYPES:
        values = values.real.copy()
        frm = values.dtype
    if to in COMPLEX_DTYPES:
        part = np.dtype(np.finfo(to).dtype)
        re = cast_reference(values.real.copy() if frm in COMPLEX_DTYPES else values, part)
        im = (cast_reference(values.imag.copy(), part) if frm in COMPLEX_DTYPES
              else np.zeros(values.shape, part))
        out = np.empty(values.shape, to)
        out.real, out.imag = re, im
        return out
    if to in INT_DTYPES:
        info = np.iinfo(to)
        if frm in FLOAT_DTYPES:
            wide = values.astype(np.float64)
            out = []
            for v in wide.tolist():
                if math.isnan(v):
                    out.append(0)
                elif math.isinf(v):
                    out.append(info.max if v > 0 else info.min)
                else:
                    out.append(min(max(int(v), info.min), info.max))
            return np.array(out, dtype=to)
        return R.wrap(values.astype(object), to)
    # to a float
    if frm in FLOAT_DTYPES:
        return values.astype(np.float64).astype(to)  # one rounding, from the exact value
    from opinfo_compare import round_exact
    return np.array([round_exact(int(v), to) for v in values.tolist()],
                    dtype=np.float64).astype(to)


def _cast_params():
    for frm in ALL_DTYPES:
        for to in ALL_DTYPES:
            for backend in BACKENDS:
                yield pytest.param(frm, to, backend,
                                   id="%s-%s-%s" % (frm.name, to.name, backend))


@pytest.mark.parametrize("frm, to, backend", list(_cast_params()))
def test_cast(frm, to, backend):
    rng = np.random.default_rng(_seed("cast", frm.name))
    (values,) = [unary_samples(frm, rng)]
    if frm in FLOAT_DTYPES and to not in FLOAT_DTYPES + COMPLEX_DTYPES:
        # values just inside and beyond the integer ranges
        extra = np.array([2.0 ** 31, -2.0 ** 31, 2.0 ** 31 - 128, 2.0 ** 63, -2.0 ** 63,
                          2.0 ** 62, 1e10, -1e10, 0.999, -0.999], dtype=np.float64)
        values = np.concatenate([values, extra.astype(frm)])
    (got,) = run_fusion(lambda fd, t: fd.ops.cast(t, DT[to]), [values], backend)
    expected = cast_reference(values, to)
    bad = mismatches(got, expected)
    assert not bad, "cast %s -> %s on %s: %s" % (frm, to, backend,
                                                 describe(bad, got, expected, [values]))


# Reductions over the rows of opinfo_samples.reduction_rows: sum and prod
# against the exact value with the classic order-independent bound
# (n * eps * sum |x|, plus an ulp of a 16-bit result, which accumulates in
# f32 and rounds once), max and min exact (NaN wins, -0 below +0), integer
# sums and products wrapping in int64.
REDUCTION_DTYPES = {
    "sum": tuple(FLOAT_DTYPES + INT_DTYPES + [BOOL] + COMPLEX_DTYPES),
    "prod": tuple(FLOAT_DTYPES + INT_DTYPES + [BOOL]),
    "max": tuple(FLOAT_DTYPES + INT_DTYPES),
    "min": tuple(FLOAT_DTYPES + INT_DTYPES),
}
EPS = {F32: 2.0 ** -24, F64: 2.0 ** -53, F16: 2.0 ** -24, BF16: 2.0 ** -24}


def prod_rows(dtype, rng, length=16):
    if dtype in INT_DTYPES + [BOOL]:
        return reduction_rows(dtype, rng, length)
    rows = [(rng.uniform(0.5, 2, length) * rng.choice([-1, 1], length)).astype(dtype)
            for _ in range(6)]
    for value in (np.nan, np.inf, -np.inf, 0.0, -0.0):
        row = rng.uniform(0.5, 2, length).astype(dtype)
        row[rng.integers(0, length)] = value
        rows.append(row)
    row = rng.uniform(0.5, 2, length).astype(dtype)
    row[2], row[9] = np.inf, 0.0
    rows.append(row)
    return np.stack(rows)


def _float_reduction(kind, row):
    """The exact result of one row of floats (float64 values) and the error
    bound's scale; NaN and infinities as IEEE arithmetic gives them in any
    order."""
    if kind in ("max", "min"):
        if np.isnan(row).any():
            return math.nan
        key = (lambda v: (v, not math.copysign(1, v) < 0))
        return (max if kind == "max" else min)(row.tolist(), key=key)
    if np.isnan(row).any():
        return math.nan
    if kind == "sum":
        pos, neg = np.isposinf(row).any(), np.isneginf(row).any()
        if pos and neg:
            return math.nan
        if pos or neg:
            return math.inf if pos else -math.inf
        if (row == 0).all():
            return -0.0 if np.signbit(row).all() else 0.0
        import fractions
        return float(sum(fractions.Fraction(v) for v in row.tolist()))
    # prod
    if np.isinf(row).any() and (row == 0).any():
        return math.nan
    import fractions
    exact = fractions.Fraction(1)
    for v in row.tolist():
        if math.isinf(v):
            continue
        exact *= fractions.Fraction(v)
    sign = -1.0 if np.signbit(row).sum() % 2 else 1.0
    if np.isinf(row).any():
        return sign * math.inf
    return math.copysign(float(exact), sign) if exact == 0 else float(exact)


def _check_float_reduction(kind, rows, got, dtype, what):
    wide = rows.astype(np.float64)
    n = rows.shape[1]
    eps = EPS[dtype]
    failures = []
    for r in range(rows.shape[0]):
        exact = _float_reduction(kind, wide[r])
        g = float(np.float64(got[r]))
        if math.isnan(exact) or math.isinf(exact) or kind in ("max", "min") or exact == 0:
            same = (math.isnan(g) and math.isnan(exact)) or (
                g == exact and math.copysign(1, g) == math.copysign(1, exact))
            if kind in ("max", "min") or math.isnan(exact) or math.isinf(exact) or \
                    (wide[r] == 0).all():
                if not same:
                    failures.append((r, wide[r].tolist(), g, exact))
                continue
        if kind == "sum":
            bound = n * eps * float(np.abs(wide[r]).sum())
        else:
            bound = 2 * n * eps * abs(exact)
        if dtype in (F16, BF16):
            from opinfo_compare import ulp_of
            bound += float(ulp_of(exact, dtype))
        if not abs(g - exact) <= bound:
            failures.append((r, wide[r].tolist(), g, exact))
    assert not failures, "%s: %d rows beyond tolerance, first: row %d %s: got %r, exact %r" % (
        what, len(failures), *failures[0])


def _grid(kinds):
    """(kind, dtype, backend) cases for each (kind, dtypes) pair."""
    for kind, dtypes in kinds:
        for dtype in dtypes:
            for backend in BACKENDS:
                yield pytest.param(kind, dtype, backend,
                                   id="%s-%s-%s" % (kind, dtype.name, backend))


@pytest.mark.parametrize("kind, dtype, backend", list(_grid(REDUCTION_DTYPES.items())))
def test_reduction(kind, dtype, backend):
    rng = np.random.default_rng(_seed("reduction", kind, dtype.name))
    rows = prod_rows(dtype, rng) if kind == "prod" else reduction_rows(dtype, rng)
    (got,) = run_fusion(lambda fd, t: getattr(fd.ops, kind)(t, dims=[1]), [rows], backend)
    what = "%s of %s on %s" % (kind, dtype, backend)
    if dtype in INT_DTYPES + [BOOL]:
        out = I64 if kind in ("sum", "prod") else dtype
        assert got.dtype == out, what
        fn = {"sum": sum, "prod": math.prod, "max": max, "min": min}[kind]
        expected = R.wrap([fn(int(v) for v in row) for row in rows.tolist()], out)
        np.testing.assert_array_equal(got, expected, err_msg=what)
    elif dtype in COMPLEX_DTYPES:
        assert got.dtype == dtype, what
        part = np.dtype(np.finfo(dtype).dtype)
        _check_float_reduction(kind, rows.real.copy(), got.real.copy(), part, what + " (real)")
        _check_float_reduction(kind, rows.imag.copy(), got.imag.copy(), part, what + " (imag)")
    else:
        assert got.dtype == dtype, what
        _check_float_reduction(kind, rows, got, dtype, what)


# Long sums: 2^16..2^22 float32 elements against float64 with nvFuser's
# tolerance for a reduction of that size (validator_utils' table, as
# fd.validate uses it: fuser_mlir._tolerances). 0.1 repeated is the classic
# case: a sequential float32 sum of 2^22 of them is off by percents, a
# pairwise one is exact.
LONG_SUMS = [
    ("tenths-2^22", lambda rng: np.full(1 << 22, 0.1, np.float32)),
    ("tenths-2^16", lambda rng: np.full(1 << 16, 0.1, np.float32)),
    ("uniform-2^22", lambda rng: rng.uniform(0, 1, 1 << 22).astype(np.float32)),
    ("normal-2^22", lambda rng: rng.standard_normal(1 << 22).astype(np.float32)),
    ("normal-plus-one-2^20", lambda rng: (rng.standard_normal(1 << 20) + 1).astype(np.float32)),
]


def _long_params():
    for name, make in LONG_SUMS:
        for backend in BACKENDS:
            yield pytest.param(make, backend, id="%s-%s" % (name, backend))


@pytest.mark.parametrize("make, backend", list(_long_params()))
def test_long_sum(make, backend):
    from fuser_mlir._tolerances import tolerance as nvfuser_tolerance
    values = make(np.random.default_rng(22))
    (got,) = run_fusion(lambda fd, t: fd.ops.sum(t, dims=[0]), [values], backend)
    exact = values.astype(np.float64).sum()
    atol, rtol = nvfuser_tolerance("float32", values.size)
    assert abs(float(got) - exact) <= atol + rtol * abs(exact), \
        "sum of %d float32 on %s: got %r, float64 sum %r (off by %.3g %%)" % (
            values.size, backend, float(got), exact, 100 * abs(float(got) - exact) / abs(exact))


# var, var_mean (mean and var) and welford (avg, var_sum, n) over rows,
# against a two-pass float64 (complex128) reference: mean = sum / N,
# var_sum = sum |x - mean|^2, var = var_sum / (N - correction); float16 and
# bfloat16 give float32 (welford's avg and var_sum their own dtype, as
# nvFuser's), integers float64, complex a real var.
STAT_DTYPES = tuple(FLOAT_DTYPES + INT_DTYPES + COMPLEX_DTYPES)


def stat_rows(dtype, rng, length=64):
    if dtype in INT_DTYPES:
        rows = [rng.integers(-1000, 1000, length).astype(dtype) for _ in range(5)]
    else:
        rows = [(rng.standard_normal(length) * 3).astype(dtype) for _ in range(5)]
    if dtype in FLOAT_DTYPES:
        for value in (np.nan, np.inf):
            row = rows[0].copy()
            row[7] = value
            rows.append(row)
        rows.append(np.full(length, 1.5, dtype))
        rows.append((rng.standard_normal(length) + 1000).astype(dtype))
    if dtype in COMPLEX_DTYPES:
        rows = [(rng.standard_normal(length) * 3 + 1j * rng.standard_normal(length)).astype(dtype)
                for _ in range(5)]
    return np.stack(rows).astype(dtype)


@pytest.mark.parametrize("stat, dtype, backend", list(_grid(
    (stat, STAT_DTYPES) for stat in ("var", "var_mean", "welford"))))
def test_statistics(stat, dtype, backend):
    from fuser_mlir._tolerances import tolerance as nvfuser_tolerance
    rng = np.random.default_rng(_seed("stat", dtype.name))
    rows = stat_rows(dtype, rng)
    n = rows.shape[1]
    if stat == "var":
        build = lambda fd, t: fd.ops.var(t, dims=[1], correction=1)
    elif stat == "var_mean":
        build = lambda fd, t: list(fd.ops.var_mean(t, dims=[1], correction=1))
    else:
        build = lambda fd, t: list(fd.ops.welford(t, dims=[1]))
    got = run_fusion(build, [rows], backend)
    complex_in = dtype in COMPLEX_DTYPES
    wide = rows.astype(np.complex128 if complex_in else np.float64)
    with np.errstate(all="ignore"):
        mean = wide.sum(axis=1) / n
        var_sum = (np.abs(wide - mean[:, None]) ** 2).sum(axis=1)
    var = var_sum / (n - 1)
    if complex_in:
        mean_dtype, var_dtype = dtype, np.dtype(np.finfo(dtype).dtype)
    elif stat == "welford" and dtype in (F16, BF16):
        mean_dtype = var_dtype = dtype
    else:
        mean_dtype = var_dtype = F32 if dtype in (F16, BF16) else (F64 if dtype in INT_DTYPES
                                                                    else dtype)
    expected = {"var": [(var, var_dtype)], "var_mean": [(var, var_dtype), (mean, mean_dtype)],
                "welford": [(mean, mean_dtype), (var_sum, var_dtype),
                            (np.full(rows.shape[0], n), I64)]}[stat]
    assert len(got) == len(expected)
    for index, (g, (e, edtype)) in enumerate(zip(got, expected)):
        what = "%s of %s on %s, output %d" % (stat, dtype, backend, index)
        assert g.dtype == edtype, "%s: dtype %s, expected %s" % (what, g.dtype, edtype)
        if edtype == I64:
            np.testing.assert_array_equal(g, e, err_msg=what)
            continue
        atol, rtol = nvfuser_tolerance(np.dtype(edtype).name, n)
        if edtype in (F32, C64) and dtype not in (F16, BF16):
            atol, rtol = atol, max(rtol, 1e-6)
        np.testing.assert_allclose(g.astype(np.complex128 if complex_in else np.float64), e,
                                   rtol=rtol, atol=atol * max(1.0, float(np.nanmax(
                                       np.abs(np.where(np.isfinite(e), e, 0))))),
                                   equal_nan=True, err_msg=what)


# NaN results: the same bits (sign and payload) whichever backend computes
# them, and numpy's default quiet NaN for NaN operands passed through.
NAN_OPS = [info for info in OPINFOS if info.result in ("float", "arith", "same")
           and info.name not in ("where", "clamp", "threshold")]


def _nan_params():
    for info in NAN_OPS:
        for dtype in (F32, F64):
            if dtype in info.dtypes:
                yield pytest.param(info, dtype, id="%s-%s" % (info.name, dtype.name))


@pytest.mark.parametrize("info, dtype", list(_nan_params()))
def test_nan_bits_agree_across_backends(info, dtype):
    rng = np.random.default_rng(_seed(info.name, dtype.name))
    inputs = make_samples(info, dtype, rng)
    build = lambda fd, *ts: getattr(fd.ops, info.name)(*ts)
    (a,) = run_fusion(build, inputs, "interp")
    (b,) = run_fusion(build, inputs, "cpu")
    bits = {4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    nan = np.isnan(a) | np.isnan(b)
    differ = np.flatnonzero(nan & (a.view(bits) != b.view(bits)))
    assert differ.size == 0, "%s %s: %d NaN results differ in bits, first at %s: interp %s, cpu %s" % (
        info.name, dtype, differ.size, [x[differ[0]] for x in inputs],
        hex(int(a.view(bits)[differ[0]])), hex(int(b.view(bits)[differ[0]])))
