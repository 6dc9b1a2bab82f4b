//===- Schedule.h - kernel schedules of segments ----------------*- C++ -*-===//
//
// What `fuser-schedule` decides and the lowering reads: the heuristics that
// pick a #fuser.schedule for a kernel segment. The structures they read
// (reductions, normalizations) are the kernel templates' (KernelTemplates.h).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_TRANSFORMS_SCHEDULE_H
#define FUSER_DIALECT_FUSER_TRANSFORMS_SCHEDULE_H

#include "fuser/Analysis/KernelTemplates.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"

namespace mlir::fuser {

/// What the schedules are shaped for: a GPU by default; the CPU backend
/// asks for wider accesses and fewer threads per row (docs/Lowering.md,
/// "Schedules").
struct ScheduleTarget {
  /// Multiprocessors the grids should fill.
  int64_t smCount = 132;
  /// Bytes of the widest memory access of one thread: a GPU's 128-bit
  /// loads; 64 on the CPU, an AVX-512 register.
  int64_t accessBytes = 16;
  /// Threads of a block that splits rows (normalizations, inner
  /// reductions) at most. On the CPU a block's threads run one after the
  /// other and each folds its lanes at the end: fewer threads walking more
  /// vectors each fold less.
  int64_t maxRowThreads = 512;
  /// Independent partials a thread walking a row keeps per reduction
  /// (ScheduleAttr's `accumulators`): 1 on a GPU, whose other warps hide a
  /// chain's latency; 4 on the CPU, whose cores run a block's threads one
  /// after the other.
  int64_t accumulators = 1;
  /// Bytes of a vector register, which a pointwise thread's lanes of the
  /// f32 (or wider) values it computes fill at most: the CPU's 64 (zmm);
  /// 0, no bound (a GPU thread's lanes are registers of their own).
  int64_t registerBytes = 0;
};

/// The schedule the heuristics of docs/Lowering.md pick for kernel segment
/// `segment` on `target`; with `splitReductions` false, never a split
/// schedule.
ScheduleAttr chooseSchedule(SegmentOp segment, const ScheduleTarget &target,
                            bool splitReductions = true);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_TRANSFORMS_SCHEDULE_H
