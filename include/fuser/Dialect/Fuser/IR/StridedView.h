//===- StridedView.h - meta ops as strided views of memory ------*- C++ -*-===//
//
// The layout semantics of the meta ops. A StridedView says where each
// element of a tensor lies in a buffer: element `index` is at
// `offset + sum over d of index[d] * strides[d]` (in elements). Starting from
// the contiguous row-major layout of a tensor, applyMetaOp follows a meta op
// to the view of its result in the same memory, or says that the result is
// not a strided view of it.
//
// Users: the segmenter (an alias segment launches no kernel, so each of its
// results must be a strided view of one of its inputs), the segment report
// (which prints those views), and the reference interpreter, which copies
// the elements of every permute, slice, expand, pad and cat through these
// views, so that the reference checks the layout code that a lowering uses.
//
// The meta ops' index maps (MetaOpInterface::getSourceIndexMap,
// docs/IndexMaps.md) state the same semantics on indices instead of memory;
// unittests/Dialect/Fuser/IndexMapsTest.cpp ties the two.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_STRIDEDVIEW_H
#define FUSER_DIALECT_FUSER_IR_STRIDEDVIEW_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::fuser {

/// Sizes, strides and offset, in elements, of a tensor laid out in a buffer.
struct StridedView {
  SmallVector<int64_t> sizes;
  SmallVector<int64_t> strides;
  int64_t offset = 0;

  /// The row-major layout of a freshly written tensor of `shape`.
  static StridedView getContiguous(ArrayRef<int64_t> shape);

  /// Where element `index` (of this view's rank) lies, in elements.
  int64_t getLocation(ArrayRef<int64_t> index) const;

  /// The elements `offsets[d] + i * steps[d]` for `i` in `[0, sizes[d])` of
  /// each dim `d`: what a slice reads, or where pad and cat write one
  /// operand into their result. All three have this view's rank.
  StridedView getSubview(ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
                         ArrayRef<int64_t> steps) const;

  /// This view read at every index of `shape` (of the same rank), where
  /// each dim of size 1 that `shape` makes larger repeats its one element
  /// (stride 0): what `expand` and implicit broadcasting read.
  StridedView expandTo(ArrayRef<int64_t> shape) const;

  bool operator==(const StridedView &other) const {
    return sizes == other.sizes && strides == other.strides &&
           offset == other.offset;
  }
};

/// The view of the result of meta op `op` when its source is laid out as
/// `source`, or nullopt when the result is not a strided view of the same
/// memory (e.g. a view that merges dims a permute made non-adjacent) or `op`
/// is not a meta op.
std::optional<StridedView> applyMetaOp(Operation *op,
                                       const StridedView &source);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_IR_STRIDEDVIEW_H
