# -*- Python -*-
import os
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
