"""Python threads share the package's one MLIR context and the compile cache.

execute() on the CPU backend (which builds and JIT-compiles IR) beside a
thread building fusions finishes without errors: execute() used to release
the GIL, and the context, which has no locks, crashed now and then (a race,
so more rounds give more chances to meet it). The cache (issue 43) takes
executes on several threads with its introspection and eviction running
meanwhile, by count and by bytes."""
import sys
import threading

import numpy as np
import pytest

from fuser_mlir import DataType, FusionCache, FusionDefinition


def test_execute_beside_a_building_thread():
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[64, 256], dtype=DataType.BFloat16)
        s = fd.ops.sum(fd.ops.cast(t, DataType.Float), dims=[1], keepdim=True)
        fd.add_output(fd.ops.cast(fd.ops.div(fd.ops.exp(fd.ops.cast(t, DataType.Float)), s),
                                  DataType.BFloat16))
    inputs = fd.deterministic_inputs()
    errors = []

    def run():
        try:
            for _ in range(3):
                fd.execute(inputs, backend="cpu")
        except Exception as error:  # noqa: BLE001 - asserted below
            errors.append(error)

    def build():
        try:
            for n in range(1, 400):
                with FusionDefinition() as other:
                    x = other.define_tensor(shape=[n, n + 1], dtype=DataType.Float)
                    other.add_output(other.ops.sum(other.ops.exp(x), dims=[0]))
                other.mlir()
        except Exception as error:  # noqa: BLE001 - asserted below
            errors.append(error)

    for _ in range(10):
        threads = [threading.Thread(target=run), threading.Thread(target=build)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []


# The compile cache under threads (issue 43) ----------------------------------


@pytest.fixture
def fresh_cache():
    """An empty cache, switching threads as often as Python can, so that an
    unlocked iteration or a lookup racing an eviction is met in a few
    thousand calls (the unlocked cache failed these tests every time)."""
    FusionCache.reset()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield FusionCache.get()
    sys.setswitchinterval(interval)
    FusionCache.reset()


def _symbolic(scale):
    """A definition whose every input shape is a new variant."""
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        fd.add_output(fd.ops.mul(t, float(scale)))
    return fd


def _run_threads(workers, introspect=None):
    """Runs each worker on a thread (and `introspect` in a loop on another
    until they finish); returns the exceptions they raised."""
    errors, done = [], threading.Event()

    def guarded(fn):
        def run():
            try:
                fn()
            except Exception as error:  # noqa: BLE001 - returned
                errors.append(error)
        return run

    def loop():
        while not done.is_set():
            introspect()

    threads = [threading.Thread(target=guarded(w)) for w in workers]
    watcher = threading.Thread(target=guarded(loop)) if introspect else None
    for thread in threads + ([watcher] if watcher else []):
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    if watcher:
        watcher.join()
    return errors


def _executing(fd, scale, extents, backend="interp"):
    def work():
        for n in extents:
            x = np.arange(n, dtype=np.float32)
            (out,) = fd.execute([x], backend=backend)
            np.testing.assert_array_equal(out, x * np.float32(scale))
    return work


def test_introspection_beside_executing_threads(fresh_cache):
    """Four threads execute four definitions at 150 shapes each while
    another asks cache_info, num_fusions and num_variants: no
    "OrderedDict mutated during iteration", every count consistent."""
    fds = [_symbolic(scale) for scale in (2, 3, 5, 7)]
    seen = []

    def introspect():
        for fd in fds:
            seen.append(fd.cache_info().variants)
        assert fresh_cache.num_fusions() <= 4
        assert fresh_cache.num_variants() <= 600

    errors = _run_threads([_executing(fd, scale, range(1, 151))
                           for fd, scale in zip(fds, (2, 3, 5, 7))], introspect)
    assert errors == []
    assert seen and max(seen) <= 150
    assert [fd.cache_info() for fd in fds] == [(0, 150, 150)] * 4
    assert (fresh_cache.num_fusions(), fresh_cache.num_variants()) == (4, 600)


def test_eviction_under_threads_by_count(fresh_cache):
    """With max_variants 8, threads executing new and old shapes evict what
    the others look up (a lookup used to raise KeyError there)."""
    fresh_cache.max_variants = 8
    fds = [_symbolic(scale) for scale in (2, 3, 5, 7)]
    errors = _run_threads([_executing(fd, scale, [n % 12 + 1 for n in range(300)])
                           for fd, scale in zip(fds, (2, 3, 5, 7))],
                          lambda: (fresh_cache.num_variants(), fds[0].cache_info()))
    assert errors == []
    assert fresh_cache.num_variants() <= 8
    hits, misses, _ = fds[0].cache_info()
    assert hits + misses == 300 and misses > 12


def test_eviction_under_threads_by_bytes(fresh_cache):
    """max_bytes bounds the measured bytes of the held variants: CPU
    variants of about 870 KB each (docs/Python.md), at most 2 MB held."""
    fd = _symbolic(2)
    fd.execute([np.ones(3, np.float32)], backend="cpu")
    one = fresh_cache.num_bytes()
    assert one > 16 << 10  # a JIT-compiled module and its code, not a token count
    fresh_cache.max_bytes = 2 << 20
    fds = [_symbolic(scale) for scale in (3, 5, 7)]
    errors = _run_threads([_executing(fd, scale, range(1, 9), backend="cpu")
                           for fd, scale in zip(fds, (3, 5, 7))],
                          lambda: (fresh_cache.num_bytes(), fresh_cache.num_fusions()))
    assert errors == []
    assert 0 < fresh_cache.num_bytes() <= 2 << 20
    assert fresh_cache.num_variants() <= 8  # of the 25 compiled
    # Lowering the bound evicts at once; a variant larger than it runs and
    # is not kept.
    fresh_cache.max_bytes = 1
    assert fresh_cache.num_bytes() <= 1 and fresh_cache.num_variants() <= 1
    (out,) = fd.execute([np.ones(4, np.float32)], backend="cpu")
    np.testing.assert_array_equal(out, np.full(4, 2, np.float32))
    assert fresh_cache.num_bytes() <= 1


def test_threads_compiling_one_variant(fresh_cache):
    """Threads that miss the same variant at once each compile it; the cache
    keeps one and every thread gets the right result."""
    fd = _symbolic(3)
    start = threading.Barrier(4)

    def work():
        start.wait()
        _executing(fd, 3, [5, 5, 6])()

    assert _run_threads([work] * 4) == []
    assert fd.cache_info().variants == 2
    assert fresh_cache.num_variants() == 2
    hits, misses, _ = fd.cache_info()
    assert hits + misses == 12


def test_one_cache_from_racing_threads(fresh_cache):
    """FusionCache.get() makes one instance however many threads ask at
    once."""
    FusionCache.reset()
    got, start = [], threading.Barrier(8)

    def get():
        start.wait()
        got.append(FusionCache.get())

    for _ in range(20):
        FusionCache.reset()
        got.clear()
        assert _run_threads([get] * 8) == []
        assert len({id(cache) for cache in got}) == 1
