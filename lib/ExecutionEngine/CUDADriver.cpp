//===- CUDADriver.cpp - the CUDA driver API, loaded at run time -----------===//
//
// dlopen("libcuda.so.1") (or $FUSER_CUDA_DRIVER), dlsym of each entry point
// by its exported name, cuInit, device 0 and its primary context. Done once
// per process; the outcome, success or the reason, is kept.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CUDADriver.h"

#include "llvm/ADT/Twine.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <vector>

using namespace mlir::fuser::cuda;

namespace {
template <typename Fn> bool resolve(void *library, const char *name, Fn *&fn) {
  fn = reinterpret_cast<Fn *>(dlsym(library, name));
  return fn != nullptr;
}
} // namespace

llvm::Error Driver::check(CUresult result, const llvm::Twine &what) const {
  if (result == 0)
    return llvm::Error::success();
  const char *name = nullptr;
  if (!fns.cuGetErrorName || fns.cuGetErrorName(result, &name) != 0 || !name)
    // The stub library answers no name; the codes a missing driver gives.
    name = result == 34    ? "CUDA_ERROR_STUB_LIBRARY"
           : result == 35  ? "CUDA_ERROR_INSUFFICIENT_DRIVER"
           : result == 100 ? "CUDA_ERROR_NO_DEVICE"
                           : "unknown error";
  return llvm::createStringError(what + " failed: " + name + " (" +
                                 llvm::Twine(result) + ")");
}

llvm::Expected<Driver &> Driver::makeCurrent(Driver &driver,
                                             const std::string &failure) {
  if (!failure.empty())
    return llvm::createStringError(failure);
  // The primary context is made current on every thread that asks.
  if (llvm::Error e = driver.check(driver.fns.cuCtxSetCurrent(driver.context),
                                   "cuCtxSetCurrent"))
    return std::move(e);
  return driver;
}

std::string Driver::initialize() {
  if (CUresult r = fns.cuInit(0)) {
    std::string detail = llvm::toString(check(r, "cuInit"));
    // The toolkit's stub library (lib64/stubs/libcuda.so) and a machine
    // whose driver has no device both fail here.
    return r == 100 ? "no CUDA device (" + detail + ")"
                    : "no CUDA driver found (" + detail + ")";
  }
  int count = 0;
  if (CUresult r = fns.cuDeviceGetCount(&count))
    return "no CUDA device (" + llvm::toString(check(r, "cuDeviceGetCount")) +
           ")";
  if (count == 0)
    return "no CUDA device (cuDeviceGetCount found 0 devices)";
  if (llvm::Error e = check(fns.cuDeviceGet(&device, 0), "cuDeviceGet"))
    return "no CUDA device (" + llvm::toString(std::move(e)) + ")";
  char name[256] = {0};
  int major = 0, minor = 0;
  if (llvm::Error e = check(fns.cuDeviceGetName(name, sizeof(name) - 1, device),
                            "cuDeviceGetName"))
    return "no CUDA device (" + llvm::toString(std::move(e)) + ")";
  int l2 = 0;
  fns.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                           device);
  fns.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                           device);
  fns.cuDeviceGetAttribute(&multiprocessors,
                           CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
  fns.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device);
  l2Bytes = l2;
  deviceName = name;
  chip = ("sm_" + llvm::Twine(major) + llvm::Twine(minor)).str();
  if (llvm::Error e = check(fns.cuDevicePrimaryCtxRetain(&context, device),
                            "cuDevicePrimaryCtxRetain"))
    return "no CUDA device (" + llvm::toString(std::move(e)) + ")";
  return "";
}

llvm::Expected<Driver &> Driver::getEmulated(const DriverAPI &api,
                                            const BlasLtAPI &blasLt) {
  static Driver driver;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [&] {
    driver.fns = api;
    driver.emulatedBlasLt = &blasLt;
    driver.libraryName = "the SIMT emulator";
    driver.objectFormat = "llvm";
    failure = driver.initialize();
  });
  return makeCurrent(driver, failure);
}

llvm::Expected<Driver &> Driver::get() {
  static Driver driver;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    auto fail = [](const llvm::Twine &message) { failure = message.str(); };
    const char *override = std::getenv("FUSER_CUDA_DRIVER");
    driver.libraryName = override && *override ? override : "libcuda.so.1";
    // RTLD_LOCAL: the driver's symbols stay out of the JIT's global lookup.
    void *library = dlopen(driver.libraryName.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char *error = dlerror();
      return fail("no CUDA driver found (" +
                  llvm::Twine(error ? error : driver.libraryName) + ")");
    }
    DriverAPI &f = driver.fns;
    const char *missing = nullptr;
    auto need = [&](const char *name, auto *&fn) {
      if (!missing && !resolve(library, name, fn))
        missing = name;
    };
    need("cuGetErrorName", f.cuGetErrorName);
    need("cuInit", f.cuInit);
    need("cuDriverGetVersion", f.cuDriverGetVersion);
    need("cuDeviceGetCount", f.cuDeviceGetCount);
    need("cuDeviceGet", f.cuDeviceGet);
    need("cuDeviceGetName", f.cuDeviceGetName);
    need("cuDeviceGetAttribute", f.cuDeviceGetAttribute);
    need("cuDevicePrimaryCtxRetain", f.cuDevicePrimaryCtxRetain);
    need("cuCtxSetCurrent", f.cuCtxSetCurrent);
    need("cuCtxSynchronize", f.cuCtxSynchronize);
    need("cuModuleLoadData", f.cuModuleLoadData);
    need("cuModuleUnload", f.cuModuleUnload);
    need("cuModuleGetFunction", f.cuModuleGetFunction);
    need("cuLaunchKernel", f.cuLaunchKernel);
    need("cuMemAlloc_v2", f.cuMemAlloc);
    need("cuMemFree_v2", f.cuMemFree);
    need("cuMemcpyHtoD_v2", f.cuMemcpyHtoD);
    need("cuMemcpyDtoH_v2", f.cuMemcpyDtoH);
    need("cuMemcpyDtoD_v2", f.cuMemcpyDtoD);
    need("cuMemsetD8_v2", f.cuMemsetD8);
    need("cuEventCreate", f.cuEventCreate);
    need("cuEventDestroy_v2", f.cuEventDestroy);
    need("cuEventRecord", f.cuEventRecord);
    need("cuEventSynchronize", f.cuEventSynchronize);
    need("cuEventElapsedTime", f.cuEventElapsedTime);
    if (missing)
      return fail("no CUDA driver found (" + driver.libraryName +
                  " has no entry point " + missing + ")");
    if (dlsym(library, "fuserSimtEmulator"))
      driver.objectFormat = "llvm";
    failure = driver.initialize();
    // The library stays loaded and the context retained until the process
    // ends.
  });
  return makeCurrent(driver, failure);
}

llvm::Expected<BlasLt &> Driver::getBlasLt() {
  std::call_once(blasLtOnce, [this] {
    if (emulatedBlasLt) {
      llvm::Expected<BlasLt &> created =
          BlasLt::create(blasLt, *emulatedBlasLt, libraryName + "'s cuBLASLt");
      if (!created)
        blasLtFailure = llvm::toString(created.takeError());
      return;
    }
    // $FUSER_CUBLASLT; else the SIMT drop-in driver's own fake (a real
    // cuBLASLt cannot run on it); else the toolkit's, CUDA 13 then 12.
    std::vector<std::string> candidates;
    const char *named = std::getenv("FUSER_CUBLASLT");
    if (named && *named)
      candidates.push_back(named);
    else if (objectFormat == "llvm")
      candidates.push_back(libraryName);
    else
      candidates = {"libcublasLt.so.13", "libcublasLt.so.12"};
    std::string tried;
    for (const std::string &name : candidates) {
      void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        const char *why = dlerror();
        tried += (tried.empty() ? "" : "; ") + std::string(why ? why : name);
        continue;
      }
      BlasLtAPI api{};
      if (const char *missing = resolveBlasLtAPI(handle, api)) {
        tried += (tried.empty() ? "" : "; ") + name + " has no entry point " +
                 missing;
        continue;
      }
      // The library stays loaded until the process ends, as the driver.
      llvm::Expected<BlasLt &> created = BlasLt::create(blasLt, api, name);
      if (!created)
        blasLtFailure = llvm::toString(created.takeError());
      return;
    }
    blasLtFailure = "no cuBLASLt found for matmul/linear library segments "
                    "(install the CUDA toolkit's libcublasLt, or name it in "
                    "$FUSER_CUBLASLT): " +
                    tried;
  });
  if (!blasLtFailure.empty())
    return llvm::createStringError(blasLtFailure);
  return blasLt;
}
