//===- Backends.cpp - the backends tools can select by name ---------------===//
//
// The one list of backends. The CUDA backend is always built; where there is
// no driver or no GPU its getUnavailableReason() says so.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/Backends.h"
#include "fuser/ExecutionEngine/CPUBackend.h"
#include "fuser/ExecutionEngine/CUDABackend.h"
#include "fuser/Interpreter/Interpreter.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fuser;

ArrayRef<StringRef> mlir::fuser::getBackendNames() {
  static constexpr StringRef names[] = {"interp", "cpu", "cuda"};
  return names;
}

std::unique_ptr<Backend>
mlir::fuser::createBackend(StringRef name, const BackendOptions &options,
                           std::string &error) {
  if (name == "interp")
    return createInterpreterBackend(options);
  if (name == "cpu")
    return createCPUBackend(options);
  if (name == "cuda")
    return createCUDABackend(options);
  error = ("unknown backend '" + name + "' (expected " +
           llvm::join(getBackendNames().drop_back(), ", ") + " or " +
           getBackendNames().back() + ")")
              .str();
  return nullptr;
}
