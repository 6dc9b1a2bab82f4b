//===- Segmenter.h - the phases of fuser-segment ---------------*- C++ -*-===//
//
// The state `fuser-segment` keeps while it segments one fusion, shared by
// its phases (docs/Segmentation.md): classifying and partitioning
// (Segment.cpp, with SegmentGraph), planning views and copies
// (SegmentViews.cpp), recomputing values in their readers
// (SegmentRecompute.cpp), and materializing the segments (Segment.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_LIB_DIALECT_FUSER_TRANSFORMS_SEGMENTER_H
#define FUSER_LIB_DIALECT_FUSER_TRANSFORMS_SEGMENTER_H

#include "fuser/Analysis/TargetInfo.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/StridedView.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <optional>
#include <vector>

namespace mlir::fuser::segmentation {

/// Planned segments at most for which fuser-segment merges kernels that
/// recomputing made independent (mergeIndependentKernels is cubic in them).
constexpr size_t kMaxKernelsMergedAfterRecompute = 16;

/// How segmentation treats an op of the fusion.
enum class OpRole {
  /// Scalar constants and scalar arithmetic on them: cloned into every
  /// segment that uses them.
  Replicated,
  /// A meta op whose result is a view of memory that is written anyway (a
  /// function argument, a segment_set result, a kernel output): cloned into
  /// every segment that reads it, so it never costs a kernel or a write.
  View,
  /// Everything else: a member of exactly one kernel group.
  Grouped,
};

/// Ops that will become one kernel (a group of the partition).
struct KernelGroup {
  SmallVector<Operation *> ops;
};

/// A segment to create: its kind, the ops it owns, and (once planned) what
/// it reads and writes.
struct PlannedSegment {
  SegmentKind kind;
  /// Ops whose results this segment defines, in program order.
  SmallVector<Operation *> members;
  /// Members plus the Replicated and View ops they need, in program order.
  SmallVector<Operation *> opsToClone;
  SmallVector<Value> inputs;
  SmallVector<Value> outputs;
  unsigned firstPosition = 0;
};

/// The bytes of a value, saturated (a count beyond 64 bits compares as the
/// largest).
uint64_t bytesOf(Value value);

/// The bytes of `value` that a kernel reading it only under `slice` (nullptr:
/// not under a slice) loads: what the slice covers (as FusionTraffic counts).
uint64_t readBytesUnder(Value value, Operation *slice);

/// The slice that `operand` of `def` is read under, where `def`'s result is
/// read under `slice`: `def` itself if it is a slice; else `slice` where
/// `def` keeps every element of the operand (a meta op of its size or an
/// elementwise op of its element count); else none.
Operation *getSliceUnder(Operation *def, Value operand, Operation *slice);

/// The view a chain of meta ops (`chain`, from its result back to the op
/// that reads `source`) makes of `source` written contiguously, if strided.
std::optional<StridedView> getChainView(Value source,
                                        ArrayRef<Operation *> chain);

/// Segments one fusion (`run`): the phases in order, on state they share.
class Segmenter {
public:
  /// Groups from the merge queue (SegmentGraph), every kernel checked by
  /// the kernel templates on `target`.
  Segmenter(func::FuncOp func, const TargetInfo &target,
            bool allowNormalization)
      : func(func), body(func.getBody().front()), target(target),
        allowNormalization(allowNormalization) {}

  LogicalResult run();

private:
  LogicalResult classifyOps();
  void viewReturnedExpansions();
  /// The memory under `value` through View ops (itself if it is no view).
  Value getViewRoot(Value value) const;
  /// getViewRoot of a tensor; null for a scalar.
  Value getRoot(Value value) const;
  void partitionGroups();
  bool isOneKernel(ArrayRef<Operation *> members) const;
  /// Whether a template takes the ops of two planned segments as one kernel.
  bool isOneKernel(const PlannedSegment &lhs, const PlannedSegment &rhs) const;
  bool isInGroup(Operation *op, unsigned group) const;
  void peelViews(unsigned group);
  void materializeViewedValues(unsigned group,
                               const DenseSet<Operation *> &wanted);
  std::optional<StridedView> getView(Value value);
  std::optional<StridedView> getViewOfMaterialized(Value source,
                                                   unsigned group);
  std::vector<PlannedSegment> planSegments();
  void mergeIndependentKernels(std::vector<PlannedSegment> &segments);
  void peelWrittenViews(std::vector<PlannedSegment> &segments);
  void inlineSmallAliases(std::vector<PlannedSegment> &segments);
  /// Sorts ops (results) in program order; each is in the body once.
  void sortByPosition(SmallVectorImpl<Operation *> &ops) const;
  void sortByPosition(SmallVectorImpl<Value> &values) const;
  void collectInputs(PlannedSegment &segment);
  SetVector<Value> collectInputs(PlannedSegment &segment,
                                 const DenseSet<Value> *recomputeFrom,
                                 DenseSet<Value> &readThroughSegmentSet);
  std::optional<SetVector<Value>>
  getRecomputeSources(Value value, Operation *readUnder,
                      const DenseSet<Value> &readAnyway,
                      const DenseSet<Value> &readThrough);
  LogicalResult materialize(std::vector<PlannedSegment> &segments);

  func::FuncOp func;
  Block &body;
  const TargetInfo &target;
  bool allowNormalization = true;
  DenseMap<Operation *, unsigned> position;
  DenseMap<Operation *, OpRole> roles;
  DenseMap<Operation *, unsigned> groupOf;
  std::vector<KernelGroup> groups;
  DenseMap<Value, std::optional<StridedView>> viewCache;
  /// Kernel values written although only views of them leave the kernel:
  /// writing them once costs no more than writing each view.
  DenseSet<Value> materializedForViews;
  /// Values that returned meta-op trees view (viewReturnedExpansions): their
  /// kernels write them contiguously, as the trees' views assume, so they
  /// never become views themselves.
  DenseSet<Value> viewedByReturnedTrees;
  /// The values the function returns: a kernel writes them for the
  /// return, so reading them adds no write.
  DenseSet<Value> returned;
  /// The values alias segments view (planSegments): written for the
  /// aliases, so reading them adds no write either.
  DenseSet<Value> viewedByAliases;
};

} // namespace mlir::fuser::segmentation

#endif // FUSER_LIB_DIALECT_FUSER_TRANSFORMS_SEGMENTER_H
