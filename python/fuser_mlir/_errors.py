"""The exceptions of fuser_mlir.

nvFuser raises RuntimeError for every error in a definition or a run, so code
written for it catches RuntimeError; the precise Python type (TypeError for a
wrong kind of argument, ValueError for a wrong value) is kept as a second base.
"""

__all__ = ["FusionError", "FusionMemoryError", "FusionNotImplementedError", "FusionTypeError",
           "FusionValueError", "UnsupportedOpError"]


class FusionError(RuntimeError):
    """An error of a fusion definition, its concretization or its run."""


class FusionTypeError(FusionError, TypeError):
    """An argument of the wrong kind (a dtype where a Tensor belongs, ...)."""


class FusionValueError(FusionError, ValueError):
    """An argument of the right kind with a wrong value (shape, dims, ...)."""


class FusionMemoryError(FusionError, MemoryError):
    """A run whose buffers would exceed its budget (BackendOptions::maxTotalBytes:
    $FUSER_MAX_TOTAL_BYTES, else three quarters of what the process may
    allocate when it starts), raised before the buffer is allocated; or an
    allocation the backend could not make."""


class FusionNotImplementedError(FusionError, NotImplementedError):
    """A definition with nothing to run (nvFuser's NotImplementedError)."""


class UnsupportedOpError(FusionError, AttributeError):
    """An nvFuser operation that fuser_mlir does not model."""

    def __init__(self, op, filename=None, line=None):
        self.op, self.filename, self.line = op, filename, line
        where = "%s:%s: " % (filename, line) if filename else ""
        super().__init__("%snvFuser operation 'fd.ops.%s' is not supported by "
                         "fuser_mlir (docs/Python.md lists the ops)" % (where, op))


def translate(error):
    """The fuser_mlir exception for an exception of the native module."""
    if isinstance(error, FusionError):
        return error
    if isinstance(error, TypeError):
        return FusionTypeError(str(error))
    if isinstance(error, ValueError):
        return FusionValueError(str(error))
    if isinstance(error, MemoryError) or any(words in str(error) for words in _MEMORY_WORDS):
        return FusionMemoryError(str(error))
    return FusionError(str(error))


# The words of the backends' budget and allocation errors (reserveRunBytes,
# lib/ExecutionEngine/Backend.cpp; the CPU backend's host allocations).
_MEMORY_WORDS = ("bytes for all its buffers together", "out of memory: could not allocate")
