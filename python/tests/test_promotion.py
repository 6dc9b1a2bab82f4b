"""nvFuser's construction rules as the IR fd.ops builds: one fuser op per
nvFuser op, nothing simplified. Each case's docstring says the rule; the
expected text is the whole function fd.mlir() prints."""
import textwrap

import pytest

from fuser_mlir import DataType, FusionDefinition


def bf16_add(fd):
    """bf16 + bf16 computes in f32: both operands are cast (nvFuser's
    cast_half_to_float)."""
    a = fd.define_tensor(shape=[2, 3], dtype=DataType.BFloat16)
    b = fd.define_tensor(shape=[2, 3], dtype=DataType.BFloat16)
    fd.add_output(fd.ops.add(a, b))


def half_scalar(fd):
    """A Python int meets an f16 tensor: the tensor's dtype wins, then f16
    computes in f32; the literal is built in f32."""
    a = fd.define_tensor(shape=[2], dtype=DataType.Half)
    fd.add_output(fd.ops.mul(a, 2))


def int_float_scalar(fd):
    """A Python float meets an i32 tensor: a higher category, so both become
    f64 (nvFuser's Double scalar); a Python int does not promote (negative
    case)."""
    a = fd.define_tensor(shape=[2], dtype=DataType.Int32)
    fd.add_output(fd.ops.add(a, 1.5))
    fd.add_output(fd.ops.add(a, 1))


def mixed_tensors(fd):
    """i32 + i64 -> i64; f16 vs bf16 -> f32 (neither holds the other); where
    keeps its common dtype (here f32 from f16/bf16)."""
    a = fd.define_tensor(shape=[2], dtype=DataType.Int32)
    b = fd.define_tensor(shape=[2], dtype=DataType.Int)
    c = fd.define_tensor(shape=[2], dtype=DataType.Half)
    d = fd.define_tensor(shape=[2], dtype=DataType.BFloat16)
    fd.add_output(fd.ops.add(a, b))
    fd.add_output(fd.ops.where(fd.ops.gt(c, d), c, d))


def float_ops(fd):
    """exp of ints computes in f32 (float_op_config); abs keeps bf16 (no
    promotion); neg of bf16 computes in f32."""
    a = fd.define_tensor(shape=[2], dtype=DataType.Int32)
    b = fd.define_tensor(shape=[2], dtype=DataType.BFloat16)
    fd.add_output(fd.ops.exp(a))
    fd.add_output(fd.ops.abs(b))
    fd.add_output(fd.ops.neg(b))


def reductions(fd):
    """sum with dtype casts first; a bf16 sum without dtype stays bf16 (f32
    accumulation is the op's semantics); bool sums accumulate in i64."""
    a = fd.define_tensor(shape=[4, 8], dtype=DataType.BFloat16)
    b = fd.define_tensor(shape=[4, 8], dtype=DataType.Bool)
    fd.add_output(fd.ops.sum(a, dims=[1], dtype=DataType.Float))
    fd.add_output(fd.ops.sum(a, dims=[0], keepdim=True))
    fd.add_output(fd.ops.sum(b, dims=[0, 1]))


def shapes(fd):
    """broadcast_in_dim: broadcast where dims are new, then expand where an
    extent grows; nothing grows -> set (nvFuser's expand); cast to the same
    dtype -> set."""
    a = fd.define_tensor(shape=[1, 8], dtype=DataType.Float)
    fd.add_output(fd.ops.broadcast_in_dim(a, shape=[4, 1, 8], broadcast_dims=[1, 2]))
    fd.add_output(fd.ops.broadcast_in_dim(a, shape=[4, 8], broadcast_dims=[0, 1]))
    fd.add_output(fd.ops.expand(a, shape=[1, 8]))
    fd.add_output(fd.ops.cast(a, DataType.Float))


EXPECTED = {
    bf16_add: """
        func.func @bf16_add(%arg0: tensor<2x3xbf16>, %arg1: tensor<2x3xbf16>) -> tensor<2x3xf32> {
          %0 = fuser.cast %arg0 : tensor<2x3xbf16> to tensor<2x3xf32>
          %1 = fuser.cast %arg1 : tensor<2x3xbf16> to tensor<2x3xf32>
          %2 = fuser.add %0, %1 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
          return %2 : tensor<2x3xf32>
        }""",
    half_scalar: """
        func.func @half_scalar(%arg0: tensor<2xf16>) -> tensor<2xf32> {
          %0 = fuser.cast %arg0 : tensor<2xf16> to tensor<2xf32>
          %cst = arith.constant 2.000000e+00 : f32
          %1 = fuser.mul %0, %cst : tensor<2xf32>, f32 -> tensor<2xf32>
          return %1 : tensor<2xf32>
        }""",
    int_float_scalar: """
        func.func @int_float_scalar(%arg0: tensor<2xi32>) -> (tensor<2xf64>, tensor<2xi32>) {
          %0 = fuser.cast %arg0 : tensor<2xi32> to tensor<2xf64>
          %cst = arith.constant 1.500000e+00 : f64
          %1 = fuser.add %0, %cst : tensor<2xf64>, f64 -> tensor<2xf64>
          %c1_i32 = arith.constant 1 : i32
          %2 = fuser.add %arg0, %c1_i32 : tensor<2xi32>, i32 -> tensor<2xi32>
          return %1, %2 : tensor<2xf64>, tensor<2xi32>
        }""",
    mixed_tensors: """
        func.func @mixed_tensors(%arg0: tensor<2xi32>, %arg1: tensor<2xi64>, %arg2: tensor<2xf16>, %arg3: tensor<2xbf16>) -> (tensor<2xi64>, tensor<2xf32>) {
          %0 = fuser.cast %arg0 : tensor<2xi32> to tensor<2xi64>
          %1 = fuser.add %0, %arg1 : tensor<2xi64>, tensor<2xi64> -> tensor<2xi64>
          %2 = fuser.cast %arg2 : tensor<2xf16> to tensor<2xf32>
          %3 = fuser.cast %arg3 : tensor<2xbf16> to tensor<2xf32>
          %4 = fuser.gt %2, %3 : tensor<2xf32>, tensor<2xf32> -> tensor<2xi1>
          %5 = fuser.cast %arg2 : tensor<2xf16> to tensor<2xf32>
          %6 = fuser.cast %arg3 : tensor<2xbf16> to tensor<2xf32>
          %7 = fuser.where %4, %5, %6 : tensor<2xi1>, tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
          return %1, %7 : tensor<2xi64>, tensor<2xf32>
        }""",
    float_ops: """
        func.func @float_ops(%arg0: tensor<2xi32>, %arg1: tensor<2xbf16>) -> (tensor<2xf32>, tensor<2xbf16>, tensor<2xf32>) {
          %0 = fuser.cast %arg0 : tensor<2xi32> to tensor<2xf32>
          %1 = fuser.exp %0 : tensor<2xf32>
          %2 = fuser.abs %arg1 : tensor<2xbf16>
          %3 = fuser.cast %arg1 : tensor<2xbf16> to tensor<2xf32>
          %4 = fuser.neg %3 : tensor<2xf32>
          return %1, %2, %4 : tensor<2xf32>, tensor<2xbf16>, tensor<2xf32>
        }""",
    reductions: """
        func.func @reductions(%arg0: tensor<4x8xbf16>, %arg1: tensor<4x8xi1>) -> (tensor<4xf32>, tensor<1x8xbf16>, tensor<i64>) {
          %0 = fuser.cast %arg0 : tensor<4x8xbf16> to tensor<4x8xf32>
          %1 = fuser.reduction add %0 [1] : tensor<4x8xf32> -> tensor<4xf32>
          %2 = fuser.reduction add %arg0 [0] keepdim : tensor<4x8xbf16> -> tensor<1x8xbf16>
          %3 = fuser.cast %arg1 : tensor<4x8xi1> to tensor<4x8xi64>
          %4 = fuser.reduction add %3 [0, 1] : tensor<4x8xi64> -> tensor<i64>
          return %1, %2, %4 : tensor<4xf32>, tensor<1x8xbf16>, tensor<i64>
        }""",
    shapes: """
        func.func @shapes(%arg0: tensor<1x8xf32>) -> (tensor<4x1x8xf32>, tensor<4x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) {
          %0 = fuser.broadcast %arg0 [0] : tensor<1x8xf32> -> tensor<1x1x8xf32>
          %1 = fuser.expand %0 : tensor<1x1x8xf32> -> tensor<4x1x8xf32>
          %2 = fuser.expand %arg0 : tensor<1x8xf32> -> tensor<4x8xf32>
          %3 = fuser.set %arg0 : tensor<1x8xf32>
          %4 = fuser.set %arg0 : tensor<1x8xf32>
          return %1, %2, %3, %4 : tensor<4x1x8xf32>, tensor<4x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>
        }""",
}


@pytest.mark.parametrize("build", list(EXPECTED), ids=lambda build: build.__name__)
def test_promotion_ir(build):
    with FusionDefinition(name=build.__name__) as fd:
        build(fd)
    assert fd.mlir() == "module {\n%s\n}" % textwrap.indent(
        textwrap.dedent(EXPECTED[build]).strip("\n"), "  ")
