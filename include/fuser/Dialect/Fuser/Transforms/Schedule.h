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

/// The schedule the heuristics of docs/Lowering.md pick for kernel segment
/// `segment` on a chip with `smCount` multiprocessors; with
/// `splitReductions` false, never a split schedule.
ScheduleAttr chooseSchedule(SegmentOp segment, int64_t smCount,
                            bool splitReductions = true);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_TRANSFORMS_SCHEDULE_H
