//===- HostBlockCache.cpp - reuse of large host buffers -------------------===//

#include "fuser/ExecutionEngine/HostBlockCache.h"

#include <sanitizer/asan_interface.h>

#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

using namespace mlir::fuser;

/// Blocks this large are aligned to a transparent huge page and marked for
/// huge pages: a first touch then faults once per 2 MiB, not per 4 KiB.
static constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;

/// The bytes a large request is served with: rounded up to an eighth of the
/// largest power of two it holds, so that requests of nearly the same size
/// share freed blocks and at most 1/8 is wasted.
static std::size_t getSizeClass(std::size_t bytes) {
  std::size_t power = kHostBlockCacheMinBytes;
  while (power <= bytes / 2)
    power *= 2;
  std::size_t step = power / 8;
  return (bytes + step - 1) / step * step;
}

static std::align_val_t getAlignment(std::size_t bytes) {
  return std::align_val_t(bytes >= kHugePageBytes ? kHugePageBytes
                                                  : kHostBlockAlignment);
}

static void *allocateFromSystem(std::size_t bytes) {
  void *block = ::operator new(bytes, getAlignment(bytes));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // A hint: where the kernel has no huge pages, 4 KiB pages serve as before.
  if (bytes >= kHugePageBytes)
    (void)madvise(block, bytes, MADV_HUGEPAGE);
#endif
  return block;
}

static void freeToSystem(void *block, std::size_t bytes) {
  ASAN_UNPOISON_MEMORY_REGION(block, bytes);
  ::operator delete(block, getAlignment(bytes));
}

HostBlockCache::HostBlockCache(std::size_t maxCachedBytes)
    : maxCachedBytes(maxCachedBytes) {}

HostBlockCache::~HostBlockCache() { release(); }

HostBlockCache &HostBlockCache::getGlobal() {
  // Never destroyed: results may be freed by other static destructors (a
  // Python module's arrays at exit) after this one would have run.
  static HostBlockCache *cache = new HostBlockCache(kHostBlockCacheMaxBytes);
  return *cache;
}

void *HostBlockCache::allocate(std::size_t bytes) {
  if (bytes < kHostBlockCacheMinBytes)
    return ::operator new(bytes, std::align_val_t(kHostBlockAlignment));
  std::size_t classBytes = getSizeClass(bytes);
  {
    std::lock_guard<std::mutex> lock(mutex);
    // The most recently freed block of the class: likeliest in the caches.
    for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
      if (it->classBytes != classBytes)
        continue;
      void *block = it->block;
      ASAN_UNPOISON_MEMORY_REGION(block, classBytes);
      blocks.erase(std::next(it).base());
      counters.cachedBytes -= classBytes;
      ++counters.hits;
      return block;
    }
    ++counters.misses;
  }
  return allocateFromSystem(classBytes);
}

void HostBlockCache::deallocate(void *block, std::size_t bytes) {
  if (bytes < kHostBlockCacheMinBytes) {
    ::operator delete(block, std::align_val_t(kHostBlockAlignment));
    return;
  }
  std::size_t classBytes = getSizeClass(bytes);
  std::vector<FreedBlock> evicted;
  {
    std::lock_guard<std::mutex> lock(mutex);
    // Under AddressSanitizer a use of a cached block is a use after free.
    ASAN_POISON_MEMORY_REGION(block, classBytes);
    blocks.push_back({block, classBytes});
    counters.cachedBytes += classBytes;
    std::size_t oldest = 0;
    while (counters.cachedBytes > maxCachedBytes) {
      evicted.push_back(blocks[oldest]);
      counters.cachedBytes -= blocks[oldest].classBytes;
      ++oldest;
    }
    blocks.erase(blocks.begin(), blocks.begin() + oldest);
  }
  for (FreedBlock freed : evicted)
    freeToSystem(freed.block, freed.classBytes);
}

HostBlockCacheCounters HostBlockCache::getCounters() const {
  std::lock_guard<std::mutex> lock(mutex);
  return counters;
}

void HostBlockCache::release() {
  std::vector<FreedBlock> released;
  {
    std::lock_guard<std::mutex> lock(mutex);
    released.swap(blocks);
    counters.cachedBytes = 0;
  }
  for (FreedBlock freed : released)
    freeToSystem(freed.block, freed.classBytes);
}
