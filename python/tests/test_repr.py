"""repr(fd) prints the definition as nvFuser's Python (the legacy API: the calls as
recorded; nvfuser_direct: nvFuser's translation of its IR, checked against texts
nvFuser 0.2.36 printed); running that text
builds the same fusion (the same IR at the same shapes). The definitions here
use every op of fd.ops, static and symbolic; a new op without a case fails
test_every_op_has_a_case."""
import numpy as np
import pytest

import fuser_mlir
from fuser_mlir import DataType, FusionDefinition, nvfuser_direct
from fuser_mlir import _fuser_mlir as _native
from fuser_mlir._ops import BINARY_OPS, TERNARY_OPS, UNARY_OPS, Ops

_CLASSES = _native.elementwise_operand_classes()


def INTEGER_ONLY(name):
    return _CLASSES.get(name) in ("integer", "integral")


def every_op(fd, n):
    """A fusion over two tensors of extents n (a list: ints or -1)."""
    a = fd.define_tensor(shape=[n[0], n[1]], contiguity=[True, True], dtype=DataType.Float)
    b = fd.define_tensor(shape=[n[1]], dtype=DataType.Float)
    s = fd.define_scalar(None, dtype=DataType.Double)
    k = fd.define_scalar(3, dtype=DataType.Int)
    ai = fd.ops.cast(a, DataType.Int)
    out = []
    for name in UNARY_OPS:
        out.append(getattr(fd.ops, name)(ai if INTEGER_ONLY(name) else a))
    wide = fd.ops.broadcast_in_dim(b, shape=fd.ops.shape(a), broadcast_dims=[1])
    wide_int = fd.ops.cast(wide, DataType.Int)
    for name in BINARY_OPS + ["truediv"]:
        out.append(getattr(fd.ops, name)(ai, wide_int) if INTEGER_ONLY(name)
                   else getattr(fd.ops, name)(a, wide))
    for name in TERNARY_OPS:
        bounds = (wide, wide) if name == "lerp" else (0.0, s)
        out.append(getattr(fd.ops, name)(a, *bounds))
    out.append(fd.ops.mul(a, s))
    out.append(fd.ops.where(fd.ops.gt(a, 0.5), a, float("inf")))
    out.append(fd.ops.cast(a, DataType.Half))
    out.append(fd.ops.full([a.size(0), k], fd.ops.cast(1, DataType.Float), DataType.Float))
    out.append(fd.ops.reshape(a, [fd.ops.mul(a.size(0), a.size(1))]))
    out.append(fd.ops.view(a, [-1]))
    unit = fd.ops.broadcast(b, [True, False])
    out.append(fd.ops.squeeze(unit, [0]))
    out.append(fd.ops.expand(unit, shape=fd.ops.shape(a)))
    out.append(fd.ops.permute(a, [1, 0]))
    out.append(fd.ops.stride_order(a, [0, 1]))
    out.append(fd.ops.set(a))
    out.append(fd.ops.segment_set(a))
    out.append(fd.ops.slice(a, [0, 1], [1, 2], [1, 1]))
    out.append(fd.ops.pad(a, [1, 1], 0.0))
    out.append(fd.ops.cat([a, a], dim=0))
    for reduction in ("sum", "prod", "max", "min"):
        out.append(getattr(fd.ops, reduction)(a, dims=[1], keepdim=True))
    out.append(fd.ops.sum(a, dims=[0], dtype=DataType.Double))
    out.extend(fd.ops.var_mean(a, [1], correction=0, keepdim=True))
    out.append(fd.ops.var(a, [0]))
    out.extend(fd.ops.welford(a, [1]))
    out.append(fd.ops.addcmul(a, a, wide, 0.5))
    z = fd.ops.complex(a, wide)
    out.extend([fd.ops.real(z), fd.ops.imag(z), fd.ops.abs(fd.ops.mul(z, 2.0))])
    out.append(fd.ops.tensor_sizes(a)[0] * a)
    out.append(fd.ops.size(a, 1) + a)
    for t in out:
        fd.add_output(t)


# Ops with a case in every_op, in test_generation_random_indexing_texts (the
# generation, random and indexing ops; arange and eye print as the iotas
# they are made of, test_generation_ops.py), in test_scan_ops.py and
# test_sort_ops.py (scans and sorts), test_scatter_ops.py (scatter),
# test_grouped_mm.py (grouped_mm's text, nvFuser's, and its run again) or, for
# the library ops (sdpfa_fwd and sdpfa_bwd too), topk and
# index_put_accumulate, which the translation to nvFuser's text does not model yet, in
# test_untranslated_ops_print_the_recorded_calls, beyond the generated
# elementwise ones.
COVERED = {"where", "cast", "full", "reshape", "view", "squeeze", "broadcast", "expand",
           "broadcast_in_dim", "permute", "stride_order", "size", "shape", "tensor_sizes",
           "set", "segment_set", "slice", "pad", "cat", "sum", "prod", "max", "min",
           "var", "var_mean", "welford", "addcmul", "complex", "real", "imag", "iota",
           "triu", "uniform", "normal", "gather", "take_along_axis", "index_select",
           "select", "embedding_fwd", "rand_like", "randn_like", "matmul", "linear",
           "cumsum", "cumprod", "cummax", "cummin", "argsort", "topk",
           "arange", "eye", "scatter", "index_put_accumulate", "sdpfa_fwd", "sdpfa_bwd",
           "grouped_mm"}


def test_every_op_has_a_case():
    public = {name for name in dir(Ops) if not name.startswith("_")}
    assert public - set(UNARY_OPS) - set(BINARY_OPS) - set(TERNARY_OPS) - {"truediv"} == COVERED


def test_untranslated_ops_print_the_recorded_calls():
    with nvfuser_direct.FusionDefinition() as fd:
        a = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        fd.add_output(fd.ops.matmul(a, fd.ops.permute(a, [1, 0])))
        fd.add_output(fd.ops.linear(a, a, fd.ops.sum(a, [1])))
        fd.add_output(fd.ops.topk(a, 2, dim=1)[1])
        rows = fd.define_tensor(shape=[-1], dtype=DataType.Int)
        fd.add_output(fd.ops.index_put_accumulate(a, rows, a))
        q = fd.define_tensor(shape=[1, 2, 3, 4], dtype=DataType.Float)
        o, lse, seed, offset = fd.ops.sdpfa_fwd(q, q, q, is_causal=True)
        fd.add_output(o)
        fd.add_output(fd.ops.sdpfa_bwd(q, q, q, q, o, lse, 0.0, True, seed, offset, 0.5)[0])
    text = repr(fd)
    assert text == fd._recorded_text()
    for name in ("matmul", "linear", "topk", "index_put_accumulate", "sdpfa_fwd", "sdpfa_bwd"):
        assert "fd.ops.%s(" % name in text
    again = rebuilt(text, nvfuser_direct)
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)
    inputs = [x, np.array([2, 0, 2, 3]), np.linspace(-1, 1, 24, dtype=np.float32).reshape(1, 2, 3, 4)]
    for mine, theirs in zip(fd.execute(inputs), again.execute(inputs)):
        np.testing.assert_array_equal(mine, theirs)


# Generation, random and indexing ops: nvFuser 0.2.36's repr(fd) of the same
# definitions (build/nvfuser-venv), byte for byte; each text runs again on
# fuser_mlir and computes what the definition does.
def _nvfuser_texts():
    D = DataType
    def c_uniform(fd):
        t0 = fd.define_tensor(shape=[-1, -1], dtype=D.Float)
        s = fd.define_scalar(D.Int); o = fd.define_scalar(D.Int)
        fd.add_output(fd.ops.uniform(0.3, 1.7, [5, 9], rng_seed=s, rng_offset=o))
        fd.add_output(fd.ops.uniform(0.0, 1.0, t0.shape(), dtype=D.Half))
        fd.add_output(fd.ops.normal(0.0, 1.0, [4], dtype=D.Double))
        fd.add_output(fd.ops.normal(fd.define_scalar(3.7), fd.define_scalar(2.5), t0.shape(), dtype=D.Double))
        fd.add_output(fd.ops.mul(t0, fd.ops.uniform(0.3, 1.7, [2, 3])))
    def c_like(fd):
        t0 = fd.define_tensor(shape=[-1, 3], dtype=D.BFloat16)
        fd.add_output(fd.ops.rand_like(t0)); fd.add_output(fd.ops.randn_like(t0))
    def c_triu(fd):
        t0 = fd.define_tensor(shape=[-1, -1], dtype=D.Float)
        fd.add_output(fd.ops.triu(t0, 1))
    def c_triu_static(fd):
        t0 = fd.define_tensor(shape=[2, 4, 3], dtype=D.Float)
        fd.add_output(fd.ops.triu(t0))
    def c_index_select(fd):
        a = fd.define_tensor(shape=[-1, -1], dtype=D.Float)
        i = fd.define_tensor(shape=[-1], dtype=D.Int)
        fd.add_output(fd.ops.index_select(a, i, 0))
        fd.add_output(fd.ops.index_select(a, i, -1))
    def c_static(fd):
        a = fd.define_tensor(shape=[4, 3], contiguity=[True, True], dtype=D.Float)
        i = fd.define_tensor(shape=[2], contiguity=[True], dtype=D.Int)
        j = fd.define_tensor(shape=[4, 2], contiguity=[True, True], dtype=D.Int)
        fd.add_output(fd.ops.index_select(a, i, 1))
        fd.add_output(fd.ops.take_along_axis(a, j, 1))
        fd.add_output(fd.ops.gather(a, j, 1))
        fd.add_output(fd.ops.select(a, fd.define_scalar(2), 1))
        fd.add_output(fd.ops.iota(fd.ops.size(a, 0)))
    def c_select(fd):
        a = fd.define_tensor(shape=[-1, -1], dtype=D.Float)
        fd.add_output(fd.ops.select(a, fd.define_scalar(1), 1))
        s = fd.define_scalar(D.Int)
        fd.add_output(fd.ops.select(a, s, 0))
    def c_embedding2(fd):
        i = fd.define_tensor(shape=[3], dtype=D.Int)
        w = fd.define_tensor(shape=[10, 4], dtype=D.BFloat16)
        fd.add_output(fd.ops.embedding_fwd(i, w, fd.define_scalar(0)))
    return {
        'uniform': (c_uniform, (
            'def nvfuser_fusion(fd : FusionDefinition) -> None :\n'
            '    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, False], dtype=DataType.Float, is_cpu=False)\n'
            '    c3 = fd.define_scalar(None, dtype=DataType.Int)\n'
            '    c4 = fd.define_scalar(None, dtype=DataType.Int)\n'
            '    tv1 = fd.ops.uniform(0.300000, 1.70000, [5, 9], rng_seed=c3, rng_offset=c4)\n'
            '    c0 = fd.ops.size(tv0, dim=0)\n'
            '    c1 = fd.ops.size(tv0, dim=1)\n'
            '    tv2 = fd.ops.uniform(0, 1, [c0, c1], dtype=DataType.Half)\n'
            '    tv3 = fd.ops.normal(0, 1, [4], dtype=DataType.Double)\n'
            '    tv4 = fd.ops.normal(3.70000, 2.50000, [c0, c1], dtype=DataType.Double)\n'
            '    tv5 = fd.ops.uniform(0.300000, 1.70000, [2, 3])\n'
            '    tv6 = fd.ops.mul(tv0, tv5)\n'
            '    fd.add_output(tv1)\n'
            '    fd.add_output(tv2)\n'
            '    fd.add_output(tv3)\n'
            '    fd.add_output(tv4)\n'
            '    fd.add_output(tv6)\n'
        )),
        'like': (c_like, (
            'def nvfuser_fusion(fd : FusionDefinition) -> None :\n'
            '    tv0 = fd.define_tensor(shape=[-1, 3], contiguity=[False, False], dtype=DataType.BFloat16, is_cpu=False)\n'
            '    c0 = fd.ops.size(tv0, dim=0)\n'
            '    tv1 = fd.ops.uniform(0, 1, [c0, 3], dtype=DataType.BFloat16)\n'
            '    tv2 = fd.ops.normal(0, 1, [c0, 3], dtype=DataType.BFloat16)\n'
            '    fd.add_output(tv1)\n'
            '    fd.add_output(tv2)\n'
        )),
        'triu': (c_triu, (
            'def nvfuser_fusion(fd : FusionDefinition) -> None :\n'
            '    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, False], dtype=DataType.Float, is_cpu=False)\n'
            '    c0 = fd.ops.size(tv0, dim=0)\n'
            '    tv1 = fd.ops.iota(length=c0, start=0, step=1, dtype=DataType.Index)\n'
            '    tv3 = fd.ops.broadcast(tv1, is_broadcast_dim=[False, True])\n'
            '    c1 = fd.ops.size(tv0, dim=1)\n'
            '    tv2 = fd.ops.iota(length=c1, start=-1, step=1, dtype=DataType.Index)\n'
            '    tv4 = fd.ops.broadcast(tv2, is_broadcast_dim=[True, False])\n'
            '    tv5 = fd.ops.le(tv3, tv4)\n'
            '    c17 = fd.define_scalar(0.00000, dtype=DataType.Float)\n'
            '    tv6 = fd.ops.where(tv5, tv0, c17)\n'
            '    fd.add_output(tv6)\n'
        )),
        'triu_static': (c_triu_static, (
            'def nvfuser_fusion(fd : FusionDefinition) -> None :\n'
            '    tv0 = fd.define_tensor(shape=[2, 4, 3], contiguity=[False, False, False], dtype=DataType.Float, is_cpu=False)\n'
            '    tv1 = fd.ops.iota(length=4, start=0, step=1, dtype=DataType.Index)\n'
            '    tv3 = fd.ops.broadcast(tv1, is_broadcast_dim=[False, True])\n'
            '    tv2 = fd.ops.iota(length=3, start=0, step=1, dtype=DataType.Index)\n'
            '    tv4 = fd.ops.broadcast(tv2, is_broadcast_dim=[True, False])\n'
            '    tv5 = fd.ops.le(tv3, tv4)\n'
            '    tv6 = fd.ops.broadcast(tv5, is_broadcast_dim=[True, False, False])\n'
            '    c23 = fd.define_scalar(0.00000, dtype=DataType.Float)\n'
            '    tv7 = fd.ops.where(tv6, tv0, c23)\n'
            '    fd.add_output(tv7)\n'
        )),
        'index_select': (c_index_select, (
            'def nvfuser_fusion(fd : FusionDefinition) -> None :\n'
            '    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, False], dtype=DataType.Float, is_cpu=False)\n'
            '    tv1 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Int, is_cpu=False)\n'
            '    tv2 = fd.ops.broadcast(tv1, is_broadcast_dim=[False, True])\n'
            '    tv3 = fd.ops.index_select(tv0, tv2, dim=0)\n'
            '    tv4 = fd.ops.broadcast(tv1, is_broadcast_dim=[True, False])\n'
            '    tv5 = fd.ops.index_select(tv0, tv4, dim=1)\n'
            '    fd.add_output(tv3)\n'
            '    fd.add_output(tv5)\n'
        )),
        'static': (c_static, (
            'def nvfuser_fusion(fd : FusionDefinition) -> None :\n'
            '    tv0 = fd.define_tensor(shape=[4, 3], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)\n'
            '    tv1 = fd.define_tensor(shape=[2], contiguity=[True], dtype=DataType.Int, is_cpu=False)\n'
            '    tv2 = fd.define_tensor(shape=[4, 2], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)\n'
            '    tv3 = fd.ops.broadcast(tv1, is_broadcast_dim=[True, False])\n'
            '    tv4 = fd.ops.index_select(tv0, tv3, dim=1)\n'
            '    tv5 = fd.ops.take_along_axis(tv0, tv2, dim=1)\n'
            '    tv6 = fd.ops.gather(tv0, tv2, dim=1)\n'
            '    tv7 = fd.ops.select(tv0, 2, dim=1)\n'
            '    tv8 = fd.ops.iota(length=4, start=0, step=1)\n'
            '    fd.add_output(tv4)\n'
            '    fd.add_output(tv5)\n'
            '    fd.add_output(tv6)\n'
            '    fd.add_output(tv7)\n'
            '    fd.add_output(tv8)\n'
        )),
        'select': (c_select, (
            'def nvfuser_fusion(fd : FusionDefinition) -> None :\n'
            '    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, False], dtype=DataType.Float, is_cpu=False)\n'
            '    c5 = fd.define_scalar(None, dtype=DataType.Int)\n'
            '    tv1 = fd.ops.select(tv0, 1, dim=1)\n'
            '    tv2 = fd.ops.select(tv0, c5, dim=0)\n'
            '    fd.add_output(tv1)\n'
            '    fd.add_output(tv2)\n'
        )),
        'embedding2': (c_embedding2, (
            'def nvfuser_fusion(fd : FusionDefinition) -> None :\n'
            '    tv0 = fd.define_tensor(shape=[3], contiguity=[False], dtype=DataType.Int, is_cpu=False)\n'
            '    tv1 = fd.define_tensor(shape=[10, 4], contiguity=[False, False], dtype=DataType.BFloat16, is_cpu=False)\n'
            '    tv2 = fd.ops.embedding_fwd(tv0, tv1, padding_idx=0, norm_type=2.00000, scale_grad_by_freq=False, sparse=False)\n'
            '    fd.add_output(tv2)\n'
        )),
    }


def _case_inputs(name):
    import ml_dtypes
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)
    return {
        "uniform": [x[:2], 5, 2],
        "like": [x[:2].astype(ml_dtypes.bfloat16)],
        "triu": [np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5)],
        "triu_static": [np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 4, 3)],
        "index_select": [x, np.array([2, 0])],
        "static": [x, np.array([2, 0]), np.array([[2, 0], [1, 1], [0, 2], [1, 0]])],
        "select": [x, 3],
        "embedding2": [np.array([1, 0, 9]),
                       np.linspace(0, 1, 40, dtype=np.float32).reshape(10, 4)
                       .astype(ml_dtypes.bfloat16)],
    }[name]


@pytest.mark.parametrize("name", sorted(_nvfuser_texts()))
def test_generation_random_indexing_texts(name):
    build, expected = _nvfuser_texts()[name]
    with nvfuser_direct.FusionDefinition() as fd:
        build(fd)
    assert repr(fd) == "".join(expected)
    again = rebuilt(repr(fd), nvfuser_direct)
    inputs = _case_inputs(name)
    state = fuser_mlir.get_rng_state()
    mine = fd.execute(inputs)
    fuser_mlir.set_rng_state(state)  # the same draws for the text's run
    for a, b in zip(mine, again.execute(inputs)):
        np.testing.assert_array_equal(a, b)


def rebuilt(text, module):
    namespace = {"DataType": DataType, "FusionDefinition": module.FusionDefinition}
    exec(text, namespace)
    (function,) = [v for k, v in namespace.items() if k.startswith("nvfuser_fusion")]
    with module.FusionDefinition() as fd:
        function(fd)
    return fd


@pytest.mark.parametrize("module", [pytest.importorskip("fuser_mlir"), nvfuser_direct],
                         ids=["nvfuser", "nvfuser_direct"])
@pytest.mark.parametrize("extents", [[4, 3], [-1, -1]], ids=["static", "symbolic"])
def test_round_trip(module, extents):
    with module.FusionDefinition() as fd:
        every_op(fd, extents)
    text = repr(fd)
    header = "def nvfuser_fusion_id0(" if module is not nvfuser_direct else "def nvfuser_fusion("
    assert text.startswith(header + "fd : FusionDefinition) -> None :\n")
    assert str(fd) == text
    again = rebuilt(text, module)
    shapes = [[4, 3], [3], 0.5]
    if module is nvfuser_direct:
        # nvFuser's text (its IR: promotion casts, broadcast + expand spelled
        # out) builds a fusion that computes the same: the same outputs'
        # types, and the same values at these shapes.
        if text == fd._recorded_text():
            # A record the translation does not model (cat of symbolic
            # extents) prints the recorded calls.
            assert extents == [-1, -1]
            return
        assert [o.dtype() for o in again.fusion.outputs()] == \
            [o.dtype() for o in fd.fusion.outputs()]
        inputs = [np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3),
                  np.linspace(0.5, 1.5, 3, dtype=np.float32), 0.5]
        for mine, theirs in zip(fd.execute(inputs), again.execute(inputs)):
            np.testing.assert_array_equal(mine, theirs)
        return
    assert repr(again) == text
    assert again.mlir(shapes=shapes) == fd.mlir(shapes=shapes)


def test_printed_forms():
    """Inputs, constants, literals and outputs as nvFuser prints them."""
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.BFloat16,
                              stride_order=[1, 0])
        s = fd.define_scalar(DataType.Int)
        c = fd.define_scalar(2.5, dtype=DataType.Float)
        t1 = fd.ops.mul(fd.ops.cast(t0, DataType.Float), c)
        v = fd.define_vector([s, 1])
        fd.add_output(fd.ops.expand(t1, v), stride_order=[0, 1])
        fd.add_output(fd.ops.where(fd.ops.gt(t1, 0), t1, float("-inf")))
    assert repr(fd) == """\
def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    S1 = fd.define_scalar(None, dtype=DataType.Int)
    S2 = fd.define_scalar(2.5, dtype=DataType.Float)
    T3 = fd.ops.cast(T0, DataType.Float)
    T4 = fd.ops.mul(T3, S2)
    V5 = fd.define_vector([S1, 1], dtype=DataType.Int)
    T6 = fd.ops.expand(T4, shape=V5)
    fd.add_output(T6, stride_order=[0, 1])
    T8 = fd.ops.gt(T4, 0)
    T9 = fd.ops.where(T8, T4, float('-inf'))
    fd.add_output(T9)
"""


def test_repro_script_runs(tmp_path):
    """fd.repro_script_for(inputs) writes a script the runner runs."""
    import subprocess
    import sys
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        fd.add_output(fd.ops.sum(fd.ops.exp(t0), dims=[1]))
    x = np.ones((2, 5), np.float32)
    script = tmp_path / "repro.py"
    script.write_text(fd.repro_script_for([x]))
    run = subprocess.run([sys.executable, "-m", "fuser_mlir.nvfuser_compat", str(script)],
                         capture_output=True, text=True, check=True)
    assert "tensor<2x5xf32>" in run.stdout and "fuser.exp" in run.stdout



# Definitions and the exact repr(fd) text nvFuser 0.2.36 prints for them
# (nvfuser-cu128-torch210 in build/nvfuser-venv, `make check-nvfuser`): the
# first two are nvFuser's own tests (tests/python/direct/test_python_frontend.py).
def _nv_keepdim_sum(fd, DataType):
    t0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float)
    t1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float)
    c0 = fd.define_scalar(3.0)
    t4 = fd.ops.sum(fd.ops.mul(fd.ops.add(t0, t1), c0), [-1], False, DataType.Float)
    fd.add_output(t4)

def _nv_squeeze_sum(fd, DataType):
    t0 = fd.define_tensor(shape=[-1], contiguity=[True])
    t1 = fd.define_tensor(shape=[1, -1, 1], contiguity=[None, True, None])
    t2 = fd.define_tensor(shape=[-1, 1, -1], contiguity=[True, None, True])
    t3 = fd.ops.squeeze(t1, [0, -1])
    t4 = fd.ops.squeeze(t2, [-2])
    t5 = fd.ops.sum(t4, [0])
    t6 = fd.ops.mul(t0, t3)
    fd.add_output(fd.ops.mul(t6, t5))

def _nv_half_scalar_layer_norm(fd, DataType):
    x = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16)
    w = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16)
    eps = fd.define_scalar(None, dtype=DataType.Double)
    xf = fd.ops.cast(x, DataType.Float)
    var, mean = fd.ops.var_mean(xf, dims=[1], correction=0, keepdim=False)
    mean_b = fd.ops.broadcast_in_dim(mean, shape=fd.ops.shape(xf), broadcast_dims=[0])
    var_b = fd.ops.broadcast_in_dim(var, shape=fd.ops.shape(xf), broadcast_dims=[0])
    y = fd.ops.mul(fd.ops.sub(xf, mean_b), fd.ops.rsqrt(fd.ops.add(var_b, eps)))
    wb = fd.ops.broadcast_in_dim(w, shape=fd.ops.shape(xf), broadcast_dims=[1])
    fd.add_output(fd.ops.cast(fd.ops.mul(y, wb), DataType.BFloat16))

def _nv_softmax_static(fd, DataType):
    x = fd.define_tensor(shape=[4, 8], dtype=DataType.Half)
    m = fd.ops.max(x, dims=[1], keepdim=True)
    e = fd.ops.exp(fd.ops.sub(x, m))
    s = fd.ops.sum(e, dims=[1], keepdim=True)
    fd.add_output(fd.ops.cast(fd.ops.div(e, s), DataType.Half))

def _nv_shapes(fd, DataType):
    x = fd.define_tensor(shape=[2, 3, 4], dtype=DataType.Float)
    p = fd.ops.permute(x, dims=[2, 0, 1])
    r = fd.ops.reshape(p, new_shape=[4, 6])
    s = fd.ops.slice(r, start_indices=[1, 0], end_indices=[3, 6])
    fd.add_output(fd.ops.pad(s, pad_widths=[1, 1], value=0.0))

def _nv_int_ops(fd, DataType):
    a = fd.define_tensor(shape=[-1], dtype=DataType.Int32)
    b = fd.define_scalar(None, dtype=DataType.Int)
    fd.add_output(fd.ops.logical_right_shift(a, b))
    fd.add_output(fd.ops.where(fd.ops.gt(a, 1), fd.ops.sign(fd.ops.cast(a, DataType.Float)), 2.5))
    fd.add_output(fd.ops.full(shape=[2, 3], fill_value=b, dtype=DataType.Float))

# add_output with an alias input: nvFuser's Fusion lists an output added both
# ways once; the cached one of broadcasts and welford; expand of Python ints;
# a symbolic extent after a static one.
def _nv_aliased_outputs(fd, DataType):
    t0 = fd.define_tensor(shape=[-1], dtype=DataType.Float)
    t1 = fd.ops.neg(t0)
    t2 = fd.ops.exp(t0)
    fd.add_output(t2)
    fd.add_output(t1, t0)
    fd.add_output(t2)
    fd.add_output(t1)

def _nv_output_then_alias(fd, DataType):
    t0 = fd.define_tensor(shape=[-1], dtype=DataType.Float)
    t1 = fd.ops.neg(t0)
    fd.add_output(t1)
    fd.add_output(t1, t0)
    fd.add_output(t0)

def _nv_cached_one(fd, DataType):
    x = fd.define_tensor(shape=[3, 4], dtype=DataType.Float)
    avg, var_sum, n = fd.ops.welford(x, dims=[1])
    avg2, _, _ = fd.ops.welford(x, dims=[0])
    b = fd.ops.broadcast(avg, [False, True])
    fd.add_output(fd.ops.mul(fd.ops.sub(x, b), 2))
    fd.add_output(fd.ops.mul(fd.ops.broadcast(avg2, [True, False]), 3))
    fd.add_output(fd.ops.var(x, dims=[0], correction=0, keepdim=True))

def _nv_expand_ints(fd, DataType):
    x = fd.define_tensor(shape=[3, -1], dtype=DataType.Float)
    b = fd.ops.broadcast(x, [False, True, False])
    e = fd.ops.expand(b, [3, 5, -1])
    same = fd.ops.expand(b, [3, 1, -1])
    fd.add_output(fd.ops.mul(e, 2))
    fd.add_output(fd.ops.mul(same, 3))
    fd.add_output(fd.ops.broadcast_in_dim(x, shape=[-1, 2, -1], broadcast_dims=[0, 2]))

def _nv_sizes_and_strides(fd, DataType):
    t1 = fd.define_tensor(sizes=[1, 4, 1], strides=[4, 1, 1])
    t2 = fd.define_tensor(sizes=[2, 1, 4], strides=[4, 4, 1])
    t3 = fd.define_tensor(sizes=[2, 3], strides=[1, 2])
    fd.add_output(t1)
    fd.add_output(t2)
    fd.add_output(t3)

def _nv_sum_of_a_slice_of_one(fd, DataType):
    t = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True] * 3, dtype=DataType.Float)
    r = fd.ops.reshape(t, new_shape=[4, 6, 2])
    s = fd.ops.slice(r, start_indices=[0, 1, 0], end_indices=[4, 2, 1])
    fd.add_output(fd.ops.sum(s, dims=[1, 2]))

def _nv_where_scalar_dtypes(fd, DataType):
    # nvFuser's test_where_dtypes: constants of each dtype, the complex ones
    # printed inline or as define_scalar of ComplexFloat.
    t0 = fd.define_tensor(shape=[-1], dtype=DataType.Bool)
    for a, b, d in [(3.0, 5.0, None), (3.0, 5.0, DataType.Float), (3, 5, DataType.Int32),
                    (complex(3.0), complex(5.0), None),
                    (3.0 + 0j, 5.0 + 0j, DataType.ComplexFloat),
                    (3.0 + 0j, 5.0 + 0j, DataType.ComplexDouble),
                    (True, False, DataType.Bool)]:
        c0 = fd.define_scalar(a) if d is None else fd.define_scalar(a, d)
        c1 = fd.define_scalar(b) if d is None else fd.define_scalar(b, d)
        fd.add_output(fd.ops.where(t0, c0, c1))

NVFUSER_TEXT = {
    "keepdim_sum": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.ops.add(tv0, tv1)
    tv3 = fd.ops.mul(tv2, 3.00000)
    tv4 = fd.ops.sum(tv3, dims=[2], dtype=DataType.Float)
    fd.add_output(tv4)
""",
    "squeeze_sum": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[1, -1, 1], contiguity=[None, True, None], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1, 1, -1], contiguity=[True, None, True], dtype=DataType.Float, is_cpu=False)
    tv3 = fd.ops.squeeze(tv1, dims=[0, 2])
    tv6 = fd.ops.mul(tv0, tv3)
    tv4 = fd.ops.squeeze(tv2, dims=[1])
    tv5 = fd.ops.sum(tv4, dims=[0], dtype=DataType.Float)
    tv7 = fd.ops.mul(tv6, tv5)
    fd.add_output(tv7)
""",
    "half_scalar_layer_norm": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    c4 = fd.define_scalar(None, dtype=DataType.Double)
    tv2 = fd.ops.cast(tv0, dtype=DataType.Float)
    tv3, tv4, tv5 = fd.ops.welford(tv2, dims=[1])
    tv7 = fd.ops.broadcast(tv3, is_broadcast_dim=[False, True])
    c0 = fd.ops.size(tv7, dim=0)
    c1 = fd.ops.size(tv2, dim=1)
    tv8 = fd.ops.expand(tv7, shape=[c0, c1])
    tv11 = fd.ops.sub(tv2, tv8)
    c11 = fd.ops.cast(c1, dtype=DataType.Double)
    c13 = fd.ops.mul(1.00000, c11)
    c17 = fd.ops.cast(0, dtype=DataType.Double)
    c19 = fd.ops.sub(c13, c17)
    c21 = fd.ops.cast(0, dtype=DataType.Double)
    c23 = fd.ops.ge(c19, c21)
    c25 = fd.ops.cast(0, dtype=DataType.Double)
    c27 = fd.ops.where(c23, c19, c25)
    c33 = fd.ops.reciprocal(c27)
    tv6 = fd.ops.mul(tv4, c33)
    tv9 = fd.ops.broadcast(tv6, is_broadcast_dim=[False, True])
    tv10 = fd.ops.expand(tv9, shape=[c0, c1])
    tv12 = fd.ops.add(tv10, c4)
    tv13 = fd.ops.rsqrt(tv12)
    tv14 = fd.ops.mul(tv11, tv13)
    tv15 = fd.ops.broadcast(tv1, is_broadcast_dim=[True, False])
    tv16 = fd.ops.expand(tv15, shape=[c0, c1])
    tv17 = fd.ops.cast(tv16, dtype=DataType.Float)
    tv18 = fd.ops.mul(tv14, tv17)
    tv19 = fd.ops.cast(tv18, dtype=DataType.BFloat16)
    fd.add_output(tv19)
""",
    "softmax_static": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[4, 8], contiguity=[False, False], dtype=DataType.Half, is_cpu=False)
    tv3 = fd.ops.cast(tv0, dtype=DataType.Float)
    tv1 = fd.ops.max(tv0, dims=[1])
    tv2 = fd.ops.broadcast(tv1, is_broadcast_dim=[False, True])
    tv4 = fd.ops.cast(tv2, dtype=DataType.Float)
    tv5 = fd.ops.sub(tv3, tv4)
    tv6 = fd.ops.exp(tv5)
    tv7 = fd.ops.sum(tv6, dims=[1], dtype=DataType.Float)
    tv8 = fd.ops.broadcast(tv7, is_broadcast_dim=[False, True])
    tv9 = fd.ops.div(tv6, tv8)
    tv10 = fd.ops.cast(tv9, dtype=DataType.Half)
    fd.add_output(tv10)
""",
    "shapes": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, 3, 4], contiguity=[False, False, False], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.permute(tv0, dims=[2, 0, 1])
    tv2 = fd.ops.reshape(tv1, new_shape=[4, 6])
    tv3 = fd.ops.slice(tv2, start_indices=[1, 0], end_indices=[3, 6], strides=[1, 1], manual_normalization=True)
    tv4 = fd.ops.pad(tv3, pad_widths=[1, 1, 0, 0], value=0.00000)
    fd.add_output(tv4)
""",
    "int_ops": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Int32, is_cpu=False)
    c2 = fd.define_scalar(None, dtype=DataType.Int)
    tv3 = fd.ops.signbit(tv0)
    c11 = fd.ops.ge(c2, 32)
    c7 = fd.ops.pow(2, c2)
    c9 = fd.ops.sub(c7, 1)
    c13 = fd.ops.where(c11, -1, c9)
    c15 = fd.ops.sub(32, c2)
    c17 = fd.ops.bitwise_left_shift(c13, c15)
    tv1 = fd.ops.bitwise_right_shift(tv0, c2)
    tv2 = fd.ops.bitwise_xor(c17, tv1)
    tv4 = fd.ops.where(tv3, tv2, tv1)
    tv5 = fd.ops.gt(tv0, 1)
    tv6 = fd.ops.cast(tv0, dtype=DataType.Float)
    tv9 = fd.ops.gt(tv6, 0.00000)
    tv7 = fd.ops.lt(tv6, 0.00000)
    tv8 = fd.ops.where(tv7, -1.00000, 0.00000)
    tv10 = fd.ops.where(tv9, 1.00000, tv8)
    tv11 = fd.ops.cast(tv10, dtype=DataType.Float)
    tv12 = fd.ops.where(tv5, tv11, 2.50000)
    c62 = fd.ops.cast(c2, dtype=DataType.Float)
    tv13 = fd.ops.full(shape=[2, 3], fill_value=c62, dtype=DataType.Float)
    fd.add_output(tv4)
    fd.add_output(tv12)
    fd.add_output(tv13)
""",
    "aliased_outputs": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.ops.exp(tv0)
    tv1 = fd.ops.neg(tv0)
    fd.add_output(tv2)
    fd.add_output(tv2)
    fd.add_output(tv1, tv0)
    fd.add_output(tv1)
""",
    "output_then_alias": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.neg(tv0)
    fd.add_output(tv1, tv0)
    fd.add_output(tv1)
    fd.add_output(tv0)
""",
    "cached_one": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, 4], contiguity=[False, False], dtype=DataType.Float, is_cpu=False)
    tv1, tv2, tv3 = fd.ops.welford(tv0, dims=[1])
    tv7 = fd.ops.broadcast(tv1, is_broadcast_dim=[False, True])
    tv8 = fd.ops.sub(tv0, tv7)
    c19 = fd.ops.cast(2, dtype=DataType.Float)
    tv9 = fd.ops.mul(tv8, c19)
    tv4, tv5, tv6 = fd.ops.welford(tv0, dims=[0])
    tv10 = fd.ops.broadcast(tv4, is_broadcast_dim=[True, False])
    c28 = fd.ops.cast(3, dtype=DataType.Float)
    tv11 = fd.ops.mul(tv10, c28)
    tv12 = fd.ops.sum(tv0, dims=[0], dtype=DataType.Float)
    tv13 = fd.ops.broadcast(tv12, is_broadcast_dim=[True, False])
    c39 = fd.ops.cast(3, dtype=DataType.Double)
    c41 = fd.ops.mul(1.00000, c39)
    tv14 = fd.ops.div(tv13, c41)
    tv15 = fd.ops.sub(tv0, tv14)
    tv16 = fd.ops.mul(tv15, tv15)
    tv17 = fd.ops.sum(tv16, dims=[0], dtype=DataType.Float)
    tv18 = fd.ops.broadcast(tv17, is_broadcast_dim=[True, False])
    c62 = fd.ops.cast(3, dtype=DataType.Double)
    c64 = fd.ops.mul(1.00000, c62)
    c68 = fd.ops.cast(0, dtype=DataType.Double)
    c70 = fd.ops.sub(c64, c68)
    c72 = fd.ops.cast(0, dtype=DataType.Double)
    c74 = fd.ops.ge(c70, c72)
    c76 = fd.ops.cast(0, dtype=DataType.Double)
    c78 = fd.ops.where(c74, c70, c76)
    c80 = fd.ops.reciprocal(c78)
    tv19 = fd.ops.mul(tv18, c80)
    fd.add_output(tv9)
    fd.add_output(tv11)
    fd.add_output(tv19)
""",
    "sizes_and_strides": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[1, -1, 1], contiguity=[None, True, None], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, 1, -1], contiguity=[True, None, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[0, 1])
    fd.add_output(tv0)
    fd.add_output(tv1)
    fd.add_output(tv2)
""",
    "sum_of_a_slice_of_one": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.reshape(tv0, new_shape=[4, 6, 2])
    tv2 = fd.ops.slice(tv1, start_indices=[0, 1, 0], end_indices=[4, 2, 1], strides=[1, 1, 1], manual_normalization=True)
    tv3 = fd.ops.squeeze(tv2, dims=[1, 2])
    fd.add_output(tv3)
""",
    "where_scalar_dtypes": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Bool, is_cpu=False)
    tv1 = fd.ops.where(tv0, 3.00000, 5.00000)
    c7 = fd.define_scalar(3.00000, dtype=DataType.Float)
    c8 = fd.define_scalar(5.00000, dtype=DataType.Float)
    tv2 = fd.ops.where(tv0, c7, c8)
    c12 = fd.define_scalar(3, dtype=DataType.Int32)
    c13 = fd.define_scalar(5, dtype=DataType.Int32)
    tv3 = fd.ops.where(tv0, c12, c13)
    tv4 = fd.ops.where(tv0, 3.00000+0.00000j, 5.00000+0.00000j)
    c22 = fd.define_scalar(3.00000+0.00000j, dtype=DataType.ComplexFloat)
    c23 = fd.define_scalar(5.00000+0.00000j, dtype=DataType.ComplexFloat)
    tv5 = fd.ops.where(tv0, c22, c23)
    tv6 = fd.ops.where(tv0, 3.00000+0.00000j, 5.00000+0.00000j)
    tv7 = fd.ops.where(tv0, True, False)
    fd.add_output(tv1)
    fd.add_output(tv2)
    fd.add_output(tv3)
    fd.add_output(tv4)
    fd.add_output(tv5)
    fd.add_output(tv6)
    fd.add_output(tv7)
""",
    "expand_ints": """\
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, -1], contiguity=[False, False], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.broadcast(tv0, is_broadcast_dim=[False, True, False])
    c1 = fd.ops.size(tv1, dim=2)
    tv2 = fd.ops.expand(tv1, shape=[3, 5, c1])
    c16 = fd.ops.cast(2, dtype=DataType.Float)
    tv4 = fd.ops.mul(tv2, c16)
    tv3 = fd.ops.cast(tv1, dtype=DataType.Float)
    c24 = fd.ops.cast(3, dtype=DataType.Float)
    tv5 = fd.ops.mul(tv3, c24)
    tv6 = fd.ops.broadcast(tv0, is_broadcast_dim=[False, True, False])
    tv7 = fd.ops.expand(tv6, shape=[3, 2, c1])
    fd.add_output(tv4)
    fd.add_output(tv5)
    fd.add_output(tv7)
""",
}


@pytest.mark.parametrize("name", sorted(NVFUSER_TEXT))
def test_nvfuser_text(name):
    """nvfuser_direct's repr(fd) is nvFuser's text, byte for byte."""
    with nvfuser_direct.FusionDefinition() as fd:
        globals()["_nv_" + name](fd, DataType)
    assert repr(fd) == NVFUSER_TEXT[name]


def test_nvfuser_text_runs_again():
    """nvFuser's text builds a fusion that computes the same (its casts,
    broadcast + expand, welford and scalar ops all accepted)."""
    with nvfuser_direct.FusionDefinition() as fd:
        _nv_half_scalar_layer_norm(fd, DataType)
    again = rebuilt(repr(fd), nvfuser_direct)
    import ml_dtypes
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(4, 6).astype(ml_dtypes.bfloat16)
    w = np.linspace(0.5, 1.5, 6, dtype=np.float32).astype(ml_dtypes.bfloat16)
    for mine, theirs in zip(fd.execute([x, w, 1e-5]), again.execute([x, w, 1e-5])):
        np.testing.assert_array_equal(mine, theirs)


def test_reduction_over_one_int_dim():
    # fd.ops.prod(t0, 1, False, dtype), as nvFuser's test_prod writes it.
    with nvfuser_direct.FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[2, 4, 8], dtype=DataType.Float)
        fd.add_output(fd.ops.prod(t0, 1, False, DataType.Float))
        fd.add_output(fd.ops.sum(t0, -1, True))
    text = repr(fd)
    assert "fd.ops.prod(" in text and "fd.ops.sum(" in text
    x = np.linspace(0.5, 1.5, 64, dtype=np.float32).reshape(2, 4, 8)
    again = rebuilt(text, nvfuser_direct)
    for mine, theirs in zip(fd.execute([x]), again.execute([x])):
        np.testing.assert_array_equal(mine, theirs)

