# -*- Python -*-
import os
import shutil
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "FUSER"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fuser_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%fuser_src_root", config.fuser_src_root))
config.substitutions.append(("%python", sys.executable))

llvm_config.use_default_substitutions()

# Sanitizer builds (FUSER_ENABLE_SANITIZERS, docs/Testing.md): defaults go
# first so the caller's options override them. UBSan aborts on its first
# report. ASan ignores manual poisoning, which the instrumented inline
# BumpPtrAllocator code does on slabs that the uninstrumented libMLIR.so then
# allocates from (false use-after-poison reports).
sanitizer_defaults = {
    "ASAN_OPTIONS": "allow_user_poisoning=0",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}
for name, defaults in sanitizer_defaults.items():
    config.environment[name] = ":".join(filter(None, [defaults, os.environ.get(name)]))
llvm_config.with_system_environment(["LSAN_OPTIONS", "ASAN_SYMBOLIZER_PATH"])
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tools = ["fuser-opt", "fuser-run", "fuser-gen", "fuser-diff", "fuser-translate"]
llvm_config.add_tool_substitutions(tools, [config.fuser_tools_dir])

# Embedding (test/Embedding, test/Plugin; docs/Embedding.md): the stock
# mlir-opt with this build's plugin, the language server, and what it takes
# to build a consumer against an installed prefix (the cmake, generator and
# compilers of this build, from its CMake cache).
tools = ["fuser-lsp-server"]
llvm_config.add_tool_substitutions(tools, [config.fuser_tools_dir])


def read_cmake_cache(path):
    entries = {}
    if os.path.exists(path):
        with open(path) as cache_file:
            for line in cache_file:
                name, sep, value = line.rstrip("\n").partition("=")
                if sep and not name.startswith(("//", "#")):
                    entries[name.split(":")[0]] = value
    return entries


cmake_cache = read_cmake_cache(os.path.join(config.fuser_obj_root, "CMakeCache.txt"))
mlir_dir = cmake_cache.get("MLIR_DIR", "")
config.substitutions.extend([
    ("%fuser_obj_root", config.fuser_obj_root),
    ("%fuser_plugin", os.path.join(config.fuser_obj_root, "lib", "libFuserPlugin.so")),
    ("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")),
    ("%cmake_generator", '"%s"' % cmake_cache.get("CMAKE_GENERATOR", "Ninja")),
    ("%cmake_make_program", cmake_cache.get("CMAKE_MAKE_PROGRAM", "ninja")),
    ("%cmake", cmake_cache.get("CMAKE_COMMAND", "cmake")),
    ("%cxx_compiler", cmake_cache.get("CMAKE_CXX_COMPILER", "c++")),
    ("%c_compiler", cmake_cache.get("CMAKE_C_COMPILER", "cc")),
    ("%mlir_include_dir", os.path.normpath(os.path.join(mlir_dir, "..", "..", "..", "include"))),
])
# The Python package (test/Python, docs/Python.md): the interpreter the build
# found, with the package of this build on its path; empty where the package
# is not built (test/Python/lit.local.cfg then skips the tests).
config.fuser_python = cmake_cache.get("FUSER_PYTHON_EXECUTABLE", "")
config.substitutions.append(
    ("%fuser_python", "env PYTHONPATH=%s %s" % (
        os.path.join(config.fuser_obj_root, "python_packages"), config.fuser_python)))
if config.fuser_python:
    config.available_features.add("fuser-python")
# A sanitizer build's libraries need the sanitizer runtime loaded first:
# they cannot be loaded into the stock mlir-opt or linked by an
# uninstrumented consumer, so the plugin and package tests do not run there.
sanitizers = cmake_cache.get("FUSER_ENABLE_SANITIZERS", "OFF").upper() in (
    "ON", "1", "TRUE", "YES")
if sanitizers:
    config.available_features.add("fuser-sanitizers")
# bench/segment_scaling.py --instructions counts under callgrind, which
# cannot run a sanitizer build (ASan's runtime must come first).
if shutil.which("valgrind") and not sanitizers:
    config.available_features.add("valgrind")
# oneDNN (libdnnl.so.3 or libdnnl.so.2, scripts/setup.sh), which the CPU backend loads for
# its bf16 gemms (lib/ExecutionEngine/LibraryCalls.cpp): tests of that path
# run where it loads (`%if onednn`), those of the fallback everywhere. A
# sanitizer build turns it off: LeakSanitizer's tracer crashes at exit
# (signal 11 stopping the threads) in a process that loaded the
# uninstrumented library.
if sanitizers:
    config.environment["FUSER_DNNL"] = "none"
else:
    # onednn3 and onednn2: which major versions load (the backend takes 3
    # first, FUSER_DNNL=libdnnl.so.2 the other).
    import ctypes
    for soname, feature in (("libdnnl.so.3", "onednn3"), ("libdnnl.so.2", "onednn2")):
        try:
            ctypes.CDLL(soname)
            config.available_features.update({"onednn", feature})
        except OSError:
            pass
