//===- DriverAPI.cpp - the CUDA driver API over the emulated device -------===//
//
// Each entry point is the driver's, with the emulated device behind it:
// device 0 is an sm_90 "GPU" (Device.h's Chip), device memory is host
// memory the device tracks, cuModuleLoadData takes offload bitcode
// (HostModule.h) and cuLaunchKernel runs the kernel to completion before
// it returns. Events read the host's steady clock.
//
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "fuser/ExecutionEngine/SimtDriver.h"

#include <chrono>
#include <cstring>
#include <mutex>

using namespace mlir::fuser;
using namespace mlir::fuser::simt;
using cuda::CUcontext;
using cuda::CUdevice;
using cuda::CUevent;
using cuda::CUfunction;
using cuda::CUmodule;
using cuda::CUstream;

namespace {
bool initialized = false;

/// One device for the process (Device::lock).
[[nodiscard]] std::unique_lock<std::recursive_mutex> lockDevice() {
  return Device::lock();
}

struct Event {
  double ms = 0;
};

CUresult getErrorNameEntry(CUresult error, const char **name) {
  const char *text = getErrorName(error);
  if (!text)
    return kInvalidValue;
  *name = text;
  return kSuccess;
}
CUresult init(unsigned) {
  initialized = true;
  return kSuccess;
}
CUresult driverGetVersion(int *version) {
  *version = 13000;
  return kSuccess;
}
CUresult deviceGetCount(int *count) {
  if (!initialized)
    return kNotInitialized;
  *count = 1;
  return kSuccess;
}
CUresult deviceGet(CUdevice *device, int ordinal) {
  if (ordinal != 0)
    return kInvalidValue;
  *device = 0;
  return kSuccess;
}
CUresult deviceGetName(char *name, int length, CUdevice) {
  std::snprintf(name, length, "Fuser SIMT emulator (sm_90 on the host)");
  return kSuccess;
}
CUresult deviceGetAttribute(int *value, int attribute, CUdevice) {
  switch (attribute) {
  case cuda::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = Chip::kMultiprocessors;
    return kSuccess;
  case cuda::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
    *value = static_cast<int>(Chip::kL2Bytes);
    return kSuccess;
  case cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = Chip::kMajor;
    return kSuccess;
  case cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = Chip::kMinor;
    return kSuccess;
  }
  return kInvalidValue;
}
CUresult primaryCtxRetain(CUcontext *context, CUdevice) {
  static int theContext;
  *context = reinterpret_cast<CUcontext>(&theContext);
  return kSuccess;
}
CUresult ctxSetCurrent(CUcontext) { return kSuccess; }
CUresult ctxSynchronize() { return kSuccess; }
CUresult moduleLoadData(CUmodule *module, const void *image) {
  auto lock = lockDevice();
  if (!module)
    return kInvalidValue;
  Module *loaded = nullptr;
  CUresult r = Device::get().loadModule(image, &loaded);
  *module = reinterpret_cast<CUmodule>(loaded);
  return r;
}
CUresult moduleUnload(CUmodule module) {
  auto lock = lockDevice();
  return Device::get().unloadModule(reinterpret_cast<Module *>(module));
}
CUresult moduleGetFunction(CUfunction *function, CUmodule module,
                           const char *name) {
  auto lock = lockDevice();
  if (!function)
    return kInvalidValue;
  Kernel *kernel = nullptr;
  CUresult r = Device::get().getKernel(
      &kernel, reinterpret_cast<Module *>(module), name);
  *function = reinterpret_cast<CUfunction>(kernel);
  return r;
}
CUresult launchKernel(CUfunction function, unsigned gx, unsigned gy,
                      unsigned gz, unsigned bx, unsigned by, unsigned bz,
                      unsigned sharedBytes, CUstream, void **params,
                      void **extra) {
  auto lock = lockDevice();
  auto *kernel = reinterpret_cast<Kernel *>(function);
  if (!kernel || extra || (!params && !kernel->params.empty()))
    return kInvalidValue;
  return Device::get().launch(*kernel,
                              {gx, gy, gz}, {bx, by, bz}, sharedBytes, params);
}
CUresult memAlloc(cuda::CUdeviceptr *address, size_t bytes) {
  auto lock = lockDevice();
  return Device::get().allocate(address, bytes);
}
CUresult memFree(cuda::CUdeviceptr address) {
  auto lock = lockDevice();
  return Device::get().release(address);
}
CUresult memcpyHtoD(cuda::CUdeviceptr dst, const void *src, size_t bytes) {
  auto lock = lockDevice();
  return Device::get().copyToDevice(dst, src, bytes);
}
CUresult memcpyDtoH(void *dst, cuda::CUdeviceptr src, size_t bytes) {
  auto lock = lockDevice();
  return Device::get().copyFromDevice(dst, src, bytes);
}
CUresult memcpyDtoD(cuda::CUdeviceptr dst, cuda::CUdeviceptr src,
                    size_t bytes) {
  auto lock = lockDevice();
  return Device::get().copyOnDevice(dst, src, bytes);
}
CUresult memsetD8(cuda::CUdeviceptr dst, unsigned char value, size_t bytes) {
  auto lock = lockDevice();
  return Device::get().fill(dst, value, bytes);
}
CUresult eventCreate(CUevent *event, unsigned) {
  *event = reinterpret_cast<CUevent>(new Event());
  return kSuccess;
}
CUresult eventDestroy(CUevent event) {
  delete reinterpret_cast<Event *>(event);
  return kSuccess;
}
CUresult eventRecord(CUevent event, CUstream) {
  using namespace std::chrono;
  reinterpret_cast<Event *>(event)->ms =
      duration<double, std::milli>(steady_clock::now().time_since_epoch())
          .count();
  return kSuccess;
}
CUresult eventSynchronize(CUevent) { return kSuccess; }
CUresult eventElapsedTime(float *ms, CUevent start, CUevent end) {
  *ms = static_cast<float>(reinterpret_cast<Event *>(end)->ms -
                           reinterpret_cast<Event *>(start)->ms);
  return kSuccess;
}
} // namespace

const cuda::DriverAPI &mlir::fuser::simt::getDriverAPI() {
  static const cuda::DriverAPI api = [] {
    cuda::DriverAPI table{};
    table.cuInit = init;
    table.cuDriverGetVersion = driverGetVersion;
    table.cuDeviceGetCount = deviceGetCount;
    table.cuDeviceGet = deviceGet;
    table.cuDeviceGetName = deviceGetName;
    table.cuDeviceGetAttribute = deviceGetAttribute;
    table.cuDevicePrimaryCtxRetain = primaryCtxRetain;
    table.cuCtxSetCurrent = ctxSetCurrent;
    table.cuCtxSynchronize = ctxSynchronize;
    table.cuModuleLoadData = moduleLoadData;
    table.cuModuleUnload = moduleUnload;
    table.cuModuleGetFunction = moduleGetFunction;
    table.cuLaunchKernel = launchKernel;
    table.cuMemAlloc = memAlloc;
    table.cuMemFree = memFree;
    table.cuMemcpyHtoD = memcpyHtoD;
    table.cuMemcpyDtoH = memcpyDtoH;
    table.cuMemcpyDtoD = memcpyDtoD;
    table.cuMemsetD8 = memsetD8;
    table.cuEventCreate = eventCreate;
    table.cuEventDestroy = eventDestroy;
    table.cuEventRecord = eventRecord;
    table.cuEventSynchronize = eventSynchronize;
    table.cuEventElapsedTime = eventElapsedTime;
    table.cuGetErrorName = getErrorNameEntry;
    return table;
  }();
  return api;
}

llvm::Expected<cuda::Driver &> mlir::fuser::simt::getDriver() {
  return cuda::Driver::getEmulated(getDriverAPI(), getBlasLtAPI());
}

void mlir::fuser::simt::printSummary(llvm::raw_ostream &os) {
  auto lock = lockDevice();
  const LaunchSummary &t = Device::get().getTotals();
  os << "simt: " << t.launches << " launches, " << t.blocks << " blocks, "
     << t.threads << " threads, " << t.accesses << " checked accesses, "
     << t.barriers << " barriers, " << t.shuffles << " shuffles, " << t.errors
     << " errors\n";
}
