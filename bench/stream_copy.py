#!/usr/bin/env python3
"""CPU backend speed against this machine's copy bandwidth (issue 49).

For each thread count (default 1 and 2) and each case, runs

  fuser-run FILE --entry E --backend cpu --num-threads T --bench RUNS

which compiles the fusion once, times RUNS runs (median), and times a
STREAM-style copy of as many bytes (half read, half written: memcpy of
1 MiB ranges on the same T threads, through the same pool as the kernels'
blocks). It prints the copy bandwidth per thread count (from the largest
case, whose buffers are far beyond the caches) and a table of each fusion's
bytes per second (its inputs and results, the least it must move) and the
fraction of the copy bandwidth at its size.

Usage: bench/stream_copy.py [--build-dir build] [--threads 1,2] [--runs 9]
                            [--cases a,b]   (names of bench/perf_table.py)
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# perf_table.py's cases (name, file, entry, what it is): the bandwidth-bound
# ones.
from perf_table import CASES as PERF_CASES  # noqa: E402

DEFAULT_CASES = ["mistral", "rmsnorm", "softmax", "layernorm",
                 "pointwise_bf16", "middle_reduction", "rmsnorm_8k"]

BENCH_LINE = re.compile(
    r"bench cpu: (\d+) thread\(s\), \d+ runs; fusion: median ([\d.]+) ms "
    r"\(min [\d.]+ ms\), (\d+) bytes \(inputs \+ results\), ([\d.]+) GB/s; "
    r"copy: median ([\d.]+) ms \(min [\d.]+ ms\), ([\d.]+) GB/s")


def bench(fuser_run, path, entry, threads, runs):
    command = [fuser_run, path, "--backend", "cpu", "--num-threads",
               str(threads), "--bench", str(runs)]
    if entry:
        command += ["--entry", entry]
    output = subprocess.run(command, check=True, capture_output=True,
                            text=True).stdout
    match = BENCH_LINE.search(output)
    if not match:
        sys.exit("no bench line in the output of " + " ".join(command))
    return {"ms": float(match.group(2)), "bytes": int(match.group(3)),
            "gbs": float(match.group(4)), "copy_gbs": float(match.group(6))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--cases", default=None)
    args = parser.parse_args()
    fuser_run = os.path.join(args.build_dir, "bin", "fuser-run")
    threads = [int(t) for t in args.threads.split(",")]
    wanted = args.cases.split(",") if args.cases else DEFAULT_CASES
    cases = [case for case in PERF_CASES if case[0] in wanted]

    results = {}
    for name, path, entry, _ in cases:
        for count in threads:
            results[name, count] = bench(fuser_run, path, entry, count,
                                         args.runs)

    largest = max(cases, key=lambda case: results[case[0], threads[0]]["bytes"])
    moved = results[largest[0], threads[0]]["bytes"]
    print(f"copy bandwidth (memcpy of {moved // 2 // 2**20} MiB, "
          f"read + written):")
    for count in threads:
        print(f"  {count} thread(s): "
              f"{results[largest[0], count]['copy_gbs']:.1f} GB/s")
    print()
    header = "| fusion | MiB moved |"
    for count in threads:
        header += f" {count}T ms | {count}T GB/s | {count}T / copy |"
    if len(threads) > 1:
        header += f" speedup {threads[-1]}T/{threads[0]}T |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for name, _, _, what in cases:
        row = f"| {what} | {results[name, threads[0]]['bytes'] / 2**20:.0f} |"
        for count in threads:
            r = results[name, count]
            row += (f" {r['ms']:.1f} | {r['gbs']:.2f} | "
                    f"{r['gbs'] / r['copy_gbs']:.2f} |")
        if len(threads) > 1:
            row += (f" {results[name, threads[0]]['ms'] / results[name, threads[-1]]['ms']:.2f}x |")
        print(row)


if __name__ == "__main__":
    main()
