//===- Fiber.h - one emulated GPU thread's stack and context ----*- C++ -*-===//
//
// The emulator runs each thread of a block as a fiber: its own stack, entered
// and left by a hand-written x86-64 context switch that saves only what the
// SysV ABI makes callee-saved (rbx, rbp, r12-r15, rsp, MXCSR, the x87 control
// word). That costs tens of nanoseconds; swapcontext saves the signal mask
// with a system call and costs about 0.6 us (docs/Lowering.md).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_LIB_EXECUTIONENGINE_SIMT_FIBER_H
#define FUSER_LIB_EXECUTIONENGINE_SIMT_FIBER_H

#include <cstddef>

namespace mlir::fuser::simt {

/// Whether fibers exist on this host (x86-64 only).
constexpr bool kHaveFibers =
#if defined(__x86_64__)
    true;
#else
    false;
#endif

class Fiber {
public:
  using Entry = void (*)(void *);

  Fiber() = default;
  Fiber(const Fiber &) = delete;
  Fiber &operator=(const Fiber &) = delete;
  ~Fiber();

  /// Makes the next switch into this fiber call entry(arg) on a fresh
  /// stack of `stackBytes` (a multiple of the page size), in the caller's
  /// floating-point environment. `entry` must not return: it ends by
  /// switching away for good. The stack (with a guard page below it) is
  /// allocated once and reused while the size stays the same. False if it
  /// cannot be allocated.
  bool reset(Entry entry, void *arg, size_t stackBytes = kStackBytes);

  /// Saves the running context in `from` and resumes `to`.
  static void switchTo(Fiber &from, Fiber &to);
  /// Resumes `to` for good: `from` never runs again (until reset).
  [[noreturn]] static void exitTo(Fiber &from, Fiber &to);
  /// What a fresh fiber's entry calls first (AddressSanitizer must be told
  /// that the switch into it finished).
  void started();

  /// For a fiber on a thread's own stack: forget which thread's (the next
  /// switch away reads it again; launches may come from several threads).
  void forgetThreadStack() {
    if (!mapping)
      stackSize = 0;
  }

  /// Whether `address` lies on this fiber's stack.
  bool onStack(const void *address) const;

  /// The lowest address of the stack (above its guard page), and its size.
  const char *getStackLow() const { return mapping ? usable : nullptr; }
  size_t getStackBytes() const { return mapping ? mappedBytes : 0; }

  /// The default size of a stack.
  static constexpr size_t kStackBytes = 256 * 1024;

private:
  void *savedStack = nullptr;
  char *mapping = nullptr;
  /// The stack above the guard page: [usable, usable + mappedBytes).
  char *usable = nullptr;
  size_t mappedBytes = 0;
  /// AddressSanitizer's view: the stack's bounds (for a fiber on a thread's
  /// own stack, read from the thread when it first switches away) and the
  /// fake stack of a suspended fiber.
  const void *stackBottom = nullptr;
  size_t stackSize = 0;
  void *fakeStack = nullptr;
};

} // namespace mlir::fuser::simt

#endif // FUSER_LIB_EXECUTIONENGINE_SIMT_FIBER_H
