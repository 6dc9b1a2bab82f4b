"""The CPU backend's gemms of bf16 and f16 operands (issue 47,
lib/ExecutionEngine/LibraryCalls.cpp): bf16 through oneDNN's matmul
primitive where oneDNN loads, else (and with FUSER_DNNL=none) through
the BLAS's sgemm on operands widened to f32 in their own layout, as f16
always. Both paths against the interpreter within nvFuser's matmul
tolerance (FusionDefinition.validate) and against an f64 numpy reference,
on odd shapes, transposed (permuted) and broadcast operands, a bias, 1-D
operands, K = 0 and M = 0; the oneDNN path in this process, the fallback in
a child process (the library is chosen once per process), which also checks
from FUSER_MATMUL_LOG=1 that each gemm took the path it should."""
import ctypes
import os
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

from fuser_mlir import DataType, FusionDefinition

BF16 = ml_dtypes.bfloat16
DTYPES = {"bf16": (BF16, DataType.BFloat16), "f16": (np.float16, DataType.Half)}


def has_onednn():
    """Whether a oneDNN the backend loads is here (LibraryCalls.cpp's
    order: libdnnl.so.3, then libdnnl.so.2)."""
    for soname in ("libdnnl.so.3", "libdnnl.so.2"):
        try:
            ctypes.CDLL(soname)
            return True
        except OSError:
            pass
    return False


def random(rng, shape, dtype):
    return (rng.standard_normal(shape) / np.sqrt(max(shape[-1], 1))).astype(dtype)


# name: (operand shapes, build(fd, tensors) -> output, numpy reference of
# the f64 operands). Transposed operands are defined transposed and
# permuted back: the gemm reads them with a transpose flag.
CASES = {
    "odd": ([(37, 53), (53, 29)], lambda fd, a, b: fd.ops.matmul(a, b),
            lambda a, b: a @ b),
    "transposed": ([(53, 37), (29, 53)],
                   lambda fd, a, b: fd.ops.matmul(fd.ops.permute(a, [1, 0]),
                                                  fd.ops.permute(b, [1, 0])),
                   lambda a, b: a.T @ b.T),
    "linear_bias_3d": ([(2, 3, 40), (24, 40), (24,)],
                       lambda fd, x, w, bias: fd.ops.linear(x, w, bias),
                       lambda x, w, bias: x @ w.T + bias),
    "linear_wide": ([(5, 300), (130, 300)], lambda fd, x, w: fd.ops.linear(x, w),
                    lambda x, w: x @ w.T),
    "batch_broadcast": ([(2, 1, 5, 7), (3, 7, 4)], lambda fd, a, b: fd.ops.matmul(a, b),
                        lambda a, b: np.matmul(a, b)),
    "vector_batch": ([(7,), (3, 7, 4)], lambda fd, v, b: fd.ops.matmul(v, b),
                     lambda v, b: np.matmul(v, b)),
    "dot": ([(7,), (7,)], lambda fd, u, v: fd.ops.matmul(u, v), lambda u, v: u @ v),
    # The lhs broadcast along K: stride 0, packed before the gemm.
    "broadcast_k": ([(37, 1), (53, 29)],
                    lambda fd, c, b: fd.ops.matmul(fd.ops.expand(c, [37, 53]), b),
                    lambda c, b: np.broadcast_to(c, (37, 53)) @ b),
    "k0": ([(2, 0), (0, 3)], lambda fd, a, b: fd.ops.matmul(a, b), lambda a, b: a @ b),
    "k0_bias": ([(2, 0), (3, 0), (3,)], lambda fd, x, w, bias: fd.ops.linear(x, w, bias),
                lambda x, w, bias: x @ w.T + bias),
    "m0": ([(0, 8), (8, 5)], lambda fd, a, b: fd.ops.matmul(a, b), lambda a, b: a @ b),
}


def run_case(name, dtype_name, seed=0):
    shapes, build, reference = CASES[name]
    np_dtype, dtype = DTYPES[dtype_name]
    rng = np.random.default_rng(seed)
    inputs = [random(rng, s, np_dtype) for s in shapes]
    with FusionDefinition() as fd:
        tensors = [fd.define_tensor(shape=list(s), dtype=dtype) for s in shapes]
        fd.add_output(build(fd, *tensors))
    # Within nvFuser's matmul tolerance of the interpreter ...
    (out,) = fd.validate(inputs, backend="cpu")
    expected = np.asarray(reference(*[a.astype(np.float64) for a in inputs]))
    assert out.dtype == np_dtype and out.shape == expected.shape
    # ... and of the exact product, rounded once (half an ulp), plus the
    # f32 sums' error.
    np.testing.assert_allclose(out.astype(np.float64), expected,
                               rtol=2.0 ** (-8 if np_dtype == BF16 else -11), atol=1e-5)
    return out


@pytest.mark.parametrize("dtype_name", list(DTYPES))
@pytest.mark.parametrize("name", list(CASES))
def test_case(name, dtype_name):
    """In this process: bf16 through oneDNN where it loads."""
    run_case(name, dtype_name)


def test_exhaustive_widening():
    """Every f16 and bf16 value x through [x, 0] @ [1, 0]^T (K = 2: the
    preseg rule makes K = 1 a multiply), with the operand read in both
    layouts: f16 is widened exactly (subnormals, infinities, NaN) and the
    f32 result rounds back to x; bf16 on the sgemm path likewise. oneDNN's
    bf16 units treat subnormal inputs as zero (and flush subnormal results):
    there a subnormal x gives 0, which nvFuser's tolerance admits."""
    for np_dtype, dtype in DTYPES.values():
        values = np.arange(1 << 16, dtype=np.uint16).view(np_dtype)
        lhs = np.stack([values, np.zeros_like(values)], axis=1)  # [65536, 2]
        rhs = np.array([[1.0, 0.0]], dtype=np_dtype)  # [1, 2]
        for transposed in (False, True):
            with FusionDefinition() as fd:
                if transposed:
                    a = fd.define_tensor(shape=[2, 1 << 16], dtype=dtype)
                    a = fd.ops.permute(a, [1, 0])
                else:
                    a = fd.define_tensor(shape=[1 << 16, 2], dtype=dtype)
                w = fd.define_tensor(shape=[1, 2], dtype=dtype)
                fd.add_output(fd.ops.linear(a, w))
            operand = np.ascontiguousarray(lhs.T) if transposed else lhs
            (out,) = fd.execute([operand, rhs], backend="cpu")
            with np.errstate(invalid="ignore"):  # signalling NaNs
                out = out[:, 0].astype(np.float64)
                exact = values.astype(np.float64)
            finite = np.isfinite(exact)
            assert np.array_equal(np.isnan(out), np.isnan(exact))
            assert np.array_equal(out[~finite & ~np.isnan(exact)],
                                  exact[~finite & ~np.isnan(exact)])
            tiny = np.finfo(np_dtype).tiny
            normal = finite & (np.abs(exact) >= tiny)
            np.testing.assert_array_equal(out[normal], exact[normal])
            subnormal = finite & (np.abs(exact) < tiny)
            flushed = np_dtype == BF16 and os.environ.get("FUSER_DNNL") != "none" \
                and has_onednn()
            if flushed:
                assert np.all((out[subnormal] == 0) | (out[subnormal] == exact[subnormal]))
            else:
                np.testing.assert_array_equal(out[subnormal], exact[subnormal])


def run_child(environment, selection):
    """This file's tests in a child pytest, with FUSER_MATMUL_LOG=1 and
    `environment`: its output and the log."""
    env = dict(os.environ, FUSER_MATMUL_LOG="1", **environment)
    child = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider",
         __file__, "-k", selection], env=env, capture_output=True, text=True)
    assert child.returncode == 0, child.stdout[-3000:] + child.stderr[-3000:]
    return child.stdout + child.stderr


def gemm_lines(log, dtype_name):
    return [l for l in log.splitlines() if l.startswith("fuser matmul: %s " % dtype_name)]


def test_fallback_without_onednn():
    """FUSER_DNNL=none: every bf16 gemm is an sgemm of widened operands, and
    the cases and the exhaustive check pass there too."""
    log = run_child({"FUSER_DNNL": "none"}, "test_case or test_exhaustive")
    lines = gemm_lines(log, "bf16")
    assert lines and all("-> sgemm (operands widened to f32); oneDNN: oneDNN turned off"
                         in l for l in lines), lines[:5]


def test_fallback_when_missing():
    """A library that does not load: the sgemm path, with dlopen's reason."""
    log = run_child({"FUSER_DNNL": "/nonexistent/libdnnl.so.2"}, "test_case and odd")
    lines = gemm_lines(log, "bf16")
    assert lines and all("-> sgemm" in l and "/nonexistent/libdnnl.so.2" in l
                         for l in lines), lines[:5]


def placed(array, offset):
    """A copy of `array` whose data starts `offset` bytes past a 64-byte
    boundary (numpy's own arrays start wherever malloc put them)."""
    raw = np.empty(array.nbytes + 128, np.uint8)
    start = (-raw.ctypes.data) % 64 + offset
    out = raw[start:start + array.nbytes].view(array.dtype).reshape(array.shape)
    out[...] = array
    return out


@pytest.mark.parametrize("transposed", [False, True])
def test_lhs_off_a_cache_line(transposed):
    """A bf16 lhs 16 bytes off a cache line (oneDNN's src; its rows 256 bytes
    apart, so a copy at a line boundary aligns every row) gives the bits of
    the same values on a line boundary, in either layout."""
    rng = np.random.default_rng(5)
    lhs_shape = (128, 64) if transposed else (64, 128)
    lhs = random(rng, lhs_shape, BF16)
    rhs = random(rng, (128, 32), BF16)
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=list(lhs_shape), dtype=DataType.BFloat16)
        b = fd.define_tensor(shape=[128, 32], dtype=DataType.BFloat16)
        fd.add_output(fd.ops.matmul(fd.ops.permute(a, [1, 0]) if transposed else a, b))
    (on_line,) = fd.execute([placed(lhs, 0), rhs], backend="cpu")
    (off_line,) = fd.execute([placed(lhs, 16), rhs], backend="cpu")
    assert np.array_equal(np.asarray(on_line).view(np.uint16),
                          np.asarray(off_line).view(np.uint16))
    wide = lhs.astype(np.float64)
    expected = (wide.T if transposed else wide) @ rhs.astype(np.float64)
    np.testing.assert_allclose(np.asarray(off_line, np.float64), expected, atol=0.05, rtol=0.02)


@pytest.mark.skipif(not has_onednn(), reason="oneDNN does not load here")
def test_lhs_off_a_cache_line_is_copied():
    """The lhs 16 bytes off a line is copied to one before oneDNN reads it;
    the one on a line is read in place."""
    log = run_child({}, "test_lhs_off_a_cache_line and not copied")
    bf16 = gemm_lines(log, "bf16")
    assert len(bf16) == 4, bf16
    assert sum("lhs copied to a cache line" in l for l in bf16) == 2, bf16
    assert any("(lhs T, rhs N), lhs copied to a cache line" in l for l in bf16), bf16


@pytest.mark.skipif(not has_onednn(), reason="oneDNN does not load here")
def test_onednn_path():
    """With oneDNN every bf16 gemm is a oneDNN primitive on the operands as
    they lie (a permuted operand is read transposed); f16 stays on sgemm."""
    log = run_child({}, "test_case and (odd or transposed or linear_bias_3d)")
    bf16 = gemm_lines(log, "bf16")
    assert bf16 and all("-> oneDNN" in l for l in bf16), bf16
    assert any("(lhs T, rhs T)" in l for l in bf16), bf16
    assert any("(lhs N, rhs T)" in l for l in bf16), bf16
    f16 = gemm_lines(log, "f16")
    assert f16 and all("-> sgemm (operands widened to f32)" in l for l in f16), f16
