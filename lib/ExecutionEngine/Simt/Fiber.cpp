//===- Fiber.cpp - the x86-64 context switch ------------------------------===//

#include "Fiber.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

// Under AddressSanitizer every switch is announced, so that it does not take
// the other stack's frames for a buffer overflow (its fiber interface).
#if defined(__SANITIZE_ADDRESS__)
#define FUSER_SIMT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUSER_SIMT_ASAN 1
#endif
#endif
#ifdef FUSER_SIMT_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

using namespace mlir::fuser::simt;

#if defined(__x86_64__)
extern "C" void fuserSimtSwitchStack(void **save, void *next);
extern "C" void fuserSimtFiberStart();

// The saved context, from the stack pointer up: MXCSR and the x87 control
// word (8 bytes), r15, r14, r13, r12, rbx, rbp, the return address. A fresh
// fiber "returns" into fuserSimtFiberStart with its entry in r13 and its
// argument in r12.
asm(R"(
  .text
  .globl fuserSimtSwitchStack
  .type fuserSimtSwitchStack,@function
fuserSimtSwitchStack:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size fuserSimtSwitchStack, .-fuserSimtSwitchStack

  .globl fuserSimtFiberStart
  .type fuserSimtFiberStart,@function
fuserSimtFiberStart:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size fuserSimtFiberStart, .-fuserSimtFiberStart
)");
#endif

Fiber::~Fiber() {
  if (mapping)
    munmap(mapping, mappedBytes + getpagesize());
}

bool Fiber::reset(Entry entry, void *arg, size_t stackBytes) {
#if defined(__x86_64__)
  size_t page = getpagesize();
  if (mapping && mappedBytes != stackBytes) {
    munmap(mapping, mappedBytes + page);
    mapping = usable = nullptr;
    mappedBytes = 0;
  }
  if (!mapping) {
    void *memory = mmap(nullptr, stackBytes + page, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED)
      return false;
    mapping = static_cast<char *>(memory);
    // The last line of defence (device code checks the stack before it
    // grows it, Device.h): an overflow faults on the guard page instead of
    // corrupting the next fiber's stack.
    mprotect(mapping, page, PROT_NONE);
    usable = mapping + page;
    mappedBytes = stackBytes;
    stackBottom = usable;
    stackSize = stackBytes;
  }
  auto top = reinterpret_cast<uintptr_t>(usable + mappedBytes);
  top &= ~uintptr_t(15);
  // 8 slots below a 16-byte aligned top, 16 more bytes of headroom: after
  // the `ret`, rsp is 16-byte aligned before fuserSimtFiberStart's call.
  auto *slots = reinterpret_cast<uint64_t *>(top - 16 - 8 * 8);
  uint32_t mxcsr = 0;
  uint16_t fpcw = 0;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpcw));
  std::memset(slots, 0, 8 * 8);
  std::memcpy(&slots[0], &mxcsr, 4);
  std::memcpy(reinterpret_cast<char *>(&slots[0]) + 4, &fpcw, 2);
  slots[1] = 0;                                 // r15
  slots[2] = 0;                                 // r14
  slots[3] = reinterpret_cast<uint64_t>(entry); // r13
  slots[4] = reinterpret_cast<uint64_t>(arg);   // r12
  slots[5] = 0;                                 // rbx
  slots[6] = 0;                                 // rbp
  slots[7] = reinterpret_cast<uint64_t>(&fuserSimtFiberStart);
  savedStack = slots;
  return true;
#else
  (void)entry;
  (void)arg;
  return false;
#endif
}

void Fiber::switchTo(Fiber &from, Fiber &to) {
#if defined(__x86_64__)
#ifdef FUSER_SIMT_ASAN
  if (!from.stackSize) {
    // A thread's own stack, as the scheduler's is.
    pthread_attr_t attributes;
    void *bottom = nullptr;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
      pthread_attr_getstack(&attributes, &bottom, &from.stackSize);
      pthread_attr_destroy(&attributes);
    }
    from.stackBottom = bottom;
  }
  __sanitizer_start_switch_fiber(&from.fakeStack, to.stackBottom,
                                 to.stackSize);
#endif
  fuserSimtSwitchStack(&from.savedStack, to.savedStack);
#ifdef FUSER_SIMT_ASAN
  __sanitizer_finish_switch_fiber(from.fakeStack, nullptr, nullptr);
#endif
#else
  (void)from;
  (void)to;
#endif
}

void Fiber::exitTo(Fiber &from, Fiber &to) {
#if defined(__x86_64__)
#ifdef FUSER_SIMT_ASAN
  // No fake stack kept: this fiber's frames are gone.
  __sanitizer_start_switch_fiber(nullptr, to.stackBottom, to.stackSize);
#endif
  fuserSimtSwitchStack(&from.savedStack, to.savedStack);
#endif
  std::abort();
}

void Fiber::started() {
#ifdef FUSER_SIMT_ASAN
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
}

bool Fiber::onStack(const void *address) const {
  auto *p = static_cast<const char *>(address);
  return mapping && p >= usable && p < usable + mappedBytes;
}
