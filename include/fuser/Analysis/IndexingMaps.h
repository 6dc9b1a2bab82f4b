//===- IndexingMaps.h - the operand index maps of each op -------*- C++ -*-===//
//
// For an op of the fuser dialect, the map from an index of its result to the
// index of each operand element that the result element reads, over the
// static shapes (after XLA's indexing_analysis: one output-to-input map per
// op). Meta ops state theirs through MetaOpInterface::getSourceIndexMap;
// this file adds the ops that read through more than one map:
//
//   elementwise  (d...) -> (d...), with the constant 0 in each operand dim
//                of size 1 that the result broadcasts; a scalar operand has
//                no index: a map with no results
//   meta op      getSourceIndexMap()
//   pad          the source where the result index lies in the copied box,
//                at index - low; the scalar value in the rest
//   cat          input k where the index along `dim` lies in its block, at
//                that index minus the block's start
//   reduction    (kept dims)[reduced dims] -> source index: one symbol per
//                reduced dim, ranging over its extent
//   full         the scalar, at every index
//   gather       index: the result index; source: the result index with
//                `dim` a runtime symbol, the index's element there
//   iota         start and step, at every index
//   matmul,      (result dims)[k] -> operand index: the operands' rows and
//   linear       columns with one symbol, the contraction dim over K; a
//                matmul's batch dims as an elementwise op broadcasts them,
//                linear's bias at the result's last dim
//   uniform,     their four scalars, at every index
//   normal
//
// The kernel emitter evaluates indices through these maps and derives its
// lane analysis from them; the kernel templates compare meta-op chains by
// their composed maps (docs/IndexMaps.md).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_ANALYSIS_INDEXINGMAPS_H
#define FUSER_ANALYSIS_INDEXINGMAPS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::fuser {

/// Where `condition` holds of a result index, the result element reads the
/// operand element at `map(index)`.
struct IndexMapPiece {
  /// From the result's dims (and the operand's symbols) to the operand's
  /// index; no results for a scalar operand.
  AffineMap map;
  /// Over the same dims and symbols; null where the piece holds at every
  /// index of the result.
  IntegerSet condition;
};

/// How an op reads one of its operands.
struct OperandIndexMap {
  /// The pieces in which the operand is read; they may overlap only where
  /// they agree (the pad value's pieces). An operand that no result element
  /// reads (the pad value of a pad with no padding) has none.
  SmallVector<IndexMapPiece, 1> pieces;
  /// Symbol `k` of the maps ranges over `[0, symbolExtents[k])`, and the
  /// result element combines the operand elements at all of them (the
  /// reduced dims of a reduction, in order, or the contraction dim of a
  /// matmul or linear). Empty for the other ops.
  SmallVector<int64_t> symbolExtents;

  /// An index that is itself an element of another operand (gather, after
  /// XLA's RTVar): the map's symbols after those of symbolExtents, one per
  /// entry, each the element of operand `operand` at `map` of the result
  /// index.
  struct RuntimeSymbol {
    unsigned operand;
    AffineMap map;
  };
  SmallVector<RuntimeSymbol, 1> runtimeSymbols;
};

/// The index map of each operand of `op`, in operand order, or failure for
/// an op that reads its operands through no index map (segments, ops of
/// other dialects).
FailureOr<SmallVector<OperandIndexMap>> getOperandIndexMaps(Operation *op);

/// The map from an index of a result of shape `resultShape` to the element
/// of an operand of shape `operandShape` that it reads by broadcasting: the
/// same index, with 0 in each dim where the extents differ (the operand's
/// is 1). The map of an elementwise op's tensor operands.
AffineMap getBroadcastIndexMap(MLIRContext *context,
                               ArrayRef<int64_t> operandShape,
                               ArrayRef<int64_t> resultShape);

/// For a meta op that copies each source element to exactly one result
/// element (view, permute, squeeze, broadcast, set, segment_set): the map
/// from a source index to the result index that copies it, the inverse of
/// getSourceIndexMap. Failure for other ops (expand and slice copy a source
/// element to many result elements or to none).
FailureOr<AffineMap> getResultIndexMap(Operation *op);

} // namespace mlir::fuser

#endif // FUSER_ANALYSIS_INDEXINGMAPS_H
