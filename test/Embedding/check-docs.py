"""Fails unless docs/Embedding.md holds, verbatim, the marked parts of
test/Embedding/consumer/CMakeLists.txt and test/Embedding/capi.c, and the
plugin pipeline that test/Plugin/pipelines.test runs."""
import os
import sys

root = sys.argv[1]


def read(path):
    with open(os.path.join(root, path)) as f:
        return f.read()


def between(text, begin, end):
    return text.split(begin, 1)[1].split(end, 1)[0]


doc = read("docs/Embedding.md")
cmake = between(read("test/Embedding/consumer/CMakeLists.txt"),
                "# [embedding-cmake-begin]\n", "# [embedding-cmake-end]")
capi = between(read("test/Embedding/capi.c"),
               "/* [embedding-capi-begin] */\n", "  /* [embedding-capi-end] */")
capi = "\n".join(line[2:] if line.startswith("  ") else line
                 for line in capi.split("\n"))
plugin = ("--pass-pipeline='builtin.module(fuser-segment-pipeline"
          "{preseg=true},fuser-segment-report)'")
problems = []
if cmake not in doc:
    problems.append("the CMake lines of consumer/CMakeLists.txt")
if capi not in doc:
    problems.append("the C API snippet of capi.c")
if plugin not in doc or plugin not in read("test/Plugin/pipelines.test"):
    problems.append("the plugin command of test/Plugin/pipelines.test")
if problems:
    sys.exit("docs/Embedding.md does not quote: " + "; ".join(problems))
print("docs/Embedding.md quotes the tests")
