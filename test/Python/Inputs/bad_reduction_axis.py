from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id3(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[4, 8], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.sum(T0, dims=[2], keepdim=False, dtype=DataType.Null)
    fd.add_output(T1)
