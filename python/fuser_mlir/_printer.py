"""A definition as nvFuser's Python: what `repr(fd)` prints and
`fd.repro_script_for(inputs)` writes. The text runs again and builds the same
fusion (python/tests/test_repr.py checks it for every op)."""

import math

from ._arrays import ML_DTYPES
from ._states import DataType, State

__all__ = ["format_value", "format_definition", "format_repro_script"]


def format_value(value):
    """A record argument as Python source."""
    if isinstance(value, State):
        return value.name
    if isinstance(value, DataType):
        return repr(value)
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "float('nan')"
        if math.isinf(value):
            return "float('inf')" if value > 0 else "float('-inf')"
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, complex):
        return "complex(%s, %s)" % (format_value(value.real), format_value(value.imag))
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if hasattr(value, "item"):  # a numpy scalar
        return format_value(value.item())
    raise TypeError("cannot print %r in a definition" % (value,))


def format_record(record):
    arguments = [format_value(a) for a in record.args]
    arguments += ["%s=%s" % (k, format_value(v)) for k, v in record.kwargs.items()]
    call = "fd.%s(%s)" % (record.call, ", ".join(arguments))
    if record.out is None:
        return call
    names = [out.name for out in (record.out,) + tuple(record.extra_outs)]
    return "%s = %s" % (", ".join(names), call)


def format_definition(function_name, records):
    lines = ["def %s(fd : FusionDefinition) -> None :" % function_name]
    # Records with call None are the further results of the call before.
    lines += ["    " + format_record(record) for record in records
              if record.call is not None]
    if not records:
        lines.append("    pass")
    return "\n".join(lines) + "\n"


# An integer tensor input of at most this many elements is written with its
# values: such inputs are offsets, indices, sizes or seeds, whose random
# stand-ins would make the script fail (grouped_mm's offsets must be
# non-negative and non-decreasing, gather's indices in range).
SMALL_INTEGER_INPUT = 64


def _small_integers(not_integer, count):
    return not not_integer and count <= SMALL_INTEGER_INPUT


def _format_input(value):
    """Source that makes an input like `value` (a torch tensor, a numpy
    array or a scalar)."""
    module = type(value).__module__
    if module.startswith("torch"):
        shape = list(value.shape)
        if _small_integers(value.dtype.is_floating_point or value.dtype.is_complex
                           or str(value.dtype) == "torch.bool", value.numel()) \
                and value.is_contiguous():
            return "torch.tensor(%r, dtype=%s, device=%r)" % (
                value.tolist(), value.dtype, str(value.device))
        return ("torch.testing.make_tensor(%r, dtype=%s, device=%r).as_strided(%r, %r)"
                % (shape, value.dtype, str(value.device), shape, list(value.stride())))
    if module.startswith("numpy"):
        import numpy as np
        array = np.asarray(value)
        dtype = array.dtype.name
        if dtype in ML_DTYPES:
            return ("np.asarray(np.random.default_rng(0).standard_normal(%r), "
                    "dtype=ml_dtypes.%s)" % (list(array.shape), dtype))
        if array.dtype.kind == "f":
            return ("np.asarray(np.random.default_rng(0).standard_normal(%r), dtype=np.%s)"
                    % (list(array.shape), dtype))
        if array.dtype.kind == "b":
            return "np.random.default_rng(0).integers(0, 2, %r).astype(bool)" % (list(array.shape),)
        if _small_integers(array.dtype.kind not in "iu", array.size):
            return "np.array(%r, dtype=np.%s)" % (array.tolist(), dtype)
        return ("np.random.default_rng(0).integers(-8, 8, %r).astype(np.%s)"
                % (list(array.shape), dtype))
    return format_value(value)


def format_repro_script(module_name, function_name, records, inputs):
    """A complete script: imports, the definition, inputs like `inputs`, and
    the run."""
    uses_torch = any(type(v).__module__.startswith("torch") for v in inputs)
    lines = ["# A fuser_mlir repro: run it with nvFuser or with",
             "# `python -m fuser_mlir.nvfuser_compat THIS_FILE`.",
             "import torch" if uses_torch else "import numpy as np",
             ]
    if not uses_torch and any(getattr(getattr(v, "dtype", None), "name", "") in ML_DTYPES
                              for v in inputs):
        lines.append("import ml_dtypes")
    lines += ["from %s import FusionDefinition, DataType" % module_name, "", ""]
    lines.append(format_definition(function_name, records))
    lines += ["with FusionDefinition() as fd:", "    %s(fd)" % function_name, ""]
    lines.append("inputs = [")
    lines += ["    %s," % _format_input(value) for value in inputs]
    lines += ["]", "fd.execute(inputs)", ""]
    return "\n".join(lines)
