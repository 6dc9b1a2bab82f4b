#!/usr/bin/env python3
"""fuser-preseg compile time as the op count grows.

  bench/preseg_scaling.py [--fuser-opt build/bin/fuser-opt] [--sizes 1000 10000 100000]

For each chain kind and size, runs `fuser-opt --fuser-preseg --mlir-timing`
and reports the FuserSimplify wall time, the time per op, and the op count
left. About-constant time per op means linear cost.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_chain  # noqa: E402


def simplify_seconds(fuser_opt, path):
    run = subprocess.run([fuser_opt, "--fuser-preseg", "--mlir-timing", path],
                         capture_output=True, text=True, check=True)
    match = re.search(r"([\d.]+) \(\s*[\d.]+%\)\s+FuserSimplify", run.stderr)
    return float(match.group(1)), run.stdout.count("fuser.")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fuser-opt", default=os.path.join(HERE, "..", "build", "bin", "fuser-opt"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    args = parser.parse_args()
    print(f"{'kind':<10} {'ops':>8} {'simplify s':>11} {'us/op':>7} {'ops left':>9}")
    for kind, build in (("cast-view", gen_chain.cast_view), ("mixed", gen_chain.mixed)):
        for n in args.sizes:
            body, result = build(n)
            with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
                f.write("func.func @chain(%x: tensor<8x32xbf16>) -> tensor<8x32xbf16> {\n")
                f.write(body + f"\n  return {result} : tensor<8x32xbf16>\n}}\n")
            seconds, left = simplify_seconds(args.fuser_opt, f.name)
            os.unlink(f.name)
            print(f"{kind:<10} {n:>8} {seconds:>11.4f} {1e6 * seconds / n:>7.2f} {left:>9}")


if __name__ == "__main__":
    main()
