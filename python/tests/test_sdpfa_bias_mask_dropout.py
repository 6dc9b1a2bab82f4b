"""sdpfa_fwd's bias and mask, and dropout in sdpfa_fwd and sdpfa_bwd,
against numpy in f64 (an implementation written here from the spec, not
test_sdpfa.py's):

    score = scale * Q K^T + float(bias), -inf where the mask is False or
    (causal) where s > l; logsumexp = m + log(sum exp(score - m));
    output = softmax(score) V, a row without an unmasked key giving 0 and
    logsumexp -inf. bias has q's dtype, the mask is Bool; both have q's
    rank, each dim the score's [N..., H, L, S] extent or 1 (a broadcast).

    Dropout (p > 0): the forward draws (seed, offset) from fuser_mlir's
    generator as an unseeded fd.ops.uniform does and returns philox_seed =
    [seed, offset / 4] (uint64[2]) and philox_offset = 0. The element i
    (row-major) of the score keeps iff uniform01_f32(word i % 4 of
    philox(seed, i // 4, offset / 4)) >= float32(p), scaled by
    r = float32(1 / (1 - p)) (0 for p = 1); output = sum_s (keep ? p r : 0)
    v / rowsum(p), logsumexp unchanged. The backward draws the same mask
    from philox_seed: z = keep ? p r : 0, dV = z^T dO, dP' = keep ?
    (dO V^T) r : 0, dS = P (dP' - rowsum(dO O)), dQ = scale dS K,
    dK = scale dS^T Q.

Outputs are compared by FusionDefinition.validate (nvFuser's tolerance for
the dtype and the summed extents), as test_sdpfa.py compares them; the
dropout mask is checked bit for bit (it is read back exactly from an
identity value), with philox_reference.py's numpy Philox. No torch here
(python/torch_tests/test_sdpfa_bias_mask_torch.py has torch's
scaled_dot_product_attention as a second reference)."""
import math
import re

import ml_dtypes
import numpy as np
import pytest

import fuser_mlir
from fuser_mlir import DataType, FusionDefinition, FusionError, FusionTypeError, \
    FusionValueError
from philox_reference import uniform01_f32_at

BF16 = ml_dtypes.bfloat16
DTYPES = {"f32": (np.float32, DataType.Float), "bf16": (BF16, DataType.BFloat16),
          "f16": (np.float16, DataType.Half)}
# The backends test_sdpfa.py runs attention on.
BACKENDS = ["interp", "cpu", "simt"]
# Odd sizes: L != S, E != Ev, and a score of 2*3*5*9 = 270 elements (not a
# multiple of 4: the last Philox call is partly used).
N, H, L, S, E, EV = 2, 3, 5, 9, 6, 3


# The numpy reference ------------------------------------------------------


def _f64(*arrays):
    return [None if a is None else np.asarray(a).astype(np.float64) for a in arrays]


def _t(a):
    return np.swapaxes(a, -1, -2)


def scores(q, k, scale, bias=None, mask=None, causal=False):
    """The masked, biased score in f64, [N..., H, L, S]."""
    q, k, bias = _f64(q, k, bias)
    s = q @ _t(k) * scale
    if bias is not None:
        s = s + bias
    if mask is not None:
        s = np.where(np.asarray(mask, bool), s, -np.inf)
    if causal:
        rows, cols = s.shape[-2:]
        s = np.where(np.arange(cols)[None, :] > np.arange(rows)[:, None], -np.inf, s)
    return s


def forward(q, k, v, scale, bias=None, mask=None, causal=False, keep=None, r=None):
    """(output, logsumexp, probabilities) in f64; keep and r: dropout."""
    s = scores(q, k, scale, bias, mask, causal)
    (v,) = _f64(v)
    m = s.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)  # a row without an unmasked key
    e = np.exp(s - m)
    total = e.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        lse = np.where(total > 0, m + np.log(total), -np.inf)[..., 0]
        p = np.where(total > 0, e / total, 0.0)
    z = p if keep is None else np.where(keep, p * r, 0.0)
    return z @ v, lse, p


def backward(go, q, k, v, o, lse, scale, causal=False, keep=None, r=None):
    """(grad_query, grad_key, grad_value) in f64 from the forward's output
    and logsumexp, by the spec's formulas."""
    go, q, k, v, o, lse = _f64(go, q, k, v, o, lse)
    s = scores(q, k, scale, causal=causal)
    with np.errstate(invalid="ignore"):
        p = np.where(np.isfinite(lse)[..., None], np.exp(s - lse[..., None]), 0.0)
    z = p if keep is None else np.where(keep, p * r, 0.0)
    dv = _t(z) @ go
    dp = go @ _t(v)
    if keep is not None:
        dp = np.where(keep, dp * r, 0.0)
    ds = p * (dp - (go * o).sum(axis=-1, keepdims=True))
    return ds @ k * scale, _t(ds) @ q * scale, dv


def dropout_keep(seed, philox_offset, score_shape, p):
    """The spec's keep mask of a score of `score_shape`: row-major index i,
    nvFuser's float uniform of word i % 4 of philox(seed, i // 4,
    philox_offset), kept iff >= float32(p)."""
    u = uniform01_f32_at(seed, philox_offset, int(np.prod(score_shape)))
    return (u >= np.float32(p)).reshape(score_shape)


def dropout_scale(p):
    """r = float32(1 / (1 - p)), 0 where p is 1."""
    return float(np.float32(1.0 / (1.0 - p))) if p < 1 else 0.0


def randn(rng, shape, np_dtype):
    return rng.standard_normal(shape).astype(np_dtype)


def state_arrays(seed, philox_offset):
    return np.array([seed, philox_offset], np.uint64), np.array(0, np.uint64)


def test_reference_gradient_is_the_forwards_with_dropout():
    """The reference's backward (the spec's formulas) is the gradient of the
    reference's forward with the same dropout mask: central differences of
    sum(output * dO) in f64. Checks the reference itself (numpy only)."""
    rng = np.random.default_rng(3)
    q, k, v, go = (rng.standard_normal(shape) for shape in
                   ([1, 2, 3, 2], [1, 2, 4, 2], [1, 2, 4, 3], [1, 2, 3, 3]))
    keep = rng.random((1, 2, 3, 4)) >= 0.4
    r, scale = 1 / 0.6, 0.7
    for causal in (False, True):
        o, lse, _ = forward(q, k, v, scale, causal=causal, keep=keep, r=r)
        analytic = backward(go, q, k, v, o, lse, scale, causal, keep, r)
        for index, array in enumerate((q, k, v)):
            numeric = np.zeros_like(array)
            for position in np.ndindex(array.shape):
                values = []
                for step in (1e-6, -1e-6):
                    moved = [a.copy() for a in (q, k, v)]
                    moved[index][position] += step
                    values.append((forward(*moved, scale, causal=causal, keep=keep,
                                           r=r)[0] * go).sum())
                numeric[position] = (values[0] - values[1]) / 2e-6
            np.testing.assert_allclose(analytic[index], numeric, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("seed,offset,n", [(987654321, 3, 37),
                                           (2**64 - 5, 2**33 + 7, 9)])
def test_reference_stream_is_fd_ops_uniform(seed, offset, n):
    """The numpy stream the dropout mask is drawn from is what
    fd.ops.uniform(0, 1, dtype=Float) computes with that seed and offset."""
    with FusionDefinition() as fd:
        s = fd.define_scalar(dtype=DataType.Int)
        o = fd.define_scalar(dtype=DataType.Int)
        fd.add_output(fd.ops.uniform(0.0, 1.0, [n], rng_seed=s, rng_offset=o,
                                     dtype=DataType.Float))
    as_int64 = seed - 2**64 if seed >= 2**63 else seed
    (u,) = fd.execute([as_int64, offset], backend="cpu")
    np.testing.assert_array_equal(u, uniform01_f32_at(seed, offset, n))


# bias and mask (forward) --------------------------------------------------


def define_forward(q_shape, k_shape, v_shape, dtype, bias_shape=None, mask_shape=None,
                   causal=False, scale=None, dropout_p=None, symbolic=False):
    """sdpfa_fwd of tensors of those shapes (a 1 in a bias or mask shape is a
    broadcast dim; symbolic: the other extents -1), all four results out."""
    def define(shape, dtype):
        if symbolic:
            shape = [1 if d == 1 else -1 for d in shape]
        return fd.define_tensor(shape=list(shape), dtype=dtype)
    with FusionDefinition() as fd:
        q, k, v = (define(shape, dtype) for shape in (q_shape, k_shape, v_shape))
        bias = None if bias_shape is None else define(bias_shape, dtype)
        mask = None if mask_shape is None else define(mask_shape, DataType.Bool)
        for t in fd.ops.sdpfa_fwd(q, k, v, bias=bias, mask=mask, dropout_p=dropout_p,
                                  is_causal=causal, scale=scale):
            fd.add_output(t)
    return fd


def bias_mask_inputs(rng, np_dtype, batch, bias_shape, mask_shape, l=L, s=S):
    q = randn(rng, batch + [l, E], np_dtype)
    k = randn(rng, batch + [s, E], np_dtype)
    v = randn(rng, batch + [s, EV], np_dtype)
    bias = None if bias_shape is None else randn(rng, bias_shape, np_dtype)
    mask = None if mask_shape is None else rng.random(mask_shape) < 0.7
    if mask is not None and mask.size == 1:
        mask[...] = True  # a False would mask every key of every row
    return q, k, v, bias, mask


def check_forward(fd, backend, np_dtype, q, k, v, bias, mask, causal, scale):
    expected_o, expected_lse, _ = forward(q, k, v, scale, bias, mask, causal)
    expected = [expected_o.astype(np_dtype), expected_lse.astype(np.float32),
                *state_arrays(0, 0)]
    inputs = [a for a in (q, k, v, bias, mask) if a is not None]
    state = fuser_mlir.get_rng_state()
    outputs = fd.validate(inputs, expected, backend=backend)
    assert [a.dtype for a in outputs] == [a.dtype for a in expected]
    # No dropout: nothing is drawn.
    assert fuser_mlir.get_rng_state() == state
    return outputs


FULL = [N, H, L, S]
BIAS_MASK_CASES = {
    # name: (bias shape, mask shape, causal)
    "bias": (FULL, None, False),
    "mask": (None, FULL, False),
    "bias_mask": (FULL, FULL, False),
    "bias_mask_causal": (FULL, FULL, True),
    "mask_causal": (None, FULL, True),
    "bias_heads_broadcast": ([N, 1, L, S], [N, H, 1, S], False),
    "bias_rows_broadcast": ([1, 1, L, S], [N, 1, L, 1], True),
    "bias_keys_broadcast": ([N, H, L, 1], [1, H, L, S], False),
    "all_broadcast": ([1, 1, 1, S], [1, 1, 1, 1], False),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["f32", "bf16", "f16"])
@pytest.mark.parametrize("case", list(BIAS_MASK_CASES))
def test_bias_and_mask(backend, dtype, case):
    bias_shape, mask_shape, causal = BIAS_MASK_CASES[case]
    np_dtype, fd_dtype = DTYPES[dtype]
    rng = np.random.default_rng(sorted(BIAS_MASK_CASES).index(case))
    q, k, v, bias, mask = bias_mask_inputs(rng, np_dtype, [N, H], bias_shape, mask_shape)
    scale = None if causal else 0.3
    fd = define_forward(q.shape, k.shape, v.shape, fd_dtype, bias_shape, mask_shape, causal,
                        scale, symbolic=case.endswith("broadcast"))
    check_forward(fd, backend, np_dtype, q, k, v, bias, mask, causal,
                  1 / math.sqrt(E) if scale is None else scale)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("spelling", ["define_tensor", "broadcast_in_dim"])
def test_triangle_attention_shapes(backend, spelling):
    """alphafold3's triangle attention (nvFuser's test_alphafold3.py,
    test_triangle_attention): q, k, v [b, i, h, j, c], bias [b, 1, h, j, k],
    mask [b, i, 1, 1, k], a 5-D score [b, i, h, j, k]; the mask defined
    with its broadcast dims or broadcast_in_dim from [b, i, k]."""
    b, i, h, j, c = 2, 3, 2, 5, 4
    rng = np.random.default_rng(21)
    q, k, v = (randn(rng, [b, i, h, j, c], np.float32) for _ in range(3))
    bias = randn(rng, [b, 1, h, j, j], np.float32)
    mask = rng.random([b, i, 1, 1, j]) < 0.6
    mask[0, 1] = False  # every row of one (b, i) has no unmasked key
    mask[1, 2, 0, 0, 3] = True
    with FusionDefinition() as fd:
        tq, tk, tv = (fd.define_tensor(shape=[b, i, h, j, c], dtype=DataType.Float)
                      for _ in range(3))
        tbias = fd.define_tensor(shape=[b, 1, h, j, j], dtype=DataType.Float)
        if spelling == "define_tensor":
            tmask = fd.define_tensor(shape=[b, i, 1, 1, j], dtype=DataType.Bool)
        else:
            flat = fd.define_tensor(shape=[b, i, j], dtype=DataType.Bool)
            tmask = fd.ops.broadcast_in_dim(flat, shape=[b, i, 1, 1, j],
                                            broadcast_dims=[0, 1, 4])
        for t in fd.ops.sdpfa_fwd(tq, tk, tv, bias=tbias, mask=tmask,
                                  scale=1 / math.sqrt(c)):
            fd.add_output(t)
    o, lse, _ = forward(q, k, v, 1 / math.sqrt(c), bias, mask)
    given_mask = mask if spelling == "define_tensor" else mask.reshape(b, i, j)
    outputs = fd.validate([q, k, v, bias, given_mask],
                          [o.astype(np.float32), lse.astype(np.float32),
                           *state_arrays(0, 0)], backend=backend)
    # The rows without a key: output 0, logsumexp -inf.
    np.testing.assert_array_equal(outputs[0][0, 1], 0)
    assert np.all(outputs[1][0, 1] == -np.inf)
    assert np.all(np.isfinite(outputs[1][1, 2]))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_fully_masked_rows(backend, dtype):
    """A row whose keys the mask removes, and one (the first query, causal)
    whose only key the mask removes: output 0 and logsumexp -inf there,
    the other rows as usual."""
    np_dtype, fd_dtype = DTYPES[dtype]
    rng = np.random.default_rng(8)
    q, k, v, bias, mask = bias_mask_inputs(rng, np_dtype, [N, H], FULL, FULL)
    mask[...] = True
    mask[0, 1, 2, :] = False
    mask[1, :, 0, 0] = False
    for causal in (False, True):
        fd = define_forward(q.shape, k.shape, v.shape, fd_dtype, FULL, FULL, causal)
        o, lse = check_forward(fd, backend, np_dtype, q, k, v, bias, mask, causal,
                               1 / math.sqrt(E))[:2]
        np.testing.assert_array_equal(o[0, 1, 2].astype(np.float32), 0)
        assert lse[0, 1, 2] == -np.inf
        assert np.all(lse[1, :, 0] == -np.inf) == causal
        np.testing.assert_array_equal(np.isfinite(lse),
                                      np.isfinite(forward(q, k, v, 1.0, bias, mask,
                                                          causal)[1]))


def test_all_true_mask_and_zero_bias_change_nothing():
    """A mask of all True and a bias of zeros give sdpfa_fwd's results
    without them (both add nothing to the score)."""
    rng = np.random.default_rng(12)
    q, k, v, _, _ = bias_mask_inputs(rng, np.float32, [N, H], None, None)
    plain = define_forward(q.shape, k.shape, v.shape, DataType.Float, causal=True)
    expected = plain.execute([q, k, v], backend="interp")
    fd = define_forward(q.shape, k.shape, v.shape, DataType.Float, FULL, FULL, causal=True)
    got = fd.execute([q, k, v, np.zeros(FULL, np.float32), np.ones(FULL, bool)],
                     backend="interp")
    for a, b in zip(got[:2], expected[:2]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


# Errors at the definition ---------------------------------------------------


def _error(build, *fragments):
    """build(fd, q, k, v) raises FusionValueError or FusionTypeError (both
    RuntimeErrors, nvFuser's kind) at the call, its message holding each
    fragment (a regex, case-insensitive)."""
    with FusionDefinition() as fd:
        q, k, v = (fd.define_tensor(shape=shape, dtype=DataType.Float) for shape in
                   ([N, H, L, E], [N, H, S, E], [N, H, S, EV]))
        with pytest.raises((FusionValueError, FusionTypeError)) as raised:
            build(fd, q, k, v)
        fd.add_output(q)
    assert isinstance(raised.value, RuntimeError)
    for fragment in fragments:
        assert re.search(fragment, str(raised.value), re.IGNORECASE), \
            "%r not in %r" % (fragment, str(raised.value))


def _tensor(fd, shape, dtype=DataType.Float):
    return fd.define_tensor(shape=shape, dtype=dtype)


DTYPE_WORDS = r"type"
DIM_WORDS = r"dim|extent|size|shape|broadcast"
ERROR_CASES = {
    "bias_dtype": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, bias=_tensor(fd, FULL, DataType.BFloat16)), ["bias", DTYPE_WORDS]),
    "bias_dtype_double": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, bias=_tensor(fd, FULL, DataType.Double)), ["bias", DTYPE_WORDS]),
    "bias_rank": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, bias=_tensor(fd, [L, S])), ["bias", "rank"]),
    "bias_rank_higher": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, bias=_tensor(fd, [1, N, H, L, S])), ["bias", "rank"]),
    "mask_rank": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, mask=_tensor(fd, [H, L, S], DataType.Bool)), ["mask", "rank"]),
    "bias_key_extent": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, bias=_tensor(fd, [N, H, L, S + 1])), ["bias", DIM_WORDS]),
    "bias_query_extent": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, bias=_tensor(fd, [N, H, E, S])), ["bias", DIM_WORDS]),
    "mask_head_extent": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, mask=_tensor(fd, [N, 2, L, S], DataType.Bool)), ["mask", DIM_WORDS]),
    "mask_batch_extent": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, mask=_tensor(fd, [N + 1, 1, 1, S], DataType.Bool)), ["mask", DIM_WORDS]),
    "mask_float": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, mask=_tensor(fd, FULL, DataType.Float)), ["mask", r"bool|i1"]),
    "mask_int": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, mask=_tensor(fd, FULL, DataType.Int)), ["mask", r"bool|i1"]),
    "bias_with_dropout": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, bias=_tensor(fd, FULL), dropout_p=0.1), ["dropout", "bias"]),
    "mask_with_dropout": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, mask=_tensor(fd, FULL, DataType.Bool), dropout_p=0.5), ["dropout", "mask"]),
    "bias_mask_with_dropout_scalar": (lambda fd, q, k, v: fd.ops.sdpfa_fwd(
        q, k, v, bias=_tensor(fd, FULL), mask=_tensor(fd, FULL, DataType.Bool),
        dropout_p=fd.define_scalar(1.0, dtype=DataType.Double)), ["dropout"]),
}


@pytest.mark.parametrize("case", list(ERROR_CASES))
def test_definition_errors(case):
    build, fragments = ERROR_CASES[case]
    _error(build, *fragments)


def test_bias_and_mask_with_zero_dropout_are_taken():
    """dropout_p 0 (a number or a constant Scalar) is no dropout: bias and
    mask are taken."""
    rng = np.random.default_rng(4)
    q, k, v, bias, mask = bias_mask_inputs(rng, np.float32, [N, H], FULL, FULL)
    expected = forward(q, k, v, 1 / math.sqrt(E), bias, mask)[0]
    for p in (0.0, "scalar"):
        with FusionDefinition() as fd:
            tq, tk, tv, tb = (_tensor(fd, list(a.shape)) for a in (q, k, v, bias))
            tm = _tensor(fd, FULL, DataType.Bool)
            dropout = fd.define_scalar(0.0, dtype=DataType.Double) if p == "scalar" else p
            fd.add_output(fd.ops.sdpfa_fwd(tq, tk, tv, bias=tb, mask=tm, dropout_p=dropout)[0])
        (o,) = fd.execute([q, k, v, bias, mask], backend="cpu")
        np.testing.assert_allclose(o, expected, rtol=2e-5, atol=2e-5)


# Dropout --------------------------------------------------------------------

SEED = 20240601


def define_dropout(dtype, p, causal, scale, backward=True, shapes=None, p_input=False):
    """sdpfa_fwd with dropout_p = p (a Scalar input where p_input), and
    sdpfa_bwd of its results where `backward`: outputs (o, lse,
    philox_seed, philox_offset[, dq, dk, dv])."""
    q_shape, k_shape, v_shape = shapes or ([N, H, L, E], [N, H, S, E], [N, H, S, EV])
    with FusionDefinition() as fd:
        q, k, v = (fd.define_tensor(shape=shape, dtype=dtype)
                   for shape in (q_shape, k_shape, v_shape))
        go = fd.define_tensor(shape=q_shape[:-1] + v_shape[-1:], dtype=dtype) \
            if backward else None
        dropout = fd.define_scalar(None, dtype=DataType.Double) if p_input else p
        o, lse, seed, offset = fd.ops.sdpfa_fwd(q, k, v, dropout_p=dropout, is_causal=causal,
                                                scale=scale)
        outputs = [o, lse, seed, offset]
        if backward:
            outputs += list(fd.ops.sdpfa_bwd(go, q, k, v, o, lse, dropout, causal, seed,
                                             offset, scale))
        for t in outputs:
            fd.add_output(t)
    return fd


def dropout_inputs(np_dtype, seed=0, shapes=None, backward=True):
    q_shape, k_shape, v_shape = shapes or ([N, H, L, E], [N, H, S, E], [N, H, S, EV])
    rng = np.random.default_rng(seed)
    shapes = [q_shape, k_shape, v_shape] + ([q_shape[:-1] + v_shape[-1:]] if backward else [])
    return [randn(rng, shape, np_dtype) for shape in shapes]


def dropout_expected(arrays, np_dtype, p, causal, scale, seed, philox_offset,
                     with_backward=True):
    q, k, v = arrays[:3]
    score_shape = list(q.shape[:-1]) + [k.shape[-2]]
    keep, r = dropout_keep(seed, philox_offset, score_shape, p), dropout_scale(p)
    o, lse, _ = forward(q, k, v, scale, causal=causal, keep=keep, r=r)
    expected = [o.astype(np_dtype), lse.astype(np.float32), *state_arrays(seed, philox_offset)]
    if with_backward:
        grads = backward(arrays[3], q, k, v, o, lse, scale, causal, keep, r)
        expected += [g.astype(np_dtype) for g in grads]
    return expected


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
@pytest.mark.parametrize("p", [0.1, 0.5, 1.0])
@pytest.mark.parametrize("causal", [False, True])
def test_dropout_forward(backend, dtype, p, causal):
    """Forward only: the mask of the generator's (seed, offset), the Philox
    state returned, the generator advanced by 4 (one draw)."""
    np_dtype, fd_dtype = DTYPES[dtype]
    scale = None if causal else 0.3
    fd = define_dropout(fd_dtype, p, causal, scale, backward=False)
    arrays = dropout_inputs(np_dtype, 1, backward=False)
    fuser_mlir.set_rng_state((SEED, 4 * 6))
    outputs = fd.validate(arrays, dropout_expected(
        arrays, np_dtype, p, causal, 1 / math.sqrt(E) if scale is None else scale, SEED, 6,
        with_backward=False), backend=backend)
    assert fuser_mlir.get_rng_state() == (SEED, 4 * 7)
    assert outputs[2].dtype == np.uint64 and outputs[3].dtype == np.uint64
    np.testing.assert_array_equal(outputs[2], np.array([SEED, 6], np.uint64))
    assert outputs[3].shape == () and int(outputs[3]) == 0
    if p == 1.0:
        np.testing.assert_array_equal(outputs[0].astype(np.float32), 0)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
@pytest.mark.parametrize("p", [0.1, 0.5, 1.0])
@pytest.mark.parametrize("causal", [False, True])
def test_dropout_forward_and_backward(backend, dtype, p, causal):
    """sdpfa_bwd of sdpfa_fwd's results in one fusion: the backward's mask is
    the forward's (from the philox_seed it returned; on simt, whose path
    decomposes attention, from the forward's seed and offset)."""
    np_dtype, fd_dtype = DTYPES[dtype]
    scale = None if causal else 0.3
    fd = define_dropout(fd_dtype, p, causal, scale)
    arrays = dropout_inputs(np_dtype, 2)
    fuser_mlir.manual_seed(SEED)
    outputs = fd.validate(arrays, dropout_expected(
        arrays, np_dtype, p, causal, 1 / math.sqrt(E) if scale is None else scale, SEED, 0),
        backend=backend)
    assert fuser_mlir.get_rng_state() == (SEED, 4)
    assert [a.dtype for a in outputs[4:]] == [np.dtype(np_dtype)] * 3


def test_dropout_backward_alone_on_simt_is_refused():
    """THE DOCUMENTED LIMIT, not a wrong result: the SIMT (CUDA) path
    decomposes attention into gemms (fuser-decompose-attention), and an
    sdpfa_bwd with dropout whose philox_seed is an input (Thunder's backward
    fusion) has its seed and offset in a tensor, which fuser.uniform cannot
    take: refused, the error naming dropout. With its forward in the fusion
    it runs (test_dropout_forward_and_backward)."""
    with FusionDefinition() as fd:
        go, q, k, v, o = (fd.define_tensor(shape=shape, dtype=DataType.Float) for shape in
                          ([N, H, L, EV], [N, H, L, E], [N, H, S, E], [N, H, S, EV],
                           [N, H, L, EV]))
        lse = fd.define_tensor(shape=[N, H, L], dtype=DataType.Float)
        tseed = fd.define_tensor(shape=[2], dtype=DataType.UInt64)
        toffset = fd.define_tensor(shape=[], dtype=DataType.UInt64)
        for t in fd.ops.sdpfa_bwd(go, q, k, v, o, lse, 0.3, True, tseed, toffset, 0.25):
            fd.add_output(t)
    rng = np.random.default_rng(3)
    arrays = [randn(rng, shape, np.float32) for shape in
              ([N, H, L, EV], [N, H, L, E], [N, H, S, E], [N, H, S, EV], [N, H, L, EV])]
    arrays.append(randn(rng, [N, H, L], np.float32))
    with pytest.raises(FusionError, match="dropout"):
        fd.execute(arrays + list(state_arrays(5, 7)), backend="simt")


@pytest.mark.parametrize("backend", ["interp", "cpu"])
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_dropout_backward_reads_the_given_philox_seed(backend, dtype):
    """sdpfa_bwd alone (Thunder's backward fusion): the seed from
    philox_seed[0], the Philox offset from philox_seed[1], a seed beyond
    int64 and an offset beyond 32 bits taken as their bits."""
    np_dtype, fd_dtype = DTYPES[dtype]
    p, scale, causal = 0.3, 0.25, True
    seed, philox_offset = 2**64 - 5, 2**33 + 7
    with FusionDefinition() as fd:
        go, q, k, v, o = (fd.define_tensor(shape=shape, dtype=fd_dtype) for shape in
                          ([N, H, L, EV], [N, H, L, E], [N, H, S, E], [N, H, S, EV],
                           [N, H, L, EV]))
        lse = fd.define_tensor(shape=[N, H, L], dtype=DataType.Float)
        tseed = fd.define_tensor(shape=[2], dtype=DataType.UInt64)
        toffset = fd.define_tensor(shape=[], dtype=DataType.UInt64)
        for t in fd.ops.sdpfa_bwd(go, q, k, v, o, lse, p, causal, tseed, toffset, scale):
            fd.add_output(t)
    rng = np.random.default_rng(17)
    aq, ak, av, ago = (randn(rng, shape, np_dtype) for shape in
                       ([N, H, L, E], [N, H, S, E], [N, H, S, EV], [N, H, L, EV]))
    keep, r = dropout_keep(seed, philox_offset, [N, H, L, S], p), dropout_scale(p)
    o64, lse64, _ = forward(aq, ak, av, scale, causal=causal, keep=keep, r=r)
    ao, alse = o64.astype(np_dtype), lse64.astype(np.float32)
    # The reference reads the rounded output and logsumexp the fusion reads.
    expected = backward(ago, aq, ak, av, ao, alse, scale, causal, keep, r)
    state = fuser_mlir.get_rng_state()
    given = fd.validate([ago, aq, ak, av, ao, alse, *state_arrays(seed, philox_offset)],
                        [g.astype(np_dtype) for g in expected], backend=backend)
    # The backward draws nothing from the generator.
    assert fuser_mlir.get_rng_state() == state
    # Another seed (philox_seed[0]) or Philox offset (philox_seed[1]) is
    # another mask.
    for other_seed, other_offset in ((seed - 1, philox_offset), (seed, philox_offset + 1)):
        keep_other = dropout_keep(other_seed, other_offset, [N, H, L, S], p)
        expected_other = backward(ago, aq, ak, av, ao, alse, scale, causal, keep_other, r)
        other = fd.validate([ago, aq, ak, av, ao, alse, *state_arrays(other_seed, other_offset)],
                            [g.astype(np_dtype) for g in expected_other], backend=backend)
        assert not np.array_equal(other[2], given[2])


@pytest.mark.parametrize("backend", BACKENDS)
def test_dropout_five_dims(backend):
    """The row-major index of a 5-D score [b, i, h, L, S] picks the draw."""
    shapes = ([2, 3, 2, 4, 5], [2, 3, 2, 6, 5], [2, 3, 2, 6, 3])
    fd = define_dropout(DataType.Float, 0.4, False, 0.5, backward=False, shapes=shapes)
    arrays = dropout_inputs(np.float32, 5, shapes, backward=False)
    fuser_mlir.set_rng_state((SEED + 1, 4 * 3))
    fd.validate(arrays, dropout_expected(arrays, np.float32, 0.4, False, 0.5, SEED + 1, 3,
                                         with_backward=False), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_dropout_runs_reproduce_after_reseeding(backend):
    """The same seed gives the same results bit for bit; a second execute
    without reseeding draws at the next offset (another mask); a returned
    philox_seed is the generator's state before its run."""
    fd = define_dropout(DataType.Float, 0.5, True, None, backward=backend != "simt")
    arrays = dropout_inputs(np.float32, 6, backward=backend != "simt")
    fuser_mlir.manual_seed(SEED + 2)
    first = fd.execute(arrays, backend=backend)
    second = fd.execute(arrays, backend=backend)
    assert fuser_mlir.get_rng_state() == (SEED + 2, 8)
    np.testing.assert_array_equal(first[2], np.array([SEED + 2, 0], np.uint64))
    np.testing.assert_array_equal(second[2], np.array([SEED + 2, 1], np.uint64))
    assert not np.array_equal(first[0], second[0])
    fuser_mlir.manual_seed(SEED + 2)
    again = fd.execute(arrays, backend=backend)
    for a, b in zip(again, first):
        np.testing.assert_array_equal(a, b)
    # The logsumexp does not depend on the mask.
    np.testing.assert_array_equal(first[1], second[1])


def test_dropout_without_draws_and_as_a_scalar_input():
    """dropout_p 0 draws nothing (philox_seed zeros); dropout_p as a Scalar
    input: its value at execute decides, a positive one computing what the
    constant does and drawing once."""
    arrays = dropout_inputs(np.float32, 7)
    zero = define_dropout(DataType.Float, 0.0, False, 0.3)
    fuser_mlir.manual_seed(SEED + 3)
    outputs = zero.execute(arrays, backend="cpu")
    assert fuser_mlir.get_rng_state() == (SEED + 3, 0)
    np.testing.assert_array_equal(outputs[2], np.zeros(2, np.uint64))
    scalar = define_dropout(DataType.Float, None, False, 0.3, p_input=True)
    constant = define_dropout(DataType.Float, 0.25, False, 0.3)
    fuser_mlir.manual_seed(SEED + 3)
    given = scalar.execute(arrays + [0.25], backend="cpu")
    fuser_mlir.manual_seed(SEED + 3)
    fixed = constant.execute(arrays, backend="cpu")
    for a, b in zip(given, fixed):
        np.testing.assert_array_equal(a, b)
    assert fuser_mlir.get_rng_state() == (SEED + 3, 4)
    scalar.validate(arrays + [0.25], dropout_expected(arrays, np.float32, 0.25, False, 0.3,
                                                      SEED + 3, 1), backend="interp")
    np.testing.assert_array_equal(scalar.execute(arrays + [0.0], backend="cpu")[2],
                                  np.zeros(2, np.uint64))
    assert fuser_mlir.get_rng_state() == (SEED + 3, 8)


@pytest.mark.parametrize("backend", BACKENDS)
def test_dropout_ops_of_one_definition_take_consecutive_offsets(backend):
    """Two sdpfa_fwd with dropout and an unseeded uniform in one definition:
    three draws, the Philox offsets offset / 4 .. offset / 4 + 2 (one each;
    _generator.py's contract for ops without seed and offset)."""
    q_shape, k_shape, v_shape = [1, 2, 3, 4], [1, 2, 5, 4], [1, 2, 5, 2]
    with FusionDefinition() as fd:
        q, k, v = (fd.define_tensor(shape=shape) for shape in (q_shape, k_shape, v_shape))
        first = fd.ops.sdpfa_fwd(q, k, v, dropout_p=0.5)
        fd.add_output(fd.ops.uniform(0.0, 1.0, [7]))
        second = fd.ops.sdpfa_fwd(q, k, v, dropout_p=0.5)
        for t in (first[0], first[2], second[0], second[2]):
            fd.add_output(t)
    arrays = dropout_inputs(np.float32, 9, (q_shape, k_shape, v_shape), backward=False)
    fuser_mlir.set_rng_state((SEED + 4, 4 * 10))
    uniform, o1, seed1, o2, seed2 = fd.execute(arrays, backend=backend)
    assert fuser_mlir.get_rng_state() == (SEED + 4, 4 * 13)
    offsets = {int(seed1[1]), int(seed2[1])}
    assert int(seed1[0]) == int(seed2[0]) == SEED + 4
    uniform_offset = ({10, 11, 12} - offsets).pop()
    assert offsets | {uniform_offset} == {10, 11, 12}
    np.testing.assert_array_equal(uniform, uniform01_f32_at(SEED + 4, uniform_offset, 7))
    for o, seed in ((o1, seed1), (o2, seed2)):
        expected = dropout_expected(arrays, np.float32, 0.5, False, 0.5, SEED + 4,
                                    int(seed[1]), with_backward=False)[0]
        np.testing.assert_allclose(o, expected, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("p", [0.1, 0.5])
def test_dropout_mask_read_back(p):
    """The mask itself, read back exactly from a 64 x 64 x 64 score: q = 0
    (every probability 1/S), v the identity, so output[h, l, s] = keep r / S;
    the backward's dV = z^T dO with dO the identity, so dV[h, s, l] =
    keep[h, l, s] r / S. Both masks equal numpy's bit for bit, and the kept
    fraction is within 4 standard deviations of 1 - p."""
    heads, n = 64, 64
    eye = np.broadcast_to(np.eye(n, dtype=np.float32), (1, heads, n, n)).copy()
    q = np.zeros((1, heads, n, 2), np.float32)
    k = np.ones((1, heads, n, 2), np.float32)
    shapes = (list(q.shape), list(k.shape), list(eye.shape))
    fd = define_dropout(DataType.Float, p, False, None, shapes=shapes)
    fuser_mlir.set_rng_state((SEED + 5, 4 * 2))
    o, _, seed, _, _, _, dv = fd.execute([q, k, eye, eye], backend="cpu")
    np.testing.assert_array_equal(seed, np.array([SEED + 5, 2], np.uint64))
    expected = dropout_keep(SEED + 5, 2, [1, heads, n, n], p)
    forward_keep = o > 0
    backward_keep = np.swapaxes(dv, -1, -2) > 0
    np.testing.assert_array_equal(forward_keep, expected)
    np.testing.assert_array_equal(backward_keep, expected)
    r = dropout_scale(p)
    np.testing.assert_allclose(o[forward_keep], r / n, rtol=1e-6)
    count = expected.size
    kept = int(expected.sum())
    assert abs(kept - count * (1 - p)) < 4 * math.sqrt(count * p * (1 - p))
