#!/usr/bin/env python3
"""First call against cached calls of FusionDefinition.execute (docs/Python.md,
"Compile once, run many"): the Mistral RoPE backward fusion, static as
nvFuser prints it and symbolic (-1 extents, sizes from Tensor.shape()), on
the CPU backend. The first call concretizes, runs the pipelines and JIT-
compiles; a cached call only runs.

    PYTHONPATH=build/python_packages python3 bench/python_compile_once.py [--runs N]
"""
import argparse
import statistics
import time

import ml_dtypes
import numpy as np

from fuser_mlir import DataType, FusionCache, FusionDefinition


def mistral(fd, symbolic):
    shape = [1, -1, -1, 128] if symbolic else [1, 32, 4096, 128]
    t0 = fd.define_tensor(shape=shape, contiguity=[None, True, True, True],
                          dtype=DataType.BFloat16, stride_order=[3, 2, 1, 0])
    _, heads, seq, dim = t0.shape()
    groups = fd.ops.div(heads, 4) if symbolic else heads // 4
    t1 = fd.ops.reshape(t0, new_shape=[1, groups, 4, seq, dim])
    t3 = fd.ops.squeeze(fd.ops.cast(t1, dtype=DataType.Float), dims=[0])
    t5 = fd.ops.cast(fd.ops.sum(t3, dims=[1]), dtype=DataType.BFloat16)
    t6 = fd.ops.broadcast_in_dim(t5, shape=[1, groups, 1, seq, dim], broadcast_dims=[1, 3, 4])
    t8 = fd.ops.squeeze(fd.ops.cast(t6, dtype=DataType.Float), dims=[0, 2])
    t10 = fd.ops.broadcast_in_dim(fd.ops.cast(t8, dtype=DataType.BFloat16),
                                  shape=[1, groups, seq, dim], broadcast_dims=[1, 2, 3])
    t11 = fd.ops.permute(t10, dims=[0, 2, 1, 3])
    fd.add_output(fd.ops.reshape(t11, new_shape=[1, seq, fd.ops.mul(groups, dim)
                                                 if symbolic else groups * dim]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cached calls to time")
    parser.add_argument("--backend", default="cpu")
    args = parser.parse_args()
    x = np.random.default_rng(0).standard_normal((1, 32, 4096, 128)).astype(ml_dtypes.bfloat16)
    print("%-9s %12s %14s %10s" % ("variant", "first s", "cached ms", "variants"))
    for symbolic in (False, True):
        FusionCache.reset()
        with FusionDefinition() as fd:
            mistral(fd, symbolic)
        start = time.perf_counter()
        (first,) = fd.execute([x], backend=args.backend)
        first_s = time.perf_counter() - start
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            (again,) = fd.execute([x], backend=args.backend)
            times.append(time.perf_counter() - start)
        assert again.tobytes() == first.tobytes()
        info = fd.cache_info()
        assert info.misses == 1 and info.hits == args.runs
        print("%-9s %12.3f %14.1f %10d" % ("symbolic" if symbolic else "static", first_s,
                                           1000 * statistics.median(times), info.variants))


if __name__ == "__main__":
    main()
