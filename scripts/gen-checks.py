#!/usr/bin/env python3
"""Inserts FileCheck lines for each function of an MLIR test, like upstream's
mlir/utils/generate-test-checks.py (which Debian does not ship).

  fuser-opt test.mlir --some-pass -split-input-file \
    | scripts/gen-checks.py test.mlir [--prefix CHECK] > new-test.mlir

The output is a starting point: read every CHECK line, and keep only what the
test means to assert.
"""
import argparse
import re
import sys

SSA = re.compile(r"%([a-zA-Z_][\w]*|\d+)(#\d+)?")


def function_bodies(text):
    """Maps function name -> list of printed lines (signature to closing brace)."""
    bodies, current, name = {}, None, None
    for line in text.splitlines():
        match = re.match(r"\s*func\.func (?:private )?@([\w.$]+)\(", line)
        if match:
            name, current = match.group(1), [line.strip()]
            continue
        if current is None:
            continue
        if line.strip() == "}" and line.startswith("  }"):
            bodies[name], current = current, None
            continue
        current.append(line.strip())
    return bodies


def check_lines(lines, prefix):
    defined = {}

    def rename(match):
        value = match.group(1)
        suffix = match.group(2) or ""
        if value not in defined:
            defined[value] = ("ARG" + value[3:]) if value.startswith("arg") else "V" + value
            return "%[[{}:[a-zA-Z0-9_]+]]{}".format(defined[value], suffix)
        return "%[[{}]]{}".format(defined[value], suffix)

    # FileCheck labels cannot bind variables: the signature goes on a SAME line.
    head, rest = lines[0].split("(", 1)
    out = ["// {}-LABEL: {}(".format(prefix, head),
           "// {}-SAME: {}".format(prefix, SSA.sub(rename, rest))]
    for line in lines[1:]:
        out.append("// {}-NEXT: {}".format(prefix, SSA.sub(rename, line)))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("--prefix", default="CHECK")
    args = parser.parse_args()
    bodies = function_bodies(sys.stdin.read())
    for line in open(args.source).read().splitlines():
        match = re.match(r"func\.func (?:private )?@([\w.$]+)\(", line)
        if match and match.group(1) in bodies:
            print("\n".join(check_lines(bodies[match.group(1)], args.prefix)))
        print(line)


if __name__ == "__main__":
    main()
