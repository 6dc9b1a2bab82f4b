# The FusionDefinition API beyond building: both definition styles, execute
# against numpy, preseg/segment/segments, and the errors a user gets
# (api.test).
import numpy as np
import ml_dtypes

from fuser_mlir import DataType, FusionDefinition, Segment

rng = np.random.default_rng(3)
x = (rng.integers(-64, 65, size=(4, 16)) / 8).astype(np.float32)


# Subclass style: definition() runs when the fusion is first needed.
class Softmax(FusionDefinition):
    def definition(self):
        t0 = self.define_tensor(shape=[4, 16], contiguity=[True, True], dtype=DataType.Float)
        row_max = self.ops.max(t0, dims=[1])
        shifted = self.ops.sub(t0, self.ops.broadcast_in_dim(row_max, shape=[4, 16], broadcast_dims=[0]))
        e = self.ops.exp(shifted)
        total = self.ops.sum(e, dims=[1])
        self.add_output(self.ops.div(e, self.ops.broadcast_in_dim(total, shape=[4, 16], broadcast_dims=[0])))


(softmax,) = Softmax().execute([x])
reference = np.exp(x - x.max(axis=1, keepdims=True))
reference /= reference.sum(axis=1, keepdims=True)
assert np.allclose(softmax, reference, rtol=1e-5, atol=0), softmax - reference
print("subclass softmax: ok")

# Context-manager style: an RMSNorm row in bf16, computed in f32.
with FusionDefinition() as fd:
    t0 = fd.define_tensor(shape=[4, 16], contiguity=[True, True], dtype=DataType.BFloat16)
    w = fd.define_tensor(shape=[16], contiguity=[True], dtype=DataType.BFloat16)
    t1 = fd.ops.cast(t0, DataType.Float)
    mean_square = fd.ops.div(fd.ops.sum(fd.ops.mul(t1, t1), dims=[1], keepdim=True), 16.0)
    inv = fd.ops.rsqrt(fd.ops.add(mean_square, fd.define_scalar(1e-6, dtype=DataType.Double)))
    normed = fd.ops.mul(t1, fd.ops.expand(inv, shape=[4, 16]))
    fd.add_output(fd.ops.cast(fd.ops.mul(normed, w), DataType.BFloat16))
xb, wb = x.astype(ml_dtypes.bfloat16), (x[0] / 4).astype(ml_dtypes.bfloat16)
(rms,) = fd.execute([xb, wb])
xf = xb.astype(np.float32)
expected = (xf / np.sqrt((xf * xf).sum(axis=1, keepdims=True) / 16 + np.float32(1e-6))
            * wb.astype(np.float32)).astype(ml_dtypes.bfloat16)
assert rms.dtype == ml_dtypes.bfloat16 and rms.shape == (4, 16)
assert np.allclose(rms.astype(np.float32), expected.astype(np.float32), rtol=2 ** -7, atol=0)
print("with-block rmsnorm: ok")

# preseg() and segment() return new definitions; segments() is the report data.
presegged = fd.preseg()
assert isinstance(presegged, FusionDefinition)
assert presegged.mlir().count("fuser.") <= fd.mlir().count("fuser.")
(again,) = presegged.execute([xb, wb])
assert np.array_equal(again.view(np.uint16), rms.view(np.uint16))
print("preseg: same bits")
assert "fuser.segment " in fd.segment().mlir()
for segment in Softmax().segments():
    assert isinstance(segment, Segment)
    print("softmax segment #%d %s kernels=%d reads=%d writes=%d in=%s out=%s" % (
        segment.index, segment.kind, segment.kernels, segment.bytes_read,
        segment.bytes_written, [i["shape"] for i in segment.inputs],
        [o["shape"] for o in segment.outputs]))


# define_tensor's forms: nvFuser's keywords, positional, and sizes/strides.
with FusionDefinition() as forms:
    a = forms.define_tensor(shape=[2, 3], contiguity=[True, True], dtype=DataType.Half,
                            is_cpu=False, stride_order=[0, 1])
    b = forms.define_tensor([2, 3], [True, True], DataType.Int32)
    c = forms.define_tensor(sizes=[2, 3], strides=[3, 1], dtype=DataType.Bool)
    forms.add_output(forms.ops.where(c, a, b))
print("forms:", [t.shape for t in (a, b, c)], [t.dtype for t in (a, b, c)])

# The op signatures of older nvFuser releases: squeeze(T, original_shape,
# dims), broadcast_in_dim(T, output_shape=...), reshape(T, original_shape,
# new_shape).
with FusionDefinition() as old_forms:
    t = old_forms.define_tensor(shape=[1, 4], dtype=DataType.Float)
    squeezed = old_forms.ops.squeeze(t, [1, 4], [0])
    expanded = old_forms.ops.broadcast_in_dim(squeezed, output_shape=[3, 4], broadcast_dims=[1])
    old_forms.add_output(old_forms.ops.reshape(expanded, [3, 4], [12]))
    expanded_squeeze = old_forms.ops.squeeze(t, [0], True)
print("old forms:", squeezed.shape, expanded.shape, expanded_squeeze.shape)


def expect(error_type, call):
    try:
        call()
    except error_type as error:
        print("%s: %s" % (error_type.__name__, error))
    else:
        raise AssertionError("no %s" % error_type.__name__)


# execute() names the argument that is wrong.
expect(ValueError, lambda: fd.execute([xb]))
expect(TypeError, lambda: fd.execute([x, wb]))
expect(ValueError, lambda: fd.execute([xb, xb]))
expect(TypeError, lambda: fd.execute([xb, [1.0] * 16]))
expect(TypeError, lambda: fd.execute(xb))

# Construction errors.
expect(RuntimeError, lambda: fd.ops.add(t0, t0))
expect(RuntimeError, lambda: presegged.define_tensor(shape=[2], dtype=DataType.Float))
with FusionDefinition() as other:
    expect(ValueError, lambda: other.ops.neg(t0))
    b = other.define_tensor(shape=[4], dtype=DataType.Bool)
    # abs of bools is a dtype error; the op verifier's messages arrive as
    # ValueErrors (a padded extent beyond int64).
    expect(TypeError, lambda: other.ops.abs(b))
    expect(ValueError, lambda: other.ops.pad(b, [2**62, 2**62]))
    expect(ValueError, lambda: other.define_tensor(shape=[-1, 4], dtype=DataType.Float))
    expect(ValueError, lambda: other.define_tensor(shape=[2, 4], contiguity=[True], dtype=DataType.Float))
    expect(TypeError, lambda: other.ops.max(b, dims=[0], dtype=DataType.Float))
    other.add_output(b)
expect(RuntimeError, lambda: FusionDefinition().mlir())

# Numbers that do not fit: Python ints beyond int64 and non-integral extents
# are refused (never truncated), as are inputs too large to generate.
with FusionDefinition() as bad:
    f = bad.define_tensor(shape=[2, 3], dtype=DataType.Float)
    expect(TypeError, lambda: bad.define_tensor(shape=[2.5], dtype=DataType.Float))
    expect(TypeError, lambda: bad.define_tensor(shape="ab", dtype=DataType.Float))
    expect(ValueError, lambda: bad.define_tensor(shape=[2**64], dtype=DataType.Float))
    expect(ValueError, lambda: bad.ops.add(f, 2**70))
    expect(ValueError, lambda: bad.define_scalar(2**63))
    expect(ValueError, lambda: bad.ops.sum(f, dims=[2**70]))
    huge = bad.define_tensor(shape=[2**40, 2**40], dtype=DataType.Float)
    # A failed call leaves nothing behind: the cast to bool that sum builds
    # before it rejects a bool dtype, the broadcast before a negative extent.
    expect(TypeError, lambda: bad.ops.sum(f, dims=[0], dtype=DataType.Bool))
    expect(ValueError, lambda: bad.ops.broadcast_in_dim(f, shape=[2, -5, 3], broadcast_dims=[0, 2]))
    # numpy scalars are numbers (the negative case: these build).
    bad.add_output(bad.ops.mul(f, np.float32(2)))
    bad.add_output(bad.ops.add(f, np.int64(1)))
print("after errors:", [line.split("=")[-1].split()[0] for line in bad.mlir().splitlines()
                        if " = " in line])
expect(ValueError, lambda: bad.deterministic_inputs())
with FusionDefinition() as scalar_input:
    s = scalar_input.define_scalar(dtype=DataType.Int32)
    scalar_input.add_output(scalar_input.ops.full([2], s, DataType.Int32))
expect(ValueError, lambda: scalar_input.execute([2**40]))
