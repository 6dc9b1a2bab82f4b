//===- CUDAExportLaunch.cpp - fuser-translate --fuser-export-launch -------===//
//
// Writes the launch plan of a lowered host function (CUDALaunch.h) as JSON
// and each of its binaries (cubin, PTX or fatbin) as a file, for running the
// kernels without MLIR (bench/gpu_bench.py):
//
//   fuser-opt --fuser-preseg --fuser-segment \
//     --fuser-lower-to-nvvm="chip=sm_90 format=bin" fusion.mlir -o lowered.mlir
//   fuser-translate --fuser-export-launch --fuser-export-dir=DIR \
//     lowered.mlir -o DIR/launch.json
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/ExecutionEngine/CUDALaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::cuda;

void mlir::fuser::cuda::registerExportLaunchTranslation() {
  static llvm::cl::opt<std::string> exportDir(
      "fuser-export-dir",
      llvm::cl::desc("--fuser-export-launch: directory the binaries are "
                     "written to (the JSON names them relative to its own "
                     "directory: write it there too)"),
      llvm::cl::init("."));
  static llvm::cl::opt<std::string> exportFunction(
      "fuser-export-function",
      llvm::cl::desc("--fuser-export-launch: the host function (default: "
                     "the first with fuser.outputs)"),
      llvm::cl::init(""));
  TranslateFromMLIRRegistration registration(
      "fuser-export-launch",
      "write the launch plan of a host function after --fuser-lower-to-nvvm "
      "as JSON, and its gpu.binary objects as files (docs/Lowering.md)",
      [](Operation *op, llvm::raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a builtin.module");
        std::string name = exportFunction;
        if (name.empty()) {
          for (auto func : module.getOps<func::FuncOp>())
            if (func->hasAttr("fuser.outputs")) {
              name = func.getSymName().str();
              break;
            }
          if (name.empty())
            return module.emitError(
                "no host function with fuser.outputs: run "
                "--fuser-lower-to-nvvm first");
        }
        FailureOr<LaunchPlan> plan = LaunchPlan::build(module, name);
        if (failed(plan))
          return failure();
        if (std::error_code ec =
                llvm::sys::fs::create_directories(exportDir.getValue()))
          return module.emitError("cannot create ")
                 << exportDir.getValue() << ": " << ec.message();
        for (unsigned i = 0; i < plan->binaries.size(); ++i) {
          SmallString<256> path(exportDir.getValue());
          llvm::sys::path::append(path, plan->getBinaryFileName(i, ""));
          std::string error;
          auto file = openOutputFile(path, &error);
          if (!file)
            return module.emitError(error);
          const LaunchPlan::Binary &binary = plan->binaries[i];
          StringRef bytes = binary.object;
          if (binary.format == "isa")
            bytes = bytes.drop_back(); // the NUL added for cuModuleLoadData
          file->os() << bytes;
          file->keep();
        }
        plan->writeJSON(os, "");
        return success();
      },
      [](DialectRegistry &registry) {
        // The fuser dialect for what the lowering keeps of it: preseg puts a
        // `set`'s cache_op on the fusion argument (#fuser<cache_op ...>).
        registry.insert<arith::ArithDialect, fuser::FuserDialect,
                        func::FuncDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                        memref::MemRefDialect, NVVM::NVVMDialect>();
      });
}
