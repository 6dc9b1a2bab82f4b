"""Compiled fusions, kept per definition and input signature (nvFuser's
FusionCache and FusionExecutorCache in one).

A definition is keyed by its printed form (`repr(fd)`, or the IR of a
definition that came from a pipeline), so a script that defines the same
fusion again in a loop finds it compiled; a signature is what decides the
compiled code (FusionDefinition._signature). The least recently used variant
goes when more than `max_variants` are held.
"""

import collections

__all__ = ["FusionCache", "CacheInfo"]

CacheInfo = collections.namedtuple("CacheInfo", ["hits", "misses", "variants"])


class FusionCache:
    """The process's compiled fusions: FusionCache.get()."""

    _instance = None

    def __init__(self, max_variants=1024):
        self.max_variants = max_variants
        self._variants = collections.OrderedDict()  # (key, backend, signature) -> compiled
        self._counts = {}  # key -> [hits, misses]

    @classmethod
    def get(cls):
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    @classmethod
    def reset(cls):
        """Drops every compiled fusion and count."""
        cls._instance = None

    def lookup(self, key, backend, signature):
        counts = self._counts.setdefault(key, [0, 0])
        compiled = self._variants.get((key, backend, signature))
        if compiled is None:
            counts[1] += 1
            return None
        counts[0] += 1
        self._variants.move_to_end((key, backend, signature))
        return compiled

    def store(self, key, backend, signature, compiled):
        self._variants[(key, backend, signature)] = compiled
        while len(self._variants) > self.max_variants:
            self._variants.popitem(last=False)

    def info(self, key):
        """CacheInfo of one definition."""
        hits, misses = self._counts.get(key, (0, 0))
        variants = sum(1 for k in self._variants if k[0] == key)
        return CacheInfo(hits, misses, variants)

    def num_fusions(self):
        """How many definitions have compiled variants (nvFuser's name)."""
        return len({k[0] for k in self._variants})

    def num_variants(self):
        return len(self._variants)
