//===- RandomFusion.h - random fusion generator -----------------*- C++ -*-===//
//
// Builds valid random fusions for differential testing: every rewrite of the
// fuser dialect must leave the interpreter's results of these bit-identical.
// The output depends only on the options (own PRNG, no std distributions),
// so a failing seed reproduces on every machine.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_TESTING_RANDOMFUSION_H
#define FUSER_TESTING_RANDOMFUSION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::fuser {

struct RandomFusionOptions {
  uint64_t seed = 1;
  /// Number of ops to build (arith.constant included); 0 picks one from the
  /// seed, between 8 and 48.
  unsigned numOps = 0;
  /// Upper bound on the element count of every tensor, so that interpreting
  /// a fusion stays fast.
  int64_t maxElements = 4096;
  /// What the fusions are made of: `Any` grows random steps (every op);
  /// `Normalization` builds a normalization: reductions over the innermost
  /// axes of rows whose results meet the rows again (RMSNorm, softmax,
  /// LayerNorm shapes, with weights, chained reductions and saved reduced
  /// rows), sometimes over an outer axis instead. `Types` is `Any` with
  /// the complex and 8-bit float element types among the choices (a family
  /// of its own, so that `Any`'s seeds keep their fusions). `Sorts` is
  /// `Any` with scans and argsorts more often, half of its argsorts read
  /// as nvFuser's topk (a slice of the first k, 1 <= k <= 20, and a gather
  /// of the values there: the selection kernel's form, which keeps up to
  /// 64).
  /// `Library` builds a matmul or linear (now and then a second linear
  /// after it, an MLP's down projection) between pointwise producers and
  /// consumers, as nvFuser programs feed them: transposed, broadcast and
  /// 1-D operands, a bias, a sum of the result's rows.
  enum class Family { Any, Normalization, Types, Sorts, Library };
  Family family = Family::Any;
};

/// The family named `name` (`any`, `normalization`, `types`, `sorts`,
/// `library`), or nullopt.
std::optional<RandomFusionOptions::Family>
parseRandomFusionFamily(llvm::StringRef name);

/// The name of the func.func the generator builds.
inline constexpr const char *kRandomFusionName = "fusion";

/// Builds a module holding one `func.func @fusion` over static
/// tensors. Loads the fuser, func and arith dialects into `context`.
OwningOpRef<ModuleOp> generateRandomFusion(MLIRContext *context,
                                           const RandomFusionOptions &options);

} // namespace mlir::fuser

#endif // FUSER_TESTING_RANDOMFUSION_H
