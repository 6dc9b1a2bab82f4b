//===- ImportNvFuser.h - import nvFuser's printed fusion math ---*- C++ -*-===//
//
// Reads the text nvFuser prints for a fusion (`Inputs:`/`Outputs:` and the
// `%kernel_math { ... }` body) or for a segmented fusion (`g{(reduction) ...}`
// groups) and builds fuser IR: one `func.func` per fusion or group. See
// docs/ImportNvFuser.md for the accepted text and the import rules.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_TARGET_NVFUSER_IMPORTNVFUSER_H
#define FUSER_TARGET_NVFUSER_IMPORTNVFUSER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;

namespace fuser {

/// Imports the main buffer of `sourceMgr`. Returns null after reporting a
/// located error through the context's diagnostic handler.
OwningOpRef<ModuleOp> importNvFuser(llvm::SourceMgr &sourceMgr,
                                    MLIRContext *context);

/// Registers the `--import-nvfuser` translation with mlir-translate drivers.
void registerImportNvFuserTranslation();

} // namespace fuser
} // namespace mlir

#endif // FUSER_TARGET_NVFUSER_IMPORTNVFUSER_H
