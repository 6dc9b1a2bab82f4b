"""expect-exit.py STATUS COMMAND...: runs COMMAND, passes its output through,
and fails unless it exits with STATUS (lit's `not` accepts any failure)."""
import subprocess
import sys

status = subprocess.call(sys.argv[2:])
if status != int(sys.argv[1]):
    print(f"expect-exit: {sys.argv[2]} exited {status}, expected {sys.argv[1]}", file=sys.stderr)
    sys.exit(1)
