"""nvFuser's scaled dot-product flash attention, sdpfa_fwd and sdpfa_bwd
(issue 47), through the direct API on the interpreter, the CPU backend
(sgemm per head around the softmax step, docs/Segmentation.md "Library
segments") and SIMT (the CUDA backend's path: cuBLASLt gemms around softmax
kernels, fuser-decompose-attention), against numpy in f64:

    S = Q K^T * scale (+ -inf above the diagonal when causal),
    P = softmax(S), O = P V, logsumexp = log(sum(exp(S))),
    dV = P^T dO, dP = dO V^T, dS = P * (dP - rowsum(dO * O)),
    dQ = dS K * scale, dK = dS^T Q * scale,

within nvFuser's tolerance rule for the summed extents (FusionDefinition.
validate). Odd L and S (1, 7, 33), causal and not, f32 and bf16; an
attention block as nvFuser programs spell it (linears for q/k/v, sdpfa_fwd,
linear); the errors nvFuser raises at definition, and ours for dropout."""
import math

import ml_dtypes
import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition, FusionError

BF16 = ml_dtypes.bfloat16
DTYPES = {"f32": (np.float32, DataType.Float), "bf16": (BF16, DataType.BFloat16)}
N, H, E, EV = 2, 3, 8, 4


def reference(q, k, v, go, causal, scale):
    """Forward and backward in f64 from the inputs rounded to their dtype."""
    q, k, v, go = (a.astype(np.float64) for a in (q, k, v, go))
    s = q @ np.swapaxes(k, -1, -2) * scale
    if causal:
        rows, cols = s.shape[-2:]
        s = np.where(np.arange(cols)[None, :] > np.arange(rows)[:, None], -np.inf, s)
    m = s.max(axis=-1, keepdims=True)
    e = np.exp(s - m)
    lse = (m + np.log(e.sum(axis=-1, keepdims=True)))[..., 0]
    p = e / e.sum(axis=-1, keepdims=True)
    o = p @ v
    dv = np.swapaxes(p, -1, -2) @ go
    dp = go @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (go * o).sum(axis=-1, keepdims=True))
    return o, lse, ds @ k * scale, np.swapaxes(ds, -1, -2) @ q * scale, dv


def define_attention(l, s, dtype, causal, scale):
    with FusionDefinition() as fd:
        q = fd.define_tensor(shape=[N, H, l, E], dtype=dtype)
        k = fd.define_tensor(shape=[N, H, s, E], dtype=dtype)
        v = fd.define_tensor(shape=[N, H, s, EV], dtype=dtype)
        go = fd.define_tensor(shape=[N, H, l, EV], dtype=dtype)
        o, lse, seed, offset = fd.ops.sdpfa_fwd(q, k, v, dropout_p=0.0, is_causal=causal,
                                                scale=scale)
        grads = fd.ops.sdpfa_bwd(go, q, k, v, o, lse, 0.0, causal, seed, offset, scale)
        for t in (o, lse, seed, offset) + tuple(grads):
            fd.add_output(t)
    return fd


@pytest.mark.parametrize("backend", ["interp", "cpu", "simt"])
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("l,s", [(1, 1), (7, 33), (33, 7), (33, 33)])
def test_against_numpy(backend, dtype, causal, l, s):
    np_dtype, fd_dtype = DTYPES[dtype]
    rng = np.random.default_rng(l * 100 + s)
    arrays = [rng.standard_normal(shape).astype(np_dtype) for shape in
              ([N, H, l, E], [N, H, s, E], [N, H, s, EV], [N, H, l, EV])]
    scale = None if causal else 0.3
    fd = define_attention(l, s, fd_dtype, causal, scale)
    o, lse, dq, dk, dv = reference(*arrays, causal, 1 / math.sqrt(E) if scale is None else scale)
    # The Philox state: nvFuser's uint64[2] and uint64 (torch >= 2.7), zeros
    # without dropout.
    zeros = np.zeros(2, np.uint64), np.zeros((), np.uint64)
    expected = [o.astype(np_dtype), lse.astype(np.float32), *zeros,
                dq.astype(np_dtype), dk.astype(np_dtype), dv.astype(np_dtype)]
    outputs = fd.validate(arrays, expected, backend=backend)
    assert [a.dtype for a in outputs] == [e.dtype for e in expected]


def test_backends_agree_within_tolerance():
    """The CPU backend's gemms against the interpreter's loops."""
    rng = np.random.default_rng(1)
    arrays = [rng.standard_normal(shape).astype(BF16) for shape in
              ([N, H, 7, E], [N, H, 33, E], [N, H, 33, EV], [N, H, 7, EV])]
    fd = define_attention(7, 33, DataType.BFloat16, True, None)
    fd.validate(arrays, backend="cpu")


@pytest.mark.parametrize("backend", ["cpu", "simt"])
def test_attention_block(backend):
    """x [B, T, D] -> q, k, v = linear(x, Wq/Wk/Wv) viewed as [B, T, H, E]
    and permuted to [B, H, T, E]; sdpfa_fwd, causal; back to [B, T, H*E]
    and the output projection: one library segment per linear and one for
    the attention, views between them."""
    b, t, heads, e = 2, 7, 3, 8
    d = heads * e
    rng = np.random.default_rng(5)
    x = rng.standard_normal((b, t, d)).astype(np.float32)
    ws = [(rng.standard_normal((d, d)) / math.sqrt(d)).astype(np.float32) for _ in range(4)]
    with FusionDefinition() as fd:
        tx = fd.define_tensor(shape=[b, t, d], dtype=DataType.Float)
        tws = [fd.define_tensor(shape=[d, d], dtype=DataType.Float) for _ in range(4)]

        def heads_first(w):
            y = fd.ops.reshape(fd.ops.linear(tx, w), [b, t, heads, e])
            return fd.ops.permute(y, [0, 2, 1, 3])
        q, k, v = (heads_first(w) for w in tws[:3])
        o, _, _, _ = fd.ops.sdpfa_fwd(q, k, v, is_causal=True)
        o = fd.ops.reshape(fd.ops.permute(o, [0, 2, 1, 3]), [b, t, d])
        fd.add_output(fd.ops.linear(o, tws[3]))

    def split(y):
        return y.reshape(b, t, heads, e).transpose(0, 2, 1, 3)
    q, k, v = (split(x.astype(np.float64) @ w.T.astype(np.float64)) for w in ws[:3])
    o = reference(q, k, v, np.zeros((b, heads, t, e)), True, 1 / math.sqrt(e))[0]
    expected = o.transpose(0, 2, 1, 3).reshape(b, t, d) @ ws[3].T.astype(np.float64)
    (out,) = fd.execute([x] + ws, backend=backend)
    np.testing.assert_allclose(out, expected, atol=1e-5, rtol=1e-5)
    (again,) = fd.execute([x] + ws, backend="interp")
    np.testing.assert_allclose(again, expected, atol=1e-5, rtol=1e-5)


def test_definition_errors():
    with FusionDefinition() as fd:
        q = fd.define_tensor(shape=[3, 5, 8], dtype=DataType.BFloat16)
        with pytest.raises(FusionError, match=r"Expected \(query_domain.size\(\)\)>=\(4\)"):
            fd.ops.sdpfa_fwd(q, q, q)
    with FusionDefinition() as fd:
        q = fd.define_tensor(shape=[1, 2, 5, 8], dtype=DataType.BFloat16)
        k = fd.define_tensor(shape=[1, 2, 5, 8], dtype=DataType.Half)
        with pytest.raises(FusionError, match="element types differ"):
            fd.ops.sdpfa_fwd(q, k, q)
            fd.add_output(q)
    with FusionDefinition() as fd:
        q = fd.define_tensor(shape=[1, 2, 5, 8], dtype=DataType.Float)
        # The scores are [1, 2, 5, 5]: a bias dim is 1 or the scores'.
        with pytest.raises(FusionError, match="bias dim 3 is 8: it must be 1 or the "
                                              "scores' extent 5"):
            fd.ops.sdpfa_fwd(q, q, q, bias=q)
            fd.add_output(q)
    # A Scalar given at execute is an option too (test_sdpfa_runtime_options.py);
    # one of the wrong dtype is nvFuser's error.
    with FusionDefinition() as fd:
        q = fd.define_tensor(shape=[1, 2, 5, 8], dtype=DataType.Float)
        p = fd.define_scalar(DataType.Bool)
        with pytest.raises(FusionError, match="Expected dropout to be a real-valued scalar"):
            fd.ops.sdpfa_fwd(q, q, q, dropout_p=p)


@pytest.mark.parametrize("options", [
    lambda fd: (fd.define_scalar(0.0, dtype=DataType.Double),
                fd.define_scalar(True, dtype=DataType.Bool), None),
    lambda fd: (0.0, True, 0.25)], ids=["scalars", "numbers"])
def test_earlier_positional_signature(options):
    """nvFuser's earlier sdpfa_fwd(query, key, value, dropout_p, is_causal,
    scale), as Thunder 0.2.6 calls it positionally: a scalar where bias or
    mask would be is that form's option, computing what the keywords do."""
    rng = np.random.default_rng(11)
    arrays = [rng.standard_normal((1, 2, 5, 8)).astype(np.float32) for _ in range(3)]
    outputs = []
    for positional in (True, False):
        with FusionDefinition() as fd:
            q, k, v = (fd.define_tensor(shape=[1, 2, 5, 8], dtype=DataType.Float)
                       for _ in range(3))
            dropout, causal, scale = options(fd)
            if positional:
                o = fd.ops.sdpfa_fwd(q, k, v, dropout, causal, scale)[0]
            else:
                o = fd.ops.sdpfa_fwd(q, k, v, dropout_p=dropout, is_causal=causal,
                                     scale=scale)[0]
            fd.add_output(o)
        outputs.append(fd.execute(arrays, backend="cpu")[0])
        assert "bias" not in repr(fd)
    np.testing.assert_array_equal(outputs[0], outputs[1])
    # Causal: the first query sees only the first key, so its output is
    # that key's value row.
    np.testing.assert_allclose(outputs[0][:, :, 0], arrays[2][:, :, 0], rtol=1e-6)


def test_earlier_signature_with_keywords_is_refused():
    with FusionDefinition() as fd:
        q = fd.define_tensor(shape=[1, 2, 5, 8], dtype=DataType.Float)
        with pytest.raises(TypeError, match="earlier signature"):
            fd.ops.sdpfa_fwd(q, q, q, 0.0, True, is_causal=True)
