"""Differential test of fuser_mlir's nvfuser_direct against nvFuser's own
(make check-nvfuser; docs/Python.md, "Conformance with nvFuser").

    PYTHONPATH=build/python_packages python3 python/tests_nvfuser/differential.py \
        --nvfuser-python build/nvfuser-venv/bin/python [--verbose]

Every case of cases.py (every `fd.ops` entry of fuser_mlir and of nvFuser
0.2.36 over dtypes, ranks, static and symbolic extents, keyword forms and bad
arguments) is built
by both frontends: nvFuser's in the nvFuser venv (nvfuser_oracle.py, CPython
3.12: the wheel is built for it, fuser_mlir's native module here for
python3), fuser_mlir's in this process. Per case they must agree:

- both accept the definition, or both refuse it with an exception of the
  same type (fuser_mlir's is an instance of nvFuser's class: FusionValueError
  is a RuntimeError as nvFuser's RuntimeError);
- accepted, the same number of outputs, each of the same dtype and rank, and
  the same extent wherever nvFuser's is a number (a symbolic extent, or one
  nvFuser keeps as an expression such as a slice's, takes any).

A difference is either listed in EXPECTED (with the reason it stays) or is a
failure. repr(fd) is compared too: where both accept a case, the text must
be nvFuser's or the case listed in REPR_EXPECTED with its reason. Prints one row per op: cases, agreeing,
expected differences, unexplained ones, equal repr; exit status 1 on an
unexplained difference.

Then (unless --no-test-definitions) the definitions of the Python tests:
python/tests runs under pytest with collect_definitions.py, which records
every distinct definition the tests finish (fuser_mlir accepted it), and
nvFuser's frontend builds each from its recorded calls (fd._recorded_text(),
which both APIs take; nvFuser 0.2.36 has no legacy `nvfuser` module, so the
legacy API's definitions are built with its nvfuser_direct). Prints, per
test file, the definitions, those nvFuser accepts, those that agree (as
above: outputs' dtypes and extents), those with equal repr(fd) (nvFuser's
text against the direct API's repr), then each kind of difference with its
count and first test. These differences are listed, not failures:
docs/Python.md says why each stays.
"""

import argparse
import fnmatch
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases  # noqa: E402

# Differences that stay, by case id pattern (fnmatch), with the reason.
_BOOL_ARITHMETIC = (
    "fuser IR's arithmetic takes no i1 operand (ElementwiseOps.def operand classes): "
    "fuser_mlir refuses arithmetic on Bool tensors at definition (FusionTypeError); "
    "nvFuser builds it")
_NO_COMPLEX_FORM = (
    "no complex form in fuser IR (nor in torch: erf, rounding, relu, comparisons, "
    "maximum, fmod, prod ...): fuser_mlir refuses at definition, nvFuser builds the "
    "definition and fails later in its codegen")
_MORE_ACCEPTED = (
    "fuser_mlir accepts what nvFuser refuses at definition (nextafter after promotion to "
    "f32, an integer op of Bool with an integer after promotion): FusionBuilder's "
    "promotion does not mirror these refusals yet; an extra accepted definition, never "
    "another result")
EXPECTED = {}
for _op in ("neg", "abs", "ceil", "floor", "trunc", "round", "frac", "relu", "sign"):
    EXPECTED["%s/Bool-*" % _op] = _BOOL_ARITHMETIC
for _op in ("add", "sub", "mul", "div", "maximum", "minimum", "pow", "fmod", "remainder",
            "mod"):
    EXPECTED["%s/bool" % _op] = _BOOL_ARITHMETIC
EXPECTED["max/Bool-dim1"] = EXPECTED["min/Bool-dim1"] = _BOOL_ARITHMETIC
for _op in ("erf", "erfc", "erfinv", "erfcinv", "exp2", "expm1", "lgamma", "log1p", "silu",
            "ceil", "floor", "trunc", "round", "frac", "relu", "sign", "signbit", "isneginf",
            "isposinf"):
    EXPECTED["%s/ComplexFloat-*" % _op] = _NO_COMPLEX_FORM
for _op in ("maximum", "minimum", "atan2", "fmod", "remainder", "mod", "lt", "le", "gt", "ge"):
    EXPECTED["%s/c64-f32" % _op] = _NO_COMPLEX_FORM
    EXPECTED["%s/*-const-complex" % _op] = _NO_COMPLEX_FORM
for _op in ("logical_and", "logical_or"):
    EXPECTED["%s/*-const-complex" % _op] = (
        "nvFuser fails an internal assert (dynamic_type.h: a complex constant cast to Bool); "
        "fuser_mlir compares it with zero (an extra accepted definition)")
EXPECTED["prod/ComplexFloat-dim1"] = _NO_COMPLEX_FORM
for _name in ("f16", "i64", "i32", "i32-i64", "bool", "bool-i32", "f16-const-int",
              "i32-const-int", "const-bf16", "f16-scalar-f64", "i32-scalar-i64"):
    EXPECTED["nextafter/%s" % _name] = _MORE_ACCEPTED
for _op in ("gcd", "bitwise_left_shift", "bitwise_right_shift", "logical_right_shift"):
    EXPECTED["%s/bool-i32" % _op] = _MORE_ACCEPTED
EXPECTED.update({
    "silu/Int*": "nvFuser's silu (NVFUSER_DEFINE_UNARY_OP, no promotion) keeps the operand's "
                 "dtype, Int and Bool included (torch has no integer silu); fuser IR's silu is a "
                 "float op: integers and Bool become f32 (f16, bf16 and fp8 are computed in f32 "
                 "and given in their dtype, as nvFuser)",
    "silu/Bool*": "as silu/Int*",
    "logical_not/Float8_*": "nvFuser's logical_not casts its operand to Bool, and it has no cast "
                            "of an 8-bit float to Bool: it refuses; fuser_mlir compares with zero "
                            "(an extra accepted definition, never another result)",
    "*/duplicate-dim": "fuser_mlir refuses a reduction dim given twice (FusionValueError); "
                       "nvFuser reduces it once",
    "var_mean/Half-dim1": "nvFuser's var_mean refuses f16 and bf16 (its Welford needs a float "
                          "operand); fuser_mlir's two-pass var_mean computes them in f32, as "
                          "its var does (nvFuser's var takes them)",
    "var_mean/BFloat16-dim1": "as var_mean/Half-dim1",
    "var_mean/Float8_*": "as var_mean/Half-dim1",
    "var_mean/Int-dim1": "nvFuser's var_mean gives the mean of an Int tensor as Int; "
                         "fuser_mlir computes integers in f64 (mean and var alike)",
    "welford/*": "nvFuser's welford gives n as DataType.Index; fuser_mlir gives n as Int "
                 "(i64, the same width: fuser IR has no index type, DataType.Index is an alias of "
                 "Int)",
    "expand/rank": "nvFuser's expand to more dims than the operand has is accepted at "
                   "definition (it fails when concretized); fuser_mlir refuses it at once",
    "view/*": "a legacy name (the old nvfuser module's fd.ops.view) that fuser_mlir keeps on "
              "both APIs; nvfuser_direct has reshape only",
    "tensor_sizes/*": "a legacy name (fd.ops.tensor_sizes) that fuser_mlir keeps on both "
                      "APIs; nvfuser_direct has shape only",
    "cumprod/ComplexFloat-dim1": "fuser.scan takes complex elements for add only: fuser_mlir "
                                 "refuses a complex cumprod at definition, nvFuser builds it",
    "argsort/Bool": "fuser.argsort sorts integers and floats (no i1 or complex order): "
                    "fuser_mlir refuses at definition, nvFuser builds it",
    "argsort/ComplexFloat": "as argsort/Bool",
    "topk/Bool": "topk is an argsort in fuser IR: as argsort/Bool",
    "topk/k-past": "k past the extent: nvFuser's definition gives the values [4, 6] and fails "
                   "when it runs; fuser_mlir's build of a definition whose k is a Scalar clamps "
                   "k to the extent ([4, 5]) so later ops build, and execute refuses k",
    "topk/k-negative": "fuser_mlir refuses a constant negative k at definition; nvFuser's "
                       "definition takes it and fails when it runs",
    "topk/k-int": "nvFuser's binding takes k as a Val only, yet its own repr(fd) prints a "
                  "constant k as a number (fd.ops.topk(tv0, 2, dim=1)); fuser_mlir takes the "
                  "number so that the text runs again",
    "select/index-int": "as topk/k-int: nvFuser prints fd.ops.select(tv0, 1, dim=0), which "
                        "its binding refuses; fuser_mlir takes it",
    "gather/index-larger": "fuser.gather requires the index's extents within the source's "
                           "(torch.gather's rule): fuser_mlir refuses at definition, nvFuser's "
                           "definition takes it",
    "take_along_axis/extent-mismatch": "as gather/index-larger",
    "iota/negative-length": "fuser_mlir refuses a constant negative length at definition; "
                            "nvFuser's definition takes it",
    "embedding_fwd/max-norm": "max_norm renormalizes the weight rows read, in place (as "
                              "torch.embedding): fuser_mlir does not model that write and "
                              "refuses it (FusionNotImplementedError)",
    "rand_like/seed": "rng_seed/rng_offset keywords of the legacy frontend's rand_like, which "
                      "fuser_mlir keeps on both APIs; nvfuser_direct's rand_like takes the "
                      "operand only",
    "randn_like/seed": "as rand_like/seed",
    "matmul/i64": "fuser.matmul and fuser.linear take f16, bf16, f32 and f64 only; nvFuser's "
                  "definition takes integers and ATen's GPU matmul refuses them when it runs "
                  "(Thunder casts integer matmuls to float for that reason)",
    "linear/i64": "as matmul/i64",
    "sdpfa_fwd/*": "nvFuser's Philox seed and offset are UInt64 tensors; fuser IR has no "
                   "unsigned integers and gives them as Int (i64, the same width); bias and "
                   "mask are not supported (FusionNotImplementedError)",
    "arange/*": "fuser_mlir's own factories (nvFuser's C++ arange and eye, csrc/ops/arith.h); "
                "nvfuser_direct binds neither",
    "eye/*": "as arange/*",
    "index_put_accumulate/*": "the legacy frontend's index_put_accumulate, which fuser_mlir "
                              "keeps on both APIs; nvfuser_direct has none",
    "scaled_mm/*": "nvFuser's block-scaled matmuls and FP4/FP8 quantization (CUTLASS "
                   "kernels for Hopper and Blackwell) have no fuser IR op: fuser_mlir refuses "
                   "them (UnsupportedOpError naming the op); the unscaled grouped_mm runs "
                   "(fuser.grouped_mm)",
    "nv_block_quantize/*": "as scaled_mm/*",
})
del _op, _name

# repr(fd): fuser_mlir's nvfuser_direct prints nvFuser's translation of its
# IR (fuser_mlir/_nvfuser_repr.py). Where the text still differs, by case id
# pattern, why.
_SCALAR_NAMES = (
    "the c-numbers of scalars: fuser_mlir models how many IR values each nvFuser op "
    "creates (measured on 0.2.36); the slice normalization and cat's pad offsets create "
    "values the model does not count, so the structure is nvFuser's and only those numbers "
    "differ")
REPR_EXPECTED = {
    "cat/*": _SCALAR_NAMES + " (cat of symbolic extents is printed as recorded calls: "
             "its pad widths are expressions of the extents the model does not build)",
    "slice/symbolic": _SCALAR_NAMES,
    "addcmul/f16": "fuser_mlir records addcmul as the mul, mul, add it builds, so its casts "
                   "come one op at a time; nvFuser promotes the four operands first",
}


def repr_reason(case_id):
    for pattern, reason in REPR_EXPECTED.items():
        if fnmatch.fnmatchcase(case_id, pattern):
            return reason
    return None


def describe_outputs(fd):
    """Per output: dtype and extents as fuser_mlir infers them; extents of a
    symbolic definition are its provisional ones (a -1 stands as 2), None
    where only an execute can tell."""
    from fuser_mlir import FusionError
    outputs = []
    for output in fd.fusion.outputs():
        try:
            extents, _ = fd._type_of(output)
            outputs.append({"dtype": str(output.dtype()), "shape": list(extents)})
        except FusionError:
            outputs.append({"dtype": None, "shape": None})
    return outputs


def run_ours(case_list):
    from fuser_mlir.nvfuser_direct import DataType, FusionDefinition
    return {case_id: cases.run_case(FusionDefinition, DataType, op, build, describe_outputs)
            for case_id, op, build in case_list}


def compare(theirs, ours):
    """None where the two agree, else what differs (one line)."""
    if theirs["status"] != ours["status"]:
        if theirs["status"] == "error":
            return "nvFuser refuses (%s: %s), fuser_mlir accepts" % (
                theirs["error"][0], theirs["message"][:120])
        return "fuser_mlir refuses (%s: %s), nvFuser accepts" % (
            ours["error"][0], ours["message"][:120])
    if theirs["status"] == "error":
        if theirs["error"][0] not in ours["error"]:
            return "both refuse, nvFuser with %s, fuser_mlir with %s (%s)" % (
                theirs["error"][0], ours["error"][0], ours["message"][:100])
        return None
    if len(theirs["outputs"]) != len(ours["outputs"]):
        return "%d outputs, fuser_mlir %d" % (len(theirs["outputs"]), len(ours["outputs"]))
    for index, (their, our) in enumerate(zip(theirs["outputs"], ours["outputs"])):
        if our["dtype"] is None:
            return "output %d: fuser_mlir knows its type only at execute" % index
        if their["dtype"] != our["dtype"]:
            return "output %d: dtype %s, fuser_mlir %s" % (index, their["dtype"], our["dtype"])
        if len(their["shape"]) != len(our["shape"]) or any(
                t is not None and t != o for t, o in zip(their["shape"], our["shape"])):
            return "output %d: shape %s, fuser_mlir %s" % (index, their["shape"], our["shape"])
    return None


def expected_reason(case_id):
    for pattern, reason in EXPECTED.items():
        if fnmatch.fnmatchcase(case_id, pattern):
            return reason
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nvfuser-python", required=True,
                        help="the Python of the venv with torch and nvFuser's wheel")
    parser.add_argument("--verbose", action="store_true",
                        help="list every difference, expected ones included")
    parser.add_argument("--no-test-definitions", action="store_true",
                        help="skip the definitions of the Python tests")
    args = parser.parse_args(argv)
    status = check_ops(args)
    if status != 2 and not args.no_test_definitions:
        status = check_test_definitions(args) or status
    return status


def check_ops(args):
    """The op cases (cases.py) against nvFuser's frontend."""
    from fuser_mlir import _ops
    spec = {"unary": list(_ops.UNARY_OPS), "binary": list(_ops.BINARY_OPS) + ["truediv"],
            "ternary": list(_ops.TERNARY_OPS)}
    with tempfile.TemporaryDirectory() as tmp:
        spec_path, results_path = os.path.join(tmp, "spec.json"), os.path.join(tmp, "out.json")
        with open(spec_path, "w") as spec_file:
            json.dump(spec, spec_file)
        run = subprocess.run([args.nvfuser_python, os.path.join(HERE, "nvfuser_oracle.py"),
                              spec_path, results_path], capture_output=True, text=True)
        if run.returncode != 0:
            sys.stderr.write(run.stdout + run.stderr)
            print("check-nvfuser: nvFuser's frontend did not run (exit status %d)"
                  % run.returncode)
            return 2
        with open(results_path) as results_file:
            oracle = json.load(results_file)

    case_list = cases.make_cases(spec["unary"], spec["binary"], spec["ternary"])
    ours = run_ours(case_list)
    rows = {}
    unexplained, explained, stale = [], [], set(EXPECTED)
    repr_differences = []
    for case_id, op, _ in case_list:
        theirs = oracle["cases"][case_id]
        row = rows.setdefault(op, [0, 0, 0, 0, 0])
        row[0] += 1
        same_repr = theirs.get("repr") is not None and theirs.get("repr") == ours[
            case_id].get("repr")
        row[4] += same_repr
        if not same_repr and theirs["status"] == ours[case_id]["status"] == "ok":
            repr_differences.append(case_id)
        difference = compare(theirs, ours[case_id])
        reason = expected_reason(case_id)
        if reason is not None and difference is not None:
            stale.discard(next(p for p in EXPECTED if fnmatch.fnmatchcase(case_id, p)))
        if difference is None:
            row[1] += 1
        elif reason is not None:
            row[2] += 1
            explained.append((case_id, difference, reason))
        else:
            row[3] += 1
            unexplained.append((case_id, difference))

    print("nvFuser %s (nvfuser_direct) against fuser_mlir.nvfuser_direct: %d cases over %d ops"
          % (oracle["version"], len(case_list), len(rows)))
    print("%-22s %6s %6s %9s %12s %6s" % ("op", "cases", "agree", "expected", "unexplained",
                                         "repr="))
    totals = [0] * 5
    for op in sorted(rows):
        row = rows[op]
        totals = [a + b for a, b in zip(totals, row)]
        print("%-22s %6d %6d %9d %12d %6d" % ((op,) + tuple(row)))
    print("%-22s %6d %6d %9d %12d %6d" % (("total",) + tuple(totals)))
    print("ops checked %d, agree on every case %d, with differences %d (expected only %d)"
          % (len(rows), sum(1 for r in rows.values() if r[2] + r[3] == 0),
             sum(1 for r in rows.values() if r[2] + r[3]),
             sum(1 for r in rows.values() if r[2] and not r[3])))
    accepted = sum(1 for case_id, _, _ in case_list
                   if oracle["cases"][case_id]["status"] == "ok")
    print("repr(fd) text equal in %d of %d cases (%d that nvFuser accepts; the rest of "
          "those fuser_mlir refuses, listed above)" % (totals[4], totals[0], accepted))
    unexplained_repr = [c for c in repr_differences if repr_reason(c) is None]
    by_reason = {}
    for case_id in repr_differences:
        by_reason.setdefault(repr_reason(case_id), []).append(case_id)
    for reason, ids in by_reason.items():
        if reason is not None:
            print("  repr differs in %d (%s): %s" % (len(ids), ", ".join(ids), reason))
    if unexplained_repr:
        print("\nrepr(fd) differs where both accept, unexplained (%d):" % len(unexplained_repr))
        for case_id in unexplained_repr:
            print("  " + case_id)
    if args.verbose and explained:
        print("\nexpected differences:")
        for case_id, difference, reason in explained:
            print("  %s: %s\n      (%s)" % (case_id, difference, reason))
    for pattern in sorted(stale):
        print("note: EXPECTED entry %r matches no difference any more" % pattern)
    if unexplained or unexplained_repr:
        print("\nunexplained differences (%d):" % len(unexplained))
        for case_id, difference in unexplained:
            print("  %s: %s" % (case_id, difference))
        return 1
    return 0



def check_test_definitions(args):
    """The definitions the Python tests finish, against nvFuser's frontend;
    prints what differs (0), or 2 where a side did not run."""
    with tempfile.TemporaryDirectory() as tmp:
        definitions_path = os.path.join(tmp, "definitions.json")
        results_path = os.path.join(tmp, "results.json")
        env = dict(os.environ, FUSER_TEST_DEFINITIONS=definitions_path,
                   PYTHONPATH=os.pathsep.join(
                       [HERE] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
        tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "collect_definitions",
                                "-p", "no:cacheprovider", os.path.join(HERE, "..", "tests")],
                               env=env, capture_output=True, text=True)
        summary = (tests.stdout.strip().splitlines() or [""])[-1]
        if not os.path.exists(definitions_path):
            sys.stderr.write(tests.stdout[-4000:] + tests.stderr[-4000:])
            print("check-nvfuser: the Python tests did not run (%s)" % summary)
            return 2
        run = subprocess.run([args.nvfuser_python, os.path.join(HERE, "nvfuser_oracle.py"),
                              "--definitions", definitions_path, results_path],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.stderr.write(run.stdout[-4000:] + run.stderr[-4000:])
            print("check-nvfuser: nvFuser's frontend did not run the tests' definitions "
                  "(exit status %d)" % run.returncode)
            return 2
        with open(definitions_path) as definitions_file:
            collected = json.load(definitions_file)
        with open(results_path) as results_file:
            oracle = json.load(results_file)
    definitions = collected["definitions"]
    print("\nThe Python tests' definitions (pytest: %s): %d distinct, made %d times; "
          "%d not recorded (a test had replaced the printer)"
          % (summary, len(definitions), sum(d["count"] for d in definitions),
             collected["unrecorded"]))
    rows, kinds = {}, {}
    for definition, theirs in zip(definitions, oracle["cases"]):
        ours = {"status": "ok", "outputs": definition["outputs"]}
        test_file = definition["test"].split("::")[0]
        row = rows.setdefault(test_file, [0, 0, 0, 0])
        row[0] += 1
        row[1] += theirs["status"] == "ok"
        difference = compare(theirs, ours)
        row[2] += difference is None
        row[3] += definition["module"] == "nvfuser_direct" and \
            theirs.get("repr") == definition["repr"]
        if difference is not None:
            # One kind per nvFuser message or per output difference.
            kind = (definition["module"], difference if theirs["status"] == "ok" else
                    "nvFuser refuses (%s: %s)" % (theirs["error"][0], theirs["message"][:100]))
            kinds.setdefault(kind, []).append(definition["test"])
    direct = sum(1 for d in definitions if d["module"] == "nvfuser_direct")
    print("%-34s %6s %9s %6s %6s" % ("test file", "defs", "accepted", "agree", "repr="))
    totals = [0] * 4
    for test_file in sorted(rows):
        totals = [a + b for a, b in zip(totals, rows[test_file])]
        print("%-34s %6d %9d %6d %6d" % ((test_file[-34:],) + tuple(rows[test_file])))
    print("%-34s %6d %9d %6d %6d" % (("total",) + tuple(totals)))
    print("repr(fd) compared for the %d definitions of the direct API (the legacy API's "
          "repr is its recorded calls)" % direct)
    print("differences, by kind (count, API, first test):")
    for (module, kind), tests_of in sorted(kinds.items(), key=lambda item: -len(item[1])):
        print("  %4d %-15s %s\n       %s" % (len(tests_of), module, kind, tests_of[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
