"""The caller's floating-point mode does not change results
(docs/Lowering.md, "Same bits on every host"): with the calling thread's
rounding mode set toward zero, as a library may leave it, execute() on the
interpreter and the CPU backend gives the bits of the default mode, and the
thread is in the caller's mode again afterwards. (Flush-to-zero and
denormals-are-zero, which Python cannot set without native code, are
checked by unittests/ExecutionEngine/HostIndependenceTest.cpp.)"""
import ctypes
import ctypes.util
import platform

import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition

libm = ctypes.CDLL(ctypes.util.find_library("m"))
# <fenv.h>'s FE_TOWARDZERO and FE_TONEAREST of the host.
TOWARD_ZERO, TO_NEAREST = {"x86_64": (0xC00, 0), "aarch64": (0xC00000, 0)}.get(
    platform.machine(), (None, None))


@pytest.mark.skipif(TOWARD_ZERO is None, reason="fenv constants unknown for this host")
@pytest.mark.parametrize("backend", ["interp", "cpu"])
def test_execute_ignores_the_callers_rounding_mode(backend):
    with FusionDefinition() as fd:
        x = fd.define_tensor(shape=[8, 16], dtype=DataType.Float)
        third = fd.ops.div(x, fd.define_scalar(3.0, dtype=DataType.Float))
        fd.add_output(third)
        fd.add_output(fd.ops.cast(fd.ops.mul(third, third), DataType.BFloat16))
    inputs = [np.linspace(-7.0, 9.0, 128, dtype=np.float32).reshape(8, 16)]
    expected = fd.execute(inputs, backend=backend)

    assert libm.fesetround(TOWARD_ZERO) == 0
    try:
        # The mode is real: computed in it, one third rounds down.
        assert (np.float32(1) / np.float32(3)).view(np.uint32) == 0x3EAAAAAA
        actual = fd.execute(inputs, backend=backend)
        assert libm.fegetround() == TOWARD_ZERO
    finally:
        libm.fesetround(TO_NEAREST)
    for got, want in zip(actual, expected):
        assert got.tobytes() == want.tobytes()
    # And the default mode rounds one third up, as the runs did.
    assert (np.float32(1) / np.float32(3)).view(np.uint32) == 0x3EAAAAAB
