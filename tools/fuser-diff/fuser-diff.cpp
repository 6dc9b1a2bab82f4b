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
// pipeline, `fuser-segment` runs after it, and the segmentation must be no
// worse than `fuser-segment` of the generated fusion alone: no more kernels
// and no more bytes read plus written (the FusionTraffic analysis), except
// on at most --max-worse-segmentations seeds, which are listed.
//
//   fuser-diff --seeds 1..10000 --pipeline fuser-preseg --check-preseg-monotone
//
//===----------------------------------------------------------------------===//

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
static cl::opt<std::string> pipelineOption("pipeline",
                                           cl::desc("pass pipeline to check"),
                                           cl::Required);
static cl::opt<std::string> backendOption(
    "backend",
    cl::desc("backend that runs the fusion after the pipeline (interp, cpu "
             "or cuda); the reference is always the interpreter"),
    cl::init("interp"));
static cl::opt<unsigned>
    opsOption("ops", cl::desc("ops per fusion (0: chosen from the seed)"),
              cl::init(0));
static cl::opt<std::string> familyOption(
    "family",
    cl::desc("generated fusions: any (the default) or normalization"),
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
             "that the driver catches changed results)"),
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
    cl::desc("run fuser-segment after the pipeline and require no more "
             "kernels and no more bytes read plus written than fuser-segment "
             "of the generated fusion alone"),
    cl::init(false));
static cl::opt<bool> monotoneNormalizationOption(
    "preseg-monotone-normalization",
    cl::desc("with --check-preseg-monotone, let fuser-segment form "
             "normalization segments, on both sides (the segment option "
             "`normalization`)"),
    cl::init(true));
static cl::opt<unsigned> maxWorseSegmentationsOption(
    "max-worse-segmentations",
    cl::desc("with --check-preseg-monotone, the number of seeds whose "
             "segmentation may be worse after the pipeline (each listed) "
             "before the run fails: a greedy segmenter is not monotone on "
             "every fusion, so the gate bounds a count (default 0)"),
    cl::init(0));
static cl::opt<bool> injectWorseOption(
    "inject-worse-segmentation",
    cl::desc("with --check-preseg-monotone, count one kernel more after the "
             "pipeline (to test that the driver catches worse segmentations)"),
    cl::init(false), cl::Hidden);

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
/// ulp, where NaNs agree whatever their payloads (compareBuffers).
std::string compareResults(ArrayRef<Buffer> expected, ArrayRef<Buffer> actual,
                           std::optional<unsigned> tolerance) {
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
        difference->maxUlpDistance <= *tolerance)
      continue;
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

std::string describe(const SegmentationCost &cost) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << cost.kernels << (cost.kernels == 1 ? " kernel, " : " kernels, ");
  if (cost.bytes.overflowed)
    os << "more than ";
  os << cost.bytes.bytes << " bytes read plus written";
  return text;
}

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

  /// Kernels per schedule of the fusions another backend ran correctly.
  std::map<std::string, uint64_t> scheduleCounts;
  /// Seeds whose results differ only because split reductions reassociate.
  SmallVector<uint64_t> reassociated;
  /// GPU backends: seeds with transcendental ops whose results differ beyond
  /// the tolerance, which libdevice computes and the interpreter computes
  /// with the host's libm (an ill-conditioned composition, tan near a pole,
  /// fmod of a sine, can take 1-ulp differences anywhere).
  SmallVector<uint64_t> deviceMath;
  /// The fusions that passed with each op (by name) in them.
  std::map<std::string, uint64_t> opCounts;
  /// The last check failed only because segmentation was worse after the
  /// pipeline (--check-preseg-monotone): counted against
  /// --max-worse-segmentations instead of failing the seed.
  bool worseSegmentation = false;
  /// The backend without split reductions, for kernel backends.
  std::unique_ptr<Backend> sequentialBackend;

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
  std::optional<SegmentationCost> before = getSegmentationCost(*baseline);
  if (!before)
    return "fuser-segment leaves the generated fusion unsegmented";
  std::optional<SegmentationCost> after = getSegmentationCost(*transformed);
  if (!after)
    return "the fusion is not segmented after the pipeline and fuser-segment";
  if (injectWorseOption)
    ++after->kernels;
  if (after->kernels <= before->kernels &&
      !isFewer(before->bytes, after->bytes))
    return {};
  worseSegmentation = true;
  return "segmentation is worse after the pipeline: " + describe(*after) +
         " instead of " + describe(*before) + " (fuser-segment alone)";
}

std::string SeedChecker::check(uint64_t seed) {
  worseSegmentation = false;
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
    diagnosticStream << diagnostic.getLocation() << ": " << diagnostic << "\n";
    for (const Diagnostic &note : diagnostic.getNotes())
      diagnosticStream << "  note: " << note << "\n";
  });
  auto failure = [&](StringRef reason) {
    return (reason + "\n" + diagnostics).str();
  };

  transformed = nullptr;
  baseline = nullptr;
  RandomFusionOptions options;
  options.seed = seed;
  options.numOps = opsOption;
  options.family = *parseRandomFusionFamily(familyOption);
  original = generateRandomFusion(context, options);
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
    tolerance =
        usesTranscendentalOps(function) ? kTranscendentalUlpTolerance : 0;
  std::string mismatch = compareResults(*expected, *actual, tolerance);
  // A split reduction reassociates: where it reduces inexact values the
  // rounding differs. If the same kernels without splits agree, that is
  // the only difference, and it is counted, not failed.
  if (!mismatch.empty() && sequentialBackend) {
    FailureOr<SmallVector<Buffer>> sequential =
        sequentialBackend->run(transformedFunction, inputs);
    // The injected change is one of the backend's results, with or without
    // splits.
    if (succeeded(sequential) && injectMismatchOption && !sequential->empty() &&
        !sequential->front().bytes.empty())
      sequential->front().bytes.front() ^= 1;
    if (succeeded(sequential) &&
        compareResults(*expected, *sequential, tolerance).empty()) {
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
    std::string worse = checkMonotone();
    if (!worse.empty())
      return failure(worse);
  }

  if (verboseOption) {
    llvm::outs() << "seed " << seed << ": ok";
    for (const Buffer &result : *expected)
      llvm::outs() << "; " << describe(result);
    llvm::outs() << "\n";
  }
  return {};
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
  os << "// fuser-diff --seeds " << seed << " --pipeline '" << pipelineOption
     << "'" << (checkPresegMonotoneOption ? " --check-preseg-monotone" : "")
     << (checkPresegMonotoneOption && !monotoneNormalizationOption
             ? " --preseg-monotone-normalization=false"
             : "")
     << "\n";
  for (StringRef line : llvm::split(StringRef(reason).rtrim(), '\n'))
    os << "// " << line << "\n";
  original.print(os);
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
                 << "' (any, normalization)\n";
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

  DialectRegistry registry;
  registerAllDialects(registry);
  registerFuserDialect(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadDialect<fuser::FuserDialect>();
  FailureOr<std::unique_ptr<PassManager>> passManager =
      buildPassManager(&context, pipelineOption);
  if (failed(passManager)) {
    llvm::errs() << "fuser-diff: cannot parse the pipeline '" << pipelineOption
                 << "'\n";
    return 2;
  }

  // With --check-preseg-monotone the pipeline is followed by fuser-segment,
  // and compared with fuser-segment alone.
  std::unique_ptr<PassManager> baselinePassManager;
  if (checkPresegMonotoneOption) {
    FuserSegmentOptions segmentOptions;
    segmentOptions.normalization = monotoneNormalizationOption;
    (*passManager)
        ->addNestedPass<func::FuncOp>(createFuserSegment(segmentOptions));
    baselinePassManager = std::make_unique<PassManager>(&context);
    baselinePassManager->addNestedPass<func::FuncOp>(
        createFuserSegment(segmentOptions));
  }

  SeedChecker checker(&context, **passManager, baselinePassManager.get(),
                      *reference, *backend);
  if (backend->getName() != reference->getName()) {
    BackendOptions sequential;
    sequential.splitReductions = false;
    std::string unused;
    checker.sequentialBackend =
        createBackend(backend->getName(), sequential, unused);
  }
  uint64_t passed = 0;
  SmallVector<uint64_t> failedSeeds, worseSeeds;
  for (uint64_t seed = seeds->first;; ++seed) {
    std::string reason = checker.check(seed);
    if (reason.empty()) {
      ++passed;
      std::set<std::string> names;
      checker.original->walk(
          [&](Operation *op) { names.insert(op->getName().getStringRef().str()); });
      for (const std::string &name : names)
        ++checker.opCounts[name];
    } else if (checker.worseSegmentation &&
               worseSeeds.size() < maxWorseSegmentationsOption) {
      worseSeeds.push_back(seed);
      llvm::outs() << "seed " << seed << ": " << reason;
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
    if (seed == seeds->last)
      break;
  }

  if (!failedSeeds.empty()) {
    llvm::outs() << "failing seeds:";
    for (uint64_t seed : failedSeeds)
      llvm::outs() << " " << seed;
    llvm::outs() << "\n";
  }
  if (checkPresegMonotoneOption)
    llvm::outs() << "worse segmentation after the pipeline: "
                 << worseSeeds.size() << " seeds (at most "
                 << maxWorseSegmentationsOption.getValue() << " allowed)"
                 << (worseSeeds.empty() ? "" : ":");
  if (checkPresegMonotoneOption) {
    for (uint64_t seed : worseSeeds)
      llvm::outs() << " " << seed;
    llvm::outs() << "\n";
  }
  // Seeds that passed although their results differ, and why.
  auto printExcused = [](StringRef why, ArrayRef<uint64_t> seeds) {
    if (seeds.empty())
      return;
    llvm::outs() << why << ":";
    for (uint64_t seed : seeds)
      llvm::outs() << " " << seed;
    llvm::outs() << "\n";
  };
  printExcused("device math (differ beyond the tolerance only in fusions "
               "with transcendental ops, which libdevice computes)",
               checker.deviceMath);
  printExcused("reassociated (differ only where split reductions reduce "
               "inexact values; equal without splits)",
               checker.reassociated);
  // Which schedules the other backend ran: every one must be exercised.
  bool uncovered = false;
  if (backend->getName() != reference->getName()) {
    const StringRef required[] = {"pointwise",
                                  "outer_reduction",
                                  "outer_reduction split",
                                  "inner_reduction",
                                  "inner_reduction split",
                                  "alias"};
    for (StringRef name : required) {
      uint64_t count = checker.scheduleCounts[name.str()];
      llvm::outs() << "schedule " << name << ": " << count << " kernels\n";
      uncovered |= count == 0;
    }
    // Schedules that only some families make (normalization).
    for (const auto &[name, count] : checker.scheduleCounts)
      if (!llvm::is_contained(required, name))
        llvm::outs() << "schedule " << name << ": " << count << " kernels\n";
  }
  // Which ops the checked fusions held: every fuser op but the ones that
  // segmentation makes (segment, yield); the ops on complex parts only where
  // the family makes complex values.
  bool opUncovered = false;
  bool makesComplex =
      *parseRandomFusionFamily(familyOption) == RandomFusionOptions::Family::Types;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (!requireOpCoverageOption || name.getDialectNamespace() != "fuser" ||
        name.getStringRef() == SegmentOp::getOperationName() ||
        name.getStringRef() == YieldOp::getOperationName())
      continue;
    uint64_t count = checker.opCounts[name.getStringRef().str()];
    bool complexOnly = llvm::is_contained(
        {ComplexOp::getOperationName(), RealOp::getOperationName(),
         ImagOp::getOperationName()},
        name.getStringRef());
    llvm::outs() << "op " << name.getStringRef() << ": " << count
                 << " fusions"
                 << (complexOnly && !makesComplex ? " (--family types only)"
                                                  : "")
                 << "\n";
    opUncovered |= count == 0 && (makesComplex || !complexOnly);
  }
  llvm::outs() << "fuser-diff: " << passed << " passed, " << failedSeeds.size()
               << " failed\n";
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
  return failedSeeds.empty() ? 0 : 1;
}
