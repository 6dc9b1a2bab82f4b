//===- FuserPlugin.cpp - the fuser dialect and passes for mlir-opt --------===//
//
// libFuserPlugin.so: loads into a stock mlir-opt (or any MlirOptMain tool
// built against the same libMLIR.so) with
//
//   mlir-opt --load-dialect-plugin=libFuserPlugin.so \
//            --load-pass-plugin=libFuserPlugin.so ...
//
// Either entry point registers the passes and pipelines, so that one flag
// suffices for `--pass-pipeline=...`; registerFuserPasses is idempotent, so
// both flags together register nothing twice. MLIR itself comes from the
// host's libMLIR.so: the plugin carries only the fuser libraries (their
// symbols hidden, see CMakeLists.txt) and never re-registers MLIR's own
// dialects or passes.
//
//===----------------------------------------------------------------------===//

#include "fuser/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "FuserDialect", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            fuser::registerFuserDialect(*registry);
            fuser::registerFuserPasses();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "FuserPasses", LLVM_VERSION_STRING,
          []() { fuser::registerFuserPasses(); }};
}
