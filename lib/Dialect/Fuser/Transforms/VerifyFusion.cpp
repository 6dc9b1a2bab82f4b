//===- VerifyFusion.cpp - the fusion contract -----------------------------===//

#include "fuser/Dialect/Fuser/IR/ElementTypes.h"
#include "fuser/Dialect/Fuser/IR/Fusion.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERVERIFYFUSION
#include "fuser/Dialect/Fuser/Transforms/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

namespace {
/// Why `type` cannot cross a fusion boundary, or an empty string.
std::string checkBoundaryType(Type type, bool allowScalar) {
  if (allowScalar && isFuserElementType(type))
    return "";
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return allowScalar ? "must be a ranked tensor or a scalar"
                       : "must be a ranked tensor";
  if (!tensor.hasStaticShape())
    return "has dynamic dimensions, which are not supported yet";
  if (!isFuserElementType(tensor.getElementType()))
    return "has an unsupported element type";
  return "";
}

struct FuserVerifyFusionPass
    : public fuser::impl::FuserVerifyFusionBase<FuserVerifyFusionPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // A host compiler's module also holds functions that are not fusions
    // (linalg, scf, ...): the contract is not theirs, leave them alone.
    if (!isFusion(func))
      return;
    bool valid = true;
    auto report = [&](Type type, StringRef what, unsigned index,
                      bool allowScalar) {
      std::string problem = checkBoundaryType(type, allowScalar);
      if (problem.empty())
        return;
      func.emitError() << "fusion " << what << " #" << index << " of type "
                       << type << " " << problem;
      valid = false;
    };
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      report(type, "argument", i, /*allowScalar=*/true);
    for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
      report(type, "result", i, /*allowScalar=*/false);

    func.walk([&](Operation *op) {
      if (op == func.getOperation())
        return;
      StringRef dialect =
          op->getDialect() ? op->getDialect()->getNamespace() : StringRef();
      if (dialect == FuserDialect::getDialectNamespace() ||
          dialect == "arith" || isa<func::ReturnOp>(op))
        return;
      op->emitError() << "'" << op->getName()
                      << "' is not allowed in a fusion (only fuser, arith and "
                         "func.return ops are)";
      valid = false;
    });
    if (!valid)
      signalPassFailure();
  }
};
} // namespace
