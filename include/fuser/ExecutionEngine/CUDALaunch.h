//===- CUDALaunch.h - a lowered host function as a launch plan --*- C++ -*-===//
//
// The `cuda` backend does not JIT the host side. After `--fuser-lower-to-nvvm`
// a host function is a straight-line sequence of gpu.alloc, gpu.launch_func,
// gpu.memcpy and gpu.dealloc (plus constants and host-level memref views), and
// each kernel is a `gpu.binary` holding a cubin (or PTX). A LaunchPlan is that
// sequence read out of the IR once: the device buffers (the function's memref
// arguments and its gpu.allocs), the binaries' bytes, and the steps with
// their constant grids, blocks and kernel arguments (bare-pointer convention:
// a memref argument is one device pointer, a scalar is passed by value).
//
// CUDAExecutable runs a plan through the driver API (CUDADriver.h):
// cuModuleLoadData, cuLaunchKernel, cuMemAlloc, cuMemcpy*. The same plan is
// what `fuser-translate --fuser-export-launch` writes as JSON next to the
// cubins, for bench/gpu_bench.py. See docs/Lowering.md, "CUDA runtime and
// --backend cuda".
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_CUDALAUNCH_H
#define FUSER_EXECUTIONENGINE_CUDALAUNCH_H

#include "fuser/ExecutionEngine/Buffer.h"
#include "fuser/ExecutionEngine/CUDADriver.h"
#include "fuser/ExecutionEngine/CUDALibraryCall.h"

#include "mlir/IR/BuiltinOps.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace mlir::fuser::cuda {

struct LaunchPlan {
  /// A device buffer: a memref argument of the function or a gpu.alloc.
  struct DeviceBuffer {
    enum class Kind { Input, Output, Intermediate };
    Kind kind;
    /// The function argument it is (Input, Output); -1 for an intermediate.
    int argument = -1;
    MemRefType type;
    uint64_t bytes = 0;
  };
  /// The first object of a gpu.binary.
  struct Binary {
    std::string name;
    /// "bin" (cubin), "isa" (PTX, stored with a trailing NUL), "fatbin" or
    /// "offload" (LLVM bitcode for the SIMT emulator, stored behind LLVM's
    /// bitcode wrapper header, which gives its size).
    std::string format;
    std::string chip;
    std::string object;
  };
  /// A kernel argument: a device pointer (bare-pointer convention: the
  /// buffer's base address; a view's offset is in the kernel's memref type)
  /// or a scalar, constant or a scalar argument of the function.
  struct KernelArg {
    bool isPointer = true;
    unsigned buffer = 0;
    Type type;
    /// Scalar: the function argument it is, or -1 for a constant.
    int argument = -1;
    /// Scalar constant: little-endian bytes (index: 8 bytes).
    SmallVector<uint8_t, 8> bytes;
  };
  struct Step {
    /// Library: a library segment's call (library::kMatmulFunction), run
    /// with cuBLASLt (CUDALibraryCall.h).
    enum class Kind { Alloc, Dealloc, Launch, Memcpy, Library };
    Kind kind;
    Location loc;
    /// Alloc, Dealloc: the buffer; Memcpy: destination and source.
    unsigned buffer = 0, source = 0;
    uint64_t byteOffset = 0, sourceByteOffset = 0, bytes = 0;
    /// Launch.
    unsigned binary = 0;
    std::string kernel;
    std::array<uint64_t, 3> grid{}, block{};
    uint64_t sharedBytes = 0;
    SmallVector<KernelArg> args;
    /// Library: the call's descriptor and its buffers lhs, rhs, bias (-1
    /// without one) and out; or, `grouped`, a library::kGroupedMmFunction
    /// call's and its buffers mat1, mat2, offsets and out (run as a
    /// cuBLASLt gemm per non-empty group, after copying the offsets to the
    /// host).
    std::vector<int64_t> descriptor;
    SmallVector<int, 4> libraryBuffers;
    bool grouped = false;
  };

  std::string function;
  FunctionType type;
  /// Leading arguments that are inputs; the rest are outputs.
  unsigned numInputs = 0;
  std::vector<DeviceBuffer> buffers;
  /// For each function argument, its buffer (memrefs) or -1 (scalars).
  std::vector<int> argumentBuffers;
  std::vector<Binary> binaries;
  std::vector<Step> steps;

  /// Reads function `name` of `module` (the output of buildLowerToNVVMPipeline)
  /// and its binaries. An op the plan cannot express is a located error.
  static FailureOr<LaunchPlan> build(ModuleOp module, StringRef name);

  /// Bytes a launch step reads and writes at least: each distinct memref
  /// argument once (its memref type's extent).
  uint64_t getLaunchArgumentBytes(const Step &step) const;

  /// Whether a step is a library call (the JSON export takes none).
  bool hasLibrarySteps() const;

  /// The plan as JSON (docs/Lowering.md): the binaries are named as
  /// `<cubinPrefix><binary name>.<cubin|ptx|fatbin>`.
  void writeJSON(llvm::raw_ostream &os, StringRef cubinPrefix) const;
  /// The file name writeJSON gives binary `index`.
  std::string getBinaryFileName(unsigned index, StringRef cubinPrefix) const;
};

/// A plan loaded on the device: its modules and functions, and its library
/// steps' gemms on the driver's cuBLASLt (their algorithms chosen). Buffers
/// are allocated by prepare() (every buffer, intermediates included, and
/// the largest workspace the gemms asked, for the whole run: gpu.alloc and
/// gpu.dealloc steps cost nothing while timing) and freed by release() or
/// the destructor.
class Executable {
public:
  /// Loads the binaries of `plan` (kept, a copy) and looks up its kernels.
  static llvm::Expected<std::unique_ptr<Executable>>
  load(const LaunchPlan &plan, Driver &driver);
  ~Executable();

  const LaunchPlan &getPlan() const { return plan; }

  /// Allocates the buffers, uploads `inputs` (the function's leading
  /// arguments) and zeroes the outputs.
  llvm::Error prepare(ArrayRef<Buffer> inputs);
  /// Runs every step on the default stream. With `stepEvents` (one per
  /// step), records stepEvents[i] after step i.
  llvm::Error execute(ArrayRef<CUevent> stepEvents = {});
  /// Waits for the device and copies the outputs back.
  llvm::Expected<SmallVector<Buffer>> download();
  void release();

  CUdeviceptr getBufferAddress(unsigned buffer) const {
    return addresses[buffer];
  }

private:
  Executable(LaunchPlan plan, Driver &driver)
      : plan(std::move(plan)), driver(driver) {}
  /// A grouped_mm step over buffers at these addresses: its offsets copied
  /// to the host (a synchronizing copy) and checked, then a cuBLASLt gemm
  /// per non-empty group, each set up as it runs.
  llvm::Error runGroupedMm(const LaunchPlan::Step &step, CUdeviceptr mat1,
                           CUdeviceptr mat2, CUdeviceptr offsets,
                           CUdeviceptr out);
  LaunchPlan plan;
  Driver &driver;
  std::vector<CUmodule> modules;
  /// One function per step (null for steps other than launches).
  std::vector<CUfunction> functions;
  /// One gemm per step (null for steps other than library calls).
  std::vector<std::unique_ptr<BlasLtMatmul>> matmuls;
  uint64_t workspaceBytes = 0;
  CUdeviceptr workspace = 0;
  std::vector<CUdeviceptr> addresses;
  /// One 8-byte slot per function argument, for scalars.
  std::vector<std::array<uint8_t, 8>> scalarArguments;
};

/// Registers `fuser-translate --fuser-export-launch` (with its options
/// --fuser-export-dir and --fuser-export-function): the plan of a lowered
/// host function as JSON, its binaries as files (CUDAExportLaunch.cpp).
void registerExportLaunchTranslation();

} // namespace mlir::fuser::cuda

#endif // FUSER_EXECUTIONENGINE_CUDALAUNCH_H
