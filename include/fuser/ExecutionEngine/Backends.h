//===- Backends.h - the backends tools can select by name -------*- C++ -*-===//

#ifndef FUSER_EXECUTIONENGINE_BACKENDS_H
#define FUSER_EXECUTIONENGINE_BACKENDS_H

#include "fuser/ExecutionEngine/Backend.h"

#include <memory>

namespace mlir::fuser {

/// The names of every backend, in the order tools list them.
ArrayRef<StringRef> getBackendNames();

/// The backend called `name`, or null with `error` set when there is none.
/// A known backend that cannot run here is returned; its
/// getUnavailableReason() says why.
std::unique_ptr<Backend> createBackend(StringRef name,
                                       const BackendOptions &options,
                                       std::string &error);

} // namespace mlir::fuser

#endif // FUSER_EXECUTIONENGINE_BACKENDS_H
