"""Every fd.ops entry: the fusion it builds verifies (execute checks it) and
runs on the reference interpreter to what numpy computes, exactly, or to
1e-6 relative for the math-library ops; the result dtypes are nvFuser's
promotion."""
import ml_dtypes
import numpy as np
import pytest

import fuser_mlir
from conftest import check_op_case
from fuser_mlir import DataType, FusionDefinition

BF16 = ml_dtypes.bfloat16
rng = np.random.default_rng(7)
# Multiples of 1/8 (exact in every float type), as PRODUCT.md's inputs.
x = (rng.integers(-64, 65, size=(3, 4)) / 8).astype(np.float32)
y = (rng.integers(1, 65, size=(3, 4)) / 8).astype(np.float32)  # positive
i = rng.integers(-100, 101, size=(3, 4)).astype(np.int32)
j = rng.integers(1, 9, size=(3, 4)).astype(np.int32)

DTYPES = {np.dtype(np.float32): DataType.Float, np.dtype(np.float64): DataType.Double,
          np.dtype(BF16): DataType.BFloat16, np.dtype(np.float16): DataType.Half,
          np.dtype(np.int32): DataType.Int32, np.dtype(np.int64): DataType.Int,
          np.dtype(np.bool_): DataType.Bool}


def case(name, build, inputs, expected, rtol=0.0):
    return pytest.param(build, inputs, expected, rtol, id=name)


def op(name):
    return lambda fd, *operands: getattr(fd.ops, name)(*operands)


def f32(ref, arg):
    """ref computed in f64, rounded to f32 (the math-library ops)."""
    return ref(arg.astype(np.float64)).astype(np.float32)


CASES = [
    # Unary ops; the float ones compute f32 from bf16 and ints (nvFuser's
    # promotion), neg computes bf16 in f32, abs keeps bf16.
    case("neg", op("neg"), [x], -x),
    case("neg bf16", op("neg"), [x.astype(BF16)], -x),
    case("abs", op("abs"), [i], np.abs(i)),
    case("abs bf16", op("abs"), [x.astype(BF16)], np.abs(x).astype(BF16)),
    *[case(name, op(name), [arg], f32(ref, arg), rtol=1e-6) for name, ref, arg in [
        ("exp", np.exp, x), ("log", np.log, y), ("sqrt", np.sqrt, y),
        ("rsqrt", lambda v: 1 / np.sqrt(v), y), ("reciprocal", lambda v: 1 / v, y),
        ("sin", np.sin, x), ("cos", np.cos, x), ("tanh", np.tanh, x),
        ("sigmoid", lambda v: 1 / (1 + np.exp(-v)), x)]],
    case("exp int32", op("exp"), [j], f32(np.exp, j), rtol=1e-6),
    # Binary ops, tensors and Python numbers.
    *[case(name, op(name), [x, y], ref(x, y)) for name, ref in [
        ("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
        ("div", np.divide), ("maximum", np.maximum), ("minimum", np.minimum)]],
    case("pow", op("pow"), [y, x], np.power(y.astype(np.float64), x).astype(np.float32), rtol=1e-6),
    case("div int32 truncates", op("div"), [i, j], np.trunc(i / j).astype(np.int32)),
    case("pow int32", op("pow"), [j, j], np.power(j, j)),
    case("add bf16 bf16 -> f32", op("add"), [x.astype(BF16), y.astype(BF16)], x + y),
    case("mul by a Python float", lambda fd, a: fd.ops.mul(a, 0.5), [x], x * np.float32(0.5)),
    case("int32 * Python float -> f64", lambda fd, a: fd.ops.mul(a, 0.5), [i], i * 0.5),
    case("operators", lambda fd, a, b: -(a * 2 + b) / b - 1, [x, y], -(x * 2 + y) / y - 1),
    case("rank broadcast", op("add"), [x, y[0]], x + y[0]),
    case("defined scalar",
         lambda fd, a: fd.ops.add(a, fd.define_scalar(2.5, dtype=DataType.Double)),
         [x], x + np.float32(2.5)),
    *[case(name, op(name), [x, y], ref(x, y)) for name, ref in [
        ("eq", np.equal), ("ne", np.not_equal), ("lt", np.less),
        ("le", np.less_equal), ("gt", np.greater), ("ge", np.greater_equal)]],
    case("where", lambda fd, a, b: fd.ops.where(fd.ops.lt(a, b), a, b), [x, y], np.where(x < y, x, y)),
    case("where bf16 stays bf16", lambda fd, a, b: fd.ops.where(fd.ops.lt(a, 0.0), a, b),
         [x.astype(BF16), y.astype(BF16)], np.where(x < 0, x, y).astype(BF16)),
    # Casts and factories.
    case("cast f32 -> bf16", lambda fd, a: fd.ops.cast(a, dtype=DataType.BFloat16),
         [x / 3], (x / 3).astype(BF16)),
    case("cast f32 -> int32", lambda fd, a: fd.ops.cast(a, DataType.Int32), [x],
         np.trunc(x).astype(np.int32)),
    case("full", lambda fd, a: fd.ops.add(a, fd.ops.full([3, 4], 1.5, DataType.Float)), [x], x + 1.5),
    # Data movement.
    case("reshape", lambda fd, a: fd.ops.reshape(a, new_shape=[2, -1]), [x], x.reshape(2, 6)),
    case("squeeze", lambda fd, a: fd.ops.squeeze(a, dims=[0]), [x[None]], x),
    case("broadcast", lambda fd, a: fd.ops.broadcast(a, [True, False, False]), [x], x[None]),
    case("expand", lambda fd, a: fd.ops.expand(a, shape=[3, 4]), [x[:1]],
         np.broadcast_to(x[:1], (3, 4))),
    case("broadcast_in_dim",
         lambda fd, a: fd.ops.broadcast_in_dim(a, shape=[2, 3, 4], broadcast_dims=[1, 2]),
         [x], np.broadcast_to(x, (2, 3, 4))),
    # Negative broadcast_dims count from the end (nvFuser's wrapDim;
    # alphafold3's layer_norm broadcasts its weight with [-1]).
    case("broadcast_in_dim negative",
         lambda fd, a: fd.ops.broadcast_in_dim(a, shape=[2, 3, 4], broadcast_dims=[-2, -1]),
         [x], np.broadcast_to(x, (2, 3, 4))),
    case("permute", lambda fd, a: fd.ops.permute(a, dims=[1, 0]), [x], x.T),
    case("set", op("set"), [x], x),
    case("segment_set", op("segment_set"), [x], x),
    case("slice", lambda fd, a: fd.ops.slice(a, start_indices=[1, 1], end_indices=[3, 100],
                                             strides=[1, 1]), [x], x[1:3, 1:]),
    case("pad", lambda fd, a: fd.ops.pad(a, [1, 2], 0.0), [x], np.pad(x, ((0, 0), (1, 2)))),
    case("pad two dims", lambda fd, a: fd.ops.pad(a, [0, 1, 2, 0]), [x], np.pad(x, ((2, 0), (0, 1)))),
    # Negative widths crop, as nvFuser's: a slice before the padding.
    case("pad negative", lambda fd, a: fd.ops.pad(a, [-1, 2, 1, -1]), [x],
         np.pad(x[:-1, 1:], ((1, 0), (0, 2)))),
    case("cat", lambda fd, a, b: fd.ops.cat([a, b], dim=-1), [x, y], np.concatenate([x, y], axis=-1)),
    # Reductions.
    case("sum", lambda fd, a: fd.ops.sum(a, dims=[1]), [x], x.sum(axis=1)),
    case("sum keepdim", lambda fd, a: fd.ops.sum(a, dims=[0], keepdim=True), [x],
         x.sum(axis=0, keepdims=True)),
    case("sum bf16 dtype=Float", lambda fd, a: fd.ops.sum(a, dims=[0, 1], dtype=DataType.Float),
         [x.astype(BF16)], np.float32(x.sum())),
    case("sum int32 -> int64", lambda fd, a: fd.ops.sum(a, dims=[1]), [i], i.sum(axis=1, dtype=np.int64)),
    case("prod", lambda fd, a: fd.ops.prod(a, dims=[1]), [y], np.prod(y, axis=1)),
    case("max", lambda fd, a: fd.ops.max(a, dims=[0]), [x], x.max(axis=0)),
    case("min", lambda fd, a: fd.ops.min(a, dims=[-1], keepdim=True), [i], i.min(axis=-1, keepdims=True)),
    # truediv turns integers into f32 first; stride_order is a layout change
    # only (a set); size, shape and define_vector give static extents as ints.
    case("truediv int32", op("truediv"), [i, j], (i / j).astype(np.float32), rtol=1e-7),
    case("int32 / int32 operator", lambda fd, a, b: a / b, [i, j], (i / j).astype(np.float32), rtol=1e-7),
    case("stride_order", lambda fd, a: fd.ops.stride_order(a, [0, 1]), [x], x),
    case("size shape define_vector",
         lambda fd, a: fd.ops.reshape(a, new_shape=fd.define_vector(
             [fd.ops.size(a, 1), fd.ops.shape(a)[0]], dtype=DataType.Int)), [x], x.reshape(4, 3)),
]


@pytest.mark.parametrize("build, inputs, expected, rtol", CASES)
def test_op_matches_numpy(build, inputs, expected, rtol):
    check_op_case(fuser_mlir, build, inputs, expected, rtol, DTYPES)


def test_scalar_input():
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[3, 4], dtype=DataType.Float)
        s = fd.define_scalar(dtype=DataType.Double)
        fd.add_output(fd.ops.mul(t, s))
    (result,) = fd.execute([x, 0.25])
    np.testing.assert_array_equal(result, x * np.float32(0.25))
