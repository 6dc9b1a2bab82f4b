//===- SegmentGraph.h - kernels as a graph of op groups ---------*- C++ -*-===//
//
// The partitioning phase of `fuser-segment` (docs/Segmentation.md): each
// grouped op starts as a kernel of its own; a priority queue of candidate
// merges (producer and consumer, and kernels that read a common tensor),
// keyed by the estimated time a merge saves (Order::BySaving) or by program
// order (Order::ByProgram), merges while the kernel templates take the
// union, no segment_set is crossed and no cycle forms.
// Then kernels that are still independent merge where a template takes
// them (one launch fewer). The graph keeps a topological order of its
// groups (Pearce-Kelly), so a cycle test only walks the groups between the
// two it merges, and every cost is a delta over the groups' reads.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_LIB_DIALECT_FUSER_TRANSFORMS_SEGMENTGRAPH_H
#define FUSER_LIB_DIALECT_FUSER_TRANSFORMS_SEGMENTGRAPH_H

#include "fuser/Analysis/KernelTemplates.h"
#include "fuser/Analysis/TargetInfo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace mlir::fuser {

class SegmentGraph {
public:
  /// Which candidate merges first.
  enum class Order {
    /// The largest estimated saving (ties: earlier in the program).
    BySaving,
    /// The pair earlier in the program, whatever it saves: a chain of
    /// producers and consumers forms before the siblings it feeds can take
    /// its members into kernels that would then wait for each other.
    ByProgram,
  };

  /// `ops`: the ops to partition, in program order. `getRoot` maps a value
  /// an op reads to the memory it reads (through meta ops that only view
  /// memory written anyway), or null where it reads none (a scalar).
  /// `returned`: the values the fusion returns.
  SegmentGraph(ArrayRef<Operation *> ops,
               llvm::function_ref<Value(Value)> getRoot,
               const DenseSet<Value> &returned, const TargetInfo &target,
               bool allowNormalization, Order order = Order::BySaving);

  /// Merges groups, in the graph's Order, until no candidate is left; then
  /// packs independent kernels.
  void partition();

  /// The groups, each in program order, ordered by their first op.
  std::vector<SmallVector<Operation *>> getGroups() const;

  /// The bytes the groups read, plus a write of each value one group
  /// computes for another that is not written anyway (returned, or viewed
  /// by a returned reshape): how two partitions of the same ops compare
  /// before views are planned.
  uint64_t estimateTrafficBytes() const;

private:
  /// The number of groups (kernels) partitioning left.
  unsigned getNumGroups() const;

  /// A failed merge with `group` at `version`. A pair that failed fails
  /// again while neither changes: the templates see only the two groups,
  /// and a cycle through others only gains paths as groups merge.
  struct Refusal {
    unsigned group, version;
    /// The union needs more shared memory than the target has
    /// (canBeKernelWith): this carries over as the groups grow
    /// (getTooLargeWithUnion).
    bool tooLarge;
  };
  static constexpr unsigned kMinPruneRefusalsAt = 16;

  struct Group {
    /// Members, in no order (sortedOps sorts them).
    SmallVector<Operation *> ops;
    /// Program position of the first member.
    unsigned firstPosition = 0;
    /// The memory the group reads that another group (or the caller)
    /// writes, and how many of it have each type (kept with `reads` by
    /// addRead and eraseRead).
    llvm::SmallDenseSet<Value, 4> reads;
    llvm::SmallDenseMap<Type, int64_t, 4> readTypes;
    /// Groups that read what this one writes, and groups it reads from.
    llvm::SmallDenseSet<unsigned, 4> successors, predecessors;
    SmallVector<Operation *, 0> segmentSets;
    /// Whether every kernel kind (pointwise, reduction, normalization)
    /// emits every member (canEmitInKernel): then the group is a pointwise
    /// kernel whatever its members, and joins any kernel.
    bool pointwise = true;
    /// Whether the group is a library op, which merges with no other.
    bool library = false;
    /// The kernel templates' view of the members, grown as groups merge;
    /// none while the group is pointwise and has not been grown by one
    /// that is not (the templates track nothing then), which keeps most
    /// groups small. A refused attempt leaves an empty one behind, kept for
    /// the next: `pointwise` and `numReductions`, not this, say what the
    /// group holds.
    std::unique_ptr<KernelTemplateBuilder> templates;
    unsigned numReductions = 0;
    /// Program position of the first reduction (none: the largest).
    unsigned firstReduction = std::numeric_limits<unsigned>::max();
    /// Topological index: an edge goes from a lower to a higher one.
    unsigned order = 0;
    /// Bumped on every merge: queue entries of older versions are stale.
    unsigned version = 0;
    /// Groups (at their versions) this one failed to merge with at its
    /// current version (cleared as it changes), pruned of stale records
    /// when they reach `pruneRefusalsAt`.
    SmallVector<Refusal, 0> refusals;
    unsigned pruneRefusalsAt = kMinPruneRefusalsAt;
    bool alive = true;
  };
  /// A pair of ops whose groups may merge, with the groups (and their
  /// versions) its saving was estimated for. A popped candidate whose ops
  /// now lie in other groups, or in changed ones, is estimated again: so a
  /// pair of readers of a common tensor stays a candidate as groups grow,
  /// without looking at every other reader.
  struct Candidate {
    uint64_t saving;
    unsigned firstPosition, secondPosition;
    unsigned lhsOp, rhsOp;
    unsigned lhs, rhs, lhsVersion, rhsVersion;
  };
  struct Worse {
    Order order;
    bool operator()(const Candidate &a, const Candidate &b) const;
  };

  unsigned groupOf(Operation *op) const;
  /// Program position of `op` among the partitioned ops (its op index).
  unsigned positionOf(Operation *op) const { return opIndex.lookup(op); }
  uint64_t bytesOf(Value value) const;
  void addRead(Group &group, Value value);
  void eraseRead(Group &group, Value value);
  /// Calls `fn` on each value group `reader` reads that group `writer`
  /// writes, walking the reader's reads or the writer's ops, the fewer.
  void forEachPassed(unsigned writer, unsigned reader,
                     llvm::function_ref<void(Value)> fn) const;
  /// The inputs of the union of two groups (each tensor once, none the
  /// other writes), counted by type, in time of the smaller group's reads.
  SmallVector<InputTypeCount> getUnionInputs(unsigned lhs, unsigned rhs) const;
  uint64_t estimateSaving(unsigned lhs, unsigned rhs) const;
  void enqueue(unsigned lhsOp, unsigned rhsOp);
  void enqueueNeighbours(unsigned group);
  bool crossesSegmentSet(unsigned lhs, unsigned rhs) const;
  ArrayRef<Operation *> sortedOps(unsigned group);
  /// Whether `op` belongs to group `lhs` or `rhs`.
  bool isInPair(Operation *op, unsigned lhs, unsigned rhs) const;
  bool leavesPair(Value value, unsigned lhs, unsigned rhs) const;
  /// The templates of the union of two groups where one takes it (none
  /// where it has no reduction); fails where none does, setting `tooLarge`
  /// where the union needs more shared memory than the target has.
  FailureOr<std::unique_ptr<KernelTemplateBuilder>>
  matchUnion(unsigned lhs, unsigned rhs, bool &tooLarge);
  /// Whether merging would create a cycle; else the groups between the two
  /// in topological order that must come before (`ancestors`) and after
  /// (`descendants`) the merged one.
  bool createsCycle(unsigned lhs, unsigned rhs,
                    SmallVectorImpl<unsigned> &ancestors,
                    SmallVectorImpl<unsigned> &descendants) const;
  /// Merges two groups where they may be one kernel, else records the
  /// refusal. With `carryRefusals`, the merged group keeps the refusals
  /// that stay true for it (getTooLargeWithUnion): the queue then skips
  /// them. Packing does without: it tries each pair in order, and what it
  /// joins are kernels the queue found no candidate between.
  bool tryMerge(unsigned lhs, unsigned rhs, bool carryRefusals);
  /// Whether `record` names a group at its current version.
  bool isCurrent(const Refusal &record) const;
  /// Whether groups `lhs` and `rhs`, at their versions, failed to merge
  /// (in time of the shorter of their records).
  bool isRefused(unsigned lhs, unsigned rhs) const;
  /// Whether joining group `added` to the union of `grown` and `other`
  /// keeps its rows (no earlier reduction) and its inputs (`added` writes
  /// nothing either reads): a union too large stays too large.
  bool keepsUnionGrowing(unsigned added, unsigned grown, unsigned other) const;
  /// Records that groups `lhs` and `rhs` failed to merge (in both).
  void addRefusal(unsigned lhs, unsigned rhs, bool tooLarge);
  /// The groups too large with `lhs` or `rhs` that stay too large with
  /// their union (before they merge).
  SmallVector<unsigned> getTooLargeWithUnion(unsigned lhs, unsigned rhs) const;
  unsigned merge(unsigned lhs, unsigned rhs, ArrayRef<unsigned> ancestors,
                 ArrayRef<unsigned> descendants);
  void packIndependentKernels();

  const TargetInfo &target;
  bool allowNormalization;
  Order order;
  const DenseSet<Value> &returned;
  /// The returned values and the values returned reshapes view.
  DenseSet<Value> writtenAnyway;
  uint64_t launchBytes;
  /// The ops, by op index (position order), and the group of each.
  SmallVector<Operation *> opsInOrder;
  SmallVector<unsigned> groupIndex;
  DenseMap<Operation *, unsigned> opIndex;
  std::vector<Group> groups;
  /// The ops that read each memory root, in program order.
  llvm::MapVector<Value, SmallVector<Operation *>> readers;
  std::vector<Candidate> queue;
  /// bytesOf's answers: a fusion has few types and many values.
  mutable DenseMap<Type, uint64_t> bytesByType;
};

} // namespace mlir::fuser

#endif // FUSER_LIB_DIALECT_FUSER_TRANSFORMS_SEGMENTGRAPH_H
