//===- CUDAFakeDriver.cpp - a recording stand-in for libcuda.so.1 ---------===//
//
// For the tests only, on machines without a GPU: the driver API entry points
// the CUDA runtime (CUDADriver.cpp) resolves, implemented on the host.
// Device memory is host memory, so uploads, downloads, memsets and
// device-to-device copies really happen; kernels do not run (a launch is
// logged and leaves its outputs as they were). Every call that matters is
// logged to stderr as `fake-cuda: ...`, with device pointers named by their
// allocation (`#N+offset`), so lit tests can check the launch sequence.
// Events advance a fake clock by 1 us per recorded event.
//
// FUSER_FAKE_CUDA_DEVICES=0 makes cuDeviceGetCount report no device;
// FUSER_FAKE_CUDA_QUIET=1 stops the log.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {
using CUresult = int;
using CUdeviceptr = unsigned long long;
constexpr CUresult kSuccess = 0, kInvalidValue = 1, kNotFound = 500,
                   kNotInitialized = 3, kNoDevice = 100;

struct Allocation {
  char *data;
  size_t bytes;
};
std::vector<Allocation> allocations;
bool initialized = false;
double clockMs = 0;

bool quiet() {
  const char *q = std::getenv("FUSER_FAKE_CUDA_QUIET");
  return q && *q == '1';
}

#define LOG(...)                                                               \
  do {                                                                         \
    if (!quiet()) {                                                            \
      std::fprintf(stderr, "fake-cuda: " __VA_ARGS__);                         \
      std::fputc('\n', stderr);                                                \
    }                                                                          \
  } while (0)

/// `#N+offset` for an address inside allocation N, else the hex value.
std::string name(CUdeviceptr address) {
  for (size_t i = 0; i < allocations.size(); ++i) {
    auto base = reinterpret_cast<CUdeviceptr>(allocations[i].data);
    if (allocations[i].data && address >= base &&
        address < base + std::max<size_t>(allocations[i].bytes, 1))
      return "#" + std::to_string(i) + "+" + std::to_string(address - base);
  }
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "0x%llx", address);
  return buffer;
}

struct Function {
  std::string name;
};
/// Owns its functions, as a CUDA module does: they go with cuModuleUnload.
struct Module {
  std::string image;
  std::vector<std::unique_ptr<Function>> functions;
};
struct Event {
  double ms = 0;
};
} // namespace

extern "C" {
CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case kSuccess:
    *name = "CUDA_SUCCESS";
    return kSuccess;
  case kInvalidValue:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return kSuccess;
  case kNotInitialized:
    *name = "CUDA_ERROR_NOT_INITIALIZED";
    return kSuccess;
  case kNoDevice:
    *name = "CUDA_ERROR_NO_DEVICE";
    return kSuccess;
  case kNotFound:
    *name = "CUDA_ERROR_NOT_FOUND";
    return kSuccess;
  }
  *name = nullptr;
  return kInvalidValue;
}
CUresult cuInit(unsigned flags) {
  LOG("cuInit(%u)", flags);
  initialized = true;
  return kSuccess;
}
CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return kSuccess;
}
CUresult cuDeviceGetCount(int *count) {
  const char *devices = std::getenv("FUSER_FAKE_CUDA_DEVICES");
  *count = devices ? std::atoi(devices) : 1;
  LOG("cuDeviceGetCount -> %d", *count);
  return initialized ? kSuccess : kNotInitialized;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return kSuccess;
}
CUresult cuDeviceGetName(char *name, int length, int) {
  std::snprintf(name, length, "fake CUDA device (no GPU, kernels do not run)");
  return kSuccess;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int) {
  switch (attribute) {
  case 16: // multiprocessors
    *value = 132;
    return kSuccess;
  case 38: // L2 bytes
    *value = 60 << 20;
    return kSuccess;
  case 75: // compute capability
    *value = 9;
    return kSuccess;
  case 76:
    *value = 0;
    return kSuccess;
  }
  *value = 0;
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRetain(void **context, int) {
  static int token;
  *context = &token;
  return kSuccess;
}
CUresult cuCtxSetCurrent(void *) { return kSuccess; }
CUresult cuCtxSynchronize() {
  LOG("cuCtxSynchronize");
  return kSuccess;
}
CUresult cuModuleLoadData(void **module, const void *image) {
  const char *bytes = static_cast<const char *>(image);
  bool elf = std::memcmp(bytes, "\x7f"
                                "ELF",
                         4) == 0;
  // A cubin's size is in its ELF header: section headers end the file.
  size_t size = 0;
  if (elf) {
    uint64_t shoff;
    uint16_t shentsize, shnum;
    std::memcpy(&shoff, bytes + 0x28, 8);
    std::memcpy(&shentsize, bytes + 0x3a, 2);
    std::memcpy(&shnum, bytes + 0x3c, 2);
    size = shoff + uint64_t(shentsize) * shnum;
  } else {
    size = std::strlen(bytes);
  }
  LOG("cuModuleLoadData(%s)", elf ? "ELF cubin" : "PTX text");
  *module = new Module{std::string(bytes, size)};
  return kSuccess;
}
CUresult cuModuleUnload(void *module) {
  delete static_cast<Module *>(module);
  return kSuccess;
}
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  const std::string &image = static_cast<Module *>(module)->image;
  // The kernel's name is in the cubin's string table (or the PTX's .entry).
  bool found = image.find(std::string(name) + '\0') != std::string::npos ||
               image.find(".entry " + std::string(name)) != std::string::npos;
  LOG("cuModuleGetFunction(%s) -> %s", name, found ? "found" : "not found");
  if (!found)
    return kNotFound;
  auto *owner = static_cast<Module *>(module);
  owner->functions.push_back(std::make_unique<Function>(Function{name}));
  *function = owner->functions.back().get();
  return kSuccess;
}
CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **params, void **extra) {
  std::string args;
  // The fake does not know the parameter sizes: it prints each parameter's
  // first 8 bytes, as a buffer where they are one.
  for (int i = 0; params && params[i] && i < 16; ++i) {
    CUdeviceptr value;
    std::memcpy(&value, params[i], 8);
    args += (i ? ", " : "") + name(value);
  }
  (void)stream;
  (void)extra;
  LOG("cuLaunchKernel(%s, grid=%ux%ux%u, block=%ux%ux%u, shared=%u, "
      "args=[%s])",
      static_cast<Function *>(function)->name.c_str(), gx, gy, gz, bx, by, bz,
      shared, args.c_str());
  // As the driver does: a grid or block with a zero dimension is invalid.
  if (!gx || !gy || !gz || !bx || !by || !bz)
    return kInvalidValue;
  return kSuccess;
}
CUresult cuMemAlloc_v2(CUdeviceptr *address, size_t bytes) {
  // As the driver does: an allocation of 0 bytes is invalid.
  if (bytes == 0)
    return kInvalidValue;
  char *data = static_cast<char *>(std::aligned_alloc(256, (bytes + 255) / 256 * 256));
  if (!data)
    return kInvalidValue;
  allocations.push_back({data, bytes});
  *address = reinterpret_cast<CUdeviceptr>(data);
  LOG("cuMemAlloc(%zu) -> #%zu", bytes, allocations.size() - 1);
  return kSuccess;
}
CUresult cuMemFree_v2(CUdeviceptr address) {
  for (size_t i = 0; i < allocations.size(); ++i)
    if (reinterpret_cast<CUdeviceptr>(allocations[i].data) == address) {
      LOG("cuMemFree(#%zu)", i);
      std::free(allocations[i].data);
      allocations[i].data = nullptr;
      return kSuccess;
    }
  return kInvalidValue;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) {
  LOG("cuMemcpyHtoD(%s, %zu)", name(dst).c_str(), bytes);
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return kSuccess;
}
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
  LOG("cuMemcpyDtoH(%s, %zu)", name(src).c_str(), bytes);
  std::memcpy(dst, reinterpret_cast<void *>(src), bytes);
  return kSuccess;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  LOG("cuMemcpyDtoD(%s, %s, %zu)", name(dst).c_str(), name(src).c_str(), bytes);
  std::memmove(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
               bytes);
  return kSuccess;
}
CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char value, size_t bytes) {
  LOG("cuMemsetD8(%s, %u, %zu)", name(dst).c_str(), value, bytes);
  std::memset(reinterpret_cast<void *>(dst), value, bytes);
  return kSuccess;
}
CUresult cuEventCreate(void **event, unsigned) {
  *event = new Event;
  return kSuccess;
}
CUresult cuEventDestroy_v2(void *event) {
  delete static_cast<Event *>(event);
  return kSuccess;
}
CUresult cuEventRecord(void *event, void *) {
  clockMs += 0.001;
  static_cast<Event *>(event)->ms = clockMs;
  return kSuccess;
}
CUresult cuEventSynchronize(void *) { return kSuccess; }
CUresult cuEventElapsedTime(float *ms, void *start, void *end) {
  *ms = static_cast<float>(static_cast<Event *>(end)->ms -
                           static_cast<Event *>(start)->ms);
  return kSuccess;
}
}
