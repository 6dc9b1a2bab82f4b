//===- HostBlockCacheTest.cpp - reuse of large host buffers ---------------===//
//
// HostBlockCache hands a freed large block out again for a request of the
// same size class, keeps at most its byte limit (the blocks freed longest
// ago leave first) and leaves small blocks to the system allocator.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/HostBlockCache.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>

using namespace mlir::fuser;

namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;

bool isAligned(const void *block, std::size_t alignment) {
  return reinterpret_cast<std::uintptr_t>(block) % alignment == 0;
}

TEST(HostBlockCache, ReusesAFreedBlockOfTheSameClass) {
  HostBlockCache cache(64 * kMiB);
  // Both round up to 3.25 MiB (eighths of 2 MiB).
  std::size_t bytes = 3 * kMiB + 1000, classBytes = 3 * kMiB + kMiB / 4;
  void *first = cache.allocate(bytes);
  std::memset(first, 1, bytes);
  cache.deallocate(first, bytes);
  EXPECT_EQ(cache.getCounters().cachedBytes, classBytes);
  void *second = cache.allocate(bytes + 1000);
  EXPECT_EQ(second, first);
  HostBlockCacheCounters counters = cache.getCounters();
  EXPECT_EQ(counters.hits, 1u);
  EXPECT_EQ(counters.misses, 1u);
  EXPECT_EQ(counters.cachedBytes, 0u);
  cache.deallocate(second, bytes + 1000);
}

TEST(HostBlockCache, AnotherClassGetsAnotherBlock) {
  HostBlockCache cache(64 * kMiB);
  void *first = cache.allocate(3 * kMiB);
  cache.deallocate(first, 3 * kMiB);
  void *larger = cache.allocate(4 * kMiB);
  EXPECT_NE(larger, first);
  EXPECT_EQ(cache.getCounters().hits, 0u);
  EXPECT_EQ(cache.getCounters().cachedBytes, 3 * kMiB);
  cache.deallocate(larger, 4 * kMiB);
  EXPECT_EQ(cache.getCounters().cachedBytes, 7 * kMiB);
}

TEST(HostBlockCache, KeepsItsLimitDroppingTheOldestFirst) {
  HostBlockCache cache(8 * kMiB);
  void *a = cache.allocate(4 * kMiB);
  void *b = cache.allocate(4 * kMiB);
  void *c = cache.allocate(4 * kMiB);
  cache.deallocate(a, 4 * kMiB);
  cache.deallocate(b, 4 * kMiB);
  cache.deallocate(c, 4 * kMiB);
  EXPECT_EQ(cache.getCounters().cachedBytes, 8 * kMiB);
  // a left; c, freed last, comes first, then b.
  void *first = cache.allocate(4 * kMiB);
  void *second = cache.allocate(4 * kMiB);
  EXPECT_EQ(first, c);
  EXPECT_EQ(second, b);
  EXPECT_EQ(cache.getCounters().hits, 2u);
  cache.deallocate(first, 4 * kMiB);
  cache.deallocate(second, 4 * kMiB);
  cache.release();
  EXPECT_EQ(cache.getCounters().cachedBytes, 0u);
}

TEST(HostBlockCache, LeavesSmallBlocksToTheSystem) {
  HostBlockCache cache(64 * kMiB);
  void *small = cache.allocate(kHostBlockCacheMinBytes - 1);
  EXPECT_TRUE(isAligned(small, kHostBlockAlignment));
  cache.deallocate(small, kHostBlockCacheMinBytes - 1);
  HostBlockCacheCounters counters = cache.getCounters();
  EXPECT_EQ(counters.cachedBytes, 0u);
  EXPECT_EQ(counters.hits + counters.misses, 0u);
}

TEST(HostBlockCache, Alignment) {
  HostBlockCache cache(64 * kMiB);
  void *medium = cache.allocate(kMiB + 64);
  void *large = cache.allocate(5 * kMiB);
  EXPECT_TRUE(isAligned(medium, kHostBlockAlignment));
  // From 2 MiB on, a huge page's alignment.
  EXPECT_TRUE(isAligned(large, 2 * kMiB));
  cache.deallocate(medium, kMiB + 64);
  cache.deallocate(large, 5 * kMiB);
}

} // namespace
