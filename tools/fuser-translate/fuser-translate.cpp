//===- fuser-translate.cpp - translations into and out of fuser IR --------===//
//
// mlir-translate with the fuser translations: `--import-nvfuser` reads
// nvFuser's printed fusion math.
//
//===----------------------------------------------------------------------===//

#include "fuser/Target/NvFuser/ImportNvFuser.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::fuser::registerImportNvFuserTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "fuser translation driver\n"));
}
