#!/usr/bin/env python3
"""Library segments on the CPU backend against torch's CPU matmul (issue 47).

    PYTHONPATH=build/python_packages build/thunder-venv/bin/python \\
        bench/matmul_cpu.py [--runs 7] [--rounds 3] [--dtypes f32,bf16]
                            [--cases matmul_1024,linear_1024,...]

(--dtypes also takes f16. FUSER_DNNL=none in the environment times the
backend's bf16 fallback, sgemm on widened operands, instead of oneDNN.)

Cases: matmul and linear at 1024 x 1024 x 1024, and a Llama-style MLP
(tokens 512, hidden 2048, intermediate 5632): its gate/up linear
(x W1^T, [512, 2048] x [5632, 2048]^T), the same gemm as a matmul with the weight
stored [K, N] ([512, 2048] x [2048, 5632]), its down linear ([512, 5632] x
[2048, 5632]^T) and the whole MLP as nvFuser programs spell it
(linear(silu(linear(x, W1)) * linear(x, W3), W2); in bf16 the product is
computed in f32 and cast back to bf16, as nvFuser's ops promote it).

For each case and dtype it times, in the same process, the median (or,
with --statistic min, the fastest) of `rounds` x `runs` calls after a
warm-up (the implementations alternate round by round, so a change of the
machine's load hits all of them):
  fuser_mlir  a cached fd.execute(inputs, backend="cpu") on torch's own
              tensors where torch is present (the same memory torch reads:
              oneDNN's AMX gemm reads operands 64 bytes aligned, as torch
              allocates them, about 25% faster than numpy's arrays, whose
              data malloc aligns to 16 bytes), else on the numpy arrays: the library
              segments call what the CPU backend loads
              (lib/ExecutionEngine/LibraryCalls.cpp): for f32 (and f16, on
              operands widened to f32) the BLAS's sgemm (OpenBLAS), for
              bf16 oneDNN's matmul primitive (libdnnl.so.3, else
              libdnnl.so.2) where it loads;
              the pointwise kernel between them is the backend's own
  torch       torch.matmul / F.linear / the MLP in torch eager, on CPU
              tensors, torch.set_num_threads(cores)
  numpy       numpy's matmul (its own BLAS), f32 only
  sgemm       cblas_sgemm of the same OpenBLAS the backend loads, called
              with ctypes on f32 operands (for bf16 and f16: f32 copies of
              their values), the gemms only: for f32 the BLAS's share of
              fuser_mlir's time, for bf16 what an f32 gemm of the same
              values costs
It prints milliseconds, GFLOP/s (2 M N K per gemm; the MLP's pointwise ops
are not counted) and the ratios fuser_mlir / torch (the issue's goal is
1.2 or less), fuser_mlir / numpy and fuser_mlir / sgemm. Without torch it
prints the others. The machine's load (os.getloadavg) is printed before and
after: on a shared machine, rerun for clean figures.
"""

import argparse
import ctypes
import os
import statistics
import sys
import time

import ml_dtypes
import numpy as np

from fuser_mlir import DataType, FusionDefinition

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None

BF16 = ml_dtypes.bfloat16
TOKENS, HIDDEN, INTERMEDIATE = 512, 2048, 5632

# name: (kind, shapes of the operands) with kind matmul (a @ b), linear
# (x @ w^T) or mlp (x, W1, W3, W2).
CASES = {
    "matmul_1024": ("matmul", [(1024, 1024), (1024, 1024)]),
    "linear_1024": ("linear", [(1024, 1024), (1024, 1024)]),
    "mlp_gate_up": ("linear", [(TOKENS, HIDDEN), (INTERMEDIATE, HIDDEN)]),
    # The gate/up gemm as a matmul of the weight stored [K, N]: where the
    # linear's [N, K] weight costs more (a bf16 weight is widened to f32
    # in the gemm's layout, LibraryCalls.cpp), the two differ.
    "mlp_gate_up_kn": ("matmul", [(TOKENS, HIDDEN), (HIDDEN, INTERMEDIATE)]),
    "mlp_down": ("linear", [(TOKENS, INTERMEDIATE), (HIDDEN, INTERMEDIATE)]),
    "mlp": ("mlp", [(TOKENS, HIDDEN), (INTERMEDIATE, HIDDEN),
                    (INTERMEDIATE, HIDDEN), (HIDDEN, INTERMEDIATE)]),
}
DTYPES = {"f32": (np.float32, DataType.Float),
          "bf16": (BF16, DataType.BFloat16),
          "f16": (np.float16, DataType.Half)}
TORCH_DTYPES = {"f32": "float32", "bf16": "bfloat16", "f16": "float16"}


def gemms(kind, shapes):
    """The (M, N, K, rhs transposed) of each gemm the case makes."""
    if kind == "matmul":
        (m, k), (_, n) = shapes
        return [(m, n, k, False)]
    if kind == "linear":
        (m, k), (n, _) = shapes
        return [(m, n, k, True)]
    (t, h), (i, _), _, _ = shapes
    return [(t, i, h, True), (t, i, h, True), (t, h, i, True)]


def define(kind, shapes, dtype):
    with FusionDefinition() as fd:
        tensors = [fd.define_tensor(shape=list(s), dtype=dtype) for s in shapes]
        if kind == "matmul":
            fd.add_output(fd.ops.matmul(*tensors))
        elif kind == "linear":
            fd.add_output(fd.ops.linear(*tensors))
        else:
            x, w1, w3, w2 = tensors
            h = fd.ops.mul(fd.ops.silu(fd.ops.linear(x, w1)), fd.ops.linear(x, w3))
            if dtype != DataType.Float:
                h = fd.ops.cast(h, dtype)
            fd.add_output(fd.ops.linear(h, w2))
    return fd


def torch_fn(kind, tensors):
    if kind == "matmul":
        return lambda: torch.matmul(*tensors)
    if kind == "linear":
        return lambda: F.linear(*tensors)
    x, w1, w3, w2 = tensors

    def mlp():
        gate, up = F.linear(x, w1), F.linear(x, w3)
        h = F.silu(gate.float()) * up.float()
        return F.linear(h.to(x.dtype), w2)
    return mlp


def numpy_fn(kind, arrays):
    if kind == "matmul":
        a, b = arrays
        return lambda: a @ b
    if kind == "linear":
        x, w = arrays
        return lambda: x @ w.T
    x, w1, w3, w2 = arrays

    def mlp():
        gate, up = x @ w1.T, x @ w3.T
        return (gate / (1 + np.exp(-gate)) * up) @ w2.T
    return mlp


class OpenBlas:
    """cblas_sgemm of the library the CPU backend loads (same soname: after
    a cpu run, dlopen returns the backend's own copy)."""

    def __init__(self):
        name = os.environ.get("FUSER_BLAS", "libopenblas.so.0")
        self.lib = ctypes.CDLL(name)
        self.name = name
        self.lib.cblas_sgemm.restype = None
        self.lib.cblas_sgemm.argtypes = [ctypes.c_int] * 6 + [
            ctypes.c_float, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
            ctypes.c_int, ctypes.c_float, ctypes.c_void_p, ctypes.c_int]

    def info(self):
        lines = []
        for symbol in ("openblas_get_config", "openblas_get_corename"):
            if hasattr(self.lib, symbol):
                getattr(self.lib, symbol).restype = ctypes.c_char_p
                lines.append("%s: %s" % (symbol, getattr(self.lib, symbol)().decode()))
        if hasattr(self.lib, "openblas_get_num_threads"):
            lines.append("openblas_get_num_threads: %d" % self.lib.openblas_get_num_threads())
        lines.append("cblas_sbgemm (bf16 gemm): %s"
                     % ("present" if hasattr(self.lib, "cblas_sbgemm") else "absent"))
        return lines

    def fn(self, kind, shapes, arrays):
        """The case's gemms, row-major, on f32 copies of `arrays`."""
        f32 = [np.ascontiguousarray(a, dtype=np.float32) for a in arrays]
        calls = []
        if kind == "mlp":
            x, w1, w3, w2 = f32
            t, h, i = x.shape[0], x.shape[1], w1.shape[0]
            gate, up = np.empty((t, i), np.float32), np.empty((t, i), np.float32)
            out = np.empty((t, h), np.float32)
            calls = [(x, w1, gate, True), (x, w3, up, True), (gate, w2, out, True)]
        else:
            a, b = f32
            (m, n, k, trans) = gemms(kind, shapes)[0]
            calls = [(a, b, np.empty((m, n), np.float32), trans)]
        sgemm = self.lib.cblas_sgemm

        def run():
            for a, b, c, trans in calls:
                m, k = a.shape
                n = c.shape[1]
                sgemm(101, 111, 112 if trans else 111, m, n, k, 1.0,
                      a.ctypes.data, k, b.ctypes.data, b.shape[1], 0.0,
                      c.ctypes.data, n)
        return run


def onednn_info():
    """The oneDNN the backend loads for bf16 (same soname: dlopen returns
    the backend's copy) and its version; torch's own oneDNN is linked into
    torch and separate."""
    names = [os.environ["FUSER_DNNL"]] if os.environ.get("FUSER_DNNL") else \
        ["libdnnl.so.3", "libdnnl.so.2"]
    if names == ["none"]:
        return "oneDNN: FUSER_DNNL=none, bf16 gemms take sgemm on widened operands"

    class Version(ctypes.Structure):
        _fields_ = [("major", ctypes.c_int), ("minor", ctypes.c_int),
                    ("patch", ctypes.c_int), ("hash", ctypes.c_char_p)]
    errors = []
    for name in names:
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError as error:
            errors.append(str(error))
    else:
        return "oneDNN: %s does not load (%s): bf16 gemms take sgemm" % (
            " or ".join(names), "; ".join(errors))
    lib.dnnl_version.restype = ctypes.POINTER(Version)
    version = lib.dnnl_version().contents
    return "oneDNN (the backend's, bf16): %s %d.%d.%d" % (
        name, version.major, version.minor, version.patch)


def numpy_blas_threads():
    """numpy's OpenBLAS (scipy-openblas: no sbgemm either) and its threads."""
    import glob
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__) + ".libs", "*openblas*"))
    if not libs:
        return "numpy's BLAS: not found beside numpy"
    lib = ctypes.CDLL(libs[0])
    found = {}
    for suffix in ("64_", ""):
        for what in ("get_num_threads", "get_corename"):
            symbol = "scipy_openblas_%s%s" % (what, suffix)
            if what not in found and hasattr(lib, symbol):
                function = getattr(lib, symbol)
                function.restype = ctypes.c_char_p if what == "get_corename" else ctypes.c_int
                found[what] = function()
    sbgemm = any(hasattr(lib, s) for s in ("scipy_cblas_sbgemm64_", "scipy_cblas_sbgemm",
                                            "cblas_sbgemm"))
    return "numpy's BLAS %s: threads %s, core %s, sbgemm %s" % (
        os.path.basename(libs[0]), found.get("get_num_threads"),
        (found.get("get_corename") or b"?").decode(), "present" if sbgemm else "absent")


def time_rounds(fns, runs, rounds, settle, statistic=statistics.median):
    """Median seconds per call of each fn, the fns alternating per round.
    Each library keeps its own threads (OpenBLAS's twice: the backend's and
    numpy's; torch's OpenMP), which spin a while after a call: on a machine
    with few cores they would slow the next library down. So before each
    fn's runs the bench sleeps `settle` seconds and makes one untimed call."""
    times = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            time.sleep(settle)
            fn()
            for _ in range(runs):
                start = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - start)
    return {name: statistic(t) for name, t in times.items()}


def check(name, ours, reference, dtype):
    ours = np.asarray(ours, np.float64)
    reference = np.asarray(reference, np.float64)
    error = np.linalg.norm(ours - reference) / np.linalg.norm(reference)
    if error > {BF16: 2e-2, np.float16: 3e-3}.get(dtype, 1e-4):
        sys.exit("%s: fuser_mlir's result is off the reference by %.3g" % (name, error))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dtypes", default="f32,bf16")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--settle", type=float, default=0.5,
                        help="seconds of sleep before each implementation's runs")
    parser.add_argument("--statistic", choices=["median", "min"], default="median",
                        help="of each implementation's calls: min shows what a call costs "
                        "when every thread it uses gets a core")
    args = parser.parse_args()

    cores = len(os.sched_getaffinity(0))
    print("load average before: %.2f %.2f %.2f" % os.getloadavg())
    print("cores: %d (os.sched_getaffinity)" % cores)
    if torch is not None:
        torch.set_num_threads(cores)
        print("torch %s: torch.set_num_threads(%d), get_num_threads() = %d; BLAS: %s"
              % (torch.__version__, cores, torch.get_num_threads(),
                 "MKL" if torch.backends.mkl.is_available() else "?")
              + ("; bf16 through oneDNN" if torch.backends.mkldnn.is_available() else ""))
    else:
        print("torch: not importable here, fuser_mlir, numpy and sgemm only")
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        print("numpy %s: %s %s" % (np.__version__, blas.get("name"), blas.get("version")))
    except Exception:  # older numpy
        print("numpy %s" % np.__version__)
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "FUSER_MLIR_NUM_THREADS",
                     "FUSER_BLAS", "FUSER_DNNL"):
        print("%s=%s" % (variable, os.environ.get(variable, "(unset)")))

    rng = np.random.default_rng(47)
    openblas = None
    rows = {}
    for dtype_name in args.dtypes.split(","):
        np_dtype, dtype = DTYPES[dtype_name]
        for name in args.cases.split(","):
            kind, shapes = CASES[name]
            arrays = [(rng.standard_normal(s) / np.sqrt(s[-1])).astype(np_dtype)
                      for s in shapes]
            fd = define(kind, shapes, dtype)
            fns = {"fuser_mlir": lambda: fd.execute(arrays, backend="cpu")}
            (ours,) = fns["fuser_mlir"]()
            if openblas is None:
                openblas = OpenBlas()  # after a cpu run: the backend's copy
            fns["sgemm"] = openblas.fn(kind, shapes, arrays)
            if torch is not None:
                tensors = [torch.from_numpy(a.astype(np.float32)).to(
                    getattr(torch, TORCH_DTYPES[dtype_name])) for a in arrays]
                fns["fuser_mlir"] = lambda: fd.execute(tensors, backend="cpu")
                fns["torch"] = torch_fn(kind, tensors)
                reference = fns["torch"]().float().numpy()
            else:
                reference = numpy_fn(kind, [a.astype(np.float32) for a in arrays])()
            if np_dtype == np.float32:
                fns["numpy"] = numpy_fn(kind, arrays)
            check("%s %s" % (name, dtype_name), ours.astype(np.float32), reference, np_dtype)
            seconds = time_rounds(fns, args.runs, args.rounds, args.settle,
                                  min if args.statistic == "min" else statistics.median)
            flops = sum(2 * m * n * k for m, n, k, _ in gemms(kind, shapes))
            rows[(dtype_name, name)] = (shapes, flops, seconds)
            print("  %s %s done" % (dtype_name, name), file=sys.stderr)
    print("load average after: %.2f %.2f %.2f" % os.getloadavg())
    for line in openblas.info():
        print(line)
    print(onednn_info())
    print(numpy_blas_threads())
    print("%s of %d rounds x %d runs (%.1f s of sleep and an untimed call before each "
          "implementation's runs), ms (GFLOP/s)"
          % (args.statistic, args.rounds, args.runs, args.settle))

    columns = ["torch", "numpy", "sgemm"]
    print("| dtype | case | M x N x K | fuser_mlir | "
          + " | ".join("%s | fuser_mlir / %s" % (c, c) for c in columns) + " |")
    print("|---|---|---|---|" + "---|---|" * len(columns))

    def cell(s, flops):
        return "%.1f (%.0f)" % (s * 1e3, flops / s / 1e9)
    for (dtype_name, name), (shapes, flops, seconds) in rows.items():
        kind = CASES[name][0]
        dims = ", ".join("%dx%dx%d" % g[:3] for g in gemms(kind, shapes))
        if kind == "mlp":
            dims = "3 gemms: " + dims
        line = "| %s | %s | %s | %s |" % (dtype_name, name, dims,
                                         cell(seconds["fuser_mlir"], flops))
        for column in columns:
            if column in seconds:
                line += " %s | %.2f |" % (cell(seconds[column], flops),
                                          seconds["fuser_mlir"] / seconds[column])
            else:
                line += " - | - |"
        print(line)


if __name__ == "__main__":
    main()
