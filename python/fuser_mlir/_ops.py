"""`fd.ops`: the operations, as nvFuser's Python frontend names them.

Each call checks what it can without extents, records itself (what repr(fd)
prints) and builds into the provisional IR; every build replays the same
apply function (_build.py). Elementwise ops come from the dialect's op table
(ElementwiseOps.def, through the native module), as nvFuser's Python names.
"""

import math

from . import _fuser_mlir as _native
from ._arrays import nvfuser_type_name
from ._build import PYTHON_SCALAR_OPS
from ._errors import (FusionNotImplementedError, FusionTypeError, FusionValueError,
                      UnsupportedOpError)
from ._states import DTYPE_NAMES, DataType, Scalar, State, Tensor, Vector, dtype_name

__all__ = ["Ops"]


class Ops:
    def __init__(self, fd):
        self._fd = fd

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        from ._fusion import caller_location
        filename, line = caller_location()
        raise UnsupportedOpError(name, filename, line)

    # Operands -------------------------------------------------------------------

    def _check_own(self, value, what):
        if isinstance(value, State) and value.fd is not self._fd:
            raise FusionValueError("%s belongs to another FusionDefinition" % what)
        return value

    def _tensor(self, value, what):
        if not isinstance(value, Tensor):
            raise FusionTypeError("%s must be a Tensor of this FusionDefinition, got %r"
                                  % (what, value))
        return self._check_own(value, what)

    def _operand(self, value, what):
        if isinstance(value, (Tensor, Scalar)):
            return self._check_own(value, what)
        # numpy scalars (and 0-d arrays) are numbers too.
        if getattr(value, "shape", None) == () and hasattr(value, "item"):
            value = value.item()
        if isinstance(value, (bool, int, float, complex)):
            return value
        raise FusionTypeError("%s must be a Tensor, a Scalar or a Python number, got %r"
                              % (what, value))

    def _extents_arg(self, values, what):
        """A shape-like argument, checked for kinds (its values may depend
        on the inputs)."""
        if isinstance(values, (Vector, Scalar)):
            return self._check_own(values, what)
        if isinstance(values, bool) or isinstance(values, float) or isinstance(values, str):
            raise FusionTypeError("%s must be an integer or a list of integers, got %r"
                                  % (what, values))
        if not hasattr(values, "__iter__"):
            return values
        items = list(values)
        for item in items:
            if isinstance(item, State):
                self._check_own(item, what)
            elif isinstance(item, (bool, float, str)) or not hasattr(item, "__index__"):
                raise FusionTypeError("%s must be an integer or a list of integers, got %r"
                                      % (what, values))
        return items

    def _record(self, call, args, kwargs, apply, result=Tensor, extra_outs=0):
        return self._fd._record(result, "ops." + call, args, kwargs, apply,
                                extra_outs=extra_outs)

    def _tensor_op(self, call, args, kwargs, build_fn):
        """An op with a tensor result: build_fn(build) gives its native id."""
        def apply(build, out):
            build.ids[out.index] = build_fn(build)
        return self._record(call, args, kwargs, apply)

    # Pointwise --------------------------------------------------------------

    def _elementwise(self, name, operands, native_call):
        """An elementwise op: a Tensor when an operand is one, else a Scalar
        (a computation on scalars, with a Python value where the operands
        have one: what extents are made of)."""
        ordinals = ["the operand"] if len(operands) == 1 else \
            ["the first operand", "the second operand", "the third operand"]
        if name == "where":
            ordinals[0] = "the condition"
        operands = [self._operand(x, "%s of %s" % (ordinal, name))
                    for ordinal, x in zip(ordinals, operands)]

        def build_native(build):
            return build.call(native_call, build, *[build.operand(x) for x in operands])

        if any(isinstance(x, Tensor) for x in operands):
            def apply_tensor(build, out):
                try:
                    build.ids[out.index] = build_native(build)
                except FusionValueError:
                    if not build.tolerates_placeholders():
                        raise
                    # A placeholder extent against a static one: the
                    # provisional build goes on with operands of one shape.
                    build.ids[out.index] = build.with_common_shape(
                        [x for x in operands if isinstance(x, Tensor)], build_native)
                build.check_broadcasts(name, [x for x in operands if isinstance(x, Tensor)],
                                       out)
            return self._record(name, operands, {}, apply_tensor)

        python_op = PYTHON_SCALAR_OPS.get(name)

        def apply(build, out):
            python_fn = None if python_op is None else \
                (lambda: python_op(*[build.value(x) for x in operands]))
            build.define_lazy(out, python_fn, lambda: build_native(build))

        return self._record(name, operands, {}, apply, result=Scalar)

    def where(self, condition, lhs, rhs):
        return self._elementwise("where", [condition, lhs, rhs],
                                 lambda build, c, l, r: build.native.where(c, l, r))

    def complex(self, real, imag):
        return self._elementwise("complex", [real, imag],
                                 lambda build, r, i: build.native.complex(r, i))

    def real(self, arg):
        return self._elementwise("real", [arg], lambda build, x: build.native.real(x))

    def imag(self, arg):
        return self._elementwise("imag", [arg], lambda build, x: build.native.imag(x))

    def cast(self, arg, dtype):
        dtype_text = dtype_name(dtype, "cast's dtype")
        arg = self._operand(arg, "the operand of cast")
        if isinstance(arg, Tensor):
            return self._tensor_op("cast", (arg, dtype), {}, lambda build: build.call(
                build.native.cast, build.native_id(arg), dtype_text))
        if not isinstance(arg, Scalar):
            # A Python number cast to a dtype is a constant of that dtype.
            def apply_constant(build, out):
                build.ids[out.index] = build.call(build.native.define_constant, arg, dtype_text)
                build.values[out.index] = arg
            return self._record("cast", (arg, dtype), {}, apply_constant, result=Scalar)

        def apply(build, out):
            convert = int if dtype_text.startswith("int") else \
                bool if dtype_text == "bool" else float
            build.define_lazy(out, lambda: convert(build.value(arg)), lambda: build.call(
                build.native.cast, build.native_id(arg), dtype_text))
        return self._record("cast", (arg, dtype), {}, apply, result=Scalar)

    def full(self, shape, fill_value, dtype):
        shape = self._extents_arg(shape, "full's shape")
        fill_value = self._operand(fill_value, "full's fill_value")
        dtype_text = dtype_name(dtype, "full's dtype")
        return self._tensor_op("full", (), {"shape": shape, "fill_value": fill_value,
                                            "dtype": dtype},
                               lambda build: build.call(
                                   build.native.full, build.extents(shape, "full's shape"),
                                   build.operand(fill_value), dtype_text))

    def _constant(self, value):
        """A Python number, or the value of a Scalar that define_scalar made
        a constant (nvFuser's Val::isConst: a value and no definition);
        None for any other Scalar."""
        if isinstance(value, Scalar) and value.fd is self._fd:
            record = self._fd._records[value.index]
            if record.call == "define_scalar" and record.args and record.args[0] is not None:
                return record.args[0]
            return None
        return value

    def iota(self, length, start=None, step=None, dtype=DataType.Int):
        # nvFuser's checks (csrc/ops/arith.cpp) on the numbers given, as
        # Python numbers or constant Scalars (it checks those at the call;
        # a Scalar computed or given at execute is not checked).
        if isinstance(length, (float, complex)) and not isinstance(length, bool):
            raise FusionTypeError("length must be integer, but get dtype %s"
                                  % type(length).__name__)
        start_value, step_value = self._constant(start), self._constant(step)
        if any(isinstance(value, float) and not math.isfinite(value)
               for value in (start_value, step_value)):
            raise FusionValueError("iota: length, start, step must be finite numbers.")
        if isinstance(step_value, (int, float)) and not isinstance(step_value, bool) \
                and step_value == 0:
            raise FusionValueError("iota: step value must not equal zero.")
        for name, value in (("start", start), ("step", step)):
            if isinstance(value, complex):
                raise FusionTypeError(
                    "iota: %s dtype does not match specified dtype argument, should be %s "
                    "but get complex" % (name, dtype_name(dtype, "iota's dtype")))
        length = self._extents_arg(length, "iota's length")
        start = None if start is None else self._operand(start, "iota's start")
        step = None if step is None else self._operand(step, "iota's step")
        dtype_text = dtype_name(dtype, "iota's dtype")
        return self._tensor_op(
            "iota", (length,), {"start": start, "step": step, "dtype": dtype},
            lambda build: build.call(
                build.native.iota, build.extents(length, "iota's length")[0],
                None if start is None else build.operand(start),
                None if step is None else build.operand(step), dtype_text))

    def arange(self, start, end=None, step=1, dtype=DataType.Int):
        """nvFuser's arange (csrc/ops/arith.h; its direct Python API has
        none): start, start + step, ... before end, as an iota of
        ceil((end - start) / step) elements; `arange(n)` counts from 0."""
        if end is None:
            start, end = 0, start
        for name, value in (("start", start), ("end", end), ("step", step)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise FusionTypeError("arange's %s must be a Python int or float, got %r "
                                      "(iota takes a Scalar length)" % (name, value))
        if step == 0:
            raise FusionValueError("arange: step must not be zero")
        length = max(0, math.ceil((end - start) / step))
        if dtype_name(dtype, "arange's dtype") in ("int32", "int64"):
            start, step = int(start), int(step)
        else:
            start, step = float(start), float(step)
        return self.iota(length, start, step, dtype)

    def eye(self, rows, cols=None, dtype=DataType.Float):
        """nvFuser's eye (csrc/ops/arith.h): ones where the row index equals
        the column index, zeros elsewhere, of `dtype`."""
        cols = rows if cols is None else cols
        row = self.broadcast(self.iota(rows), [False, True])
        col = self.broadcast(self.iota(cols), [True, False])
        return self.cast(self.eq(row, col), dtype)

    # Indexing ---------------------------------------------------------------

    def _dim_arg(self, dim, what):
        if isinstance(dim, bool) or not isinstance(dim, int):
            raise FusionTypeError("%s must be an int, got %r" % (what, dim))
        return dim

    @staticmethod
    def _normalized_dim(dim, rank):
        if not -rank <= dim < rank:
            raise FusionValueError(
                "Tensor arguments have dimension %d so dim argument must satisfy "
                "%d <= dim < %d, but received %d" % (rank, -rank, rank, dim))
        return dim % rank

    def _indexing_op(self, name, arg, index, dim, build_fn):
        """An op reading `arg` at the tensor `index` along `dim`:
        build_fn(build, source_id, index_id, source_shape, index_shape)."""
        arg = self._tensor(arg, "%s's operand" % name)
        index = self._tensor(index, "%s's index" % name)
        dim = self._dim_arg(dim, "%s's dim" % name)

        def build_native(build):
            source, indices = build.native_id(arg), build.native_id(index)
            index_shape, index_dtype = build.native.value_type(indices)
            if not index_dtype.startswith("int"):
                # nvFuser takes an index tensor of any dtype and converts
                # each index read to its index type (IndexLowering's
                # maybeCastExpr(DataType::Index, ...)): a float index is
                # truncated toward zero. Thunder's cross-entropy passes a
                # float one (where(ne, target, 0.0) promotes the int target).
                indices = build.call(build.native.cast, indices, "int64")
            return build_fn(build, source, indices, build.native.value_type(source)[0],
                            index_shape, dim)
        return self._tensor_op(name, (arg, index, dim), {}, build_native)

    def gather(self, arg, index, dim):
        return self._indexing_op("gather", arg, index, dim, lambda build, source, indices,
                                 source_shape, index_shape, dim: build.call(
                                     build.native.gather, source, indices, dim))

    def take_along_axis(self, arg, index, dim):
        # The dims but `dim` must agree, an extent 1 of either broadcasting
        # against the other's (torch.take_along_dim; nvFuser's broadcast
        # domains).
        def build_fn(build, source, indices, source_shape, index_shape, dim):
            if len(source_shape) != len(index_shape):
                return build.call(build.native.gather, source, indices, dim)
            d = self._normalized_dim(dim, len(source_shape))
            source_target, index_target = list(source_shape), list(index_shape)
            for k, (a, b) in enumerate(zip(source_shape, index_shape)):
                if k == d or a == b:
                    continue
                if a != 1 and b != 1:
                    raise FusionValueError(
                        "take_along_axis: the extents of arg and index differ in dim "
                        "%d (%d and %d); only dim %d may differ" % (k, a, b, d))
                source_target[k] = index_target[k] = max(a, b)
            if source_target != list(source_shape):
                source = build.call(build.native.expand, source, source_target)
            if index_target != list(index_shape):
                indices = build.call(build.native.expand, indices, index_target)
            return build.call(build.native.gather, source, indices, d)
        return self._indexing_op("take_along_axis", arg, index, dim, build_fn)

    def index_select(self, arg, index, dim):
        def build_fn(build, source, indices, source_shape, index_shape, dim):
            if not index_shape:
                # A 0-D index selects one position, kept as a dim of extent 1.
                indices = build.call(build.native.reshape, indices, [1])
                index_shape = [1]
            elif source_shape and len(index_shape) == len(source_shape) > 1 and all(
                    extent == 1 for k, extent in enumerate(index_shape)
                    if k != self._normalized_dim(dim, len(source_shape))):
                # The index broadcast to the source's rank, as nvFuser's
                # repr(fd) prints it (extent 1 but along dim).
                d = self._normalized_dim(dim, len(source_shape))
                indices = build.call(build.native.reshape, indices, [index_shape[d]])
                index_shape = [index_shape[d]]
            if len(index_shape) != 1:
                raise FusionValueError("index_select's index must be 1-D, got %d dims"
                                       % len(index_shape))
            if not source_shape:
                raise FusionValueError("lookup_tv argument for indexSelect cannot be a "
                                       "0-D tensor.")
            d = self._normalized_dim(dim, len(source_shape))
            shape = list(source_shape)
            shape[d] = index_shape[0]
            flags = [k != d for k in range(len(shape))]
            spread = build.call(build.native.expand,
                                build.call(build.native.broadcast, indices, flags), shape)
            return build.call(build.native.gather, source, spread, d)
        return self._indexing_op("index_select", arg, index, dim, build_fn)

    def select(self, arg, index, dim):
        arg = self._tensor(arg, "select's operand")
        index = self._operand(index, "select's index")
        dim = self._dim_arg(dim, "select's dim")

        def build_fn(build):
            source = build.native_id(arg)
            source_shape = build.native.value_type(source)[0]
            if not source_shape:
                raise FusionValueError("select can not be applied to 0d tensor.")
            d = self._normalized_dim(dim, len(source_shape))
            shape = list(source_shape)
            shape[d] = 1
            if isinstance(index, Tensor):
                # A 0-D index tensor (nvFuser's repr prints index_select of
                # a 0-D index as this select), spread over the shape.
                position = build.native_id(index)
                if build.native.value_type(position)[0]:
                    raise FusionValueError("select's index must be a Scalar or a 0-D tensor")
                indices = build.call(build.native.expand, build.call(
                    build.native.broadcast, build.call(build.native.cast, position, "int64"),
                    [True] * len(shape)), shape)
            else:
                indices = build.call(build.native.full, shape, build.operand(index), "int64")
            picked = build.call(build.native.gather, source, indices, d)
            return build.call(build.native.squeeze, picked, [d])
        return self._tensor_op("select", (arg, index, dim), {}, build_fn)

    def embedding_fwd(self, input, weight, padding_idx=None, max_norm=None, norm_type=None,
                      scale_grad_by_freq=None, sparse=None):
        input = self._tensor(input, "embedding_fwd's input")
        weight = self._tensor(weight, "embedding_fwd's weight")
        if max_norm is not None:
            # nvFuser renormalizes the rows it reads to max_norm (in place, as
            # torch.embedding does); fuser_mlir does not model that write.
            raise FusionNotImplementedError("embedding_fwd with max_norm is not supported")
        # padding_idx, scale_grad_by_freq and sparse change only the backward.

        def build_fn(build):
            indices, table = build.native_id(input), build.native_id(weight)
            index_shape = build.native.value_type(indices)[0]
            table_shape = build.native.value_type(table)[0]
            if len(table_shape) != 2:
                raise FusionValueError("embedding_fwd's weight must be 2-D, got %d dims"
                                       % len(table_shape))
            count = 1
            for extent in index_shape:
                count *= extent
            flat = build.call(build.native.reshape, indices, [count])
            rows = build.call(build.native.expand,
                              build.call(build.native.broadcast, flat, [False, True]),
                              [count, table_shape[1]])
            picked = build.call(build.native.gather, table, rows, 0)
            return build.call(build.native.reshape, picked, list(index_shape) + [table_shape[1]])
        return self._tensor_op(
            "embedding_fwd", (input, weight),
            {"padding_idx": padding_idx, "max_norm": max_norm, "norm_type": norm_type,
             "scale_grad_by_freq": scale_grad_by_freq, "sparse": sparse}, build_fn)

    # nvFuser's C++ scatter takes an accumulate BinaryOpType; torch's
    # scatter_reduce names it.
    _SCATTER_REDUCE = {"add": "add", "sum": "add", "mul": "mul", "prod": "mul",
                       "max": "max", "amax": "max", "min": "min", "amin": "min"}

    def scatter(self, arg, index, src, dim, *, reduce=None):
        """torch.scatter: `arg` with `src` (a tensor, or a scalar written at
        every index) written at `index` along `dim`; with `reduce` (add, mul,
        max, min: nvFuser's accumulate op, a fuser_mlir keyword) combined
        with the element there. Where indices repeat, the later one in
        row-major order wins (docs/Python.md)."""
        arg = self._tensor(arg, "scatter's arg")
        index = self._tensor(index, "scatter's index")
        if not isinstance(src, (Tensor, Scalar)):
            # nvFuser's binding takes a TensorView or a Val, not a number.
            raise FusionTypeError("scatter's src must be a Tensor or a Scalar, got %r" % (src,))
        src = self._operand(src, "scatter's src")
        dim = self._dim_arg(dim, "scatter's dim")
        if reduce is not None and reduce not in self._SCATTER_REDUCE:
            raise FusionValueError("scatter's reduce must be one of %s, got %r"
                                   % (", ".join(sorted(self._SCATTER_REDUCE)), reduce))
        # nvFuser checks the ranks and the dim at the call (here where the
        # provisional build knows them; else when inputs concretize it).
        if self._fd._provisional is not None:
            ranks = [len(self._fd._type_of(t)[0]) for t in (arg, index)]
            ranks.append(len(self._fd._type_of(src)[0]) if isinstance(src, Tensor)
                         else ranks[1])
            if len(set(ranks)) != 1:
                raise FusionValueError("Tensor arguments have different dimensions %d, %d "
                                       "and %d" % tuple(ranks))
            self._normalized_dim(dim, max(ranks[0], 1))
        kind = None if reduce is None else self._SCATTER_REDUCE[reduce]
        kwargs = {"dim": dim} if reduce is None else {"dim": dim, "reduce": reduce}
        return self._tensor_op(
            "scatter", (arg, index, src), kwargs,
            lambda build: build.call(build.native.scatter, build.native_id(arg),
                                     build.native_id(index), build.operand(src), dim, kind))

    def index_put_accumulate(self, acc, index, value):
        """nvFuser's indexPutAccumulate (torch's index_put_ with
        accumulate=True on the first dim; embedding backward):
        acc[index[i], ...] += value[i, ...], as a scatter-add of each index
        broadcast along its row."""
        acc = self._tensor(acc, "index_put_accumulate's acc")
        index = self._tensor(index, "index_put_accumulate's index")
        value = self._tensor(value, "index_put_accumulate's value")

        def build_fn(build):
            rows, values = build.native_id(index), build.native_id(value)
            index_shape = build.native.value_type(rows)[0]
            value_shape = build.native.value_type(values)[0]
            acc_shape = build.native.value_type(build.native_id(acc))[0]
            if len(index_shape) != 1 or len(value_shape) != len(acc_shape) or \
                    not value_shape or value_shape[0] != index_shape[0]:
                raise FusionValueError(
                    "index_put_accumulate takes a 1-D index of the value's first extent "
                    "and a value of acc's rank, got index %s, value %s, acc %s"
                    % (list(index_shape), list(value_shape), list(acc_shape)))
            spread = build.call(build.native.broadcast, rows,
                                [False] + [True] * (len(value_shape) - 1))
            spread = build.call(build.native.expand, spread, list(value_shape))
            return build.call(build.native.scatter, build.native_id(acc), spread,
                              ("value", values), 0, "add")
        return self._tensor_op("index_put_accumulate", (acc, index, value), {}, build_fn)

    def _rng_operands(self, name, rng_seed, rng_offset):
        """The record's seed and offset, and build_fn(build) -> their
        operands: the ones given, or (neither given) the generator's
        (_generator.py, as nvFuser draws from torch's CUDA generator)."""
        if (rng_seed is None) != (rng_offset is None):
            raise FusionValueError("If either philox_seed or philox_offset is provided, the "
                                   "other must be also (%s)" % name)
        if rng_seed is None:
            return None, None, lambda build: build.generator_operands()
        rng_seed = self._operand(rng_seed, "%s's rng_seed" % name)
        rng_offset = self._operand(rng_offset, "%s's rng_offset" % name)
        return rng_seed, rng_offset, lambda build: (build.operand(rng_seed),
                                                    build.operand(rng_offset))

    def _random(self, name, first, second, shape, rng_seed, rng_offset, dtype):
        shape = self._extents_arg(shape, "%s's shape" % name)
        first = self._operand(first, "%s's first parameter" % name)
        second = self._operand(second, "%s's second parameter" % name)
        rng_seed, rng_offset, rng = self._rng_operands(name, rng_seed, rng_offset)
        dtype_text = dtype_name(dtype, "%s's dtype" % name)
        return self._tensor_op(
            name, (first, second, shape),
            {"rng_seed": rng_seed, "rng_offset": rng_offset, "dtype": dtype},
            lambda build: build.call(
                build.native.random, name == "normal", build.extents(shape, "%s's shape" % name),
                build.operand(first), build.operand(second), *rng(build), dtype_text))

    def uniform(self, minval, maxval, shape, *, rng_seed=None, rng_offset=None,
                dtype=DataType.Float):
        return self._random("uniform", minval, maxval, shape, rng_seed, rng_offset, dtype)

    def normal(self, mean, std, shape, *, rng_seed=None, rng_offset=None,
               dtype=DataType.Float):
        return self._random("normal", mean, std, shape, rng_seed, rng_offset, dtype)

    def _random_like(self, name, arg, rng_seed, rng_offset):
        """rand_like/randn_like: uniform in [0, 1) or standard normal values
        of arg's shape and dtype (nvFuser's RNGOp Uniform/NormalStandard,
        the same numbers as uniform(0, 1)/normal(0, 1))."""
        arg = self._tensor(arg, "%s's operand" % name)
        rng_seed, rng_offset, rng = self._rng_operands(name, rng_seed, rng_offset)

        def build_fn(build):
            shape, dtype = build.tensor_type(arg)
            if dtype not in ("float64", "float32", "float16", "bfloat16"):
                raise FusionTypeError("input must have floating point type, but got %s"
                                      % nvfuser_type_name(dtype))
            return build.call(build.native.random, name == "randn_like", list(shape), 0.0, 1.0,
                              *rng(build), dtype)
        kwargs = {} if rng_seed is None else {"rng_seed": rng_seed, "rng_offset": rng_offset}
        return self._tensor_op(name, (arg,), kwargs, build_fn)

    def rand_like(self, arg, *, rng_seed=None, rng_offset=None):
        return self._random_like("rand_like", arg, rng_seed, rng_offset)

    def randn_like(self, arg, *, rng_seed=None, rng_offset=None):
        return self._random_like("randn_like", arg, rng_seed, rng_offset)

    def triu(self, arg, diagonal=0):
        arg = self._tensor(arg, "triu's operand")
        if isinstance(diagonal, bool) or not isinstance(diagonal, int):
            raise FusionTypeError("triu's diagonal must be an int, got %r" % (diagonal,))
        if arg.ndim < 2:
            raise FusionValueError("input tensor for triu must have 2 or more dims, but got %d dims"
                                   % arg.ndim)
        return self._tensor_op("triu", (arg,), {"diagonal": diagonal},
                               lambda build: build.call(
                                   build.native.triu, build.native_id(arg), diagonal))

    # Data movement ----------------------------------------------------------

    def reshape(self, arg, *shapes, new_shape=None, original_shape=None):
        # reshape(T, new_shape) and the older reshape(T, original_shape, new_shape).
        if new_shape is None:
            if not shapes:
                raise FusionTypeError("reshape needs new_shape")
            new_shape = shapes[-1]
        arg = self._tensor(arg, "reshape's operand")
        new_shape = self._extents_arg(new_shape, "reshape's new_shape")

        return self._tensor_op("reshape", (arg,), {"new_shape": new_shape}, self._to_shape(
            arg, new_shape, "reshape's new_shape", lambda build, extents: build.call(
                build.native.reshape, build.native_id(arg), extents)))

    view = reshape

    def squeeze(self, arg, *dims_or_shape, dims=None, original_shape=None,
                squeeze_expanded=False):
        # squeeze(T, dims) and the older squeeze(T, original_shape, dims).
        positional = list(dims_or_shape)
        if positional and isinstance(positional[-1], bool):
            squeeze_expanded = positional.pop()
        if dims is None:
            if not positional:
                raise FusionTypeError("squeeze needs dims")
            dims = positional[-1]
        arg = self._tensor(arg, "squeeze's operand")
        dims = self._extents_arg(dims, "squeeze's dims")
        return self._tensor_op("squeeze", (arg,), {"dims": dims}, lambda build: build.call(
            build.native.squeeze, build.native_id(arg), build.extents(dims, "squeeze's dims")))

    def broadcast(self, arg, is_broadcast_dim):
        arg = self._tensor(arg, "broadcast's operand")
        flags = [bool(flag) for flag in is_broadcast_dim]
        return self._tensor_op("broadcast", (arg, flags), {}, lambda build: build.call(
            build.native.broadcast, build.native_id(arg), flags))

    def expand(self, arg, shape):
        arg = self._tensor(arg, "expand's operand")
        shape = self._extents_arg(shape, "expand's shape")
        return self._tensor_op("expand", (arg,), {"shape": shape}, self._to_shape(
            arg, shape, "expand's shape", lambda build, extents: build.call(
                build.native.expand, build.native_id(arg), extents)))

    def broadcast_in_dim(self, arg, shape=None, broadcast_dims=None, *, output_shape=None):
        # output_shape is the keyword of nvFuser releases before 2023-06.
        if shape is None:
            shape = output_shape
        if shape is None or broadcast_dims is None:
            raise FusionTypeError("broadcast_in_dim needs shape and broadcast_dims")
        arg = self._tensor(arg, "broadcast_in_dim's operand")
        shape = self._extents_arg(shape, "broadcast_in_dim's shape")
        broadcast_dims = self._extents_arg(broadcast_dims, "broadcast_in_dim's broadcast_dims")
        return self._tensor_op(
            "broadcast_in_dim", (arg,), {"shape": shape, "broadcast_dims": broadcast_dims},
            self._to_shape(arg, shape, "broadcast_in_dim's shape", lambda build, extents:
                           build.call(build.native.broadcast_in_dim, build.native_id(arg),
                                      *_keep_operand_extents(build, arg, extents, build.extents(
                                          broadcast_dims, "broadcast_in_dim's broadcast_dims")))))

    def _to_shape(self, arg, shape, what, build_fn):
        """An op that gives `arg` the extents `shape`: in the provisional
        build of a symbolic definition, where placeholder extents disagree
        with the static ones given (or do not multiply out, for a reshape), a
        stand-in of that shape."""
        def build_op(build):
            extents = build.extents(shape, what)
            try:
                return build_fn(build, extents)
            except FusionValueError:
                if not build.tolerates_placeholders():
                    raise
                return build.stand_in(extents, build.tensor_type(arg)[1])
        return build_op

    def permute(self, arg, dims):
        arg = self._tensor(arg, "permute's operand")
        dims = self._extents_arg(dims, "permute's dims")
        return self._tensor_op("permute", (arg,), {"dims": dims}, lambda build: build.call(
            build.native.permute, build.native_id(arg), build.extents(dims, "permute's dims")))

    def stride_order(self, arg, stride_order):
        """nvFuser's stride_order changes the memory layout only, which
        fusions do not model: a fuser.set (checked to be a permutation)."""
        arg = self._tensor(arg, "stride_order's operand")
        order = self._extents_arg(stride_order, "stride_order's stride_order")

        def build_set(build):
            extents = build.extents(order, "stride_order's stride_order")
            if sorted(extents) != list(range(len(build.tensor_type(arg)[0]))):
                raise FusionValueError("stride_order %r is not a permutation of the "
                                       "tensor's dims" % extents)
            return build.call(build.native.set, build.native_id(arg))

        out = self._tensor_op("stride_order", (arg, order), {}, build_set)
        if isinstance(order, list) and all(isinstance(o, int) for o in order):
            # The layout of the output, where the result is one.
            self._fd._layouts[out.index] = order
        return out

    def size(self, arg, dim):
        """An extent: a Python int in a definition without symbolic extents,
        else a Scalar whose value comes with the inputs."""
        arg = self._tensor(arg, "size's operand")
        rank = len(self._fd._type_of(arg)[0])
        if not -rank <= dim < rank:
            raise FusionValueError("size: dim %d is out of range for a tensor of rank %d"
                                   % (dim, rank))
        if not self._fd.is_symbolic():
            return self._fd._type_of(arg)[0][dim]

        def apply(build, out):
            build.define_lazy(out, lambda: build.tensor_type(arg)[0][dim], None)

        return self._record("size", (arg,), {"dim": dim}, apply, result=Scalar)

    def shape(self, arg):
        """The extents: Python ints in a definition without symbolic extents,
        else Scalars (fd.ops.size)."""
        arg = self._tensor(arg, "shape's operand")
        return [self.size(arg, dim) for dim in range(len(self._fd._type_of(arg)[0]))]

    tensor_sizes = shape

    def set(self, arg):
        arg = self._tensor(arg, "set's operand")
        return self._tensor_op("set", (arg,), {}, lambda build: build.call(
            build.native.set, build.native_id(arg)))

    def segment_set(self, arg):
        arg = self._tensor(arg, "segment_set's operand")
        return self._tensor_op("segment_set", (arg,), {}, lambda build: build.call(
            build.native.segment_set, build.native_id(arg)))

    def slice(self, arg, start_indices, end_indices, strides=None,
              manual_normalization=False):
        arg = self._tensor(arg, "slice's operand")
        starts = self._extents_arg(start_indices, "slice's start_indices")
        ends = self._extents_arg(end_indices, "slice's end_indices")
        steps = None if strides is None else self._extents_arg(strides, "slice's strides")
        _check_slice(self._fd, arg, starts, ends, steps)
        kwargs = {"start_indices": starts, "end_indices": ends}
        if steps is not None:
            kwargs["strides"] = steps
        return self._tensor_op("slice", (arg,), kwargs, lambda build: build.call(
            build.native.slice, build.native_id(arg),
            build.extents(starts, "slice's start_indices"),
            build.extents(ends, "slice's end_indices"),
            [] if steps is None else build.extents(steps, "slice's strides")))

    def pad(self, arg, pad_widths, value=None):
        arg = self._tensor(arg, "pad's operand")
        widths = self._extents_arg(pad_widths, "pad's pad_widths")
        value = None if value is None else self._operand(value, "pad's value")
        kwargs = {"pad_widths": widths}
        if value is not None:
            kwargs["value"] = value

        def build_pad(build):
            extents = build.extents(widths, "pad's pad_widths")
            source = build.native_id(arg)
            if any(w < 0 for w in extents):
                # nvFuser's negative widths crop: a slice, then the rest.
                shape = build.tensor_type(arg)[0]
                for dim in range(len(shape)):
                    low_high = extents[2 * (len(shape) - 1 - dim):][:2]
                    resized = shape[dim] + sum(low_high)
                    if resized < 0 and not build.tolerates_placeholders():
                        raise FusionValueError(
                            "Invalid resized domain extent: dim %d of extent %d padded by "
                            "%s is %d" % (dim, shape[dim], low_high, resized))
                starts, ends = [0] * len(shape), list(shape)
                for i, width in enumerate(extents):
                    dim = len(shape) - 1 - i // 2
                    if width < 0 and 0 <= dim < len(shape):
                        if i % 2 == 0:
                            starts[dim] = -width
                        else:
                            ends[dim] = shape[dim] + width
                source = build.call(build.native.slice, source, starts, ends, [])
                extents = [max(w, 0) for w in extents]
            if value is not None:
                _check_pad_value(build, arg, value)
            return build.call(build.native.pad, source, extents,
                              None if value is None else build.operand(value))

        return self._tensor_op("pad", (arg,), kwargs, build_pad)

    def cat(self, tensors, dim=0, manual_padding=False):
        tensors = [self._tensor(t, "cat's tensors[%d]" % i) for i, t in enumerate(tensors)]
        if manual_padding:
            # nvFuser's printed form (repr(fd)): each input padded with zeros
            # to the whole extent by fd.ops.pad, then concatenated in place.
            # The cat of the pads' sources is the same tensor.
            tensors = [self._unpadded(t, i) for i, t in enumerate(tensors)]
        dim = self._extents_arg(dim, "cat's dim")
        return self._tensor_op("cat", (tensors,), {"dim": dim}, lambda build: build.call(
            build.native.cat, [build.native_id(t) for t in tensors],
            build.extents(dim, "cat's dim")[0]))

    def _unpadded(self, tensor, position):
        record = self._fd._records[tensor.index]
        if record.call != "ops.pad":
            raise FusionNotImplementedError(
                "cat(manual_padding=True): tensors[%d] is not the result of fd.ops.pad; "
                "fuser_mlir concatenates the pads' sources" % position)
        return record.args[0]

    # Reductions -------------------------------------------------------------

    def _reduction(self, name, kind, arg, dims, keepdim, dtype, axes):
        arg = self._tensor(arg, "the operand of the reduction")
        if isinstance(dims, DataType):
            # nvfuser_direct's (arg, dtype) form: every dim.
            dims, dtype = None, dims
        if dims is None:
            dims = axes
        if dims is None:
            dims = list(range(len(self._fd._type_of(arg)[0])))
        dims = self._extents_arg(dims, "the reduction's dims")
        if dtype is None or dtype is DataType.Null:
            dtype, dtype_text = DataType.Null, None
        else:
            dtype_text = dtype_name(dtype, "the reduction's dtype")

        def build_fn(build):
            source = build.native_id(arg)
            result = build.call(build.native.reduction, kind, source,
                                build.extents(dims, "the reduction's dims"), bool(keepdim),
                                dtype_text)
            # nvFuser reduces an fp8 tensor in f32 and gives the operand's dtype.
            return result if dtype_text is not None else \
                build.call(_in_operand_dtype, build, source, result)
        return self._tensor_op(
            name, (arg,), {"dims": dims, "keepdim": bool(keepdim), "dtype": dtype}, build_fn)

    def sum(self, arg, dims=None, keepdim=False, dtype=DataType.Null, *, axes=None):
        return self._reduction("sum", "add", arg, dims, keepdim, dtype, axes)

    def prod(self, arg, dims=None, keepdim=False, dtype=DataType.Null, *, axes=None):
        return self._reduction("prod", "mul", arg, dims, keepdim, dtype, axes)

    def max(self, arg, dims=None, keepdim=False, dtype=DataType.Null, *, axes=None):
        return self._reduction("max", "max", arg, dims, keepdim, dtype, axes)

    def min(self, arg, dims=None, keepdim=False, dtype=DataType.Null, *, axes=None):
        return self._reduction("min", "min", arg, dims, keepdim, dtype, axes)

    # Scans: nvFuser's scan along one dim, the result of the operand's type.

    def _scan(self, name, kind, arg, dim, init):
        arg = self._tensor(arg, "the operand of %s" % name)
        dim = self._extents_arg(dim, "%s's dim" % name)
        # nvFuser checks at the call (csrc/ops/arith.cpp scan).
        shape, dtype = self._fd._type_of(arg)[:2]
        if isinstance(dim, int) and not -len(shape) <= dim < len(shape):
            raise FusionValueError("%s: dim %d is out of range for a tensor of rank %d"
                                   % (name, dim, len(shape)))
        if dtype.startswith("complex") and kind != "add":
            raise FusionTypeError("a %s scan of %s: complex elements scan with cumsum only"
                                  % (kind, dtype))
        kwargs = {"dim": dim}
        if init is not None:
            if not isinstance(init, Scalar):
                raise FusionTypeError("%s's init must be a Scalar (nvFuser's binding takes "
                                      "a Val), got %r" % (name, init))
            kwargs["init"] = self._operand(init, "%s's init" % name)

        def build_fn(build):
            source = build.native_id(arg)
            axis = build.extents(dim, "%s's dim" % name)[0]
            if init is None:
                return build.call(build.native.scan, kind, source, axis)
            # The scan starts from init: init put in front along dim, the
            # scan, the first element dropped (the same order of operations
            # as nvFuser's ScanOp from init).
            extents, element = build.tensor_type(arg)
            axis %= len(extents)
            widths = [0] * (2 * len(extents))
            widths[2 * (len(extents) - 1 - axis)] = 1
            start = ("value", build.call(build.native.cast, build.native_id(init), element))
            scanned = build.call(build.native.scan, kind,
                                 build.call(build.native.pad, source, widths, start), axis)
            starts, ends = [0] * len(extents), list(extents)
            starts[axis], ends[axis] = 1, extents[axis] + 1
            return build.call(build.native.slice, scanned, starts, ends, [])
        return self._tensor_op(name, (arg,), kwargs, build_fn)

    def cumsum(self, arg, dim, init=None):
        return self._scan("cumsum", "add", arg, dim, init)

    def cumprod(self, arg, dim, init=None):
        return self._scan("cumprod", "mul", arg, dim, init)

    def cummax(self, arg, dim, init=None):
        return self._scan("cummax", "max", arg, dim, init)

    def cummin(self, arg, dim, init=None):
        return self._scan("cummin", "min", arg, dim, init)

    # Sorting: argsort, and topk as a slice of an argsort and a gather of the
    # values there.

    def _sort_dim(self, name, arg, dim):
        shape = self._fd._type_of(arg)[0]
        rank = max(len(shape), 1)
        if not isinstance(dim, int) or not -rank <= dim < rank:
            # nvFuser's message (its opinfo error samples match it).
            raise FusionValueError(
                "%s: Tried to access out of boundary index %s. total index: %d"
                % (name, dim, len(shape)))
        return dim

    def argsort(self, arg, dim, descending=False, stable=False):
        """The indices that sort `arg` along `dim`; always stable (nvFuser's
        stable=False allows any order of equal elements)."""
        arg = self._tensor(arg, "the operand of argsort")
        dim = self._sort_dim("argsort", arg, dim)
        return self._tensor_op(
            "argsort", (arg,),
            {"dim": dim, "descending": bool(descending), "stable": bool(stable)},
            lambda build: build.call(build.native.argsort, build.native_id(arg), dim,
                                     bool(descending)))

    def topk(self, arg, k, dim=-1, largest=True, sorted=False):
        """(values, indices) of the k largest (or smallest) elements along
        `dim`, in order (nvFuser's sorted=False allows any order)."""
        arg = self._tensor(arg, "the operand of topk")
        dim = self._sort_dim("topk", arg, dim)
        k = self._operand(k, "topk's k")

        def apply(build, outs):
            (count,) = build.extents([k], "topk's k")
            rank = len(build.tensor_type(arg)[0])
            extents = build.tensor_type(arg)[0]
            axis = dim % max(rank, 1)
            extent = extents[axis] if rank else 1
            if count < 0:
                raise FusionValueError("topk: Invalid resized domain extent: k is %d" % count)
            if count > extent and build.provisional:
                # Placeholder extents are not the inputs': k is checked when
                # they concretize the definition.
                count = extent
            elif count > extent:
                raise FusionValueError("topk: selected index k out of range: k is %d, the "
                                       "dim has %d elements" % (count, extent))
            order = build.call(build.native.argsort, build.native_id(arg), dim, bool(largest))
            if rank == 0:
                indices = order
            else:
                ends = list(extents)
                ends[axis] = count
                indices = build.call(build.native.slice, order, [0] * rank, ends, [])
            values = build.call(build.native.gather, build.native_id(arg), indices, axis) \
                if rank else build.native_id(arg)
            build.ids[outs[0].index] = values
            build.ids[outs[1].index] = indices
        return self._record("topk", (arg, k),
                            {"dim": dim, "largest": bool(largest), "sorted": bool(sorted)},
                            apply, extra_outs=1)


    # Statistics: nvFuser's composites, built by the native FusionBuilder in
    # the dialect's two-pass form (docs/Python.md).

    def _statistics_dims(self, arg, dims, name):
        if dims is None:
            dims = list(range(len(self._fd._type_of(arg)[0])))
        return self._extents_arg(dims, "%s's dims" % name)

    def var_mean(self, arg, dims=None, correction=1, keepdim=False):
        """(var, mean) over dims; var divides by max(N - correction, 0)."""
        arg = self._tensor(arg, "the operand of var_mean")
        dims = self._statistics_dims(arg, dims, "var_mean")

        def apply(build, outs):
            ids = build.call(build.native.var_mean, build.native_id(arg),
                             build.extents(dims, "var_mean's dims"), int(correction),
                             bool(keepdim))
            for out, native_id in zip(outs, ids):
                build.ids[out.index] = native_id
        return self._record("var_mean", (arg,),
                            {"dims": dims, "correction": correction, "keepdim": bool(keepdim)},
                            apply, extra_outs=1)

    def var(self, arg, dims=None, correction=1, keepdim=False):
        """The var of var_mean (nvFuser's variance)."""
        arg = self._tensor(arg, "the operand of var")
        dims = self._statistics_dims(arg, dims, "var")
        return self._tensor_op(
            "var", (arg,), {"dims": dims, "correction": correction, "keepdim": bool(keepdim)},
            lambda build: build.call(build.native.var_mean, build.native_id(arg),
                                     build.extents(dims, "var's dims"), int(correction),
                                     bool(keepdim))[0])

    def welford(self, arg, dims):
        """(avg, var_sum, n) over dims: the mean, the sum of squared
        deviations from it, and the element count (int64); avg and var_sum
        of f16, bf16 and fp8 computed in f32 and given in the operand's
        dtype, as nvFuser's."""
        arg = self._tensor(arg, "the operand of welford")
        dims = self._statistics_dims(arg, dims, "welford")

        def apply(build, outs):
            source = build.native_id(arg)
            avg, var_sum, n = build.call(build.native.welford, source,
                                         build.extents(dims, "welford's dims"))
            ids = [build.call(_in_operand_dtype, build, source, result)
                   for result in (avg, var_sum)] + [n]
            for out, native_id in zip(outs, ids):
                build.ids[out.index] = native_id
        return self._record("welford", (arg,), {"dims": dims}, apply, extra_outs=2)

    # Library ops: each runs as a segment of its own, computed by a BLAS call
    # (nvFuser's ExprEval segments; docs/Segmentation.md).

    def _library_op(self, name, operands):
        """matmul, linear or grouped_mm of `operands` (tensors of this
        definition)."""
        def build_fn(build):
            ids = [build.native_id(x) for x in operands]
            try:
                return build.call(getattr(build.native, name), *ids)
            except FusionValueError:
                if not build.tolerates_placeholders():
                    raise
                # Placeholder extents against static ones: a stand-in of the
                # result's shape and dtype.
                shapes = [build.native.value_type(i)[0] for i in ids]
                return build.stand_in(_library_result_shape(name, shapes),
                                      build.native.value_type(ids[0])[1])
        return self._tensor_op(name, tuple(operands), {}, build_fn)

    def matmul(self, arg1, arg2):
        """torch.matmul: 1-D, 2-D and batched operands, batch dims
        broadcast."""
        return self._library_op("matmul", [self._tensor(arg1, "matmul's arg1"),
                                           self._tensor(arg2, "matmul's arg2")])

    def linear(self, arg1, arg2, bias=None):
        """arg1 @ arg2^T + bias (F.linear): arg2 is [N, K], bias [N]."""
        operands = [self._tensor(arg1, "linear's arg1"), self._tensor(arg2, "linear's arg2")]
        if bias is not None:
            operands.append(self._tensor(bias, "linear's bias"))
        return self._library_op("linear", operands)

    def grouped_mm(self, mat1, mat2, offsets, scale1=None, scale2=None, alpha=None,
                   bias=None, beta=None, dtype=None, output_block_scale_size=0,
                   output_block_scale_dtype=None, output_gamma=False):
        """nvFuser's unscaled grouped_mm (torch._grouped_mm): G gemms split by
        the Int32 `offsets` (cumulative group ends) of one dim. [M, K] x
        [G, K, N] -> [M, N] (rows grouped), [G, M, K] x [K, N] -> [M, N]
        (columns grouped), [M, K] x [K, N] -> [G, M, N] (contraction
        grouped); rows (columns) past the last offset are 0. The scaled
        overload (scale1, scale2, alpha, bias, beta, dtype and the output
        block scales) is refused."""
        scaled = [name for name, value in (
            ("scale1", scale1), ("scale2", scale2), ("alpha", alpha), ("bias", bias),
            ("beta", beta), ("dtype", dtype),
            ("output_block_scale_dtype", output_block_scale_dtype)) if value is not None]
        scaled += [name for name, value in (
            ("output_block_scale_size", output_block_scale_size),
            ("output_gamma", output_gamma)) if not isinstance(value, (bool, int)) or value]
        if scaled:
            raise FusionNotImplementedError(
                "grouped_mm's scaled forms (%s) are not modelled by fuser_mlir: only the "
                "unscaled grouped_mm(mat1, mat2, offsets) is" % ", ".join(scaled))
        return self._library_op("grouped_mm", [self._tensor(mat1, "grouped_mm's mat1"),
                                               self._tensor(mat2, "grouped_mm's mat2"),
                                               self._tensor(offsets, "grouped_mm's offsets")])

    def _attention_attribute(self, name, value, what):
        """dropout_p, is_causal or scale of an attention op as given: None, a
        Python number or a Scalar, checked as nvFuser checks them
        (sdpfa_fwd, csrc/ops/composite.cpp): dropout_p and scale real (an
        integer or floating-point Scalar), is_causal a Bool Scalar. The op
        holds the value as an attribute: a Scalar that is not a constant
        (a scalar input, or an expression of inputs) is read when inputs
        concretize the definition (Build.option_value), so each value
        compiles its own fusion."""
        if value is None:
            return None
        if isinstance(value, Scalar):
            value = self._check_own(value, "%s's %s" % (name, what))
            dtype = self._fd._type_of(value)[1]
            if what == "is_causal":
                if dtype != "bool":
                    raise FusionTypeError(
                        "%s: Expected is_causal to be a scalar boolean. (%s is a DataType.%s "
                        "Scalar)" % (name, value.name, DTYPE_NAMES[dtype].name))
            elif dtype == "bool" or dtype.startswith("complex"):
                raise FusionTypeError(
                    "%s: Expected %s to be a real-valued scalar. (%s is a DataType.%s Scalar)"
                    % (name, "dropout" if what == "dropout_p" else what, value.name,
                       DTYPE_NAMES[dtype].name))
            provisional = self._fd._provisional
            if provisional is not None:
                # An op without a Python evaluation on the way: refused now,
                # symbolic extents or not.
                from ._fusion import caller_location
                provisional.location = caller_location()
                provisional.option_inputs(value, "%s's %s" % (name, what))
            return value
        if getattr(value, "shape", None) == () and hasattr(value, "item"):
            value = value.item()
        if isinstance(value, (bool, int, float)):
            return value
        raise FusionTypeError(
            "%s: Expected %s to be a %s. (got %r)"
            % (name, "dropout" if what == "dropout_p" else what,
               "scalar boolean" if what == "is_causal" else "real-valued scalar", value))

    @staticmethod
    def _attention_options(build, name, dropout_p, is_causal, scale):
        """(dropout_p, is_causal, scale) of an attention op for this build:
        the numbers (Build.option_value; nvFuser casts dropout_p and scale
        to Double). Where a value comes with the inputs, the provisional
        build holds nvFuser's defaults (0, not causal, 1/sqrt(E))."""
        p = build.option_value(dropout_p, "%s's dropout_p" % name)
        causal = build.option_value(is_causal, "%s's is_causal" % name)
        scale_value = build.option_value(scale, "%s's scale" % name)
        return (0.0 if p is None else float(p), bool(causal),
                None if scale_value is None else float(scale_value))

    def _attention(self, name, tensors, kwargs, extra_outs, build_fn, stand_ins):
        """An attention op of `tensors` (the native build_fn's operands):
        its several results, stand-ins of stand_ins(types) where
        placeholder extents of a symbolic definition disagree."""
        def apply(build, outs):
            ids = [build.native_id(x) for x in tensors]
            try:
                results = build_fn(build, ids)
            except FusionValueError:
                if not build.tolerates_placeholders():
                    raise
                types = [build.native.value_type(i) for i in ids]
                results = [build.stand_in(shape, dtype) for shape, dtype in stand_ins(types)]
            for out, native_id in zip(outs, results):
                build.ids[out.index] = native_id
        return self._record(name, tuple(tensors[:3 if name == "sdpfa_fwd" else 6]), kwargs,
                            apply, extra_outs=extra_outs)

    def sdpfa_fwd(self, query, key, value, bias=None, mask=None, dropout_p=None,
                  is_causal=None, scale=None):
        """Scaled dot-product flash attention, forward: (output, logsumexp,
        philox_seed, philox_offset). query [N..., H, L, E], key [N..., H, S,
        E], value [N..., H, S, Ev]; scale defaults to 1/sqrt(E). bias (the
        query's dtype) and mask (Bool) have the query's rank, each dim the
        scores' ([N..., H, L, S]) or 1; a dropout_p above 0 draws its
        Philox seed and offset from the generator (_generator.py, as an
        unseeded uniform does) and returns them as philox_seed
        (fuser.sdpfa_fwd). nvFuser's earlier signature, sdpfa_fwd(query,
        key, value, dropout_p, is_causal, scale), which Thunder 0.2.6 and
        older repro scripts call positionally, is taken too: bias and mask
        are tensors, so a scalar (or a Python number) in their places is
        that form's dropout_p and is_causal."""
        if any(x is not None and not isinstance(x, Tensor) for x in (bias, mask)):
            if is_causal is not None or scale is not None:
                raise FusionTypeError(
                    "sdpfa_fwd: a scalar for bias or mask is the earlier signature "
                    "sdpfa_fwd(query, key, value, dropout_p, is_causal, scale), which "
                    "takes no is_causal or scale keyword besides")
            bias, mask, dropout_p, is_causal, scale = None, None, bias, mask, dropout_p
        tensors = [self._tensor(query, "sdpfa_fwd's query"),
                   self._tensor(key, "sdpfa_fwd's key"),
                   self._tensor(value, "sdpfa_fwd's value")]
        extras = {name: self._tensor(t, "sdpfa_fwd's %s" % name)
                  for name, t in (("bias", bias), ("mask", mask)) if t is not None}
        for t in tensors:
            if len(self._fd._type_of(t)[0]) < 4:
                raise FusionValueError(
                    "Expected (query_domain.size())>=(4) . Found %d vs 4."
                    % len(self._fd._type_of(tensors[0])[0]))
        dropout_p = self._attention_attribute("sdpfa_fwd", dropout_p, "dropout_p")
        is_causal = self._attention_attribute("sdpfa_fwd", is_causal, "is_causal")
        scale = self._attention_attribute("sdpfa_fwd", scale, "scale")
        kwargs = dict(extras, dropout_p=dropout_p, is_causal=is_causal, scale=scale)
        tensors += list(extras.values())

        def build_fn(build, ids):
            p, causal, scale_value = self._attention_options(
                build, "sdpfa_fwd", dropout_p, is_causal, scale)
            bias_id = ids[3] if "bias" in extras else None
            mask_id = ids[-1] if "mask" in extras else None
            seed = offset = None
            if p != 0:
                seed, offset = [operand[1] for operand in build.generator_operands()]
            return build.call(build.native.sdpfa_fwd, *ids[:3], bias_id, mask_id, p,
                              causal, scale_value, seed, offset)

        def stand_ins(types):
            (q_shape, dtype), _, (v_shape, _) = types[:3]
            return [(list(q_shape[:-1]) + [v_shape[-1]], dtype),
                    (list(q_shape[:-1]), "float32"), ([2], "int64"), ([], "int64")]
        results = self._attention("sdpfa_fwd", tensors, kwargs, 3, build_fn, stand_ins)
        # The Philox seed and offset are nvFuser's UInt64 (torch >= 2.7):
        # i64 here, of the same bits (FusionDefinition._uint64).
        self._fd._uint64.update(t.index for t in results[2:])
        return results

    def sdpfa_bwd(self, grad_output, query, key, value, output, logsumexp, dropout_p,
                  is_causal, philox_seed, philox_offset, scale):
        """Scaled dot-product flash attention, backward: (grad_query,
        grad_key, grad_value) from sdpfa_fwd's output, logsumexp and Philox
        state: a dropout redraws the forward's mask from philox_seed
        (fuser.sdpfa_bwd)."""
        names = ["grad_output", "query", "key", "value", "output", "logsumexp",
                 "philox_seed", "philox_offset"]
        tensors = [self._tensor(t, "sdpfa_bwd's %s" % n) for t, n in zip(
            [grad_output, query, key, value, output, logsumexp, philox_seed,
             philox_offset], names)]
        dropout_p = self._attention_attribute("sdpfa_bwd", dropout_p, "dropout_p")
        is_causal = self._attention_attribute("sdpfa_bwd", is_causal, "is_causal")
        scale = self._attention_attribute("sdpfa_bwd", scale, "scale")
        kwargs = {"dropout_p": dropout_p, "is_causal": is_causal,
                  "philox_seed": tensors[6], "philox_offset": tensors[7], "scale": scale}

        def build_fn(build, ids):
            p, causal, scale_value = self._attention_options(build, "sdpfa_bwd", dropout_p,
                                                             is_causal, scale)
            return build.call(build.native.sdpfa_bwd, *ids[:6], p, causal, ids[6], ids[7],
                              scale_value)

        def stand_ins(types):
            return [tuple(t) for t in types[1:4]]
        return self._attention("sdpfa_bwd", tensors, kwargs, 2, build_fn, stand_ins)

    # Composites of elementwise ops, as nvFuser builds them.

    def addcmul(self, arg, tensor1, tensor2, value):
        """arg + tensor1 * (tensor2 * value) (nvFuser's addcmul)."""
        return self.add(arg, self.mul(tensor1, self.mul(tensor2, value)))


def _library_result_shape(name, shapes):
    """The result shape of matmul, linear or grouped_mm of operands of
    `shapes`, the larger extent where two that must agree differ
    (placeholders)."""
    if name == "linear":
        return list(shapes[0][:-1]) + [shapes[1][0]]
    if name == "grouped_mm":
        mat1, mat2, offsets = shapes
        if len(mat2) == 3:
            return [mat1[0], mat2[2]]
        if len(mat1) == 3:
            return [mat1[1], mat2[1]]
        return [offsets[0], mat1[0], mat2[-1]]
    lhs, rhs = shapes
    lhs_batch, rhs_batch = list(lhs[:-2]), list(rhs[:-2])
    rank = max(len(lhs_batch), len(rhs_batch))
    lhs_batch = [1] * (rank - len(lhs_batch)) + lhs_batch
    rhs_batch = [1] * (rank - len(rhs_batch)) + rhs_batch
    return [max(x, y) for x, y in zip(lhs_batch, rhs_batch)] + list(lhs[-2:-1]) + \
        (list(rhs[-1:]) if len(rhs) >= 2 else [])


def _keep_operand_extents(build, arg, extents, dims):
    """(extents, dims) of a broadcast_in_dim with each -1 of its shape
    replaced by the operand's extent at the dim that maps there, as nvFuser
    does (Thunder's index_put lowering broadcasts an index to [-1, ...])."""
    if -1 not in extents:
        return extents, dims
    # Negative dims count from the end (FusionBuilder::broadcastInDim).
    dims = [dim + len(extents) if dim < 0 else dim for dim in dims]
    operand = build.tensor_type(arg)[0]
    kept = list(extents)
    for position, extent in enumerate(extents):
        if extent != -1:
            continue
        if position not in dims or dims.index(position) >= len(operand):
            raise FusionValueError(
                "broadcast_in_dim's shape has -1 at output dim %d, which no operand dim "
                "(broadcast_dims %r) maps to: -1 keeps the operand's extent only there"
                % (position, list(dims)))
        kept[position] = operand[dims.index(position)]
    return kept, dims


def _dtype_family(dtype_name):
    """nvFuser's hasSimilarDtype class of a dtype name (numpy's spelling)."""
    if dtype_name.startswith("complex"):
        return "complex"
    if dtype_name == "bool":
        return "boolean"
    if dtype_name.startswith(("int", "uint")):
        return "integral"
    return "floating-point"


def _check_pad_value(build, arg, value):
    """nvFuser's pad refuses a value of another dtype class than the tensor's
    (csrc/ops/alias.cpp, hasSimilarDtype): an int for a Float tensor, a
    complex for a Float one; it would otherwise be cast, silently dropping
    an imaginary part or a fraction."""
    if isinstance(value, Tensor):
        return  # the builder refuses it: the pad value must be a scalar
    tensor_dtype = build.tensor_type(arg)[1]
    if isinstance(value, Scalar):
        value_dtype = build.scalar_dtype(value)
    else:
        value_dtype = "bool" if isinstance(value, bool) else \
            "int64" if isinstance(value, int) else "float64"
    if _dtype_family(tensor_dtype) != _dtype_family(value_dtype):
        raise FusionTypeError("Tensor arg and pad value must have the same dtype. (%s "
                              "tensor, %s value)" % (tensor_dtype, value_dtype))


def _check_slice(fd, arg, starts, ends, steps):
    """What nvFuser's frontend checks of a slice, with its messages: the
    counts, and of constant indices, start >= 0, end >= start, stride 1
    (nvFuser normalizes nothing else a program gives)."""
    def items(values):
        if isinstance(values, (Vector, Scalar)):
            return None
        return list(values) if hasattr(values, "__iter__") else [values]

    start_items, end_items = items(starts), items(ends)
    step_items = None if steps is None else items(steps)
    if start_items is None or end_items is None:
        return
    if step_items is not None and len(start_items) != len(step_items):
        raise FusionValueError("Slice start_indices and strides don't match! Start Indices: %d "
                               "Strides: %d" % (len(start_items), len(step_items)))
    rank = None if fd._provisional is None else len(fd._type_of(arg)[0])
    if rank is not None and rank != len(start_items):
        raise FusionValueError("Number of tensor dimensions does not match slice dimensions! "
                               "(%d vs %d)" % (rank, len(start_items)))
    if len(start_items) != len(end_items):
        raise FusionValueError("Slice indexing attribute dimensions don't match! Start Indices: "
                               "%d End Indices: %d" % (len(start_items), len(end_items)))
    for i, (start, end) in enumerate(zip(start_items, end_items)):
        if isinstance(start, int) and start < 0:
            raise FusionValueError("Slice operation start_indices must be greater than or "
                                   "equal to 0. Start Indices: %d" % start)
        if isinstance(start, int) and isinstance(end, int) and end < start:
            raise FusionValueError("Slice operation end_indices must be greater than or equal "
                                   "to start_indices. Start Indices: %d End Indices: %d"
                                   % (start, end))
        step = 1 if step_items is None else step_items[i]
        if step != 1:
            raise FusionValueError("nvFuser Limitation: All slice operation strides must be of "
                                   "const size 1.")


# Reduced-precision floats: fuser IR computes them in f32 (FusionBuilder's
# promotion), as nvFuser's kernels do, but nvFuser's ops below give their
# result in the operand's dtype.
_REDUCED_FLOATS = ("float16", "bfloat16", "float8_e4m3fn", "float8_e5m2")
# nvFuser's unary ops without a promotion config (NVFUSER_DEFINE_UNARY_OP,
# abs, sign): the result keeps the operand's dtype.
_UNARY_KEEPING_DTYPE = ("abs", "ceil", "floor", "frac", "relu", "round", "sign", "silu",
                        "trunc")


def _in_operand_dtype(build, operand, result_id):
    """result_id cast back to the operand's dtype where the operand (a native
    id, or build.operand's form) is a reduced-precision float that the
    result, computed in f32, is not. Called within build.call, at the op's
    location."""
    if isinstance(operand, tuple):
        operand = operand[1]
    elif not isinstance(operand, int) or isinstance(operand, bool):
        return result_id
    dtype = build.native.value_type(operand)[1]
    if dtype in _REDUCED_FLOATS and build.native.value_type(result_id)[1] != dtype:
        return build.native.cast(result_id, dtype)
    return result_id


def _make_unary(name):
    def op(self, arg):
        if name in _UNARY_KEEPING_DTYPE:
            return self._elementwise(name, [arg], lambda build, x: _in_operand_dtype(
                build, x, build.native.unary(name, x)))
        return self._elementwise(name, [arg], lambda build, x: build.native.unary(name, x))
    op.__name__ = name
    op.__doc__ = "fuser.%s" % name
    return op


def _make_binary(name):
    def op(self, lhs, rhs):
        return self._elementwise(name, [lhs, rhs],
                                 lambda build, l, r: build.native.binary(name, l, r))
    op.__name__ = name
    op.__doc__ = "fuser.%s" % name if name != "truediv" else \
        "fuser.div after integer operands become f32"
    return op


def _make_ternary(name):
    def op(self, first, second, third):
        return self._elementwise(name, [first, second, third],
                                 lambda build, a, b, c: build.native.ternary(name, a, b, c))
    op.__name__ = name
    op.__doc__ = "fuser.%s" % name
    return op


# The elementwise ops of the dialect (ElementwiseOps.def), whose mnemonics
# are nvFuser's Python names, plus nvFuser's truediv.
UNARY_OPS, BINARY_OPS, TERNARY_OPS = _native.elementwise_ops()
for _name in UNARY_OPS:
    setattr(Ops, _name, _make_unary(_name))
for _name in BINARY_OPS + ["truediv"]:
    setattr(Ops, _name, _make_binary(_name))
for _name in TERNARY_OPS:
    setattr(Ops, _name, _make_ternary(_name))
