"""Every error the FusionDefinition API raises for a bad call, with its
exception type and whole message: the Python layer's checks
(fuser_mlir/_fusion.py), the FusionBuilder's diagnostics (which start with
the script line of the call), and the native module's own guards, which the
Python layer never lets a call reach. A message that changes, or a call that
stops raising, fails its case."""
import re
from types import SimpleNamespace

import pytest

from fuser_mlir import DataType, FusionDefinition
from fuser_mlir import _fuser_mlir


def exactly(message):
    return "^%s$" % re.escape(message)


def located(message):
    """A FusionBuilder diagnostic: this file's line of the call first."""
    return r"^.*test_api_errors\.py:\d+: %s$" % re.escape(message)


def case(error_type, call, match):
    """A parametrize entry named by its message (its first 60 characters)."""
    message = re.sub(r"\\(.)", r"\1", match.split(r"\d+: ")[-1].strip("^$"))
    return pytest.param(error_type, call, match, id=message[:60])


DEFINITION_ERRORS = [
    # Definitions.
    (TypeError, lambda v: v.fd.define_tensor(shape=[2], dtype="float32"),
     exactly("define_tensor's dtype must be a DataType, got 'float32'")),
    (TypeError, lambda v: v.fd.define_tensor(dtype=DataType.Float),
     exactly("define_tensor needs shape (or sizes)")),
    (ValueError, lambda v: v.fd.define_tensor(shape=[2, 3], strides=[1], dtype=DataType.Float),
     exactly("define_tensor's strides has 1 entries for a tensor of rank 2")),
    (ValueError, lambda v: v.fd.define_tensor(shape=[2, 3], stride_order=[0, 0], dtype=DataType.Float),
     exactly("define_tensor's stride_order [0, 0] is not a permutation of the 2 dims")),
    (TypeError, lambda v: v.fd.define_scalar(v.f),
     exactly("define_scalar's value must be a Python number")),
    (ValueError, lambda v: v.fd.define_vector(-1),
     exactly("define_vector's length -1 is negative")),
    (ValueError, lambda v: v.fd.add_output(v.f, alias_input=v.fd.ops.neg(v.f)),
     exactly("add_output's alias_input must be a tensor input of this definition, got "
             "Tensor(T5, ndim=2, dtype=DataType.Float)")),
    (ValueError, lambda v: v.fd.add_output(v.f, alias_input=v.row),
     located("add_output: output T0 of type tensor<2x3xf32> cannot be written into input T3 "
             "of type tensor<4xf32>")),
    (TypeError, lambda v: v.fd.add_output(v.s),
     exactly("add_output's output must be a Tensor of this FusionDefinition, "
             "got Scalar(S4, dtype=DataType.Double)")),
    # Operands.
    (TypeError, lambda v: v.fd.ops.neg("x"),
     exactly("the operand of neg must be a Tensor, a Scalar or a Python number, got 'x'")),
    (TypeError, lambda v: v.fd.ops.permute(v.s, [0]),
     exactly("permute's operand must be a Tensor of this FusionDefinition, "
             "got Scalar(S4, dtype=DataType.Double)")),
    # Pointwise.
    (TypeError, lambda v: v.fd.ops.add(v.b, v.b), located("'add' needs numeric or complex operands, found i1")),
    (TypeError, lambda v: v.fd.ops.where(v.f, v.f, v.f),
     located("the condition of 'where' must be bool (i1), found 'f32'")),
    (ValueError, lambda v: v.fd.ops.where(v.b, v.f, v.row),
     located("operands of 'where' have incompatible shapes 'tensor<2x3xi1>' and 'tensor<4xf32>'")),
    (TypeError, lambda v: v.fd.ops.full([2], v.f, DataType.Float),
     located("the fill value of 'full' must be a scalar")),
    (ValueError, lambda v: v.fd.ops.full([-2], 0.0, DataType.Float),
     located("'full' needs non-negative extents")),
    (TypeError, lambda v: v.fd.ops.cast(2.5, DataType.Int),
     located("literal 2.500000e+00 is not an integer but is used as 'i64'")),
    # Data movement.
    (TypeError, lambda v: v.fd.ops.reshape(v.f), exactly("reshape needs new_shape")),
    (ValueError, lambda v: v.fd.ops.reshape(v.f, [-2, 3]),
     located("'reshape' extent -2 is invalid (one -1 may be inferred)")),
    (ValueError, lambda v: v.fd.ops.reshape(v.f, [4, -1]),
     located("'reshape' cannot infer the -1 extent: 6 elements do not divide by 4")),
    (ValueError, lambda v: v.fd.ops.reshape(v.f, [4, 2]),
     located("'reshape' of 'tensor<2x3xf32>' (6 elements) to [4, 2] (8 elements)")),
    (TypeError, lambda v: v.fd.ops.squeeze(v.f), exactly("squeeze needs dims")),
    (ValueError, lambda v: v.fd.ops.squeeze(v.f, [0, 0]), located("'squeeze' dim 0 is given twice")),
    (ValueError, lambda v: v.fd.ops.broadcast(v.f, [True, False]),
     located("'broadcast' of 'tensor<2x3xf32>' needs 2 false entries in is_broadcast_dim, found 1")),
    (ValueError, lambda v: v.fd.ops.expand(v.f, [2]),
     located("'expand' of 'tensor<2x3xf32>' needs 2 extents, found 1")),
    (TypeError, lambda v: v.fd.ops.broadcast_in_dim(v.f, shape=[2, 3]),
     exactly("broadcast_in_dim needs shape and broadcast_dims")),
    (ValueError, lambda v: v.fd.ops.broadcast_in_dim(v.f, [2, 3], [0]),
     located("'broadcast_in_dim' of 'tensor<2x3xf32>' needs 2 broadcast_dims, found 1")),
    (ValueError, lambda v: v.fd.ops.broadcast_in_dim(v.f, [2, 3], [0, 5]),
     located("'broadcast_in_dim' broadcast_dims entry 5 is out of range for an output of rank 2")),
    (ValueError, lambda v: v.fd.ops.broadcast_in_dim(v.f, [2, 3], [-3, 1]),
     located("'broadcast_in_dim' broadcast_dims entry -3 is out of range for an output of rank 2")),
    (ValueError, lambda v: v.fd.ops.broadcast_in_dim(v.f, [3, 2, 4], [1, 0]),
     located("'broadcast_in_dim' broadcast_dims must be increasing")),
    (ValueError, lambda v: v.fd.ops.broadcast_in_dim(v.f, [2, 4], [0, 1]),
     located("'broadcast_in_dim' cannot map dim 1 of 'tensor<2x3xf32>' (extent 3) "
             "to output dim 1 of extent 4")),
    (ValueError, lambda v: v.fd.ops.permute(v.f, [0]),
     located("'permute' of 'tensor<2x3xf32>' needs 2 dims, found 1")),
    (ValueError, lambda v: v.fd.ops.stride_order(v.f, [0, 2]),
     exactly("stride_order [0, 2] is not a permutation of the tensor's dims")),
    (ValueError, lambda v: v.fd.ops.size(v.f, 2),
     exactly("size: dim 2 is out of range for a tensor of rank 2")),
    # nvFuser's frontend checks (with its messages) of constant slice indices.
    (ValueError, lambda v: v.fd.ops.slice(v.f, [0], [1]),
     exactly("Number of tensor dimensions does not match slice dimensions! (2 vs 1)")),
    (ValueError, lambda v: v.fd.ops.slice(v.f, [0, 0], [1]),
     exactly("Slice indexing attribute dimensions don't match! Start Indices: 2 End Indices: 1")),
    (ValueError, lambda v: v.fd.ops.slice(v.f, [0, 0], [1, 1], [1]),
     exactly("Slice start_indices and strides don't match! Start Indices: 2 Strides: 1")),
    (ValueError, lambda v: v.fd.ops.slice(v.f, [0, -1], [1, 1]),
     exactly("Slice operation start_indices must be greater than or equal to 0. Start Indices: -1")),
    (ValueError, lambda v: v.fd.ops.slice(v.f, [0, 2], [1, 1]),
     exactly("Slice operation end_indices must be greater than or equal to start_indices. "
             "Start Indices: 2 End Indices: 1")),
    (ValueError, lambda v: v.fd.ops.slice(v.f, [0, 0], [1, 1], [1, 0]),
     exactly("nvFuser Limitation: All slice operation strides must be of const size 1.")),
    (ValueError, lambda v: v.fd.ops.pad(v.f, [1, 1, 1]),
     located("'pad' widths of 'tensor<2x3xf32>' are (low, high) pairs for at most 2 dims, "
             "found 3 values")),
    (TypeError, lambda v: v.fd.ops.pad(v.f, [1, 1], v.f), located("the pad value must be a scalar")),
    # nvFuser's hasSimilarDtype: a pad value of another dtype class would be
    # cast, losing a fraction or an imaginary part.
    (TypeError, lambda v: v.fd.ops.pad(v.f, [1, 1], 2), exactly(
        "Tensor arg and pad value must have the same dtype. (float32 tensor, int64 value)")),
    (TypeError, lambda v: v.fd.ops.pad(v.i, [1, 1], 2.5), exactly(
        "Tensor arg and pad value must have the same dtype. (int32 tensor, float64 value)")),
    (TypeError, lambda v: v.fd.ops.pad(v.b, [1, 1], 1), exactly(
        "Tensor arg and pad value must have the same dtype. (bool tensor, int64 value)")),
    (TypeError, lambda v: v.fd.ops.pad(
        v.f, [1, 1], v.fd.define_scalar(1.5 + 2j, dtype=DataType.ComplexDouble)), exactly(
        "Tensor arg and pad value must have the same dtype. (float32 tensor, complex128 value)")),
    (ValueError, lambda v: v.fd.ops.cat([], 0), located("'cat' needs at least one tensor")),
    (TypeError, lambda v: v.fd.ops.cat([v.f, v.f], 1.5),
     exactly("cat's dim must be an integer or a list of integers, got 1.5")),
    (TypeError, lambda v: v.fd.ops.cat([v.f, v.i], 0),
     located("'cat' operands have different dtypes: 'tensor<2x3xf32>' and 'tensor<2x3xi32>'")),
    (ValueError, lambda v: v.fd.ops.cat([v.f, v.row], 0),
     located("'cat' operands have different ranks: 'tensor<2x3xf32>' and 'tensor<4xf32>'")),
    (ValueError, lambda v: v.fd.ops.cat([v.f, v.fd.ops.full([3, 3], 0.0, DataType.Float)], 1),
     located("'cat' operands 'tensor<2x3xf32>' and 'tensor<3x3xf32>' differ in dim 0")),
    # Reductions.
    (ValueError, lambda v: v.fd.ops.sum(v.f, dims=[]), located("a reduction needs at least one dim")),
    (TypeError, lambda v: v.fd.ops.min(v.f, dims=[0], dtype=DataType.Double),
     located("a min reduction takes no dtype (nvFuser's max and min support only DataType.Null)")),
]


@pytest.mark.parametrize("error_type, call, match",
                         [case(*entry) for entry in DEFINITION_ERRORS])
def test_definition_error(error_type, call, match):
    with FusionDefinition() as fd:
        values = SimpleNamespace(
            fd=fd, f=fd.define_tensor(shape=[2, 3], dtype=DataType.Float),
            i=fd.define_tensor(shape=[2, 3], dtype=DataType.Int32),
            b=fd.define_tensor(shape=[2, 3], dtype=DataType.Bool),
            row=fd.define_tensor(shape=[4], dtype=DataType.Float),
            s=fd.define_scalar(1.5))
        with pytest.raises(error_type, match=match):
            call(values)
        fd.add_output(values.f)


def test_defined_fusion_cannot_be_entered_again():
    with FusionDefinition() as fd:
        fd.add_output(fd.define_tensor(shape=[2], dtype=DataType.Float))
    with pytest.raises(RuntimeError, match=exactly("this FusionDefinition is already defined")):
        fd.__enter__()


def test_ops_outside_a_definition():
    with pytest.raises(RuntimeError, match=exactly(
            "fusion ops are called inside `with FusionDefinition() as fd:` or definition()")):
        FusionDefinition().ops.neg(1.0)


# The native module's guards behind the Python checks above.
NATIVE_GUARDS = [
    (ValueError, lambda n, t: n.unary("erfcx", ("value", t)), exactly("unknown unary op 'erfcx'")),
    (ValueError, lambda n, t: n.binary("fmax", ("value", t), ("value", t)),
     exactly("unknown binary op 'fmax'")),
    (ValueError, lambda n, t: n.reduction("avg", t, [0], False, None), exactly("unknown reduction 'avg'")),
    (ValueError, lambda n, t: n.run_pipeline("lower"), exactly("unknown pipeline 'lower'")),
    (ValueError, lambda n, t: n.deterministic_input(5, 0), exactly("no such input")),
    (ValueError, lambda n, t: n.set(7), exactly("not a value of this fusion")),
    (TypeError, lambda n, t: n.unary("neg", "x"), exactly("a scalar must be a Python bool, int or float")),
    (TypeError, lambda n, t: n.add_output(n.define_constant(1.0, "float32")),
     exactly("add_output takes a tensor; fusion outputs are tensors")),
    (RuntimeError, lambda n, t: n.run_pipeline("preseg").set(t),
     exactly("this fusion is the result of a pipeline and cannot be extended")),
    (TypeError, lambda n, t: n.define_input([2], "complex32"),
     exactly("unsupported dtype 'complex32' (supported: Bool, Int32, Int, Half, BFloat16, Float, "
             "Double, Float8_e4m3fn, Float8_e5m2, ComplexFloat, ComplexDouble)")),
]


@pytest.mark.parametrize("error_type, call, match", [case(*entry) for entry in NATIVE_GUARDS])
def test_native_guard(error_type, call, match):
    native = _fuser_mlir.Fusion("guards")
    t = native.define_input([2], "float32")
    with pytest.raises(error_type, match=match):
        call(native, t)


# Scalar inputs given a value of another kind (issue 43) ----------------------
#
# nvFuser binds a fusion input with ExpressionEvaluator::bind_, which refuses
# a value whose dtype is not compatible with the input's (csrc/expr_evaluator.cpp,
# hasCompatibleDataType in csrc/type.h): an int only for integers, a float
# only for floating point, a bool only for Bool. Its RuntimeError says
# "Scalar value 2.9 is not compatible with the expected data type: int64_t.";
# here a FusionTypeError (a RuntimeError and a TypeError) says the same,
# naming the input. A float used to be truncated: 2.9 made an extent of 2.

def _scalar_message(position, shown, cpp, given, dtype):
    return exactly("inputs[%d]: Scalar value %s is not compatible with the expected data "
                   "type: %s. (%s given for a DataType.%s scalar; nvFuser refuses it "
                   "rather than converting it)" % (position, shown, cpp, given, dtype))


def _extent_fusion():
    """An Int scalar input that decides an extent, a Double, a Bool and a
    ComplexDouble that are operands."""
    import numpy as np
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        n = fd.define_scalar(None, dtype=DataType.Int)
        alpha = fd.define_scalar(None, dtype=DataType.Double)
        flag = fd.define_scalar(None, dtype=DataType.Bool)
        fd.add_output(fd.ops.full([n], 1.0, DataType.Float))
        fd.add_output(fd.ops.where(flag, fd.ops.mul(t, alpha), t))
    return fd, np.ones(3, np.float32)


@pytest.mark.parametrize("values, match", [
    ((2.9, 1.5, True), _scalar_message(1, "2.9", "int64_t", "a float", "Int")),
    ((-0.5, 1.5, True), _scalar_message(1, "-0.5", "int64_t", "a float", "Int")),
    ((2.0, 1.5, True), _scalar_message(1, "2", "int64_t", "a float", "Int")),
    ((True, 1.5, True), _scalar_message(1, "1", "int64_t", "a bool", "Int")),
    ((2, 2, True), _scalar_message(2, "2", "double", "an int", "Double")),
    ((2, 1.5, 1.0), _scalar_message(3, "1", "bool", "a float", "Bool")),
    ((2, 1.5, 1), _scalar_message(3, "1", "bool", "an int", "Bool")),
    ((2, 1.5 + 1j, True), _scalar_message(2, "(1.5,1)", "double", "a complex", "Double")),
], ids=["float for Int", "negative float for Int", "integral float for Int", "bool for Int",
        "int for Double", "float for Bool", "int for Bool", "complex for Double"])
def test_scalar_input_of_another_kind(values, match):
    fd, x = _extent_fusion()
    with pytest.raises(TypeError, match=match) as raised:
        fd.execute([x, *values])
    assert isinstance(raised.value, RuntimeError)  # as nvFuser's
    with pytest.raises(TypeError, match=match):
        fd.execute([x, *values], backend="cpu")
    assert fd.cache_info() == (0, 0, 0)  # refused before anything compiled


def test_scalar_input_numpy_kinds():
    """numpy scalars and 0-d arrays follow their dtype's kind: an integer
    for Int, a float for Double, a bool for Bool, whatever the width."""
    import numpy as np
    fd, x = _extent_fusion()
    full, scaled = fd.execute([x, np.int32(2), np.float32(2.0), np.bool_(True)])
    assert full.shape == (2,) and list(scaled) == [2.0] * 3
    full, scaled = fd.execute([x, np.array(4, np.uint8), np.array(0.5), False])
    assert full.shape == (4,) and list(scaled) == [1.0] * 3
    with pytest.raises(TypeError, match=_scalar_message(1, "2.5", "int64_t", "a float", "Int")):
        fd.execute([x, np.float64(2.5), 1.5, True])
    with pytest.raises(TypeError, match=_scalar_message(2, "3", "double", "an int", "Double")):
        fd.execute([x, 2, np.array(3, np.int64), True])
    with pytest.raises(TypeError, match=_scalar_message(3, "0", "bool", "an int", "Bool")):
        fd.execute([x, 2, 1.5, np.int8(0)])


def test_complex_scalar_input():
    """A ComplexDouble scalar input takes a Python complex (nvFuser's test
    passes 2.0 + 1.0j) and refuses a float."""
    import numpy as np
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[2], dtype=DataType.ComplexDouble)
        c = fd.define_scalar(None, dtype=DataType.ComplexDouble)
        fd.add_output(fd.ops.mul(t, c))
    x = np.ones(2, np.complex128)
    (out,) = fd.execute([x, 2.0 + 1.0j])
    assert list(out) == [2 + 1j] * 2
    with pytest.raises(TypeError, match=_scalar_message(
            1, "2", "std::complex<double>", "a float", "ComplexDouble")):
        fd.execute([x, 2.0])
