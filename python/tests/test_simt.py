"""The SIMT emulator as a backend of the Python API (`backend="simt"`): the
GPU kernels of an RMSNorm-like fusion, a row reduction whose warp shuffles,
barriers and shared memory run on the host, compiled once and run again,
bit for bit against the interpreter."""
from fuser_mlir import DataType, FusionDefinition


def test_rms_norm_on_the_simt_emulator():
    with FusionDefinition() as fd:
        x = fd.define_tensor(shape=[32, 512], dtype=DataType.BFloat16)
        xf = fd.ops.cast(x, DataType.Float)
        square = fd.ops.mul(xf, xf)
        total = fd.ops.sum(square, [1], keepdim=True)
        # sqrt and the division are exact in both (rsqrt would be libdevice's).
        scale = fd.ops.reciprocal(fd.ops.sqrt(fd.ops.add(total, fd.define_scalar(1e-6))))
        fd.add_output(fd.ops.cast(fd.ops.mul(xf, scale), DataType.BFloat16))
    inputs = fd.deterministic_inputs()
    (simt,) = fd.execute(inputs, backend="simt")
    (again,) = fd.execute(inputs, backend="simt")
    (interp,) = fd.execute(inputs, backend="interp")
    assert simt.tobytes() == again.tobytes()
    assert simt.tobytes() == interp.tobytes()
