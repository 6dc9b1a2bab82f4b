"""A cached execute does no work the size of the definition (issue 48): the
cache key is a hash of the records computed once when the definition is
finished, the per-call signature a tuple of the inputs' extents and layouts,
and the default memory budget is not read on every call. Counters, not
timings, say so (bench/execute_overhead.py gives the times)."""
import time

import numpy as np
import pytest

from fuser_mlir import DataType, FusionCache, FusionDefinition, _cache, _fusion, _printer
from fuser_mlir import nvfuser_direct


@pytest.fixture(autouse=True)
def fresh_cache():
    FusionCache.reset()
    yield
    FusionCache.reset()


def small(op="add", dtype=DataType.Float, shape=(4, 8), constant=2.0, swap=False,
          stride_order=None, module=None, symbolic=False):
    """sum((a op b) * constant) and a op b: every argument changes one record."""
    definition_class = FusionDefinition if module is None else module.FusionDefinition
    with definition_class() as fd:
        extents = [-1] * len(shape) if symbolic else list(shape)
        a = fd.define_tensor(shape=extents, contiguity=[True] * len(shape), dtype=dtype)
        b = fd.define_tensor(shape=extents, contiguity=[True] * len(shape), dtype=dtype)
        c = getattr(fd.ops, op)(a, b)
        s = fd.define_scalar(constant)
        d = fd.ops.sum(fd.ops.mul(c, s), dims=[1])
        outputs = [d, c] if swap else [c, d]
        for output in outputs:
            if output is c and stride_order is not None:
                fd.add_output(output, stride_order=stride_order)
            else:
                fd.add_output(output)
    return fd


def inputs(shape=(4, 8), dtype=np.float32):
    rng = np.random.default_rng(0)
    return [rng.standard_normal(shape).astype(dtype) for _ in range(2)]


def test_equal_definitions_have_equal_keys():
    first, second = small(), small()
    assert first._cache_key() == second._cache_key()
    assert isinstance(first._cache_key(), bytes)
    # The second definition finds the first one's compiled fusion.
    first.execute(inputs())
    second.execute(inputs())
    assert second.cache_info() == (1, 1, 1)
    # Both APIs record the same calls: the same key.
    assert small(module=nvfuser_direct)._cache_key() == first._cache_key()


@pytest.mark.parametrize("change", [
    {"op": "sub"}, {"dtype": DataType.Double}, {"shape": (4, 9)}, {"constant": 3.0},
    {"constant": 2}, {"constant": -0.0}, {"swap": True}, {"stride_order": [0, 1]},
    {"symbolic": True},
], ids=lambda change: "-".join("%s=%s" % item for item in change.items()))
def test_any_different_record_changes_the_key(change):
    assert small(**change)._cache_key() != small()._cache_key()


def test_keys_tell_apart_values_python_equates():
    # 0.0 == -0.0 and 1 == 1.0 == True, but they are different constants.
    keys = {small(constant=value)._cache_key() for value in (0.0, -0.0, 1, 1.0, True)}
    assert len(keys) == 5
    # Every NaN is the same constant.
    assert small(constant=float("nan"))._cache_key() == \
        small(constant=float("nan"))._cache_key()


def test_a_key_taken_before_the_definition_is_finished_is_not_kept():
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[4], contiguity=[True], dtype=DataType.Float)
        early = fd._cache_key()
        fd.add_output(fd.ops.neg(a))
    assert fd._cache_key() != early
    assert fd._cache_key() is fd._cache_key()


@pytest.mark.parametrize("symbolic", [False, True], ids=["static", "symbolic"])
@pytest.mark.parametrize("backend", ["interp", "cpu"])
def test_a_cached_call_does_no_definition_sized_work(backend, symbolic, monkeypatch):
    fd = small(symbolic=symbolic)
    x = inputs()
    first = fd.execute(x, backend=backend)
    keys = _cache.key_computations

    def refuse(*args, **kwargs):
        raise AssertionError("a cached execute printed or rebuilt the definition")

    # Nothing prints, rebuilds or walks the records, nor computes a key.
    monkeypatch.setattr(_printer, "format_record", refuse)
    monkeypatch.setattr(_printer, "format_definition", refuse)
    monkeypatch.setattr(_fusion, "format_definition", refuse)
    monkeypatch.setattr(_fusion.FusionDefinition, "_build", refuse)
    monkeypatch.setattr(_fusion.FusionDefinition, "_input_view", refuse)
    for _ in range(50):
        outputs = fd.execute(x, backend=backend)
    for output, expected in zip(outputs, first):
        np.testing.assert_array_equal(output, expected)
    assert _cache.key_computations == keys
    assert fd.cache_info() == (50, 1, 1)
    assert _cache.key_computations == keys
    # A symbolic definition lists the build it ran once.
    assert len(fd._concretized) == (1 if symbolic else 0)


def test_the_default_budget_is_read_once_per_refresh_interval(monkeypatch):
    monkeypatch.delenv("FUSER_MAX_TOTAL_BYTES", raising=False)
    monkeypatch.setattr(_fusion, "DEFAULT_BUDGET_REFRESH_S", 3600.0)
    monkeypatch.setattr(_fusion, "_default_budget", (float("-inf"), 0))
    fd = small()
    x = inputs()
    reads = _fusion.default_budget_reads
    for _ in range(20):
        fd.execute(x, backend="cpu")
    assert _fusion.default_budget_reads == reads + 1
    # A run whose inputs are large beside the budget reads it afresh; one
    # of 1 MiB beside a budget of gigabytes does not.
    rows = (1 << 20) // (8 * 4) + 1
    big = small(shape=(rows, 8))
    big.execute(inputs((rows, 8)), backend="cpu")
    assert _fusion.default_budget_reads == reads + 1
    monkeypatch.setattr(_fusion, "_default_budget",
                        (time.monotonic(), rows * 8 * 4 * _fusion.FRESH_BUDGET_FRACTION))
    big.execute(inputs((rows, 8)), backend="cpu")
    big.execute(inputs((rows, 8)), backend="cpu")
    assert _fusion.default_budget_reads == reads + 2
    # An elapsed interval reads it again.
    monkeypatch.setattr(_fusion, "DEFAULT_BUDGET_REFRESH_S", -1.0)
    fd.execute(x, backend="cpu")
    assert _fusion.default_budget_reads == reads + 3


def test_the_budget_variable_is_read_on_every_call(monkeypatch):
    fd = small(shape=(64, 64))
    x = inputs((64, 64))
    fd.execute(x, backend="cpu")
    monkeypatch.setenv("FUSER_MAX_TOTAL_BYTES", "1000")
    with pytest.raises(Exception, match="FUSER_MAX_TOTAL_BYTES|max-total-bytes|limit"):
        fd.execute(x, backend="cpu")
    monkeypatch.delenv("FUSER_MAX_TOTAL_BYTES")
    fd.execute(x, backend="cpu")


def test_a_pipeline_definition_keys_its_ir_once():
    fd = small()
    derived = fd.preseg(inputs())
    keys = _cache.key_computations
    for _ in range(3):
        derived.execute(inputs())
    derived.cache_info()
    assert _cache.key_computations == keys + 1
    assert derived.cache_info() == (2, 1, 1)


def test_signature_is_built_without_strings():
    fd = small()
    x = inputs()
    signature = fd._prepare_inputs(x)[1]
    assert signature == (((4, 8), True), ((4, 8), True))

    def strings(value):
        return isinstance(value, str) or isinstance(value, tuple) and \
            any(strings(v) for v in value)
    assert not strings(signature)
    # A transposed input is another layout: another variant.
    fd.execute(x)
    fd.execute([np.ascontiguousarray(x[0].T).T, x[1]])
    assert fd.cache_info() == (0, 2, 2)


@pytest.mark.parametrize("backend", ["interp", "cpu"])
def test_a_cached_call_passes_the_callers_arrays(backend, monkeypatch):
    # Row-major inputs cross to the native run as they are (their bytes
    # borrowed through the buffer protocol), with no view made per call; the
    # results come back as the native module made them (arrays of their
    # dtype and shape) where no output is aliased, laid out or a view of an
    # input.
    fd = small()
    x = inputs()
    fd.execute(x, backend=backend)
    runs = []
    call = _fusion._call

    def record(fn, *args):
        result = call(fn, *args)
        if isinstance(args[0], list):  # a run (inputs, budget, as_dlpack), not a compile
            runs.append((args, result))
        return result
    monkeypatch.setattr(_fusion, "_call", record)
    outputs = fd.execute(x, backend=backend)
    ((native_inputs, _, _), results), = runs
    assert all(data is value for (_, _, data), value in zip(native_inputs, x))
    assert len(outputs) == len(results) == 2
    assert all(output is data for output, (_, data) in zip(outputs, results))
    # The run's input bytes (its budget counts them) were summed once, at the
    # variant's first call.
    assert fd._last_build.input_bytes == sum(value.nbytes for value in x)
    # A transposed input is copied once, to row-major.
    runs.clear()
    transposed = np.ascontiguousarray(x[0].T).T
    fd.execute([transposed, x[1]], backend=backend)
    ((native_inputs, _, _), _), = runs
    assert native_inputs[0][2].flags.c_contiguous and native_inputs[1][2] is x[1]


@pytest.mark.parametrize("backend", ["interp", "cpu"])
def test_a_run_reads_an_input_by_its_address(backend, monkeypatch):
    # A row-major torch CPU tensor crosses as its address (data_ptr()), torch
    # having no buffer protocol: the native run reads the extents' worth of
    # bytes from there, as it reads a borrowed array.
    fd = small()
    x = inputs()
    expected = fd.execute(x, backend=backend)
    runs = []
    call = _fusion._call

    def record(fn, *args):
        if isinstance(args[0], list):
            runs.append((fn, args))
        return call(fn, *args)
    monkeypatch.setattr(_fusion, "_call", record)
    fd.execute(x, backend=backend)
    ((run, (native_inputs, budget, _)),) = runs
    by_address = [(dtype, shape, array.ctypes.data) for dtype, shape, array in native_inputs]
    results = [_fusion._arrays.from_native(result) for result in run(by_address, budget)]
    assert all(np.array_equal(r, e) for r, e in zip(results, expected))


@pytest.mark.parametrize("dtype, bits", [(DataType.BFloat16, np.uint16),
                                         (DataType.Float8_e4m3fn, np.uint8),
                                         (DataType.Float8_e5m2, np.uint8)])
def test_results_numpy_lacks_cross_as_their_bits(dtype, bits):
    # bf16 and fp8, which numpy has only through ml_dtypes, come from the
    # native module as unsigned integers of their width, named by their
    # dtype, and become arrays of the ml_dtypes type; the other dtypes come as
    # arrays of their own dtype and shape, scalars as 0-d arrays.
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[2, 3], contiguity=[True, True], dtype=DataType.Float)
        fd.add_output(fd.ops.cast(a, dtype))
        fd.add_output(fd.ops.sum(a, dims=[0, 1]))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    compiled = fd._build_for([x]).native.compile("cpu")
    (name, raw), (none, total) = compiled.run([("float32", (2, 3), x)], 1 << 30)
    assert name == dtype.value and raw.dtype == bits and raw.shape == (2, 3)
    assert none is None and total.dtype == np.float32 and total.shape == () and total == 15
    cast, _ = fd.execute([x], backend="cpu")
    assert cast.dtype.name == dtype.value and np.array_equal(
        cast.astype(np.float32), x)


def test_a_view_of_a_torch_input_is_laid_out_once_per_variant(monkeypatch):
    # An output that is a permute or reshape of a row-major torch input is a
    # torch view of that input's memory (as nvFuser's alias), the input
    # having crossed by address: its sizes and strides are found once per
    # variant, then each call makes the view in one step.
    torch = pytest.importorskip("torch")
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[2, 3, 4], contiguity=[True] * 3, dtype=DataType.Float)
        fd.add_output(fd.ops.neg(a))
        fd.add_output(fd.ops.reshape(fd.ops.permute(a, dims=[0, 2, 1]), [2, 12]))
        fd.add_output(fd.ops.permute(a, dims=[2, 0, 1]))
    layouts = []
    find = _fusion._view_layout
    monkeypatch.setattr(_fusion, "_view_layout",
                        lambda *args: layouts.append(args) or find(*args))
    x = torch.randn(2, 3, 4, requires_grad=True)
    for _ in range(3):
        negated, flat, permuted = fd.execute([x])
    assert len(layouts) == 2  # both view outputs, at the first call only
    expected = x.detach()
    torch.testing.assert_close(negated, -expected, rtol=0, atol=0)
    # permute then reshape has to copy: the computed result.
    torch.testing.assert_close(flat, expected.permute(0, 2, 1).reshape(2, 12), rtol=0, atol=0)
    assert flat.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
    # A permute is a view of the input, outside autograd.
    assert permuted.stride() == expected.permute(2, 0, 1).stride()
    assert permuted.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    assert not permuted.requires_grad
    torch.testing.assert_close(permuted, expected.permute(2, 0, 1), rtol=0, atol=0)


def test_torch_results_cross_by_dlpack(monkeypatch):
    # Torch CPU tensors in, torch tensors out: the native module hands the
    # results over as DLPack capsules, which torch takes with no numpy array
    # between (bf16 as itself, fp8 as its bits viewed).
    torch = pytest.importorskip("torch")
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[-1, 3], contiguity=[True, True], dtype=DataType.Float)
        fd.add_output(fd.ops.cast(a, DataType.BFloat16))
        fd.add_output(fd.ops.cast(a, DataType.Float8_e4m3fn))
        fd.add_output(fd.ops.sum(a, dims=[0, 1]))
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)

    def refuse(*args):
        raise AssertionError("a result went through numpy")
    monkeypatch.setattr(torch, "from_numpy", refuse)
    monkeypatch.setattr(_fusion._arrays, "from_native", refuse)
    half, fp8, total = fd.execute([x])
    assert (half.dtype, fp8.dtype, total.dtype) == (torch.bfloat16, torch.float8_e4m3fn,
                                                    torch.float32)
    torch.testing.assert_close(half.float(), x, rtol=0, atol=0)
    torch.testing.assert_close(fp8.float(), x, rtol=0, atol=0)
    assert total.shape == () and total.item() == 15
