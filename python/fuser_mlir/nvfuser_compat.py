"""Runs an unmodified nvFuser repro script against fuser_mlir.

    python -m fuser_mlir.nvfuser_compat SCRIPT.py [--preseg] [--segment] [-o FILE]
                                        [--no-cpu-fallback]

The script's `import nvfuser` gets a stand-in module that maps to fuser_mlir
(FusionDefinition, DataType, FusionCache), `import nvfuser_direct` the
module fuser_mlir.nvfuser_direct. Every fusion the script defines is printed
as MLIR: a definition with symbolic extents as the script's fd.execute
concretized it, once per input signature; a script that only defines
`def nvfuser_fusion_idN(fd):` functions has them called in a `with
FusionDefinition() as fd:` block. With --preseg the IR is printed after
fuser-preseg; with --segment after fuser-preseg and fuser-segment
(fd.segment()). Where no CUDA device exists, the CUDA tensors the script
makes are made on the CPU instead (said on stderr; --no-cpu-fallback turns it
off), so its fd.execute runs here. Exit status 2 when the script cannot be
run: an op fuser_mlir does not model (named with the script line), torch
missing, the 2022 torch._C._nvfuser API, or an error building the fusion.
"""

import argparse
import inspect
import sys
import traceback
import types

from . import _fusion, nvfuser_direct
from ._cache import FusionCache
from ._errors import UnsupportedOpError
from ._fusion import FusionDefinition
from ._states import DataType


STAND_IN_NAMES = ("nvfuser", "nvfuser_direct")
# nvfuser_direct's submodules that programs import from.
DIRECT_SUBMODULES = ("pytorch_utils", "nvfuser_direct_version", "multidevice")


def make_nvfuser_module():
    """The legacy `nvfuser` stand-in: what repro scripts and Thunder import
    from it (FusionDefinition, DataType, FusionCache, version(),
    compute_tensor_descriptor, compute_contiguity)."""
    module = types.ModuleType("nvfuser")
    module.FusionDefinition = FusionDefinition
    module.DataType = DataType
    module.FusionCache = FusionCache
    module.__version__ = nvfuser_direct.__version__
    module.version = nvfuser_direct.version
    module.compute_tensor_descriptor = nvfuser_direct.compute_tensor_descriptor
    module.compute_contiguity = compute_contiguity
    module.__doc__ = "fuser_mlir's stand-in for nvFuser (fuser_mlir.nvfuser_compat)"
    return module


def install():
    """Makes `import nvfuser` and `import nvfuser_direct` (and its
    submodules) give fuser_mlir's stand-ins in this process: how a client of
    nvFuser (Lightning Thunder: docs/Python.md, "Thunder") runs on fuser_mlir.
    Call it before the client imports nvFuser. Returns the modules it
    replaced (None where there was none), by name."""
    previous = {name: sys.modules.get(name) for name in STAND_IN_NAMES}
    for name in STAND_IN_NAMES:
        sys.modules[name] = _stand_in(name)
    for name in DIRECT_SUBMODULES:
        previous["nvfuser_direct." + name] = sys.modules.get("nvfuser_direct." + name)
        sys.modules["nvfuser_direct." + name] = getattr(nvfuser_direct, name)
    return previous


def compute_contiguity(sizes, strides):
    """The legacy module's compute_contiguity (nvFuser's computeContiguity):
    per dim in the given order, None for a broadcast (extent 1 or stride 0),
    else whether its stride is the next non-broadcast dim's stride times
    that dim's extent (the innermost such dim: whether its stride is 1)."""
    sizes, strides = list(sizes), list(strides)
    if len(sizes) != len(strides):
        raise ValueError("compute_contiguity: Sizes and strides must have the same number "
                         "of dimensions")
    dims = [d for d in range(len(sizes)) if strides[d] != 0 and sizes[d] != 1]
    contiguity = [None] * len(sizes)
    for outer, inner in zip(dims, dims[1:]):
        contiguity[outer] = strides[outer] == strides[inner] * sizes[inner]
    if dims:
        contiguity[dims[-1]] = strides[dims[-1]] == 1
    return contiguity


def _stand_in(name):
    return make_nvfuser_module() if name == "nvfuser" else nvfuser_direct


def _fail(message):
    print("nvfuser_compat: error: " + message, file=sys.stderr)
    return 2


def _script_line(error, script):
    """The last line of `script` in the traceback of `error` (for a syntax
    error, the line it names)."""
    if isinstance(error, SyntaxError) and error.filename == script:
        return error.lineno
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__)
             if frame.filename == script]
    return lines[-1] if lines else None


def _report(error, script, definitions):
    """Reports an error of the script: exit status 2, or 0 (a warning) when
    it came after every fusion was built (running the fusion, the script's
    own code), since the IR is what the runner prints."""
    line = _script_line(error, script)
    if isinstance(error, UnsupportedOpError):
        if error.filename == script:
            line = error.line
        return _fail("%s:%s: nvFuser operation 'fd.ops.%s' is not supported by fuser_mlir"
                     % (script, line, error.op))
    if "_nvfuser" in str(error) and isinstance(error, (AttributeError, ImportError)):
        return _fail("%s:%s: the script uses torch._C._nvfuser, nvFuser's 2022 API inside "
                     "torch, which fuser_mlir does not provide: port it to `from nvfuser "
                     "import FusionDefinition, DataType`" % (script, line))
    if isinstance(error, ModuleNotFoundError) and error.name \
            and error.name.split(".")[0] == "torch":
        return _fail("%s needs torch, which is not installed here (pip install torch), "
                     "line %s" % (script, line))
    message = str(error)
    # Errors of the native builder carry the script location already.
    if not message.startswith(script + ":"):
        message = "%s:%s: %s" % (script, line, message)
    message = "%s (%s)" % (message, type(error).__name__)
    if definitions and not _fusion.definition_failed and \
            any(not _concretizable(fd) for fd in definitions):
        # The script stopped before the execute that would concretize it:
        # its own error is what went wrong.
        return _fail("%s; the script stopped before executing its fusion with symbolic "
                     "extents, so no shapes concretize it" % message)
    if definitions and not _fusion.definition_failed:
        print("nvfuser_compat: warning: %s; printing the %d fusion(s) defined before it"
              % (message, len(definitions)), file=sys.stderr)
        return 0
    return _fail(message)


def _fusion_functions(namespace, script):
    """Functions of the script that take a FusionDefinition: the repro's
    `def nvfuser_fusion_idN(fd : FusionDefinition) -> None:`."""
    functions = []
    for name, value in namespace.items():
        if not inspect.isfunction(value) or value.__code__.co_filename != script:
            continue
        parameters = list(inspect.signature(value).parameters.values())
        if len(parameters) != 1:
            continue
        annotation = parameters[0].annotation
        if name.startswith("nvfuser_fusion") or annotation == "FusionDefinition" or \
                (isinstance(annotation, type) and issubclass(annotation, FusionDefinition)):
            functions.append((name, value))
    return functions


def _concretizable(fd):
    """Whether the runner can print a definition: static extents, or a
    symbolic one that the script's execute concretized."""
    return not fd.is_symbolic() or bool(fd._concretized)


def _static_definitions(fd):
    """What the runner prints of a definition (_concretizable): itself, or,
    with symbolic extents, each concretization the script's execute made of
    it."""
    if not fd.is_symbolic():
        return [fd]
    return [fd._derived(build.native) for build in fd._concretized]


def _cpu_fallback(source):
    """A torch function mode that makes CUDA tensors on the CPU, when the
    script uses torch and no CUDA device exists; None otherwise."""
    if "torch" not in source:
        return None
    try:
        import torch
        from torch.overrides import TorchFunctionMode
    except ImportError:
        return None
    if torch.cuda.is_available():
        return None

    def on_cpu(device):
        text = str(device) if device is not None else ""
        return "cpu" if text.startswith("cuda") or isinstance(device, int) else device

    class CUDAOnCPU(TorchFunctionMode):
        warned = False

        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = dict(kwargs or {})
            name = getattr(func, "__name__", "")
            if name == "cuda":
                self.warn()
                return args[0]
            if "device" in kwargs and on_cpu(kwargs["device"]) == "cpu":
                self.warn()
                kwargs["device"] = "cpu"
            if name == "to" and len(args) > 1 and isinstance(args[1], (str, torch.device)) \
                    and str(args[1]).startswith("cuda"):
                self.warn()
                args = (args[0], "cpu") + tuple(args[2:])
            return func(*args, **kwargs)

        def warn(self):
            if not CUDAOnCPU.warned:
                CUDAOnCPU.warned = True
                print("nvfuser_compat: no CUDA device here: the script's CUDA tensors are "
                      "made on the CPU (--no-cpu-fallback keeps them on CUDA)", file=sys.stderr)

    return CUDAOnCPU()


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m fuser_mlir.nvfuser_compat",
        description="Run an nvFuser repro script against fuser_mlir and print the IR.")
    parser.add_argument("script", help="the nvFuser repro script")
    parser.add_argument("--preseg", action="store_true", help="print the IR after fuser-preseg")
    parser.add_argument("--segment", action="store_true",
                        help="print the IR after fuser-preseg and fuser-segment")
    parser.add_argument("-o", "--output", help="write the IR here instead of stdout")
    parser.add_argument("--no-cpu-fallback", action="store_true",
                        help="keep CUDA tensors on CUDA even where no CUDA device exists")
    args = parser.parse_args(argv)

    try:
        with open(args.script) as script_file:
            source = script_file.read()
    except OSError as error:
        return _fail("cannot read %s: %s" % (args.script, error.strerror))

    definitions = []
    _fusion.definition_failed = False
    previous_hook = _fusion.definition_hook
    # nvFuser's module and its newer direct bindings, which repro scripts
    # import with the same names.
    _fusion.definition_hook = definitions.append
    previous_modules = install()
    namespace = {"__name__": "__main__", "__file__": args.script}
    fallback = None if args.no_cpu_fallback else _cpu_fallback(source)
    try:
        try:
            try:
                if fallback is not None:
                    fallback.__enter__()
                exec(compile(source, args.script, "exec"), namespace)
            except SystemExit:
                pass  # sys.exit() in the script ends it; the fusions stay.
            if not definitions:
                for name, function in _fusion_functions(namespace, args.script):
                    with FusionDefinition(name=name) as fd:
                        function(fd)
        except Exception as error:  # noqa: BLE001 - every script error is reported
            status = _report(error, args.script, definitions)
            if status:
                return status
        if not definitions:
            return _fail("%s defines no fusion (no `with FusionDefinition() as fd:` block "
                         "and no function taking a FusionDefinition)" % args.script)

        unprinted = [fd for fd in definitions if not _concretizable(fd)]
        if unprinted:
            return _fail("%s: %d of its %d fusion(s) have symbolic extents (-1, a vector or "
                         "a scalar input as an extent) and the script never executes them, "
                         "so no shapes concretize them: execute each, or define it with "
                         "static extents" % (args.script, len(unprinted), len(definitions)))
        texts = []
        for fd in [fixed for fd in definitions for fixed in _static_definitions(fd)]:
            try:
                # fd.segment() runs fuser-preseg first.
                if args.segment:
                    fd = fd.segment()
                elif args.preseg:
                    fd = fd.preseg()
                texts.append(fd.mlir().rstrip("\n") + "\n")
            except (ValueError, RuntimeError) as error:
                return _fail("%s: %s" % (args.script, error))
    finally:
        if fallback is not None:
            fallback.__exit__(None, None, None)
        _fusion.definition_hook = previous_hook
        for name, module in previous_modules.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module

    output = "".join(texts)
    if args.output:
        with open(args.output, "w") as output_file:
            output_file.write(output)
    else:
        sys.stdout.write(output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
