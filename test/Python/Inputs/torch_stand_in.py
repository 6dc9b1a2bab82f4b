# execute() with torch tensors, where torch is not installed: a stand-in
# `torch` module with the few calls execute() makes (device, dtype, detach,
# to, contiguous, numpy, view, from_numpy), so the routing is tested on every
# machine: CPU tensors run on the interpreter and come back as tensors on
# their device, bf16 crosses as int16 bits, CUDA tensors go to the CUDA
# backend (test/Python/torch-stand-in.test).
import sys
import types

import ml_dtypes
import numpy as np

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
sys.modules["torch"] = torch

from fuser_mlir import DataType, FusionDefinition  # noqa: E402

with FusionDefinition() as fd:
    x = fd.define_tensor(shape=[4], dtype=DataType.BFloat16)
    y = fd.define_tensor(shape=[4], dtype=DataType.Float)
    fd.add_output(fd.ops.cast(fd.ops.add(x, y), DataType.BFloat16))
    fd.add_output(fd.ops.mul(y, 2.0))
xs = np.array([1.5, -2, 3, 0.25], dtype=ml_dtypes.bfloat16)
ys = np.array([1, 2, 3, 4], dtype=np.float32)

(sum_bf16, doubled) = fd.execute([Tensor(xs, torch.bfloat16), Tensor(ys, torch.float32)])
print("cpu:", type(sum_bf16).__name__, sum_bf16.device.name, sum_bf16.dtype,
      sum_bf16.array.astype(np.float32).tolist(), doubled.dtype, doubled.array.tolist())

try:
    fd.execute([Tensor(xs, torch.bfloat16, "cuda:0"), Tensor(ys, torch.float32, "cuda:0")])
except RuntimeError as error:
    print("cuda: RuntimeError:", error)
