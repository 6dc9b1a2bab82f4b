"""sdpfa_fwd's bias and mask against torch's own attention (make
check-torch; skipped without torch): F.scaled_dot_product_attention in f64
with attn_mask = bias + where(mask, 0, -inf) (the causal mask folded in
too: torch takes no attn_mask with is_causal=True) for the output, and
torch.logsumexp of the same masked score for the logsumexp. Compared by
FusionDefinition.validate (nvFuser's tolerance for the dtype and the summed
extents) on every backend that runs attention. No row is left without a key
here (torch gives NaN there, the spec 0 and -inf:
python/tests/test_sdpfa_bias_mask_dropout.py checks those rows)."""
import math

import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

from fuser_mlir.nvfuser_direct import DataType, FusionDefinition  # noqa: E402

BACKENDS = ["interp", "cpu", "simt"]
DTYPES = {torch.float32: DataType.Float, torch.bfloat16: DataType.BFloat16,
          torch.float16: DataType.Half}
N, H, L, S, E, EV = 2, 3, 5, 9, 6, 3
FULL = [N, H, L, S]

# (q batch dims, L, S, bias shape, mask shape, causal)
CASES = {
    "bias": ([N, H], L, S, FULL, None, False),
    "mask": ([N, H], L, S, None, FULL, False),
    "bias_mask_causal": ([N, H], L, S, FULL, FULL, True),
    "broadcast_heads_rows": ([N, H], L, S, [N, 1, L, S], [N, H, 1, S], False),
    "broadcast_keys": ([N, H], L, S, [1, H, L, 1], [1, 1, L, S], True),
    # alphafold3's triangle attention: [b, i, h, j, k] scores.
    "triangle_attention": ([2, 3, 2], 5, 5, [2, 1, 2, 5, 5], [2, 3, 1, 1, 5], False),
}


def torch_reference(q, k, v, bias, mask, causal, scale):
    """(output, logsumexp) in f64 from the inputs in their dtype."""
    q, k, v = (t.double() for t in (q, k, v))
    attn = torch.zeros(q.shape[:-1] + k.shape[-2:-1], dtype=torch.float64)
    if bias is not None:
        attn = attn + bias.double()
    if mask is not None:
        attn = attn + torch.where(mask, 0.0, float("-inf")).double()
    if causal:
        above = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).triu(1)
        attn = attn.masked_fill(above, float("-inf"))
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn, scale=scale)
    lse = torch.logsumexp(q @ k.transpose(-2, -1) * scale + attn, dim=-1)
    return out, lse


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", list(DTYPES), ids=str)
@pytest.mark.parametrize("case", list(CASES))
def test_bias_and_mask_against_torch(backend, dtype, case):
    batch, l, s, bias_shape, mask_shape, causal = CASES[case]
    generator = torch.Generator().manual_seed(sorted(CASES).index(case))

    def randn(shape):
        return torch.randn(shape, generator=generator).to(dtype)
    q, k, v = randn(batch + [l, E]), randn(batch + [s, E]), randn(batch + [s, EV])
    bias = None if bias_shape is None else randn(bias_shape)
    mask = None
    if mask_shape is not None:
        mask = torch.rand(mask_shape, generator=generator) < 0.7
        mask[..., 0] = True  # every row keeps its first key (causal keeps it too)
    scale = 1 / math.sqrt(E) if causal else 0.3
    with FusionDefinition() as fd:
        def define(shape, dtype):
            return fd.define_tensor(shape=[1 if d == 1 else -1 for d in shape], dtype=dtype)
        tq, tk, tv = (define(list(t.shape), DTYPES[dtype]) for t in (q, k, v))
        tbias = None if bias is None else define(bias_shape, DTYPES[dtype])
        tmask = None if mask is None else define(mask_shape, DataType.Bool)
        o, lse, _, _ = fd.ops.sdpfa_fwd(tq, tk, tv, bias=tbias, mask=tmask, is_causal=causal,
                                        scale=scale)
        fd.add_output(o)
        fd.add_output(lse)
    out, expected_lse = torch_reference(q, k, v, bias, mask, causal, scale)
    inputs = [t for t in (q, k, v, bias, mask) if t is not None]
    outputs = fd.validate(inputs, [out.to(dtype), expected_lse.float()], backend=backend)
    assert outputs[0].dtype == dtype and outputs[1].dtype == torch.float32
