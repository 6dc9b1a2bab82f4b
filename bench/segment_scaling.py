#!/usr/bin/env python3
"""fuser-segment compile time as the fusion grows.

  bench/segment_scaling.py [--fuser-opt build/bin/fuser-opt] [--blocks 30 60 120 240]

Two fusions of N blocks each (f32 [64, 256] rows):
  chained:     RMSNorm-style blocks, each reading the previous one's output
               (x * rsqrt(sum(x * x)) then neg): one long dependence chain.
  independent: N softmax-style normalizations (x - max(x)) of N inputs, each
               beside a pointwise op on an input of another shape: wide fusions
               with many sibling kernels.
For each, runs `fuser-opt --fuser-segment --mlir-timing`, with normalization
segments and without (`normalization=false`), and reports the FuserSegment
wall time, the time per op and the kernels. Time per op that grows with N
means super-linear cost.
"""
import argparse
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROW = "tensor<64x256xf32>"
REDUCED = "tensor<64x1xf32>"
OTHER = "tensor<33xf32>"


def chained(n):
    lines, value = [], "%x"
    for i in range(n):
        lines += [
            f"  %sq{i} = fuser.mul {value}, {value} : {ROW}, {ROW} -> {ROW}",
            f"  %s{i} = fuser.reduction add %sq{i} [1] keepdim : {ROW} -> {REDUCED}",
            f"  %r{i} = fuser.rsqrt %s{i} : {REDUCED}",
            f"  %y{i} = fuser.mul {value}, %r{i} : {ROW}, {REDUCED} -> {ROW}",
            f"  %z{i} = fuser.neg %y{i} : {ROW}",
        ]
        value = f"%z{i}"
    header = f"func.func @chained(%x: {ROW}) -> {ROW} {{"
    return "\n".join([header] + lines + [f"  return {value} : {ROW}", "}"]), 5 * n


def independent(n):
    arguments, lines, results = [], [], []
    for i in range(n):
        arguments += [f"%x{i}: {ROW}", f"%p{i}: {OTHER}"]
        lines += [
            f"  %m{i} = fuser.reduction max %x{i} [1] keepdim : {ROW} -> {REDUCED}",
            f"  %y{i} = fuser.sub %x{i}, %m{i} : {ROW}, {REDUCED} -> {ROW}",
            f"  %q{i} = fuser.neg %p{i} : {OTHER}",
        ]
        results += [(f"%y{i}", ROW), (f"%q{i}", OTHER)]
    types = ", ".join(t for _, t in results)
    header = f"func.func @independent({', '.join(arguments)}) -> ({types}) {{"
    ret = f"  return {', '.join(v for v, _ in results)} : {types}"
    return "\n".join([header] + lines + [ret, "}"]), 3 * n


def segment(fuser_opt, path, normalization):
    option = "--fuser-segment" if normalization else "--fuser-segment=normalization=false"
    run = subprocess.run([fuser_opt, option, "--mlir-timing", "--fuser-segment-report", path,
                          "-o", os.devnull], capture_output=True, text=True, check=True)
    seconds = float(re.search(r"([\d.]+) \(\s*[\d.]+%\)\s+FuserSegment", run.stderr).group(1))
    kernels = int(re.search(r": (\d+) kernels?", run.stdout).group(1))
    return seconds, kernels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fuser-opt", default=os.path.join(HERE, "..", "build", "bin", "fuser-opt"))
    parser.add_argument("--blocks", type=int, nargs="+", default=[30, 60, 120, 240])
    args = parser.parse_args()
    print(f"{'kind':<12} {'blocks':>6} {'ops':>6} {'segment s':>10} {'us/op':>8} {'kernels':>8} "
          f"{'no-norm s':>10} {'kernels':>8}")
    for kind, build in (("chained", chained), ("independent", independent)):
        for n in args.blocks:
            text, ops = build(n)
            with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
                f.write(text + "\n")
            seconds, kernels = segment(args.fuser_opt, f.name, True)
            plain_seconds, plain_kernels = segment(args.fuser_opt, f.name, False)
            os.unlink(f.name)
            print(f"{kind:<12} {n:>6} {ops:>6} {seconds:>10.4f} {1e6 * seconds / ops:>8.1f} "
                  f"{kernels:>8} {plain_seconds:>10.4f} {plain_kernels:>8}")


if __name__ == "__main__":
    main()
