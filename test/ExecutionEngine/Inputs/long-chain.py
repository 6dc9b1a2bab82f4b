"""Prints a long fusion on tensor<64x32xf32> for long-chains.mlir:
`chain N` is v_i = v_{i-1} + a, `dag N` is v_i = maximum(v_{i-1}, v_{i-2})
(every value read twice)."""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
T = "tensor<64x32xf32>"
BIN = "%s, %s -> %s" % (T, T, T)
if kind == "chain":
    print("func.func @chain(%%a: %s) -> %s {" % (T, T))
    print("  %%v0 = fuser.add %%a, %%a : %s" % BIN)
    for i in range(1, n):
        print("  %%v%d = fuser.add %%v%d, %%a : %s" % (i, i - 1, BIN))
else:
    print("func.func @dag(%%a: %s, %%b: %s) -> %s {" % (T, T, T))
    print("  %%v0 = fuser.maximum %%a, %%b : %s" % BIN)
    print("  %%v1 = fuser.maximum %%v0, %%a : %s" % BIN)
    for i in range(2, n):
        print("  %%v%d = fuser.maximum %%v%d, %%v%d : %s" % (i, i - 1, i - 2, BIN))
print("  return %%v%d : %s" % (n - 1, T))
print("}")
