//===- CPUBackendTest.cpp - kernel modules run on the host ----------------===//
//
// The bottom layer of the `cpu` backend (CPUKernelModule) on hand-written
// modules in the shared-lowering form of docs/Lowering.md, each compared bit
// for bit with the interpreter on the equivalent fuser fusion: vectorized
// bf16 pointwise with a scalar tail, an outer reduction over a
// block x thread nest, an inner reduction combined with scf.reduce, scalar
// arguments, i1 and f16 elements, and conversions that must round once;
// and the options of a run (zeroed outputs, buffer limits).
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CPUBackend.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/Interpreter/Interpreter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace mlir;
using namespace mlir::fuser;

namespace {

class CPUBackendTest : public ::testing::Test {
protected:
  CPUBackendTest() {
    context.loadDialect<FuserDialect, func::FuncDialect, arith::ArithDialect,
                        affine::AffineDialect, math::MathDialect,
                        memref::MemRefDialect, scf::SCFDialect,
                        vector::VectorDialect, gpu::GPUDialect>();
  }

  ModuleOp parse(StringRef source) {
    modules.push_back(parseSourceString<ModuleOp>(source, &context));
    EXPECT_TRUE(modules.back()) << source.str();
    return modules.back().get();
  }

  /// Runs function `name` of `kernels` (memref form) and of `fusion` (fuser
  /// form) on `inputs` and expects the same bytes.
  void expectSameAsInterpreter(ModuleOp kernels, ModuleOp fusion,
                               StringRef name, ArrayRef<Buffer> inputs) {
    auto func = fusion.lookupSymbol<func::FuncOp>(name);
    ASSERT_TRUE(func);
    FailureOr<SmallVector<Buffer>> expected = interpret(func, inputs);
    ASSERT_TRUE(succeeded(expected));
    FailureOr<SmallVector<Buffer>> actual =
        runKernelModule(kernels, name, inputs, BackendOptions());
    ASSERT_TRUE(succeeded(actual)) << diagnostics;
    expectSameBuffers(*actual, *expected);
  }

  static void expectSameBuffers(ArrayRef<Buffer> actual,
                                ArrayRef<Buffer> expected) {
    ASSERT_EQ(actual.size(), expected.size());
    for (auto [i, a, e] : llvm::enumerate(actual, expected)) {
      FailureOr<BufferDifference> difference = compareBuffers(a, e);
      ASSERT_TRUE(succeeded(difference)) << "result " << i;
      EXPECT_EQ(difference->maxUlpDistance, 0u) << "result " << i;
      // Bit for bit, NaN payloads included.
      EXPECT_EQ(a.bytes, e.bytes) << "result " << i;
    }
  }

  /// Deterministic inputs for the arguments of `name` in `fusion`.
  SmallVector<Buffer> makeInputs(ModuleOp fusion, StringRef name,
                                 uint64_t seed) {
    auto func = fusion.lookupSymbol<func::FuncOp>(name);
    SmallVector<Buffer> inputs;
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      inputs.push_back(makeDeterministicInput(type, i, seed));
    return inputs;
  }

  /// Collects diagnostics instead of printing them.
  std::string diagnostics;
  MLIRContext context;
  ScopedDiagnosticHandler handler{&context, [this](Diagnostic &diagnostic) {
                                    llvm::raw_string_ostream os(diagnostics);
                                    os << diagnostic.getLocation() << ": "
                                       << diagnostic << "\n";
                                    return success();
                                  }};
  SmallVector<OwningOpRef<ModuleOp>> modules;
};

#define BLOCK_X                                                                \
  "#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), "                \
  "bound = (d0) -> (d0)>"
#define THREAD_X                                                               \
  "#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), "               \
  "bound = (d0) -> (d0)>"

// bf16[3, 20] + bf16[3, 20]: 7 threads of 2 x 4 make one aligned 16-byte
// vector each (56 elements), a scalar tail makes the last 4.
constexpr const char *kPointwiseKernel = R"mlir(
func.func @add(%a: memref<3x20xbf16>, %b: memref<3x20xbf16>, %out: memref<3x20xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c56 = arith.constant 56 : index
  %c60 = arith.constant 60 : index
  %fa = memref.collapse_shape %a [[0, 1]] : memref<3x20xbf16> into memref<60xbf16>
  %fb = memref.collapse_shape %b [[0, 1]] : memref<3x20xbf16> into memref<60xbf16>
  %fo = memref.collapse_shape %out [[0, 1]] : memref<3x20xbf16> into memref<60xbf16>
  scf.parallel (%block) = (%c0) to (%c2) step (%c1) {
    scf.parallel (%thread) = (%c0) to (%c4) step (%c1) {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%block, %thread)
      %inside = arith.cmpi ult, %v, %c7 : index
      scf.if %inside {
        %i = arith.muli %v, %c8 : index
        %x = vector.load %fa[%i] {alignment = 16} : memref<60xbf16>, vector<8xbf16>
        %y = vector.load %fb[%i] {alignment = 16} : memref<60xbf16>, vector<8xbf16>
        %xf = arith.extf %x : vector<8xbf16> to vector<8xf32>
        %yf = arith.extf %y : vector<8xbf16> to vector<8xf32>
        %s = arith.addf %xf, %yf : vector<8xf32>
        %r = arith.truncf %s : vector<8xf32> to vector<8xbf16>
        vector.store %r, %fo[%i] {alignment = 16} : memref<60xbf16>, vector<8xbf16>
      }
    } {mapping = [)mlir" THREAD_X R"mlir(]}
  } {mapping = [)mlir" BLOCK_X R"mlir(]}
  scf.parallel (%t) = (%c56) to (%c60) step (%c1) {
    %x = memref.load %fa[%t] : memref<60xbf16>
    %y = memref.load %fb[%t] : memref<60xbf16>
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %s = arith.addf %xf, %yf : f32
    %r = arith.truncf %s : f32 to bf16
    memref.store %r, %fo[%t] : memref<60xbf16>
  } {mapping = [)mlir" THREAD_X R"mlir(]}
  return
}
)mlir";

constexpr const char *kPointwiseFusion = R"mlir(
func.func @add(%a: tensor<3x20xbf16>, %b: tensor<3x20xbf16>) -> tensor<3x20xbf16> {
  %r = fuser.add %a, %b : tensor<3x20xbf16>, tensor<3x20xbf16> -> tensor<3x20xbf16>
  return %r : tensor<3x20xbf16>
}
)mlir";

TEST_F(CPUBackendTest, VectorizedBF16AddWithTail) {
  ModuleOp kernels = parse(kPointwiseKernel);
  ModuleOp fusion = parse(kPointwiseFusion);
  for (uint64_t seed : {0, 1, 2})
    expectSameAsInterpreter(kernels, fusion, "add",
                            makeInputs(fusion, "add", seed));
}

// Mistral's shape of schedule: bf16[6, 10, 16] summed over the middle axis;
// each thread of a 3 x 4 grid makes one vector<8xbf16> of outputs along the
// contiguous axis, accumulating in f32 from -0.0.
constexpr const char *kOuterReductionKernel = R"mlir(
func.func @outer(%x: memref<6x10x16xbf16>, %out: memref<6x16xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant dense<-0.0> : vector<8xf32>
  scf.parallel (%block) = (%c0) to (%c3) step (%c1) {
    scf.parallel (%thread) = (%c0) to (%c4) step (%c1) {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%block, %thread)
      %row = arith.divui %v, %c2 : index
      %half = arith.remui %v, %c2 : index
      %col = arith.muli %half, %c8 : index
      %acc = scf.for %k = %c0 to %c10 step %c1 iter_args(%a = %zero) -> vector<8xf32> {
        %l = vector.load %x[%row, %k, %col] {alignment = 16} : memref<6x10x16xbf16>, vector<8xbf16>
        %e = arith.extf %l : vector<8xbf16> to vector<8xf32>
        %s = arith.addf %a, %e : vector<8xf32>
        scf.yield %s : vector<8xf32>
      }
      %r = arith.truncf %acc : vector<8xf32> to vector<8xbf16>
      vector.store %r, %out[%row, %col] {alignment = 16} : memref<6x16xbf16>, vector<8xbf16>
    } {mapping = [)mlir" THREAD_X R"mlir(]}
  } {mapping = [)mlir" BLOCK_X R"mlir(]}
  return
}
)mlir";

constexpr const char *kOuterReductionFusion = R"mlir(
func.func @outer(%x: tensor<6x10x16xbf16>) -> tensor<6x16xbf16> {
  %r = fuser.reduction add %x [1] : tensor<6x10x16xbf16> -> tensor<6x16xbf16>
  return %r : tensor<6x16xbf16>
}
)mlir";

TEST_F(CPUBackendTest, OuterReductionBlockThreadNest) {
  ModuleOp kernels = parse(kOuterReductionKernel);
  ModuleOp fusion = parse(kOuterReductionFusion);
  for (uint64_t seed : {0, 7})
    expectSameAsInterpreter(kernels, fusion, "outer",
                            makeInputs(fusion, "outer", seed));
}

// f32[5, 37] summed over rows, times a scalar: one block per row, 4 threads
// each summing a strided part, combined with scf.reduce.
constexpr const char *kInnerReductionKernel = R"mlir(
func.func @inner(%x: memref<5x37xf32>, %s: f32, %out: memref<5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c37 = arith.constant 37 : index
  %zero = arith.constant -0.0 : f32
  scf.parallel (%row) = (%c0) to (%c5) step (%c1) {
    %sum = scf.parallel (%t) = (%c0) to (%c4) step (%c1) init (%zero) -> f32 {
      %part = scf.for %k = %t to %c37 step %c4 iter_args(%a = %zero) -> f32 {
        %e = memref.load %x[%row, %k] : memref<5x37xf32>
        %n = arith.addf %a, %e : f32
        scf.yield %n : f32
      }
      scf.reduce(%part : f32) {
      ^bb0(%l: f32, %r: f32):
        %c = arith.addf %l, %r : f32
        scf.reduce.return %c : f32
      }
    } {mapping = [)mlir" THREAD_X R"mlir(]}
    %m = arith.mulf %sum, %s : f32
    memref.store %m, %out[%row] : memref<5xf32>
  } {mapping = [)mlir" BLOCK_X R"mlir(]}
  return
}
)mlir";

constexpr const char *kInnerReductionFusion = R"mlir(
func.func @inner(%x: tensor<5x37xf32>, %s: f32) -> tensor<5xf32> {
  %r = fuser.reduction add %x [1] : tensor<5x37xf32> -> tensor<5xf32>
  %m = fuser.mul %r, %s : tensor<5xf32>, f32 -> tensor<5xf32>
  return %m : tensor<5xf32>
}
)mlir";

TEST_F(CPUBackendTest, InnerReductionWithScfReduceAndScalar) {
  ModuleOp kernels = parse(kInnerReductionKernel);
  ModuleOp fusion = parse(kInnerReductionFusion);
  // One compiled module, run for several inputs.
  FailureOr<std::unique_ptr<CPUKernelModule>> compiled =
      CPUKernelModule::compile(kernels, BackendOptions());
  ASSERT_TRUE(succeeded(compiled)) << diagnostics;
  auto func = fusion.lookupSymbol<func::FuncOp>("inner");
  for (uint64_t seed : {0, 1, 2, 3}) {
    SmallVector<Buffer> inputs = makeInputs(fusion, "inner", seed);
    FailureOr<SmallVector<Buffer>> expected = interpret(func, inputs);
    ASSERT_TRUE(succeeded(expected));
    FailureOr<SmallVector<Buffer>> actual = (*compiled)->run("inner", inputs);
    ASSERT_TRUE(succeeded(actual)) << diagnostics;
    expectSameBuffers(*actual, *expected);
  }
}

// f16 and i1 elements, an f16 scalar: where(p, a + b, s), a > b and a * b,
// the last two computed on f16 directly (the backend widens them to f32).
constexpr const char *kMixedKernel = R"mlir(
func.func @mixed(%a: memref<7xf16>, %b: memref<7xf16>, %p: memref<7xi1>, %s: f16,
                 %o0: memref<7xf16>, %o1: memref<7xi1>, %o2: memref<7xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.parallel (%i) = (%c0) to (%c7) step (%c1) {
    %x = memref.load %a[%i] : memref<7xf16>
    %y = memref.load %b[%i] : memref<7xf16>
    %q = memref.load %p[%i] : memref<7xi1>
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %sum = arith.addf %xf, %yf : f32
    %sumh = arith.truncf %sum : f32 to f16
    %w = arith.select %q, %sumh, %s : f16
    memref.store %w, %o0[%i] : memref<7xf16>
    %gt = arith.cmpf ogt, %x, %y : f16
    memref.store %gt, %o1[%i] : memref<7xi1>
    %prod = arith.mulf %x, %y : f16
    memref.store %prod, %o2[%i] : memref<7xf16>
  } {mapping = [)mlir" THREAD_X R"mlir(]}
  return
}
)mlir";

constexpr const char *kMixedFusion = R"mlir(
func.func @mixed(%a: tensor<7xf16>, %b: tensor<7xf16>, %p: tensor<7xi1>, %s: f16)
    -> (tensor<7xf16>, tensor<7xi1>, tensor<7xf16>) {
  %sum = fuser.add %a, %b : tensor<7xf16>, tensor<7xf16> -> tensor<7xf16>
  %w = fuser.where %p, %sum, %s : tensor<7xi1>, tensor<7xf16>, f16 -> tensor<7xf16>
  %gt = fuser.gt %a, %b : tensor<7xf16>, tensor<7xf16> -> tensor<7xi1>
  %prod = fuser.mul %a, %b : tensor<7xf16>, tensor<7xf16> -> tensor<7xf16>
  return %w, %gt, %prod : tensor<7xf16>, tensor<7xi1>, tensor<7xf16>
}
)mlir";

TEST_F(CPUBackendTest, HalfAndBoolElementsAndHalfScalar) {
  ModuleOp kernels = parse(kMixedKernel);
  ModuleOp fusion = parse(kMixedFusion);
  for (uint64_t seed : {0, 1, 2, 3, 4})
    expectSameAsInterpreter(kernels, fusion, "mixed",
                            makeInputs(fusion, "mixed", seed));
}

// Conversions that must round once (f64 and i64 to f16/bf16), NaN payloads,
// -0.0, subnormals and overflow, on vectors of 4.
constexpr const char *kCastKernel = R"mlir(
func.func @casts(%d: memref<4xf64>, %i: memref<4xi64>, %f: memref<4xf32>,
                 %o0: memref<4xbf16>, %o1: memref<4xf16>, %o2: memref<4xbf16>,
                 %o3: memref<4xf16>, %o4: memref<4xbf16>, %o5: memref<4xf16>,
                 %o6: memref<4xf32>, %o7: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %vd = vector.load %d[%c0] : memref<4xf64>, vector<4xf64>
  %vi = vector.load %i[%c0] : memref<4xi64>, vector<4xi64>
  %vf = vector.load %f[%c0] : memref<4xf32>, vector<4xf32>
  %r0 = arith.truncf %vd : vector<4xf64> to vector<4xbf16>
  vector.store %r0, %o0[%c0] : memref<4xbf16>, vector<4xbf16>
  %r1 = arith.truncf %vd : vector<4xf64> to vector<4xf16>
  vector.store %r1, %o1[%c0] : memref<4xf16>, vector<4xf16>
  %r2 = arith.sitofp %vi : vector<4xi64> to vector<4xbf16>
  vector.store %r2, %o2[%c0] : memref<4xbf16>, vector<4xbf16>
  %r3 = arith.sitofp %vi : vector<4xi64> to vector<4xf16>
  vector.store %r3, %o3[%c0] : memref<4xf16>, vector<4xf16>
  %r4 = arith.truncf %vf : vector<4xf32> to vector<4xbf16>
  vector.store %r4, %o4[%c0] : memref<4xbf16>, vector<4xbf16>
  %r5 = arith.truncf %vf : vector<4xf32> to vector<4xf16>
  vector.store %r5, %o5[%c0] : memref<4xf16>, vector<4xf16>
  %r6 = arith.extf %r5 : vector<4xf16> to vector<4xf32>
  vector.store %r6, %o6[%c0] : memref<4xf32>, vector<4xf32>
  %r7 = arith.extf %r4 : vector<4xbf16> to vector<4xf64>
  vector.store %r7, %o7[%c0] : memref<4xf64>, vector<4xf64>
  return
}
)mlir";

constexpr const char *kCastFusion = R"mlir(
func.func @casts(%d: tensor<4xf64>, %i: tensor<4xi64>, %f: tensor<4xf32>)
    -> (tensor<4xbf16>, tensor<4xf16>, tensor<4xbf16>, tensor<4xf16>,
        tensor<4xbf16>, tensor<4xf16>, tensor<4xf32>, tensor<4xf64>) {
  %r0 = fuser.cast %d : tensor<4xf64> to tensor<4xbf16>
  %r1 = fuser.cast %d : tensor<4xf64> to tensor<4xf16>
  %r2 = fuser.cast %i : tensor<4xi64> to tensor<4xbf16>
  %r3 = fuser.cast %i : tensor<4xi64> to tensor<4xf16>
  %r4 = fuser.cast %f : tensor<4xf32> to tensor<4xbf16>
  %r5 = fuser.cast %f : tensor<4xf32> to tensor<4xf16>
  %r6 = fuser.cast %r5 : tensor<4xf16> to tensor<4xf32>
  %r7 = fuser.cast %r4 : tensor<4xbf16> to tensor<4xf64>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7
      : tensor<4xbf16>, tensor<4xf16>, tensor<4xbf16>, tensor<4xf16>,
        tensor<4xbf16>, tensor<4xf16>, tensor<4xf32>, tensor<4xf64>
}
)mlir";

template <typename T>
Buffer makeBuffer(Type elementType, ArrayRef<T> values) {
  Buffer buffer;
  buffer.elementType = elementType;
  buffer.shape = {static_cast<int64_t>(values.size())};
  buffer.bytes.resize(values.size() * sizeof(T), 0);
  std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
  return buffer;
}

template <typename To, typename From> To bits(From from) {
  To to;
  static_assert(sizeof(To) == sizeof(From));
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

TEST_F(CPUBackendTest, ConversionsRoundOnceAndKeepNaNPayloads) {
  ModuleOp kernels = parse(kCastKernel);
  ModuleOp fusion = parse(kCastFusion);
  Builder b(&context);
  // 1 + 2^-8 + 2^-30 and 1 + 2^-11 + 2^-40 lie just above a bf16 and an f16
  // tie, which a detour through f32 would round away; a negative NaN with a
  // payload; 1e300 overflows.
  double doubles[] = {bits<double>(0x3FF0100000400000ull),
                      bits<double>(0x3FF0020000010000ull),
                      bits<double>(0xFFF4000000000123ull), 1e300};
  // 2^24 + 2^16 + 1 is just above a bf16 tie; 70000 overflows f16.
  int64_t ints[] = {16842753, -16842753, 70000, -3};
  // A signaling NaN with a payload, -0.0, an f32 subnormal, the f16 tie to
  // infinity.
  float floats[] = {bits<float>(0x7fa00001u), -0.0f, 1e-40f, 65520.0f};
  SmallVector<Buffer> inputs = {
      makeBuffer<double>(b.getF64Type(), doubles),
      makeBuffer<int64_t>(b.getI64Type(), ints),
      makeBuffer<float>(b.getF32Type(), floats)};
  expectSameAsInterpreter(kernels, fusion, "casts", inputs);
  for (uint64_t seed : {0, 1})
    expectSameAsInterpreter(kernels, fusion, "casts",
                            makeInputs(fusion, "casts", seed));
}

// i1 -> bf16 as a select between bf16 constants, then arithmetic: LLVM's
// InstCombine turns this into `uitofp i1 to bfloat`, which x86 lowers
// through the libcall __truncsfbf2 that the backend registers.
constexpr const char *kSelectKernel = R"mlir(
func.func @select(%p: memref<5xi1>, %x: memref<5xbf16>, %out: memref<5xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant dense<1.0> : vector<1xbf16>
  %zero = arith.constant dense<0.0> : vector<1xbf16>
  scf.parallel (%i) = (%c0) to (%c5) step (%c1) {
    %q = memref.load %p[%i] : memref<5xi1>
    %qv = vector.broadcast %q : i1 to vector<1xi1>
    %b = arith.select %qv, %one, %zero : vector<1xi1>, vector<1xbf16>
    %y = memref.load %x[%i] : memref<5xbf16>
    %yv = vector.broadcast %y : bf16 to vector<1xbf16>
    %bf = arith.extf %b : vector<1xbf16> to vector<1xf32>
    %yf = arith.extf %yv : vector<1xbf16> to vector<1xf32>
    %s = arith.addf %bf, %yf : vector<1xf32>
    %r = arith.truncf %s : vector<1xf32> to vector<1xbf16>
    %e = vector.extract %r[0] : bf16 from vector<1xbf16>
    memref.store %e, %out[%i] : memref<5xbf16>
  } {mapping = [)mlir" THREAD_X R"mlir(]}
  return
}
)mlir";

constexpr const char *kSelectFusion = R"mlir(
func.func @select(%p: tensor<5xi1>, %x: tensor<5xbf16>) -> tensor<5xbf16> {
  %b = fuser.cast %p : tensor<5xi1> to tensor<5xbf16>
  %s = fuser.add %b, %x : tensor<5xbf16>, tensor<5xbf16> -> tensor<5xbf16>
  return %s : tensor<5xbf16>
}
)mlir";

TEST_F(CPUBackendTest, ConversionsLLVMIntroducesUseTheInterpreters) {
  ModuleOp kernels = parse(kSelectKernel);
  ModuleOp fusion = parse(kSelectFusion);
  for (uint64_t seed : {0, 1, 2})
    expectSameAsInterpreter(kernels, fusion, "select",
                            makeInputs(fusion, "select", seed));
}

// A strided view copied into an output (an alias segment): memref.copy from
// a reinterpret_cast transposing f32[2, 3].
constexpr const char *kAliasKernel = R"mlir(
func.func @transpose(%a: memref<2x3xf32>, %out: memref<3x2xf32>) {
  %view = memref.reinterpret_cast %a to offset: [0], sizes: [3, 2], strides: [1, 3]
      : memref<2x3xf32> to memref<3x2xf32, strided<[1, 3]>>
  memref.copy %view, %out : memref<3x2xf32, strided<[1, 3]>> to memref<3x2xf32>
  return
}
)mlir";

constexpr const char *kAliasFusion = R"mlir(
func.func @transpose(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %t = fuser.permute %a [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %t : tensor<3x2xf32>
}
)mlir";

TEST_F(CPUBackendTest, StridedCopy) {
  ModuleOp kernels = parse(kAliasKernel);
  ModuleOp fusion = parse(kAliasFusion);
  expectSameAsInterpreter(kernels, fusion, "transpose",
                          makeInputs(fusion, "transpose", 3));
}

// Inputs borrowed from the caller (the Python binding's arrays) are read in
// place when 16-byte aligned, as the kernel's vector loads claim, and copied
// into aligned storage otherwise; both give the owned inputs' results, and
// the caller's bytes stay as they were.
TEST_F(CPUBackendTest, BorrowedInputsAlignedOrNot) {
  ModuleOp kernels = parse(kPointwiseKernel);
  ModuleOp fusion = parse(kPointwiseFusion);
  SmallVector<Buffer> owned = makeInputs(fusion, "add", 5);
  FailureOr<SmallVector<Buffer>> expected =
      runKernelModule(kernels, "add", owned, BackendOptions());
  ASSERT_TRUE(succeeded(expected)) << diagnostics;
  for (size_t offset : {0, 2}) {
    // Caller memory: 64-byte aligned, then `offset` bytes in.
    std::vector<ByteVector> caller;
    SmallVector<Buffer> borrowed;
    for (const Buffer &input : owned) {
      caller.emplace_back(input.bytes.size() + offset);
      std::memcpy(caller.back().data() + offset, input.bytes.data(),
                  input.bytes.size());
      Buffer view = input;
      view.bytes.clear();
      view.borrowed =
          ArrayRef<uint8_t>(caller.back().data() + offset, input.bytes.size());
      borrowed.push_back(std::move(view));
    }
    FailureOr<SmallVector<Buffer>> actual =
        runKernelModule(kernels, "add", borrowed, BackendOptions());
    ASSERT_TRUE(succeeded(actual)) << diagnostics;
    expectSameBuffers(*actual, *expected);
    for (auto [input, bytes] : llvm::zip(owned, caller))
      EXPECT_EQ(0, std::memcmp(bytes.data() + offset, input.bytes.data(),
                               input.bytes.size()));
    auto func = fusion.lookupSymbol<func::FuncOp>("add");
    FailureOr<SmallVector<Buffer>> interpreted = interpret(func, borrowed);
    ASSERT_TRUE(succeeded(interpreted)) << diagnostics;
    expectSameBuffers(*interpreted, *expected);
  }
}

TEST_F(CPUBackendTest, RefusesDynamicArguments) {
  ModuleOp kernels = parse(R"mlir(
func.func @f(%a: memref<?xf32>, %out: memref<4xf32>) {
  return
}
)mlir");
  EXPECT_TRUE(failed(CPUKernelModule::compile(kernels, BackendOptions())));
  EXPECT_NE(diagnostics.find("argument 0 has type 'memref<?xf32>'"),
            std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("loc("), std::string::npos) << diagnostics;
}

TEST_F(CPUBackendTest, RefusesOpsItCannotLower) {
  ModuleOp kernels = parse(R"mlir(
func.func @f(%out: memref<4xf32>) {
  gpu.barrier
  return
}
)mlir");
  EXPECT_TRUE(failed(CPUKernelModule::compile(kernels, BackendOptions())));
  EXPECT_NE(diagnostics.find("cannot lower 'gpu.barrier' to LLVM"),
            std::string::npos)
      << diagnostics;
  // Located on the op, line 3 of the source.
  EXPECT_NE(diagnostics.find(":3:3"), std::string::npos) << diagnostics;
}

TEST_F(CPUBackendTest, RefusesVectorsOfI1InMemory) {
  ModuleOp kernels = parse(R"mlir(
func.func @f(%a: memref<8xi1>, %out: memref<8xi1>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<8xi1>, vector<8xi1>
  vector.store %v, %out[%c0] : memref<8xi1>, vector<8xi1>
  return
}
)mlir");
  EXPECT_TRUE(failed(CPUKernelModule::compile(kernels, BackendOptions())));
  EXPECT_NE(diagnostics.find("LLVM packs vectors of i1"), std::string::npos)
      << diagnostics;
}

TEST_F(CPUBackendTest, RespectsMaxBufferBytes) {
  ModuleOp kernels = parse(kPointwiseKernel);
  ModuleOp fusion = parse(kPointwiseFusion);
  BackendOptions options;
  options.maxBufferBytes = 100; // The output takes 120 bytes.
  FailureOr<SmallVector<Buffer>> outputs = runKernelModule(
      kernels, "add", makeInputs(fusion, "add", 0), options);
  EXPECT_TRUE(failed(outputs));
  EXPECT_NE(diagnostics.find("more than the limit of 100 bytes"),
            std::string::npos)
      << diagnostics;
}

TEST_F(CPUBackendTest, RefusesMismatchedInputs) {
  ModuleOp kernels = parse(kPointwiseKernel);
  ModuleOp fusion = parse(kOuterReductionFusion);
  EXPECT_TRUE(failed(runKernelModule(kernels, "add",
                                     makeInputs(fusion, "outer", 0),
                                     BackendOptions())));
  EXPECT_NE(diagnostics.find("does not match argument 0"), std::string::npos)
      << diagnostics;
}


// BackendOptions::zeroOutputs: outputs start zeroed for the tools' checks,
// or as the allocator hands them out for Python's execute. A function that
// writes nothing shows which: its 1 MiB output comes from the host block
// cache, where a block of that size filled with 0xa5 was just freed.
TEST_F(CPUBackendTest, ZeroOutputsOrLeavesThemAsAllocated) {
  ModuleOp kernels = parse(R"mlir(
func.func @untouched(%out: memref<512x512xf32>) {
  return
}
)mlir");
  constexpr size_t kBytes = 512 * 512 * 4;
  for (bool zero : {true, false}) {
    {
      ByteVector freed(kBytes, 0xa5);
    }
    BackendOptions options;
    options.zeroOutputs = zero;
    FailureOr<SmallVector<Buffer>> outputs =
        runKernelModule(kernels, "untouched", {}, options);
    ASSERT_TRUE(succeeded(outputs)) << diagnostics;
    ASSERT_EQ(outputs->size(), 1u);
    ASSERT_EQ((*outputs)[0].bytes.size(), kBytes);
    ByteVector expected(kBytes, zero ? 0 : 0xa5);
    EXPECT_TRUE((*outputs)[0].bytes == expected) << "zeroOutputs " << zero;
  }
}

} // namespace
