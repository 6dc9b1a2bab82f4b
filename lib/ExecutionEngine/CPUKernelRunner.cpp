//===- CPUKernelRunner.cpp - kernel modules JIT-compiled for the host -----===//
//
// The bottom layer of the `cpu` backend: a module in the shared-lowering form
// of docs/Lowering.md (host functions on static identity-layout memrefs, in
// destination-passing style, with one `scf.parallel` nest per kernel) is
// cloned, lowered to the LLVM dialect, JIT-compiled with mlir::ExecutionEngine
// and called through its packed wrapper with one pointer per memref (the
// bare-pointer calling convention) and scalars by value.
//
// Before the upstream passes, two rewrites make the host run exact and
// self-contained:
// - no f16/bf16 arithmetic or conversion reaches LLVM: bf16 -> f32 is a
//   16-bit shift and f32 -> bf16 the interpreter's integer rounding, both
//   emitted as arith ops (vectors stay vectors); f16 <-> f32, f64 -> f16/bf16
//   and integer -> f16/bf16 call helpers registered with the engine that are
//   the interpreter's own conversions (Elements.h), element by element; any
//   other arith/math op on f16/bf16 is computed in f32 and rounded once, as
//   the interpreter does. So the results do not depend on the host's F16C,
//   AVX512-BF16 (which flushes subnormals) or libgcc conversion routines.
// - what is left of f16/bf16 then (loads, stores, lane moves) moves as i16,
//   which x86 loads and stores as whole vectors (moveHalfBitsAsI16).
// - memref.copy between non-identity layouts (alias segments) becomes a loop
//   nest, since its library call (memrefCopy) lives in a runtime library
//   that this process does not load.
// - a gpu.barrier at the start of a thread loop in a block loop is dropped:
//   the host runs a block's thread loops one after another.
// - each kernel's block loop is outlined (fuser-cpu-outline-block-loops) and
//   called through `__fuser_run_blocks`, which runs ranges of blocks on the
//   run's threads (CPUThreads.h, BackendOptions::numThreads); shared memory
//   becomes a buffer per range.
// - memref arguments with a zero extent take static strides, which the
//   bare-pointer convention needs (docs/Lowering.md, "Tensors without
//   elements").
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CPUBackend.h"
#include "fuser/Conversion/LibraryCall.h"
#include "fuser/Conversion/Passes.h"
#include "fuser/Dialect/Fuser/IR/ElementSemantics.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "fuser/ExecutionEngine/CPUThreads.h"
#include "fuser/ExecutionEngine/Elements.h"
#include "fuser/ExecutionEngine/FloatingPointEnvironment.h"
#include "fuser/ExecutionEngine/LibraryCalls.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

#include <cstdlib>
#include <mutex>

using namespace mlir;
using namespace mlir::fuser;

//===----------------------------------------------------------------------===//
// Host helpers the kernels call: the interpreter's conversions
//===----------------------------------------------------------------------===//

namespace {
/// The JIT's name of host function `name`.
std::string getJITSymbolName(StringRef name) {
  return ("__fuser_host_" + name).str();
}

namespace elements = mlir::fuser::detail;
using elements::ElemKind;

uint16_t f32ToF16(float value) { return elements::floatToHalf(value); }
float f16ToF32(uint16_t bits) { return elements::halfToFloat(bits); }
uint16_t f64ToF16(double value) {
  return elements::convertTo<ElemKind::F16>(value);
}
uint16_t f64ToBF16(double value) {
  return elements::convertTo<ElemKind::BF16>(value);
}
uint16_t i64ToF16(int64_t value) {
  return elements::convertTo<ElemKind::F16>(value);
}
uint16_t i64ToBF16(int64_t value) {
  return elements::convertTo<ElemKind::BF16>(value);
}

/// An unsigned 64-bit integer rounded once to `semantics`.
uint16_t u64ToHalfBits(uint64_t value, const llvm::fltSemantics &semantics) {
  llvm::APFloat result(semantics);
  result.convertFromAPInt(llvm::APInt(64, value), /*IsSigned=*/false,
                          llvm::APFloat::rmNearestTiesToEven);
  return static_cast<uint16_t>(result.bitcastToAPInt().getZExtValue());
}
uint16_t u64ToF16(uint64_t value) {
  return u64ToHalfBits(value, llvm::APFloat::IEEEhalf());
}
uint16_t u64ToBF16(uint64_t value) {
  return u64ToHalfBits(value, llvm::APFloat::BFloat());
}

#if defined(__x86_64__)
// LLVM's own conversion libcalls, for the f16/bf16 conversions that LLVM
// itself introduces after the rewrite below (e.g. InstCombine turns a select
// between bf16 constants into `uitofp i1 to bfloat`, which x86 lowers
// through `__truncsfbf2`). On x86-64 LLVM passes and returns f16/bf16 in the
// low 16 bits of an XMM register, as a float is passed: these take and
// return floats whose low 16 bits are the half value. They are the
// interpreter's conversions, like the helpers below.
float halfBitsInFloat(uint16_t bits) {
  uint32_t word = bits;
  return elements::bitCast<float>(&word);
}
uint16_t halfBitsOfFloat(float value) {
  return static_cast<uint16_t>(elements::bitCast<uint32_t>(&value));
}
float libcallTruncSFHF2(float value) {
  return halfBitsInFloat(elements::floatToHalf(value));
}
float libcallTruncDFHF2(double value) {
  return halfBitsInFloat(elements::convertTo<ElemKind::F16>(value));
}
float libcallTruncSFBF2(float value) {
  return halfBitsInFloat(elements::floatToBF16(value));
}
float libcallTruncDFBF2(double value) {
  return halfBitsInFloat(elements::convertTo<ElemKind::BF16>(value));
}
float libcallExtendHFSF2(float half) {
  return elements::halfToFloat(halfBitsOfFloat(half));
}
double libcallExtendHFDF2(float half) {
  return elements::halfToFloat(halfBitsOfFloat(half));
}
float libcallExtendBFSF2(float bf16) {
  return elements::bf16ToFloat(halfBitsOfFloat(bf16));
}

const std::pair<const char *, void *> kLibcallTable[] = {
    {"__truncsfhf2", reinterpret_cast<void *>(&libcallTruncSFHF2)},
    {"__gnu_f2h_ieee", reinterpret_cast<void *>(&libcallTruncSFHF2)},
    {"__truncdfhf2", reinterpret_cast<void *>(&libcallTruncDFHF2)},
    {"__truncsfbf2", reinterpret_cast<void *>(&libcallTruncSFBF2)},
    {"__truncdfbf2", reinterpret_cast<void *>(&libcallTruncDFBF2)},
    {"__extendhfsf2", reinterpret_cast<void *>(&libcallExtendHFSF2)},
    {"__gnu_h2f_ieee", reinterpret_cast<void *>(&libcallExtendHFSF2)},
    {"__extendhfdf2", reinterpret_cast<void *>(&libcallExtendHFDF2)},
    {"__extendbfsf2", reinterpret_cast<void *>(&libcallExtendBFSF2)},
};
#endif

const std::pair<const char *, void *> kDeviceLibraryHostSymbols[] = {
    {"__nv_erfinvf",
     reinterpret_cast<void *>(static_cast<float (*)(float)>(
         &semantics::hostErfinvf))},
    {"__nv_erfinv", reinterpret_cast<void *>(static_cast<double (*)(double)>(
                        &semantics::hostErfinv))},
    {"__nv_erfcinvf",
     reinterpret_cast<void *>(static_cast<float (*)(float)>(
         &semantics::hostErfcinvf))},
    {"__nv_erfcinv", reinterpret_cast<void *>(static_cast<double (*)(double)>(
                         &semantics::hostErfcinv))},
    {"__nv_lgammaf",
     reinterpret_cast<void *>(static_cast<float (*)(float)>(&::lgammaf))},
    {"__nv_lgamma",
     reinterpret_cast<void *>(static_cast<double (*)(double)>(&::lgamma))},
    {"__nv_expm1f",
     reinterpret_cast<void *>(static_cast<float (*)(float)>(&::expm1f))},
    {"__nv_expm1",
     reinterpret_cast<void *>(static_cast<double (*)(double)>(&::expm1))},
    {"__nv_log1pf",
     reinterpret_cast<void *>(static_cast<float (*)(float)>(&::log1pf))},
    {"__nv_log1p",
     reinterpret_cast<void *>(static_cast<double (*)(double)>(&::log1p))},
    {"__nv_fmodf", reinterpret_cast<void *>(
                       static_cast<float (*)(float, float)>(&::fmodf))},
    {"__nv_fmod", reinterpret_cast<void *>(
                      static_cast<double (*)(double, double)>(&::fmod))},
};

/// The gather index out of range reported on this thread by the run in
/// progress (convert-fuser-to-scf{check-indices}): the one at the smallest
/// result element, so that the error names the same index whatever order
/// the kernel's loops run in.
struct IndexOutOfRange {
  bool reported = false;
  int64_t check, index, extent, dim, element;
};
thread_local IndexOutOfRange indexOutOfRange;

/// Keeps in `first` whichever of the two reports comes first.
void keepFirst(IndexOutOfRange &first, const IndexOutOfRange &other) {
  if (!other.reported ||
      (first.reported && std::make_pair(first.element, first.check) <=
                             std::make_pair(other.element, other.check)))
    return;
  first = other;
}

void reportIndexOutOfRange(int64_t check, int64_t index, int64_t extent,
                           int64_t dim, int64_t element) {
  keepFirst(indexOutOfRange, {true, check, index, extent, dim, element});
}

/// __fuser_run_blocks (fuser-cpu-dispatch-block-loops): the kernel's blocks
/// [0, blocks) in ranges on the run's threads. Each range runs in the IEEE
/// default floating-point environment, as the caller does, and its index
/// reports are merged into the caller's by the same first-element rule.
void runBlocks(void (*thunk)(void *, int64_t, int64_t), void *context,
               int64_t blocks) {
  std::mutex mutex;
  IndexOutOfRange first = indexOutOfRange;
  runOnThreads(getRunThreads(), blocks, [&](int64_t begin, int64_t end) {
    ScopedDefaultFloatingPointEnvironment environment;
    IndexOutOfRange outer = std::exchange(indexOutOfRange, {});
    thunk(context, begin, end);
    IndexOutOfRange reported = std::exchange(indexOutOfRange, outer);
    if (!reported.reported)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    keepFirst(first, reported);
  });
  indexOutOfRange = first;
}

/// One registered helper: its symbol, address and MLIR signature.
struct HostHelper {
  const char *name;
  void *address;
  enum Arg { I16, F32, F64, I64 } arg, result;
};

const HostHelper kHelpers[] = {
    {"__fuser_f32_to_f16", reinterpret_cast<void *>(&f32ToF16),
     HostHelper::F32, HostHelper::I16},
    {"__fuser_f16_to_f32", reinterpret_cast<void *>(&f16ToF32),
     HostHelper::I16, HostHelper::F32},
    {"__fuser_f64_to_f16", reinterpret_cast<void *>(&f64ToF16),
     HostHelper::F64, HostHelper::I16},
    {"__fuser_f64_to_bf16", reinterpret_cast<void *>(&f64ToBF16),
     HostHelper::F64, HostHelper::I16},
    {"__fuser_i64_to_f16", reinterpret_cast<void *>(&i64ToF16),
     HostHelper::I64, HostHelper::I16},
    {"__fuser_i64_to_bf16", reinterpret_cast<void *>(&i64ToBF16),
     HostHelper::I64, HostHelper::I16},
    {"__fuser_u64_to_f16", reinterpret_cast<void *>(&u64ToF16),
     HostHelper::I64, HostHelper::I16},
    {"__fuser_u64_to_bf16", reinterpret_cast<void *>(&u64ToBF16),
     HostHelper::I64, HostHelper::I16},
};

Type getHelperType(MLIRContext *context, HostHelper::Arg arg) {
  switch (arg) {
  case HostHelper::I16:
    return IntegerType::get(context, 16);
  case HostHelper::F32:
    return Float32Type::get(context);
  case HostHelper::F64:
    return Float64Type::get(context);
  case HostHelper::I64:
    break;
  }
  return IntegerType::get(context, 64);
}

//===----------------------------------------------------------------------===//
// f16/bf16 rewrite
//===----------------------------------------------------------------------===//

bool isHalfElement(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

/// `type` (a scalar or a vector) with element type `element`.
Type withElementType(Type type, Type element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(element);
  return element;
}

class HalfRewriter {
public:
  explicit HalfRewriter(ModuleOp module) : module(module) {}

  LogicalResult run();

private:
  /// Declares (once) and returns the helper called `name`.
  func::FuncOp getHelper(StringRef name);

  /// Applies helper `name` to every element of `value` (scalar or vector,
  /// already in the helper's argument type), giving elements of `result`.
  FailureOr<Value> callPerElement(OpBuilder &builder, Location loc,
                                  StringRef name, Value value,
                                  Type resultElement);

  /// `value` (f16/bf16 elements) widened exactly to f32.
  FailureOr<Value> extendToF32(OpBuilder &builder, Location loc, Value value);
  /// `value` (f32/f64 elements) rounded once to `half` (f16 or bf16).
  FailureOr<Value> truncateToHalf(OpBuilder &builder, Location loc,
                                  Value value, Type half);
  /// `value` (integer elements, signed or not) rounded once to `half`.
  FailureOr<Value> integerToHalf(OpBuilder &builder, Location loc,
                                 Value value, Type half, bool isSigned);

  LogicalResult rewrite(Operation *op);

  ModuleOp module;
};

func::FuncOp HalfRewriter::getHelper(StringRef name) {
  if (auto func = module.lookupSymbol<func::FuncOp>(name))
    return func;
  const HostHelper *helper = llvm::find_if(
      kHelpers, [&](const HostHelper &h) { return name == h.name; });
  assert(helper != std::end(kHelpers) && "unknown helper");
  MLIRContext *context = module.getContext();
  auto type = FunctionType::get(context, getHelperType(context, helper->arg),
                                getHelperType(context, helper->result));
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto func = func::FuncOp::create(builder, module.getLoc(), name, type);
  func.setPrivate();
  return func;
}

FailureOr<Value> HalfRewriter::callPerElement(OpBuilder &builder, Location loc,
                                              StringRef name, Value value,
                                              Type resultElement) {
  func::FuncOp helper = getHelper(name);
  auto vector = dyn_cast<VectorType>(value.getType());
  if (!vector)
    return func::CallOp::create(builder, loc, helper, value).getResult(0);
  if (vector.isScalable())
    return emitError(loc) << "the CPU backend cannot convert the scalable "
                          << vector << " to or from f16/bf16";
  SmallVector<Value> elements;
  SmallVector<int64_t> position(vector.getRank(), 0);
  int64_t count = vector.getNumElements();
  for (int64_t i = 0; i < count; ++i) {
    // Row-major positions: the innermost index moves fastest.
    int64_t rest = i;
    for (int64_t d = vector.getRank() - 1; d >= 0; --d) {
      position[d] = rest % vector.getDimSize(d);
      rest /= vector.getDimSize(d);
    }
    Value element = vector::ExtractOp::create(builder, loc, value, position);
    elements.push_back(
        func::CallOp::create(builder, loc, helper, element).getResult(0));
  }
  return vector::FromElementsOp::create(builder, loc,
                                        vector.clone(resultElement), elements)
      .getResult();
}

FailureOr<Value> HalfRewriter::extendToF32(OpBuilder &builder, Location loc,
                                           Value value) {
  Type type = value.getType();
  Type i16 = builder.getI16Type();
  Type f32 = builder.getF32Type();
  Value bits =
      arith::BitcastOp::create(builder, loc, withElementType(type, i16), value);
  if (getElementTypeOrSelf(type).isF16()) {
    FailureOr<Value> result =
        callPerElement(builder, loc, "__fuser_f16_to_f32", bits, f32);
    return result;
  }
  // bf16 -> f32 is exact: the bf16 bits are the top half of the f32 bits.
  Type i32Type = withElementType(type, builder.getI32Type());
  Value wide = arith::ExtUIOp::create(builder, loc, i32Type, bits);
  Value sixteen = arith::ConstantOp::create(
      builder, loc, i32Type,
      isa<VectorType>(type)
          ? cast<TypedAttr>(DenseElementsAttr::get(
                cast<ShapedType>(i32Type), builder.getI32IntegerAttr(16)))
          : cast<TypedAttr>(builder.getI32IntegerAttr(16)));
  Value shifted = arith::ShLIOp::create(builder, loc, wide, sixteen);
  return arith::BitcastOp::create(builder, loc, withElementType(type, f32),
                                  shifted)
      .getResult();
}

/// A constant of `type` (i32 scalar or vector) holding `value` everywhere.
Value i32Constant(OpBuilder &builder, Location loc, Type type, int64_t value) {
  TypedAttr attr = builder.getI32IntegerAttr(static_cast<int32_t>(value));
  if (auto shaped = dyn_cast<ShapedType>(type))
    attr = DenseElementsAttr::get(shaped, attr);
  return arith::ConstantOp::create(builder, loc, type, attr);
}

FailureOr<Value> HalfRewriter::truncateToHalf(OpBuilder &builder, Location loc,
                                              Value value, Type half) {
  Type type = value.getType();
  Type source = getElementTypeOrSelf(type);
  Type i16Type = withElementType(type, builder.getI16Type());
  Type halfType = withElementType(type, half);
  if (source.isF64() || half.isF16()) {
    StringRef name = source.isF64()
                         ? (half.isF16() ? "__fuser_f64_to_f16"
                                         : "__fuser_f64_to_bf16")
                         : "__fuser_f32_to_f16";
    FailureOr<Value> bits =
        callPerElement(builder, loc, name, value, builder.getI16Type());
    if (failed(bits))
      return failure();
    return arith::BitcastOp::create(builder, loc, halfType, *bits).getResult();
  }
  if (!source.isF32())
    return emitError(loc) << "the CPU backend cannot round " << source
                          << " to " << half;
  // f32 -> bf16, as floatToBF16 in Elements.h: NaN keeps its top bits and
  // becomes quiet; anything else rounds the low 16 bits to nearest even.
  Type i32Type = withElementType(type, builder.getI32Type());
  Value bits = arith::BitcastOp::create(builder, loc, i32Type, value);
  Value magnitude = arith::AndIOp::create(
      builder, loc, bits, i32Constant(builder, loc, i32Type, 0x7fffffff));
  Value isNaN = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::ugt, magnitude,
      i32Constant(builder, loc, i32Type, 0x7f800000));
  Value high = arith::ShRUIOp::create(builder, loc, bits,
                                      i32Constant(builder, loc, i32Type, 16));
  Value quiet = arith::OrIOp::create(builder, loc, high,
                                     i32Constant(builder, loc, i32Type, 0x40));
  Value lsb = arith::AndIOp::create(builder, loc, high,
                                    i32Constant(builder, loc, i32Type, 1));
  Value bias = arith::AddIOp::create(
      builder, loc, lsb, i32Constant(builder, loc, i32Type, 0x7fff));
  Value rounded = arith::ShRUIOp::create(
      builder, loc, arith::AddIOp::create(builder, loc, bits, bias),
      i32Constant(builder, loc, i32Type, 16));
  Value chosen = arith::SelectOp::create(builder, loc, isNaN, quiet, rounded);
  Value narrow = arith::TruncIOp::create(builder, loc, i16Type, chosen);
  return arith::BitcastOp::create(builder, loc, halfType, narrow).getResult();
}

FailureOr<Value> HalfRewriter::integerToHalf(OpBuilder &builder, Location loc,
                                             Value value, Type half,
                                             bool isSigned) {
  Type type = value.getType();
  unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  Type i64Type = withElementType(type, builder.getI64Type());
  bool unsigned64 = !isSigned && width == 64;
  if (width < 64)
    value = isSigned
                ? arith::ExtSIOp::create(builder, loc, i64Type, value)
                      .getResult()
                : arith::ExtUIOp::create(builder, loc, i64Type, value)
                      .getResult();
  StringRef name = half.isF16()
                       ? (unsigned64 ? "__fuser_u64_to_f16"
                                     : "__fuser_i64_to_f16")
                       : (unsigned64 ? "__fuser_u64_to_bf16"
                                     : "__fuser_i64_to_bf16");
  FailureOr<Value> bits =
      callPerElement(builder, loc, name, value, builder.getI16Type());
  if (failed(bits))
    return failure();
  return arith::BitcastOp::create(builder, loc, withElementType(type, half),
                                  *bits)
      .getResult();
}

LogicalResult HalfRewriter::rewrite(Operation *op) {
  OpBuilder builder(op);
  Location loc = op->getLoc();
  auto replace = [&](FailureOr<Value> value) -> LogicalResult {
    if (failed(value))
      return failure();
    op->getResult(0).replaceAllUsesWith(*value);
    op->erase();
    return success();
  };
  auto widen = [&](FailureOr<Value> f32Value, Type to) -> FailureOr<Value> {
    if (failed(f32Value) || getElementTypeOrSelf(to).isF32())
      return f32Value;
    return arith::ExtFOp::create(builder, loc, to, *f32Value).getResult();
  };

  if (auto ext = dyn_cast<arith::ExtFOp>(op)) {
    if (!isHalfElement(ext.getIn().getType()))
      return success();
    return replace(widen(extendToF32(builder, loc, ext.getIn()),
                         ext.getType()));
  }
  if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
    if (!isHalfElement(trunc.getType()))
      return success();
    return replace(truncateToHalf(builder, loc, trunc.getIn(),
                                  getElementTypeOrSelf(trunc.getType())));
  }
  if (isa<arith::SIToFPOp, arith::UIToFPOp>(op)) {
    if (!isHalfElement(op->getResult(0).getType()))
      return success();
    return replace(integerToHalf(builder, loc, op->getOperand(0),
                                 getElementTypeOrSelf(op->getResult(0)),
                                 isa<arith::SIToFPOp>(op)));
  }
  // Ops that only move f16/bf16 bits around need no arithmetic.
  if (isa<arith::ConstantOp, arith::BitcastOp, arith::SelectOp>(op))
    return success();
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      op->getNumRegions() != 0)
    return success();
  bool touchesHalf =
      llvm::any_of(op->getOperandTypes(), isHalfElement) ||
      llvm::any_of(op->getResultTypes(), isHalfElement);
  if (!touchesHalf)
    return success();

  // Any other arith/math op (fptosi, cmpf, addf, exp, ...) on f16/bf16:
  // compute in f32, which is exact for the operands, and round each result
  // once, as the interpreter does.
  IRMapping mapping;
  for (Value operand : op->getOperands()) {
    if (!isHalfElement(operand.getType()))
      continue;
    FailureOr<Value> wide = extendToF32(builder, loc, operand);
    if (failed(wide))
      return failure();
    mapping.map(operand, *wide);
  }
  Operation *wideOp = builder.clone(*op, mapping);
  for (auto [oldResult, newResult] :
       llvm::zip(op->getResults(), wideOp->getResults())) {
    Type type = oldResult.getType();
    if (!isHalfElement(type)) {
      oldResult.replaceAllUsesWith(newResult);
      continue;
    }
    newResult.setType(withElementType(type, builder.getF32Type()));
    FailureOr<Value> narrow = truncateToHalf(builder, loc, newResult,
                                             getElementTypeOrSelf(type));
    if (failed(narrow))
      return failure();
    oldResult.replaceAllUsesWith(*narrow);
  }
  op->erase();
  return success();
}

LogicalResult HalfRewriter::run() {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
      ops.push_back(op);
  });
  for (Operation *op : ops)
    if (failed(rewrite(op)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// f16/bf16 bits moved as i16
//===----------------------------------------------------------------------===//
//
// After HalfRewriter no op computes on f16/bf16: what is left of them are
// bits that memory ops, vector shuffles, selects and loops move, and the
// bitcasts to and from i16 around HalfRewriter's conversions. One design
// for all of them: the module's f16/bf16 element types all become i16
// (memrefs, vectors, scalars, function types, globals and constants alike),
// and the bitcasts between the two become no-ops that are dropped. So a row
// loaded as i16 goes straight into HalfRewriter's shift (bf16 -> f32) or
// f16 helper, and the rounding's i16 goes straight to the store.
//
// Why not leave the types to LLVM: the target machine leaves out
// avx512bf16, avxneconvert and avx512fp16 (getCPUBackendDisabledX86Features),
// and without them x86 lowers a `load <8 x bfloat>` (or a store) as 8 scalar
// 16-bit moves, where `<8 x i16>` is one vector move (issue 49: RMSNorm
// bf16[8192,4096] 60 -> 37 ms). The bits do not change: an i16 load or
// store moves the same two bytes, and no arithmetic reads the new type.
//
// The rewrite is all or nothing: an op it does not know to only move bits
// (one that would compute on f16/bf16, or an attribute it cannot
// reinterpret) leaves the module as it was, which is correct and slower.

/// `type` with each f16/bf16 element (of a scalar, vector, memref or
/// function type) replaced by i16.
Type halfBitsType(Type type) {
  if (type.isF16() || type.isBF16())
    return IntegerType::get(type.getContext(), 16);
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(halfBitsType(vector.getElementType()));
  if (auto memref = dyn_cast<MemRefType>(type))
    return MemRefType::get(memref.getShape(),
                           halfBitsType(memref.getElementType()),
                           memref.getLayout(), memref.getMemorySpace());
  if (auto memref = dyn_cast<UnrankedMemRefType>(type))
    return UnrankedMemRefType::get(halfBitsType(memref.getElementType()),
                                   memref.getMemorySpace());
  if (auto function = dyn_cast<FunctionType>(type)) {
    auto convert = [](TypeRange types) {
      return llvm::map_to_vector(types, halfBitsType);
    };
    return FunctionType::get(type.getContext(),
                             convert(function.getInputs()),
                             convert(function.getResults()));
  }
  return type;
}

bool holdsHalf(Type type) { return halfBitsType(type) != type; }

/// The same bits as `attr` (a float or dense constant), as i16 elements;
/// null where `attr` is another kind of attribute.
Attribute halfBitsAttr(Attribute attr) {
  if (auto value = dyn_cast<FloatAttr>(attr))
    return IntegerAttr::get(halfBitsType(value.getType()),
                            value.getValue().bitcastToAPInt());
  if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(attr))
    return dense.bitcast(halfBitsType(dense.getElementType()));
  return {};
}

bool touchesHalf(Operation *op) {
  if (llvm::any_of(op->getOperandTypes(), holdsHalf) ||
      llvm::any_of(op->getResultTypes(), holdsHalf))
    return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (llvm::any_of(block.getArgumentTypes(), holdsHalf))
        return true;
  if (auto func = dyn_cast<func::FuncOp>(op))
    return holdsHalf(func.getFunctionType());
  if (auto global = dyn_cast<memref::GlobalOp>(op))
    return holdsHalf(global.getType());
  return false;
}

/// Whether `op` only moves or reinterprets the bits of its f16/bf16 values,
/// so that it reads the same with i16 in their place.
bool onlyMovesHalfBits(Operation *op) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return static_cast<bool>(halfBitsAttr(constant.getValue()));
  if (auto global = dyn_cast<memref::GlobalOp>(op)) {
    std::optional<Attribute> initial = global.getInitialValue();
    return !initial || isa<UnitAttr>(*initial) || halfBitsAttr(*initial);
  }
  return isa<
      // Bits moved as they are.
      arith::BitcastOp, arith::SelectOp, ub::PoisonOp,
      // Calls pass memrefs as pointers (the bare-pointer convention) and
      // HalfRewriter's helpers take i16 already.
      func::FuncOp, func::CallOp, func::ReturnOp, scf::ForOp, scf::WhileOp,
      scf::IfOp, scf::IndexSwitchOp, scf::YieldOp, scf::ConditionOp,
      scf::ParallelOp, scf::ReduceOp, scf::ReduceReturnOp, cf::BranchOp,
      cf::CondBranchOp,
      // Memory.
      memref::LoadOp, memref::StoreOp, memref::AllocOp, memref::AllocaOp,
      memref::DeallocOp, memref::SubViewOp, memref::ReinterpretCastOp,
      memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp,
      memref::GetGlobalOp, memref::CopyOp, memref::DimOp,
      memref::ExtractStridedMetadataOp,
      memref::ExtractAlignedPointerAsIndexOp, memref::TransposeOp,
      vector::LoadOp, vector::StoreOp, vector::TransferReadOp,
      vector::TransferWriteOp, vector::MaskedLoadOp, vector::MaskedStoreOp,
      vector::GatherOp, vector::ScatterOp,
      // Lanes moved.
      vector::BroadcastOp, vector::ExtractOp, vector::InsertOp,
      vector::ExtractStridedSliceOp, vector::InsertStridedSliceOp,
      vector::FromElementsOp, vector::ShuffleOp, vector::ShapeCastOp,
      vector::TransposeOp, vector::BitCastOp>(op);
}

void moveHalfBitsAsI16(ModuleOp module) {
  WalkResult unknown = module.walk([](Operation *op) {
    return touchesHalf(op) && !onlyMovesHalfBits(op) ? WalkResult::interrupt()
                                                    : WalkResult::advance();
  });
  if (unknown.wasInterrupted())
    return;
  module.walk([](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          argument.setType(halfBitsType(argument.getType()));
    for (OpResult result : op->getResults())
      result.setType(halfBitsType(result.getType()));
    if (auto func = dyn_cast<func::FuncOp>(op))
      func.setFunctionType(
          cast<FunctionType>(halfBitsType(func.getFunctionType())));
    if (auto constant = dyn_cast<arith::ConstantOp>(op);
        constant && holdsHalf(constant.getValue().getType()))
      constant.setValueAttr(cast<TypedAttr>(halfBitsAttr(constant.getValue())));
    if (auto global = dyn_cast<memref::GlobalOp>(op);
        global && holdsHalf(global.getType())) {
      global.setType(cast<MemRefType>(halfBitsType(global.getType())));
      std::optional<Attribute> initial = global.getInitialValue();
      if (initial && !isa<UnitAttr>(*initial))
        global.setInitialValueAttr(halfBitsAttr(*initial));
    }
  });
  // HalfRewriter's bitcasts between f16/bf16 and i16 are now i16 to i16.
  module.walk([](arith::BitcastOp bitcast) {
    if (bitcast.getIn().getType() != bitcast.getType())
      return;
    bitcast.getResult().replaceAllUsesWith(bitcast.getIn());
    bitcast.erase();
  });
}

//===----------------------------------------------------------------------===//
// Other pre-lowering rewrites and checks
//===----------------------------------------------------------------------===//

/// Shared memory (normalization kernels stage rows in workgroup memref.global
/// buffers) is plain memory on the host: the blocks run one after another.
void stripWorkgroupMemorySpace(ModuleOp module) {
  auto strip = [](MemRefType type) {
    return MemRefType::get(type.getShape(), type.getElementType(),
                           type.getLayout());
  };
  module.walk([&](Operation *op) {
    if (auto global = dyn_cast<memref::GlobalOp>(op);
        global && global.getType().getMemorySpace())
      global.setType(strip(global.getType()));
    if (auto getGlobal = dyn_cast<memref::GetGlobalOp>(op);
        getGlobal && getGlobal.getType().getMemorySpace())
      getGlobal.getResult().setType(strip(getGlobal.getType()));
  });
}

/// A gpu.barrier that opens a thread loop nested in a block loop (the tiled
/// transpose's second pass) orders that loop after the block's earlier
/// ones, which the host already does: their threads run loop after loop.
/// Any other barrier stays, and is refused below.
void dropThreadLoopBarriers(ModuleOp module) {
  SmallVector<gpu::BarrierOp> barriers;
  module.walk([&](gpu::BarrierOp barrier) {
    auto threadLoop = dyn_cast<scf::ParallelOp>(barrier->getParentOp());
    if (threadLoop && &threadLoop.getBody()->front() == barrier &&
        threadLoop->hasAttr(gpu::getMappingAttrName()) &&
        isa_and_present<scf::ParallelOp>(threadLoop->getParentOp()))
      barriers.push_back(barrier);
  });
  for (gpu::BarrierOp barrier : barriers)
    barrier.erase();
}

/// A memref type with a zero extent has dynamic strides under the identity
/// layout (upstream stops computing strides at the zero), which the
/// bare-pointer convention refuses. Such an argument holds no elements: it
/// takes its row-major strides written out (static) and is cast back to its
/// type for its uses; the caller still passes one pointer.
void giveEmptyArgumentsStaticStrides(ModuleOp module) {
  MLIRContext *context = module.getContext();
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    Block &entry = func.getBody().front();
    OpBuilder builder = OpBuilder::atBlockBegin(&entry);
    SmallVector<Type> types(func.getArgumentTypes());
    for (BlockArgument argument : entry.getArguments()) {
      auto type = dyn_cast<MemRefType>(argument.getType());
      if (!type || getSaturatedNumElements(type) != 0)
        continue;
      auto strided = MemRefType::get(
          type.getShape(), type.getElementType(),
          StridedLayoutAttr::get(context, /*offset=*/0,
                                 getRowMajorStrides(type.getShape())),
          type.getMemorySpace());
      argument.setType(strided);
      auto cast =
          memref::CastOp::create(builder, func.getLoc(), type, argument);
      argument.replaceAllUsesExcept(cast, cast);
      types[argument.getArgNumber()] = strided;
    }
    func.setFunctionType(
        FunctionType::get(context, types, func.getResultTypes()));
  }
}

/// memref.copy between layouts other than the identity as a loop nest of
/// scalar loads and stores (identity copies become llvm.memcpy upstream).
void rewriteStridedCopies(ModuleOp module) {
  SmallVector<memref::CopyOp> copies;
  module.walk([&](memref::CopyOp copy) {
    auto source = dyn_cast<MemRefType>(copy.getSource().getType());
    auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
    if (source && target && source.getLayout().isIdentity() &&
        target.getLayout().isIdentity())
      return;
    if (source && target)
      copies.push_back(copy);
  });
  for (memref::CopyOp copy : copies) {
    OpBuilder builder(copy);
    Location loc = copy.getLoc();
    Value source = copy.getSource(), target = copy.getTarget();
    int64_t rank = cast<MemRefType>(source.getType()).getRank();
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    SmallVector<Value> indices;
    for (int64_t d = 0; d < rank; ++d) {
      Value bound = memref::DimOp::create(builder, loc, source, d);
      auto loop = scf::ForOp::create(builder, loc, zero, bound, one);
      indices.push_back(loop.getInductionVar());
      builder.setInsertionPoint(loop.getBody()->getTerminator());
    }
    Value element = memref::LoadOp::create(builder, loc, source, indices);
    memref::StoreOp::create(builder, loc, element, target, indices);
    copy.erase();
  }
}

/// LLVM packs vectors of i1 to bits in memory, while memrefs of i1 hold one
/// byte per element: such an access reads or writes the wrong bytes (on the
/// GPU as well), so it is refused rather than run.
LogicalResult checkNoI1VectorAccesses(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    if (!isa<vector::LoadOp, vector::StoreOp, vector::MaskedLoadOp,
             vector::MaskedStoreOp, vector::TransferReadOp,
             vector::TransferWriteOp, vector::GatherOp, vector::ScatterOp>(
            op))
      return WalkResult::advance();
    for (Value operand : op->getOperands()) {
      auto memref = dyn_cast<MemRefType>(operand.getType());
      if (memref && memref.getElementType().isInteger(1)) {
        op->emitError("vector access to ")
            << memref
            << ": LLVM packs vectors of i1 to bits but a memref of i1 holds "
               "one byte per element; load i1 elements one at a time (or as "
               "i8)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Static byte size of a memref of a fuser element type, or failure.
FailureOr<uint64_t> getMemRefByteSize(MemRefType type) {
  if (!type.hasStaticShape())
    return failure();
  return getValueByteSize(
      RankedTensorType::get(type.getShape(), type.getElementType()));
}

LogicalResult checkAllocations(ModuleOp module, uint64_t maxBytes) {
  WalkResult result = module.walk([&](Operation *op) {
    if (!isa<memref::AllocOp, memref::AllocaOp>(op))
      return WalkResult::advance();
    auto type = cast<MemRefType>(op->getResult(0).getType());
    FailureOr<uint64_t> bytes = getMemRefByteSize(type);
    if (succeeded(bytes) && *bytes > maxBytes) {
      op->emitError("intermediate of type ")
          << type << " takes " << formatByteSize(*bytes)
          << ", more than the limit of "
          << maxBytes << " bytes";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Whether `type` can cross the function boundary: a static identity-layout
/// memref or a scalar, both of fuser element types.
bool isBoundaryType(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return memref.hasStaticShape() && memref.getLayout().isIdentity() &&
           succeeded(getElementByteWidth(memref.getElementType()));
  return succeeded(getElementByteWidth(type));
}

LogicalResult checkSignatures(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (!isBoundaryType(type))
        return func.emitError("argument ")
               << i << " has type " << type
               << "; the CPU backend runs functions on static "
                  "identity-layout memrefs and scalars of i1, i32, i64, f16, "
                  "bf16, f32 or f64 (docs/Lowering.md)";
    if (func.getNumResults() != 0)
      return func.emitError("returns ")
             << func.getNumResults()
             << " values; kernel host functions write their results into "
                "output memrefs (destination-passing style) and return "
                "nothing";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Aligned host storage
//===----------------------------------------------------------------------===//

/// Bytes aligned to 64, so that the kernels' aligned vector accesses (16
/// bytes on the GPU) are aligned on the host too; `data` is null when they
/// could not be allocated.
class AlignedBytes {
public:
  explicit AlignedBytes(size_t size)
      : size(size),
        data(static_cast<uint8_t *>(
            std::aligned_alloc(kAlignment, llvm::alignTo(size ? size : 1,
                                                         kAlignment)))) {}
  ~AlignedBytes() { std::free(data); }
  AlignedBytes(AlignedBytes &&other) : size(other.size), data(other.data) {
    other.data = nullptr;
  }
  AlignedBytes(const AlignedBytes &) = delete;
  AlignedBytes &operator=(const AlignedBytes &) = delete;
  AlignedBytes &operator=(AlignedBytes &&) = delete;

  static constexpr size_t kAlignment = 64;
  size_t size;
  uint8_t *data;
};

/// Whether kernels may access `data` directly: as aligned as the widest
/// access they claim (FuserToSCF's MemoryAccess.cpp, getAlignment: 16 bytes).
bool isKernelAligned(const void *data) {
  return reinterpret_cast<uintptr_t>(data) % 16 == 0;
}

/// Prints an llvm::Error into a string (consuming it).
std::string errorMessage(llvm::Error error) {
  std::string message;
  llvm::raw_string_ostream os(message);
  llvm::logAllUnhandledErrors(std::move(error), os);
  return StringRef(message).trim().str();
}

/// Initializes the native target once; the error, if it cannot be.
const std::optional<std::string> &initializeNativeTarget() {
  static const std::optional<std::string> error =
      []() -> std::optional<std::string> {
    if (llvm::InitializeNativeTarget() ||
        llvm::InitializeNativeTargetAsmPrinter())
      return std::string("LLVM has no native target for this host");
    return std::nullopt;
  }();
  return error;
}
} // namespace

//===----------------------------------------------------------------------===//
// CPUKernelModule
//===----------------------------------------------------------------------===//

void mlir::fuser::buildCPUKernelToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createLowerAffinePass());
  // What is left of scf.parallel (thread loops, with scf.reduce, and the
  // block loops fuser-cpu-outline-block-loops kept) becomes sequential
  // loops; the #gpu.loop_dim_map mapping is dropped.
  pm.addPass(createSCFToControlFlowPass());
  // f32 exp, log, tanh and erf as the interpreter computes them, which
  // vectorizes; the other math functions call the host's libm per element.
  pm.addPass(createFuserExpandMath());
  pm.addPass(createConvertMathToOpaqueLibraryCallsPass());
  pm.addPass(createConvertMathToLLVMPass());
  // What has no LLVM intrinsic (tanh, atan, erf, ...) calls the libm of the
  // process.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  // The complex values that kernels move (create/re/im; convert-fuser-to-scf
  // expanded their arithmetic).
  pm.addPass(createConvertComplexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createFuserCPUDispatchBlockLoops());
}

CPUKernelModule::CPUKernelModule(std::unique_ptr<ExecutionEngine> engine,
                                 const BackendOptions &options,
                                 Location moduleLoc)
    : engine(std::move(engine)), options(options), moduleLoc(moduleLoc) {}

CPUKernelModule::~CPUKernelModule() = default;

ArrayRef<std::pair<const char *, void *>>
mlir::fuser::getDeviceLibraryHostSymbols() {
  return kDeviceLibraryHostSymbols;
}

ArrayRef<std::pair<const char *, void *>>
mlir::fuser::getHalfConversionLibcalls() {
#if defined(__x86_64__)
  return kLibcallTable;
#else
  return {};
#endif
}

ArrayRef<StringRef> mlir::fuser::getCPUBackendDisabledX86Features() {
  static const StringRef features[] = {"avx512bf16", "avxneconvert",
                                       "avx512fp16"};
  return features;
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
mlir::fuser::createCPUBackendTargetMachine(llvm::CodeGenOptLevel level) {
  if (const std::optional<std::string> &error = initializeNativeTarget())
    return llvm::createStringError(*error);
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> machineBuilder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return machineBuilder.takeError();
  if (machineBuilder->getTargetTriple().isX86()) {
    // The host's features, each named once, less the disabled ones.
    llvm::SubtargetFeatures features;
    ArrayRef<StringRef> disabled = getCPUBackendDisabledX86Features();
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      if (!llvm::is_contained(disabled, feature.getKey()))
        features.AddFeature(feature.getKey(), feature.getValue());
    for (StringRef feature : disabled)
      features.AddFeature(feature, /*Enable=*/false);
    machineBuilder->setFeatures(features.getString());
  }
  // A multiply and an add stay two roundings even where IR would allow
  // fusing them (llvm.fmuladd); the IR asks for fma explicitly when it
  // wants one rounding.
  machineBuilder->getOptions().AllowFPOpFusion = llvm::FPOpFusion::Strict;
  machineBuilder->setCodeGenOptLevel(level);
  return machineBuilder->createTargetMachine();
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::fuser::lowerKernelModuleToLLVM(ModuleOp module) {
  OwningOpRef<ModuleOp> lowered = cast<ModuleOp>(module->clone());
  // The declarations of the helpers may only be added to a module that has
  // the func dialect loaded, which it has: it holds func.func ops.
  if (failed(HalfRewriter(*lowered).run()))
    return failure();
  moveHalfBitsAsI16(*lowered);
  rewriteStridedCopies(*lowered);
  giveEmptyArgumentsStaticStrides(*lowered);
  dropThreadLoopBarriers(*lowered);

  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  // Before the memory spaces go: the outlining gives each thread its own
  // copy of what is shared memory on the GPU.
  pm.addPass(createFuserCPUOutlineBlockLoops());
  if (failed(pm.run(*lowered)))
    return module.emitError("could not outline the kernels' block loops");
  stripWorkgroupMemorySpace(*lowered);
  pm.clear();
  buildCPUKernelToLLVMPipeline(pm);
  if (failed(pm.run(*lowered)))
    return module.emitError(
        "could not lower the kernel module to the LLVM dialect for the CPU "
        "backend");

  // Whatever the passes left outside the LLVM dialect (a gpu.barrier, a
  // fuser op, a vector op without an LLVM lowering) cannot be translated:
  // say which op, where it came from.
  WalkResult leftover = lowered->walk([](Operation *op) {
    if (isa<ModuleOp>(op) || isa<LLVM::LLVMDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitError("the CPU backend cannot lower '")
        << op->getName() << "' to LLVM";
    return WalkResult::interrupt();
  });
  if (leftover.wasInterrupted())
    return failure();
  return lowered;
}

/// The LLVM-dialect ops of a module above which its machine code is
/// generated without optimization (CodeGenOptLevel::None).
constexpr int64_t kFastCodeGenOps = 20000;

FailureOr<std::unique_ptr<CPUKernelModule>>
CPUKernelModule::compile(ModuleOp module, const BackendOptions &options,
                         ArrayRef<std::pair<std::string, void *>> extraSymbols,
                         std::unique_ptr<llvm::TargetMachine> targetMachine) {
  // LLVM and MLIR constant-fold some math calls with the host's libm.
  ScopedDefaultFloatingPointEnvironment defaultEnvironment;
  if (const std::optional<std::string> &error = initializeNativeTarget())
    return module.emitError("the CPU backend cannot run: ") << *error;
  if (failed(checkSignatures(module)) ||
      failed(checkAllocations(module, options.maxBufferBytes)) ||
      failed(checkNoI1VectorAccesses(module)))
    return failure();
  // Library segments call a BLAS, loaded now: without one, a located error
  // before anything runs.
  WalkResult noBlas = module.walk([](func::CallOp call) {
    if (!library::isLibraryFunction(call.getCallee()) ||
        getBlasLoadError().empty())
      return WalkResult::advance();
    call.emitError(getBlasLoadError());
    return WalkResult::interrupt();
  });
  if (noBlas.wasInterrupted())
    return failure();

  llvm::StringMap<FunctionInfo> functions;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    uint64_t intermediateBytes = 0;
    func.walk([&](memref::AllocOp alloc) {
      if (FailureOr<uint64_t> bytes = getMemRefByteSize(alloc.getType());
          succeeded(bytes))
        intermediateBytes = llvm::SaturatingAdd(intermediateBytes, *bytes);
    });
    functions.try_emplace(func.getSymName(),
                          FunctionInfo{func.getFunctionType(), func.getLoc(),
                                       intermediateBytes});
  }

  FailureOr<OwningOpRef<ModuleOp>> lowered = lowerKernelModuleToLLVM(module);
  if (failed(lowered))
    return failure();
  // A host function named like a libm function (a fusion @exp of f64) would
  // be what its own kernels' call of `exp` binds to: each gets a prefix.
  for (auto func : llvm::make_early_inc_range(
           (*lowered)->getOps<LLVM::LLVMFuncOp>())) {
    if (func.isExternal() || !functions.contains(func.getSymName()))
      continue;
    auto prefixed = StringAttr::get(
        module.getContext(), getJITSymbolName(func.getSymName()));
    if (failed(SymbolTable::replaceAllSymbolUses(func, prefixed, **lowered)))
      return func.emitError("could not rename the host function");
    SymbolTable::setSymbolName(func, prefixed);
  }

  if (!targetMachine) {
    // The greedy register allocator takes time quadratic in the calls of
    // one block (a 10000-op chain of sigmoids: 17 s); the fast one does
    // not, and code quality matters less than compile time there.
    int64_t llvmOps = 0;
    (*lowered)->walk([&](Operation *) { ++llvmOps; });
    llvm::CodeGenOptLevel level = llvmOps > kFastCodeGenOps
                                      ? llvm::CodeGenOptLevel::None
                                      : llvm::CodeGenOptLevel::Default;
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> host =
        createCPUBackendTargetMachine(level);
    if (!host)
      return module.emitError("the CPU backend cannot target this host: ")
             << errorMessage(host.takeError());
    targetMachine = std::move(*host);
  }
  MLIRContext *context = module.getContext();
  registerBuiltinDialectTranslation(*context);
  registerLLVMDialectTranslation(*context);
  ExecutionEngineOptions engineOptions;
  // LLVM's O2 on the IR (no fast-math flags: the float semantics stay).
  std::function<llvm::Error(llvm::Module *)> transformer =
      makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0,
                                /*targetMachine=*/nullptr);
  engineOptions.transformer = transformer;
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(**lowered, engineOptions,
                              std::move(targetMachine));
  if (!engine)
    return module.emitError("could not JIT-compile the kernel module: ")
           << errorMessage(engine.takeError());
  std::vector<std::pair<std::string, void *>> extra(extraSymbols.begin(),
                                                     extraSymbols.end());
  std::vector<std::pair<std::string, void *>> libraryFunctions =
      getOpaqueLibrarySymbols(**lowered);
  (*engine)->registerSymbols([&extra, &libraryFunctions](
                                 llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    for (const HostHelper &helper : kHelpers)
      symbols[interner(helper.name)] = {
          llvm::orc::ExecutorAddr::fromPtr(helper.address),
          llvm::JITSymbolFlags::Exported};
    for (const auto &[name, address] : kDeviceLibraryHostSymbols)
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    for (const auto &[name, address] : getHalfConversionLibcalls())
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    for (const auto &[name, address] : extra)
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    symbols[interner(kIndexOutOfRangeFunction)] = {
        llvm::orc::ExecutorAddr::fromPtr(&reportIndexOutOfRange),
        llvm::JITSymbolFlags::Exported};
    symbols[interner(kRunBlocksFunction)] = {
        llvm::orc::ExecutorAddr::fromPtr(&runBlocks),
        llvm::JITSymbolFlags::Exported};
    symbols[interner(library::kMatmulFunction)] = {
        llvm::orc::ExecutorAddr::fromPtr(&runLibraryMatmul),
        llvm::JITSymbolFlags::Exported};
    symbols[interner(library::kGroupedMmFunction)] = {
        llvm::orc::ExecutorAddr::fromPtr(&runLibraryGroupedMm),
        llvm::JITSymbolFlags::Exported};
    symbols[interner(library::kAttentionForwardFunction)] = {
        llvm::orc::ExecutorAddr::fromPtr(&runLibraryAttentionForward),
        llvm::JITSymbolFlags::Exported};
    symbols[interner(library::kAttentionBackwardFunction)] = {
        llvm::orc::ExecutorAddr::fromPtr(&runLibraryAttentionBackward),
        llvm::JITSymbolFlags::Exported};
    for (const auto &[name, address] : libraryFunctions)
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  // Compiles the module now, so that unresolved symbols are reported here
  // as errors (ExecutionEngine::initialize would abort on them), and keeps
  // each function's entry for its runs.
  for (auto &entry : functions) {
    llvm::Expected<void (*)(void **)> packed =
        (*engine)->lookupPacked(getJITSymbolName(entry.getKey()));
    if (!packed)
      return emitError(entry.getValue().loc,
                       "could not JIT-compile function '")
             << entry.getKey() << "': " << errorMessage(packed.takeError());
    entry.getValue().packed = *packed;
  }
  (*engine)->initialize();

  std::unique_ptr<CPUKernelModule> result(
      new CPUKernelModule(std::move(*engine), options, module.getLoc()));
  result->functions = std::move(functions);
  if (auto checks = module->getAttrOfType<ArrayAttr>(kIndexChecksAttr))
    for (auto check : checks.getAsRange<LocationAttr>())
      result->indexChecks.push_back(check);
  return result;
}

FailureOr<SmallVector<Buffer>>
CPUKernelModule::run(StringRef name, ArrayRef<Buffer> inputs) {
  auto it = functions.find(name);
  if (it == functions.end())
    return emitError(moduleLoc, "the kernel module has no function named '")
           << name << "'";
  FunctionType type = it->getValue().type;
  Location loc = it->getValue().loc;
  ScopedDefaultFloatingPointEnvironment defaultEnvironment;
  if (inputs.size() > type.getNumInputs())
    return emitError(loc, "function '")
           << name << "' takes " << type.getNumInputs() << " arguments but "
           << inputs.size() << " inputs were given";

  // What the run holds: the inputs (read in place or copied), the outputs
  // (twice where a Buffer's own storage is not aligned: in aligned storage,
  // then copied) and the function's intermediates.
  uint64_t heldBytes = 0;
  if (failed(reserveRunBytes(loc, options, heldBytes,
                             it->getValue().intermediateBytes,
                             "the intermediates of '" + name + "' together",
                             Type())))
    return failure();
  // Inputs: read where they are when they are aligned as the kernels' vector
  // loads claim (FuserToSCF: at most 16 bytes), else copied into aligned
  // storage; scalars passed by value. argData[i] is argument i's data.
  std::vector<AlignedBytes> storage;
  storage.reserve(type.getNumInputs());
  SmallVector<void *> argData;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    Type argType = type.getInput(i);
    auto memref = dyn_cast<MemRefType>(argType);
    bool matches =
        memref ? !input.isScalar && input.elementType == memref.getElementType() &&
                     ArrayRef<int64_t>(input.shape) == memref.getShape()
               : input.isScalar && input.elementType == argType;
    if (!matches)
      return emitError(loc, "input ")
             << i << " of type " << input.getType()
             << " does not match argument " << i << " of type " << argType;
    uint64_t bytes = memref ? *getMemRefByteSize(memref)
                            : *getElementByteWidth(argType);
    if (bytes > options.maxBufferBytes)
      return emitError(loc, "input ")
             << i << " of type " << input.getType() << " takes "
             << formatByteSize(bytes) << ", more than the limit of "
             << options.maxBufferBytes
             << " bytes";
    ArrayRef<uint8_t> data = input.getBytes();
    if (data.size() != bytes)
      return emitError(loc, "input ")
             << i << " holds " << data.size() << " bytes, not " << bytes;
    if (failed(reserveRunBytes(loc, options, heldBytes, bytes,
                               "input " + Twine(i), input.getType())))
      return failure();
    if (bytes != 0 && isKernelAligned(data.data())) {
      // Kernels never write their inputs.
      argData.push_back(const_cast<uint8_t *>(data.data()));
      continue;
    }
    storage.emplace_back(bytes);
    if (!storage.back().data)
      return emitError(loc, "out of memory: could not allocate ")
             << bytes << " bytes for input " << i;
    // An input without elements has no data pointer to copy from.
    if (bytes != 0)
      std::memcpy(storage.back().data, data.data(), bytes);
    argData.push_back(storage.back().data);
  }
  SmallVector<Buffer> outputs;
  for (unsigned i = inputs.size(); i < type.getNumInputs(); ++i) {
    auto memref = dyn_cast<MemRefType>(type.getInput(i));
    if (!memref)
      return emitError(loc, "argument ")
             << i << " of type " << type.getInput(i)
             << " has no input and is not an output memref";
    uint64_t bytes = *getMemRefByteSize(memref);
    if (bytes > options.maxBufferBytes)
      return emitError(loc, "output ")
             << (i - inputs.size()) << " of type " << memref << " takes "
             << formatByteSize(bytes) << ", more than the limit of "
             << options.maxBufferBytes << " bytes";
    if (failed(reserveRunBytes(loc, options, heldBytes, bytes,
                               "output " + Twine(i - inputs.size()), memref)))
      return failure();
    // The kernels write into the Buffer itself where its storage is aligned
    // for them; what they write starts zeroed where options.zeroOutputs
    // asks (BackendOptions), else as allocated.
    Buffer output;
    output.elementType = memref.getElementType();
    output.shape.assign(memref.getShape().begin(), memref.getShape().end());
    output.bytes.resize(bytes);
    if (bytes == 0 || isKernelAligned(output.bytes.data())) {
      argData.push_back(output.bytes.data());
    } else {
      storage.emplace_back(bytes);
      if (!storage.back().data)
        return emitError(loc, "out of memory: could not allocate ")
               << bytes << " bytes for output " << (i - inputs.size());
      argData.push_back(storage.back().data);
    }
    if (options.zeroOutputs && bytes != 0)
      std::memset(argData.back(), 0, bytes);
    outputs.push_back(std::move(output));
  }

  // The packed wrapper takes one pointer per argument, to its value: for a
  // memref (bare-pointer convention) a pointer to the data pointer, for a
  // scalar a pointer to its bytes.
  SmallVector<void *> dataPointers(type.getNumInputs());
  SmallVector<void *> packedArgs(type.getNumInputs());
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    if (isa<MemRefType>(type.getInput(i))) {
      dataPointers[i] = argData[i];
      packedArgs[i] = &dataPointers[i];
    } else {
      packedArgs[i] = argData[i];
    }
  }
  llvm::Expected<unsigned> threads = getCPUThreads(options.numThreads);
  if (!threads)
    return emitError(loc, errorMessage(threads.takeError()));
  ScopedRunThreads scopedThreads(*threads);
  // Reports of this run only (a failed run before may have left one).
  indexOutOfRange = {};
  takeLibraryCallError();
  it->getValue().packed(packedArgs.data());
  auto checkLocation = [&](int64_t check) -> Location {
    return size_t(check) < indexChecks.size() ? indexChecks[check] : loc;
  };
  if (std::optional<LibraryCallError> error = takeLibraryCallError())
    return emitError(checkLocation(error->check), error->message);
  if (IndexOutOfRange error = std::exchange(indexOutOfRange, {});
      error.reported) {
    return emitError(checkLocation(error.check), "index ")
           << error.index << " is out of range [0, " << error.extent
           << ") along dim " << error.dim << " at index element "
           << error.element;
  }

  for (auto [i, output] : llvm::enumerate(outputs)) {
    void *written = argData[inputs.size() + i];
    if (written == output.bytes.data())
      continue;
    if (failed(reserveRunBytes(loc, options, heldBytes, output.bytes.size(),
                               "the copy of output " + Twine(i),
                               output.getType())))
      return failure();
    std::memcpy(output.bytes.data(), written, output.bytes.size());
  }
  return outputs;
}

FailureOr<SmallVector<Buffer>>
mlir::fuser::runKernelModule(ModuleOp module, StringRef name,
                             ArrayRef<Buffer> inputs,
                             const BackendOptions &options) {
  FailureOr<std::unique_ptr<CPUKernelModule>> compiled =
      CPUKernelModule::compile(module, options);
  if (failed(compiled))
    return failure();
  return (*compiled)->run(name, inputs);
}
