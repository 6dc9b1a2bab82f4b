# Cast chains and broadcast/squeeze chains in nvFuser's repro format (as the
# newer nvfuser_direct module prints them): bf16 -> f32 -> f64 -> f32 -> bf16
# with unit dims squeezed and re-inserted, which fuser-preseg sees is the
# identity.
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id4(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[8, 1, 16], contiguity=[True, None, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2 = fd.ops.cast(T1, dtype=DataType.Double)
    T3 = fd.ops.cast(T2, dtype=DataType.Float)
    T4 = fd.ops.squeeze(T3, dims=[1], squeeze_expanded=False)
    T5 = fd.ops.broadcast(T4, is_broadcast_dim=[True, False, False])
    T6 = fd.ops.squeeze(T5, dims=[0], squeeze_expanded=False)
    T7 = fd.ops.cast(T6, dtype=DataType.BFloat16)
    T8 = fd.ops.broadcast_in_dim(T7, shape=[8, 1, 16], broadcast_dims=[0, 2])
    fd.add_output(T8)
