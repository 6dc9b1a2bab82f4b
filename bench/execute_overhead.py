"""Host time of a cached fd.execute of a small fusion (issue 48).

    PYTHONPATH=build/python_packages python3 bench/execute_overhead.py [--calls N]

The fusion: two [4, 8] f32 inputs, out = sum((a + b) * a, dims=[1]), defined
with static extents and with symbolic ones (-1). For the interpreter (interp)
and the CPU backend (cpu) it prints, per call, the best
of several timed loops (the machine may be shared: the minimum is the least
disturbed figure):
  execute   the whole cached call, fd.execute([a, b], backend=...)
  native    the compiled fusion's own run (CompiledFusion.run with an
            explicit budget: the kernel or interpreter, and the native
            module's marshalling of inputs and results)
  host      execute minus native: what the Python layer adds per call
and, as peers in the same run, numpy doing the same arithmetic and torch
eager (where torch imports).
"""

import argparse
import time

import numpy as np

from fuser_mlir import _arrays
from fuser_mlir._cache import FusionCache
from fuser_mlir.nvfuser_direct import DataType, FusionDefinition


def best_per_call(fn, calls, repeats):
    """The least seconds per call over `repeats` loops of `calls` calls."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    y = rng.standard_normal((4, 8)).astype(np.float32)
    inputs = [x, y]

    def measure(fn):
        return best_per_call(fn, args.calls, args.repeats) * 1e6

    print("cached execute of sum((a + b) * a, dims=[1]), a, b: [4, 8] f32; "
          "us per call, best of %d loops of %d calls" % (args.repeats, args.calls))
    print("%-8s %-8s %10s %10s %10s" % ("extents", "backend", "execute", "native", "host"))
    for extents in ("static", "symbolic"):
        shape = [4, 8] if extents == "static" else [-1, -1]
        with FusionDefinition() as fd:
            a = fd.define_tensor(shape=shape, contiguity=[True, True], dtype=DataType.Float)
            b = fd.define_tensor(shape=shape, contiguity=[True, True], dtype=DataType.Float)
            fd.add_output(fd.ops.sum(fd.ops.mul(fd.ops.add(a, b), a), dims=[1]))
        key = fd._cache_key() if hasattr(fd, "_cache_key") else repr(fd)  # (before issue 48)
        for backend in ("interp", "cpu"):
            expected = ((x + y) * x).sum(axis=1)
            (out,) = fd.execute(inputs, backend=backend)
            np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
            compiled = next(variant[0][0] for variant_key, variant in
                            FusionCache.get()._variants.items()
                            if variant_key[:2] == (key, backend))
            native_inputs = [_arrays.to_native(v, "float32", v.shape) for v in inputs]
            whole = measure(lambda: fd.execute(inputs, backend=backend))
            native = measure(lambda: compiled.run(native_inputs, 1 << 40))
            print("%-8s %-8s %10.2f %10.2f %10.2f"
                  % (extents, backend, whole, native, whole - native))
    print("peers:")
    print("%-17s %10.2f" % ("numpy", measure(lambda: ((x + y) * x).sum(axis=1))))
    try:
        import torch
    except ImportError:
        print("%-17s %10s" % ("torch", "(not importable)"))
    else:
        tx, ty = torch.from_numpy(x), torch.from_numpy(y)
        print("%-17s %10.2f" % ("torch", measure(lambda: ((tx + ty) * tx).sum(dim=1))))


if __name__ == "__main__":
    main()
