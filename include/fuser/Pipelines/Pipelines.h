//===- Pipelines.h - fuser pass pipelines -----------------------*- C++ -*-===//

#ifndef FUSER_PIPELINES_PIPELINES_H
#define FUSER_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace fuser {

struct PresegPipelineOptions
    : public PassPipelineOptions<PresegPipelineOptions> {
  Option<bool> foldLossyCastChains{
      *this, "fold-lossy-cast-chains",
      llvm::cl::desc("Fold cast chains through wider intermediates even "
                     "when the first cast rounds (nvFuser's rule)"),
      llvm::cl::init(false)};
};

/// `fuser-preseg`: every pre-segmentation simplification to a fixpoint,
/// then the fusion contract check.
void buildPresegPipeline(OpPassManager &pm,
                         const PresegPipelineOptions &options);

/// Registers the fuser pipelines with the global pass pipeline registry.
void registerFuserPipelines();

} // namespace fuser
} // namespace mlir

#endif // FUSER_PIPELINES_PIPELINES_H
