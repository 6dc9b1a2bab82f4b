//===- CPUThreads.h - the threads that run a kernel's blocks ----*- C++ -*-===//
//
// The CPU backend runs each kernel's blocks on several threads: the caller's
// and those of a pool kept per thread count (fuser-cpu-outline-block-loops
// outlines the block loops; docs/Lowering.md, "Blocks on every core").
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_CPUTHREADS_H
#define FUSER_EXECUTIONENGINE_CPUTHREADS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::fuser {

/// The environment variable that sets the threads of a CPU backend run
/// whose options leave them at 0 (BackendOptions::numThreads).
constexpr const char *kNumThreadsVariable = "FUSER_MLIR_NUM_THREADS";

/// The threads of a run that asks for `requested` (0: the default):
/// `requested`, else FUSER_MLIR_NUM_THREADS when it is set (an error when it
/// is not a positive integer), else the hardware threads this process may
/// run on.
llvm::Expected<unsigned> getCPUThreads(unsigned requested);

/// The threads of the CPU backend run in progress on the calling thread
/// (the kernels' blocks and the library calls of CPUKernelModule::run take
/// them); 0 outside a run.
unsigned getRunThreads();

/// Sets getRunThreads() for a scope: a run's, on its calling thread.
class ScopedRunThreads {
public:
  explicit ScopedRunThreads(unsigned threads);
  ~ScopedRunThreads();
  ScopedRunThreads(const ScopedRunThreads &) = delete;
  ScopedRunThreads &operator=(const ScopedRunThreads &) = delete;

private:
  unsigned previous;
};

/// Calls `range(begin, end)` on ranges that cover [0, blocks) once each, on
/// up to `threads` threads (the caller's and `threads - 1` of a pool), and
/// returns when every range has returned. With one thread, or fewer than two
/// blocks, that is one call `range(0, blocks)` on the caller's thread; the
/// caller also keeps the work when its first range (the probe) says the rest is too
/// little to share. How the blocks are cut into ranges, and which thread
/// runs which, varies from run to run.
void runOnThreads(unsigned threads, int64_t blocks,
                  llvm::function_ref<void(int64_t, int64_t)> range);

} // namespace mlir::fuser

#endif // FUSER_EXECUTIONENGINE_CPUTHREADS_H
