//===- FloatingPointEnvironment.cpp - IEEE default mode for a run ---------===//

#include "fuser/ExecutionEngine/FloatingPointEnvironment.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

using namespace mlir::fuser;

namespace {
#if defined(__x86_64__) || defined(__i386__)
/// MXCSR at power-on: every exception masked, round to nearest, FTZ and DAZ
/// clear, no flags. glibc's FE_DFL_ENV sets it too; other C libraries have
/// left FTZ and DAZ alone, so it is set here as well.
constexpr unsigned kDefaultMXCSR = 0x1F80;
#endif
} // namespace

ScopedDefaultFloatingPointEnvironment::ScopedDefaultFloatingPointEnvironment() {
  std::fegetenv(&saved);
  std::fesetenv(FE_DFL_ENV);
#if defined(__x86_64__) || defined(__i386__)
  _mm_setcsr(kDefaultMXCSR);
#endif
}

ScopedDefaultFloatingPointEnvironment::
    ~ScopedDefaultFloatingPointEnvironment() {
  std::fesetenv(&saved);
}
