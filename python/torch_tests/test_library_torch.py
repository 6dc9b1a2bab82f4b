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
