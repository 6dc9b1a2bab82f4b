# execute(backend="cuda") where no driver loads: a RuntimeError that says why.
from fuser_mlir import DataType, FusionDefinition

with FusionDefinition() as fd:
    fd.add_output(fd.ops.neg(fd.define_tensor(shape=[4], dtype=DataType.Float)))
try:
    fd.execute(fd.deterministic_inputs(), backend="cuda")
except RuntimeError as error:
    print("RuntimeError:", error)
