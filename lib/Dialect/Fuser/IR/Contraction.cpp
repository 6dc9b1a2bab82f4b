//===- Contraction.cpp - the batched gemm of a library op -----------------===//

#include "fuser/Dialect/Fuser/IR/Contraction.h"

#include "fuser/Dialect/Fuser/IR/FuserOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuser;

int64_t Contraction::getBatchCount() const {
  int64_t count = 1;
  for (int64_t extent : batchShape)
    count *= extent;
  return count;
}

std::pair<int64_t, int64_t>
Contraction::getOperandOffsets(int64_t batch) const {
  int64_t lhs = 0, rhs = 0;
  for (int64_t dim = batchShape.size() - 1; dim >= 0; --dim) {
    int64_t index = batch % batchShape[dim];
    batch /= batchShape[dim];
    lhs += index * lhsBatchStrides[dim];
    rhs += index * rhsBatchStrides[dim];
  }
  return {lhs, rhs};
}

/// The row-major strides of `operandBatch` (an operand's batch dims)
/// aligned from the right with the result's `rank` batch dims, each
/// matrix `matrixElements` apart; 0 where the operand has extent 1 or no
/// dim.
static SmallVector<int64_t> getBatchStrides(ArrayRef<int64_t> operandBatch,
                                            int64_t rank,
                                            int64_t matrixElements) {
  SmallVector<int64_t> strides(rank, 0);
  int64_t stride = matrixElements;
  for (int64_t dim = operandBatch.size() - 1; dim >= 0; --dim) {
    int64_t resultDim = rank - operandBatch.size() + dim;
    strides[resultDim] = operandBatch[dim] == 1 ? 0 : stride;
    stride *= operandBatch[dim];
  }
  return strides;
}

static Contraction getMatmulContraction(MatmulOp op) {
  ArrayRef<int64_t> lhs = op.getLhs().getType().getShape();
  ArrayRef<int64_t> rhs = op.getRhs().getType().getShape();
  ArrayRef<int64_t> result = op.getType().getShape();
  Contraction contraction;
  contraction.k = lhs.back();
  contraction.m = lhs.size() >= 2 ? lhs[lhs.size() - 2] : 1;
  contraction.n = rhs.size() >= 2 ? rhs.back() : 1;
  ArrayRef<int64_t> lhsBatch = lhs.drop_back(std::min<size_t>(lhs.size(), 2));
  ArrayRef<int64_t> rhsBatch = rhs.drop_back(std::min<size_t>(rhs.size(), 2));
  int64_t rank = std::max(lhsBatch.size(), rhsBatch.size());
  contraction.batchShape.assign(result.begin(), result.begin() + rank);
  contraction.lhsBatchStrides =
      getBatchStrides(lhsBatch, rank, contraction.m * contraction.k);
  contraction.rhsBatchStrides =
      getBatchStrides(rhsBatch, rank, contraction.k * contraction.n);
  return contraction;
}

static Contraction getLinearContraction(LinearOp op) {
  ArrayRef<int64_t> input = op.getInput().getType().getShape();
  Contraction contraction;
  contraction.k = input.back();
  contraction.n = op.getWeight().getType().getDimSize(0);
  for (int64_t extent : input.drop_back())
    contraction.m *= extent;
  contraction.rhsTransposed = true;
  contraction.hasBias = static_cast<bool>(op.getBias());
  return contraction;
}

Contraction mlir::fuser::getContraction(Operation *op) {
  return llvm::TypeSwitch<Operation *, Contraction>(op)
      .Case([](MatmulOp matmul) { return getMatmulContraction(matmul); })
      .Case([](LinearOp linear) { return getLinearContraction(linear); });
}
