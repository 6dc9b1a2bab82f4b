"""Host time of a cached fd.execute of a small fusion (issue 48).

    PYTHONPATH=build/python_packages python3 bench/execute_overhead.py [--calls N]

The fusions: sum((a + b) * a, dims=[1]) of two [4, 8] f32 inputs and
relu(a + b) of two [16, 16] f32 inputs, each defined with static extents and
with symbolic ones (-1). For the interpreter (interp) and the CPU backend
(cpu) it prints, per call, the best of several timed loops (the machine may
be shared: the minimum is the least disturbed figure):
  execute   the whole cached call, fd.execute([a, b], backend=...)
  native    the compiled fusion's own run (CompiledFusion.run with an
            explicit budget: the kernel or interpreter, and the native
            module's marshalling of inputs and results)
  host      execute minus native: what the Python layer adds per call (the
            kernel's own time is a part of native, so the Python layer and
            the crossing together cost between host and execute)
  torch in  the whole cached call with torch CPU tensors (sharing the numpy
            inputs' memory) in and out, where torch imports
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
    # name: (input shape, the definition's ops, numpy's, torch's)
    fusions = {
        "sum((a + b) * a, dims=[1]) of [4, 8]": (
            (4, 8), lambda fd, a, b: fd.ops.sum(fd.ops.mul(fd.ops.add(a, b), a), dims=[1]),
            lambda a, b: ((a + b) * a).sum(axis=1), lambda a, b: ((a + b) * a).sum(dim=1)),
        "relu(a + b) of [16, 16]": (
            (16, 16), lambda fd, a, b: fd.ops.relu(fd.ops.add(a, b)),
            lambda a, b: np.maximum(a + b, 0), lambda a, b: (a + b).relu()),
    }

    def measure(fn):
        return best_per_call(fn, args.calls, args.repeats) * 1e6

    try:
        import torch
    except ImportError:
        torch = None
    print("cached execute, a and b f32; us per call, best of %d loops of %d calls"
          % (args.repeats, args.calls))
    for name, (shape, define, numpy_op, torch_op) in fusions.items():
        x = rng.standard_normal(shape).astype(np.float32)
        y = rng.standard_normal(shape).astype(np.float32)
        inputs = [x, y]
        tensors = None if torch is None else [torch.from_numpy(x), torch.from_numpy(y)]
        print(name)
        print("  %-8s %-8s %10s %10s %10s %10s" % ("extents", "backend", "execute", "native",
                                                    "host", "torch in"))
        for extents in ("static", "symbolic"):
            with FusionDefinition() as fd:
                a, b = (fd.define_tensor(shape=list(shape) if extents == "static" else
                                         [-1] * len(shape), contiguity=[True] * len(shape),
                                         dtype=DataType.Float) for _ in range(2))
                fd.add_output(define(fd, a, b))
            key = fd._cache_key()
            for backend in ("interp", "cpu"):
                (out,) = fd.execute(inputs, backend=backend)
                np.testing.assert_allclose(out, numpy_op(x, y), rtol=1e-5, atol=1e-5)
                compiled = next(variant[0][0] for variant_key, variant in
                                FusionCache.get()._variants.items()
                                if variant_key[:2] == (key, backend))
                native_inputs = [_arrays.to_native(v, "float32", v.shape) for v in inputs]
                whole = measure(lambda: fd.execute(inputs, backend=backend))
                native = measure(lambda: compiled.run(native_inputs, 1 << 40))
                with_torch = "-" if torch is None else \
                    "%.2f" % measure(lambda: fd.execute(tensors, backend=backend))
                print("  %-8s %-8s %10.2f %10.2f %10.2f %10s"
                      % (extents, backend, whole, native, whole - native, with_torch))
        print("  peers: numpy %.2f, torch eager %s"
              % (measure(lambda: numpy_op(x, y)),
                 "(not importable)" if torch is None else "%.2f" % measure(
                     lambda tx=torch.from_numpy(x), ty=torch.from_numpy(y): torch_op(tx, ty))))


if __name__ == "__main__":
    main()
