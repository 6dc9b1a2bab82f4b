# A script that is not Python: exit 2 with the line of the syntax error.
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[4], dtype=DataType.Float
