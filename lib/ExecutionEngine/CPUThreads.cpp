//===- CPUThreads.cpp - the threads that run a kernel's blocks ------------===//
//
// A run hands out ranges of blocks from an atomic counter; the caller takes
// ranges too, then waits until every block is done. The caller first runs a
// small probe range alone and shares the rest only when the probe says it
// is worth waking threads for (kMinSharedWork). Ranges shrink as the blocks
// run out (guided, as OpenMP's schedule of that name), so that the threads
// finish together although a woken thread starts late. The caller waits for
// blocks, not for the pool's tasks: a task that starts after the last range
// was taken finds none and touches nothing of the caller's, so the caller
// never depends on a pool thread being free (another run, on another
// thread, may hold them all).
//
// A pool thread that takes part in a run keeps off the caller's core (on
// Linux, where the process may run on more than one): the scheduler wakes a
// thread near its waker, and now and then on the waker's own core, where the
// two then share one core for the whole kernel (a 2-thread row sum took the
// 1-thread time in about one call of five; docs/Performance.md).
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CPUThreads.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

using namespace mlir::fuser;

namespace {
/// The probe is this fraction of a thread's share of the blocks: little
/// enough that the work the caller does alone before sharing is a small
/// part of the whole (1/64 with two threads).
constexpr int64_t kProbesPerThread = 32;

/// Below this much work left after the probe (as long as the probe took,
/// times the probes left), the caller does it alone: waking a pool thread,
/// and waiting for one that another job on the machine delays, costs more
/// than small kernels (most of a test suite's) take.
constexpr std::chrono::microseconds kMinSharedWork(100);

/// One run's blocks, shared with the pool's tasks (which may outlive it).
struct Blocks {
  Blocks(int64_t count, int64_t threads, int64_t minRange,
         llvm::function_ref<void(int64_t, int64_t)> range)
      : count(count), threads(threads), minRange(minRange), range(range) {}

  /// Takes and runs ranges until none is left: each a 1 / (2 x threads)
  /// share of the blocks left, and at least minRange.
  void work() {
    int64_t begin = next.load();
    for (;;) {
      int64_t size;
      do {
        if (begin >= count)
          return;
        size = std::max(minRange, (count - begin) / (2 * threads));
      } while (!next.compare_exchange_weak(begin, begin + size));
      int64_t end = std::min(begin + size, count);
      range(begin, end);
      {
        std::lock_guard<std::mutex> lock(mutex);
        done += end - begin;
        if (done == count)
          finished.notify_all();
      }
      begin = next.load();
    }
  }

  const int64_t count, threads, minRange;
  /// Called only on a range taken before `done` reaches `count`, while the
  /// caller, whose function it is, waits.
  const llvm::function_ref<void(int64_t, int64_t)> range;
  std::atomic<int64_t> next{0};
  std::mutex mutex;
  std::condition_variable finished;
  int64_t done = 0;
};

#ifdef __linux__
/// The CPUs this process may run on, as it started.
const cpu_set_t &getAllowedCPUs() {
  static const cpu_set_t allowed = [] {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
      CPU_ZERO(&set);
    return set;
  }();
  return allowed;
}

/// The core a run's caller is on, when its pool threads can keep off it:
/// one the process may run on, while others remain; else -1.
int getCallerCPU() {
  const cpu_set_t &allowed = getAllowedCPUs();
  int cpu = sched_getcpu();
  if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed) ||
      CPU_COUNT(&allowed) < 2)
    return -1;
  return cpu;
}

/// Keeps the calling pool thread off `callerCPU` (-1: anywhere allowed).
/// The affinity changes only when the caller's core does, so a run from a
/// caller that stays put costs no system call.
void keepOffCPU(int callerCPU) {
  thread_local int avoided = -1;
  if (callerCPU == avoided)
    return;
  cpu_set_t set = getAllowedCPUs();
  if (callerCPU >= 0)
    CPU_CLR(callerCPU, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0)
    avoided = callerCPU;
}
#else
int getCallerCPU() { return -1; }
void keepOffCPU(int) {}
#endif

/// getRunThreads().
thread_local unsigned runThreads = 0;

/// The pool of `workers` threads, made on first use and kept for the
/// process: a run of n threads uses the pool of n - 1.
llvm::StdThreadPool &getPool(unsigned workers) {
  static std::mutex mutex;
  static std::map<unsigned, std::unique_ptr<llvm::StdThreadPool>> pools;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<llvm::StdThreadPool> &pool = pools[workers];
  if (!pool)
    pool = std::make_unique<llvm::StdThreadPool>(
        llvm::hardware_concurrency(workers));
  return *pool;
}
} // namespace

llvm::Expected<unsigned> mlir::fuser::getCPUThreads(unsigned requested) {
  if (requested != 0)
    return requested;
  if (const char *value = std::getenv(kNumThreadsVariable)) {
    unsigned threads = 0;
    if (llvm::StringRef(value).trim().getAsInteger(10, threads) ||
        threads == 0)
      return llvm::createStringError(
          llvm::Twine(kNumThreadsVariable) + "='" + value +
          "' is not a number of threads (a positive integer)");
    return threads;
  }
  return std::max(1u, llvm::hardware_concurrency().compute_thread_count());
}

unsigned mlir::fuser::getRunThreads() { return runThreads; }

ScopedRunThreads::ScopedRunThreads(unsigned threads)
    : previous(std::exchange(runThreads, threads)) {}

ScopedRunThreads::~ScopedRunThreads() { runThreads = previous; }

void mlir::fuser::runOnThreads(
    unsigned threads, int64_t blocks,
    llvm::function_ref<void(int64_t, int64_t)> range) {
  if (threads <= 1 || blocks < 2) {
    range(0, blocks);
    return;
  }
  int64_t probe =
      std::max<int64_t>(1, blocks / (int64_t(threads) * kProbesPerThread));
  auto start = std::chrono::steady_clock::now();
  range(0, probe);
  std::chrono::duration<double> probeTime =
      std::chrono::steady_clock::now() - start;
  if (probeTime * double(blocks - probe) / double(probe) < kMinSharedWork) {
    range(probe, blocks);
    return;
  }
  auto shared = std::make_shared<Blocks>(blocks, threads, probe, range);
  // The probe is done.
  shared->next = probe;
  shared->done = probe;
  int64_t helpers = std::min<int64_t>(threads - 1, blocks / probe - 1);
  llvm::StdThreadPool &pool = getPool(threads - 1);
  int callerCPU = getCallerCPU();
  for (int64_t i = 0; i < helpers; ++i)
    pool.async([shared, callerCPU] {
      keepOffCPU(callerCPU);
      shared->work();
    });
  shared->work();
  std::unique_lock<std::mutex> lock(shared->mutex);
  shared->finished.wait(lock, [&] { return shared->done == blocks; });
}
