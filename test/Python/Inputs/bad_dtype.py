from nvfuser import FusionDefinition, DataType

with FusionDefinition() as fd:
    T0 = fd.define_tensor(shape=[4], contiguity=[True], dtype=DataType.Null, is_cpu=False)
    fd.add_output(T0)
