"""Prints the top-level functions of a printed module that hold no fuser op
(the functions the fuser pipelines must leave alone), one per paragraph."""
import re
import sys

text = open(sys.argv[1]).read()
# Top-level ops of `module { ... }` are indented by two spaces.
functions = re.split(r"\n(?=  func\.func )", text)
for function in functions[1:]:
    function = function.split("\n}\n")[0].rstrip()
    if "fuser." not in function:
        print(function + "\n")
