"""The FusionDefinition API beyond single ops: both definition styles
against numpy (softmax and RMSNorm rows), preseg keeping the bits,
segments() as Python objects, define_tensor's and the ops' older forms, and
the exceptions users get: execute() names the argument, C++ diagnostics
arrive with their script line, numbers that do not fit are refused, and a
failed call rolls back what it built."""
import re

import ml_dtypes
import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition, Segment

rng = np.random.default_rng(3)
x = (rng.integers(-64, 65, size=(4, 16)) / 8).astype(np.float32)
xb, wb = x.astype(ml_dtypes.bfloat16), (x[0] / 4).astype(ml_dtypes.bfloat16)


COMPLETE = "^this FusionDefinition is complete \\(its `with` block or definition\\(\\) has ended, " \
    "or it came from a pipeline\\)$"


def exactly(message):
    return "^%s$" % re.escape(message)


def located(message):
    """A C++ diagnostic: this file's line of the call first."""
    return r"^.*test_api\.py:\d+: %s$" % re.escape(message)


class Softmax(FusionDefinition):
    """Subclass style: definition() runs when the fusion is first needed."""

    def definition(self):
        t0 = self.define_tensor(shape=[4, 16], contiguity=[True, True], dtype=DataType.Float)
        row_max = self.ops.max(t0, dims=[1])
        shifted = self.ops.sub(t0, self.ops.broadcast_in_dim(row_max, shape=[4, 16], broadcast_dims=[0]))
        e = self.ops.exp(shifted)
        total = self.ops.sum(e, dims=[1])
        self.add_output(self.ops.div(e, self.ops.broadcast_in_dim(total, shape=[4, 16], broadcast_dims=[0])))


@pytest.fixture(scope="module")
def rmsnorm():
    """Context-manager style: an RMSNorm row in bf16, computed in f32."""
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[4, 16], contiguity=[True, True], dtype=DataType.BFloat16)
        w = fd.define_tensor(shape=[16], contiguity=[True], dtype=DataType.BFloat16)
        t1 = fd.ops.cast(t0, DataType.Float)
        mean_square = fd.ops.div(fd.ops.sum(fd.ops.mul(t1, t1), dims=[1], keepdim=True), 16.0)
        inv = fd.ops.rsqrt(fd.ops.add(mean_square, fd.define_scalar(1e-6, dtype=DataType.Double)))
        normed = fd.ops.mul(t1, fd.ops.expand(inv, shape=[4, 16]))
        fd.add_output(fd.ops.cast(fd.ops.mul(normed, w), DataType.BFloat16))
    fd.t0 = t0
    return fd


def test_subclass_softmax():
    (softmax,) = Softmax().execute([x])
    reference = np.exp(x - x.max(axis=1, keepdims=True))
    reference /= reference.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(softmax, reference, rtol=1e-5, atol=0)


def test_with_block_rmsnorm(rmsnorm):
    (rms,) = rmsnorm.execute([xb, wb])
    xf = xb.astype(np.float32)
    expected = (xf / np.sqrt((xf * xf).sum(axis=1, keepdims=True) / 16 + np.float32(1e-6))
                * wb.astype(np.float32)).astype(ml_dtypes.bfloat16)
    assert rms.dtype == ml_dtypes.bfloat16 and rms.shape == (4, 16)
    np.testing.assert_allclose(rms.astype(np.float32), expected.astype(np.float32),
                               rtol=2 ** -7, atol=0)


def test_preseg_keeps_the_bits(rmsnorm):
    """preseg() and segment() return new definitions."""
    presegged = rmsnorm.preseg()
    assert isinstance(presegged, FusionDefinition)
    assert presegged.mlir().count("fuser.") <= rmsnorm.mlir().count("fuser.")
    (before,) = rmsnorm.execute([xb, wb])
    (after,) = presegged.execute([xb, wb])
    np.testing.assert_array_equal(after.view(np.uint16), before.view(np.uint16))
    assert "fuser.segment " in rmsnorm.segment().mlir()
    with pytest.raises(RuntimeError, match=COMPLETE):
        presegged.define_tensor(shape=[2], dtype=DataType.Float)


def test_segments_are_report_data():
    segments = Softmax().segments()
    assert all(isinstance(segment, Segment) for segment in segments)
    assert [segment.index for segment in segments] == list(range(len(segments)))
    first = segments[0]
    assert re.fullmatch("[a-z]+", first.kind) and first.kernels == 1
    assert first.bytes_read > 0 and first.bytes_written > 0
    assert [i["shape"] for i in first.inputs] == [(4, 16)]


def test_define_tensor_forms():
    """nvFuser's keywords, positional, and sizes/strides."""
    with FusionDefinition() as forms:
        a = forms.define_tensor(shape=[2, 3], contiguity=[True, True], dtype=DataType.Half,
                                is_cpu=False, stride_order=[0, 1])
        b = forms.define_tensor([2, 3], [True, True], DataType.Int32)
        c = forms.define_tensor(sizes=[2, 3], strides=[3, 1], dtype=DataType.Bool,
                                static_sizes=True)
        forms.add_output(forms.ops.where(c, a, b))
    assert [t.shape() for t in (a, b, c)] == [[2, 3]] * 3
    assert [t.dtype for t in (a, b, c)] == [DataType.Half, DataType.Int32, DataType.Bool]


def test_define_tensor_sizes_and_strides_as_nvfuser():
    """As nvFuser's define_tensor(sizes, strides): symbolic extents unless
    static_sizes (size-1 dims broadcast), the strides' contiguity and
    stride order; any extents run."""
    with FusionDefinition() as fd:
        t = fd.define_tensor(sizes=[2, 1, 4], strides=[4, 4, 1])
        u = fd.define_tensor(sizes=[2, 3], strides=[1, 2])
        fd.add_output(fd.ops.sum(t, dims=[1]))
        fd.add_output(fd.ops.neg(u))
    record = fd._records[0].kwargs
    assert (record["shape"], record["contiguity"]) == ([-1, 1, -1], [True, None, True])
    assert (fd._records[1].kwargs["shape"], fd._records[1].kwargs["stride_order"]) == \
        ([-1, -1], [0, 1])
    x = np.arange(15, dtype=np.float32).reshape(3, 1, 5)
    y = np.asfortranarray(np.ones((4, 2), np.float32))
    summed, negated = fd.execute([x, y])
    np.testing.assert_array_equal(summed, x[:, 0, :])
    np.testing.assert_array_equal(negated, -y)


def test_older_op_signatures():
    """squeeze(T, original_shape, dims), broadcast_in_dim(T, output_shape=...),
    reshape(T, original_shape, new_shape) of older nvFuser releases."""
    with FusionDefinition() as old_forms:
        t = old_forms.define_tensor(shape=[1, 4], dtype=DataType.Float)
        squeezed = old_forms.ops.squeeze(t, [1, 4], [0])
        expanded = old_forms.ops.broadcast_in_dim(squeezed, output_shape=[3, 4], broadcast_dims=[1])
        old_forms.add_output(old_forms.ops.reshape(expanded, [3, 4], [12]))
        expanded_squeeze = old_forms.ops.squeeze(t, [0], True)
    assert (squeezed.shape(), expanded.shape(), expanded_squeeze.shape()) == ([4], [3, 4], [4])


@pytest.mark.parametrize("error_type, inputs, match", [
    (ValueError, lambda: [xb], exactly("execute() expects 2 inputs, got 1")),
    (TypeError, lambda: [x, wb], exactly("inputs[0]: expected dtype bfloat16, got float32")),
    (ValueError, lambda: [xb, xb], exactly("inputs[1]: expected shape (16,), got (4, 16)")),
    (TypeError, lambda: [xb, [1.0] * 16],
     exactly("inputs[1]: expected a numpy array or torch tensor of bfloat16, got list")),
    (TypeError, lambda: xb, exactly("execute() takes a list of inputs, got ndarray")),
], ids=["count", "dtype", "shape", "list", "not a list"])
def test_execute_names_the_argument(rmsnorm, error_type, inputs, match):
    with pytest.raises(error_type, match=match):
        rmsnorm.execute(inputs())


def test_construction_errors(rmsnorm):
    with pytest.raises(RuntimeError, match=COMPLETE):
        rmsnorm.ops.add(rmsnorm.t0, rmsnorm.t0)
    with FusionDefinition() as other:
        with pytest.raises(ValueError, match=exactly(
                "the operand of neg belongs to another FusionDefinition")):
            other.ops.neg(rmsnorm.t0)
        b = other.define_tensor(shape=[4], dtype=DataType.Bool)
        # abs of bools is a dtype error; the op verifier's messages arrive as
        # ValueErrors (a padded extent beyond int64).
        with pytest.raises(TypeError, match=located("'abs' needs a numeric or complex operand, found i1")):
            other.ops.abs(b)
        with pytest.raises(ValueError, match=located(
                "'fuser.pad' op dim 0: padded size overflows int64")):
            other.ops.pad(b, [2**62, 2**62])
        with pytest.raises(ValueError, match=exactly(
                "extent -5 is negative: extents are sizes (>= 0), or -1 for a symbolic one")):
            other.define_tensor(shape=[4, -5], dtype=DataType.Float)
        with pytest.raises(ValueError, match=exactly(
                "define_tensor's contiguity has 1 entries for a tensor of rank 2")):
            other.define_tensor(shape=[2, 4], contiguity=[True], dtype=DataType.Float)
        with pytest.raises(TypeError, match=located(
                "a max reduction takes no dtype (nvFuser's max and min support only DataType.Null)")):
            other.ops.max(b, dims=[0], dtype=DataType.Float)
        other.add_output(b)
    with pytest.raises(RuntimeError, match=exactly(
            "Fusion does not exist! Use `with FusionDefinition() as fd: ...` to define a fusion. "
            "(this FusionDefinition has no fusion yet: define it in a `with` block or override "
            "definition())")):
        FusionDefinition().mlir()


def test_numbers_that_do_not_fit_and_rollback():
    """Python ints beyond int64 and non-integral extents are refused (never
    truncated), as are inputs too large to generate; a failed call leaves
    nothing behind."""
    with FusionDefinition() as bad:
        f = bad.define_tensor(shape=[2, 3], dtype=DataType.Float)
        with pytest.raises(TypeError, match=exactly(
                "define_tensor's shape must be an integer or a list of integers, got [2.5]")):
            bad.define_tensor(shape=[2.5], dtype=DataType.Float)
        with pytest.raises(TypeError, match=exactly(
                "define_tensor's shape must be an integer or a list of integers, got 'ab'")):
            bad.define_tensor(shape="ab", dtype=DataType.Float)
        with pytest.raises(TypeError, match=exactly(
                "define_tensor's shape: 18446744073709551616 does not fit in 64 bits")):
            bad.define_tensor(shape=[2**64], dtype=DataType.Float)
        with pytest.raises(ValueError, match=exactly(
                "integer 1180591620717411303424 does not fit in 64 bits")):
            bad.ops.add(f, 2**70)
        with pytest.raises(ValueError, match=exactly(
                "integer 9223372036854775808 does not fit in 64 bits")):
            bad.define_scalar(2**63)
        with pytest.raises(TypeError, match=exactly(
                "the reduction's dims: 1180591620717411303424 does not fit in 64 bits")):
            bad.ops.sum(f, dims=[2**70])
        bad.define_tensor(shape=[2**40, 2**40], dtype=DataType.Float)
        # The cast to bool that sum builds before it rejects a bool dtype,
        # and the broadcast before a negative extent, are rolled back.
        with pytest.raises(TypeError, match=located(
                "a add reduction needs a numeric tensor, found 'tensor<2x3xi1>'")):
            bad.ops.sum(f, dims=[0], dtype=DataType.Bool)
        with pytest.raises(ValueError, match=located(
                "'expand' cannot change dim 1 of 'tensor<2x1x3xf32>' from 1 to -5 (only size-1 dims expand)")):
            bad.ops.broadcast_in_dim(f, shape=[2, -5, 3], broadcast_dims=[0, 2])
        # numpy scalars are numbers (the negative case: these build).
        bad.add_output(bad.ops.mul(f, np.float32(2)))
        bad.add_output(bad.ops.add(f, np.int64(1)))
    assert [line.split("=")[-1].split()[0] for line in bad.mlir().splitlines() if " = " in line] \
        == ["arith.constant", "fuser.mul", "arith.constant", "fuser.add"]
    with pytest.raises(ValueError, match=exactly(
            "input 1 of type tensor<1099511627776x1099511627776xf32> takes more than "
            "2147483648 bytes")):
        bad.deterministic_inputs()


@pytest.mark.parametrize("dtype, value, match", [
    (DataType.Int32, 2**40, "inputs[0]: Python integer 1099511627776 out of bounds for int32"),
    (DataType.Float, np.zeros(3, np.float32), "inputs[0]: expected a scalar, got an array of shape (3,)"),
], ids=["out of bounds", "array"])
def test_execute_scalar_input_errors(dtype, value, match):
    with FusionDefinition() as scalar_input:
        s = scalar_input.define_scalar(dtype=dtype)
        scalar_input.add_output(scalar_input.ops.full([2], s, dtype))
    with pytest.raises(ValueError, match=exactly(match)):
        scalar_input.execute([value])


def test_scalar_for_a_zero_dim_input():
    """A 0-d tensor input takes a numpy or Python scalar of its dtype (it was
    refused with "expected ... float32, got float32"); a wrong dtype still
    names both."""
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[], dtype=DataType.Float)
        fd.add_output(fd.ops.mul(t, t))
    for value in (np.float32(1.5), 1.5, np.array(1.5, dtype=np.float32)):
        (out,) = fd.execute([value])
        assert out.shape == () and out == np.float32(2.25)
    with pytest.raises(TypeError, match=exactly("inputs[0]: expected dtype float32, got float64")):
        fd.execute([np.float64(1.5)])


def test_pad_crop_past_the_extent():
    """A negative pad width crops; cropping more than the extent is nvFuser's
    'Invalid resized domain extent', not an empty tensor."""
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[2, 2], dtype=DataType.Float)
        with pytest.raises(ValueError, match="Invalid resized domain extent: dim 1 of extent 2"):
            fd.ops.pad(t, [-3, 0, 0, 0])
