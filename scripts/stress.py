#!/usr/bin/env python3
"""The stress family (docs/Testing.md, "Stress"): inputs far larger than
fuser-gen makes, through every tool and backend.

    scripts/stress.py [--build DIR] [--size small|full] [--only NAME ...]

Each case is a fusion (MLIR, or an nvFuser print for the importer) written
into a scratch directory, and each step runs one tool on it under a time
limit. A step passes when it exits 0, or, where the case says so, exits 2
with the located error it names; a signal, an abort, another exit status, a
missing message or a timeout fails it. Backends are checked against the
interpreter (`--check-against interp`), so every run also compares bits.

Families: long chains and DAGs of elementwise ops (10^4 to 10^5 ops),
chains of pads (the kernel lowering's nesting limit), wide fusions
(thousands of inputs and outputs), large shapes under a memory cap (the
run's buffer budget and `prlimit --as`), zero extents, long lines and deep
nesting in nvFuser prints. `--size small` keeps every case to seconds (the
sanitizer build runs it); `full` is the 10^5-op run `make check-stress`
makes. It prints one line per step with its time, and a summary.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

T = "tensor<64x32xf32>"


def chain(n, op="add"):
    """v_i = op(v_{i-1}, a): a chain of n binary ops."""
    lines = ["func.func @chain(%%a: %s) -> %s {" % (T, T),
             "  %%v0 = fuser.%s %%a, %%a : %s, %s -> %s" % (op, T, T, T)]
    for i in range(1, n):
        lines.append("  %%v%d = fuser.%s %%v%d, %%a : %s, %s -> %s" % (i, op, i - 1, T, T, T))
    lines += ["  return %%v%d : %s" % (n - 1, T), "}"]
    return "\n".join(lines) + "\n"


def unary_chain(n):
    """A chain of n unary ops that do not fold into each other."""
    ops = ["abs", "sqrt", "neg", "reciprocal"]
    lines = ["func.func @unary(%%a: %s) -> %s {" % (T, T), "  %%v0 = fuser.abs %%a : %s" % T]
    for i in range(1, n):
        lines.append("  %%v%d = fuser.%s %%v%d : %s" % (i, ops[i % len(ops)], i - 1, T))
    lines += ["  return %%v%d : %s" % (n - 1, T), "}"]
    return "\n".join(lines) + "\n"


def dag(n):
    """v_i = maximum(v_{i-1}, v_{i-2}): every value read twice."""
    lines = ["func.func @dag(%%a: %s, %%b: %s) -> %s {" % (T, T, T),
             "  %%v0 = fuser.maximum %%a, %%b : %s, %s -> %s" % (T, T, T),
             "  %%v1 = fuser.maximum %%v0, %%a : %s, %s -> %s" % (T, T, T)]
    for i in range(2, n):
        lines.append("  %%v%d = fuser.maximum %%v%d, %%v%d : %s, %s -> %s" % (i, i - 1, i - 2, T, T, T))
    lines += ["  return %%v%d : %s" % (n - 1, T), "}"]
    return "\n".join(lines) + "\n"


def reduction_blocks(n):
    """n blocks of `r = sum(v) keepdim; v = v - expand(r)` (normalizations)."""
    t, r = "tensor<8x16xf32>", "tensor<8x1xf32>"
    lines = ["func.func @blocks(%%a: %s) -> %s {" % (t, t)]
    value = "%a"
    for i in range(n):
        lines += ["  %%r%d = fuser.reduction add %s [1] keepdim : %s -> %s" % (i, value, t, r),
                  "  %%e%d = fuser.expand %%r%d : %s -> %s" % (i, i, r, t),
                  "  %%v%d = fuser.sub %s, %%e%d : %s, %s -> %s" % (i, value, i, t, t, t)]
        value = "%%v%d" % i
    lines += ["  return %s : %s" % (value, t), "}"]
    return "\n".join(lines) + "\n"


def pads(n):
    """n pads, each one element longer: evaluated by nested recursion."""
    lines = ["func.func @pads(%%a: tensor<8xf32>) -> tensor<%dxf32> {" % (8 + n),
             "  %c = arith.constant 1.0 : f32", "  %v0 = fuser.neg %a : tensor<8xf32>"]
    for i in range(1, n + 1):
        lines.append("  %%v%d = fuser.pad %%v%d low [1] high [0] value %%c : tensor<%dxf32>, f32 -> "
                     "tensor<%dxf32>" % (i, i - 1, 7 + i, 8 + i))
    lines += ["  return %%v%d : tensor<%dxf32>" % (n, 8 + n), "}"]
    return "\n".join(lines) + "\n"


def wide(n):
    """n inputs and n outputs: out_i = in_i * in_{i+1}."""
    t = "tensor<4x8xf32>"
    args = ", ".join("%%a%d: %s" % (i, t) for i in range(n + 1))
    lines = ["func.func @wide(%s) -> (%s) {" % (args, ", ".join([t] * n))]
    for i in range(n):
        lines.append("  %%v%d = fuser.mul %%a%d, %%a%d : %s, %s -> %s" % (i, i, i + 1, t, t, t))
    lines += ["  return %s : %s" % (", ".join("%%v%d" % i for i in range(n)), ", ".join([t] * n)), "}"]
    return "\n".join(lines) + "\n"


def large(outputs, extent):
    """One input and `outputs` results of neg on tensor<extent x extent x f32>."""
    t = "tensor<%dx%dxf32>" % (extent, extent)
    lines = ["func.func @large(%%a: %s) -> (%s) {" % (t, ", ".join([t] * outputs))]
    for i in range(outputs):
        lines.append("  %%v%d = fuser.neg %%a : %s" % (i, t))
    lines += ["  return %s : %s" % (", ".join("%%v%d" % i for i in range(outputs)),
                                     ", ".join([t] * outputs)), "}"]
    return "\n".join(lines) + "\n"


def zero_extents():
    return """func.func @zero(%a: tensor<0x1024xf32>, %b: tensor<7x0xbf16>) -> (tensor<1024xf32>, tensor<0x1024xf32>, tensor<7xbf16>, tensor<0x7xbf16>) {
  %0 = fuser.reduction add %a [0] : tensor<0x1024xf32> -> tensor<1024xf32>
  %1 = fuser.exp %a : tensor<0x1024xf32>
  %2 = fuser.reduction max %b [1] : tensor<7x0xbf16> -> tensor<7xbf16>
  %3 = fuser.permute %b [1, 0] : tensor<7x0xbf16> -> tensor<0x7xbf16>
  return %0, %1, %2, %3 : tensor<1024xf32>, tensor<0x1024xf32>, tensor<7xbf16>, tensor<0x7xbf16>
}
"""


def nvfuser_sum(n, one_line):
    """An nvFuser print adding T0 to itself n times."""
    domain = "[iS0{4}, iS1{8}]"
    terms = ["T%d_l_float%s = T%d_l_float%s + T0_g_float%s;" % (i, domain, i - 1, domain, domain)
             for i in range(1, n + 1)]
    body = (" ".join(terms) if one_line else "\n".join(terms))
    return ("Inputs:\n  T0_g_float%s\nOutputs:\n  T%d_g_float%s\n%%kernel_math {\n%s\n}\n"
            % (domain, n, domain, body))


def nvfuser_nested(depth):
    """An nvFuser print with one statement nested `depth` parentheses deep."""
    domain = "[iS0{4}, iS1{8}]"
    expr = "T0_g_float%s" % domain
    for _ in range(depth):
        expr = "(%s + T0_g_float%s)" % (expr, domain)
    return ("Inputs:\n  T0_g_float%s\nOutputs:\n  T1_g_float%s\n%%kernel_math {\n"
            "T1_g_float%s = %s;\n}\n" % (domain, domain, domain, expr))


class Runner:
    def __init__(self, build, scratch, timeout):
        self.bin = os.path.join(build, "bin")
        self.scratch = scratch
        self.timeout = timeout
        self.failures = []
        self.steps = 0

    def write(self, name, text):
        path = os.path.join(self.scratch, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def step(self, case, tool, args, expect_error=None, limit=None, error_status=2):
        """Runs bin/tool with args; expect_error: the message of an exit
        `error_status` (2 for fuser-run, 1 for fuser-opt and
        fuser-translate, as MLIR's drivers exit)."""
        command = [os.path.join(self.bin, tool)] + args
        if limit:
            command = ["prlimit", "--as=%d" % limit] + command
        start = time.monotonic()
        try:
            done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  timeout=self.timeout, text=True, errors="replace")
            rc, stderr = done.returncode, done.stderr
        except subprocess.TimeoutExpired:
            rc, stderr = None, ""
        seconds = time.monotonic() - start
        self.steps += 1
        shown = " ".join([tool] + [os.path.basename(a) if a.startswith(self.scratch) else a
                                   for a in args])
        if rc is None:
            verdict = "TIMEOUT (over %d s)" % self.timeout
        elif rc < 0 or rc > 128:
            verdict = "SIGNAL %d" % (-rc if rc < 0 else rc - 128)
        elif expect_error is None:
            verdict = "ok" if rc == 0 else "exit %d" % rc
        else:
            verdict = ("ok (exit %d: %s)" % (rc, expect_error)
                       if rc == error_status and expect_error in stderr else "exit %d" % rc)
        print("%-12s %7.2f s  %-8s %s" % (case, seconds, verdict.split(" ")[0], shown), flush=True)
        if not verdict.startswith("ok"):
            last = [line[:200] for line in stderr.strip().splitlines()[-3:]]
            self.failures.append("%s: %s: %s%s" % (case, shown, verdict,
                                                   "".join("\n    " + line for line in last)))

    def fusion(self, case, path, backends=("cpu",), report=True, nvvm=True,
               expect_error=None):
        """Every tool on one fusion file."""
        self.step(case, "fuser-opt", [path, "--fuser-preseg", "--fuser-segment", "-o", os.devnull])
        self.step(case, "fuser-run", [path])
        for backend in backends:
            self.step(case, "fuser-run", [path, "--backend", backend, "--check-against", "interp"],
                      expect_error=expect_error)
        if report:
            # Without ptxas: its -O3 on a kernel of 10^4 ops takes minutes
            # (a 20000-op chain: 4.5 min), and it is not ours.
            self.step(case, "fuser-run", [path, "--backend", "cpu", "--memory-report",
                                          "--cuda-toolkit="], expect_error=expect_error)
        if nvvm:
            self.step(case, "fuser-opt", [path, "--fuser-preseg", "--fuser-segment",
                                          "--fuser-lower-to-nvvm=chip=sm_90 format=isa",
                                          "-o", os.devnull], expect_error=expect_error,
                      error_status=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--size", choices=["small", "full"], default="full")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per step")
    parser.add_argument("--only", nargs="*", help="run only these cases")
    parser.add_argument("--sanitizer", action="store_true",
                        help="the build is a sanitizer build: skip the address-space "
                             "limits (ASan reserves terabytes of shadow memory)")
    options = parser.parse_args()
    full = options.size == "full"
    scratch = tempfile.mkdtemp(prefix="fuser-stress-")
    runner = Runner(os.path.abspath(options.build), scratch, options.timeout)

    def wanted(name):
        return not options.only or name in options.only

    chain_ops = 100000 if full else 5000
    # The GPU path's NVPTX O3 and instruction selection (gpu-module-to-binary)
    # take 35 s for a 20000-op kernel and grow faster than linearly: the
    # 10^5-op fusions skip it, a 20000-op chain takes it.
    nvvm = not full
    if wanted("chain"):
        runner.fusion("chain", runner.write("chain.mlir", chain(chain_ops)), nvvm=nvvm)
        if full:
            runner.fusion("chain-nvvm", runner.write("chain-nvvm.mlir", chain(20000)),
                          backends=(), report=False)
    if wanted("unary"):
        # Calls of libm-free unary ops; sqrt and reciprocal keep them apart.
        runner.fusion("unary", runner.write("unary.mlir", unary_chain(chain_ops // 5)))
    if wanted("dag"):
        runner.fusion("dag", runner.write("dag.mlir", dag(chain_ops)), nvvm=nvvm)
    if wanted("blocks"):
        # Segmentation is the segmentation issue's to speed up; here it ends.
        runner.fusion("blocks", runner.write("blocks.mlir", reduction_blocks(200 if full else 40)),
                      report=False)
    if wanted("pads"):
        runner.fusion("pads", runner.write("pads.mlir", pads(150)))
        runner.fusion("pads-deep", runner.write("pads-deep.mlir", pads(400)), report=False,
                      expect_error="nests pad, cat and reduction evaluations at most 200 deep")
    if wanted("wide"):
        runner.fusion("wide", runner.write("wide.mlir", wide(2000 if full else 300)))
    if wanted("zero"):
        runner.fusion("zero", runner.write("zero.mlir", zero_extents()))
    if wanted("large"):
        # 1 input and 12 results of 256 MiB: over a 1 GiB budget, and over
        # what a 4 GiB address space holds with the default budget.
        path = runner.write("large.mlir", large(12, 8192))
        budget = "for all its buffers together"
        for backend in ("interp", "cpu"):
            runner.step("large", "fuser-run", [path, "--backend", backend,
                                               "--max-total-bytes", str(1 << 30)],
                        expect_error=budget)
            if not options.sanitizer:
                runner.step("large", "fuser-run", [path, "--backend", backend],
                            expect_error=budget, limit=4 << 30)
        if not options.sanitizer:
            runner.step("large", "fuser-run", [path, "--backend", "cpu", "--memory-report"],
                        expect_error=budget, limit=4 << 30)
        small = runner.write("large-fits.mlir", large(2, 2048))
        runner.fusion("large-fits", small, report=False)
    if wanted("prints"):
        terms = 50000 if full else 5000
        for name, one_line in (("sum-line", True), ("sum-lines", False)):
            path = runner.write(name + ".txt", nvfuser_sum(terms, one_line))
            runner.step(name, "fuser-translate", ["--import-nvfuser", path,
                                                  "-o", path + ".mlir"])
            runner.step(name, "fuser-run", [path + ".mlir", "--backend", "cpu",
                                            "--check-against", "interp"])
        # The importer's parser recurses into parentheses, at most 256 deep.
        path = runner.write("nested.txt", nvfuser_nested(250))
        runner.step("nested", "fuser-translate", ["--import-nvfuser", path, "-o", path + ".mlir"])
        runner.step("nested", "fuser-run", [path + ".mlir", "--backend", "cpu",
                                            "--check-against", "interp"])
        path = runner.write("nested-deep.txt", nvfuser_nested(20000 if full else 2000))
        runner.step("nested-deep", "fuser-translate", ["--import-nvfuser", path, "-o", os.devnull],
                    expect_error="expression nested more than 256 levels deep", error_status=1)

    print("stress: %d steps, %d failed (inputs in %s)" % (runner.steps, len(runner.failures),
                                                          scratch))
    for failure in runner.failures:
        print("FAILED " + failure)
    if not runner.failures:
        shutil.rmtree(scratch)
    return 1 if runner.failures else 0


if __name__ == "__main__":
    sys.exit(main())
