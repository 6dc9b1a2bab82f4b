"""Compiled fusions, kept per definition and input signature (nvFuser's
FusionCache and FusionExecutorCache in one).

A definition is keyed by a hash of its records (definition_key: each call,
its arguments with their types, its results), or of its IR where it came from
a pipeline, computed once when the definition is finished (as nvFuser's
FusionCache keys its records), so a script that defines the same fusion again
in a loop finds it compiled; a signature is what decides the compiled code
(FusionDefinition._prepare_inputs), a tuple built per call without strings.

Two bounds hold, each enforced by dropping the least recently used variant:
`max_variants` (1024) and `max_bytes` (DEFAULT_MAX_BYTES, 256 MiB) of
native memory, as measured_compile() counts it: the heap one compile
retains, measured around the native call.

Every method takes the cache's lock, so executes on several threads, the
introspection (info, num_fusions, num_variants, num_bytes) and eviction may
run at once. Compiling happens outside the lock: two threads that miss the
same variant both compile it, and store() keeps the first one stored (the
second thread runs the one the cache holds).
"""

import collections
import ctypes
import ctypes.util
import hashlib
import sys
import threading

from ._states import State

__all__ = ["FusionCache", "CacheInfo", "DEFAULT_MAX_BYTES", "DEFAULT_MAX_VARIANTS",
           "measured_compile", "definition_key", "text_key"]

# How many definition keys were computed (definition_key, text_key): a
# cached execute computes none (python/tests/test_execute_overhead.py).
key_computations = 0


def _record_value(value):
    """A record argument as a tuple of plain values that tells apart what
    the printer tells apart, and more: each value's type goes with it (1, 1.0
    and True differ), floats by their bits (-0.0 and 0.0, every NaN alike)."""
    kind = type(value)
    if kind is bool or value is None:
        return value
    if kind is int:
        return ("i", value)
    if kind is float:
        return ("f", value.hex())
    if kind is complex:
        return ("c", value.real.hex(), value.imag.hex())
    if kind is str:
        return ("s", value)
    if isinstance(value, (list, tuple)):
        return ("l",) + tuple(_record_value(v) for v in value)
    if isinstance(value, State):  # T3, S4, V5: by index (its record says its kind)
        return ("v", value.index)
    if kind.__module__ == "numpy" and hasattr(value, "dtype"):
        if getattr(value, "ndim", 0) == 0:  # a numpy scalar
            return ("n", value.dtype.name, _record_value(value.item()))
        return ("a", value.dtype.str, value.shape, value.tobytes())
    # DataType and other enums, and anything else: its type and repr.
    return (kind.__module__, kind.__qualname__, repr(value))


def definition_key(records):
    """The cache key of a definition: a 256-bit hash (BLAKE2b) of its
    records, each as its call, arguments, keyword arguments and the number
    of its results. Computed once per finished definition."""
    global key_computations
    key_computations += 1
    parts = tuple((record.call, tuple(_record_value(a) for a in record.args),
                   tuple((k, _record_value(v)) for k, v in record.kwargs.items()),
                   None if record.out is None else len(record.extra_outs) + 1)
                  for record in records if record.call is not None)
    return hashlib.blake2b(repr(parts).encode(), digest_size=32).digest()


def text_key(text):
    """The cache key of a definition given as text (a pipeline's IR)."""
    global key_computations
    key_computations += 1
    return hashlib.blake2b(text.encode(), digest_size=32, person=b"fuser-ir").digest()

CacheInfo = collections.namedtuple("CacheInfo", ["hits", "misses", "variants"])

DEFAULT_MAX_VARIANTS = 1024
DEFAULT_MAX_BYTES = 256 << 20

# What a variant counts where the heap cannot be measured (no glibc
# mallinfo2): about what a CPU backend compile of a small fusion retains.
FALLBACK_VARIANT_BYTES = 1 << 20


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _load_mallinfo2():
    """glibc's mallinfo2, called without releasing the GIL (PyDLL): no other
    Python thread runs between a measurement and the compile."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.PyDLL(ctypes.util.find_library("c") or "libc.so.6")
        function = libc.mallinfo2
    except (OSError, AttributeError):
        return None
    function.restype = _Mallinfo2
    function.argtypes = []
    return function


_mallinfo2 = _load_mallinfo2()

# Held across a measured compile and while evicted variants are released, so
# that neither another compile nor an eviction changes the heap inside a
# measurement.
_MEASURE_LOCK = threading.Lock()


def _heap_in_use():
    """Bytes malloc has handed out and not had back (its arenas' chunks in
    use and its mmapped chunks)."""
    info = _mallinfo2()
    return info.uordblks + info.hblkhd


def measured_compile(compile_fn, *args):
    """(compile_fn(*args), the bytes it retained): the growth of the heap in
    use across the call (glibc's mallinfo2, uordblks + hblkhd). The native
    compile holds the GIL throughout (FuserMLIRModule.cpp) and the
    measurement does not release it, so other Python threads allocate or free
    only where the interpreter switches threads between the measurement and
    the call; other compiles and evictions wait for it. Without mallinfo2 a
    variant counts FALLBACK_VARIANT_BYTES."""
    if _mallinfo2 is None:
        return compile_fn(*args), FALLBACK_VARIANT_BYTES
    with _MEASURE_LOCK:
        before = _heap_in_use()
        compiled = compile_fn(*args)
        after = _heap_in_use()
    return compiled, max(after - before, 0)


class FusionCache:
    """The process's compiled fusions: FusionCache.get()."""

    _instance = None
    _instance_lock = threading.Lock()

    def __init__(self, max_variants=DEFAULT_MAX_VARIANTS, max_bytes=DEFAULT_MAX_BYTES):
        self._lock = threading.RLock()
        # (key, backend, signature) -> (compiled, bytes), least recent first
        self._variants = collections.OrderedDict()
        self._counts = {}  # key -> [hits, misses]
        self._bytes = 0
        self._max_variants = max_variants
        self._max_bytes = max_bytes

    @classmethod
    def get(cls):
        instance = cls._instance
        if instance is None:
            with cls._instance_lock:
                if cls._instance is None:
                    cls._instance = cls()
                instance = cls._instance
        return instance

    @classmethod
    def reset(cls):
        """Drops every compiled fusion and count."""
        with cls._instance_lock:
            cls._instance = None

    @property
    def max_variants(self):
        """How many compiled variants are kept (1024 by default)."""
        return self._max_variants

    @max_variants.setter
    def max_variants(self, value):
        self._set_bound("_max_variants", value)

    @property
    def max_bytes(self):
        """How many bytes of compiled variants are kept, as measured_compile
        counts them (DEFAULT_MAX_BYTES, 256 MiB, by default)."""
        return self._max_bytes

    @max_bytes.setter
    def max_bytes(self, value):
        self._set_bound("_max_bytes", value)

    def _set_bound(self, name, value):
        """Sets a bound and evicts at once down to it."""
        with self._lock:
            setattr(self, name, value)
            evicted = self._evict()
        _release(evicted)

    def lookup(self, key, backend, signature):
        """The compiled variant, or None (a miss)."""
        variant = (key, backend, signature)
        with self._lock:
            counts = self._counts.get(key)
            if counts is None:
                counts = self._counts[key] = [0, 0]
            held = self._variants.get(variant)
            if held is None:
                counts[1] += 1
                return None
            counts[0] += 1
            self._variants.move_to_end(variant)
            return held[0]

    def store(self, key, backend, signature, compiled, nbytes=0):
        """Keeps `compiled` (`nbytes` of memory) unless another thread stored
        the variant first; returns the one the cache holds (or `compiled`
        where it is too big to be kept)."""
        with self._lock:
            held = self._variants.get((key, backend, signature))
            if held is not None:
                self._variants.move_to_end((key, backend, signature))
                return held[0]
            self._variants[(key, backend, signature)] = (compiled, nbytes)
            self._bytes += nbytes
            evicted = self._evict()
        _release(evicted)
        return compiled

    def _evict(self):
        """Drops the least recently used variants until both bounds hold;
        returns them, for _release outside the lock."""
        evicted = []
        while self._variants and (len(self._variants) > self._max_variants
                                  or self._bytes > self._max_bytes):
            _, (compiled, nbytes) = self._variants.popitem(last=False)
            self._bytes -= nbytes
            evicted.append(compiled)
        return evicted

    def info(self, key):
        """CacheInfo of one definition."""
        with self._lock:
            hits, misses = self._counts.get(key, (0, 0))
            variants = sum(1 for k in self._variants if k[0] == key)
        return CacheInfo(hits, misses, variants)

    def num_fusions(self):
        """How many definitions have compiled variants (nvFuser's name)."""
        with self._lock:
            return len({k[0] for k in self._variants})

    def num_variants(self):
        with self._lock:
            return len(self._variants)

    def num_bytes(self):
        """The bytes the held variants count against max_bytes."""
        with self._lock:
            return self._bytes

    # Serialization (nvFuser's FusionCache.serialize and deserialize) -------

    def serialize(self, filename):
        """Writes the compiled variants to `filename`, as nvFuser writes its
        cache (the definitions of the fusions that ran, their compiled
        kernels): per variant, its key, backend and input signature, the
        definition's text (its recorded calls, fd._recorded_text()) and
        the extents it was built for, least recently used first. A fusion defined but never executed has no
        variant and is not written, as in nvFuser; nor are the definitions
        that come from a pipeline (fd.preseg(), fd.segment())."""
        import json
        with self._lock:
            held = list(self._variants.items())
        variants = []
        for (key, backend, signature), (entry, _) in held:
            build = entry[1] if isinstance(entry, tuple) else None
            if build is None or type(build.fd).__name__ == "_DerivedDefinition":
                continue
            variants.append({
                "key": key.hex(), "backend": backend, "signature": signature,
                "module": build.fd._module_name, "definition": build.fd._recorded_text(),
                "shapes": build.shapes, "values": build.scalar_values})
        text = json.dumps({"format": SERIALIZED_FORMAT, "max_variants": self._max_variants,
                           "max_bytes": self._max_bytes, "variants": variants})
        with open(filename, "w") as output:
            output.write(text)

    def deserialize(self, filename):
        """Restores the variants `serialize` wrote: each definition is built
        again from its text for its extents and compiled now, on its backend,
        so that the first execute of an equal definition (the same records,
        in this process or another) is a cache hit. As nvFuser's, refused
        where this cache holds variants already (FusionCache.reset() empties
        it)."""
        import json
        from ._errors import FusionError
        from ._fusion import _call
        with self._lock:
            if self._variants:
                raise FusionError("FusionCache.deserialize: the cache holds %d compiled "
                                  "fusions already; deserialization needs an empty cache "
                                  "(FusionCache.reset())" % len(self._variants))
        with open(filename) as source:
            try:
                data = json.load(source)
            except ValueError:
                data = None
        if not isinstance(data, dict) or data.get("format") != SERIALIZED_FORMAT:
            raise FusionError("%s is not a fuser_mlir FusionCache file (serialize writes "
                              "them; nvFuser's flatbuffers are not read)" % filename)
        self.max_variants = data["max_variants"]
        self.max_bytes = data["max_bytes"]
        for variant in data["variants"]:
            fd = _definition_from_text(variant["module"], variant["definition"])
            shapes = {int(p): v for p, v in (variant["shapes"] or {}).items()}
            values = {int(p): _tuples(v) if isinstance(v, list) else v
                      for p, v in (variant["values"] or {}).items()}
            build = fd._build(shapes, values)
            compiled, nbytes = _call(measured_compile, build.native.compile,
                                     variant["backend"])
            self.store(bytes.fromhex(variant["key"]), variant["backend"],
                       _tuples(variant["signature"]), (compiled, build), nbytes)


# What FusionCache.serialize writes names its format with this.
SERIALIZED_FORMAT = "fuser_mlir.FusionCache/1"


def _tuples(value):
    """JSON's lists back as the tuples a signature is made of."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _definition_from_text(module, text):
    """The definition that fd._recorded_text() printed, of the API `module` names
    ("nvfuser" or "nvfuser_direct"), built anew."""
    from . import _fusion, _states, nvfuser_direct
    cls = nvfuser_direct.FusionDefinition if module == "nvfuser_direct" else \
        _fusion.FusionDefinition
    namespace = {"FusionDefinition": cls, "DataType": _states.DataType}
    exec(compile(text, "<FusionCache.deserialize>", "exec"), namespace)
    function = next(v for k, v in namespace.items() if k.startswith("nvfuser_fusion"))
    hook, _fusion.definition_hook = _fusion.definition_hook, None
    try:
        with cls() as fd:
            function(fd)
    finally:
        _fusion.definition_hook = hook
    return fd


def _release(evicted):
    """Frees evicted variants (where nothing else holds them) outside any
    measured compile."""
    if evicted:
        with _MEASURE_LOCK:
            evicted.clear()
