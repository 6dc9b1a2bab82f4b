//===- CUDADriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The few CUDA driver API entry points the `cuda` backend uses, resolved with
// dlopen("libcuda.so.1") + dlsym the first time they are needed. Nothing links
// against libcuda and no CUDA header is included, so every binary builds and
// links on machines without a GPU, a driver or the toolkit; there the backend
// reports "no CUDA driver found" (or "no CUDA device") and tools exit 2.
//
// FUSER_CUDA_DRIVER=<path> loads that library instead of libcuda.so.1 (a
// driver outside the loader's path, or the test suite's recording fake,
// libfuser_fake_cuda.so). See docs/Lowering.md, "CUDA runtime and
// --backend cuda".
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_CUDADRIVER_H
#define FUSER_EXECUTIONENGINE_CUDADRIVER_H

#include "fuser/ExecutionEngine/CUBLASLt.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace mlir::fuser::cuda {

// The driver API's ABI types (cuda.h), declared here so that no CUDA header
// is needed to build.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUevent_st;
struct CUstream_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUevent = CUevent_st *;
using CUstream = CUstream_st *;

/// cuDeviceGetAttribute attributes used here (cuda.h's CUdevice_attribute).
enum : int {
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};

/// The entry points, by their exported (versioned) names.
struct DriverAPI {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);         // cuMemAlloc_v2
  CUresult (*cuMemFree)(CUdeviceptr);                    // cuMemFree_v2
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t); // _v2
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);       // _v2
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);  // _v2
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);  // _v2
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);                   // cuEventDestroy_v2
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuGetErrorName)(CUresult, const char **);
};

/// The driver, initialized, with device 0's primary context current on the
/// calling thread.
class Driver {
public:
  /// Loads and initializes the driver once per process. On failure the
  /// message starts with "no CUDA driver found" (dlopen, a missing entry
  /// point, cuInit) or "no CUDA device" (cuDeviceGetCount is 0 or fails),
  /// followed by the detail in parentheses.
  static llvm::Expected<Driver &> get();

  /// The driver whose entry points are `api`, in this process (the SIMT
  /// emulator's, SimtDriver.h), initialized once as get() initializes
  /// libcuda; its cuBLASLt is `blasLt` (the emulator's fake).
  static llvm::Expected<Driver &> getEmulated(const DriverAPI &api,
                                              const BlasLtAPI &blasLt);

  /// cuBLASLt for this driver's device, for library segments: loaded and
  /// its handle created at the first call (CUBLASLt.h says from where). On
  /// failure the message starts with "no cuBLASLt".
  llvm::Expected<BlasLt &> getBlasLt();

  const DriverAPI &api() const { return fns; }
  CUdevice getDevice() const { return device; }
  /// "NVIDIA H200", compute capability as sm_XY, multiprocessors, L2 bytes.
  const std::string &getDeviceName() const { return deviceName; }
  const std::string &getChip() const { return chip; }
  int getMultiprocessorCount() const { return multiprocessors; }
  int64_t getL2CacheBytes() const { return l2Bytes; }
  /// The library that was loaded (libcuda.so.1 or $FUSER_CUDA_DRIVER).
  const std::string &getLibraryName() const { return libraryName; }
  /// What cuModuleLoadData takes: "bin" (cubin), or "llvm" (offload
  /// bitcode) for the SIMT emulator, in process or as the drop-in library
  /// (which exports `fuserSimtEmulator`).
  llvm::StringRef getObjectFormat() const { return objectFormat; }

  /// Success, or an error naming `what` and the driver's error name.
  llvm::Error check(CUresult result, const llvm::Twine &what) const;

private:
  Driver() = default;
  /// cuInit, device 0, its properties and primary context; the failure
  /// message, or empty.
  std::string initialize();
  /// `driver` with its context current on this thread, or `failure`.
  static llvm::Expected<Driver &> makeCurrent(Driver &driver,
                                              const std::string &failure);
  DriverAPI fns{};
  /// The emulated driver's cuBLASLt; null for a loaded driver.
  const BlasLtAPI *emulatedBlasLt = nullptr;
  BlasLt blasLt;
  std::string blasLtFailure;
  std::once_flag blasLtOnce;
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::string deviceName, chip, libraryName;
  std::string objectFormat = "bin";
  int multiprocessors = 0;
  int64_t l2Bytes = 0;
};

} // namespace mlir::fuser::cuda

#endif // FUSER_EXECUTIONENGINE_CUDADRIVER_H
