//===- MathLibraryCalls.cpp - math functions LLVM cannot fold -------------===//
//
// The CPU backend must compute every math function with the host libm
// function the interpreter calls, also where an operand is a constant
// (but f32 exp, log, tanh and erf, which fuser-expand-math has replaced
// with the interpreter's own algorithms before this pass runs). LLVM
// folds its math intrinsics (llvm.cosh.f32, ...) and the libm calls it
// recognizes (coshf, ...) by evaluating them in double and rounding, which
// is not glibc's coshf (cosh(1.0f): 1.5430807 folded, 1.5430806 run). So
// each math op whose result depends on the library becomes a call of an
// opaque name bound to the host function when the module is JIT-compiled.
// MLIR's own folders (canonicalize) call the same host functions as the
// interpreter for these, so folding them before this point is harmless.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CPUBackend.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

#include <dlfcn.h>

using namespace mlir;
using namespace mlir::fuser;

namespace {
/// What the JIT calls libm function `name`: a name LLVM does not know.
constexpr llvm::StringLiteral kOpaquePrefix = "__fuser_libm_";

struct ConvertMathToOpaqueLibraryCalls
    : PassWrapper<ConvertMathToOpaqueLibraryCalls, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConvertMathToOpaqueLibraryCalls)

  StringRef getArgument() const final {
    return "fuser-convert-math-to-opaque-library-calls";
  }
  void getDependentDialects(DialectRegistry &registry) const final {
    registry.insert<func::FuncDialect, vector::VectorDialect>();
  }

  void runOnOperation() final {
    ModuleOp module = getOperation();
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    // The functions whose results depend on the library; the exact ones
    // (sqrt, floor, ceil, trunc, roundeven, absf, copysign, rsqrt's
    // 1 / sqrt) stay intrinsics, which fold exactly.
    target.addIllegalOp<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp,
                        math::Log2Op, math::Log10Op, math::Log1pOp,
                        math::SinOp, math::CosOp, math::TanOp, math::SinhOp,
                        math::CoshOp, math::TanhOp, math::AsinOp,
                        math::AcosOp, math::AtanOp, math::AsinhOp,
                        math::AcoshOp, math::AtanhOp, math::Atan2Op,
                        math::ErfOp, math::ErfcOp, math::PowFOp,
                        math::CbrtOp>();
    // convert-math-to-libm calls whatever function of the libm name the
    // module holds: a host function named like one (a fusion @exp of f64)
    // must not be it, so such functions are out of the way meanwhile.
    SmallVector<std::pair<func::FuncOp, StringAttr>> namedLikeLibm;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() &&
          dlsym(RTLD_DEFAULT, func.getSymName().str().c_str()))
        namedLikeLibm.emplace_back(func, func.getSymNameAttr());
    for (auto &[func, name] : namedLikeLibm)
      if (failed(rename(func, ("__fuser_renamed_" + name.getValue()).str())))
        return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    populateMathToLibmConversionPatterns(patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns)))) {
      module.emitError("could not turn the math functions into calls of the "
                       "host's libm");
      return signalPassFailure();
    }
    // The declarations convert-math-to-libm added, under names of their own.
    for (auto decl : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (!decl.isExternal() || decl.getSymName().starts_with(kOpaquePrefix) ||
          !dlsym(RTLD_DEFAULT, decl.getSymName().str().c_str()))
        continue;
      if (failed(rename(decl, (kOpaquePrefix + decl.getSymName()).str())))
        return signalPassFailure();
    }
    for (auto &[func, name] : namedLikeLibm)
      if (failed(rename(func, name.getValue())))
        return signalPassFailure();
  }

  /// Renames `func` and its uses in the module.
  LogicalResult rename(func::FuncOp func, StringRef name) {
    auto attr = StringAttr::get(&getContext(), name);
    if (failed(SymbolTable::replaceAllSymbolUses(func, attr, getOperation())))
      return func.emitError("could not rename the function");
    SymbolTable::setSymbolName(func, attr);
    return success();
  }
};
} // namespace

std::unique_ptr<Pass> mlir::fuser::createConvertMathToOpaqueLibraryCallsPass() {
  return std::make_unique<ConvertMathToOpaqueLibraryCalls>();
}

std::vector<std::pair<std::string, void *>>
mlir::fuser::getOpaqueLibrarySymbols(ModuleOp module) {
  std::vector<std::pair<std::string, void *>> symbols;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = func.getSymName();
    if (!func.isExternal() || !name.starts_with(kOpaquePrefix))
      continue;
    std::string host = name.drop_front(kOpaquePrefix.size()).str();
    symbols.emplace_back(name.str(), dlsym(RTLD_DEFAULT, host.c_str()));
  }
  return symbols;
}
