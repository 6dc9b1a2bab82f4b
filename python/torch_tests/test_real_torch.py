"""fuser_mlir with real torch (make check-torch, which installs torch into a
virtual environment of its own; not part of make check): CPU tensors in and
out, inputs passed without a Python-side copy (row-major CPU tensors by
address, where no output is made from a view of them), non-contiguous and
channels-last inputs, bf16, in-place aliases, output stride order, and the
runner on a script that makes CUDA tensors where no GPU exists."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

from fuser_mlir import _arrays
from fuser_mlir.nvfuser_direct import DataType, FusionDefinition


def scaled_sum(x, dtype=DataType.Float):
    with FusionDefinition() as fd:
        t0 = fd.from_pytorch(x)
        t1 = fd.ops.mul(fd.ops.cast(t0, DataType.Float), 2.0)
        fd.add_output(fd.ops.cast(t1, dtype))
        fd.add_output(fd.ops.sum(t1, dims=[t0.ndim - 1]))
    return fd


@pytest.mark.parametrize("backend", ["interp", "cpu"])
def test_cpu_tensors_in_and_out(backend):
    x = torch.randn(4, 8)
    scaled, summed = scaled_sum(x).execute([x], backend=backend)
    assert isinstance(scaled, torch.Tensor) and scaled.device.type == "cpu"
    torch.testing.assert_close(scaled, x * 2, rtol=0, atol=0)
    torch.testing.assert_close(summed, (x * 2).sum(1))


def test_inputs_cross_without_a_copy():
    """A contiguous CPU tensor reaches the native module as a view of its
    own memory (which the CPU backend's kernels read in place: torch aligns
    to 64 bytes); a result tensor shares the backend's buffer."""
    x = torch.randn(16, 16)
    view = _arrays.as_numpy(x)
    assert view.ctypes.data == x.data_ptr()
    (_, native_view) = _arrays.to_native(view, "float32", view.shape)[1:]
    assert native_view.ctypes.data == x.data_ptr() and x.data_ptr() % 16 == 0
    scaled, _ = scaled_sum(x).execute([x])
    assert scaled.numpy().ctypes.data == scaled.data_ptr()


@pytest.fixture
def execute_by_address(monkeypatch):
    """execute(fd, inputs, backend): fd.execute with no torch tensor going
    through a numpy view (as_numpy; from_pytorch, before, takes one), and
    the inputs of its native run."""
    from fuser_mlir import _fusion
    seen, call = [], _fusion._call

    def recording(fn, *args):
        if getattr(fn, "__name__", "") == "run":
            seen.append(args[0])
        return call(fn, *args)

    def refused(tensor):
        raise AssertionError("as_numpy of a row-major CPU tensor")

    def execute(fd, inputs, backend):
        with monkeypatch.context() as patch:
            patch.setattr(_fusion, "_call", recording)
            patch.setattr(_arrays, "as_numpy", refused)
            outputs = fd.execute(inputs, backend=backend)
        return outputs, seen[-1]
    return execute


@pytest.mark.parametrize("backend", ["interp", "cpu"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.int64])
def test_torch_inputs_cross_by_address(execute_by_address, backend, dtype):
    """Where the outputs are the run's results as they are, a row-major CPU
    tensor (a Parameter, one that requires grad, bf16 included) crosses as
    its address, and results come back as tensors sharing the backend's
    buffer (for bf16 through int16 bits)."""
    x = torch.arange(12).reshape(3, 4).to(dtype)
    w = torch.nn.Parameter(torch.arange(4).to(dtype) - 2, requires_grad=dtype.is_floating_point)
    with FusionDefinition() as fd:
        tx, tw = fd.from_pytorch(x), fd.from_pytorch(w)
        t = fd.ops.mul(tx, fd.ops.broadcast_in_dim(tw, shape=[3, 4], broadcast_dims=[1]))
        fd.add_output(fd.ops.cast(t, DataType.Float))
        fd.add_output(fd.ops.sum(t, dims=[1]))
    (product, summed), native = execute_by_address(fd, [x, w], backend)
    assert [data for _, _, data in native] == [x.data_ptr(), w.data_ptr()]
    expected = x.detach() * w.detach()
    torch.testing.assert_close(product, expected.to(product.dtype), rtol=0, atol=0)
    assert product.dtype == torch.float32 and summed.device.type == "cpu"
    torch.testing.assert_close(summed, expected.sum(1).to(summed.dtype), rtol=0, atol=0)
    assert not product.requires_grad


@pytest.mark.parametrize("backend", ["interp", "cpu"])
@pytest.mark.parametrize("shape", [(), (0, 4), (1, 5)])
def test_torch_inputs_by_address_of_any_extent(execute_by_address, backend, shape):
    x = torch.ones(shape) if shape else torch.tensor(1.5)
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.add(fd.from_pytorch(x), 1.0))
    (out,), native = execute_by_address(fd, [x], backend)
    assert native[0][2] == x.data_ptr()
    torch.testing.assert_close(out, x + 1.0, rtol=0, atol=0)


def test_torch_inputs_that_need_a_view():
    """Not by address: a non-row-major tensor (copied), and any tensor of a
    definition whose outputs may be input views or are laid out or aliased
    (those outputs are made from numpy views of the inputs)."""
    base = torch.randn(4, 6)
    x = base.t()
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.neg(fd.from_pytorch(x)))
    torch.testing.assert_close(fd.execute([x])[0], -x, rtol=0, atol=0)
    y = torch.randn(4, 6)
    with FusionDefinition() as fd:
        ty = fd.from_pytorch(y)
        fd.add_output(fd.ops.reshape(ty, [24]))
        fd.add_output(fd.ops.neg(ty))
    flat, negated = fd.execute([y])
    assert flat.data_ptr() == y.data_ptr()
    torch.testing.assert_close(negated, -y, rtol=0, atol=0)


@pytest.mark.parametrize("layout", ["transposed", "sliced", "channels_last"])
def test_non_contiguous_inputs(layout):
    base = torch.randn(2, 3, 4, 5)
    x = {"transposed": base.transpose(1, 3), "sliced": base[:, :, ::2],
         "channels_last": base.contiguous(memory_format=torch.channels_last)}[layout]
    fd = scaled_sum(x)
    scaled, summed = fd.execute([x])
    torch.testing.assert_close(scaled, x * 2, rtol=0, atol=0)
    torch.testing.assert_close(summed, (x * 2).sum(-1))
    if layout == "channels_last":
        assert "stride_order=[3, 0, 2, 1]" in repr(fd)


def test_bf16():
    x = torch.randn(3, 8, dtype=torch.bfloat16)
    scaled, summed = scaled_sum(x, DataType.BFloat16).execute([x])
    assert scaled.dtype == torch.bfloat16
    torch.testing.assert_close(scaled, x * 2, rtol=0, atol=0)
    torch.testing.assert_close(summed, (x.float() * 2).sum(1))


def test_in_place_alias():
    w = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    g = torch.ones(2, 3)
    with FusionDefinition() as fd:
        tw, tg = fd.from_pytorch(w), fd.from_pytorch(g)
        fd.add_output(fd.ops.sub(tw, fd.ops.mul(tg, 0.5)), alias_input=tw)
    pointer = w.data_ptr()
    assert fd.execute([w, g]) == []
    assert w.data_ptr() == pointer
    torch.testing.assert_close(w, torch.arange(6, dtype=torch.float32).reshape(2, 3) - 0.5)


def test_output_stride_order():
    x = torch.randn(2, 3, 4)
    with FusionDefinition() as fd:
        t0 = fd.from_pytorch(x)
        fd.add_output(fd.ops.neg(t0), stride_order=[0, 1, 2])
    (out,) = fd.execute([x])
    assert out.stride() == (1, 2, 6)
    torch.testing.assert_close(out, -x)


def test_validate():
    x = torch.randn(4, 4)
    fd = scaled_sum(x)
    fd.validate([x], [x * 2, (x * 2).sum(1)])
    with pytest.raises(AssertionError):
        fd.validate([x], [x * 3, (x * 2).sum(1)])


@pytest.mark.skipif(torch.cuda.is_available(), reason="the fallback is for machines without a GPU")
def test_runner_puts_cuda_tensors_on_the_cpu(tmp_path):
    script = tmp_path / "cuda_script.py"
    script.write_text(textwrap.dedent("""\
        import torch
        from nvfuser_direct import FusionDefinition, DataType
        x = torch.randn(4, 6, device="cuda")
        y = torch.ones(6).cuda()
        with FusionDefinition() as fd:
            t0 = fd.from_pytorch(x)
            t1 = fd.from_pytorch(y)
            fd.add_output(fd.ops.add(t0, t1))
        (out,) = fd.execute([x, y])
        torch.testing.assert_close(out, x + y)
        print("checked", out.device)
        """))
    run = subprocess.run([sys.executable, "-m", "fuser_mlir.nvfuser_compat", str(script)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "checked cpu" in run.stdout
    assert "tensor<4x6xf32>" in run.stdout
    assert "no CUDA device here: the script's CUDA tensors are made on the CPU" in run.stderr
    off = subprocess.run([sys.executable, "-m", "fuser_mlir.nvfuser_compat", "--no-cpu-fallback",
                          str(script)], capture_output=True, text=True)
    assert off.returncode == 2 and "nvfuser_compat: error" in off.stderr


def test_runner_names_the_2022_api(tmp_path):
    script = tmp_path / "old_api.py"
    script.write_text("import torch\nfrom torch._C._nvfuser import FusionDefinition\n")
    run = subprocess.run([sys.executable, "-m", "fuser_mlir.nvfuser_compat", str(script)],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert "torch._C._nvfuser, nvFuser's 2022 API" in run.stderr


def test_scalar_inputs_give_torch_outputs():
    """nvFuser returns torch tensors; with torch in use and no numpy input,
    so does fuser_mlir."""
    with FusionDefinition() as fd:
        s0, s1 = fd.define_scalar(), fd.define_scalar()
        full = fd.ops.full(shape=[2, 2], fill_value=fd.define_scalar(1.0, DataType.Float),
                           dtype=DataType.Float)
        fd.add_output(fd.ops.mul(full, fd.ops.add(s0, s1)))
    (out,) = fd.execute([2.0, 3.0])
    assert isinstance(out, torch.Tensor)
    torch.testing.assert_close(out, torch.full([2, 2], 5.0))
