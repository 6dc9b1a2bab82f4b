# doc_example.py DOC: runs the first ```python block of DOC's Python section
# and checks that the ```mlir block after it is what the snippet prints
# (docs.test), so README.md and docs/Python.md do not drift.
import contextlib
import io
import re
import sys

text = open(sys.argv[1]).read()
match = re.search(r"```python\n(.*?)```\s*```mlir\n(.*?)```", text, re.S)
code, expected = match.group(1), match.group(2)
output = io.StringIO()
with contextlib.redirect_stdout(output):
    exec(compile(code, sys.argv[1], "exec"), {"__name__": "__main__"})
printed = [line.strip() for line in output.getvalue().splitlines()]
shown = [line.strip() for line in expected.splitlines() if line.strip()]
missing = [line for line in shown if line not in printed]
if missing:
    sys.exit("%s: the snippet no longer prints %s" % (sys.argv[1], missing))
print("%s: example ok (%d lines)" % (sys.argv[1].rsplit("/", 1)[-1], len(shown)))
