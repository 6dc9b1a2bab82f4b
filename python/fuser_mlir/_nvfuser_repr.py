"""`repr(fd)` of nvfuser_direct in nvFuser's own text.

nvFuser does not print the calls a definition made: it prints a translation
of its Fusion IR (python/python_direct/python_translate.cpp), with `tv`
names for TensorViews and `c` names for scalars numbered as nvFuser numbers
its IR values, constants of Python's types inlined, the casts its type
promotion inserts spelled out, composite ops (broadcast_in_dim, var,
var_mean, sign, addcmul, ...) as the IR ops they build, reductions with
their dtype, and the expressions in the order a depth-first walk from the
outputs visits them. This module replays a definition's records on a small
model of that IR (the ops of csrc/ops/arith.cpp and normalization.cpp as
nvFuser 0.2.36 builds them) and prints it as the translator does.

Names: TensorViews are numbered in creation order (casts and the
intermediates of composites included), as nvFuser's. Scalars share one
counter with the values nvFuser creates for extents and constants; the
model charges each op what nvFuser 0.2.36 was measured to create (see
_COSTS), so the `c` numbers agree for the common forms (scalar inputs,
casts of constants, extents, the var/var_mean chains); where the model and
nvFuser differ, only those numbers differ.

The recorded-call text (T0/S1 names, the calls as made) stays what the
legacy `nvfuser` module prints and what FusionCache.serialize writes
(fd._recorded_text()).
"""

import math

from ._states import DataType, State

__all__ = ["translate", "fusion_outputs"]

_FLOATS = ("Double", "Float", "Half", "BFloat16", "Float8_e4m3fn", "Float8_e5m2",
           "Float8_e8m0fnu", "Float4_e2m1fn")
_HALVES = ("Half", "BFloat16", "Float8_e4m3fn", "Float8_e5m2", "Float8_e8m0fnu",
           "Float4_e2m1fn")
_INTS = ("Int", "Int32", "Index", "UInt64", "Short", "Char", "Byte", "UInt32", "UInt16")
_COMPLEX = ("ComplexFloat", "ComplexDouble")
_PYTHON_SCALAR = ("Bool", "Int", "Index", "ComplexDouble", "Double")


def _is_float(d):
    return d in _FLOATS


def _is_int(d):
    return d in _INTS


def _is_complex(d):
    return d in _COMPLEX


def _category(d):
    if d == "Bool":
        return 0
    if _is_int(d):
        return 1
    if _is_float(d):
        return 2
    return 3


_INT_ORDER = ["Byte", "Char", "Short", "Int32", "Int", "Index"]
_FLOAT_ORDER = ["Half", "BFloat16", "Float", "Double"]


def _promote(a, b):
    """nvFuser's promoteType of two dtypes (PyTorch's table)."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    ca, cb = _category(a), _category(b)
    if ca != cb:
        hi, lo = (a, b) if ca > cb else (b, a)
        if _is_complex(hi) and _is_float(lo):
            return "ComplexDouble" if lo == "Double" or hi == "ComplexDouble" else hi
        return hi
    if ca == 1:
        order = _INT_ORDER
        return a if order.index(a) > order.index(b) else b if a in order and b in order else a
    if ca == 2:
        if {a, b} == {"Half", "BFloat16"}:
            return "Float"
        if a in _FLOAT_ORDER and b in _FLOAT_ORDER:
            return a if _FLOAT_ORDER.index(a) > _FLOAT_ORDER.index(b) else b
        return "Float"
    if ca == 3:
        return "ComplexDouble"
    return a


def _combine(higher, lower):
    if higher is not None and _is_complex(higher):
        return higher
    if lower is not None and _is_complex(lower):
        if higher is not None and _is_float(higher):
            return "ComplexDouble" if higher == "Double" else "ComplexFloat"
        return lower
    if higher is not None and _is_float(higher):
        return higher
    if higher == "Bool" or (lower is not None and _is_float(lower)):
        return _promote(higher, lower)
    if higher is not None:
        return higher
    return lower


# ---------------------------------------------------------------------------
# The IR model


class Val:
    __slots__ = ("kind", "name", "dtype", "value", "definition", "dims", "contiguity",
                 "stride_order", "is_const", "known", "is_cpu")

    def __init__(self, kind, name, dtype, value=None, is_const=False):
        self.kind, self.name, self.dtype, self.value = kind, name, dtype, value
        self.is_const = is_const
        self.known = value if is_const else None   # the value, where constants decide it
        self.definition = None
        self.dims = None          # TensorView: [Dim]
        self.contiguity = None
        self.stride_order = None
        self.is_cpu = False       # a CPU scalar tensor input (define_tensor's is_cpu)

    @property
    def is_tv(self):
        return self.kind == "tv"

    def python_scalar(self):
        return (not self.is_tv and self.is_const and self.definition is None
                and self.dtype in _PYTHON_SCALAR)

    def logical(self):
        """Dims without reductions."""
        return [d for d in self.dims if d.kind != "r"]


class Dim:
    __slots__ = ("extent", "kind", "expanded")

    def __init__(self, extent, kind="i", expanded=None):
        self.extent, self.kind, self.expanded = extent, kind, expanded

    @property
    def maybe_expanded(self):
        return self.expanded if self.expanded is not None else self.extent


class Expr:
    __slots__ = ("op", "inputs", "outputs", "attrs")

    def __init__(self, op, inputs, outputs, attrs=None):
        self.op, self.inputs, self.outputs = op, list(inputs), list(outputs)
        self.attrs = attrs or {}
        for out in self.outputs:
            out.definition = self


class Unsupported(Exception):
    """A record the model does not translate."""


def fusion_outputs(added):
    """nvFuser's Fusion outputs after the add_output calls `added` (pairs of
    output and alias input or None, in call order), as csrc/fusion.cpp keeps
    them: [(output, alias input or None, visible)]. add_output(T, alias) adds
    T, hidden (written into the input, not returned), unless T is an output
    already (then it only records the alias); add_output(T) appends T, or
    moves a hidden T to the end and makes it visible. So an output added
    both ways is listed once."""
    outputs, aliases, hidden = [], {}, set()
    for out, alias in added:
        key = id(out)
        if alias is None:
            if key in hidden:
                hidden.discard(key)
                outputs = [o for o in outputs if o is not out]
            outputs.append(out)
            continue
        aliases[key] = alias
        if any(o is out for o in outputs):
            hidden.discard(key)
        else:
            hidden.add(key)
            outputs.append(out)
    return [(out, aliases.get(id(out)), id(out) not in hidden) for out in outputs]


class IR:
    def __init__(self):
        self.n_tv = 0
        self.n_scalar = 0
        self.zero_created = False
        self.one_created = False
        self.inputs = []
        self.added = []        # add_output's (tv, alias) in call order
        self.outputs = []      # fusion_outputs(added), once the records ran
        self.consts = {}

    # Values ---------------------------------------------------------------

    def charge(self, n):
        self.n_scalar += n

    def scalar(self, dtype, value=None, is_const=False, cost=1):
        v = Val("scalar", self.n_scalar, dtype, value, is_const)
        self.n_scalar += cost
        return v

    def const(self, value, dtype=None):
        if dtype is None:
            dtype = ("Bool" if isinstance(value, bool) else "Int" if isinstance(value, int)
                     else "Double" if isinstance(value, float) else "ComplexDouble")
        return self.scalar(dtype, value, is_const=True)

    def tv(self, dtype, dims, cost=None):
        v = Val("tv", self.n_tv, dtype)
        self.n_tv += 1
        v.dims = dims
        if cost is None:
            cost = 1 + 2 * sum(1 for d in dims if d.kind == "i")
        self.charge(cost)
        return v

    def _out_dims(self, operands):
        """Dims of an elementwise output: the first non-broadcast operand
        dim's extent, broadcast where all operands broadcast."""
        tvs = [o for o in operands if o.is_tv]
        if not tvs:
            return None
        rank = len(tvs[0].logical())
        dims = []
        for i in range(rank):
            chosen = None
            for t in tvs:
                d = t.logical()[i]
                if d.kind != "b":
                    chosen = Dim(d.extent, "i")
                    break
            if chosen is None:
                d = tvs[0].logical()[i]
                expanded = next((t.logical()[i].expanded for t in tvs
                                 if t.logical()[i].expanded is not None), None)
                chosen = Dim(d.extent, "b", expanded)
            dims.append(chosen)
        return dims

    def maybe_broadcast(self, operands):
        """ops::maybeBroadcast: TensorViews of a lower rank get leading
        broadcast dims."""
        ranks = [len(o.logical()) for o in operands if o.is_tv]
        if not ranks or min(ranks) == max(ranks):
            return operands
        rank = max(ranks)
        out = []
        for o in operands:
            if o.is_tv and len(o.logical()) < rank:
                n = len(o.logical())
                o = self.broadcast(o, [True] * (rank - n) + [False] * n)
            out.append(o)
        return out

    def the_one(self):
        """The cost of the fusion's cached one (Fusion::oneVal(), the extent
        of every broadcast dim; welford takes it too): 1 the first time."""
        cost = 0 if self.one_created else 1
        self.one_created = True
        return cost

    def broadcast(self, v, flags, cost=None):
        if cost is None:
            cost = 1 + self.the_one()
        it = iter(v.logical())
        dims = []
        for flag in flags:
            if flag:
                dims.append(Dim(Val("scalar", -1, "Index", 1, True), "b"))
            else:
                d = next(it)
                dims.append(Dim(d.extent, d.kind, d.expanded))
        out = self.tv(v.dtype, dims, cost=cost)
        Expr("broadcast", [v], [out], {"flags": list(flags)})
        return out

    def new_like(self, operands, dtype, op, attrs=None, tv_cost=None):
        operands = self.maybe_broadcast(operands)
        dims = self._out_dims(operands)
        if dims is None:
            out = self.scalar(dtype, cost=2)
            known = [o.known for o in operands]
            if None not in known and op in _FOLD:
                out.known = _FOLD[op](*known)
        else:
            out = self.tv(dtype, dims, tv_cost)
        Expr(op, operands, [out], attrs)
        return out

    # Casts and promotion ----------------------------------------------------

    def set(self, v):
        if not v.is_tv:
            return self.new_like([v], v.dtype, "set")
        out = self.tv(v.dtype, [Dim(d.extent, d.kind if d.kind != "r" else "i", d.expanded)
                                for d in v.logical()],
                      cost=2 + 2 * sum(1 for d in v.logical() if d.kind == "i"))
        Expr("set", [v], [out])
        return out

    def cast(self, dtype, v):
        if v.dtype == dtype:
            return self.set(v)
        return self.new_like([v], dtype, "cast")

    def optional_cast(self, dtype, v):
        if v.dtype == dtype:
            return v
        if not v.is_tv and ((_is_float(dtype) and _is_float(v.dtype))
                            or (_is_int(dtype) and _is_int(v.dtype))
                            or (_is_complex(dtype) and _is_complex(v.dtype))):
            return v
        return self.cast(dtype, v)

    def maybe_cast(self, dtype, v):
        if not v.is_tv:
            if v.dtype == dtype:
                return v
            if v.is_const and v.definition is None:
                # SimplifyingIrBuilder folds the cast of a constant.
                return self.scalar(dtype, _convert(v.value, dtype), is_const=True)
            return self.cast(dtype, v)
        return v if v.dtype == dtype else self.cast(dtype, v)

    def compute_type(self, operands, int_to_float=False, half_to_float=True):
        common = None
        different = False
        for o in operands:
            if o.dtype != common:
                if common is None:
                    common = o.dtype
                else:
                    different = True
        if different:
            dim = zero = wrapped = None
            for o in operands:
                if o.is_tv:
                    if len(o.dims) > 0:
                        dim = _promote(dim, o.dtype)
                    else:
                        zero = _promote(zero, o.dtype)
                else:
                    d = "Float" if o.dtype in _HALVES else o.dtype
                    wrapped = _promote(wrapped, d)
            common = _combine(dim, _combine(zero, wrapped))
        if int_to_float and (common == "Bool" or _is_int(common)):
            common = "Float"
        if half_to_float and common in _HALVES:
            common = "Float"
        return common

    def promote(self, operands, **config):
        common = self.compute_type(operands, **config)
        return common, [self.optional_cast(common, o) for o in operands]

    # Elementwise -------------------------------------------------------------

    def unary(self, op, v, config=None, out_dtype=None):
        if config is not None:
            _, (v,) = self.promote([v], **config)
        return self.new_like([v], out_dtype or v.dtype, op)

    def binary(self, op, a, b, config, out_dtype=None):
        common, (a, b) = self.promote([a, b], **config)
        return self.new_like([a, b], out_dtype or common, op)

    def where(self, c, a, b):
        common, (a, b) = self.promote([a, b], half_to_float=False)
        return self.new_like([c, a, b], common, "where")


# Op tables (nvFuser 0.2.36, csrc/ops/arith.cpp) -------------------------------

_FOLD = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
         "neg": lambda a: -a, "minimum": min, "maximum": max,
         "cast": lambda a: a, "set": lambda a: a}
_FLOAT_CONFIG = {"int_to_float": True}
_DEFAULT_CONFIG = {}
_UNARY_FLOAT = {"acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp",
                "exp2", "expm1", "erf", "erfc", "erfinv", "erfcinv", "lgamma", "log",
                "log10", "log1p", "log2", "reciprocal", "rsqrt", "sigmoid", "sin", "sinh",
                "sqrt", "tan", "tanh"}
_UNARY_PLAIN = {"ceil", "floor", "frac", "relu", "round", "silu", "trunc"}
_UNARY_IS = {"isfinite", "isinf", "isnan", "isneginf", "isposinf", "isreal"}
_BINARY_DEFAULT = {"div", "mod", "add", "fmod", "mul", "pow", "remainder", "sub",
                   "minimum", "maximum", "bitwise_left_shift", "bitwise_right_shift", "gcd"}
_BINARY_COMPARE = {"eq", "ne", "lt", "le", "gt", "ge"}
_BITWISE = {"bitwise_and": "logical_and", "bitwise_or": "logical_or", "bitwise_xor": "ne"}


class Translator:
    def __init__(self, records):
        self.records = records
        self.ir = IR()
        self.vals = {}          # state index -> Val (or a list for vectors)

    # Arguments -------------------------------------------------------------

    def val(self, x, dtype=None):
        """A record argument as a Val: a state's, or a new constant."""
        if isinstance(x, State):
            try:
                return self.vals[x.index]
            except KeyError:
                raise Unsupported("state %s" % x.name)
        if isinstance(x, DataType):
            raise Unsupported("dtype as operand")
        if hasattr(x, "item") and not isinstance(x, (list, tuple)):
            x = x.item()
        if isinstance(x, (bool, int, float, complex)):
            return self.ir.const(x, dtype)
        raise Unsupported("operand %r" % (x,))

    @staticmethod
    def arg(record, index, name, default=None):
        if len(record.args) > index:
            return record.args[index]
        return record.kwargs.get(name, default)

    def extent(self, x):
        """A shape entry: an int (a new constant) or a Scalar state."""
        if isinstance(x, State):
            return self.val(x)
        if isinstance(x, bool) or not isinstance(x, int):
            raise Unsupported("extent %r" % (x,))
        return self.ir.const(x)

    # Records -----------------------------------------------------------------

    def run(self):
        for record in self.records:
            if record.call is None:
                continue
            handler = getattr(self, "r_" + record.call.replace("ops.", "op_"), None)
            if handler is None:
                raise Unsupported(record.call)
            result = handler(record)
            if record.out is None:
                continue
            outs = (record.out,) + tuple(record.extra_outs)
            if len(outs) == 1:
                result = [result]
            for state, value in zip(outs, result):
                self.vals[state.index] = value
        self.ir.outputs = fusion_outputs(self.ir.added)
        return self.ir

    def r_define_tensor(self, record):
        ir = self.ir
        kw = record.kwargs
        shape = kw.get("shape")
        if shape is None:
            shape = kw.get("sizes")
        if shape is None:
            raise Unsupported("define_tensor without shape")
        strides = kw.get("strides")
        dims = []
        # One value per dim's extent, in order; a static dim's second value
        # comes after them all (measured: shape [3, 4, -1] names its
        # symbolic extent c2).
        for extent in shape:
            if extent == -1:
                dims.append(Dim(ir.scalar("Index"), "i"))
            else:
                e = ir.scalar("Index", extent, is_const=True)
                dims.append(Dim(e, "b" if extent == 1 else "i"))
        ir.charge(sum(1 for extent in shape if extent != -1))
        if shape and not ir.zero_created:
            ir.zero_created = True
            ir.charge(1)
        tv = ir.tv(kw.get("dtype", DataType.Float).name, dims, cost=0)
        contiguity = kw.get("contiguity")
        if strides is not None:
            contiguity = _contiguity_from_strides(shape, strides)
        if contiguity is None or isinstance(contiguity, bool):
            contiguity = [bool(contiguity)] * len(shape)
        tv.contiguity = [None if d.kind == "b" else (bool(c) if c is not None else False)
                         for d, c in zip(dims, list(contiguity) + [False] * len(dims))]
        order = kw.get("stride_order")
        if order and list(order) != list(range(len(shape) - 1, -1, -1)):
            tv.stride_order = list(order)
        tv.is_cpu = bool(kw.get("is_cpu"))
        ir.inputs.append(tv)
        return tv

    def r_define_scalar(self, record):
        value = self.arg(record, 0, "value")
        dtype = self.arg(record, 1, "dtype")
        if hasattr(value, "item"):
            value = value.item()
        if dtype is None or dtype is DataType.Null:
            dtype_name = ("Bool" if isinstance(value, bool) else "Int" if isinstance(value, int)
                          else "Double" if isinstance(value, float) else "ComplexDouble")
        else:
            dtype_name = dtype.name
        if value is None:
            v = self.ir.scalar(dtype_name)
            self.ir.inputs.append(v)
            return v
        return self.ir.scalar(dtype_name, value, is_const=True)

    def r_define_vector(self, record):
        raise Unsupported("define_vector")

    def r_add_output(self, record):
        out = self.val(record.args[0])
        alias = self.val(record.args[1]) if len(record.args) > 1 else None
        if not out.is_tv:
            raise Unsupported("scalar output")
        self.ir.added.append((out, alias))

    # Elementwise ---------------------------------------------------------------

    def elementwise(self, name, args):
        ir = self.ir
        vals = [self.val(a) for a in args]
        if len(vals) == 1:
            v = vals[0]
            if name in _UNARY_FLOAT:
                return ir.unary(name, v, _FLOAT_CONFIG)
            if name in _UNARY_PLAIN:
                return ir.unary(name, v)
            if name in _UNARY_IS:
                return ir.unary(name, v, out_dtype="Bool")
            if name == "neg":
                return ir.unary(name, v, _DEFAULT_CONFIG)
            if name == "abs" or name in ("real", "imag"):
                if _is_complex(v.dtype):
                    return ir.unary(name, v, out_dtype="Float" if v.dtype == "ComplexFloat"
                                    else "Double")
                if name == "real":
                    return ir.set(v)
                if name == "abs":
                    return ir.unary(name, v)
                raise Unsupported("imag of a real")
            if name == "signbit":
                _, (c,) = ir.promote([v])
                out = ir.new_like([c], "Bool", "signbit")
                return out
            if name == "logical_not":
                return ir.unary(name, ir.maybe_cast("Bool", v))
            if name == "bitwise_not":
                if v.dtype == "Bool":
                    return ir.unary("logical_not", ir.maybe_cast("Bool", ir.cast("Int", v)))
                return ir.unary(name, v)
            if name == "sign":
                zero, one, minus_one = ir.const(0.0), ir.const(1.0), ir.const(-1.0)
                inner = ir.where(ir.binary("lt", v, zero, {}, "Bool"), minus_one, zero)
                outer = ir.where(ir.binary("gt", v, zero, {}, "Bool"), one, inner)
                return ir.cast(v.dtype, outer)
            raise Unsupported(name)
        if len(vals) == 2:
            a, b = vals
            if name in _BINARY_DEFAULT:
                return ir.binary(name, a, b, _DEFAULT_CONFIG)
            if name in ("truediv", "atan2"):
                return ir.binary("div" if name == "truediv" else name, a, b, _FLOAT_CONFIG)
            if name == "nextafter":
                return ir.binary(name, a, b, _FLOAT_CONFIG)
            if name in _BINARY_COMPARE:
                return ir.binary(name, a, b, {}, "Bool")
            if name in ("logical_and", "logical_or"):
                a, b = ir.maybe_cast("Bool", a), ir.maybe_cast("Bool", b)
                return ir.binary(name, a, b, {}, "Bool")
            if name in _BITWISE:
                if a.dtype == "Bool" and b.dtype == "Bool":
                    alt = _BITWISE[name]
                    if alt == "ne":
                        return ir.binary("ne", a, b, {}, "Bool")
                    return ir.binary(alt, a, b, {}, "Bool")
                return ir.binary(name, a, b, _DEFAULT_CONFIG)
            if name == "logical_right_shift":
                return self.logical_right_shift(a, b)
            if name == "complex":
                return ir.new_like([a, b], "ComplexFloat" if a.dtype == "Float"
                                   else "ComplexDouble", "complex")
            raise Unsupported(name)
        a, b, c = vals[:3]
        if name == "where":
            return ir.where(a, b, c)
        if name == "lerp":
            _, (a, b, c) = ir.promote([a, b, c])
            return ir.new_like([a, b, c], _promote(a.dtype, b.dtype), "lerp")
        if name in ("clamp", "threshold"):
            b, c = ir.optional_cast(a.dtype, b), ir.optional_cast(a.dtype, c)
            return ir.new_like([a, b, c], a.dtype, name)
        raise Unsupported(name)

    def logical_right_shift(self, x, shift):
        ir = self.ir
        bits = 64 if x.dtype == "Int" else 32
        neg_one, one, two, nbits = ir.const(-1), ir.const(1), ir.const(2), ir.const(bits)
        # C++ evaluates the arguments right to left (GCC).
        right = ir.binary("sub", ir.binary("pow", two, shift, {}), one, {})
        mask = ir.where(ir.binary("ge", shift, nbits, {}, "Bool"), neg_one, right)
        shifted_mask = ir.binary("bitwise_left_shift", mask,
                                 ir.binary("sub", nbits, shift, {}), {})
        value = ir.binary("bitwise_right_shift", x, shift, {})
        xor = ir.binary("bitwise_xor", shifted_mask, value, {})
        sign = ir.new_like([ir.promote([x])[1][0]], "Bool", "signbit")
        return ir.where(sign, xor, value)

    def __getattr__(self, name):
        if name.startswith("r_op_"):
            op = name[5:]
            from . import _ops
            if op in _ops.UNARY_OPS or op in _ops.BINARY_OPS or op in _ops.TERNARY_OPS \
                    or op in ("truediv", "where", "complex", "real", "imag"):
                return lambda record: self.elementwise(op, record.args)
        raise AttributeError(name)

    def r_op_addcmul(self, record):
        ir = self.ir
        v1, v2, v3, s = [self.val(a) for a in record.args[:4]]
        common = ir.compute_type([v1, v2, v3])
        v1, v2, v3, s = [ir.optional_cast(common, v) for v in (v1, v2, v3, s)]
        inner = ir.binary("mul", v3, s, {})
        return ir.binary("add", v1, ir.binary("mul", v2, inner, {}), {})

    def r_op_cast(self, record):
        v = self.val(self.arg(record, 0, "arg"))
        dtype = self.arg(record, 1, "dtype").name
        return self.ir.cast(dtype, v)

    def r_op_set(self, record):
        return self.ir.set(self.val(record.args[0]))

    r_op_segment_set = r_op_set

    # Reductions -------------------------------------------------------------

    def reduction(self, op, v, dims, keepdim, dtype):
        ir = self.ir
        logical = v.logical()
        n = len(logical)
        if n == 0:
            return ir.set(v)
        axes = sorted({d % n for d in dims})
        if op in ("sum", "prod"):
            if dtype is None and (v.dtype == "Bool" or _is_int(v.dtype)):
                dtype = "Int"
            if dtype is not None and dtype != v.dtype:
                v = ir.cast(dtype, v)
        squeeze = [logical[a].kind == "b" for a in range(n)]
        squeeze = [squeeze[a] and a in axes for a in range(n)]
        source = v
        if any(squeeze):
            source = self.squeeze_flags(v, squeeze)
        reduce_axes = [a - sum(squeeze[:a]) for a in axes if not squeeze[a]]
        out = source
        if reduce_axes:
            src_logical = source.logical()
            dims_out = [Dim(d.extent, "r" if i in reduce_axes else d.kind, d.expanded)
                        for i, d in enumerate(src_logical)]
            out = ir.tv(dtype or source.dtype, dims_out, cost=4)
            Expr("reduction", [source], [out], {"op": op, "axes": reduce_axes,
                                                "dtype": dtype or source.dtype})
            if keepdim:
                out = self.broadcast_flags(out, [i in reduce_axes
                                                 for i in range(len(src_logical))])
        if keepdim and any(squeeze):
            out = self.broadcast_flags(out, squeeze)
        if out is v:
            return ir.set(v)
        return out

    def reduction_record(self, record, op):
        v = self.val(record.args[0])
        dims = record.kwargs.get("dims")
        if dims is None:
            dims = list(range(len(v.logical())))
        if isinstance(dims, (int, State)):
            dims = [dims]
        if any(isinstance(d, State) for d in dims):
            raise Unsupported("symbolic dims")
        dtype = record.kwargs.get("dtype", DataType.Null)
        dtype = None if dtype is None or dtype is DataType.Null else dtype.name
        if op in ("max", "min"):
            dtype = None
        return self.reduction(op, v, dims, record.kwargs.get("keepdim", False), dtype)

    def r_op_sum(self, record):
        return self.reduction_record(record, "sum")

    def r_op_prod(self, record):
        return self.reduction_record(record, "prod")

    def r_op_max(self, record):
        return self.reduction_record(record, "max")

    def r_op_min(self, record):
        return self.reduction_record(record, "min")

    def num_features(self, x, dims):
        ir = self.ir
        n = len(x.logical())
        features = ir.const(1.0)
        for d in dims:
            features = ir.binary("mul", features, x.dims[d % n].extent, {})
        return features

    def variance(self, x, dims, correction, keepdim):
        ir = self.ir
        n = len(x.logical())
        summed = self.reduction("sum", x, dims, True, None)
        mean = ir.binary("div", summed, self.num_features(x, dims), {})
        diff = ir.binary("sub", x, mean, {})
        sq = ir.binary("mul", diff, diff, {})
        total = self.reduction("sum", sq, dims, keepdim, None)
        denom = self.denominator(x, dims, correction)
        del n
        return ir.binary("mul", total, ir.unary("reciprocal", denom, _FLOAT_CONFIG), {})

    def denominator(self, x, dims, correction):
        ir = self.ir
        features = self.num_features(x, dims)
        correction_val, zero = ir.const(int(correction)), ir.const(0)
        denom = ir.binary("sub", features, correction_val, {})
        return ir.where(ir.binary("ge", denom, zero, {}, "Bool"), denom, zero)

    def r_op_var(self, record):
        v = self.val(record.args[0])
        dims = record.kwargs.get("dims")
        return self.variance(v, dims, record.kwargs.get("correction", 1),
                             record.kwargs.get("keepdim", False))

    def welford(self, x, dims):
        ir = self.ir
        n = len(x.logical())
        axes = sorted({d % n for d in dims})
        outs = []
        for dtype in (x.dtype, x.dtype, "Index"):
            outs.append(ir.tv(dtype, [Dim(d.extent, "r" if i in axes else d.kind, d.expanded)
                                      for i, d in enumerate(x.logical())],
                              cost=3 + ir.the_one() if not outs else 0))
        Expr("welford", [x], outs, {"axes": axes})
        return outs

    def r_op_welford(self, record):
        v = self.val(record.args[0])
        return self.welford(v, record.kwargs.get("dims"))

    def r_op_var_mean(self, record):
        ir = self.ir
        x = self.val(record.args[0])
        dims = record.kwargs.get("dims")
        keepdim = record.kwargs.get("keepdim", False)
        correction = record.kwargs.get("correction", 1)
        if _is_complex(x.dtype) or not x.logical():
            raise Unsupported("var_mean of complex or rank 0")
        denom = self.denominator(x, dims, correction)
        avg, var_sum, _ = self.welford(x, dims)
        var = ir.binary("mul", var_sum, ir.unary("reciprocal", denom, _FLOAT_CONFIG), {})
        mean = avg
        if keepdim:
            n = len(x.logical())
            flags = [i in {d % n for d in dims} for i in range(n)]
            var = self.broadcast_flags(var, flags)
            mean = self.broadcast_flags(mean, flags)
        return [var, mean]

    # Shapes -------------------------------------------------------------------

    def broadcast_flags(self, v, flags):
        if not any(flags):
            return v
        return self.ir.broadcast(v, flags)

    def squeeze_flags(self, v, flags, squeeze_expanded=False):
        ir = self.ir
        dims = [Dim(d.extent, d.kind, d.expanded) for d, f in zip(v.logical(), flags) if not f]
        out = ir.tv(v.dtype, dims, cost=2)
        Expr("squeeze", [v], [out], {"flags": list(flags),
                                     "expanded": squeeze_expanded})
        return out

    def r_op_broadcast(self, record):
        v = self.val(record.args[0])
        flags = self.arg(record, 1, "is_broadcast_dim")
        return self.broadcast_flags(v, [bool(f) for f in flags])

    def r_op_squeeze(self, record):
        v = self.val(record.args[0])
        dims = record.kwargs["dims"]
        n = len(v.logical())
        dims = {d % n for d in dims}
        return self.squeeze_flags(v, [i in dims for i in range(n)],
                                  record.kwargs.get("squeeze_expanded", False))

    def shape_vals(self, shape):
        return [self.extent(e) for e in shape]

    def expand_to(self, v, extents, cost=2):
        ir = self.ir
        dims = []
        for d, e in zip(v.logical(), extents):
            if d.kind == "b" and not (e.is_const and e.value == 1) and \
                    not (e.is_const and e.value == -1):
                dims.append(Dim(d.extent, "b", e))
            elif d.kind != "b" and not e.is_const:
                dims.append(Dim(e, d.kind, d.expanded))
            else:
                dims.append(Dim(d.extent, d.kind, d.expanded))
        out = ir.tv(v.dtype, dims, cost=cost)
        Expr("expand", [v], [out])
        return out

    def r_op_expand(self, record):
        ir = self.ir
        v = self.val(record.args[0])
        shape = record.kwargs["shape"]
        constant = all(isinstance(e, int) and not isinstance(e, bool) for e in shape)
        # A shape of Python ints: measured on 0.2.36, 2 values and 2 per
        # expanded dim, or a set's 1 and 2 per iteration dim where nothing
        # expands; the ints themselves none.
        extents = [ir.scalar("Int", e, is_const=True, cost=0) for e in shape] if constant \
            else self.shape_vals(shape)
        if len(extents) != len(v.logical()):
            raise Unsupported("expand rank")
        expanded = sum(1 for d, e in zip(v.logical(), extents)
                       if d.kind == "b" and not (e.is_const and e.value in (1, -1)))
        if not expanded:
            if not constant:
                return ir.set(v)
            out = ir.tv(v.dtype, [Dim(d.extent, d.kind if d.kind != "r" else "i", d.expanded)
                                  for d in v.logical()])
            Expr("set", [v], [out])
            return out
        return self.expand_to(v, extents, cost=2 + 2 * expanded if constant else 2)

    def r_op_broadcast_in_dim(self, record):
        ir = self.ir
        v = self.val(record.args[0])
        shape = record.kwargs["shape"]
        bdims = record.kwargs["broadcast_dims"]
        extents = self.shape_vals(shape)
        n = len(shape)
        flags = [True] * n
        for d in bdims:
            flags[d % n] = False
        out = v
        if any(flags):
            out = self.broadcast_flags(v, flags)
        # expand where the shape is not the operand's
        logical = out.logical()
        need = False
        final = []
        for d, e, s in zip(logical, extents, shape):
            if isinstance(s, int) and s == -1:
                final.append(d.maybe_expanded)
                continue
            final.append(e)
            if d.kind == "b" and not (e.is_const and e.value == 1):
                need = True
        if need:
            # ExpandOp gives the other dims the extents asked for.
            out2 = ir.tv(out.dtype, [Dim(d.extent, "b", e) if d.kind == "b" and not (
                e.is_const and e.value == 1) else Dim(e if not e.is_const else d.extent,
                                                      d.kind, d.expanded)
                for d, e in zip(logical, final)], cost=2)
            Expr("expand", [out], [out2])
            out = out2
        elif out is v:
            out = ir.set(v)
        return out

    def r_op_reshape(self, record):
        ir = self.ir
        v = self.val(record.args[0])
        shape = list(record.kwargs["new_shape"])
        old_shape = [d.extent.value if d.extent.is_const else None for d in v.logical()]
        if all(isinstance(e, int) for e in shape) and None not in old_shape:
            numel = 1
            for e in old_shape:
                numel *= e
            if -1 in shape:
                rest = 1
                for e in shape:
                    rest *= e if e != -1 else 1
                shape[shape.index(-1)] = numel // rest if rest else 0
            if [e for e in old_shape if e != 1] == [e for e in shape if e != 1]:
                # Only size-1 dims come and go: a squeeze and a broadcast.
                out = v
                if 1 in old_shape:
                    out = self.squeeze_flags(v, [e == 1 for e in old_shape])
                if 1 in shape:
                    out = self.broadcast_flags(out, [e == 1 for e in shape])
                return ir.set(v) if out is v else out
        elif any(isinstance(e, int) and e == -1 for e in shape):
            raise Unsupported("reshape with -1 of a symbolic tensor")
        # A Scalar extent of another dtype is cast to Index (measured on
        # nvFuser 0.2.36: an Int input's and a Double expression's alike).
        extents = [e if e.is_const or e.dtype == "Index" else ir.cast("Index", e)
                   for e in self.shape_vals(shape)]
        dims = [Dim(e, "b" if e.is_const and e.value == 1 else "i") for e in extents]
        out = ir.tv(v.dtype, dims)
        Expr("reshape", [v], [out])
        return out

    def r_op_permute(self, record):
        v = self.val(record.args[0])
        logical = v.logical()
        dims = [d % len(logical) for d in record.kwargs["dims"]]
        out = self.ir.tv(v.dtype, [Dim(logical[d].extent, logical[d].kind, logical[d].expanded)
                                   for d in dims], cost=2)
        Expr("permute", [v], [out], {"dims": list(dims)})
        return out

    def r_op_stride_order(self, record):
        v = self.val(record.args[0])
        order = self.arg(record, 1, "stride_order")
        out = self.ir.tv(v.dtype, [Dim(d.extent, d.kind, d.expanded) for d in v.logical()],
                         cost=2)
        Expr("stride_order", [v], [out], {"order": list(order)})
        return out

    def r_op_slice(self, record):
        ir = self.ir
        v = self.val(record.args[0])
        logical = v.logical()
        starts = record.kwargs["start_indices"]
        ends = record.kwargs["end_indices"]
        steps = record.kwargs.get("strides") or [1] * len(starts)
        if len(starts) != len(logical):
            raise Unsupported("slice rank")
        starts = [self.extent(x) for x in starts]
        ends = [self.extent(x) for x in ends]
        steps = [self.extent(x) for x in steps]
        out_starts, out_ends, dims = [], [], []
        for d, start, stop, step in zip(logical, starts, ends, steps):
            extent = d.extent
            ext = extent.value if extent.is_const else None
            if not start.is_const or not stop.is_const or not step.is_const:
                raise Unsupported("slice by scalars")
            a, b = start.value, stop.value
            if a != 0:
                if a < 0:
                    if ext is None:
                        raise Unsupported("negative start of a symbolic extent")
                    a += ext
                a = max(0, a)
                start = ir.const(a)
            if a == 0 and b >= 0:
                if ext is not None:
                    stop = ir.const(min(ext, b))
                elif b == 0:
                    pass
                else:
                    stop = ir.binary("minimum", extent, stop, {})
            else:
                if b < 0:
                    if ext is None:
                        raise Unsupported("negative stop of a symbolic extent")
                    b += ext
                if ext is not None:
                    stop = ir.const(max(a, min(ext, b)))
                else:
                    low = ir.binary("minimum", extent, ir.const(b), {})
                    stop = ir.binary("maximum", start, low, {})
            out_starts.append(start)
            out_ends.append(stop)
            if start.is_const and stop.is_const and step.is_const:
                n = max(0, -(-(stop.value - start.value) // step.value))
                # IterDomain::resize: a constant extent of 1 makes a
                # broadcast dim (of the fusion's cached one).
                broadcast = n == 1 and not (ext == 1 and a == 0)
                dims.append(Dim(ir.const(n), "b" if n == 1 else "i"))
                if broadcast:
                    ir.charge(ir.the_one())
            else:
                dims.append(Dim(Val("scalar", -1, "Index"), "i"))
        out = ir.tv(v.dtype, dims, cost=2)
        Expr("slice", [v] + out_starts + out_ends + steps, [out],
             {"starts": out_starts, "ends": out_ends, "steps": steps})
        return out

    def r_op_pad(self, record):
        ir = self.ir
        v = self.val(record.args[0])
        widths = list(record.kwargs["pad_widths"])
        logical = v.logical()
        if len(widths) % 2 or len(widths) > 2 * len(logical):
            raise Unsupported("pad widths")
        width_vals = [self.extent(w) for w in widths]
        value = record.kwargs.get("value")
        if value is None:
            value = ir.scalar(v.dtype, False if v.dtype == "Bool" else 0 if _is_int(v.dtype)
                              else 0.0, is_const=True)
        else:
            value = self.val(value)
        while len(width_vals) < 2 * len(logical):
            width_vals.append(ir.const(0))
            ir.n_scalar -= 1
        dims = []
        n = len(logical)
        for i, d in enumerate(logical):
            lo, hi = width_vals[2 * (n - 1 - i)], width_vals[2 * (n - 1 - i) + 1]
            if None not in (d.extent.known, lo.known, hi.known):
                dims.append(Dim(ir.const(d.extent.known + lo.known + hi.known), "i"))
                ir.n_scalar -= 1
            else:
                dims.append(Dim(Val("scalar", -1, "Index"), "i"))
        out = ir.tv(v.dtype, dims, cost=2)
        Expr("pad", [v] + width_vals + [value], [out], {"widths": width_vals, "value": value})
        return out

    def r_op_cat(self, record):
        """cat as nvFuser builds it: each input padded to the total extent
        along dim (its offset as a sum of the extents before it), then a
        CatOp of the padded inputs. Static extents along dim only."""
        ir = self.ir
        tensors = [self.val(t) for t in self.arg(record, 0, "tensors")]
        rank = len(tensors[0].logical())
        dim = record.kwargs.get("dim", 0) % rank
        extents = [t.logical()[dim].extent for t in tensors]
        if not all(e.known is not None for e in extents):
            raise Unsupported("cat of symbolic extents")
        total = sum(e.known for e in extents)
        lefts, left = [], ir.const(0)
        for i in range(len(tensors)):
            if i:
                left = ir.binary("add", left, extents[i - 1], {})
            lefts.append(left)
        padded, offset = [], 0
        for t, extent, left in zip(tensors, extents, lefts):
            right = ir.const(total - offset - extent.known)
            offset += extent.known
            widths = []
            for d in range(rank - 1, -1, -1):
                widths += [left, right] if d == dim else [ir.const(0), ir.const(0)]
            value = ir.scalar(t.dtype, False if t.dtype == "Bool" else 0 if _is_int(t.dtype)
                              else 0.0, is_const=True)
            dims = [Dim(ir.const(total), "i") if i == dim else Dim(d.extent, d.kind, d.expanded)
                    for i, d in enumerate(t.logical())]
            out = ir.tv(t.dtype, dims, cost=2)
            Expr("pad", [t] + widths + [value], [out], {"widths": widths, "value": value})
            padded.append(out)
        out = ir.tv(padded[0].dtype, [Dim(d.extent, d.kind, d.expanded)
                                      for d in padded[0].logical()], cost=2)
        Expr("cat", padded, [out], {"dim": dim})
        return out

    def r_op_size(self, record):
        v = self.val(record.args[0])
        dim = record.kwargs["dim"]
        return v.logical()[dim].maybe_expanded

    def r_op_full(self, record):
        ir = self.ir
        extents = self.shape_vals(record.kwargs["shape"])
        fill = self.val(record.kwargs["fill_value"])
        dtype = record.kwargs["dtype"].name
        fill = ir.maybe_cast(dtype, fill)
        out = ir.tv(dtype, [Dim(e, "b" if e.is_const and e.value == 1 else "i")
                            for e in extents])
        Expr("full", [fill], [out], {"shape": extents})
        return out

    # Generation, random numbers, indexing (csrc/ops/arith.cpp, indexing.cpp,
    # composite.cpp) -------------------------------------------------------

    def factory(self, dtype, extents):
        """factoryOutput: a dim per extent, a constant 1 a broadcast; an
        extent not of Index type is cast to it (one more value)."""
        return self.ir.tv(dtype, [Dim(e, "b" if e.is_const and e.value == 1 else "i")
                                  for e in extents],
                          cost=1 + sum(1 if e.dtype == "Index" else 2 for e in extents))

    def rng(self, record, kind, params, extents, dtype):
        seed, offset = record.kwargs.get("rng_seed"), record.kwargs.get("rng_offset")
        seed = None if seed is None else self.val(seed, "Int")
        offset = None if offset is None else self.val(offset, "Int")
        # uniform(0, 1) and normal(0, 1) of constants are nvFuser's
        # parameterless forms (valEqualsInt).
        if params is not None and all(p.known is not None and not isinstance(p.known, bool)
                                      for p in params) and \
                [params[0].known, params[1].known] == [0, 1]:
            params = None
        out = self.factory(dtype, extents) if extents is not None else None
        return out, seed, offset, params

    def random_expr(self, kind, out, params, seed, offset, extents):
        inputs = list(extents) + list(params or []) + [v for v in (seed, offset) if v]
        Expr("rng", inputs, [out], {"kind": kind, "params": params, "seed": seed,
                                    "offset": offset, "extents": extents})
        return out

    def random_op(self, record, kind):
        first, second, shape = record.args[:3]
        dtype = record.kwargs.get("dtype", DataType.Float).name
        # The binding makes Index values of the shape's ints; factoryOutput
        # casts a Scalar of another dtype to Index, after the parameters.
        extents = [self.ir.scalar("Index", e, is_const=True) if isinstance(e, int)
                   else self.val(e) for e in shape]
        params = [self.val(first), self.val(second)]
        extents = [e if e.dtype == "Index" else self.ir.cast("Index", e) for e in extents]
        out, seed, offset, params = self.rng(record, kind, params, extents, dtype)
        return self.random_expr(kind, out, params, seed, offset, extents)

    def r_op_uniform(self, record):
        return self.random_op(record, "uniform")

    def r_op_normal(self, record):
        return self.random_op(record, "normal")

    def random_like(self, record, kind):
        v = self.val(record.args[0])
        if not v.is_tv or not _is_float(v.dtype):
            raise Unsupported("%s of %s" % (record.call, v.dtype))
        _, seed, offset, _ = self.rng(record, kind, None, None, v.dtype)
        out = self.ir.tv(v.dtype, [Dim(d.extent, d.kind, d.expanded) for d in v.logical()])
        return self.random_expr(kind, out, None, seed, offset,
                                [d.maybe_expanded for d in v.logical()])

    def r_op_rand_like(self, record):
        return self.random_like(record, "uniform")

    def r_op_randn_like(self, record):
        return self.random_like(record, "normal")

    def iota(self, length, start, step, dtype):
        ir = self.ir
        start = ir.maybe_cast(dtype, start)
        step = ir.maybe_cast(dtype, step)
        out = self.factory(dtype, [length])
        Expr("iota", [length, start, step], [out], {"dtype": dtype})
        return out

    def r_op_iota(self, record):
        ir = self.ir
        dtype = self.arg(record, 3, "dtype", DataType.Int).name
        length = self.extent(record.args[0])
        # Measured on nvFuser 0.2.36: 2 of the binding's before start and
        # step (None and Python numbers: one constant of the dtype each), 1
        # of the result, 1 more casting a Scalar length not of Index type
        # to Index (fd.ops.size gives Index); 6 with a constant length.
        ir.charge(2)
        values = []
        for index, name, default in ((1, "start", 0), (2, "step", 1)):
            value = self.arg(record, index, name)
            values.append(ir.maybe_cast(dtype, self.val(value)) if isinstance(value, State)
                          else ir.scalar(dtype, _convert(default if value is None else value,
                                                         dtype), is_const=True))
        out = ir.tv(dtype, [Dim(length, "i")],
                    cost=1 if length.is_const or length.dtype == "Index" else 2)
        Expr("iota", [length] + values, [out], {"dtype": dtype})
        return out

    def r_op_triu(self, record):
        ir = self.ir
        v = self.val(record.args[0])
        diagonal = self.arg(record, 1, "diagonal", 0)
        logical = v.logical()
        rows, cols = logical[-2].maybe_expanded, logical[-1].maybe_expanded
        # The fusion's zero and one of Index type (no new values), the
        # negated diagonal and one per static extent of the two dims
        # (measured on nvFuser 0.2.36, as the rest of this op's counts: its
        # two broadcasts 2 values each).
        ir.charge(1 + sum(1 for d in logical[-2:] if d.kind == "i" and d.extent.is_const))
        row = self.iota(rows, ir.scalar("Index", 0, is_const=True, cost=0),
                        ir.scalar("Index", 1, is_const=True, cost=0), "Index")
        col = self.iota(cols, ir.scalar("Index", -diagonal, is_const=True, cost=0),
                        ir.scalar("Index", 1, is_const=True, cost=0), "Index")
        mask = ir.binary("le", ir.broadcast(row, [False, True], cost=2),
                         ir.broadcast(col, [True, False], cost=2), {}, "Bool")
        if len(logical) > 2:
            mask = ir.broadcast(mask, [True] * (len(logical) - 2) + [False, False], cost=0)
        zero = ir.scalar(v.dtype, False if v.dtype == "Bool" else 0 if _is_int(v.dtype)
                         else 0.0, is_const=True)
        out = ir.where(mask, v, zero)
        ir.charge(len(logical) > 2)
        return out

    def indexed(self, op, v, index, dim, dims, cost):
        out = self.ir.tv(v.dtype, dims, cost=cost)
        Expr(op, [v, index], [out], {"dim": dim})
        return out

    def r_op_gather(self, record):
        v, index = self.val(record.args[0]), self.val(record.args[1])
        dim = record.args[2] % len(v.logical())
        return self.indexed("gather", v, index, dim,
                            [Dim(d.extent, "i") for d in index.logical()], cost=2)

    def r_op_scatter(self, record):
        if "reduce" in record.kwargs:
            raise Unsupported("scatter with reduce")
        v, index = self.val(record.args[0]), self.val(record.args[1])
        src = self.val(record.args[2])
        dims = [Dim(d.extent, "i") for d in v.logical()]
        # The values nvFuser 0.2.36 creates for a scatter (measured): its
        # index arithmetic grows with a second dim, less where the extents
        # are static.
        if len(dims) <= 1:
            cost = 3
        else:
            cost = 40 if all(d.extent.is_const for d in dims) else 42
        out = self.ir.tv(v.dtype, dims, cost=cost)
        Expr("scatter", [v, index, src], [out],
             {"dim": record.kwargs["dim"] % max(len(dims), 1)})
        return out

    def scan_record(self, record, op):
        # Two values more than an elementwise op's output (measured on
        # nvFuser 0.2.36): the scan's init and its output's copy of dims.
        v = self.val(record.args[0])
        dim = record.args[1] if len(record.args) > 1 else record.kwargs["dim"]
        if isinstance(dim, State):
            raise Unsupported("symbolic dim")
        dims = [Dim(d.extent, d.kind, d.expanded) for d in v.logical()]
        out = self.ir.tv(v.dtype, dims,
                         cost=3 + 2 * sum(1 for d in dims if d.kind == "i"))
        Expr(op, [v], [out], {"dim": dim % len(dims)})
        return out

    def r_op_cumsum(self, record):
        return self.scan_record(record, "cumsum")

    def r_op_cumprod(self, record):
        return self.scan_record(record, "cumprod")

    def r_op_cummax(self, record):
        return self.scan_record(record, "cummax")

    def r_op_cummin(self, record):
        return self.scan_record(record, "cummin")

    def r_op_argsort(self, record):
        # As many values as a scan (measured on nvFuser 0.2.36).
        v = self.val(record.args[0])
        dim = record.kwargs.get("dim", record.args[1] if len(record.args) > 1 else -1)
        dims = [Dim(d.extent, d.kind, d.expanded) for d in v.logical()]
        if not dims:
            # nvFuser's argsort of a 0-D tensor is the index 0.
            out = self.ir.tv("Int", [])
            Expr("full", [self.ir.const(0)], [out], {"shape": []})
            return out
        out = self.ir.tv("Int", dims, cost=3 + 2 * sum(1 for d in dims if d.kind == "i"))
        Expr("argsort", [v], [out], {"dim": dim % max(len(dims), 1),
                                     "descending": record.kwargs.get("descending", False),
                                     "stable": record.kwargs.get("stable", False)})
        return out

    def r_op_take_along_axis(self, record):
        v, index = self.val(record.args[0]), self.val(record.args[1])
        dim = record.args[2] % len(v.logical())
        return self.indexed("take_along_axis", v, index, dim, [
            Dim((i if k == dim else d).extent, "i")
            for k, (d, i) in enumerate(zip(v.logical(), index.logical()))], cost=2)

    def r_op_index_select(self, record):
        v, index = self.val(record.args[0]), self.val(record.args[1])
        n = len(v.logical())
        dim = record.args[2] % n
        if not index.logical():
            # A 0-D index: nvFuser's select, broadcast back at dim.
            return self.broadcast_flags(self.select(v, index, dim),
                                        [k == dim for k in range(n)])
        if len(index.logical()) == 1:
            index = self.broadcast_flags(index, [k != dim for k in range(n)])
        elif len(index.logical()) != n:
            raise Unsupported("index_select index rank")
        extent = index.logical()[dim].extent
        return self.indexed("index_select", v, index, dim, [
            Dim(extent if k == dim else d.extent, "i") for k, d in enumerate(v.logical())],
            cost=1)

    def r_op_select(self, record):
        v, index = self.val(record.args[0]), self.val(record.args[1], "Int")
        return self.select(v, index, record.args[2] % len(v.logical()))

    def select(self, v, index, dim):
        out = self.ir.tv(v.dtype, [Dim(d.extent, d.kind, d.expanded)
                                   for k, d in enumerate(v.logical()) if k != dim], cost=1)
        Expr("select", [v, index], [out], {"dim": dim})
        return out

    def r_op_embedding_fwd(self, record):
        ir = self.ir
        indices, weight = self.val(record.args[0]), self.val(record.args[1])
        kw = record.kwargs
        if kw.get("max_norm") is not None:
            raise Unsupported("embedding_fwd max_norm")
        # nvFuser's binding gives norm_type 2.0, scale_grad_by_freq and
        # sparse false where they are None.
        options = []
        if kw.get("padding_idx") is not None:
            options.append(("padding_idx", self.val(kw["padding_idx"])))
        options.append(("norm_type", self.val(2.0 if kw.get("norm_type") is None
                                              else kw["norm_type"])))
        options.append(("scale_grad_by_freq", self.val(bool(kw.get("scale_grad_by_freq")))))
        options.append(("sparse", self.val(bool(kw.get("sparse")))))
        out = ir.tv(weight.dtype, [Dim(d.extent, "i") for d in indices.logical()] +
                    [Dim(weight.logical()[-1].extent, "i")])
        Expr("embedding_fwd", [indices, weight] + [v for _, v in options], [out],
             {"options": options})
        return out

    def r_op_topk(self, record):
        ir = self.ir
        v, k = self.val(record.args[0]), self.val(record.args[1], "Int")
        logical = v.logical()
        if not logical:
            raise Unsupported("topk of rank 0")
        dim = record.kwargs["dim"] % len(logical)
        dims = [Dim(k, "i") if i == dim else Dim(d.extent, d.kind, d.expanded)
                for i, d in enumerate(logical)]
        # The values nvFuser 0.2.36 creates for a topk (measured): 11, and 3
        # more per symbolic extent of the operand.
        values = ir.tv(v.dtype, dims, cost=11 + 3 * sum(not d.extent.is_const
                                                        for d in logical))
        indices = ir.tv("Int", [Dim(d.extent, d.kind, d.expanded) for d in dims], cost=0)
        Expr("topk", [v, k], [values, indices],
             {"dim": dim, "largest": record.kwargs["largest"],
              "sorted": record.kwargs["sorted"]})
        return [values, indices]

    def library(self, op, operands, dims):
        # 2 values and 2 per dim of the result (measured on nvFuser 0.2.36).
        out = self.ir.tv(operands[0].dtype, [Dim(d.extent, d.kind, d.expanded) for d in dims],
                         cost=2 + 2 * len(dims))
        Expr(op, operands, [out])
        return out

    def r_op_matmul(self, record):
        a, b = [self.val(x) for x in record.args[:2]]
        lhs, rhs = a.logical(), b.logical()
        if len(lhs) == 1 or len(rhs) == 1:
            dims = lhs[:-1] if len(rhs) == 1 else rhs[:-2] + rhs[-1:]
        else:
            lhs_batch, rhs_batch = lhs[:-2], rhs[:-2]
            rank = max(len(lhs_batch), len(rhs_batch))
            lhs_batch = [None] * (rank - len(lhs_batch)) + lhs_batch
            rhs_batch = [None] * (rank - len(rhs_batch)) + rhs_batch
            dims = [x if y is None or (x is not None and x.kind != "b") else y
                    for x, y in zip(lhs_batch, rhs_batch)] + [lhs[-2], rhs[-1]]
        return self.library("matmul", [a, b], dims)

    def r_op_linear(self, record):
        operands = [self.val(x) for x in record.args]
        a, b = operands[:2]
        return self.library("linear", operands,
                            a.logical()[:-1] + b.logical()[:-1])

    def r_op_grouped_mm(self, record):
        # nvFuser's createGroupedMmaOutput: [G, M, N] for two 2-D operands,
        # else [M, N].
        operands = [self.val(x) for x in record.args[:3]]
        a, b, offsets = [x.logical() for x in operands]
        if len(b) == 3:
            dims = [a[0], b[2]]
        elif len(a) == 3:
            dims = [a[1], b[1]]
        else:
            dims = [offsets[0], a[0], b[1]]
        return self.library("grouped_mm", operands, dims)

    def attention_option(self, value, is_causal=False):
        """dropout_p, is_causal or scale as nvFuser's sdpfa_fwd/sdpfa_bwd
        take them: a number as a constant of the option's dtype
        (convertToVal: Double, is_causal Bool), a Scalar's Val, or None."""
        if value is None:
            return None
        if isinstance(value, State):
            return self.val(value)
        return self.ir.const(bool(value) if is_causal else float(value))

    def attention_options(self, kw, op_cost):
        """The options after the op's results, as nvFuser's sdpfa_fwd and
        sdpfa_bwd make them: the defaults (dropout_p 0, not causal), then
        maybeCastExpr(Double, ...) of scale, then of dropout_p (the op's
        arguments, which GCC evaluates right to left): a cast of an Int or
        Float Scalar, two values, or one value for a constant; then
        `op_cost` values for the op (measured on nvFuser 0.2.36: 3 for the
        forward, none for the backward)."""
        ir = self.ir
        dropout_p, is_causal, scale = kw["dropout_p"], kw["is_causal"], kw["scale"]
        if dropout_p is None:
            dropout_p = ir.const(0.0)
        if is_causal is None:
            is_causal = ir.const(False)

        def maybe_cast(value):
            if value.is_const:
                ir.charge(1)
                return value
            return ir.maybe_cast("Double", value)
        scale = None if scale is None else maybe_cast(scale)
        dropout_p = maybe_cast(dropout_p)
        ir.charge(op_cost)
        return dropout_p, is_causal, scale

    def r_op_sdpfa_fwd(self, record):
        ir = self.ir
        q, k, v = [self.val(x) for x in record.args[:3]]
        kw = {name: self.attention_option(record.kwargs.get(name), name == "is_causal")
              for name in ("dropout_p", "is_causal", "scale")}
        rows = [Dim(d.extent, d.kind, d.expanded) for d in q.logical()[:-1]]
        # 16 values for the four results (measured on nvFuser 0.2.36); the
        # Philox state is UInt64.
        output = ir.tv(q.dtype, rows + [Dim(v.logical()[-1].extent, "i")], cost=16)
        logsumexp = ir.tv("Float", [Dim(d.extent, d.kind, d.expanded) for d in rows], cost=0)
        seed = ir.tv("UInt64", [Dim(Val("scalar", -1, "Index", 2, True), "i")], cost=0)
        offset = ir.tv("UInt64", [], cost=0)
        dropout_p, is_causal, scale = self.attention_options(kw, 3)
        options = [(name, self.val(record.kwargs[name])) for name in ("bias", "mask")
                   if record.kwargs.get(name) is not None] + \
            [("dropout_p", dropout_p), ("is_causal", is_causal)] + \
            ([] if scale is None else [("scale", scale)])
        Expr("sdpfa_fwd", [q, k, v] + [value for _, value in options],
             [output, logsumexp, seed, offset], {"options": options})
        return [output, logsumexp, seed, offset]

    def r_op_sdpfa_bwd(self, record):
        ir = self.ir
        tensors = [self.val(x) for x in record.args[:6]]
        kw = {name: self.attention_option(record.kwargs.get(name), name == "is_causal")
              for name in ("dropout_p", "is_causal", "scale")}
        # One value less per gradient than a new TensorView of its dims
        # (measured on nvFuser 0.2.36 with 4-D operands).
        grads = [ir.tv(t.dtype, [Dim(d.extent, d.kind, d.expanded) for d in t.logical()],
                       cost=2 * sum(1 for d in t.logical() if d.kind == "i"))
                 for t in tensors[1:4]]
        dropout_p, is_causal, scale = self.attention_options(kw, 0)
        options = [("dropout_p", dropout_p), ("is_causal", is_causal),
                   ("philox_seed", self.val(record.kwargs["philox_seed"])),
                   ("philox_offset", self.val(record.kwargs["philox_offset"])),
                   ("scale", scale)]
        Expr("sdpfa_bwd", tensors + [v for _, v in options if v is not None], grads,
             {"options": options})
        return grads


def _convert(value, dtype):
    if dtype == "Bool":
        return bool(value)
    if _is_int(dtype):
        return int(value.real if isinstance(value, complex) else value)
    if _is_complex(dtype):
        return complex(value)
    return float(value.real if isinstance(value, complex) else value)


def _contiguity_from_strides(shape, strides):
    contiguity = []
    expected = 1
    for extent, stride in reversed(list(zip(shape, strides))):
        if extent == 1:
            contiguity.append(None)
            continue
        contiguity.append(stride == expected)
        expected = stride * extent
    return list(reversed(contiguity))


# ---------------------------------------------------------------------------
# The printer (python_translate.cpp)


def _format_float(d):
    if math.isinf(d):
        return 'float("-inf")' if d < 0 else 'float("inf")'
    if math.isnan(d):
        return 'float("nan")'
    return "%#.6g" % d


def _format_constant(value, dtype):
    if dtype == "Bool":
        return "True" if value else "False"
    if _is_int(dtype):
        return str(int(value))
    if dtype in _COMPLEX:
        value = complex(value)
        return "%s+%sj" % (_format_float(value.real), _format_float(value.imag))
    return _format_float(float(value))


def _format_py(value):
    """A Python value of a keyword (list of ints, bools, None)."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_format_py(v) for v in value) + "]"
    return str(value)


# Ops printed as op(input, keyword=list): keyword, the attribute it prints.
_ONE_KEYWORD = {"welford": ("dims", "axes"), "broadcast": ("is_broadcast_dim", "flags"),
                "permute": ("dims", "dims"), "stride_order": ("stride_order", "order")}


class Printer:
    def __init__(self, ir):
        self.ir = ir
        self.lines = ["def nvfuser_fusion(fd : FusionDefinition) -> None :"]
        self.visited = []        # visited vals, in order
        self.visited_set = set()

    def name(self, v, lvalue=False):
        if v is None:
            return "None"
        if v.is_tv:
            return "tv%d" % v.name
        if not lvalue and v.python_scalar():
            return _format_constant(v.value, v.dtype)
        return "c%d" % v.name

    def visit(self, v):
        if id(v) not in self.visited_set:
            self.visited_set.add(id(v))
            self.visited.append(v)

    def is_visited(self, v):
        return id(v) in self.visited_set

    def emit(self, text):
        self.lines.append("    " + text)

    # Values ----------------------------------------------------------------

    def handle_val(self, v):
        if v.is_tv:
            return self.handle_tv(v)
        if v.definition is not None or self.is_visited(v) or v.python_scalar():
            return
        self.visit(v)
        for tv in reversed(self.visited):
            if not tv.is_tv:
                continue
            extents = [d.maybe_expanded for d in tv.logical()]
            for dim, e in enumerate(extents):
                if e is v:
                    self.emit("c%d = fd.ops.size(tv%d, dim=%d)" % (v.name, tv.name, dim))
                    return
        value = "None" if not v.is_const else _format_constant(v.value, v.dtype) \
            if v.dtype in _PYTHON_SCALAR or v.dtype in _FLOATS or _is_int(v.dtype) \
            else _format_constant(v.value, v.dtype)
        if v.is_const and v.dtype in _FLOATS:
            value = _format_float(float(v.value))
        elif v.is_const and v.dtype == "ComplexFloat":
            value = _format_constant(v.value, "ComplexDouble")
        self.emit("c%d = fd.define_scalar(%s, dtype=DataType.%s)" % (v.name, value, v.dtype))

    def handle_tv(self, tv):
        if self.is_visited(tv):
            return
        self.visit(tv)
        shape = [d.maybe_expanded.value if d.maybe_expanded.is_const else -1
                 for d in tv.dims]
        text = ("tv%d = fd.define_tensor(shape=%s, contiguity=%s, dtype=DataType.%s, "
                "is_cpu=%s" % (tv.name, _format_py(shape), _format_py(tv.contiguity),
                               tv.dtype, tv.is_cpu))
        if tv.stride_order:
            text += ", stride_order=%s" % _format_py(tv.stride_order)
        self.emit(text + ")")

    # Expressions -------------------------------------------------------------

    def exprs(self):
        """Fusion::exprs(): a depth-first walk from the outputs, inputs
        in order, each expression after those it depends on."""
        order, seen = [], set()

        def visit_val(v):
            e = v.definition
            if e is None or id(e) in seen:
                return
            seen.add(id(e))
            stack = [(e, iter(e.inputs))]
            while stack:
                expr, it = stack[-1]
                advanced = False
                for inp in it:
                    d = inp.definition
                    if d is not None and id(d) not in seen:
                        seen.add(id(d))
                        stack.append((d, iter(d.inputs)))
                        advanced = True
                        break
                if not advanced:
                    stack.pop()
                    order.append(expr)

        for out, _, _ in self.ir.outputs:
            visit_val(out)
        return order

    def extent_exprs(self, tv):
        chain = []
        for d in tv.logical():
            v = d.maybe_expanded
            if v.definition is None:
                continue
            seen = set()
            todo = [v.definition]
            while todo:
                e = todo.pop()
                chain.append(e)
                seen.add(id(e))
                for inp in e.inputs:
                    if inp.definition is not None and id(inp.definition) not in seen:
                        todo.append(inp.definition)
        return chain

    def ready(self, e):
        if e.op in ("reshape", "expand", "full"):
            for d in e.outputs[0].logical():
                v = d.maybe_expanded
                if v.definition is not None and not self.is_visited(v):
                    return False
        return all(v.python_scalar() or self.is_visited(v) for v in e.inputs)

    def translate(self):
        for v in self.ir.inputs:
            self.handle_val(v)
        todo = list(self.exprs())
        for e in list(todo):
            if e.op in ("reshape", "expand", "full"):
                todo.extend(self.extent_exprs(e.outputs[0]))
        done = set()
        skips = 0
        while todo:
            e = todo.pop(0)
            if skips > len(todo) + 1:
                raise Unsupported("cycle")
            if id(e) in done:
                continue
            for v in e.inputs:
                if not v.is_tv:
                    self.handle_val(v)
            if not self.ready(e):
                skips += 1
                todo.append(e)
                continue
            done.add(id(e))
            self.handle_expr(e)
            skips = 0
        # python_translate.cpp: an aliased output's alias once, then the
        # output wherever it is visible (returned).
        aliased = set()
        for out, alias, visible in self.ir.outputs:
            if alias is not None and id(out) not in aliased:
                aliased.add(id(out))
                self.emit("fd.add_output(%s, %s)" % (self.name(out), self.name(alias)))
            if visible:
                self.emit("fd.add_output(%s)" % self.name(out))
        return "\n".join(self.lines) + "\n"

    def shape(self, e):
        """The output's extents (expanded ones where expanded), as printed."""
        return "[%s]" % ", ".join(self.name(d.maybe_expanded) for d in e.outputs[0].logical())

    def handle_expr(self, e):
        if e.op in ("expand", "reshape"):
            for d in e.outputs[0].logical():
                self.handle_val(d.maybe_expanded)
        for out in e.outputs:
            self.visit(out)
        outs = ", ".join(self.name(o, lvalue=True) for o in e.outputs)
        ins = [self.name(v) for v in e.inputs]
        op = e.op
        if op in ("cast", "set"):
            self.emit("%s = fd.ops.cast(%s, dtype=DataType.%s)" % (outs, ins[0],
                                                                 e.outputs[0].dtype))
        elif op in _ONE_KEYWORD:
            keyword, attr = _ONE_KEYWORD[op]
            self.emit("%s = fd.ops.%s(%s, %s=%s)" % (outs, op, ins[0], keyword,
                                                    _format_py(e.attrs[attr])))
        elif op == "reduction":
            text = "%s = fd.ops.%s(%s, dims=%s" % (outs, e.attrs["op"], ins[0],
                                                  _format_py(e.attrs["axes"]))
            if e.attrs["op"] in ("sum", "prod"):
                text += ", dtype=DataType.%s" % e.outputs[0].dtype
            self.emit(text + ")")
        elif op == "squeeze":
            flags = e.attrs["flags"]
            text = "%s = fd.ops.squeeze(%s, dims=%s" % (
                outs, ins[0], _format_py([i for i, f in enumerate(flags) if f]))
            if e.attrs.get("expanded") and any(
                    f and d.expanded is not None
                    for f, d in zip(flags, e.inputs[0].logical())):
                text += ", squeeze_expanded=True"
            self.emit(text + ")")
        elif op in ("expand", "reshape"):
            key = "shape" if op == "expand" else "new_shape"
            self.emit("%s = fd.ops.%s(%s, %s=%s)" % (outs, op, ins[0], key, self.shape(e)))
        elif op == "pad":
            self.emit("%s = fd.ops.pad(%s, pad_widths=[%s], value=%s)" % (
                outs, ins[0], ", ".join(self.name(v) for v in e.attrs["widths"]),
                self.name(e.attrs["value"])))
        elif op == "cat":
            self.emit("%s = fd.ops.cat([%s], dim=%d, manual_padding=True)" % (
                outs, ", ".join(ins), e.attrs["dim"]))
        elif op == "slice":
            a = e.attrs
            self.emit("%s = fd.ops.slice(%s, start_indices=[%s], end_indices=[%s], "
                      "strides=[%s], manual_normalization=True)" % (
                          outs, ins[0], ", ".join(self.name(v) for v in a["starts"]),
                          ", ".join(self.name(v) for v in a["ends"]),
                          ", ".join(self.name(v) for v in a["steps"])))
        elif op == "full":
            self.emit("%s = fd.ops.full(shape=%s, fill_value=%s, dtype=DataType.%s)" % (
                outs, self.shape(e), ins[0], e.outputs[0].dtype))
        elif op == "rng":
            a = e.attrs
            params = "0, 1" if a["params"] is None else ", ".join(self.name(v) for v in
                                                                 a["params"])
            text = "%s = fd.ops.%s(%s, [%s]" % (outs, a["kind"], params, ", ".join(
                self.name(v) for v in a["extents"]))
            if a["seed"] is not None:
                text += ", rng_seed=%s, rng_offset=%s" % (self.name(a["seed"]),
                                                         self.name(a["offset"]))
            if e.outputs[0].dtype != "Float":
                text += ", dtype=DataType.%s" % e.outputs[0].dtype
            self.emit(text + ")")
        elif op == "iota":
            text = "%s = fd.ops.iota(length=%s, start=%s, step=%s" % ((outs,) + tuple(ins))
            if e.attrs["dtype"] != "Int":
                text += ", dtype=DataType.%s" % e.attrs["dtype"]
            self.emit(text + ")")
        elif op in ("gather", "take_along_axis", "index_select", "select"):
            self.emit("%s = fd.ops.%s(%s, %s, dim=%d)" % (outs, op, ins[0], ins[1],
                                                         e.attrs["dim"]))
        elif op == "scatter":
            self.emit("%s = fd.ops.scatter(%s, %s, %s, dim=%d)" % (outs, ins[0], ins[1], ins[2],
                                                                 e.attrs["dim"]))
        elif op == "argsort":
            text = "%s = fd.ops.argsort(%s, dim=%d" % (outs, ins[0], e.attrs["dim"])
            for flag in ("descending", "stable"):
                if e.attrs[flag]:
                    text += ", %s=True" % flag
            self.emit(text + ")")
        elif op in ("cumsum", "cumprod", "cummax", "cummin"):
            self.emit("%s = fd.ops.%s(%s, dim=%d)" % (outs, op, ins[0], e.attrs["dim"]))
        elif op == "embedding_fwd":
            self.emit("%s = fd.ops.embedding_fwd(%s, %s, %s)" % (
                outs, ins[0], ins[1], ", ".join("%s=%s" % (k, self.name(v))
                                                for k, v in e.attrs["options"])))
        elif op in ("sdpfa_fwd", "sdpfa_bwd"):
            count = 3 if op == "sdpfa_fwd" else 6
            self.emit("%s = fd.ops.%s(%s, %s)" % (
                outs, op, ", ".join(ins[:count]), ", ".join(
                    "%s=%s" % (k, self.name(v)) for k, v in e.attrs["options"])))
        elif op == "topk":
            text = "%s = fd.ops.topk(%s, %s, dim=%d" % (outs, ins[0], ins[1], e.attrs["dim"])
            if not e.attrs["largest"]:
                text += ", largest=False"
            if e.attrs["sorted"]:
                text += ", sorted=True"
            self.emit(text + ")")
        elif op == "linear" and len(ins) == 3:
            self.emit("%s = fd.ops.linear(%s, %s, bias=%s)" % ((outs,) + tuple(ins)))
        else:
            self.emit("%s = fd.ops.%s(%s)" % (outs, op, ", ".join(ins)))


def translate(records):
    """nvFuser's repr(fd) text of a definition's records; raises
    Unsupported where the model has no translation of a record."""
    ir = Translator(records).run()
    return Printer(ir).translate()
