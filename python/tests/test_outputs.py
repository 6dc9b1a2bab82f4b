"""Outputs as nvFuser defines them: add_output(out, alias_input) writes the
result into that input (in place, not returned); stride_order gives the
returned array that memory layout."""
import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition


def test_alias_writes_into_the_input():
    with FusionDefinition() as fd:
        weight = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        grad = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        updated = fd.ops.sub(weight, fd.ops.mul(grad, 0.5))
        fd.add_output(updated, weight)
        fd.add_output(fd.ops.sum(updated, dims=[0]))
    w = np.arange(4, dtype=np.float32)
    buffer = w.ctypes.data
    outputs = fd.execute([w, np.ones(4, np.float32)])
    # The aliased output is not returned; the input changed in place.
    assert len(outputs) == 1 and outputs[0] == np.float32(4.0)
    np.testing.assert_array_equal(w, np.arange(4, dtype=np.float32) - 0.5)
    assert w.ctypes.data == buffer
    fd.execute([w, np.ones(4, np.float32)])
    np.testing.assert_array_equal(w, np.arange(4, dtype=np.float32) - 1.0)


# add_output calls and the outputs nvFuser 0.2.36's Fusion lists for them
# (fd.fusion.outputs(), measured): "t1>t0" is add_output(t1, t0).
FUSION_OUTPUTS = [
    (["t1", "t1>t0", "t0"], ["T1", "T0"]),
    (["t1>t0", "t1"], ["T1"]),
    (["t1>t0", "t0"], ["T1", "T0"]),
    (["t1", "t1"], ["T1", "T1"]),
    (["t1", "t1>t0", "t1"], ["T1", "T1"]),
    (["t1>t0", "t1", "t1"], ["T1", "T1"]),
    (["t2", "t1>t0", "t2", "t1"], ["T2", "T2", "T1"]),
]


@pytest.mark.parametrize("calls, listed", FUSION_OUTPUTS,
                         ids=[" ".join(calls) for calls, _ in FUSION_OUTPUTS])
def test_fusion_outputs_as_nvfuser_lists_them(calls, listed):
    """csrc/fusion.cpp: add_output(T, alias) adds T, hidden, unless T is an
    output already; add_output(T) appends T, or moves a hidden T to the end.
    execute returns the outputs added plainly, in call order."""
    from fuser_mlir import nvfuser_direct
    with nvfuser_direct.FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        tensors = {"t0": t0, "t1": fd.ops.neg(t0), "t2": fd.ops.exp(t0)}
        for call in calls:
            output, _, alias = call.partition(">")
            fd.add_output(tensors[output], *([tensors[alias]] if alias else []))
    assert [t.name for t in fd.fusion.outputs()] == listed
    x = np.arange(3, dtype=np.float32)
    returned = fd.execute([x.copy()])
    assert len(returned) == sum(1 for call in calls if ">" not in call)


def test_alias_into_a_strided_input():
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        fd.add_output(fd.ops.neg(t0), alias_input=t0)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    view = x.T
    assert fd.execute([view]) == []
    np.testing.assert_array_equal(x, -np.arange(6, dtype=np.float32).reshape(2, 3))


def test_alias_of_a_read_only_input():
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[2], dtype=DataType.Float)
        fd.add_output(fd.ops.neg(t0), alias_input=t0)
    x = np.ones(2, np.float32)
    x.flags.writeable = False
    with pytest.raises(ValueError, match="an output aliases an input that cannot be written"):
        fd.execute([x])


@pytest.mark.parametrize("stride_order, strides", [
    ([2, 1, 0], (48, 16, 4)),      # row-major: as without stride_order
    ([0, 1, 2], (4, 8, 24)),       # column-major
    ([2, 0, 1], (48, 4, 12)),      # dim 1 fastest, then dim 2
])
def test_output_stride_order(stride_order, strides):
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[2, 3, 4], dtype=DataType.Float)
        fd.add_output(fd.ops.mul(t0, 2.0), stride_order=stride_order)
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    (out,) = fd.execute([x])
    assert out.strides == strides
    np.testing.assert_array_equal(out, 2 * x)


def test_meta_outputs_are_views_of_inputs():
    """As nvFuser: an output that reshape, squeeze, permute or set make of an
    input is a view of the input's memory where a view can express it."""
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        fd.add_output(fd.ops.reshape(t0, [-1]))
        fd.add_output(fd.ops.permute(fd.ops.set(t0), [1, 0]))
        fd.add_output(fd.ops.neg(t0))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    flat, transposed, negated = fd.execute([x])
    assert np.shares_memory(flat, x) and np.shares_memory(transposed, x)
    assert not np.shares_memory(negated, x)
    np.testing.assert_array_equal(transposed, x.T)
    # A reshape of a transposed input needs a copy: the computed result.
    (flat, transposed, _) = fd.execute([x.T.copy().T])
    np.testing.assert_array_equal(flat, x.reshape(-1))
    assert not np.shares_memory(flat, x) and transposed.shape == (3, 2)


def test_output_also_written_into_an_input_is_that_input():
    """As nvFuser: an output added plainly and as an alias of an input comes
    back as the (updated) input itself; an input as an output is the input."""
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        t1 = fd.ops.neg(t0)
        fd.add_output(t1)
        fd.add_output(t1, t0)
        fd.add_output(t0)
    x = np.arange(3, dtype=np.float32)
    first, second = fd.execute([x])
    assert first is x or np.shares_memory(first, x)
    assert np.shares_memory(second, x)
    np.testing.assert_array_equal(x, -np.arange(3, dtype=np.float32))
