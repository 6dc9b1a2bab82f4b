//===- CUBLASLtTest.cpp - the fake cuBLASLt and the declared ABI ----------===//
//
// The SIMT emulator's fake cuBLASLt (lib/ExecutionEngine/Simt/BlasLt.cpp)
// computes a correct call and refuses, with a message saying why, each kind
// of bad call the CUDA runtime could make: a leading dimension below the
// rows, a workspace smaller than the heuristic asked, a compute type the
// elements do not take, an attribute of the wrong size, transposes that
// make no product, overlapping result batches, a pointer less aligned than
// the algorithm was chosen for, a matrix outside its allocation. Where the
// toolkit's libcublasLt is installed, the attribute ids and value types of
// CUBLASLt.h are checked against it (it refuses a value of the wrong size).
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CUBLASLt.h"
#include "fuser/ExecutionEngine/SimtDriver.h"

#include "gtest/gtest.h"

#include <dlfcn.h>
#include <vector>

using namespace mlir::fuser;
using namespace mlir::fuser::cuda;

namespace {
/// D (4 x 2) = A (4 x 3) B (3 x 2), f32, column-major, on the emulated
/// device, with the objects a test may spoil before it runs.
class FakeBlasLt : public ::testing::Test {
protected:
  static constexpr uint64_t m = 4, n = 2, k = 3;

  void SetUp() override {
    llvm::Expected<Driver &> driver = simt::getDriver();
    ASSERT_TRUE(bool(driver)) << llvm::toString(driver.takeError());
    const DriverAPI &cu = driver->api();
    // Room past each matrix, for the tests that move a pointer.
    for (CUdeviceptr *buffer : {&a, &b, &d})
      ASSERT_EQ(cu.cuMemAlloc(buffer, 64 * sizeof(float)), 0);
    ASSERT_EQ(cu.cuMemAlloc(&workspace, 1 << 20), 0);
    std::vector<float> aValues(64), bValues(64);
    for (int i = 0; i < 64; ++i) {
      aValues[i] = float(i + 1);
      bValues[i] = float(2 * i - 3);
    }
    ASSERT_EQ(cu.cuMemcpyHtoD(a, aValues.data(), 64 * sizeof(float)), 0);
    ASSERT_EQ(cu.cuMemcpyHtoD(b, bValues.data(), 64 * sizeof(float)), 0);
    ASSERT_EQ(lt.cublasLtCreate(&handle), CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(lt.cublasLtMatmulDescCreate(&operation, CUBLAS_COMPUTE_32F,
                                          CUDA_R_32F),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(lt.cublasLtMatrixLayoutCreate(&aLayout, CUDA_R_32F, m, k, m),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(lt.cublasLtMatrixLayoutCreate(&bLayout, CUDA_R_32F, k, n, k),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(lt.cublasLtMatrixLayoutCreate(&dLayout, CUDA_R_32F, m, n, m),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(lt.cublasLtMatmulPreferenceCreate(&preference),
              CUBLAS_STATUS_SUCCESS);
    uint64_t maxWorkspace = 1 << 20;
    ASSERT_EQ(lt.cublasLtMatmulPreferenceSetAttribute(
                  preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                  &maxWorkspace, sizeof(maxWorkspace)),
              CUBLAS_STATUS_SUCCESS);
  }

  void TearDown() override {
    lt.cublasLtMatmulPreferenceDestroy(preference);
    for (cublasLtMatrixLayout_t layout : {aLayout, bLayout, dLayout})
      lt.cublasLtMatrixLayoutDestroy(layout);
    lt.cublasLtMatmulDescDestroy(operation);
    lt.cublasLtDestroy(handle);
    const DriverAPI &cu = simt::getDriverAPI();
    for (CUdeviceptr buffer : {a, b, d, workspace})
      cu.cuMemFree(buffer);
  }

  /// The heuristic's status; its algorithm and workspace kept.
  cublasStatus_t getHeuristic() {
    cublasLtMatmulHeuristicResult_t result{};
    int found = 0;
    cublasStatus_t status = lt.cublasLtMatmulAlgoGetHeuristic(
        handle, operation, aLayout, bLayout, dLayout, dLayout, preference, 1,
        &result, &found);
    algo = result.algo;
    asked = result.workspaceSize;
    return status;
  }

  /// cublasLtMatmul with the algorithm of getHeuristic, A at `aOffset`
  /// elements, `workspaceBytes` of workspace.
  cublasStatus_t run(uint64_t workspaceBytes, uint64_t aOffset = 0) {
    float one = 1, zero = 0;
    auto *dPointer = reinterpret_cast<void *>(d);
    return lt.cublasLtMatmul(
        handle, operation, &one,
        reinterpret_cast<const void *>(a + aOffset * sizeof(float)), aLayout,
        reinterpret_cast<const void *>(b), bLayout, &zero, dPointer, dLayout,
        dPointer, dLayout, &algo, reinterpret_cast<void *>(workspace),
        workspaceBytes, nullptr);
  }

  /// What the fake printed while `call` ran, and that it refused.
  template <typename Call> std::string refusal(Call call) {
    testing::internal::CaptureStderr();
    cublasStatus_t status = call();
    std::string printed = testing::internal::GetCapturedStderr();
    EXPECT_NE(status, CUBLAS_STATUS_SUCCESS) << printed;
    return printed;
  }

  const BlasLtAPI &lt = simt::getBlasLtAPI();
  CUdeviceptr a = 0, b = 0, d = 0, workspace = 0;
  cublasLtHandle_t handle = nullptr;
  cublasLtMatmulDesc_t operation = nullptr;
  cublasLtMatrixLayout_t aLayout = nullptr, bLayout = nullptr,
                         dLayout = nullptr;
  cublasLtMatmulPreference_t preference = nullptr;
  cublasLtMatmulAlgo_t algo{};
  uint64_t asked = 0;
};

TEST_F(FakeBlasLt, ComputesTheProductItWasGiven) {
  ASSERT_EQ(getHeuristic(), CUBLAS_STATUS_SUCCESS);
  EXPECT_GT(asked, 0u);
  ASSERT_EQ(run(asked), CUBLAS_STATUS_SUCCESS);
  std::vector<float> out(m * n);
  ASSERT_EQ(simt::getDriverAPI().cuMemcpyDtoH(out.data(), d,
                                              out.size() * sizeof(float)),
            0);
  // Column-major: A(i, l) = i + l*m + 1, B(l, j) = 2 (l + j*k) - 3.
  for (uint64_t i = 0; i < m; ++i)
    for (uint64_t j = 0; j < n; ++j) {
      float sum = 0;
      for (uint64_t l = 0; l < k; ++l)
        sum += float(i + l * m + 1) * float(2 * int64_t(l + j * k) - 3);
      EXPECT_EQ(out[i + j * m], sum) << i << ", " << j;
    }
}

TEST_F(FakeBlasLt, RefusesALeadingDimensionBelowTheRows) {
  lt.cublasLtMatrixLayoutDestroy(aLayout);
  ASSERT_EQ(lt.cublasLtMatrixLayoutCreate(&aLayout, CUDA_R_32F, m, k, 2),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_NE(refusal([&] { return getHeuristic(); })
                .find("cublasLtMatmulAlgoGetHeuristic: the leading dimension "
                      "of A (2) is less than its rows (4)"),
            std::string::npos);
}

TEST_F(FakeBlasLt, RefusesLessWorkspaceThanTheAlgorithmAsked) {
  ASSERT_EQ(getHeuristic(), CUBLAS_STATUS_SUCCESS);
  EXPECT_NE(refusal([&] { return run(asked - 1); })
                .find("a workspace of " + std::to_string(asked - 1) +
                      " bytes; the algorithm asked " + std::to_string(asked)),
            std::string::npos);
}

TEST_F(FakeBlasLt, RefusesAComputeTypeTheElementsDoNotTake) {
  int32_t compute = CUBLAS_COMPUTE_64F;
  ASSERT_EQ(lt.cublasLtMatmulDescSetAttribute(
                operation, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &compute,
                sizeof(compute)),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_NE(refusal([&] { return getHeuristic(); })
                .find("compute type 70 for elements of type 0"),
            std::string::npos);
}

TEST_F(FakeBlasLt, RefusesAnAttributeOfTheWrongSize) {
  int64_t wide = CUBLAS_OP_T;
  EXPECT_NE(refusal([&] {
              return lt.cublasLtMatmulDescSetAttribute(
                  operation, CUBLASLT_MATMUL_DESC_TRANSA, &wide,
                  sizeof(wide));
            }).find("attribute 3 takes 4 bytes, not 8"),
            std::string::npos);
}

TEST_F(FakeBlasLt, RefusesTransposesThatMakeNoProduct) {
  int32_t transpose = CUBLAS_OP_T;
  ASSERT_EQ(lt.cublasLtMatmulDescSetAttribute(
                operation, CUBLASLT_MATMUL_DESC_TRANSA, &transpose,
                sizeof(transpose)),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_NE(refusal([&] { return getHeuristic(); })
                .find("op(A) is 3 x 4, op(B) 3 x 2 and D 4 x 2: not the "
                      "shapes of one product"),
            std::string::npos);
}

TEST_F(FakeBlasLt, RefusesResultBatchesThatOverlap) {
  int32_t count = 2;
  int64_t stride = 4; // D's matrices are 4 x 2 with ld 4: 8 elements apart
  for (cublasLtMatrixLayout_t layout : {aLayout, bLayout, dLayout}) {
    ASSERT_EQ(lt.cublasLtMatrixLayoutSetAttribute(
                  layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                  sizeof(count)),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(lt.cublasLtMatrixLayoutSetAttribute(
                  layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                  &stride, sizeof(stride)),
              CUBLAS_STATUS_SUCCESS);
  }
  EXPECT_NE(refusal([&] { return getHeuristic(); })
                .find("D's batch stride 4 overlaps its matrices of 4 x 2"),
            std::string::npos);
}

TEST_F(FakeBlasLt, RefusesAPointerLessAlignedThanTheAlgorithm) {
  uint32_t alignment = 16;
  ASSERT_EQ(lt.cublasLtMatmulPreferenceSetAttribute(
                preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
                &alignment, sizeof(alignment)),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(getHeuristic(), CUBLAS_STATUS_SUCCESS);
  EXPECT_NE(refusal([&] { return run(asked, /*aOffset=*/1); })
                .find("is not aligned to the 16 bytes the algorithm was "
                      "chosen for"),
            std::string::npos);
}

TEST_F(FakeBlasLt, RefusesAMatrixOutsideItsAllocation) {
  uint32_t alignment = 4;
  ASSERT_EQ(lt.cublasLtMatmulPreferenceSetAttribute(
                preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
                &alignment, sizeof(alignment)),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(getHeuristic(), CUBLAS_STATUS_SUCCESS);
  // A's 12 elements from element 60 of 64.
  EXPECT_NE(refusal([&] { return run(asked, /*aOffset=*/60); })
                .find("A's 12 elements at 0x"),
            std::string::npos);
}

TEST(CUBLASLtHeader, AttributeTypesAreTheLibrarys) {
  void *library = dlopen("/usr/local/cuda/lib64/libcublasLt.so.13",
                         RTLD_NOW | RTLD_LOCAL);
  if (!library)
    GTEST_SKIP() << "no CUDA 13 toolkit cuBLASLt here";
  BlasLtAPI lt{};
  ASSERT_EQ(resolveBlasLtAPI(library, lt), nullptr);
  EXPECT_STREQ(lt.cublasLtGetStatusName(CUBLAS_STATUS_INVALID_VALUE),
               "CUBLAS_STATUS_INVALID_VALUE");
  EXPECT_STREQ(lt.cublasLtGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED),
               "CUBLAS_STATUS_NOT_SUPPORTED");
  // Descriptors need no device: each attribute set with the type CUBLASLt.h
  // gives it is taken, and one byte more is refused.
  cublasLtMatmulDesc_t operation = nullptr;
  ASSERT_EQ(lt.cublasLtMatmulDescCreate(&operation, CUBLAS_COMPUTE_32F,
                                        CUDA_R_32F),
            CUBLAS_STATUS_SUCCESS);
  auto expectTaken = [](auto set, int attribute, auto value) {
    EXPECT_EQ(set(attribute, &value, sizeof(value)), CUBLAS_STATUS_SUCCESS)
        << "attribute " << attribute;
    char wider[sizeof(value) + 1] = {};
    EXPECT_EQ(set(attribute, wider, sizeof(wider)),
              CUBLAS_STATUS_INVALID_VALUE)
        << "attribute " << attribute;
  };
  auto setOperation = [&](int attribute, const void *value, size_t size) {
    return lt.cublasLtMatmulDescSetAttribute(operation, attribute, value,
                                             size);
  };
  expectTaken(setOperation, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE,
              int32_t(CUBLAS_COMPUTE_32F));
  expectTaken(setOperation, CUBLASLT_MATMUL_DESC_SCALE_TYPE,
              int32_t(CUDA_R_32F));
  expectTaken(setOperation, CUBLASLT_MATMUL_DESC_TRANSA,
              int32_t(CUBLAS_OP_T));
  expectTaken(setOperation, CUBLASLT_MATMUL_DESC_TRANSB,
              int32_t(CUBLAS_OP_N));
  expectTaken(setOperation, CUBLASLT_MATMUL_DESC_EPILOGUE,
              uint32_t(CUBLASLT_EPILOGUE_BIAS));
  expectTaken(setOperation, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
              static_cast<const void *>(nullptr));
  expectTaken(setOperation, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
              int32_t(CUDA_R_16BF));
  lt.cublasLtMatmulDescDestroy(operation);

  cublasLtMatrixLayout_t layout = nullptr;
  ASSERT_EQ(lt.cublasLtMatrixLayoutCreate(&layout, CUDA_R_16F, 4, 3, 4),
            CUBLAS_STATUS_SUCCESS);
  auto setLayout = [&](int attribute, const void *value, size_t size) {
    return lt.cublasLtMatrixLayoutSetAttribute(layout, attribute, value,
                                               size);
  };
  expectTaken(setLayout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, int32_t(2));
  expectTaken(setLayout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
              int64_t(12));
  expectTaken(setLayout, CUBLASLT_MATRIX_LAYOUT_LD, int64_t(4));
  expectTaken(setLayout, CUBLASLT_MATRIX_LAYOUT_ROWS, uint64_t(4));
  lt.cublasLtMatrixLayoutDestroy(layout);

  cublasLtMatmulPreference_t preference = nullptr;
  ASSERT_EQ(lt.cublasLtMatmulPreferenceCreate(&preference),
            CUBLAS_STATUS_SUCCESS);
  auto setPreference = [&](int attribute, const void *value, size_t size) {
    return lt.cublasLtMatmulPreferenceSetAttribute(preference, attribute,
                                                   value, size);
  };
  expectTaken(setPreference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
              uint64_t(1 << 20));
  expectTaken(setPreference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
              uint32_t(16));
  expectTaken(setPreference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
              uint32_t(4));
  lt.cublasLtMatmulPreferenceDestroy(preference);
}
} // namespace
