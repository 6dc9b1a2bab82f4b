"""nvFuser's library ops, matmul and linear (issue 47), through the direct
API: torch.matmul's shapes (1-D, 2-D, batched with broadcast batch dims,
empty dims) and F.linear's (leading dims, optional bias) in f32, f64, f16
and bf16, against numpy. The interpreter adds the products in increasing k
from -0.0 in the accumulation type (f32 for f16 and bf16) and rounds once
(docs/Interpreter.md): it matches numpy doing the same, bit for bit. The
errors nvFuser raises at definition are raised here too."""
import ml_dtypes
import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition, FusionError

RNG = np.random.default_rng(47)
BF16 = ml_dtypes.bfloat16
DTYPES = {np.dtype(np.float32): DataType.Float, np.dtype(np.float64): DataType.Double,
          np.dtype(np.float16): DataType.Half, np.dtype(BF16): DataType.BFloat16}


def accumulation_type(dtype):
    return np.float64 if dtype == np.float64 else np.float32


def random(shape, dtype):
    return RNG.standard_normal(shape).astype(dtype)


def sequential_matmul(a, b):
    """torch.matmul's shapes; products added in increasing k from -0.0
    (+0.0 for K = 0) in the accumulation type, each rounded there, then
    rounded to the dtype."""
    acc_type = accumulation_type(a.dtype)
    x = a.astype(acc_type)[None, :] if a.ndim == 1 else a.astype(acc_type)
    y = b.astype(acc_type)[:, None] if b.ndim == 1 else b.astype(acc_type)
    k = x.shape[-1]
    shape = np.broadcast_shapes(x.shape[:-2], y.shape[:-2]) + (x.shape[-2], y.shape[-1])
    acc = np.full(shape, -0.0 if k else 0.0, acc_type)
    for kk in range(k):
        acc = (acc + x[..., :, kk:kk + 1] * y[..., kk:kk + 1, :]).astype(acc_type)
    if a.ndim == 1:
        acc = acc[..., 0, :]
    if b.ndim == 1:
        acc = acc[..., 0]
    return acc.astype(a.dtype)


def sequential_linear(x, w, bias=None):
    acc_type = accumulation_type(x.dtype)
    acc = np.full(x.shape[:-1] + (w.shape[0],), -0.0 if x.shape[-1] else 0.0, acc_type)
    for kk in range(x.shape[-1]):
        acc = (acc + x[..., kk:kk + 1].astype(acc_type) * w[:, kk].astype(acc_type)) \
            .astype(acc_type)
    if bias is not None:
        acc = (acc + bias.astype(acc_type)).astype(acc_type)
    return acc.astype(x.dtype)


def define(fd, array, symbolic=False):
    shape = [-1] * array.ndim if symbolic else list(array.shape)
    return fd.define_tensor(shape=shape, dtype=DTYPES[array.dtype])


MATMUL_SHAPES = [
    ((3, 4), (4, 5)), ((4,), (4,)), ((4,), (4, 5)), ((3, 4), (4,)),
    ((2, 1, 3, 4), (5, 4, 6)), ((4,), (2, 4, 6)), ((2, 3, 4), (4,)),
    ((7, 1), (1, 9)), ((3, 0), (0, 5)), ((0, 3, 4), (4, 2)), ((17, 33), (33, 5)),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, BF16],
                         ids=["f32", "f64", "f16", "bf16"])
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
def test_matmul_interpreter(shapes, dtype):
    a, b = random(shapes[0], dtype), random(shapes[1], dtype)
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.matmul(define(fd, a), define(fd, b)))
    (out,) = fd.execute([a, b], backend="interp")
    expected = sequential_matmul(a, b)
    assert out.dtype == expected.dtype and out.shape == np.matmul(a, b).shape
    np.testing.assert_array_equal(out, expected)
    # numpy's own matmul (another order, f64 accumulation for f64) is within
    # validate's tolerance for K.
    fd.validate([a, b], [np.matmul(a.astype(np.float64), b.astype(np.float64))
                         .astype(dtype)], backend="interp")


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, BF16],
                         ids=["f32", "f64", "f16", "bf16"])
@pytest.mark.parametrize("input_shape", [(3, 4), (4,), (2, 3, 4), (2, 0, 4), (3, 0)],
                         ids=str)
@pytest.mark.parametrize("with_bias", [True, False], ids=["bias", "no_bias"])
def test_linear_interpreter(input_shape, dtype, with_bias):
    x = random(input_shape, dtype)
    w = random((5, input_shape[-1]), dtype)
    bias = random((5,), dtype) if with_bias else None
    inputs = [x, w] + ([bias] if with_bias else [])
    with FusionDefinition() as fd:
        tensors = [define(fd, a) for a in inputs]
        fd.add_output(fd.ops.linear(*tensors))
    (out,) = fd.execute(inputs, backend="interp")
    np.testing.assert_array_equal(out, sequential_linear(x, w, bias))


def test_symbolic_extents():
    """-1 extents, the contraction dim among them, take the inputs'."""
    a, b = random((2, 3, 4), np.float32), random((4, 6), np.float32)
    w, bias = random((5, 6), np.float32), random((5,), np.float32)
    with FusionDefinition() as fd:
        ta, tw = define(fd, a, symbolic=True), define(fd, w, symbolic=True)
        tb = fd.define_tensor(shape=[4, -1], dtype=DataType.Float)
        tbias = define(fd, bias, symbolic=True)
        fd.add_output(fd.ops.linear(fd.ops.matmul(ta, tb), tw, tbias))
    (out,) = fd.execute([a, w, b, bias], backend="interp")
    np.testing.assert_array_equal(out, sequential_linear(sequential_matmul(a, b), w, bias))


def test_fused_with_pointwise():
    """A matmul between pointwise ops: the whole definition computes."""
    a, b = random((3, 4), np.float32), random((4, 5), np.float32)
    with FusionDefinition() as fd:
        ta, tb = define(fd, a), define(fd, b)
        c = fd.ops.matmul(fd.ops.mul(ta, 2.0), tb)
        fd.add_output(fd.ops.relu(c))
    (out,) = fd.execute([a, b], backend="interp")
    np.testing.assert_array_equal(out, np.maximum(sequential_matmul(a * np.float32(2), b), 0))


# The construction errors nvFuser raises (nvfuser_direct 0.2.36, csrc/ops/
# composite.cpp); an integer matmul nvFuser defines but ATen cannot run on a
# GPU is refused here at definition.
ERRORS = [
    ("matmul", [(), (4,)], DataType.Float, "at least 1-D"),
    ("matmul", [(3, 4), (5, 6)], DataType.Float, "contraction extents differ"),
    ("matmul", [(2, 3, 4), (3, 4, 6)], DataType.Float, "do not broadcast"),
    ("matmul", [(3, 4), (4, 5)], DataType.Int, "takes f16, bf16, f32 or f64"),
    ("linear", [(), (5, 4)], DataType.Float, "input must be at least 1-D"),
    ("linear", [(4,), (4,)], DataType.Float, "weight must be 2-D"),
    ("linear", [(3, 4), (5, 3)], DataType.Float, "contraction extents differ"),
    ("linear", [(3, 4), (5, 4), (4,)], DataType.Float, "bias must be"),
    ("linear", [(3, 4), (5, 4), ()], DataType.Float, "bias must be"),
]


@pytest.mark.parametrize("name,shapes,dtype,message", ERRORS,
                         ids=["%s-%d" % (e[0], i) for i, e in enumerate(ERRORS)])
def test_definition_errors(name, shapes, dtype, message):
    with pytest.raises(RuntimeError, match=message):
        with FusionDefinition() as fd:
            tensors = [fd.define_tensor(shape=list(s), dtype=dtype) for s in shapes]
            fd.add_output(getattr(fd.ops, name)(*tensors))


def test_dtype_mismatch():
    with pytest.raises(FusionError, match="element types differ"):
        with FusionDefinition() as fd:
            a = fd.define_tensor(shape=[3, 4], dtype=DataType.Float)
            b = fd.define_tensor(shape=[4, 5], dtype=DataType.BFloat16)
            fd.ops.matmul(a, b)
    with pytest.raises(FusionError, match="bias element type"):
        with FusionDefinition() as fd:
            x = fd.define_tensor(shape=[3, 4], dtype=DataType.BFloat16)
            w = fd.define_tensor(shape=[5, 4], dtype=DataType.BFloat16)
            b = fd.define_tensor(shape=[5], dtype=DataType.Float)
            fd.ops.linear(x, w, b)
