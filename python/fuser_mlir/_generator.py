"""The process-wide random generator of uniform, normal, rand_like and
randn_like without rng_seed and rng_offset.

nvFuser draws such ops from torch's default CUDA generator: each kernel
launch asks it for philox_cuda_state(4 * n), n the kernel's random ops
without seed and offset, which returns the generator's seed and offset and
advances the offset by 4 * n (csrc/rng.cpp, csrc/device_lower/lower2device.cpp
assignRNGOffset); the kernel's k-th such op draws with the Philox offset
offset / 4 + k. fuser_mlir keeps the same state here: a seed and an offset in
torch's units (a multiple of 4). An execute of a definition with n such ops
takes (seed, offset), advances the offset by 4 * n and gives its k-th op (in
definition order) the Philox offset offset / 4 + k. Where nvFuser puts the
ops in one kernel in that order (the common case, and always for one op),
the draws are nvFuser's for the same seed and offset.

The seed: torch's when torch is importable (torch.initial_seed(); a
torch.manual_seed call, seen at the next draw, reseeds and sets the offset
to 0, as it does torch's CUDA generator), else torch's default seed
67280421310721; manual_seed() here sets it without torch.
"""

import sys
import threading

__all__ = ["DEFAULT_SEED", "manual_seed", "initial_seed", "get_rng_state", "set_rng_state",
           "draw"]

# c10::detail::default_rng_seed_val: the seed of torch's generators until
# manual_seed is called.
DEFAULT_SEED = 67280421310721

_U64 = 2**64


class _Generator:
    def __init__(self):
        self.lock = threading.Lock()
        self.seed = DEFAULT_SEED
        self.offset = 0
        self.torch = None          # the torch module, once imported (False: none)
        self.torch_marker = None   # what torch's seeding looked like at the last sync

    def _torch_marker(self):
        """torch's seed and its latest manual_seed call (torch.manual_seed
        queues a new callback for the CUDA generators on every call while
        CUDA is not initialized: a reseed with the same seed shows too), or
        None without torch."""
        if self.torch is None:
            try:
                import torch
                self.torch = torch
            except Exception:  # noqa: BLE001 (no torch, or one that does not import)
                self.torch = False
        if self.torch is False:
            return None
        torch = self.torch
        tracker = getattr(getattr(torch, "cuda", None), "_lazy_seed_tracker", None)
        call = getattr(tracker, "manual_seed_all_cb", None)
        return (torch.initial_seed() % _U64, call)

    def _sync(self):
        marker = self._torch_marker()
        if marker is None:
            return
        last = self.torch_marker
        if last is None or marker[0] != last[0] or marker[1] is not last[1]:
            self.seed, self.offset = marker[0], 0
        self.torch_marker = marker

    def draw(self, count):
        with self.lock:
            self._sync()
            seed, offset = self.seed, self.offset
            self.offset = (self.offset + 4 * count) % _U64
            return seed, offset

    def state(self):
        with self.lock:
            self._sync()
            return self.seed, self.offset

    def set_state(self, seed, offset):
        seed, offset = int(seed), int(offset)
        if offset % 4:
            raise ValueError("the offset is in torch's units, a multiple of 4; got %d" % offset)
        with self.lock:
            self._sync()  # a later torch.manual_seed still wins
            self.seed, self.offset = seed % _U64, offset % _U64


_GENERATOR = _Generator()


def manual_seed(seed):
    """Sets the generator's seed and its offset to 0 (torch.manual_seed does
    the same where torch is present)."""
    _GENERATOR.set_state(seed, 0)


def initial_seed():
    """The generator's seed."""
    return _GENERATOR.state()[0]


def get_rng_state():
    """(seed, offset): the generator's state; offset in torch's units."""
    return _GENERATOR.state()


def set_rng_state(state):
    """Restores a state get_rng_state returned."""
    seed, offset = state
    _GENERATOR.set_state(seed, offset)


def _int64(value):
    return value - _U64 if value >= 2**63 else value


def draw(count):
    """(seed, Philox offset of the first op) for one execute of a definition
    with `count` random ops without seed and offset, as int64 values (the
    bits of the unsigned ones); advances the generator."""
    seed, offset = _GENERATOR.draw(count)
    return _int64(seed), _int64(offset // 4)
