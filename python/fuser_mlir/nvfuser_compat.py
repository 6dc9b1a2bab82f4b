"""Runs an unmodified nvFuser repro script against fuser_mlir.

    python -m fuser_mlir.nvfuser_compat SCRIPT.py [--preseg] [--segment] [-o FILE]

The script's `import nvfuser` gets a stand-in module that maps to fuser_mlir
(FusionDefinition, DataType). Every fusion the script defines is printed as
MLIR; a script that only defines `def nvfuser_fusion_idN(fd):` functions has
them called in a `with FusionDefinition() as fd:` block. With --preseg the
IR is printed after fuser-preseg; with --segment after fuser-preseg and
fuser-segment (fd.segment()). Exit status 2 when the
script cannot be run: an op fuser_mlir does not model (named with the script
line), torch missing, or an error building the fusion.
"""

import argparse
import inspect
import sys
import traceback
import types

from . import _fusion
from ._fusion import DataType, FusionDefinition, UnsupportedOpError


STAND_IN_NAMES = ("nvfuser", "nvfuser_direct")


def make_nvfuser_module():
    """The `nvfuser` stand-in: what repro scripts import from it."""
    module = types.ModuleType("nvfuser")
    module.FusionDefinition = FusionDefinition
    module.DataType = DataType
    module.__version__ = "fuser_mlir"
    module.version = lambda: "fuser_mlir"
    module.__doc__ = "fuser_mlir's stand-in for nvFuser (fuser_mlir.nvfuser_compat)"
    return module


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
    if isinstance(error, ModuleNotFoundError) and error.name \
            and error.name.split(".")[0] == "torch":
        return _fail("%s needs torch, which is not installed here (pip install torch), "
                     "line %s" % (script, line))
    message = str(error)
    # Errors of the native builder carry the script location already.
    if not message.startswith(script + ":"):
        message = "%s:%s: %s" % (script, line, message)
    message = "%s (%s)" % (message, type(error).__name__)
    if definitions and not _fusion._definition_failed:
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
        if name.startswith("nvfuser_fusion") or annotation is FusionDefinition \
                or annotation == "FusionDefinition":
            functions.append((name, value))
    return functions


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m fuser_mlir.nvfuser_compat",
        description="Run an nvFuser repro script against fuser_mlir and print the IR.")
    parser.add_argument("script", help="the nvFuser repro script")
    parser.add_argument("--preseg", action="store_true", help="print the IR after fuser-preseg")
    parser.add_argument("--segment", action="store_true",
                        help="print the IR after fuser-preseg and fuser-segment")
    parser.add_argument("-o", "--output", help="write the IR here instead of stdout")
    args = parser.parse_args(argv)

    try:
        with open(args.script) as script_file:
            source = script_file.read()
    except OSError as error:
        return _fail("cannot read %s: %s" % (args.script, error.strerror))

    definitions = []
    _fusion._definition_failed = False
    previous_hook = _fusion._definition_hook
    # nvFuser's module and its newer direct bindings, which repro scripts
    # import with the same names.
    previous_modules = {name: sys.modules.get(name) for name in STAND_IN_NAMES}
    _fusion._definition_hook = definitions.append
    for name in STAND_IN_NAMES:
        sys.modules[name] = make_nvfuser_module()
    namespace = {"__name__": "__main__", "__file__": args.script}
    try:
        try:
            try:
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

        texts = []
        for fd in definitions:
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
        _fusion._definition_hook = previous_hook
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
