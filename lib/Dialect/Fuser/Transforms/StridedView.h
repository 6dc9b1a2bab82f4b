//===- StridedView.h - meta ops as strided views of memory ------*- C++ -*-===//
//
// An alias segment launches no kernel, so each of its results must be a
// strided view (sizes, strides and offset, in elements) of the memory of one
// of its inputs. These helpers follow a chain of meta ops from a contiguous
// row-major tensor and say whether, and as which view, its result can alias
// that tensor.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_LIB_DIALECT_FUSER_TRANSFORMS_STRIDEDVIEW_H
#define FUSER_LIB_DIALECT_FUSER_TRANSFORMS_STRIDEDVIEW_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::fuser {

struct StridedView {
  SmallVector<int64_t> sizes;
  SmallVector<int64_t> strides;
  int64_t offset = 0;

  /// The row-major layout of a freshly written tensor of `shape`.
  static StridedView getContiguous(ArrayRef<int64_t> shape);
};

/// The view of the result of meta op `op` when its source is laid out as
/// `source`, or nullopt when the result is not a strided view of the same
/// memory (e.g. a view that merges dims a permute made non-adjacent) or `op`
/// is not a meta op.
std::optional<StridedView> applyMetaOp(Operation *op,
                                       const StridedView &source);

} // namespace mlir::fuser

#endif // FUSER_LIB_DIALECT_FUSER_TRANSFORMS_STRIDEDVIEW_H
