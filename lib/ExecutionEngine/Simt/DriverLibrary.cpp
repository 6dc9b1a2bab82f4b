//===- DriverLibrary.cpp - libfuser_simt_cuda.so, a drop-in libcuda -------===//
//
// The emulator's driver API under the driver's exported names, for
// FUSER_CUDA_DRIVER=<build>/lib/libfuser_simt_cuda.so: `fuser-run --backend
// cuda` (or any program that resolves these names) then runs its launch
// plan on the emulator. fuserSimtEmulator marks the library, so that the
// CUDA runtime compiles for it in the offload format (CUDADriver.cpp).
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/SimtDriver.h"

using namespace mlir::fuser;
using namespace mlir::fuser::cuda;

namespace {
const DriverAPI &api() { return simt::getDriverAPI(); }
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
}
