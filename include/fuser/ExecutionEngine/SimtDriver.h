//===- SimtDriver.h - the CUDA driver API of the SIMT emulator --*- C++ -*-===//
//
// The `simt` backend's device: the driver API entry points that the `cuda`
// backend resolves from libcuda.so.1 (CUDADriver.h), implemented by an
// emulator that runs the kernels of gpu-module-to-binary{format=llvm} on the
// host with CUDA's thread, warp, barrier and shared-memory semantics and
// compute-sanitizer's checks (lib/ExecutionEngine/Simt). The same entry
// points are exported, under their driver names, by
// libfuser_simt_cuda.so, a drop-in for FUSER_CUDA_DRIVER. See
// docs/Lowering.md, "The SIMT emulator".
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_SIMTDRIVER_H
#define FUSER_EXECUTIONENGINE_SIMTDRIVER_H

#include "fuser/ExecutionEngine/CUDADriver.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::fuser::simt {

/// The emulator's entry points, in the table the CUDA runtime uses.
const cuda::DriverAPI &getDriverAPI();

/// The fake cuBLASLt over the emulated device (Simt/BlasLt.cpp): the
/// entry points the CUDA runtime calls for library segments, which check
/// what they are given (handles, descriptor attributes and their sizes,
/// compute and scale types, transposes, leading dimensions, batch counts
/// and strides, the algorithm and workspace the heuristic gave, alignment,
/// device memory) and compute on the host with the CPU backend's BLAS
/// gemm. A check that fails prints `simt: error: cublasLt...: why` and
/// returns CUBLAS_STATUS_INVALID_VALUE (or NOT_SUPPORTED for what the fake
/// does not model: alpha other than 1, beta other than 0, other types or
/// epilogues).
const cuda::BlasLtAPI &getBlasLtAPI();

/// The emulator as a cuda::Driver (the `simt` backend's).
llvm::Expected<cuda::Driver &> getDriver();

/// What the emulator did in this process: launches, blocks, threads,
/// checked accesses, barriers, shuffles and errors, as one line.
void printSummary(llvm::raw_ostream &os);

} // namespace mlir::fuser::simt

#endif // FUSER_EXECUTIONENGINE_SIMTDRIVER_H
