//===- HostBlockCache.h - reuse of large host buffers -----------*- C++ -*-===//
//
// The storage of every Buffer. Large blocks are kept when freed and handed
// out again, as PyTorch's CUDA caching allocator does for device memory:
// a cached fusion called in a loop then writes its results into memory it
// has touched before. A fresh block from the system is mapped anew on every
// call, and its page faults (about 0.5 ms per MiB in the build machines'
// VMs) cost more than a memory-bound kernel that writes it
// (docs/Performance.md, "CPU fusions against torch.compile").
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_HOSTBLOCKCACHE_H
#define FUSER_EXECUTIONENGINE_HOSTBLOCKCACHE_H

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace mlir::fuser {

/// Every block is aligned to a cache line and an AVX-512 vector.
constexpr std::size_t kHostBlockAlignment = 64;
/// Blocks of at least this many bytes are cached when freed; smaller ones
/// go back to the system allocator, which keeps them itself.
constexpr std::size_t kHostBlockCacheMinBytes = std::size_t(1) << 20;
/// The most bytes the process's cache keeps.
constexpr std::size_t kHostBlockCacheMaxBytes = std::size_t(2) << 30;

/// What a cache has done since it was made.
struct HostBlockCacheCounters {
  /// Large allocations served from the cache and from the system.
  uint64_t hits = 0, misses = 0;
  /// Bytes held in freed blocks now.
  uint64_t cachedBytes = 0;
};

/// Freed blocks of at least kHostBlockCacheMinBytes, by size class (the
/// request rounded up to an eighth of the largest power of two it holds),
/// up to `maxCachedBytes`; past that, those freed longest ago go back to
/// the system. Thread-safe.
class HostBlockCache {
public:
  explicit HostBlockCache(std::size_t maxCachedBytes);
  ~HostBlockCache();
  HostBlockCache(const HostBlockCache &) = delete;
  HostBlockCache &operator=(const HostBlockCache &) = delete;

  /// `bytes` bytes, 64-byte aligned (2 MiB aligned and marked for huge
  /// pages from 2 MiB on): a freed block of the same size class when the
  /// cache holds one. Throws std::bad_alloc when the system has no memory
  /// (as operator new does).
  void *allocate(std::size_t bytes);
  /// Gives back a block from allocate(bytes).
  void deallocate(void *block, std::size_t bytes);
  HostBlockCacheCounters getCounters() const;
  /// Returns every cached block to the system.
  void release();

  /// The process's cache, which every Buffer uses (kHostBlockCacheMaxBytes).
  static HostBlockCache &getGlobal();

private:
  struct FreedBlock {
    void *block;
    std::size_t classBytes;
  };
  const std::size_t maxCachedBytes;
  mutable std::mutex mutex;
  /// The most recently freed last.
  std::vector<FreedBlock> blocks;
  HostBlockCacheCounters counters;
};

/// The global cache's allocate and deallocate.
inline void *allocateHostBlock(std::size_t bytes) {
  return HostBlockCache::getGlobal().allocate(bytes);
}
inline void deallocateHostBlock(void *block, std::size_t bytes) {
  HostBlockCache::getGlobal().deallocate(block, bytes);
}

} // namespace mlir::fuser

#endif // FUSER_EXECUTIONENGINE_HOSTBLOCKCACHE_H
