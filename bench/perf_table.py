#!/usr/bin/env python3
"""Kernel performance measured on the CPU: one table over a set of fusions.

Every case runs `fuser-run --backend cpu --memory-report --json` (the kernels
run on the CPU backend with every global memory access recorded, then ptxas
on their PTX; docs/Performance.md has the definitions) and gives a row:
kernels, bytes moved / minimum, sector efficiency of loads and stores (the
worst kernel), registers and occupancy (per kernel), and whether the
targets of issues 12 and 13 hold:

  - every kernel at sector efficiency >= 0.9 (loads and stores);
  - every fusion that is one kernel at <= 1.05x the minimum bytes.

Usage: bench/perf_table.py [--build-dir build] [--cases a,b] [--json FILE]
                           [--strict] [--cuda-toolkit DIR]
--strict exits 1 when a target is missed (the table is a report: by default
it exits 0). `make bench-cpu` runs it.
"""

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES_FILE = os.path.join(ROOT, "bench", "perf_cases.mlir")

# (name, file, entry, what it is)
CASES = [
    ("mistral", os.path.join(ROOT, "examples", "mistral_rope_bwd.mlir"), None,
     "Mistral RoPE bwd: bf16[1,32,4096,128] -> [1,4096,1024], sum of 4 heads"),
    ("rmsnorm", CASES_FILE, "rmsnorm", "RMSNorm rows: bf16[1024,4096] * w[4096]"),
    ("softmax", CASES_FILE, "softmax", "softmax rows: bf16[1024,4096], f32 math"),
    ("layernorm", CASES_FILE, "layernorm",
     "LayerNorm rows: bf16[1024,4096], two sums, * w[4096] + b[4096]"),
    ("layernorm_var_mean", CASES_FILE, "layernorm_var_mean",
     "LayerNorm rows, Thunder's var_mean spelling: bf16[1024,4096]"),
    ("rmsnorm_8k", CASES_FILE, "rmsnorm_8k",
     "RMSNorm rows: bf16[8192,4096] * w[4096]"),
    ("layernorm_8k", CASES_FILE, "layernorm_8k",
     "LayerNorm rows: bf16[8192,4096], * w[4096] + b[4096]"),
    ("pointwise_bf16", CASES_FILE, "pointwise_bf16",
     "pointwise bf16 chain: (a*b+a)*0.5, bf16[2048,4096] x2"),
    ("permute_copy", CASES_FILE, "permute_copy",
     "permuted copy: bf16[64,256,512] -> [64,512,256]"),
    ("middle_reduction", CASES_FILE, "middle_reduction",
     "sum over the middle axis: bf16[32,1024,512] -> [32,512]"),
    ("batchnorm", CASES_FILE, "batchnorm",
     "batch norm over rows (outer): bf16[512,8192], two sums, * w + b"),
]

EFFICIENCY_TARGET = 0.9
BYTES_TARGET = 1.05


def run_case(fuser_run, path, entry, toolkit):
    cmd = [fuser_run, path, "--backend", "cpu", "--memory-report", "--json"]
    if entry:
        cmd += ["--entry", entry]
    if toolkit is not None:
        cmd += ["--cuda-toolkit=" + toolkit]
    start = time.monotonic()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    seconds = time.monotonic() - start
    return json.loads(out.stdout)["memory_report"], seconds, cmd


def summarize(report):
    kernels = report["kernels"]
    moved = report["moved_bytes"]
    minimum = report["fusion_min_bytes"]
    ratio = moved / minimum if minimum else float("nan")
    load_eff = min((k["load_efficiency"] for k in kernels), default=1.0)
    store_eff = min((k["store_efficiency"] for k in kernels), default=1.0)
    regs = "/".join(str(k["ptxas"]["registers"]) if k["ptxas"]["measured"]
                    else "?" for k in kernels) or "-"
    occ = "/".join("%d%%" % round(100 * k["occupancy"]["occupancy"])
                   for k in kernels) or "-"
    misses = []
    for i, k in enumerate(kernels):
        if k["load_efficiency"] < EFFICIENCY_TARGET:
            misses.append("k%d load eff %.3f" % (i, k["load_efficiency"]))
        if k["store_efficiency"] < EFFICIENCY_TARGET:
            misses.append("k%d store eff %.3f" % (i, k["store_efficiency"]))
    if len(kernels) == 1 and ratio > BYTES_TARGET:
        misses.append("bytes %.2fx" % ratio)
    return {
        "kernels": len(kernels), "moved": moved, "minimum": minimum,
        "ratio": ratio, "load_eff": load_eff, "store_eff": store_eff,
        "registers": regs, "occupancy": occ, "misses": misses,
    }


def mib(n):
    return "%.1f" % (n / (1 << 20))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--cases", default="",
                        help="comma-separated case names (default: all)")
    parser.add_argument("--json", help="also write every report here")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a target is missed")
    parser.add_argument("--cuda-toolkit", default=None,
                        help="CUDA toolkit root for ptxas (fuser-run's "
                             "default: /usr/local/cuda)")
    args = parser.parse_args()

    fuser_run = os.path.join(args.build_dir, "bin", "fuser-run")
    if not os.access(fuser_run, os.X_OK):
        sys.exit("perf_table.py: no %s; build first (make build)" % fuser_run)
    selected = [c for c in CASES
                if not args.cases or c[0] in args.cases.split(",")]

    rows, reports = [], {}
    total = 0.0
    for name, path, entry, what in selected:
        report, seconds, cmd = run_case(fuser_run, path, entry,
                                        args.cuda_toolkit)
        total += seconds
        reports[name] = report
        rows.append((name, what, summarize(report), report))
        if report.get("note"):
            print("note (%s): %s" % (name, report["note"]), file=sys.stderr)

    header = ("| case | kernels | moved MiB | min MiB | moved/min | "
              "load eff | store eff | registers | occupancy | targets |")
    print(header)
    print("|" + "---|" * 10)
    for name, what, s, _ in rows:
        print("| %s | %d | %s | %s | %.3f | %.3f | %.3f | %s | %s | %s |" % (
            name, s["kernels"], mib(s["moved"]), mib(s["minimum"]),
            s["ratio"], s["load_eff"], s["store_eff"], s["registers"],
            s["occupancy"], "ok" if not s["misses"] else
            "MISS: " + ", ".join(s["misses"])))
    print()
    print("| case | kernel | grid x block | loaded/min | stored/min | "
          "load eff | store eff | loads/thread | stores/thread | regs | "
          "blocks/SM | waves |")
    print("|" + "---|" * 12)
    for name, what, s, report in rows:
        for k in report["kernels"]:
            def widths(w):
                return " ".join("%sB:%.2g" % (b, n) for b, n in
                                sorted(w.items(), key=lambda x: int(x[0])))
            print("| %s | %s | %d x %d | %.3f | %.3f | %.3f | %.3f | %.2f (%s) "
                  "| %.2f (%s) | %s | %d | %.2f |" % (
                      name, k["name"], k["grid"], k["block"],
                      k["load_bytes"] / max(k["min_load_bytes"], 1),
                      k["store_bytes"] / max(k["min_store_bytes"], 1),
                      k["load_efficiency"], k["store_efficiency"],
                      k["loads_per_thread"], widths(k["load_widths"]),
                      k["stores_per_thread"], widths(k["store_widths"]),
                      k["ptxas"]["registers"] if k["ptxas"]["measured"] else "?",
                      k["occupancy"]["blocks_per_sm"], k["occupancy"]["waves"]))
    print()
    for name, what, _, _ in rows:
        print("- %s: %s" % (name, what))
    print("(%d cases measured in %.1f s)" % (len(rows), total))

    if args.json:
        with open(args.json, "w") as f:
            json.dump(reports, f, indent=1)
    missed = [name for name, _, s, _ in rows if s["misses"]]
    if args.strict and missed:
        print("targets missed: " + ", ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
