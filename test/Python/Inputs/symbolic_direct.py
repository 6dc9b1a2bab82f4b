# An nvfuser_direct program as users write them: inputs defined from arrays
# (symbolic extents), sizes from Tensor.shape(), executed at two shapes.
import numpy as np
from nvfuser_direct import FusionDefinition, DataType

def run(x, w):
    with FusionDefinition() as fd:
        t0 = fd.from_pytorch(x)
        t1 = fd.from_pytorch(w)
        rows, cols = t0.shape()
        scaled = fd.ops.mul(t0, fd.ops.broadcast_in_dim(t1, shape=[rows, cols], broadcast_dims=[1]))
        fd.add_output(fd.ops.reshape(fd.ops.sum(scaled, dims=[1], keepdim=True), [rows]))
    return fd, fd.execute([x, w])

fd, (out,) = run(np.ones((4, 8), np.float32), np.full(8, 0.5, np.float32))
assert out.tolist() == [4.0] * 4
fd.execute([np.ones((2, 3), np.float32), np.ones(3, np.float32)])
fd.execute([np.ones((2, 3), np.float32), np.ones(3, np.float32)])
print(fd.cache_info())
