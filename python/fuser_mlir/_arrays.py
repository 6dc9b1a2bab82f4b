"""Tensors in and out of a run: numpy arrays (bf16 through ml_dtypes) and
torch tensors, without copies where the layout allows.

An input crosses to the native module as a C-contiguous array, whose bytes
the run borrows: a row-major numpy array is passed as it is, a row-major torch
CPU tensor as its address (`data_ptr()`; execute's common case) or through
`Tensor.numpy()`, which shares its memory; any other layout is copied to
row-major once. Results come back as numpy arrays that own the backend's
buffer, and as torch tensors sharing it.
"""

import sys

from ._errors import FusionTypeError, FusionValueError

__all__ = ["ML_DTYPES", "numpy_dtype", "as_float64_if_ml_dtype", "is_torch", "as_numpy",
           "to_native", "from_native", "needs_layout", "with_stride_order", "to_torch",
           "stride_order_of", "torch_tensor_types", "torch_state", "torch_dtype",
           "torch_from_natives"]


# The dtypes numpy has through ml_dtypes, and torch's.
ML_DTYPES = ("bfloat16", "float8_e4m3fn", "float8_e5m2")


_NUMPY_DTYPES = {}  # dtype name -> numpy dtype, as numpy_dtype made it


def numpy_dtype(name):
    dtype = _NUMPY_DTYPES.get(name)
    if dtype is not None:
        return dtype
    import numpy as np
    if name in ML_DTYPES:
        import ml_dtypes
        dtype = np.dtype(getattr(ml_dtypes, name))
    else:
        dtype = np.dtype(name)
    _NUMPY_DTYPES[name] = dtype
    return dtype


_NDARRAY = []  # [numpy.ndarray], once numpy is imported


def ndarray():
    """numpy.ndarray, numpy imported on first use."""
    if not _NDARRAY:
        import numpy as np
        _NDARRAY.append(np.ndarray)
    return _NDARRAY[0]


def as_float64_if_ml_dtype(array):
    """`array`, in f64 when numpy's own functions cannot take its dtype."""
    import numpy as np
    return array.astype(np.float64) if array.dtype.name in ML_DTYPES else array


def is_torch(value):
    return type(value).__module__.startswith("torch")


# What execute uses of the torch module the program imported, taken from it
# once: [that module (sys.modules'), (torch.Tensor, torch.nn.Parameter) or (),
# dtype name -> torch dtype, torch.utils.dlpack.from_dlpack]. Taken again
# where sys.modules holds another one (tests put stand-ins there).
_TORCH = [None, (), {}, None]


def _torch():
    torch = sys.modules.get("torch")
    if _TORCH[0] is not torch:
        parameter = getattr(getattr(torch, "nn", None), "Parameter", None)
        dlpack = getattr(getattr(torch, "utils", None), "dlpack", None)
        _TORCH[:] = [torch, () if parameter is None else (torch.Tensor, parameter), {},
                     getattr(dlpack, "from_dlpack", None)]
    return _TORCH


def torch_tensor_types():
    """(torch.Tensor, torch.nn.Parameter), the types of the plain tensors
    that execute takes by address, where the program has imported torch;
    else () (no torch tensor can be among the inputs then; fuser_mlir does
    not import torch for this)."""
    return _torch()[1]


def torch_state():
    """(torch_tensor_types(), the dict of the torch dtypes torch_dtype has
    looked up by name, torch.utils.dlpack.from_dlpack or None) in one call
    (torch imported)."""
    state = _torch()
    return state[1], state[2], state[3]


def torch_dtype(name):
    """torch's dtype of a dtype name (torch imported)."""
    state = _torch()
    dtype = state[2].get(name)
    if dtype is None:
        dtype = state[2][name] = getattr(state[0], name)
    return dtype


def as_numpy(tensor):
    """A torch tensor as a numpy array sharing its memory where it is on the
    CPU (bf16 and fp8 as ml_dtypes' types); a CUDA tensor is copied to the
    host."""
    import torch
    tensor = tensor.detach()
    if tensor.device.type != "cpu":
        tensor = tensor.to("cpu")
    name = str(tensor.dtype).replace("torch.", "")
    if name in ML_DTYPES:
        bits = torch.int16 if name == "bfloat16" else torch.uint8
        return tensor.view(bits).numpy().view(numpy_dtype(name))
    return tensor.numpy()


def stride_order_of(array):
    """nvFuser's stride_order of an array (compute_tensor_descriptor): entry
    i is the rank of dim i's stride, 0 for the fastest-moving dim; dims are
    sorted by stride, largest first and stable, and dims of stride 0 (an
    expanded dim) keep their place."""
    rank = array.ndim
    strides = [s // array.itemsize for s in array.strides]
    by_stride = iter(sorted((d for d in range(rank) if strides[d] != 0),
                            key=lambda d: -strides[d]))
    outer_first = [d if strides[d] == 0 else next(by_stride) for d in range(rank)]
    order = [0] * rank
    for position, dim in enumerate(outer_first):
        order[dim] = rank - 1 - position
    return order


def to_native(array, dtype, shape):
    """(dtype, shape or None, C-contiguous array or a tensor's address) of
    one checked input; the native run borrows the array's bytes whatever its
    dtype (the buffer protocol), so a row-major array crosses as it is."""
    if type(array) is ndarray() and array.flags.c_contiguous:
        return (dtype, shape, array)  # no copy
    if type(array) in torch_tensor_types():
        # A row-major CPU tensor (execute's check): its address, no copy.
        return (dtype, shape, array.data_ptr())
    import numpy as np
    if shape is None:
        return (dtype, None, np.asarray(array, dtype=numpy_dtype(dtype)))
    return (dtype, list(shape), np.ascontiguousarray(array))


def from_native(result):
    """A numpy array of one native result, owning the backend's bytes: the
    native module's array of the result's dtype and shape, or of its bits
    viewed as the dtype (bf16, fp8: numpy has them only through ml_dtypes)."""
    bits_of, array = result
    return array if bits_of is None else array.view(numpy_dtype(bits_of))


def needs_layout(array, stride_order):
    """Whether with_stride_order copies `array`."""
    return stride_order is not None and \
        list(stride_order) != list(range(array.ndim - 1, -1, -1))


def with_stride_order(array, stride_order):
    """`array`'s values laid out with nvFuser's `stride_order` (one copy)."""
    import numpy as np
    rank = array.ndim
    if not needs_layout(array, stride_order):
        return array
    outer_first = sorted(range(rank), key=lambda d: -stride_order[d])
    laid_out = np.ascontiguousarray(array.transpose(outer_first))
    return laid_out.transpose(np.argsort(outer_first))


def torch_from_natives(results):
    """Torch CPU tensors of the native results of a run made with
    as_dlpack (DLPack capsules), sharing the backend's bytes; fp8, which
    the capsules carry as bits, viewed as its torch dtype."""
    from_dlpack = _torch()[3]
    return [from_dlpack(capsule) if bits_of is None else
            from_dlpack(capsule).view(torch_dtype(bits_of)) for bits_of, capsule in results]


def to_torch(array, device):
    """A torch tensor of a result: sharing the array's memory on the CPU (a
    torch tensor is itself there)."""
    import numpy as np
    import torch
    if is_torch(array):
        return array if device is None or device.type == "cpu" else array.to(device)
    if array.dtype.name in ML_DTYPES:
        bits = np.int16 if array.itemsize == 2 else np.uint8
        tensor = torch.from_numpy(array.view(bits)).view(getattr(torch, array.dtype.name))
    else:
        tensor = torch.from_numpy(array)
    return tensor if device is None or device.type == "cpu" else tensor.to(device)


def check_array(value, dtype, what):
    """A numpy array of `dtype` for input `what` (numpy scalars of the dtype
    become 0-d arrays)."""
    import numpy as np
    if isinstance(value, np.generic):
        value = np.asarray(value)
    if isinstance(value, (bool, int, float)):
        # nvFuser's wording, which programs match.
        raise FusionTypeError("%s: expected a numpy array or torch tensor of %s, got %s "
                              "(Expected input %s, a tensor, to be an at::Tensor but got "
                              "scalar %r)" % (what, dtype, type(value).__name__,
                                              what[len("inputs["):-1], value))
    if not isinstance(value, np.ndarray):
        raise FusionTypeError("%s: expected a numpy array or torch tensor of %s, got %s"
                              % (what, dtype, type(value).__name__))
    if value.dtype != numpy_dtype(dtype):
        raise FusionTypeError("%s: expected dtype %s, got %s" % (what, dtype, value.dtype))
    return value


def check_scalar(value, dtype, what):
    """A Python or numpy scalar for a scalar input of `dtype`, as a numpy
    scalar of that dtype."""
    import numpy as np
    if isinstance(value, np.ndarray) and value.ndim != 0:
        raise FusionValueError("%s: expected a scalar, got an array of shape %s"
                               % (what, value.shape))
    if is_torch(value):
        value = as_numpy(value)
        if value.ndim != 0:
            raise FusionValueError("%s: expected a scalar, got a tensor of shape %s"
                                   % (what, value.shape))
    if not isinstance(value, (bool, int, float, complex, np.ndarray, np.generic)):
        raise FusionTypeError("%s: expected a %s scalar, got %r" % (what, dtype, value))
    _check_scalar_kind(value, dtype, what)
    try:
        return np.asarray(value, dtype=numpy_dtype(dtype))
    except (OverflowError, ValueError) as error:
        raise FusionValueError("%s: %s" % (what, error)) from None


# nvFuser's names of the dtypes in its messages (data_type2string, csrc/type.cpp).
_NVFUSER_TYPE_NAMES = {
    "float64": "double", "float32": "float", "float16": "__half", "bfloat16": "__bfloat",
    "float8_e4m3fn": "__e4m3", "float8_e5m2": "__e5m2", "int64": "int64_t", "int32": "int",
    "bool": "bool", "complex64": "std::complex<float>", "complex128": "std::complex<double>"}


def nvfuser_type_name(dtype):
    """nvFuser's name of a dtype in its messages ("int64_t")."""
    return _NVFUSER_TYPE_NAMES.get(dtype, dtype)


# The kinds in the message.
_KIND_NAMES = {"b": "a bool", "i": "an int", "f": "a float", "c": "a complex"}


def _kind(dtype):
    """numpy's kind of a dtype, with ml_dtypes' floats as floats and unsigned
    integers as integers: b, i, f or c."""
    if dtype.name in ML_DTYPES:
        return "f"
    return "i" if dtype.kind == "u" else dtype.kind


def _check_scalar_kind(value, dtype, what):
    """Refuses a scalar of another kind than `dtype`, as nvFuser binding a
    fusion input does (ExpressionEvaluator::bind_, csrc/expr_evaluator.cpp:
    hasCompatibleDataType, csrc/type.h): an int only for an integer dtype, a
    float only for a floating-point one, a bool only for Bool, a complex only
    for a complex dtype. A float for an Int input is never truncated (an
    extent of 2.9 is no extent), nor an int made a Double."""
    import numpy as np
    if isinstance(value, (bool, np.bool_)):
        given = "b"
    elif isinstance(value, (int, float, complex)):
        given = {int: "i", float: "f", complex: "c"}[
            next(t for t in (int, float, complex) if isinstance(value, t))]
    else:
        given = _kind(np.asarray(value).dtype)
    if given == _kind(numpy_dtype(dtype)):
        return
    item = value.item() if isinstance(value, (np.ndarray, np.generic)) else value
    if given == "b":
        shown = str(int(item))            # C++ prints a bool as 1 or 0
    elif given == "f":
        shown = "%g" % item               # and a double with 6 digits
    elif given == "c":
        shown = "(%g,%g)" % (item.real, item.imag)
    else:
        shown = str(item)
    raise FusionTypeError(
        "%s: Scalar value %s is not compatible with the expected data type: %s. (%s "
        "given for a DataType.%s scalar; nvFuser refuses it rather than converting it)"
        % (what, shown, _NVFUSER_TYPE_NAMES.get(dtype, dtype), _KIND_NAMES.get(given, given),
           _datatype_name(dtype)))


def _datatype_name(dtype):
    from ._states import DTYPE_NAMES
    return DTYPE_NAMES[dtype].name if dtype in DTYPE_NAMES else dtype
