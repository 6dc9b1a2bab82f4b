//===- KernelKindRegistryTest.cpp - a kernel kind defined in a test -------===//
//
// A kernel kind is one class over EmitterBase and one table row
// (lib/Conversion/FuserToSCF/kernels/KernelKinds.h). This test defines one
// that the library does not have, a serial kernel (one block of one thread
// computing every output slot in turn), holds it with a ScopedKernelKind,
// and lowers and runs a fusion on the CPU backend's front half: the kernel
// is its nest, and its results are the interpreter's, bit for bit.
//
//===----------------------------------------------------------------------===//

#include "Conversion/FuserToSCF/kernels/KernelKinds.h"

#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/ExecutionEngine/CPUBackend.h"
#include "fuser/Interpreter/Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

/// One block of one thread, computing every slot of every output in turn.
class SerialKernel final : public EmitterBase {
public:
  SerialKernel(OpBuilder &builder, const KernelQuery &query)
      : EmitterBase(builder, query) {}
  static bool matches(const KernelQuery &query) {
    return query.schedule.getSplit() == 1;
  }

protected:
  LogicalResult emitSkeleton() override {
    scf::ParallelOp nest = createMappedLoop(
        b, loc, {1, 1}, {gpu::Processor::BlockX, gpu::Processor::ThreadX});
    scalarPoint =
        OpBuilder::InsertPoint(nest->getBlock(), Block::iterator(nest));
    pushScope();
    for (unsigned i = 0, e = segment.getNumResults(); i < e; ++i)
      if (failed(emitOutputSlots(i, constant(0), /*stride=*/1)))
        return failure();
    popScope();
    return success();
  }
};

const KernelKind serialKernel = makeKernelKind<SerialKernel>("serial");

constexpr StringLiteral kFusion = R"mlir(
func.func @f(%x: tensor<4x6xf32>, %y: tensor<6xf32>) -> tensor<6x4xf32> {
  %b = fuser.broadcast %y [0] : tensor<6xf32> -> tensor<1x6xf32>
  %s = fuser.mul %x, %b : tensor<4x6xf32>, tensor<1x6xf32> -> tensor<4x6xf32>
  %e = fuser.exp %s : tensor<4x6xf32>
  %p = fuser.permute %e [1, 0] : tensor<4x6xf32> -> tensor<6x4xf32>
  return %p : tensor<6x4xf32>
}
)mlir";

/// The upper bounds of the outermost scf.parallel nest of each kernel in
/// `module`.
SmallVector<SmallVector<int64_t>> getKernelBounds(ModuleOp module) {
  SmallVector<SmallVector<int64_t>> bounds;
  module.walk([&](scf::ParallelOp loop) {
    if (loop->getParentOfType<scf::ParallelOp>())
      return;
    SmallVector<int64_t> upper;
    for (Value bound : loop.getUpperBound())
      upper.push_back(*getConstantIntValue(bound));
    bounds.push_back(upper);
  });
  return bounds;
}

TEST(KernelKindRegistryTest, ScopedKindEmitsAndRuns) {
  MLIRContext context;
  context.loadDialect<FuserDialect, func::FuncDialect, arith::ArithDialect>();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    diagnostics += diagnostic.str() + "\n";
    return success();
  });
  OwningOpRef<ModuleOp> fusion = parseSourceString<ModuleOp>(kFusion, &context);
  ASSERT_TRUE(fusion);
  auto func = *fusion->getOps<func::FuncOp>().begin();
  BackendOptions options;

  // Without the test's kind: the pointwise kind's grid.
  FailureOr<OwningOpRef<ModuleOp>> pointwise =
      lowerFusionToKernelLoops(func, options);
  ASSERT_TRUE(succeeded(pointwise)) << diagnostics;
  SmallVector<SmallVector<int64_t>> pointwiseBounds =
      getKernelBounds(pointwise->get());
  ASSERT_EQ(pointwiseBounds.size(), 1u);
  EXPECT_NE(pointwiseBounds.front(), SmallVector<int64_t>({1, 1}));

  SmallVector<Buffer> inputs;
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
    inputs.push_back(makeDeterministicInput(type, i, /*seed=*/7));
  FailureOr<SmallVector<Buffer>> expected = interpret(func, inputs);
  ASSERT_TRUE(succeeded(expected));

  FailureOr<OwningOpRef<ModuleOp>> serial = failure();
  {
    ScopedKernelKind scoped({ScheduleKind::Pointwise, &serialKernel});
    serial = lowerFusionToKernelLoops(func, options);
  }
  ASSERT_TRUE(succeeded(serial)) << diagnostics;
  EXPECT_EQ(getKernelBounds(serial->get()),
            SmallVector<SmallVector<int64_t>>({{1, 1}}));
  FailureOr<SmallVector<Buffer>> actual =
      runKernelModule(serial->get(), "f", inputs, options);
  ASSERT_TRUE(succeeded(actual)) << diagnostics;
  ASSERT_EQ(actual->size(), 1u);
  EXPECT_EQ(actual->front().bytes, expected->front().bytes);

  // Out of scope, the table is the library's again.
  FailureOr<OwningOpRef<ModuleOp>> again =
      lowerFusionToKernelLoops(func, options);
  ASSERT_TRUE(succeeded(again)) << diagnostics;
  EXPECT_EQ(getKernelBounds(again->get()), pointwiseBounds);
}

} // namespace
