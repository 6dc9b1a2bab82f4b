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
import enum
import types

from . import _build, _errors, _fusion, _nvfuser_repr, _states
from ._cache import FusionCache
from ._errors import FusionError
from ._states import DataType, Scalar, Vector

__all__ = ["DataType", "FusionCache", "FusionDefinition", "FusionExecutorCache", "LRUCache",
           "IterDomain", "TensorDomain",
           "MultideviceNotSupportedError", "ParallelType", "Scalar", "Tensor", "TensorView",
           "Vector", "compute_tensor_descriptor", "execute_with_dtensors", "multidevice",
           "LruFusionCache", "Version", "nvfuser_direct_version", "pytorch_utils", "version",
           "FUSER_MLIR_VERSION", "NVFUSER_API_VERSION"]

# The nvFuser release whose nvfuser_direct API this module implements (the
# wheel docs/Python.md compares against); clients such as Thunder gate
# features on it (Thunder takes its nvfuser_direct path from 0.2.34 on).
NVFUSER_API_VERSION = "0.2.36"
# fuser_mlir's own version (python/pyproject.toml).
FUSER_MLIR_VERSION = "0.1.0"


def version():
    """nvFuser's version(): a string, "<nvFuser API level>+fuser_mlir.<own
    version>" (nvFuser gives e.g. "0.2.36+git7e04d26"), that compares with
    strings and Versions by its release numbers and parses as LooseVersion
    and PEP 440 versions do."""
    return Version("%s+fuser_mlir.%s" % (NVFUSER_API_VERSION, FUSER_MLIR_VERSION))


# nvFuser's __version__ is its version() (set at the end, after Version).
__version__ = None


class Tensor(_states.Tensor):
    """nvfuser_direct's TensorView: dtype() is a method."""
    __slots__ = ()

    def dtype(self):
        return _states.DTYPE_NAMES[self.fd._type_of(self)[1]]

    def domain(self):
        """The tensor's logical domain, printed as nvFuser prints a
        TensorDomain ("[iS0{2}, bS1{1}, iS2{i0}]"). Numbered per tensor in
        definition order, rank ids each: nvFuser's numbers where nvFuser
        makes no tensor of its own in between (no implicit casts). A
        reduction's result shows its kept dims only (nvFuser keeps the
        reduced ones as rS). Symbolic extents are known on inputs only (i0,
        i1, ... over the inputs' -1 extents): for another tensor of a
        definition with symbolic extents this raises FusionNotImplementedError."""
        return TensorDomain(self)


class IterDomain:
    """One dim of a TensorDomain: extent() an int, or the name of an input's
    symbolic extent ("i0")."""
    __slots__ = ("number", "_extent", "is_broadcast")

    def __init__(self, number, extent, is_broadcast):
        self.number, self._extent, self.is_broadcast = number, extent, is_broadcast

    def extent(self):
        return self._extent

    def __repr__(self):
        return "%sS%d{%s}" % ("b" if self.is_broadcast else "i", self.number, self._extent)

    __str__ = __repr__


class TensorDomain:
    """Tensor.domain(): the IterDomains of a tensor's logical domain."""

    def __init__(self, tensor):
        fd = tensor.fd
        first = symbolic = 0
        for record in fd._records:
            state = record.out
            if state is tensor:
                break
            if isinstance(state, _states.Tensor):
                first += len(fd._type_of(state)[0])
                if record.call == "define_tensor":
                    symbolic += record.kwargs["shape"].count(-1)
        record = fd._records[tensor.index]
        if record.call == "define_tensor":
            extents = []
            for extent in record.kwargs["shape"]:
                extents.append("i%d" % symbolic if extent == -1 else extent)
                symbolic += extent == -1
        elif fd.is_symbolic():
            raise _errors.FusionNotImplementedError(
                "%s.domain(): fuser_mlir knows the symbolic extents of a definition's "
                "inputs only; this definition has symbolic extents" % tensor.name)
        else:
            extents = list(fd._type_of(tensor)[0])
        self._axes = [IterDomain(first + d, e, e == 1) for d, e in enumerate(extents)]

    def __len__(self):
        return len(self._axes)

    def __getitem__(self, item):
        return self._axes[item]

    def __iter__(self):
        return iter(self._axes)

    def __repr__(self):
        return "[%s]" % ", ".join(str(axis) for axis in self._axes)

    __str__ = __repr__


TensorView = Tensor


class Fusion:
    """nvFuser's Fusion: the definition a FusionDefinition built (what
    fd.fusion gives and caches compile)."""

    def __init__(self, fd):
        self.fd = fd

    def __repr__(self):
        return repr(self.fd)

    def inputs(self):
        """The fusion's inputs in definition order: Tensors, and Scalars and
        Vectors for scalar and vector inputs."""
        return list(self.fd._inputs)

    def outputs(self):
        """The fusion's outputs in nvFuser's order: add_output order, those
        written into an input included, an output added both plainly and as
        an alias once (FusionDefinition._fusion_outputs)."""
        return self.fd._fusion_outputs()

    def print_math(self, from_outputs_only=True):
        """The fusion's math as a string: fuser_mlir's IR of it (MLIR), where
        nvFuser prints its own IR. A definition with symbolic extents gives
        the IR of its last execute, and before any execute the provisional
        IR, where each -1 extent stands as 2 (said in its first line).
        from_outputs_only is accepted; the IR has what the definition built."""
        fd = self.fd
        fd._ensure_defined()
        if not fd.is_symbolic():
            return fd.mlir()
        if fd._last_build is not None:
            return fd._last_build.native.mlir()
        if fd._provisional is None:
            raise FusionError("the fusion's math is known once inputs concretize this "
                              "definition (%s)" % fd._provisional_error)
        return ("// symbolic extents (-1) shown as %d until an execute concretizes them\n"
                % _build.PLACEHOLDER_EXTENT + fd._provisional.native.mlir())


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

    def __repr__(self):
        """nvFuser's text: a translation of the fusion's IR as nvFuser
        0.2.36 prints it (tv/c names, promotion casts and composites spelled
        out; _nvfuser_repr). A record the translation does not model prints
        as the recorded calls (fd._recorded_text())."""
        self._ensure_defined()
        try:
            return _nvfuser_repr.translate(self._records)
        except _nvfuser_repr.Unsupported:
            return self._recorded_text()

    __str__ = __repr__

    def _normalize_inputs(self, inputs):
        """As the direct bindings: a list or tuple among the inputs gives one
        input per element (a vector's scalars)."""
        return _flatten(inputs)


def _flatten(inputs):
    if not isinstance(inputs, (list, tuple)):
        return inputs
    for value in inputs:
        if isinstance(value, (list, tuple)):
            break
    else:
        return inputs  # nothing to flatten (execute's common case): no copy
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
        key = fusion.fd._cache_key()
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
    return _fusion.tensor_descriptor(sizes, strides)


def _torch_dtype_to_nvfuser_dtype(dtype):
    name = str(dtype).replace("torch.", "")
    try:
        return _states.DTYPE_NAMES[name]
    except KeyError:
        raise FusionError("no nvFuser DataType for %s" % dtype) from None


pytorch_utils = types.ModuleType("nvfuser_direct.pytorch_utils")
pytorch_utils.torch_dtype_to_nvfuser_dtype = _torch_dtype_to_nvfuser_dtype


class Version(str):
    """A version string (nvFuser's nvfuser_direct_version.Version) compared
    by its release numbers: "0.2.36+fuser_mlir.0.1.0" > "0.2.34", equal to
    "0.2.36"; the local part after "+" is not compared. Other strings, tuples
    of ints and Versions compare with it."""

    def __new__(cls, text):
        self = super().__new__(cls, str(text))
        self.release = _release(str(text))
        return self

    def _cmp(self, other):
        mine, theirs = self.release, _release(other)
        width = max(len(mine), len(theirs))
        mine += (0,) * (width - len(mine))
        theirs += (0,) * (width - len(theirs))
        return (mine > theirs) - (mine < theirs)

    def __eq__(self, other):
        return self._cmp(other) == 0

    def __ne__(self, other):
        return self._cmp(other) != 0

    def __lt__(self, other):
        return self._cmp(other) < 0

    def __gt__(self, other):
        return self._cmp(other) > 0

    def __le__(self, other):
        return self._cmp(other) <= 0

    def __ge__(self, other):
        return self._cmp(other) >= 0

    __hash__ = str.__hash__


def _release(version):
    """The release numbers of a version: (0, 2, 36) of "0.2.36+git7e04d26"
    or "v0.2.36rc1" (digits up to the first other character of each part)."""
    if isinstance(version, Version):
        return version.release
    if isinstance(version, tuple):
        return tuple(int(part) for part in version)
    text = str(version).strip().lstrip("vV").split("+")[0]
    numbers = []
    for part in text.split("."):
        digits = len(part) - len(part.lstrip("0123456789"))
        if not digits:
            break
        numbers.append(int(part[:digits]))
        if digits < len(part):
            break
    if not numbers:
        raise FusionError("%r is not a version number" % (version,))
    return tuple(numbers)


nvfuser_direct_version = types.ModuleType("nvfuser_direct.nvfuser_direct_version")
nvfuser_direct_version.Version = Version


class MultideviceNotSupportedError(FusionError, NotImplementedError):
    """nvFuser's multi-GPU API (multidevice, ParallelType scheduling,
    execute_with_dtensors): importable, as Thunder imports it, but fuser_mlir
    runs a fusion on one device and has no schedules to parallelize."""


def _multidevice_unsupported(what):
    raise MultideviceNotSupportedError(
        "%s: fuser_mlir does not implement nvFuser's multi-device API (DeviceMesh, "
        "sharding, DTensors); run the fusion on one device's tensors" % what)


def execute_with_dtensors(fd, inputs, *args, **kwargs):
    """nvFuser runs a fusion on DTensors; fuser_mlir does not."""
    _multidevice_unsupported("execute_with_dtensors")


class _Unsupported:
    """A class of nvFuser's multidevice module: raises when made."""

    def __init__(self, *args, **kwargs):
        _multidevice_unsupported("multidevice.%s" % type(self).__name__)


multidevice = types.ModuleType("nvfuser_direct.multidevice")
multidevice.__doc__ = ("nvFuser's multi-device API: importable, each class raises "
                       "MultideviceNotSupportedError when made")
for _name in ("DeviceMesh", "Communicator", "CommunicatorBackend", "MultiDeviceExecutor",
              "MultiDeviceExecutorParams", "Sharding"):
    setattr(multidevice, _name, type(_name, (_Unsupported,), {"__module__": multidevice.__name__}))
del _name


# nvFuser's ParallelType: the names its Python bindings give, valued by its
# IR's names. Naming one is fine; parallelizing a Tensor with it raises
# MultideviceNotSupportedError: fuser_mlir has no user schedules.
ParallelType = enum.Enum("ParallelType", [
    ("grid_x", "BIDx"), ("grid_y", "BIDy"), ("grid_z", "BIDz"),
    ("block_x", "TIDx"), ("block_y", "TIDy"), ("block_z", "TIDz"),
    ("mesh_x", "DIDx"), ("mesh_y", "DIDy"), ("mesh_z", "DIDz"),
    ("stream", "Stream"), ("vectorize", "Vectorize"), ("unroll", "Unroll"),
    ("unswitch", "Unswitch"), ("mma", "MMA"), ("group", "Group"), ("bulk", "Bulk"),
    ("serial", "Serial")], module=__name__)
ParallelType.__repr__ = lambda self: "ParallelType." + self.name


def _schedule_method(name):
    def method(self, *args, **kwargs):
        _multidevice_unsupported("Tensor.%s" % name)
    method.__name__ = name
    method.__doc__ = "nvFuser's scheduling/sharding call; raises MultideviceNotSupportedError."
    return method


# The TensorView scheduling calls of nvFuser's multi-device tests and of
# Thunder's multidevice_schedule: defined, so that the error says why.
for _name in ("set_device_mesh", "axis", "outer_split", "inner_split", "split", "merge",
              "reorder", "parallelize", "set_allocation_domain"):
    setattr(Tensor, _name, _schedule_method(_name))
del _name


__version__ = str(version())
