//===- DriverLibrary.cpp - libfuser_simt_cuda.so, a drop-in libcuda -------===//
//
// The emulator's driver API under the driver's exported names, for
// FUSER_CUDA_DRIVER=<build>/lib/libfuser_simt_cuda.so: `fuser-run --backend
// cuda` (or any program that resolves these names) then runs its launch
// plan on the emulator. fuserSimtEmulator marks the library, so that the
// CUDA runtime compiles for it in the offload format (CUDADriver.cpp) and
// takes its cuBLASLt from here too: the fake's entry points under
// cuBLASLt's names (a real cuBLASLt cannot run on the emulated device).
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/SimtDriver.h"

using namespace mlir::fuser;
using namespace mlir::fuser::cuda;

namespace {
const DriverAPI &api() { return simt::getDriverAPI(); }
const BlasLtAPI &blasLt() { return simt::getBlasLtAPI(); }
} // namespace

extern "C" {
int fuserSimtEmulator = 1;

CUresult cuGetErrorName(CUresult e, const char **n) {
  return api().cuGetErrorName(e, n);
}
CUresult cuInit(unsigned f) { return api().cuInit(f); }
CUresult cuDriverGetVersion(int *v) { return api().cuDriverGetVersion(v); }
CUresult cuDeviceGetCount(int *c) { return api().cuDeviceGetCount(c); }
CUresult cuDeviceGet(CUdevice *d, int o) { return api().cuDeviceGet(d, o); }
CUresult cuDeviceGetName(char *n, int l, CUdevice d) {
  return api().cuDeviceGetName(n, l, d);
}
CUresult cuDeviceGetAttribute(int *v, int a, CUdevice d) {
  return api().cuDeviceGetAttribute(v, a, d);
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
  return api().cuDevicePrimaryCtxRetain(c, d);
}
CUresult cuCtxSetCurrent(CUcontext c) { return api().cuCtxSetCurrent(c); }
CUresult cuCtxSynchronize() { return api().cuCtxSynchronize(); }
CUresult cuModuleLoadData(CUmodule *m, const void *i) {
  return api().cuModuleLoadData(m, i);
}
CUresult cuModuleUnload(CUmodule m) { return api().cuModuleUnload(m); }
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *n) {
  return api().cuModuleGetFunction(f, m, n);
}
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned s,
                        CUstream st, void **p, void **e) {
  return api().cuLaunchKernel(f, gx, gy, gz, bx, by, bz, s, st, p, e);
}
CUresult cuMemAlloc_v2(CUdeviceptr *a, size_t b) {
  return api().cuMemAlloc(a, b);
}
CUresult cuMemFree_v2(CUdeviceptr a) { return api().cuMemFree(a); }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t b) {
  return api().cuMemcpyHtoD(d, s, b);
}
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t b) {
  return api().cuMemcpyDtoH(d, s, b);
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t b) {
  return api().cuMemcpyDtoD(d, s, b);
}
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t b) {
  return api().cuMemsetD8(d, v, b);
}
CUresult cuEventCreate(CUevent *e, unsigned f) {
  return api().cuEventCreate(e, f);
}
CUresult cuEventDestroy_v2(CUevent e) { return api().cuEventDestroy(e); }
CUresult cuEventRecord(CUevent e, CUstream s) {
  return api().cuEventRecord(e, s);
}
CUresult cuEventSynchronize(CUevent e) { return api().cuEventSynchronize(e); }
CUresult cuEventElapsedTime(float *ms, CUevent s, CUevent e) {
  return api().cuEventElapsedTime(ms, s, e);
}

cublasStatus_t cublasLtCreate(cublasLtHandle_t *h) {
  return blasLt().cublasLtCreate(h);
}
cublasStatus_t cublasLtDestroy(cublasLtHandle_t h) {
  return blasLt().cublasLtDestroy(h);
}
const char *cublasLtGetStatusName(cublasStatus_t s) {
  return blasLt().cublasLtGetStatusName(s);
}
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *d, int32_t c,
                                        int32_t s) {
  return blasLt().cublasLtMatmulDescCreate(d, c, s);
}
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t d) {
  return blasLt().cublasLtMatmulDescDestroy(d);
}
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d, int a,
                                              const void *v, size_t n) {
  return blasLt().cublasLtMatmulDescSetAttribute(d, a, v, n);
}
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *l,
                                          int32_t t, uint64_t r, uint64_t c,
                                          int64_t ld) {
  return blasLt().cublasLtMatrixLayoutCreate(l, t, r, c, ld);
}
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t l) {
  return blasLt().cublasLtMatrixLayoutDestroy(l);
}
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t l,
                                                int a, const void *v,
                                                size_t n) {
  return blasLt().cublasLtMatrixLayoutSetAttribute(l, a, v, n);
}
cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *p) {
  return blasLt().cublasLtMatmulPreferenceCreate(p);
}
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t p) {
  return blasLt().cublasLtMatmulPreferenceDestroy(p);
}
cublasStatus_t
cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t p, int a,
                                     const void *v, size_t n) {
  return blasLt().cublasLtMatmulPreferenceSetAttribute(p, a, v, n);
}
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(
    cublasLtHandle_t h, cublasLtMatmulDesc_t d, cublasLtMatrixLayout_t a,
    cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t c,
    cublasLtMatrixLayout_t dl, cublasLtMatmulPreference_t p, int n,
    cublasLtMatmulHeuristicResult_t *r, int *found) {
  return blasLt().cublasLtMatmulAlgoGetHeuristic(h, d, a, b, c, dl, p, n, r,
                                                 found);
}
cublasStatus_t cublasLtMatmul(cublasLtHandle_t h, cublasLtMatmulDesc_t d,
                              const void *alpha, const void *a,
                              cublasLtMatrixLayout_t al, const void *b,
                              cublasLtMatrixLayout_t bl, const void *beta,
                              const void *c, cublasLtMatrixLayout_t cl,
                              void *dp, cublasLtMatrixLayout_t dl,
                              const cublasLtMatmulAlgo_t *algo, void *w,
                              size_t wn, void *stream) {
  return blasLt().cublasLtMatmul(h, d, alpha, a, al, b, bl, beta, c, cl, dp,
                                 dl, algo, w, wn, stream);
}
}
