"""Scans and sorts along rows on the CPU backend against torch (issue 46).

    PYTHONPATH=build/python_packages build/thunder-venv/bin/python bench/rows_cpu.py

Per fusion, the median of --runs cached calls of fd.execute(..., backend="cpu")
and of torch's CPU op on the same data in the same run (torch with as many
threads as the machine has cores), and their ratio (fuser_mlir / torch).
Before each one's calls the bench sleeps --pause seconds: the threads of
the one timed before spin a while after their last call and, on a machine
of few cores, slow the next one down (without the pause torch's topk took
7.1-7.8 ms after fuser_mlir's calls, 0.21 ms alone, on 2 cores):
  cumsum   f32 [rows, 4096] along the rows
  argsort  f32 [rows, 4096] along the rows (stable)
  topk     k = 8 of 4096 per row, values and indices (a selection kernel)
           and k = 64 (more than a selection keeps: the row sorted)
--length over 4096 sorts by the merge-sort kind (multi-pass).
Without torch it prints fuser_mlir's times only.
"""

import argparse
import os
import statistics
import time

import numpy as np

from fuser_mlir.nvfuser_direct import DataType, FusionDefinition

try:
    import torch
except ImportError:
    torch = None


def median_seconds(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def define(op):
    with FusionDefinition() as fd:
        x = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        outs = op(fd, x)
        for out in outs if isinstance(outs, tuple) else (outs,):
            fd.add_output(out)
    return fd


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=64)
    parser.add_argument("--length", type=int, default=4096)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pause", type=float, default=0.5)
    args = parser.parse_args()
    cores = os.cpu_count()
    if torch is not None:
        torch.set_num_threads(cores)
    x = np.random.default_rng(0).standard_normal((args.rows, args.length)).astype(np.float32)
    cases = {
        "cumsum": (lambda fd, t: fd.ops.cumsum(t, 1),
                   lambda t: torch.cumsum(t, 1)),
        "argsort": (lambda fd, t: fd.ops.argsort(t, dim=1, stable=True),
                    lambda t: torch.argsort(t, dim=1, stable=True)),
        "topk k=8": (lambda fd, t: fd.ops.topk(t, 8, dim=1, largest=True, sorted=True),
                     lambda t: torch.topk(t, 8, dim=1, largest=True, sorted=True)),
        "topk k=64": (lambda fd, t: fd.ops.topk(t, 64, dim=1, largest=True, sorted=True),
                      lambda t: torch.topk(t, 64, dim=1, largest=True, sorted=True)),
    }
    print("f32 [%d, %d] along dim 1, %d cores, median of %d runs (ms)"
          % (args.rows, args.length, cores, args.runs))
    print("%-10s %12s %12s %8s" % ("fusion", "fuser cpu", "torch", "ratio"))
    for name, (ours, theirs) in cases.items():
        fd = define(ours)
        time.sleep(args.pause)
        mine = median_seconds(lambda: fd.execute([x], backend="cpu"), args.runs)
        line = "%-10s %12.3f" % (name, mine * 1e3)
        if torch is not None:
            t = torch.from_numpy(x)
            time.sleep(args.pause)
            peer = median_seconds(lambda: theirs(t), args.runs)
            line += " %12.3f %8.2f" % (peer * 1e3, mine / peer)
        print(line)


if __name__ == "__main__":
    main()
