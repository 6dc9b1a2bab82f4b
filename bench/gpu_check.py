#!/usr/bin/env python3
"""Checks lowered kernels on a GPU against the interpreter, value by value.

On a machine with the fuser tools (no GPU needed), `prepare` lowers fusions
through preseg, segmentation and the GPU pipeline (sm_90 cubins), exports
each one's launch plan (fuser-translate --fuser-export-launch) and writes
the interpreter's results on the deterministic inputs (fuser-run --json):

    python3 bench/gpu_check.py prepare OUT test/Conversion/FuserToSCF/*.mlir --seeds 1..50

On a GPU machine with python3, torch and numpy (no MLIR), `run` launches
every case with bench/gpu_bench.py's driver and compares every output with
the interpreter's (gpu_bench.py --against-interp), exit 1 on a mismatch:

    python3 bench/gpu_check.py run OUT

Results must be bit-identical, except where the fusion has transcendental
ops (exp, tanh, ...: libdevice and the host's libm differ in the last
bits) or divisions (split reductions reassociate sums of inexact values),
which get --ulp-tolerance (default 16, as the CPU backend's tests allow).
"""

import argparse
import contextlib
import io
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Ops whose results are not exact on the deterministic inputs: transcendental
# ones, and division (exact itself, but reassociated sums of its results
# differ).
INEXACT = re.compile(r"fuser\.(exp|log|tanh|sin|cos|pow|rsqrt|sqrt|reciprocal|sigmoid|erf|div)\b")


def functions(path):
    """The fusions of an MLIR file: (name, body text) per func.func."""
    text = open(path).read()
    starts = [m for m in re.finditer(r"^\s*func\.func @([A-Za-z0-9_]+)\(", text, re.M)]
    return [(m.group(1), text[m.start():(starts[i + 1].start() if i + 1 < len(starts) else len(text))])
            for i, m in enumerate(starts)]


def prepare(args):
    tools = os.path.join(args.build, "bin")
    run = lambda cmd: subprocess.run(cmd, capture_output=True, text=True)
    cases = [(f, name, body) for f in args.files for name, body in functions(f)]
    os.makedirs(args.out, exist_ok=True)
    for seed in args.seed_range:
        path = os.path.join(args.out, f"seed{seed}.mlir")
        gen = run([os.path.join(tools, "fuser-gen"), f"--seed={seed}"])
        open(path, "w").write(gen.stdout)
        cases += [(path, name, body) for name, body in functions(path)]
    prepared = 0
    for path, name, body in cases:
        case = os.path.join(args.out, f"{os.path.splitext(os.path.basename(path))[0]}__{name}")
        lowered = case + ".lowered.mlir"
        steps = [
            [os.path.join(tools, "fuser-opt"), path, "--fuser-preseg", "--fuser-segment",
             "--fuser-lower-to-nvvm=chip=sm_90 format=bin", "-o", lowered],
            [os.path.join(tools, "fuser-translate"), "--fuser-export-launch", f"--fuser-export-dir={case}",
             f"--fuser-export-function={name}", lowered, "-o", os.path.join(case, "launch.json")],
        ]
        os.makedirs(case, exist_ok=True)
        failed = next((r for r in map(run, steps) if r.returncode != 0), None)
        if os.path.exists(lowered):
            os.remove(lowered)
        interp = run([os.path.join(tools, "fuser-run"), path, f"--entry={name}", "--json"])
        if failed or interp.returncode != 0:
            why = (failed or interp).stderr.strip().splitlines()
            print(f"{case}: skipped: {why[0] if why else 'failed'}")
            subprocess.run(["rm", "-rf", case])
            continue
        open(os.path.join(case, "interp.json"), "w").write(interp.stdout)
        inexact = INEXACT.search(body)
        open(os.path.join(case, "tolerance"), "w").write(str(args.ulp_tolerance if inexact else 0))
        prepared += 1
    print(f"prepared {prepared} cases in {args.out}")
    return 0


def run_cases(args):
    sys.path.insert(0, HERE)
    import gpu_bench

    failed = []
    for name in sorted(os.listdir(args.out)):
        case = os.path.join(args.out, name)
        if not os.path.isfile(os.path.join(case, "launch.json")):
            continue
        tolerance = open(os.path.join(case, "tolerance")).read().strip()
        log = io.StringIO()
        with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
            try:
                rc = gpu_bench.main(["--launch", os.path.join(case, "launch.json"),
                                     "--against-interp", os.path.join(case, "interp.json"),
                                     "--ulp-tolerance", tolerance, "--runs", "1", "--warmup", "0",
                                     "--no-compile"])
            except Exception as e:  # a driver error in one case must not hide the others
                rc = 2
                print(f"{type(e).__name__}: {e}")
        lines = log.getvalue().splitlines()
        ulps = [int(m.group(1)) for line in lines for m in [re.search(r"max_ulp=(\d+)", line)] if m]
        print(f"{name}: {'ok' if rc == 0 else 'FAILED'} (max_ulp {max(ulps) if ulps else '-'},"
              f" tolerance {tolerance})")
        if rc != 0:
            failed.append(name)
            print("\n".join("  " + line for line in lines if not line.endswith(" ok")))
    print(f"gpu_check: {len(failed)} failed{': ' + ' '.join(failed) if failed else ''}")
    return 1 if failed else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("prepare", help="lower, export and run the interpreter (no GPU)")
    p.add_argument("out")
    p.add_argument("files", nargs="*")
    p.add_argument("--seeds", default="", help="fuser-gen seeds A..B as well")
    p.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    p.add_argument("--ulp-tolerance", type=int, default=16)
    r = sub.add_parser("run", help="launch every prepared case on the GPU and compare")
    r.add_argument("out")
    args = parser.parse_args(argv)
    if args.mode == "prepare":
        args.seed_range = []
        if args.seeds:
            first, _, last = args.seeds.partition("..")
            args.seed_range = range(int(first), int(last or first) + 1)
        return prepare(args)
    return run_cases(args)


if __name__ == "__main__":
    sys.exit(main())
