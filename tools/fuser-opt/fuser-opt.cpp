//===- fuser-opt.cpp - fuser optimizer driver -----------------------------===//
//
// mlir-opt with the fuser dialect and passes plus the upstream dialects,
// passes and LLVM IR translations that the lowering to gpu/nvvm needs.
//
//===----------------------------------------------------------------------===//

#include "fuser/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::fuser::registerFuserPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::fuser::registerFuserDialect(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "fuser optimizer driver\n", registry));
}
