//===- fuser-run.cpp - run a fusion on deterministic inputs ---------------===//
//
// fuser-run FILE [--entry NAME] [--seed N] [--backend interp|cpu|cuda|simt]
//           [--check-against BACKEND [--against-file FILE]]
//           [--split-reductions=false]
//           [--print-values] [--json] [--max-bytes N] [--max-total-bytes N]
//           [--ulp-tolerance N] [--library-tolerance-scale X]
//           [--bench N] (with --backend cuda)
//           [--memory-report [--cuda-toolkit DIR]]
//
// Prints `result N: <type> fnv1a64=0x<16 hex>` per result (docs/PRODUCT.md).
// Exit status: 0 success, 1 failed check, 2 bad input.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/Backends.h"
#include "fuser/ExecutionEngine/CPUBackend.h"
#include "fuser/ExecutionEngine/CUDABackend.h"
#include "fuser/ExecutionEngine/MemoryReport.h"
#include "fuser/ExecutionEngine/SimtDriver.h"
#include "fuser/Pipelines/Pipelines.h"
#include "fuser/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir;
using namespace mlir::fuser;
namespace cl = llvm::cl;

namespace {
enum ExitCode { ExitOk = 0, ExitCheckFailed = 1, ExitBadInput = 2 };

/// fuser-run's own options; --help hides the ones libLLVM registers.
cl::OptionCategory fuserRunCategory("fuser-run options");

cl::opt<std::string> inputFilename(cl::Positional, cl::cat(fuserRunCategory),
                                   cl::desc("<input .mlir>"), cl::init("-"));
cl::opt<std::string> entryName("entry", cl::cat(fuserRunCategory),
                               cl::desc("function to run (default: the "
                                        "first func.func)"));
cl::opt<uint64_t> seed("seed", cl::cat(fuserRunCategory),
                       cl::desc("seed of the deterministic inputs"),
                       cl::init(0));
cl::opt<std::string> backendName(
    "backend", cl::cat(fuserRunCategory),
    cl::desc("interp, cpu, cuda or simt (the cuda backend's kernels, run on "
             "the host by the SIMT emulator)"),
    cl::init("interp"));
cl::opt<std::string>
    checkBackendName("check-against", cl::cat(fuserRunCategory),
                     cl::desc("also run on this backend and compare"));
cl::opt<std::string> againstFilename(
    "against-file", cl::cat(fuserRunCategory),
    cl::desc("with --check-against: run the same entry of this file instead "
             "(same inputs), e.g. the fusion after a pipeline"));
cl::opt<bool> printValues("print-values", cl::cat(fuserRunCategory),
                          cl::desc("print every result element"));
cl::opt<bool> jsonOutput("json", cl::cat(fuserRunCategory),
                         cl::desc("print shapes, dtypes and values as JSON"));
cl::opt<uint64_t> maxBytes("max-bytes", cl::cat(fuserRunCategory),
                           cl::desc("largest input, intermediate or result, "
                                    "in bytes"),
                           cl::init(BackendOptions().maxBufferBytes));
cl::opt<uint64_t> maxTotalBytes(
    "max-total-bytes", cl::cat(fuserRunCategory),
    cl::desc("largest total of the buffers a run holds at once (the "
             "inputs, and each backend's copies, intermediates and results), "
             "in bytes (default: 3/4 of the memory this process may use)"),
    cl::init(getDefaultMaxTotalBytes()));
cl::opt<unsigned> ulpTolerance(
    "ulp-tolerance", cl::cat(fuserRunCategory),
    cl::desc("allowed ulp distance for --check-against (default: 0, or "
             "4 for fusions with exp/log/sin/cos/tanh/sigmoid/rsqrt/pow)"));

cl::opt<double> libraryToleranceScale(
    "library-tolerance-scale", cl::cat(fuserRunCategory),
    cl::desc("with --check-against and no --ulp-tolerance: a result that "
             "depends on matmul or linear is also within the check when "
             "within this multiple of nvFuser's tolerance for its dtype and "
             "summed elements (default 1; 0: by ulp only)"),
    cl::init(1.0));

cl::opt<bool> splitReductions(
    "split-reductions", cl::cat(fuserRunCategory),
    cl::desc("let kernel threads split reductions and the interpreter sum "
             "pairwise, which reassociates them (--split-reductions=false: "
             "every output reduced in sequence, by one kernel thread)"),
    cl::init(true));

cl::opt<bool> memoryReport(
    "memory-report", cl::cat(fuserRunCategory),
    cl::desc("with --backend cpu: run the kernels with every global memory "
             "access recorded and print what a GPU would see (bytes, "
             "sectors, accesses per thread, ptxas registers, occupancy; "
             "docs/Performance.md) instead of the results; --json for JSON"));
cl::opt<std::string> cudaToolkit(
    "cuda-toolkit", cl::cat(fuserRunCategory),
    cl::desc("with --memory-report: CUDA toolkit root for ptxas and "
             "libdevice (empty: no ptxas)"),
    cl::init("/usr/local/cuda"));
cl::opt<unsigned> benchRuns(
    "bench", cl::cat(fuserRunCategory),
    cl::desc("after the run, time N runs: with --backend cuda each kernel "
             "and the fusion (CUDA events, L2 flushed) against a copy of "
             "the same bytes (docs/Lowering.md); with --backend cpu the "
             "compiled fusion against a copy of its input and result bytes "
             "on as many threads (docs/Performance.md)"),
    cl::init(0));
cl::opt<unsigned> numThreads(
    "num-threads", cl::cat(fuserRunCategory),
    cl::desc("with --backend cpu: threads that run each kernel's blocks "
             "(default 0: FUSER_MLIR_NUM_THREADS, else every hardware "
             "thread); the results do not depend on it"),
    cl::init(0));

/// The options of this run's backends.
BackendOptions getBackendOptions() {
  BackendOptions options;
  options.maxBufferBytes = maxBytes;
  options.maxTotalBytes = maxTotalBytes;
  options.splitReductions = splitReductions;
  options.numThreads = numThreads;
  return options;
}

/// The backend called `name`, or null after saying why it cannot run.
std::unique_ptr<Backend> lookUpBackend(StringRef name,
                                       BackendOptions options =
                                           getBackendOptions()) {
  std::string error;
  std::unique_ptr<Backend> backend = createBackend(name, options, error);
  if (!backend) {
    llvm::errs() << "fuser-run: " << error << "\n";
    return nullptr;
  }
  if (std::optional<std::string> reason = backend->getUnavailableReason()) {
    llvm::errs() << "fuser-run: backend " << name
                 << " is not available: " << *reason << "\n";
    return nullptr;
  }
  return backend;
}

OwningOpRef<ModuleOp> parseFile(StringRef filename, MLIRContext &context,
                                llvm::SourceMgr &sourceMgr) {
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(filename, &message);
  if (!file) {
    llvm::errs() << "fuser-run: " << message << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    llvm::errs() << "fuser-run: could not parse " << filename << "\n";
  return module;
}

func::FuncOp findEntry(ModuleOp module, StringRef filename) {
  auto funcs = module.getOps<func::FuncOp>();
  if (entryName.empty()) {
    if (funcs.empty())
      llvm::errs() << "fuser-run: " << filename << " has no func.func\n";
    return funcs.empty() ? func::FuncOp() : *funcs.begin();
  }
  if (auto func = module.lookupSymbol<func::FuncOp>(entryName))
    return func;
  llvm::errs() << "fuser-run: " << filename << " has no function named '"
               << entryName << "'; it has:";
  for (func::FuncOp func : funcs)
    llvm::errs() << " " << func.getSymName();
  llvm::errs() << "\n";
  return nullptr;
}

/// Checks that every argument can be generated: a static shape, a fuser
/// element type and a size within the limit.
LogicalResult checkArguments(func::FuncOp func) {
  uint64_t inputBytes = 0;
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    FailureOr<unsigned> width = getElementByteWidth(getElementTypeOrSelf(type));
    if (failed(width) || (!tensor && isa<ShapedType>(type)))
      return func.emitError("argument ")
             << i << " has type " << type
             << "; fusions take ranked tensors or scalars of i1, i32, i64, "
                "f16, bf16, f32 or f64";
    if (!tensor)
      continue;
    if (!tensor.hasStaticShape())
      return func.emitError("argument ")
             << i << " has the dynamic shape " << type
             << "; only static shapes are supported";
    uint64_t bytes = *getValueByteSize(type);
    if (bytes > maxBytes)
      return func.emitError("argument ")
             << i << " of type " << type << " takes " << formatByteSize(bytes)
             << ", more than the limit of " << maxBytes.getValue()
             << " bytes (--max-bytes)";
    if (failed(reserveRunBytes(func.getLoc(), getBackendOptions(), inputBytes,
                               bytes, "argument " + Twine(i), type)))
      return failure();
  }
  return success();
}

struct CheckOutcome {
  BufferDifference difference;
  unsigned tolerance;
  bool passed;
  /// Beyond the tolerance only because split reductions reassociate: the
  /// same backend without splits is within it.
  bool reassociated = false;
  /// For a result that depends on matmul or linear: the elements its sums
  /// combine, nvFuser's (scaled) tolerance for them and the largest
  /// |a - b| / (atol + rtol |b|).
  std::optional<int64_t> reductionSize;
  AbsoluteTolerance absolute;
  double toleranceRatio = 0;
};

StringRef getVerdict(const CheckOutcome &check) {
  if (check.reassociated)
    return "reassociated";
  return check.passed ? "ok" : "FAILED";
}

void printText(llvm::raw_ostream &os, ArrayRef<Buffer> results,
               ArrayRef<CheckOutcome> checks) {
  for (auto [i, result] : llvm::enumerate(results)) {
    os << "result " << i << ": " << result.getType() << " fnv1a64=0x"
       << llvm::format_hex_no_prefix(fnv1a64(result.bytes), 16) << "\n";
    if (printValues) {
      os << "  ";
      printBufferValues(os, result, /*json=*/false);
      os << "\n";
    }
    if (i < checks.size()) {
      const CheckOutcome &check = checks[i];
      os << "check " << i
         << ": max_abs_err=" << llvm::format("%g", check.difference.maxAbsError)
         << " max_ulp=" << check.difference.maxUlpDistance
         << " tolerance=" << check.tolerance << " ulp";
      if (check.reductionSize)
        os << ", atol=" << llvm::format("%g", check.absolute.atol)
           << " rtol=" << llvm::format("%g", check.absolute.rtol)
           << " (nvFuser's matmul tolerance for " << *check.reductionSize
           << " summed elements) ratio="
           << llvm::format("%.3g", check.toleranceRatio);
      os << " " << getVerdict(check);
      if (check.reassociated)
        os << " (split reductions reassociate; within the tolerance with "
              "--split-reductions=false)";
      os << "\n";
    }
  }
}

void printJson(llvm::raw_ostream &os, ArrayRef<Buffer> results,
               ArrayRef<CheckOutcome> checks) {
  os << "{\"results\": [";
  for (auto [i, result] : llvm::enumerate(results)) {
    os << (i ? ",\n  " : "\n  ") << "{\"index\": " << i << ", \"type\": \""
       << result.getType() << "\", \"dtype\": \"" << result.elementType
       << "\", \"shape\": [";
    llvm::interleaveComma(result.shape, os);
    os << "], \"fnv1a64\": \"0x"
       << llvm::format_hex_no_prefix(fnv1a64(result.bytes), 16)
       << "\", \"values\": ";
    printBufferValues(os, result, /*json=*/true);
    if (i < checks.size()) {
      const CheckOutcome &check = checks[i];
      os << ", \"check\": {\"max_abs_err\": "
         << llvm::format("%.17g", check.difference.maxAbsError)
         << ", \"max_ulp\": " << check.difference.maxUlpDistance
         << ", \"tolerance_ulp\": " << check.tolerance;
      if (check.reductionSize)
        os << ", \"summed_elements\": " << *check.reductionSize
           << ", \"atol\": " << llvm::format("%.17g", check.absolute.atol)
           << ", \"rtol\": " << llvm::format("%.17g", check.absolute.rtol)
           << ", \"tolerance_ratio\": "
           << llvm::format("%.17g", check.toleranceRatio);
      os
         << ", \"passed\": " << (check.passed ? "true" : "false")
         << ", \"verdict\": \"" << getVerdict(check) << "\"}";
    }
    os << "}";
  }
  os << "\n]}\n";
}

/// A module that --fuser-lower-to-nvvm produced (gpu.binary kernels, a host
/// function on memrefs): its launch plan runs as it is, on deterministic
/// inputs, and its outputs are printed.
int runLowered(ModuleOp module, func::FuncOp entry) {
  if (backendName != "cuda" && backendName != "simt") {
    llvm::errs() << "fuser-run: a lowered module (gpu.binary kernels) runs "
                    "on --backend cuda or simt\n";
    return ExitBadInput;
  }
  if (!checkBackendName.empty() || memoryReport ||
      benchRuns.getNumOccurrences()) {
    llvm::errs() << "fuser-run: a lowered module runs without "
                    "--check-against, --memory-report or --bench\n";
    return ExitBadInput;
  }
  int64_t numOutputs = 0;
  if (auto outputs = entry->getAttrOfType<IntegerAttr>("fuser.outputs"))
    numOutputs = outputs.getInt();
  SmallVector<Buffer> inputs;
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes())) {
    if (static_cast<int64_t>(i) + numOutputs >=
        static_cast<int64_t>(entry.getNumArguments()))
      break;
    Type valueType = type;
    if (auto memref = dyn_cast<MemRefType>(type))
      valueType =
          RankedTensorType::get(memref.getShape(), memref.getElementType());
    inputs.push_back(makeDeterministicInput(valueType, i, seed));
  }
  FailureOr<SmallVector<Buffer>> outputs = runLoweredFunction(
      module, entry, inputs, backendName,
      backendName == "simt" ? &simt::getDriver : &cuda::Driver::get);
  if (failed(outputs))
    return ExitBadInput;
  printText(llvm::outs(), *outputs, {});
  return ExitOk;
}

int runMain() {
  if (benchRuns.getNumOccurrences() && backendName != "cuda" &&
      backendName != "cpu") {
    llvm::errs() << "fuser-run: --bench times kernels: it needs --backend "
                    "cuda or cpu\n";
    return ExitBadInput;
  }
  std::unique_ptr<Backend> backend = lookUpBackend(backendName);
  if (!backend)
    return ExitBadInput;
  std::unique_ptr<Backend> checkBackend;
  if (!checkBackendName.empty()) {
    checkBackend = lookUpBackend(checkBackendName);
    if (!checkBackend)
      return ExitBadInput;
  } else if (!againstFilename.empty()) {
    llvm::errs() << "fuser-run: --against-file needs --check-against\n";
    return ExitBadInput;
  }
  // What the emulator ran and found, whatever the outcome.
  llvm::scope_exit simtSummary([&] {
    if (backendName == "simt" || checkBackendName == "simt") {
      llvm::outs().flush();
      simt::printSummary(llvm::errs());
    }
  });

  DialectRegistry registry;
  registerFuserDialect(registry);
  // Lowered modules hold gpu, llvm and nvvm ops.
  registerLowerToNVVMDependencies(registry);
  MLIRContext context(registry);
  // The located message says what is wrong; a dump of the op adds noise.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  OwningOpRef<ModuleOp> module = parseFile(inputFilename, context, sourceMgr);
  if (!module)
    return ExitBadInput;
  func::FuncOp entry = findEntry(*module, inputFilename);
  if (!entry)
    return ExitBadInput;
  if (!module->getOps<gpu::BinaryOp>().empty())
    return runLowered(*module, entry);
  if (failed(checkArguments(entry)))
    return ExitBadInput;

  SmallVector<Buffer> inputs;
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes()))
    inputs.push_back(makeDeterministicInput(type, i, seed));

  if (memoryReport) {
    if (backend->getName() != "cpu" || checkBackend) {
      llvm::errs() << "fuser-run: --memory-report runs on --backend cpu, "
                      "without --check-against\n";
      return ExitBadInput;
    }
    MemoryReportOptions options;
    options.backend = getBackendOptions();
    options.toolkit = cudaToolkit;
    FailureOr<MemoryReport> report = measureMemory(entry, inputs, options);
    if (failed(report))
      return ExitBadInput;
    if (jsonOutput)
      printMemoryReportJson(llvm::outs(), *report);
    else
      printMemoryReport(llvm::outs(), *report);
    return ExitOk;
  }
  FailureOr<SmallVector<Buffer>> results = backend->run(entry, inputs);
  if (failed(results))
    return ExitBadInput;

  SmallVector<CheckOutcome> checks;
  bool allPassed = true;
  if (checkBackend) {
    // A parser reads the main buffer of its SourceMgr, so the second file
    // gets its own (with a handler that locates its diagnostics).
    llvm::SourceMgr otherSourceMgr;
    SourceMgrDiagnosticHandler otherDiagnostics(otherSourceMgr, &context);
    OwningOpRef<ModuleOp> otherModule;
    func::FuncOp otherEntry = entry;
    if (!againstFilename.empty()) {
      otherModule = parseFile(againstFilename, context, otherSourceMgr);
      if (!otherModule)
        return ExitBadInput;
      otherEntry = otherModule->lookupSymbol<func::FuncOp>(entry.getSymName());
      if (!otherEntry) {
        llvm::errs() << "fuser-run: " << againstFilename
                     << " has no function named '" << entry.getSymName()
                     << "'\n";
        return ExitBadInput;
      }
      if (otherEntry.getFunctionType() != entry.getFunctionType()) {
        llvm::errs() << "fuser-run: '" << entry.getSymName() << "' has type "
                     << otherEntry.getFunctionType() << " in "
                     << againstFilename << " but " << entry.getFunctionType()
                     << " in " << inputFilename << "\n";
        return ExitBadInput;
      }
    }
    FailureOr<SmallVector<Buffer>> expected =
        checkBackend->run(otherEntry, inputs);
    if (failed(expected))
      return ExitBadInput;
    // The interpreter and the CPU backend share their math functions but
    // for the host libm's.
    auto isHost = [](StringRef name) { return name == "interp" || name == "cpu"; };
    bool onCPU = isHost(backendName) && isHost(checkBackendName);
    unsigned tolerance =
        ulpTolerance.getNumOccurrences()
            ? ulpTolerance
            : (usesTranscendentalOps(entry, onCPU) ||
                       usesTranscendentalOps(otherEntry, onCPU)
                   ? kTranscendentalUlpTolerance
                   : 0);
    // Library results (BLAS sums in its own order): nvFuser's tolerance.
    SmallVector<std::optional<int64_t>> librarySizes;
    if (!ulpTolerance.getNumOccurrences() && libraryToleranceScale > 0)
      librarySizes = getLibraryReductionSizes(entry);
    for (auto [i, result, reference] : llvm::enumerate(*results, *expected)) {
      FailureOr<BufferDifference> difference =
          compareBuffers(result, reference);
      if (failed(difference)) {
        llvm::errs() << "fuser-run: result " << i << " has type "
                     << result.getType() << " on " << backendName << " but "
                     << reference.getType() << " on " << checkBackendName
                     << "\n";
        return ExitCheckFailed;
      }
      unsigned resultTolerance =
          getResultTolerance(result.elementType, tolerance);
      CheckOutcome check{*difference, resultTolerance,
                         difference->maxUlpDistance <= resultTolerance};
      if (i < librarySizes.size())
        check.reductionSize = librarySizes[i];
      if (check.reductionSize) {
        check.absolute =
            getReductionTolerance(result.elementType, *check.reductionSize);
        check.absolute.atol *= libraryToleranceScale;
        check.absolute.rtol *= libraryToleranceScale;
        FailureOr<double> ratio =
            getToleranceRatio(result, reference, check.absolute);
        check.toleranceRatio = succeeded(ratio) ? *ratio : HUGE_VAL;
        check.passed |= check.toleranceRatio <= 1;
      }
      checks.push_back(check);
    }
    // A split reduction reassociates, which the numerics contract allows:
    // where the same backends without splits agree, say so (as fuser-diff
    // does) instead of failing.
    bool anyFailed = llvm::any_of(
        checks, [](const CheckOutcome &check) { return !check.passed; });
    if (anyFailed && splitReductions) {
      BackendOptions sequential = getBackendOptions();
      sequential.splitReductions = false;
      std::unique_ptr<Backend> sequentialBackend =
          lookUpBackend(backendName, sequential);
      std::unique_ptr<Backend> sequentialCheck =
          lookUpBackend(checkBackendName, sequential);
      if (!sequentialBackend || !sequentialCheck)
        return ExitBadInput;
      FailureOr<SmallVector<Buffer>> unsplit =
          sequentialBackend->run(entry, inputs);
      FailureOr<SmallVector<Buffer>> unsplitExpected =
          sequentialCheck->run(otherEntry, inputs);
      if (failed(unsplit) || failed(unsplitExpected))
        return ExitBadInput;
      for (auto [check, result, reference] :
           llvm::zip(checks, *unsplit, *unsplitExpected)) {
        FailureOr<BufferDifference> difference =
            compareBuffers(result, reference);
        check.reassociated = !check.passed && succeeded(difference) &&
                             difference->maxUlpDistance <= check.tolerance;
      }
    }
    for (const CheckOutcome &check : checks)
      allPassed &= check.passed || check.reassociated;
  }

  if (jsonOutput)
    printJson(llvm::outs(), *results, checks);
  else
    printText(llvm::outs(), *results, checks);
  if (benchRuns.getNumOccurrences()) {
    // Timed as Python's execute runs it: outputs uninitialized.
    BackendOptions timed = getBackendOptions();
    timed.zeroOutputs = false;
    if (failed(backendName == "cpu"
                   ? benchmarkOnCPU(entry, inputs, timed, benchRuns,
                                    llvm::outs())
                   : benchmarkOnCUDA(entry, inputs, getBackendOptions(),
                                     benchRuns, llvm::outs())))
      return ExitBadInput;
  }
  return allPassed ? ExitOk : ExitCheckFailed;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(fuserRunCategory);
  if (!cl::ParseCommandLineOptions(
          argc, argv, "runs a fuser fusion on deterministic inputs\n",
          &llvm::errs()))
    return ExitBadInput;
  return runMain();
}
