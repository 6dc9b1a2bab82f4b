"""What Lightning Thunder (thunder/executors/nvfuserex.py, nvfuserex_impl.py)
imports from and checks of nvFuser, against fuser_mlir's stand-ins: no torch,
no Thunder, no nvFuser needed."""

import re
import sys

import numpy as np
import pytest

from fuser_mlir import nvfuser_compat, nvfuser_direct
from fuser_mlir.nvfuser_direct import DataType, FusionDefinition


class LooseVersion:
    """looseversion.LooseVersion (distutils' LooseVersion), which Thunder
    wraps nvfuser_direct.version() in: numbers and letter runs, compared as
    lists."""
    component_re = re.compile(r"(\d+ | [a-z]+ | \.)", re.VERBOSE)

    def __init__(self, text):
        assert isinstance(text, str), "LooseVersion takes a str, got %r" % (text,)
        self.components = [int(x) if x.isdigit() else x
                           for x in self.component_re.split(text) if x and x != "."]

    def __lt__(self, other):
        return self.components < other.components

    def __ge__(self, other):
        return self.components >= other.components

    def __gt__(self, other):
        return self.components > other.components


# The minimums Thunder's nvFuser executor compares against (HEAD of
# lightning-thunder, 2026-01): 0.2.8 required, 0.2.34 for the nvfuser_direct
# bindings, the rest gate features.
THUNDER_MINIMUMS = ("0.2.8", "0.2.10", "0.2.25", "0.2.27", "0.2.28", "0.2.30", "0.2.31",
                    "0.2.34", "0.0.14", "0.0.3", "0.0.5", "0.0.6")


def test_version_is_a_string_that_thunder_accepts():
    version = nvfuser_direct.version()
    assert isinstance(version, str)
    assert str(version) == "%s+fuser_mlir.%s" % (nvfuser_direct.NVFUSER_API_VERSION,
                                                 nvfuser_direct.FUSER_MLIR_VERSION)
    assert nvfuser_direct.__version__ == str(version)
    loose = LooseVersion(version)
    for minimum in THUNDER_MINIMUMS:
        assert loose >= LooseVersion(minimum), minimum
    # Thunder's `nvfuser_version() > LooseVersion("0.29.0")` is a typo for
    # 0.2.9 that nvFuser 0.2.x does not pass either.
    assert not loose > LooseVersion("0.29.0")
    # nvFuser's own form compares the same way.
    assert LooseVersion("0.2.36+git7e04d26") >= LooseVersion("0.2.34")


def test_version_compares_by_release_numbers():
    version = nvfuser_direct.version()
    Version = nvfuser_direct.nvfuser_direct_version.Version
    assert version == nvfuser_direct.NVFUSER_API_VERSION
    assert version > "0.2.34" and version >= "0.2.36" and version < "0.2.37"
    assert version < "0.3" and version > "0.2" and version > (0, 2, 35)
    assert version > Version("0.0.9") and Version("0.2.36+git7e04d26") == version
    assert Version("v0.2.36rc1") == "0.2.36"
    assert sorted(["0.10.0", "0.9.1", "0.2.36"], key=Version) == ["0.2.36", "0.9.1", "0.10.0"]


def test_thunder_nvfuser_version_probe(monkeypatch):
    """thunder.executors.nvfuserex.nvfuser_version: nvfuser_direct first."""
    monkeypatch.setitem(sys.modules, "nvfuser_direct", nvfuser_direct)
    import nvfuser_direct as probed
    assert hasattr(probed, "version")
    assert LooseVersion(probed.version()) >= LooseVersion("0.2.34")


def test_thunder_direct_imports(monkeypatch):
    """nvfuserex_impl's imports for nvFuser >= 0.2.34, verbatim."""
    monkeypatch.setitem(sys.modules, "nvfuser_direct", nvfuser_direct)
    namespace = {}
    exec("import nvfuser_direct as nvfuser\n"
         "from nvfuser_direct import (\n"
         "    DataType,\n"
         "    FusionDefinition,\n"
         "    multidevice,\n"
         "    ParallelType,\n"
         "    execute_with_dtensors,\n"
         "    compute_tensor_descriptor as nv_compute_td,\n"
         ")\n", namespace)
    assert namespace["FusionDefinition"] is FusionDefinition
    assert isinstance(namespace["nvfuser"].version(), str)
    assert namespace["nv_compute_td"]((1, 2, 3), (6, 3, 1)) == ([None, True, True], [2, 1, 0])
    assert namespace["nv_compute_td"]((2, 3, 4), (12, 1, 3)) == ([True, True, True], [2, 0, 1])
    # The DataTypes Thunder maps torch dtypes to (uint64 from 0.2.27, fp4 from 0.2.28).
    for name in ("ComplexDouble", "ComplexFloat", "Double", "Float", "Half", "BFloat16", "Int",
                 "Int32", "Bool", "Null", "UInt64", "Float4_e2m1fn_x2", "Float8_e5m2",
                 "Float8_e4m3fn"):
        assert hasattr(namespace["DataType"], name), name


def test_thunder_legacy_imports(monkeypatch):
    """Thunder before the direct bindings (0.2.6 included) imports these
    from the legacy nvfuser module."""
    monkeypatch.setitem(sys.modules, "nvfuser", nvfuser_compat.make_nvfuser_module())
    monkeypatch.setitem(sys.modules, "nvfuser_direct", nvfuser_direct)
    namespace = {}
    exec("import nvfuser\n"
         "from nvfuser import DataType, FusionDefinition, compute_tensor_descriptor as nv_td\n"
         "from nvfuser_direct import FusionDefinition as DirectFusionDefinition\n"
         "from nvfuser_direct import multidevice, ParallelType, execute_with_dtensors\n",
         namespace)
    assert LooseVersion(namespace["nvfuser"].version()) >= LooseVersion("0.2.8")
    assert namespace["nv_td"]([2, 3], [1, 2]) == ([True, True], [0, 1])


def test_multidevice_stubs_raise_clear_errors():
    error = nvfuser_direct.MultideviceNotSupportedError
    assert issubclass(error, NotImplementedError) and issubclass(error, RuntimeError)
    with pytest.raises(error, match="multi-device"):
        nvfuser_direct.multidevice.DeviceMesh([0, 1])
    with pytest.raises(error, match="execute_with_dtensors"):
        nvfuser_direct.execute_with_dtensors(None, [])
    assert nvfuser_direct.ParallelType.mesh_x is nvfuser_direct.ParallelType["mesh_x"]
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        fd.add_output(fd.ops.neg(t0))
        with pytest.raises(error, match="Tensor.set_device_mesh"):
            t0.set_device_mesh(None)
        with pytest.raises(error, match="Tensor.axis"):
            t0.axis(0).parallelize(nvfuser_direct.ParallelType.mesh_x)
    # The fusion is unharmed.
    np.testing.assert_array_equal(fd.execute([np.ones(3, np.float32)])[0], -np.ones(3))


@pytest.mark.parametrize("dtype", [DataType.UInt64, DataType.Float4_e2m1fn_x2])
def test_unsupported_dtypes_exist_and_raise_when_used(dtype):
    assert repr(dtype) == "DataType." + dtype.name
    with FusionDefinition() as fd:
        if dtype == DataType.UInt64:
            # sdpa's Philox state (test_sdpfa_runtime_options.py): an input,
            # refused in any op.
            seed = fd.define_tensor(shape=[2], dtype=dtype)
            with pytest.raises(NotImplementedError, match="takes only as sdpfa_bwd's"):
                fd.ops.neg(seed)
        else:
            with pytest.raises(NotImplementedError, match="does not support"):
                fd.define_tensor(shape=[2], dtype=dtype)
        t0 = fd.define_tensor(shape=[2], dtype=DataType.Float)
        with pytest.raises(NotImplementedError, match="does not support"):
            fd.ops.cast(t0, dtype)
        with pytest.raises(NotImplementedError, match="does not support"):
            fd.define_scalar(1, dtype=dtype)
        fd.add_output(t0)


def test_broadcast_in_dim_minus_one_keeps_operand_extent():
    """Thunder's index_put lowering: broadcast_in_dim(idx, [-1, *a.shape[1:]], [0])."""
    with FusionDefinition() as fd:
        index = fd.define_tensor(shape=[-1], dtype=DataType.Int)
        fd.add_output(fd.ops.broadcast_in_dim(index, shape=[-1, 4], broadcast_dims=[0]))
    # nvFuser prints it as its IR has it: broadcast, then expand to the
    # operand's extent (fd.ops.size) and 4.
    assert repr(fd).splitlines()[2:5] == [
        "    tv1 = fd.ops.broadcast(tv0, is_broadcast_dim=[False, True])",
        "    c0 = fd.ops.size(tv1, dim=0)",
        "    tv2 = fd.ops.expand(tv1, shape=[c0, 4])"]
    assert "shape=[-1, 4]" in fd._recorded_text()
    for n in (3, 5):
        data = np.arange(n, dtype=np.int64)
        (out,) = fd.execute([data])
        np.testing.assert_array_equal(out, np.broadcast_to(data[:, None], (n, 4)))


def test_broadcast_in_dim_minus_one_static_and_several_dims():
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[3, -1], dtype=DataType.Float)
        out = fd.ops.broadcast_in_dim(t0, shape=[-1, 2, -1], broadcast_dims=[0, 2])
        fd.add_output(out)
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    (result,) = fd.execute([data])
    np.testing.assert_array_equal(result, np.broadcast_to(data[:, None, :], (3, 2, 4)))


def test_broadcast_in_dim_minus_one_at_a_new_dim_is_refused():
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[3], dtype=DataType.Float)
        with pytest.raises(ValueError, match="-1 at output dim 1"):
            fd.ops.broadcast_in_dim(t0, shape=[3, -1], broadcast_dims=[0])
        fd.add_output(t0)


@pytest.mark.parametrize("backend", ["interp", "cpu", "simt"])
def test_indexing_ops_take_a_float_index(backend):
    """nvFuser takes an index tensor of any dtype and converts each index it
    reads to its index type (a float truncated toward zero); so does
    fuser_mlir, for take_along_axis, gather and index_select."""
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    along = np.array([[0.0, 5.0], [2.9, 1.0], [3.0, 4.5], [-0.5, 2.0]], np.float32)
    rows = np.array([3.0, 0.7, 2.0], np.float32)
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        i = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        r = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        fd.add_output(fd.ops.take_along_axis(a, i, 1))
        fd.add_output(fd.ops.gather(a, i, 1))
        fd.add_output(fd.ops.index_select(a, r, 0))
    took, gathered, selected = fd.execute([x, along, rows], backend=backend)
    expected = np.take_along_axis(x, np.trunc(along).astype(np.int64), 1)
    np.testing.assert_array_equal(took, expected)
    np.testing.assert_array_equal(gathered, expected)
    np.testing.assert_array_equal(selected, x[np.trunc(rows).astype(np.int64)])


@pytest.mark.parametrize("backend", ["interp", "cpu"])
def test_thunder_cross_entropy_forward(backend):
    """The nvFuser program of Thunder's nv_cross_entropy_fwd (mean
    reduction): the target, an int tensor, goes through where() with a
    float 0 (so the index of take_along_axis is a float tensor, as in
    nvFuser), then a log-softmax at the targets, ignore_index masked out."""
    logits = np.random.default_rng(3).standard_normal((6, 10)).astype(np.float32)
    target = np.array([1, 9, -100, 0, 4, 4], np.int64)
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[-1, -1], dtype=DataType.Float)
        t = fd.define_tensor(shape=[-1], dtype=DataType.Int)
        ignore = fd.define_scalar(-100, dtype=DataType.Int)
        zero = fd.define_scalar(0, dtype=DataType.Float)
        valid = fd.ops.ne(t, ignore)
        safe = fd.ops.where(valid, t, zero)
        assert safe.dtype() == DataType.Float
        picked = fd.ops.take_along_axis(
            a, fd.ops.broadcast_in_dim(safe, shape=[t.shape()[-1], 1], broadcast_dims=[0]), dim=1)
        picked = fd.ops.reshape(picked, new_shape=[t.shape()[-1]])
        row_max = fd.ops.max(a, 1)
        shifted = fd.ops.sub(a, fd.ops.broadcast_in_dim(row_max, shape=[t.shape()[-1], 1],
                                                        broadcast_dims=[0]))
        log_sum = fd.ops.log(fd.ops.sum(fd.ops.exp(shifted), 1))
        losses = fd.ops.where(valid, fd.ops.neg(fd.ops.sub(fd.ops.sub(picked, row_max),
                                                           log_sum)), zero)
        count = fd.ops.cast(fd.ops.sum(valid), dtype=DataType.Float)
        fd.add_output(fd.ops.div(fd.ops.sum(losses), count))
    (loss,) = fd.execute([logits, target], backend=backend)
    shifted = logits.astype(np.float64) - logits.max(1, keepdims=True)
    log_softmax = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    kept = target != -100
    expected = -log_softmax[np.arange(6)[kept], target[kept]].mean()
    np.testing.assert_allclose(float(np.asarray(loss)), expected, rtol=1e-6)


def test_install_makes_nvfuser_imports_fuser_mlir():
    """nvfuser_compat.install(): how Thunder is pointed at fuser_mlir."""
    import importlib
    import sys
    from fuser_mlir import nvfuser_compat, nvfuser_direct
    previous = nvfuser_compat.install()
    try:
        assert importlib.import_module("nvfuser_direct") is nvfuser_direct
        assert importlib.import_module("nvfuser").compute_tensor_descriptor is \
            nvfuser_direct.compute_tensor_descriptor
        assert importlib.import_module("nvfuser_direct.multidevice") is nvfuser_direct.multidevice
    finally:
        for name, module in previous.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def test_host_backend_variable(tmp_path):
    """FUSER_MLIR_HOST_BACKEND chooses the backend of host data where
    execute is given none (Thunder gives none)."""
    import os
    import subprocess
    import sys
    code = ("from fuser_mlir import _fusion; import numpy as np\n"
            "print(_fusion.HOST_BACKEND, _fusion.FusionDefinition._default_backend("
            "[np.zeros(2)]))\n")
    env = {name: value for name, value in os.environ.items()
           if name != "FUSER_MLIR_HOST_BACKEND"}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.stdout.split() == ["cpu", "cpu"], run.stderr  # the default
    env["FUSER_MLIR_HOST_BACKEND"] = "interp"
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.stdout.split() == ["interp", "interp"], run.stderr
    env["FUSER_MLIR_HOST_BACKEND"] = "gpu"
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.returncode != 0 and "FUSER_MLIR_HOST_BACKEND" in run.stderr


def test_no_leak_report_for_fusions_alive_at_exit():
    # A jitted Thunder module keeps its fusions in objects the interpreter
    # never frees at shutdown; a reference that is never released stands
    # for them here. nanobind would report each instance at exit ("leaked N
    # instances"); release builds do not.
    import os
    import subprocess
    script = "\n".join([
        "import ctypes",
        "import numpy as np",
        "from fuser_mlir.nvfuser_direct import FusionDefinition, DataType",
        "with FusionDefinition() as fd:",
        "    t = fd.define_tensor(shape=[-1], dtype=DataType.Float)",
        "    fd.add_output(fd.ops.neg(t))",
        "fd.execute([np.ones(4, np.float32)], backend='cpu')",
        "ctypes.pythonapi.Py_IncRef(ctypes.py_object(fd))",
        "print('ran')",
    ])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ran"
    assert "leaked" not in done.stderr, done.stderr
