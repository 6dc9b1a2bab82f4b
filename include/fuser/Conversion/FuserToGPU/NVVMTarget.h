//===- NVVMTarget.h - checks of the NVVM target options ---------*- C++ -*-===//
//
// The option checks behind `fuser-check-nvvm-lowering`, usable without a
// module (e.g. by a runtime that compiles kernels itself). Each returns an
// error message naming the option, or std::nullopt when the value is good.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_CONVERSION_FUSERTOGPU_NVVMTARGET_H
#define FUSER_CONVERSION_FUSERTOGPU_NVVMTARGET_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::fuser {

/// The lowest PTX ISA version (e.g. 78 for 7.8) that LLVM's NVPTX backend
/// accepts for `chip`, or std::nullopt when LLVM does not know the chip.
std::optional<unsigned> getMinimumPTXVersion(llvm::StringRef chip);

/// Checks `chip`, `features`, `format`, `opt-level` and `toolkit` of
/// `--fuser-lower-to-nvvm` (see FuserCheckNVVMLowering in Passes.td). Runs
/// `<toolkit>/bin/ptxas --help` once per toolkit to learn the chips it
/// accepts.
std::optional<std::string> checkNVVMTargetOptions(llvm::StringRef chip,
                                                  llvm::StringRef features,
                                                  llvm::StringRef format,
                                                  unsigned optLevel,
                                                  llvm::StringRef toolkit);

} // namespace mlir::fuser

#endif // FUSER_CONVERSION_FUSERTOGPU_NVVMTARGET_H
