"""sdpfa_fwd and sdpfa_bwd as nvFuser's own tests and Lightning Thunder's
SDPA backward call them (issue 47):

- dropout_p, is_causal and scale given as Scalar inputs (define_scalar
  without a value, the value at execute) or as expressions of them: the
  fuser ops hold them as attributes, so the definition is specialized on
  their values (one compiled variant per value, as per extent), and the
  results are checked against numpy in f64 for each value;
- the Philox seed and offset as DataType.UInt64 tensors (torch >= 2.7's
  uint64[2] and uint64): inputs of sdpfa_bwd, sdpfa_fwd's results (returned
  as uint64 arrays), fed from one fusion into another; any other use of a
  UInt64 tensor is refused (fuser IR has no unsigned integers);
- repr(fd) as nvFuser 0.2.36 prints these definitions (its text, recorded
  from the nvfuser-cu128-torch210 wheel), and nvFuser's definition errors
  for options of the wrong dtype.
"""
import math

import numpy as np
import pytest

import fuser_mlir
from fuser_mlir import DataType, FusionDefinition, FusionError, FusionTypeError
from fuser_mlir import nvfuser_direct
from fuser_mlir._errors import FusionNotImplementedError
from fuser_mlir._states import UnsupportedDTypeError
from test_sdpfa import reference

N, H, L, S, E = 2, 3, 5, 7, 4
RNG = np.random.default_rng(47)
Q, K, V, GO = (RNG.standard_normal(shape).astype(np.float32)
               for shape in ([N, H, L, E], [N, H, S, E], [N, H, S, E], [N, H, L, E]))


def tensor(fd, rank=4, dtype=DataType.Float):
    return fd.define_tensor(shape=[-1] * rank, contiguity=True, dtype=dtype, is_cpu=False)


def philox_inputs(fd):
    """The Philox state as nvFuser's tests define it for torch >= 2.7
    (define_sdpa_rng_state)."""
    return (fd.define_tensor(shape=[2], dtype=DataType.UInt64, is_cpu=False),
            fd.define_tensor(shape=[], dtype=DataType.UInt64, is_cpu=False))


def option_inputs(fd):
    return (fd.define_scalar(value=None, dtype=DataType.Double),
            fd.define_scalar(value=None, dtype=DataType.Bool),
            fd.define_scalar(value=None, dtype=DataType.Double))


def forward_backward():
    """test_sdpa_fwd_bwd's definition with all three options as inputs."""
    with FusionDefinition() as fd:
        q, k, v, go = (tensor(fd) for _ in range(4))
        dropout_p, is_causal, scale = option_inputs(fd)
        o, lse, seed, offset = fd.ops.sdpfa_fwd(q, k, v, dropout_p=dropout_p,
                                                is_causal=is_causal, scale=scale)
        grads = fd.ops.sdpfa_bwd(go, q, k, v, o, lse, dropout_p, is_causal, seed, offset,
                                 scale)
        for t in (o, lse, seed, offset) + tuple(grads):
            fd.add_output(t)
    return fd


def assert_matches(outputs, causal, scale, with_state=True):
    o, lse, dq, dk, dv = reference(Q, K, V, GO, causal, scale)
    expected = [o, lse] + ([None, None] if with_state else []) + [dq, dk, dv]
    for got, want in zip(outputs, expected):
        if want is not None:
            np.testing.assert_allclose(got.astype(np.float64), want, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("backend", ["interp", "cpu"])
def test_scalar_inputs_give_each_value_its_fusion(backend):
    """Each (causal, scale) computes what numpy does with those values; a
    value seen before runs its compiled variant again."""
    fd = forward_backward()
    before = fd.cache_info()  # the cache is the process's, shared by equal definitions
    values = [(False, 0.3), (True, 0.3), (True, 1e-3), (False, 1 / math.sqrt(E))]
    for causal, scale in values + values[:2]:
        outputs = fd.execute([Q, K, V, GO, 0.0, causal, scale], backend=backend)
        assert_matches(outputs, causal, scale)
        # The Philox state: nvFuser's uint64[2] and uint64, zeros without dropout.
        assert outputs[2].dtype == np.uint64 and outputs[2].shape == (2,)
        assert outputs[3].dtype == np.uint64 and outputs[3].shape == ()
        np.testing.assert_array_equal(outputs[2], 0)
    after = fd.cache_info()
    assert (after.hits - before.hits, after.misses - before.misses) == (2, 4)
    # The variants differ where the values do: causal masks the first row's
    # keys after the first, so its output is that key's value row.
    causal_first = fd.execute([Q, K, V, GO, 0.0, True, 0.3], backend=backend)[0][:, :, 0]
    np.testing.assert_allclose(causal_first, V[:, :, 0], rtol=1e-6)


def test_options_as_expressions_of_inputs():
    """scale = 1 / sqrt(e) and is_causal = n > 0 of scalar inputs (nvFuser's
    ops on Scalars), evaluated with the inputs' values."""
    with FusionDefinition() as fd:
        q, k, v, go = (tensor(fd) for _ in range(4))
        e = fd.define_scalar(value=None, dtype=DataType.Double)
        n = fd.define_scalar(value=None, dtype=DataType.Int)
        scale = fd.ops.reciprocal(fd.ops.sqrt(e))
        causal = fd.ops.gt(n, 0)
        o, lse, seed, offset = fd.ops.sdpfa_fwd(q, k, v, is_causal=causal, scale=scale)
        for t in (o, lse) + tuple(fd.ops.sdpfa_bwd(go, q, k, v, o, lse, None, causal, seed,
                                                   offset, scale)):
            fd.add_output(t)
    for e_value, n_value in ((4.0, 1), (9.0, 0), (4.0, 0)):
        outputs = fd.execute([Q, K, V, GO, e_value, n_value], backend="cpu")
        assert_matches(outputs, n_value > 0, 1 / math.sqrt(e_value), with_state=False)
    assert fd.cache_info().misses == 3


def test_integer_scale_and_dropout_inputs():
    """nvFuser takes an Int dropout_p or scale (cast to Double)."""
    with FusionDefinition() as fd:
        q, k, v = (tensor(fd) for _ in range(3))
        p = fd.define_scalar(value=None, dtype=DataType.Int)
        scale = fd.define_scalar(value=None, dtype=DataType.Int)
        fd.add_output(fd.ops.sdpfa_fwd(q, k, v, dropout_p=p, scale=scale)[0])
    (out,) = fd.execute([Q, K, V, 0, 2], backend="cpu")
    np.testing.assert_allclose(out, reference(Q, K, V, GO, False, 2.0)[0], rtol=2e-5, atol=2e-5)


def test_dropout_input_draws_from_the_generator():
    """dropout_p given at execute: 0 draws nothing and returns a zero Philox
    state; 0.2 draws the generator's seed and offset (returned as
    philox_seed) and the backends agree on its mask."""
    fd = forward_backward()
    before = fuser_mlir.get_rng_state()
    plain = fd.execute([Q, K, V, GO, 0.0, False, 0.3], backend="cpu")
    assert fuser_mlir.get_rng_state() == before
    assert plain[2].tolist() == [0, 0]
    runs = {}
    for backend in ("interp", "cpu"):
        fuser_mlir.set_rng_state(before)
        runs[backend] = fd.execute([Q, K, V, GO, 0.2, False, 0.3], backend=backend)
    seed, offset = before
    assert runs["cpu"][2].tolist() == [seed, offset // 4]
    for got, want in zip(runs["cpu"], runs["interp"]):
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                                   rtol=2e-5, atol=2e-5)
    assert not np.allclose(runs["cpu"][0], plain[0])


def test_philox_state_from_one_fusion_into_another():
    """Thunder's pattern: the forward fusion returns the Philox state
    (uint64), the backward fusion takes it as UInt64 inputs."""
    with FusionDefinition() as fwd:
        q, k, v = (tensor(fwd) for _ in range(3))
        for t in fwd.ops.sdpfa_fwd(q, k, v, is_causal=True):
            fwd.add_output(t)
    with FusionDefinition() as bwd:
        go, q, k, v, o = (tensor(bwd) for _ in range(5))
        lse = tensor(bwd, 3)
        seed, offset = philox_inputs(bwd)
        p, causal, scale = option_inputs(bwd)
        for t in bwd.ops.sdpfa_bwd(go, q, k, v, o, lse, p, causal, seed, offset, scale):
            bwd.add_output(t)
    o, lse, seed, offset = fwd.execute([Q, K, V])
    assert (seed.dtype, offset.dtype) == (np.uint64, np.uint64)
    grads = bwd.execute([GO, Q, K, V, o, lse, seed, offset, 0.0, True, 1 / math.sqrt(E)])
    assert_matches([o, lse] + grads, True, 1 / math.sqrt(E), with_state=False)
    # Any uint64 bits are taken (the state is not read without dropout).
    state = np.array([2**64 - 1, 2**63], np.uint64), np.array(2**63 + 5, np.uint64)
    again = bwd.execute([GO, Q, K, V, o, lse, *state, 0.0, True, 1 / math.sqrt(E)])
    for a, b in zip(again, grads):
        np.testing.assert_array_equal(a, b)
    # An int64 array is not a uint64 one.
    with pytest.raises(FusionTypeError, match=r"inputs\[6\]: expected dtype uint64, got int64"):
        bwd.execute([GO, Q, K, V, o, lse, seed.view(np.int64), offset, 0.0, True, 0.5])


def test_philox_state_from_torch():
    """torch.uint64 tensors in, torch.uint64 tensors out."""
    torch = pytest.importorskip("torch")
    with FusionDefinition() as fd:
        go, q, k, v, o = (tensor(fd) for _ in range(5))
        lse = tensor(fd, 3)
        seed, offset = philox_inputs(fd)
        for t in fd.ops.sdpfa_bwd(go, q, k, v, o, lse, None, None, seed, offset, None):
            fd.add_output(t)
        fd.add_output(seed)
    o, lse = reference(Q, K, V, GO, False, 1 / math.sqrt(E))[:2]
    state = (torch.tensor([2**63 + 1, 3], dtype=torch.uint64),
             torch.tensor(7, dtype=torch.uint64))
    outputs = fd.execute([torch.from_numpy(a) for a in (GO, Q, K, V)] +
                         [torch.from_numpy(o.astype(np.float32)),
                          torch.from_numpy(lse.astype(np.float32)), *state])
    assert outputs[3].dtype == torch.uint64
    assert outputs[3].view(torch.int64).tolist() == state[0].view(torch.int64).tolist()
    expected = reference(Q, K, V, GO, False, 1 / math.sqrt(E))[2:]
    for got, want in zip(outputs[:3], expected):
        np.testing.assert_allclose(got.numpy().astype(np.float64), want, rtol=2e-5, atol=2e-5)


def test_uint64_tensor_dtype_and_passthrough():
    with FusionDefinition() as fd:
        seed, offset = philox_inputs(fd)
        x = tensor(fd, 1)
        fd.add_output(fd.ops.neg(x))
        fd.add_output(seed)
        assert seed.dtype == DataType.UInt64
        q = tensor(fd)
        results = fd.ops.sdpfa_fwd(q, q, q)
        assert [t.dtype for t in results[2:]] == [DataType.UInt64, DataType.UInt64]
        assert results[2].ndim == 1 and results[3].ndim == 0
    state = np.array([2**64 - 2, 1], np.uint64)
    out = fd.execute([state, np.array(0, np.uint64), np.ones(3, np.float32),
                      np.ones((1, 1, 2, 2), np.float32)])
    np.testing.assert_array_equal(out[0], -np.ones(3))
    assert out[1].dtype == np.uint64
    np.testing.assert_array_equal(out[1], state)
    # nvfuser_direct's dtype() is a method.
    with nvfuser_direct.FusionDefinition() as fd:
        seed = fd.define_tensor(shape=[2], dtype=nvfuser_direct.DataType.UInt64)
        assert seed.dtype() == nvfuser_direct.DataType.UInt64
        fd.add_output(seed)


@pytest.mark.parametrize("use", [
    lambda fd, u, q: fd.ops.add(u, u),
    lambda fd, u, q: fd.ops.cast(u, DataType.Float),
    lambda fd, u, q: fd.ops.sum(u, [0]),
    lambda fd, u, q: fd.ops.set(u),
    lambda fd, u, q: u + 1,
    lambda fd, u, q: fd.add_output(q, alias_input=u),
    lambda fd, u, q: fd.ops.sdpfa_fwd(q, q, q)[2] * 2,
], ids=["add", "cast", "sum", "set", "operator", "alias", "fwd_seed"])
def test_other_uses_of_uint64_are_refused(use):
    """nvFuser takes UInt64 tensors in any op; fuser IR has no unsigned
    integers, so fuser_mlir carries sdpfa's Philox state as int64 of the
    same bits and takes a UInt64 tensor only where those bits are all
    that matters: a RuntimeError (nvFuser's kind) and a NotImplementedError."""
    with FusionDefinition() as fd:
        u = fd.define_tensor(shape=[2], dtype=DataType.UInt64)
        q = tensor(fd)
        with pytest.raises(UnsupportedDTypeError,
                           match=r"T\d+ is a DataType.UInt64 tensor, which fuser_mlir takes only "
                                 r"as sdpfa_bwd's philox_seed or philox_offset or as a fusion "
                                 r"output") as raised:
            use(fd, u, q)
        assert isinstance(raised.value, RuntimeError)
        assert isinstance(raised.value, NotImplementedError)
        fd.add_output(q)
    # The definition is unharmed.
    np.testing.assert_array_equal(fd.execute([np.zeros(2, np.uint64), Q])[0], Q)


def test_uint64_as_attention_operand_is_refused():
    with FusionDefinition() as fd:
        go, q, k, v, o = (tensor(fd) for _ in range(5))
        lse = tensor(fd, 3)
        seed, offset = philox_inputs(fd)
        with pytest.raises(UnsupportedDTypeError, match=r"sdpfa_bwd: T6 is a DataType.UInt64"):
            fd.ops.sdpfa_bwd(go, q, k, v, o, seed, None, None, seed, offset, None)
        u = fd.define_tensor(shape=[-1] * 4, dtype=DataType.UInt64)
        with pytest.raises(UnsupportedDTypeError, match=r"sdpfa_fwd: T8 is a DataType.UInt64"):
            fd.ops.sdpfa_fwd(u, k, v)
        fd.add_output(q)


@pytest.mark.parametrize("option,dtype,message", [
    ("is_causal", DataType.Int, "Expected is_causal to be a scalar boolean"),
    ("is_causal", DataType.Double, "Expected is_causal to be a scalar boolean"),
    ("dropout_p", DataType.Bool, "Expected dropout to be a real-valued scalar"),
    ("scale", DataType.ComplexDouble, "Expected scale to be a real-valued scalar"),
])
@pytest.mark.parametrize("op", ["sdpfa_fwd", "sdpfa_bwd"])
def test_options_of_the_wrong_dtype(op, option, dtype, message):
    """nvFuser's checks (csrc/ops/composite.cpp, convertToVal), at the call."""
    with FusionDefinition() as fd:
        go, q, k, v, o = (tensor(fd) for _ in range(5))
        lse = tensor(fd, 3)
        seed, offset = philox_inputs(fd)
        options = {"dropout_p": None, "is_causal": None, "scale": None,
                   option: fd.define_scalar(value=None, dtype=dtype)}
        with pytest.raises(FusionTypeError, match=message):
            if op == "sdpfa_fwd":
                fd.ops.sdpfa_fwd(q, k, v, **options)
            else:
                fd.ops.sdpfa_bwd(go, q, k, v, o, lse, options["dropout_p"],
                                 options["is_causal"], seed, offset, options["scale"])
        fd.add_output(q)


def test_tensor_as_dropout_is_refused():
    with FusionDefinition() as fd:
        q = tensor(fd)
        with pytest.raises(FusionTypeError, match="Expected dropout to be a real-valued scalar"):
            fd.ops.sdpfa_fwd(q, q, q, dropout_p=q)
        fd.add_output(q)


@pytest.mark.parametrize("extents", [[-1] * 4, [N, H, L, E]], ids=["symbolic", "static"])
def test_option_not_evaluated_before_the_run_is_refused(extents):
    """An option computed by an op fuser_mlir has no Python evaluation of
    (exp) cannot be the op's attribute: refused at the call (nvFuser takes
    it; its ExprEval segment evaluates it at run time)."""
    with FusionDefinition() as fd:
        q = fd.define_tensor(shape=extents, dtype=DataType.Float)
        s = fd.define_scalar(value=None, dtype=DataType.Double)
        with pytest.raises(FusionNotImplementedError,
                           match=r"sdpfa_fwd's scale S\d+ is computed by fd.ops.exp, which "
                                 r"fuser_mlir does not evaluate before the fusion runs"):
            fd.ops.sdpfa_fwd(q, q, q, scale=fd.ops.exp(s))
        fd.add_output(q)


def test_mlir_holds_the_given_values():
    fd = forward_backward()
    text = fd.mlir(shapes=[[N, H, L, E], [N, H, S, E], [N, H, S, E], [N, H, L, E],
                           0.0, True, 0.25])
    assert text.count("{is_causal, scale = 2.500000e-01 : f64}") == 2


# What nvFuser 0.2.36 (nvfuser-cu128-torch210) prints for these definitions.
NVFUSER_BWD_REPR = """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv3 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv4 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv5 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv6 = fd.define_tensor(shape=[2], contiguity=[False], dtype=DataType.UInt64, is_cpu=False)
    tv7 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.UInt64, is_cpu=False)
    c26 = fd.define_scalar(None, dtype=DataType.Double)
    c27 = fd.define_scalar(None, dtype=DataType.Bool)
    c28 = fd.define_scalar(None, dtype=DataType.Double)
    tv8, tv9, tv10 = fd.ops.sdpfa_bwd(tv0, tv1, tv2, tv3, tv4, tv5, dropout_p=c26, is_causal=c27, philox_seed=tv6, philox_offset=tv7, scale=c28)
    fd.add_output(tv8)
    fd.add_output(tv9)
    fd.add_output(tv10)
"""  # noqa: E501

NVFUSER_FWD_INT_REPR = """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    c13 = fd.define_scalar(None, dtype=DataType.Int)
    c14 = fd.define_scalar(None, dtype=DataType.Int)
    c34 = fd.ops.cast(c13, dtype=DataType.Double)
    c32 = fd.ops.cast(c14, dtype=DataType.Double)
    tv3, tv4, tv5, tv6 = fd.ops.sdpfa_fwd(tv0, tv1, tv2, dropout_p=c34, is_causal=False, scale=c32)
    fd.add_output(tv3)
    fd.add_output(tv5)
    fd.add_output(tv6)
"""  # noqa: E501


def test_repr_as_nvfuser_prints_it():
    bf16 = nvfuser_direct.DataType.BFloat16
    with nvfuser_direct.FusionDefinition() as fd:
        tensors = [tensor(fd, dtype=bf16) for _ in range(5)] + [tensor(fd, 3)]
        seed, offset = philox_inputs(fd)
        p, causal, scale = option_inputs(fd)
        for t in fd.ops.sdpfa_bwd(*tensors, p, causal, seed, offset, scale):
            fd.add_output(t)
    assert repr(fd) == NVFUSER_BWD_REPR
    # The recorded calls (the legacy module's text) build the same again.
    assert "dtype=DataType.UInt64" in fd._recorded_text()
    with nvfuser_direct.FusionDefinition() as fd:
        q, k, v = (tensor(fd, dtype=bf16) for _ in range(3))
        p = fd.define_scalar(None, dtype=nvfuser_direct.DataType.Int)
        scale = fd.define_scalar(None, dtype=nvfuser_direct.DataType.Int)
        o, _, seed, offset = fd.ops.sdpfa_fwd(q, k, v, dropout_p=p, scale=scale)
        for t in (o, seed, offset):
            fd.add_output(t)
    assert repr(fd) == NVFUSER_FWD_INT_REPR
