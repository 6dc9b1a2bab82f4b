"""Thunder's cached step of a litgpt-style Llama block on fuser_mlir against
eager torch (issue 48; docs/Python.md, "Thunder").

    FUSER_MLIR_HOST_BACKEND=cpu PYTHONPATH=build/python_packages \
        build/thunder-venv/bin/python bench/thunder_step.py [--steps N] [--profile]

Needs build/thunder-venv (make check-thunder makes it). The block, its
inputs and Thunder's patches for CPU tensors are python/tests_thunder/
run_thunder.py's. Each loop runs one step, forward and backward, of the
block through thunder.jit with the nvFuser executor on fuser_mlir (on the
backend FUSER_MLIR_HOST_BACKEND names) and one of the same block in eager
torch, alternating, so that both see the same machine load; the steps are
cached (the first of each is run before). Prints, in ms per step, the median
and the least of the steps of each, the part of the Thunder step inside
fuser_mlir's execute (all regions; a mean), and the ratio of the medians.
`--profile` prints cProfile's top functions of the Thunder steps.
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python",
                                "tests_thunder"))

import run_thunder  # noqa: E402 (installs fuser_mlir as nvFuser, imports Thunder)
import torch  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1,
                        help="threads of torch (eager torch and the ops Thunder leaves to "
                        "torch: the matmuls) and of the CPU backend (FUSER_MLIR_NUM_THREADS, "
                        "read at each run)")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    os.environ["FUSER_MLIR_NUM_THREADS"] = str(args.threads)
    ex = run_thunder.patch_thunder()
    torch.manual_seed(0)
    block = run_thunder.Block()
    cos, sin = run_thunder.rope_cache(32, 16)
    inputs = (torch.randn(2, 32, 64, generator=torch.Generator().manual_seed(0)), cos, sin)
    jitted = run_thunder.thunder.jit(block, executors=[ex])
    expected, grad_out = run_thunder.step(block, inputs)
    got, _ = run_thunder.step(jitted, inputs, grad_out)
    error = max(run_thunder.max_error(g, e, torch.float32) for g, e in zip(got, expected))
    run_thunder.EXECUTES[:] = [0, 0.0]
    run_thunder.step(jitted, inputs, grad_out)
    regions = run_thunder.EXECUTES[0]

    def timed(fn):
        start = time.perf_counter()
        run_thunder.step(fn, inputs, grad_out)
        return time.perf_counter() - start

    thunder_times, eager_times = [], []
    run_thunder.EXECUTES[:] = [0, 0.0]
    for _ in range(args.steps):
        thunder_times.append(timed(jitted))
        eager_times.append(timed(block))
    inside = run_thunder.EXECUTES[1] / args.steps

    print("litgpt-style Llama block (n_embd 64, 4 heads, MLP 172, x [2, 32, 64]) fp32, "
          "forward and backward; fuser_mlir %s, backend %s, torch %s; %d thread(s) each"
          % (run_thunder.fuser_nvfuser_direct.version(),
             run_thunder.fuser_nvfuser_direct._fusion.HOST_BACKEND, torch.__version__,
             args.threads))
    print("regions per step %d, max error %.3g (relative to eager's largest magnitude)"
          % (regions, error))
    print("ms per step over %d steps   median    least   in fuser_mlir's execute"
          % args.steps)
    print("  thunder.jit on fuser_mlir  %7.3f  %7.3f   %7.3f (%.1f us per region)" % (
        statistics.median(thunder_times) * 1e3, min(thunder_times) * 1e3, inside * 1e3,
        inside * 1e6 / max(regions, 1)))
    print("  eager torch                %7.3f  %7.3f" % (
        statistics.median(eager_times) * 1e3, min(eager_times) * 1e3))
    print("  ratio (medians)            %7.2f" % (
        statistics.median(thunder_times) / statistics.median(eager_times)))
    if args.profile:
        import cProfile
        import pstats
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.steps):
            run_thunder.step(jitted, inputs, grad_out)
        profile.disable()
        stats = pstats.Stats(profile).sort_stats("tottime")
        stats.print_stats(30)
        stats.print_callees("_fusion.py.*[(]execute[)]")


if __name__ == "__main__":
    main()
