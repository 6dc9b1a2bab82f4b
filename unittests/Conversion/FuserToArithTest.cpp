//===- FuserToArithTest.cpp - emitted element semantics vs the interpreter ===//
//
// For every elementwise op of ElementwiseOps.def, every cast between the
// fuser element types, where, and every reduction kind, in scalar and
// vector<4 x T> form: a kernel that loads elements from memrefs, calls the
// FuserToArith emitter and stores the result is lowered to LLVM and
// JIT-compiled with mlir::ExecutionEngine, run on special inputs (zeros of
// both signs, infinities, NaN, integer limits, floats beyond the integer
// range, f16/bf16 rounding midpoints and double-rounding traps,
// subnormals), and compared with mlir::fuser::interpret on the equivalent
// fusion: bit for bit (any NaN equals any NaN), within 4 ulp for the
// transcendental ops that call the host libm (exp, log, tanh, erf, sigmoid
// and silu are bit for bit: PortableMath.h). The scalar constant folds of every op are checked on
// the same inputs against the same interpreter results (and must not fold
// in round-toward-zero).
//
// All kernels of one test go into one module, compiled once.
//
//===----------------------------------------------------------------------===//

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "fuser/Dialect/Fuser/IR/ConstantFolding.h"
#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/ExecutionEngine/Buffer.h"
#include "fuser/ExecutionEngine/CPUBackend.h"
#include "fuser/ExecutionEngine/Elements.h"
#include "fuser/Interpreter/Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::detail;

namespace {

//===----------------------------------------------------------------------===//
// Runtime symbols
//===----------------------------------------------------------------------===//

// x86-64 lowers f32 -> bf16 to a call of __truncsfbf2 (without AVX512-BF16),
// which libgcc before GCC 13 lacks; the interpreter's conversion stands in.
// The bf16 result is returned in the low 16 bits of xmm0, as a float's are.
float truncSFToBF16(float value) {
  uint32_t bits = floatToBF16(value);
  return bitCast<float>(&bits);
}
float truncDFToBF16(double value) {
  uint32_t bits = convertTo<ElemKind::BF16>(value);
  return bitCast<float>(&bits);
}

//===----------------------------------------------------------------------===//
// Special inputs
//===----------------------------------------------------------------------===//

const std::vector<double> &specialFloats() {
  static const std::vector<double> values = [] {
    double inf = std::numeric_limits<double>::infinity();
    double nan = std::numeric_limits<double>::quiet_NaN();
    return std::vector<double>{
        0.0, -0.0, inf, -inf, nan, -nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.5,
        3.0, 10.0, 1e-3, 100.25, 0.1, 1.0 / 3, 3.14159, -7.75,
        // f16 range edges.
        65504.0, 65519.99, 65520.0, 1e5,
        // f32 range edges and beyond.
        3e38, 3.4e38, 1e300, -1e300,
        // int32 limits.
        2147483648.0, -2147483648.0, 2147483647.0, 2147483647.5,
        -2147483648.5, -2147483649.0, 2147483520.0,
        // int64 limits.
        9223372036854775808.0, -9223372036854775808.0,
        9223372036854774784.0, 18446744073709551616.0,
        // f16 and bf16 midpoints (ties to even) and just above them.
        1.0 + std::ldexp(1.0, -11), 1.0 + 3 * std::ldexp(1.0, -11),
        1.0 + std::ldexp(1.0, -8), 1.0 + 3 * std::ldexp(1.0, -8),
        // f64 values one rounding through f32 would put on a midpoint.
        1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40),
        -(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)),
        1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40),
        // Subnormals: f32, f64, f16 (2^-24, its half and 1.5 of it), bf16.
        1e-40, std::ldexp(1.0, -149), std::ldexp(1.0, -1074),
        std::ldexp(1.0, -24), std::ldexp(1.0, -25), 3 * std::ldexp(1.0, -26),
        std::ldexp(1.0, -133), std::ldexp(3.0, -135),
        // exp/sigmoid edges.
        88.7, -103.0, 709.0, -20.0,
        // 8-bit float edges: the largest finite magnitudes, the midpoints
        // above them, ties to even and an f64 just above one (nvFuser's
        // rounding through f16 would drop onto it), subnormal ties.
        448.0, 464.0, 480.0, 57344.0, 61440.0, 1.0625, 1.1875, 1.125,
        1.0625 + std::ldexp(1.0, -40), std::ldexp(1.0, -10),
        3 * std::ldexp(1.0, -10), std::ldexp(1.0, -17),
        3 * std::ldexp(1.0, -17)};
  }();
  return values;
}

const std::vector<int64_t> &specialInts() {
  static const std::vector<int64_t> values = {
      0, 1, -1, 2, -2, 3, -3, 7, 10, 31, 32, 63, 64, 100, -100, 65504, 65519,
      65520, 17, 449, 57344, 61440, 131073, (1 << 24) + 1, (1 << 30) + (1 << 22) + 1,
      std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(),
      std::numeric_limits<int32_t>::min() + 1,
      std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
      (int64_t(1) << 53) + 1, (int64_t(1) << 60) + (int64_t(1) << 52) + 1,
      -((int64_t(1) << 60) + (int64_t(1) << 52) + 1),
      (int64_t(1) << 40) + (int64_t(1) << 32) + 1};
  return values;
}

/// The storage bytes of the special values of `type`.
std::vector<std::vector<uint8_t>> specialElements(Type type) {
  std::vector<std::vector<uint8_t>> elements;
  ElemKind kind = *getElemKind(type);
  auto add = [&](auto storage) {
    std::vector<uint8_t> bytes(sizeof(storage));
    std::memcpy(bytes.data(), &storage, sizeof(storage));
    elements.push_back(std::move(bytes));
  };
  visitElemKind(kind, [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    if constexpr (K == ElemKind::I1) {
      add(uint8_t(0));
      add(uint8_t(1));
    } else if constexpr (isFloat8Kind<K>) {
      for (unsigned bits = 0; bits < 256; ++bits)
        add(uint8_t(bits));
    } else if constexpr (isComplexKind<K>) {
      // Every pair of parts from the float specials that steer the complex
      // formulas (zeros, infinities, NaN, ratios above and below 1,
      // subnormals, overflow and exp's edges).
      constexpr ElemKind Part = ComponentKindOf<K>;
      double inf = std::numeric_limits<double>::infinity();
      const double parts[] = {0.0,    -0.0, inf,     -inf,  NAN,
                              1.0,    -1.0, 0.5,     -2.5,  3.14159,
                              1e-40, 3e38, 88.7,    -103.0};
      for (double re : parts)
        for (double im : parts)
          add(StorageOf<K>{convertTo<Part>(re), convertTo<Part>(im)});
    } else if constexpr (isFloatKind<K>) {
      for (double value : specialFloats())
        add(convertTo<K>(value));
    } else {
      for (int64_t value : specialInts())
        add(convertTo<K>(value));
    }
  });
  return elements;
}

unsigned byteWidth(Type type) { return *getElementByteWidth(type); }

/// `elements` padded (repeating the first) to a multiple of 4 and joined.
Buffer makeBuffer(Type elementType,
                  std::vector<std::vector<uint8_t>> elements) {
  while (elements.size() % 4 != 0)
    elements.push_back(elements.front());
  Buffer buffer;
  buffer.elementType = elementType;
  buffer.shape = {static_cast<int64_t>(elements.size())};
  for (const std::vector<uint8_t> &element : elements)
    buffer.bytes.insert(buffer.bytes.end(), element.begin(), element.end());
  return buffer;
}

//===----------------------------------------------------------------------===//
// Printing and comparing elements
//===----------------------------------------------------------------------===//

std::string describeElement(Type type, const uint8_t *bytes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  visitElemKind(*getElemKind(type), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    if constexpr (isComplexKind<K>) {
      Type part = cast<ComplexType>(type).getElementType();
      unsigned width = byteWidth(part);
      os << "(" << describeElement(part, bytes) << ", "
         << describeElement(part, bytes + width) << ")";
    } else {
      uint64_t raw = 0;
      std::memcpy(&raw, bytes, byteWidth(type));
      os << "0x";
      os.write_hex(raw);
      os << " ("
         << static_cast<double>(Elem<K>::load(bitCast<StorageOf<K>>(bytes)))
         << ")";
    }
  });
  return text;
}

bool isNaNElement(Type type, const uint8_t *bytes) {
  bool nan = false;
  visitElemKind(*getElemKind(type), [&](auto tag) {
    constexpr ElemKind K = decltype(tag)::kind;
    if constexpr (isFloatKind<K>)
      nan = std::isnan(Elem<K>::load(bitCast<StorageOf<K>>(bytes)));
  });
  return nan;
}

/// Which elements of `got` differ from `expected`: any bit (but NaN equals
/// NaN), or, with `ulps`, by more than that many ulp.
std::vector<size_t> mismatches(const Buffer &got, const Buffer &expected,
                               std::optional<uint64_t> ulps) {
  std::vector<size_t> indices;
  Type type = expected.elementType;
  unsigned width = byteWidth(type);
  size_t count = expected.bytes.size() / width;
  for (size_t i = 0; i < count; ++i) {
    const uint8_t *a = got.bytes.data() + i * width;
    const uint8_t *b = expected.bytes.data() + i * width;
    if (std::memcmp(a, b, width) == 0 ||
        (isNaNElement(type, a) && isNaNElement(type, b)))
      continue;
    // Complex elements compare part by part (compareBuffers), NaN parts
    // equal.
    if (ulps || isa<ComplexType>(type)) {
      Buffer x, y;
      x.elementType = y.elementType = type;
      x.shape = y.shape = {1};
      x.bytes.assign(a, a + width);
      y.bytes.assign(b, b + width);
      FailureOr<BufferDifference> difference = compareBuffers(x, y);
      if (succeeded(difference) &&
          difference->maxUlpDistance <= ulps.value_or(0))
        continue;
    }
    indices.push_back(i);
  }
  return indices;
}

//===----------------------------------------------------------------------===//
// The harness
//===----------------------------------------------------------------------===//

/// One kernel of a test module: its name, the fusion it must match, the
/// inputs, and the tolerance.
struct Case {
  std::string description;
  std::string kernel;
  func::FuncOp fusion;
  std::vector<Buffer> inputs;
  std::optional<uint64_t> ulps;
  /// The fusion's elementwise op, whose scalar form's constant folds are
  /// checked against the interpreter too (null: no fold check).
  Operation *op = nullptr;
};

/// Builds the body of a kernel for elements at `index`: the loaded inputs
/// (storage types, shaped like one group of `width` elements) to the result.
using EmitFn = std::function<FailureOr<Value>(OpBuilder &, Location,
                                              ValueRange)>;

class FuserToArithTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  }

  FuserToArithTest() {
    DialectRegistry registry;
    registry.insert<FuserDialect, func::FuncDialect, arith::ArithDialect,
                    complex::ComplexDialect, math::MathDialect,
                    scf::SCFDialect, vector::VectorDialect,
                    memref::MemRefDialect, LLVM::LLVMDialect>();
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    OpBuilder builder(&context);
    fusions = ModuleOp::create(builder, UnknownLoc::get(&context));
    kernels = ModuleOp::create(builder, UnknownLoc::get(&context));
  }

  ~FuserToArithTest() override {
    fusions->erase();
    if (kernels)
      kernels->erase();
  }

  Location loc() { return UnknownLoc::get(&context); }

  /// A fusion `(tensor<N x T_k>...) -> tensor<M x R>` whose body `build`
  /// makes from the arguments; the body's ops are created with `builder`.
  func::FuncOp addFusion(
      ArrayRef<Type> inputTypes,
      function_ref<Value(OpBuilder &, ArrayRef<BlockArgument>)> build) {
    OpBuilder builder(&context);
    builder.setInsertionPointToEnd(fusions.getBody());
    auto func = func::FuncOp::create(
        builder, loc(), "fusion" + std::to_string(counter),
        builder.getFunctionType(inputTypes, {}));
    Block *block = func.addEntryBlock();
    builder.setInsertionPointToStart(block);
    Value result = build(builder, block->getArguments());
    func::ReturnOp::create(builder, loc(), result);
    func.setFunctionType(
        builder.getFunctionType(inputTypes, TypeRange{result.getType()}));
    return func;
  }

  /// A kernel `(memref<N x S_k>..., memref<N x R>)` over `count` elements
  /// in groups of `width` (1: scalars, else vector<width x T>); i1 lives in
  /// memory as i8. Returns its name, or failure when `emit` fails.
  FailureOr<std::string> addKernel(ArrayRef<Type> inputElementTypes,
                                   ArrayRef<int64_t> inputCounts,
                                   Type resultElementType, int64_t count,
                                   int64_t width, const EmitFn &emit) {
    OpBuilder builder(&context);
    builder.setInsertionPointToEnd(kernels.getBody());
    auto memoryType = [&](Type element) -> Type {
      return element.isInteger(1) ? builder.getI8Type() : element;
    };
    SmallVector<Type> argTypes;
    for (auto [element, n] : llvm::zip_equal(inputElementTypes, inputCounts))
      argTypes.push_back(MemRefType::get({n}, memoryType(element)));
    argTypes.push_back(MemRefType::get({count}, memoryType(resultElementType)));
    std::string name = "kernel" + std::to_string(counter++);
    auto func = func::FuncOp::create(builder, loc(), name,
                                     builder.getFunctionType(argTypes, {}));
    Block *block = func.addEntryBlock();
    builder.setInsertionPointToStart(block);
    Value lower = arith::ConstantIndexOp::create(builder, loc(), 0);
    Value upper = arith::ConstantIndexOp::create(builder, loc(), count);
    Value step = arith::ConstantIndexOp::create(builder, loc(), width);
    auto loop = scf::ForOp::create(builder, loc(), lower, upper, step);
    builder.setInsertionPointToStart(loop.getBody());
    Value index = loop.getInductionVar();
    auto shaped = [&](Type element) -> Type {
      if (width == 1)
        return element;
      return VectorType::get({width}, element);
    };
    // Input k of a kernel with more elements than the result (reductions)
    // is read at index + k' * count for every k' (see addReductionCase).
    SmallVector<Value> loaded;
    for (auto [k, element] : llvm::enumerate(inputElementTypes)) {
      Value memref = block->getArgument(k);
      for (int64_t row = 0; row < inputCounts[k] / count; ++row) {
        Value at = index;
        if (row != 0)
          at = arith::AddIOp::create(
              builder, loc(), index,
              arith::ConstantIndexOp::create(builder, loc(), row * count));
        Value value =
            width == 1
                ? memref::LoadOp::create(builder, loc(), memref, at).getResult()
                : vector::LoadOp::create(builder, loc(),
                                         cast<VectorType>(shaped(
                                             memoryType(element))),
                                         memref, ValueRange{at})
                      .getResult();
        if (element.isInteger(1))
          value = arith::TruncIOp::create(builder, loc(),
                                          shaped(builder.getI1Type()), value);
        loaded.push_back(value);
      }
    }
    FailureOr<Value> result = emit(builder, loc(), loaded);
    if (failed(result))
      return failure();
    Value stored = *result;
    if (resultElementType.isInteger(1))
      stored = arith::ExtUIOp::create(builder, loc(),
                                      shaped(builder.getI8Type()), stored);
    Value out = block->getArguments().back();
    if (width == 1)
      memref::StoreOp::create(builder, loc(), stored, out, index);
    else
      vector::StoreOp::create(builder, loc(), stored, out, ValueRange{index});
    builder.setInsertionPointToEnd(block);
    func::ReturnOp::create(builder, loc());
    return name;
  }

  /// Adds the kernels (scalar and vector<4>) that apply fusion op `op`
  /// (the only op of `fusion` besides the return) to `inputs`.
  void addOpCase(const std::string &description, func::FuncOp fusion,
                 Operation *op, std::vector<Buffer> inputs) {
    SmallVector<Type> elementTypes;
    SmallVector<int64_t> counts;
    for (const Buffer &input : inputs) {
      elementTypes.push_back(input.elementType);
      counts.push_back(input.shape[0]);
    }
    Type resultType = getElementTypeOrSelf(op->getResult(0).getType());
    std::optional<uint64_t> ulps;
    // The test runs the CPU backend's lowering.
    if (isTranscendentalOp(op, /*onCPU=*/true))
      ulps = 4;
    // No vector holds complex elements: their kernels run one per thread.
    bool complex = isa<ComplexType>(resultType) ||
                   llvm::any_of(elementTypes, llvm::IsaPred<ComplexType>);
    for (int64_t width : {1, 4}) {
      if (complex && width != 1)
        continue;
      FailureOr<std::string> name = addKernel(
          elementTypes, counts, resultType, counts[0], width,
          [&](OpBuilder &b, Location loc, ValueRange operands) {
            return emitElementwise(b, loc, op, operands);
          });
      ASSERT_TRUE(succeeded(name)) << description;
      cases.push_back({description + (width == 1 ? " (scalar)" : " (vector)"),
                       *name, fusion, inputs, ulps, width == 1 ? op : nullptr});
    }
  }

  /// Compiles the kernels, runs each case and compares with the interpreter.
  void runCases() {
    ASSERT_TRUE(succeeded(verify(fusions)));
    ASSERT_TRUE(succeeded(verify(kernels)));
    // The CPU backend's lowering and target machine, but without its
    // f16/bf16 rewrites: what is under test is how LLVM lowers the ops the
    // emitter produces, on a target without host-specific conversions (the
    // GPU's cvt.rn conversions are IEEE's too).
    // As convert-fuser-to-scf does after emitting kernels.
    ASSERT_TRUE(succeeded(expandComplexArithmetic(kernels)));
    PassManager pm(&context);
    buildCPUKernelToLLVMPipeline(pm);
    ASSERT_TRUE(succeeded(pm.run(kernels)));

    auto targetMachine = createCPUBackendTargetMachine();
    ASSERT_TRUE(static_cast<bool>(targetMachine))
        << llvm::toString(targetMachine.takeError());
    ExecutionEngineOptions options;
    auto engine =
        ExecutionEngine::create(kernels, options, std::move(*targetMachine));
    ASSERT_TRUE(static_cast<bool>(engine))
        << llvm::toString(engine.takeError());
    std::vector<std::pair<std::string, void *>> libraryFunctions =
        getOpaqueLibrarySymbols(kernels);
    (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
      llvm::orc::SymbolMap symbols;
      for (const auto &[name, address] : libraryFunctions)
        symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                   llvm::JITSymbolFlags::Exported};
      symbols[interner("__truncsfbf2")] = {
          llvm::orc::ExecutorAddr::fromPtr(&truncSFToBF16),
          llvm::JITSymbolFlags::Exported};
      symbols[interner("__truncdfbf2")] = {
          llvm::orc::ExecutorAddr::fromPtr(&truncDFToBF16),
          llvm::JITSymbolFlags::Exported};
      for (const auto &[name, address] : getDeviceLibraryHostSymbols())
        symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                   llvm::JITSymbolFlags::Exported};
      return symbols;
    });

    for (Case &c : cases) {
      FailureOr<SmallVector<Buffer>> expected = interpret(c.fusion, c.inputs);
      ASSERT_TRUE(succeeded(expected)) << c.description;
      Buffer got = (*expected)[0];
      std::fill(got.bytes.begin(), got.bytes.end(), 0xAB);
      SmallVector<void *> pointers;
      for (Buffer &input : c.inputs)
        pointers.push_back(input.bytes.data());
      pointers.push_back(got.bytes.data());
      SmallVector<void *> args;
      for (void *&pointer : pointers)
        args.push_back(&pointer);
      llvm::Error error = (*engine)->invokePacked(c.kernel, args);
      ASSERT_FALSE(static_cast<bool>(error))
          << c.description << ": " << llvm::toString(std::move(error));
      ++executed;

      if (c.op && (getUnaryKind(c.op) || getBinaryKind(c.op) ||
                   getTernaryKind(c.op) || getCompareKind(c.op) ||
                   isa<CastOp>(c.op)))
        checkFolds(c, (*expected)[0]);
      std::vector<size_t> bad = mismatches(got, (*expected)[0], c.ulps);
      std::string report;
      llvm::raw_string_ostream os(report);
      Type resultType = got.elementType;
      unsigned width = byteWidth(resultType);
      for (size_t i : llvm::ArrayRef(bad).take_front(6)) {
        os << "\n  element " << i << ":";
        for (const Buffer &input : c.inputs) {
          unsigned inWidth = byteWidth(input.elementType);
          size_t perOutput = input.shape[0] / got.shape[0];
          for (size_t row = 0; row < perOutput; ++row)
            os << " "
               << describeElement(input.elementType,
                                  input.bytes.data() +
                                      (i + row * got.shape[0]) * inWidth);
        }
        os << " -> got " << describeElement(resultType,
                                            got.bytes.data() + i * width)
           << ", interpreter "
           << describeElement(resultType,
                              (*expected)[0].bytes.data() + i * width);
      }
      EXPECT_TRUE(bad.empty()) << c.description << ": " << bad.size()
                               << " mismatches" << report;
    }
  }

  /// The constant `bytes` (one element in its storage) of `type`.
  TypedAttr elementAttr(Type type, const uint8_t *bytes) {
    unsigned width = type.getIntOrFloatBitWidth();
    uint64_t bits = 0;
    std::memcpy(&bits, bytes, byteWidth(type));
    APInt value(width == 1 ? 1 : width, width == 1 ? (bits & 1) : bits);
    if (auto floatType = dyn_cast<FloatType>(type))
      return FloatAttr::get(type, APFloat(floatType.getFloatSemantics(), value));
    return IntegerAttr::get(type, value);
  }

  /// The op of `c` on scalar constants, element by element: where it folds
  /// (every exact op in the IEEE default mode) the constant is the
  /// interpreter's element, and in round-toward-zero nothing folds.
  void checkFolds(const Case &c, const Buffer &expected) {
    // Complex constants do not fold (no arith.constant holds one).
    if (isa<ComplexType>(expected.elementType) ||
        llvm::any_of(c.inputs, [](const Buffer &input) {
          return isa<ComplexType>(input.elementType);
        }))
      return;
    OpBuilder b(&context);
    auto scratch = ModuleOp::create(loc());
    b.setInsertionPointToEnd(scratch.getBody());
    unsigned folded = 0;
    Type resultType = expected.elementType;
    // Every element, or an even sample of 4096 (the ternary tables).
    int64_t stride = std::max<int64_t>(1, expected.shape[0] / 4096);
    for (int64_t i = 0; i < expected.shape[0]; i += stride) {
      SmallVector<Value> operands;
      SmallVector<Attribute> attrs;
      for (const Buffer &input : c.inputs) {
        TypedAttr attr = elementAttr(
            input.elementType,
            input.bytes.data() + i * byteWidth(input.elementType));
        attrs.push_back(attr);
        operands.push_back(arith::ConstantOp::create(b, loc(), attr));
      }
      Operation *scalar = b.clone(*c.op);
      scalar->setOperands(operands);
      scalar->getResult(0).setType(resultType);
      // Casts fold with APFloat, so in every mode; the other ops only in
      // the IEEE default one.
      bool isCast = isa<CastOp>(c.op);
      auto fold = [&]() -> Attribute {
        if (isCast)
          return castScalarConstant(attrs[0], resultType);
        return dyn_cast_if_present<Attribute>(
            foldScalarConstants(scalar, attrs));
      };
      Attribute result = fold();
      if (Attribute attr = result) {
        ++folded;
        Buffer one = makeBuffer(resultType, {std::vector<uint8_t>(
                                                expected.bytes.begin() +
                                                    i * byteWidth(resultType),
                                                expected.bytes.begin() +
                                                    (i + 1) * byteWidth(resultType))});
        Buffer fold = makeBuffer(resultType, {attrBytes(attr, resultType)});
        EXPECT_TRUE(mismatches(fold, one, std::nullopt).empty())
            << c.description << ": element " << i << " folds to "
            << describeElement(resultType, fold.bytes.data())
            << ", the interpreter gives "
            << describeElement(resultType, one.bytes.data());
      }
      std::fesetround(FE_TOWARDZERO);
      Attribute inOtherMode = fold();
      std::fesetround(FE_TONEAREST);
      EXPECT_EQ(inOtherMode, isCast ? result : Attribute())
          << c.description << ": element " << i << " in round toward zero";
    }
    EXPECT_EQ(folded > 0, !isTranscendentalOp(c.op) &&
                              !(getBinaryKind(c.op) == BinaryKind::Nextafter &&
                                (resultType.isF16() || resultType.isBF16())))
        << c.description;
    scratch.erase();
  }

  /// The storage bytes of a folded constant.
  static std::vector<uint8_t> attrBytes(Attribute attr, Type type) {
    APInt bits = isa<FloatAttr>(attr)
                     ? cast<FloatAttr>(attr).getValue().bitcastToAPInt()
                     : cast<IntegerAttr>(attr).getValue();
    uint64_t value = bits.getZExtValue();
    std::vector<uint8_t> bytes(byteWidth(type));
    std::memcpy(bytes.data(), &value, bytes.size());
    return bytes;
  }

  MLIRContext context;
  ModuleOp fusions, kernels;
  std::vector<Case> cases;
  unsigned counter = 0;
  unsigned executed = 0;
};

Type tensorOf(Type element, int64_t count) {
  return RankedTensorType::get({count}, element);
}

SmallVector<Type> allTypes(MLIRContext *context) {
  Builder b(context);
  return {b.getI1Type(),
          b.getI32Type(),
          b.getI64Type(),
          b.getF16Type(),
          b.getBF16Type(),
          b.getF32Type(),
          b.getF64Type(),
          ComplexType::get(b.getF32Type()),
          ComplexType::get(b.getF64Type())};
}

/// allTypes and the 8-bit floats, which only move and cast.
SmallVector<Type> castTypes(MLIRContext *context) {
  Builder b(context);
  SmallVector<Type> types = allTypes(context);
  types.append({b.getType<Float8E4M3FNType>(), b.getType<Float8E5M2Type>()});
  return types;
}

std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// The two operand buffers holding every pair of special values.
std::pair<Buffer, Buffer> allPairs(Type type) {
  std::vector<std::vector<uint8_t>> values = specialElements(type), lhs, rhs;
  for (const auto &a : values)
    for (const auto &b : values) {
      lhs.push_back(a);
      rhs.push_back(b);
    }
  return {makeBuffer(type, lhs), makeBuffer(type, rhs)};
}

//===----------------------------------------------------------------------===//
// Tests
//===----------------------------------------------------------------------===//

TEST_F(FuserToArithTest, UnaryOps) {
  for (Type type : allTypes(&context)) {
    for (unsigned k = 0; k < kNumUnaryKinds; ++k) {
      auto kind = static_cast<UnaryKind>(k);
      if (!isInOperandClass(type, getOpInfo(kind).operands))
        continue; // The verifier rejects these operands.
      Buffer input = makeBuffer(type, specialElements(type));
      Operation *op = nullptr;
      func::FuncOp fusion = addFusion(
          {tensorOf(type, input.shape[0])},
          [&](OpBuilder &b, ArrayRef<BlockArgument> args) {
            Value result = buildUnaryOp(b, loc(), kind, args[0]);
            op = result.getDefiningOp();
            return result;
          });
      addOpCase(getOpInfo(kind).mnemonic.str() + " " + typeName(type), fusion,
                op, {input});
    }
  }
  runCases();
  EXPECT_EQ(executed, cases.size());
}

TEST_F(FuserToArithTest, BinaryOps) {
  for (Type type : allTypes(&context)) {
    for (unsigned k = 0; k < kNumBinaryKinds; ++k) {
      auto kind = static_cast<BinaryKind>(k);
      if (!isInOperandClass(type, getOpInfo(kind).operands))
        continue;
      auto [lhs, rhs] = allPairs(type);
      Operation *op = nullptr;
      func::FuncOp fusion = addFusion(
          {tensorOf(type, lhs.shape[0]), tensorOf(type, rhs.shape[0])},
          [&](OpBuilder &b, ArrayRef<BlockArgument> args) {
            Value result = buildBinaryOp(b, loc(), kind, args[0], args[1]);
            op = result.getDefiningOp();
            return result;
          });
      addOpCase(getOpInfo(kind).mnemonic.str() + " " + typeName(type), fusion,
                op, {lhs, rhs});
    }
  }
  runCases();
}

TEST_F(FuserToArithTest, TernaryOps) {
  for (Type type : allTypes(&context)) {
    for (unsigned k = 0; k < kNumTernaryKinds; ++k) {
      auto kind = static_cast<TernaryKind>(k);
      if (!isInOperandClass(type, getOpInfo(kind).operands))
        continue;
      // Every triple of special values.
      std::vector<std::vector<uint8_t>> values = specialElements(type);
      std::vector<std::vector<uint8_t>> first, second, third;
      for (const auto &a : values)
        for (const auto &b : values)
          for (const auto &c : values) {
            first.push_back(a);
            second.push_back(b);
            third.push_back(c);
          }
      std::vector<Buffer> inputs = {makeBuffer(type, first),
                                    makeBuffer(type, second),
                                    makeBuffer(type, third)};
      int64_t count = inputs[0].shape[0];
      Operation *op = nullptr;
      func::FuncOp fusion = addFusion(
          {tensorOf(type, count), tensorOf(type, count), tensorOf(type, count)},
          [&](OpBuilder &b, ArrayRef<BlockArgument> args) {
            Value result =
                buildTernaryOp(b, loc(), kind, args[0], args[1], args[2]);
            op = result.getDefiningOp();
            return result;
          });
      addOpCase(getOpInfo(kind).mnemonic.str() + " " + typeName(type), fusion,
                op, inputs);
    }
  }
  runCases();
  EXPECT_EQ(executed, cases.size());
}

TEST_F(FuserToArithTest, CompareOps) {
  for (Type type : allTypes(&context)) {
    for (unsigned k = 0; k < kNumCompareKinds; ++k) {
      auto kind = static_cast<CompareKind>(k);
      if (isa<ComplexType>(type) && !comparesComplex(kind))
        continue; // Complex elements have no order.
      auto [lhs, rhs] = allPairs(type);
      Operation *op = nullptr;
      func::FuncOp fusion = addFusion(
          {tensorOf(type, lhs.shape[0]), tensorOf(type, rhs.shape[0])},
          [&](OpBuilder &b, ArrayRef<BlockArgument> args) {
            Value result = buildCompareOp(b, loc(), kind, args[0], args[1]);
            op = result.getDefiningOp();
            return result;
          });
      addOpCase(getOpInfo(kind).mnemonic.str() + " " + typeName(type), fusion,
                op, {lhs, rhs});
    }
  }
  runCases();
}

TEST_F(FuserToArithTest, Casts) {
  for (Type from : castTypes(&context)) {
    for (Type to : castTypes(&context)) {
      Buffer input = makeBuffer(from, specialElements(from));
      Operation *op = nullptr;
      func::FuncOp fusion = addFusion(
          {tensorOf(from, input.shape[0])},
          [&](OpBuilder &b, ArrayRef<BlockArgument> args) {
            op = CastOp::create(b, loc(), tensorOf(to, input.shape[0]),
                                args[0]);
            return op->getResult(0);
          });
      addOpCase("cast " + typeName(from) + " -> " + typeName(to), fusion, op,
                {input});
    }
  }
  runCases();
}

/// Integer inputs cast to floats, where integers of the other width do not
/// reach: i64 values near bf16/f16 midpoints that one rounding through f64
/// would get wrong.
TEST_F(FuserToArithTest, WideIntegerToHalfCasts) {
  Builder b(&context);
  std::vector<std::vector<uint8_t>> elements;
  for (int shift = 53; shift < 63; ++shift)
    for (int64_t sign : {1, -1})
      for (int64_t low : {int64_t(1), int64_t(0x7ff), int64_t(0x400)}) {
        // Just above a bf16 midpoint: 2^s + 2^(s-8) + low.
        int64_t value =
            sign * ((int64_t(1) << shift) + (int64_t(1) << (shift - 8)) + low);
        std::vector<uint8_t> bytes(8);
        std::memcpy(bytes.data(), &value, 8);
        elements.push_back(bytes);
      }
  Buffer input = makeBuffer(b.getI64Type(), elements);
  for (Type to : {b.getBF16Type(), b.getF16Type(), b.getF32Type()}) {
    Operation *op = nullptr;
    func::FuncOp fusion =
        addFusion({tensorOf(b.getI64Type(), input.shape[0])},
                  [&](OpBuilder &builder, ArrayRef<BlockArgument> args) {
                    op = CastOp::create(builder, loc(),
                                        tensorOf(to, input.shape[0]), args[0]);
                    return op->getResult(0);
                  });
    addOpCase("cast i64 -> " + typeName(to), fusion, op, {input});
  }
  runCases();
}

TEST_F(FuserToArithTest, Where) {
  for (Type type : castTypes(&context)) {
    Buffer values = makeBuffer(type, specialElements(type));
    Buffer others = values;
    std::rotate(others.bytes.begin(),
                others.bytes.begin() + byteWidth(type), others.bytes.end());
    Buffer condition;
    condition.elementType = IntegerType::get(&context, 1);
    condition.shape = values.shape;
    for (int64_t i = 0; i < values.shape[0]; ++i)
      condition.bytes.push_back((i * 7 / 3) % 2);
    Operation *op = nullptr;
    int64_t n = values.shape[0];
    func::FuncOp fusion = addFusion(
        {tensorOf(condition.elementType, n), tensorOf(type, n),
         tensorOf(type, n)},
        [&](OpBuilder &b, ArrayRef<BlockArgument> args) {
          op = WhereOp::create(b, loc(), args[0], args[1], args[2]);
          return op->getResult(0);
        });
    addOpCase("where " + typeName(type), fusion, op,
              {condition, values, others});
  }
  runCases();
}

/// Every pair of special values reduced (rows 0 and 1 of a [2, N] source
/// over dim 0): identity, then combine in the compute type, then rounding.
/// A column of two -0.0 checks the float add identity (-0.0).
TEST_F(FuserToArithTest, Reductions) {
  for (Type type : allTypes(&context)) {
    if (type.isInteger(1))
      continue;
    auto [first, second] = allPairs(type);
    int64_t n = first.shape[0];
    Buffer source = first;
    source.shape = {2 * n};
    source.bytes.insert(source.bytes.end(), second.bytes.begin(),
                        second.bytes.end());
    Type compute = getComputeType(type);
    for (ReductionKind kind : {ReductionKind::Add, ReductionKind::Mul,
                               ReductionKind::Max, ReductionKind::Min}) {
      if (isa<ComplexType>(type) && kind != ReductionKind::Add)
        continue; // Complex elements reduce with add only.
      // The interpreter's fusion reads the source as [2, N].
      func::FuncOp fusion = addFusion(
          {tensorOf(type, 2 * n)},
          [&](OpBuilder &b, ArrayRef<BlockArgument> args) {
            Value matrix = ViewOp::create(
                b, loc(), RankedTensorType::get({2, n}, type), args[0]);
            return ReductionOp::create(b, loc(), kind, matrix,
                                       ArrayRef<int64_t>{0})
                .getResult();
          });
      std::string description = "reduction " +
                                stringifyReductionKind(kind).str() + " " +
                                typeName(type);
      for (int64_t width : {1, 4}) {
        if (isa<ComplexType>(type) && width != 1)
          continue;
        FailureOr<std::string> name = addKernel(
            {type}, {2 * n}, type, n, width,
            [&](OpBuilder &b, Location loc, ValueRange rows) -> Value {
              Type shapedCompute =
                  width == 1 ? compute : VectorType::get({width}, compute);
              Value acc = emitReductionIdentity(b, loc, kind, shapedCompute);
              for (Value row : rows)
                acc = emitReductionCombine(b, loc, kind, acc,
                                           emitCast(b, loc, row, compute));
              return emitCast(b, loc, acc, type);
            });
        ASSERT_TRUE(succeeded(name));
        cases.push_back(
            {description + (width == 1 ? " (scalar)" : " (vector)"), *name,
             fusion, {source}, std::nullopt});
      }
    }
  }
  runCases();
}

/// The identities themselves, bit for bit (float add is -0.0).
TEST_F(FuserToArithTest, ReductionIdentities) {
  OpBuilder b(&context);
  struct Expected {
    Type type;
    ReductionKind kind;
    uint64_t bits;
  };
  std::vector<Expected> expected = {
      {b.getF32Type(), ReductionKind::Add, 0x80000000},
      {b.getF64Type(), ReductionKind::Add, 0x8000000000000000},
      {b.getF32Type(), ReductionKind::Mul, 0x3f800000},
      {b.getF32Type(), ReductionKind::Max, 0xff800000},
      {b.getF64Type(), ReductionKind::Min, 0x7ff0000000000000},
      {b.getI32Type(), ReductionKind::Add, 0},
      {b.getI32Type(), ReductionKind::Max, 0x80000000},
      {b.getI64Type(), ReductionKind::Min, 0x7fffffffffffffff},
      {b.getI64Type(), ReductionKind::Mul, 1},
  };
  for (const Expected &e : expected) {
    for (Type type : {e.type, Type(VectorType::get({4}, e.type))}) {
      Value identity = emitReductionIdentity(b, loc(), e.kind, type);
      auto constant = identity.getDefiningOp<arith::ConstantOp>();
      ASSERT_TRUE(constant);
      EXPECT_EQ(constant.getType(), type);
      Attribute value = constant.getValue();
      if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
        ASSERT_TRUE(dense.isSplat());
        value = dense.getSplatValue<Attribute>();
      }
      uint64_t bits =
          isa<FloatAttr>(value)
              ? cast<FloatAttr>(value).getValue().bitcastToAPInt().getZExtValue()
              : cast<IntegerAttr>(value).getValue().getZExtValue();
      EXPECT_EQ(bits, e.bits) << stringifyReductionKind(e.kind).str() << " "
                              << typeName(type);
      constant->erase();
    }
  }
}

/// Ops the emitter does not lower give a diagnostic on the op and failure.
TEST_F(FuserToArithTest, UnsupportedOpsFail) {
  OpBuilder b(&context);
  Type f32 = b.getF32Type();
  std::vector<std::string> diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    diagnostics.push_back(diagnostic.str());
    return success();
  });
  func::FuncOp fusion = addFusion(
      {tensorOf(f32, 4), tensorOf(b.getI1Type(), 4)},
      [&](OpBuilder &builder, ArrayRef<BlockArgument> args) {
        Value sum = ReductionOp::create(builder, loc(), ReductionKind::Add,
                                        args[0], ArrayRef<int64_t>{0})
                        .getResult();
        // Arithmetic on i1, which the verifier would reject.
        buildUnaryOp(builder, loc(), UnaryKind::Neg, args[1]);
        return sum;
      });
  Block &body = fusion.getBody().front();
  Operation *reduction = &body.front();
  Operation *negI1 = reduction->getNextNode();
  b.setInsertionPointToEnd(kernels.getBody());
  Value scalar = arith::ConstantOp::create(b, loc(), b.getF32FloatAttr(1));
  Value flag = arith::ConstantOp::create(b, loc(), b.getBoolAttr(true));

  EXPECT_TRUE(failed(emitElementwise(b, loc(), reduction, {scalar})));
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].find("not an elementwise fuser op"),
            std::string::npos)
      << diagnostics[0];
  EXPECT_TRUE(failed(emitElementwise(b, loc(), negI1, {flag})));
  ASSERT_EQ(diagnostics.size(), 2u);
  EXPECT_NE(diagnostics[1].find("i1"), std::string::npos) << diagnostics[1];
  // A float-only op on integers, and a wrong operand count.
  Value integer = arith::ConstantOp::create(b, loc(), b.getI32IntegerAttr(1));
  func::FuncOp other = addFusion(
      {tensorOf(b.getI32Type(), 4)},
      [&](OpBuilder &builder, ArrayRef<BlockArgument> args) {
        return buildUnaryOp(builder, loc(), UnaryKind::Exp, args[0]);
      });
  Operation *expI32 = &other.getBody().front().front();
  EXPECT_TRUE(failed(emitElementwise(b, loc(), expI32, {integer})));
  EXPECT_TRUE(failed(emitElementwise(b, loc(), expI32, {integer, integer})));
  EXPECT_EQ(diagnostics.size(), 4u);
}

} // namespace
