# A RoPE-style backward in nvFuser's repro format: rotate-half through slice,
# neg and cat, the cos/sin products in f32, bf16 in and out, and a sum over
# the heads for the grad of a shared input.
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id7(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, 4, 16, 8], contiguity=[None, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    T1 = fd.define_tensor(shape=[1, 16, 8], contiguity=[None, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T2 = fd.define_tensor(shape=[1, 16, 8], contiguity=[None, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T3 = fd.ops.broadcast_in_dim(T1, shape=[1, 4, 16, 8], broadcast_dims=[0, 2, 3])
    T4 = fd.ops.broadcast_in_dim(T2, shape=[1, 4, 16, 8], broadcast_dims=[0, 2, 3])
    T5 = fd.ops.cast(T0, dtype=DataType.Float)
    T6 = fd.ops.cast(T3, dtype=DataType.Float)
    T7 = fd.ops.mul(T5, T6)
    T8 = fd.ops.cast(T4, dtype=DataType.Float)
    T9 = fd.ops.mul(T5, T8)
    T10 = fd.ops.slice(T9, start_indices=[0, 0, 0, 0], end_indices=[1, 4, 16, 4], strides=[1, 1, 1, 1], manual_normalization=0)
    T11 = fd.ops.slice(T9, start_indices=[0, 0, 0, 4], end_indices=[1, 4, 16, 8], strides=[1, 1, 1, 1], manual_normalization=0)
    T12 = fd.ops.neg(T10)
    T13 = fd.ops.cat([T11, T12], dim=-1, manual_padding=0)
    T14 = fd.ops.add(T7, T13)
    T15 = fd.ops.cast(T14, dtype=DataType.BFloat16)
    T16 = fd.ops.sum(T14, dims=[0, 1], keepdim=False, dtype=DataType.Null)
    T17 = fd.ops.cast(T16, dtype=DataType.BFloat16)
    fd.add_output(T15)
    fd.add_output(T17)
