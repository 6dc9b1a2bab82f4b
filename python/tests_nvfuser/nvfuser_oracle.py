"""The nvFuser side of the differential test: builds every case of
cases.py with nvFuser's own nvfuser_direct (the nvfuser-cu128-torch210
wheel, which imports and builds definitions without a GPU) and writes, per
case, whether it was accepted, its outputs' dtypes and shapes as nvFuser
infers them, and repr(fd); or the exception's classes and message.

    NVFUSER_PYTHON nvfuser_oracle.py SPEC.json RESULTS.json
    NVFUSER_PYTHON nvfuser_oracle.py --definitions DEFINITIONS.json RESULTS.json

SPEC.json holds fuser_mlir's elementwise op names (differential.py writes
it). With --definitions, the cases are the definitions the Python tests
finished (collect_definitions.py writes them: each one's recorded calls, a
function of fd), built by exec of their text; the results are in their
order. Runs under the nvFuser venv's CPython 3.12, without fuser_mlir.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cases  # noqa: E402

# An IterDomain as nvFuser prints it: iS0{i0}, bS3{1}, rS7{4}, bS11{1 ex 4},
# iS4{2}rf (an rfactor product: topk's k).
ITER_DOMAIN = re.compile(r"^([a-z?]+)S\d+\{(.*)\}(?:rf)?$", re.DOTALL)


def describe_outputs(fd):
    """Per output: its dtype and its logical extents (ints; None where
    symbolic), reduced dims left out, an expanded broadcast by its expanded
    extent."""
    outputs = []
    for output in fd.fusion.outputs():
        shape = []
        for axis in output.get_logical_domain():
            match = ITER_DOMAIN.match(str(axis))
            if match is None:
                shape.append(None)
                continue
            kind, extent = match.groups()
            if kind.startswith("r"):
                continue
            extent = extent.split(" ex ")[-1].strip()
            shape.append(int(extent) if re.fullmatch(r"-?\d+", extent) else None)
        outputs.append({"dtype": str(output.dtype()), "shape": shape})
    return outputs


def text_case(text):
    """A case that builds the definition `text` gives (one function of fd
    whose name starts with nvfuser_fusion)."""
    def case(fd, DataType):
        namespace = {"FusionDefinition": type(fd), "DataType": DataType}
        exec(compile(text, "<definition>", "exec"), namespace)
        next(v for k, v in namespace.items() if k.startswith("nvfuser_fusion"))(fd)
    return case


def run_definitions(definitions_path, results_path):
    import nvfuser_direct
    from nvfuser_direct import DataType, FusionDefinition
    with open(definitions_path) as definitions_file:
        definitions = json.load(definitions_file)["definitions"]
    results = {"version": str(nvfuser_direct.version()),
               "cases": [cases.run_case(FusionDefinition, DataType, "definition",
                                        text_case(definition["text"]), describe_outputs)
                         for definition in definitions]}
    with open(results_path, "w") as results_file:
        json.dump(results, results_file)


def main(spec_path, results_path):
    import nvfuser_direct
    from nvfuser_direct import DataType, FusionDefinition
    with open(spec_path) as spec_file:
        spec = json.load(spec_file)
    results = {"version": str(nvfuser_direct.version()), "cases": {}}
    for case_id, op, build in cases.make_cases(spec["unary"], spec["binary"], spec["ternary"]):
        results["cases"][case_id] = cases.run_case(FusionDefinition, DataType, op, build,
                                                   describe_outputs)
    with open(results_path, "w") as results_file:
        json.dump(results, results_file)


if __name__ == "__main__":
    if sys.argv[1] == "--definitions":
        run_definitions(*sys.argv[2:4])
    else:
        main(*sys.argv[1:3])
