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
/// The exception flags of the MXCSR and of the x87 status word.
constexpr unsigned kExceptionFlags = 0x3F;
/// The x87 control word of FE_DFL_ENV (glibc's _FPU_DEFAULT): every
/// exception masked, round to nearest, extended precision.
constexpr unsigned short kDefaultX87Control = 0x037F;

unsigned short getX87Control() {
  unsigned short control;
  asm volatile("fnstcw %0" : "=m"(control));
  return control;
}

unsigned short getX87Status() {
  unsigned short status;
  asm volatile("fnstsw %0" : "=m"(status));
  return status;
}
#endif
} // namespace

ScopedDefaultFloatingPointEnvironment::ScopedDefaultFloatingPointEnvironment() {
#if defined(__x86_64__) || defined(__i386__)
  // Default modes and no x87 flag raised: what differs from FE_DFL_ENV is at
  // most the MXCSR's flags, which the MXCSR alone keeps.
  savedMXCSR = _mm_getcsr();
  if ((savedMXCSR & ~kExceptionFlags) == kDefaultMXCSR &&
      getX87Control() == kDefaultX87Control &&
      (getX87Status() & kExceptionFlags) == 0) {
    onlyMXCSR = true;
    _mm_setcsr(kDefaultMXCSR);
    return;
  }
#endif
  std::fegetenv(&saved);
  std::fesetenv(FE_DFL_ENV);
#if defined(__x86_64__) || defined(__i386__)
  _mm_setcsr(kDefaultMXCSR);
#endif
}

ScopedDefaultFloatingPointEnvironment::
    ~ScopedDefaultFloatingPointEnvironment() {
#if defined(__x86_64__) || defined(__i386__)
  if (onlyMXCSR) {
    _mm_setcsr(savedMXCSR);
    // The x87 flags were clear: clear what long double arithmetic raised.
    if (getX87Status() & kExceptionFlags)
      asm volatile("fnclex");
    return;
  }
#endif
  std::fesetenv(&saved);
}
