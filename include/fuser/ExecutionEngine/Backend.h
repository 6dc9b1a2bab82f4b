//===- Backend.h - one way of running a fusion ------------------*- C++ -*-===//
//
// A backend runs a fusion (a func.func over tensors) on buffers. The
// interpreter is the reference backend; the CPU and CUDA backends run the
// lowered kernels. Tools pick backends by name through createBackend
// (Backends.h) and compare them through the same Buffer functions.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_BACKEND_H
#define FUSER_EXECUTIONENGINE_BACKEND_H

#include "fuser/ExecutionEngine/Buffer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::fuser {

/// The default budget for all the buffers of one run together: three
/// quarters of what this process may still allocate when it is asked, the
/// smallest of the machine's available memory (MemAvailable), the headroom
/// of its memory cgroup (limit less usage), its physical memory and the
/// address-space and data-segment limits (`ulimit -v`, `ulimit -d`), so
/// that a run that needs more gets a clear error rather than an allocation
/// failure or the kernel's out-of-memory killer. Read anew at each call.
uint64_t getDefaultMaxTotalBytes();

/// Options every backend honours.
struct BackendOptions {
  /// Largest allowed size of any input, intermediate or result, in bytes.
  uint64_t maxBufferBytes = 2ull << 30;
  /// Largest allowed size of the buffers a run holds at once (its inputs,
  /// intermediates and results, and the backend's copies of them), in
  /// bytes.
  uint64_t maxTotalBytes = getDefaultMaxTotalBytes();
  /// Whether reductions may be reassociated: kernel threads split them,
  /// the interpreter sums pairwise. That changes the rounding of reductions
  /// of inexact values; without it every backend reduces each output in
  /// sequence (one kernel thread per output), and the backends agree bit
  /// for bit.
  bool splitReductions = true;
  /// The threads that run a kernel's blocks (the `cpu` backend); 0: the
  /// FUSER_MLIR_NUM_THREADS environment variable at each run, else the
  /// hardware threads (getCPUThreads). The bits do not depend on it.
  unsigned numThreads = 0;
  /// Whether the `cpu` backend's outputs start zeroed, so that an element a
  /// kernel misses shows as a mismatch in a check rather than as what a
  /// reused block held (the tools' runs), or uninitialized, as torch.empty
  /// gives them (Python's execute: a write pass less per output).
  bool zeroOutputs = true;
};

/// Within its scope, on this thread, every run takes `maxTotalBytes` as its
/// budget instead of its BackendOptions' own: a compiled fusion keeps the
/// options of its compile, and a run from Python asks for the budget of
/// the moment it runs (getDefaultMaxTotalBytes then, or the user's).
class ScopedRunBudget {
public:
  explicit ScopedRunBudget(uint64_t maxTotalBytes);
  ~ScopedRunBudget();
  ScopedRunBudget(const ScopedRunBudget &) = delete;
  ScopedRunBudget &operator=(const ScopedRunBudget &) = delete;

private:
  std::optional<uint64_t> previous;
};

/// Checks that `inputs` match the argument types of `func`, with a located
/// error otherwise: what every backend's run() checks first.
LogicalResult checkBackendInputs(func::FuncOp func, ArrayRef<Buffer> inputs);

/// Adds `bytes` to `heldBytes`, the bytes a run holds, or says (located at
/// `loc`: "<what> of type <type> takes ...", without the type when it is
/// null) that they would exceed options.maxTotalBytes (or the budget of
/// an enclosing ScopedRunBudget).
LogicalResult reserveRunBytes(Location loc, const BackendOptions &options,
                              uint64_t &heldBytes, uint64_t bytes,
                              const Twine &what, Type type);

/// Turns the output buffers of `func`'s lowered host function (one memref
/// per result; rank-0 for a scalar result) into `func`'s results, or gives a
/// located error when they do not match its result types.
LogicalResult adoptKernelOutputs(func::FuncOp func,
                                 MutableArrayRef<Buffer> outputs);

/// A fusion as a backend compiled it: run it any number of times on inputs
/// of its argument types, with no pass, JIT or PTX step again (what
/// nvFuser's FusionExecutorCache keeps per input signature). It owns a copy
/// of the fusion, so the IR it came from may change or go.
class CompiledFusion {
public:
  virtual ~CompiledFusion();

  /// The fusion it runs (its own copy).
  func::FuncOp getFunc() { return func; }

  /// Runs it on `inputs`, which must match its argument types; errors as
  /// Backend::run. In the IEEE default floating-point environment whatever
  /// the caller's (FloatingPointEnvironment.h).
  FailureOr<SmallVector<Buffer>> run(ArrayRef<Buffer> inputs);

protected:
  /// Copies `fusion` into a module of its own.
  explicit CompiledFusion(func::FuncOp fusion);

private:
  /// What run() does, with checked inputs, in the default environment.
  virtual FailureOr<SmallVector<Buffer>>
  runCompiled(ArrayRef<Buffer> inputs) = 0;

  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
};

class Backend {
public:
  explicit Backend(std::string name) : name(std::move(name)) {}
  virtual ~Backend();

  /// The name tools select it by (`fuser-run --backend NAME`).
  StringRef getName() const { return name; }

  /// Why this backend cannot run on this machine (no driver, not built),
  /// or nullopt when it can.
  virtual std::optional<std::string> getUnavailableReason() const {
    return std::nullopt;
  }

  /// Compiles `func` for this backend. Errors (unsupported ops, oversized
  /// intermediates) are diagnostics located on the offending op and give
  /// failure. In the IEEE default floating-point environment.
  FailureOr<std::unique_ptr<CompiledFusion>> compile(func::FuncOp func);

  /// Compiles `func` and runs it once on `inputs`, which must match its
  /// argument types (checked before compiling). Errors (unsupported ops,
  /// oversized buffers, mismatched inputs) are reported as diagnostics
  /// located on the offending op and give failure.
  FailureOr<SmallVector<Buffer>> run(func::FuncOp func,
                                     ArrayRef<Buffer> inputs);

private:
  /// What compile() does, called in the default environment.
  virtual FailureOr<std::unique_ptr<CompiledFusion>>
  compileFusion(func::FuncOp func) = 0;

  std::string name;
};

} // namespace mlir::fuser

#endif // FUSER_EXECUTIONENGINE_BACKEND_H
