//===- consumer.cpp - a host compiler that embeds Fuser-MLIR --------------===//
//
// Registers the fuser dialect, builds the Mistral RoPE backward fusion
// (examples/mistral_rope_bwd.mlir) with C++ builder calls, next to a
// function of another dialect, runs the preseg and segment pipelines through
// their builders, and checks the result: 2 casts, 1 reduction, 1 kernel, and
// the other function untouched.
//
//===----------------------------------------------------------------------===//

#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Pipelines/Pipelines.h"
#include "fuser/Registration.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static RankedTensorType tensor(ArrayRef<int64_t> shape, Type element) {
  return RankedTensorType::get(shape, element);
}

/// examples/mistral_rope_bwd.mlir, op for op.
static void buildMistral(OpBuilder &b, Location loc) {
  Type bf16 = b.getBF16Type(), f32 = b.getF32Type();
  auto input = tensor({1, 32, 4096, 128}, bf16);
  auto output = tensor({1, 4096, 1024}, bf16);
  auto func = func::FuncOp::create(b, loc, "mistral_rope_bwd",
                                   b.getFunctionType({input}, {output}));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(func.addEntryBlock());
  Value t3 = func.getArgument(0);
  auto streaming =
      fuser::CacheOpAttr::get(b.getContext(), fuser::CacheOp::Streaming);
  Value t38 = fuser::ViewOp::create(b, loc, tensor({1, 8, 4, 4096, 128}, bf16),
                                    t3);
  Value t42 = fuser::CastOp::create(b, loc, tensor({1, 8, 4, 4096, 128}, f32),
                                    t38);
  Value t46 = fuser::SqueezeOp::create(b, loc, tensor({8, 4, 4096, 128}, f32),
                                       t42, ArrayRef<int64_t>{0});
  Value t47 = fuser::ReductionOp::create(b, loc, tensor({8, 4096, 128}, f32),
                                         fuser::ReductionKind::Add, t46,
                                         ArrayRef<int64_t>{1});
  Value t54 = fuser::CastOp::create(b, loc, tensor({8, 4096, 128}, bf16), t47);
  Value t63 = fuser::BroadcastOp::create(
      b, loc, tensor({1, 8, 1, 4096, 128}, bf16), t54, ArrayRef<int64_t>{0, 2});
  Value t64 = fuser::SetOp::create(b, loc, t63.getType(), t63, streaming);
  Value t71 =
      fuser::CastOp::create(b, loc, tensor({1, 8, 1, 4096, 128}, f32), t64);
  Value t76 = fuser::SqueezeOp::create(b, loc, tensor({8, 4096, 128}, f32), t71,
                                       ArrayRef<int64_t>{0, 2});
  Value t79 = fuser::CastOp::create(b, loc, tensor({8, 4096, 128}, bf16), t76);
  Value t82 = fuser::BroadcastOp::create(
      b, loc, tensor({1, 8, 4096, 128}, bf16), t79, ArrayRef<int64_t>{0});
  Value t83 = fuser::SetOp::create(b, loc, t82.getType(), t82, streaming);
  Value t86 = fuser::PermuteOp::create(b, loc, tensor({1, 4096, 8, 128}, bf16),
                                       t83, ArrayRef<int64_t>{0, 2, 1, 3});
  Value t89 = fuser::ViewOp::create(b, loc, output, t86);
  func::ReturnOp::create(b, loc, t89);
}

/// A function of the host compiler that is not a fusion; the pipelines must
/// leave it alone (its redundant constants included).
static void buildHostFunction(OpBuilder &b, Location loc) {
  Type i64 = b.getI64Type();
  auto func = func::FuncOp::create(b, loc, "host",
                                   b.getFunctionType({}, {i64}));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(func.addEntryBlock());
  Value one = arith::ConstantIntOp::create(b, loc, i64, 1);
  Value alsoOne = arith::ConstantIntOp::create(b, loc, i64, 1);
  Value two = arith::AddIOp::create(b, loc, one, alsoOne);
  func::ReturnOp::create(b, loc, two);
}

int main() {
  DialectRegistry registry;
  fuser::registerFuserDialect(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(b, loc);
  b.setInsertionPointToEnd(module->getBody());
  buildMistral(b, loc);
  buildHostFunction(b, loc);
  if (failed(verify(*module))) {
    llvm::errs() << "the built module does not verify\n";
    return 1;
  }

  PassManager pm(&context);
  fuser::PresegPipelineOptions preseg;
  fuser::buildPresegPipeline(pm, preseg);
  fuser::SegmentPipelineOptions segment;
  fuser::buildSegmentPipeline(pm, segment);
  if (failed(pm.run(*module))) {
    llvm::errs() << "the fuser pipelines failed\n";
    return 1;
  }

  auto fusion = module->lookupSymbol<func::FuncOp>("mistral_rope_bwd");
  unsigned casts = 0, reductions = 0;
  fusion.walk([&](Operation *op) {
    casts += isa<fuser::CastOp>(op);
    reductions += isa<fuser::ReductionOp>(op);
  });
  fuser::FusionTraffic traffic(fusion);
  auto host = module->lookupSymbol<func::FuncOp>("host");
  unsigned hostOps = host.getBody().front().getOperations().size();
  llvm::outs() << "casts: " << casts << "\n"
               << "reductions: " << reductions << "\n"
               << "kernels: " << traffic.getNumKernels() << "\n"
               << "host ops: " << hostOps << "\n";
  module->print(llvm::outs());
  llvm::outs() << "\n";
  bool ok = casts == 2 && reductions == 1 && traffic.getNumKernels() == 1 &&
            hostOps == 4;
  llvm::outs() << (ok ? "PASS" : "FAIL") << "\n";
  return ok ? 0 : 1;
}
