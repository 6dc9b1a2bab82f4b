"""One build of a FusionDefinition into fuser IR (a native Fusion).

A definition is a list of records (_fusion.py); a build replays them with
the input shapes and the values of the scalar inputs that decide shapes. The
provisional build, made while the user defines, gives every symbolic extent
and size scalar the placeholder PLACEHOLDER_EXTENT, so that dtypes, ranks and
most errors are known at the call; concretization builds again with the
inputs' values, which gives the static IR the passes see.

A scalar has two forms, each made when first asked for: its Python value
(constants, extents, sizes and integer arithmetic on them: what shapes are
made of) and its IR value (what a tensor op consumes). Asking for the value
of a scalar input marks it as deciding shapes, which puts its value in the
cache key.
"""

import math
import operator

from . import _fuser_mlir as _native
from ._errors import (FusionNotImplementedError, FusionTypeError, FusionValueError,
                      translate)
from ._states import Scalar, Tensor, Vector

__all__ = ["Build", "PLACEHOLDER_EXTENT", "int64_list"]

# An extent the provisional build assumes for -1: not 1 (a broadcast).
PLACEHOLDER_EXTENT = 2

_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1


def int64_list(values, what, shown=None):
    """A list of int64s (extents, dims, widths): an int alone is a list of
    one; floats, strings, ints beyond int64 and the like are refused (a
    TypeError), not truncated. `shown`
    is what the message names (the argument as given)."""
    try:
        items = [operator.index(values)] if not hasattr(values, "__iter__") \
            else [operator.index(v) for v in values]
    except TypeError:
        raise FusionTypeError("%s must be an integer or a list of integers, got %r"
                              % (what, values if shown is None else shown)) from None
    for item in items:
        if not _INT64_MIN <= item <= _INT64_MAX:
            # A TypeError, as nvFuser's bindings refuse the argument
            # ("incompatible function arguments").
            raise FusionTypeError("%s: %d does not fit in 64 bits" % (what, item))
    return items


def _trunc_div(lhs, rhs):
    if rhs == 0:
        raise FusionValueError("division by zero in an extent")
    quotient = abs(lhs) // abs(rhs)
    return quotient if (lhs < 0) == (rhs < 0) else -quotient


def _trunc_mod(lhs, rhs):
    return lhs - rhs * _trunc_div(lhs, rhs)


# Scalar ops on Python values, with C++'s integer semantics (nvFuser computes
# extents in int64).
PYTHON_SCALAR_OPS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul,
    "div": lambda a, b: _trunc_div(a, b) if isinstance(a, int) and isinstance(b, int) else a / b,
    "fmod": _trunc_mod, "mod": _trunc_mod,
    "maximum": max, "minimum": min,
    "ceilDiv": lambda a, b: -_trunc_div(-a, b),
    "neg": operator.neg, "abs": abs,
    # A size computed from scalars (nvFuser's test_reshape_dynamic): float
    # math as nvFuser's Double scalars, comparisons and Bool logic.
    "reciprocal": lambda a: 1.0 / a, "truediv": lambda a, b: a / b,
    "signbit": lambda a: math.copysign(1.0, a) < 0,
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
    "gt": operator.gt, "ge": operator.ge,
    "bitwise_and": operator.and_, "bitwise_or": operator.or_, "bitwise_xor": operator.xor,
    "logical_and": lambda a, b: bool(a) and bool(b), "logical_or": lambda a, b: bool(a) or bool(b),
    "logical_not": lambda a: not a,
    # An attention op's scale from a head size (1 / sqrt(E)).
    "sqrt": math.sqrt, "rsqrt": lambda a: 1.0 / math.sqrt(a),
}


class Build:
    """The IR of one definition for one input signature."""

    def __init__(self, fd, shapes, scalar_values):
        """`shapes`: input position -> the extents of that tensor input;
        `scalar_values`: input position -> the value of that scalar or vector
        input; None for the provisional build."""
        self.fd = fd
        self.native = _native.Fusion(fd._name)
        self.provisional = shapes is None
        self.shapes = shapes
        self.scalar_values = scalar_values
        self.ids = {}      # state index -> native value id
        self.values = {}   # state index -> Python value of a scalar
        self.lazy = {}     # state index -> (python_fn, native_fn, location)
        self.vectors = {}  # state index -> list of elements (ints or Scalars)
        self.location = ("<unknown>", 0)  # of the record being built
        # The generator's seed and offset inputs (random ops without
        # rng_seed/rng_offset): their native ids, their position among the
        # native inputs, and how many ops draw from them.
        self.generator_ids = None
        self.generator_position = None
        self.generator_draws = 0
        # Output state index -> how a row-major torch input becomes that
        # output as a view of it (FusionDefinition._input_view), once known.
        self.torch_views = {}
        # The bytes of the inputs a run of it is given, once known (execute).
        self.input_bytes = None

    # Calls into the native builder -----------------------------------------

    def call(self, fn, *args):
        """fn(*args) of the native builder, located at the current record."""
        self.native.set_location(*self.location)
        try:
            return fn(*args)
        except (TypeError, ValueError, RuntimeError) as error:
            raise translate(error) from None

    def tensor_type(self, tensor):
        return self.native.value_type(self.ids[tensor.index])

    def tolerates_placeholders(self):
        """Whether an op that fails here may fail only for its placeholder
        extents: the provisional build of a symbolic definition."""
        return self.provisional and self.fd.is_symbolic()

    def stand_in(self, extents, dtype):
        """A provisional value of that type where the op itself cannot be
        built with placeholder extents."""
        fill = False if dtype == "bool" else 0
        return self.call(self.native.full, [max(e, 0) for e in extents], fill, dtype)

    def with_common_shape(self, tensors, build_fn):
        """build_fn(self) with each of `tensors` replaced by a stand-in of
        its dtype and the largest extent of every (right-aligned) dim."""
        shapes = [self.tensor_type(t)[0] for t in tensors]
        rank = max(len(shape) for shape in shapes)
        common = [max([shape[d - rank + len(shape)] for shape in shapes
                       if d - rank + len(shape) >= 0]) for d in range(rank)]
        saved = {t.index: self.ids[t.index] for t in tensors}
        try:
            for t in tensors:
                shape = self.tensor_type(t)[0]
                self.ids[t.index] = self.stand_in(common[rank - len(shape):],
                                                  self.tensor_type(t)[1])
            return build_fn(self)
        finally:
            self.ids.update(saved)

    def check_broadcasts(self, name, operands, out):
        """nvFuser's rule for symbolic extents: a -1 extent is never a
        broadcast, even where it is 1 at run time. Fuser ops broadcast every
        size-1 dim, so a concrete build checks that each operand dim it
        broadcasts was 1 in the provisional build too (a static 1: a
        broadcast dim)."""
        provisional = self.fd._provisional
        if self.provisional or provisional is None:
            return
        result = self.tensor_type(out)[0]
        for operand in operands:
            concrete = self.tensor_type(operand)[0]
            placeholder = provisional.tensor_type(operand)[0]
            offset = len(result) - len(concrete)
            for dim, extent in enumerate(concrete):
                if extent == 1 and result[offset + dim] != 1 and placeholder[dim] != 1:
                    raise FusionValueError(
                        "%s:%d: '%s' cannot broadcast dim %d of %s: its extent is symbolic "
                        "(-1), 1 in these inputs, %d in the result; nvFuser broadcasts only "
                        "dims defined as 1 or made by broadcast ops"
                        % (self.location + (name, dim, operand.name, result[offset + dim])))

    # Scalars ------------------------------------------------------------------

    def generator_operands(self):
        """The seed and Philox offset of the next random op without
        rng_seed and rng_offset: two int64 scalar inputs of the function,
        added at the first such op (the generator's state, which execute
        passes: _generator.py), the k-th op's offset being the offset input
        plus k."""
        if self.generator_ids is None:
            self.generator_position = len(self.native.input_types())
            self.generator_ids = (self.call(self.native.define_input, None, "int64"),
                                  self.call(self.native.define_input, None, "int64"))
        seed, offset = self.generator_ids
        if self.generator_draws:
            offset = self.call(self.native.binary, "add", ("value", offset),
                               self.generator_draws)
        self.generator_draws += 1
        return ("value", seed), ("value", offset)

    def define_scalar_input(self, scalar, position):
        self.ids[scalar.index] = self.call(self.native.define_input, None,
                                           self.fd._scalar_dtypes[position])
        self.lazy[scalar.index] = (lambda: self.scalar_input_value(position), None,
                                   self.location)

    def define_lazy(self, scalar, python_fn, native_fn):
        """A scalar whose Python value (python_fn, or None where it has none)
        and IR value (native_fn; None: an int64 constant of its value) are
        made when first asked for."""
        self.lazy[scalar.index] = (python_fn, native_fn, self.location)

    def scalar_input_value(self, position):
        self.fd._shape_inputs.add(position)
        if self.provisional:
            if self.fd._scalar_dtypes[position] not in ("int64", "int32"):
                raise FusionTypeError("scalar input %d is a %s; an extent is an integer"
                                      % (position, self.fd._scalar_dtypes[position]))
            return PLACEHOLDER_EXTENT
        return self.scalar_values[position]

    def value(self, item):
        """The Python value of a scalar operand (an int or float, a Scalar)."""
        if not isinstance(item, Scalar):
            return item
        if item.index not in self.values:
            python_fn, _, _ = self.lazy[item.index]
            if python_fn is None:
                raise FusionTypeError("%s is not known before the fusion runs, so it cannot "
                                      "be an extent" % item.name)
            self.values[item.index] = python_fn()
        return self.values[item.index]

    def option_value(self, item, what):
        """The Python value of an op's attribute given as a number or a
        Scalar (sdpfa's dropout_p, is_causal and scale, which fuser ops hold
        as attributes). A Scalar made of constants, extents and scalar
        inputs with the ops PYTHON_SCALAR_OPS evaluates has its value in a
        concrete build; the scalar inputs it reads decide the compiled
        fusion, as extents do (their values are in the cache key). The
        provisional build marks those inputs and gives None (the value
        comes with the inputs), or the value where no input is read."""
        if not isinstance(item, Scalar):
            return item
        if not self.provisional:
            return self.value(item)
        read = self.option_inputs(item, what)
        if not read:
            return self.value(item)
        self.fd._shape_inputs.update(read)
        return None

    def option_inputs(self, item, what):
        """The positions of the scalar inputs an attribute's Scalar reads;
        FusionNotImplementedError where an op on the way has no Python
        evaluation (`what` names the attribute)."""
        inputs = {handle.index: position for position, handle in enumerate(self.fd._inputs)
                  if isinstance(handle, Scalar)}
        read, seen, stack = [], set(), [item]
        while stack:
            scalar = stack.pop()
            if scalar.index in seen:
                continue
            seen.add(scalar.index)
            if scalar.index in inputs:
                read.append(inputs[scalar.index])
                continue
            lazy = self.lazy.get(scalar.index)
            record = self.fd._records[scalar.index]
            if lazy is not None and lazy[0] is None:
                raise FusionNotImplementedError(
                    "%s:%d: %s %s is computed by %s, which fuser_mlir does not evaluate "
                    "before the fusion runs: the op holds it as an attribute, known when "
                    "inputs concretize the definition (a number, a scalar input, or +, -, *, "
                    "/, sqrt, comparisons and casts of them)"
                    % (self.location + (what, item.name, (record.call or "?").replace(
                        "ops.", "fd.ops."))))
            stack.extend(value for value in list(record.args) + list(record.kwargs.values())
                         if isinstance(value, Scalar))
        return read

    def operand(self, item):
        """A tensor-op operand: ("value", id) or a Python number (a complex
        one as a constant: the native builder takes real numbers)."""
        if isinstance(item, (Tensor, Scalar)):
            return ("value", self.native_id(item))
        if isinstance(item, complex):
            return ("value", self.complex_constant(item))
        return item

    def complex_constant(self, value, part="float64"):
        """A complex constant: fuser.complex of its two parts, of dtype
        `part` (float64: a complex128)."""
        re = self.call(self.native.define_constant, value.real, part)
        im = self.call(self.native.define_constant, value.imag, part)
        return self.call(self.native.complex, ("value", re), ("value", im))

    def native_id(self, item):
        if item.index not in self.ids:
            _, native_fn, location = self.lazy[item.index]
            current, self.location = self.location, location
            try:
                if native_fn is None:
                    # An extent: an int64 constant of its value.
                    self.ids[item.index] = self.call(self.native.define_constant,
                                                     self.value(item), "int64")
                else:
                    self.ids[item.index] = self.call(native_fn)
            finally:
                self.location = current
        return self.ids[item.index]

    def scalar_dtype(self, scalar):
        if scalar.index in self.ids or self.lazy[scalar.index][1] is not None:
            return self.native.value_type(self.native_id(scalar))[1]
        return "int64"

    # Shapes ---------------------------------------------------------------------

    def extents(self, values, what):
        """A list of int64s from ints, Scalars and Vectors (a shape, dims,
        widths): an int or Scalar alone is a list of one; floats, strings and
        the like are refused, not truncated (a Scalar computed in floating
        point is truncated, as nvFuser casts an extent to Index)."""
        if isinstance(values, Vector):
            items = self.vector(values)
        elif isinstance(values, (Scalar, int)) or not hasattr(values, "__iter__"):
            items = [values]
        else:
            items = []
            for value in values:
                items.extend(self.vector(value) if isinstance(value, Vector) else [value])
        return int64_list([self._whole(item) for item in items], what, shown=values)

    def _whole(self, item):
        value = self.value(item)
        if isinstance(item, Scalar) and isinstance(value, float) and math.isfinite(value):
            return int(value)
        return value

    def vector(self, vector):
        if vector.index in self.vectors:
            return self.vectors[vector.index]
        position = self.fd._vector_inputs[vector.index]
        self.fd._shape_inputs.add(position)
        if self.provisional:
            return [PLACEHOLDER_EXTENT] * vector.length
        return list(self.scalar_values[position])
