//===- CUBLASLt.h - cuBLASLt, loaded at run time ----------------*- C++ -*-===//
//
// The few cuBLASLt entry points, types and enum values the `cuda` backend
// uses to run library segments (matmul, linear), declared here as
// CUDADriver.h declares the driver's: nothing includes a CUDA header or
// links libcublasLt, so every binary builds and runs without the toolkit,
// and only a fusion with a library segment needs the library. The numeric
// values are those of the CUDA 13 headers (cublasLt.h, cublas_api.h,
// library_types.h); fuser-unittests' CUBLASLtHeader test sets each
// attribute with its declared type on the toolkit's libcublasLt.so.13
// where it is installed (the library refuses a value of the wrong size).
//
// Where the library comes from (Driver::getBlasLt, CUDADriver.cpp): the
// SIMT emulator's driver carries its own table (the fake cuBLASLt of
// lib/ExecutionEngine/Simt/BlasLt.cpp); libcuda's driver dlopens
// $FUSER_CUBLASLT, else the driver library itself when it is the SIMT
// drop-in (libfuser_simt_cuda.so exports the fake under cuBLASLt's names),
// else libcublasLt.so.13, then libcublasLt.so.12. See docs/Lowering.md,
// "Library segments on the GPU".
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_CUBLASLT_H
#define FUSER_EXECUTIONENGINE_CUBLASLT_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace mlir::fuser::cuda {

// cuBLASLt's ABI types (cublasLt.h): handles are pointers to opaque
// structs; the algorithm and the heuristic's result are returned by value.
using cublasStatus_t = int;
struct cublasLtContext;
struct cublasLtMatmulDescOpaque_t {
  uint64_t data[32];
};
struct cublasLtMatrixLayoutOpaque_t {
  uint64_t data[8];
};
struct cublasLtMatmulPreferenceOpaque_t {
  uint64_t data[8];
};
using cublasLtHandle_t = cublasLtContext *;
using cublasLtMatmulDesc_t = cublasLtMatmulDescOpaque_t *;
using cublasLtMatrixLayout_t = cublasLtMatrixLayoutOpaque_t *;
using cublasLtMatmulPreference_t = cublasLtMatmulPreferenceOpaque_t *;
struct cublasLtMatmulAlgo_t {
  uint64_t data[8];
};
struct cublasLtMatmulHeuristicResult_t {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
};

enum : cublasStatus_t {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
};

/// cudaDataType_t (library_types.h): element and scale types.
enum : int32_t {
  CUDA_R_32F = 0,
  CUDA_R_64F = 1,
  CUDA_R_16F = 2,
  CUDA_R_16BF = 14,
};

/// cublasComputeType_t (cublas_api.h).
enum : int32_t {
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_64F = 70,
};

/// cublasOperation_t.
enum : int32_t { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 };

/// cublasLtMatmulDescAttributes_t, with the type each takes.
enum : int {
  CUBLASLT_MATMUL_DESC_COMPUTE_TYPE = 0, // int32_t
  CUBLASLT_MATMUL_DESC_SCALE_TYPE = 1,   // int32_t
  CUBLASLT_MATMUL_DESC_POINTER_MODE = 2, // int32_t
  CUBLASLT_MATMUL_DESC_TRANSA = 3,       // int32_t
  CUBLASLT_MATMUL_DESC_TRANSB = 4,       // int32_t
  CUBLASLT_MATMUL_DESC_EPILOGUE = 7,     // uint32_t
  CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8, // const void *
  CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26, // int32_t
};

/// cublasLtEpilogue_t.
enum : uint32_t { CUBLASLT_EPILOGUE_DEFAULT = 1, CUBLASLT_EPILOGUE_BIAS = 4 };

/// cublasLtMatrixLayoutAttribute_t, with the type each takes.
enum : int {
  CUBLASLT_MATRIX_LAYOUT_TYPE = 0,                 // uint32_t
  CUBLASLT_MATRIX_LAYOUT_ORDER = 1,                // int32_t
  CUBLASLT_MATRIX_LAYOUT_ROWS = 2,                 // uint64_t
  CUBLASLT_MATRIX_LAYOUT_COLS = 3,                 // uint64_t
  CUBLASLT_MATRIX_LAYOUT_LD = 4,                   // int64_t
  CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,          // int32_t
  CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6, // int64_t
};

/// cublasLtOrder_t.
enum : int32_t { CUBLASLT_ORDER_COL = 0 };

/// cublasLtMatmulPreferenceAttributes_t, with the type each takes.
enum : int {
  CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1,   // uint64_t
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 5, // uint32_t
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES = 6, // uint32_t
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES = 7, // uint32_t
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES = 8, // uint32_t
};

/// The entry points, by their exported names. The stream is a CUstream
/// (cudaStream_t is the same pointer).
struct BlasLtAPI {
  cublasStatus_t (*cublasLtCreate)(cublasLtHandle_t *);
  cublasStatus_t (*cublasLtDestroy)(cublasLtHandle_t);
  const char *(*cublasLtGetStatusName)(cublasStatus_t);
  cublasStatus_t (*cublasLtMatmulDescCreate)(cublasLtMatmulDesc_t *, int32_t,
                                             int32_t);
  cublasStatus_t (*cublasLtMatmulDescDestroy)(cublasLtMatmulDesc_t);
  cublasStatus_t (*cublasLtMatmulDescSetAttribute)(cublasLtMatmulDesc_t, int,
                                                   const void *, size_t);
  cublasStatus_t (*cublasLtMatrixLayoutCreate)(cublasLtMatrixLayout_t *,
                                               int32_t, uint64_t, uint64_t,
                                               int64_t);
  cublasStatus_t (*cublasLtMatrixLayoutDestroy)(cublasLtMatrixLayout_t);
  cublasStatus_t (*cublasLtMatrixLayoutSetAttribute)(cublasLtMatrixLayout_t,
                                                     int, const void *,
                                                     size_t);
  cublasStatus_t (*cublasLtMatmulPreferenceCreate)(
      cublasLtMatmulPreference_t *);
  cublasStatus_t (*cublasLtMatmulPreferenceDestroy)(
      cublasLtMatmulPreference_t);
  cublasStatus_t (*cublasLtMatmulPreferenceSetAttribute)(
      cublasLtMatmulPreference_t, int, const void *, size_t);
  cublasStatus_t (*cublasLtMatmulAlgoGetHeuristic)(
      cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,
      cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
      cublasLtMatmulPreference_t, int, cublasLtMatmulHeuristicResult_t *,
      int *);
  cublasStatus_t (*cublasLtMatmul)(
      cublasLtHandle_t, cublasLtMatmulDesc_t, const void *alpha,
      const void *a, cublasLtMatrixLayout_t, const void *b,
      cublasLtMatrixLayout_t, const void *beta, const void *c,
      cublasLtMatrixLayout_t, void *d, cublasLtMatrixLayout_t,
      const cublasLtMatmulAlgo_t *, void *workspace, size_t workspaceBytes,
      void *stream);
};

/// Resolves every entry point of `api` from `library` (a dlopen handle); the
/// name of the first one missing, or null.
const char *resolveBlasLtAPI(void *library, BlasLtAPI &api);

/// cuBLASLt with a handle for the current device, created once per process
/// by the driver that owns it (Driver::getBlasLt).
class BlasLt {
public:
  /// The library `api` comes from ("libcublasLt.so.13", "the SIMT
  /// emulator's fake cuBLASLt", ...); a handle from cublasLtCreate, or the
  /// failure, which starts with "no cuBLASLt".
  static llvm::Expected<BlasLt &> create(BlasLt &into, const BlasLtAPI &api,
                                         std::string libraryName);

  const BlasLtAPI &api() const { return fns; }
  cublasLtHandle_t getHandle() const { return handle; }
  const std::string &getLibraryName() const { return libraryName; }

  /// Success, or an error naming `what` and the status's name.
  llvm::Error check(cublasStatus_t status, const llvm::Twine &what) const;

private:
  BlasLtAPI fns{};
  cublasLtHandle_t handle = nullptr;
  std::string libraryName;
};

} // namespace mlir::fuser::cuda

#endif // FUSER_EXECUTIONENGINE_CUBLASLT_H
