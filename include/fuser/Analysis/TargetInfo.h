//===- TargetInfo.h - the GPU a segmentation is costed for -----*- C++ -*-===//
//
// What segmentation and its cost model need to know of the chip: memory
// bandwidth and launch overhead (the estimated run time of a kernel), and
// the shared memory a block may hold (whether a normalization's rows fit on
// chip). One place for these numbers; the defaults are an H100/H200 (sm_90)
// as measured in shared/docs/GPU-NOTES.md.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_ANALYSIS_TARGETINFO_H
#define FUSER_ANALYSIS_TARGETINFO_H

#include <cstdint>

namespace mlir::fuser {

struct TargetInfo {
  /// Bytes per second a kernel that streams memory reaches: a
  /// device-to-device copy on an H200 (about 90% of the 4.8 TB/s spec).
  double bandwidthBytesPerSecond = 4.3e12;
  /// Seconds one kernel launch costs beyond its memory traffic (launch,
  /// ramp-up and tail of a short kernel).
  double launchOverheadSeconds = 3.0e-6;
  /// Shared memory a block may hold statically (sm_90 and every chip since
  /// sm_20): the budget of a normalization's rows or column blocks.
  int64_t sharedMemoryPerBlock = 48 * 1024;
  /// Streaming multiprocessors (H100/H200 SXM).
  int64_t smCount = 132;
};

} // namespace mlir::fuser

#endif // FUSER_ANALYSIS_TARGETINFO_H
