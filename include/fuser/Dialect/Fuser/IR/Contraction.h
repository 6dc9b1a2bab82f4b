//===- Contraction.h - the batched gemm of a library op ---------*- C++ -*-===//
//
// fuser.matmul and fuser.linear as one shape: a batch of gemms
// C[M x N] = A[M x K] * B, over operands stored row-major, B being K x N
// or, transposed, N x K (linear's weight). The interpreter, the flop count
// and the BLAS lowering read this one statement of torch.matmul's and
// F.linear's shapes; type inference (FuserOps.cpp) checks them.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_CONTRACTION_H
#define FUSER_DIALECT_FUSER_IR_CONTRACTION_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::fuser {

struct Contraction {
  /// The result's batch extents (matmul's broadcast batch dims; linear
  /// folds its leading dims into M and has none).
  SmallVector<int64_t> batchShape;
  /// For each batch dim, the elements between consecutive indices in the
  /// row-major lhs and rhs: 0 where the operand broadcasts that dim (or has
  /// no such dim).
  SmallVector<int64_t> lhsBatchStrides, rhsBatchStrides;
  int64_t m = 1, n = 1, k = 1;
  /// Whether the rhs is stored N x K (linear's weight) instead of K x N.
  bool rhsTransposed = false;
  /// Whether a bias of N elements is added to each row of the result.
  bool hasBias = false;

  /// The number of gemms: the product of batchShape.
  int64_t getBatchCount() const;
  /// The element offsets in the lhs and rhs of the batch-th gemm (batches
  /// in row-major order of batchShape); the result's is batch * m * n.
  std::pair<int64_t, int64_t> getOperandOffsets(int64_t batch) const;
};

/// The contraction of a fuser.matmul or fuser.linear (LibraryOpInterface);
/// `op` must be one.
Contraction getContraction(Operation *op);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_IR_CONTRACTION_H
