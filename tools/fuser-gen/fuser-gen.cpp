//===- fuser-gen.cpp - print random fusions -------------------------------===//
//
// `fuser-gen --seed N [--ops K]` prints the random fusion of seed N (the one
// fuser-diff checks for that seed). `--count C` prints the fusions of seeds
// N..N+C-1, separated by `// -----` (split-input-file form); `--op-stats`
// prints how often each op kind and each cast type pair occurs in them
// instead, with every fuser op listed, so missing kinds show up as 0.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Registration.h"
#include "fuser/Testing/RandomFusion.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<uint64_t>
    seedOption("seed", cl::desc("seed of the first fusion"), cl::init(1));
static cl::opt<unsigned>
    opsOption("ops", cl::desc("ops per fusion (0: chosen from the seed)"),
              cl::init(0));
static cl::opt<unsigned>
    countOption("count", cl::desc("number of consecutive seeds"), cl::init(1));
static cl::opt<std::string> familyOption(
    "family",
    cl::desc("any (every op, the default), normalization (reductions over "
             "rows whose results meet the rows again), types (any with complex "
             "and 8-bit floats), sorts (any with more scans and argsorts, "
             "half of these as topk) or library (a matmul or linear between "
             "pointwise producers and consumers, attention or a grouped_mm)"),
    cl::init("any"));
static cl::opt<bool>
    statsOption("op-stats",
                cl::desc("print op-kind and cast-pair counts instead of IR"),
                cl::init(false));

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "random fusion generator\n");

  DialectRegistry registry;
  fuser::registerFuserDialect(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  // Sorted output; zero counts for the fuser ops that never occurred.
  std::map<std::string, uint64_t> opCounts, castCounts;
  if (statsOption)
    for (RegisteredOperationName name : context.getRegisteredOperations())
      if (name.getDialectNamespace() ==
          fuser::FuserDialect::getDialectNamespace())
        opCounts[name.getStringRef().str()] = 0;

  std::optional<fuser::RandomFusionOptions::Family> family =
      fuser::parseRandomFusionFamily(familyOption);
  if (!family) {
    llvm::errs() << "fuser-gen: unknown --family '" << familyOption
                 << "' (any, normalization, types, sorts, library)\n";
    return 2;
  }
  for (unsigned i = 0; i < countOption; ++i) {
    fuser::RandomFusionOptions options;
    options.seed = seedOption + i;
    options.numOps = opsOption;
    options.family = *family;
    uint64_t seed = options.seed;
    OwningOpRef<ModuleOp> module =
        fuser::generateRandomFusion(&context, options);
    if (failed(verify(*module))) {
      llvm::errs() << "fuser-gen: seed " << seed
                   << " gave invalid IR (a generator bug):\n";
      module->print(llvm::errs(), OpPrintingFlags().printGenericOpForm());
      return 1;
    }
    if (!statsOption) {
      if (i > 0)
        llvm::outs() << "// -----\n";
      module->print(llvm::outs());
      continue;
    }
    module->walk([&](Operation *op) {
      ++opCounts[op->getName().getStringRef().str()];
      if (auto cast = dyn_cast<fuser::CastOp>(op)) {
        std::string pair;
        llvm::raw_string_ostream os(pair);
        os << getElementTypeOrSelf(cast.getSource().getType()) << "->"
           << getElementTypeOrSelf(cast.getType());
        ++castCounts[pair];
      }
    });
  }
  if (statsOption) {
    for (const auto &[name, count] : opCounts)
      llvm::outs() << "op " << name << " " << count << "\n";
    for (const auto &[pair, count] : castCounts)
      llvm::outs() << "cast " << pair << " " << count << "\n";
  }
  return 0;
}
