//===- Schedule.h - kernel schedules of segments ----------------*- C++ -*-===//
//
// What `fuser-schedule` decides and the lowering reads: the heuristics that
// pick a #fuser.schedule for a kernel segment, and the structure of a
// segment's reductions that decides whether threads may split them.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_TRANSFORMS_SCHEDULE_H
#define FUSER_DIALECT_FUSER_TRANSFORMS_SCHEDULE_H

#include "fuser/Dialect/Fuser/IR/FuserOps.h"

#include <string>

namespace mlir::fuser {

/// The reductions of a kernel segment, as the schedules see them.
struct ReductionStructure {
  /// The segment's reductions; they share their source shape and reduced
  /// dims (fuser-segment rule 4).
  SmallVector<ReductionOp> reductions;
  /// Whether the innermost non-unit axis of the reductions' source is
  /// reduced (the inner_reduction schedule) rather than kept.
  bool reducesInnermost = false;
  /// Why the threads of a block cannot split the reduced axes (empty when
  /// they can): every op that uses a reduction result must map its elements
  /// one to one onto the reduction's outputs (elementwise ops on equal
  /// shapes, view, permute, squeeze, broadcast, set), the same way on every
  /// path, so that one block owns one reduction output and everything
  /// computed from it; and the block combines one 32-bit value (one
  /// reduction, not of f64 or i64), which is what gpu.all_reduce shuffles.
  std::string whyNotSplittable;
  /// Every value computed from the reductions, with the one-to-one meta ops
  /// between the reductions and it, innermost first (the index maps a block
  /// follows from its reduction output to the outputs computed from it).
  DenseMap<Value, SmallVector<Operation *>> metaChains;
};

/// Analyzes the reductions of `segment` (none for a pointwise segment).
ReductionStructure analyzeReductions(SegmentOp segment);

/// Shared memory a block may hold statically on sm_90 (and every chip since
/// sm_20): the budget of a normalization kernel's rows or column blocks
/// (docs/Lowering.md).
constexpr int64_t kNormalizationRowBudgetBytes = 48 * 1024;

/// A normalization: reductions whose results meet the un-reduced elements
/// again, in one kernel. An inner one reduces the innermost axes (rows: a
/// block per row); an outer one reduces axes other than the innermost
/// non-unit one (columns: a block per tile of consecutive kept elements,
/// thread groups sharing each column's reduced elements).
struct NormalizationStructure {
  /// The reductions in program order; later ones may read earlier ones.
  SmallVector<ReductionOp> reductions;
  /// Their common source shape and reduced dims (the trailing dims of an
  /// inner normalization).
  SmallVector<int64_t> sourceShape, dims;
  /// Whether the innermost non-unit axis is kept (an outer normalization).
  bool outer = false;
  /// Inner normalizations: the innermost source extent of every reduction,
  /// along which a thread's vector lanes run; 1 where the reductions' differ
  /// (rows spelled with other extent-1 axes), so one element at a time.
  int64_t laneExtent = 1;
  /// Rows (kept elements) and elements per row (reduced elements); in an
  /// outer normalization a kept element's "row" is its column of reduced
  /// elements.
  int64_t rows = 0, rowElements = 0;
  /// Outer normalizations: the columns (kept elements, consecutive along
  /// the innermost axis) a block covers and its threads (`tile` threads per
  /// group of reduced elements); the widest tile whose column block fits.
  int64_t tile = 1, threads = 1;
  /// Bytes of what a block holds on chip: one row of every input that
  /// varies along the row (inner), or the column block (`tile` columns of
  /// the reduced elements) of every input of the source shape (outer).
  int64_t rowBytes = 0;
  /// The shared memory the kernel may use at most: rowBytes plus the
  /// scratch of each block-wide combine (inner: gpu.all_reduce keeps one
  /// 32-bit value per warp, 128 bytes; outer: one 32-bit partial per
  /// thread, and a tile of each input broadcast along the reduced axes).
  int64_t sharedBytes = 0;
  /// The yielded values (by position) that depend on no reduction and are
  /// neither rows nor reduced rows: any shape. The kernel writes them beside
  /// the rows, in a grid-stride loop of all its threads (as a reduction
  /// kernel writes its outputs that do not need the reduction).
  SmallVector<unsigned> besideRows;
  /// Why the body is not a normalization (empty when it is).
  std::string whyNot;
};

/// Analyzes a segment body as a normalization: at least one reduction, all
/// with the same source shape and the same reduced dims (the trailing ones,
/// or ones that keep the innermost non-unit axis), 32-bit accumulation;
/// every op that uses a reduction result is elementwise on the source shape
/// or on the reduced shape (keepdim or not), or a broadcast from the one to
/// the other over the reduced dims; every yielded value computed from a
/// reduction has one of those shapes, or is a row with extent-1 axes dropped
/// that keeps the row's innermost extent (isSameShapeUpToUnitDims); the
/// others may have any shape (`besideRows`). Of an inner normalization,
/// "the same" and "those shapes" hold up to extent-1 axes (with several
/// rows, not for reduced values), and squeezes, broadcasts and views that
/// only change extent-1 axes may map them (docs/Segmentation.md). With
/// `splitReductions` false an outer normalization's columns
/// are each folded by one thread (threads == tile).
NormalizationStructure analyzeNormalization(Block &body,
                                            bool splitReductions = true);

/// Whether `shape` and `other` hold the same elements in the same order up
/// to extent-1 axes: their extents other than 1 agree, in order (an index of
/// one maps to the other by dropping unit axes and inserting zeros).
bool isSameShapeUpToUnitDims(ArrayRef<int64_t> shape, ArrayRef<int64_t> other);

/// Whether an input of `type` is broadcast along the reduced axes of outer
/// normalization `structure` (a per-column weight): the reduced shape, with
/// or without the reduced dims, or broadcastable to it. The kernel keeps a
/// tile's elements of each in shared memory (docs/Lowering.md).
bool isColumnInput(const NormalizationStructure &structure,
                   RankedTensorType type);

/// The widest vector (elements, a power of two) of accesses to `elementType`
/// that is at most 16 bytes and divides `extent`.
int64_t getVectorWidth(Type elementType, int64_t extent);

/// The number of elements each thread computes per step for `result` (a
/// segment output) under `schedule`: the schedule's vector width, halved
/// until it divides the innermost extent (1 for rank 0 and for split
/// schedules, whose block-level outputs are scalars).
int64_t getOutputVectorWidth(ScheduleAttr schedule, ShapedType result);

/// The schedule the heuristics of docs/Lowering.md pick for kernel segment
/// `segment` on a chip with `smCount` multiprocessors; with
/// `splitReductions` false, never a split schedule.
ScheduleAttr chooseSchedule(SegmentOp segment, int64_t smCount,
                            bool splitReductions = true);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_TRANSFORMS_SCHEDULE_H
