"""Shared setup of the fuser_mlir pytest suite (docs/Python.md, Tests).

The CUDA backend loads its driver once per process, at its first use; the
suite points it at a library that does not exist before any test runs, so
the CUDA cases test the no-driver error on every machine, GPU or not."""
import os

os.environ["FUSER_CUDA_DRIVER"] = "/nonexistent/libcuda.so.1"


def check_op_case(module, build, inputs, expected, rtol, dtypes, atol=0.0):
    """Runs the fusion `build(fd, *input tensors)` on `inputs` and compares
    its one result with `expected`: dtype, shape, and values exactly, or to
    `rtol` relative (and `atol`) where rtol is set (test_ops*.py)."""
    import numpy as np
    with module.FusionDefinition() as fd:
        tensors = [fd.define_tensor(shape=list(a.shape), contiguity=[True] * a.ndim,
                                    dtype=dtypes[a.dtype]) for a in inputs]
        fd.add_output(build(fd, *tensors))
    (result,) = fd.execute(list(inputs))
    expected = np.asarray(expected)
    assert result.dtype == expected.dtype
    assert result.shape == expected.shape
    if rtol:
        np.testing.assert_allclose(result.astype(np.float64), expected.astype(np.float64),
                                   rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(result, expected)
