# nvFuser's type promotion and construction rules, as IR (promotion.test).
from fuser_mlir import FusionDefinition, DataType


def show(title, build):
    with FusionDefinition(name=title) as fd:
        build(fd)
    print(fd.mlir())


def bf16_add(fd):
    a = fd.define_tensor(shape=[2, 3], dtype=DataType.BFloat16)
    b = fd.define_tensor(shape=[2, 3], dtype=DataType.BFloat16)
    fd.add_output(fd.ops.add(a, b))


def half_scalar(fd):
    a = fd.define_tensor(shape=[2], dtype=DataType.Half)
    fd.add_output(fd.ops.mul(a, 2))


def int_float_scalar(fd):
    a = fd.define_tensor(shape=[2], dtype=DataType.Int32)
    fd.add_output(fd.ops.add(a, 1.5))
    fd.add_output(fd.ops.add(a, 1))


def mixed_tensors(fd):
    a = fd.define_tensor(shape=[2], dtype=DataType.Int32)
    b = fd.define_tensor(shape=[2], dtype=DataType.Int)
    c = fd.define_tensor(shape=[2], dtype=DataType.Half)
    d = fd.define_tensor(shape=[2], dtype=DataType.BFloat16)
    fd.add_output(fd.ops.add(a, b))
    fd.add_output(fd.ops.where(fd.ops.gt(c, d), c, d))


def float_ops(fd):
    a = fd.define_tensor(shape=[2], dtype=DataType.Int32)
    b = fd.define_tensor(shape=[2], dtype=DataType.BFloat16)
    fd.add_output(fd.ops.exp(a))
    fd.add_output(fd.ops.abs(b))
    fd.add_output(fd.ops.neg(b))


def reductions(fd):
    a = fd.define_tensor(shape=[4, 8], dtype=DataType.BFloat16)
    b = fd.define_tensor(shape=[4, 8], dtype=DataType.Bool)
    fd.add_output(fd.ops.sum(a, dims=[1], dtype=DataType.Float))
    fd.add_output(fd.ops.sum(a, dims=[0], keepdim=True))
    fd.add_output(fd.ops.sum(b, dims=[0, 1]))


def shapes(fd):
    a = fd.define_tensor(shape=[1, 8], dtype=DataType.Float)
    fd.add_output(fd.ops.broadcast_in_dim(a, shape=[4, 1, 8], broadcast_dims=[1, 2]))
    fd.add_output(fd.ops.broadcast_in_dim(a, shape=[4, 8], broadcast_dims=[0, 1]))
    fd.add_output(fd.ops.expand(a, shape=[1, 8]))
    fd.add_output(fd.ops.cast(a, DataType.Float))


for build in (bf16_add, half_scalar, int_float_scalar, mixed_tensors, float_ops,
              reductions, shapes):
    show(build.__name__, build)
