# Python threads share the package's one MLIR context: execute() on the CPU
# backend (which builds and JIT-compiles IR) beside a thread building
# fusions. execute() used to release the GIL, and the context, which has no
# locks, crashed now and then (threads.test).
import threading
from fuser_mlir import DataType, FusionDefinition

with FusionDefinition() as fd:
    t = fd.define_tensor(shape=[64, 256], dtype=DataType.BFloat16)
    s = fd.ops.sum(fd.ops.cast(t, DataType.Float), dims=[1], keepdim=True)
    fd.add_output(fd.ops.cast(fd.ops.div(fd.ops.exp(fd.ops.cast(t, DataType.Float)), s), DataType.BFloat16))
inputs = fd.deterministic_inputs()
errors = []


def run():
    try:
        for _ in range(3):
            fd.execute(inputs, backend="cpu")
    except Exception as error:  # noqa: BLE001 - reported below
        errors.append(error)


def build():
    try:
        for n in range(1, 400):
            with FusionDefinition() as other:
                x = other.define_tensor(shape=[n, n + 1], dtype=DataType.Float)
                other.add_output(other.ops.sum(other.ops.exp(x), dims=[0]))
            other.mlir()
    except Exception as error:  # noqa: BLE001 - reported below
        errors.append(error)


# A race: more rounds, more chances to meet it.
for _ in range(10):
    threads = [threading.Thread(target=run), threading.Thread(target=build)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
print("errors:", errors)
