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
7. get_and_update_rng_state (prims' meta and the torch executor's impl)
   accepts a CPU device: the nvFuser executor's fusion pass turns dropout's
   uniform into uniform_philox with a seed and offset that Thunder reads
   from torch's CUDA generator only. On CPU they come from a state kept on
   the impl function (cpu_state): torch.initial_seed() as the seed (offset 0
   again after torch.manual_seed), the offset advanced per call as Thunder
   advances CUDA's; CUDA devices still run Thunder's code.

Patched functions keep their identity (their code is replaced), so the
checkers Thunder registered with them use the patched code.

Runs RMSNorm, LayerNorm, softmax, GELU, RoPE (as litgpt writes them), a
litgpt-style Llama block, attention with litgpt's causal mask
(build_mask_cache: ones().tril()), torch's indexing ops (index_select,
take_along_dim, gather, select) and a 2-layer litgpt-style GPT (nn.Embedding,
the blocks, RMSNorm, lm_head, cross-entropy against integer targets),
forward and backward, through thunder.jit with the nvFuser executor, against
eager torch: fp32 within 1e-6 relative to the largest magnitude of the
reference (1e-5 for the block and the GPT: their matmuls sum in another
order); bf16 against eager torch computing in fp32 on the same values, each
output within 1 ulp of eager bf16's own error (eager bf16 rounds every op's
result and is itself tens of ulps from fp32 math in the gradients).
Dropout draws other numbers than eager torch (Thunder's uniform_philox,
nvFuser's Philox): F.dropout alone is checked by what must hold (every
output 0 or x/(1-p) within 1 ulp, the gradient exactly 0 where the output is
and grad/(1-p) elsewhere, the fraction kept near 1-p, a new mask each step);
the GPT with dropout on its embedding against eager torch given the mask of
nvFuser's uniform numbers for the seed and offset Thunder used. Prints one
row per workload: the regions fuser_mlir ran in one step, the largest
error, pass/fail, and the cached step time against eager torch (wall and the
process's CPU time: the wall time of a step on a loaded machine holds the
time it waited for a CPU); then, per
workload, which of the indexing, generation and random ops Thunder put in
nvFusion regions and which it left to torch. Exit status 1 on a failure.
"""

import functools
import math
import os
import statistics
import sys
import time

import fuser_mlir._ops  # noqa: E402
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


# Patch 7: Thunder's dropout (replace_uniform in the nvFuser executor's fusion
# pass) asks get_and_update_rng_state for a Philox seed and offset, which
# Thunder reads from torch's CUDA generator only (its meta refuses other
# devices). On a CPU device the meta checks the rest as for CUDA, and the
# impl keeps a state of its own: the seed is torch.initial_seed() (as int64;
# torch.manual_seed starts the offset again at 0), each call advances the
# offset as Thunder advances CUDA's. Other devices run Thunder's own code
# (`original`).
_RNG_PATCHES = {"prims": '''
def _get_and_update_rng_state_meta(seed, offset, device):
    if device.devicetype is devices.DeviceType.CPU:
        device = devices.Device("cuda", 0)
    return _get_and_update_rng_state_meta.original(seed, offset, device)
''', "torchex": '''
def _get_and_update_rng_state_impl(seed, offset, device):
    if getattr(device, "type", None) != "cpu":
        return _get_and_update_rng_state_impl.original(seed, offset, device)
    state = _get_and_update_rng_state_impl.__dict__.setdefault("cpu_state", [None, 0])
    initial = torch.initial_seed()
    initial = initial - 2 ** 64 if initial >= 2 ** 63 else initial
    if state[0] != initial:
        state[:] = [initial, 0]
    seed, offset = state[0], state[1] // 4
    state[1] = (offset + 1) * 4
    return seed, offset
'''}


def _wrap_code(function, module, source):
    """Gives `function` the code of the function of its name in `source`
    (compiled in `module`'s namespace), keeping a copy of it as it was in
    function.original."""
    import types
    if hasattr(function, "original"):
        return                         # patched already
    function.original = types.FunctionType(function.__code__, function.__globals__,
                                           function.__name__, function.__defaults__,
                                           function.__closure__)
    namespace = dict(vars(module))
    exec(compile(source, "<run_thunder patches>", "exec"), namespace)
    _replace_code(function, namespace[function.__name__])


def patch_thunder():
    import thunder.core.prims as prims
    import thunder.executors.torchex as torchex
    _wrap_code(prims._get_and_update_rng_state_meta, prims, _RNG_PATCHES["prims"])
    _wrap_code(torchex._get_and_update_rng_state_impl, torchex, _RNG_PATCHES["torchex"])
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


# Which executor ran the indexing, generation and random ops -------------------------

# Thunder's symbols for them (and for their backward), as named in its traces.
WATCHED = ("iota", "arange", "tril", "embedding", "embedding_backward", "take",
           "index_select", "index_add", "take_along_axis", "gather", "scatter_add", "select",
           "cross_entropy", "nv_cross_entropy_fwd", "nv_cross_entropy_bwd", "uniform",
           "uniform_philox")
# nvFuser ops that Thunder's fusions called on fuser_mlir.
NVFUSER_OPS = ("iota", "index_select", "take_along_axis", "gather", "select",
               "embedding_fwd", "uniform", "normal", "triu")
CALLED = set()


def _counting(name, method):
    @functools.wraps(method)
    def op(self, *args, **kwargs):
        CALLED.add(name)
        return method(self, *args, **kwargs)
    return op


for _name in NVFUSER_OPS:
    setattr(fuser_mlir._ops.Ops, _name, _counting(_name, getattr(fuser_mlir._ops.Ops, _name)))


def executors_of(jfn):
    """(watched symbols inside nvFusion regions, watched symbols Thunder
    left outside them: torch's) of the last forward and backward traces."""
    def names(bsym):
        yield bsym.sym.name
        for sub in bsym.subsymbols:
            yield from names(sub)
    traces = [thunder.last_traces(jfn)[-1]]
    backward = thunder.last_backward_traces(jfn)
    traces += backward[-1:] if backward else []
    fused, torch_ = set(), set()
    for trace in traces:
        for bsym in trace.bound_symbols:
            found = set(names(bsym)) & set(WATCHED)
            (fused if bsym.sym.name.startswith("nvFusion") else torch_).update(found)
    return fused, torch_


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


class GPT(torch.nn.Module):
    """litgpt's GPT (Llama configuration): token embedding (nn.Embedding),
    Blocks, RMSNorm, lm_head, and the cross-entropy loss against integer
    targets that litgpt's training step computes. `dropout` > 0 drops
    elements of the embedding's output in training mode (nanoGPT's
    transformer.drop; litgpt has no dropout)."""

    def __init__(self, vocab=128, n_embd=64, n_layer=2, n_head=4, intermediate=172,
                 block_size=32, dropout=0.0):
        super().__init__()
        self.lm_head = torch.nn.Linear(n_embd, vocab, bias=False)
        self.transformer = torch.nn.ModuleDict(dict(
            wte=torch.nn.Embedding(vocab, n_embd),
            h=torch.nn.ModuleList(Block(n_embd, n_head, intermediate) for _ in range(n_layer)),
            ln_f=RMSNorm(n_embd)))
        cos, sin = rope_cache(block_size, n_embd // n_head)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        self.dropout = dropout

    def forward(self, idx, targets):
        return self.loss(idx, targets, lambda x: torch.nn.functional.dropout(
            x, self.dropout, self.training) if self.dropout else x)

    def loss(self, idx, targets, drop):
        T = idx.size(1)
        cos, sin = self.cos[:T], self.sin[:T]
        x = drop(self.transformer.wte(idx))
        for block in self.transformer.h:
            x = block(x, cos, sin)
        logits = self.lm_head(self.transformer.ln_f(x))
        return torch.nn.functional.cross_entropy(logits.view(-1, logits.size(-1)),
                                                 targets.view(-1))


class GPTWithMask(torch.nn.Module):
    """The GPT `model` with its dropout's mask given: eager torch computing
    what Thunder's dropout computes (a * mask * 1/(1-p)) with the mask
    Thunder drew."""

    def __init__(self, model, mask):
        super().__init__()
        self.model, self.mask = model, mask

    def forward(self, idx, targets):
        scale = 1 / (1 - self.model.dropout)
        return self.model.loss(idx, targets, lambda x: x * self.mask.to(x.dtype) * scale)


def dropout(x, p=0.3):
    return torch.nn.functional.dropout(x, p, training=True)


def build_mask_cache(max_seq_length, device=None):
    """litgpt.model.build_mask_cache."""
    ones = torch.ones((max_seq_length, max_seq_length), device=device, dtype=torch.bool)
    return torch.tril(ones).unsqueeze(0).unsqueeze(0)


def causal_attention(q, k, v):
    """Attention with an explicit causal mask (nanoGPT's non-flash path, the
    mask as litgpt builds it)."""
    T = q.size(-2)
    mask = build_mask_cache(T)
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
    att = att.masked_fill(~mask[:, :, :T, :T], float("-inf"))
    return torch.softmax(att, dim=-1) @ v


def indexing(x, rows, columns):
    """torch.index_select, take_along_dim, gather and select (their
    backward: index_add and scatter_add)."""
    return torch.cat([torch.index_select(x, 0, rows).flatten(),
                      torch.take_along_dim(x, columns, dim=1).flatten(),
                      torch.gather(x, 1, columns).flatten(), x.select(1, 3)])


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
    cases.append(("causal mask fp32", causal_attention, lambda: (
        randn(2, 4, 32, 16), randn(2, 4, 32, 16), randn(2, 4, 32, 16)), torch.float32, 1e-6))
    cases.append(("indexing fp32", indexing, lambda: (
        randn(8, 16), torch.tensor([1, 3, 3, 7, 0]),
        torch.randint(0, 16, (8, 5), generator=g)), torch.float32, 1e-6))
    torch.manual_seed(0)
    gpt = GPT()

    def gpt_inputs():
        return (torch.randint(0, 128, (2, 32), generator=g),
                torch.randint(0, 128, (2, 32), generator=g))
    cases.append(("GPT fp32", gpt, gpt_inputs, torch.float32, 1e-5))
    torch.manual_seed(0)
    cases.append(("GPT dropout fp32", GPT(dropout=0.1), gpt_inputs, torch.float32, 1e-5,
                  check_gpt_dropout))
    for dtype, tag in ((torch.float32, "fp32"), (torch.bfloat16, "bf16")):
        cases.append(("dropout " + tag, dropout, lambda d=dtype: (randn(64, 256, dtype=d),),
                      dtype, 1.0, check_dropout))
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
    """(ok, error, eager's error, grad_out, unit). fp32: against eager torch,
    relative, within tolerance. bf16: against eager torch computing in fp32
    on the same bf16 values, in bf16 ulps; eager bf16 itself rounds every
    op's result to bf16 and is tens of ulps from that in the gradients, so
    each output passes within 1 ulp of eager bf16's own error."""
    expected, grad_out = step(fn, inputs)
    got, _ = step(jfn, inputs, grad_out)
    if dtype != torch.bfloat16:
        error = max(max_error(g, e, dtype) for g, e in zip(got, expected))
        return error <= tolerance, error, 0.0, grad_out, "rel"
    reference, _ = step(fn, [x.float() for x in inputs], grad_out.float())
    mine = [max_error(g, r, dtype) for g, r in zip(got, reference)]
    eager = [max_error(e, r, dtype) for e, r in zip(expected, reference)]
    return all(m <= e + 1 for m, e in zip(mine, eager)), max(mine), max(eager), grad_out, "ulp"


def ulps(result, reference, dtype):
    """Each element's distance from `reference` (exact) in ulps of `dtype`
    at the reference's magnitude."""
    result, reference = result.detach().double(), reference.detach().double()
    mantissa = {torch.float32: 23, torch.bfloat16: 7}[dtype]
    magnitude = reference.abs().clamp_min(torch.finfo(dtype).tiny)
    return (result - reference).abs() / 2.0 ** (torch.floor(torch.log2(magnitude)) - mantissa)


def check_dropout(fn, jfn, inputs, dtype, tolerance, p=0.3):
    """Dropout drawn by Thunder's uniform_philox (other numbers than eager
    torch's generator), checked by what must hold, in two steps: each output
    element is 0 or x/(1-p) within `tolerance` ulps; the gradient is exactly 0
    where the output is 0 and grad_out/(1-p) (within `tolerance` ulps)
    elsewhere, so the forward and the backward used one mask; the fraction
    kept is within 5 standard deviations of 1-p; the second step draws
    another mask (the offset advanced)."""
    x, masks, error, ok = inputs[0], [], 0.0, True
    for _ in range(2):
        (out, grad), grad_out = step(jfn, inputs)
        kept = out != 0
        masks.append(kept)
        error = max(error, ulps(out[kept], x[kept].double() / (1 - p), dtype).max().item(),
                    ulps(grad[kept], grad_out[kept].double() / (1 - p), dtype).max().item())
        fraction = kept.double().mean().item()
        ok = ok and torch.equal(grad == 0, ~kept) and bool((x[kept] != 0).all()) and \
            abs(fraction - (1 - p)) <= 5 * math.sqrt(p * (1 - p) / x.numel())
    return ok and error <= tolerance and not torch.equal(*masks), error, float("nan"), \
        grad_out, "ulp"


def philox_state():
    """The CPU Philox state of patch 7: [seed, torch-style offset]."""
    import thunder.executors.torchex as torchex
    return torchex._get_and_update_rng_state_impl.cpu_state


def philox_uniform(shape, seed, offset, dtype):
    """nvFuser's uniform(0, 1) for that seed and offset, by fuser_mlir
    (Thunder's uniform_philox asks nvFuser for the same)."""
    from fuser_mlir.nvfuser_direct import DataType, FusionDefinition
    with FusionDefinition() as fd:
        rng_seed = fd.define_scalar(None, dtype=DataType.Int)
        rng_offset = fd.define_scalar(None, dtype=DataType.Int)
        fd.add_output(fd.ops.uniform(0.0, 1.0, list(shape), rng_seed=rng_seed,
                                     rng_offset=rng_offset,
                                     dtype={torch.float32: DataType.Float,
                                            torch.bfloat16: DataType.BFloat16}[dtype]))
    return fd.execute([seed, offset])[0]


def check_gpt_dropout(model, jfn, inputs, dtype, tolerance):
    """The GPT with dropout, forward and backward, against eager torch with
    the mask Thunder drew: the seed and offset of its step (one dropout, so
    one draw: the offset before the state's last advance) give nvFuser's
    uniform numbers, kept where below 1-p as Thunder's dropout keeps them."""
    got, grad_out = step(jfn, inputs)
    seed, offset = philox_state()[0], philox_state()[1] // 4 - 1
    shape = inputs[0].shape + (model.transformer.wte.embedding_dim,)
    mask = philox_uniform(shape, seed, offset, dtype) < 1 - model.dropout
    expected, _ = step(GPTWithMask(model, mask), inputs, grad_out)
    error = max(max_error(g, e, dtype) for g, e in zip(got, expected))
    ok = error <= tolerance and 0 < mask.double().mean().item() < 1
    return ok, error, 0.0, grad_out, "rel"


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
    """The median wall time of a step and the median CPU time the process
    spent in it (every thread's). On a machine shared with other work the
    wall time also holds the time the step waited for a CPU: a process
    under `nice` beside busy ones waits about 110 ms whenever the scheduler
    preempts it, whatever the step does, so the CPU time is what compares
    across loads."""
    walls, cpus = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        step(fn, inputs, grad_out)
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - start_cpu)
    return statistics.median(walls), statistics.median(cpus)


LOAD_AVERAGE = os.getloadavg()[0]


def main():
    torch.set_num_threads(1)   # steadier timings on a small machine
    ex = patch_thunder()
    backend = fuser_nvfuser_direct._fusion.HOST_BACKEND
    print("Thunder %s with fuser_mlir %s as nvFuser (backend %s), torch %s" % (
        getattr(thunder, "__version__", "?"), fuser_nvfuser_direct.version(), backend,
        torch.__version__))
    rows, failed = [], 0
    repeats = int(os.environ.get("THUNDER_STEPS", "20"))
    claimed = []
    for name, fn, make_inputs, dtype, tolerance, *checker in workloads():
        inputs = make_inputs()
        jfn = thunder.jit(fn, executors=[ex])
        try:
            CALLED.clear()
            ok, error, eager_error, grad_out, unit = (checker or [check])[0](
                fn, jfn, inputs, dtype, tolerance)
            claimed.append((name, executors_of(jfn), set(CALLED)))
            EXECUTES[:] = [0, 0.0]
            step(jfn, inputs, grad_out)                 # cached
            regions = EXECUTES[0]
            ok = ok and regions > 0
            EXECUTES[:] = [0, 0.0]
            t_jit, cpu_jit = timed(jfn, inputs, grad_out, repeats)
            t_fuser = EXECUTES[1] / repeats
            t_eager, cpu_eager = timed(fn, inputs, grad_out, repeats)
            rows.append((name, regions, error, eager_error, unit, "pass" if ok else "FAIL",
                         t_jit * 1e3, cpu_jit * 1e3, t_fuser * 1e3, t_eager * 1e3,
                         cpu_eager * 1e3))
        except Exception as e:  # noqa: BLE001 - reported in the table
            rows.append((name, 0, float("nan"), float("nan"), "", "FAIL (%s: %s)" % (
                type(e).__name__, str(e).splitlines()[0][:80])) + (float("nan"),) * 5)
            ok = False
        failed += not ok
    print("%-17s %7s %10s %10s %-4s %6s %9s %7s %10s %9s %7s %6s %6s" % (
        "workload", "regions", "max error", "eager err", "", "check", "step ms", "cpu ms",
        "fuser_mlir", "eager ms", "cpu ms", "ratio", "cpu"))
    for (name, regions, error, eager, unit, verdict, t_jit, cpu_jit, t_fuser, t_eager,
         cpu_eager) in rows:
        print("%-17s %7d %10.3g %10.3g %-4s %6s %9.3f %7.3f %10.3f %9.3f %7.3f %6.2f %6.2f" % (
            name, regions, error, eager, unit, verdict, t_jit, cpu_jit, t_fuser, t_eager,
            cpu_eager, t_jit / t_eager if t_eager == t_eager and t_eager else float("nan"),
            cpu_jit / cpu_eager if cpu_eager == cpu_eager and cpu_eager else float("nan")))
    print("%d of %d workloads pass, forward and backward. regions: the fusions fuser_mlir "
          "ran in one cached step; max error: fp32 relative to eager torch, bf16 in ulps from "
          "eager torch in fp32 on the same values (dropout: in ulps from x/(1-p)); eager err: "
          "eager bf16's from the same; "
          "step ms: a cached "
          "thunder.jit step (median of %d), cpu ms: the CPU time the process spent in it "
          "(median; every thread's), fuser_mlir: the part inside its execute (wall, mean); "
          "eager ms and cpu ms: the same step in eager torch; ratio: step / eager, wall and "
          "CPU time (load average %.2f at the start)" % (
              len(rows) - failed, len(rows), repeats, LOAD_AVERAGE))
    print("Indexing, generation and random ops (Thunder's symbols, forward and backward): "
          "inside nvFusion regions (run by fuser_mlir, the nvFuser ops it was called with "
          "in brackets) / left to torch:")
    for name, (fused, torch_), called in claimed:
        if fused or torch_:
            print("  %-17s fuser_mlir: %s [%s]; torch: %s" % (
                name, ", ".join(sorted(fused)) or "-", ", ".join(sorted(called)) or "-",
                ", ".join(sorted(torch_)) or "-"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
