#!/usr/bin/env python3
"""fuser-segment compile time as the fusion grows.

  bench/segment_scaling.py [--fuser-opt build/bin/fuser-opt]
                           [--blocks 30 60 120 240 480 2400 4800]
                           [--kinds chained,independent,transformer,reduce-chain]
                           [--skip-plain] [--timeout SECONDS] [--repeat N]
                           [--instructions]
  bench/segment_scaling.py --emit KIND N     (print the fusion, run nothing)

Two fusions of N blocks each (f32 [64, 256] rows):
  chained:     RMSNorm-style blocks, each reading the previous one's output
               (x * rsqrt(sum(x * x)) then neg): one long dependence chain,
               5 ops a block.
  independent: N softmax-style normalizations (x - max(x)) of N inputs, each
               beside a pointwise op on an input of another shape: wide fusions
               with many sibling kernels, 3 ops a block.
With --kinds, also:
  transformer: N transformer-like layers on bf16 [128, 512] activations,
               computed in f32 as Thunder emits them (23 ops a layer, plus the
               two constants 1/512 and eps: 922 ops at 40 layers): the layer
               input cast to f32; RMSNorm (x * x, sum over the row, * 1/512,
               + eps, rsqrt, * x) with a shared f32 weight row, its output cast
               to bf16; a head split (view to [128, 8, 64], permute to
               [8, 128, 64]); softmax over each head's rows in f32 (cast, max,
               sub, exp, sum, div, cast back to bf16); the merge back
               (permute, view); a residual add in f32 and the cast of the
               layer output to bf16.
  reduce-chain: N blocks `r = reduction add v [1] keepdim; e = expand r;
               v = sub v, e` on tensor<8x16xf32>: a chain of normalizations
               that each read the last, 3 ops a block.
For each, runs `fuser-opt --fuser-segment --mlir-timing`, with normalization
segments and, unless --skip-plain, without (`normalization=false`), and
reports the pass's wall time (its --mlir-timing line, FuserSegment; the
least of --repeat runs, 3 by default, as a 2-core machine's timings scatter
by 10% or more; the sizes of a kind take turns, so that a drift of the
machine's speed weighs on each alike), the time per op and the kernels.
With --instructions, one run of each under callgrind counts the
instructions the pass executes instead (Minstr, instr/op): the algorithm's
cost, free of the machine's drift and of cache misses. Column `x c/op` is
the cost per op over that of the kind's previous size: about 1 means linear
cost, growing means super-linear. After the table, for each kind and each
pair of sizes whose op counts differ tenfold or more (e.g. 240 and 2400
blocks), a line gives the op and cost ratios. A run that takes longer than
--timeout seconds is stopped and shows `timeout` (its kind's larger sizes
then show `skipped`).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROW = "tensor<64x256xf32>"
REDUCED = "tensor<64x1xf32>"
OTHER = "tensor<33xf32>"


def chain(name, n, params, value_type, block, prelude=()):
    """A function of n blocks, each block(i, value) -> (lines, value) reading
    the previous block's value (first %x); returns the text and the op count
    (the prelude's ops and the blocks', not the return)."""
    lines, value = list(prelude), "%x"
    for i in range(n):
        body, value = block(i, value)
        lines += body
    header = f"func.func @{name}({params}) -> {value_type} {{"
    return "\n".join([header] + lines + [f"  return {value} : {value_type}", "}"]), len(lines)


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
    """N layers of 23 ops on bf16 activations, f32 math (see the docstring)."""
    hidden, hidden16 = "tensor<128x512xf32>", "tensor<128x512xbf16>"
    split16, heads16 = "tensor<128x8x64xbf16>", "tensor<8x128x64xbf16>"
    heads, head_rows = "tensor<8x128x64xf32>", "tensor<8x128x1xf32>"
    rows, weight = "tensor<128x1xf32>", "tensor<1x512xf32>"

    def block(i, value):
        return [
            # RMSNorm in f32, weighted, its output in bf16.
            f"  %xf{i} = fuser.cast {value} : {hidden16} to {hidden}",
            f"  %sq{i} = fuser.mul %xf{i}, %xf{i} : {hidden}, {hidden} -> {hidden}",
            f"  %ss{i} = fuser.reduction add %sq{i} [1] keepdim : {hidden} -> {rows}",
            f"  %ms{i} = fuser.mul %ss{i}, %inv : {rows}, f32 -> {rows}",
            f"  %me{i} = fuser.add %ms{i}, %eps : {rows}, f32 -> {rows}",
            f"  %rs{i} = fuser.rsqrt %me{i} : {rows}",
            f"  %nm{i} = fuser.mul %xf{i}, %rs{i} : {hidden}, {rows} -> {hidden}",
            f"  %wt{i} = fuser.mul %nm{i}, %w : {hidden}, {weight} -> {hidden}",
            f"  %nb{i} = fuser.cast %wt{i} : {hidden} to {hidden16}",
            # Head split.
            f"  %sp{i} = fuser.view %nb{i} : {hidden16} -> {split16}",
            f"  %hd{i} = fuser.permute %sp{i} [1, 0, 2] : {split16} -> {heads16}",
            # Softmax over each head's rows in f32, its output in bf16.
            f"  %hf{i} = fuser.cast %hd{i} : {heads16} to {heads}",
            f"  %mx{i} = fuser.reduction max %hf{i} [2] keepdim : {heads} -> {head_rows}",
            f"  %df{i} = fuser.sub %hf{i}, %mx{i} : {heads}, {head_rows} -> {heads}",
            f"  %ex{i} = fuser.exp %df{i} : {heads}",
            f"  %sm{i} = fuser.reduction add %ex{i} [2] keepdim : {heads} -> {head_rows}",
            f"  %pr{i} = fuser.div %ex{i}, %sm{i} : {heads}, {head_rows} -> {heads}",
            f"  %pb{i} = fuser.cast %pr{i} : {heads} to {heads16}",
            # Merge back.
            f"  %mg{i} = fuser.permute %pb{i} [1, 0, 2] : {heads16} -> {split16}",
            f"  %fl{i} = fuser.view %mg{i} : {split16} -> {hidden16}",
            # Residual add in f32, the layer output in bf16.
            f"  %ff{i} = fuser.cast %fl{i} : {hidden16} to {hidden}",
            f"  %y{i} = fuser.add %xf{i}, %ff{i} : {hidden}, {hidden} -> {hidden}",
            f"  %yb{i} = fuser.cast %y{i} : {hidden} to {hidden16}",
        ], f"%yb{i}"
    prelude = ["  %inv = arith.constant 1.953125e-03 : f32", "  %eps = arith.constant 1.0e-05 : f32"]
    return chain("transformer", n, f"%x: {hidden16}, %w: {weight}", hidden16, block, prelude)


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


def segment_once(fuser_opt, path, normalization, timeout, instructions):
    """(seconds or instructions, kernels) of one run, or None when it took
    over timeout s."""
    option = "--fuser-segment" if normalization else "--fuser-segment=normalization=false"
    command = [fuser_opt, option, "--fuser-segment-report", path, "-o", os.devnull]
    if instructions:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.devnull,
                   "--toggle-collect=*FuserSegmentPass::runOnOperation*"] + command
    else:
        command.insert(2, "--mlir-timing")
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({run.returncode}):\n{run.stderr}")
    kernels = int(re.search(r": (\d+) kernels?", run.stdout).group(1))
    if instructions:
        count = re.search(r"Collected : (\d+)", run.stderr)
        if count is None:
            sys.exit(f"no instruction count in callgrind's output:\n{run.stderr}")
        return int(count.group(1)), kernels
    # The pass's own line: the name ends it.
    timing = re.search(r"([\d.]+) \(\s*[\d.]+%\)\s+FuserSegment\s*$", run.stderr,
                       re.MULTILINE)
    if timing is None:
        sys.exit(f"no FuserSegment line in the --mlir-timing output:\n{run.stderr}")
    return float(timing.group(1)), kernels


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fuser-opt", default=os.path.join(HERE, "..", "build", "bin", "fuser-opt"))
    parser.add_argument("--blocks", type=int, nargs="+", default=[30, 60, 120, 240, 480, 2400, 4800])
    parser.add_argument("--kinds", default="chained,independent",
                        help="comma-separated, of: " + ", ".join(KINDS))
    parser.add_argument("--skip-plain", action="store_true",
                        help="skip the normalization=false runs (column no-norm)")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds a run may take before it is stopped and shown as "
                             "`timeout` (default 300)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each size; the least time counts (default 3)")
    parser.add_argument("--instructions", action="store_true",
                        help="count the pass's instructions under callgrind (one run of "
                             "each) instead of timing it")
    parser.add_argument("--emit", nargs=2, metavar=("KIND", "N"),
                        help="print the fusion of kind KIND with N blocks and exit")
    args = parser.parse_args()
    if args.emit:
        kind, n = args.emit
        if kind not in KINDS:
            parser.error(f"--emit: unknown kind {kind!r}, not one of {', '.join(KINDS)}")
        print(KINDS[kind](int(n))[0])
        return
    kinds = args.kinds.split(",")
    for kind in kinds:
        if kind not in KINDS:
            parser.error(f"--kinds: unknown kind {kind!r}, not one of {', '.join(KINDS)}")

    # Instruction counts do not vary: one run each.
    repeat = 1 if args.instructions else args.repeat
    unit, scale, per_op = ("Minstr", 1e-6, "instr/op") if args.instructions else \
        ("s", 1.0, "us/op")
    header = (f"{'kind':<12} {'blocks':>6} {'ops':>6} {'segment ' + unit:>14} {per_op:>8} "
              f"{'x c/op':>7} {'kernels':>8}")
    if not args.skip_plain:
        header += f" {'no-norm ' + unit:>14} {'kernels':>8}"
    print("# fuser-segment")
    print(header, flush=True)
    modes = [True] if args.skip_plain else [True, False]
    summary = []
    for kind in kinds:
        paths, op_counts = [], []
        for n in args.blocks:
            text, ops = KINDS[kind](n)
            with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
                f.write(text + "\n")
            paths.append(f.name)
            op_counts.append(ops)
        # best[mode][i]: the least cost so far of size i, "timeout" or
        # "skipped"; the runs take turns over the sizes.
        best = {mode: [None] * len(paths) for mode in modes}
        for _ in range(repeat):
            for mode in modes:
                for i, path in enumerate(paths):
                    if best[mode][i] in ("timeout", "skipped"):
                        continue
                    if "timeout" in best[mode][:i]:
                        best[mode][i] = "skipped"
                        continue
                    result = segment_once(args.fuser_opt, path, mode, args.timeout,
                                          args.instructions)
                    if result is None:
                        best[mode][i] = "timeout"
                    elif best[mode][i] is None or result < best[mode][i]:
                        best[mode][i] = result
        for path in paths:
            os.unlink(path)

        done = []  # (blocks, ops, cost) of the runs with normalization
        for i, (n, ops) in enumerate(zip(args.blocks, op_counts)):
            line = f"{kind:<12} {n:>6} {ops:>6}"
            first = best[True][i]
            if isinstance(first, tuple):
                cost, kernels = first
                growth = "-"
                if done and done[-1][2] > 0:
                    _, prev_ops, prev_cost = done[-1]
                    growth = f"{(cost / ops) / (prev_cost / prev_ops):.2f}"
                per = cost / ops if args.instructions else 1e6 * cost / ops
                line += f" {cost * scale:>14.4f} {per:>8.1f} {growth:>7} {kernels:>8}"
                done.append((n, ops, cost))
            else:
                line += f" {first:>14} {'-':>8} {'-':>7} {'-':>8}"
            if not args.skip_plain:
                plain = best[False][i]
                if isinstance(plain, tuple):
                    line += f" {plain[0] * scale:>14.4f} {plain[1]:>8}"
                else:
                    line += f" {plain:>14} {'-':>8}"
            print(line, flush=True)
        what = "instructions" if args.instructions else "time"
        for i, (n, ops, cost) in enumerate(done):
            for m, more_ops, more_cost in done[i + 1:]:
                if more_ops >= 10 * ops and cost > 0:
                    summary.append(f"{kind}: {n} -> {m} blocks: {more_ops / ops:.1f}x the ops, "
                                   f"{more_cost / cost:.1f}x the {what}")
    if summary:
        print()
        print("\n".join(summary))


if __name__ == "__main__":
    main()
