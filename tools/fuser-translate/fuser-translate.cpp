//===- fuser-translate.cpp - translations into and out of fuser IR --------===//
//
// mlir-translate with the fuser translations: `--import-nvfuser` reads
// nvFuser's printed fusion math; `--fuser-export-launch` writes the kernels
// and launch sequence of a host function after --fuser-lower-to-nvvm
// (cubins + JSON, for bench/gpu_bench.py).
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CUDALaunch.h"
#include "fuser/Target/NvFuser/ImportNvFuser.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::fuser::registerImportNvFuserTranslation();
  mlir::fuser::cuda::registerExportLaunchTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "fuser translation driver\n"));
}
