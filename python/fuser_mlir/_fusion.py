"""nvFuser's FusionDefinition API over fuser IR (docs/Python.md).

Every `fd.ops.*` call builds what nvFuser builds for it, through the C++
FusionBuilder (include/fuser/FusionBuilder/FusionBuilder.h), one fuser op per
nvFuser op; nothing is simplified here (`fd.preseg()` does that).
"""

import enum
import operator
import os
import sys

from . import _fuser_mlir as _native

__all__ = ["DataType", "FusionDefinition", "Tensor", "Scalar", "Segment",
           "UnsupportedOpError"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class DataType(enum.Enum):
    """nvFuser's DataType; the value is the dtype's numpy-style name."""
    Double = "float64"
    Float = "float32"
    Half = "float16"
    BFloat16 = "bfloat16"
    Int = "int64"
    Int32 = "int32"
    Bool = "bool"
    ComplexFloat = "complex64"
    ComplexDouble = "complex128"
    Null = "null"

    def __repr__(self):
        return "DataType." + self.name

    __str__ = __repr__


_DTYPE_NAMES = {dtype.value: dtype for dtype in DataType}


class UnsupportedOpError(AttributeError):
    """An nvFuser operation that fuser_mlir does not model."""

    def __init__(self, op, filename=None, line=None):
        self.op, self.filename, self.line = op, filename, line
        where = "%s:%s: " % (filename, line) if filename else ""
        super().__init__("%snvFuser operation 'fd.ops.%s' is not supported by "
                         "fuser_mlir (docs/Python.md lists the ops)" % (where, op))


def _caller_location():
    """The first frame outside this package: the script line of the call."""
    frame = sys._getframe(1)
    while frame is not None and \
            os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame = frame.f_back
    if frame is None:
        return "<unknown>", 0
    return frame.f_code.co_filename, frame.f_lineno


def _dtype_name(dtype, what):
    if isinstance(dtype, DataType):
        return dtype.value
    raise TypeError("%s must be a DataType, got %r" % (what, dtype))


class _Value:
    __slots__ = ("fd", "_id")

    def __init__(self, fd, value_id):
        self.fd = fd
        self._id = value_id

    @property
    def dtype(self):
        return _DTYPE_NAMES[self.fd._native.value_type(self._id)[1]]


class Tensor(_Value):
    """A tensor of a FusionDefinition (nvFuser's Tensor)."""
    __slots__ = ()

    @property
    def shape(self):
        return tuple(self.fd._native.value_type(self._id)[0])

    @property
    def ndim(self):
        return len(self.shape)

    def size(self, dim):
        return self.shape[dim]

    def __repr__(self):
        return "Tensor(shape=%s, dtype=%r)" % (list(self.shape), self.dtype)

    # Python operators, as nvFuser's Tensor has them.
    def __add__(self, other):
        return self.fd.ops.add(self, other)

    def __radd__(self, other):
        return self.fd.ops.add(other, self)

    def __sub__(self, other):
        return self.fd.ops.sub(self, other)

    def __rsub__(self, other):
        return self.fd.ops.sub(other, self)

    def __mul__(self, other):
        return self.fd.ops.mul(self, other)

    def __rmul__(self, other):
        return self.fd.ops.mul(other, self)

    # `/` is true division, as in Python and nvFuser (truediv: integers
    # become f32 first); fd.ops.div of integers truncates.
    def __truediv__(self, other):
        return self.fd.ops.truediv(self, other)

    def __rtruediv__(self, other):
        return self.fd.ops.truediv(other, self)

    def __neg__(self):
        return self.fd.ops.neg(self)


class Scalar(_Value):
    """A scalar of a FusionDefinition: a constant or a scalar input."""
    __slots__ = ()

    def __repr__(self):
        return "Scalar(dtype=%r)" % self.dtype


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
            "dtype": _DTYPE_NAMES[dtype], "bytes": byte_count}


_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1


def _as_list(values, what):
    """A list of int64s (extents, dims, widths): an int alone is a list of
    one; floats, strings and the like are refused, not truncated."""
    try:
        items = [operator.index(values)] if not hasattr(values, "__iter__") \
            else [operator.index(v) for v in values]
    except TypeError:
        raise TypeError("%s must be an integer or a list of integers, got %r" % (what, values)) from None
    for item in items:
        if not _INT64_MIN <= item <= _INT64_MAX:
            raise ValueError("%s: %d does not fit in 64 bits" % (what, item))
    return items


class _Ops:
    """`fd.ops`: the operations, as nvFuser's Python frontend names them."""

    def __init__(self, fd):
        self._fd = fd

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        filename, line = _caller_location()
        raise UnsupportedOpError(name, filename, line)

    # Operands ---------------------------------------------------------------

    def _native(self):
        return self._fd._begin_call()

    def _tensor(self, value, what):
        if not isinstance(value, Tensor):
            raise TypeError("%s must be a Tensor of this FusionDefinition, got %r"
                            % (what, value))
        if value.fd is not self._fd:
            raise ValueError("%s belongs to another FusionDefinition" % what)
        return value._id

    def _operand(self, value, what):
        if isinstance(value, _Value):
            if value.fd is not self._fd:
                raise ValueError("%s belongs to another FusionDefinition" % what)
            return ("value", value._id)
        # numpy scalars (and 0-d arrays) are numbers too.
        if getattr(value, "shape", None) == () and hasattr(value, "item"):
            value = value.item()
        if isinstance(value, (bool, int, float)):
            return value
        raise TypeError("%s must be a Tensor, a Scalar or a Python number, got %r"
                        % (what, value))

    def _wrap(self, value_id):
        shape, _ = self._fd._native.value_type(value_id)
        return (Scalar if shape is None else Tensor)(self._fd, value_id)

    # Pointwise --------------------------------------------------------------

    def _unary(self, name, x):
        native = self._native()
        return self._wrap(native.unary(name, self._operand(x, "the operand of %s" % name)))

    def _binary(self, name, lhs, rhs):
        native = self._native()
        return self._wrap(native.binary(name, self._operand(lhs, "the first operand of %s" % name),
                                        self._operand(rhs, "the second operand of %s" % name)))

    def where(self, condition, lhs, rhs):
        native = self._native()
        return self._wrap(native.where(self._operand(condition, "the condition of where"),
                                       self._operand(lhs, "the second operand of where"),
                                       self._operand(rhs, "the third operand of where")))

    def cast(self, arg, dtype):
        native = self._native()
        if isinstance(arg, _Value):
            return self._wrap(native.cast(self._operand(arg, "the operand of cast")[1],
                                          _dtype_name(dtype, "cast's dtype")))
        # A Python number cast to a dtype is a constant of that dtype.
        return self._wrap(native.define_constant(self._operand(arg, "the operand of cast"),
                                                 _dtype_name(dtype, "cast's dtype")))

    def full(self, shape, fill_value, dtype):
        native = self._native()
        return self._wrap(native.full(_as_list(shape, "full's shape"),
                                      self._operand(fill_value, "full's fill_value"),
                                      _dtype_name(dtype, "full's dtype")))

    # Data movement ----------------------------------------------------------

    def reshape(self, arg, *shapes, new_shape=None, original_shape=None):
        # reshape(T, new_shape) and the older reshape(T, original_shape, new_shape).
        if new_shape is None:
            if not shapes:
                raise TypeError("reshape needs new_shape")
            new_shape = shapes[-1]
        native = self._native()
        return self._wrap(native.reshape(self._tensor(arg, "reshape's operand"),
                                         _as_list(new_shape, "reshape's new_shape")))

    view = reshape

    def squeeze(self, arg, *dims_or_shape, dims=None, original_shape=None,
                squeeze_expanded=False):
        # squeeze(T, dims) and the older squeeze(T, original_shape, dims).
        positional = list(dims_or_shape)
        if positional and isinstance(positional[-1], bool):
            squeeze_expanded = positional.pop()
        if dims is None:
            if not positional:
                raise TypeError("squeeze needs dims")
            dims = positional[-1]
        native = self._native()
        return self._wrap(native.squeeze(self._tensor(arg, "squeeze's operand"),
                                         _as_list(dims, "squeeze's dims")))

    def broadcast(self, arg, is_broadcast_dim):
        native = self._native()
        return self._wrap(native.broadcast(self._tensor(arg, "broadcast's operand"),
                                           [bool(flag) for flag in is_broadcast_dim]))

    def expand(self, arg, shape):
        native = self._native()
        return self._wrap(native.expand(self._tensor(arg, "expand's operand"),
                                        _as_list(shape, "expand's shape")))

    def broadcast_in_dim(self, arg, shape=None, broadcast_dims=None, *, output_shape=None):
        # output_shape is the keyword of nvFuser releases before 2023-06.
        if shape is None:
            shape = output_shape
        if shape is None or broadcast_dims is None:
            raise TypeError("broadcast_in_dim needs shape and broadcast_dims")
        native = self._native()
        return self._wrap(native.broadcast_in_dim(
            self._tensor(arg, "broadcast_in_dim's operand"),
            _as_list(shape, "broadcast_in_dim's shape"),
            _as_list(broadcast_dims, "broadcast_in_dim's broadcast_dims")))

    def permute(self, arg, dims):
        native = self._native()
        return self._wrap(native.permute(self._tensor(arg, "permute's operand"),
                                         _as_list(dims, "permute's dims")))

    def stride_order(self, arg, stride_order):
        """nvFuser's stride_order changes the memory layout only, which
        fusions do not model: a fuser.set (checked to be a permutation)."""
        tensor = self._tensor(arg, "stride_order's operand")
        order = _as_list(stride_order, "stride_order's stride_order")
        if sorted(order) != list(range(len(self._fd._native.value_type(tensor)[0]))):
            raise ValueError("stride_order %r is not a permutation of the tensor's dims" % order)
        return self.set(arg)

    def size(self, arg, dim):
        """An extent: a Python int, as every extent is static here."""
        shape = self._fd._native.value_type(self._tensor(arg, "size's operand"))[0]
        if not -len(shape) <= dim < len(shape):
            raise ValueError("size: dim %d is out of range for a tensor of rank %d"
                             % (dim, len(shape)))
        return shape[dim]

    def shape(self, arg):
        """The extents: Python ints, as every extent is static here."""
        return list(self._fd._native.value_type(self._tensor(arg, "shape's operand"))[0])

    def set(self, arg):
        native = self._native()
        return self._wrap(native.set(self._tensor(arg, "set's operand")))

    def segment_set(self, arg):
        native = self._native()
        return self._wrap(native.segment_set(self._tensor(arg, "segment_set's operand")))

    def slice(self, arg, start_indices, end_indices, strides=None,
              manual_normalization=False):
        native = self._native()
        return self._wrap(native.slice(
            self._tensor(arg, "slice's operand"),
            _as_list(start_indices, "slice's start_indices"),
            _as_list(end_indices, "slice's end_indices"),
            [] if strides is None else _as_list(strides, "slice's strides")))

    def pad(self, arg, pad_widths, value=None):
        native = self._native()
        return self._wrap(native.pad(
            self._tensor(arg, "pad's operand"), _as_list(pad_widths, "pad's pad_widths"),
            None if value is None else self._operand(value, "pad's value")))

    def cat(self, tensors, dim=0, manual_padding=False):
        native = self._native()
        ids = [self._tensor(t, "cat's tensors[%d]" % i) for i, t in enumerate(tensors)]
        (dim,) = _as_list(dim, "cat's dim")
        return self._wrap(native.cat(ids, dim))

    # Reductions -------------------------------------------------------------

    def _reduction(self, kind, arg, dims, keepdim, dtype, axes):
        native = self._native()
        tensor = self._tensor(arg, "the operand of the reduction")
        if dims is None:
            dims = axes
        if dims is None:
            dims = list(range(len(native.value_type(tensor)[0])))
        if dtype is None or dtype is DataType.Null:
            dtype_name = None
        else:
            dtype_name = _dtype_name(dtype, "the reduction's dtype")
        return self._wrap(native.reduction(kind, tensor, _as_list(dims, "the reduction's dims"),
                                           bool(keepdim), dtype_name))

    def sum(self, arg, dims=None, keepdim=False, dtype=DataType.Null, *, axes=None):
        return self._reduction("add", arg, dims, keepdim, dtype, axes)

    def prod(self, arg, dims=None, keepdim=False, dtype=DataType.Null, *, axes=None):
        return self._reduction("mul", arg, dims, keepdim, dtype, axes)

    def max(self, arg, dims=None, keepdim=False, dtype=DataType.Null, *, axes=None):
        return self._reduction("max", arg, dims, keepdim, dtype, axes)

    def min(self, arg, dims=None, keepdim=False, dtype=DataType.Null, *, axes=None):
        return self._reduction("min", arg, dims, keepdim, dtype, axes)


def _make_unary(name):
    def op(self, arg):
        return self._unary(name, arg)
    op.__name__ = name
    op.__doc__ = "fuser.%s" % name
    return op


def _make_binary(name):
    def op(self, lhs, rhs):
        return self._binary(name, lhs, rhs)
    op.__name__ = name
    op.__doc__ = "fuser.%s" % name if name != "truediv" else \
        "fuser.div after integer operands become f32"
    return op


# The elementwise ops of the dialect (ElementwiseOps.def), whose mnemonics
# are nvFuser's Python names, plus nvFuser's truediv.
_UNARY_OPS, _BINARY_OPS = _native.elementwise_ops()
for _name in _UNARY_OPS:
    setattr(_Ops, _name, _make_unary(_name))
for _name in _BINARY_OPS + ["truediv"]:
    setattr(_Ops, _name, _make_binary(_name))

# Called with every FusionDefinition whose definition is complete
# (nvfuser_compat collects them).
_definition_hook = None
# Set when a `with` block or definition() ends in an exception: the error
# happened while building a fusion (nvfuser_compat tells it from errors
# after the fusions were built).
_definition_failed = False


def _numpy_dtype(name):
    import numpy as np
    if name == "bfloat16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


class FusionDefinition:
    """nvFuser's FusionDefinition: `with FusionDefinition() as fd: ...`, or a
    subclass that overrides definition()."""

    def __init__(self, *args, name="fusion", **kwargs):
        self._name = name
        self._native = None
        self._complete = False
        self.ops = _Ops(self)

    # Construction -----------------------------------------------------------

    def __enter__(self):
        if self._native is not None:
            raise RuntimeError("this FusionDefinition is already defined")
        self._native = _native.Fusion(self._name)
        return self

    def __exit__(self, exc_type, exc, traceback):
        global _definition_failed
        if exc_type is None:
            self._finish()
        else:
            _definition_failed = True
        return False

    def definition(self):
        """Overridden by subclasses: builds the fusion with self.define_* and
        self.ops.*."""
        raise NotImplementedError(
            "define the fusion in a `with FusionDefinition() as fd:` block or "
            "override definition() in a subclass")

    def _finish(self):
        self._complete = True
        if _definition_hook is not None:
            _definition_hook(self)

    def _ensure_defined(self):
        if self._native is None:
            if type(self).definition is FusionDefinition.definition:
                raise RuntimeError("this FusionDefinition has no fusion yet: define it "
                                   "in a `with` block or override definition()")
            with self:
                self.definition()
        return self._native

    def _begin_call(self):
        if self._native is None:
            raise RuntimeError("fusion ops are called inside `with FusionDefinition() "
                               "as fd:` or definition()")
        if self._complete:
            raise RuntimeError("this FusionDefinition is complete (its `with` block or "
                               "definition() has ended, or it came from a pipeline)")
        self._native.set_location(*_caller_location())
        return self._native

    def define_tensor(self, shape=None, contiguity=None, dtype=DataType.Float,
                      is_cpu=False, stride_order=None, *, sizes=None, strides=None,
                      symbolic_sizes=None, static_sizes=False):
        """nvFuser's define_tensor: (shape, contiguity, dtype, is_cpu,
        stride_order) or (sizes, strides, dtype). The memory layout
        (contiguity, strides, stride_order) is checked but not modeled:
        tensors are logical values."""
        native = self._begin_call()
        if shape is None:
            shape = sizes if sizes is not None else symbolic_sizes
        if shape is None:
            raise TypeError("define_tensor needs shape (or sizes)")
        shape = _as_list(shape, "define_tensor's shape")
        rank = len(shape)
        if contiguity is not None and not isinstance(contiguity, bool) \
                and len(contiguity) != rank:
            raise ValueError("define_tensor's contiguity has %d entries for a tensor of rank %d"
                             % (len(contiguity), rank))
        if strides is not None and len(strides) != rank:
            raise ValueError("define_tensor's strides has %d entries for a tensor of rank %d"
                             % (len(strides), rank))
        if stride_order is not None and sorted(stride_order) != list(range(rank)):
            raise ValueError("define_tensor's stride_order %r is not a permutation of the %d dims"
                             % (list(stride_order), rank))
        value_id = native.define_input(shape, _dtype_name(dtype, "define_tensor's dtype"))
        return Tensor(self, value_id)

    def define_scalar(self, value=None, dtype=None):
        """A constant (with a value) or a scalar input of the fusion."""
        native = self._begin_call()
        if value is None:
            dtype = DataType.Double if dtype is None else dtype
            return Scalar(self, native.define_input(None, _dtype_name(dtype, "define_scalar's dtype")))
        if dtype is None:
            dtype = DataType.Bool if isinstance(value, bool) else \
                DataType.Int if isinstance(value, int) else DataType.Double
        literal = self.ops._operand(value, "define_scalar's value")
        if isinstance(literal, tuple):
            raise TypeError("define_scalar's value must be a Python number")
        return Scalar(self, native.define_constant(literal, _dtype_name(dtype, "define_scalar's dtype")))

    define_constant = define_scalar

    def define_vector(self, values, dtype=DataType.Int):
        """A shape vector: Python ints (fd.ops.size and fd.ops.shape give
        them), since every extent is static here."""
        if isinstance(values, int):
            raise ValueError("define_vector of a symbolic length is not supported")
        return _as_list(values, "define_vector's values")

    def add_output(self, output, stride_order=None, alias_input=None):
        native = self._begin_call()
        if alias_input is not None:
            raise ValueError("add_output's alias_input is not supported")
        native.add_output(self.ops._tensor(output, "add_output's output"))

    # Beyond nvFuser ---------------------------------------------------------

    def mlir(self):
        """The fusion as MLIR text (a module with one func.func)."""
        return self._ensure_defined().mlir()

    __str__ = mlir

    def _derived(self, native):
        derived = FusionDefinition(name=self._name)
        derived._native = native
        derived._complete = True
        return derived

    def preseg(self):
        """A new definition: this one after fuser-preseg."""
        return self._derived(self._ensure_defined().run_pipeline("preseg"))

    def segment(self):
        """A new definition: this one after fuser-preseg and fuser-segment
        (the fusion as fuser.segment ops)."""
        return self._derived(self._ensure_defined().run_pipeline("segment"))

    def segments(self):
        """The segments of this fusion after preseg and segmentation (or as
        it is, where it is segmented already): kinds, shapes, bytes."""
        native = self._ensure_defined()
        if not native.is_segmented():
            native = native.run_pipeline("segment")
        return [Segment(i, data) for i, data in enumerate(native.segments())]

    def kernels(self, chip="sm_90"):
        """The GPU kernels --fuser-lower-to-nvvm makes of this fusion (after
        preseg and segmentation unless it is segmented already), as PTX:
        one dict per gpu.binary with its name, target, entry points and
        `ptx` text."""
        kernels = []
        for name, target, ptx in self._ensure_defined().kernels(chip):
            entries = [line.split()[-1].rstrip("(") for line in ptx.splitlines()
                       if line.lstrip().startswith((".entry", ".visible .entry"))]
            kernels.append({"name": name, "target": target, "entries": entries, "ptx": ptx})
        return kernels

    def deterministic_inputs(self, seed=0):
        """The inputs fuser-run uses (PRODUCT.md), as numpy arrays."""
        import numpy as np
        native = self._ensure_defined()
        arrays = []
        for index, (shape, dtype) in enumerate(native.input_types()):
            data = np.frombuffer(native.deterministic_input(index, seed),
                                 dtype=_numpy_dtype(dtype))
            arrays.append(data.reshape(()) if shape is None else data.reshape(shape))
        return arrays

    # Execution --------------------------------------------------------------

    def execute(self, inputs, *, device=None, backend=None, **kwargs):
        """Runs the fusion: numpy arrays (bf16 through ml_dtypes) or torch
        tensors in, numpy arrays (torch tensors for torch inputs) out. CPU
        data runs on the reference interpreter, CUDA tensors on the CUDA
        backend."""
        native = self._ensure_defined()
        expected = native.input_types()
        if not isinstance(inputs, (list, tuple)):
            raise TypeError("execute() takes a list of inputs, got %s" % type(inputs).__name__)
        if len(inputs) != len(expected):
            raise ValueError("execute() expects %d inputs, got %d"
                             % (len(expected), len(inputs)))
        converted, torch_device = [], None
        for index, (value, (shape, dtype)) in enumerate(zip(inputs, expected)):
            data, value_device = _to_bytes(value, shape, dtype, "inputs[%d]" % index)
            torch_device = torch_device or value_device
            converted.append((dtype, shape, data))
        if backend is None:
            backend = "cuda" if torch_device is not None and torch_device.type == "cuda" \
                else "interp"
        results = native.execute(converted, backend)
        arrays = [_from_bytes(dtype, shape, data) for dtype, shape, data in results]
        if torch_device is not None:
            return [_to_torch(array, torch_device) for array in arrays]
        return arrays


def _to_bytes(value, shape, dtype, what):
    """(bytes, torch device or None) of one input, checked against the
    fusion's (shape, dtype)."""
    import numpy as np
    np_dtype = _numpy_dtype(dtype)
    device = None
    if type(value).__module__.startswith("torch"):
        device = value.device
        value = _torch_to_numpy(value)
    if shape is None:
        if isinstance(value, np.ndarray) and value.ndim != 0:
            raise ValueError("%s: expected a scalar, got an array of shape %s"
                             % (what, value.shape))
        if not isinstance(value, (bool, int, float, np.ndarray, np.generic)):
            raise TypeError("%s: expected a %s scalar, got %r" % (what, dtype, value))
        try:
            return np.asarray(value, dtype=np_dtype).tobytes(), device
        except (OverflowError, ValueError) as error:
            raise ValueError("%s: %s" % (what, error)) from None
    if tuple(shape) == () and isinstance(value, np.generic):
        # A 0-d tensor input may be given as a numpy scalar of its dtype,
        value = np.asarray(value)
    elif tuple(shape) == () and isinstance(value, (bool, int, float)):
        # or as a Python number, which takes the input's dtype.
        try:
            value = np.asarray(value, dtype=np_dtype)
        except (OverflowError, ValueError) as error:
            raise ValueError("%s: %s" % (what, error)) from None
    if not isinstance(value, np.ndarray):
        raise TypeError("%s: expected a numpy array or torch tensor of %s, got %s"
                        % (what, dtype, type(value).__name__))
    if value.dtype != np_dtype:
        raise TypeError("%s: expected dtype %s, got %s" % (what, dtype, value.dtype))
    if tuple(value.shape) != tuple(shape):
        raise ValueError("%s: expected shape %s, got %s"
                         % (what, tuple(shape), tuple(value.shape)))
    return np.ascontiguousarray(value).tobytes(), device


def _from_bytes(dtype, shape, data):
    import numpy as np
    array = np.frombuffer(data, dtype=_numpy_dtype(dtype)).copy()
    return array.reshape(() if shape is None else shape)


def _torch_to_numpy(tensor):
    import torch
    import ml_dtypes
    tensor = tensor.detach().to("cpu").contiguous()
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    return tensor.numpy()


def _to_torch(array, device):
    import torch
    import numpy as np
    if array.dtype.name == "bfloat16":
        return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16).to(device)
    return torch.from_numpy(array).to(device)
