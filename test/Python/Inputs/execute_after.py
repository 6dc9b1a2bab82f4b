# A repro whose fusion is built and then run on inputs that do not fit (as a
# repro's CUDA inputs do not on a machine without a GPU): nvfuser_compat
# warns and still prints the fusion.
import numpy as np
from nvfuser import FusionDefinition, DataType

with FusionDefinition() as fd:
    T0 = fd.define_tensor(shape=[4], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.exp(T0)
    fd.add_output(T1)

fd.execute([np.zeros(3, dtype=np.float32)])
