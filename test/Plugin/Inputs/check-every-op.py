"""Fails unless every op of the fuser dialect (each mnemonic in the given .td
files) appears as `fuser.<mnemonic>` in the given printed outputs."""
import re
import sys

tds = [a for a in sys.argv[1:] if a.endswith(".td")]
outputs = [a for a in sys.argv[1:] if not a.endswith(".td")]
mnemonics = set()
for td in tds:
    mnemonics |= set(re.findall(r'^def Fuser_\w+Op\s*:\s*Fuser_\w+<"(\w+)"',
                                open(td).read(), re.M))
printed = "".join(open(path).read() for path in outputs)
missing = sorted(m for m in mnemonics if "fuser." + m + " " not in printed)
if len(mnemonics) < 30 or missing:
    sys.exit("%d ops, not printed: %s" % (len(mnemonics), ", ".join(missing)))
print("every op printed: %d" % len(mnemonics))
