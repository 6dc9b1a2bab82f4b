//===- Backend.cpp - the backend interface --------------------------------===//

#include "fuser/ExecutionEngine/Backend.h"
#include "fuser/ExecutionEngine/FloatingPointEnvironment.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::fuser;

CompiledFusion::CompiledFusion(func::FuncOp fusion)
    : module(ModuleOp::create(fusion.getLoc())) {
  func = cast<func::FuncOp>(fusion->clone());
  module->getBody()->push_back(func);
}

// Anchors the vtables in this library.
CompiledFusion::~CompiledFusion() = default;
Backend::~Backend() = default;

FailureOr<SmallVector<Buffer>> CompiledFusion::run(ArrayRef<Buffer> inputs) {
  if (failed(checkBackendInputs(func, inputs)))
    return failure();
  ScopedDefaultFloatingPointEnvironment defaultEnvironment;
  return runCompiled(inputs);
}

FailureOr<std::unique_ptr<CompiledFusion>>
Backend::compile(func::FuncOp func) {
  ScopedDefaultFloatingPointEnvironment defaultEnvironment;
  return compileFusion(func);
}

FailureOr<SmallVector<Buffer>> Backend::run(func::FuncOp func,
                                            ArrayRef<Buffer> inputs) {
  if (failed(checkBackendInputs(func, inputs)))
    return failure();
  FailureOr<std::unique_ptr<CompiledFusion>> compiled = compile(func);
  if (failed(compiled))
    return failure();
  return (*compiled)->run(inputs);
}

LogicalResult mlir::fuser::checkBackendInputs(func::FuncOp func,
                                              ArrayRef<Buffer> inputs) {
  FunctionType type = func.getFunctionType();
  if (inputs.size() != type.getNumInputs())
    return func.emitError("expected ")
           << type.getNumInputs() << " inputs, got " << inputs.size();
  for (auto [i, input, argType] : llvm::enumerate(inputs, type.getInputs()))
    if (input.getType() != argType)
      return func.emitError("input ")
             << i << " has type " << input.getType() << " but argument " << i
             << " has type " << argType;
  return success();
}

namespace {
/// The first unsigned number in file `path` after `key` (the whole file
/// when `key` is empty), times `scale`; nullopt when it cannot be read.
std::optional<uint64_t> readNumber(const char *path, StringRef key = {},
                                   uint64_t scale = 1) {
  std::ifstream file(path);
  std::string text((std::istreambuf_iterator<char>(file)),
                   std::istreambuf_iterator<char>());
  StringRef rest(text);
  if (!key.empty()) {
    size_t at = rest.find(key);
    if (at == StringRef::npos)
      return std::nullopt;
    rest = rest.drop_front(at + key.size());
  }
  rest = rest.ltrim();
  uint64_t value;
  if (rest.consumeInteger(10, value))
    return std::nullopt;
  return value * scale;
}

/// What the memory cgroup of this process lets it allocate beyond what the
/// group uses now (cgroup v2, else v1), if it has a limit.
std::optional<uint64_t> getCgroupHeadroom() {
  for (auto [limitPath, usagePath] :
       {std::pair{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
        std::pair{"/sys/fs/cgroup/memory/memory.limit_in_bytes",
                  "/sys/fs/cgroup/memory/memory.usage_in_bytes"}}) {
    std::optional<uint64_t> limit = readNumber(limitPath);
    std::optional<uint64_t> usage = readNumber(usagePath);
    // "max" (v2) does not parse; v1 spells no limit as a huge number.
    if (!limit || !usage || *limit >= (uint64_t(1) << 60))
      continue;
    return *limit > *usage ? *limit - *usage : 0;
  }
  return std::nullopt;
}
} // namespace

uint64_t mlir::fuser::getDefaultMaxTotalBytes() {
  uint64_t available = UINT64_MAX;
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0)
    available = uint64_t(pages) * uint64_t(pageSize);
  // What the machine has left now (page cache that can be dropped
  // included), not what it has: other processes and this one's own
  // tensors already hold the rest.
  if (std::optional<uint64_t> free =
          readNumber("/proc/meminfo", "MemAvailable:", 1024))
    available = std::min(available, *free);
  if (std::optional<uint64_t> headroom = getCgroupHeadroom())
    available = std::min(available, *headroom);
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    struct rlimit limit;
    if (getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      available = std::min<uint64_t>(available, limit.rlim_cur);
  }
  // A margin for what the run allocates besides its buffers (compiled
  // code, the host's own bookkeeping).
  return available / 4 * 3;
}

namespace {
/// The budget of the innermost ScopedRunBudget on this thread.
thread_local std::optional<uint64_t> runBudget;
} // namespace

ScopedRunBudget::ScopedRunBudget(uint64_t maxTotalBytes)
    : previous(runBudget) {
  runBudget = maxTotalBytes;
}

ScopedRunBudget::~ScopedRunBudget() { runBudget = previous; }

LogicalResult mlir::fuser::reserveRunBytes(Location loc,
                                           const BackendOptions &options,
                                           uint64_t &heldBytes, uint64_t bytes,
                                           const Twine &what, Type type) {
  uint64_t limit = runBudget ? *runBudget : options.maxTotalBytes;
  if (bytes <= limit && heldBytes <= limit - bytes) {
    heldBytes += bytes;
    return success();
  }
  InFlightDiagnostic diagnostic = emitError(loc);
  diagnostic << what;
  if (type)
    diagnostic << " of type " << type;
  diagnostic << " takes " << formatByteSize(bytes);
  if (heldBytes != 0)
    diagnostic << "; with the " << heldBytes
               << " bytes the run holds already, that is";
  else
    diagnostic << ",";
  diagnostic << " more than the limit of " << limit
             << " bytes for all its buffers together (--max-total-bytes)";
  return diagnostic;
}

LogicalResult mlir::fuser::adoptKernelOutputs(func::FuncOp func,
                                              MutableArrayRef<Buffer> outputs) {
  FunctionType type = func.getFunctionType();
  if (outputs.size() != type.getNumResults())
    return func.emitError("the lowered function has ")
           << outputs.size() << " outputs but '" << func.getSymName()
           << "' has " << type.getNumResults() << " results";
  for (auto [i, output, resultType] :
       llvm::enumerate(outputs, type.getResults())) {
    if (!isa<ShapedType>(resultType))
      output.isScalar = output.shape.empty();
    if (output.getType() != resultType)
      return func.emitError("output ")
             << i << " of the lowered function has type " << output.getType()
             << " but result " << i << " has type " << resultType;
  }
  return success();
}
