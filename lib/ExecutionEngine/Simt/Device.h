//===- Device.h - the emulated GPU: memory, modules, launches ---*- C++ -*-===//
//
// One emulated device per process. Device memory is host memory that the
// device tracks: every allocation knows which of its bytes were written
// (cuMemAlloc's are not; uploads, memsets and kernel stores write), and
// which allocations the running kernel declared read-only. A launch runs
// the grid's blocks one after another and each block's threads as fibers
// (Fiber.h) with CUDA's semantics: a thread runs until it reaches a barrier
// or a warp shuffle, or returns; a shuffle completes when every lane of its
// member mask has reached one, a barrier when every thread of the block
// has. Device code calls back into the device for that and for every
// memory access it makes (HostModule.cpp instruments them), which is where
// the checks are: bounds and alignment, stores into read-only arguments,
// reads of bytes never written, shared-memory races between barriers, and
// barriers or shuffles that not every thread reaches.
//
// Reports are printed to stderr as `simt: error: ...` with the kernel, the
// instruction, the thread, the block and the address; the launch then
// fails with the CUDA error a GPU would give (memory errors stop the kernel
// before the access; the others let it finish).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_LIB_EXECUTIONENGINE_SIMT_DEVICE_H
#define FUSER_LIB_EXECUTIONENGINE_SIMT_DEVICE_H

#include "Fiber.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace mlir::fuser::simt {

using CUresult = int;
using CUdeviceptr = unsigned long long;

/// The driver's error codes the emulator returns (cuda.h's CUresult).
enum : CUresult {
  kSuccess = 0,
  kInvalidValue = 1,
  kOutOfMemory = 2,
  kNotInitialized = 3,
  kNoDevice = 100,
  kInvalidImage = 200,
  kInvalidHandle = 400,
  kNotFound = 500,
  kIllegalAddress = 700,
  kLaunchOutOfResources = 701,
  kLaunchTimeout = 702,
  kMisalignedAddress = 716,
  kLaunchFailed = 719,
  kNotSupported = 801,
};

/// cuda.h's name of `error`, or null.
const char *getErrorName(CUresult error);

/// The chip the emulator presents itself as, and its launch limits.
struct Chip {
  static constexpr int kMajor = 9, kMinor = 0, kMultiprocessors = 132;
  static constexpr int64_t kL2Bytes = 60ll << 20;
  static constexpr unsigned kMaxThreadsPerBlock = 1024;
  static constexpr unsigned kMaxBlockDim[3] = {1024, 1024, 64};
  static constexpr uint64_t kMaxGridDim[3] = {(1ull << 31) - 1, 65535, 65535};
  /// Static shared memory per block (48 KiB), and with the dynamic part
  /// (an opt-in beyond 48 KiB on sm_90: 227 KiB).
  static constexpr uint64_t kMaxStaticSharedBytes = 48 << 10;
  static constexpr uint64_t kMaxSharedBytes = 227 << 10;
  /// Local memory per thread (ptxas refuses a kernel that needs more).
  static constexpr uint64_t kMaxLocalBytes = 512 << 10;
};

/// What a thread's stack holds besides the device code's own frames, and
/// the budget of its loops (docs/Lowering.md, "Limits").
struct Limits {
  /// A thread's stack: at least this, more when the kernel's frames need it.
  static constexpr uint64_t kMinStackBytes = 256 << 10;
  /// Kept free at the bottom of every stack for the device's runtime calls
  /// (checks, reports) and for spills a frame estimate misses: device code
  /// checks before each call of a device function and each dynamic alloca
  /// that it stays above.
  static constexpr uint64_t kReserveBytes = 64 << 10;
  /// What a frame takes beyond its static allocas (spills, saved
  /// registers, the return address), as the checks estimate it.
  static constexpr uint64_t kFrameBytes = 4 << 10;
  /// Loop iterations (loop headers entered) per thread before the launch
  /// fails as hung; FUSER_SIMT_STEP_LIMIT overrides it.
  static constexpr uint64_t kDefaultStepLimit = 1000000000;
};

/// Where in the device code an access or a synchronization is.
struct Site {
  std::string kernel;
  /// The LLVM instruction as printed.
  std::string instruction;
  /// file:line:column from the module's debug information, or empty.
  std::string location;
  /// For a call of a device function: the function.
  std::string callee;
};

/// A shared-memory variable of a module (a global in address space 3).
struct SharedVariable {
  /// The host symbol; the name the module gave it.
  std::string symbol, name;
  char *address = nullptr;
  uint64_t bytes = 0;
};

struct Module;

/// A kernel of a loaded module: its host entry, which takes cuLaunchKernel's
/// parameter array, and what a launch must know of its parameters.
struct Kernel {
  std::string name;
  void (*entry)(void **params) = nullptr;
  struct Param {
    unsigned bytes = 0;
    bool isPointer = false;
    /// A pointer the kernel declared `readonly` (what lets the GPU read it
    /// through the non-coherent cache): stores into its allocation are
    /// errors.
    bool readOnly = false;
  };
  std::vector<Param> params;
  Module *module = nullptr;
  /// Along the deepest chain of calls from the kernel (a recursive call
  /// counted once): the bytes of its static allocas (its local memory), and
  /// the stack its frames take (with Limits::kFrameBytes each).
  uint64_t localBytes = 0, frameBytes = 0;
};

/// A module loaded for the host (HostModule.h builds it).
struct Module {
  virtual ~Module();
  std::vector<std::unique_ptr<Kernel>> kernels;
  std::vector<SharedVariable> shared;
  uint64_t getSharedBytes() const;
  /// What the module's device code reads before it grows the stack: the
  /// lowest stack pointer it may leave (the running thread's stack bottom
  /// plus Limits::kReserveBytes); and what its loop headers count down:
  /// the running thread's loop iterations left.
  uint64_t *stackLimit = nullptr, *stepsLeft = nullptr;
};

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

/// What a launch reports: how many errors of each check, printed or not.
struct LaunchSummary {
  uint64_t launches = 0, blocks = 0, threads = 0, accesses = 0, barriers = 0,
           shuffles = 0;
  uint64_t errors = 0;
};

class Device {
public:
  static Device &get();
  /// Held by every entry point (the driver's and the fake cuBLASLt's): calls
  /// from several host threads (the Python API's) take turns, each launch
  /// running to completion on its caller.
  [[nodiscard]] static std::unique_lock<std::recursive_mutex> lock();

  // Memory, as the driver API sees it.
  CUresult allocate(CUdeviceptr *address, size_t bytes);
  CUresult release(CUdeviceptr address);
  CUresult copyToDevice(CUdeviceptr dst, const void *src, size_t bytes);
  CUresult copyFromDevice(void *dst, CUdeviceptr src, size_t bytes);
  CUresult copyOnDevice(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
  CUresult fill(CUdeviceptr dst, unsigned char value, size_t bytes);
  /// A host-side library (the fake cuBLASLt) reading [address, address +
  /// bytes), or writing it (`write`: the bytes become written): kSuccess
  /// when one allocation holds the range, else kInvalidValue.
  CUresult accessFromHost(CUdeviceptr address, size_t bytes, bool write);

  // Modules and launches.
  CUresult loadModule(const void *image, Module **module);
  CUresult unloadModule(Module *module);
  CUresult getKernel(Kernel **kernel, Module *module, const char *name);
  CUresult launch(Kernel &kernel, Dim3 grid, Dim3 block, uint64_t sharedBytes,
                  void **params);

  /// A global variable of a loaded module (not shared memory): device
  /// memory that is initialized, and read-only when it is constant.
  void addModuleGlobal(char *data, uint64_t bytes, bool constant);
  void removeModuleGlobal(char *data);

  /// Sites are numbered across modules; device code passes the number.
  uint32_t addSite(Site site);

  /// Totals over every launch of this process (`fuser-run` prints them).
  const LaunchSummary &getTotals() const { return totals; }

  // Called from device code, on a thread's fiber (HostModule.cpp's
  // runtime calls, in Device.cpp).
  uint32_t readSpecialRegister(uint32_t which);
  uint64_t shuffle(uint32_t mode, uint32_t mask, uint32_t value, uint32_t b,
                   uint32_t c, uint32_t site);
  void barrier(uint32_t id, uint32_t site);
  void checkAccess(const void *address, uint64_t bytes, uint32_t align,
                   uint32_t addressSpace, uint32_t site, bool isStore);
  void noteStored(const void *address, uint64_t bytes, uint32_t site);
  /// An access into the thread's private array [array, array + arrayBytes).
  void checkLocalAccess(const void *address, uint64_t bytes, const void *array,
                        uint64_t arrayBytes, uint32_t site, bool isStore);
  [[noreturn]] void trap(uint32_t site);
  /// Device code found `room` bytes between the stack pointer and the
  /// stack limit where it needs `bytes` (a call of a device function, or
  /// a dynamic alloca: `dynamic`).
  [[noreturn]] void stackOverflow(int64_t room, uint64_t bytes, bool dynamic,
                                  uint32_t site);
  /// A dynamic alloca of `count` elements of `elementBytes` at stack pointer
  /// `stackPointer`: reports a stack overflow where it does not fit.
  void checkDynamicAlloca(const void *stackPointer, uint64_t count,
                          uint64_t elementBytes, uint32_t site);
  /// The running thread's loop budget ran out at the loop header `site`.
  [[noreturn]] void stepLimitReached(uint32_t site);

private:
  Device() = default;
  struct Allocation {
    char *data = nullptr;
    uint64_t bytes = 0;
    /// One byte per byte: written since allocation.
    std::vector<uint8_t> written;
    bool readOnly = false;
    /// A module's global variable: not cuMemFree'd; `constant`: never
    /// written.
    bool moduleGlobal = false, constant = false;
  };
  /// One byte of shared memory: who last wrote and read it, in which
  /// barrier interval, and how far their warp's shuffles had got.
  struct SharedByte {
    int32_t writer = -1, reader = -1;
    uint32_t writeEpoch = 0, readEpoch = 0;
    /// How many shuffles the warp had completed at the write, at the latest
    /// read.
    uint64_t writeWarpSyncs = 0, readWarpSyncs = 0;
    /// More than one thread read it; all readers are in `reader`'s warp.
    bool manyReaders = false, readersInOneWarp = true;
    bool written = false;
    uint8_t value = 0;
  };
  struct Thread {
    Fiber fiber;
    uint32_t linear = 0;
    Dim3 tid;
    enum class State { Runnable, AtBarrier, AtShuffle, Exited, Aborted };
    State state = State::Runnable;
    uint32_t site = 0;
    uint32_t mode = 0, mask = 0, value = 0, b = 0, c = 0;
    uint64_t result = 0;
    /// Loop iterations left (Module::stepsLeft while it runs).
    uint64_t stepsLeft = 0;
  };

  Allocation *findAllocation(uintptr_t address);
  /// The shared variable holding `address` and its shadow, or null.
  std::pair<SharedVariable *, SharedByte *> findShared(uintptr_t address);
  CUresult checkHostRange(CUdeviceptr address, size_t bytes,
                          Allocation *&allocation);

  CUresult checkLaunch(Kernel &kernel, Dim3 grid, Dim3 block,
                       uint64_t sharedBytes, void **params);
  /// Runs one block; false after a fatal error.
  bool runBlock(Dim3 ctaid);
  /// The running block's threads (`threads` keeps more from earlier
  /// launches).
  llvm::ArrayRef<std::unique_ptr<Thread>> getBlockThreads() const {
    return llvm::ArrayRef(threads).take_front(block.count());
  }
  bool resolveShuffles();
  /// Whether a shuffle of `warp` since the `since`-th had both lanes.
  bool orderedByShuffle(uint32_t warp, uint32_t laneA, uint32_t laneB,
                        uint64_t since) const;
  bool resolveBarrier();
  void reportHang();
  static void threadMain(void *thread);

  /// Starts a report: prints its first line and the thread and block
  /// (when a thread runs); returns false when the launch printed enough.
  bool beginReport(const llvm::Twine &what, CUresult error);
  void printSite(uint32_t site);
  void printThread(const Thread &thread);
  [[noreturn]] void abortThread();

  std::map<uintptr_t, Allocation> allocations;
  Allocation *lastAllocation = nullptr;
  std::vector<std::unique_ptr<Module>> modules;
  std::vector<Site> sites;

  // The running launch.
  Kernel *kernel = nullptr;
  void **params = nullptr;
  Dim3 grid, block, ctaid;
  /// Each thread's stack, and its loop budget.
  uint64_t stackBytes = Limits::kMinStackBytes;
  uint64_t stepLimit = Limits::kDefaultStepLimit;
  std::vector<std::unique_ptr<Thread>> threads;
  /// Per warp of the block, the member masks of its completed shuffles in
  /// order: an access is ordered before a later one of another lane of the
  /// warp when a shuffle after it had both lanes in its mask.
  std::vector<std::vector<uint32_t>> warpShuffles;
  uint32_t epoch = 0;
  Thread *current = nullptr;
  Fiber scheduler;
  /// Per shared variable of the kernel's module, one SharedByte per byte.
  std::vector<std::vector<SharedByte>> sharedShadow;
  CUresult failure = kSuccess;
  bool fatal = false;
  unsigned printedReports = 0;
  LaunchSummary launchSummary, totals;
};

} // namespace mlir::fuser::simt

#endif // FUSER_LIB_EXECUTIONENGINE_SIMT_DEVICE_H
