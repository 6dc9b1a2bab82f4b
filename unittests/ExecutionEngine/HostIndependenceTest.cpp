//===- HostIndependenceTest.cpp - same bits on every host and in every mode
//===//
//
// The numerics contract holds whatever the host CPU and the caller's
// floating-point mode (docs/Lowering.md, "Same bits on every host"):
// - what reaches LLVM holds no f16/bf16 conversion or arithmetic, and the
//   target machine leaves out the features that convert otherwise (both
//   checked on any host);
// - compiled for the host's full feature set (AVX512-BF16 and AVX512-FP16
//   where it has them), the CPU backend's rewrites alone keep every
//   conversion equal to the interpreter's, subnormals included;
// - under flush-to-zero, denormals-are-zero and round-toward-zero in the
//   calling thread, the interpreter and the CPU backend give the bits of the
//   default mode, and the caller's mode is back afterwards.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/ExecutionEngine/CPUBackend.h"
#include "fuser/ExecutionEngine/FloatingPointEnvironment.h"
#include "fuser/Interpreter/Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include "gtest/gtest.h"

#include <cfenv>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

using namespace mlir;
using namespace mlir::fuser;

namespace {

// Every conversion to and from f16/bf16 the lowering emits, plus arithmetic
// on them, and a product that an FMA would contract. Written for tensors of
// 37 elements, which the kernel computes one at a time; the tests also run
// it on 64, two at a time (vector<2> of every type).
constexpr const char *kConversionsFusion = R"mlir(
!f32 = tensor<37xf32>
!f64 = tensor<37xf64>
!bf16 = tensor<37xbf16>
!f16 = tensor<37xf16>
!i32 = tensor<37xi32>
!i64 = tensor<37xi64>
!i1 = tensor<37xi1>
func.func @conversions(%f32: !f32, %f64: !f64, %bf16: !bf16, %f16: !f16,
                       %i32: !i32, %i64: !i64, %i1: !i1, %c: !f32)
    -> (!bf16, !f16, !bf16, !f16, !bf16, !f16, !bf16, !f16, !bf16, !f16,
        !f32, !f64, !f32, !f64, !f16, !bf16, !i32, !i64, !i1, !i1,
        !bf16, !f16, !bf16, !f32) {
  %0 = fuser.cast %f32 : !f32 to !bf16
  %1 = fuser.cast %f32 : !f32 to !f16
  %2 = fuser.cast %f64 : !f64 to !bf16
  %3 = fuser.cast %f64 : !f64 to !f16
  %4 = fuser.cast %i32 : !i32 to !bf16
  %5 = fuser.cast %i32 : !i32 to !f16
  %6 = fuser.cast %i64 : !i64 to !bf16
  %7 = fuser.cast %i64 : !i64 to !f16
  %8 = fuser.cast %i1 : !i1 to !bf16
  %9 = fuser.cast %i1 : !i1 to !f16
  %10 = fuser.cast %bf16 : !bf16 to !f32
  %11 = fuser.cast %bf16 : !bf16 to !f64
  %12 = fuser.cast %f16 : !f16 to !f32
  %13 = fuser.cast %f16 : !f16 to !f64
  %14 = fuser.cast %bf16 : !bf16 to !f16
  %15 = fuser.cast %f16 : !f16 to !bf16
  %16 = fuser.cast %bf16 : !bf16 to !i32
  %17 = fuser.cast %f16 : !f16 to !i64
  %18 = fuser.cast %bf16 : !bf16 to !i1
  %19 = fuser.cast %f16 : !f16 to !i1
  %20 = fuser.add %bf16, %bf16 : !bf16, !bf16 -> !bf16
  %21 = fuser.mul %f16, %f16 : !f16, !f16 -> !f16
  %22 = fuser.reciprocal %bf16 : !bf16
  %sq = fuser.mul %f32, %f32 : !f32, !f32 -> !f32
  %23 = fuser.sub %sq, %c : !f32, !f32 -> !f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14,
         %15, %16, %17, %18, %19, %20, %21, %22, %23
      : !bf16, !f16, !bf16, !f16, !bf16, !f16, !bf16, !f16, !bf16, !f16,
        !f32, !f64, !f32, !f64, !f16, !bf16, !i32, !i64, !i1, !i1,
        !bf16, !f16, !bf16, !f32
}
)mlir";

template <typename T>
Buffer cycled(Type elementType, int64_t count, ArrayRef<T> values) {
  Buffer buffer;
  buffer.elementType = elementType;
  buffer.shape = {count};
  buffer.bytes.resize(count * sizeof(T), 0);
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(buffer.bytes.data() + i * sizeof(T), &values[i % values.size()],
                sizeof(T));
  return buffer;
}

template <typename To, typename From> To bits(From from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

/// Inputs that a flushing or a double-rounding conversion gets wrong:
/// subnormals of every type (the smallest, the largest, halfway cases),
/// the smallest normals, rounding midpoints, NaN, infinities, -0.0.
SmallVector<Buffer> makeSpecialInputs(MLIRContext &context, int64_t count) {
  Builder b(&context);
  float floats[] = {1e-40f,
                    bits<float>(0x00000001u),
                    bits<float>(0x00008000u), // a bf16 tie below the smallest
                    bits<float>(0x00018000u), // a bf16 tie to even, subnormal
                    bits<float>(0x007fffffu),
                    bits<float>(0x00800000u),
                    -9.183550e-41f,
                    6.0e-8f, // an f16 subnormal
                    bits<float>(0x33000001u),
                    -3.0e-39f,
                    1.0f + 0x1p-12f,
                    65520.0f,
                    bits<float>(0x7fa00001u),
                    -0.0f,
                    3.0e38f};
  double doubles[] = {1e-40,
                      1e-310,
                      9.2e-41,
                      5.96e-8,
                      -2.9e-39,
                      1e-45,
                      bits<double>(0x3FF0100000400000ull),
                      -1e300,
                      bits<double>(0x0000000000000001ull)};
  uint16_t bf16s[] = {0x0001, 0x8001, 0x007f, 0x0080, 0x7f62, 0x00ff,
                      0x3f80, 0x7fc1, 0xff80, 0x8000, 0x0040};
  uint16_t f16s[] = {0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff,
                     0x3c00, 0x7e01, 0xfc00, 0x8000, 0x0200};
  int32_t i32s[] = {0,          1,     -1,    16842753, -2147483647 - 1,
                    2147483647, 65519, 65520, 70000};
  int64_t i64s[] = {16842753,  -16842753, 70000, -3, (int64_t(1) << 53) + 1,
                    INT64_MIN, INT64_MAX};
  uint8_t i1s[] = {0, 1, 1, 0, 1};
  // fl(x * x) for each f32 input, so that x * x - c is the product's
  // rounding error where the product is contracted into an FMA and 0 where
  // it is rounded first.
  float squares[std::size(floats)];
  for (size_t i = 0; i < std::size(floats); ++i)
    squares[i] = floats[i] * floats[i];
  return {cycled<float>(b.getF32Type(), count, floats),
          cycled<double>(b.getF64Type(), count, doubles),
          cycled<uint16_t>(b.getBF16Type(), count, bf16s),
          cycled<uint16_t>(b.getF16Type(), count, f16s),
          cycled<int32_t>(b.getI32Type(), count, i32s),
          cycled<int64_t>(b.getI64Type(), count, i64s),
          cycled<uint8_t>(b.getI1Type(), count, i1s),
          cycled<float>(b.getF32Type(), count, squares)};
}

/// Parameter: the number of elements of the fusion's tensors.
class HostIndependenceTest : public ::testing::TestWithParam<int64_t> {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  }

  HostIndependenceTest() {
    context.loadDialect<FuserDialect, func::FuncDialect, arith::ArithDialect>();
    std::string source = kConversionsFusion;
    std::string from = "37x", to = std::to_string(GetParam()) + "x";
    for (size_t at = source.find(from); at != std::string::npos;
         at = source.find(from, at + to.size()))
      source.replace(at, from.size(), to);
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module) << diagnostics;
  }

  func::FuncOp getFusion() {
    return module->lookupSymbol<func::FuncOp>("conversions");
  }
  SmallVector<Buffer> getInputs() {
    return makeSpecialInputs(context, GetParam());
  }

  static void expectSameBits(ArrayRef<Buffer> actual, ArrayRef<Buffer> expected,
                             StringRef what) {
    ASSERT_EQ(actual.size(), expected.size()) << what.str();
    for (auto [i, a, e] : llvm::enumerate(actual, expected))
      EXPECT_EQ(a.bytes, e.bytes) << what.str() << ": result " << i;
  }

  std::string diagnostics;
  MLIRContext context;
  ScopedDiagnosticHandler handler{&context, [this](Diagnostic &diagnostic) {
                                    llvm::raw_string_ostream os(diagnostics);
                                    os << diagnostic.getLocation() << ": "
                                       << diagnostic << "\n";
                                    return success();
                                  }};
  OwningOpRef<ModuleOp> module;
};

bool isHalf(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

// Host-independent: no f16/bf16 value reaches LLVM. HalfRewriter computes
// on them in f32 through integer ops and helpers, and what is left of them
// (loads, stores, lane moves) moves i16 bits instead (moveHalfBitsAsI16): a
// `<8 x bfloat>` load or store is 8 scalar moves on x86 without avx512bf16,
// `<8 x i16>` one.
TEST_P(HostIndependenceTest, NoHalfConversionOrArithmeticReachesLLVM) {
  FailureOr<OwningOpRef<ModuleOp>> loops =
      lowerFusionToKernelLoops(getFusion(), BackendOptions());
  ASSERT_TRUE(succeeded(loops)) << diagnostics;
  FailureOr<OwningOpRef<ModuleOp>> llvmModule =
      lowerKernelModuleToLLVM(**loops);
  ASSERT_TRUE(succeeded(llvmModule)) << diagnostics;

  auto isI16 = [](Type type) {
    return getElementTypeOrSelf(type).isInteger(16);
  };
  unsigned i16Accesses = 0, i16VectorAccesses = 0;
  (*llvmModule)->walk([&](Operation *op) {
    bool touchesHalf = llvm::any_of(op->getOperandTypes(), isHalf) ||
                       llvm::any_of(op->getResultTypes(), isHalf);
    EXPECT_FALSE(touchesHalf)
        << "'" << op->getName().getStringRef().str()
        << "' on f16/bf16 reaches LLVM";
    Type accessed;
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      accessed = load.getType();
    if (auto store = dyn_cast<LLVM::StoreOp>(op))
      accessed = store.getValue().getType();
    if (accessed && isI16(accessed)) {
      ++i16Accesses;
      i16VectorAccesses += isa<VectorType>(accessed);
    }
  });
  // The kernels do load and store the halves, as i16, and with 64 elements
  // (two lanes of 32) in vectors.
  EXPECT_GT(i16Accesses, 0u);
  if (GetParam() == 64)
    EXPECT_GT(i16VectorAccesses, 0u);
  // And nothing asks LLVM for a fused multiply-add it may choose to form.
  (*llvmModule)->walk([](LLVM::FMulAddOp op) {
    ADD_FAILURE() << "llvm.intr.fmuladd reaches LLVM";
  });
}

// Host-independent: the target machine names the features it leaves out,
// and contracts no multiply-add.
TEST_P(HostIndependenceTest, TargetMachineLeavesOutHalfConversionFeatures) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createCPUBackendTargetMachine();
  ASSERT_TRUE(static_cast<bool>(machine))
      << llvm::toString(machine.takeError());
  EXPECT_EQ((*machine)->Options.AllowFPOpFusion, llvm::FPOpFusion::Strict);
  if (!(*machine)->getTargetTriple().isX86())
    return;
  std::string features = (*machine)->getTargetFeatureString().str();
  for (StringRef feature : getCPUBackendDisabledX86Features()) {
    std::string disabled = "-" + feature.str();
    EXPECT_NE(features.find(disabled), std::string::npos)
        << disabled << " missing from " << features;
    EXPECT_EQ(features.find("+" + feature.str()), std::string::npos)
        << feature.str() << " enabled in " << features;
  }
}

// On a host with AVX512-BF16 or AVX512-FP16, compiled with them enabled:
// the rewrites alone keep the interpreter's bits (without them LLVM selects
// vcvtneps2bf16, which flushes subnormals). Elsewhere the host's own
// features run, which is the same check on fewer instructions.
TEST_P(HostIndependenceTest, ConversionsExactWithTheHostsFullFeatureSet) {
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  ASSERT_TRUE(static_cast<bool>(builder))
      << llvm::toString(builder.takeError());
  llvm::StringMap<bool> hostFeatures = llvm::sys::getHostCPUFeatures();
  bool hostHasHalfConversions = hostFeatures.lookup("avx512bf16") ||
                                hostFeatures.lookup("avx512fp16") ||
                                hostFeatures.lookup("avxneconvert");
  RecordProperty("host_has_half_conversions", hostHasHalfConversions);
  if (hostHasHalfConversions) {
    std::string features = builder->getFeatures().getString();
    EXPECT_NE(features.find("+avx512bf16"), std::string::npos) << features;
  }
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      builder->createTargetMachine();
  ASSERT_TRUE(static_cast<bool>(machine))
      << llvm::toString(machine.takeError());

  func::FuncOp fusion = getFusion();
  SmallVector<Buffer> inputs = getInputs();
  FailureOr<SmallVector<Buffer>> expected = interpret(fusion, inputs);
  ASSERT_TRUE(succeeded(expected)) << diagnostics;
  FailureOr<OwningOpRef<ModuleOp>> loops =
      lowerFusionToKernelLoops(fusion, BackendOptions());
  ASSERT_TRUE(succeeded(loops)) << diagnostics;
  FailureOr<std::unique_ptr<CPUKernelModule>> compiled =
      CPUKernelModule::compile(**loops, BackendOptions(), {},
                               std::move(*machine));
  ASSERT_TRUE(succeeded(compiled)) << diagnostics;
  FailureOr<SmallVector<Buffer>> actual =
      (*compiled)->run("conversions", inputs);
  ASSERT_TRUE(succeeded(actual)) << diagnostics;
  expectSameBits(*actual, *expected, "host features");
}

#if defined(__x86_64__) || defined(__i386__)
constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;
#endif

/// Puts the calling thread into a hostile floating-point mode for its
/// lifetime: round toward zero, and on x86 FTZ and DAZ.
class HostileMode {
public:
  HostileMode() {
    std::fegetenv(&saved);
    std::fesetround(FE_TOWARDZERO);
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(_mm_getcsr() | kFlushToZero | kDenormalsAreZero);
#endif
    std::fegetenv(&hostile);
  }
  ~HostileMode() { std::fesetenv(&saved); }

  /// Whether the thread is still in the hostile mode.
  bool isCurrent() const {
    if (std::fegetround() != FE_TOWARDZERO)
      return false;
#if defined(__x86_64__) || defined(__i386__)
    unsigned mask = kFlushToZero | kDenormalsAreZero;
    return (_mm_getcsr() & mask) == mask;
#else
    return true;
#endif
  }

private:
  std::fenv_t saved, hostile;
};

// The default mode's bits under FTZ, DAZ and round-toward-zero, on both the
// interpreter and the CPU backend (its compilation included); the caller's
// mode is back after each run.
TEST_P(HostIndependenceTest, RunsIgnoreTheCallersFloatingPointMode) {
  func::FuncOp fusion = getFusion();
  SmallVector<Buffer> inputs = getInputs();
  std::unique_ptr<Backend> interpreter =
      createInterpreterBackend(BackendOptions());
  std::unique_ptr<Backend> cpu = createCPUBackend(BackendOptions());
  FailureOr<SmallVector<Buffer>> expected = interpreter->run(fusion, inputs);
  ASSERT_TRUE(succeeded(expected)) << diagnostics;

  // The mode matters for these inputs: computed in it, a subnormal
  // product and a rounding differ.
  {
    HostileMode hostile;
    volatile float tiny = bits<float>(0x00000100u), three = 3.0f;
    EXPECT_NE(bits<uint32_t>(tiny * 0.5f), 0x00000080u);
    EXPECT_NE(bits<uint32_t>(1.0f / three),
              bits<uint32_t>(static_cast<float>(1.0 / 3.0)));
  }

  for (Backend *backend : {interpreter.get(), cpu.get()}) {
    HostileMode hostile;
    FailureOr<SmallVector<Buffer>> actual = backend->run(fusion, inputs);
    EXPECT_TRUE(hostile.isCurrent()) << backend->getName().str();
    ASSERT_TRUE(succeeded(actual)) << diagnostics;
    expectSameBits(*actual, *expected, backend->getName());
  }

  // The layers below the Backend interface switch too.
  HostileMode hostile;
  FailureOr<SmallVector<Buffer>> interpreted = interpret(fusion, inputs);
  ASSERT_TRUE(succeeded(interpreted)) << diagnostics;
  expectSameBits(*interpreted, *expected, "interpret");
  FailureOr<OwningOpRef<ModuleOp>> loops =
      lowerFusionToKernelLoops(fusion, BackendOptions());
  ASSERT_TRUE(succeeded(loops)) << diagnostics;
  FailureOr<SmallVector<Buffer>> ran =
      runKernelModule(**loops, "conversions", inputs, BackendOptions());
  ASSERT_TRUE(succeeded(ran)) << diagnostics;
  // runKernelModule gives rank-1 outputs as they are: compare bytes.
  expectSameBits(*ran, *expected, "runKernelModule");
  EXPECT_TRUE(hostile.isCurrent());
}

INSTANTIATE_TEST_SUITE_P(OneAndTwoLanes, HostIndependenceTest,
                         ::testing::Values(37, 64));

// The guard restores exactly what the caller had, flags included.
TEST(FloatingPointEnvironmentTest, RestoresTheCallersEnvironment) {
  HostileMode hostile;
  std::feclearexcept(FE_ALL_EXCEPT);
  std::feraiseexcept(FE_INEXACT);
  {
    ScopedDefaultFloatingPointEnvironment defaultEnvironment;
    EXPECT_EQ(std::fegetround(), FE_TONEAREST);
#if defined(__x86_64__) || defined(__i386__)
    EXPECT_EQ(_mm_getcsr() & (kFlushToZero | kDenormalsAreZero), 0u);
#endif
    volatile float tiny = bits<float>(0x00000100u);
    EXPECT_EQ(bits<uint32_t>(tiny * 0.5f), 0x00000080u);
    std::feraiseexcept(FE_DIVBYZERO);
  }
  EXPECT_TRUE(hostile.isCurrent());
  EXPECT_TRUE(std::fetestexcept(FE_INEXACT));
  EXPECT_FALSE(std::fetestexcept(FE_DIVBYZERO));
}

// From the default modes (the guard keeps only the MXCSR there), the SSE
// flags come back as they were and the x87 flags stay clear.
TEST(FloatingPointEnvironmentTest, RestoresTheFlagsOfTheDefaultModes) {
  std::fesetenv(FE_DFL_ENV);
  volatile float zero = 0.0f;
  volatile float quotient = 1.0f / zero; // an SSE flag: FE_DIVBYZERO
  (void)quotient;
  ASSERT_TRUE(std::fetestexcept(FE_DIVBYZERO));
  {
    ScopedDefaultFloatingPointEnvironment defaultEnvironment;
    EXPECT_FALSE(std::fetestexcept(FE_ALL_EXCEPT));
    volatile float three = 3.0f;
    volatile float third = 1.0f / three; // an SSE flag: FE_INEXACT
    (void)third;
    std::feraiseexcept(FE_OVERFLOW);     // an x87 flag (glibc raises it there)
  }
  EXPECT_TRUE(std::fetestexcept(FE_DIVBYZERO));
  EXPECT_FALSE(std::fetestexcept(FE_INEXACT | FE_OVERFLOW));
  std::feclearexcept(FE_ALL_EXCEPT);
}

} // namespace
