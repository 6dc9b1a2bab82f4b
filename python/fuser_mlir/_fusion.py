"""nvFuser's FusionDefinition over fuser IR (docs/Python.md).

A definition records what the program asks for, one record per call, as
nvFuser's FusionState does; every `fd.ops.*` call builds what nvFuser builds
for it, through the C++ FusionBuilder, one fuser op per nvFuser op (nothing is
simplified here: `fd.preseg()` does that). Records are built at once into the
provisional IR (_build.py) and again, with real extents, for every input
signature that `execute` sees; each signature's fusion is compiled once and
cached (_cache.py).
"""

import os
import sys
import threading
import time

from . import _arrays, _generator, _tolerances
from . import _fuser_mlir as _native
from ._build import PLACEHOLDER_EXTENT, Build, int64_list
from ._cache import FusionCache, definition_key, measured_compile, text_key
from ._errors import (FusionError, FusionMemoryError, FusionNotImplementedError,
                      FusionTypeError, FusionValueError, translate)
from ._nvfuser_repr import fusion_outputs
from ._ops import Ops
from ._printer import format_definition, format_repro_script
from ._states import (DTYPE_NAMES, DataType, Scalar, Tensor, UnsupportedDTypeError, Vector,
                      dtype_name)

__all__ = ["FusionDefinition", "Segment"]

# Guards the definitions' lists of concretized builds against executes on
# several threads.
_CONCRETIZED_LOCK = threading.Lock()

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def caller_location():
    """The first frame outside this package: the script line of the call."""
    frame = sys._getframe(1)
    while frame is not None and \
            os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame = frame.f_back
    if frame is None:
        return "<unknown>", 0
    return frame.f_code.co_filename, frame.f_lineno


class Record:
    """One call of a definition: what `repr(fd)` prints and every build
    replays."""
    __slots__ = ("out", "call", "args", "kwargs", "location", "apply", "extra_outs")

    def __init__(self, out, call, args, kwargs, location, apply, extra_outs=()):
        self.out, self.call, self.args, self.kwargs = out, call, args, kwargs
        self.location, self.apply = location, apply
        # The further results of a call with several (var_mean, welford):
        # each has a record of its own with call None, so that state
        # indices stay record indices.
        self.extra_outs = extra_outs


class Segment:
    """One segment of a segmented fusion (the fuser-segment-report data)."""

    def __init__(self, index, data):
        self.index = index
        self.kind = data["kind"]
        self.kernels = data["kernels"]
        self.bytes_read = data["bytes_read"]
        self.bytes_written = data["bytes_written"]
        self.inputs = [_describe(t, b) for t, b in data["inputs"]]
        self.outputs = [_describe(t, b) for t, b in data["outputs"]]

    def __repr__(self):
        return ("Segment(#%d %s, kernels=%d, bytes_read=%s, bytes_written=%s, "
                "inputs=%s, outputs=%s)" % (
                    self.index, self.kind, self.kernels, self.bytes_read,
                    self.bytes_written, self.inputs, self.outputs))


def _describe(type_info, byte_count):
    shape, dtype = type_info
    return {"shape": None if shape is None else tuple(shape),
            "dtype": DTYPE_NAMES[dtype], "bytes": byte_count}


# Called with every FusionDefinition whose definition is complete
# (nvfuser_compat collects them).
definition_hook = None
# Set when a `with` block or definition() ends in an exception: the error
# happened while building a fusion (nvfuser_compat tells it from errors
# after the fusions were built).
definition_failed = False

# execute()'s keyword arguments of nvFuser's two APIs that change nothing
# here (docs/Python.md says why for each).
_IGNORED_EXECUTE_OPTIONS = frozenset([
    "device", "override_user_schedule", "capture_debug_output", "print_repro",
    "profile", "save_repro_inputs", "_enable_options", "_disable_options",
    "auto_schedule", "is_cpu",
])


class FusionDefinition:
    """nvFuser's FusionDefinition: `with FusionDefinition() as fd: ...`, or a
    subclass that overrides definition()."""

    # What repr(fd) names the definition and its module (nvfuser_direct
    # overrides both).
    _function_name = "nvfuser_fusion_id0"
    _module_name = "nvfuser"
    # The handle classes of this API (nvfuser_direct's Tensor has dtype()).
    _state_classes = {}

    def __init__(self, *args, name="fusion", **kwargs):
        self._name = name
        self._records = []
        self._inputs = []          # input handles, in definition order
        self._input_specs = {}     # position -> (extents, dtype) of a tensor input
        self._scalar_dtypes = {}   # position -> dtype of a scalar input
        self._vector_inputs = {}   # vector state index -> input position
        self._shape_inputs = set()  # positions of inputs whose values decide shapes
        self._outputs = []         # (handle, stride_order, alias input position)
        self._layouts = {}         # tensor state index -> stride_order (fd.ops.stride_order)
        # State indices of the UInt64 tensors: inputs defined so and
        # sdpfa_fwd's Philox seed and offset. fuser IR has no unsigned
        # integers: they are i64 of the same bits, used only as sdpfa_bwd's
        # philox operands and as outputs (returned as uint64).
        self._uint64 = set()
        self._symbolic_extents = False
        self._provisional = None
        self._provisional_error = None
        self._started = False
        self._complete = False
        self._concretized = []     # the builds execute ran, in order (the runner prints them)
        self._concretized_ids = set()  # their ids (they stay alive in the list)
        self._last_build = None    # the build the last execute ran
        self._key = None           # the cache key, once the definition is finished
        self._plan = None          # what execute checks per input, once finished
        self.ops = Ops(self)

    # Construction -----------------------------------------------------------

    def __enter__(self):
        if self._started:
            raise FusionError("this FusionDefinition is already defined")
        self._started = True
        self._provisional = Build(self, None, None)
        return self

    def __exit__(self, exc_type, exc, traceback):
        global definition_failed
        if exc_type is None:
            self._finish()
        else:
            definition_failed = True
        return False

    def definition(self):
        """Overridden by subclasses: builds the fusion with self.define_* and
        self.ops.*."""
        raise NotImplementedError(
            "define the fusion in a `with FusionDefinition() as fd:` block or "
            "override definition() in a subclass")

    def _finish(self):
        self._complete = True
        if definition_hook is not None:
            definition_hook(self)

    def _ensure_defined(self):
        if not self._started:
            if type(self).definition is FusionDefinition.definition:
                raise FusionNotImplementedError(
                    "Fusion does not exist! Use `with FusionDefinition() as fd: ...` to "
                    "define a fusion. (this FusionDefinition has no fusion yet: define it "
                    "in a `with` block or override definition())")
            with self:
                self.definition()

    def _record(self, out_kind, call, args, kwargs, apply, out_args=(), extra_outs=0):
        """Records one call and builds it into the provisional IR. apply(build,
        out) builds it into any build; out_kind makes its result handle. With
        extra_outs, the call has that many more results of out_kind: out is
        then the tuple of all of them, for apply and for the caller."""
        location = caller_location()
        if not self._started:
            raise FusionError("fusion ops are called inside `with FusionDefinition() "
                              "as fd:` or definition()")
        if self._complete:
            raise FusionError("this FusionDefinition is complete (its `with` block or "
                              "definition() has ended, or it came from a pipeline)")
        if self._uint64:
            _check_uint64_uses(self._uint64, call, args, kwargs, location)
        self._key = self._plan = None  # the definition changes
        index = len(self._records)
        out_kind = self._state_classes.get(out_kind, out_kind)
        out = None if out_kind is None else out_kind(self, index, *out_args)
        record = Record(out, call, args, kwargs, location, apply)
        self._records.append(record)
        if extra_outs:
            extras = tuple(out_kind(self, index + 1 + k) for k in range(extra_outs))
            record.extra_outs = extras
            for extra in extras:
                self._records.append(Record(extra, None, (out,), {}, location,
                                            lambda build, out: None))
            primary_apply = apply
            apply = lambda build, first: primary_apply(build, (first,) + extras)
            record.apply = apply
            out = (out,) + extras
        if self._provisional is not None:
            try:
                self._provisional.location = location
                apply(self._provisional, record.out)
            except FusionError as error:
                # A dtype error does not depend on extents: raised at once,
                # as nvFuser raises it, symbolic extents or not.
                if not self.is_symbolic() or isinstance(error, FusionTypeError):
                    del self._records[index:]
                    raise
                # Placeholder extents may disagree where real ones agree: the
                # error, if real, comes again when inputs concretize it.
                self._provisional, self._provisional_error = None, error
        return out

    def _fusion_outputs(self):
        """The outputs as nvFuser's Fusion lists them: an output also
        written into an input once (_nvfuser_repr.fusion_outputs)."""
        return [out for out, _, _ in fusion_outputs(
            [(handle, None if alias is None else self._inputs[alias])
             for handle, _, alias in self._outputs])]

    def _type_of(self, state):
        """(extents or None, dtype) of a Tensor or Scalar; extents of a
        symbolic definition are placeholders (only their count is real)."""
        if self._provisional is None:
            raise FusionError("the type of %s is known once inputs concretize this "
                              "definition (%s)" % (state.name, self._provisional_error))
        if isinstance(state, Tensor):
            shape, dtype = self._provisional.tensor_type(state)
            return tuple(shape), "uint64" if state.index in self._uint64 else dtype
        return None, self._provisional.scalar_dtype(state)

    def is_symbolic(self):
        """Whether extents are known only with the inputs: a -1 extent, a
        vector input, or a scalar input used as an extent."""
        return self._symbolic_extents or bool(self._vector_inputs) or bool(self._shape_inputs)

    def define_tensor(self, shape=None, contiguity=None, dtype=DataType.Float,
                      is_cpu=False, stride_order=None, *, sizes=None, strides=None,
                      symbolic_sizes=None, contiguous=None, static_sizes=False):
        """nvFuser's define_tensor: (shape, contiguity, dtype, is_cpu,
        stride_order), (sizes, strides, dtype, static_sizes), or the 2023
        keyword names (symbolic_sizes, contiguous) of shape and contiguity.
        -1 is a symbolic extent, 1 a broadcast. As nvFuser's, sizes with
        strides define the tensor as from_pytorch does: extents symbolic
        unless static_sizes (size-1 dims broadcast), contiguity and
        stride_order those of the strides. The memory layout (contiguity,
        strides, stride_order) is checked but not modeled: tensors are
        logical values, and inputs of any layout are accepted."""
        given = [name for name, value in (("shape", shape), ("sizes", sizes),
                                          ("symbolic_sizes", symbolic_sizes))
                 if value is not None]
        if len(given) > 1:
            raise FusionTypeError("define_tensor takes one of shape, sizes and symbolic_sizes, "
                                  "got %s" % " and ".join(given))
        if contiguous is not None:
            if contiguity is not None:
                raise FusionTypeError("define_tensor takes contiguity or contiguous (its "
                                      "2023 name), not both")
            contiguity = contiguous
        if shape is None:
            shape = sizes if sizes is not None else symbolic_sizes
        if shape is None:
            raise FusionTypeError("define_tensor needs shape (or sizes)")
        extents = int64_list(shape, "define_tensor's shape")
        rank = len(extents)
        for extent in extents:
            if extent < -1:
                raise FusionValueError("extent %d is negative: extents are sizes (>= 0), "
                                       "or -1 for a symbolic one" % extent)
        if contiguity is not None and not isinstance(contiguity, bool) \
                and len(contiguity) != rank:
            raise FusionValueError("define_tensor's contiguity has %d entries for a tensor "
                                   "of rank %d" % (len(contiguity), rank))
        if strides is not None and len(strides) != rank:
            raise FusionValueError("define_tensor's strides has %d entries for a tensor of "
                                   "rank %d" % (len(strides), rank))
        if sizes is not None and strides is not None:
            contiguity, stride_order = tensor_descriptor(
                extents, int64_list(strides, "define_tensor's strides"))
            extents = [1 if e == 1 else (e if static_sizes else -1) for e in extents]
        if stride_order is not None and sorted(stride_order) != list(range(rank)):
            raise FusionValueError("define_tensor's stride_order %r is not a permutation of "
                                   "the %d dims" % (list(stride_order), rank))
        if dtype is DataType.UInt64:
            # sdpfa's Philox state (_check_uint64_uses): i64 of the same bits.
            dtype_text, native_dtype = "uint64", "int64"
        else:
            dtype_text = native_dtype = dtype_name(dtype, "define_tensor's dtype")
        position = len(self._inputs)
        kwargs = {"shape": extents}
        if contiguity is not None:
            kwargs["contiguity"] = contiguity if isinstance(contiguity, bool) \
                else list(contiguity)
        kwargs["dtype"] = dtype
        kwargs["is_cpu"] = bool(is_cpu)
        if stride_order is not None:
            kwargs["stride_order"] = list(stride_order)

        def apply(build, out):
            shape = extents if build.shapes is None else build.shapes[position]
            shape = [PLACEHOLDER_EXTENT if e == -1 else e for e in shape]
            build.ids[out.index] = build.call(build.native.define_input, shape, native_dtype)

        tensor = self._record(Tensor, "define_tensor", (), kwargs, apply)
        if dtype_text == "uint64":
            self._uint64.add(tensor.index)
        self._inputs.append(tensor)
        self._input_specs[position] = (extents, dtype_text)
        self._symbolic_extents |= -1 in extents
        return tensor

    def define_scalar(self, value=None, dtype=None):
        """A constant (with a value) or a scalar input of the fusion (no value,
        or a DataType as the only argument)."""
        if isinstance(value, DataType) and dtype is None:
            value, dtype = None, value
        if value is None:
            dtype = DataType.Double if dtype is None else dtype
            dtype_text = dtype_name(dtype, "define_scalar's dtype")
            position = len(self._inputs)
            self._scalar_dtypes[position] = dtype_text

            def apply_input(build, out):
                build.define_scalar_input(out, position)

            scalar = self._record(Scalar, "define_scalar", (None,), {"dtype": dtype},
                                  apply_input)
            self._inputs.append(scalar)
            return scalar
        if hasattr(value, "item") and getattr(value, "shape", None) == ():
            value = value.item()
        if isinstance(value, complex):
            return self._define_complex_constant(value, dtype)
        if not isinstance(value, (bool, int, float)):
            raise FusionTypeError("define_scalar's value must be a Python number")
        if dtype is None:
            dtype = DataType.Bool if isinstance(value, bool) else \
                DataType.Int if isinstance(value, int) else DataType.Double
        dtype_text = dtype_name(dtype, "define_scalar's dtype")

        def apply_constant(build, out):
            build.ids[out.index] = build.call(build.native.define_constant, value, dtype_text)
            build.values[out.index] = value

        return self._record(Scalar, "define_scalar", (value,), {"dtype": dtype},
                            apply_constant)

    define_constant = define_scalar

    def _define_complex_constant(self, value, dtype):
        """A complex constant: fuser.complex of its two parts."""
        dtype = DataType.ComplexDouble if dtype is None else dtype
        dtype_text = dtype_name(dtype, "define_scalar's dtype")
        if dtype_text not in ("complex64", "complex128"):
            raise FusionTypeError("define_scalar: the complex value %r needs a complex "
                                  "dtype, not %r" % (value, dtype))
        part = "float32" if dtype_text == "complex64" else "float64"

        def apply_constant(build, out):
            build.ids[out.index] = build.complex_constant(value, part)
            build.values[out.index] = value

        return self._record(Scalar, "define_scalar", (value,), {"dtype": dtype},
                            apply_constant)

    def define_vector(self, values, dtype=DataType.Int):
        """A vector of extents: of ints and Scalars, or, given a length, a
        vector input (its values come with the inputs and decide shapes)."""
        if isinstance(values, int) and not isinstance(values, bool):
            if values < 0:
                raise FusionValueError("define_vector's length %d is negative" % values)
            position = len(self._inputs)

            def apply_input(build, out):
                pass

            vector = self._record(Vector, "define_vector", (values,), {"dtype": dtype},
                                  apply_input, out_args=(None, values))
            self._vector_inputs[vector.index] = position
            self._inputs.append(vector)
            return vector
        if isinstance(values, Vector):
            return values
        elements = list(values)
        for element in elements:
            if not isinstance(element, (int, Scalar)) or isinstance(element, bool):
                raise FusionTypeError("define_vector's values must be ints or Scalars, got %r"
                                      % (element,))

        def apply_elements(build, out):
            build.vectors[out.index] = elements

        return self._record(Vector, "define_vector", (elements,), {"dtype": dtype},
                            apply_elements, out_args=(elements, len(elements)))

    def add_output(self, output, stride_order=None, alias_input=None):
        """A fusion output. nvFuser's add_output(output, alias_input) writes
        the output into that input (in place: it is not returned); with
        stride_order the returned tensor has that memory layout."""
        if isinstance(stride_order, Tensor) and alias_input is None:
            stride_order, alias_input = None, stride_order
        self.ops._tensor(output, "add_output's output")
        alias_position = None
        if alias_input is not None:
            if not isinstance(alias_input, Tensor) or \
                    not any(alias_input is t for t in self._inputs):
                raise FusionValueError("add_output's alias_input must be a tensor input of "
                                       "this definition, got %r" % (alias_input,))
            alias_position = next(p for p, t in enumerate(self._inputs) if t is alias_input)
        if stride_order is not None:
            stride_order = int64_list(stride_order, "add_output's stride_order")
        args = (output,) if alias_input is None else (output, alias_input)
        kwargs = {} if stride_order is None else {"stride_order": stride_order}

        def apply(build, out):
            if stride_order is not None and \
                    sorted(stride_order) != list(range(len(build.tensor_type(output)[0]))):
                raise FusionValueError("add_output's stride_order %r is not a permutation "
                                       "of the output's dims" % (stride_order,))
            if alias_input is not None and \
                    build.tensor_type(output) != build.tensor_type(alias_input):
                raise FusionValueError(
                    "%s:%d: add_output: output %s of type %s cannot be written into input %s "
                    "of type %s" % (build.location + (
                        output.name, _tensor_type_text(build.tensor_type(output)),
                        alias_input.name, _tensor_type_text(build.tensor_type(alias_input)))))
            build.call(build.native.add_output, build.ids[output.index])

        self._record(None, "add_output", args, kwargs, apply)
        self._outputs.append((output, stride_order, alias_position))

    def from_pytorch(self, tensor, static_sizes=False):
        """An input defined like `tensor` (a torch tensor or numpy array):
        its dtype, rank, contiguity and stride order; extents symbolic (-1)
        unless static_sizes, size-1 dims broadcast."""
        array = _arrays.as_numpy(tensor) if _arrays.is_torch(tensor) else tensor
        dtype = DTYPE_NAMES.get(getattr(getattr(array, "dtype", None), "name", None))
        if dtype is None:
            raise FusionTypeError("from_pytorch takes a tensor of a supported dtype, got %r"
                                  % (type(tensor).__name__,))
        shape = list(array.shape)
        sizes = [1 if e == 1 else (e if static_sizes else -1) for e in shape]
        stride_order = _arrays.stride_order_of(array)
        return self.define_tensor(shape=sizes, contiguity=contiguity_of(array, stride_order),
                                  dtype=dtype, is_cpu=False, stride_order=stride_order)

    # What nvFuser prints ----------------------------------------------------

    def __repr__(self):
        self._ensure_defined()
        return format_definition(self._function_name, self._records)

    __str__ = __repr__

    def _recorded_text(self):
        """The definition as the calls it recorded (T0/S1 names): what the
        legacy module's repr prints and FusionCache.serialize writes; it
        builds the same definition again on either API."""
        self._ensure_defined()
        return format_definition(self._function_name, self._records)

    def repro_script_for(self, inputs):
        """A complete runnable script: this definition, inputs like `inputs`
        and the execute call (nvFuser's repro_script_for)."""
        self._ensure_defined()
        return format_repro_script(self._module_name, self._function_name, self._records,
                                   list(inputs))

    # Beyond nvFuser ---------------------------------------------------------

    def _static_build(self, inputs, shapes, what):
        """The build for `inputs` (or `shapes`), or the provisional one of a
        definition without symbolic extents."""
        self._ensure_defined()
        if inputs is not None or shapes is not None:
            return self._concretize(inputs, shapes)
        if self.is_symbolic():
            raise FusionValueError(
                "%s of a definition with symbolic extents needs its inputs or shapes: "
                "fd.%s(inputs) or fd.%s(shapes=[...]) (one shape per tensor input, one "
                "value per scalar or vector input)" % (what, what, what))
        return self._provisional

    def mlir(self, inputs=None, *, shapes=None):
        """The fusion as MLIR text (a module with one func.func); a symbolic
        definition for `inputs` or `shapes`."""
        return self._static_build(inputs, shapes, "mlir").native.mlir()

    def concretize(self, inputs=None, *, shapes=None):
        """A new, complete definition: this one with the extents of `inputs`
        (or `shapes`: one list per tensor input, the value of each scalar or
        vector input)."""
        return self._derived(self._static_build(inputs, shapes, "concretize").native)

    def _derived(self, native):
        return _DerivedDefinition(self._name, native)

    def preseg(self, inputs=None, *, shapes=None):
        """A new definition: this one after fuser-preseg."""
        return self._derived(self._native_for(inputs, shapes, "preseg").run_pipeline("preseg"))

    def segment(self, inputs=None, *, shapes=None):
        """A new definition: this one after fuser-preseg and fuser-segment
        (the fusion as fuser.segment ops)."""
        return self._derived(self._native_for(inputs, shapes, "segment").run_pipeline("segment"))

    def _native_for(self, inputs, shapes, what):
        return self._static_build(inputs, shapes, what).native

    def segments(self, inputs=None, *, shapes=None):
        """The segments of this fusion after preseg and segmentation (or as
        it is, where it is segmented already): kinds, shapes, bytes."""
        native = self._native_for(inputs, shapes, "segments")
        if not native.is_segmented():
            native = native.run_pipeline("segment")
        return [Segment(i, data) for i, data in enumerate(native.segments())]

    def kernels(self, chip="sm_90", inputs=None, *, shapes=None):
        """The GPU kernels --fuser-lower-to-nvvm makes of this fusion (after
        preseg and segmentation unless it is segmented already), as PTX:
        one dict per gpu.binary with its name, target, entry points and
        `ptx` text."""
        kernels = []
        native = self._native_for(inputs, shapes, "kernels")
        for name, target, ptx in _call(native.kernels, chip):
            entries = [line.split()[-1].rstrip("(") for line in ptx.splitlines()
                       if line.lstrip().startswith((".entry", ".visible .entry"))]
            kernels.append({"name": name, "target": target, "entries": entries, "ptx": ptx})
        return kernels

    def deterministic_inputs(self, seed=0, *, shapes=None):
        """The inputs fuser-run uses (PRODUCT.md), as numpy arrays."""
        import numpy as np
        native = self._native_for(None, shapes, "deterministic_inputs")
        arrays = []
        for index, (shape, dtype) in enumerate(native.input_types()):
            array = np.frombuffer(_call(native.deterministic_input, index, seed),
                                  dtype=_arrays.numpy_dtype(dtype))
            arrays.append(array.reshape(()) if shape is None else array.reshape(shape))
        return arrays

    def cache_info(self):
        """(hits, misses, variants) of this definition in the fusion cache:
        a hit runs a compiled fusion again; each variant is one compiled
        input signature."""
        self._ensure_defined()
        return FusionCache.get().info(self._cache_key())

    def _cache_key(self):
        """The definition's cache key (_cache.definition_key): a hash of its
        records, computed once the definition is finished and kept until a
        record is added."""
        key = self._key
        if key is None:
            key = definition_key(self._records)
            if self._complete:
                self._key = key
        return key

    def _input_plan(self):
        """What execute checks and does per call, computed once the
        definition is finished: per input, (kind, dtype, numpy dtype, extents
        or None, True where the extents are all static, else the (dim, extent)
        pairs of static ones, whether the dtype is complex, the dtype the
        native run takes: int64 for a UInt64 input); the outputs that
        may be views of an input (_input_view); whether an output has a
        stride_order; whether every output is the run's result as it is or
        a view of an input (none aliased or laid out: torch CPU tensors then
        cross by address, their views taken with torch)."""
        plan = self._plan
        if plan is not None:
            return plan
        inputs = []
        for position, handle in enumerate(self._inputs):
            if isinstance(handle, Tensor):
                extents, dtype = self._input_specs[position]
                extents = tuple(extents)
                static = True if -1 not in extents else \
                    tuple((dim, e) for dim, e in enumerate(extents) if e != -1)
                # A UInt64 input crosses as int64 of the same bits.
                inputs.append((Tensor, dtype, _arrays.numpy_dtype(dtype), extents, static,
                               dtype.startswith("complex"),
                               "int64" if dtype == "uint64" else dtype))
            elif isinstance(handle, Scalar):
                dtype = self._scalar_dtypes[position]
                inputs.append((Scalar, dtype, None, None, False, False, dtype))
            else:
                inputs.append((Vector, None, None, None, False, False, None))
        views = set()
        for handle, _, _ in self._outputs:
            state = handle
            while self._records[state.index].call in ("ops.reshape", "ops.squeeze",
                                                      "ops.permute", "ops.set"):
                state = self._records[state.index].args[0]
            if self._records[state.index].call == "define_tensor":
                views.add(handle.index)
        laid_out = any(stride_order is not None or handle.index in self._layouts
                       for handle, stride_order, _ in self._outputs)
        by_address = not laid_out and all(alias is None for _, _, alias in self._outputs)
        plan = (tuple(inputs), frozenset(views), laid_out, by_address)
        if self._complete:
            self._plan = plan
        return plan

    # Concretization and execution --------------------------------------------

    def _prepare_inputs(self, inputs, options=()):
        """One pass over a call's inputs: (the checked inputs (arrays or
        values per position), the signature (what decides the compiled
        fusion: the tensors' extents and layouts, the values of the inputs
        that decide shapes; a tuple without strings, the dtypes being the
        definition's), the native inputs (_arrays.to_native's), the torch
        device of the tensors or None, whether a torch tensor is on
        CUDA (the default backend is then "cuda"), whether the outputs are
        torch tensors (_returns_torch)). The common inputs (a row-major numpy
        array of the input's dtype, and where no output is aliased or laid
        out (the plan's `by_address`), a row-major torch CPU tensor, which
        crosses by address and sets no device) are checked without building
        messages or calling out per input."""
        _check_call(inputs, len(self._inputs), options)
        plan, _, _, by_address = self._input_plan()
        ndarray = _arrays.ndarray()
        if "torch" in sys.modules:
            torch_types, torch_dtypes, _ = _arrays.torch_state()
        else:
            torch_types = torch_dtypes = ()  # no torch tensor can be among the inputs
        checked, signature, natives = [], [], []
        device, on_cuda, as_torch, numpy_given = None, False, False, False
        for position, value in enumerate(inputs):
            kind, dtype, numpy_dtype, extents, static, is_complex, native_dtype = \
                plan[position]
            kept = False
            if kind is Tensor:
                if type(value) is ndarray:
                    numpy_given = True
                    kept = ((given := value.dtype) is numpy_dtype or given == numpy_dtype) and \
                        value.flags.c_contiguous
                    data = value  # its bytes are borrowed (the buffer protocol)
                elif by_address and type(value) in torch_types:
                    as_torch = True
                    # Only a complex tensor can have the conjugate bit.
                    kept = value.dtype is (torch_dtypes.get(dtype) or
                                           _arrays.torch_dtype(dtype)) and \
                        value.is_cpu and value.is_contiguous() and not value.is_neg() and \
                        not (is_complex and value.is_conj())
                    data = None  # read at its address (data_ptr)
                if kept:
                    # The common cases: the extents are all that is left to check.
                    shape = value.shape
                    kept = shape == extents if static is True else \
                        len(shape) == len(extents) and \
                        (not static or all(shape[dim] == e for dim, e in static))
                if kept:
                    checked.append(value)
                    signature.append((shape, True))
                    natives.append((native_dtype, shape,
                                    value.data_ptr() if data is None else data))
                    continue
            # Anything else: checked and converted with messages.
            what = "inputs[%d]" % position
            if _arrays.is_torch(value):
                as_torch = True
                on_cuda = on_cuda or _on_cuda(value)
            elif isinstance(value, ndarray):
                numpy_given = True
            if kind is Tensor:
                value, value_device = _check_tensor_input(value, extents, dtype, what)
                device = device or value_device
                signature.append((value.shape, value.flags.c_contiguous or
                                  tuple(_arrays.stride_order_of(value))))
                natives.append(_arrays.to_native(value, native_dtype, value.shape))
            elif kind is Scalar:
                value = _arrays.check_scalar(value, dtype, what)
                signature.append(value.item() if position in self._shape_inputs else None)
                natives.append((dtype, None, value))
            else:
                value = int64_list(value, what)
                if len(value) != self._inputs[position].length:
                    raise FusionValueError("%s: expected a vector of %d extents, got %d"
                                           % (what, self._inputs[position].length,
                                              len(value)))
                signature.append(tuple(value) if position in self._shape_inputs else None)
            checked.append(value)
        # As nvFuser's, outputs are torch tensors where the program uses torch
        # and passes no numpy array.
        as_torch = as_torch or not numpy_given and "torch" in sys.modules
        return checked, tuple(signature), natives, device, on_cuda, as_torch

    def _concretize(self, inputs, shapes):
        if shapes is not None:
            if len(shapes) != len(self._inputs):
                raise FusionValueError("shapes has %d entries for %d inputs"
                                       % (len(shapes), len(self._inputs)))
            tensor_shapes, values = {}, {}
            for position, (entry, handle) in enumerate(zip(shapes, self._inputs)):
                if isinstance(handle, Tensor):
                    tensor_shapes[position] = int64_list(entry, "shapes[%d]" % position)
                    _check_extents(tuple(tensor_shapes[position]),
                                   self._input_specs[position][0], "shapes[%d]" % position)
                else:
                    values[position] = entry
            return self._build(tensor_shapes, values)
        return self._build_for(self._prepare_inputs(inputs)[0])

    def _build_for(self, checked):
        shapes = {p: list(v.shape) for p, v in enumerate(checked)
                  if isinstance(self._inputs[p], Tensor)}
        values = {p: (v.item() if hasattr(v, "item") else v) for p, v in enumerate(checked)
                  if not isinstance(self._inputs[p], Tensor)}
        return self._build(shapes, values)

    def _build(self, shapes, values):
        if not self.is_symbolic() and self._provisional is not None:
            return self._provisional
        build = Build(self, shapes, values)
        for record in self._records:
            build.location = record.location
            record.apply(build, record.out)
        return build

    def execute(self, inputs, *, backend=None, **options):
        """Runs the fusion: numpy arrays (bf16 through ml_dtypes) or torch
        tensors in, numpy arrays (torch tensors for torch inputs) out, for
        every output not written into an input. CPU data runs on the CPU
        backend (HOST_BACKEND) unless `backend` says otherwise (interp, cpu,
        cuda, simt);
        CUDA tensors on the CUDA backend. Each input signature compiles
        once."""
        self._ensure_defined()
        if not self._outputs:
            raise FusionNotImplementedError("Fusion is empty! (it has no outputs)")
        inputs = self._normalize_inputs(inputs)
        checked, signature, native_inputs, device, on_cuda, as_torch = \
            self._prepare_inputs(inputs, options)
        if backend is None:
            backend = "cuda" if on_cuda else HOST_BACKEND
        cache = FusionCache.get()
        key = self._cache_key()
        entry = cache.lookup(key, backend, signature)
        if entry is None:
            build = self._build_for(checked)
            compiled, nbytes = _call(measured_compile, build.native.compile, backend)
            # The build marks the inputs that decide shapes: the signature
            # is complete after it. Where another thread stored the variant
            # meanwhile, that one runs.
            entry = cache.store(key, backend, self._prepare_inputs(inputs, options)[1],
                                (compiled, build), nbytes)
        compiled, build = entry
        if id(build) not in self._concretized_ids and self.is_symbolic():
            with _CONCRETIZED_LOCK:
                if id(build) not in self._concretized_ids:
                    self._concretized.append(build)
                    self._concretized_ids.add(id(build))
        self._last_build = build
        plan, views, laid_out, by_address = self._input_plan()
        input_bytes = build.input_bytes
        if input_bytes is None:
            # The same for every call of the variant (its signature has the
            # extents, the definition the dtypes).
            input_bytes = build.input_bytes = sum(
                value.nbytes for value, spec in zip(checked, plan) if spec[0] is not Vector)
        if build.generator_ids is not None:
            # Random ops without rng_seed/rng_offset: the generator's seed
            # and offset, advanced for this run (_generator.py).
            native_inputs[build.generator_position:build.generator_position] = [
                _arrays.to_native(value, "int64", None)
                for value in _generator.draw(build.generator_draws)]
        budget = max_total_bytes()
        # Torch CPU tensors out: the native module hands the results over as
        # DLPack capsules, which torch takes without a numpy array between
        # (a stand-in torch without DLPack gets them through numpy).
        torch_out = by_address and as_torch and (device is None or device.type == "cpu") \
            and _arrays.torch_state()[2] is not None
        runs = _call(compiled.run, native_inputs, run_budget(budget, input_bytes), torch_out)
        if self._uint64:
            # UInt64 outputs (sdpfa's Philox state) come back as int64:
            # their bits, viewed as uint64 (as nvFuser returns them).
            runs = [("uint64", run[1]) if handle.index in self._uint64 else run
                    for run, (handle, _, _) in zip(runs, self._outputs)]
        if torch_out:
            outputs = _arrays.torch_from_natives(runs)
            for position, (handle, _, _) in enumerate(self._outputs if views else ()):
                # An output that is a view of an input is that view, as
                # nvFuser returns it (an alias).
                if handle.index in views and \
                        (view := self._input_view(handle, build, checked)) is not None:
                    outputs[position] = _arrays.to_torch(view, None)
            return outputs
        results = [_arrays.from_native(run) for run in runs]
        if by_address and not views:
            return [_arrays.to_torch(result, device) for result in results] \
                if as_torch else results
        # What the run holds, as the backends count it: inputs and results.
        held = input_bytes + sum(result.nbytes for result in results) if laid_out else 0
        del native_inputs, runs
        outputs = []
        written = {}  # tensor state index -> the input position it was written into
        for result, (handle, _, alias) in zip(results, self._outputs):
            if alias is not None:
                _write_into(inputs[alias], checked[alias], result)
                written[handle.index] = alias
        for position, (handle, stride_order, alias) in enumerate(self._outputs):
            # Each result leaves `results` as it becomes an output, so that a
            # result laid out anew is not held twice.
            result, results[position] = results[position], None
            if alias is not None:
                continue
            if stride_order is None:
                stride_order = self._layouts.get(handle.index)
            if handle.index in written and stride_order is None:
                # Also written into an input: that input is the result, as
                # nvFuser returns it.
                if _arrays.is_torch(inputs[written[handle.index]]):
                    outputs.append(inputs[written[handle.index]])
                    continue
                view = checked[written[handle.index]]
            else:
                view = None if stride_order is not None or handle.index not in views else \
                    self._input_view(handle, build, checked)
            if view is None and _arrays.needs_layout(result, stride_order):
                _check_layout_copy(result, held, budget, len(outputs))
            if view is not None:
                result = view
            elif stride_order is not None:
                result = _arrays.with_stride_order(result, stride_order)
            outputs.append(_arrays.to_torch(result, device) if as_torch else result)
        return outputs

    def _input_view(self, output, build, checked):
        """The output as a view of an input, where it is one made by reshape,
        squeeze, permute or set ops that a view of the input's memory can
        express, as nvFuser returns it (an alias); None otherwise. Of a torch
        input that crossed by address (row-major), a torch view with the
        sizes and strides found once per build."""
        import numpy as np
        chain, state = [], output
        while self._records[state.index].call != "define_tensor":
            record = self._records[state.index]
            if record.call not in ("ops.reshape", "ops.squeeze", "ops.permute", "ops.set"):
                return None
            chain.append(record)
            state = record.args[0]
        position = next(p for p, t in enumerate(self._inputs) if t is state)
        source = checked[position]
        if not isinstance(source, np.ndarray):
            layout = build.torch_views.get(output.index, False)
            if layout is False:
                layout = build.torch_views[output.index] = \
                    _view_layout(chain, build, source.shape, source.dtype)
            if layout is None:
                return None
            # Outside autograd, as nvFuser's outputs; the storage offset is
            # the source's.
            return (source.detach() if source.requires_grad else source).as_strided(*layout)
        view = source
        for record in reversed(chain):
            if record.call == "ops.permute":
                view = view.transpose(build.extents(record.kwargs["dims"], "permute's dims"))
            else:
                view = view.reshape(build.tensor_type(record.out)[0])
        if view.size and not np.shares_memory(view, source):
            return None  # reshape had to copy: the computed result is as good
        return view

    def _reduction_sizes(self):
        """State index -> the reduction size of each tensor, for the inputs
        of the last execute."""
        return _tolerances.reduction_sizes(self._records, self._last_build)

    def _normalize_inputs(self, inputs):
        """The inputs as execute checks them (nvfuser_direct flattens lists)."""
        return inputs

    @staticmethod
    def _default_backend(inputs):
        """The CUDA backend for CUDA tensors, else HOST_BACKEND (the CPU
        backend unless FUSER_MLIR_HOST_BACKEND says "interp")."""
        if "torch" not in sys.modules:
            return HOST_BACKEND  # no torch tensor can be among the inputs
        ndarray = _arrays.ndarray()
        for value in inputs:
            if type(value) is ndarray:
                continue
            if type(value) in _arrays.torch_tensor_types():
                if value.is_cuda:
                    return "cuda"
            elif _arrays.is_torch(value) and value.device.type == "cuda":
                return "cuda"
        return HOST_BACKEND

    def validate(self, inputs, reference_outputs=None, *, rtol=None, atol=None, **options):
        """Runs the fusion and checks every output against
        `reference_outputs` (nvFuser's validate): nvFuser's tolerances for the
        output's dtype and the size of the reductions it depends on
        (_tolerances.py), or rtol/atol. Without references, the run
        (on the backend execute picks) is checked against another
        implementation of the same semantics: the interpreter, or the CPU
        backend's kernels for a run on the interpreter (equal bit for bit but
        for libm's transcendental ops and split reductions, numerics
        contract).
        Raises AssertionError on a mismatch; returns the run's outputs."""
        import numpy as np
        outputs = None
        if reference_outputs is None:
            originals = _copies(inputs, {alias for _, _, alias in self._outputs
                                         if alias is not None})
            # The reference run draws the same random numbers (the
            # generator's state before the run), then the state goes on
            # from the run's.
            state = _generator.get_rng_state()
            outputs = self.execute(inputs, **options)
            after = _generator.get_rng_state()
            backend = options.get("backend") or self._default_backend(originals)
            _generator.set_rng_state(state)
            try:
                reference_outputs = self.execute(
                    originals, backend="cpu" if backend == "interp" else "interp")
            finally:
                _generator.set_rng_state(after)
        else:
            outputs = self.execute(inputs, **options)
        if len(outputs) != len(reference_outputs):
            raise AssertionError("the fusion has %d outputs, %d references were given"
                                 % (len(outputs), len(reference_outputs)))
        sizes = self._reduction_sizes()
        returned = [handle for handle, _, alias in self._outputs if alias is None]
        for index, (output, reference) in enumerate(zip(outputs, reference_outputs)):
            actual = _arrays.as_numpy(output) if _arrays.is_torch(output) else output
            expected = _arrays.as_numpy(reference) if _arrays.is_torch(reference) else \
                np.asarray(reference)
            if actual.shape != expected.shape:
                raise AssertionError("output %d: shape %s, the reference's %s"
                                     % (index, actual.shape, expected.shape))
            default_atol, default_rtol = _tolerances.tolerance(
                actual.dtype.name, sizes.get(returned[index].index, 1) if returned else 1)
            np.testing.assert_allclose(
                _arrays.as_float64_if_ml_dtype(actual),
                _arrays.as_float64_if_ml_dtype(expected),
                rtol=default_rtol if rtol is None else rtol,
                atol=default_atol if atol is None else atol, equal_nan=True,
                err_msg="output %d" % index)
        return outputs


class _DerivedDefinition(FusionDefinition):
    """A complete definition from a pipeline or a concretization: its IR is
    given, it records nothing."""

    def __init__(self, name, native):
        super().__init__(name=name)
        self._started = self._complete = True
        self._fixed = native

    def __repr__(self):
        return "<fuser_mlir FusionDefinition from a pipeline: print fd.mlir()>"

    __str__ = __repr__

    def mlir(self, inputs=None, *, shapes=None):
        return self._fixed.mlir()

    def _native_for(self, inputs, shapes, what):
        return self._fixed

    def _cache_key(self):
        if self._key is None:
            self._key = text_key(self._fixed.mlir())
        return self._key

    def cache_info(self):
        return FusionCache.get().info(self._cache_key())

    def _reduction_sizes(self):
        return {}

    def execute(self, inputs, *, backend=None, **options):
        types = self._fixed.input_types()
        _check_call(inputs, len(types), options)
        native_inputs, device = [], None
        for position, (value, (shape, dtype)) in enumerate(zip(inputs, types)):
            what = "inputs[%d]" % position
            if shape is None:
                native_inputs.append(_arrays.to_native(
                    _arrays.check_scalar(value, dtype, what), dtype, None))
                continue
            value, value_device = _check_tensor_input(value, shape, dtype, what)
            device = device or value_device
            native_inputs.append(_arrays.to_native(value, dtype, value.shape))
        if backend is None:
            backend = self._default_backend(inputs)
        cache = FusionCache.get()
        key = self._cache_key()
        compiled = cache.lookup(key, backend, ())
        if compiled is None:
            compiled, nbytes = _call(measured_compile, self._fixed.compile, backend)
            compiled = cache.store(key, backend, (), compiled, nbytes)
        input_bytes = sum(data.nbytes for _, _, data in native_inputs)
        results = [_arrays.from_native(r) for r in _call(
            compiled.run, native_inputs, run_budget(max_total_bytes(), input_bytes))]
        if not _returns_torch(inputs):
            return results
        return [_arrays.to_torch(result, device) for result in results]


def _call(fn, *args):
    try:
        return fn(*args)
    except (TypeError, ValueError, RuntimeError, MemoryError) as error:
        raise translate(error) from None


def _check_call(inputs, count, options):
    """execute()'s arguments: a list of `count` inputs, known options."""
    if options and not _IGNORED_EXECUTE_OPTIONS.issuperset(options):
        unknown = sorted(set(options) - _IGNORED_EXECUTE_OPTIONS)
        raise FusionTypeError("execute() got an unexpected keyword argument '%s'" % unknown[0])
    if not isinstance(inputs, (list, tuple)):
        raise FusionTypeError("execute() takes a list of inputs, got %s" % type(inputs).__name__)
    if len(inputs) != count:
        raise FusionValueError("execute() expects %d inputs, got %d" % (count, len(inputs)))


def _view_layout(chain, build, shape, dtype):
    """(sizes, strides) of the view that the reshape, squeeze, permute and set
    records of `chain` (outermost first) make of a row-major torch tensor of
    `shape` and `dtype`, found on the meta device (no memory); None where a
    reshape has to copy (the computed result is as good then)."""
    import torch
    source = view = torch.empty(shape, dtype=dtype, device="meta")
    for record in reversed(chain):
        if record.call == "ops.permute":
            view = view.permute(build.extents(record.kwargs["dims"], "permute's dims"))
        else:
            view = view.reshape(build.tensor_type(record.out)[0])
    if view is not source and view._base is not source:
        return None
    return tuple(view.shape), view.stride()


def _on_cuda(value):
    """Whether a torch value is on a CUDA device (a torch.Size has none)."""
    return getattr(getattr(value, "device", None), "type", None) == "cuda"


# Where a UInt64 tensor may be used: call -> the kwargs that may hold one.
_UINT64_USES = {"ops.sdpfa_bwd": ("philox_seed", "philox_offset")}


def _check_uint64_uses(uint64, call, args, kwargs, location):
    """Refuses a use of a UInt64 tensor (state index in `uint64`) other
    than sdpfa_bwd's philox_seed and philox_offset and a plain add_output:
    fuser IR has no unsigned integers, and fuser_mlir carries sdpfa's
    Philox state as int64 of the same bits, which only those uses keep.
    nvFuser takes UInt64 everywhere, so this is fuser_mlir's limitation
    (UnsupportedDTypeError)."""
    if call is None:
        return  # a further result of a call with several
    allowed = _UINT64_USES.get(call, ())
    if call == "add_output" and len(args) == 1:
        args = ()  # an output: returned as uint64
    found = [v for v in _states_in(args) if v.index in uint64] + \
        [v for key, value in kwargs.items() if key not in allowed
         for v in _states_in([value]) if v.index in uint64]
    if found:
        name = call[len("ops."):] if call.startswith("ops.") else call
        raise UnsupportedDTypeError(
            "%s:%d: %s: %s is a DataType.UInt64 tensor, which fuser_mlir takes only as "
            "sdpfa_bwd's philox_seed or philox_offset or as a fusion output (fuser IR has "
            "no unsigned integers: it carries sdpfa's Philox state as int64 of the same "
            "bits)" % (location[0], location[1], name, found[0].name))


def _states_in(values):
    """The Tensors among `values`, lists and tuples searched."""
    for value in values:
        if isinstance(value, Tensor):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from _states_in(value)


def _check_tensor_input(value, extents, dtype, what):
    """(numpy array, torch device or None) of a tensor input."""
    device = None
    if _arrays.is_torch(value):
        device = value.device
        value = _arrays.as_numpy(value)
    elif not extents and type(value) in (bool, int, float):
        # A 0-d tensor input may be given as a Python number.
        value = _arrays.check_scalar(value, dtype, what)
    value = _arrays.check_array(value, dtype, what)
    _check_extents(value.shape, extents, what)
    return value, device


def _check_extents(shape, extents, what):
    """An input's shape against its definition: -1 takes any extent."""
    if len(shape) != len(extents) or any(e != -1 and e != s for s, e in zip(shape, extents)):
        expected = tuple(extents) if -1 not in extents else \
            "(%s)" % ", ".join("?" if e == -1 else str(e) for e in extents)
        raise FusionValueError("%s: expected shape %s, got %s" % (what, expected, tuple(shape)))


def tensor_descriptor(sizes, strides):
    """(contiguity, stride_order) of a tensor of these sizes and strides
    (in elements), as nvFuser's computeTensorDescriptor gives them."""
    import numpy as np
    array = np.lib.stride_tricks.as_strided(np.zeros(1, np.uint8), shape=tuple(sizes),
                                            strides=tuple(strides))
    stride_order = _arrays.stride_order_of(array)
    return contiguity_of(array, stride_order), stride_order


def contiguity_of(array, stride_order):
    """nvFuser's contiguity of an array, one entry per dim in allocation
    order (outermost first, by stride_order), as compute_tensor_descriptor
    gives it: None for a broadcast (size-1) or expanded (stride-0) dim, else
    whether the dim's stride is the next inner such dim's stride times its
    extent (1 for the innermost)."""
    rank = array.ndim
    inner_first = sorted(range(rank), key=lambda d: stride_order[d])
    contiguity = [None] * rank
    inner_stride = None
    for position, dim in enumerate(inner_first):
        stride = array.strides[dim] // array.itemsize
        if array.shape[dim] == 1 or stride == 0:
            continue
        contiguity[rank - 1 - position] = stride == (1 if inner_stride is None else inner_stride)
        inner_stride = stride * array.shape[dim]
    return contiguity


# The backend execute() runs host data on when none is given: "cpu" (the CPU
# backend's compiled kernels, which give the interpreter's bits), or
# "interp" (the reference interpreter) where the environment variable
# FUSER_MLIR_HOST_BACKEND says so; callers that cannot pass backend=
# (Lightning Thunder) choose it this way.
HOST_BACKEND = os.environ.get("FUSER_MLIR_HOST_BACKEND", "cpu")
if HOST_BACKEND not in ("interp", "cpu"):
    raise ValueError("FUSER_MLIR_HOST_BACKEND is %r; it takes interp or cpu" % HOST_BACKEND)

# The environment variable that sets the budget of every run's buffers
# (BackendOptions::maxTotalBytes, fuser-run's --max-total-bytes).
MAX_TOTAL_BYTES_VARIABLE = "FUSER_MAX_TOTAL_BYTES"


def max_total_bytes():
    """The budget of a run from $FUSER_MAX_TOTAL_BYTES (bytes), or None: the
    default, three quarters of what the process may allocate when the run
    starts (getDefaultMaxTotalBytes)."""
    text = _native.getenv(MAX_TOTAL_BYTES_VARIABLE)  # os.environ's, read faster
    if text is None or not text.strip():
        return None
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise FusionValueError("%s=%r: expected a number of bytes"
                               % (MAX_TOTAL_BYTES_VARIABLE, text))
    return value


# The default budget of a run (getDefaultMaxTotalBytes: three quarters of
# what the process may allocate) reads /proc/meminfo and the cgroup's files,
# about 13 us in a loop of calls and several times that between torch's ops
# (a Thunder step), more than the rest of a cached call of a small fusion. It
# is taken at most once per DEFAULT_BUDGET_REFRESH_S (so it is at most that
# old when a run starts) and afresh for a run whose inputs reach
# 1/FRESH_BUDGET_FRACTION of it, where a reading that old could decide
# whether the run fits. (A read after a gemm on both cores takes about
# 80 us, 7% of a 1024^3 bf16 matmul.)
DEFAULT_BUDGET_REFRESH_S = 0.1
FRESH_BUDGET_FRACTION = 16
_default_budget = (float("-inf"), 0)  # (time.monotonic() when taken, bytes)
default_budget_reads = 0  # how often it was read (the tests count them)


def run_budget(budget, input_bytes):
    """The budget a run is given: `budget` ($FUSER_MAX_TOTAL_BYTES) where
    set, else the default budget beside the `input_bytes` the process holds
    already, as the native run would take it (runCompiled), but cached."""
    global _default_budget, default_budget_reads
    if budget is not None:
        return budget
    now = time.monotonic()
    taken, default = _default_budget
    if (now - taken > DEFAULT_BUDGET_REFRESH_S
            or input_bytes * FRESH_BUDGET_FRACTION >= default):
        default = _native.default_max_total_bytes()
        default_budget_reads += 1
        _default_budget = (now, default)
    return default + input_bytes


def _check_layout_copy(result, held, budget, index):
    """Refuses to lay out output `index` anew (a copy beside the `held`
    bytes of the run's inputs and results, which the process holds already)
    when that would not fit the run's budget, before allocating it."""
    limit = _native.default_max_total_bytes() + held if budget is None else budget
    if result.nbytes > limit or held > limit - result.nbytes:
        raise FusionMemoryError(
            "output %d: laying it out in its stride_order takes %d bytes; with the %d bytes "
            "the run holds already, that is more than the limit of %d bytes for all its "
            "buffers together ($%s)"
            % (index, result.nbytes, held, limit, MAX_TOTAL_BYTES_VARIABLE))


def _write_into(original, checked, result):
    """An aliased output: written into the input's own memory."""
    import numpy as np
    if _arrays.is_torch(original) and original.device.type != "cpu":
        original.copy_(_arrays.to_torch(result, None))
        return
    target = _arrays.as_numpy(original) if _arrays.is_torch(original) else original
    if not isinstance(target, np.ndarray) or not target.flags.writeable:
        raise FusionValueError("an output aliases an input that cannot be written "
                               "(%s)" % type(original).__name__)
    np.copyto(target, result)


def _tensor_type_text(type_info):
    """An (extents, dtype) pair as the MLIR type the native messages name."""
    shape, dtype = type_info
    element = {"float64": "f64", "float32": "f32", "float16": "f16", "bfloat16": "bf16",
               "float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2",
               "complex64": "complex<f32>", "complex128": "complex<f64>",
               "int64": "i64", "int32": "i32", "bool": "i1"}[dtype]
    return "tensor<%s>" % "x".join([str(e) for e in shape] + [element])


def _copies(inputs, positions):
    """The inputs, those at `positions` (written by aliased outputs) copied:
    a reference run must not see the run's writes. The others are read
    only, and copying them doubled validate's memory (nvFuser's
    test_issue5377: 4 GB of weights, one aliased [1, 16] input)."""
    import numpy as np
    written = [inputs[p] for p in positions]

    def memory(v):
        # The buffer an input's writes land in (an input given twice, or a
        # view of a written one, must be copied too).
        if _arrays.is_torch(v):
            return ("torch", v.untyped_storage().data_ptr())
        if isinstance(v, np.ndarray):
            return ("numpy", (v.base if v.base is not None else v).ctypes.data)
        return None
    written_memory = {memory(v) for v in written} - {None}
    return [v if position not in positions and memory(v) not in written_memory else
            v.clone() if _arrays.is_torch(v) else
            np.copy(v) if isinstance(v, np.ndarray) else v
            for position, v in enumerate(inputs)]


def _returns_torch(inputs):
    """Outputs are torch tensors for torch inputs, and, as nvFuser's, where
    the program uses torch and passes no numpy array."""
    if "torch" not in sys.modules:
        return False  # no torch tensor can be among the inputs
    ndarray = _arrays.ndarray()
    numpy_given = False
    for value in inputs:
        if isinstance(value, ndarray):
            numpy_given = True
        elif type(value) in _arrays.torch_tensor_types() or _arrays.is_torch(value):
            return True
    return not numpy_given


