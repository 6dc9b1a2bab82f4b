"""fd.validate without references copies only the inputs an aliased output
writes (and inputs sharing their memory) for its reference run: copying
every input doubled its memory (nvFuser's test_issue5377 holds 4 GB of
weights and one aliased [1, 16] input; the copies failed its allocation on
a CPU harness, issue 47 measurement)."""

import tracemalloc

import numpy as np

from fuser_mlir import DataType, FusionDefinition


def _scaled_in_place():
    """out = 2 * x written into x, and the sum of y."""
    with FusionDefinition() as fd:
        x = fd.define_tensor(shape=[4], dtype=DataType.Float)
        y = fd.define_tensor(shape=[-1], dtype=DataType.Float)
        fd.add_output(fd.ops.mul(x, 2.0), alias_input=x)
        fd.add_output(fd.ops.sum(y, dims=[0]))
    return fd


def test_aliased_input_copied_for_the_reference():
    fd = _scaled_in_place()
    x = np.arange(4, dtype=np.float32)
    y = np.ones(8, np.float32)
    # The reference run sees x as it was: both runs write 2 * x, and agree.
    (total,) = fd.validate([x, y])
    np.testing.assert_array_equal(x, 2 * np.arange(4, dtype=np.float32))
    assert float(total) == 8.0


def test_other_inputs_not_copied():
    fd = _scaled_in_place()
    y = np.ones(1 << 22, np.float32)          # 16 MiB, only read
    fd.validate([np.arange(4, dtype=np.float32), y])   # compiled, warm
    tracemalloc.start()
    try:
        fd.validate([np.arange(4, dtype=np.float32), y])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < y.nbytes // 2, peak
