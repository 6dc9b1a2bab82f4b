"""Runs every lit fusion that the CPU backend checks against the interpreter
under the SIMT emulator instead: each RUN line of the test tree with
`fuser-run ... --backend cpu --check-against interp` (and what pipes into it)
is run with `--backend simt`, and must exit 0 (all results within the
tolerance fuser-run applies) with no emulator error.

usage: run_lit_corpus.py SOURCE_ROOT TOOLS_DIR TEMP_DIR [FILE:ENTRY=ULPS|run ...]
(FILE relative to SOURCE_ROOT/test; ENTRY empty for the default entry):
ULPS replaces the line's tolerance; `run` runs without comparing (results
that libdevice and the host's libm round apart by more than any ulp bound,
e.g. one of them overflowing).
Prints one line per command and a summary; exits 1 if any failed.
"""
import os
import re
import subprocess
import sys
import time

TOOLS = ("fuser-opt", "fuser-run", "fuser-translate", "fuser-gen")


def run_lines(path):
    """The RUN commands of `path`, continuation lines joined."""
    commands, pending = [], ""
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*(?://|#)\s*RUN:\s?(.*)", line)
            if not m:
                continue
            text = m.group(1).rstrip()
            if text.endswith("\\"):
                pending += text[:-1] + " "
                continue
            commands.append(pending + text)
            pending = ""
    return commands


def main():
    source_root, tools_dir, temp = sys.argv[1:4]
    root = os.path.join(source_root, "test")
    tolerances = dict(a.split("=") for a in sys.argv[4:])
    os.makedirs(temp, exist_ok=True)
    passed = failed = 0
    started = time.time()
    for directory, _, files in sorted(os.walk(root)):
        if "Inputs" in directory.split(os.sep):
            continue
        for name in sorted(files):
            if not name.endswith((".mlir", ".test")):
                continue
            path = os.path.join(directory, name)
            scratch = os.path.join(temp, name)
            # Attention library segments (sdpfa), in the file or in an input
            # it runs, run on the CPU backend only: the CUDA backend runs
            # matmul and linear ones with cuBLASLt (the emulator's fake) and
            # attention decomposed into those (simt-sdpfa*.mlir).
            with open(path) as f:
                text = f.read()
            for used in set(re.findall(r"%S/(Inputs/\S+)", text)):
                used = os.path.join(directory, used)
                if os.path.isfile(used):
                    with open(used) as f:
                        text += f.read()
            if re.search(r"fuser\.(sdpfa_fwd|sdpfa_bwd) ", text):
                continue
            for command in run_lines(path):
                stages = []
                for stage in command.split("|"):
                    if "FileCheck" in stage:
                        break
                    stages.append(stage)
                run = "|".join(stages)
                run = run.replace("%fuser_src_root", source_root)
                run = run.replace("%python", sys.executable)
                run = run.replace("%s", path).replace("%S", directory)
                run = run.replace("%t", scratch)
                for tool in TOOLS:
                    run = re.sub(r"(?<![\w/.-])%s(?=\s)" % tool,
                                 os.path.join(tools_dir, tool), run)
                checked = re.search(
                    r"fuser-run .*--backend cpu --check-against interp", run)
                if not checked:
                    # Lines that only write the files later lines read.
                    if scratch in run and len(stages) == len(command.split("|")):
                        subprocess.run(run, shell=True, capture_output=True,
                                       cwd=temp)
                    continue
                # Lines that fail by design, and lines of a host's features
                # (`%if onednn2 %{ ... %}`: other libraries on the CPU).
                if re.search(r"(^|\s)not\s|--memory-report|^\s*%if\s", run):
                    continue
                run = run.replace("--backend cpu", "--backend simt")
                relative = os.path.relpath(path, root)
                entry = re.search(r"--entry (\S+)", run)
                key = "%s:%s" % (relative, entry.group(1) if entry else "")
                expected = tolerances.get(key)
                if expected == "run":
                    run = re.sub(r" --check-against interp| --ulp-tolerance \S+",
                                 "", run)
                elif expected:
                    run = re.sub(r" --ulp-tolerance \S+", "", run)
                    run += " --ulp-tolerance " + expected
                result = subprocess.run(run, shell=True, capture_output=True,
                                        text=True, cwd=temp)
                ok = (result.returncode == 0 and "FAILED" not in result.stdout
                      and "simt: error" not in result.stderr)
                passed += ok
                failed += not ok
                print("%s %s" % ("PASS" if ok else "FAIL", key))
                if not ok:
                    print("  " + run)
                    print("  " + "\n  ".join((result.stdout + result.stderr)
                                             .strip().splitlines()[-6:]))
    print("simt lit corpus: %d passed, %d failed, %.1f s" %
          (passed, failed, time.time() - started))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
