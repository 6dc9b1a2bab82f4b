//===- Backends.cpp - the backends tools can select by name ---------------===//
//
// The one list of backends. The CUDA backend is named here before it exists
// so that tools can say it is not built rather than unknown.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/Backends.h"
#include "fuser/ExecutionEngine/CPUBackend.h"
#include "fuser/Interpreter/Interpreter.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {
/// A backend that is part of the product but not built into this binary.
class UnavailableBackend : public Backend {
public:
  UnavailableBackend(StringRef name, StringRef reason)
      : Backend(name.str()), reason(reason.str()) {}

  std::optional<std::string> getUnavailableReason() const override {
    return reason;
  }

  FailureOr<SmallVector<Buffer>> run(func::FuncOp func,
                                     ArrayRef<Buffer>) override {
    return func.emitError("backend ")
           << getName() << " is not available: " << reason;
  }

private:
  std::string reason;
};
} // namespace

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
    return std::make_unique<UnavailableBackend>(
        name, "the kernel lowering is not built yet");
  error = ("unknown backend '" + name + "' (expected " +
           llvm::join(getBackendNames().drop_back(), ", ") + " or " +
           getBackendNames().back() + ")")
              .str();
  return nullptr;
}
