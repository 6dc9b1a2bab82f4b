"""fd.repro_script_for(inputs) writes small integer inputs (offsets,
indices) with their values, so that the script runs: random stand-ins made
grouped_mm's offsets negative (found running Thunder's grouped_mm repro,
issue 47) and put gather's indices out of range."""

import subprocess
import sys

import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition
from fuser_mlir._printer import SMALL_INTEGER_INPUT, _format_input


def _gather_fd():
    with FusionDefinition() as fd:
        arg = fd.define_tensor(shape=[4, 8], dtype=DataType.Float)
        index = fd.define_tensor(shape=[4, 3], dtype=DataType.Int)
        fd.add_output(fd.ops.gather(arg, index, dim=1))
    return fd


def test_small_integer_input_keeps_its_values():
    index = np.array([[7, 0, 3], [1, 1, 6], [0, 5, 2], [4, 7, 7]], np.int64)
    assert _format_input(index) == (
        "np.array([[7, 0, 3], [1, 1, 6], [0, 5, 2], [4, 7, 7]], dtype=np.int64)")
    # Large integer inputs and floats stay random stand-ins.
    large = np.zeros(SMALL_INTEGER_INPUT + 1, np.int32)
    assert _format_input(large).startswith("np.random.default_rng(0).integers(")
    assert "standard_normal" in _format_input(np.ones(3, np.float32))


def test_gather_repro_script_runs(tmp_path):
    fd = _gather_fd()
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    index = np.array([[7, 0, 3], [1, 1, 6], [0, 5, 2], [4, 7, 7]], np.int64)
    text = fd.repro_script_for([x, index])
    assert "np.array([[7, 0, 3]" in text
    script = tmp_path / "repro.py"
    script.write_text(text)
    run = subprocess.run([sys.executable, "-m", "fuser_mlir.nvfuser_compat", str(script)],
                         capture_output=True, text=True)
    # nvfuser_compat runs the script's execute: random indices in [-8, 8)
    # failed it with an index out of range (a warning, exit status 0).
    assert run.returncode == 0, run.stderr
    assert "warning" not in run.stderr, run.stderr


def test_grouped_mm_offsets_torch():
    torch = pytest.importorskip("torch")
    offsets = torch.tensor([16, 32, 48], dtype=torch.int32)
    assert _format_input(offsets) == (
        "torch.tensor([16, 32, 48], dtype=torch.int32, device='cpu')")
    # A non-contiguous one keeps the strided stand-in.
    strided = torch.arange(6, dtype=torch.int64)[::2]
    assert _format_input(strided).startswith("torch.testing.make_tensor(")
