//===- FuserAttrs.cpp - fuser attribute verifiers -------------------------===//

#include "fuser/Dialect/Fuser/IR/FuserOps.h"

using namespace mlir;
using namespace mlir::fuser;

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ScheduleKind kind, int64_t vector,
                                   int64_t threads, int64_t split,
                                   int64_t blocks, int64_t accumulators) {
  if (vector < 1 || threads < 1 || split < 1 || blocks < 1)
    return emitError() << "schedule parameters must be positive, got vector = "
                       << vector << ", threads = " << threads
                       << ", split = " << split << ", blocks = " << blocks;
  // The limits of every CUDA chip since sm_20.
  if (threads > 1024)
    return emitError() << "a block holds at most 1024 threads, got " << threads;
  if (threads % split != 0)
    return emitError() << "split (" << split
                       << ") must divide the threads per block (" << threads
                       << ")";
  // An outer normalization tiles its columns like a tiled split outer
  // reduction (docs/Lowering.md, "Outer normalizations").
  if (kind == ScheduleKind::Normalization && split != threads && vector != 1)
    return emitError() << "a normalization schedule shares each row among "
                          "all threads of its block (split = threads) or "
                          "covers threads / split columns of an outer "
                          "normalization one element per thread at a time "
                          "(vector = 1), got vector = "
                       << vector << ", threads = " << threads
                       << ", split = " << split;
  // Only an outer reduction tiles its outputs (docs/Lowering.md, "Tiled
  // split outer reductions"): an inner reduction's split block covers one.
  if (kind == ScheduleKind::InnerReduction && split != 1 && split != threads)
    return emitError() << "a split inner_reduction schedule gives each block "
                          "one output: split must be 1 or threads";
  if (kind == ScheduleKind::OuterReduction && split != 1 && vector != 1)
    return emitError() << "a split outer_reduction schedule reads one "
                          "element per thread at a time: vector must be 1, "
                          "got "
                       << vector;
  if (kind == ScheduleKind::Pointwise && split != 1)
    return emitError() << "a pointwise schedule has no reduction to split";
  if (accumulators < 1)
    return emitError() << "accumulators must be positive, got "
                       << accumulators;
  // Only a thread that walks a row keeps several partials of it.
  bool walksRows = (kind == ScheduleKind::InnerReduction ||
                    kind == ScheduleKind::Normalization) &&
                   split == threads && threads > 1;
  if (accumulators != 1 && !walksRows)
    return emitError() << "accumulators (" << accumulators
                       << ") need a split inner_reduction or an inner "
                          "normalization (split = threads > 1)";
  return success();
}
