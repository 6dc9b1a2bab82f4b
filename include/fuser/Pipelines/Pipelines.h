//===- Pipelines.h - fuser pass pipelines -----------------------*- C++ -*-===//

#ifndef FUSER_PIPELINES_PIPELINES_H
#define FUSER_PIPELINES_PIPELINES_H

#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "fuser/Dialect/Fuser/Transforms/Schedule.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class DialectRegistry;
class OpPassManager;
class Operation;
namespace fuser {

// What a fusion is (isFusion, needsSegmentation): fuser/Dialect/Fuser/IR/
// Fusion.h.

// Every builder below takes a pass manager anchored on an op that holds
// `func.func`s (builtin.module, or an op-agnostic one) and nests on them.

struct PresegPipelineOptions
    : public PassPipelineOptions<PresegPipelineOptions> {
  Option<bool> foldLossyCastChains{
      *this, "fold-lossy-cast-chains",
      llvm::cl::desc("Also fold cast chains by nvFuser's ConsecutiveCastPass "
                     "rule (keep only the narrowest type of each chain), "
                     "even where that drops a rounding step"),
      llvm::cl::init(false)};
};

/// `fuser-preseg`: every pre-segmentation simplification to a fixpoint,
/// then the fusion contract check.
void buildPresegPipeline(OpPassManager &pm,
                         const PresegPipelineOptions &options);

/// `fuser-segment-pipeline`: optionally fuser-preseg first, then
/// fuser-segment on every fusion, then the segmentation contract check
/// (fuser-verify-fusion, and every tensor computed inside a fuser.segment).
struct SegmentPipelineOptions
    : public PassPipelineOptions<SegmentPipelineOptions> {
  Option<bool> preseg{*this, "preseg",
                      llvm::cl::desc("Run the fuser-preseg pipeline first"),
                      llvm::cl::init(false)};
  Option<bool> foldLossyCastChains{
      *this, "fold-lossy-cast-chains",
      llvm::cl::desc("With preseg: fuser-preseg's fold-lossy-cast-chains"),
      llvm::cl::init(false)};
};
void buildSegmentPipeline(OpPassManager &pm,
                          const SegmentPipelineOptions &options);

/// The part of the kernel lowering that the GPU path and the CPU backend
/// share, on a module of segmented fusions: `fuser-schedule` on every
/// function, then `convert-fuser-to-scf` (docs/Lowering.md: host functions
/// on memrefs in destination-passing style, one `scf.parallel` nest per
/// kernel).
struct KernelLoopsOptions {
  /// What fuser-schedule shapes the kernels for (its sm-count, access-bytes
  /// and max-row-threads): a GPU unless the CPU backend says otherwise.
  ScheduleTarget schedule;
  /// Whether threads may split reductions (fuser-schedule's
  /// split-reductions).
  bool splitReductions = true;
  /// Whether gathers report indices out of range (convert-fuser-to-scf's
  /// check-indices: the CPU backend; GPU kernels read as nvFuser's do).
  bool checkIndices = false;
};
void buildLowerToKernelLoopsPipeline(OpPassManager &pm,
                                     const KernelLoopsOptions &options = {});

/// Options of `--fuser-lower-to-nvvm` and `--fuser-kernel-loops-to-nvvm`
/// (docs/Lowering.md, "GPU path"). They are checked by the pipelines' first
/// pass, `fuser-check-nvvm-lowering`: a bad value is an error, not an abort.
struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target GPU, sm_XY (ptxas must "
                                          "know it)"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("NVPTX features, e.g. +ptx80; empty picks the lowest "
                     "PTX version the chip accepts"),
      llvm::cl::init("")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("gpu.binary contents: isa (PTX text), bin (cubin for "
                     "the chip), fatbin, or llvm (LLVM bitcode as the NVPTX "
                     "code generator gets it: what the simt backend runs)"),
      llvm::cl::init("bin")};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("Optimization level, 0 to 3"),
                            llvm::cl::init(3)};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit root (bin/ptxas, nvvm/libdevice)"),
      llvm::cl::init("/usr/local/cuda")};
};

/// What a context needs, beyond the fuser dialect, to run
/// buildLowerToNVVMPipeline outside fuser-opt: the dialects it produces,
/// the NVVM target of gpu-module-to-binary and the LLVM IR translations.
void registerLowerToNVVMDependencies(DialectRegistry &registry);

/// `fuser-lower-to-nvvm`: option and input checks, then
/// buildLowerToKernelLoopsPipeline, then buildKernelLoopsToNVVMPipeline's
/// passes. Input: segmented fusions; output: host functions on memrefs with
/// `gpu.launch_func`s, `gpu.alloc`s and `gpu.memcpy`s, and one `gpu.binary`
/// per kernel.
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// `fuser-kernel-loops-to-nvvm`: the GPU half of `fuser-lower-to-nvvm`, on
/// the output of buildLowerToKernelLoopsPipeline (host functions whose
/// kernels are `scf.parallel` nests mapped with `#gpu.loop_dim_map`).
void buildKernelLoopsToNVVMPipeline(OpPassManager &pm,
                                    const LowerToNVVMOptions &options);

/// Registers the fuser pipelines with the global pass pipeline registry.
void registerFuserPipelines();

} // namespace fuser
} // namespace mlir

#endif // FUSER_PIPELINES_PIPELINES_H
