#!/usr/bin/env python3
"""fuser_mlir's CPU backend against torch eager and torch.compile (issue 49).

    PYTHONPATH=build/python_packages build/thunder-venv/bin/python \\
        bench/cpu_fusions.py [--runs 7] [--threads N] [--scale S] \\
        [--fusions a,b] [--mlir-dir DIR] [--build-dir build]

Seven fusions, each written with fuser_mlir's nvfuser_direct API as nvFuser
programs spell them (the seed's repro, nvFuser's own benchmarks, Thunder's
casts around litgpt's bf16 ops) and as the same computation in torch:

  rope_bwd   Mistral RoPE backward, bf16[1,32,4096,128] -> [1,4096,1024]
  rmsnorm    RMSNorm as litgpt writes it, bf16[8192,4096] * weight[4096]
  softmax    softmax over the rows, f32[8192,4096]
  bias_gelu  GELU (erf) of x + bias, bf16[8192,4096] + bias[4096]
  row_sum    sum over the rows, f32[8192,4096] -> [8192]
  layernorm  LayerNorm (var_mean), bf16[8192,4096], weight and bias
  rope_fwd   RoPE as litgpt's apply_rope writes it, bf16[1,32,4096,128]
             with cos and sin bf16[4096,128]

--scale S divides the 4096 and 8192 extents of rows and sequence by S.
torch.set_num_threads and FUSER_MLIR_NUM_THREADS are both --threads
(default: every core). Per fusion: fuser_mlir's cached
fd.execute(inputs, backend="cpu"), torch eager, and torch.compile (Inductor,
compiled by a first call) each run once untimed, then --runs rounds in which
each runs in turn, so that all three see the same load: a pause of 0.2 s
(torch's OpenMP threads spin a while after each call and would slow the
next implementation down on the same cores), an untimed call and a timed
one; each column is the median of the timed calls. fuser_mlir's result is checked against torch eager on the same
inputs: max |fuser - eager| / (|eager| + rms(eager)) within 2^-6 for bf16
results, 1e-5 for f32; a failed check prints WRONG and exits 1.

Then the fusion's MLIR text (fd.mlir()) goes through bench/stream_copy.py's
bench(): `fuser-run --backend cpu --num-threads N --bench RUNS`, which times
the compiled fusion without Python (column "fuser-run ms") and a
STREAM-style copy of as many bytes on as many threads ("copy GB/s").

Prints the load average before and after, then one row per fusion: MiB
moved (inputs + outputs), ms of fuser_mlir, eager and compile, the ratios
fuser/eager and fuser/compile (below 1: fuser_mlir is faster), fuser_mlir's
GB/s and its fraction of the copy's, Inductor's fraction of the copy's,
fuser-run's ms and the check's error.
"""

import argparse
import math
import os
import statistics
import sys
import tempfile
import time

import torch

from fuser_mlir.nvfuser_direct import DataType, FusionDefinition

import stream_copy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BF16, F32 = DataType.BFloat16, DataType.Float
TOLERANCE = {torch.bfloat16: 2.0 ** -6, torch.float32: 1e-5}
EPS = 1e-5
PAUSE_SECONDS = 0.2


def rope_bwd(scale):
    """The seed's Mistral RoPE backward (test/Python/Inputs/
    mistral_rope_bwd.py): the gradient of 8 key/value heads repeated 4 times,
    summed over the 4, transposed to [1, seq, 8 * 128]."""
    seq = 4096 // scale

    def define(fd):
        t0 = fd.define_tensor(shape=[1, 32, seq, 128], contiguity=[None, True, True, True],
                              dtype=BF16, is_cpu=False, stride_order=[3, 2, 1, 0])
        t1 = fd.ops.reshape(t0, new_shape=[1, 8, 4, seq, 128])
        t2 = fd.ops.cast(t1, dtype=F32)
        t3 = fd.ops.squeeze(t2, dims=[0], squeeze_expanded=True)
        t4 = fd.ops.sum(t3, dims=[1], keepdim=False, dtype=DataType.Null)
        t5 = fd.ops.cast(t4, dtype=BF16)
        t6 = fd.ops.broadcast_in_dim(t5, shape=[1, 8, 1, seq, 128], broadcast_dims=[1, 3, 4])
        t7 = fd.ops.cast(t6, dtype=F32)
        t8 = fd.ops.squeeze(t7, dims=[0, 2], squeeze_expanded=True)
        t9 = fd.ops.cast(t8, dtype=BF16)
        t10 = fd.ops.broadcast_in_dim(t9, shape=[1, 8, seq, 128], broadcast_dims=[1, 2, 3])
        t11 = fd.ops.permute(t10, dims=[0, 2, 1, 3])
        fd.add_output(fd.ops.reshape(t11, new_shape=[1, seq, 1024]))

    def reference(x):
        summed = x.view(1, 8, 4, seq, 128).float().sum(2).bfloat16()
        return summed.permute(0, 2, 1, 3).reshape(1, seq, 1024)

    return define, reference, [randn(1, 32, seq, 128, dtype=torch.bfloat16)]


def rmsnorm(scale):
    """litgpt's RMSNorm: x.float(), mean of squares, rsqrt, back to bf16,
    times the weight (a bf16 product)."""
    rows, width = 8192 // scale, 4096

    def define(fd):
        x = fd.define_tensor(shape=[rows, width], contiguity=[True, True], dtype=BF16)
        w = fd.define_tensor(shape=[width], contiguity=[True], dtype=BF16)
        xf = fd.ops.cast(x, dtype=F32)
        mean = fd.ops.div(fd.ops.sum(fd.ops.mul(xf, xf), dims=[1]),
                          fd.define_scalar(float(width)))
        inv = fd.ops.rsqrt(fd.ops.add(mean, fd.define_scalar(EPS)))
        inv = fd.ops.broadcast_in_dim(inv, shape=[rows, 1], broadcast_dims=[0])
        normed = fd.ops.cast(fd.ops.mul(xf, inv), dtype=BF16)
        wb = fd.ops.broadcast_in_dim(w, shape=[rows, width], broadcast_dims=[1])
        y = fd.ops.mul(fd.ops.cast(normed, dtype=F32), fd.ops.cast(wb, dtype=F32))
        fd.add_output(fd.ops.cast(y, dtype=BF16))

    def reference(x, w):
        xf = x.float()
        normed = xf * torch.rsqrt(torch.mean(xf * xf, dim=-1, keepdim=True) + EPS)
        return normed.to(x.dtype) * w

    return define, reference, [randn(rows, width, dtype=torch.bfloat16),
                               randn(width, dtype=torch.bfloat16)]


def softmax(scale):
    """Softmax over the rows as nvFuser programs spell it: max, subtract,
    exp, sum, divide."""
    rows, width = 8192 // scale, 4096

    def define(fd):
        x = fd.define_tensor(shape=[rows, width], contiguity=[True, True], dtype=F32)
        top = fd.ops.broadcast_in_dim(fd.ops.max(x, dims=[1]), shape=[rows, 1],
                                      broadcast_dims=[0])
        e = fd.ops.exp(fd.ops.sub(x, top))
        total = fd.ops.broadcast_in_dim(fd.ops.sum(e, dims=[1]), shape=[rows, 1],
                                        broadcast_dims=[0])
        fd.add_output(fd.ops.div(e, total))

    def reference(x):
        return torch.softmax(x, dim=-1)

    return define, reference, [randn(rows, width)]


def bias_gelu(scale):
    """nvFuser's bias + GELU benchmark (test_gelu_fwd): x + bias in f32,
    0.5 (x + b) (1 + erf((x + b) / sqrt 2)), rounded once to bf16."""
    rows, width = 8192 // scale, 4096

    def define(fd):
        x = fd.define_tensor(shape=[rows, width], contiguity=[True, True], dtype=BF16)
        b = fd.define_tensor(shape=[width], contiguity=[True], dtype=BF16)
        bb = fd.ops.broadcast_in_dim(fd.ops.cast(b, dtype=F32), shape=[rows, width],
                                     broadcast_dims=[1])
        v = fd.ops.add(bb, fd.ops.cast(x, dtype=F32))
        erf = fd.ops.erf(fd.ops.mul(v, fd.define_scalar(1.0 / math.sqrt(2.0))))
        y = fd.ops.mul(fd.ops.mul(v, fd.ops.add(erf, fd.define_scalar(1.0))),
                       fd.define_scalar(0.5))
        fd.add_output(fd.ops.cast(y, dtype=BF16))

    def reference(x, b):
        return torch.nn.functional.gelu(x + b, approximate="none")

    return define, reference, [randn(rows, width, dtype=torch.bfloat16),
                               randn(width, dtype=torch.bfloat16)]


def row_sum(scale):
    rows, width = 8192 // scale, 4096

    def define(fd):
        x = fd.define_tensor(shape=[rows, width], contiguity=[True, True], dtype=F32)
        fd.add_output(fd.ops.sum(x, dims=[1]))

    def reference(x):
        return x.sum(dim=1)

    return define, reference, [randn(rows, width)]


def layernorm(scale):
    """nvFuser's LayerNorm benchmark (test_layernorm_fwd) without its saved
    statistics: var_mean in f32, rsqrt, times weight plus bias, to bf16."""
    rows, width = 8192 // scale, 4096

    def define(fd):
        x = fd.define_tensor(shape=[rows, width], contiguity=[True, True], dtype=BF16)
        w = fd.define_tensor(shape=[width], contiguity=[True], dtype=BF16)
        b = fd.define_tensor(shape=[width], contiguity=[True], dtype=BF16)
        xf = fd.ops.cast(x, dtype=F32)
        var, mean = fd.ops.var_mean(xf, dims=[1], correction=0, keepdim=False)
        var = fd.ops.broadcast_in_dim(var, shape=[rows, 1], broadcast_dims=[0])
        mean = fd.ops.broadcast_in_dim(mean, shape=[rows, 1], broadcast_dims=[0])
        inv = fd.ops.rsqrt(fd.ops.add(var, fd.define_scalar(EPS)))
        centered = fd.ops.sub(xf, fd.ops.broadcast_in_dim(mean, shape=[rows, width],
                                                          broadcast_dims=[0, 1]))
        normed = fd.ops.mul(centered, fd.ops.broadcast_in_dim(inv, shape=[rows, width],
                                                              broadcast_dims=[0, 1]))
        wb = fd.ops.broadcast_in_dim(fd.ops.cast(w, dtype=F32), shape=[rows, width],
                                     broadcast_dims=[1])
        bb = fd.ops.broadcast_in_dim(fd.ops.cast(b, dtype=F32), shape=[rows, width],
                                     broadcast_dims=[1])
        fd.add_output(fd.ops.cast(fd.ops.add(fd.ops.mul(normed, wb), bb), dtype=BF16))

    def reference(x, w, b):
        return torch.nn.functional.layer_norm(x, (width,), w, b, EPS)

    return define, reference, [randn(rows, width, dtype=torch.bfloat16),
                               randn(width, dtype=torch.bfloat16),
                               randn(width, dtype=torch.bfloat16)]


def rope_fwd(scale):
    """litgpt's apply_rope on bf16 q [1, 32, seq, 128] with cos and sin
    [seq, 128], as Thunder hands it to nvFuser: every bf16 op computed in
    f32 and rounded to bf16 (neg, the two products, their sum)."""
    seq, heads, size = 4096 // scale, 32, 128
    half = size // 2
    shape = [1, heads, seq, size]

    def define(fd):
        x = fd.define_tensor(shape=shape, contiguity=[None, True, True, True], dtype=BF16)
        cos = fd.define_tensor(shape=[seq, size], contiguity=[True, True], dtype=BF16)
        sin = fd.define_tensor(shape=[seq, size], contiguity=[True, True], dtype=BF16)
        x1 = fd.ops.slice(x, start_indices=[0, 0, 0, 0], end_indices=[1, heads, seq, half])
        x2 = fd.ops.slice(x, start_indices=[0, 0, 0, half], end_indices=shape)
        neg = fd.ops.cast(fd.ops.neg(fd.ops.cast(x2, dtype=F32)), dtype=BF16)
        rotated = fd.ops.cat([neg, x1], dim=-1)

        def bf16_mul(a, table):
            t = fd.ops.broadcast_in_dim(table, shape=shape, broadcast_dims=[2, 3])
            return fd.ops.cast(fd.ops.mul(fd.ops.cast(a, dtype=F32),
                                          fd.ops.cast(t, dtype=F32)), dtype=BF16)

        y = fd.ops.add(fd.ops.cast(bf16_mul(x, cos), dtype=F32),
                       fd.ops.cast(bf16_mul(rotated, sin), dtype=F32))
        fd.add_output(fd.ops.cast(y, dtype=BF16))

    def reference(x, cos, sin):
        x1 = x[..., :half]
        x2 = x[..., half:]
        rotated = torch.cat((-x2, x1), dim=-1)
        return ((x * cos) + (rotated * sin)).to(dtype=x.dtype)

    positions = torch.arange(seq).float()
    theta = 1.0 / (10000 ** (torch.arange(0, size, 2).float() / size))
    angles = torch.outer(positions, theta).repeat(1, 2)
    return define, reference, [randn(*shape, dtype=torch.bfloat16),
                               torch.cos(angles).bfloat16(), torch.sin(angles).bfloat16()]


FUSIONS = {
    "rope_bwd": ("Mistral RoPE bwd bf16[1,32,{seq},128]", rope_bwd),
    "rmsnorm": ("RMSNorm bf16[{rows},4096] + weight", rmsnorm),
    "softmax": ("softmax f32[{rows},4096]", softmax),
    "bias_gelu": ("bias + GELU (erf) bf16[{rows},4096]", bias_gelu),
    "row_sum": ("row sum f32[{rows},4096]", row_sum),
    "layernorm": ("LayerNorm bf16[{rows},4096] + weight, bias", layernorm),
    "rope_fwd": ("RoPE fwd (litgpt) bf16[1,32,{seq},128]", rope_fwd),
}

GENERATOR = torch.Generator().manual_seed(0)


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=GENERATOR).to(dtype)


def seconds(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def check(result, expected):
    """max |result - expected| / (|expected| + rms(expected)), in f64."""
    result, expected = result.double(), expected.double()
    rms = expected.square().mean().sqrt()
    return ((result - expected).abs() / (expected.abs() + rms)).max().item()


def measure(name, args, fuser_run, mlir_dir):
    define_fusion, reference, inputs = FUSIONS[name][1](args.scale)
    with FusionDefinition() as fd:
        define_fusion(fd)
    compiled = torch.compile(reference, dynamic=False)
    calls = {
        "fuser": lambda: fd.execute(inputs, backend="cpu")[0],
        "eager": lambda: reference(*inputs),
        "compile": lambda: compiled(*inputs),
    }
    with torch.no_grad():
        results = {impl: call() for impl, call in calls.items()}
        times = {impl: [] for impl in calls}
        for _ in range(args.runs):
            for impl, call in calls.items():
                # The previous implementation's threads (torch's OpenMP
                # workers spin-wait after a parallel region) must not
                # share the cores with this one's timed call.
                time.sleep(PAUSE_SECONDS)
                call()
                times[impl].append(seconds(call))
    expected = results["eager"]
    error = check(results["fuser"], expected)
    row = {impl: statistics.median(t) * 1e3 for impl, t in times.items()}
    row["bytes"] = sum(t.nbytes for t in inputs) + expected.nbytes
    row["error"] = error
    row["wrong"] = not error <= TOLERANCE[expected.dtype]

    path = os.path.join(mlir_dir, name + ".mlir")
    with open(path, "w") as f:
        f.write(fd.mlir())
    native = stream_copy.bench(fuser_run, path, None, args.threads, args.runs)
    if native["bytes"] != row["bytes"]:
        sys.exit("%s: fuser-run moves %d bytes, the Python run %d"
                 % (name, native["bytes"], row["bytes"]))
    row["native_ms"] = native["ms"]
    row["copy_gbs"] = native["copy_gbs"]
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--fusions", default=",".join(FUSIONS))
    parser.add_argument("--mlir-dir", default=None,
                        help="keep each fusion's MLIR text there (default: a temporary folder)")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    args = parser.parse_args()
    names = args.fusions.split(",")
    for name in names:
        if name not in FUSIONS:
            sys.exit("unknown fusion %r (have %s)" % (name, ", ".join(FUSIONS)))
    torch.set_num_threads(args.threads)
    os.environ["FUSER_MLIR_NUM_THREADS"] = str(args.threads)
    fuser_run = os.path.join(args.build_dir, "bin", "fuser-run")

    load = os.getloadavg()
    print("torch %s, %d thread(s) (torch and fuser_mlir), %d of %d cores, median of %d runs; "
          "load average before: %.2f %.2f %.2f"
          % (torch.__version__, args.threads, args.threads, os.cpu_count(), args.runs, *load))
    print()
    header = ("| fusion | MiB moved | fuser_mlir ms | eager ms | compile ms | fuser/eager "
              "| fuser/compile | fuser GB/s | copy GB/s | fuser/copy | compile/copy "
              "| fuser-run ms | error |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    wrong = False
    with tempfile.TemporaryDirectory() as scratch:
        mlir_dir = args.mlir_dir or scratch
        os.makedirs(mlir_dir, exist_ok=True)
        for name in names:
            row = measure(name, args, fuser_run, mlir_dir)
            what = FUSIONS[name][0].format(rows=8192 // args.scale, seq=4096 // args.scale)
            gbs = row["bytes"] / row["fuser"] / 1e6
            compile_gbs = row["bytes"] / row["compile"] / 1e6
            if row["wrong"]:
                wrong = True
                ratios = "WRONG | WRONG"
            else:
                ratios = "%.2f | %.2f" % (row["fuser"] / row["eager"],
                                          row["fuser"] / row["compile"])
            print("| %s | %.0f | %.2f | %.2f | %.2f | %s | %.1f | %.1f | %.2f | %.2f | %.2f "
                  "| %.1e |" % (what, row["bytes"] / 2**20, row["fuser"], row["eager"],
                                row["compile"], ratios, gbs, row["copy_gbs"],
                                gbs / row["copy_gbs"], compile_gbs / row["copy_gbs"],
                                row["native_ms"], row["error"]), flush=True)
    print()
    print("load average after: %.2f %.2f %.2f" % os.getloadavg())
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
