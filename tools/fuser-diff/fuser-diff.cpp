//===- fuser-diff.cpp - differential test of a pass pipeline --------------===//
//
// For every seed: generate the random fusion, interpret it on the
// deterministic inputs (seed 0), run the pipeline on a clone, verify the
// clone, run it on --backend (the interpreter by default) and require the
// same result types and bytes.
// Everything runs in process, so thousands of seeds take seconds.
//
//   fuser-diff --seeds 1..2000 --pipeline 'builtin.module(canonicalize)'
//
// The pipeline runs on the module, written anchored (`builtin.module(...)`)
// or not (`canonicalize`, `fuser-preseg,func.func(fuser-segment)`); as in
// mlir-opt's --pass-pipeline, passes on functions are nested explicitly.
//
// --check-preseg-monotone adds a property: the pipeline is a pre-segmentation
// pipeline, `fuser-segment` runs after it, and over all seeds the estimated
// time (estimateSeconds on the default TargetInfo) of the segmentations must
// be no more than that of `fuser-segment` of the generated fusions alone.
// The seeds where the pipeline makes it worse are counted and listed, and
// --max-worse-segmentations bounds their number.
//
//   fuser-diff --seeds 1..10000 --pipeline fuser-preseg --check-preseg-monotone
//
// --check-f64 checks the interpreter itself instead (no pipeline): each
// fusion is widened to f64 and interpreted too, and the original's results
// must be within the bound of a running error analysis of the f64 run
// (F64Check.h, docs/Testing.md).
//
//   fuser-diff --check-f64 --seeds 1..2000
//
//===----------------------------------------------------------------------===//

#include "F64Check.h"

#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "fuser/ExecutionEngine/Backends.h"
#include "fuser/Interpreter/Interpreter.h"
#include "fuser/Registration.h"
#include "fuser/Testing/RandomFusion.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <string>

using namespace mlir;
using namespace mlir::fuser;
namespace cl = llvm::cl;

static cl::opt<std::string>
    seedsOption("seeds", cl::desc("seeds to test: A..B (inclusive) or N"),
                cl::init("1..100"));
static cl::opt<std::string>
    pipelineOption("pipeline",
                   cl::desc("pass pipeline to check (required unless "
                            "--check-f64)"));
static cl::opt<bool> checkF64Option(
    "check-f64",
    cl::desc("check the interpreter against an f64 evaluation of the same "
             "fusion, within the bound of a running error analysis, instead "
             "of a pipeline against the interpreter"),
    cl::init(false));
static cl::opt<std::string> backendOption(
    "backend",
    cl::desc("backend that runs the fusion after the pipeline (interp, cpu "
             "or cuda); the reference is always the interpreter"),
    cl::init("interp"));
static cl::opt<unsigned>
    opsOption("ops", cl::desc("ops per fusion (0: chosen from the seed)"),
              cl::init(0));
static cl::opt<std::string> familyOption(
    "family", cl::desc("generated fusions: any (the default), normalization, "
                       "types, sorts or library (fuser-gen --help)"),
    cl::init("any"));
static cl::opt<std::string>
    keepFailingOption("keep-failing",
                      cl::desc("directory to write failing fusions into"),
                      cl::value_desc("dir"));
static cl::opt<bool>
    verboseOption("verbose",
                  cl::desc("print every seed and its result checksums"),
                  cl::init(false));
static cl::opt<bool> injectMismatchOption(
    "inject-mismatch",
    cl::desc("flip one bit of the first result after the pipeline (to test "
             "that the driver catches changed results); with --check-f64, "
             "move the interpreter's first checked element beyond its bound"),
    cl::init(false), cl::Hidden);
static cl::opt<bool> requireCoverageOption(
    "require-schedule-coverage",
    cl::desc("with a --backend other than interp, fail unless every kernel "
             "schedule ran at least once"),
    cl::init(false));
static cl::opt<bool> requireOpCoverageOption(
    "require-op-coverage",
    cl::desc("fail unless every fuser op the generator can make occurs in a "
             "fusion that was checked"),
    cl::init(false));
static cl::opt<bool> checkPresegMonotoneOption(
    "check-preseg-monotone",
    cl::desc("run fuser-segment after the pipeline and fail when the total "
             "estimated time of the segmentations is above that of "
             "fuser-segment of the generated fusions alone; the seeds where "
             "it is worse are listed"),
    cl::init(false));
static cl::opt<bool> monotoneNormalizationOption(
    "preseg-monotone-normalization",
    cl::desc("with --check-preseg-monotone, let fuser-segment form "
             "normalization segments, on both sides (the segment option "
             "`normalization`)"),
    cl::init(true));
static cl::opt<unsigned> maxWorseSegmentationsOption(
    "max-worse-segmentations",
    cl::desc("with --check-preseg-monotone, also fail when the segmentation "
             "after the pipeline is estimated slower on more than this many "
             "seeds (default: no bound; a greedy segmenter is not monotone "
             "on every fusion, so the gate is the total)"));
static cl::opt<bool> injectWorseOption(
    "inject-worse-segmentation",
    cl::desc("count one kernel more after the pipeline "
             "(--check-preseg-monotone), to test that the driver catches "
             "worse segmentations"),
    cl::init(false), cl::Hidden);

/// The chip the estimated times are for: fuser-segment's default target.
static const TargetInfo kTarget;

/// How many entries of a per-seed list are printed without --verbose.
static constexpr size_t kListLimit = 50;

namespace {

struct SeedRange {
  uint64_t first, last;
};

std::optional<SeedRange> parseSeeds(StringRef text) {
  auto [firstText, lastText] = text.split("..");
  SeedRange range;
  if (firstText.getAsInteger(10, range.first))
    return std::nullopt;
  if (!text.contains(".."))
    range.last = range.first;
  else if (lastText.getAsInteger(10, range.last) || range.last < range.first)
    return std::nullopt;
  return range;
}

/// The passes inside a `builtin.module(...)` that spans all of `text`,
/// `text` itself without that anchor, nullopt for several anchored groups.
std::optional<StringRef> stripModuleAnchor(StringRef text) {
  text = text.trim();
  if (!text.consume_front("builtin.module("))
    return text;
  int depth = 1;
  for (auto [i, c] : llvm::enumerate(text)) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (depth == 0)
      return i + 1 == text.size() ? std::optional(text.take_front(i))
                                  : std::nullopt;
  }
  return std::nullopt;
}

/// A module pass manager running `text`. Parsing an anchored string into a
/// module pass manager would nest a second module pass manager that never
/// runs, so the anchor is stripped first.
FailureOr<std::unique_ptr<PassManager>> buildPassManager(MLIRContext *context,
                                                         StringRef text) {
  std::optional<StringRef> passes = stripModuleAnchor(text);
  if (!passes) {
    llvm::errs() << "fuser-diff: expected one builtin.module(...) group\n";
    return failure();
  }
  auto passManager = std::make_unique<PassManager>(context);
  if (failed(parsePassPipeline(*passes, *passManager, llvm::errs())))
    return failure();
  return passManager;
}

std::string describe(const Buffer &buffer) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << buffer.getType() << " fnv1a64=";
  os << llvm::format_hex(fnv1a64(buffer.bytes), 18);
  return text;
}

/// Why `expected` and `actual` differ, or the empty string if they agree:
/// bit for bit, or with `tolerance` set (another backend), within that many
/// ulp for float results (getResultTolerance), where NaNs agree whatever
/// their payloads (compareBuffers), or, for a result that a library op
/// computes into (`librarySizes[i]`: the elements its sums combine), within
/// nvFuser's tolerance for that many (getReductionTolerance), since a BLAS
/// sums in its own order. `withinLibraryTolerance` is set when a result
/// agrees only that way.
std::string compareResults(ArrayRef<Buffer> expected, ArrayRef<Buffer> actual,
                           std::optional<unsigned> tolerance,
                           ArrayRef<std::optional<int64_t>> librarySizes = {},
                           bool *withinLibraryTolerance = nullptr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (expected.size() != actual.size()) {
    os << "the fusion returns " << actual.size() << " results instead of "
       << expected.size() << "\n";
    return text;
  }
  for (auto [i, pair] : llvm::enumerate(llvm::zip_equal(expected, actual))) {
    const auto &[before, after] = pair;
    if (before.getType() == after.getType() && before.bytes == after.bytes)
      continue;
    if (FailureOr<BufferDifference> difference = compareBuffers(before, after);
        tolerance && succeeded(difference) &&
        difference->maxUlpDistance <=
            getResultTolerance(before.elementType, *tolerance))
      continue;
    if (tolerance && i < librarySizes.size() && librarySizes[i]) {
      FailureOr<double> ratio = getToleranceRatio(
          before, after,
          getReductionTolerance(before.elementType, *librarySizes[i]));
      if (succeeded(ratio) && *ratio <= 1) {
        if (withinLibraryTolerance)
          *withinLibraryTolerance = true;
        continue;
      }
    }
    os << "result " << i << ": " << describe(before) << " before, "
       << describe(after) << " after";
    if (FailureOr<BufferDifference> difference = compareBuffers(before, after);
        succeeded(difference)) {
      os << " (max abs error " << difference->maxAbsError << ", max ulp "
         << difference->maxUlpDistance;
      if (difference->maxUlpDistance == 0)
        os << ": only NaN payloads or zero signs differ";
      os << ")";
    }
    os << "\n";
  }
  return text;
}

/// The bound `option` sets, nullopt when it is not given: these options
/// default to no bound.
std::optional<unsigned> getBound(const cl::opt<unsigned> &option) {
  if (option.getNumOccurrences() == 0)
    return std::nullopt;
  return option.getValue();
}

std::string describeBound(std::optional<unsigned> bound) {
  return bound ? "at most " + std::to_string(*bound) + " allowed" : "no bound";
}

/// The fusion --seeds, --ops and --family make of `seed`.
OwningOpRef<ModuleOp> generateFusion(MLIRContext *context, uint64_t seed) {
  RandomFusionOptions options;
  options.seed = seed;
  options.numOps = opsOption;
  options.family = *parseRandomFusionFamily(familyOption);
  return generateRandomFusion(context, options);
}

/// The diagnostics emitted while it lives, as text: a failing seed's
/// reason carries them, nothing is printed as it happens.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext *context)
      : handler(context, [this](Diagnostic &diagnostic) {
          llvm::raw_string_ostream os(text);
          os << diagnostic.getLocation() << ": " << diagnostic << "\n";
          for (const Diagnostic &note : diagnostic.getNotes())
            os << "  note: " << note << "\n";
        }) {}

  /// The text collected since the last call.
  std::string take() { return std::exchange(text, {}); }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

/// The cost of the segmented @fusion of `module`, or nullopt when it is not
/// segmented.
std::optional<SegmentationCost> getSegmentationCost(ModuleOp module) {
  auto function = module.lookupSymbol<func::FuncOp>(kRandomFusionName);
  if (!function)
    return std::nullopt;
  FusionTraffic traffic(function);
  if (!traffic.isSegmented())
    return std::nullopt;
  return fuser::getSegmentationCost(traffic);
}

std::string describe(ByteCount bytes) {
  return (bytes.overflowed ? "more than " : "") + std::to_string(bytes.bytes);
}

std::string describe(const SegmentationCost &cost) {
  return std::to_string(cost.kernels) +
         (cost.kernels == 1 ? " kernel, " : " kernels, ") +
         describe(cost.bytes) + " bytes read plus written";
}

/// A total time in microseconds, to the nanosecond (the bytes, printed
/// beside it, are exact).
std::string formatMicroseconds(double seconds) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.3f", seconds * 1e6);
  return text;
}

/// How much more time `worse` is estimated to take than `better`, signed:
/// a launch is microseconds, a few bytes are far less, so significant
/// digits, not a fixed point.
std::string formatDifference(const SegmentationCost &worse,
                             const SegmentationCost &better) {
  double microseconds =
      (estimateSeconds(worse, kTarget) - estimateSeconds(better, kTarget)) *
      1e6;
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%+.4g us", microseconds);
  return text;
}

/// Prints `entries` indented: the first kListLimit of them and how many
/// more, or all with --verbose (a long run's output stays readable). An
/// entry's further lines (diagnostics) are indented more.
void printBounded(ArrayRef<std::string> entries) {
  size_t shown =
      verboseOption ? entries.size() : std::min(entries.size(), kListLimit);
  for (const std::string &entry : entries.take_front(shown)) {
    auto [first, rest] = StringRef(entry).rtrim().split('\n');
    llvm::outs() << "  " << first << "\n";
    for (StringRef line : llvm::split(rest, '\n'))
      if (!line.empty())
        llvm::outs() << "    " << line << "\n";
  }
  if (shown < entries.size())
    llvm::outs() << "  ... and " << entries.size() - shown
                 << " more (--verbose lists all)\n";
}

/// Costs summed over seeds. The model of estimateSeconds is linear, so the
/// estimated time of the sums is the sum of the estimated times; computed
/// from integer sums it does not depend on the order of the seeds, and two
/// sides that launch and move the same are equal, not a rounding apart.
struct CostTotals {
  unsigned kernels = 0;
  ByteCount bytes;

  void add(const SegmentationCost &cost) {
    kernels += cost.kernels;
    bytes += cost.bytes;
  }
  double getSeconds() const { return estimateSeconds(kernels, bytes, kTarget); }
};

/// The costs --check-preseg-monotone compares for one seed.
struct MonotoneCosts {
  /// After the pipeline and fuser-segment.
  SegmentationCost withPipeline;
  /// After fuser-segment alone.
  SegmentationCost alone;
};

/// Checks one seed; returns the failure description, empty on success.
class SeedChecker {
public:
  SeedChecker(MLIRContext *context, PassManager &passManager,
              PassManager *baselinePassManager, Backend &reference,
              Backend &backend)
      : context(context), passManager(passManager),
        baselinePassManager(baselinePassManager), reference(reference),
        backend(backend) {}

  std::string check(uint64_t seed);

  /// The fusion as generated and, if the pipeline ran, as transformed; with
  /// --check-preseg-monotone, as segmented without the pipeline.
  OwningOpRef<ModuleOp> original, transformed, baseline;
  /// With --check-preseg-monotone, the costs of the last seed, where its
  /// checks got that far.
  std::optional<MonotoneCosts> monotoneCosts;

  /// Kernels per schedule of the fusions another backend ran correctly.
  std::map<std::string, uint64_t> scheduleCounts;
  /// Seeds whose results differ only because split reductions reassociate.
  SmallVector<uint64_t> reassociated;
  /// Seeds whose library results differ within nvFuser's tolerance only.
  SmallVector<uint64_t> library;
  /// GPU backends: seeds with transcendental ops whose results differ beyond
  /// the tolerance, which libdevice computes and the interpreter computes
  /// with the host's libm (an ill-conditioned composition, tan near a pole,
  /// fmod of a sine, can take 1-ulp differences anywhere).
  SmallVector<uint64_t> deviceMath;
  /// The fusions that passed with each op (by name) in them.
  std::map<std::string, uint64_t> opCounts;
  /// The backend and the reference without split reductions, for kernel
  /// backends: both then reduce every output in sequence.
  std::unique_ptr<Backend> sequentialBackend, sequentialReference;

private:
  std::string checkMonotone();
  void countSchedules(ModuleOp module);

  MLIRContext *context;
  PassManager &passManager;
  /// `func.func(fuser-segment)` alone, with --check-preseg-monotone.
  PassManager *baselinePassManager;
  Backend &reference;
  Backend &backend;
};

void SeedChecker::countSchedules(ModuleOp module) {
  OwningOpRef<ModuleOp> scheduled = module.clone();
  PassManager pm(context);
  pm.addNestedPass<func::FuncOp>(createFuserSchedule());
  if (failed(pm.run(*scheduled)))
    return;
  scheduled->walk([&](SegmentOp segment) {
    ScheduleAttr schedule = segment.getScheduleAttr();
    std::string name =
        schedule ? stringifyScheduleKind(schedule.getKind()).str() : "alias";
    if (schedule && schedule.getSplit() > 1)
      name += " split";
    ++scheduleCounts[name];
  });
}

std::string SeedChecker::checkMonotone() {
  baseline = original->clone();
  if (failed(baselinePassManager->run(*baseline)))
    return "fuser-segment fails on the generated fusion";
  std::optional<SegmentationCost> alone = getSegmentationCost(*baseline);
  if (!alone)
    return "fuser-segment leaves the generated fusion unsegmented";
  std::optional<SegmentationCost> withPipeline =
      getSegmentationCost(*transformed);
  if (!withPipeline)
    return "the fusion is not segmented after the pipeline and fuser-segment";
  if (injectWorseOption)
    ++withPipeline->kernels;
  monotoneCosts = MonotoneCosts{*withPipeline, *alone};
  return {};
}

std::string SeedChecker::check(uint64_t seed) {
  DiagnosticCollector diagnostics(context);
  auto failure = [&](StringRef reason) {
    return (reason + "\n" + diagnostics.take()).str();
  };

  transformed = nullptr;
  baseline = nullptr;
  monotoneCosts = std::nullopt;
  original = generateFusion(context, seed);
  if (failed(verify(*original)))
    return failure("the generated fusion does not verify (generator bug)");
  auto function = original->lookupSymbol<func::FuncOp>(kRandomFusionName);
  SmallVector<Buffer> inputs;
  for (auto [i, type] : llvm::enumerate(function.getArgumentTypes()))
    inputs.push_back(makeDeterministicInput(type, i, /*seed=*/0));
  FailureOr<SmallVector<Buffer>> expected = reference.run(function, inputs);
  if (failed(expected))
    return failure("the interpreter fails on the generated fusion");

  transformed = original->clone();
  if (failed(passManager.run(*transformed)))
    return failure("the pipeline fails");
  if (failed(verify(*transformed)))
    return failure("the transformed module does not verify");
  auto transformedFunction =
      transformed->lookupSymbol<func::FuncOp>(kRandomFusionName);
  if (!transformedFunction)
    return failure("the pipeline removed @fusion");
  if (transformedFunction.getArgumentTypes() != function.getArgumentTypes())
    return failure("the pipeline changed the argument types of @fusion");
  FailureOr<SmallVector<Buffer>> actual =
      backend.run(transformedFunction, inputs);
  if (failed(actual))
    return failure(
        ("backend " + backend.getName() + " fails on the transformed fusion")
            .str());
  if (injectMismatchOption && !actual->empty() &&
      !actual->front().bytes.empty())
    actual->front().bytes.front() ^= 1;
  // The reference bytes are the interpreter's; another backend agrees up to
  // NaN payloads (and a few ulp where results come from a math library).
  std::optional<unsigned> tolerance;
  if (backend.getName() != reference.getName())
    tolerance = usesTranscendentalOps(function, backend.getName() == "cpu")
                    ? kTranscendentalUlpTolerance
                    : 0;
  // Only another backend's library results get the tolerance.
  SmallVector<std::optional<int64_t>> librarySizes;
  if (tolerance)
    librarySizes = getLibraryReductionSizes(function);
  bool withinLibraryTolerance = false;
  std::string mismatch = compareResults(*expected, *actual, tolerance,
                                        librarySizes, &withinLibraryTolerance);
  if (mismatch.empty() && withinLibraryTolerance)
    library.push_back(seed);
  // A split reduction reassociates (the interpreter's pairwise sums too):
  // where it reduces inexact values the rounding differs. If the kernels and
  // the interpreter agree without splits, that is the only difference, and
  // it is counted, not failed.
  if (!mismatch.empty() && sequentialBackend) {
    FailureOr<SmallVector<Buffer>> sequentialExpected =
        sequentialReference->run(function, inputs);
    if (failed(sequentialExpected))
      return failure("the interpreter fails without split reductions");
    FailureOr<SmallVector<Buffer>> sequential =
        sequentialBackend->run(transformedFunction, inputs);
    // The injected change is one of the backend's results, with or without
    // splits.
    if (succeeded(sequential) && injectMismatchOption && !sequential->empty() &&
        !sequential->front().bytes.empty())
      sequential->front().bytes.front() ^= 1;
    if (succeeded(sequential) &&
        compareResults(*sequentialExpected, *sequential, tolerance).empty()) {
      reassociated.push_back(seed);
      mismatch.clear();
    }
  }
  bool usesDeviceMath =
      backend.getName() == "cuda" || backend.getName() == "simt";
  if (!mismatch.empty() && usesDeviceMath && usesTranscendentalOps(function)) {
    deviceMath.push_back(seed);
    mismatch.clear();
  }
  if (mismatch.empty() && tolerance)
    countSchedules(*transformed);
  if (!mismatch.empty())
    return failure("results differ:\n" + mismatch);
  if (baselinePassManager) {
    std::string error = checkMonotone();
    if (!error.empty())
      return failure(error);
  }

  if (verboseOption) {
    llvm::outs() << "seed " << seed << ": ok";
    for (const Buffer &result : *expected)
      llvm::outs() << "; " << describe(result);
    llvm::outs() << "\n";
  }
  return {};
}

/// The arguments that reproduce `seed` in the mode of this run.
std::string getReproducer(uint64_t seed) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "fuser-diff --seeds " << seed;
  if (checkF64Option)
    os << " --check-f64";
  else
    os << " --pipeline '" << pipelineOption << "'";
  if (familyOption != "any")
    os << " --family " << familyOption;
  if (opsOption != 0)
    os << " --ops " << opsOption;
  if (checkPresegMonotoneOption)
    os << " --check-preseg-monotone";
  if (checkPresegMonotoneOption && !monotoneNormalizationOption)
    os << " --preseg-monotone-normalization=false";
  return text;
}

void keepFailing(uint64_t seed, StringRef reason, ModuleOp original) {
  SmallString<128> path(keepFailingOption);
  llvm::sys::path::append(path, "seed-" + std::to_string(seed) + ".mlir");
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (error) {
    llvm::errs() << "fuser-diff: cannot write " << path << ": "
                 << error.message() << "\n";
    return;
  }
  os << "// " << getReproducer(seed) << "\n";
  for (StringRef line : llvm::split(StringRef(reason).rtrim(), '\n'))
    os << "// " << line << "\n";
  original.print(os);
}

//===----------------------------------------------------------------------===//
// --check-preseg-monotone
//===----------------------------------------------------------------------===//

/// The segmentations with and without the pipeline, summed over the seeds
/// that passed, and the seeds where the pipeline made them slower.
class MonotoneTally {
public:
  /// Adds a seed's costs; returns why its segmentation is worse with the
  /// pipeline, or the empty string.
  std::string add(uint64_t seed, const MonotoneCosts &costs);
  /// Prints the totals and the worse seeds.
  void report() const;
  /// Why the gate fails; empty when it holds.
  SmallVector<std::string> getGateFailures() const;

private:
  unsigned seeds = 0;
  CostTotals withPipeline, alone;
  SmallVector<std::string> worse;
};

std::string MonotoneTally::add(uint64_t seed, const MonotoneCosts &costs) {
  ++seeds;
  withPipeline.add(costs.withPipeline);
  alone.add(costs.alone);
  if (estimateSeconds(costs.withPipeline, kTarget) <=
      estimateSeconds(costs.alone, kTarget))
    return {};
  std::string reason = "segmentation is worse after the pipeline: " +
                       describe(costs.withPipeline) + " instead of " +
                       describe(costs.alone) + " (fuser-segment alone), est " +
                       formatDifference(costs.withPipeline, costs.alone);
  worse.push_back("seed " + std::to_string(seed) + ": " + reason);
  return reason;
}

void MonotoneTally::report() const {
  llvm::outs() << "preseg-monotone: " << seeds << " seeds; kernels "
               << withPipeline.kernels << " with the pipeline / "
               << alone.kernels << " without; bytes "
               << describe(withPipeline.bytes) << " / " << describe(alone.bytes)
               << "; estimated us "
               << formatMicroseconds(withPipeline.getSeconds()) << " / "
               << formatMicroseconds(alone.getSeconds()) << "\n";
  llvm::outs() << "worse segmentation after the pipeline: " << worse.size()
               << " seeds ("
               << describeBound(getBound(maxWorseSegmentationsOption)) << ")\n";
  printBounded(worse);
}

SmallVector<std::string> MonotoneTally::getGateFailures() const {
  SmallVector<std::string> reasons;
  // The estimated time is the gate: it weighs a launch against the bytes
  // it saves, as the segmenter does.
  if (withPipeline.getSeconds() > alone.getSeconds())
    reasons.push_back("the total estimated time is worse after the pipeline "
                      "(--check-preseg-monotone)");
  std::optional<unsigned> bound = getBound(maxWorseSegmentationsOption);
  if (bound && worse.size() > *bound)
    reasons.push_back("more than " + std::to_string(*bound) +
                      " seeds are worse after the pipeline "
                      "(--max-worse-segmentations)");
  return reasons;
}

//===----------------------------------------------------------------------===//
// Results (and --check-preseg-monotone)
//===----------------------------------------------------------------------===//

/// Prints which schedules the other backend ran; returns whether one never
/// ran (every one must be exercised).
bool printScheduleCoverage(const SeedChecker &checker) {
  const StringRef required[] = {
      "pointwise",       "outer_reduction",       "outer_reduction split",
      "inner_reduction", "inner_reduction split", "alias"};
  bool uncovered = false;
  for (StringRef name : required) {
    auto it = checker.scheduleCounts.find(name.str());
    uint64_t count = it == checker.scheduleCounts.end() ? 0 : it->second;
    llvm::outs() << "schedule " << name << ": " << count << " kernels\n";
    uncovered |= count == 0;
  }
  // Schedules that only some families make (normalization).
  for (const auto &[name, count] : checker.scheduleCounts)
    if (!llvm::is_contained(required, name))
      llvm::outs() << "schedule " << name << ": " << count << " kernels\n";
  return uncovered;
}

/// Prints which ops the checked fusions held: every fuser op but the ones
/// that segmentation makes (segment, yield); the ops on complex parts only
/// where the family makes complex values, library ops only where it
/// makes library ops. Returns whether one never occurred.
bool printOpCoverage(MLIRContext &context, const SeedChecker &checker) {
  bool opUncovered = false;
  RandomFusionOptions::Family family = *parseRandomFusionFamily(familyOption);
  bool makesComplex = family == RandomFusionOptions::Family::Types;
  bool makesLibrary = family == RandomFusionOptions::Family::Library;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "fuser" ||
        name.getStringRef() == SegmentOp::getOperationName() ||
        name.getStringRef() == YieldOp::getOperationName())
      continue;
    auto it = checker.opCounts.find(name.getStringRef().str());
    uint64_t count = it == checker.opCounts.end() ? 0 : it->second;
    bool complexOnly = llvm::is_contained({ComplexOp::getOperationName(),
                                           RealOp::getOperationName(),
                                           ImagOp::getOperationName()},
                                          name.getStringRef());
    bool libraryOnly = name.hasInterface<LibraryOpInterface>();
    llvm::outs() << "op " << name.getStringRef() << ": " << count << " fusions"
                 << (complexOnly && !makesComplex ? " (--family types only)"
                     : libraryOnly && !makesLibrary ? " (--family library only)"
                                                    : "")
                 << "\n";
    opUncovered |= count == 0 && (makesComplex || !complexOnly) &&
                   (makesLibrary || !libraryOnly);
  }
  return opUncovered;
}

/// Prints "what: seed seed ..." unless `seeds` is empty.
void printSeedList(StringRef what, ArrayRef<uint64_t> seeds) {
  if (seeds.empty())
    return;
  llvm::outs() << what << ":";
  for (uint64_t seed : seeds)
    llvm::outs() << " " << seed;
  llvm::outs() << "\n";
}

int runDifferential(MLIRContext &context, PassManager &passManager,
                    SeedRange seeds, Backend &reference, Backend &backend) {
  // With --check-preseg-monotone the pipeline is followed by fuser-segment,
  // and compared with fuser-segment alone.
  std::unique_ptr<PassManager> baselinePassManager;
  if (checkPresegMonotoneOption) {
    FuserSegmentOptions segmentOptions;
    segmentOptions.normalization = monotoneNormalizationOption;
    passManager.addNestedPass<func::FuncOp>(createFuserSegment(segmentOptions));
    baselinePassManager = std::make_unique<PassManager>(&context);
    baselinePassManager->addNestedPass<func::FuncOp>(
        createFuserSegment(segmentOptions));
  }

  SeedChecker checker(&context, passManager, baselinePassManager.get(),
                      reference, backend);
  if (backend.getName() != reference.getName()) {
    BackendOptions sequential;
    sequential.splitReductions = false;
    std::string unused;
    checker.sequentialBackend =
        createBackend(backend.getName(), sequential, unused);
    checker.sequentialReference =
        createBackend(reference.getName(), sequential, unused);
  }
  uint64_t passed = 0;
  SmallVector<uint64_t> failedSeeds;
  MonotoneTally monotone;
  for (uint64_t seed = seeds.first;; ++seed) {
    std::string reason = checker.check(seed);
    if (reason.empty()) {
      ++passed;
      std::set<std::string> names;
      checker.original->walk([&](Operation *op) {
        names.insert(op->getName().getStringRef().str());
      });
      for (const std::string &name : names)
        ++checker.opCounts[name];
      // A worse segmentation fails no seed (the gate is the total), but
      // its fusion is kept for a look.
      if (checker.monotoneCosts) {
        std::string worse = monotone.add(seed, *checker.monotoneCosts);
        if (!worse.empty() && !keepFailingOption.empty())
          keepFailing(seed, worse, *checker.original);
      }
    } else {
      failedSeeds.push_back(seed);
      llvm::outs() << "seed " << seed << ": FAILED: " << reason
                   << "// fusion as generated:\n";
      checker.original->print(llvm::outs());
      if (checker.transformed) {
        llvm::outs() << "// after the pipeline:\n";
        checker.transformed->print(llvm::outs());
      }
      if (checker.baseline) {
        llvm::outs() << "// after fuser-segment alone:\n";
        checker.baseline->print(llvm::outs());
      }
      if (!keepFailingOption.empty())
        keepFailing(seed, reason, *checker.original);
    }
    if (seed == seeds.last)
      break;
  }

  printSeedList("failing seeds", failedSeeds);
  if (checkPresegMonotoneOption)
    monotone.report();
  // Seeds that passed although their results differ, and why.
  printSeedList("device math (differ beyond the tolerance only in fusions "
               "with transcendental ops, which libdevice computes)",
               checker.deviceMath);
  printSeedList("reassociated (differ only where split reductions reduce "
               "inexact values; equal without splits)",
               checker.reassociated);
  printSeedList("library (library results differ within nvFuser's matmul "
               "tolerance; BLAS sums in its own order)",
               checker.library);
  bool uncovered = backend.getName() != reference.getName() &&
                   printScheduleCoverage(checker);
  bool opUncovered =
      requireOpCoverageOption && printOpCoverage(context, checker);
  llvm::outs() << "fuser-diff: " << passed << " passed, " << failedSeeds.size()
               << " failed\n";
  SmallVector<std::string> gateFailures = monotone.getGateFailures();
  for (const std::string &reason : gateFailures)
    llvm::outs() << "fuser-diff: " << reason << "\n";
  if (uncovered && requireCoverageOption) {
    llvm::outs() << "fuser-diff: a schedule was never run "
                    "(--require-schedule-coverage)\n";
    return 1;
  }
  if (opUncovered) {
    llvm::outs() << "fuser-diff: an op never occurred in a checked fusion "
                    "(--require-op-coverage)\n";
    return 1;
  }
  return failedSeeds.empty() && gateFailures.empty() ? 0 : 1;
}

//===----------------------------------------------------------------------===//
// --check-f64
//===----------------------------------------------------------------------===//

/// Checks the interpreter's run of each seed's fusion against its f64
/// widening (checkAgainstF64) and prints the counts of checked and excused
/// elements.
int runF64Check(MLIRContext &context, SeedRange seeds) {
  F64CheckTally tally;
  uint64_t passed = 0;
  SmallVector<uint64_t> failedSeeds;
  for (uint64_t seed = seeds.first;; ++seed) {
    DiagnosticCollector diagnostics(&context);
    OwningOpRef<ModuleOp> original = generateFusion(&context, seed);
    std::string reason;
    if (failed(verify(*original))) {
      reason = "the generated fusion does not verify (generator bug)\n";
    } else {
      auto function = original->lookupSymbol<func::FuncOp>(kRandomFusionName);
      SmallVector<Buffer> inputs;
      for (auto [i, type] : llvm::enumerate(function.getArgumentTypes()))
        inputs.push_back(makeDeterministicInput(type, i, /*seed=*/0));
      FailureOr<SmallVector<Buffer>> expected = interpret(function, inputs);
      if (failed(expected))
        reason = "the interpreter fails on the generated fusion\n";
      else
        reason = checkAgainstF64(function, inputs, *expected, tally,
                                 injectMismatchOption);
      if (!reason.empty())
        reason = "beyond the f64 bound:\n" + reason;
    }
    if (reason.empty()) {
      ++passed;
      if (verboseOption)
        llvm::outs() << "seed " << seed << ": ok\n";
    } else {
      reason += diagnostics.take();
      failedSeeds.push_back(seed);
      llvm::outs() << "seed " << seed << ": FAILED: " << reason
                   << "// reproduce: " << getReproducer(seed) << "\n"
                   << "// fusion as generated:\n";
      original->print(llvm::outs());
      if (!keepFailingOption.empty())
        keepFailing(seed, reason, *original);
    }
    if (seed == seeds.last)
      break;
  }
  printSeedList("failing seeds", failedSeeds);
  uint64_t excused = tally.getExcused();
  uint64_t total = tally.checked + excused;
  llvm::outs() << "check-f64: " << total << " result elements, "
               << tally.checked << " checked, " << excused << " excused ("
               << llvm::format("%.2f", total ? 100.0 * excused / total : 0.0)
               << "%)\n";
  for (const auto &[why, count] : tally.excused)
    llvm::outs() << "  excused " << count << ": " << why << "\n";
  // Where excused elements start (intermediates included), most first.
  SmallVector<std::pair<uint64_t, std::string>> origins;
  for (const auto &[origin, count] : tally.origins)
    origins.push_back({count, origin});
  llvm::sort(origins, [](const auto &a, const auto &b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  size_t shown = verboseOption ? origins.size() : std::min<size_t>(
                                                      origins.size(), 8);
  llvm::outs() << "excused where they start (elements of every value, by "
                  "op):\n";
  for (const auto &[count, origin] : ArrayRef(origins).take_front(shown))
    llvm::outs() << "  " << count << " " << origin << "\n";
  if (shown < origins.size())
    llvm::outs() << "  ... and " << origins.size() - shown
                 << " more (--verbose lists all)\n";
  llvm::outs() << "fuser-diff: " << passed << " passed, " << failedSeeds.size()
               << " failed\n";
  return failedSeeds.empty() ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerAllPasses();
  registerFuserPasses();
  cl::ParseCommandLineOptions(argc, argv,
                              "differential test of a pass pipeline on "
                              "random fusions\n");

  if (!parseRandomFusionFamily(familyOption)) {
    llvm::errs() << "fuser-diff: unknown --family '" << familyOption
                 << "' (any, normalization, types, sorts, library)\n";
    return 2;
  }
  std::optional<SeedRange> seeds = parseSeeds(seedsOption);
  if (!seeds) {
    llvm::errs() << "fuser-diff: --seeds must be N or A..B with A <= B, got '"
                 << seedsOption << "'\n";
    return 2;
  }
  if (!keepFailingOption.empty()) {
    if (std::error_code error =
            llvm::sys::fs::create_directories(keepFailingOption)) {
      llvm::errs() << "fuser-diff: cannot create " << keepFailingOption << ": "
                   << error.message() << "\n";
      return 2;
    }
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  registerFuserDialect(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadDialect<fuser::FuserDialect>();
  if (checkF64Option)
    return runF64Check(context, *seeds);
  if (pipelineOption.empty()) {
    llvm::errs() << "fuser-diff: --pipeline is required (unless --check-f64)\n";
    return 2;
  }
  FailureOr<std::unique_ptr<PassManager>> passManager =
      buildPassManager(&context, pipelineOption);
  if (failed(passManager)) {
    llvm::errs() << "fuser-diff: cannot parse the pipeline '" << pipelineOption
                 << "'\n";
    return 2;
  }
  std::string error;
  std::unique_ptr<Backend> backend =
      createBackend(backendOption, BackendOptions(), error);
  if (!backend) {
    llvm::errs() << "fuser-diff: " << error << "\n";
    return 2;
  }
  if (std::optional<std::string> reason = backend->getUnavailableReason()) {
    llvm::errs() << "fuser-diff: backend " << backend->getName()
                 << " is not available: " << *reason << "\n";
    return 2;
  }
  std::unique_ptr<Backend> reference = createInterpreterBackend({});
  return runDifferential(context, **passManager, *seeds, *reference, *backend);
}
