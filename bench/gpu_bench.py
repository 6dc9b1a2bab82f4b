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
    if launch["function"] not in REFERENCES:
        raise CheckError(f"no torch computation for '{launch['function']}'")
    _, torch_ref = REFERENCES[launch["function"]]
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
            t = deterministic_torch(torch, a["shape"], torch_dtype(torch, a["dtype"]), a["index"])
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

    run_ours()
    torch.cuda.synchronize()
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
