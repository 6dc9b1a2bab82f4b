//===- ImportNvFuser.h - import nvFuser's printed fusion math ---*- C++ -*-===//
//
// Reads the text nvFuser prints for a fusion (`Inputs:`/`Outputs:` and the
// `%kernel_math { ... }` or `%kernel { ... }` body, in the print format of
// any nvFuser version, with the banners nvFuser prints before it) or for a
// segmented fusion (`g{(reduction) ...}` groups) and builds fuser IR: one
// `func.func` per fusion or group. See docs/ImportNvFuser.md for the accepted
// text and the import rules.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_TARGET_NVFUSER_IMPORTNVFUSER_H
#define FUSER_TARGET_NVFUSER_IMPORTNVFUSER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;

namespace fuser {

struct ImportNvFuserOptions {
  /// Values of the symbolic extents of dynamic fusions (`i0` in `iS0{i0}`),
  /// `--extent i0=8` on the fuser-translate command line. fuser IR has
  /// static shapes, so every symbol an extent uses needs a value.
  llvm::StringMap<int64_t> extents;
};

/// Imports the main buffer of `sourceMgr`. Returns null after reporting a
/// located error through the context's diagnostic handler.
OwningOpRef<ModuleOp> importNvFuser(llvm::SourceMgr &sourceMgr,
                                    MLIRContext *context,
                                    const ImportNvFuserOptions &options = {});

/// Parses `NAME=VALUE` (the argument of `--extent`) into `options`; a NAME
/// bound again to another value is an error. Returns an error message, empty
/// on success.
std::string addExtentBinding(llvm::StringRef binding,
                             ImportNvFuserOptions &options);

/// Registers the `--import-nvfuser` translation with mlir-translate drivers,
/// and its `--extent NAME=VALUE` option.
void registerImportNvFuserTranslation();

} // namespace fuser
} // namespace mlir

#endif // FUSER_TARGET_NVFUSER_IMPORTNVFUSER_H
