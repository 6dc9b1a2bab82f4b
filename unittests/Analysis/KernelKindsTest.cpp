//===- KernelKindsTest.cpp - the ops each kernel kind emits ---------------===//
//
// The kernel kinds' allow-lists (canEmitInKernel, isRecomputableInKernel in
// KernelTemplates.h) and what segmentation does with an op no kind lists.
// Every op of the fuser dialect is listed, so the refused op is one
// registered here only: `fuser.test_opaque`, a fuser op as a new op (a
// matmul, a scan) is before the emitter learns to emit it.
//
//===----------------------------------------------------------------------===//

#include "fuser/Analysis/KernelTemplates.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fuser;

namespace mlir::fuser::test {

/// A fuser op that no kernel kind lists: one tensor operand, one tensor
/// result, generic syntax only.
class TestOpaqueOp
    : public Op<TestOpaqueOp, OpTrait::ZeroRegions, OpTrait::OneResult,
                OpTrait::OneTypedResult<TensorType>::Impl,
                OpTrait::ZeroSuccessors, OpTrait::OneOperand> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "fuser.test_opaque"; }
  static ArrayRef<StringRef> getAttributeNames() { return {}; }
};

} // namespace mlir::fuser::test

namespace {

using mlir::fuser::test::TestOpaqueOp;

class KernelKindsTest : public ::testing::Test {
protected:
  KernelKindsTest() {
    context.loadDialect<FuserDialect, func::FuncDialect, arith::ArithDialect>();
  }

  /// Registers `fuser.test_opaque` in this context's fuser dialect.
  void registerOpaqueOp() {
    RegisteredOperationName::insert<TestOpaqueOp>(
        *context.getLoadedDialect<FuserDialect>());
  }

  /// The ops of the first function of `source`, parsed into `module`.
  SmallVector<Operation *> parseOps(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    SmallVector<Operation *> ops;
    if (!module)
      return ops;
    auto func = *module->getOps<func::FuncOp>().begin();
    for (Operation &op : func.getBody().front().without_terminator())
      ops.push_back(&op);
    return ops;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

constexpr SegmentKind kKinds[] = {SegmentKind::Pointwise,
                                     SegmentKind::Reduction,
                                     SegmentKind::Normalization};

// Every op of the fuser dialect but the segment structure is emitted by
// some kind (the library ops by the library kind only): the pointwise kind
// emits all but reductions, which the reduction and normalization kinds
// emit, and scans, argsorts and scatters, which only the pointwise kind
// emits; all but reductions, scans, argsorts, scatters, segment_set and the
// random ops are
// recomputed. A new op fails here until it is listed (or added below as one
// that no kernel emits).
TEST_F(KernelKindsTest, EveryFuserOpIsListed) {
  Location loc = UnknownLoc::get(&context);
  Type tensor = RankedTensorType::get({4}, Float32Type::get(&context));
  unsigned listed = 0;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "fuser")
      continue;
    Operation *op = Operation::create(loc, name, {tensor}, {}, NamedAttrList(),
                                      nullptr, {}, /*numRegions=*/0);
    StringRef mnemonic = name.getStringRef();
    if (isa<SegmentOp, YieldOp>(op)) {
      EXPECT_FALSE(canEmitInAnyKernel(op)) << mnemonic.str();
      EXPECT_FALSE(isRecomputableInKernel(op)) << mnemonic.str();
    } else if (isa<LibraryOpInterface>(op)) {
      // Library ops (matmul, linear, sdpfa_fwd, sdpfa_bwd): the library
      // kind only, a call each.
      ++listed;
      for (SegmentKind kind : kKinds)
        EXPECT_FALSE(canEmitInKernel(op, kind)) << mnemonic.str();
      EXPECT_TRUE(canEmitInKernel(op, SegmentKind::Library)) << mnemonic.str();
      EXPECT_FALSE(isRecomputableInKernel(op)) << mnemonic.str();
    } else {
      ++listed;
      bool reduction = isa<ReductionOp>(op);
      // Scans, argsorts and scatters: pointwise kernels only, never
      // recomputed.
      bool scan = isa<ScanOp, ArgsortOp, ScatterOp>(op);
      EXPECT_TRUE(canEmitInAnyKernel(op)) << mnemonic.str();
      EXPECT_EQ(canEmitInKernel(op, SegmentKind::Pointwise), !reduction)
          << mnemonic.str();
      EXPECT_EQ(canEmitInKernel(op, SegmentKind::Reduction), !scan)
          << mnemonic.str();
      EXPECT_EQ(canEmitInKernel(op, SegmentKind::Normalization), !scan)
          << mnemonic.str();
      // A library segment reads its operands through meta ops.
      EXPECT_EQ(canEmitInKernel(op, SegmentKind::Library),
                isa<MetaOpInterface>(op) && !isa<SegmentSetOp>(op))
          << mnemonic.str();
      bool random = isa<UniformOp, NormalOp>(op);
      EXPECT_EQ(isRecomputableInKernel(op),
                !reduction && !scan && !random && !isa<SegmentSetOp>(op))
          << mnemonic.str();
    }
    op->destroy();
  }
  // The rows of ElementwiseOps.def and 11 more ops are listed.
  EXPECT_GT(listed, 80u);
}

// Scalar computations are evaluated by every kind: elementwise fuser ops on
// scalars, and ops of other dialects, which the emitter clones.
TEST_F(KernelKindsTest, ScalarComputations) {
  SmallVector<Operation *> ops = parseOps(R"mlir(
func.func @f(%s: f32) -> tensor<4xf32> {
  %c = arith.constant 2.0 : f32
  %m = arith.mulf %s, %c : f32
  %n = fuser.neg %m : f32
  %t = fuser.full %n : f32 -> tensor<4xf32>
  return %t : tensor<4xf32>
}
)mlir");
  ASSERT_EQ(ops.size(), 4u);
  for (Operation *op : ops)
    for (SegmentKind kind : kKinds)
      EXPECT_TRUE(canEmitInKernel(op, kind))
          << op->getName().getStringRef().str();
}

constexpr const char *kOpaqueFusion = R"mlir(
func.func @f(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %n = fuser.neg %x : tensor<4x8xf32>
  %o = "fuser.test_opaque"(%n) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = fuser.exp %o : tensor<4x8xf32>
  %r = fuser.reduction add %o [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %e, %r : tensor<4x8xf32>, tensor<4xf32>
}
)mlir";

// An op no kind lists is refused by every template, with the reason, and is
// not recomputed: it is never taken as pointwise because it has no
// reduction.
TEST_F(KernelKindsTest, UnlistedOpIsNoKernel) {
  registerOpaqueOp();
  SmallVector<Operation *> ops = parseOps(kOpaqueFusion);
  ASSERT_EQ(ops.size(), 4u);
  Operation *neg = ops[0], *opaque = ops[1], *exp = ops[2], *reduction = ops[3];
  ASSERT_TRUE(isa<TestOpaqueOp>(opaque));
  for (SegmentKind kind : kKinds)
    EXPECT_FALSE(canEmitInKernel(opaque, kind));
  EXPECT_FALSE(canEmitInAnyKernel(opaque));
  EXPECT_FALSE(isRecomputableInKernel(opaque));

  TargetInfo target;
  auto match = [&](ArrayRef<Operation *> kernelOps) {
    KernelOps kernel;
    llvm::append_range(kernel.ops, kernelOps);
    kernel.outputs.push_back(kernelOps.back()->getResult(0));
    kernel.inputTypes.push_back(neg->getOperand(0).getType());
    return matchKernel(kernel, target);
  };
  const std::string why =
      "op 'fuser.test_opaque' cannot be emitted by any kernel kind";
  SmallVector<SmallVector<Operation *>> refusedKernels = {
      {opaque}, {neg, opaque, exp}, {neg, opaque, reduction}};
  for (ArrayRef<Operation *> kernel : refusedKernels) {
    KernelMatch refused = match(kernel);
    EXPECT_FALSE(refused.kind);
    EXPECT_EQ(refused.whyNot, why);
  }
  // Must not fire: without it the same ops are a pointwise and a reduction
  // kernel.
  EXPECT_EQ(match({neg, exp}).kind, SegmentKind::Pointwise);
  EXPECT_EQ(match({neg, reduction}).kind, SegmentKind::Reduction);

  // Taken back, the builder takes the rest again.
  KernelTemplateBuilder builder;
  builder.addOp(neg);
  KernelTemplateBuilder::Checkpoint checkpoint = builder.checkpoint();
  builder.addOp(opaque);
  EXPECT_TRUE(builder.hasUnemittableOp());
  EXPECT_FALSE(builder.getTemplate({}, target, true));
  builder.rollback(std::move(checkpoint));
  EXPECT_FALSE(builder.hasUnemittableOp());
  builder.addOp(exp);
  EXPECT_EQ(builder.getTemplate({}, target, true), SegmentKind::Pointwise);
}

/// Runs fuser-segment on `source` under a diagnostic verifier (what
/// -verify-diagnostics does): whether the pass succeeded, and whether the
/// diagnostics were the expected ones.
std::pair<bool, bool> segmentVerifyingDiagnostics(MLIRContext &context,
                                                  StringRef source) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "fusion.mlir"),
      llvm::SMLoc());
  SourceMgrDiagnosticVerifierHandler handler(sourceMgr, &context);
  // As fuser-opt -verify-diagnostics: the diagnostic without the op
  // printed as a note.
  context.printOpOnDiagnostic(false);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return {false, false};
  PassManager pm(&context);
  pm.addNestedPass<func::FuncOp>(createFuserSegment());
  bool passed = succeeded(pm.run(*module));
  return {passed, succeeded(handler.verify())};
}

// fuser-segment refuses a fusion with an op no kind lists, with an error at
// the op, before grouping: no kernel, pointwise or other, takes it.
TEST_F(KernelKindsTest, SegmentRefusesUnlistedOp) {
  registerOpaqueOp();
  auto [passed, verified] = segmentVerifyingDiagnostics(context, R"mlir(
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %n = fuser.neg %x : tensor<4x8xf32>
  // expected-error @below {{op 'fuser.test_opaque' cannot be emitted by any kernel kind}}
  %o = "fuser.test_opaque"(%n) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = fuser.exp %o : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
)mlir");
  EXPECT_FALSE(passed);
  EXPECT_TRUE(verified);

  // Must not fire: the same context segments the fusion without it.
  auto [passedWithout, verifiedWithout] =
      segmentVerifyingDiagnostics(context, R"mlir(
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %n = fuser.neg %x : tensor<4x8xf32>
  %e = fuser.exp %n : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
)mlir");
  EXPECT_TRUE(passedWithout);
  EXPECT_TRUE(verifiedWithout);
}

} // namespace
