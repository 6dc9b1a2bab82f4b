"""The library ops against torch's own (make check-torch): fd.ops.matmul
against torch.matmul, linear against F.linear, sdpfa_fwd and sdpfa_bwd
against F.scaled_dot_product_attention and its autograd, grouped_mm against
torch._grouped_mm, on every backend that runs them here (the interpreter,
the CPU backend's BLAS/oneDNN calls, the SIMT emulator through the fake
cuBLASLt). Compared as nvFuser's validate compares them: its tolerance for
the output's dtype and the elements its sums combine (fd.validate with
torch's outputs as references). Inputs are randn, as in nvFuser's tests."""
import pytest
import torch
import torch.nn.functional as F

from fuser_mlir.nvfuser_direct import DataType, FusionDefinition

BACKENDS = ["interp", "cpu", "simt"]
DTYPES = {torch.float32: DataType.Float, torch.bfloat16: DataType.BFloat16,
          torch.float16: DataType.Half}


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=torch.float32).to(dtype)


@pytest.fixture(autouse=True)
def seed():
    torch.manual_seed(0)


def define(build, inputs):
    with FusionDefinition() as fd:
        tensors = [fd.from_pytorch(x) for x in inputs]
        outputs = build(fd, *tensors)
        for output in outputs if isinstance(outputs, (list, tuple)) else [outputs]:
            fd.add_output(output)
    return fd


MATMUL_SHAPES = [((7,), (7,)), ((5, 7), (7,)), ((7,), (7, 3)), ((5, 7), (7, 3)),
                 ((2, 5, 7), (7, 3)), ((2, 1, 5, 7), (3, 7, 4)), ((33, 64), (64, 17))]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
def test_matmul(backend, dtype, shapes):
    a, b = randn(*shapes[0], dtype=dtype), randn(*shapes[1], dtype=dtype)
    fd = define(lambda fd, x, y: fd.ops.matmul(x, y), [a, b])
    fd.validate([a, b], [torch.matmul(a, b)], backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("input_shape", [(9,), (5, 9), (2, 3, 9)], ids=str)
@pytest.mark.parametrize("with_bias", [False, True])
def test_linear(backend, dtype, input_shape, with_bias):
    x, w = randn(*input_shape, dtype=dtype), randn(6, 9, dtype=dtype)
    inputs = [x, w] + ([randn(6, dtype=dtype)] if with_bias else [])
    fd = define(lambda fd, *t: fd.ops.linear(*t), inputs)
    fd.validate(inputs, [F.linear(*inputs)], backend=backend)


ATTENTION = [((1, 2, 5, 8), (1, 2, 7, 8), False, None),
             ((2, 3, 7, 16), (2, 3, 7, 16), True, None),
             ((1, 2, 33, 8), (1, 2, 17, 8), False, 0.25),
             ((1, 1, 6, 8), (1, 1, 6, 8), True, 0.5)]


def sdpa_reference(q, k, v, causal, scale):
    """torch's attention in f32 and its logsumexp, from the same inputs."""
    qf, kf, vf = (t.float() for t in (q, k, v))
    out = F.scaled_dot_product_attention(qf, kf, vf, is_causal=causal, scale=scale)
    scores = qf @ kf.transpose(-2, -1) * (scale or q.shape[-1] ** -0.5)
    if causal:
        mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
        scores = scores.masked_fill(~mask, float("-inf"))
    return out.to(q.dtype), torch.logsumexp(scores, dim=-1)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("shapes", ATTENTION, ids=str)
def test_sdpfa_fwd(backend, dtype, shapes):
    q_shape, kv_shape, causal, scale = shapes
    q, k, v = randn(*q_shape, dtype=dtype), randn(*kv_shape, dtype=dtype), \
        randn(*kv_shape, dtype=dtype)

    def build(fd, q, k, v):
        out, lse, _, _ = fd.ops.sdpfa_fwd(q, k, v, dropout_p=0.0, is_causal=causal,
                                          scale=scale)
        return out, lse
    fd = define(build, [q, k, v])
    fd.validate([q, k, v], list(sdpa_reference(q, k, v, causal, scale)), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("shapes", ATTENTION, ids=str)
def test_sdpfa_bwd(backend, dtype, shapes):
    q_shape, kv_shape, causal, scale = shapes
    q, k, v = (randn(*s, dtype=dtype) for s in (q_shape, kv_shape, kv_shape))
    grad = randn(*q_shape, dtype=dtype)
    leaves = [t.float().requires_grad_() for t in (q, k, v)]
    F.scaled_dot_product_attention(*leaves, is_causal=causal, scale=scale).backward(
        grad.float())
    references = [t.grad.to(dtype) for t in leaves]

    def build(fd, grad, q, k, v):
        out, lse, seed, offset = fd.ops.sdpfa_fwd(q, k, v, dropout_p=0.0,
                                                  is_causal=causal, scale=scale)
        return fd.ops.sdpfa_bwd(grad, q, k, v, out, lse, 0.0, causal, seed, offset,
                                scale)
    fd = define(build, [grad, q, k, v])
    fd.validate([grad, q, k, v], references, backend=backend)


# (mat1, mat2, offsets): rows grouped, the contraction grouped, columns
# grouped; empty groups, and a last offset short of the extent, whose rows
# torch leaves unwritten (at::empty) and fuser_mlir zeroes.
GROUPED = [((24, 16), (3, 16, 8), [5, 5, 24]), ((8, 32), (32, 16), [16, 16, 32]),
           ((2, 8, 16), (16, 24), [10, 24]), ((24, 16), (2, 16, 8), [7, 19])]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("shapes", GROUPED, ids=str)
def test_grouped_mm(backend, dtype, shapes):
    if not hasattr(torch, "_grouped_mm"):
        pytest.skip("this torch has no _grouped_mm")
    a, b = randn(*shapes[0], dtype=dtype), randn(*shapes[1], dtype=dtype)
    offsets = torch.tensor(shapes[2], dtype=torch.int32)
    reference = torch._grouped_mm(a, b, offsets)
    end = offsets[-1].item()
    if a.dim() == 2 and b.dim() == 3:
        reference[end:] = 0
    elif a.dim() == 3:
        reference[:, end:] = 0
    fd = define(lambda fd, x, y, o: fd.ops.grouped_mm(x, y, o), [a, b, offsets])
    fd.validate([a, b, offsets], [reference], backend=backend)


BF16, F32 = DataType.BFloat16, DataType.Float
# The blocks chain several library sums, and nvFuser's rule multiplies
# their sizes (64 * 176 for the MLP, 64 * 32 * 64 for attention), which
# gives bf16 an absolute tolerance of 5 and 10: nothing would fail. Both
# implementations round each op to bf16 as Thunder does, so they agree
# within a few bf16 ulps of the outputs (magnitudes up to about 3; measured:
# 0 for the MLP, 2^-7 for attention); swapping RoPE's cos and sin changes
# the attention output by 0.44.
BLOCK_TOLERANCE = dict(atol=0.02, rtol=0.01)


def bf16(fd, value):
    """A value computed in f32 rounded to bf16, as Thunder's bf16 ops are."""
    return fd.ops.cast(value, dtype=BF16)


@pytest.mark.parametrize("backend", ["cpu", "simt"])
def test_llama_mlp(backend):
    """A Llama MLP as nvFuser programs spell it (Thunder's fusion of
    litgpt's LLaMAMLP): linear, silu, mul, linear, in bf16."""
    x = randn(2, 16, 64, dtype=torch.bfloat16)
    w_fc1, w_fc2 = randn(176, 64, dtype=torch.bfloat16) * 0.1, \
        randn(176, 64, dtype=torch.bfloat16) * 0.1
    w_proj = randn(64, 176, dtype=torch.bfloat16) * 0.1
    inputs = [x, w_fc1, w_fc2, w_proj]

    def build(fd, x, w_fc1, w_fc2, w_proj):
        x_fc1 = fd.ops.linear(x, w_fc1)
        x_fc2 = fd.ops.linear(x, w_fc2)
        silu = bf16(fd, fd.ops.silu(fd.ops.cast(x_fc1, dtype=F32)))
        gated = bf16(fd, fd.ops.mul(fd.ops.cast(silu, dtype=F32),
                                    fd.ops.cast(x_fc2, dtype=F32)))
        return fd.ops.linear(gated, w_proj)
    fd = define(build, inputs)
    reference = F.linear(F.silu(F.linear(x, w_fc1)) * F.linear(x, w_fc2), w_proj)
    fd.validate(inputs, [reference], backend=backend, **BLOCK_TOLERANCE)
    assert [segment.kind for segment in fd.segments(inputs)].count("library") == 3


@pytest.mark.parametrize("backend", ["cpu", "simt"])
def test_attention_block(backend):
    """A causal self-attention block as Thunder hands litgpt's to nvFuser:
    the q, k and v projections, the heads split and transposed, RoPE on q
    and k (litgpt's apply_rope: the rotated half, bf16 products), causal
    sdpfa_fwd, the heads merged, the output projection; bf16."""
    batch, seq, heads, size = 1, 16, 4, 16
    embed = heads * size
    half = size // 2
    x = randn(batch, seq, embed, dtype=torch.bfloat16)
    w_q, w_k, w_v, w_o = (randn(embed, embed, dtype=torch.bfloat16) * 0.1
                          for _ in range(4))
    positions = torch.arange(seq).float()
    theta = 1.0 / (10000 ** (torch.arange(0, size, 2).float() / size))
    angles = torch.outer(positions, theta).repeat(1, 2)
    cos, sin = torch.cos(angles).bfloat16(), torch.sin(angles).bfloat16()
    inputs = [x, w_q, w_k, w_v, w_o, cos, sin]
    shape = [batch, heads, seq, size]

    def build(fd, x, w_q, w_k, w_v, w_o, cos, sin):
        def heads_of(weight):
            projected = fd.ops.linear(x, weight)
            split = fd.ops.reshape(projected, new_shape=[batch, seq, heads, size])
            return fd.ops.permute(split, dims=[0, 2, 1, 3])

        def rope(t):
            x1 = fd.ops.slice(t, start_indices=[0, 0, 0, 0],
                              end_indices=[batch, heads, seq, half])
            x2 = fd.ops.slice(t, start_indices=[0, 0, 0, half], end_indices=shape)
            rotated = fd.ops.cat([bf16(fd, fd.ops.neg(fd.ops.cast(x2, dtype=F32))), x1],
                                 dim=-1)

            def times(a, table):
                b = fd.ops.broadcast_in_dim(table, shape=shape, broadcast_dims=[2, 3])
                return bf16(fd, fd.ops.mul(fd.ops.cast(a, dtype=F32),
                                           fd.ops.cast(b, dtype=F32)))
            return bf16(fd, fd.ops.add(fd.ops.cast(times(t, cos), dtype=F32),
                                       fd.ops.cast(times(rotated, sin), dtype=F32)))

        q, k, v = rope(heads_of(w_q)), rope(heads_of(w_k)), heads_of(w_v)
        out, _, _, _ = fd.ops.sdpfa_fwd(q, k, v, dropout_p=0.0, is_causal=True)
        merged = fd.ops.reshape(fd.ops.permute(out, dims=[0, 2, 1, 3]),
                                new_shape=[batch, seq, embed])
        return fd.ops.linear(merged, w_o)
    fd = define(build, inputs)

    def torch_heads(weight):
        return F.linear(x, weight).view(batch, seq, heads, size).transpose(1, 2)

    def torch_rope(t):
        rotated = torch.cat((-t[..., half:], t[..., :half]), dim=-1)
        return (t * cos) + (rotated * sin)
    q, k = torch_rope(torch_heads(w_q)), torch_rope(torch_heads(w_k))
    out = F.scaled_dot_product_attention(q, k, torch_heads(w_v), is_causal=True)
    reference = F.linear(out.transpose(1, 2).reshape(batch, seq, embed), w_o)
    fd.validate(inputs, [reference], backend=backend, **BLOCK_TOLERANCE)
