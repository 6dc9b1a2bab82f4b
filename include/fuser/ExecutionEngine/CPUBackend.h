//===- CPUBackend.h - the kernels, JIT-compiled for the host ----*- C++ -*-===//
//
// The `cpu` backend runs the kernels of the shared lowering (docs/Lowering.md)
// on the host: the same `scf.parallel` nests the GPU path outlines, lowered to
// the LLVM dialect and JIT-compiled with MLIR's ExecutionEngine, each
// kernel's blocks shared among threads (CPUThreads.h) and each block's
// threads run as sequential loops. It has two layers:
//
// - CPUKernelModule: a module already in the shared-lowering form (host
//   functions on static identity-layout memrefs in destination-passing style)
//   lowered to LLVM, JIT-compiled once, and run on Buffers;
// - createCPUBackend: the Backend, which takes a fusion through
//   (preseg + segment, when it is not segmented,)
//   buildLowerToKernelLoopsPipeline and runs the result with a CPUKernelModule.
//
// See the section "CPU backend" of docs/Lowering.md.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_CPUBACKEND_H
#define FUSER_EXECUTIONENGINE_CPUBACKEND_H

#include "fuser/Dialect/Fuser/Transforms/Schedule.h"
#include "fuser/ExecutionEngine/Backend.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class ExecutionEngine;
class OpPassManager;
class Pass;
namespace fuser {

/// The math ops whose results depend on the math library (exp, cosh, pow,
/// erf, ...; not sqrt, floor and the other exact ones) as calls of the host
/// libm functions under opaque names (`__fuser_libm_coshf`), which LLVM
/// cannot constant-fold with a function other than the interpreter's
/// (MathLibraryCalls.cpp).
std::unique_ptr<Pass> createConvertMathToOpaqueLibraryCallsPass();

/// The opaque names of `module` (in the LLVM dialect) that
/// createConvertMathToOpaqueLibraryCallsPass made, with the address of the
/// host function each stands for.
std::vector<std::pair<std::string, void *>>
getOpaqueLibrarySymbols(ModuleOp module);

/// The passes that take a module in the shared-lowering form to the LLVM
/// dialect on the host (after the f16/bf16 and memref.copy rewrites that
/// CPUKernelModule::compile applies first): lower-affine,
/// convert-scf-to-cf, fuser-convert-math-to-opaque-library-calls,
/// convert-math-to-llvm, convert-math-to-libm,
/// expand-strided-metadata, convert-vector-to-llvm, finalize-memref-to-llvm,
/// convert-arith-to-llvm, convert-index-to-llvm, convert-ub-to-llvm,
/// convert-func-to-llvm{use-bare-ptr-memref-call-conv=true},
/// convert-cf-to-llvm, reconcile-unrealized-casts,
/// fuser-cpu-dispatch-block-loops (the calls of the block loops that
/// lowerKernelModuleToLLVM outlined first).
void buildCPUKernelToLLVMPipeline(OpPassManager &pm);

/// The module of kernels `module` (in the shared-lowering form) lowered to
/// the LLVM dialect as the CPU backend JIT-compiles it: cloned, rewritten so
/// that no f16/bf16 arithmetic or conversion is left (each is the
/// interpreter's, in integer arithmetic or a registered helper), its
/// kernels' block loops outlined (fuser-cpu-outline-block-loops), then
/// buildCPUKernelToLLVMPipeline. `module` is left unchanged; an op the
/// passes cannot lower is a located error.
FailureOr<OwningOpRef<ModuleOp>> lowerKernelModuleToLLVM(ModuleOp module);

/// The x86 features the CPU backend does not compile for: instructions that
/// convert to f16/bf16 other than the interpreter does (AVX512-BF16's and
/// AVX-NE-CONVERT's vcvtneps2bf16 flush subnormals; AVX512-FP16 would
/// compute in f16 natively).
ArrayRef<StringRef> getCPUBackendDisabledX86Features();

/// The host implementations of the libdevice functions that FuserToArith
/// calls (`__nv_erfinvf`, `__nv_lgamma`, `__nv_fmodf`, ...), by name: what
/// a JIT of lowered kernels must bind. They are the functions the
/// interpreter computes those ops with.
ArrayRef<std::pair<const char *, void *>> getDeviceLibraryHostSymbols();

/// LLVM's own f16/bf16 conversion routines (`__truncsfbf2`,
/// `__extendhfsf2`, ...) as the interpreter's conversions, by name: what a
/// JIT of code that converts to or from f16/bf16 on x86-64 must bind so that
/// no bits depend on the host's libgcc (empty on other hosts).
ArrayRef<std::pair<const char *, void *>> getHalfConversionLibcalls();

/// The machine the CPU backend compiles for: the host CPU and its features
/// less getCPUBackendDisabledX86Features(), with floating-point operation
/// fusion off (llvm::FPOpFusion::Strict), generating code at `level`. So
/// the bits of a run do not depend on the host (docs/Lowering.md, "Same bits on every host").
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createCPUBackendTargetMachine(
    llvm::CodeGenOptLevel level = llvm::CodeGenOptLevel::Default);

/// A module of kernels in the shared-lowering form, lowered to LLVM and
/// JIT-compiled once; its functions may then run any number of times.
class CPUKernelModule {
public:
  /// Clones `module` (which is left unchanged), lowers the clone to the LLVM
  /// dialect and JIT-compiles it. Errors (unsupported ops, unresolved
  /// symbols, an intermediate larger than options.maxBufferBytes) are
  /// diagnostics located on the offending op or function.
  /// `extraSymbols` are further host functions the module may call (name,
  /// address), registered with the engine next to the backend's own helpers
  /// (the memory report's recording function, MemoryReport.h).
  /// `targetMachine` replaces createCPUBackendTargetMachine() (tests compile
  /// for the host's full feature set to show the rewrites suffice alone).
  /// Compilation and runs are in the IEEE default floating-point
  /// environment, whatever the caller's (FloatingPointEnvironment.h).
  static FailureOr<std::unique_ptr<CPUKernelModule>>
  compile(ModuleOp module, const BackendOptions &options,
          ArrayRef<std::pair<std::string, void *>> extraSymbols = {},
          std::unique_ptr<llvm::TargetMachine> targetMachine = nullptr);

  ~CPUKernelModule();

  /// Runs function `name`: `inputs` are its leading arguments (a
  /// non-scalar Buffer per memref argument, of its shape and element type; a
  /// scalar Buffer per scalar argument); every further argument is an output
  /// memref, allocated here and returned (rank-0 memrefs as Buffers with an
  /// empty shape and isScalar unset). Errors are diagnostics on the function.
  FailureOr<SmallVector<Buffer>> run(StringRef name, ArrayRef<Buffer> inputs);

private:
  struct FunctionInfo {
    FunctionType type;
    Location loc;
    /// What the function's memref.allocs take together: at most what it
    /// holds of intermediates at once.
    uint64_t intermediateBytes;
    /// The function's packed wrapper, looked up once at compile time: a run
    /// calls it directly (ExecutionEngine::invokePacked looks the symbol up
    /// in ORC by name on every call, about 1 us).
    void (*packed)(void **) = nullptr;
  };
  CPUKernelModule(std::unique_ptr<ExecutionEngine> engine,
                  const BackendOptions &options, Location moduleLoc);

  std::unique_ptr<ExecutionEngine> engine;
  BackendOptions options;
  Location moduleLoc;
  llvm::StringMap<FunctionInfo> functions;
  /// The gathers whose indices the kernels check, by check number
  /// (kIndexChecksAttr): where a run's error on an index out of range is
  /// located.
  SmallVector<Location> indexChecks;
};

/// Compiles `module` and runs its function `name` once (CPUKernelModule).
FailureOr<SmallVector<Buffer>> runKernelModule(ModuleOp module, StringRef name,
                                               ArrayRef<Buffer> inputs,
                                               const BackendOptions &options);

/// What the `cpu` backend's schedules are shaped for: a block's threads run
/// one after the other here, so a row is walked by a few threads (32) of
/// 64-byte vectors, each folding its lanes once, instead of a GPU's 512
/// threads of 16 bytes.
ScheduleTarget getCPUScheduleTarget();

/// The front half of the `cpu` backend: `func` cloned into a module of its
/// own, segmented first (fuser-preseg, fuser-segment) when it is not, then
/// buildLowerToKernelLoopsPipeline. Errors are diagnostics, as the backend
/// reports them. `checkIndices`: KernelLoopsOptions::checkIndices (the CPU
/// backend's kernels check; GPU kernels, as the memory report compiles them
/// for ptxas, do not). `schedule`: the CPU's, or the GPU's
/// (ScheduleTarget()) for the memory report, which models the GPU's
/// kernels.
FailureOr<OwningOpRef<ModuleOp>>
lowerFusionToKernelLoops(func::FuncOp func, const BackendOptions &options,
                         bool checkIndices = true,
                         const ScheduleTarget &schedule =
                             getCPUScheduleTarget());

/// The `cpu` backend.
std::unique_ptr<Backend> createCPUBackend(const BackendOptions &options);

/// `fuser-run --backend cpu --bench N`: compiles `func`, runs it once on
/// `inputs`, then times N runs and prints the median and minimum time and
/// the bytes per second of its inputs and results together, against a copy
/// that moves as many bytes (reads half, writes half; STREAM's copy) on as
/// many threads (the same runOnThreads), timed the same way. Errors are
/// diagnostics on the function.
LogicalResult benchmarkOnCPU(func::FuncOp func, ArrayRef<Buffer> inputs,
                             const BackendOptions &options, unsigned runs,
                             llvm::raw_ostream &os);

} // namespace fuser
} // namespace mlir

#endif // FUSER_EXECUTIONENGINE_CPUBACKEND_H
