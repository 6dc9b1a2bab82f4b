//===- MemoryReport.h - kernel memory behaviour measured on the CPU -*- C++ -*-===//
//
// `fuser-run --backend cpu --memory-report`: the kernels of a fusion run on
// the CPU backend with every global memory access recorded (block, thread,
// static instruction, address, width), and the records turned into what a
// GPU would see: launch geometry and chip fill, bytes loaded and stored
// against the minimum, 32-byte sectors per warp-wide instruction against the
// fewest possible, loads and stores per thread and their widths. ptxas
// (`-v`, on the PTX the GPU half of the lowering makes of the same kernel
// loops) adds registers, spills, local and shared memory, and so occupancy.
//
// Definitions and the sm_90 limits used: docs/Performance.md.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_MEMORYREPORT_H
#define FUSER_EXECUTIONENGINE_MEMORYREPORT_H

#include "fuser/ExecutionEngine/Backend.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::fuser {

/// Per-SM limits the occupancy is computed with (sm_90, H200 by default;
/// docs/Performance.md and shared/docs/GPU-NOTES.md).
struct GPULimits {
  std::string chip = "sm_90";
  int64_t smCount = 132;
  int64_t warpSize = 32;
  int64_t maxThreadsPerSM = 2048;
  int64_t maxBlocksPerSM = 32;
  int64_t registersPerSM = 65536;
  /// Registers are allocated per warp in units of this many.
  int64_t registerAllocationUnit = 256;
  int64_t maxRegistersPerThread = 255;
  /// Shared memory per SM usable by blocks (228 KiB), allocated in units of
  /// 128 bytes, plus 1 KiB the system reserves per resident block.
  int64_t sharedMemoryPerSM = 228 * 1024;
  int64_t sharedAllocationUnit = 128;
  int64_t sharedReservedPerBlock = 1024;
};

struct MemoryReportOptions {
  BackendOptions backend;
  /// CUDA toolkit root: bin/ptxas and nvvm/libdevice. Empty: no ptxas.
  std::string toolkit = "/usr/local/cuda";
  GPULimits limits;
  /// Most records kept per kernel; kernels that would make more are
  /// sampled by blocks (every n-th block), and say so.
  uint64_t maxRecordsPerKernel = 32ull << 20;
};

/// One static global-memory instruction of a kernel.
struct InstructionReport {
  unsigned id = 0;
  bool isStore = false;
  /// Bytes one thread accesses per execution (a vector: all its lanes).
  unsigned width = 0;
  /// memref.load, vector.store, ...
  std::string op;
  /// argN (a fusion input), outN (an output), tmpN (an intermediate).
  std::string buffer;
  /// Executed outside the thread loop of the nest (once per block on the
  /// CPU, by every thread of the block on the GPU).
  bool blockLevel = false;
  /// Executions by GPU threads (block-level ones counted per thread).
  uint64_t executions = 0;
  uint64_t bytes = 0;
  uint64_t warpInstructions = 0;
  uint64_t sectors = 0;
  uint64_t minSectors = 0;
};

struct PtxasReport {
  /// Whether ptxas ran on this kernel's PTX; else `note` says why not.
  bool measured = false;
  std::string note;
  unsigned registers = 0;
  uint64_t spillStores = 0, spillLoads = 0;
  uint64_t stackFrame = 0, localBytes = 0, sharedBytes = 0;
  unsigned barriers = 0;
};

struct OccupancyReport {
  int64_t blocksPerSM = 0;
  int64_t threadsPerSM = 0;
  double occupancy = 0; // resident warps / max warps per SM
  /// What limits blocksPerSM: threads, blocks, registers, shared memory.
  std::string limiter;
  /// Whether registers and shared memory were known (ptxas ran).
  bool fromPtxas = false;
  double waves = 0; // grid / (blocksPerSM * smCount)
};

struct KernelReport {
  std::string name;
  /// "loops" (a kernel nest of the lowering) or "copy" (the copy kernel the
  /// GPU half makes of a strided alias copy).
  std::string kind;
  int64_t grid = 0, block = 0;
  /// 1 when every block was recorded, n when every n-th block was (the
  /// figures below are then scaled by n).
  uint64_t sampleStride = 1;
  uint64_t records = 0;
  uint64_t loadBytes = 0, storeBytes = 0;
  /// Distinct bytes read and written: each read once, each written once.
  uint64_t minLoadBytes = 0, minStoreBytes = 0;
  uint64_t loadSectors = 0, loadMinSectors = 0;
  uint64_t storeSectors = 0, storeMinSectors = 0;
  double loadsPerThread = 0, storesPerThread = 0;
  /// width in bytes -> instructions per thread of that width.
  std::map<unsigned, double> loadWidths, storeWidths;
  std::vector<InstructionReport> instructions;
  PtxasReport ptxas;
  OccupancyReport occupancy;

  double loadEfficiency() const {
    return loadSectors ? double(loadMinSectors) / loadSectors : 1.0;
  }
  double storeEfficiency() const {
    return storeSectors ? double(storeMinSectors) / storeSectors : 1.0;
  }
};

/// A library call (a `library` segment: gemm, grouped gemm, attention). A
/// library computes it, not an instrumented kernel: its figures are its
/// op's, each operand read once and each result written once.
struct LibraryCallReport {
  /// fuser.linear, ...
  std::string op;
  /// Its operand and result types, as the op prints them.
  std::string signature;
  uint64_t readBytes = 0, writtenBytes = 0;
  /// LibraryOpInterface::getFlopCount: 2 per multiply-add (a grouped_mm's
  /// counts every row, column or contraction element in a group).
  int64_t flops = 0;

  double flopsPerByte() const {
    uint64_t bytes = readBytes + writtenBytes;
    return bytes ? double(flops) / double(bytes) : 0.0;
  }
};

struct MemoryReport {
  std::string fusion;
  GPULimits limits;
  std::string ptxasPath;
  /// Set when no kernel went through ptxas: why (no toolkit, no PTX).
  std::string ptxasNote;
  std::vector<KernelReport> kernels;
  /// Not among the kernels, nor in movedBytes and fusionMinBytes.
  std::vector<LibraryCallReport> libraryCalls;
  /// Identity-layout copies of alias outputs (a memcpy on the GPU, no
  /// kernel): bytes read (= bytes written).
  uint64_t memcpyBytes = 0;
  /// Bytes the fusion must move: each byte of its inputs that a kernel
  /// reads, once, and each byte of its outputs, once (memcpys included).
  uint64_t fusionMinBytes = 0;
  /// What the results of the instrumented run hash to (fnv1a64), to check
  /// that recording changed nothing.
  std::vector<uint64_t> resultHashes;

  uint64_t movedBytes() const {
    uint64_t total = 2 * memcpyBytes;
    for (const KernelReport &k : kernels)
      total += k.loadBytes + k.storeBytes;
    return total;
  }
};

/// Lowers `func` as the CPU backend does, instruments its kernels, runs
/// them on `inputs` and measures; then ptxas on the PTX of the same
/// kernels. Errors are diagnostics; a missing toolkit is not an error (the
/// report says so).
FailureOr<MemoryReport> measureMemory(func::FuncOp func,
                                      ArrayRef<Buffer> inputs,
                                      const MemoryReportOptions &options);

/// Occupancy of `block` threads per block on `limits` with `ptxas`'s
/// registers and shared memory (when measured).
OccupancyReport computeOccupancy(int64_t grid, int64_t block,
                                 const PtxasReport &ptxas,
                                 const GPULimits &limits);

void printMemoryReport(llvm::raw_ostream &os, const MemoryReport &report);
void printMemoryReportJson(llvm::raw_ostream &os, const MemoryReport &report);

} // namespace mlir::fuser

#endif // FUSER_EXECUTIONENGINE_MEMORYREPORT_H
