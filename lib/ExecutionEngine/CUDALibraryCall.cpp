//===- CUDALibraryCall.cpp - a library segment's gemm on cuBLASLt ---------===//
//
// planBlasLtGemm maps the descriptor of a library::kMatmulFunction call to
// cuBLASLt's column-major matrices (CUDALibraryCall.h); BlasLtMatmul sets
// the descriptors and layouts, asks the heuristic for an algorithm and runs
// the calls.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CUDALibraryCall.h"
#include "fuser/ExecutionEngine/MatmulDescriptor.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <numeric>
#include <optional>

using namespace mlir::fuser;
using namespace mlir::fuser::cuda;
using namespace mlir::fuser::library;

namespace {
/// `rows` x `cols` of op(X) with these element strides as a column-major
/// matrix: stored as it is (op N) where the rows have unit stride, stored
/// transposed (op T) where the columns do; a dim of one element takes any
/// stride (the descriptor gives it 0).
std::optional<BlasLtGemm::Matrix> getMatrix(int64_t rows, int64_t cols,
                                            int64_t rowStride,
                                            int64_t colStride) {
  BlasLtGemm::Matrix matrix;
  int64_t ld = cols == 1 ? std::max<int64_t>(rows, 1) : colStride;
  if ((rows == 1 || rowStride == 1) && ld >= std::max<int64_t>(rows, 1)) {
    matrix.rows = rows;
    matrix.cols = cols;
    matrix.ld = ld;
    return matrix;
  }
  ld = rows == 1 ? std::max<int64_t>(cols, 1) : rowStride;
  if ((cols == 1 || colStride == 1) && ld >= std::max<int64_t>(cols, 1)) {
    matrix.rows = cols;
    matrix.cols = rows;
    matrix.ld = ld;
    matrix.transpose = true;
    return matrix;
  }
  return std::nullopt;
}

/// The largest power of two at most 256 dividing `bytes`.
uint32_t alignmentOf(int64_t bytes) {
  uint32_t alignment = 256;
  while (alignment > 1 && bytes % alignment != 0)
    alignment /= 2;
  return alignment;
}

int32_t getDataType(MatmulElement element) {
  switch (element) {
  case MatmulElement::F32:
    return CUDA_R_32F;
  case MatmulElement::F64:
    return CUDA_R_64F;
  case MatmulElement::F16:
    return CUDA_R_16F;
  case MatmulElement::BF16:
    return CUDA_R_16BF;
  }
  return CUDA_R_32F;
}

llvm::Error unsupported(const llvm::Twine &what) {
  return llvm::createStringError("cuBLASLt cannot read " + what +
                                 " in place (it needs a unit stride along "
                                 "one of its dims)");
}
} // namespace

llvm::Expected<BlasLtGemm>
mlir::fuser::cuda::planBlasLtGemm(llvm::ArrayRef<int64_t> descriptor) {
  const int64_t *d = descriptor.data();
  BlasLtGemm plan;
  plan.element = MatmulElement(d[Element]);
  plan.elementBytes = plan.element == MatmulElement::F64   ? 8
                      : plan.element == MatmulElement::F32 ? 4
                                                           : 2;
  llvm::SmallVector<GemmBatchDim> batch;
  Gemm g = decodeMatmul(d, batch);
  plan.n = g.n;
  bool hasBias = d[HasBias] != 0;
  if (hasBias && g.n > 1 && d[BiasStrideN] != 1)
    return llvm::createStringError(
        "the bias has stride " + llvm::Twine(d[BiasStrideN]) +
        "; cuBLASLt's bias epilogue reads a contiguous vector");
  plan.bias = hasBias;
  plan.biasOffset = d[BiasOffset];
  if (g.m == 0 || g.n == 0 ||
      llvm::any_of(batch, [](const GemmBatchDim &b) { return b.size == 0; }))
    return plan;

  std::optional<BlasLtGemm::Matrix> out = getMatrix(g.n, g.m, g.outN, g.outM);
  if (!out || out->transpose)
    return llvm::createStringError("the result's rows are not contiguous");
  plan.d = *out;

  // The batch dims of cuBLASLt's batch: the innermost ones whose strides
  // nest (each the next one's stride times its extent, for every operand);
  // the rest are calls.
  size_t inner = batch.size();
  if (inner > 0) {
    --inner;
    while (inner > 0) {
      const GemmBatchDim &outer = batch[inner - 1], &in = batch[inner];
      if (outer.lhs != in.lhs * in.size || outer.rhs != in.rhs * in.size ||
          outer.out != in.out * in.size)
        break;
      --inner;
    }
    int64_t count = 1;
    for (size_t i = inner; i < batch.size(); ++i)
      count *= batch[i].size;
    plan.batchCount = int32_t(count);
    plan.a.batchStride = batch.back().rhs;
    plan.b.batchStride = batch.back().lhs;
    plan.d.batchStride = batch.back().out;
  }
  llvm::ArrayRef<GemmBatchDim> loops = llvm::ArrayRef(batch).take_front(inner);

  // The rows of the result, or the calls.
  std::vector<int64_t> index(loops.size(), 0);
  while (true) {
    BlasLtGemm::Call call{g.rhs, g.lhs, g.out};
    for (size_t i = 0; i < loops.size(); ++i) {
      call.a += index[i] * loops[i].rhs;
      call.b += index[i] * loops[i].lhs;
      call.d += index[i] * loops[i].out;
    }
    plan.calls.push_back(call);
    size_t i = loops.size();
    while (i > 0 && ++index[i - 1] == loops[i - 1].size)
      index[--i] = 0;
    if (i == 0)
      break;
  }

  if (g.k == 0) {
    plan.emptyK = true;
    for (const BlasLtGemm::Call &call : plan.calls)
      for (int64_t b = 0; b < plan.batchCount; ++b)
        for (int64_t i = 0; i < g.m; ++i)
          plan.rowOffsets.push_back(call.d + b * plan.d.batchStride +
                                    i * int64_t(plan.d.ld));
    plan.calls.clear();
    return plan;
  }

  std::optional<BlasLtGemm::Matrix> a = getMatrix(g.n, g.k, g.rhsN, g.rhsK);
  if (!a)
    return unsupported("the rhs (strides " + llvm::Twine(g.rhsK) + ", " +
                       llvm::Twine(g.rhsN) + ")");
  std::optional<BlasLtGemm::Matrix> b = getMatrix(g.k, g.m, g.lhsK, g.lhsM);
  if (!b)
    return unsupported("the lhs (strides " + llvm::Twine(g.lhsM) + ", " +
                       llvm::Twine(g.lhsK) + ")");
  a->batchStride = plan.a.batchStride;
  b->batchStride = plan.b.batchStride;
  plan.a = *a;
  plan.b = *b;
  for (auto [matrix, offset] :
       {std::pair{&plan.a, &BlasLtGemm::Call::a},
        std::pair{&plan.b, &BlasLtGemm::Call::b},
        std::pair{&plan.d, &BlasLtGemm::Call::d}}) {
    int64_t bytes = plan.batchCount > 1 ? matrix->batchStride : 0;
    for (const BlasLtGemm::Call &call : plan.calls)
      bytes = std::gcd(bytes, call.*offset);
    matrix->alignment = alignmentOf(bytes * plan.elementBytes);
  }
  return plan;
}

llvm::Expected<std::unique_ptr<BlasLtMatmul>>
BlasLtMatmul::create(BlasLt &blasLt, BlasLtGemm gemm) {
  std::unique_ptr<BlasLtMatmul> matmul(
      new BlasLtMatmul(blasLt, std::move(gemm)));
  if (matmul->gemm.calls.empty())
    return matmul;
  const BlasLtAPI &api = blasLt.api();
  const BlasLtGemm &g = matmul->gemm;
  bool f64 = g.element == MatmulElement::F64;
  int32_t compute = f64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
  int32_t scale = f64 ? CUDA_R_64F : CUDA_R_32F;
  int32_t type = getDataType(g.element);
  if (llvm::Error e = blasLt.check(
          api.cublasLtMatmulDescCreate(&matmul->operation, compute, scale),
          "cublasLtMatmulDescCreate"))
    return std::move(e);
  auto setOperation = [&](int attribute, const auto &value,
                          const char *name) -> llvm::Error {
    return blasLt.check(api.cublasLtMatmulDescSetAttribute(
                            matmul->operation, attribute, &value,
                            sizeof(value)),
                        llvm::Twine("cublasLtMatmulDescSetAttribute(") +
                            name + ")");
  };
  int32_t transA = g.a.transpose ? CUBLAS_OP_T : CUBLAS_OP_N;
  int32_t transB = g.b.transpose ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (llvm::Error e = setOperation(CUBLASLT_MATMUL_DESC_TRANSA, transA,
                                   "TRANSA"))
    return std::move(e);
  if (llvm::Error e = setOperation(CUBLASLT_MATMUL_DESC_TRANSB, transB,
                                   "TRANSB"))
    return std::move(e);
  if (g.bias) {
    uint32_t epilogue = CUBLASLT_EPILOGUE_BIAS;
    if (llvm::Error e =
            setOperation(CUBLASLT_MATMUL_DESC_EPILOGUE, epilogue, "EPILOGUE"))
      return std::move(e);
    if (llvm::Error e = setOperation(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, type,
                                     "BIAS_DATA_TYPE"))
      return std::move(e);
    // The heuristic reads the bias pointer for its alignment only: one with
    // the bias's (the run sets the real one).
    const void *aligned = reinterpret_cast<const void *>(
        uintptr_t(256) + uintptr_t(g.biasOffset) * g.elementBytes);
    if (llvm::Error e = setOperation(CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                                     aligned, "BIAS_POINTER"))
      return std::move(e);
  }
  for (auto [layout, matrix, name] :
       {std::tuple{&matmul->a, &g.a, "A"}, std::tuple{&matmul->b, &g.b, "B"},
        std::tuple{&matmul->d, &g.d, "D"}}) {
    if (llvm::Error e = blasLt.check(
            api.cublasLtMatrixLayoutCreate(layout, type, matrix->rows,
                                           matrix->cols, matrix->ld),
            llvm::Twine("cublasLtMatrixLayoutCreate(") + name + ")"))
      return std::move(e);
    if (g.batchCount == 1)
      continue;
    int32_t count = g.batchCount;
    int64_t stride = matrix->batchStride;
    if (llvm::Error e = blasLt.check(
            api.cublasLtMatrixLayoutSetAttribute(
                *layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                sizeof(count)),
            llvm::Twine("cublasLtMatrixLayoutSetAttribute(") + name +
                ", BATCH_COUNT)"))
      return std::move(e);
    if (llvm::Error e = blasLt.check(
            api.cublasLtMatrixLayoutSetAttribute(
                *layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
                sizeof(stride)),
            llvm::Twine("cublasLtMatrixLayoutSetAttribute(") + name +
                ", STRIDED_BATCH_OFFSET)"))
      return std::move(e);
  }

  cublasLtMatmulPreference_t preference = nullptr;
  if (llvm::Error e =
          blasLt.check(api.cublasLtMatmulPreferenceCreate(&preference),
                       "cublasLtMatmulPreferenceCreate"))
    return std::move(e);
  auto setPreference = [&](int attribute, const auto &value) {
    return blasLt.check(api.cublasLtMatmulPreferenceSetAttribute(
                            preference, attribute, &value, sizeof(value)),
                        "cublasLtMatmulPreferenceSetAttribute");
  };
  uint64_t maxWorkspace = kMaxWorkspaceBytes;
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  llvm::Error e = [&]() -> llvm::Error {
    if (llvm::Error e = setPreference(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                      maxWorkspace))
      return e;
    for (auto [attribute, alignment] :
         {std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, g.a.alignment},
          std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, g.b.alignment},
          std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, g.d.alignment},
          std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
                    g.d.alignment}})
      if (llvm::Error e = setPreference(attribute, alignment))
        return e;
    if (llvm::Error e = blasLt.check(
            api.cublasLtMatmulAlgoGetHeuristic(
                blasLt.getHandle(), matmul->operation, matmul->a, matmul->b,
                matmul->d, matmul->d, preference, 1, &result, &found),
            "cublasLtMatmulAlgoGetHeuristic"))
      return e;
    if (found == 0)
      return llvm::createStringError(
          "cublasLtMatmulAlgoGetHeuristic found no algorithm");
    return llvm::Error::success();
  }();
  api.cublasLtMatmulPreferenceDestroy(preference);
  if (e)
    return std::move(e);
  matmul->algo = result.algo;
  matmul->workspaceBytes = result.workspaceSize;
  return matmul;
}

BlasLtMatmul::~BlasLtMatmul() {
  const BlasLtAPI &api = blasLt.api();
  for (cublasLtMatrixLayout_t layout : {a, b, d})
    if (layout)
      api.cublasLtMatrixLayoutDestroy(layout);
  if (operation)
    api.cublasLtMatmulDescDestroy(operation);
}

llvm::Error BlasLtMatmul::run(Driver &driver, CUdeviceptr lhs,
                              CUdeviceptr rhs, CUdeviceptr bias,
                              CUdeviceptr out, CUdeviceptr workspace) {
  const BlasLtGemm &g = gemm;
  uint64_t bytes = g.elementBytes;
  if (g.emptyK) {
    // Every row is the bias, or +0.0 (all-zero bytes in every float type).
    for (int64_t row : g.rowOffsets) {
      CUdeviceptr at = out + row * bytes;
      if (llvm::Error e =
              g.bias ? driver.check(driver.api().cuMemcpyDtoD(
                                        at, bias + g.biasOffset * bytes,
                                        g.n * bytes),
                                    "cuMemcpyDtoD (the bias, K = 0)")
                     : driver.check(driver.api().cuMemsetD8(at, 0, g.n * bytes),
                                    "cuMemsetD8 (K = 0)"))
        return e;
    }
    return llvm::Error::success();
  }
  const BlasLtAPI &api = blasLt.api();
  if (g.bias) {
    const void *pointer =
        reinterpret_cast<const void *>(bias + g.biasOffset * bytes);
    if (llvm::Error e = blasLt.check(
            api.cublasLtMatmulDescSetAttribute(
                operation, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &pointer,
                sizeof(pointer)),
            "cublasLtMatmulDescSetAttribute(BIAS_POINTER)"))
      return e;
  }
  float oneF = 1, zeroF = 0;
  double oneD = 1, zeroD = 0;
  bool f64 = g.element == MatmulElement::F64;
  const void *alpha = f64 ? static_cast<const void *>(&oneD) : &oneF;
  const void *beta = f64 ? static_cast<const void *>(&zeroD) : &zeroF;
  for (const BlasLtGemm::Call &call : g.calls) {
    auto *dPointer = reinterpret_cast<void *>(out + call.d * bytes);
    if (llvm::Error e = blasLt.check(
            api.cublasLtMatmul(
                blasLt.getHandle(), operation, alpha,
                reinterpret_cast<const void *>(rhs + call.a * bytes), a,
                reinterpret_cast<const void *>(lhs + call.b * bytes), b, beta,
                dPointer, d, dPointer, d, &algo,
                reinterpret_cast<void *>(workspace), workspaceBytes,
                /*stream=*/nullptr),
            "cublasLtMatmul"))
      return e;
  }
  return llvm::Error::success();
}
