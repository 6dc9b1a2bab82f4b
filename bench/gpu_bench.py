#!/usr/bin/env python3
"""Times a kernel that fuser-mlir compiled on a GPU machine without MLIR.

Inputs (written on any machine with the fuser tools, docs/Lowering.md):

    fuser-opt --fuser-preseg --fuser-segment \
      --fuser-lower-to-nvvm="chip=sm_90 format=bin" examples/mistral_rope_bwd.mlir \
      -o lowered.mlir
    mkdir -p OUT
    fuser-translate --fuser-export-launch --fuser-export-dir=OUT lowered.mlir \
      -o OUT/launch.json

OUT holds one .cubin per kernel and launch.json: the host function's device
buffers, kernels (name, grid, block, shared memory) and kernel arguments
(bare-pointer convention: a buffer is one device pointer).

On a GPU machine with python3 + torch:

    python3 bench/gpu_bench.py --launch OUT/launch.json [--runs 100]

loads the cubins with the CUDA driver API through ctypes (libcuda.so.1:
cuModuleLoadData, cuModuleGetFunction, cuLaunchKernel on torch's current
stream; buffers are torch tensors), fills the inputs with the deterministic
inputs of PRODUCT.md (so that every reduction order gives the same bits),
and times, with torch.cuda events after warm-up and with L2 flushed (a
memset of max(4 x L2, 256 MiB)) before each timed call: our kernels, PyTorch
eager, torch.compile of the same computation, and a device-to-device copy
moving the same bytes. It checks our output bit for bit against eager
(exit 1 otherwise). Under compute-sanitizer:

    compute-sanitizer --tool memcheck python3 bench/gpu_bench.py \
      --launch OUT/launch.json --runs 1 --no-compile

With --against-interp FILE (`fuser-run FUSION --json`, the interpreter's
results on the same inputs), every output of any fusion is checked against
the interpreter's value by value, within --ulp-tolerance units in the last
place for floats (0, bit for bit, unless the fusion has transcendental
ops); a fusion without a torch computation stops after the check:

    python3 bench/gpu_bench.py --launch OUT/launch.json --against-interp interp.json

`--self-check` needs neither a GPU nor torch (CI, `make check`): it parses
the arguments, loads launch.json and the cubins (ELF magic, sizes, steps),
computes the reference of the fusion on the deterministic inputs in pure
Python (stdlib only) and, with --expect-fuser-run FILE (the output of
`fuser-run` on the same fusion), checks its FNV-1a 64 against the
interpreter's; with torch installed it also runs the torch computation on
CPU tensors and compares it with the pure-Python reference bit for bit.
"""

import argparse
import ctypes
import json
import os
import re
import struct
import sys

MASK64 = (1 << 64) - 1
DTYPE_BYTES = {"i1": 1, "i32": 4, "i64": 8, "f16": 2, "bf16": 2, "f32": 4, "f64": 8}


class CheckError(Exception):
    pass


# --------------------------------------------------------------------------
# The launch description
# --------------------------------------------------------------------------

def load_launch(path):
    """launch.json and its binaries (bytes), checked for consistency."""
    with open(path) as f:
        launch = json.load(f)
    for key in ("function", "arguments", "buffers", "binaries", "steps"):
        if key not in launch:
            raise CheckError(f"{path}: no '{key}'")
    base = os.path.dirname(os.path.abspath(path))
    binaries = []
    for binary in launch["binaries"]:
        file = os.path.join(base, binary["file"])
        if not os.path.isfile(file):
            raise CheckError(f"{path}: binary {binary['name']}: no file {file}")
        with open(file, "rb") as f:
            data = f.read()
        if len(data) != binary["bytes"]:
            raise CheckError(f"{file}: {len(data)} bytes, launch.json says {binary['bytes']}")
        if binary["format"] == "bin" and data[:4] != b"\x7fELF":
            raise CheckError(f"{file}: not an ELF cubin")
        binaries.append(data)
    for buffer in launch["buffers"]:
        count = 1
        for extent in buffer["shape"]:
            count *= extent
        if count * DTYPE_BYTES[buffer["dtype"]] != buffer["bytes"]:
            raise CheckError(f"buffer {buffer['index']}: shape and bytes disagree")
    for step in launch["steps"]:
        if step["op"] == "library":
            raise CheckError(f"a library segment ({step['function']}): cuBLASLt calls are run "
                             "by fuser-run --backend cuda, not by this script")
    launches = [s for s in launch["steps"] if s["op"] == "launch"]
    for step in launches:
        if not 0 <= step["binary"] < len(binaries):
            raise CheckError(f"launch of {step['kernel']}: no binary {step['binary']}")
        name = step["kernel"].encode() + b"\0"
        if launch["binaries"][step["binary"]]["format"] == "bin" and name not in binaries[step["binary"]]:
            raise CheckError(f"kernel {step['kernel']} is not in its cubin")
        if any(g < 1 for g in step["grid"] + step["block"]):
            raise CheckError(f"launch of {step['kernel']}: empty grid or block")
        for arg in step["args"]:
            if arg["kind"] == "pointer" and not 0 <= arg["buffer"] < len(launch["buffers"]):
                raise CheckError(f"launch of {step['kernel']}: no buffer {arg['buffer']}")
    return launch, binaries


def min_bytes(launch):
    """Bytes the steps must move: each kernel's distinct buffers once, a copy twice."""
    total = 0
    for step in launch["steps"]:
        if step["op"] == "launch":
            total += step["min_bytes"]
        elif step["op"] == "memcpy":
            total += 2 * step["bytes"]
    return total


# --------------------------------------------------------------------------
# Deterministic inputs (PRODUCT.md) and the reference, in pure Python
# --------------------------------------------------------------------------

def splitmix64(x):
    z = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def f32_bits(value):
    return struct.unpack("<I", struct.pack("<f", value))[0]


def to_f32(value):
    return struct.unpack("<f", struct.pack("<f", value))[0]


def bf16_round(value):
    """f32 -> bf16 bits, nearest even (no NaN arises here)."""
    bits = f32_bits(value)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def bf16_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def deterministic_bf16(count, arg, seed=0):
    """bf16 bits of the deterministic input for argument `arg`."""
    base = (seed * 0x9E3779B97F4A7C15 + arg * 0x100000001B3) & MASK64
    table = [bf16_round((r - 64) / 8.0) for r in range(129)]
    return [table[splitmix64((base + i) & MASK64) % 129] for i in range(count)]


def fnv1a64_u16(values):
    h = 0xCBF29CE484222325
    for v in values:
        h = ((h ^ (v & 0xFF)) * 0x100000001B3) & MASK64
        h = ((h ^ (v >> 8)) * 0x100000001B3) & MASK64
    return h


def deterministic_numpy(shape, dtype, arg, seed=0):
    """PRODUCT.md's deterministic input of any element type, in numpy: float64
    values for floats (exact in every float type), int64 for integers, bool
    for i1."""
    import numpy as np

    count = 1
    for e in shape:
        count *= e
    base = (seed * 0x9E3779B97F4A7C15 + arg * 0x100000001B3) & MASK64
    z = np.arange(count, dtype=np.uint64) + np.uint64((base + 0x9E3779B97F4A7C15) & MASK64)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    h = z ^ (z >> np.uint64(31))
    if dtype == "i1":
        values = (h & np.uint64(1)).astype(bool)
    elif dtype.startswith("i"):
        values = (h % np.uint64(201)).astype(np.int64) - 100
    else:
        values = ((h % np.uint64(129)).astype(np.int64) - 64) / 8.0
    return values.reshape(shape)


def mistral_shapes(launch):
    """(heads, seq, dim, kv heads) of a Mistral-shaped fusion."""
    args = launch["arguments"]
    inputs = [a for a in args if a["role"] == "input"]
    outputs = [a for a in args if a["role"] == "output"]
    if len(inputs) != 1 or len(outputs) != 1:
        raise CheckError("mistral_rope_bwd: expected one input and one output")
    b, h, s, d = inputs[0]["shape"]
    ob, os_, od = outputs[0]["shape"]
    if b != 1 or ob != 1 or os_ != s or od % d or h % (od // d):
        raise CheckError("mistral_rope_bwd: unexpected shapes")
    return h, s, d, od // d


def mistral_reference_python(x, launch):
    """view -> cast f32 -> sum over the grouped heads -> cast bf16 -> permute -> view."""
    h, s, d, kv = mistral_shapes(launch)
    g = h // kv
    out = [0] * (s * kv * d)
    for k in range(kv):
        for si in range(s):
            for di in range(d):
                acc = -0.0
                for gi in range(g):
                    acc = to_f32(acc + bf16_value(x[((k * g + gi) * s + si) * d + di]))
                out[(si * kv + k) * d + di] = bf16_round(acc)
    return out


def mistral_torch(x, kv):
    """The same computation in PyTorch ([1, H, S, D] bf16 -> [1, S, KV*D] bf16)."""
    import torch  # noqa: F401

    b, h, s, d = x.shape
    y = x.view(b, kv, h // kv, s, d).float().sum(dim=2).to(x.dtype)
    return y.permute(0, 2, 1, 3).reshape(b, s, kv * d)


REFERENCES = {"mistral_rope_bwd": (mistral_reference_python, mistral_torch)}


# --------------------------------------------------------------------------
# --self-check
# --------------------------------------------------------------------------

def read_fuser_run_checksum(path):
    with open(path) as f:
        for line in f:
            m = re.match(r"result 0: \S+ fnv1a64=0x([0-9a-f]{16})", line)
            if m:
                return int(m.group(1), 16)
    raise CheckError(f"{path}: no 'result 0: ... fnv1a64=0x...' line")


def self_check(args):
    launch, binaries = load_launch(args.launch)
    launches = [s for s in launch["steps"] if s["op"] == "launch"]
    print(f"self-check: {args.launch}: function {launch['function']}, "
          f"{len(binaries)} binaries, {len(launches)} launches, min_bytes={min_bytes(launch)}")
    for step in launches:
        print(f"self-check: kernel {step['kernel']} grid={step['grid']} block={step['block']} "
              f"args={len(step['args'])}")
    if launch["function"] not in REFERENCES:
        print(f"self-check: no reference computation for '{launch['function']}' "
              f"(known: {', '.join(REFERENCES)})")
        return 0
    python_ref, torch_ref = REFERENCES[launch["function"]]
    inp = [a for a in launch["arguments"] if a["role"] == "input"][0]
    count = inp["bytes"] // 2
    x = deterministic_bf16(count, inp["index"])
    ref = python_ref(x, launch)
    checksum = fnv1a64_u16(ref)
    print(f"self-check: reference (pure Python) fnv1a64=0x{checksum:016x}")
    if args.expect_fuser_run:
        expected = read_fuser_run_checksum(args.expect_fuser_run)
        if expected != checksum:
            raise CheckError(f"reference fnv1a64=0x{checksum:016x} but fuser-run printed "
                             f"0x{expected:016x}")
        print("self-check: reference matches fuser-run's result bit for bit")
    try:
        import torch
    except ImportError:
        print("self-check: torch not installed: skipped the torch computation on CPU tensors")
        torch = None
    if torch is not None:
        _, _, _, kv = mistral_shapes(launch)
        t = torch.tensor(x, dtype=torch.int32).to(torch.int16).view(torch.bfloat16)
        t = t.reshape(inp["shape"])
        y = torch_ref(t, kv).contiguous().view(torch.int16).flatten().to(torch.int32) & 0xFFFF
        if y.tolist() != ref:
            raise CheckError("the torch computation on CPU tensors differs from the reference")
        print("self-check: torch on CPU tensors matches the reference bit for bit")
        gen = deterministic_torch(torch, inp["shape"], torch.bfloat16, inp["index"], device="cpu")
        if (gen.contiguous().view(torch.int16).flatten().to(torch.int32) & 0xFFFF).tolist() != x:
            raise CheckError("the torch deterministic inputs differ from PRODUCT.md's")
        print("self-check: torch deterministic inputs match PRODUCT.md's")
    print("self-check: ok")
    return 0


# --------------------------------------------------------------------------
# The GPU benchmark (needs torch with CUDA and libcuda.so.1)
# --------------------------------------------------------------------------

class Driver:
    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        import torch

        torch.cuda.init()
        torch.zeros(1, device="cuda")  # makes the primary context current
        ctx = ctypes.c_void_p()
        self.check(self.lib.cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
        if not ctx.value:
            dev = ctypes.c_int()
            self.check(self.lib.cuDeviceGet(ctypes.byref(dev), torch.cuda.current_device()), "cuDeviceGet")
            self.check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
            self.check(self.lib.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")

    def check(self, result, what):
        if result != 0:
            name = ctypes.c_char_p()
            self.lib.cuGetErrorName(result, ctypes.byref(name))
            raise RuntimeError(f"{what} failed: {name.value.decode() if name.value else result}")


def torch_dtype(torch, name):
    return {"i1": torch.bool, "i32": torch.int32, "i64": torch.int64, "f16": torch.float16,
            "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64}[name]


def deterministic_torch(torch, shape, dtype, arg, seed=0, device="cuda"):
    """PRODUCT.md's deterministic input, computed on the device (int64 wraps like uint64)."""
    def s64(v):
        v &= MASK64
        return v - (1 << 64) if v >= 1 << 63 else v

    def shr(z, n):  # logical shift right of a uint64 held in an int64
        return (z >> n) & ((1 << (64 - n)) - 1)

    count = 1
    for e in shape:
        count *= e
    base = (seed * 0x9E3779B97F4A7C15 + arg * 0x100000001B3) & MASK64
    z = torch.arange(count, dtype=torch.int64, device=device) + s64(base + 0x9E3779B97F4A7C15)
    z = (z ^ shr(z, 30)) * s64(0xBF58476D1CE4E5B9)
    z = (z ^ shr(z, 27)) * s64(0x94D049BB133111EB)
    z = z ^ shr(z, 31)
    # h % 129 of the uint64 h = z (+ 2^64 where z < 0).
    r = torch.remainder(z, 129)
    r = torch.where(z < 0, torch.remainder(r + (1 << 64) % 129, 129), r)
    return ((r - 64).to(torch.float64) / 8.0).to(dtype).reshape(shape)


def bench(args):
    try:
        import torch
    except ImportError:
        raise CheckError("the benchmark needs torch with CUDA (python3 -m pip install torch); "
                         "--self-check runs without it")
    if not torch.cuda.is_available():
        raise CheckError("torch sees no CUDA device: the benchmark needs a GPU "
                         "(--self-check runs without one)")

    launch, binaries = load_launch(args.launch)
    if launch["function"] not in REFERENCES and not args.against_interp:
        raise CheckError(f"no torch computation for '{launch['function']}' "
                         "(--against-interp checks any fusion)")
    drv = Driver()
    lib = drv.lib
    modules, functions = [], {}
    for i, data in enumerate(binaries):
        mod = ctypes.c_void_p()
        drv.check(lib.cuModuleLoadData(ctypes.byref(mod), ctypes.c_char_p(data)), "cuModuleLoadData")
        modules.append(mod)
    for step in launch["steps"]:
        if step["op"] == "launch":
            fn = ctypes.c_void_p()
            drv.check(lib.cuModuleGetFunction(ctypes.byref(fn), modules[step["binary"]],
                                              step["kernel"].encode()), "cuModuleGetFunction")
            functions[id(step)] = fn

    # Buffers: torch tensors (the caching allocator aligns them to 512 bytes).
    buffers = []
    for b in launch["buffers"]:
        buffers.append(torch.zeros(b["bytes"], dtype=torch.uint8, device="cuda"))
    typed = lambda i: buffers[i].view(torch_dtype(torch, launch["buffers"][i]["dtype"])).view(
        launch["buffers"][i]["shape"])
    scalars = {}
    inputs = []
    for a in launch["arguments"]:
        if a["role"] != "input":
            continue
        if a["kind"] == "buffer":
            dtype = torch_dtype(torch, a["dtype"])
            if dtype.is_floating_point:
                t = deterministic_torch(torch, a["shape"], dtype, a["index"])
            else:
                t = torch.from_numpy(deterministic_numpy(a["shape"], a["dtype"], a["index"])).to(
                    device="cuda", dtype=dtype)
            typed(a["buffer"]).copy_(t)
            inputs.append(t)
        else:
            v = deterministic_torch(torch, [1], torch_dtype(torch, a["dtype"]), a["index"]).cpu()
            raw = v.view(torch.uint8).tolist() if v.element_size() > 1 else [int(v.item())]
            scalars[a["index"]] = bytes(raw) + bytes(8 - len(raw))
            inputs.append(v.reshape(()))
    out_index = [a["buffer"] for a in launch["arguments"] if a["role"] == "output"][0]
    stream = torch.cuda.current_stream()

    # Parameter blocks, built once.
    params = {}
    for step in launch["steps"]:
        if step["op"] != "launch":
            continue
        holders = []
        for arg in step["args"]:
            if arg["kind"] == "pointer":
                holders.append(ctypes.c_uint64(buffers[arg["buffer"]].data_ptr()))
            else:
                raw = scalars[arg["argument"]] if "argument" in arg else \
                    bytes.fromhex(arg["hex"]) + bytes(8 - len(arg["hex"]) // 2)
                holders.append(ctypes.c_uint64(int.from_bytes(raw, "little")))
        block = (ctypes.c_void_p * len(holders))(*[ctypes.addressof(h) for h in holders])
        params[id(step)] = (holders, block)

    def run_ours():
        for step in launch["steps"]:
            if step["op"] == "launch":
                g, b = step["grid"], step["block"]
                drv.check(lib.cuLaunchKernel(functions[id(step)], g[0], g[1], g[2], b[0], b[1], b[2],
                                             step["shared_memory_bytes"], ctypes.c_void_p(stream.cuda_stream),
                                             params[id(step)][1], None), "cuLaunchKernel")
            elif step["op"] == "memcpy":
                n = step["bytes"]
                buffers[step["dst"]][step["dst_offset"]:step["dst_offset"] + n].copy_(
                    buffers[step["src"]][step["src_offset"]:step["src_offset"] + n])

    run_ours()
    torch.cuda.synchronize()
    if args.against_interp:
        outputs = [buffers[a["buffer"]].cpu().numpy().tobytes()
                   for a in launch["arguments"] if a["role"] == "output"]
        with open(args.against_interp) as f:
            lines, matches = compare_with_interp(outputs, json.load(f)["results"], args.ulp_tolerance)
        print("\n".join(lines))
        if launch["function"] not in REFERENCES:
            return 0 if matches else 1
    _, torch_ref = REFERENCES[launch["function"]]
    kv = mistral_shapes(launch)[3]
    x = inputs[0]
    eager = lambda: torch_ref(x, kv)
    moved = min_bytes(launch)
    src = torch.empty(max(moved // 2, 1), dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    copy = lambda: dst.copy_(src)
    props = torch.cuda.get_device_properties(0)
    l2 = getattr(props, "L2_cache_size", 60 << 20)
    flush = torch.empty(max(4 * l2, 256 << 20), dtype=torch.uint8, device="cuda")

    def time_it(fn):
        for _ in range(args.warmup):
            fn()
        torch.cuda.synchronize()
        times = []
        for i in range(args.runs):
            flush.fill_(i & 0xFF)
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) * 1e3)
        times.sort()
        return times[len(times) // 2], times[0]

    ours = typed(out_index).clone()
    reference = eager()
    same = torch.equal(ours.contiguous().view(torch.int16 if ours.element_size() == 2 else torch.uint8),
                       reference.contiguous().view(torch.int16 if ours.element_size() == 2 else torch.uint8))
    rows = [("fuser-mlir cubin", run_ours), ("torch eager", eager)]
    if not args.no_compile:
        compiled = torch.compile(eager)
        compiled()
        rows.append(("torch.compile", compiled))
    rows.append((f"copy of {moved // 2} bytes", copy))
    print(f"gpu_bench: {launch['function']} on {props.name}: {args.runs} timed runs after {args.warmup} "
          f"warm-up, L2 flushed before each; min_bytes={moved}")
    results = {}
    for name, fn in rows:
        median, best = time_it(fn)
        results[name] = median
        print(f"{name:>28}: median {median:9.2f} us  min {best:9.2f} us  {moved / (median * 1e3):8.1f} GB/s")
    copy_us = results[rows[-1][0]]
    print(f"fuser-mlir vs copy bandwidth: {copy_us / results['fuser-mlir cubin']:.3f}")
    if "torch.compile" in results:
        print(f"fuser-mlir speedup over torch.compile: {results['torch.compile'] / results['fuser-mlir cubin']:.2f}x")
    print(f"bit for bit against eager: {'yes' if same else 'NO'}")
    return 0 if same else 1


FLOAT_DTYPES = ("f16", "bf16", "f32", "f64")
NUMPY_BITS = {"f16": "<i2", "bf16": "<i2", "f32": "<i4", "f64": "<i8",
              "i1": "u1", "i32": "<i4", "i64": "<i8"}


def interp_bits(result):
    """The bits of one `fuser-run --json` result, as a numpy integer array
    (floats rounded to their type: the printed decimal reads back exactly)."""
    import numpy as np

    dtype = result["dtype"]
    values = np.array(result["values"], dtype=np.float64 if dtype in FLOAT_DTYPES else None)
    if dtype == "bf16":
        import ml_dtypes
        typed = values.astype(ml_dtypes.bfloat16)
    elif dtype in FLOAT_DTYPES:
        typed = values.astype({"f16": np.float16, "f32": np.float32, "f64": np.float64}[dtype])
    else:
        typed = values.astype({"i1": np.uint8, "i32": np.int32, "i64": np.int64}[dtype])
    return typed.reshape(result["shape"]).view(NUMPY_BITS[dtype])


def compare_with_interp(outputs, expected, tolerance):
    """Compares raw little-endian output bytes (one `bytes` per result) with
    the interpreter's results (`fuser-run --json`'s "results"): equal bits,
    NaN for NaN, or, for floats, at most `tolerance` units in the last place
    apart (-0.0 and 0.0 are 1 apart). Returns a line per result and whether
    all match."""
    import numpy as np

    if len(outputs) != len(expected):
        raise CheckError(f"{len(expected)} interpreter results, {len(outputs)} outputs")
    lines, matches = [], True
    for raw, ref in zip(outputs, expected):
        want = interp_bits(ref).astype(np.int64).ravel()
        got = np.frombuffer(raw, dtype=NUMPY_BITS[ref["dtype"]]).astype(np.int64)
        if got.size != want.size:
            raise CheckError(f"result {ref['index']}: {got.size} elements, expected {want.size}")
        if ref["dtype"] in FLOAT_DTYPES:
            width = 8 * np.dtype(NUMPY_BITS[ref["dtype"]]).itemsize
            magnitude = (1 << (width - 1)) - 1
            exponent = {"f16": 0x7C00, "bf16": 0x7F80, "f32": 0x7F800000,
                        "f64": 0x7FF0000000000000}[ref["dtype"]]
            nan = lambda v: ((v & exponent) == exponent) & ((v & magnitude) != exponent)
            # Sign-magnitude to a line where adjacent floats are 1 apart:
            # -0.0 at -1, 0.0 at 0.
            order = lambda v: np.where(v < 0, -(v & magnitude) - 1, v)
            ulps = np.abs(order(got) - order(want))
            ulps[nan(got) & nan(want)] = 0
            worst = int(ulps.max()) if ulps.size else 0
            ok = worst <= tolerance and not (nan(got) != nan(want)).any()
            detail = f"max_ulp={worst}"
        else:
            differ = int((got != want).sum())
            ok = differ == 0
            detail = f"{differ} elements differ"
        matches &= ok
        lines.append(f"result {ref['index']}: {ref['type']} {detail} {'ok' if ok else 'MISMATCH'}")
    lines.append(f"against the interpreter: {'yes' if matches else 'NO'}")
    return lines, matches


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--launch", required=True, help="launch.json from fuser-translate --fuser-export-launch")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    parser.add_argument("--self-check", action="store_true",
                        help="CPU only: check launch.json, the cubins and the reference computation")
    parser.add_argument("--expect-fuser-run", metavar="FILE",
                        help="--self-check: fuser-run's output on the same fusion, to compare checksums")
    parser.add_argument("--against-interp", metavar="FILE",
                        help="with a GPU: check every output against fuser-run --json's values")
    parser.add_argument("--ulp-tolerance", type=int, default=0,
                        help="--against-interp: units in the last place floats may differ")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be at least 1 and --warmup at least 0")
    try:
        return self_check(args) if args.self_check else bench(args)
    except CheckError as e:
        print(f"gpu_bench: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
