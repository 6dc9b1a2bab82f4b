"""What public nvFuser scripts and nvFuser's own tests use of the frontend
(issue 48, frontend gaps): the runner's report of a script that stops before
execute, define_tensor's 2023 keyword names, Fusion.print_math, inputs and
outputs, Tensor.is_tensor and domain, FusionCache.serialize and deserialize,
the legacy module's compute_tensor_descriptor and compute_contiguity, values
over 2 GiB. No torch needed."""

import numpy as np
import pytest

from fuser_mlir import (FusionCache, FusionDefinition, FusionError, FusionMemoryError,
                        FusionTypeError, DataType, nvfuser_compat, nvfuser_direct)
from fuser_mlir.nvfuser_compat import main as run_script


# The runner ---------------------------------------------------------------

SYMBOLIC_FUSION = """
from nvfuser import FusionDefinition, DataType
with FusionDefinition() as fd:
    t0 = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
    fd.add_output(fd.ops.relu(t0))
"""


def _run(tmp_path, source, capsys):
    script = tmp_path / "script.py"
    script.write_text(source)
    status = run_script([str(script)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err, str(script)


def test_runner_reports_the_scripts_error_before_execute(tmp_path, capsys):
    """A script that fails after defining a symbolic fusion and before
    executing it: its own error, exit status 2, no ValueError of the runner."""
    status, out, err, script = _run(
        tmp_path, SYMBOLIC_FUSION + "x = undefined_name\nfd.execute([x])\n", capsys)
    assert status == 2 and out == ""
    assert "%s:6: name 'undefined_name' is not defined (NameError)" % script in err
    assert "stopped before executing its fusion with symbolic extents" in err


def test_runner_reports_a_symbolic_fusion_never_executed(tmp_path, capsys):
    status, out, err, script = _run(tmp_path, SYMBOLIC_FUSION, capsys)
    assert status == 2 and out == ""
    assert "%s: 1 of its 1 fusion(s) have symbolic extents" % script in err
    assert "never executes them" in err


def test_runner_still_prints_static_fusions_before_a_script_error(tmp_path, capsys):
    source = SYMBOLIC_FUSION.replace("[-1, -1]", "[2, 3]") + "raise KeyError('late')\n"
    status, out, err, _ = _run(tmp_path, source, capsys)
    assert status == 0 and "tensor<2x3xf32>" in out
    assert "warning" in err and "KeyError" in err


# define_tensor's 2023 keyword names -----------------------------------------

def test_define_tensor_symbolic_sizes_and_contiguous():
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(symbolic_sizes=[-1, 1], contiguous=[True, True],
                              dtype=DataType.Half)
        fd.add_output(fd.ops.cast(t0, DataType.Float))
    assert "fd.define_tensor(shape=[-1, 1], contiguity=[True, True], dtype=DataType.Half" \
        in repr(fd)
    (out,) = fd.execute([np.full((3, 1), 2, np.float16)])
    np.testing.assert_array_equal(out, np.full((3, 1), 2, np.float32))


def test_define_tensor_refuses_two_names_of_one_argument():
    with FusionDefinition() as fd:
        with pytest.raises(FusionTypeError, match="contiguity or contiguous"):
            fd.define_tensor(symbolic_sizes=[-1], contiguity=[True], contiguous=[True])
        with pytest.raises(FusionTypeError, match="shape and symbolic_sizes"):
            fd.define_tensor(shape=[-1], symbolic_sizes=[-1])
        fd.add_output(fd.define_tensor(shape=[2]))


# Fusion.print_math, inputs, outputs; Tensor.is_tensor, domain ----------------

def _direct_add():
    with nvfuser_direct.FusionDefinition() as fd:
        tv0 = fd.define_tensor(shape=[2, 4, 8])
        tv1 = fd.define_tensor(shape=[2, 4, 8])
        tv2 = fd.ops.add(tv0, tv1)
        fd.add_output(tv2)
    return fd, (tv0, tv1, tv2)


def test_domain_as_nvfusers_test_fusion_definition_print():
    """nvFuser's tests/python/direct/test_python_direct.py."""
    fd, (tv0, tv1, tv2) = _direct_add()
    assert str(tv0.domain()) == "[iS0{2}, iS1{4}, iS2{8}]"
    assert str(tv1.domain()) == "[iS3{2}, iS4{4}, iS5{8}]"
    assert str(tv2.domain()) == "[iS6{2}, iS7{4}, iS8{8}]"
    assert tv0.domain()[0].extent() == 2 and len(tv2.domain()) == 3


def test_domain_of_symbolic_and_broadcast_inputs():
    with nvfuser_direct.FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1])
        t1 = fd.define_tensor(shape=[-1, 1, 3], dtype=DataType.Half)
        t2 = fd.ops.add(t0, t0)
        fd.add_output(t2)
    assert str(t0.domain()) == "[iS0{i0}, iS1{i1}]"
    assert str(t1.domain()) == "[iS2{i2}, bS3{1}, iS4{3}]"
    assert t1.domain()[0].extent() == "i2" and t1.domain()[1].is_broadcast
    with pytest.raises(NotImplementedError, match="symbolic extents of a definition's inputs"):
        t2.domain()


def test_is_tensor():
    with nvfuser_direct.FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[2])
        s0 = fd.define_scalar(dtype=DataType.Double)
        v0 = fd.define_vector(2)
        fd.add_output(fd.ops.mul(t0, s0))
    assert t0.is_tensor() and not s0.is_tensor() and not v0.is_tensor()
    # The test_tutorial idiom.
    assert list(filter(lambda v: v.is_tensor(), fd.fusion.inputs())) == [t0]


def test_fusion_inputs_and_outputs():
    fd, (tv0, tv1, tv2) = _direct_add()
    assert fd.fusion.inputs() == [tv0, tv1]
    assert fd.fusion.outputs() == [tv2]


def test_print_math_is_the_ir():
    fd, _ = _direct_add()
    math = fd.fusion.print_math()
    assert isinstance(math, str) and math == fd.mlir()
    assert "fuser.add %arg0, %arg1 : tensor<2x4x8xf32>" in math
    assert fd.fusion.print_math(from_outputs_only=False) == math


def test_print_math_of_a_symbolic_definition():
    with nvfuser_direct.FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1])
        fd.add_output(fd.ops.exp(t0))
    before = fd.fusion.print_math()
    assert before.startswith("// symbolic extents (-1) shown as 2") and "tensor<2xf32>" in before
    fd.execute([np.zeros(5, np.float32)])
    assert "tensor<5xf32>" in fd.fusion.print_math()


# FusionCache.serialize / deserialize -----------------------------------------

def _symbolic_definition(cls):
    with cls() as fd:
        t0 = fd.define_tensor(shape=[-1, 4], dtype=DataType.Float)
        s0 = fd.define_scalar(dtype=DataType.Double)
        fd.add_output(fd.ops.mul(fd.ops.exp(t0), s0))
    return fd


@pytest.mark.parametrize("cls", [FusionDefinition, nvfuser_direct.FusionDefinition])
def test_serialize_round_trip_makes_the_next_execute_a_hit(tmp_path, cls):
    """nvFuser's serde check: serialize, reset, deserialize; an equal
    definition then runs what was compiled before."""
    FusionCache.reset()
    x = np.linspace(0, 1, 12, dtype=np.float32).reshape(3, 4)
    fd = _symbolic_definition(cls)
    expected = fd.execute([x, 2.0])[0]
    fd.execute([x[:2], 2.0], backend="cpu")
    with cls() as unexecuted:  # defined, never run: not written (nvFuser's rule)
        unexecuted.add_output(unexecuted.define_tensor(shape=[7]))
    path = tmp_path / "cache.bin"
    FusionCache.get().serialize(str(path))
    FusionCache.reset()
    cache = FusionCache.get()
    assert cache.num_fusions() == 0
    cache.deserialize(str(path))
    assert cache.num_variants() == 2 and cache.num_fusions() == 1
    again = _symbolic_definition(cls)
    np.testing.assert_array_equal(again.execute([x, 2.0])[0], expected)
    again.execute([x[:2], 2.0], backend="cpu")
    assert again.cache_info() == (2, 0, 2)  # hits, no miss: nothing compiled
    FusionCache.reset()


def test_deserialize_needs_an_empty_cache_and_its_own_format(tmp_path):
    FusionCache.reset()
    fd = _symbolic_definition(FusionDefinition)
    fd.execute([np.ones((1, 4), np.float32), 1.0])
    path = tmp_path / "cache.bin"
    FusionCache.get().serialize(str(path))
    with pytest.raises(FusionError, match="needs an empty cache"):
        FusionCache.get().deserialize(str(path))
    other = tmp_path / "other.bin"
    other.write_bytes(b"NV01\x00\x01")
    FusionCache.reset()
    with pytest.raises(FusionError, match="not a fuser_mlir FusionCache file"):
        FusionCache.get().deserialize(str(other))
    FusionCache.reset()


# The legacy module's tensor descriptors ---------------------------------------

def test_legacy_compute_tensor_descriptor_and_contiguity():
    nvfuser = nvfuser_compat.make_nvfuser_module()
    assert nvfuser.compute_tensor_descriptor((1, 2, 3), (6, 3, 1)) == \
        ([None, True, True], [2, 1, 0])
    assert nvfuser.compute_tensor_descriptor((2, 3), (1, 2)) == ([True, True], [0, 1])
    assert nvfuser.compute_contiguity((1, 2, 3), (6, 3, 1)) == [None, True, True]
    assert nvfuser.compute_contiguity((2, 3, 4), (24, 4, 1)) == [False, True, True]
    assert nvfuser.compute_contiguity((2, 3), (0, 1)) == [None, True]
    assert nvfuser.compute_contiguity((2, 3), (3, 2)) == [False, False]
    assert nvfuser.compute_contiguity((), ()) == []
    with pytest.raises(ValueError, match="same number of dimensions"):
        nvfuser.compute_contiguity((2,), ())


# Values over 2 GiB ------------------------------------------------------------

def _available_bytes():
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@pytest.mark.skipif(_available_bytes() < 8 << 30, reason="needs 8 GiB of free memory")
def test_an_input_over_2_gib_runs_where_the_budget_has_room(monkeypatch):
    """BackendOptions' 2 GiB per value no longer bounds the host backends:
    the run's budget does (FusionMemoryError)."""
    n = (1 << 29) + 1024  # float32: 2 GiB and 4 KiB
    x = np.ones(n, np.float32)
    x[-1] = 3
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[n], dtype=DataType.Float)
        fd.add_output(fd.ops.max(t0, dims=[0]))
    assert fd.execute([x], backend="cpu")[0] == 3
    with FusionDefinition() as tail:
        t0 = tail.define_tensor(shape=[n], dtype=DataType.Float)
        tail.add_output(tail.ops.slice(t0, [n - 3], [n]))
    np.testing.assert_array_equal(tail.execute([x])[0], [1, 1, 3])
    monkeypatch.setenv("FUSER_MAX_TOTAL_BYTES", str(1 << 30))
    with pytest.raises(FusionMemoryError):
        tail.execute([x])
