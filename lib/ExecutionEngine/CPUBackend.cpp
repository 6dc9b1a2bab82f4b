//===- CPUBackend.cpp - the `cpu` backend ---------------------------------===//
//
// Runs a fusion through the shared kernel lowering (the one the GPU path
// uses) and executes the resulting `scf.parallel` nests on the host with a
// CPUKernelModule (CPUKernelRunner.cpp). A fusion that is not segmented yet
// is segmented first, with `fuser-preseg` and `fuser-segment`, as
// `fuser-opt --fuser-preseg --fuser-segment` would.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CPUBackend.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/Fusion.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "fuser/Pipelines/Pipelines.h"

#include "fuser/ExecutionEngine/CPUThreads.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// All kernels of a fusion in one JIT-compiled engine.
class CPUCompiledFusion : public CompiledFusion {
public:
  CPUCompiledFusion(func::FuncOp func,
                    std::unique_ptr<CPUKernelModule> kernels)
      : CompiledFusion(func), kernels(std::move(kernels)) {}

private:
  FailureOr<SmallVector<Buffer>>
  runCompiled(ArrayRef<Buffer> inputs) override {
    FailureOr<SmallVector<Buffer>> outputs =
        kernels->run(getFunc().getSymName(), inputs);
    if (failed(outputs) || failed(adoptKernelOutputs(getFunc(), *outputs)))
      return failure();
    return outputs;
  }

  std::unique_ptr<CPUKernelModule> kernels;
};

class CPUBackend : public Backend {
public:
  explicit CPUBackend(const BackendOptions &options)
      : Backend("cpu"), options(options) {}

private:
  FailureOr<std::unique_ptr<CompiledFusion>>
  compileFusion(func::FuncOp func) override {
    FailureOr<OwningOpRef<ModuleOp>> lowered =
        lowerFusionToKernelLoops(func, options);
    if (failed(lowered))
      return failure();
    FailureOr<std::unique_ptr<CPUKernelModule>> kernels =
        CPUKernelModule::compile(**lowered, options);
    if (failed(kernels))
      return failure();
    return std::unique_ptr<CompiledFusion>(
        std::make_unique<CPUCompiledFusion>(func, std::move(*kernels)));
  }

  BackendOptions options;
};
} // namespace

FailureOr<OwningOpRef<ModuleOp>>
mlir::fuser::lowerFusionToKernelLoops(func::FuncOp func,
                                      const BackendOptions &options,
                                      bool checkIndices,
                                      const ScheduleTarget &schedule) {
  // The fusion alone, in a module of its own: the lowering rewrites it.
  MLIRContext *context = func.getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(func.getLoc());
  module->getBody()->push_back(func->clone());

  PassManager pm(context, ModuleOp::getOperationName());
  if (needsSegmentation(func)) {
    buildPresegPipeline(pm, PresegPipelineOptions());
    pm.nest<func::FuncOp>().addPass(createFuserSegment());
  }
  KernelLoopsOptions loops;
  loops.splitReductions = options.splitReductions;
  loops.schedule = schedule;
  loops.checkIndices = checkIndices;
  buildLowerToKernelLoopsPipeline(pm, loops);
  if (failed(pm.run(*module)))
    return func.emitError("the CPU backend could not lower '")
           << func.getSymName() << "' to kernel loops";
  return module;
}

ScheduleTarget mlir::fuser::getCPUScheduleTarget() {
  ScheduleTarget target;
  target.accessBytes = 64;
  target.maxRowThreads = 32;
  target.accumulators = 4;
  target.registerBytes = 64;
  return target;
}

std::unique_ptr<Backend>
mlir::fuser::createCPUBackend(const BackendOptions &options) {
  return std::make_unique<CPUBackend>(options);
}

namespace {
/// The median and minimum of `runs` calls of `body`, in seconds.
template <typename Body>
std::pair<double, double> timeRuns(unsigned runs, Body body) {
  std::vector<double> seconds;
  for (unsigned i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    body();
    seconds.push_back(std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count());
  }
  std::sort(seconds.begin(), seconds.end());
  return {seconds[seconds.size() / 2], seconds.front()};
}

/// The copy ranges: large enough to stream, enough of them to share.
constexpr size_t kCopyRangeBytes = 1 << 20;
} // namespace

LogicalResult mlir::fuser::benchmarkOnCPU(func::FuncOp func,
                                          ArrayRef<Buffer> inputs,
                                          const BackendOptions &options,
                                          unsigned runs,
                                          llvm::raw_ostream &os) {
  if (runs == 0)
    return func.emitError("--bench needs at least one run");
  llvm::Expected<unsigned> resolved = getCPUThreads(options.numThreads);
  if (!resolved)
    return func.emitError(llvm::toString(resolved.takeError()));
  unsigned threads = *resolved;
  BackendOptions fixed = options;
  fixed.numThreads = threads;
  FailureOr<std::unique_ptr<CompiledFusion>> compiled =
      createCPUBackend(fixed)->compile(func);
  if (failed(compiled))
    return failure();
  FailureOr<SmallVector<Buffer>> outputs = (*compiled)->run(inputs);
  if (failed(outputs))
    return failure();
  uint64_t bytes = 0;
  for (const Buffer &buffer : inputs)
    bytes += buffer.bytes.size();
  for (const Buffer &buffer : *outputs)
    bytes += buffer.bytes.size();

  bool failedRun = false;
  auto [median, minimum] = timeRuns(runs, [&] {
    failedRun |= failed((*compiled)->run(inputs));
  });
  if (failedRun)
    return failure();

  // The copy: half the bytes read, half written, pages touched first.
  size_t half = std::max<size_t>(bytes / 2, 1);
  std::vector<uint8_t> source(half, 1), destination(half, 0);
  int64_t ranges = llvm::divideCeil(half, kCopyRangeBytes);
  auto copy = [&] {
    runOnThreads(threads, ranges, [&](int64_t begin, int64_t end) {
      size_t from = begin * kCopyRangeBytes;
      size_t to = std::min<size_t>(end * kCopyRangeBytes, half);
      std::memcpy(destination.data() + from, source.data() + from, to - from);
    });
  };
  copy();
  auto [copyMedian, copyMinimum] = timeRuns(runs, copy);

  auto gbPerSecond = [](uint64_t moved, double seconds) {
    return double(moved) / seconds / 1e9;
  };
  os << "bench cpu: " << threads << " thread(s), " << runs
     << " runs; fusion: median "
     << llvm::format("%.3f", median * 1e3) << " ms (min "
     << llvm::format("%.3f", minimum * 1e3) << " ms), " << bytes
     << " bytes (inputs + results), "
     << llvm::format("%.2f", gbPerSecond(bytes, median)) << " GB/s; copy: "
     << "median " << llvm::format("%.3f", copyMedian * 1e3) << " ms (min "
     << llvm::format("%.3f", copyMinimum * 1e3) << " ms), "
     << llvm::format("%.2f", gbPerSecond(2 * half, copyMedian))
     << " GB/s; fusion/copy "
     << llvm::format("%.2f", gbPerSecond(bytes, median) /
                                 gbPerSecond(2 * half, copyMedian))
     << "\n";
  return success();
}
