# The seed's Mistral RoPE backward chain (shared/seed/mistral_rope_bwd.
# fusion-math.txt) as nvFuser prints a repro script for it: Thunder's casts
# and broadcast_in_dim, sizes from the seed.
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, 32, 4096, 128], contiguity=[None, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    T1 = fd.ops.reshape(T0, new_shape=[1, 8, 4, 4096, 128])
    T2 = fd.ops.cast(T1, dtype=DataType.Float)
    T3 = fd.ops.squeeze(T2, dims=[0], squeeze_expanded=True)
    T4 = fd.ops.sum(T3, dims=[1], keepdim=False, dtype=DataType.Null)
    T5 = fd.ops.cast(T4, dtype=DataType.BFloat16)
    T6 = fd.ops.broadcast_in_dim(T5, shape=[1, 8, 1, 4096, 128], broadcast_dims=[1, 3, 4])
    T7 = fd.ops.cast(T6, dtype=DataType.Float)
    T8 = fd.ops.squeeze(T7, dims=[0, 2], squeeze_expanded=True)
    T9 = fd.ops.cast(T8, dtype=DataType.BFloat16)
    T10 = fd.ops.broadcast_in_dim(T9, shape=[1, 8, 4096, 128], broadcast_dims=[1, 2, 3])
    T11 = fd.ops.permute(T10, dims=[0, 2, 1, 3])
    T12 = fd.ops.reshape(T11, new_shape=[1, 4096, 1024])
    fd.add_output(T12)
