import torch
from nvfuser import FusionDefinition, DataType

with FusionDefinition() as fd:
    T0 = fd.define_tensor(shape=[4], dtype=DataType.Float)
    fd.add_output(T0)
fd.execute([torch.ones(4)])
