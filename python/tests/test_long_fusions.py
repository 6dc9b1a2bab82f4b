"""A long fusion built through the API runs on the CPU backend: the kernel
emitter recursed once per op and a 10000-op chain killed the Python process
with a stack overflow. 20000 ops, bit for bit against the interpreter."""
import numpy as np

from fuser_mlir import DataType, FusionDefinition


def test_twenty_thousand_op_chain_on_the_cpu_backend():
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[64, 32], dtype=DataType.Float)
        v = a
        for _ in range(20000):
            v = fd.ops.add(v, a)
        fd.add_output(v)
    inputs = fd.deterministic_inputs()
    (cpu,) = fd.execute(inputs, backend="cpu")
    (interp,) = fd.execute(inputs, backend="interp")
    assert cpu.tobytes() == interp.tobytes()
    assert np.array_equal(cpu, inputs[0] * 20001)
