#!/usr/bin/env python3
"""Compile latency: fuser IR to cubin for the Mistral fusion, split into our
passes, upstream MLIR passes, LLVM's NVPTX code generation and ptxas; median
of several runs (docs/Performance.md).

One run is
  fuser-opt --fuser-preseg --fuser-segment \
    --fuser-lower-to-nvvm="format=bin" --mlir-timing --mlir-timing-display=list
on examples/mistral_rope_bwd.mlir. MLIR's pass timing gives each pass;
gpu-module-to-binary, which holds NVPTX code generation and ptxas, records
both in the gpu.binary it makes (`LLVMIRToISATimeInMs`: LLVM IR -> PTX,
`ISAToBinaryTimeInMs`: ptxas). The script checks them against a
`format=isa` run (no ptxas in gpu-module-to-binary) and a separate ptxas
run on that PTX (`ptxas -arch=sm_90`, wall time of the process).

Usage: bench/compile_latency.py [--build-dir build] [--runs 7]
                                [--cuda-toolkit /usr/local/cuda]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "mistral_rope_bwd.mlir")
SKIP = {"root", "Total", "Rest", "Parser", "Output"}


def timed_run(fuser_opt, fmt, toolkit, out_path):
    cmd = [fuser_opt, EXAMPLE, "--fuser-preseg", "--fuser-segment",
           "--fuser-lower-to-nvvm=format=%s toolkit=%s" % (fmt, toolkit),
           "--mlir-timing", "--mlir-timing-display=list", "-o", out_path]
    start = time.monotonic()
    proc = subprocess.run(cmd, check=True, capture_output=True, text=True)
    wall = time.monotonic() - start
    passes = {}
    for line in proc.stderr.splitlines():
        m = re.match(r"\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(.*)$", line)
        if m:
            passes[m.group(2).strip()] = float(m.group(1)) * 1e3
    with open(out_path) as f:
        text = f.read()
    props = {k: sum(int(v) for v in re.findall(k + r" = ([0-9]+)", text))
             for k in ("LLVMIRToISATimeInMs", "ISAToBinaryTimeInMs")}
    return passes, props, wall * 1e3, text, cmd


def classify(passes):
    """ms of our passes, of upstream MLIR passes, of gpu-module-to-binary,
    of the ptxas probe in fuser-check-nvvm-lowering, and the rest."""
    ours = upstream = 0.0
    for name, ms in passes.items():
        if name in SKIP or name.startswith("Pipeline Collection") or \
                name.startswith("'") or name.startswith("(A)"):
            continue
        if name == "GpuModuleToBinaryPass" or name == "FuserCheckNVVMLowering":
            continue
        if name.startswith("Fuser") or name.startswith("ConvertFuser"):
            ours += ms
        else:
            upstream += ms
    return {
        "ours": ours,
        "check": passes.get("FuserCheckNVVMLowering", 0.0),
        "upstream": upstream,
        "to_binary": passes.get("GpuModuleToBinaryPass", 0.0),
        "parse_print": passes.get("Parser", 0.0) + passes.get("Output", 0.0),
        "rest": passes.get("Rest", 0.0),
        "total": passes.get("Total", 0.0),
    }


def extract_ptx(text):
    m = re.search(r'assembly = "(.*?)">', text, re.S)
    if not m:
        return None
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda x: chr(int(x.group(1), 16)),
                  m.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--cuda-toolkit", default="/usr/local/cuda")
    args = parser.parse_args()
    fuser_opt = os.path.join(args.build_dir, "bin", "fuser-opt")
    ptxas = os.path.join(args.cuda_toolkit, "bin", "ptxas")
    if not os.access(fuser_opt, os.X_OK):
        sys.exit("compile_latency.py: no %s; build first" % fuser_opt)
    if not os.access(ptxas, os.X_OK):
        print("compile_latency.py: no ptxas at %s: the lowering to cubin "
              "needs the CUDA toolkit; nothing measured" % ptxas)
        return 0

    samples = {k: [] for k in ("ours", "check", "upstream", "to_binary",
                               "nvptx", "ptxas_in_pass", "isa_to_binary",
                               "ptxas_process", "parse_print", "rest", "total",
                               "wall")}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.mlir")
        ptx_path = os.path.join(tmp, "k.ptx")
        for _ in range(args.runs + 1):  # the first run warms caches
            passes, props, wall, _, bin_cmd = timed_run(
                fuser_opt, "bin", args.cuda_toolkit, out)
            c = classify(passes)
            isa_passes, isa_props, _, isa_text, isa_cmd = timed_run(
                fuser_opt, "isa", args.cuda_toolkit, out)
            with open(ptx_path, "w") as f:
                f.write(extract_ptx(isa_text))
            start = time.monotonic()
            subprocess.run([ptxas, "-arch=sm_90", "-o",
                            os.path.join(tmp, "k.cubin"), ptx_path],
                           check=True)
            ptxas_ms = (time.monotonic() - start) * 1e3
            if _ == 0:
                continue
            for k in ("ours", "check", "upstream", "to_binary", "parse_print",
                      "rest", "total"):
                samples[k].append(c[k])
            samples["nvptx"].append(props["LLVMIRToISATimeInMs"])
            samples["ptxas_in_pass"].append(props["ISAToBinaryTimeInMs"])
            samples["isa_to_binary"].append(
                c["to_binary"] - isa_passes.get("GpuModuleToBinaryPass", 0.0))
            samples["ptxas_process"].append(ptxas_ms)
            samples["wall"].append(wall)

    med = {k: statistics.median(v) for k, v in samples.items()}
    print("Mistral fusion, fuser IR -> cubin (sm_90), median of %d runs, ms"
          % args.runs)
    print("command: %s" % " ".join(bin_cmd))
    print("| stage | ms |")
    print("|---|---|")
    rows = [
        ("our passes (preseg, segment, schedule, convert-fuser-to-scf, "
         "gpu-host-memory, gpu-prepare-kernels)", med["ours"]),
        ("fuser-check-nvvm-lowering (runs `ptxas --help` once to check "
         "the chip)", med["check"]),
        ("upstream MLIR passes (parallel-loops-to-gpu, outlining, "
         "gpu-to-nvvm, ...)", med["upstream"]),
        ("LLVM NVPTX code generation (LLVMIRToISATimeInMs)", med["nvptx"]),
        ("ptxas inside gpu-module-to-binary (ISAToBinaryTimeInMs)",
         med["ptxas_in_pass"]),
        ("gpu-module-to-binary, whole (NVPTX + ptxas + translation)",
         med["to_binary"]),
        ("  cross-check: gpu-module-to-binary bin - isa", med["isa_to_binary"]),
        ("  cross-check: ptxas -arch=sm_90 as a process on the PTX",
         med["ptxas_process"]),
        ("parse + print", med["parse_print"]),
        ("rest (not in a pass: context, dialect loading)", med["rest"]),
        ("total (MLIR timing)", med["total"]),
        ("fuser-opt process wall time", med["wall"]),
    ]
    for name, ms in rows:
        print("| %s | %.1f |" % (name, ms))
    ours_and_nvptx = med["ours"] + med["upstream"] + med["nvptx"]
    print()
    print("our passes + upstream MLIR passes + NVPTX = %.1f ms vs ptxas %.1f "
          "ms (target: less): %s" % (
              ours_and_nvptx, med["ptxas_in_pass"],
              "ok" if ours_and_nvptx < med["ptxas_in_pass"] else "MISS"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
