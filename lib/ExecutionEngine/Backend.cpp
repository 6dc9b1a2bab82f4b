//===- Backend.cpp - the backend interface --------------------------------===//

#include "fuser/ExecutionEngine/Backend.h"

using namespace mlir::fuser;

// Anchors the vtable in this library.
Backend::~Backend() = default;
