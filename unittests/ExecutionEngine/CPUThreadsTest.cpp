//===- CPUThreadsTest.cpp - runOnThreads ranges and placement ------------===//

#include "fuser/ExecutionEngine/CPUThreads.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

using namespace mlir::fuser;

namespace {

/// Busy for `duration`, so that a range takes long enough to share.
void spin(std::chrono::microseconds duration) {
  auto end = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < end) {
  }
}

TEST(CPUThreadsTest, EveryBlockRunsOnce) {
  for (unsigned threads : {1u, 2u, 7u}) {
    for (int64_t blocks : {0, 1, 2, 63, 1000}) {
      std::vector<std::atomic<int>> runs(blocks);
      runOnThreads(threads, blocks, [&](int64_t begin, int64_t end) {
        ASSERT_LE(0, begin);
        ASSERT_LE(begin, end);
        ASSERT_LE(end, blocks);
        for (int64_t block = begin; block < end; ++block) {
          ++runs[block];
          spin(std::chrono::microseconds(20));
        }
      });
      for (int64_t block = 0; block < blocks; ++block)
        EXPECT_EQ(runs[block].load(), 1)
            << "block " << block << " of " << blocks << ", " << threads
            << " threads";
    }
  }
}

#ifdef __linux__
/// The pool's threads keep off the caller's core: with the caller pinned
/// to one of the CPUs this process may run on, no range of another thread
/// runs there or may run there (the scheduler would otherwise now and then wake a pool
/// thread on the caller's core, which then runs the kernel at 1-thread
/// speed).
TEST(CPUThreadsTest, PoolThreadsKeepOffTheCallersCore) {
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
  if (CPU_COUNT(&allowed) < 2)
    GTEST_SKIP() << "this process may run on one CPU only";
  int callerCPU = 0;
  while (!CPU_ISSET(callerCPU, &allowed))
    ++callerCPU;
  cpu_set_t original;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof(original), &original),
            0);
  cpu_set_t pinned;
  CPU_ZERO(&pinned);
  CPU_SET(callerCPU, &pinned);
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof(pinned), &pinned), 0);

  std::thread::id caller = std::this_thread::get_id();
  std::mutex mutex;
  std::vector<int> poolCPUs;
  int rangesAllowedOnCallersCPU = 0;
  for (int run = 0; run < 5; ++run)
    runOnThreads(2, 256, [&](int64_t begin, int64_t end) {
      spin(std::chrono::microseconds(50) * (end - begin));
      if (std::this_thread::get_id() == caller)
        return;
      cpu_set_t mask;
      bool allowedThere =
          pthread_getaffinity_np(pthread_self(), sizeof(mask), &mask) != 0 ||
          CPU_ISSET(callerCPU, &mask);
      std::lock_guard<std::mutex> lock(mutex);
      poolCPUs.push_back(sched_getcpu());
      rangesAllowedOnCallersCPU += allowedThere;
    });
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof(original), &original),
            0);
  ASSERT_FALSE(poolCPUs.empty()) << "the runs were not shared";
  EXPECT_EQ(rangesAllowedOnCallersCPU, 0);
  for (int cpu : poolCPUs)
    EXPECT_NE(cpu, callerCPU);
}
#endif

} // namespace
