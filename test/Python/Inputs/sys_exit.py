# A script that ends with sys.exit(): the fusions it defined are printed.
import sys

from nvfuser import FusionDefinition, DataType

with FusionDefinition() as fd:
    T0 = fd.define_tensor(shape=[4], dtype=DataType.Float)
    fd.add_output(fd.ops.neg(T0))
sys.exit(3)
