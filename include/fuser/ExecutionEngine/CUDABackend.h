//===- CUDABackend.h - the kernels on an NVIDIA GPU -------------*- C++ -*-===//
//
// The `cuda` backend compiles a fusion as `fuser-opt --fuser-preseg
// --fuser-segment --fuser-lower-to-nvvm="chip=<the device's> format=bin"`
// would (preseg and segment only when it is not segmented yet), reads the
// host function into a launch plan (CUDALaunch.h) and runs it through the CUDA
// driver API, which is loaded with dlopen at run time (CUDADriver.h). Where
// there is no driver or no device, getUnavailableReason() says so ("no CUDA
// driver found", "no CUDA device") and tools exit 2.
//
// See docs/Lowering.md, "CUDA runtime and --backend cuda".
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_CUDABACKEND_H
#define FUSER_EXECUTIONENGINE_CUDABACKEND_H

#include "fuser/ExecutionEngine/Backend.h"
#include "fuser/ExecutionEngine/CUDADriver.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>

namespace mlir::fuser {

/// Where a backend of this kind finds its driver: the system's
/// (cuda::Driver::get) or another, e.g. the SIMT emulator's.
using DriverSource = llvm::Expected<cuda::Driver &> (*)();

/// The `cuda` backend; with `name` and `getDriver`, the same backend on
/// another driver (the `simt` backend: Backends.cpp). It compiles for the
/// driver's chip and object format (Driver::getObjectFormat).
std::unique_ptr<Backend>
createCUDABackend(const BackendOptions &options, StringRef name = "cuda",
                  DriverSource getDriver = &cuda::Driver::get);

/// A fusion compiled for the GPU: the lowered module and, from the segmented
/// fusion before lowering, the bytes its kernels must move at least
/// (FusionTraffic: each distinct input of a kernel segment read once, each
/// result written once; an alias output is a device copy on the GPU, read
/// once and written once).
struct CUDACompiledFusion {
  OwningOpRef<ModuleOp> module;
  uint64_t minBytes = 0;
  /// Per kernel segment, in program order.
  SmallVector<uint64_t> kernelMinBytes;
};

/// Clones `func` into a module of its own, segments it when it is not
/// segmented, and lowers it with the passes of buildLowerToNVVMPipeline
/// (`format`, `chip`; fuser-schedule's sm-count = `smCount` when positive
/// and split-reductions = options.splitReductions). Errors are located
/// diagnostics.
FailureOr<CUDACompiledFusion>
compileFusionForCUDA(func::FuncOp func, const BackendOptions &options,
                     StringRef chip, int64_t smCount = 0,
                     StringRef format = "bin");

/// Runs host function `func` of `module`, which --fuser-lower-to-nvvm
/// produced (memref arguments, the trailing `fuser.outputs` of them
/// outputs, gpu.binary kernels), on `inputs` (its leading, input
/// arguments) through the driver `getDriver` gives, and returns its
/// outputs. Errors are diagnostics on `func`.
FailureOr<SmallVector<Buffer>>
runLoweredFunction(ModuleOp module, func::FuncOp func, ArrayRef<Buffer> inputs,
                   StringRef backendName, DriverSource getDriver);

/// `fuser-run --backend cuda --bench N`: compiles and runs `func` on
/// `inputs`, then times N runs after warm-up with CUDA events, L2 flushed
/// (a memset of 4x the L2 size, at least 64 MiB) before each, and prints
/// per kernel and for the fusion the median and minimum time, effective GB/s
/// (minimum bytes / median time) and the ratio to a device-to-device copy
/// that moves the same bytes (cuMemcpyDtoD of half of them), timed the same
/// way in the same process. Errors (no driver included) are diagnostics on
/// the function.
LogicalResult benchmarkOnCUDA(func::FuncOp func, ArrayRef<Buffer> inputs,
                              const BackendOptions &options, unsigned runs,
                              llvm::raw_ostream &os);

} // namespace mlir::fuser

#endif // FUSER_EXECUTIONENGINE_CUDABACKEND_H
