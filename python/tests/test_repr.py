"""repr(fd) prints the definition as nvFuser's Python; running that text
builds the same fusion (the same IR at the same shapes). The definitions here
use every op of fd.ops, static and symbolic; a new op without a case fails
test_every_op_has_a_case."""
import numpy as np
import pytest

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


# Ops with a case in every_op, beyond the generated elementwise ones.
COVERED = {"where", "cast", "full", "reshape", "view", "squeeze", "broadcast", "expand",
           "broadcast_in_dim", "permute", "stride_order", "size", "shape", "tensor_sizes",
           "set", "segment_set", "slice", "pad", "cat", "sum", "prod", "max", "min",
           "var", "var_mean", "welford", "addcmul", "complex", "real", "imag"}


def test_every_op_has_a_case():
    public = {name for name in dir(Ops) if not name.startswith("_")}
    assert public - set(UNARY_OPS) - set(BINARY_OPS) - set(TERNARY_OPS) - {"truediv"} == COVERED


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
    assert repr(again) == text
    shapes = [[4, 3], [3], 0.5]
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

