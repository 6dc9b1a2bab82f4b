//===- Reshape.h - canonical reshape construction ---------------*- C++ -*-===//
//
// view, squeeze and broadcast all keep the row-major element order, so any
// chain of them is one reshape, determined by the source and result types.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_RESHAPE_H
#define FUSER_DIALECT_FUSER_IR_RESHAPE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir::fuser {

/// The source dims a squeeze removes to turn `from` into `to`, when `to` is
/// `from` without some size-1 dims (matched greedily left to right).
std::optional<SmallVector<int64_t>> getSqueezedDims(ArrayRef<int64_t> from,
                                                    ArrayRef<int64_t> to);

/// True when `op` is a view, squeeze or broadcast.
bool isReshapeLike(Operation *op);

/// The canonical op reshaping `source` to `type` (same element count and
/// element type): `source` itself, a squeeze, a broadcast, or a view.
Value createReshape(OpBuilder &builder, Location loc, Value source,
                    RankedTensorType type);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_IR_RESHAPE_H
