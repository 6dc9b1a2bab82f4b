//===- Interpreter.h - reference evaluator for fuser fusions ----*- C++ -*-===//
//
// The reference semantics every rewrite and kernel is checked against. A
// fusion is a func.func over statically shaped tensors, evaluated op by op
// on Buffers; the interpreter is the `interp` backend of the execution layer.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_INTERPRETER_INTERPRETER_H
#define FUSER_INTERPRETER_INTERPRETER_H

#include "fuser/ExecutionEngine/Backend.h"

#include <memory>

namespace mlir::fuser {

/// Runs `func` on `inputs`. Unsupported ops, oversized buffers and mismatched
/// inputs are reported as diagnostics on the offending op and give failure.
FailureOr<SmallVector<Buffer>> interpret(func::FuncOp func,
                                         ArrayRef<Buffer> inputs,
                                         const BackendOptions &options = {});

/// The interpreter as the `interp` backend.
std::unique_ptr<Backend>
createInterpreterBackend(const BackendOptions &options);

} // namespace mlir::fuser

#endif // FUSER_INTERPRETER_INTERPRETER_H
