# An optimizer-style step as nvFuser programs write it (modelled on the
# in-place update repros of NVIDIA/Fuser issue 2664): symbolic extents, a
# broadcast scalar, the updated weight written into its input
# (add_output(out, alias_input)), a second output, and a rerun of the same
# signature.
import numpy as np
from nvfuser import FusionDefinition, DataType

with FusionDefinition() as fd:
    w = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    g = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    lr = fd.define_scalar(None, dtype=DataType.Double)
    step = fd.ops.mul(g, lr)
    fd.add_output(fd.ops.sub(w, step), w)
    fd.add_output(fd.ops.sum(fd.ops.mul(step, step), dims=[0, 1]))

weight = np.ones((3, 4), np.float32)
for _ in range(2):
    (norm,) = fd.execute([weight, np.full((3, 4), 2, np.float32), 0.25])
print("weight", weight[0].tolist(), "norm", float(norm), fd.cache_info())
