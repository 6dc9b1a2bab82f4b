"""Prints an nvFuser fusion math that adds input T0 to itself N times, every
statement on one line; with --bad-last the last one misspells a domain
(for N = 20000 at column 1857776 of line 6, which long-line.test checks)."""
import sys

n = int(sys.argv[1])
bad = "--bad-last" in sys.argv
print("Inputs:")
print("  T0_g_float[iS0{4}, iS1{8}]")
print("Outputs:")
print(f"  T{n}_g_float[iS0{{4}}, iS1{{8}}]")
print("%kernel_math {")
terms = []
for i in range(1, n + 1):
    domain = "iSx" if bad and i == n else "iS1"
    terms.append(f"T{i}_l_float[iS0{{4}}, iS1{{8}}] = T{i - 1}_l_float[iS0{{4}}, iS1{{8}}] "
                 f"+ T0_g_float[iS0{{4}}, {domain}{{8}}];")
line = " ".join(terms)
print(line)
print("}")
