//===- BlasLt.cpp - a fake cuBLASLt over the emulated device --------------===//
//
// The cuBLASLt entry points the CUDA runtime uses for library segments
// (CUBLASLt.h, CUDALibraryCall.h), implemented on the host for the `simt`
// backend (SimtDriver.h, getBlasLtAPI). Descriptors, layouts and
// preferences are objects of the fake's own, known by address, so that a
// handle that is not one is an error rather than a read of anything. Each
// attribute is taken with the size cuBLASLt's header gives it.
// cublasLtMatmulAlgoGetHeuristic checks the problem and returns one
// algorithm that records the workspace it asks and the alignments it was
// chosen for; cublasLtMatmul checks the problem again, the algorithm, the
// workspace, the pointers' alignment and that each matrix lies in one
// device allocation, then computes
//   D = op(A) op(B) (+ bias along D's rows)
// with the CPU backend's gemm (runLibraryMatmul, LibraryCalls.h: a BLAS,
// f16 widened to f32, bf16 by oneDNN where it loads, else widened too, f64
// in f64), and marks D written on the device.
// FUSER_SIMT_BLASLT_LOG=1 prints each cublasLtMatmul's problem to stderr
// (`simt: cublasLtMatmul m=.. n=.. k=.. A=rowsxcols,ld=..,N|T ...`), so
// tests can see the layouts the runtime chose.
//
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "fuser/Conversion/LibraryCall.h"
#include "fuser/ExecutionEngine/LibraryCalls.h"
#include "fuser/ExecutionEngine/SimtDriver.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

using namespace mlir::fuser;
using namespace mlir::fuser::cuda;
using namespace mlir::fuser::library;
using simt::Device;

namespace {
/// What the fake's algorithm asks for a workspace, when the preference
/// allows it (so that the runtime's workspace is exercised).
constexpr uint64_t kFakeWorkspaceBytes = 1 << 20;
/// Marks an algorithm the fake's heuristic returned.
constexpr uint64_t kAlgoMagic = 0xf05e7b1a5717ull;

struct Operation {
  int32_t compute, scale;
  int32_t pointerMode = 0, transA = CUBLAS_OP_N, transB = CUBLAS_OP_N;
  uint32_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  const void *bias = nullptr;
  int32_t biasType = -1;
};
struct Layout {
  int32_t type;
  int32_t order = CUBLASLT_ORDER_COL;
  uint64_t rows, cols;
  int64_t ld;
  int32_t batchCount = 1;
  int64_t batchStride = 0;
};
struct Preference {
  uint64_t maxWorkspace = 0;
  uint32_t alignment[4] = {256, 256, 256, 256};
};

/// A handle of cublasLtCreate: an address of the fake's own.
struct Context {};

/// The live objects, by address.
template <typename T> using Live = std::map<const void *, std::unique_ptr<T>>;
struct Objects {
  Live<Context> handles;
  Live<Operation> operations;
  Live<Layout> layouts;
  Live<Preference> preferences;
};
Objects &objects() {
  static Objects all;
  return all;
}

/// Prints why `entry` refuses its arguments; returns `status`.
cublasStatus_t fail(const char *entry, const llvm::Twine &why,
                    cublasStatus_t status = CUBLAS_STATUS_INVALID_VALUE) {
  llvm::errs() << "simt: error: " << entry << ": " << why << "\n";
  return status;
}

template <typename T> T *find(Live<T> &live, const void *key) {
  auto it = live.find(key);
  return it == live.end() ? nullptr : it->second.get();
}

/// Keeps `object` among the live ones and writes its address to `handle`.
template <typename T, typename Handle>
cublasStatus_t keep(const char *entry, Live<T> &live,
                    std::unique_ptr<T> object, Handle *handle) {
  if (!handle)
    return fail(entry, "nowhere to write the object");
  *handle = reinterpret_cast<Handle>(object.get());
  live[*handle] = std::move(object);
  return CUBLAS_STATUS_SUCCESS;
}

/// Ends the life of `handle`, which `creator` must have made.
template <typename T>
cublasStatus_t drop(const char *entry, Live<T> &live, const void *handle,
                    const char *creator) {
  if (!live.erase(handle))
    return fail(entry, llvm::Twine("not an object ") + creator + " made");
  return CUBLAS_STATUS_SUCCESS;
}

/// Copies attribute `value` of `size` bytes into `field`, when `size` is the
/// field's, as cuBLASLt checks it.
template <typename T>
cublasStatus_t setField(const char *entry, int attribute, const void *value,
                        size_t size, T &field) {
  if (!value || size != sizeof(T))
    return fail(entry, "attribute " + llvm::Twine(attribute) + " takes " +
                           llvm::Twine(sizeof(T)) + " bytes, not " +
                           llvm::Twine(size));
  std::memcpy(&field, value, sizeof(T));
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t unmodelled(const char *entry, int attribute) {
  return fail(entry,
              "attribute " + llvm::Twine(attribute) +
                  " is not one the fake models",
              CUBLAS_STATUS_NOT_SUPPORTED);
}

unsigned getTypeBytes(int32_t type) {
  switch (type) {
  case CUDA_R_64F:
    return 8;
  case CUDA_R_32F:
    return 4;
  case CUDA_R_16F:
  case CUDA_R_16BF:
    return 2;
  }
  return 0;
}

std::optional<MatmulElement> getElement(int32_t type) {
  switch (type) {
  case CUDA_R_32F:
    return MatmulElement::F32;
  case CUDA_R_64F:
    return MatmulElement::F64;
  case CUDA_R_16F:
    return MatmulElement::F16;
  case CUDA_R_16BF:
    return MatmulElement::BF16;
  }
  return std::nullopt;
}

/// A whole problem, checked: every object live and every attribute one the
/// fake models, the shapes of op(A) op(B) = D agreeing, C as D, each
/// leading dimension at least its rows, one batch count, D's batches apart.
struct Problem {
  Operation *operation;
  Layout *a, *b, *d;
  uint64_t m, n, k;
};

cublasStatus_t checkProblem(const char *entry, cublasLtHandle_t handle,
                            cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t a,
                            cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t c,
                            cublasLtMatrixLayout_t d, Problem &problem) {
  Objects &live = objects();
  if (!find(live.handles, handle))
    return fail(entry, "the handle is not one cublasLtCreate made");
  problem.operation = find(live.operations, desc);
  if (!problem.operation)
    return fail(entry, "the matmul descriptor is not one "
                       "cublasLtMatmulDescCreate made");
  Layout *layouts[4] = {find(live.layouts, a), find(live.layouts, b),
                        find(live.layouts, c), find(live.layouts, d)};
  const char *names[4] = {"A", "B", "C", "D"};
  for (int i = 0; i < 4; ++i)
    if (!layouts[i])
      return fail(entry, llvm::Twine("the layout of ") + names[i] +
                             " is not one cublasLtMatrixLayoutCreate made");
  const Operation &op = *problem.operation;
  Layout &la = *layouts[0], &lb = *layouts[1], &lc = *layouts[2],
         &ld = *layouts[3];
  problem.a = &la;
  problem.b = &lb;
  problem.d = &ld;

  // Types: those the backend passes (cuBLASLt has more).
  std::optional<MatmulElement> element = getElement(ld.type);
  if (!element)
    return fail(entry, "D's type " + llvm::Twine(ld.type) +
                           " is not one the fake models (f32, f64, f16, bf16)",
                CUBLAS_STATUS_NOT_SUPPORTED);
  for (int i = 0; i < 3; ++i)
    if (layouts[i]->type != ld.type)
      return fail(entry, llvm::Twine(names[i]) + "'s type " +
                             llvm::Twine(layouts[i]->type) +
                             " is not D's type " + llvm::Twine(ld.type));
  bool f64 = *element == MatmulElement::F64;
  int32_t compute = f64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
  int32_t scale = f64 ? CUDA_R_64F : CUDA_R_32F;
  if (op.compute != compute)
    return fail(entry, "compute type " + llvm::Twine(op.compute) +
                           " for elements of type " + llvm::Twine(ld.type) +
                           "; the fake models " + llvm::Twine(compute) +
                           (f64 ? " (CUBLAS_COMPUTE_64F)"
                                : " (CUBLAS_COMPUTE_32F: f32 accumulation)"));
  if (op.scale != scale)
    return fail(entry, "scale type " + llvm::Twine(op.scale) +
                           " with compute type " + llvm::Twine(op.compute) +
                           "; it must be " + llvm::Twine(scale));
  if (op.pointerMode != 0)
    return fail(entry, "pointer mode " + llvm::Twine(op.pointerMode) +
                           ": the fake models host alpha and beta only",
                CUBLAS_STATUS_NOT_SUPPORTED);
  for (int32_t trans : {op.transA, op.transB})
    if (trans != CUBLAS_OP_N && trans != CUBLAS_OP_T)
      return fail(entry, "transpose " + llvm::Twine(trans) +
                             " is neither CUBLAS_OP_N nor CUBLAS_OP_T");
  if (op.epilogue != CUBLASLT_EPILOGUE_DEFAULT &&
      op.epilogue != CUBLASLT_EPILOGUE_BIAS)
    return fail(entry, "epilogue " + llvm::Twine(op.epilogue) +
                           " is not one the fake models (DEFAULT, BIAS)",
                CUBLAS_STATUS_NOT_SUPPORTED);
  if (op.epilogue == CUBLASLT_EPILOGUE_BIAS && op.biasType != -1 &&
      op.biasType != ld.type)
    return fail(entry, "the bias's type " + llvm::Twine(op.biasType) +
                           " is not D's type " + llvm::Twine(ld.type));

  // Shapes: op(A) is m x k, op(B) k x n, C and D m x n.
  for (int i = 0; i < 4; ++i) {
    const Layout &l = *layouts[i];
    if (l.order != CUBLASLT_ORDER_COL)
      return fail(entry, llvm::Twine(names[i]) + "'s order " +
                             llvm::Twine(l.order) +
                             " is not CUBLASLT_ORDER_COL",
                  CUBLAS_STATUS_NOT_SUPPORTED);
    if (l.ld < int64_t(std::max<uint64_t>(l.rows, 1)))
      return fail(entry, llvm::Twine("the leading dimension of ") + names[i] +
                             " (" + llvm::Twine(l.ld) +
                             ") is less than its rows (" +
                             llvm::Twine(l.rows) + ")");
    if (l.batchCount != ld.batchCount)
      return fail(entry, llvm::Twine(names[i]) + "'s batch count " +
                             llvm::Twine(l.batchCount) + " is not D's " +
                             llvm::Twine(ld.batchCount));
    if (l.batchStride < 0)
      return fail(entry, llvm::Twine(names[i]) + "'s batch stride " +
                             llvm::Twine(l.batchStride) + " is negative");
  }
  if (ld.batchCount < 1)
    return fail(entry, "batch count " + llvm::Twine(ld.batchCount));
  problem.m = ld.rows;
  problem.n = ld.cols;
  bool ta = op.transA == CUBLAS_OP_T, tb = op.transB == CUBLAS_OP_T;
  uint64_t aRows = ta ? la.cols : la.rows, aCols = ta ? la.rows : la.cols;
  uint64_t bRows = tb ? lb.cols : lb.rows, bCols = tb ? lb.rows : lb.cols;
  problem.k = aCols;
  if (aRows != problem.m || bCols != problem.n || bRows != problem.k)
    return fail(entry,
                "op(A) is " + llvm::Twine(aRows) + " x " + llvm::Twine(aCols) +
                    ", op(B) " + llvm::Twine(bRows) + " x " +
                    llvm::Twine(bCols) + " and D " + llvm::Twine(problem.m) +
                    " x " + llvm::Twine(problem.n) +
                    ": not the shapes of one product");
  if (lc.rows != ld.rows || lc.cols != ld.cols || lc.ld != ld.ld ||
      lc.batchStride != ld.batchStride)
    return fail(entry, "C's layout is not D's", CUBLAS_STATUS_NOT_SUPPORTED);
  if (ld.batchCount > 1 &&
      ld.batchStride < ld.ld * int64_t(std::max<uint64_t>(ld.cols, 1)))
    return fail(entry, "D's batch stride " + llvm::Twine(ld.batchStride) +
                           " overlaps its matrices of " +
                           llvm::Twine(ld.ld) + " x " + llvm::Twine(ld.cols) +
                           " elements");
  return CUBLAS_STATUS_SUCCESS;
}

/// The elements a layout's matrices span (from the first to the last).
uint64_t getSpan(const Layout &l) {
  if (l.rows == 0 || l.cols == 0)
    return 0;
  return uint64_t(l.batchCount - 1) * l.batchStride +
         (l.cols - 1) * uint64_t(l.ld) + l.rows;
}

cublasStatus_t create(cublasLtHandle_t *handle) {
  auto lock = Device::lock();
  return keep("cublasLtCreate", objects().handles,
              std::make_unique<Context>(), handle);
}

cublasStatus_t destroy(cublasLtHandle_t handle) {
  auto lock = Device::lock();
  return drop("cublasLtDestroy", objects().handles, handle, "cublasLtCreate");
}

const char *getStatusName(cublasStatus_t status) {
  switch (status) {
  case CUBLAS_STATUS_SUCCESS:
    return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED:
    return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

cublasStatus_t descCreate(cublasLtMatmulDesc_t *desc, int32_t compute,
                          int32_t scale) {
  auto lock = Device::lock();
  auto operation = std::make_unique<Operation>();
  operation->compute = compute;
  operation->scale = scale;
  return keep("cublasLtMatmulDescCreate", objects().operations,
              std::move(operation), desc);
}

cublasStatus_t descDestroy(cublasLtMatmulDesc_t desc) {
  auto lock = Device::lock();
  return drop("cublasLtMatmulDescDestroy", objects().operations, desc,
              "cublasLtMatmulDescCreate");
}

cublasStatus_t descSetAttribute(cublasLtMatmulDesc_t desc, int attribute,
                                const void *value, size_t size) {
  auto lock = Device::lock();
  const char *entry = "cublasLtMatmulDescSetAttribute";
  Operation *op = find(objects().operations, desc);
  if (!op)
    return fail(entry, "not a descriptor cublasLtMatmulDescCreate made");
  switch (attribute) {
  case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE:
    return setField(entry, attribute, value, size, op->compute);
  case CUBLASLT_MATMUL_DESC_SCALE_TYPE:
    return setField(entry, attribute, value, size, op->scale);
  case CUBLASLT_MATMUL_DESC_POINTER_MODE:
    return setField(entry, attribute, value, size, op->pointerMode);
  case CUBLASLT_MATMUL_DESC_TRANSA:
    return setField(entry, attribute, value, size, op->transA);
  case CUBLASLT_MATMUL_DESC_TRANSB:
    return setField(entry, attribute, value, size, op->transB);
  case CUBLASLT_MATMUL_DESC_EPILOGUE:
    return setField(entry, attribute, value, size, op->epilogue);
  case CUBLASLT_MATMUL_DESC_BIAS_POINTER:
    return setField(entry, attribute, value, size, op->bias);
  case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE:
    return setField(entry, attribute, value, size, op->biasType);
  }
  return unmodelled(entry, attribute);
}

cublasStatus_t layoutCreate(cublasLtMatrixLayout_t *layout, int32_t type,
                            uint64_t rows, uint64_t cols, int64_t ld) {
  auto lock = Device::lock();
  auto created = std::make_unique<Layout>();
  created->type = type;
  created->rows = rows;
  created->cols = cols;
  created->ld = ld;
  return keep("cublasLtMatrixLayoutCreate", objects().layouts,
              std::move(created), layout);
}

cublasStatus_t layoutDestroy(cublasLtMatrixLayout_t layout) {
  auto lock = Device::lock();
  return drop("cublasLtMatrixLayoutDestroy", objects().layouts, layout,
              "cublasLtMatrixLayoutCreate");
}

cublasStatus_t layoutSetAttribute(cublasLtMatrixLayout_t layout,
                                  int attribute, const void *value,
                                  size_t size) {
  auto lock = Device::lock();
  const char *entry = "cublasLtMatrixLayoutSetAttribute";
  Layout *l = find(objects().layouts, layout);
  if (!l)
    return fail(entry, "not a layout cublasLtMatrixLayoutCreate made");
  switch (attribute) {
  case CUBLASLT_MATRIX_LAYOUT_TYPE: {
    uint32_t type = uint32_t(l->type);
    cublasStatus_t status = setField(entry, attribute, value, size, type);
    l->type = int32_t(type);
    return status;
  }
  case CUBLASLT_MATRIX_LAYOUT_ORDER:
    return setField(entry, attribute, value, size, l->order);
  case CUBLASLT_MATRIX_LAYOUT_ROWS:
    return setField(entry, attribute, value, size, l->rows);
  case CUBLASLT_MATRIX_LAYOUT_COLS:
    return setField(entry, attribute, value, size, l->cols);
  case CUBLASLT_MATRIX_LAYOUT_LD:
    return setField(entry, attribute, value, size, l->ld);
  case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT:
    return setField(entry, attribute, value, size, l->batchCount);
  case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET:
    return setField(entry, attribute, value, size, l->batchStride);
  }
  return unmodelled(entry, attribute);
}

cublasStatus_t preferenceCreate(cublasLtMatmulPreference_t *preference) {
  auto lock = Device::lock();
  return keep("cublasLtMatmulPreferenceCreate", objects().preferences,
              std::make_unique<Preference>(), preference);
}

cublasStatus_t preferenceDestroy(cublasLtMatmulPreference_t preference) {
  auto lock = Device::lock();
  return drop("cublasLtMatmulPreferenceDestroy", objects().preferences,
              preference, "cublasLtMatmulPreferenceCreate");
}

cublasStatus_t preferenceSetAttribute(cublasLtMatmulPreference_t preference,
                                      int attribute, const void *value,
                                      size_t size) {
  auto lock = Device::lock();
  const char *entry = "cublasLtMatmulPreferenceSetAttribute";
  Preference *p = find(objects().preferences, preference);
  if (!p)
    return fail(entry, "not a preference cublasLtMatmulPreferenceCreate made");
  switch (attribute) {
  case CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES:
    return setField(entry, attribute, value, size, p->maxWorkspace);
  case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES:
  case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES:
  case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES:
  case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES:
    return setField(entry, attribute, value, size,
                    p->alignment[attribute -
                                 CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES]);
  }
  return unmodelled(entry, attribute);
}

// The algorithm's words: the magic, the workspace it asks, then the
// alignments of A, B, C and D it was chosen for.
enum AlgoWord { kMagic, kWorkspace, kAlignA };

cublasStatus_t getHeuristic(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
                            cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
                            cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d,
                            cublasLtMatmulPreference_t preference,
                            int requested,
                            cublasLtMatmulHeuristicResult_t *results,
                            int *returned) {
  auto lock = Device::lock();
  const char *entry = "cublasLtMatmulAlgoGetHeuristic";
  Problem problem;
  if (cublasStatus_t status =
          checkProblem(entry, handle, desc, a, b, c, d, problem))
    return status;
  Preference *p = find(objects().preferences, preference);
  if (!p)
    return fail(entry, "not a preference cublasLtMatmulPreferenceCreate made");
  if (requested < 1 || !results || !returned)
    return fail(entry, "no room for a result");
  for (uint32_t alignment : p->alignment)
    if (alignment == 0 || (alignment & (alignment - 1)) != 0)
      return fail(entry, "alignment " + llvm::Twine(alignment) +
                             " is not a power of two");
  cublasLtMatmulHeuristicResult_t result{};
  result.algo.data[kMagic] = kAlgoMagic;
  result.workspaceSize = std::min(p->maxWorkspace, kFakeWorkspaceBytes);
  result.algo.data[kWorkspace] = result.workspaceSize;
  for (int i = 0; i < 4; ++i)
    result.algo.data[kAlignA + i] = p->alignment[i];
  result.state = CUBLAS_STATUS_SUCCESS;
  result.wavesCount = 1;
  results[0] = result;
  *returned = 1;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t matmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
                      const void *alpha, const void *a,
                      cublasLtMatrixLayout_t aLayout, const void *b,
                      cublasLtMatrixLayout_t bLayout, const void *beta,
                      const void *c, cublasLtMatrixLayout_t cLayout, void *d,
                      cublasLtMatrixLayout_t dLayout,
                      const cublasLtMatmulAlgo_t *algo, void *workspace,
                      size_t workspaceBytes, void *) {
  auto lock = Device::lock();
  const char *entry = "cublasLtMatmul";
  Problem p;
  if (cublasStatus_t status = checkProblem(entry, handle, desc, aLayout,
                                           bLayout, cLayout, dLayout, p))
    return status;
  const Operation &op = *p.operation;
  if (!algo || algo->data[kMagic] != kAlgoMagic)
    return fail(entry, "the algorithm is not one "
                       "cublasLtMatmulAlgoGetHeuristic returned");
  if (workspaceBytes < algo->data[kWorkspace])
    return fail(entry, "a workspace of " + llvm::Twine(workspaceBytes) +
                           " bytes; the algorithm asked " +
                           llvm::Twine(algo->data[kWorkspace]));
  Device &device = Device::get();
  if (workspaceBytes &&
      device.accessFromHost(reinterpret_cast<CUdeviceptr>(workspace),
                            workspaceBytes, /*write=*/true))
    return fail(entry, "the workspace of " + llvm::Twine(workspaceBytes) +
                           " bytes is not in device memory");
  if (!alpha || !beta)
    return fail(entry, "no alpha or beta");
  bool f64 = op.scale == CUDA_R_64F;
  double alphaValue = f64 ? *static_cast<const double *>(alpha)
                          : *static_cast<const float *>(alpha);
  double betaValue = f64 ? *static_cast<const double *>(beta)
                         : *static_cast<const float *>(beta);
  if (alphaValue != 1 || betaValue != 0)
    return fail(entry, "alpha " + std::to_string(alphaValue) + " and beta " +
                           std::to_string(betaValue) +
                           ": the fake computes alpha 1, beta 0 only",
                CUBLAS_STATUS_NOT_SUPPORTED);
  if (c != d)
    return fail(entry, "C is not D (the fake computes beta 0 in place)",
                CUBLAS_STATUS_NOT_SUPPORTED);
  bool hasBias = op.epilogue == CUBLASLT_EPILOGUE_BIAS;
  if (hasBias && !op.bias)
    return fail(entry, "the bias epilogue without a bias pointer");

  // Alignment and device memory of each matrix (and the bias).
  unsigned bytes = getTypeBytes(p.d->type);
  const void *pointers[3] = {a, b, d};
  const Layout *layouts[3] = {p.a, p.b, p.d};
  const char *names[3] = {"A", "B", "D"};
  unsigned alignmentWord[3] = {kAlignA, kAlignA + 1, kAlignA + 3};
  for (int i = 0; i < 3; ++i) {
    uint64_t alignment = algo->data[alignmentWord[i]];
    auto address = reinterpret_cast<uintptr_t>(pointers[i]);
    uint64_t strideBytes =
        layouts[i]->batchCount > 1 ? layouts[i]->batchStride * bytes : 0;
    if (address % alignment != 0 || strideBytes % alignment != 0)
      return fail(entry, llvm::Twine(names[i]) + " at 0x" +
                             llvm::Twine::utohexstr(address) +
                             " with batch stride " +
                             llvm::Twine(strideBytes) +
                             " bytes is not aligned to the " +
                             llvm::Twine(alignment) +
                             " bytes the algorithm was chosen for");
    if (device.accessFromHost(address, getSpan(*layouts[i]) * bytes,
                              /*write=*/i == 2))
      return fail(entry, llvm::Twine(names[i]) + "'s " +
                             llvm::Twine(getSpan(*layouts[i])) +
                             " elements at 0x" +
                             llvm::Twine::utohexstr(address) +
                             " are not in one device allocation");
  }
  if (hasBias && device.accessFromHost(reinterpret_cast<CUdeviceptr>(op.bias),
                                       p.m * bytes, /*write=*/false))
    return fail(entry, "the bias's " + llvm::Twine(p.m) +
                           " elements are not in one device allocation");
  if (const char *log = std::getenv("FUSER_SIMT_BLASLT_LOG");
      log && *log == '1') {
    auto matrix = [&](const char *name, const Layout &l, int32_t trans) {
      llvm::errs() << " " << name << "=" << l.rows << "x" << l.cols
                   << ",ld=" << l.ld;
      if (trans >= 0)
        llvm::errs() << (trans == CUBLAS_OP_T ? ",T" : ",N");
      if (l.batchCount > 1)
        llvm::errs() << ",batch=" << l.batchCount << "/" << l.batchStride;
    };
    llvm::errs() << "simt: cublasLtMatmul m=" << p.m << " n=" << p.n
                 << " k=" << p.k << " type=" << p.d->type
                 << " compute=" << op.compute << " scale=" << op.scale;
    matrix("A", *p.a, op.transA);
    matrix("B", *p.b, op.transB);
    matrix("D", *p.d, -1);
    llvm::errs() << " epilogue=" << (hasBias ? "bias" : "default")
                 << " workspace=" << workspaceBytes << "\n";
  }
  if (p.m == 0 || p.n == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!getBlasLoadError().empty())
    return fail(entry,
                "the fake computes with the CPU backend's BLAS: " +
                    getBlasLoadError(),
                CUBLAS_STATUS_NOT_INITIALIZED);

  // The row-major gemm of LibraryCall.h computing D^T: its M is D's
  // columns, its N D's rows (the bias's), its lhs op(B)^T, its rhs op(A)^T.
  bool ta = op.transA == CUBLAS_OP_T, tb = op.transB == CUBLAS_OP_T;
  llvm::SmallVector<int64_t> gemm(FirstBatchDim + BatchSlots, 0);
  gemm[Element] = int64_t(*getElement(p.d->type));
  gemm[M] = p.n;
  gemm[N] = p.m;
  gemm[K] = p.k;
  gemm[LhsStrideM] = tb ? 1 : p.b->ld;
  gemm[LhsStrideK] = tb ? p.b->ld : 1;
  gemm[RhsStrideK] = ta ? 1 : p.a->ld;
  gemm[RhsStrideN] = ta ? p.a->ld : 1;
  gemm[OutStrideM] = p.d->ld;
  gemm[OutStrideN] = 1;
  gemm[HasBias] = hasBias;
  gemm[BiasStrideN] = 1;
  gemm[BatchRank] = 1;
  gemm[FirstBatchDim + BatchSize] = p.d->batchCount;
  gemm[FirstBatchDim + BatchLhsStride] = p.b->batchStride;
  gemm[FirstBatchDim + BatchRhsStride] = p.a->batchStride;
  gemm[FirstBatchDim + BatchOutStride] = p.d->batchStride;
  runLibraryMatmul(reinterpret_cast<intptr_t>(gemm.data()),
                   reinterpret_cast<intptr_t>(b), reinterpret_cast<intptr_t>(a),
                   reinterpret_cast<intptr_t>(op.bias),
                   reinterpret_cast<intptr_t>(d));
  return CUBLAS_STATUS_SUCCESS;
}
} // namespace

const BlasLtAPI &mlir::fuser::simt::getBlasLtAPI() {
  static const BlasLtAPI api = [] {
    BlasLtAPI table{};
    table.cublasLtCreate = create;
    table.cublasLtDestroy = destroy;
    table.cublasLtGetStatusName = getStatusName;
    table.cublasLtMatmulDescCreate = descCreate;
    table.cublasLtMatmulDescDestroy = descDestroy;
    table.cublasLtMatmulDescSetAttribute = descSetAttribute;
    table.cublasLtMatrixLayoutCreate = layoutCreate;
    table.cublasLtMatrixLayoutDestroy = layoutDestroy;
    table.cublasLtMatrixLayoutSetAttribute = layoutSetAttribute;
    table.cublasLtMatmulPreferenceCreate = preferenceCreate;
    table.cublasLtMatmulPreferenceDestroy = preferenceDestroy;
    table.cublasLtMatmulPreferenceSetAttribute = preferenceSetAttribute;
    table.cublasLtMatmulAlgoGetHeuristic = getHeuristic;
    table.cublasLtMatmul = matmul;
    return table;
  }();
  return api;
}
