//===- Backends.cpp - the backends tools can select by name ---------------===//
//
// The one list of backends. The CUDA backend is always built; where there is
// no driver or no GPU its getUnavailableReason() says so. The simt backend
// runs the CUDA backend's kernels on the host (SimtDriver.h).
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/Backends.h"
#include "fuser/ExecutionEngine/CPUBackend.h"
#include "fuser/ExecutionEngine/CUDABackend.h"
#include "fuser/ExecutionEngine/SimtDriver.h"
#include "fuser/Interpreter/Interpreter.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fuser;

ArrayRef<StringRef> mlir::fuser::getBackendNames() {
  static constexpr StringRef names[] = {"interp", "cpu", "cuda", "simt"};
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
  if (name == "simt")
    // The cuda backend on the SIMT emulator's driver: the same launch plan,
    // its kernels in the offload format, run on the host.
    return createCUDABackend(options, "simt", &simt::getDriver);
  error = ("unknown backend '" + name + "' (expected " +
           llvm::join(getBackendNames().drop_back(), ", ") + " or " +
           getBackendNames().back() + ")")
              .str();
  return nullptr;
}
