# Every error the FusionDefinition API raises for a bad call, through the
# public API (fuser_mlir/_fusion.py's checks and the FusionBuilder's
# diagnostics), and the native module's own guards, which the Python layer
# never lets a call reach (test/Python/api-errors.test).
import numpy as np

from fuser_mlir import DataType, FusionDefinition
from fuser_mlir import _fuser_mlir


def expect(error_type, call):
    try:
        call()
    except error_type as error:
        # The builder's messages start with the script location.
        print("%s: %s" % (error_type.__name__, str(error).split("api_errors.py:")[-1]))
    else:
        raise AssertionError("no %s" % error_type.__name__)


with FusionDefinition() as fd:
    f = fd.define_tensor(shape=[2, 3], dtype=DataType.Float)
    i = fd.define_tensor(shape=[2, 3], dtype=DataType.Int32)
    b = fd.define_tensor(shape=[2, 3], dtype=DataType.Bool)
    row = fd.define_tensor(shape=[4], dtype=DataType.Float)
    s = fd.define_scalar(1.5)
    # Definitions.
    expect(TypeError, lambda: fd.define_tensor(shape=[2], dtype="float32"))
    expect(TypeError, lambda: fd.define_tensor(dtype=DataType.Float))
    expect(ValueError, lambda: fd.define_tensor(shape=[2, 3], strides=[1], dtype=DataType.Float))
    expect(ValueError, lambda: fd.define_tensor(shape=[2, 3], stride_order=[0, 0], dtype=DataType.Float))
    expect(TypeError, lambda: fd.define_scalar(f))
    expect(ValueError, lambda: fd.define_vector(3))
    expect(ValueError, lambda: fd.add_output(f, alias_input=f))
    expect(TypeError, lambda: fd.add_output(s))
    # Operands.
    expect(TypeError, lambda: fd.ops.neg("x"))
    expect(TypeError, lambda: fd.ops.permute(s, [0]))
    # Pointwise.
    expect(TypeError, lambda: fd.ops.add(b, b))
    expect(TypeError, lambda: fd.ops.where(f, f, f))
    expect(ValueError, lambda: fd.ops.where(b, f, row))
    expect(TypeError, lambda: fd.ops.full([2], f, DataType.Float))
    expect(ValueError, lambda: fd.ops.full([-2], 0.0, DataType.Float))
    expect(TypeError, lambda: fd.ops.cast(2.5, DataType.Int))
    # Data movement.
    expect(TypeError, lambda: fd.ops.reshape(f))
    expect(ValueError, lambda: fd.ops.reshape(f, [-2, 3]))
    expect(ValueError, lambda: fd.ops.reshape(f, [4, -1]))
    expect(ValueError, lambda: fd.ops.reshape(f, [4, 2]))
    expect(TypeError, lambda: fd.ops.squeeze(f))
    expect(ValueError, lambda: fd.ops.squeeze(f, [0, 0]))
    expect(ValueError, lambda: fd.ops.broadcast(f, [True, False]))
    expect(ValueError, lambda: fd.ops.expand(f, [2]))
    expect(TypeError, lambda: fd.ops.broadcast_in_dim(f, shape=[2, 3]))
    expect(ValueError, lambda: fd.ops.broadcast_in_dim(f, [2, 3], [0]))
    expect(ValueError, lambda: fd.ops.broadcast_in_dim(f, [2, 3], [0, 5]))
    expect(ValueError, lambda: fd.ops.broadcast_in_dim(f, [3, 2, 4], [1, 0]))
    expect(ValueError, lambda: fd.ops.broadcast_in_dim(f, [2, 4], [0, 1]))
    expect(ValueError, lambda: fd.ops.permute(f, [0]))
    expect(ValueError, lambda: fd.ops.stride_order(f, [0, 2]))
    expect(ValueError, lambda: fd.ops.size(f, 2))
    expect(ValueError, lambda: fd.ops.slice(f, [0], [1]))
    expect(ValueError, lambda: fd.ops.slice(f, [0, 0], [1, 1], [1, 0]))
    expect(ValueError, lambda: fd.ops.pad(f, [1, 1, 1]))
    expect(ValueError, lambda: fd.ops.pad(f, [-1, 1]))
    expect(TypeError, lambda: fd.ops.pad(f, [1, 1], f))
    expect(ValueError, lambda: fd.ops.cat([], 0))
    expect(TypeError, lambda: fd.ops.cat([f, f], 1.5))
    expect(TypeError, lambda: fd.ops.cat([f, i], 0))
    expect(ValueError, lambda: fd.ops.cat([f, row], 0))
    expect(ValueError, lambda: fd.ops.cat([f, fd.ops.full([3, 3], 0.0, DataType.Float)], 1))
    # Reductions.
    expect(ValueError, lambda: fd.ops.sum(f, dims=[]))
    expect(TypeError, lambda: fd.ops.min(f, dims=[0], dtype=DataType.Double))
    fd.add_output(f)
expect(RuntimeError, lambda: fd.__enter__())
expect(RuntimeError, lambda: FusionDefinition().ops.neg(1.0))

# execute(): a scalar argument given an array.
with FusionDefinition() as scalar_fd:
    x = scalar_fd.define_scalar(dtype=DataType.Float)
    scalar_fd.add_output(scalar_fd.ops.full([2], x, DataType.Float))
expect(ValueError, lambda: scalar_fd.execute([np.zeros(3, np.float32)]))

# The native module's guards behind the Python checks above.
native = _fuser_mlir.Fusion("guards")
t = native.define_input([2], "float32")
expect(ValueError, lambda: native.unary("erf", ("value", t)))
expect(ValueError, lambda: native.binary("fmax", ("value", t), ("value", t)))
expect(ValueError, lambda: native.reduction("avg", t, [0], False, None))
expect(ValueError, lambda: native.run_pipeline("lower"))
expect(ValueError, lambda: native.deterministic_input(5, 0))
expect(ValueError, lambda: native.set(7))
expect(TypeError, lambda: native.unary("neg", "x"))
expect(TypeError, lambda: native.add_output(native.define_constant(1.0, "float32")))
expect(RuntimeError, lambda: native.run_pipeline("preseg").set(t))
expect(TypeError, lambda: native.define_input([2], "complex64"))
