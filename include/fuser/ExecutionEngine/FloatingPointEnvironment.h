//===- FloatingPointEnvironment.h - IEEE default mode for a run -*- C++ -*-===//
//
// The interpreter and the CPU backend compute with the host's floating-point
// unit in the caller's thread, so the caller's mode would change their bits:
// flush-to-zero / denormals-are-zero (`torch.set_flush_denormal(True)`, a
// library built with -ffast-math), a directed rounding mode or trapping
// exceptions. Every run therefore switches the thread to the IEEE default
// for its duration and gives the caller's mode back afterwards
// (docs/Lowering.md, "Same bits on every host").
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_FLOATINGPOINTENVIRONMENT_H
#define FUSER_EXECUTIONENGINE_FLOATINGPOINTENVIRONMENT_H

#include <cfenv>

namespace mlir::fuser {

/// For its lifetime, the calling thread runs in the IEEE default
/// floating-point environment: round to nearest even, subnormals kept (x86
/// MXCSR FTZ and DAZ clear, AArch64 FPCR FZ clear), every exception masked.
/// The destructor restores the environment the thread had before, exception
/// flags included. On x86, a thread already in the default modes (the
/// common case, a guard inside another or a run from Python) keeps and
/// restores only its MXCSR, without fegetenv and fesetenv, whose x87
/// environment loads and stores cost about 0.3 us a run.
class ScopedDefaultFloatingPointEnvironment {
public:
  ScopedDefaultFloatingPointEnvironment();
  ~ScopedDefaultFloatingPointEnvironment();

  ScopedDefaultFloatingPointEnvironment(
      const ScopedDefaultFloatingPointEnvironment &) = delete;
  ScopedDefaultFloatingPointEnvironment &
  operator=(const ScopedDefaultFloatingPointEnvironment &) = delete;

private:
  std::fenv_t saved;
  /// Whether only the MXCSR (savedMXCSR) was kept, not `saved` (x86).
  bool onlyMXCSR = false;
  unsigned savedMXCSR = 0;
};

} // namespace mlir::fuser

#endif // FUSER_EXECUTIONENGINE_FLOATINGPOINTENVIRONMENT_H
