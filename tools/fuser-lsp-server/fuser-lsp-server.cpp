//===- fuser-lsp-server.cpp - language server for fuser IR ----------------===//
//
// MLIR's language server (diagnostics, hover, go-to-definition, ...) with the
// fuser dialect and the upstream dialects fuser-opt knows, for editors with
// the MLIR extension (set its server path to this binary).
//
//===----------------------------------------------------------------------===//

#include "fuser/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::fuser::registerFuserDialect(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
