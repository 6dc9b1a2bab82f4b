"""nvFuser's current Python API, `nvfuser_direct`, over fuser_mlir.

    from fuser_mlir.nvfuser_direct import FusionDefinition, DataType

The same FusionDefinition as the legacy `nvfuser` API (fuser_mlir's own),
with what the direct bindings differ in: printed as `def nvfuser_fusion(fd)`,
`Tensor.dtype()` a method, `define_vector(n)` n scalar inputs, `fd.fusion`, and
the caches nvFuser's test suite drives (LRUCache, LruFusionCache,
FusionExecutorCache). `python -m fuser_mlir.nvfuser_compat` puts this module
in sys.modules as `nvfuser_direct`.
"""

import collections
import types

from . import _arrays, _fusion, _states
from ._cache import FusionCache
from ._errors import FusionError
from ._states import DataType, Scalar, Vector

__all__ = ["DataType", "FusionCache", "FusionDefinition", "FusionExecutorCache", "LRUCache",
           "Scalar", "Tensor", "TensorView", "Vector", "compute_tensor_descriptor",
           "LruFusionCache", "Version", "nvfuser_direct_version", "pytorch_utils", "version"]

__version__ = "0.1.0+fuser_mlir"


def version():
    """The version, comparable with strings and Versions."""
    return Version("0.1.0")


class Tensor(_states.Tensor):
    """nvfuser_direct's TensorView: dtype() is a method."""
    __slots__ = ()

    def dtype(self):
        return _states.DTYPE_NAMES[self.fd._type_of(self)[1]]


TensorView = Tensor


class Fusion:
    """nvFuser's Fusion: the definition a FusionDefinition built (what
    fd.fusion gives and caches compile)."""

    def __init__(self, fd):
        self.fd = fd

    def __repr__(self):
        return repr(self.fd)


class FusionDefinition(_fusion.FusionDefinition):
    """nvfuser_direct's FusionDefinition: a context manager as the legacy
    one, printed as `def nvfuser_fusion(fd : FusionDefinition) -> None :`."""
    _function_name = "nvfuser_fusion"
    _module_name = "nvfuser_direct"
    _state_classes = {_states.Tensor: Tensor}

    def __enter__(self):
        super().__enter__()
        self._fusion = Fusion(self)
        self.fec = None
        return self

    @property
    def fusion(self):
        if getattr(self, "fec", None) is not None:
            return self.fec.fusion()
        return self._fusion

    def define_vector(self, size, dtype=DataType.Int):
        """define_vector(n): a vector of n Int scalar inputs (the direct
        bindings' form; execute takes them as n scalars or one list)."""
        if isinstance(size, int) and not isinstance(size, bool):
            return super().define_vector([self.define_scalar(None, dtype=dtype)
                                          for _ in range(size)], dtype)
        return super().define_vector(size, dtype)

    def _normalize_inputs(self, inputs):
        """As the direct bindings: a list or tuple among the inputs gives one
        input per element (a vector's scalars)."""
        return _flatten(inputs)


def _flatten(inputs):
    if not isinstance(inputs, (list, tuple)):
        return inputs
    flat = []
    for value in inputs:
        flat.extend(value if isinstance(value, (list, tuple)) else [value])
    return flat


class FusionExecutorCache:
    """nvFuser's FusionExecutorCache of one fusion: execute() compiles each
    input signature once (fuser_mlir's FusionCache behind it)."""

    def __init__(self, fusion):
        if not isinstance(fusion, Fusion):
            raise FusionError("FusionExecutorCache takes a Fusion (fd.fusion), got %r"
                              % (fusion,))
        self._fusion = fusion

    def fusion(self):
        return self._fusion

    def execute(self, inputs, *, device=None, _enable_options=(), _disable_options=()):
        return self._fusion.fd.execute(inputs)


class LRUCache:
    """nvfuser_direct's LRUCache: compiled fusions by definition, the least
    recently used dropped beyond max_fusions."""

    def __init__(self, max_fusions=16384):
        self.max_fusions = max_fusions
        self._entries = collections.OrderedDict()
        self._lookups = self._hits = self._compiled = 0

    def cache_compile(self, fusion):
        key = repr(fusion)
        self._lookups += 1
        if key in self._entries:
            self._hits += 1
            self._entries.move_to_end(key)
            return FusionExecutorCache(fusion)
        self._compiled += 1
        self._entries[key] = True
        while len(self._entries) > self.max_fusions:
            self._entries.popitem(last=False)
        return FusionExecutorCache(fusion)

    def num_fusions(self):
        return len(self._entries)

    def stats(self):
        rate = 100.0 * self._hits / self._lookups if self._lookups else 0.0
        return ("Max Fusions Allowed: %d\nTotal Fusions in Cache: %d\n"
                "Total Unique Fusions Compiled: %d\nCache Lookups: %d\nCache Hits: %d\n"
                "Hit Rate: %.1f%%\n" % (self.max_fusions, len(self._entries), self._compiled,
                                       self._lookups, self._hits, rate))


class LruFusionCache:
    """nvfuser_direct's decorator: a function that builds a FusionDefinition
    from hashable arguments is called once per distinct arguments, up to
    max_fusions, least recently used first out."""

    def __init__(self, max_fusions=16384):
        self.max_fusions = max_fusions

    def __call__(self, function):
        import functools
        cached = functools.lru_cache(maxsize=self.max_fusions)(function)

        def stats():
            info = cached.cache_info()
            if not info.currsize:
                return "Max Fusions Allowed: %d\nThe fusion cache is empty.\n" % self.max_fusions
            return ("Max Fusions Allowed: %d\nTotal Fusions in Cache: %d\nCache Hits: %d\n"
                    "Cache Misses: %d\n" % (self.max_fusions, info.currsize, info.hits,
                                            info.misses))

        cached.stats = stats
        cached.num_fusions = lambda: cached.cache_info().currsize
        return cached


def compute_tensor_descriptor(sizes, strides):
    """(contiguity, stride_order) of a tensor of these sizes and strides, as
    nvFuser computes them (from_pytorch)."""
    import numpy as np
    array = np.lib.stride_tricks.as_strided(np.zeros(1, np.uint8), shape=tuple(sizes),
                                            strides=tuple(strides))
    stride_order = _arrays.stride_order_of(array)
    return _fusion.contiguity_of(array, stride_order), stride_order


def _torch_dtype_to_nvfuser_dtype(dtype):
    name = str(dtype).replace("torch.", "")
    try:
        return _states.DTYPE_NAMES[name]
    except KeyError:
        raise FusionError("no nvFuser DataType for %s" % dtype) from None


pytorch_utils = types.ModuleType("nvfuser_direct.pytorch_utils")
pytorch_utils.torch_dtype_to_nvfuser_dtype = _torch_dtype_to_nvfuser_dtype


class Version(tuple):
    """A version number compared component by component (nvFuser's
    nvfuser_direct_version.Version); fuser_mlir's own is 0.1.0."""

    def __new__(cls, text):
        return super().__new__(cls, tuple(int(p) for p in str(text).split(".")[:3]))

    def _other(self, other):
        return other if isinstance(other, Version) else Version(other)

    def __lt__(self, other):
        return tuple(self) < tuple(self._other(other))

    def __gt__(self, other):
        return tuple(self) > tuple(self._other(other))

    def __le__(self, other):
        return tuple(self) <= tuple(self._other(other))

    def __ge__(self, other):
        return tuple(self) >= tuple(self._other(other))


nvfuser_direct_version = types.ModuleType("nvfuser_direct.nvfuser_direct_version")
nvfuser_direct_version.Version = Version
