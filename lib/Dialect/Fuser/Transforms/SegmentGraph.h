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
#include <tuple>
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

private:
  /// The number of groups (kernels) partitioning left.
  unsigned getNumGroups() const;

  struct Group {
    /// Members, in no order (sortedOps sorts them).
    SmallVector<Operation *> ops;
    /// Program position of the first member.
    unsigned firstPosition = 0;
    /// The memory the group reads that another group (or the caller)
    /// writes, and how many of it have each type (kept with `reads` by
    /// addRead and eraseRead).
    DenseSet<Value> reads;
    llvm::SmallDenseMap<Type, int64_t, 4> readTypes;
    /// Groups that read what this one writes, and groups it reads from.
    DenseSet<unsigned> successors, predecessors;
    SmallVector<Operation *> segmentSets;
    /// The kernel templates' view of the members, grown as groups merge;
    /// none while the group has no reduction (the templates track nothing
    /// then), which keeps most groups small.
    std::unique_ptr<KernelTemplateBuilder> templates;
    unsigned numReductions = 0;
    /// Program position of the first reduction (none: the largest).
    unsigned firstReduction = std::numeric_limits<unsigned>::max();
    /// Topological index: an edge goes from a lower to a higher one.
    unsigned order = 0;
    /// Bumped on every merge: queue entries of older versions are stale.
    unsigned version = 0;
    /// Groups (at their versions) whose union with this one needs more
    /// shared memory than the target has (canBeKernelWith).
    SmallVector<std::pair<unsigned, unsigned>> tooLargeWith;
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
  /// where it has no reduction); fails where none does.
  FailureOr<std::unique_ptr<KernelTemplateBuilder>> matchUnion(unsigned lhs,
                                                               unsigned rhs);
  /// Whether merging would create a cycle; else the groups between the two
  /// in topological order that must come before (`ancestors`) and after
  /// (`descendants`) the merged one.
  bool createsCycle(unsigned lhs, unsigned rhs,
                    SmallVectorImpl<unsigned> &ancestors,
                    SmallVectorImpl<unsigned> &descendants) const;
  bool tryMerge(unsigned lhs, unsigned rhs);
  /// The key of `failed` for two groups at their versions.
  std::tuple<unsigned, unsigned, unsigned, unsigned>
  getFailedKey(unsigned lhs, unsigned rhs) const;
  /// Whether joining group `added` to the union of `grown` and `other`
  /// keeps its rows (no earlier reduction) and its inputs (`added` writes
  /// nothing either reads): a union too large stays too large.
  bool keepsUnionGrowing(unsigned added, unsigned grown, unsigned other) const;
  /// Records that groups `lhs` and `rhs` are too large together, dropping
  /// the records of groups merged since.
  void addTooLarge(unsigned lhs, unsigned rhs);
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
  uint64_t launchBytes;
  /// The group each op belongs to, by op index (position order).
  SmallVector<unsigned> groupIndex;
  DenseMap<Operation *, unsigned> opIndex;
  std::vector<Group> groups;
  /// The ops that read each memory root, in program order.
  llvm::MapVector<Value, SmallVector<Operation *>> readers;
  std::vector<Candidate> queue;
  /// Pairs of groups (at their versions) that failed to merge.
  DenseSet<std::tuple<unsigned, unsigned, unsigned, unsigned>> failed;
};

} // namespace mlir::fuser

#endif // FUSER_LIB_DIALECT_FUSER_TRANSFORMS_SEGMENTGRAPH_H
