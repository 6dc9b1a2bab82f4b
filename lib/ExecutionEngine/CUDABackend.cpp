//===- CUDABackend.cpp - the `cuda` backend and fuser-run --bench ---------===//
//
// Compiles a fusion through --fuser-lower-to-nvvm (format=bin, the device's
// chip), reads the host function into a launch plan and runs it with the
// driver API (CUDALaunch.cpp, CUDADriver.cpp). Nothing here links libcuda.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CUDABackend.h"
#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/Fusion.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "fuser/ExecutionEngine/CUDALaunch.h"
#include "fuser/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"

#include "llvm/ADT/ScopeExit.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::cuda;

namespace {

/// A fusion compiled, planned and loaded on the device.
struct LoadedFusion {
  CUDACompiledFusion compiled;
  LaunchPlan plan;
  std::unique_ptr<Executable> executable;
};

/// The driver `getDriver` gives, or an error on `func` that backend
/// `backendName` is not available.
FailureOr<Driver *> getDriverFor(func::FuncOp func, StringRef backendName,
                                 DriverSource getDriver) {
  llvm::Expected<Driver &> driver = getDriver();
  if (!driver)
    return func.emitError("backend ")
           << backendName
           << " is not available: " << llvm::toString(driver.takeError());
  return &*driver;
}

/// `plan`'s kernels loaded through `driver`, or an error on `func`.
FailureOr<std::unique_ptr<Executable>>
loadExecutable(func::FuncOp func, const LaunchPlan &plan, Driver &driver) {
  llvm::Expected<std::unique_ptr<Executable>> executable =
      Executable::load(plan, driver);
  if (!executable)
    return func.emitError("could not load the kernels of '")
           << func.getSymName()
           << "': " << llvm::toString(executable.takeError());
  return std::move(*executable);
}

/// One run of a loaded plan on `inputs` (its leading arguments): upload,
/// every step, download; or an error on `func`.
FailureOr<SmallVector<Buffer>> runExecutable(func::FuncOp func,
                                             Executable &exe,
                                             ArrayRef<Buffer> inputs) {
  llvm::Expected<SmallVector<Buffer>> outputs =
      [&]() -> llvm::Expected<SmallVector<Buffer>> {
    if (llvm::Error e = exe.prepare(inputs))
      return std::move(e);
    if (llvm::Error e = exe.execute())
      return std::move(e);
    return exe.download();
  }();
  if (!outputs)
    return func.emitError("running '")
           << func.getSymName()
           << "' on the GPU failed: " << llvm::toString(outputs.takeError());
  return std::move(*outputs);
}

FailureOr<LoadedFusion> loadFusion(func::FuncOp func,
                                   const BackendOptions &options,
                                   StringRef backendName,
                                   DriverSource getDriver) {
  FailureOr<Driver *> driver = getDriverFor(func, backendName, getDriver);
  if (failed(driver))
    return failure();
  LoadedFusion loaded;
  FailureOr<CUDACompiledFusion> compiled = compileFusionForCUDA(
      func, options, (*driver)->getChip(),
      (*driver)->getMultiprocessorCount(), (*driver)->getObjectFormat());
  if (failed(compiled))
    return failure();
  loaded.compiled = std::move(*compiled);
  FailureOr<LaunchPlan> plan =
      LaunchPlan::build(*loaded.compiled.module, func.getSymName());
  if (failed(plan))
    return failure();
  loaded.plan = std::move(*plan);
  for (const LaunchPlan::DeviceBuffer &buffer : loaded.plan.buffers)
    if (buffer.bytes > options.maxBufferBytes)
      return func.emitError("a device buffer of type ")
             << buffer.type << " takes " << formatByteSize(buffer.bytes)
             << ", more than the limit of " << options.maxBufferBytes
             << " bytes";
  FailureOr<std::unique_ptr<Executable>> executable =
      loadExecutable(func, loaded.plan, **driver);
  if (failed(executable))
    return failure();
  loaded.executable = std::move(*executable);
  return loaded;
}

/// The scalar inputs first: the plan's inputs are the function's leading
/// arguments, in order, as Buffers.
FailureOr<SmallVector<Buffer>>
runLoaded(func::FuncOp func, LoadedFusion &loaded, ArrayRef<Buffer> inputs) {
  FailureOr<SmallVector<Buffer>> outputs =
      runExecutable(func, *loaded.executable, inputs);
  if (failed(outputs))
    return failure();
  if (failed(adoptKernelOutputs(func, *outputs)))
    return failure();
  return std::move(*outputs);
}

/// The fusion's kernels loaded on the device, with its launch plan.
class LoadedCUDAFusion : public CompiledFusion {
public:
  LoadedCUDAFusion(func::FuncOp func, LoadedFusion loaded)
      : CompiledFusion(func), loaded(std::move(loaded)) {}

private:
  FailureOr<SmallVector<Buffer>>
  runCompiled(ArrayRef<Buffer> inputs) override {
    return runLoaded(getFunc(), loaded, inputs);
  }

  LoadedFusion loaded;
};

class CUDABackend : public Backend {
public:
  CUDABackend(const BackendOptions &options, StringRef name,
              DriverSource getDriver)
      : Backend(name.str()), options(options), getDriver(getDriver) {}

  std::optional<std::string> getUnavailableReason() const override {
    llvm::Expected<Driver &> driver = getDriver();
    if (driver)
      return std::nullopt;
    return llvm::toString(driver.takeError());
  }

private:
  FailureOr<std::unique_ptr<CompiledFusion>>
  compileFusion(func::FuncOp func) override {
    FailureOr<LoadedFusion> loaded =
        loadFusion(func, options, getName(), getDriver);
    if (failed(loaded))
      return failure();
    return std::unique_ptr<CompiledFusion>(
        std::make_unique<LoadedCUDAFusion>(func, std::move(*loaded)));
  }

  BackendOptions options;
  DriverSource getDriver;
};

/// CUDA events, destroyed with it.
struct Events {
  const DriverAPI &api;
  std::vector<CUevent> events;
  Events(const DriverAPI &api) : api(api) {}
  ~Events() {
    for (CUevent event : events)
      api.cuEventDestroy(event);
  }
  llvm::Error create(Driver &driver, unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
      CUevent event = nullptr;
      if (llvm::Error e =
              driver.check(api.cuEventCreate(&event, 0), "cuEventCreate"))
        return e;
      events.push_back(event);
    }
    return llvm::Error::success();
  }
};

struct Timing {
  std::vector<float> ms;
  double median() const {
    std::vector<float> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    size_t n = sorted.size();
    return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  }
  double min() const { return *std::min_element(ms.begin(), ms.end()); }
};

/// The timing loop; errors as llvm::Error.
llvm::Error runBenchmark(func::FuncOp func, LoadedFusion &loaded,
                         ArrayRef<Buffer> inputs, unsigned runs,
                         llvm::raw_ostream &os) {
  Driver &driver = cantFail(Driver::get());
  const DriverAPI &api = driver.api();
  Executable &exe = *loaded.executable;
  const LaunchPlan &plan = loaded.plan;
  constexpr unsigned kWarmup = 5;

  // L2 flush: a memset of 4x the L2 size (at least 64 MiB) before each timed
  // run; the H200's 60 MiB L2 holds a 40 MiB working set.
  uint64_t flushBytes = std::max<uint64_t>(
      4 * static_cast<uint64_t>(driver.getL2CacheBytes()), 64ull << 20);
  CUdeviceptr flush = 0;
  if (llvm::Error e = driver.check(api.cuMemAlloc(&flush, flushBytes),
                                   "cuMemAlloc of the L2 flush buffer"))
    return e;
  llvm::scope_exit freeFlush([&] { api.cuMemFree(flush); });

  if (llvm::Error e = exe.prepare(inputs))
    return e;
  Events start(api), steps(api);
  if (llvm::Error e = start.create(driver, 1))
    return e;
  if (llvm::Error e = steps.create(driver, plan.steps.size()))
    return e;

  std::vector<Timing> stepTimes(plan.steps.size());
  Timing fusionTime;
  for (unsigned run = 0; run < kWarmup + runs; ++run) {
    if (llvm::Error e = driver.check(
            api.cuMemsetD8(flush, static_cast<unsigned char>(run), flushBytes),
            "cuMemsetD8 (L2 flush)"))
      return e;
    if (llvm::Error e = driver.check(
            api.cuEventRecord(start.events[0], nullptr), "cuEventRecord"))
      return e;
    if (llvm::Error e = exe.execute(steps.events))
      return e;
    CUevent last = plan.steps.empty() ? start.events[0] : steps.events.back();
    if (llvm::Error e = driver.check(api.cuEventSynchronize(last),
                                     "running '" + plan.function + "'"))
      return e;
    if (run < kWarmup)
      continue;
    CUevent previous = start.events[0];
    for (auto [i, step] : llvm::enumerate(plan.steps)) {
      float ms = 0;
      if (llvm::Error e = driver.check(
              api.cuEventElapsedTime(&ms, previous, steps.events[i]),
              "cuEventElapsedTime"))
        return e;
      stepTimes[i].ms.push_back(ms);
      previous = steps.events[i];
    }
    float total = 0;
    if (llvm::Error e =
            driver.check(api.cuEventElapsedTime(&total, start.events[0], last),
                         "cuEventElapsedTime"))
      return e;
    fusionTime.ms.push_back(total);
  }

  // The minimum bytes of each timed step: FusionTraffic's per kernel
  // segment where the launches are the kernel segments one to one; else
  // (copy kernels of alias outputs) each distinct memref argument once.
  SmallVector<unsigned> timedSteps;
  for (auto [i, step] : llvm::enumerate(plan.steps))
    if (step.kind == LaunchPlan::Step::Kind::Launch ||
        step.kind == LaunchPlan::Step::Kind::Memcpy)
      timedSteps.push_back(i);
  unsigned numLaunches = llvm::count_if(plan.steps, [](const auto &step) {
    return step.kind == LaunchPlan::Step::Kind::Launch;
  });
  bool fromTraffic = numLaunches == loaded.compiled.kernelMinBytes.size();
  SmallVector<uint64_t> stepBytes;
  unsigned launchIndex = 0;
  for (unsigned i : timedSteps) {
    const LaunchPlan::Step &step = plan.steps[i];
    if (step.kind == LaunchPlan::Step::Kind::Memcpy)
      stepBytes.push_back(2 * step.bytes);
    else if (fromTraffic)
      stepBytes.push_back(loaded.compiled.kernelMinBytes[launchIndex++]);
    else
      stepBytes.push_back(plan.getLaunchArgumentBytes(step));
  }

  // A device-to-device copy moving the same bytes (half read, half
  // written), timed the same way, for each byte count.
  uint64_t largest = loaded.compiled.minBytes;
  for (uint64_t bytes : stepBytes)
    largest = std::max(largest, bytes);
  uint64_t copyBytes = std::max<uint64_t>(largest / 2, 1);
  CUdeviceptr copySrc = 0, copyDst = 0;
  if (llvm::Error e = driver.check(api.cuMemAlloc(&copySrc, copyBytes),
                                   "cuMemAlloc (copy)"))
    return e;
  llvm::scope_exit freeSrc([&] { api.cuMemFree(copySrc); });
  if (llvm::Error e = driver.check(api.cuMemAlloc(&copyDst, copyBytes),
                                   "cuMemAlloc (copy)"))
    return e;
  llvm::scope_exit freeDst([&] { api.cuMemFree(copyDst); });
  std::map<uint64_t, Timing> copyTimes;
  auto timeCopy = [&](uint64_t moved) -> llvm::Error {
    if (copyTimes.count(moved))
      return llvm::Error::success();
    Timing &timing = copyTimes[moved];
    uint64_t bytes = std::max<uint64_t>(moved / 2, 1);
    for (unsigned run = 0; run < kWarmup + runs; ++run) {
      if (llvm::Error e = driver.check(
              api.cuMemsetD8(flush, static_cast<unsigned char>(run),
                             flushBytes),
              "cuMemsetD8 (L2 flush)"))
        return e;
      if (llvm::Error e = driver.check(
              api.cuEventRecord(start.events[0], nullptr), "cuEventRecord"))
        return e;
      if (llvm::Error e = driver.check(
              api.cuMemcpyDtoD(copyDst, copySrc, bytes), "cuMemcpyDtoD (copy)"))
        return e;
      if (llvm::Error e = driver.check(
              api.cuEventRecord(steps.events[0], nullptr), "cuEventRecord"))
        return e;
      if (llvm::Error e = driver.check(api.cuEventSynchronize(steps.events[0]),
                                       "cuEventSynchronize"))
        return e;
      if (run < kWarmup)
        continue;
      float ms = 0;
      if (llvm::Error e = driver.check(
              api.cuEventElapsedTime(&ms, start.events[0], steps.events[0]),
              "cuEventElapsedTime"))
        return e;
      timing.ms.push_back(ms);
    }
    return llvm::Error::success();
  };
  if (!plan.steps.empty()) {
    for (uint64_t bytes : stepBytes)
      if (llvm::Error e = timeCopy(bytes))
        return e;
    if (llvm::Error e = timeCopy(loaded.compiled.minBytes))
      return e;
  }

  auto gbps = [](uint64_t bytes, double ms) {
    return ms > 0 ? bytes / (ms * 1e6) : 0.0;
  };
  auto line = [&](llvm::raw_ostream &os, uint64_t bytes, const Timing &t) {
    double median = t.median();
    const Timing &copy = copyTimes[bytes];
    double copyMedian = copy.ms.empty() ? 0 : copy.median();
    os << " min_bytes=" << bytes
       << llvm::format(" median_us=%.2f min_us=%.2f GB/s=%.1f", median * 1e3,
                       t.min() * 1e3, gbps(bytes, median))
       << llvm::format(" copy_us=%.2f copy_GB/s=%.1f vs_copy=%.3f",
                       copyMedian * 1e3, gbps(bytes, copyMedian),
                       median > 0 ? copyMedian / median : 0.0)
       << "\n";
  };
  os << "bench: '" << plan.function << "' on " << driver.getDeviceName() << " ("
     << driver.getChip() << ", " << driver.getMultiprocessorCount() << " SMs, "
     << (driver.getL2CacheBytes() >> 20) << " MiB L2): " << runs
     << " timed runs after " << kWarmup << " warm-up, L2 flushed ("
     << (flushBytes >> 20) << " MiB memset) before each; CUDA events\n";
  os << "bench: min_bytes from "
     << (fromTraffic ? "FusionTraffic (each kernel input read once, each "
                       "output written once)"
                     : "each kernel's distinct memref arguments")
     << "; vs_copy = copy time / time, the copy (cuMemcpyDtoD) moving the "
        "same bytes\n";
  for (auto [k, i] : llvm::enumerate(timedSteps)) {
    const LaunchPlan::Step &step = plan.steps[i];
    if (step.kind == LaunchPlan::Step::Kind::Launch)
      os << "kernel " << k << " " << step.kernel << " grid=" << step.grid[0]
         << "x" << step.grid[1] << "x" << step.grid[2]
         << " block=" << step.block[0] << "x" << step.block[1] << "x"
         << step.block[2] << ":";
    else
      os << "memcpy " << k << " (" << step.bytes << " bytes):";
    line(os, stepBytes[k], stepTimes[i]);
  }
  if (!plan.steps.empty()) {
    os << "fusion " << plan.function << " (" << numLaunches << " kernels):";
    line(os, loaded.compiled.minBytes, fusionTime);
  } else {
    os << "fusion " << plan.function << ": launches nothing\n";
  }
  return llvm::Error::success();
}
} // namespace

std::unique_ptr<Backend>
mlir::fuser::createCUDABackend(const BackendOptions &options, StringRef name,
                               DriverSource getDriver) {
  return std::make_unique<CUDABackend>(options, name, getDriver);
}

FailureOr<CUDACompiledFusion>
mlir::fuser::compileFusionForCUDA(func::FuncOp func,
                                  const BackendOptions &options, StringRef chip,
                                  int64_t smCount, StringRef format) {
  MLIRContext *context = func.getContext();
  {
    // gpu-module-to-binary needs the NVVM target and the LLVM IR
    // translations.
    DialectRegistry registry;
    registerLowerToNVVMDependencies(registry);
    context->appendDialectRegistry(registry);
  }
  CUDACompiledFusion compiled;
  compiled.module = ModuleOp::create(func.getLoc());
  compiled.module->getBody()->push_back(func->clone());
  auto clone = cast<func::FuncOp>(compiled.module->getBody()->front());

  if (needsSegmentation(func)) {
    PassManager pm(context, ModuleOp::getOperationName());
    // cuBLASLt has gemms, no attention: attention runs as gemm library
    // segments around softmax kernels.
    pm.nest<func::FuncOp>().addPass(createFuserDecomposeAttention());
    buildPresegPipeline(pm, PresegPipelineOptions());
    pm.nest<func::FuncOp>().addPass(createFuserSegment());
    if (failed(pm.run(*compiled.module)))
      return func.emitError("the CUDA backend could not segment '")
             << func.getSymName() << "'";
  }
  // The minimum traffic, from the segmented fusion before lowering.
  FusionTraffic traffic(clone);
  if (failed(traffic.emitUnsegmentedError()))
    return failure();
  compiled.minBytes =
      (traffic.getBytesRead() + traffic.getBytesWritten()).bytes;
  for (const SegmentTraffic &segment : traffic.getSegments()) {
    if (segment.isAlias()) {
      // On the GPU an alias output is a copy: read once, written once.
      for (ByteCount bytes : segment.resultBytes)
        compiled.minBytes += 2 * bytes.bytes;
      continue;
    }
    compiled.kernelMinBytes.push_back(
        (segment.bytesRead + segment.bytesWritten).bytes);
  }

  // buildLowerToNVVMPipeline's passes, with the front half's options set
  // (as the CPU backend sets them, and the device's multiprocessors):
  // the shared front half, then the GPU half with its option checks.
  PassManager pm(context, ModuleOp::getOperationName());
  KernelLoopsOptions loops;
  loops.splitReductions = options.splitReductions;
  if (smCount > 0)
    loops.schedule.smCount = smCount;
  buildLowerToKernelLoopsPipeline(pm, loops);
  LowerToNVVMOptions nvvm;
  nvvm.chip = chip.str();
  nvvm.format = format.str();
  buildKernelLoopsToNVVMPipeline(pm, nvvm);
  if (failed(pm.run(*compiled.module)))
    return func.emitError("the CUDA backend could not lower '")
           << func.getSymName() << "' to GPU kernels";
  return compiled;
}

FailureOr<SmallVector<Buffer>>
mlir::fuser::runLoweredFunction(ModuleOp module, func::FuncOp func,
                                ArrayRef<Buffer> inputs, StringRef backendName,
                                DriverSource getDriver) {
  FailureOr<Driver *> driver = getDriverFor(func, backendName, getDriver);
  if (failed(driver))
    return failure();
  FailureOr<LaunchPlan> plan = LaunchPlan::build(module, func.getSymName());
  if (failed(plan))
    return failure();
  FailureOr<std::unique_ptr<Executable>> executable =
      loadExecutable(func, *plan, **driver);
  if (failed(executable))
    return failure();
  return runExecutable(func, **executable, inputs);
}

LogicalResult mlir::fuser::benchmarkOnCUDA(func::FuncOp func,
                                           ArrayRef<Buffer> inputs,
                                           const BackendOptions &options,
                                           unsigned runs,
                                           llvm::raw_ostream &os) {
  if (runs == 0)
    return func.emitError("--bench needs at least one run");
  if (failed(checkBackendInputs(func, inputs)))
    return failure();
  FailureOr<LoadedFusion> loaded =
      loadFusion(func, options, "cuda", &Driver::get);
  if (failed(loaded))
    return failure();
  if (llvm::Error e = runBenchmark(func, *loaded, inputs, runs, os))
    return func.emitError("benchmarking '")
           << func.getSymName() << "' failed: " << llvm::toString(std::move(e));
  return success();
}
