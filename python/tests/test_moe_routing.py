"""An MoE router as nvFuser programs spell it (issue 46): softmax of the
router logits, topk experts per token, a stable argsort of the chosen
expert ids (tokens grouped by expert), tokens per expert counted as the sum
of a one-hot scatter, and their cumsum (each expert's end offset). Against
numpy on the interpreter, the CPU backend and the SIMT emulator, and its
segmentation: the one-hot sum becomes a scatter-add (fuser-preseg's
SumOfOneHotToScatterAdd, nvFuser's TranslateScatterAccumulate), so no
[tokens * k, experts] tensor is written, and the fusion is five kernels,
the fewest the kernel templates allow (a normalization, two argsorts and a
scatter are kernels of their own, and the cumsum reads the scatter's
result)."""
import ml_dtypes
import numpy as np
import pytest

from fuser_mlir.nvfuser_direct import DataType, FusionDefinition

BACKENDS = ["interp", "cpu", "simt"]


def router(tokens, experts, k):
    with FusionDefinition() as fd:
        logits = fd.define_tensor(shape=[-1, -1], dtype=DataType.BFloat16)
        x = fd.ops.cast(logits, DataType.Float)
        e = fd.ops.exp(fd.ops.sub(x, fd.ops.max(x, dims=[1], keepdim=True)))
        probs = fd.ops.div(e, fd.ops.sum(e, dims=[1], keepdim=True))
        weights, ids = fd.ops.topk(probs, k, dim=1, largest=True, sorted=True)
        flat = fd.ops.reshape(ids, [tokens * k])
        order = fd.ops.argsort(flat, dim=0, stable=True)
        zero = fd.define_scalar(0, dtype=DataType.Int)
        one = fd.define_scalar(1, dtype=DataType.Int)
        hot = fd.ops.scatter(fd.ops.full([tokens * k, experts], zero, DataType.Int),
                             fd.ops.reshape(flat, [tokens * k, 1]), one, 1)
        offsets = fd.ops.cumsum(fd.ops.sum(hot, dims=[0]), 0)
        fd.add_output(fd.ops.cast(weights, DataType.BFloat16))
        fd.add_output(order)
        fd.add_output(offsets)
    return fd


def reference(logits, k):
    x = logits.astype(np.float64)
    probs = np.exp(x - x.max(1, keepdims=True))
    probs /= probs.sum(1, keepdims=True)
    # Distinct logits per row: the order of the probabilities is theirs.
    ids = np.argsort(-x, axis=1, kind="stable")[:, :k]
    flat = ids.reshape(-1)
    counts = np.bincount(flat, minlength=logits.shape[1])
    return (np.take_along_axis(probs, ids, 1), np.argsort(flat, kind="stable"),
            np.cumsum(counts))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("tokens, experts, k", [(1, 8, 2), (37, 8, 2), (64, 16, 4)])
def test_router_against_numpy(backend, tokens, experts, k):
    rng = np.random.default_rng(tokens)
    # Distinct bf16 logits in each row (a shuffled ladder of steps of 1/8).
    steps = np.stack([rng.permutation(experts) for _ in range(tokens)]) / 8.0 - 1.0
    logits = steps.astype(ml_dtypes.bfloat16)
    weights, order, offsets = router(tokens, experts, k).execute([logits], backend=backend)
    want_weights, want_order, want_offsets = reference(np.asarray(logits, np.float32), k)
    np.testing.assert_allclose(np.asarray(weights, np.float64), want_weights, rtol=2 ** -8)
    np.testing.assert_array_equal(order, want_order)
    np.testing.assert_array_equal(offsets, want_offsets)
    assert offsets[-1] == tokens * k


def test_router_segments():
    tokens, experts, k = 37, 8, 2
    segments = router(tokens, experts, k).segments(shapes=[[tokens, experts]])
    # Softmax, the topk (its argsort, the slice of the first k ids and the
    # gather of the weights with their cast: one selection kernel; the ids
    # flattened are a view of what it writes, read by the next two), the
    # argsort of the ids, the scatter-add of the counts, and their cumsum.
    assert [s.kind for s in segments] == ["normalization"] + ["pointwise"] * 4
    written = [o["shape"] for s in segments for o in s.outputs]
    assert (tokens * k, experts) not in written
    assert (experts,) in written
    assert (tokens, k) in written and (tokens * k,) in written
