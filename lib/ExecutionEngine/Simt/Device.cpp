//===- Device.cpp - the emulated GPU: memory, launches and checks ---------===//

#include "Device.h"
#include "HostModule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace mlir::fuser::simt;

namespace {
/// What uninitialized device memory holds: all-ones bytes, NaN in every
/// float type, so that a read the checks let through still shows.
constexpr unsigned char kUninitializedByte = 0xff;
/// Printed reports per launch; the rest are counted.
constexpr unsigned kMaxPrintedReports = 10;
constexpr unsigned kWarpSize = 32;

const char *getSpaceName(uint32_t addressSpace) {
  switch (addressSpace) {
  case 1:
    return "__global__ ";
  case 3:
    return "__shared__ ";
  case 5:
    return "__local__ ";
  default:
    return "";
  }
}
} // namespace

const char *mlir::fuser::simt::getErrorName(CUresult error) {
  switch (error) {
  case kSuccess:
    return "CUDA_SUCCESS";
  case kInvalidValue:
    return "CUDA_ERROR_INVALID_VALUE";
  case kOutOfMemory:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case kNotInitialized:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case kNoDevice:
    return "CUDA_ERROR_NO_DEVICE";
  case kInvalidImage:
    return "CUDA_ERROR_INVALID_IMAGE";
  case kInvalidHandle:
    return "CUDA_ERROR_INVALID_HANDLE";
  case kNotFound:
    return "CUDA_ERROR_NOT_FOUND";
  case kIllegalAddress:
    return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case kLaunchOutOfResources:
    return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  case kLaunchTimeout:
    return "CUDA_ERROR_LAUNCH_TIMEOUT";
  case kMisalignedAddress:
    return "CUDA_ERROR_MISALIGNED_ADDRESS";
  case kLaunchFailed:
    return "CUDA_ERROR_LAUNCH_FAILED";
  case kNotSupported:
    return "CUDA_ERROR_NOT_SUPPORTED";
  }
  return nullptr;
}

Module::~Module() = default;

uint64_t Module::getSharedBytes() const {
  uint64_t bytes = 0;
  for (const SharedVariable &variable : shared)
    bytes += variable.bytes;
  return bytes;
}

Device &Device::get() {
  static Device device;
  return device;
}

std::unique_lock<std::recursive_mutex> Device::lock() {
  static std::recursive_mutex mutex;
  return std::unique_lock<std::recursive_mutex>(mutex);
}

uint32_t Device::addSite(Site site) {
  sites.push_back(std::move(site));
  return sites.size() - 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

CUresult Device::allocate(CUdeviceptr *address, size_t bytes) {
  if (!address || bytes == 0)
    return kInvalidValue;
  // 256-byte aligned, as cuMemAlloc's allocations are.
  size_t rounded = (bytes + 255) / 256 * 256;
  char *data = static_cast<char *>(std::aligned_alloc(256, rounded));
  if (!data)
    return kOutOfMemory;
  std::memset(data, kUninitializedByte, bytes);
  Allocation &allocation = allocations[reinterpret_cast<uintptr_t>(data)];
  allocation.data = data;
  allocation.bytes = bytes;
  allocation.written.assign(bytes, 0);
  lastAllocation = nullptr;
  *address = reinterpret_cast<CUdeviceptr>(data);
  return kSuccess;
}

void Device::addModuleGlobal(char *data, uint64_t bytes, bool constant) {
  Allocation &allocation = allocations[reinterpret_cast<uintptr_t>(data)];
  allocation.data = data;
  allocation.bytes = bytes;
  allocation.written.assign(bytes, 1);
  allocation.moduleGlobal = true;
  allocation.constant = constant;
  lastAllocation = nullptr;
}

void Device::removeModuleGlobal(char *data) {
  allocations.erase(reinterpret_cast<uintptr_t>(data));
  lastAllocation = nullptr;
}

CUresult Device::release(CUdeviceptr address) {
  auto it = allocations.find(static_cast<uintptr_t>(address));
  if (it == allocations.end() || it->second.moduleGlobal)
    return kInvalidValue;
  std::free(it->second.data);
  allocations.erase(it);
  lastAllocation = nullptr;
  return kSuccess;
}

Device::Allocation *Device::findAllocation(uintptr_t address) {
  if (lastAllocation &&
      address - reinterpret_cast<uintptr_t>(lastAllocation->data) <
          lastAllocation->bytes)
    return lastAllocation;
  auto it = allocations.upper_bound(address);
  if (it == allocations.begin())
    return nullptr;
  --it;
  if (address - it->first >= it->second.bytes)
    return nullptr;
  lastAllocation = &it->second;
  return lastAllocation;
}

CUresult Device::checkHostRange(CUdeviceptr address, size_t bytes,
                                Allocation *&allocation) {
  allocation = findAllocation(static_cast<uintptr_t>(address));
  if (!allocation ||
      bytes > allocation->bytes -
                  (address - reinterpret_cast<uintptr_t>(allocation->data)))
    return kInvalidValue;
  return kSuccess;
}

CUresult Device::copyToDevice(CUdeviceptr dst, const void *src, size_t bytes) {
  if (bytes == 0)
    return kSuccess;
  Allocation *allocation;
  if (CUresult r = checkHostRange(dst, bytes, allocation))
    return r;
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  uint64_t offset = dst - reinterpret_cast<uintptr_t>(allocation->data);
  std::fill_n(allocation->written.begin() + offset, bytes, 1);
  return kSuccess;
}

CUresult Device::copyFromDevice(void *dst, CUdeviceptr src, size_t bytes) {
  if (bytes == 0)
    return kSuccess;
  Allocation *allocation;
  if (CUresult r = checkHostRange(src, bytes, allocation))
    return r;
  std::memcpy(dst, reinterpret_cast<void *>(src), bytes);
  return kSuccess;
}

CUresult Device::accessFromHost(CUdeviceptr address, size_t bytes,
                                bool write) {
  if (bytes == 0)
    return kSuccess;
  Allocation *allocation;
  if (CUresult r = checkHostRange(address, bytes, allocation))
    return r;
  if (write)
    std::fill_n(allocation->written.begin() +
                    (address - reinterpret_cast<uintptr_t>(allocation->data)),
                bytes, 1);
  return kSuccess;
}

CUresult Device::copyOnDevice(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  if (bytes == 0)
    return kSuccess;
  Allocation *from, *to;
  if (CUresult r = checkHostRange(src, bytes, from))
    return r;
  if (CUresult r = checkHostRange(dst, bytes, to))
    return r;
  std::memmove(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
               bytes);
  uint64_t fromOffset = src - reinterpret_cast<uintptr_t>(from->data);
  uint64_t toOffset = dst - reinterpret_cast<uintptr_t>(to->data);
  std::memmove(to->written.data() + toOffset, from->written.data() + fromOffset,
               bytes);
  return kSuccess;
}

CUresult Device::fill(CUdeviceptr dst, unsigned char value, size_t bytes) {
  if (bytes == 0)
    return kSuccess;
  Allocation *allocation;
  if (CUresult r = checkHostRange(dst, bytes, allocation))
    return r;
  std::memset(reinterpret_cast<void *>(dst), value, bytes);
  uint64_t offset = dst - reinterpret_cast<uintptr_t>(allocation->data);
  std::fill_n(allocation->written.begin() + offset, bytes, 1);
  return kSuccess;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

CUresult Device::loadModule(const void *image, Module **module) {
  if (!image || !module)
    return kInvalidValue;
  llvm::Expected<std::unique_ptr<Module>> loaded = loadHostModule(image, *this);
  if (!loaded) {
    llvm::errs() << "simt: error: cannot load the module: "
                 << llvm::toString(loaded.takeError()) << "\n";
    return kInvalidImage;
  }
  *module = loaded->get();
  modules.push_back(std::move(*loaded));
  return kSuccess;
}

CUresult Device::unloadModule(Module *module) {
  auto it = llvm::find_if(modules, [&](const std::unique_ptr<Module> &m) {
    return m.get() == module;
  });
  if (it == modules.end())
    return kInvalidHandle;
  modules.erase(it);
  return kSuccess;
}

CUresult Device::getKernel(Kernel **result, Module *module, const char *name) {
  if (!result || !module || !name)
    return kInvalidValue;
  for (const std::unique_ptr<Kernel> &kernel : module->kernels)
    if (kernel->name == name) {
      *result = kernel.get();
      return kSuccess;
    }
  return kNotFound;
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

bool Device::beginReport(const llvm::Twine &what, CUresult error) {
  ++launchSummary.errors;
  if (failure == kSuccess || failure == kLaunchFailed)
    failure = error;
  if (printedReports++ >= kMaxPrintedReports)
    return false;
  llvm::errs() << "simt: error: " << what << "\n";
  llvm::errs() << "simt:   in kernel " << (kernel ? kernel->name : "?");
  if (kernel && current)
    llvm::errs() << ", block (" << ctaid.x << "," << ctaid.y << "," << ctaid.z
                 << ")";
  llvm::errs() << "\n";
  if (current)
    printThread(*current);
  return true;
}

void Device::printThread(const Thread &thread) {
  llvm::errs() << "simt:   by thread (" << thread.tid.x << "," << thread.tid.y
               << "," << thread.tid.z << ")\n";
}

void Device::printSite(uint32_t site) {
  if (site >= sites.size())
    return;
  const Site &s = sites[site];
  llvm::errs() << "simt:   at " << s.instruction;
  if (!s.location.empty())
    llvm::errs() << " (" << s.location << ")";
  llvm::errs() << "\n";
}

void Device::abortThread() {
  fatal = true;
  current->state = Thread::State::Aborted;
  // A fatal error ends the launch; an aborted thread never resumes.
  Fiber::exitTo(current->fiber, scheduler);
}

void Device::trap(uint32_t site) {
  // On a GPU, trap ends the kernel with an illegal-instruction error.
  if (beginReport("the kernel trapped (llvm.trap)", kLaunchFailed))
    printSite(site);
  abortThread();
}

void Device::stackOverflow(int64_t room, uint64_t bytes, bool dynamic,
                           uint32_t site) {
  // On a GPU: a stack overflow exception (the stack is
  // cudaLimitStackSize), which ends the kernel.
  std::string what;
  if (dynamic)
    what = "a dynamic alloca of " + std::to_string(bytes) + " bytes";
  else if (site < sites.size())
    what = "a call of @" + sites[site].callee + " needs " +
           std::to_string(bytes) + " bytes of stack";
  else
    what = "a call needs " + std::to_string(bytes) + " bytes of stack";
  if (beginReport("stack overflow: " + what + "; " +
                      std::to_string(std::max<int64_t>(room, 0)) + " are left",
                  kLaunchFailed)) {
    printSite(site);
    const Fiber &fiber = current->fiber;
    llvm::errs() << "simt:   the thread's stack is " << fiber.getStackBytes()
                 << " bytes (sized from the kernel's private arrays and "
                    "calls, less "
                 << Limits::kReserveBytes
                 << " kept for the emulator): recursion or dynamic allocas "
                    "deeper than that are errors\n";
  }
  abortThread();
}

void Device::checkDynamicAlloca(const void *stackPointer, uint64_t count,
                                uint64_t elementBytes, uint32_t site) {
  auto sp = reinterpret_cast<uintptr_t>(stackPointer);
  auto limit = reinterpret_cast<uintptr_t>(current->fiber.getStackLow()) +
               Limits::kReserveBytes;
  int64_t room = sp >= limit ? int64_t(sp - limit) : -int64_t(limit - sp);
  uint64_t bytes;
  bool overflows = __builtin_mul_overflow(count, elementBytes, &bytes);
  // With its alignment and the next frame's allowance.
  if (overflows || room < 0 ||
      bytes > uint64_t(room) - std::min<uint64_t>(room, Limits::kFrameBytes))
    stackOverflow(room, overflows ? UINT64_MAX : bytes, /*dynamic=*/true, site);
}

void Device::stepLimitReached(uint32_t site) {
  if (beginReport("the thread ran " + llvm::Twine(stepLimit) +
                      " loop iterations without finishing (on a GPU: a hang "
                      "or a very long kernel; FUSER_SIMT_STEP_LIMIT sets the "
                      "limit)",
                  kLaunchTimeout))
    printSite(site);
  abortThread();
}

//===----------------------------------------------------------------------===//
// Device-code runtime: special registers, memory checks
//===----------------------------------------------------------------------===//

uint32_t Device::readSpecialRegister(uint32_t which) {
  const Thread &t = *current;
  switch (which) {
  case 0:
    return t.tid.x;
  case 1:
    return t.tid.y;
  case 2:
    return t.tid.z;
  case 3:
    return block.x;
  case 4:
    return block.y;
  case 5:
    return block.z;
  case 6:
    return ctaid.x;
  case 7:
    return ctaid.y;
  case 8:
    return ctaid.z;
  case 9:
    return grid.x;
  case 10:
    return grid.y;
  case 11:
    return grid.z;
  case 12:
    return t.linear % kWarpSize;
  case 13:
    return kWarpSize;
  }
  return 0;
}

std::pair<SharedVariable *, Device::SharedByte *>
Device::findShared(uintptr_t address) {
  if (!kernel)
    return {nullptr, nullptr};
  for (auto [i, variable] : llvm::enumerate(kernel->module->shared)) {
    auto base = reinterpret_cast<uintptr_t>(variable.address);
    if (address - base < variable.bytes)
      return {&variable, sharedShadow[i].data() + (address - base)};
  }
  return {nullptr, nullptr};
}

void Device::checkAccess(const void *pointer, uint64_t bytes, uint32_t align,
                         uint32_t addressSpace, uint32_t site, bool isStore) {
  ++launchSummary.accesses;
  // A memcpy or memset of nothing touches nothing, wherever it points.
  if (bytes == 0)
    return;
  auto address = reinterpret_cast<uintptr_t>(pointer);
  const char *op = isStore ? "write" : "read";
  std::pair<SharedVariable *, SharedByte *> found = findShared(address);
  SharedVariable *variable = found.first;
  SharedByte *shadow = found.second;
  Allocation *allocation = variable ? nullptr : findAllocation(address);
  // The space the address lies in (generic pointers name none).
  uint32_t space = variable ? 3 : allocation ? 1 : addressSpace;
  auto describe = [&](const char *problem) {
    return (llvm::Twine(problem) + " " + getSpaceName(space) + op +
            " of size " + llvm::Twine(bytes) + " bytes")
        .str();
  };
  auto printAddress = [&](const llvm::Twine &detail) {
    llvm::errs() << "simt:   address " << llvm::format_hex(address, 18) << " "
                 << detail << "\n";
  };
  if (align > 1 && address % align) {
    if (beginReport(describe("Misaligned"), kMisalignedAddress)) {
      printSite(site);
      printAddress("is not a multiple of the access's alignment " +
                   llvm::Twine(align));
    }
    abortThread();
  }
  if (variable) {
    uint64_t offset = address - reinterpret_cast<uintptr_t>(variable->address);
    if (offset + bytes > variable->bytes) {
      if (beginReport(describe("Invalid"), kIllegalAddress)) {
        printSite(site);
        printAddress("runs " + llvm::Twine(offset + bytes - variable->bytes) +
                     " bytes past the end of shared variable @" +
                     variable->name + " (" + llvm::Twine(variable->bytes) +
                     " bytes)");
      }
      abortThread();
    }
    if (isStore)
      return; // noteStored() checks races once the value is known.
    Thread &t = *current;
    uint32_t warp = t.linear / kWarpSize, lane = t.linear % kWarpSize;
    bool reportedUninit = false, reportedRace = false;
    for (uint64_t i = 0; i < bytes; ++i) {
      SharedByte &b = shadow[i];
      if (!b.written && !reportedUninit) {
        reportedUninit = true;
        if (beginReport(describe("Uninitialized"), kLaunchFailed)) {
          printSite(site);
          printAddress("in shared variable @" + variable->name +
                       " was not written in this block");
        }
      }
      // Read after a write by another thread in the same barrier
      // interval, not ordered by a shuffle of their warp.
      if (b.written && b.writer >= 0 && b.writer != int32_t(t.linear) &&
          b.writeEpoch == epoch &&
          !(uint32_t(b.writer) / kWarpSize == warp &&
            orderedByShuffle(warp, b.writer % kWarpSize, lane,
                             b.writeWarpSyncs)) &&
          !reportedRace) {
        reportedRace = true;
        if (beginReport("Race: __shared__ read of size " + llvm::Twine(bytes) +
                            " bytes after a write by thread " +
                            llvm::Twine(b.writer) +
                            " (linear id) with no barrier between",
                        kLaunchFailed)) {
          printSite(site);
          printAddress("in shared variable @" + variable->name);
        }
      }
      if (b.readEpoch != epoch || b.reader < 0) {
        b.reader = t.linear;
        b.readEpoch = epoch;
        b.readWarpSyncs = warpShuffles[warp].size();
        b.manyReaders = false;
        b.readersInOneWarp = true;
      } else {
        b.manyReaders |= b.reader != int32_t(t.linear);
        b.readersInOneWarp &= uint32_t(b.reader) / kWarpSize == warp;
        b.readWarpSyncs =
            std::max<uint64_t>(b.readWarpSyncs, warpShuffles[warp].size());
      }
    }
    return;
  }
  if (allocation) {
    uint64_t offset = address - reinterpret_cast<uintptr_t>(allocation->data);
    if (offset + bytes > allocation->bytes) {
      if (beginReport(describe("Invalid"), kIllegalAddress)) {
        printSite(site);
        printAddress("runs " + llvm::Twine(offset + bytes - allocation->bytes) +
                     " bytes past the end of an allocation of " +
                     llvm::Twine(allocation->bytes) + " bytes at " +
                     llvm::Twine(llvm::utohexstr(
                         reinterpret_cast<uintptr_t>(allocation->data))));
      }
      abortThread();
    }
    if (isStore) {
      if (allocation->readOnly || allocation->constant) {
        if (beginReport(describe("Invalid") +
                            (allocation->constant
                                 ? " into a constant global variable"
                                 : " into memory a noalias readonly "
                                   "argument of the kernel points to"),
                        kIllegalAddress)) {
          printSite(site);
          printAddress(
              "is in an allocation of " + llvm::Twine(allocation->bytes) +
              " bytes" +
              (allocation->constant ? "" : " passed as a readonly parameter"));
        }
        abortThread();
      }
      std::fill_n(allocation->written.begin() + offset, bytes, 1);
      return;
    }
    for (uint64_t i = 0; i < bytes; ++i)
      if (!allocation->written[offset + i]) {
        if (beginReport(describe("Uninitialized"), kLaunchFailed)) {
          printSite(site);
          printAddress(
              "(byte " + llvm::Twine(offset + i) + " of an allocation of " +
              llvm::Twine(allocation->bytes) + " bytes) was never written");
        }
        break;
      }
    return;
  }
  // Local memory the static analysis could not see as such (an alloca
  // reached through a select or a phi).
  if (current && current->fiber.onStack(pointer) && addressSpace != 1 &&
      addressSpace != 3)
    return;
  if (beginReport(describe("Invalid"), kIllegalAddress)) {
    printSite(site);
    // As compute-sanitizer does: how far past the nearest allocation below.
    auto below = allocations.upper_bound(address);
    if (below != allocations.begin()) {
      --below;
      printAddress("is out of bounds: " +
                   llvm::Twine(address - below->first - below->second.bytes) +
                   " bytes after the end of an allocation of " +
                   llvm::Twine(below->second.bytes) + " bytes at 0x" +
                   llvm::utohexstr(below->first));
    } else {
      printAddress("is in no device allocation and no shared variable");
    }
  }
  abortThread();
}

void Device::checkLocalAccess(const void *pointer, uint64_t bytes,
                              const void *array, uint64_t arrayBytes,
                              uint32_t site, bool isStore) {
  ++launchSummary.accesses;
  auto address = reinterpret_cast<uintptr_t>(pointer);
  auto base = reinterpret_cast<uintptr_t>(array);
  if (bytes == 0 ||
      (address >= base && bytes <= arrayBytes && address - base <= arrayBytes - bytes))
    return;
  if (beginReport(llvm::Twine("Invalid __local__ ") +
                      (isStore ? "write" : "read") + " of size " +
                      llvm::Twine(bytes) + " bytes",
                  kIllegalAddress)) {
    printSite(site);
    llvm::errs() << "simt:   address " << llvm::format_hex(address, 18)
                 << " is outside the thread's private array of "
                 << arrayBytes << " bytes at "
                 << llvm::format_hex(base, 18) << "\n";
  }
  abortThread();
}

void Device::noteStored(const void *pointer, uint64_t bytes, uint32_t site) {
  auto address = reinterpret_cast<uintptr_t>(pointer);
  std::pair<SharedVariable *, SharedByte *> found = findShared(address);
  SharedVariable *variable = found.first;
  SharedByte *shadow = found.second;
  if (!variable)
    return;
  Thread &t = *current;
  uint32_t warp = t.linear / kWarpSize;
  uint32_t lane = t.linear % kWarpSize;
  auto ordered = [&](int32_t other, uint64_t otherSyncs) {
    return other == int32_t(t.linear) ||
           (uint32_t(other) / kWarpSize == warp &&
            orderedByShuffle(warp, other % kWarpSize, lane, otherSyncs));
  };
  bool reported = false;
  auto report = [&](const char *kind, int32_t other) {
    if (reported)
      return;
    reported = true;
    if (beginReport(llvm::Twine("Race: __shared__ write of size ") +
                        llvm::Twine(bytes) + " bytes " + kind + " by thread " +
                        llvm::Twine(other) +
                        " (linear id) with no barrier between",
                    kLaunchFailed)) {
      printSite(site);
      llvm::errs() << "simt:   address " << llvm::format_hex(address, 18)
                   << " in shared variable @" << variable->name << "\n";
    }
  };
  const auto *stored = static_cast<const uint8_t *>(pointer);
  for (uint64_t i = 0; i < bytes; ++i) {
    SharedByte &b = shadow[i];
    // Write after a read by another thread, unless every reader is in
    // this warp and a shuffle of the warp came after the last read.
    if (b.readEpoch == epoch && b.reader >= 0 &&
        (b.manyReaders || b.reader != int32_t(t.linear)) &&
        !(b.readersInOneWarp && uint32_t(b.reader) / kWarpSize == warp &&
          orderedByShuffle(warp, b.reader % kWarpSize, lane,
                           b.readWarpSyncs)))
      report("after a read", b.reader);
    // Write after a write of a different value by another thread (equal
    // values are what every thread of an all-reduce's first warp stores).
    if (b.written && b.writeEpoch == epoch && b.writer >= 0 &&
        !ordered(b.writer, b.writeWarpSyncs) && b.value != stored[i])
      report("after a write of a different value", b.writer);
    b.written = true;
    b.writer = t.linear;
    b.writeEpoch = epoch;
    b.writeWarpSyncs = warpShuffles[warp].size();
    b.value = stored[i];
  }
}

//===----------------------------------------------------------------------===//
// Device-code runtime: shuffles and barriers
//===----------------------------------------------------------------------===//

bool Device::orderedByShuffle(uint32_t warp, uint32_t laneA, uint32_t laneB,
                              uint64_t since) const {
  const std::vector<uint32_t> &masks = warpShuffles[warp];
  for (size_t k = since; k < masks.size(); ++k)
    if ((masks[k] >> laneA & 1) && (masks[k] >> laneB & 1))
      return true;
  return false;
}

uint64_t Device::shuffle(uint32_t mode, uint32_t mask, uint32_t value,
                         uint32_t b, uint32_t c, uint32_t site) {
  ++launchSummary.shuffles;
  Thread &t = *current;
  uint32_t lane = t.linear % kWarpSize;
  if (!(mask >> lane & 1)) {
    if (beginReport("shfl.sync by a lane that is not in its member mask " +
                        llvm::Twine(llvm::utohexstr(mask)),
                    kLaunchFailed))
      printSite(site);
    abortThread();
  }
  t.state = Thread::State::AtShuffle;
  t.site = site;
  t.mode = mode;
  t.mask = mask;
  t.value = value;
  t.b = b;
  t.c = c;
  Fiber::switchTo(t.fiber, scheduler);
  return t.result;
}

void Device::barrier(uint32_t id, uint32_t site) {
  ++launchSummary.barriers;
  Thread &t = *current;
  if (id != 0) {
    if (beginReport("barrier " + llvm::Twine(id) +
                        ": the emulator implements barrier 0 only",
                    kNotSupported))
      printSite(site);
    abortThread();
  }
  t.state = Thread::State::AtBarrier;
  t.site = site;
  Fiber::switchTo(t.fiber, scheduler);
}

bool Device::resolveShuffles() {
  bool progress = false;
  uint64_t count = block.count();
  for (uint64_t warpBase = 0; warpBase < count; warpBase += kWarpSize) {
    uint64_t end = std::min<uint64_t>(count, warpBase + kWarpSize);
    Thread *first = nullptr;
    for (uint64_t i = warpBase; i < end; ++i)
      if (threads[i]->state == Thread::State::AtShuffle) {
        first = threads[i].get();
        break;
      }
    if (!first)
      continue;
    uint32_t mask = first->mask;
    bool ready = true;
    for (uint32_t lane = 0; lane < kWarpSize && ready; ++lane) {
      if (!(mask >> lane & 1))
        continue;
      uint64_t index = warpBase + lane;
      if (index >= end) {
        current = first;
        if (beginReport("shfl.sync member mask " +
                            llvm::Twine(llvm::utohexstr(mask)) +
                            " names lane " + llvm::Twine(lane) +
                            ", which this block does not have",
                        kLaunchFailed))
          printSite(first->site);
        current = nullptr;
        fatal = true;
        return false;
      }
      Thread &other = *threads[index];
      if (other.state == Thread::State::Exited) {
        current = first;
        if (beginReport("shfl.sync waits for lane " + llvm::Twine(lane) +
                            ", which returned before reaching it (on a GPU: "
                            "a hang or garbage)",
                        kLaunchFailed))
          printSite(first->site);
        current = nullptr;
        fatal = true;
        return false;
      }
      if (other.state != Thread::State::AtShuffle || other.mask != mask)
        ready = false;
    }
    if (!ready)
      continue;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      if (!(mask >> lane & 1))
        continue;
      Thread &t = *threads[warpBase + lane];
      int32_t clamp = t.c & 31, segmask = (t.c >> 8) & 31;
      int32_t bval = t.b & 31;
      int32_t maxLane = (lane & segmask) | (clamp & ~segmask);
      int32_t minLane = lane & segmask;
      int32_t j = lane;
      bool valid = false;
      switch (t.mode) {
      case 0: // up
        j = int32_t(lane) - bval;
        valid = j >= maxLane;
        break;
      case 1: // down
        j = int32_t(lane) + bval;
        valid = j <= maxLane;
        break;
      case 2: // bfly
        j = int32_t(lane) ^ bval;
        valid = j <= maxLane;
        break;
      default: // idx
        j = minLane | (bval & ~segmask);
        valid = j <= maxLane;
        break;
      }
      if (!valid)
        j = lane;
      if (!(mask >> j & 1)) {
        current = &t;
        if (beginReport("shfl.sync reads lane " + llvm::Twine(j) +
                            ", which is not in the member mask " +
                            llvm::Twine(llvm::utohexstr(mask)),
                        kLaunchFailed))
          printSite(t.site);
        current = nullptr;
        fatal = true;
        return false;
      }
      t.result =
          uint64_t(threads[warpBase + j]->value) | (uint64_t(valid) << 32);
    }
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      if (mask >> lane & 1)
        threads[warpBase + lane]->state = Thread::State::Runnable;
    warpShuffles[warpBase / kWarpSize].push_back(mask);
    progress = true;
  }
  return progress;
}

bool Device::resolveBarrier() {
  Thread *waiting = nullptr, *exited = nullptr;
  for (const std::unique_ptr<Thread> &t : getBlockThreads()) {
    if (t->state == Thread::State::AtBarrier) {
      if (!waiting)
        waiting = t.get();
    } else if (t->state == Thread::State::Exited) {
      if (!exited)
        exited = t.get();
    } else {
      return false; // at a shuffle: it must complete first
    }
  }
  if (!waiting)
    return false;
  if (exited) {
    current = waiting;
    if (beginReport("barrier not reached by every thread of the block: "
                    "thread (" +
                        llvm::Twine(exited->tid.x) + "," +
                        llvm::Twine(exited->tid.y) + "," +
                        llvm::Twine(exited->tid.z) +
                        ") returned before it (on a GPU: a hang or "
                        "undefined behaviour)",
                    kLaunchFailed))
      printSite(waiting->site);
    current = nullptr;
    fatal = true;
    return false;
  }
  for (const std::unique_ptr<Thread> &t : getBlockThreads())
    if (t->site != waiting->site) {
      current = t.get();
      if (beginReport("threads of one block wait at different barriers "
                      "(bar.sync is aligned: all must execute the same one)",
                      kLaunchFailed)) {
        printSite(t->site);
        llvm::errs() << "simt:   while thread (" << waiting->tid.x << ","
                     << waiting->tid.y << "," << waiting->tid.z << ") waits\n";
        printSite(waiting->site);
      }
      current = nullptr;
      fatal = true;
      return false;
    }
  ++epoch;
  for (const std::unique_ptr<Thread> &t : getBlockThreads())
    t->state = Thread::State::Runnable;
  return true;
}

void Device::reportHang() {
  // Every live thread waits: at a shuffle whose lanes wait elsewhere.
  for (const std::unique_ptr<Thread> &t : getBlockThreads())
    if (t->state == Thread::State::AtShuffle) {
      current = t.get();
      if (beginReport("shfl.sync never completes: lanes of its member mask " +
                          llvm::Twine(llvm::utohexstr(t->mask)) +
                          " wait at a barrier or a different shuffle (on a "
                          "GPU: a hang)",
                      kLaunchTimeout))
        printSite(t->site);
      current = nullptr;
      fatal = true;
      return;
    }
  beginReport("the block's threads wait for each other and none can go on "
              "(on a GPU: a hang)",
              kLaunchTimeout);
  fatal = true;
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

void Device::threadMain(void *opaque) {
  Device &device = get();
  auto *thread = static_cast<Thread *>(opaque);
  thread->fiber.started();
  device.kernel->entry(device.params);
  thread->state = Thread::State::Exited;
  Fiber::exitTo(thread->fiber, device.scheduler);
}

CUresult Device::checkLaunch(Kernel &k, Dim3 g, Dim3 b, uint64_t sharedBytes,
                             void **launchParams) {
  auto fail = [&](const llvm::Twine &what) {
    llvm::errs() << "simt: error: launch of kernel " << k.name << " with grid ("
                 << g.x << "," << g.y << "," << g.z << ") and block (" << b.x
                 << "," << b.y << "," << b.z << "): " << what << "\n";
    ++totals.errors;
    return kInvalidValue;
  };
  const uint32_t blockDims[3] = {b.x, b.y, b.z};
  const uint32_t gridDims[3] = {g.x, g.y, g.z};
  for (int i = 0; i < 3; ++i) {
    if (blockDims[i] == 0 || blockDims[i] > Chip::kMaxBlockDim[i])
      return fail("block dimension " + llvm::Twine(i) + " is " +
                  llvm::Twine(blockDims[i]) + "; sm_90 allows 1 to " +
                  llvm::Twine(Chip::kMaxBlockDim[i]));
    if (gridDims[i] == 0 || gridDims[i] > Chip::kMaxGridDim[i])
      return fail("grid dimension " + llvm::Twine(i) + " is " +
                  llvm::Twine(gridDims[i]) + "; sm_90 allows 1 to " +
                  llvm::Twine(Chip::kMaxGridDim[i]));
  }
  if (b.count() > Chip::kMaxThreadsPerBlock)
    return fail(llvm::Twine(b.count()) +
                " threads per block; sm_90 allows at most " +
                llvm::Twine(Chip::kMaxThreadsPerBlock));
  uint64_t staticBytes = k.module->getSharedBytes();
  if (staticBytes > Chip::kMaxStaticSharedBytes)
    return fail(llvm::Twine(staticBytes) +
                " bytes of static shared memory; sm_90 allows at most " +
                llvm::Twine(Chip::kMaxStaticSharedBytes));
  if (staticBytes + sharedBytes > Chip::kMaxSharedBytes)
    return fail(llvm::Twine(staticBytes + sharedBytes) +
                " bytes of shared memory per block; sm_90 allows at most " +
                llvm::Twine(Chip::kMaxSharedBytes));
  if (sharedBytes)
    return fail("dynamic shared memory (" + llvm::Twine(sharedBytes) +
                " bytes): the emulator supports static shared memory only");
  // The driver takes no count: it reads as many parameters as the kernel
  // has. Launches (CUDALaunch.cpp) end the array with a null pointer, which
  // no parameter is: one before the kernel's count is a missing argument.
  for (size_t i = 0; i < k.params.size(); ++i)
    if (!launchParams[i])
      return fail("the kernel takes " + llvm::Twine(k.params.size()) +
                  " parameters; the launch passes " + llvm::Twine(i) +
                  " (its parameter array ends at a null pointer)");
  return kSuccess;
}

CUresult Device::launch(Kernel &k, Dim3 g, Dim3 b, uint64_t sharedBytes,
                        void **launchParams) {
  if (CUresult r = checkLaunch(k, g, b, sharedBytes, launchParams))
    return r;
  if (!kHaveFibers) {
    llvm::errs() << "simt: error: the emulator runs on x86-64 hosts only\n";
    return kNotSupported;
  }
  stepLimit = Limits::kDefaultStepLimit;
  if (const char *text = std::getenv("FUSER_SIMT_STEP_LIMIT")) {
    uint64_t value = 0;
    if (llvm::StringRef(text).getAsInteger(10, value) || value == 0) {
      llvm::errs() << "simt: error: FUSER_SIMT_STEP_LIMIT=" << text
                   << " is not a positive number of loop iterations\n";
      ++totals.errors;
      return kInvalidValue;
    }
    stepLimit = value;
  }
  // Room for the deepest chain of the kernel's frames above the reserve,
  // with as much again as the reserve for frames beyond the estimate.
  uint64_t page = 4096;
  stackBytes = std::max<uint64_t>(
      Limits::kMinStackBytes,
      (k.frameBytes + 2 * Limits::kReserveBytes + page - 1) / page * page);
  kernel = &k;
  params = launchParams;
  scheduler.forgetThreadStack();
  grid = g;
  block = b;
  failure = kSuccess;
  fatal = false;
  printedReports = 0;
  launchSummary = LaunchSummary();
  // Stores into what a readonly parameter points at are errors.
  std::vector<Allocation *> readOnly;
  for (auto [i, param] : llvm::enumerate(k.params)) {
    if (!param.readOnly)
      continue;
    uintptr_t address;
    std::memcpy(&address, params[i], sizeof(address));
    if (Allocation *allocation = findAllocation(address)) {
      allocation->readOnly = true;
      readOnly.push_back(allocation);
    }
  }
  uint64_t count = b.count();
  while (threads.size() < count)
    threads.push_back(std::make_unique<Thread>());
  for (uint64_t i = 0; i < count; ++i) {
    Thread &t = *threads[i];
    t.linear = i;
    t.tid = {uint32_t(i % b.x), uint32_t(i / b.x % b.y),
             uint32_t(i / (uint64_t(b.x) * b.y))};
  }
  sharedShadow.assign(k.module->shared.size(), {});
  for (auto [i, variable] : llvm::enumerate(k.module->shared))
    sharedShadow[i].resize(variable.bytes);

  for (uint32_t z = 0; z < g.z && !fatal; ++z)
    for (uint32_t y = 0; y < g.y && !fatal; ++y)
      for (uint32_t x = 0; x < g.x && !fatal; ++x)
        if (!runBlock({x, y, z}))
          fatal = true;

  for (Allocation *allocation : readOnly)
    allocation->readOnly = false;
  if (printedReports > kMaxPrintedReports)
    llvm::errs() << "simt: " << (printedReports - kMaxPrintedReports)
                 << " more errors in kernel " << k.name << " not printed\n";
  ++totals.launches;
  totals.blocks += launchSummary.blocks;
  totals.threads += launchSummary.threads;
  totals.accesses += launchSummary.accesses;
  totals.barriers += launchSummary.barriers;
  totals.shuffles += launchSummary.shuffles;
  totals.errors += launchSummary.errors;
  kernel = nullptr;
  current = nullptr;
  return failure;
}

bool Device::runBlock(Dim3 id) {
  ctaid = id;
  ++launchSummary.blocks;
  uint64_t count = block.count();
  launchSummary.threads += count;
  // Shared memory holds garbage at block start, and nothing was written.
  for (auto [i, variable] : llvm::enumerate(kernel->module->shared)) {
    std::memset(variable.address, kUninitializedByte, variable.bytes);
    std::fill(sharedShadow[i].begin(), sharedShadow[i].end(), SharedByte());
  }
  epoch = 0;
  warpShuffles.assign((count + kWarpSize - 1) / kWarpSize, {});
  for (uint64_t i = 0; i < count; ++i) {
    Thread &t = *threads[i];
    t.state = Thread::State::Runnable;
    t.site = 0;
    t.stepsLeft = stepLimit;
    if (!t.fiber.reset(&threadMain, &t, stackBytes)) {
      llvm::errs() << "simt: error: cannot allocate a stack for thread " << i
                   << "\n";
      failure = kOutOfMemory;
      return false;
    }
  }
  while (true) {
    for (uint64_t i = 0; i < count; ++i) {
      Thread &t = *threads[i];
      if (t.state != Thread::State::Runnable)
        continue;
      current = &t;
      Module &module = *kernel->module;
      *module.stackLimit = reinterpret_cast<uintptr_t>(t.fiber.getStackLow()) +
                           Limits::kReserveBytes;
      *module.stepsLeft = t.stepsLeft;
      Fiber::switchTo(scheduler, t.fiber);
      t.stepsLeft = *module.stepsLeft;
      current = nullptr;
      if (fatal)
        return false;
    }
    bool done = true;
    for (uint64_t i = 0; i < count && done; ++i)
      done = threads[i]->state == Thread::State::Exited;
    if (done)
      return true;
    bool progress = resolveShuffles();
    if (fatal)
      return false;
    if (!progress)
      progress = resolveBarrier();
    if (fatal)
      return false;
    if (!progress) {
      reportHang();
      return false;
    }
  }
}
