//===- CUDALibraryCall.h - a library segment's gemm on cuBLASLt -*- C++ -*-===//
//
// The `cuda` backend runs a matmul or linear library segment (the
// library::kMatmulFunction call of its host function, LibraryCall.h) as
// cuBLASLt calls (CUBLASLt.h). cuBLASLt is column-major, so the row-major
// result out[m, n] = lhs[m, k] rhs[k, n] is computed as its transpose,
// D (n x m) = A (n x k) B (k x m) with A the rhs and B the lhs, and every
// operand is read where it lies:
// - an operand with a unit stride along one of its dims is a column-major
//   matrix with CUBLAS_OP_N, or CUBLAS_OP_T when the unit stride is along
//   the other dim, its leading dimension the other stride: a permute is a
//   transpose flag, a slice an offset, never a copy;
// - the batch dims the rhs broadcasts fold into M (MatmulDescriptor.h); of
//   the others, the innermost ones whose strides nest become cuBLASLt's
//   batch (BATCH_COUNT and each matrix's STRIDED_BATCH_OFFSET, 0 where an
//   operand broadcasts them), and the outer ones are a loop of calls;
// - f32, f16 and bf16 compute in CUBLAS_COMPUTE_32F (f32 accumulation,
//   never TF32) with f32 alpha and beta, f64 in CUBLAS_COMPUTE_64F;
// - a linear's bias is the CUBLASLT_EPILOGUE_BIAS epilogue (a vector along
//   D's rows, the result's n): no separate add;
// - cublasLtMatmulAlgoGetHeuristic picks the algorithm once per segment
//   when the plan is loaded, with each matrix's alignment and a workspace
//   of at most kMaxWorkspaceBytes; the run passes the workspace it asked.
// K = 0 calls nothing: the result is zeroed, or each row is a copy of the
// bias. What no cuBLASLt call reads in place (an operand with no unit
// stride, a bias with a stride) is a located error when the plan is built.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_CUDALIBRARYCALL_H
#define FUSER_EXECUTIONENGINE_CUDALIBRARYCALL_H

#include "fuser/Conversion/LibraryCall.h"
#include "fuser/ExecutionEngine/CUBLASLt.h"
#include "fuser/ExecutionEngine/CUDADriver.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <vector>

namespace mlir::fuser::cuda {

/// The most workspace a gemm's algorithm may ask (the heuristic's limit).
constexpr uint64_t kMaxWorkspaceBytes = 32ull << 20;

/// A library segment's gemm as cuBLASLt calls (no device needed).
struct BlasLtGemm {
  /// A column-major matrix as cuBLASLt's layout states it.
  struct Matrix {
    uint64_t rows = 0, cols = 0;
    int64_t ld = 0;
    /// Read as CUBLAS_OP_T (A and B only).
    bool transpose = false;
    int64_t batchStride = 0;
    /// The largest power of two (at most 256) dividing every byte offset
    /// the calls read it at (the buffers are 256-byte aligned).
    uint32_t alignment = 256;
  };
  library::MatmulElement element;
  unsigned elementBytes;
  /// A is the segment's rhs, B its lhs, D (and C, the same matrix with beta
  /// 0) its result.
  Matrix a, b, d;
  int32_t batchCount = 1;
  /// CUBLASLT_EPILOGUE_BIAS from the bias at this element offset.
  bool bias = false;
  int64_t biasOffset = 0;
  /// Each cublasLtMatmul: the element offsets of A, B and D in their buffers.
  struct Call {
    int64_t a, b, d;
  };
  std::vector<Call> calls;
  /// K = 0: the result's rows (each `n` elements at unit stride) are zeroed
  /// or copied from the bias; no cuBLASLt call.
  bool emptyK = false;
  uint64_t n = 0;
  std::vector<int64_t> rowOffsets;
};

/// The cuBLASLt calls computing the gemm of library::kMatmulFunction
/// descriptor `descriptor`, or why cuBLASLt cannot read its operands.
llvm::Expected<BlasLtGemm> planBlasLtGemm(llvm::ArrayRef<int64_t> descriptor);

/// A planned gemm loaded on cuBLASLt: its descriptors and layouts, and the
/// algorithm and workspace size the heuristic chose.
class BlasLtMatmul {
public:
  static llvm::Expected<std::unique_ptr<BlasLtMatmul>>
  create(BlasLt &blasLt, BlasLtGemm gemm);
  ~BlasLtMatmul();

  uint64_t getWorkspaceBytes() const { return workspaceBytes; }

  /// Runs the gemm over the buffers at these device addresses (bias 0
  /// without one), on the default stream; `workspace` holds at least
  /// getWorkspaceBytes().
  llvm::Error run(Driver &driver, CUdeviceptr lhs, CUdeviceptr rhs,
                  CUdeviceptr bias, CUdeviceptr out, CUdeviceptr workspace);

private:
  BlasLtMatmul(BlasLt &blasLt, BlasLtGemm gemm)
      : blasLt(blasLt), gemm(std::move(gemm)) {}
  BlasLt &blasLt;
  BlasLtGemm gemm;
  cublasLtMatmulDesc_t operation = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo{};
  uint64_t workspaceBytes = 0;
};

} // namespace mlir::fuser::cuda

#endif // FUSER_EXECUTIONENGINE_CUDALIBRARYCALL_H
