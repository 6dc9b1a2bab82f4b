"""execute() with torch tensors, through a stand-in `torch` module with the
few calls execute() makes (device, dtype, detach, to, contiguous, numpy,
view, from_numpy), so the routing is tested on every machine, torch
installed or not: CPU tensors run on the interpreter and come back as
tensors on their device, bf16 crosses as int16 bits, CUDA tensors go to the
CUDA backend, here without a driver (conftest.py), so its reason is the
error."""
import sys
import types

import ml_dtypes
import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition

torch = types.ModuleType("torch")
torch.bfloat16, torch.int16, torch.float32 = "bfloat16", "int16", "float32"


class Device:
    def __init__(self, name):
        self.type = name.split(":")[0]
        self.name = name


class Tensor:
    def __init__(self, array, dtype, device="cpu"):
        self.array, self.dtype, self.device = array, dtype, Device(device)

    def detach(self):
        return self

    def to(self, device):
        return Tensor(self.array, self.dtype, getattr(device, "name", device))

    def contiguous(self):
        return self

    def numpy(self):
        assert self.device.type == "cpu", "numpy() of a tensor on " + self.device.name
        assert self.dtype != torch.bfloat16, "numpy has no bf16"
        return self.array

    def view(self, dtype):
        return Tensor(self.array.view({torch.int16: np.int16,
                                       torch.bfloat16: ml_dtypes.bfloat16}[dtype]),
                      dtype, self.device.name)


Tensor.__module__ = "torch"
torch.Tensor = Tensor
torch.from_numpy = lambda array: Tensor(array, str(array.dtype))

xs = np.array([1.5, -2, 3, 0.25], dtype=ml_dtypes.bfloat16)
ys = np.array([1, 2, 3, 4], dtype=np.float32)


@pytest.fixture
def fusion(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", torch)
    with FusionDefinition() as fd:
        x = fd.define_tensor(shape=[4], dtype=DataType.BFloat16)
        y = fd.define_tensor(shape=[4], dtype=DataType.Float)
        fd.add_output(fd.ops.cast(fd.ops.add(x, y), DataType.BFloat16))
        fd.add_output(fd.ops.mul(y, 2.0))
    return fd


def test_cpu_tensors_run_on_the_interpreter(fusion):
    sum_bf16, doubled = fusion.execute([Tensor(xs, torch.bfloat16), Tensor(ys, torch.float32)])
    assert type(sum_bf16) is Tensor and type(doubled) is Tensor
    assert sum_bf16.device.name == "cpu" and sum_bf16.dtype == torch.bfloat16
    assert sum_bf16.array.astype(np.float32).tolist() == [2.5, 0.0, 6.0, 4.25]
    assert doubled.dtype == "float32" and doubled.array.tolist() == [2.0, 4.0, 6.0, 8.0]


def test_cuda_tensors_go_to_the_cuda_backend(fusion):
    with pytest.raises(RuntimeError, match=r"^backend 'cuda' is not available: .+"):
        fusion.execute([Tensor(xs, torch.bfloat16, "cuda:0"), Tensor(ys, torch.float32, "cuda:0")])


def test_cuda_backend_without_a_driver():
    """execute(backend="cuda") where no driver loads: a RuntimeError that
    says why."""
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.neg(fd.define_tensor(shape=[4], dtype=DataType.Float)))
    with pytest.raises(RuntimeError, match=r"^backend 'cuda' is not available: .+"):
        fd.execute(fd.deterministic_inputs(), backend="cuda")
