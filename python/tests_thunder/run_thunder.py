"""Lightning Thunder on fuser_mlir (make check-thunder; docs/Python.md, "Thunder").

    FUSER_MLIR_HOST_BACKEND=cpu PYTHONPATH=build/python_packages \
        build/thunder-venv/bin/python python/tests_thunder/run_thunder.py

Thunder's nvFuser executor (thunder/executors/nvfuserex*.py, lightning-thunder
0.2.6) is pointed at fuser_mlir: fuser_mlir.nvfuser_compat.install() makes
`nvfuser_direct` and `nvfuser` fuser_mlir's before Thunder is imported, and Thunder's
CUDA-only checks are patched here (never in Thunder's files) so that it
fuses CPU tensors; fuser_mlir runs them on the backend FUSER_MLIR_HOST_BACKEND
names (cpu: the CPU backend's compiled kernels). The patches, each needed
because the check is about the device, not about what nvFuser can express:

1. torch.cuda.is_available() answers True while thunder.executors.nvfuserex
   is imported: nvfuser_version() returns None without CUDA, and the
   executor is then never created. Afterwards nvfuser_version() (in
   nvfuserex and nvfuserex_impl) returns fuser_mlir's version string, and
   torch.cuda.is_available is restored.
2. is_supported_device / is_supported_devicetype accept CPU devices.
3. is_supported_tensor accepts CPU tensors (it accepts CUDA tensors and
   CPU scalars only).
4. FusionExecutor.has_cuda_input_or_output (the fusion pass fuses only
   regions with a CUDA tensor) counts CPU tensors.
5. _select_device accepts a CPU device (factory functions: full, iota,
   uniform).
6. device_supports_fp8 answers False (it asks CUDA for the capability).

Patched functions keep their identity (their code is replaced), so the
checkers Thunder registered with them use the patched code.

Runs RMSNorm, LayerNorm, softmax, GELU, RoPE (as litgpt writes them) and a
litgpt-style Llama block, forward and backward, through thunder.jit with
the nvFuser executor, against eager torch: fp32 within 1e-6 relative to the
largest magnitude of the reference (1e-5 for the block: its matmuls sum in
another order); bf16 against eager torch computing in fp32 on the same
values, each output within 1 ulp of eager bf16's own error (eager bf16 rounds
every op's result and is itself tens of ulps from fp32 math in the
gradients). Prints one row per workload:
the regions fuser_mlir ran in one step, the largest error, pass/fail, and
the cached step time against eager torch. Exit status 1 on a failure.
"""

import os
import statistics
import sys
import time

import fuser_mlir.nvfuser_compat  # noqa: E402
import fuser_mlir.nvfuser_direct as fuser_nvfuser_direct  # noqa: E402

# `import nvfuser_direct` and `import nvfuser` (Thunder 0.2.6 imports
# compute_tensor_descriptor from it) give fuser_mlir's stand-ins.
fuser_mlir.nvfuser_compat.install()

import torch  # noqa: E402

# Patch 1: Thunder creates its nvFuser executor only where CUDA is available.
_cuda_is_available = torch.cuda.is_available
torch.cuda.is_available = lambda: True
try:
    import thunder  # noqa: E402
    import thunder.executors.nvfuserex as nvfuserex  # noqa: E402
    import thunder.executors.nvfuserex_impl as impl  # noqa: E402
finally:
    torch.cuda.is_available = _cuda_is_available

from looseversion import LooseVersion  # noqa: E402
from thunder.core.devices import DeviceType  # noqa: E402
from thunder.core.proxies import TensorProxy  # noqa: E402


def _replace_code(function, replacement):
    """Gives `function` the code of `replacement` (defined in the same
    module's namespace), so every reference to it runs the new code."""
    function.__code__ = replacement.__code__


_PATCHES = '''
def nvfuser_version():
    return _FUSER_MLIR_VERSION

def is_supported_device(device):
    utils.check_type(device, Device)
    return device.devicetype in (DeviceType.CUDA, DeviceType.CPU)

def is_supported_devicetype(devicetype):
    utils.check_type(devicetype, DeviceType)
    return devicetype in (DeviceType.CUDA, DeviceType.CPU)

def is_supported_tensor(a, *, allow_low_precision_floats=True):
    utils.check_type(a, TensorProxy)
    devicetype_supported = a.device.devicetype in (DeviceType.CUDA, DeviceType.CPU)
    dtype_supported = is_supported_dtype(a.dtype)
    if not allow_low_precision_floats:
        if a.dtype in _low_precision_floats:
            return False
    rank_supported = a.ndim <= 8
    return devicetype_supported and dtype_supported and rank_supported

def _select_device(fd, device):
    if device is None or device.devicetype == DeviceType.CPU:
        return
    utils.check(device.devicetype == DeviceType.CUDA,
                lambda: f"NVFuser executor requires a CUDA or CPU device, but {device=}")
    if device.index is None:
        return
    fd._selected_device = device.index

def device_supports_fp8():
    return False
'''


def patch_thunder():
    version = LooseVersion(fuser_nvfuser_direct.version())
    namespace = dict(vars(impl), _FUSER_MLIR_VERSION=version)
    exec(compile(_PATCHES, "<run_thunder patches>", "exec"), namespace)
    # Patch 1 (after the import): nvfuser_version() is asked again later.
    nvfuserex.nvfuser_version = impl.nvfuser_version = lambda: version
    for name in ("is_supported_device", "is_supported_devicetype", "is_supported_tensor",
                 "_select_device", "device_supports_fp8"):
        new = namespace[name]
        new.__globals__.update({k: v for k, v in vars(impl).items()
                                if k not in new.__globals__})
        _replace_code(getattr(impl, name), new)

    def has_cuda_input_or_output(self, bsym):
        # Patch 4: fuse regions with a CPU or CUDA tensor.
        from itertools import chain
        for p in chain(bsym.flat_proxy_args, bsym.flat_proxy_outs):
            if isinstance(p, TensorProxy) and p.device.devicetype in (DeviceType.CUDA,
                                                                      DeviceType.CPU):
                return True
        return False

    type(impl.ex).has_cuda_input_or_output = has_cuda_input_or_output
    return impl.ex


# Counting what fuser_mlir runs -------------------------------------------------

EXECUTES = [0, 0.0]      # calls, seconds
_execute = fuser_nvfuser_direct.FusionDefinition.execute


def _counted_execute(self, *args, **kwargs):
    start = time.perf_counter()
    try:
        return _execute(self, *args, **kwargs)
    finally:
        EXECUTES[0] += 1
        EXECUTES[1] += time.perf_counter() - start


fuser_nvfuser_direct.FusionDefinition.execute = _counted_execute


# Workloads (litgpt's forms) ------------------------------------------------------

def rms_norm(x, weight, eps=1e-6):
    """litgpt.model.RMSNorm.forward (add_unit_offset False)."""
    dtype = x.dtype
    x = x.float()
    norm_x = torch.mean(x * x, dim=-1, keepdim=True)
    x_normed = x * torch.rsqrt(norm_x + eps)
    x_normed = x_normed.to(dtype=dtype)
    return x_normed * weight


def layer_norm(x, weight, bias):
    return torch.nn.functional.layer_norm(x, (x.shape[-1],), weight, bias, 1e-5)


def softmax(x):
    return torch.softmax(x, dim=-1)


def gelu(x):
    return torch.nn.functional.gelu(x, approximate="tanh")


def apply_rope(x, cos, sin):
    head_size = x.size(-1)
    x1 = x[..., : head_size // 2]
    x2 = x[..., head_size // 2:]
    rotated = torch.cat((-x2, x1), dim=-1)
    roped = (x * cos) + (rotated * sin)
    return roped.to(dtype=x.dtype)


class RMSNorm(torch.nn.Module):
    def __init__(self, size, eps=1e-6):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(size))
        self.eps = eps

    def forward(self, x):
        return rms_norm(x, self.weight, self.eps)


class LLaMAMLP(torch.nn.Module):
    def __init__(self, n_embd, intermediate):
        super().__init__()
        self.fc_1 = torch.nn.Linear(n_embd, intermediate, bias=False)
        self.fc_2 = torch.nn.Linear(n_embd, intermediate, bias=False)
        self.proj = torch.nn.Linear(intermediate, n_embd, bias=False)

    def forward(self, x):
        x_fc_1 = self.fc_1(x)
        x_fc_2 = self.fc_2(x)
        x = torch.nn.functional.silu(x_fc_1) * x_fc_2
        return self.proj(x)


class CausalSelfAttention(torch.nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.n_head, self.head_size = n_head, n_embd // n_head
        self.attn = torch.nn.Linear(n_embd, 3 * n_embd, bias=False)
        self.proj = torch.nn.Linear(n_embd, n_embd, bias=False)

    def forward(self, x, cos, sin):
        B, T, C = x.size()
        qkv = self.attn(x)
        qkv = qkv.view(B, T, self.n_head, 3, self.head_size).permute(0, 2, 3, 1, 4)
        q, k, v = qkv.unbind(dim=2)
        q = apply_rope(q, cos, sin)
        k = apply_rope(k, cos, sin)
        y = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).reshape(B, T, C)
        return self.proj(y)


class Block(torch.nn.Module):
    """litgpt's Block with a Llama configuration: RMSNorm, RoPE attention,
    LLaMAMLP, parallel residual off."""

    def __init__(self, n_embd=64, n_head=4, intermediate=172):
        super().__init__()
        self.norm_1 = RMSNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head)
        self.norm_2 = RMSNorm(n_embd)
        self.mlp = LLaMAMLP(n_embd, intermediate)

    def forward(self, x, cos, sin):
        x = self.attn(self.norm_1(x), cos, sin) + x
        return self.mlp(self.norm_2(x)) + x


def rope_cache(seq, head_size):
    theta = 1.0 / (10000 ** (torch.arange(0, head_size, 2).float() / head_size))
    idx_theta = torch.outer(torch.arange(seq).float(), theta).repeat(1, 2)
    return torch.cos(idx_theta), torch.sin(idx_theta)


def workloads():
    g = torch.Generator().manual_seed(0)

    def randn(*shape, dtype=torch.float32):
        return torch.randn(*shape, generator=g).to(dtype)

    cases = []
    for dtype, tag in ((torch.float32, "fp32"), (torch.bfloat16, "bf16")):
        cases.append(("RMSNorm " + tag, rms_norm, lambda d=dtype: (
            randn(16, 256, dtype=d), randn(256, dtype=d)), dtype, 1e-6))
        cases.append(("LayerNorm " + tag, layer_norm, lambda d=dtype: (
            randn(16, 256, dtype=d), randn(256, dtype=d), randn(256, dtype=d)), dtype, 1e-6))
        cases.append(("softmax " + tag, softmax, lambda d=dtype: (
            randn(16, 256, dtype=d),), dtype, 1e-6))
        cases.append(("GELU " + tag, gelu, lambda d=dtype: (randn(16, 256, dtype=d),), dtype,
                      1e-6))

        def rope_inputs(d=dtype):
            cos, sin = rope_cache(32, 16)
            return randn(2, 4, 32, 16, dtype=d), cos.to(d), sin.to(d)
        cases.append(("RoPE " + tag, apply_rope, rope_inputs, dtype, 1e-6))
    torch.manual_seed(0)
    block = Block()

    def block_inputs():
        cos, sin = rope_cache(32, 16)
        return randn(2, 32, 64), cos, sin
    cases.append(("Llama block fp32", block, block_inputs, torch.float32, 1e-5))
    return cases


# Checks ----------------------------------------------------------------------------

def max_error(result, reference, dtype):
    """fp32: |result - reference| / max|reference|. bf16: the largest
    difference in bf16 ulps from the reference rounded to bf16; an element's
    ulp is that of its magnitude, at least that of 2^-8 of the tensor's
    largest (values that cancel to near 0 have no bf16 ulp of their own)."""
    result, reference = result.detach().double(), reference.detach().double()
    if dtype == torch.bfloat16:
        reference = reference.to(torch.bfloat16).double()
        floor = max(reference.abs().max().item() * 2.0 ** -8, 2.0 ** -126)
        magnitude = reference.abs().clamp_min(floor)
        ulp = 2.0 ** (torch.floor(torch.log2(magnitude)) - 7)
        return ((result - reference).abs() / ulp).max().item()
    scale = reference.abs().max().item() or 1.0
    return (result - reference).abs().max().item() / scale


def check(fn, jfn, inputs, dtype, tolerance):
    """(ok, error, eager's error, grad_out). fp32: against eager torch,
    relative, within tolerance. bf16: against eager torch computing in fp32
    on the same bf16 values, in bf16 ulps; eager bf16 itself rounds every
    op's result to bf16 and is tens of ulps from that in the gradients, so
    each output passes within 1 ulp of eager bf16's own error."""
    expected, grad_out = step(fn, inputs)
    got, _ = step(jfn, inputs, grad_out)
    if dtype != torch.bfloat16:
        error = max(max_error(g, e, dtype) for g, e in zip(got, expected))
        return error <= tolerance, error, 0.0, grad_out
    reference, _ = step(fn, [x.float() for x in inputs], grad_out.float())
    mine = [max_error(g, r, dtype) for g, r in zip(got, reference)]
    eager = [max_error(e, r, dtype) for e, r in zip(expected, reference)]
    return all(m <= e + 1 for m, e in zip(mine, eager)), max(mine), max(eager), grad_out


def step(fn, inputs, grad_out=None):
    """Forward and backward: the outputs and the inputs' (and parameters')
    gradients."""
    leaves = [x.detach().requires_grad_(x.is_floating_point()) for x in inputs]
    params = list(fn.parameters()) if isinstance(fn, torch.nn.Module) else []
    for p in params:
        p.grad = None
    out = fn(*leaves)
    if grad_out is None:
        grad_out = torch.randn(out.shape, generator=torch.Generator().manual_seed(1)).to(
            out.dtype)
    out.backward(grad_out)
    grads = [x.grad for x in leaves if x.grad is not None] + [p.grad for p in params]
    return [out] + grads, grad_out


def timed(fn, inputs, grad_out, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        step(fn, inputs, grad_out)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    torch.set_num_threads(1)   # steadier timings on a small machine
    ex = patch_thunder()
    backend = fuser_nvfuser_direct._fusion.HOST_BACKEND
    print("Thunder %s with fuser_mlir %s as nvFuser (backend %s), torch %s" % (
        getattr(thunder, "__version__", "?"), fuser_nvfuser_direct.version(), backend,
        torch.__version__))
    rows, failed = [], 0
    repeats = int(os.environ.get("THUNDER_STEPS", "20"))
    for name, fn, make_inputs, dtype, tolerance in workloads():
        inputs = make_inputs()
        jfn = thunder.jit(fn, executors=[ex])
        try:
            ok, error, eager_error, grad_out = check(fn, jfn, inputs, dtype, tolerance)
            EXECUTES[:] = [0, 0.0]
            step(jfn, inputs, grad_out)                 # cached
            regions = EXECUTES[0]
            ok = ok and regions > 0
            EXECUTES[:] = [0, 0.0]
            t_jit = timed(jfn, inputs, grad_out, repeats)
            t_fuser = EXECUTES[1] / repeats
            t_eager = timed(fn, inputs, grad_out, repeats)
            unit = "ulp" if dtype == torch.bfloat16 else "rel"
            rows.append((name, regions, error, eager_error, unit, "pass" if ok else "FAIL",
                         t_jit * 1e3, t_fuser * 1e3, t_eager * 1e3))
        except Exception as e:  # noqa: BLE001 - reported in the table
            rows.append((name, 0, float("nan"), float("nan"), "", "FAIL (%s: %s)" % (
                type(e).__name__, str(e).splitlines()[0][:80]), float("nan"), float("nan"),
                float("nan")))
            ok = False
        failed += not ok
    print("%-17s %7s %10s %10s %-4s %6s %9s %10s %9s %6s" % (
        "workload", "regions", "max error", "eager err", "", "check", "step ms", "fuser_mlir",
        "eager ms", "ratio"))
    for name, regions, error, eager, unit, verdict, t_jit, t_fuser, t_eager in rows:
        print("%-17s %7d %10.3g %10.3g %-4s %6s %9.3f %10.3f %9.3f %6.2f" % (
            name, regions, error, eager, unit, verdict, t_jit, t_fuser, t_eager,
            t_jit / t_eager if t_eager == t_eager and t_eager else float("nan")))
    print("%d of %d workloads pass, forward and backward. regions: the fusions fuser_mlir "
          "ran in one cached step; max error: fp32 relative to eager torch, bf16 in ulps from "
          "eager torch in fp32 on the same values; eager err: eager bf16's from the same; "
          "step ms: a cached "
          "thunder.jit step (median of %d), fuser_mlir: the part inside its execute; "
          "ratio: step / eager" % (len(rows) - failed, len(rows), repeats))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
