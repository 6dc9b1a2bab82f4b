//===- ExpandMathTest.cpp - the CPU backend's math is the interpreter's ---===//
//
// fuser-expand-math's promise: the CPU backend's f32 exp, log, tanh and erf
// give PortableMath.h's scalar results (what the interpreter computes) bit
// for bit at every vector width. Kernels applying each function to f32,
// vector<2/4/8/16 x f32> loads are compiled by the CPU backend and run on
// special values (zeros, infinities, NaN, subnormals, the ends of each
// algorithm's ranges and their neighbours) and on random bit patterns and
// random values of each function's working range. The same inputs bound the
// accuracy: every result is within 1 ulp of the correctly rounded one (the
// host's f64 function, rounded).
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/PortableMath.h"
#include "fuser/ExecutionEngine/CPUBackend.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

using namespace mlir;
using namespace mlir::fuser;

namespace {

struct Function {
  const char *name;
  float (*portable)(float);
  double (*reference)(double);
  /// The random values: uniform in [-range, range].
  float range;
  /// Inputs where the algorithm changes branch or clamps, whose neighbours
  /// are tested too.
  std::vector<float> edges;
};

const Function kFunctions[] = {
    {"exp", [](float x) { return semantics::expOf(x); },
     [](double x) { return std::exp(x); }, 110.0f,
     {88.7228394f, 89.0f, -87.3365479f, -103.972076f, -104.0f, 0.346573591f}},
    {"log", [](float x) { return semantics::logOf(x); },
     [](double x) { return std::log(x); }, 1e6f,
     {0.707106781f, 1.41421356f, 0x1p-126f, 1.0f, 2.0f, 0.5f}},
    {"tanh", [](float x) { return semantics::tanhOf(x); },
     [](double x) { return std::tanh(x); }, 12.0f,
     {0.625f, -0.625f, 9.0f, -9.0f, 9.01f, 10.0f}},
    {"erf", [](float x) { return semantics::erfOf(x); },
     [](double x) { return std::erf(x); }, 6.0f,
     {1.0f, -1.0f, 4.0f, -4.0f}},
};

constexpr int64_t kWidths[] = {1, 2, 4, 8, 16};

/// The inputs of one function: a multiple of 16 elements.
std::vector<float> makeInputs(const Function &function) {
  std::vector<float> inputs = {
      0.0f,     -0.0f,    INFINITY, -INFINITY, NAN,      -NAN,
      0x1p-149f, -0x1p-149f, 0x1.fffffcp-127f, -0x1.fffffcp-127f,
      0x1p-126f, -0x1p-126f, FLT_MAX,  -FLT_MAX, 1.0f,    -1.0f,
      0x1p-30f, -0x1p-30f, 1e-10f,   -1e-10f};
  for (float edge : function.edges)
    for (float x : {edge, -edge})
      for (int step = -2; step <= 2; ++step) {
        uint32_t bits;
        std::memcpy(&bits, &x, sizeof(bits));
        bits += step;
        float neighbour;
        std::memcpy(&neighbour, &bits, sizeof(bits));
        inputs.push_back(neighbour);
      }
  std::mt19937 random(7);
  std::uniform_real_distribution<float> working(-function.range,
                                                function.range);
  for (int i = 0; i < 4096; ++i) {
    uint32_t bits = random();
    float x;
    std::memcpy(&x, &bits, sizeof(x));
    inputs.push_back(x);
    inputs.push_back(working(random));
  }
  while (inputs.size() % 16)
    inputs.push_back(0.5f);
  return inputs;
}

/// A kernel applying math.<function> to `count` f32 elements, `width` at a
/// time.
std::string makeKernel(const Function &function, int64_t width,
                       size_t count) {
  std::string type =
      width == 1 ? "f32" : llvm::formatv("vector<{0}xf32>", width).str();
  std::string load =
      width == 1 ? "memref.load %in[%i] : memref<{1}xf32>"
                 : "vector.load %in[%i] : memref<{1}xf32>, {2}";
  std::string store = width == 1
                          ? "memref.store %r, %out[%i] : memref<{1}xf32>"
                          : "vector.store %r, %out[%i] : memref<{1}xf32>, {2}";
  return llvm::formatv(
             ("func.func @{0}(%in: memref<{1}xf32>, %out: memref<{1}xf32>) {\n"
              "  %c0 = arith.constant 0 : index\n"
              "  %cn = arith.constant {1} : index\n"
              "  %cw = arith.constant {3} : index\n"
              "  scf.for %i = %c0 to %cn step %cw {\n"
              "    %x = " +
              load +
              "\n"
              "    %r = math.{4} %x : {2}\n"
              "    " +
              store +
              "\n"
              "  }\n"
              "  return\n"
              "}\n")
                 .c_str(),
             llvm::formatv("{0}_w{1}", function.name, width).str(), count,
             type, width, function.name)
      .str();
}

/// Orders float bits like the values, so that a difference is a distance
/// in ulps.
int64_t ordered(float x) {
  int32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits < 0 ? -static_cast<int64_t>(bits & 0x7fffffff) - 1 : bits;
}

/// `x` in C's %a form.
std::string hex(float x) {
  char text[32];
  std::snprintf(text, sizeof(text), "%a", x);
  return text;
}

bool sameBits(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return ordered(a) == ordered(b);
}

class ExpandMathTest : public ::testing::Test {
protected:
  ExpandMathTest() {
    context.loadDialect<func::FuncDialect, arith::ArithDialect,
                        math::MathDialect, memref::MemRefDialect,
                        scf::SCFDialect, vector::VectorDialect>();
  }

  std::string diagnostics;
  MLIRContext context;
  ScopedDiagnosticHandler handler{&context, [this](Diagnostic &diagnostic) {
                                    llvm::raw_string_ostream os(diagnostics);
                                    os << diagnostic.getLocation() << ": "
                                       << diagnostic << "\n";
                                    return success();
                                  }};
};

TEST_F(ExpandMathTest, KernelsGiveTheScalarBitsAtEveryWidth) {
  for (const Function &function : kFunctions) {
    std::vector<float> inputs = makeInputs(function);
    Buffer input;
    input.elementType = Float32Type::get(&context);
    input.shape = {static_cast<int64_t>(inputs.size())};
    input.bytes.resize(inputs.size() * sizeof(float), 0);
    std::memcpy(input.bytes.data(), inputs.data(), input.bytes.size());

    for (int64_t width : kWidths) {
      std::string source = makeKernel(function, width, inputs.size());
      OwningOpRef<ModuleOp> module =
          parseSourceString<ModuleOp>(source, &context);
      ASSERT_TRUE(module) << source << diagnostics;
      std::string name = llvm::formatv("{0}_w{1}", function.name, width);
      FailureOr<SmallVector<Buffer>> results =
          runKernelModule(*module, name, {input}, BackendOptions());
      ASSERT_TRUE(succeeded(results)) << name << ": " << diagnostics;
      ASSERT_EQ(results->size(), 1u);
      const auto *got =
          reinterpret_cast<const float *>((*results)[0].bytes.data());
      int mismatches = 0;
      for (size_t i = 0; i < inputs.size() && mismatches < 5; ++i) {
        float expected = function.portable(inputs[i]);
        if (!sameBits(got[i], expected)) {
          ++mismatches;
          ADD_FAILURE() << name << "(" << hex(inputs[i])
                        << "): kernel " << hex(got[i])
                        << ", interpreter "
                        << hex(expected);
        }
      }
    }
  }
}

TEST_F(ExpandMathTest, WithinOneUlpOfTheCorrectlyRoundedResult) {
  for (const Function &function : kFunctions) {
    for (float x : makeInputs(function)) {
      float got = function.portable(x);
      float exact = static_cast<float>(function.reference(x));
      if (std::isnan(exact) || std::isnan(got)) {
        EXPECT_EQ(std::isnan(exact), std::isnan(got))
            << function.name << "(" << hex(x) << ")";
        continue;
      }
      EXPECT_LE(std::llabs(ordered(got) - ordered(exact)), 1)
          << function.name << "(" << hex(x) << ") = "
          << hex(got) << ", correctly rounded "
          << hex(exact);
    }
  }
}

} // namespace
