"""The definitions the differential test builds with both frontends
(fuser_mlir.nvfuser_direct and nvFuser's nvfuser_direct): every `fd.ops`
entry of fuser_mlir over dtypes, ranks, static and symbolic extents, keyword
forms and bad arguments.

Plain Python, imported by both sides (differential.py under python3 with
fuser_mlir, nvfuser_oracle.py under the nvFuser venv's CPython 3.12): a case
is (case id, op name, function(fd, DataType)) that defines inputs, calls the
op and adds its tensor results as outputs. The elementwise op names come from
fuser_mlir (differential.py passes them to the oracle), so a new op is a new
set of cases on both sides.
"""

import contextlib
import io

DTYPES = ["Float", "Double", "Half", "BFloat16", "Int", "Int32", "Bool", "ComplexFloat"]
SHAPES = {"static": [2, 3], "symbolic": [-1, -1], "rank0": []}
# The 8-bit floats: every unary op and the reductions, static extents.
FP8_DTYPES = ["Float8_e4m3fn", "Float8_e5m2"]


def _outputs(fd, results):
    if not isinstance(results, (list, tuple)):
        results = [results]
    for result in results:
        fd.add_output(result)


def _tensor(fd, DataType, shape, dtype):
    return fd.define_tensor(shape=list(shape), dtype=getattr(DataType, dtype))


def _unary(op, dtype, shape):
    def case(fd, DataType):
        _outputs(fd, getattr(fd.ops, op)(_tensor(fd, DataType, shape, dtype)))
    return case


def _binary_operand(fd, DataType, spec, shape):
    """spec: a dtype name (a tensor of `shape`), ("const", value), or
    ("scalar", dtype name) (a scalar input)."""
    if isinstance(spec, tuple):
        kind, value = spec
        if kind == "const":
            return value
        return fd.define_scalar(dtype=getattr(DataType, value))
    return _tensor(fd, DataType, shape, spec)


def _elementwise(op, specs, shapes):
    def case(fd, DataType):
        operands = [_binary_operand(fd, DataType, spec, shape)
                    for spec, shape in zip(specs, shapes)]
        _outputs(fd, getattr(fd.ops, op)(*operands))
    return case


BINARY_COMBOS = [
    # (name, lhs spec, rhs spec, lhs shape, rhs shape)
    ("f32", "Float", "Float", [2, 3], [2, 3]),
    ("f32-symbolic", "Float", "Float", [-1, -1], [-1, -1]),
    ("f16", "Half", "Half", [2, 3], [2, 3]),
    ("bf16-f32", "BFloat16", "Float", [2, 3], [2, 3]),
    ("f64-f32", "Double", "Float", [2, 3], [2, 3]),
    ("i64", "Int", "Int", [2, 3], [2, 3]),
    ("i32", "Int32", "Int32", [2, 3], [2, 3]),
    ("i32-i64", "Int32", "Int", [2, 3], [2, 3]),
    ("i64-f32", "Int", "Float", [2, 3], [2, 3]),
    ("bool", "Bool", "Bool", [2, 3], [2, 3]),
    ("bool-i32", "Bool", "Int32", [2, 3], [2, 3]),
    ("c64-f32", "ComplexFloat", "Float", [2, 3], [2, 3]),
    ("f32-const-float", "Float", ("const", 2.0), [2, 3], None),
    ("f16-const-int", "Half", ("const", 2), [2, 3], None),
    ("i32-const-int", "Int32", ("const", 3), [2, 3], None),
    ("i64-const-float", "Int", ("const", 2.5), [2, 3], None),
    ("c64-const-complex", "ComplexFloat", ("const", 1 + 2j), [2, 3], None),
    ("f32-const-complex", "Float", ("const", 1 + 2j), [2, 3], None),
    ("const-bf16", ("const", 2.0), "BFloat16", None, [2, 3]),
    ("f16-scalar-f64", "Half", ("scalar", "Double"), [2, 3], None),
    ("i32-scalar-i64", "Int32", ("scalar", "Int"), [2, 3], None),
    ("rank0-f32", "Float", "Float", [], [2, 3]),
    ("broadcast-dim", "Float", "Float", [2, 1], [2, 3]),
    ("rank-mismatch", "Float", "Float", [3], [2, 3]),
    ("shape-mismatch", "Float", "Float", [2, 3], [3, 2]),
]

TERNARY_CASES = {
    "lerp": [("f32", ["Float", "Float", "Float"]), ("f16-const", ["Half", "Half", ("const", 0.5)]),
             ("bf16-f32", ["BFloat16", "Float", "Float"])],
    "clamp": [("f32", ["Float", ("const", 0.0), ("const", 1.0)]),
              ("i64", ["Int", ("const", 0), ("const", 5)]),
              ("f16", ["Half", ("const", -1.0), ("const", 1.0)])],
    "threshold": [("f32", ["Float", ("const", 0.5), ("const", 0.0)]),
                  ("i32", ["Int32", ("const", 1), ("const", 0)])],
    "where": [("f32", ["Bool", "Float", "Float"]), ("f32-const", ["Bool", "Float", ("const", 0.0)]),
              ("i64-f32", ["Bool", "Int", "Float"]), ("f16-bf16", ["Bool", "Half", "BFloat16"]),
              ("float-cond", ["Float", "Float", "Float"])],
    "addcmul": [("f32", ["Float", "Float", "Float", ("const", 2.0)]),
                ("f16", ["Half", "Half", "Half", ("const", 0.5)])],
}


def _shape_cases():
    """Shape, reduction, construction and keyword-form cases, by op."""
    cases = []

    def add(op, name, fn):
        cases.append(("%s/%s" % (op, name), op, fn))

    def t(fd, DataType, shape, dtype="Float"):
        return _tensor(fd, DataType, shape, dtype)

    # Reductions.
    for op in ("sum", "prod", "max", "min"):
        for dtype in ["Float", "Double", "Half", "BFloat16", "Int", "Int32", "Bool",
                      "ComplexFloat"] + FP8_DTYPES:
            add(op, "%s-dim1" % dtype, lambda fd, D, op=op, dtype=dtype: _outputs(
                fd, getattr(fd.ops, op)(t(fd, D, [2, 3], dtype), dims=[1])))
        for name, shape, kwargs in [
                ("dims0-symbolic", [-1, -1], dict(dims=[0])),
                ("all", [2, 3], dict(dims=[0, 1])),
                ("negative-dim", [2, 3], dict(dims=[-1])),
                ("keepdim", [2, 3], dict(dims=[1], keepdim=True)),
                ("keepdim-symbolic", [-1, 3], dict(dims=[0], keepdim=True)),
                ("rank3-middle", [2, 3, 4], dict(dims=[1])),
                ("bad-dim", [2, 3], dict(dims=[2])),
                ("duplicate-dim", [2, 3], dict(dims=[1, 1]))]:
            add(op, name, lambda fd, D, op=op, shape=shape, kwargs=kwargs: _outputs(
                fd, getattr(fd.ops, op)(t(fd, D, shape), **kwargs)))
        add(op, "positional", lambda fd, D, op=op: _outputs(
            fd, getattr(fd.ops, op)(t(fd, D, [2, 3]), [0], False)))
        add(op, "dtype-f64", lambda fd, D, op=op: _outputs(
            fd, getattr(fd.ops, op)(t(fd, D, [2, 3]), dims=[1], keepdim=False,
                                    dtype=D.Double)))
        add(op, "f16-dtype-f32", lambda fd, D, op=op: _outputs(
            fd, getattr(fd.ops, op)(t(fd, D, [2, 3], "Half"), dims=[1], dtype=D.Float)))
    for op in ("var", "var_mean"):
        for dtype in ["Float", "Half", "BFloat16", "Double", "Int"] + FP8_DTYPES:
            add(op, "%s-dim1" % dtype, lambda fd, D, op=op, dtype=dtype: _outputs(
                fd, getattr(fd.ops, op)(t(fd, D, [2, 3], dtype), dims=[1])))
        add(op, "correction0-keepdim", lambda fd, D, op=op: _outputs(
            fd, getattr(fd.ops, op)(t(fd, D, [-1, -1]), dims=[1], correction=0, keepdim=True)))
        add(op, "bad-dim", lambda fd, D, op=op: _outputs(
            fd, getattr(fd.ops, op)(t(fd, D, [2, 3]), dims=[3])))
    for dtype in ["Float", "Half", "BFloat16", "Double"] + FP8_DTYPES:
        add("welford", dtype, lambda fd, D, dtype=dtype: _outputs(
            fd, fd.ops.welford(t(fd, D, [2, 3], dtype), dims=[1])))
    add("welford", "symbolic-dim0", lambda fd, D: _outputs(
        fd, fd.ops.welford(t(fd, D, [-1, -1]), dims=[0])))

    # Casts: every pair of dtypes.
    for source in DTYPES:
        for target in DTYPES:
            add("cast", "%s-to-%s" % (source, target), lambda fd, D, s=source, d=target: _outputs(
                fd, fd.ops.cast(t(fd, D, [2, 3], s), dtype=getattr(D, d))))
    add("cast", "positional", lambda fd, D: _outputs(fd, fd.ops.cast(t(fd, D, [2]), D.Half)))

    # Views and layout.
    reshape_specs = [("static", [2, 3], [3, 2]), ("flatten", [2, 3], [6]),
                     ("rank0-to-1", [], [1]), ("split", [6], [2, 3]),
                     ("bad-numel", [2, 3], [4]), ("minus-one", [2, 3], [-1, 2])]
    for name, shape, new_shape in reshape_specs:
        add("reshape", name, lambda fd, D, s=shape, n=new_shape: _outputs(
            fd, fd.ops.reshape(t(fd, D, s), new_shape=n)))
    add("reshape", "positional", lambda fd, D: _outputs(fd, fd.ops.reshape(t(fd, D, [2, 3]),
                                                                          [6])))

    def reshape_from_sizes(fd, D):
        x = t(fd, D, [-1, -1])
        _outputs(fd, fd.ops.reshape(x, [fd.ops.mul(fd.ops.size(x, 0), fd.ops.size(x, 1))]))
    add("reshape", "symbolic-sizes", reshape_from_sizes)
    add("size", "in-reshape", lambda fd, D: _outputs(fd, fd.ops.reshape(
        t(fd, D, [2, 3]), [fd.ops.size(t(fd, D, [3, 2]), 0), 3])))
    add("size", "bad-dim", lambda fd, D: fd.ops.size(t(fd, D, [2, 3]), 2))

    def shape_op(fd, D):
        x = t(fd, D, [-1, 3])
        _outputs(fd, fd.ops.reshape(fd.ops.set(x), fd.ops.shape(x)))
    add("shape", "reshape-to-shape", shape_op)
    for name, shape, dims in [("middle", [2, 1, 3], [1]), ("negative", [2, 1, 3], [-2]),
                              ("two", [1, 3, 1], [0, 2]), ("not-one", [2, 3], [0]),
                              ("out-of-range", [2, 1], [2])]:
        add("squeeze", name, lambda fd, D, s=shape, d=dims: _outputs(
            fd, fd.ops.squeeze(t(fd, D, s), dims=d)))
    for name, shape, flags in [("leading", [2, 3], [True, False, False]),
                               ("trailing", [2, 3], [False, False, True]),
                               ("none", [2, 3], [False, False]),
                               ("bad-count", [2, 3], [True, False, False, False])]:
        add("broadcast", name, lambda fd, D, s=shape, f=flags: _outputs(
            fd, fd.ops.broadcast(t(fd, D, s), is_broadcast_dim=f)))
    for name, shape, target in [("grow", [2, 1], [2, 4]), ("same", [2, 3], [2, 3]),
                                ("bad-extent", [2, 3], [2, 4]), ("rank", [2, 1], [3, 2, 4])]:
        add("expand", name, lambda fd, D, s=shape, n=target: _outputs(
            fd, fd.ops.expand(t(fd, D, s), shape=n)))
    for name, shape, target, dims in [
            ("new-leading", [3], [2, 3], [1]), ("grow", [1, 3], [4, 3], [0, 1]),
            ("minus-one", [-1], [-1, 4], [0]), ("symbolic", [-1, -1], [-1, 2, -1], [0, 2]),
            ("bad-dims", [3], [2, 3], [2]), ("bad-extent", [3], [2, 4], [1]),
            ("unsorted-dims", [2, 3], [3, 2], [1, 0])]:
        add("broadcast_in_dim", name, lambda fd, D, s=shape, n=target, d=dims: _outputs(
            fd, fd.ops.broadcast_in_dim(t(fd, D, s), shape=n, broadcast_dims=d)))
    add("broadcast_in_dim", "positional", lambda fd, D: _outputs(
        fd, fd.ops.broadcast_in_dim(t(fd, D, [3]), [2, 3], [1])))
    for name, shape, dims in [("rotate", [2, 3, 4], [2, 0, 1]), ("negative", [2, 3], [-1, 0]),
                              ("symbolic", [-1, 3], [1, 0]), ("repeat", [2, 3, 4], [0, 0, 1]),
                              ("short", [2, 3, 4], [1, 0])]:
        add("permute", name, lambda fd, D, s=shape, d=dims: _outputs(
            fd, fd.ops.permute(t(fd, D, s), dims=d)))
    for op in ("set", "segment_set"):
        add(op, "f16", lambda fd, D, op=op: _outputs(fd, getattr(fd.ops, op)(
            t(fd, D, [2, 3], "Half"))))
    add("stride_order", "transpose", lambda fd, D: _outputs(
        fd, fd.ops.stride_order(t(fd, D, [2, 3]), stride_order=[0, 1])))
    add("stride_order", "bad", lambda fd, D: _outputs(
        fd, fd.ops.stride_order(t(fd, D, [2, 3]), stride_order=[0, 0])))

    # Slices, pads, concatenation, full.
    for name, shape, starts, ends, strides in [
            ("static", [4, 6], [1, 2], [3, 6], None), ("strides-one", [4, 6], [0, 0], [2, 3],
                                                       [1, 1]),
            ("symbolic", [-1, -1], [1, 0], [3, 2], None), ("end-past", [4], [1], [9], None),
            ("start-past-end", [4], [3], [1], None), ("negative-start", [4], [-1], [4], None),
            ("stride-two", [4], [0], [4], [2]), ("bad-count", [4, 6], [0], [2], None)]:
        def slice_case(fd, D, s=shape, a=starts, b=ends, c=strides):
            kwargs = {} if c is None else {"strides": c}
            _outputs(fd, fd.ops.slice(t(fd, D, s), start_indices=a, end_indices=b, **kwargs))
        add("slice", name, slice_case)
    for name, shape, dtype, widths, value in [
            ("inner", [2, 3], "Float", [1, 1], None), ("both", [2, 3], "Float", [1, 2, 0, 1], 0.0),
            ("f16-value", [2, 3], "Half", [1, 1], 1.5), ("int-value-float", [2, 3], "Float", [1, 1], 2),
            ("i64-float-value", [2, 3], "Int", [1, 1], 1.5), ("symbolic", [-1, 3], "Float", [0, 2], None),
            ("negative", [2, 5], "Float", [-1, -1], None), ("odd-count", [2, 3], "Float", [1], None)]:
        def pad_case(fd, D, s=shape, dt=dtype, w=widths, v=value):
            args = {} if v is None else {"value": v}
            _outputs(fd, fd.ops.pad(t(fd, D, s, dt), pad_widths=w, **args))
        add("pad", name, pad_case)
    for name, shapes, dtypes, dim in [
            ("dim1", [[2, 3], [2, 4]], ["Float", "Float"], 1), ("dim0", [[2, 3], [1, 3]],
                                                                ["Float", "Float"], 0),
            ("negative", [[2, 3], [2, 4]], ["Float", "Float"], -1),
            ("symbolic", [[-1, 3], [-1, 3]], ["Float", "Float"], 0),
            ("mixed-dtype", [[2, 3], [2, 3]], ["Float", "Half"], 0),
            ("mismatch", [[2, 3], [3, 4]], ["Float", "Float"], 1),
            ("three", [[2], [3], [4]], ["Int", "Int", "Int"], 0)]:
        add("cat", name, lambda fd, D, s=shapes, dt=dtypes, d=dim: _outputs(
            fd, fd.ops.cat([t(fd, D, x, y) for x, y in zip(s, dt)], dim=d)))
    for name, shape, value, dtype in [("f32", [2, 3], 1.5, "Float"), ("i64", [2], 3, "Int"),
                                      ("bool", [3], True, "Bool"), ("f16-int", [2], 2, "Half"),
                                      ("rank0", [], 1.0, "Double"), ("negative", [-2], 1.0, "Float")]:
        add("full", name, lambda fd, D, s=shape, v=value, d=dtype: _outputs(
            fd, fd.ops.full(shape=s, fill_value=v, dtype=getattr(D, d))))
    add("full", "from-scalar", lambda fd, D: _outputs(fd, fd.ops.full(
        [2, 3], fd.define_scalar(dtype=D.Double), D.Float)))

    # Complex numbers.
    for name, dtypes in [("f32", ["Float", "Float"]), ("f64", ["Double", "Double"]),
                         ("mixed", ["Float", "Double"]), ("f16", ["Half", "Half"])]:
        add("complex", name, lambda fd, D, d=dtypes: _outputs(
            fd, fd.ops.complex(t(fd, D, [2, 3], d[0]), t(fd, D, [2, 3], d[1]))))
    for op in ("real", "imag"):
        for dtype in ("ComplexFloat", "Float"):
            add(op, dtype, lambda fd, D, op=op, d=dtype: _outputs(
                fd, getattr(fd.ops, op)(t(fd, D, [2, 3], d))))

    # Legacy names (fuser_mlir keeps them for the legacy API).
    add("view", "static", lambda fd, D: _outputs(fd, fd.ops.view(t(fd, D, [2, 3]), [6])))
    add("tensor_sizes", "reshape", lambda fd, D: _outputs(fd, fd.ops.reshape(
        t(fd, D, [2, 3]), fd.ops.tensor_sizes(t(fd, D, [3, 2])))))

    # Inputs: define_tensor's forms and bad arguments.
    for name, kwargs in [("contiguity", dict(shape=[2, 3], contiguity=[True, True])),
                         ("contiguity-none", dict(shape=[2, 1], contiguity=[True, None])),
                         ("stride-order", dict(shape=[2, 3], contiguity=[True, True],
                                               stride_order=[0, 1])),
                         ("broadcast-one", dict(shape=[1, -1])),
                         ("bad-extent", dict(shape=[-2, 3])),
                         ("bad-contiguity", dict(shape=[2, 3], contiguity=[True])),
                         ("bad-stride-order", dict(shape=[2, 3], stride_order=[0, 0])),
                         ("rank0-f64", dict(shape=[], dtype="Double")),
                         ("f16", dict(shape=[2, 3], dtype="Half"))]:
        def define_case(fd, D, kwargs=kwargs):
            kwargs = dict(kwargs)
            if "dtype" in kwargs:
                kwargs["dtype"] = getattr(D, kwargs["dtype"])
            _outputs(fd, fd.ops.set(fd.define_tensor(**kwargs)))
        add("define_tensor", name, define_case)
    return cases


def _indexing_cases(add, t):
    """Scans, sorting, gathers, scatters and embeddings."""
    for op in ("cumsum", "cumprod", "cummax", "cummin"):
        for dtype in DTYPES:
            add(op, "%s-dim1" % dtype, lambda fd, D, op=op, dtype=dtype: _outputs(
                fd, getattr(fd.ops, op)(t(fd, D, [2, 3], dtype), 1)))
        for name, shape, dim in [("symbolic-dim0", [-1, -1], 0), ("negative-dim", [2, 3], -1),
                                 ("rank3", [2, 3, 4], 1), ("rank0", [], 0),
                                 ("bad-dim", [2, 3], 2)]:
            add(op, name, lambda fd, D, op=op, s=shape, d=dim: _outputs(
                fd, getattr(fd.ops, op)(t(fd, D, s), dim=d)))
        add(op, "init", lambda fd, D, op=op: _outputs(fd, getattr(fd.ops, op)(
            t(fd, D, [2, 3]), 1, init=fd.define_scalar(1.0, dtype=D.Float))))
    for dtype in DTYPES:
        add("argsort", dtype, lambda fd, D, dtype=dtype: _outputs(
            fd, fd.ops.argsort(t(fd, D, [2, 3], dtype), dim=1)))
    for name, shape, kwargs in [("dim0-descending", [2, 3], dict(dim=0, descending=True)),
                                ("stable", [2, 3], dict(dim=1, stable=True)),
                                ("symbolic", [-1, -1], dict(dim=-2)),
                                ("rank0", [], dict(dim=0)), ("no-dim", [2, 3], {}),
                                ("bad-dim", [2, 3], dict(dim=2))]:
        add("argsort", name, lambda fd, D, s=shape, k=kwargs: _outputs(
            fd, fd.ops.argsort(t(fd, D, s), **k)))
    add("argsort", "positional", lambda fd, D: _outputs(
        fd, fd.ops.argsort(t(fd, D, [2, 3]), 0, True, True)))

    def k_scalar(fd, D, value):
        return fd.define_scalar(value, dtype=D.Int)
    for dtype in ("Float", "Half", "BFloat16", "Double", "Int", "Int32", "Bool"):
        add("topk", dtype, lambda fd, D, dtype=dtype: _outputs(
            fd, fd.ops.topk(t(fd, D, [4, 5], dtype), k_scalar(fd, D, 2))))
    for name, shape, k, kwargs in [
            ("smallest-sorted", [4, 5], 3, dict(dim=0, largest=False, sorted=True)),
            ("symbolic", [-1, -1], 2, dict(dim=1)), ("k-all", [4, 5], 5, {}),
            ("k-past", [4, 5], 6, {}), ("k-negative", [4, 5], -1, {}),
            ("bad-dim", [4, 5], 2, dict(dim=2))]:
        add("topk", name, lambda fd, D, s=shape, k=k, kw=kwargs: _outputs(
            fd, fd.ops.topk(t(fd, D, s), k_scalar(fd, D, k), **kw)))
    add("topk", "k-input", lambda fd, D: _outputs(
        fd, fd.ops.topk(t(fd, D, [4, 5]), fd.define_scalar(dtype=D.Int), dim=1)))
    add("topk", "k-int", lambda fd, D: _outputs(fd, fd.ops.topk(t(fd, D, [4, 5]), 2)))

    # gather and take_along_axis: (arg shape, arg dtype, index shape, index dtype, dim).
    for op, specs in [
            ("gather", [("dim0", [5, 3], "Float", [2, 3], "Int", 0),
                        ("dim1-f16", [5, 3], "Half", [5, 2], "Int", 1),
                        ("index-i32", [5, 3], "Float", [2, 3], "Int32", 0),
                        ("index-float", [5, 3], "Float", [2, 3], "Float", 0),
                        ("index-smaller", [5, 3], "Float", [2, 2], "Int", 0),
                        ("index-larger", [5, 3], "Float", [2, 4], "Int", 0),
                        ("rank-mismatch", [5, 3], "Float", [2], "Int", 0),
                        ("symbolic", [-1, -1], "Float", [-1, -1], "Int", 1),
                        ("negative-dim", [5, 3], "Float", [5, 2], "Int", -1),
                        ("bad-dim", [5, 3], "Float", [2, 3], "Int", 2)]),
            ("take_along_axis", [("dim0", [5, 3], "Float", [2, 3], "Int", 0),
                                 ("broadcast", [5, 1], "Float", [2, 3], "Int", 0),
                                 ("index-broadcast", [5, 3], "Float", [2, 1], "Int", 0),
                                 ("extent-mismatch", [5, 3], "Float", [2, 4], "Int", 0),
                                 ("rank-mismatch", [5, 3], "Float", [2], "Int", 0),
                                 ("symbolic", [-1, -1], "Float", [-1, -1], "Int", 1),
                                 ("bad-dim", [5, 3], "Float", [2, 3], "Int", 2)])]:
        for name, shape, dtype, index_shape, index_dtype, dim in specs:
            add(op, name, lambda fd, D, op=op, s=shape, dt=dtype, i=index_shape,
                it=index_dtype, d=dim: _outputs(fd, getattr(fd.ops, op)(
                    t(fd, D, s, dt), t(fd, D, i, it), dim=d)))
    for name, shape, index_shape, index_dtype, dim in [
            ("dim0", [5, 3], [2], "Int", 0), ("dim1", [5, 3], [4], "Int", 1),
            ("index-i32", [5, 3], [2], "Int32", 0), ("index-rank0", [5, 3], [], "Int", 0),
            ("index-2d", [5, 3], [2, 2], "Int", 0), ("symbolic", [-1, -1], [-1], "Int", 1),
            ("negative-dim", [5, 3], [2], "Int", -2), ("arg-rank0", [], [1], "Int", 0),
            ("bad-dim", [5, 3], [2], "Int", 2)]:
        add("index_select", name, lambda fd, D, s=shape, i=index_shape, it=index_dtype,
            d=dim: _outputs(fd, fd.ops.index_select(t(fd, D, s), t(fd, D, i, it), dim=d)))
    for name, shape, dim in [("dim0", [5, 3], 0), ("dim1", [5, 3], 1),
                             ("negative-dim", [5, 3], -1), ("symbolic", [-1, -1], 0),
                             ("rank0", [], 0), ("bad-dim", [5, 3], 2)]:
        add("select", name, lambda fd, D, s=shape, d=dim: _outputs(
            fd, fd.ops.select(t(fd, D, s), fd.define_scalar(1, dtype=D.Int), dim=d)))
    add("select", "index-input", lambda fd, D: _outputs(
        fd, fd.ops.select(t(fd, D, [5, 3]), fd.define_scalar(dtype=D.Int), 1)))
    add("select", "index-int", lambda fd, D: _outputs(fd, fd.ops.select(t(fd, D, [5, 3]), 1, 0)))

    def scalar(fd, D, value, dtype):
        return fd.define_scalar(value, dtype=getattr(D, dtype))
    for name, index_shape, weight_shape, weight_dtype, kwargs in [
            ("f32", [2, 3], [10, 4], "Float", {}), ("bf16", [3], [10, 4], "BFloat16", {}),
            ("index-i32", [2, 3], [10, 4], "Int32", {}),
            ("padding-idx", [3], [10, 4], "Float", dict(padding_idx=("Int", 0))),
            ("norm-type", [3], [10, 4], "Float", dict(norm_type=("Double", 1.0),
                                                      scale_grad_by_freq=("Bool", True),
                                                      sparse=("Bool", True))),
            ("max-norm", [3], [10, 4], "Float", dict(max_norm=("Double", 1.0))),
            ("symbolic", [-1], [-1, -1], "Float", {}),
            ("weight-3d", [3], [10, 4, 2], "Float", {})]:
        def embedding_case(fd, D, i=index_shape, w=weight_shape, wt=weight_dtype, kw=kwargs):
            index_dtype = "Int32" if wt == "Int32" else "Int"
            args = {key: scalar(fd, D, value, dtype) for key, (dtype, value) in kw.items()}
            _outputs(fd, fd.ops.embedding_fwd(t(fd, D, i, index_dtype),
                                              t(fd, D, w, "Float" if wt == "Int32" else wt),
                                              **args))
        add("embedding_fwd", name, embedding_case)

    # scatter: (arg shape, index shape, src: shape, or a dtype name of a
    # scalar input, dim).
    for name, shape, index_shape, src, dim in [
            ("dim0", [4, 3], [2, 3], [2, 3], 0), ("dim1", [4, 3], [4, 2], [4, 2], 1),
            ("src-scalar", [4, 3], [2, 3], "Double", 0),
            ("src-larger", [4, 3], [2, 3], [3, 3], 0),
            ("rank-mismatch", [4, 3], [2], [2], 0), ("symbolic", [-1, -1], [-1, -1], [-1, -1], 0),
            ("negative-dim", [4, 3], [2, 3], [2, 3], -2), ("bad-dim", [4, 3], [2, 3], [2, 3], 2)]:
        def scatter_case(fd, D, s=shape, i=index_shape, src=src, d=dim):
            source = scalar(fd, D, None, src) if isinstance(src, str) else t(fd, D, src)
            _outputs(fd, fd.ops.scatter(t(fd, D, s), t(fd, D, i, "Int"), source, dim=d))
        add("scatter", name, scatter_case)
    add("scatter", "src-f16", lambda fd, D: _outputs(fd, fd.ops.scatter(
        t(fd, D, [4, 3]), t(fd, D, [2, 3], "Int"), t(fd, D, [2, 3], "Half"), 0)))
    add("scatter", "src-int", lambda fd, D: _outputs(fd, fd.ops.scatter(
        t(fd, D, [4, 3]), t(fd, D, [2, 3], "Int"), 1, 0)))


def _generation_cases(add, t):
    """iota, the random ops and triu."""
    for name, args, kwargs in [
            ("length", (5,), {}), ("start-step", (5, 1, 2), {}),
            ("float", (5, 0.5, 0.25), dict(dtype="Float")),
            ("int-start-float", (5, 1, 2), dict(dtype="Float")),
            ("i32", (4,), dict(dtype="Int32")), ("f64-keywords", (), dict(
                length=3, start=1.0, step=-0.5, dtype="Double")),
            ("step-zero", (5, 0, 0), {}), ("float-length", (2.5,), {}),
            ("negative-length", (-2,), {})]:
        def iota_case(fd, D, a=args, k=kwargs):
            k = dict(k)
            if "dtype" in k:
                k["dtype"] = getattr(D, k["dtype"])
            _outputs(fd, fd.ops.iota(*a, **k))
        add("iota", name, iota_case)
    add("iota", "length-input", lambda fd, D: _outputs(
        fd, fd.ops.iota(fd.define_scalar(dtype=D.Int))))
    for op, params in (("uniform", (0.0, 1.0)), ("normal", (0.5, 2.0))):
        for name, shape, kwargs in [("f32", [2, 3], {}), ("rank0", [], {}),
                                    ("f16", [2, 3], dict(dtype="Half")),
                                    ("bf16", [4], dict(dtype="BFloat16")),
                                    ("f64", [2, 3], dict(dtype="Double")),
                                    ("int", [2, 3], dict(dtype="Int")),
                                    ("seed", [2, 3], dict(rng_seed=True, rng_offset=True)),
                                    ("seed-only", [2, 3], dict(rng_seed=True)),
                                    ("negative-extent", [-3], {})]:
            def random_case(fd, D, op=op, p=params, s=shape, kw=kwargs):
                kw = dict(kw)
                if "dtype" in kw:
                    kw["dtype"] = getattr(D, kw["dtype"])
                for key in ("rng_seed", "rng_offset"):
                    if key in kw:
                        kw[key] = fd.define_scalar(dtype=D.Int)
                _outputs(fd, getattr(fd.ops, op)(p[0], p[1], s, **kw))
            add(op, name, random_case)
        add(op, "symbolic-shape", lambda fd, D, op=op, p=params: _outputs(
            fd, getattr(fd.ops, op)(p[0], p[1], [fd.define_scalar(dtype=D.Int), 3])))
        add(op, "scalar-params", lambda fd, D, op=op: _outputs(fd, getattr(fd.ops, op)(
            fd.define_scalar(dtype=D.Double), fd.define_scalar(dtype=D.Double), [2, 3])))
    for op in ("rand_like", "randn_like"):
        for dtype in ("Float", "Half", "BFloat16", "Double", "Int", "Bool"):
            add(op, dtype, lambda fd, D, op=op, dtype=dtype: _outputs(
                fd, getattr(fd.ops, op)(t(fd, D, [2, 3], dtype))))
        add(op, "symbolic", lambda fd, D, op=op: _outputs(
            fd, getattr(fd.ops, op)(t(fd, D, [-1, 3]))))
        add(op, "seed", lambda fd, D, op=op: _outputs(fd, getattr(fd.ops, op)(
            t(fd, D, [2, 3]), rng_seed=fd.define_scalar(dtype=D.Int),
            rng_offset=fd.define_scalar(dtype=D.Int))))
    for name, shape, dtype, diagonal in [
            ("square", [3, 3], "Float", None), ("wide-1", [2, 4], "Float", 1),
            ("tall-minus-1", [4, 2], "Half", -1), ("rank3", [2, 3, 3], "Float", 0),
            ("int", [3, 3], "Int", 0), ("bool", [3, 3], "Bool", 0),
            ("symbolic", [-1, -1], "Float", 0), ("rank1", [3], "Float", 0)]:
        add("triu", name, lambda fd, D, s=shape, dt=dtype, d=diagonal: _outputs(
            fd, fd.ops.triu(t(fd, D, s, dt)) if d is None else fd.ops.triu(t(fd, D, s, dt), d)))


def _library_cases(add, t):
    """matmul, linear and attention; the ops only nvFuser has."""
    for name, shapes, dtypes in [
            ("f32", [[2, 3], [3, 4]], ["Float"] * 2), ("bf16", [[2, 3], [3, 4]], ["BFloat16"] * 2),
            ("f16", [[2, 3], [3, 4]], ["Half"] * 2), ("f64", [[2, 3], [3, 4]], ["Double"] * 2),
            ("i64", [[2, 3], [3, 4]], ["Int"] * 2), ("mixed", [[2, 3], [3, 4]], ["Float", "Half"]),
            ("vector-matrix", [[3], [3, 4]], ["Float"] * 2),
            ("matrix-vector", [[2, 3], [3]], ["Float"] * 2), ("dot", [[3], [3]], ["Float"] * 2),
            ("batched", [[5, 2, 3], [3, 4]], ["Float"] * 2),
            ("batch-broadcast", [[5, 1, 2, 3], [6, 3, 4]], ["Float"] * 2),
            ("symbolic", [[-1, -1], [-1, -1]], ["Float"] * 2),
            ("k-mismatch", [[2, 3], [4, 4]], ["Float"] * 2),
            ("rank0", [[], [3, 4]], ["Float"] * 2)]:
        add("matmul", name, lambda fd, D, s=shapes, dt=dtypes: _outputs(
            fd, fd.ops.matmul(t(fd, D, s[0], dt[0]), t(fd, D, s[1], dt[1]))))
    for name, shapes, dtype in [
            ("f32", [[2, 3], [4, 3]], "Float"), ("bias", [[2, 3], [4, 3], [4]], "Float"),
            ("bf16-bias", [[2, 3], [4, 3], [4]], "BFloat16"),
            ("vector", [[3], [4, 3]], "Float"), ("batched", [[5, 2, 3], [4, 3], [4]], "Float"),
            ("weight-vector", [[2, 3], [3]], "Float"),
            ("symbolic", [[-1, -1], [-1, -1], [-1]], "Float"),
            ("k-mismatch", [[2, 3], [4, 5]], "Float"),
            ("bias-mismatch", [[2, 3], [4, 3], [5]], "Float"), ("i64", [[2, 3], [4, 3]], "Int")]:
        add("linear", name, lambda fd, D, s=shapes, dt=dtype: _outputs(
            fd, fd.ops.linear(*[t(fd, D, x, dt) for x in s])))

    def attention(fd, D, shape, dtype, **kwargs):
        return fd.ops.sdpfa_fwd(*[t(fd, D, shape, dtype) for _ in range(3)], **kwargs)
    for name, shape, dtype, kwargs in [
            ("bf16", [2, 2, 4, 8], "BFloat16", {}), ("f16-causal", [2, 2, 4, 8], "Half",
                                                    dict(is_causal=True)),
            ("f32", [2, 2, 4, 8], "Float", {}),
            ("scale", [1, 2, 3, 8], "BFloat16", dict(dropout_p=0.0, scale=0.5)),
            ("dropout", [1, 2, 3, 8], "BFloat16", dict(dropout_p=0.1)),
            ("rank3", [2, 4, 8], "BFloat16", {}), ("symbolic", [-1, -1, -1, -1], "BFloat16", {})]:
        add("sdpfa_fwd", name, lambda fd, D, s=shape, dt=dtype, kw=kwargs: _outputs(
            fd, attention(fd, D, s, dt, **kw)))
    add("sdpfa_fwd", "bias", lambda fd, D: _outputs(fd, fd.ops.sdpfa_fwd(
        *[t(fd, D, [1, 2, 3, 8], "BFloat16") for _ in range(3)],
        bias=t(fd, D, [1, 2, 3, 3], "BFloat16"))))

    def attention_backward(fd, D, dtype, causal):
        q, k, v = [t(fd, D, [1, 2, 3, 8], dtype) for _ in range(3)]
        out, lse, seed, offset = fd.ops.sdpfa_fwd(q, k, v, dropout_p=0.0, is_causal=causal)
        grad = t(fd, D, [1, 2, 3, 8], dtype)
        _outputs(fd, fd.ops.sdpfa_bwd(grad, q, k, v, out, lse, 0.0, causal, seed, offset,
                                      None))
    for name, dtype, causal in [("bf16", "BFloat16", False), ("f16-causal", "Half", True)]:
        add("sdpfa_bwd", name, lambda fd, D, dt=dtype, c=causal: attention_backward(
            fd, D, dt, c))

    # fuser_mlir's own ops (no nvfuser_direct name).
    add("arange", "int", lambda fd, D: _outputs(fd, fd.ops.arange(1, 7, 2)))
    add("eye", "f32", lambda fd, D: _outputs(fd, fd.ops.eye(3)))
    add("index_put_accumulate", "f32", lambda fd, D: _outputs(fd, fd.ops.index_put_accumulate(
        t(fd, D, [5, 3]), t(fd, D, [4], "Int"), t(fd, D, [4, 3]))))

    # nvFuser's block-scaled and grouped matmuls and quantization.
    add("grouped_mm", "bf16", lambda fd, D: _outputs(fd, fd.ops.grouped_mm(
        t(fd, D, [32, 32], "BFloat16"), t(fd, D, [2, 32, 16], "BFloat16"),
        t(fd, D, [2], "Int32"))))
    add("nv_block_quantize", "f32", lambda fd, D: _outputs(
        fd, fd.ops.nv_block_quantize(t(fd, D, [32, 64]))))

    def scaled_mm(fd, D):
        out, _, _ = fd.ops.scaled_mm(
            t(fd, D, [-1, -1], "Float8_e4m3fn"), t(fd, D, [-1, -1], "Float8_e4m3fn"),
            t(fd, D, [-1, -1], "Float8_e8m0fnu"), t(fd, D, [-1, -1], "Float8_e8m0fnu"),
            t(fd, D, [], "Float"), bias=None, beta=None, dtype=D.BFloat16)
        _outputs(fd, out)
    add("scaled_mm", "mxfp8", scaled_mm)


def make_cases(unary_ops, binary_ops, ternary_ops):
    """Every case, in a fixed order: (id, op, function(fd, DataType))."""
    cases = []
    for op in unary_ops:
        for dtype in DTYPES:
            for shape_name in ("static", "symbolic"):
                cases.append(("%s/%s-%s" % (op, dtype, shape_name), op,
                              _unary(op, dtype, SHAPES[shape_name])))
        cases.append(("%s/rank0" % op, op, _unary(op, "Float", [])))
        for dtype in FP8_DTYPES:
            cases.append(("%s/%s-static" % (op, dtype), op, _unary(op, dtype, SHAPES["static"])))
    for op in binary_ops:
        for name, lhs, rhs, lhs_shape, rhs_shape in BINARY_COMBOS:
            cases.append(("%s/%s" % (op, name), op,
                          _elementwise(op, [lhs, rhs], [lhs_shape, rhs_shape])))
    for op in ternary_ops + ["where", "addcmul"]:
        for name, specs in TERNARY_CASES.get(op, []):
            cases.append(("%s/%s" % (op, name), op,
                          _elementwise(op, specs, [[2, 3]] * len(specs))))
    cases.extend(_shape_cases())
    for group in (_indexing_cases, _generation_cases, _library_cases):
        group_cases = []
        group(lambda op, name, fn: group_cases.append(("%s/%s" % (op, name), op, fn)),
              lambda fd, DataType, shape, dtype="Float": _tensor(fd, DataType, shape, dtype))
        cases.extend(group_cases)
    return cases


def run_case(FusionDefinition, DataType, op, build, describe_outputs):
    """One case with one frontend: {"op", "status": "ok", "outputs" (what
    describe_outputs(fd) gives), "repr"} or {"op", "status": "error",
    "error" (the exception's class names, most derived first), "message"}.
    What the frontend prints meanwhile is dropped."""
    result = {"op": op}
    noise = io.StringIO()
    try:
        with contextlib.redirect_stdout(noise), contextlib.redirect_stderr(noise):
            with FusionDefinition() as fd:
                build(fd, DataType)
        result.update(status="ok", outputs=describe_outputs(fd), repr=repr(fd))
    except Exception as error:  # noqa: BLE001 - every refusal is a result
        result.update(status="error", error=[c.__name__ for c in type(error).__mro__],
                      message=(str(error).strip().splitlines() or [""])[0][:300])
    return result
