#!/usr/bin/env python3
"""fuser-segment compile time as the fusion grows.

  bench/segment_scaling.py [--fuser-opt build/bin/fuser-opt] [--blocks 30 60 120 240]
                           [--kinds chained,independent,transformer,reduce-chain]

Two fusions of N blocks each (f32 [64, 256] rows):
  chained:     RMSNorm-style blocks, each reading the previous one's output
               (x * rsqrt(sum(x * x)) then neg): one long dependence chain.
  independent: N softmax-style normalizations (x - max(x)) of N inputs, each
               beside a pointwise op on an input of another shape: wide fusions
               with many sibling kernels.
With --kinds, also (f32):
  transformer: N transformer-like layers on [128, 512] (17 ops each): RMSNorm
               with a shared weight row, a head split (view to [128, 8, 64],
               permute to [8, 128, 64]), softmax over each head's rows, the
               merge back (permute, view) and a residual add.
  reduce-chain: N blocks `r = sum(v, [1], keepdim); v = v - expand(r)` on
               [8, 16]: a chain of normalizations that each read the last.
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


def chain(name, n, params, value_type, block, prelude=()):
    """A function of n blocks, each block(i, value) -> (lines, value) reading
    the previous block's value (first %x); returns the text and the op count."""
    lines, value, ops = list(prelude), "%x", 0
    for i in range(n):
        body, value = block(i, value)
        lines += body
        ops += len(body)
    header = f"func.func @{name}({params}) -> {value_type} {{"
    return "\n".join([header] + lines + [f"  return {value} : {value_type}", "}"]), ops


def chained(n):
    def block(i, value):
        return [
            f"  %sq{i} = fuser.mul {value}, {value} : {ROW}, {ROW} -> {ROW}",
            f"  %s{i} = fuser.reduction add %sq{i} [1] keepdim : {ROW} -> {REDUCED}",
            f"  %r{i} = fuser.rsqrt %s{i} : {REDUCED}",
            f"  %y{i} = fuser.mul {value}, %r{i} : {ROW}, {REDUCED} -> {ROW}",
            f"  %z{i} = fuser.neg %y{i} : {ROW}",
        ], f"%z{i}"
    return chain("chained", n, f"%x: {ROW}", ROW, block)


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


def transformer(n):
    hidden, heads, split = "tensor<128x512xf32>", "tensor<8x128x64xf32>", "tensor<128x8x64xf32>"
    rows, head_rows = "tensor<128x1xf32>", "tensor<8x128x1xf32>"

    def block(i, value):
        return [
            f"  %sq{i} = fuser.mul {value}, {value} : {hidden}, {hidden} -> {hidden}",
            f"  %ss{i} = fuser.reduction add %sq{i} [1] keepdim : {hidden} -> {rows}",
            f"  %ms{i} = fuser.mul %ss{i}, %inv : {rows}, f32 -> {rows}",
            f"  %me{i} = fuser.add %ms{i}, %eps : {rows}, f32 -> {rows}",
            f"  %rs{i} = fuser.rsqrt %me{i} : {rows}",
            f"  %nm{i} = fuser.mul {value}, %rs{i} : {hidden}, {rows} -> {hidden}",
            f"  %wt{i} = fuser.mul %nm{i}, %w : {hidden}, tensor<1x512xf32> -> {hidden}",
            f"  %sp{i} = fuser.view %wt{i} : {hidden} -> {split}",
            f"  %hd{i} = fuser.permute %sp{i} [1, 0, 2] : {split} -> {heads}",
            f"  %mx{i} = fuser.reduction max %hd{i} [2] keepdim : {heads} -> {head_rows}",
            f"  %df{i} = fuser.sub %hd{i}, %mx{i} : {heads}, {head_rows} -> {heads}",
            f"  %ex{i} = fuser.exp %df{i} : {heads}",
            f"  %sm{i} = fuser.reduction add %ex{i} [2] keepdim : {heads} -> {head_rows}",
            f"  %pr{i} = fuser.div %ex{i}, %sm{i} : {heads}, {head_rows} -> {heads}",
            f"  %mg{i} = fuser.permute %pr{i} [1, 0, 2] : {heads} -> {split}",
            f"  %fl{i} = fuser.view %mg{i} : {split} -> {hidden}",
            f"  %y{i} = fuser.add {value}, %fl{i} : {hidden}, {hidden} -> {hidden}",
        ], f"%y{i}"
    prelude = ["  %inv = arith.constant 1.953125e-03 : f32", "  %eps = arith.constant 1.0e-05 : f32"]
    return chain("transformer", n, f"%x: {hidden}, %w: tensor<1x512xf32>", hidden, block,
                 prelude)


def reduce_chain(n):
    rows, reduced = "tensor<8x16xf32>", "tensor<8x1xf32>"

    def block(i, value):
        return [
            f"  %r{i} = fuser.reduction add {value} [1] keepdim : {rows} -> {reduced}",
            f"  %e{i} = fuser.expand %r{i} : {reduced} -> {rows}",
            f"  %v{i} = fuser.sub {value}, %e{i} : {rows}, {rows} -> {rows}",
        ], f"%v{i}"
    return chain("reduce_chain", n, f"%x: {rows}", rows, block)


KINDS = {"chained": chained, "independent": independent, "transformer": transformer,
         "reduce-chain": reduce_chain}


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
    parser.add_argument("--kinds", default="chained,independent",
                        help="comma-separated, of: " + ", ".join(KINDS))
    args = parser.parse_args()
    print(f"{'kind':<12} {'blocks':>6} {'ops':>6} {'segment s':>10} {'us/op':>8} {'kernels':>8} "
          f"{'no-norm s':>10} {'kernels':>8}")
    for kind in args.kinds.split(","):
        build = KINDS[kind]
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
