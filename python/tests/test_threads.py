"""Python threads share the package's one MLIR context: execute() on the CPU
backend (which builds and JIT-compiles IR) beside a thread building fusions
finishes without errors. execute() used to release the GIL, and the
context, which has no locks, crashed now and then: a race, so more rounds
give more chances to meet it."""
import threading

from fuser_mlir import DataType, FusionDefinition


def test_execute_beside_a_building_thread():
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[64, 256], dtype=DataType.BFloat16)
        s = fd.ops.sum(fd.ops.cast(t, DataType.Float), dims=[1], keepdim=True)
        fd.add_output(fd.ops.cast(fd.ops.div(fd.ops.exp(fd.ops.cast(t, DataType.Float)), s),
                                  DataType.BFloat16))
    inputs = fd.deterministic_inputs()
    errors = []

    def run():
        try:
            for _ in range(3):
                fd.execute(inputs, backend="cpu")
        except Exception as error:  # noqa: BLE001 - asserted below
            errors.append(error)

    def build():
        try:
            for n in range(1, 400):
                with FusionDefinition() as other:
                    x = other.define_tensor(shape=[n, n + 1], dtype=DataType.Float)
                    other.add_output(other.ops.sum(other.ops.exp(x), dims=[0]))
                other.mlir()
        except Exception as error:  # noqa: BLE001 - asserted below
            errors.append(error)

    for _ in range(10):
        threads = [threading.Thread(target=run), threading.Thread(target=build)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
