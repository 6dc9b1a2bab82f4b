from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id2(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[2, 3], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[4, 3], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.ops.add(T0, T1)
    fd.add_output(T2)
