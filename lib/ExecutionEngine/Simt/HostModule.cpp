//===- HostModule.cpp - device bitcode compiled for the host --------------===//

#include "HostModule.h"
#include "DeviceMath.h"
#include "fuser/ExecutionEngine/CPUBackend.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Regex.h"
#include "llvm/Target/TargetMachine.h"

#include <cstring>

using namespace llvm;
using mlir::fuser::simt::ApproxOp;
using mlir::fuser::simt::ArithOp;
using mlir::fuser::simt::Chip;
using mlir::fuser::simt::Device;
using mlir::fuser::simt::Kernel;
using mlir::fuser::simt::Limits;
using mlir::fuser::simt::Rounding;
using mlir::fuser::simt::SharedVariable;

//===----------------------------------------------------------------------===//
// What rewritten device code calls
//===----------------------------------------------------------------------===//

extern "C" {
static uint32_t fuserSimtSreg(uint32_t which) {
  return Device::get().readSpecialRegister(which);
}
static uint64_t fuserSimtShfl(uint32_t mode, uint32_t mask, uint32_t value,
                              uint32_t b, uint32_t c, uint32_t site) {
  return Device::get().shuffle(mode, mask, value, b, c, site);
}
static void fuserSimtBarrier(uint32_t id, uint32_t site) {
  Device::get().barrier(id, site);
}
static void fuserSimtAccess(void *address, uint64_t bytes, uint32_t align,
                            uint32_t addressSpace, uint32_t site,
                            uint32_t isStore) {
  Device::get().checkAccess(address, bytes, align, addressSpace, site,
                            isStore != 0);
}
static void fuserSimtStored(void *address, uint64_t bytes, uint32_t site) {
  Device::get().noteStored(address, bytes, site);
}
static void fuserSimtLocalAccess(void *address, uint64_t bytes, void *array,
                                 uint64_t arrayBytes, uint32_t site,
                                 uint32_t isStore) {
  Device::get().checkLocalAccess(address, bytes, array, arrayBytes, site,
                                 isStore != 0);
}
static void fuserSimtTrap(uint32_t site) {
  Device::get().trap(site);
}
static void fuserSimtStackOverflow(int64_t room, uint64_t bytes,
                                   uint32_t site) {
  Device::get().stackOverflow(room, bytes, /*dynamic=*/false, site);
}
static void fuserSimtAlloca(void *stackPointer, uint64_t count,
                            uint64_t elementBytes, uint32_t site) {
  Device::get().checkDynamicAlloca(stackPointer, count, elementBytes, site);
}
static void fuserSimtSteps(uint32_t site) {
  Device::get().stepLimitReached(site);
}
}

namespace {

const std::pair<const char *, void *> kRuntimeSymbols[] = {
    {"fuserSimtSreg", reinterpret_cast<void *>(&fuserSimtSreg)},
    {"fuserSimtShfl", reinterpret_cast<void *>(&fuserSimtShfl)},
    {"fuserSimtBarrier", reinterpret_cast<void *>(&fuserSimtBarrier)},
    {"fuserSimtAccess", reinterpret_cast<void *>(&fuserSimtAccess)},
    {"fuserSimtStored", reinterpret_cast<void *>(&fuserSimtStored)},
    {"fuserSimtLocalAccess", reinterpret_cast<void *>(&fuserSimtLocalAccess)},
    {"fuserSimtTrap", reinterpret_cast<void *>(&fuserSimtTrap)},
    {"fuserSimtStackOverflow",
     reinterpret_cast<void *>(&fuserSimtStackOverflow)},
    {"fuserSimtAlloca", reinterpret_cast<void *>(&fuserSimtAlloca)},
    {"fuserSimtSteps", reinterpret_cast<void *>(&fuserSimtSteps)},
    {"fuserSimtArithF32",
     reinterpret_cast<void *>(&mlir::fuser::simt::fuserSimtArithF32)},
    {"fuserSimtArithF64",
     reinterpret_cast<void *>(&mlir::fuser::simt::fuserSimtArithF64)},
    {"fuserSimtApproxF32",
     reinterpret_cast<void *>(&mlir::fuser::simt::fuserSimtApproxF32)},
    {"fuserSimtApproxF64",
     reinterpret_cast<void *>(&mlir::fuser::simt::fuserSimtApproxF64)},
    {"fuserSimtDoubleToFloat",
     reinterpret_cast<void *>(&mlir::fuser::simt::fuserSimtDoubleToFloat)},
    {"fuserSimtSaturateF32",
     reinterpret_cast<void *>(&mlir::fuser::simt::fuserSimtSaturateF32)},
    {"fuserSimtSaturateF64",
     reinterpret_cast<void *>(&mlir::fuser::simt::fuserSimtSaturateF64)},
};

bool isRuntimeSymbol(StringRef name) {
  return llvm::any_of(kRuntimeSymbols,
                      [&](const auto &entry) { return name == entry.first; });
}

/// libdevice's inline PTX that has a fixed meaning here, by its text with
/// every run of white space made one space (libdevice.10.bc, CUDA 12-13).
enum class AsmKind {
  RcpApproxFtzF32,
  RsqrtApproxFtzF64,
  BfindShiftAmtU32,
  MadWide32,
  Mul64Wide,
  Mad64Wide,
  Add128,
  Sub128,
  SelectIfUnorderedOrEqualF64,
};
const std::pair<const char *, AsmKind> kAsmTable[] = {
    {"rcp.approx.ftz.f32 $0,$1;", AsmKind::RcpApproxFtzF32},
    {"rsqrt.approx.ftz.f64 $0, $1;", AsmKind::RsqrtApproxFtzF64},
    {"bfind.shiftamt.u32 $0, $1;", AsmKind::BfindShiftAmtU32},
    {"{ mad.lo.cc.u32 $0, $2, $3, $4; madc.hi.u32 $1, $2, $3, 0; }",
     AsmKind::MadWide32},
    {"{ .reg .u32 r0, r1, r2, r3, alo, ahi, blo, bhi; mov.b64 {alo,ahi}, $2; "
     "mov.b64 {blo,bhi}, $3; mul.lo.u32 r0, alo, blo; mul.hi.u32 r1, alo, "
     "blo; mad.lo.cc.u32 r1, alo, bhi, r1; madc.hi.u32 r2, alo, bhi, 0; "
     "mad.lo.cc.u32 r1, ahi, blo, r1; madc.hi.cc.u32 r2, ahi, blo, r2; "
     "madc.hi.u32 r3, ahi, bhi, 0; mad.lo.cc.u32 r2, ahi, bhi, r2; addc.u32 "
     "r3, r3, 0; mov.b64 $0, {r0,r1}; mov.b64 $1, {r2,r3}; }",
     AsmKind::Mul64Wide},
    {"{ .reg .u32 r0, r1, r2, r3, alo, ahi, blo, bhi, clo, chi; mov.b64 "
     "{alo,ahi}, $2; mov.b64 {blo,bhi}, $3; mov.b64 {clo,chi}, $4; "
     "mad.lo.cc.u32 r0, alo, blo, clo; madc.hi.cc.u32 r1, alo, blo, chi; "
     "madc.hi.u32 r2, alo, bhi, 0; mad.lo.cc.u32 r1, alo, bhi, r1; "
     "madc.hi.cc.u32 r2, ahi, blo, r2; madc.hi.u32 r3, ahi, bhi, 0; "
     "mad.lo.cc.u32 r1, ahi, blo, r1; madc.lo.cc.u32 r2, ahi, bhi, r2; "
     "addc.u32 r3, r3, 0; mov.b64 $0, {r0,r1}; mov.b64 $1, {r2,r3}; }",
     AsmKind::Mad64Wide},
    {"{ .reg .u32 r0, r1, r2, r3, a0, a1, a2, a3, b0, b1, b2, b3; mov.b64 "
     "{a0,a1}, $2; mov.b64 {a2,a3}, $3; mov.b64 {b0,b1}, $4; mov.b64 {b2,b3}, "
     "$5; add.cc.u32 r0, a0, b0; addc.cc.u32 r1, a1, b1; addc.cc.u32 r2, a2, "
     "b2; addc.u32 r3, a3, b3; mov.b64 $0, {r0,r1}; mov.b64 $1, {r2,r3}; }",
     AsmKind::Add128},
    {"{ .reg .u32 r0, r1, r2, r3, a0, a1, a2, a3, b0, b1, b2, b3; mov.b64 "
     "{a0,a1}, $2; mov.b64 {a2,a3}, $3; mov.b64 {b0,b1}, $4; mov.b64 {b2,b3}, "
     "$5; sub.cc.u32 r0, a0, b0; subc.cc.u32 r1, a1, b1; subc.cc.u32 r2, a2, "
     "b2; subc.u32 r3, a3, b3; mov.b64 $0, {r0,r1}; mov.b64 $1, {r2,r3}; }",
     AsmKind::Sub128},
    {"{ .reg .pred __$$temp3; setp.equ.f64 __$$temp3, $1, $2; selp.f64 $0, "
     "$3, $4, __$$temp3;}",
     AsmKind::SelectIfUnorderedOrEqualF64},
};

std::string normalizeAsm(StringRef text) {
  std::string result;
  bool space = false;
  for (char c : text) {
    if (isSpace(c)) {
      space = !result.empty();
      continue;
    }
    if (space)
      result.push_back(' ');
    space = false;
    result.push_back(c);
  }
  return result;
}

/// The special registers by name (Device::readSpecialRegister's numbers).
std::optional<uint32_t> getSpecialRegister(StringRef name) {
  return StringSwitch<std::optional<uint32_t>>(name)
      .Case("tid.x", 0)
      .Case("tid.y", 1)
      .Case("tid.z", 2)
      .Case("ntid.x", 3)
      .Case("ntid.y", 4)
      .Case("ntid.z", 5)
      .Case("ctaid.x", 6)
      .Case("ctaid.y", 7)
      .Case("ctaid.z", 8)
      .Case("nctaid.x", 9)
      .Case("nctaid.y", 10)
      .Case("nctaid.z", 11)
      .Case("laneid", 12)
      .Case("warpsize", 13)
      .Default(std::nullopt);
}

/// `value` with a subnormal replaced by zero of its sign (PTX's .ftz).
Value *flushSubnormal(IRBuilder<> &b, Value *value) {
  Type *type = value->getType();
  const fltSemantics &semantics = type->getFltSemantics();
  Value *magnitude = b.CreateUnaryIntrinsic(Intrinsic::fabs, value);
  Value *tiny = b.CreateFCmpOLT(
      magnitude,
      ConstantFP::get(type, APFloat::getSmallestNormalized(semantics)));
  Value *zero = b.CreateBinaryIntrinsic(Intrinsic::copysign,
                                        ConstantFP::get(type, 0.0), value);
  return b.CreateSelect(tiny, zero, value);
}

class Rewriter {
public:
  Rewriter(Module &module, Device &device)
      : module(module), context(module.getContext()), device(device),
        i32(Type::getInt32Ty(context)), i64(Type::getInt64Ty(context)),
        ptr(PointerType::get(context, 0)) {}

  Error run();

  struct KernelInfo {
    std::string name, entry;
    std::vector<Kernel::Param> params;
    uint64_t localBytes = 0, frameBytes = 0;
  };
  std::vector<KernelInfo> kernels;
  std::vector<SharedVariable> shared;
  /// Other globals: their names, bytes and whether they are constant.
  struct GlobalInfo {
    std::string name;
    uint64_t bytes;
    bool constant;
  };
  std::vector<GlobalInfo> globals;

private:
  Error rewriteCall(CallInst *call);
  Error rewriteIntrinsic(CallInst *call, StringRef name);
  Error rewriteAsm(CallInst *call, const InlineAsm &asmValue);
  Error instrument(Instruction *inst);
  void guardDivision(BinaryOperator *division);
  void canonicalizeNaN(BinaryOperator *arithmetic);
  /// Splits `before`'s block before it: the new branch takes a cold block
  /// ending in `unreachable` where `condition` holds. Returns that
  /// `unreachable`.
  Instruction *addColdPath(Value *condition, Instruction *before);
  /// Checks before `call` (of a device function) that the stack has room
  /// for the callee's frame above the limit.
  void checkStack(CallInst *call);
  /// Checks before a dynamic alloca that the stack has room for it.
  void checkDynamicAlloca(AllocaInst *alloca);
  /// The loop headers of `f`: the targets of its retreating edges.
  SmallSetVector<BasicBlock *, 8> getLoopHeaders(Function &f);
  /// Counts down the thread's loop budget at each loop header of `f`;
  /// `headerSites`: the site of each header, taken before the rewrite.
  void countLoopIterations(Function &f,
                           const DenseMap<BasicBlock *, uint32_t> &headerSites);
  /// A function's static allocas, in bytes.
  uint64_t getStaticAllocaBytes(Function &f);
  /// Along the deepest chain of calls from `f` (recursion counted once):
  /// its static allocas, and its frames with Limits::kFrameBytes each.
  std::pair<uint64_t, uint64_t> getCallChainBytes(Function &f);
  Error addEntry(Function &kernel);
  uint32_t getSite(Instruction *inst);
  FunctionCallee getRuntime(StringRef name, Type *result,
                            ArrayRef<Type *> params) {
    return module.getOrInsertFunction(
        name, FunctionType::get(result, params, /*isVarArg=*/false));
  }
  Error unknown(Instruction *inst, const Twine &what) {
    std::string text;
    raw_string_ostream os(text);
    os << *inst;
    return createStringError("function @" + inst->getFunction()->getName() +
                             ": " + what +
                             ", which the emulator does not implement, at `" +
                             StringRef(text).trim() + "`");
  }
  /// The call replaced by `value` (null: the call has no result).
  void replace(CallInst *call, Value *value) {
    if (value)
      call->replaceAllUsesWith(value);
    call->eraseFromParent();
  }

  Module &module;
  LLVMContext &context;
  Device &device;
  Type *i32, *i64;
  PointerType *ptr;
  DenseMap<Instruction *, uint32_t> sites;
  DenseMap<Function *, uint64_t> staticAllocaBytes;
  DenseMap<Function *, std::pair<uint64_t, uint64_t>> callChainBytes;
  /// What device code compares the stack pointer with, and counts its loop
  /// iterations down in (Module::stackLimit, Module::stepsLeft).
  GlobalVariable *stackLimit = nullptr, *stepsLeft = nullptr;
};

uint32_t Rewriter::getSite(Instruction *inst) {
  auto it = sites.find(inst);
  if (it != sites.end())
    return it->second;
  mlir::fuser::simt::Site site;
  site.kernel = inst->getFunction()->getName().str();
  raw_string_ostream os(site.instruction);
  os << *inst;
  // The instruction without its metadata (`, !dbg !12`): the location is
  // printed from it.
  StringRef text = StringRef(site.instruction).trim();
  site.instruction = text.substr(0, text.find(", !")).str();
  if (auto *call = dyn_cast<CallInst>(inst))
    if (Function *callee = call->getCalledFunction())
      site.callee = callee->getName().str();
  if (const DebugLoc &loc = inst->getDebugLoc(); loc && loc.getLine())
    site.location = (loc->getFilename() + ":" + Twine(loc.getLine()) + ":" +
                     Twine(loc.getCol()))
                        .str();
  uint32_t id = device.addSite(std::move(site));
  sites[inst] = id;
  return id;
}

Error Rewriter::rewriteIntrinsic(CallInst *call, StringRef name) {
  IRBuilder<> b(call);
  StringRef rest = name.drop_front(strlen("llvm.nvvm."));
  Type *type = call->getType();
  auto arg = [&](unsigned i) { return call->getArgOperand(i); };

  if (rest.consume_front("read.ptx.sreg.")) {
    std::optional<uint32_t> which = getSpecialRegister(rest);
    if (!which || !type->isIntegerTy(32))
      return unknown(call, "special register %" + rest);
    replace(call, b.CreateCall(getRuntime("fuserSimtSreg", i32, {i32}),
                               {b.getInt32(*which)}));
    return Error::success();
  }

  if (rest.consume_front("shfl.sync.")) {
    SmallVector<StringRef> parts;
    rest.split(parts, '.');
    std::optional<uint32_t> mode =
        parts.size() == 2 ? StringSwitch<std::optional<uint32_t>>(parts[0])
                                .Case("up", 0)
                                .Case("down", 1)
                                .Case("bfly", 2)
                                .Case("idx", 3)
                                .Default(std::nullopt)
                          : std::nullopt;
    StringRef valueType = parts.size() == 2 ? parts[1] : "";
    bool withPredicate = valueType.consume_back("p");
    if (!mode || (valueType != "i32" && valueType != "f32"))
      return unknown(call, "NVVM intrinsic @" + name);
    Value *value = arg(1);
    Type *elementType = value->getType();
    if (elementType->isFloatTy())
      value = b.CreateBitCast(value, i32);
    Value *packed = b.CreateCall(
        getRuntime("fuserSimtShfl", i64, {i32, i32, i32, i32, i32, i32}),
        {b.getInt32(*mode), arg(0), value, arg(2), arg(3),
         b.getInt32(getSite(call))});
    Value *result = b.CreateTrunc(packed, i32);
    if (elementType->isFloatTy())
      result = b.CreateBitCast(result, elementType);
    if (withPredicate) {
      Value *predicate = b.CreateTrunc(b.CreateLShr(packed, 32), b.getInt1Ty());
      Value *pair = b.CreateInsertValue(PoisonValue::get(type), result, 0);
      result = b.CreateInsertValue(pair, predicate, 1);
    }
    replace(call, result);
    return Error::success();
  }

  if (rest == "barrier0" || rest == "barrier.cta.sync.aligned.all" ||
      rest == "barrier.cta.sync.all" || rest == "barrier.sync") {
    Value *id = call->arg_size() ? arg(0) : b.getInt32(0);
    b.CreateCall(getRuntime("fuserSimtBarrier", b.getVoidTy(), {i32, i32}),
                 {id, b.getInt32(getSite(call))});
    replace(call, nullptr);
    return Error::success();
  }

  SmallVector<StringRef> parts;
  rest.split(parts, '.');
  bool ftz = llvm::is_contained(parts, "ftz");
  llvm::erase(parts, "ftz");
  auto floatType = [&](StringRef suffix) -> Type * {
    if (suffix == "f" || suffix == "f32")
      return b.getFloatTy();
    if (suffix == "d" || suffix == "f64")
      return b.getDoubleTy();
    return nullptr;
  };

  // op.rnd[.ftz].{f,d}: add, mul, div, fma, rcp, sqrt in a rounding mode.
  if (parts.size() == 3) {
    std::optional<ArithOp> op = mlir::fuser::simt::parseArithOp(parts[0]);
    std::optional<Rounding> mode = mlir::fuser::simt::parseRounding(parts[1]);
    Type *t = floatType(parts[2]);
    if (op && mode && t && t == type) {
      SmallVector<Value *> operands = {b.getInt32(uint32_t(*op)),
                                       b.getInt32(uint32_t(*mode)),
                                       b.getInt32(ftz)};
      for (unsigned i = 0; i < 3; ++i)
        operands.push_back(i < call->arg_size() ? arg(i)
                                                : ConstantFP::get(t, 0.0));
      bool isFloat = t->isFloatTy();
      replace(call, b.CreateCall(getRuntime(isFloat ? "fuserSimtArithF32"
                                                    : "fuserSimtArithF64",
                                            t, {i32, i32, i32, t, t, t}),
                                 operands));
      return Error::success();
    }
    // op.approx[.ftz].{f,f32,d}
    std::optional<ApproxOp> approx = mlir::fuser::simt::parseApproxOp(parts[0]);
    unsigned operands = approx == ApproxOp::Div ? 2 : 1;
    if (approx && parts[1] == "approx" && t && t == type &&
        call->arg_size() == operands) {
      bool isFloat = t->isFloatTy();
      replace(call, b.CreateCall(
                        getRuntime(isFloat ? "fuserSimtApproxF32"
                                           : "fuserSimtApproxF64",
                                   t, {i32, i32, t, t}),
                        {b.getInt32(uint32_t(*approx)), b.getInt32(ftz), arg(0),
                         operands == 2 ? arg(1) : ConstantFP::get(t, 0.0)}));
      return Error::success();
    }
  }
  if (parts.size() == 2 && parts[0] == "saturate") {
    Type *t = floatType(parts[1]);
    if (t && t == type) {
      bool isFloat = t->isFloatTy();
      replace(call, b.CreateCall(getRuntime(isFloat ? "fuserSimtSaturateF32"
                                                    : "fuserSimtSaturateF64",
                                            t, {i32, t}),
                                 {b.getInt32(ftz), arg(0)}));
      return Error::success();
    }
  }
  // Operations whose .ftz form flushes only its inputs (their results are
  // inputs, or integers, or normal): the generic intrinsic on flushed
  // operands.
  auto flushed = [&](unsigned i) {
    return ftz ? flushSubnormal(b, arg(i)) : arg(i);
  };
  std::optional<Intrinsic::ID> unary =
      parts.empty() ? std::nullopt
                    : StringSwitch<std::optional<Intrinsic::ID>>(parts[0])
                          .Case("fabs", Intrinsic::fabs)
                          // cvt.rni: to nearest, ties to even.
                          .Case("round", Intrinsic::roundeven)
                          .Case("floor", Intrinsic::floor)
                          .Case("ceil", Intrinsic::ceil)
                          .Case("trunc", Intrinsic::trunc)
                          .Default(std::nullopt);
  if (unary && parts.size() <= 2 && type->isFloatingPointTy() &&
      call->arg_size() == 1 &&
      (parts.size() == 1 || floatType(parts[1]) == type)) {
    replace(call, b.CreateUnaryIntrinsic(*unary, flushed(0)));
    return Error::success();
  }
  if (parts.size() == 2 && (parts[0] == "fmin" || parts[0] == "fmax") &&
      floatType(parts[1]) == type) {
    // PTX min/max: a NaN operand gives the other one; -0 < +0.
    replace(call,
            b.CreateBinaryIntrinsic(parts[0] == "fmin" ? Intrinsic::minimumnum
                                                       : Intrinsic::maximumnum,
                                    flushed(0), flushed(1)));
    return Error::success();
  }
  // {f,d}2{i,ui,ll,ull}.<mode>[.ftz]: rounded as the mode says, then
  // converted with saturation (NaN gives 0), as cvt.rni/rzi/rmi/rpi do.
  static const Regex toInteger("^(f|d)2(i|ui|ll|ull)$");
  SmallVector<StringRef> conversion;
  if (parts.size() == 2 && toInteger.match(parts[0], &conversion) &&
      type->isIntegerTy() && call->arg_size() == 1 &&
      floatType(conversion[1]) == arg(0)->getType()) {
    if (std::optional<Rounding> mode =
            mlir::fuser::simt::parseRounding(parts[1])) {
      Intrinsic::ID rounding = *mode == Rounding::Nearest ? Intrinsic::roundeven
                               : *mode == Rounding::TowardZero
                                   ? Intrinsic::trunc
                               : *mode == Rounding::Down ? Intrinsic::floor
                                                         : Intrinsic::ceil;
      Value *rounded = b.CreateUnaryIntrinsic(rounding, flushed(0));
      bool isSigned = conversion[2] == "i" || conversion[2] == "ll";
      replace(call, b.CreateIntrinsic(isSigned ? Intrinsic::fptosi_sat
                                               : Intrinsic::fptoui_sat,
                                      {type, rounded->getType()}, {rounded}));
      return Error::success();
    }
  }
  if (parts.size() == 2 && parts[0] == "d2f" && type->isFloatTy()) {
    if (std::optional<Rounding> mode =
            mlir::fuser::simt::parseRounding(parts[1])) {
      replace(call, b.CreateCall(getRuntime("fuserSimtDoubleToFloat", type,
                                            {i32, i32, b.getDoubleTy()}),
                                 {b.getInt32(uint32_t(*mode)), b.getInt32(ftz),
                                  arg(0)}));
      return Error::success();
    }
  }
  if (rest == "d2i.lo" || rest == "d2i.hi") {
    Value *bits = b.CreateBitCast(arg(0), i64);
    if (rest == "d2i.hi")
      bits = b.CreateLShr(bits, 32);
    replace(call, b.CreateTrunc(bits, i32));
    return Error::success();
  }
  if (rest == "lohi.i2d") {
    Value *bits = b.CreateOr(b.CreateZExt(arg(0), i64),
                             b.CreateShl(b.CreateZExt(arg(1), i64), 32));
    replace(call, b.CreateBitCast(bits, b.getDoubleTy()));
    return Error::success();
  }
  if (rest == "mulhi.i" || rest == "mulhi.ui" || rest == "mulhi.ll" ||
      rest == "mulhi.ull") {
    bool isSigned = rest == "mulhi.i" || rest == "mulhi.ll";
    unsigned bits = type->getIntegerBitWidth();
    Type *wide = b.getIntNTy(2 * bits);
    Value *x =
        isSigned ? b.CreateSExt(arg(0), wide) : b.CreateZExt(arg(0), wide);
    Value *y =
        isSigned ? b.CreateSExt(arg(1), wide) : b.CreateZExt(arg(1), wide);
    replace(call, b.CreateTrunc(b.CreateLShr(b.CreateMul(x, y), bits), type));
    return Error::success();
  }
  return unknown(call, "NVVM intrinsic @" + name);
}

Error Rewriter::rewriteAsm(CallInst *call, const InlineAsm &asmValue) {
  std::string text = normalizeAsm(asmValue.getAsmString());
  IRBuilder<> b(call);
  Type *type = call->getType();
  auto arg = [&](unsigned i) { return call->getArgOperand(i); };
  auto pair = [&](Value *lo, Value *hi) {
    Value *result = b.CreateInsertValue(PoisonValue::get(type), lo, 0);
    return b.CreateInsertValue(result, hi, 1);
  };
  auto split128 = [&](Value *wide) {
    return pair(b.CreateTrunc(wide, i64),
                b.CreateTrunc(b.CreateLShr(wide, 64), i64));
  };
  auto join128 = [&](Value *lo, Value *hi) {
    Type *i128 = b.getInt128Ty();
    return b.CreateOr(b.CreateZExt(lo, i128),
                      b.CreateShl(b.CreateZExt(hi, i128), 64));
  };
  auto matches = [&](unsigned operands, Type *result) {
    return call->arg_size() == operands && (!result || type == result);
  };

  // add/sub/mul.rnd[.ftz].{f32,f64} $0, $1, $2;
  Regex arithmetic(
      "^(add|sub|mul)\\.(rn|rz|rm|rp)(\\.ftz)?\\.(f32|f64) \\$0, \\$1, \\$2;$");
  SmallVector<StringRef> groups;
  if (arithmetic.match(text, &groups) && call->arg_size() == 2) {
    Type *t = groups[4] == "f32" ? b.getFloatTy() : b.getDoubleTy();
    if (type == t) {
      ArithOp op = *mlir::fuser::simt::parseArithOp(groups[1]);
      Rounding mode = *mlir::fuser::simt::parseRounding(groups[2]);
      bool isFloat = t->isFloatTy();
      replace(call, b.CreateCall(getRuntime(isFloat ? "fuserSimtArithF32"
                                                    : "fuserSimtArithF64",
                                            t, {i32, i32, i32, t, t, t}),
                                 {b.getInt32(uint32_t(op)),
                                  b.getInt32(uint32_t(mode)),
                                  b.getInt32(!groups[3].empty()), arg(0),
                                  arg(1), ConstantFP::get(t, 0.0)}));
      return Error::success();
    }
  }

  for (const auto &[entry, kind] : kAsmTable) {
    if (text != normalizeAsm(entry))
      continue;
    switch (kind) {
    case AsmKind::RcpApproxFtzF32:
    case AsmKind::RsqrtApproxFtzF64: {
      bool isFloat = kind == AsmKind::RcpApproxFtzF32;
      Type *t = isFloat ? b.getFloatTy() : b.getDoubleTy();
      if (!matches(1, t))
        break;
      ApproxOp op = isFloat ? ApproxOp::Rcp : ApproxOp::Rsqrt;
      replace(call, b.CreateCall(getRuntime(isFloat ? "fuserSimtApproxF32"
                                                    : "fuserSimtApproxF64",
                                            t, {i32, i32, t, t}),
                                 {b.getInt32(uint32_t(op)), b.getInt32(1),
                                  arg(0), ConstantFP::get(t, 0.0)}));
      return Error::success();
    }
    case AsmKind::BfindShiftAmtU32: {
      if (!matches(1, i32))
        break;
      // The shift that brings the highest set bit to bit 31; 0xffffffff
      // for 0.
      Value *leading =
          b.CreateBinaryIntrinsic(Intrinsic::ctlz, arg(0), b.getTrue());
      replace(call, b.CreateSelect(b.CreateICmpEQ(arg(0), b.getInt32(0)),
                                   b.getInt32(0xffffffff), leading));
      return Error::success();
    }
    case AsmKind::MadWide32: {
      if (!matches(3, nullptr))
        break;
      // {lo, hi} of a * b + c in 64 bits (the carry goes into hi).
      Value *wide = b.CreateAdd(
          b.CreateMul(b.CreateZExt(arg(0), i64), b.CreateZExt(arg(1), i64)),
          b.CreateZExt(arg(2), i64));
      replace(call, pair(b.CreateTrunc(wide, i32),
                         b.CreateTrunc(b.CreateLShr(wide, 32), i32)));
      return Error::success();
    }
    case AsmKind::Mul64Wide:
    case AsmKind::Mad64Wide: {
      unsigned operands = kind == AsmKind::Mul64Wide ? 2 : 3;
      if (!matches(operands, nullptr))
        break;
      Type *i128 = b.getInt128Ty();
      Value *wide =
          b.CreateMul(b.CreateZExt(arg(0), i128), b.CreateZExt(arg(1), i128));
      if (operands == 3)
        wide = b.CreateAdd(wide, b.CreateZExt(arg(2), i128));
      replace(call, split128(wide));
      return Error::success();
    }
    case AsmKind::Add128:
    case AsmKind::Sub128: {
      if (!matches(4, nullptr))
        break;
      Value *x = join128(arg(0), arg(1)), *y = join128(arg(2), arg(3));
      replace(call, split128(kind == AsmKind::Add128 ? b.CreateAdd(x, y)
                                                     : b.CreateSub(x, y)));
      return Error::success();
    }
    case AsmKind::SelectIfUnorderedOrEqualF64: {
      if (!matches(4, b.getDoubleTy()))
        break;
      replace(call,
              b.CreateSelect(b.CreateFCmpUEQ(arg(0), arg(1)), arg(2), arg(3)));
      return Error::success();
    }
    }
  }
  return unknown(call, "inline PTX \"" + text + "\"");
}

Error Rewriter::rewriteCall(CallInst *call) {
  if (auto *asmValue = dyn_cast<InlineAsm>(call->getCalledOperand()))
    return rewriteAsm(call, *asmValue);
  Function *callee = call->getCalledFunction();
  if (!callee)
    return unknown(call, "an indirect call");
  StringRef name = callee->getName();
  if (name.starts_with("llvm.nvvm."))
    return rewriteIntrinsic(call, name);
  if (auto *intrinsic = dyn_cast<MemIntrinsic>(call))
    return instrument(intrinsic);
  if (!callee->isDeclaration()) {
    checkStack(call);
    return Error::success();
  }
  if (isRuntimeSymbol(name))
    return Error::success();
  if (callee->isIntrinsic()) {
    Intrinsic::ID id = callee->getIntrinsicID();
    if (id == Intrinsic::trap || id == Intrinsic::debugtrap ||
        id == Intrinsic::ubsantrap) {
      // On the host a trap would kill the process: the kernel stops with a
      // report instead.
      IRBuilder<> b(call);
      b.CreateCall(getRuntime("fuserSimtTrap", b.getVoidTy(), {i32}),
                   {b.getInt32(getSite(call))});
      replace(call, nullptr);
      return Error::success();
    }
    // Target-independent intrinsics the host compiles (llvm.fma,
    // llvm.smax, ...); the atomic and memory ones are not expected here.
    return Error::success();
  }
  return unknown(call, "a call of external function @" + name);
}

Error Rewriter::instrument(Instruction *inst) {
  Value *address = nullptr;
  Value *bytes = nullptr;
  uint64_t align = 1;
  bool isStore = false;
  const DataLayout &layout = module.getDataLayout();
  auto memoryOperand = [&](Value *pointer, Value *size, uint64_t alignment,
                           bool store) -> Error {
    IRBuilder<> b(inst);
    // The thread's own stack (a private array): checked against the array
    // where the access is not at a constant offset inside it.
    if (auto *array = dyn_cast<AllocaInst>(
            getUnderlyingObject(pointer, /*MaxLookup=*/0))) {
      std::optional<TypeSize> arrayBytes = array->getAllocationSize(layout);
      auto *constantSize = dyn_cast<ConstantInt>(size);
      APInt offset(layout.getIndexTypeSizeInBits(pointer->getType()), 0);
      const Value *base = pointer->stripAndAccumulateConstantOffsets(
          layout, offset, /*AllowNonInbounds=*/true);
      if ((arrayBytes && arrayBytes->isScalable()) ||
          (arrayBytes && base == array && constantSize &&
           !offset.isNegative() &&
           offset.getZExtValue() + constantSize->getZExtValue() <=
               arrayBytes->getFixedValue()))
        return Error::success();
      // A dynamic alloca's size is known where it runs (its count dominates
      // every access through it).
      Value *arraySize =
          arrayBytes
              ? static_cast<Value *>(
                    ConstantInt::get(i64, arrayBytes->getFixedValue()))
              : b.CreateMul(
                    b.CreateZExtOrTrunc(array->getArraySize(), i64),
                    ConstantInt::get(i64, layout.getTypeAllocSize(
                                              array->getAllocatedType())));
      Value *generic = pointer->getType()->getPointerAddressSpace()
                           ? b.CreateAddrSpaceCast(pointer, ptr)
                           : pointer;
      Value *arrayBase = array->getType()->getPointerAddressSpace()
                             ? b.CreateAddrSpaceCast(array, ptr)
                             : static_cast<Value *>(array);
      b.CreateCall(getRuntime("fuserSimtLocalAccess", b.getVoidTy(),
                              {ptr, i64, ptr, i64, i32, i32}),
                   {generic, size, arrayBase, arraySize,
                    b.getInt32(getSite(inst)), b.getInt32(store)});
      return Error::success();
    }
    unsigned space = pointer->getType()->getPointerAddressSpace();
    Value *generic = space ? b.CreateAddrSpaceCast(pointer, ptr) : pointer;
    uint32_t site = getSite(inst);
    b.CreateCall(getRuntime("fuserSimtAccess", b.getVoidTy(),
                            {ptr, i64, i32, i32, i32, i32}),
                 {generic, size, b.getInt32(alignment), b.getInt32(space),
                  b.getInt32(site), b.getInt32(store)});
    if (store) {
      b.SetInsertPoint(inst->getNextNode());
      b.CreateCall(
          getRuntime("fuserSimtStored", b.getVoidTy(), {ptr, i64, i32}),
          {generic, size, b.getInt32(site)});
    }
    return Error::success();
  };
  if (auto *load = dyn_cast<LoadInst>(inst)) {
    address = load->getPointerOperand();
    bytes = ConstantInt::get(i64, layout.getTypeStoreSize(load->getType()));
    align = load->getAlign().value();
  } else if (auto *store = dyn_cast<StoreInst>(inst)) {
    address = store->getPointerOperand();
    bytes = ConstantInt::get(
        i64, layout.getTypeStoreSize(store->getValueOperand()->getType()));
    align = store->getAlign().value();
    isStore = true;
  } else if (auto *transfer = dyn_cast<MemTransferInst>(inst)) {
    Value *length =
        IRBuilder<>(inst).CreateZExtOrTrunc(transfer->getLength(), i64);
    if (Error e = memoryOperand(transfer->getSource(), length,
                                transfer->getSourceAlign().valueOrOne().value(),
                                /*store=*/false))
      return e;
    address = transfer->getDest();
    bytes = length;
    align = transfer->getDestAlign().valueOrOne().value();
    isStore = true;
  } else if (auto *set = dyn_cast<MemSetInst>(inst)) {
    address = set->getDest();
    bytes = IRBuilder<>(inst).CreateZExtOrTrunc(set->getLength(), i64);
    align = set->getDestAlign().valueOrOne().value();
    isStore = true;
  } else {
    return unknown(inst, "an atomic memory operation");
  }
  return memoryOperand(address, bytes, align, isStore);
}

/// A GPU's integer division by zero (or of the smallest signed value by -1)
/// gives some value; the host's traps. The divisor becomes 1 there: the
/// result is as unspecified as on the GPU, and the process lives.
void Rewriter::guardDivision(BinaryOperator *division) {
  IRBuilder<> b(division);
  Value *divisor = division->getOperand(1);
  Type *type = divisor->getType();
  Value *zero = Constant::getNullValue(type);
  Value *one = ConstantInt::get(type, 1);
  Value *unsafe = b.CreateICmpEQ(divisor, zero);
  if (division->getOpcode() == Instruction::SDiv ||
      division->getOpcode() == Instruction::SRem) {
    unsigned bits = type->getScalarSizeInBits();
    Value *smallest =
        ConstantInt::get(type, APInt::getSignedMinValue(bits));
    Value *overflows =
        b.CreateAnd(b.CreateICmpEQ(division->getOperand(0), smallest),
                    b.CreateICmpEQ(divisor, Constant::getAllOnesValue(type)));
    unsafe = b.CreateOr(unsafe, overflows);
  }
  division->setOperand(1, b.CreateSelect(unsafe, one, divisor));
}

/// PTX's float arithmetic gives the canonical NaN, the host's one of its
/// operands' NaNs: without this, lanes that combine the same NaNs in other
/// orders (a butterfly all-reduce) would hold different bits, and their
/// stores of "one value" would race. The same NaN as DeviceMath's.
void Rewriter::canonicalizeNaN(BinaryOperator *arithmetic) {
  IRBuilder<> b(arithmetic->getNextNode());
  Type *type = arithmetic->getType();
  Value *nan = ConstantFP::getQNaN(type);
  Value *isNaN = b.CreateFCmpUNO(arithmetic, arithmetic);
  Value *result = b.CreateSelect(isNaN, nan, arithmetic);
  arithmetic->replaceUsesWithIf(result, [&](Use &use) {
    return use.getUser() != isNaN && use.getUser() != result;
  });
}

Instruction *Rewriter::addColdPath(Value *condition, Instruction *before) {
  BasicBlock *head = before->getParent();
  BasicBlock *rest = head->splitBasicBlock(before->getIterator());
  BasicBlock *cold = BasicBlock::Create(context, "", head->getParent());
  Instruction *jump = head->getTerminator();
  IRBuilder<> b(jump);
  b.CreateCondBr(condition, cold, rest,
                 MDBuilder(context).createUnlikelyBranchWeights());
  jump->eraseFromParent();
  return new UnreachableInst(context, cold);
}

uint64_t Rewriter::getStaticAllocaBytes(Function &f) {
  auto [it, inserted] = staticAllocaBytes.try_emplace(&f, 0);
  if (!inserted)
    return it->second;
  const DataLayout &layout = module.getDataLayout();
  uint64_t bytes = 0;
  for (Instruction &inst : f.getEntryBlock())
    if (auto *alloca = dyn_cast<AllocaInst>(&inst);
        alloca && alloca->isStaticAlloca())
      if (std::optional<TypeSize> size = alloca->getAllocationSize(layout);
          size && !size->isScalable())
        bytes = alignTo(bytes, alloca->getAlign()) + size->getFixedValue();
  staticAllocaBytes[&f] = bytes;
  return bytes;
}

std::pair<uint64_t, uint64_t> Rewriter::getCallChainBytes(Function &f) {
  auto it = callChainBytes.find(&f);
  if (it != callChainBytes.end())
    return it->second;
  // Reached again while its callees are visited: recursion, counted once.
  callChainBytes[&f] = {0, 0};
  uint64_t local = 0, frames = 0;
  for (Instruction &inst : instructions(f))
    if (auto *call = dyn_cast<CallInst>(&inst))
      if (Function *callee = call->getCalledFunction();
          callee && !callee->isDeclaration()) {
        auto [calleeLocal, calleeFrames] = getCallChainBytes(*callee);
        local = std::max(local, calleeLocal);
        frames = std::max(frames, calleeFrames);
      }
  uint64_t own = getStaticAllocaBytes(f);
  std::pair<uint64_t, uint64_t> result = {own + local,
                                          own + Limits::kFrameBytes + frames};
  callChainBytes[&f] = result;
  return result;
}

void Rewriter::checkStack(CallInst *call) {
  Function *callee = call->getCalledFunction();
  uint64_t need = getStaticAllocaBytes(*callee) + Limits::kFrameBytes;
  uint32_t site = getSite(call);
  // sp - limit < need, signed: sp may already be below the limit, in the
  // reserve.
  IRBuilder<> b(call);
  Value *sp = b.CreatePtrToInt(b.CreateStackSave(), i64);
  Value *room = b.CreateSub(sp, b.CreateLoad(i64, stackLimit));
  Value *tooLittle = b.CreateICmpSLT(room, ConstantInt::get(i64, need));
  b.SetInsertPoint(addColdPath(tooLittle, call));
  CallInst *report = b.CreateCall(
      getRuntime("fuserSimtStackOverflow", b.getVoidTy(), {i64, i64, i32}),
      {room, ConstantInt::get(i64, need), b.getInt32(site)});
  report->setDoesNotReturn();
}

void Rewriter::checkDynamicAlloca(AllocaInst *alloca) {
  const DataLayout &layout = module.getDataLayout();
  IRBuilder<> b(alloca);
  b.CreateCall(
      getRuntime("fuserSimtAlloca", b.getVoidTy(), {ptr, i64, i64, i32}),
      {b.CreateStackSave(), b.CreateZExtOrTrunc(alloca->getArraySize(), i64),
       ConstantInt::get(i64,
                        layout.getTypeAllocSize(alloca->getAllocatedType())),
       b.getInt32(getSite(alloca))});
}

SmallSetVector<BasicBlock *, 8> Rewriter::getLoopHeaders(Function &f) {
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>> backEdges;
  FindFunctionBackedges(f, backEdges);
  // Every cycle of the control flow has an edge back to a block on the
  // depth-first path: counting the entries of those blocks bounds every
  // loop, irreducible ones included.
  SmallSetVector<BasicBlock *, 8> headers;
  for (auto [from, to] : backEdges)
    headers.insert(const_cast<BasicBlock *>(to));
  return headers;
}

void Rewriter::countLoopIterations(
    Function &f, const DenseMap<BasicBlock *, uint32_t> &headerSites) {
  // Splitting blocks keeps each header (the first half) and its back edges.
  for (BasicBlock *header : getLoopHeaders(f)) {
    Instruction *first = &*header->getFirstInsertionPt();
    auto known = headerSites.find(header);
    uint32_t site = known != headerSites.end() ? known->second : getSite(first);
    IRBuilder<> b(first);
    Value *left = b.CreateSub(b.CreateLoad(i64, stepsLeft), b.getInt64(1));
    b.CreateStore(left, stepsLeft);
    Value *spent = b.CreateICmpEQ(left, b.getInt64(0));
    b.SetInsertPoint(addColdPath(spent, first));
    b.CreateCall(getRuntime("fuserSimtSteps", b.getVoidTy(), {i32}),
                 {b.getInt32(site)})
        ->setDoesNotReturn();
  }
}

Error Rewriter::addEntry(Function &kernel) {
  const DataLayout &layout = module.getDataLayout();
  KernelInfo info;
  info.name = kernel.getName().str();
  info.entry = ("__fuser_simt_entry." + kernel.getName()).str();
  auto *entry = Function::Create(
      FunctionType::get(Type::getVoidTy(context), {ptr}, false),
      GlobalValue::ExternalLinkage, info.entry, module);
  IRBuilder<> b(BasicBlock::Create(context, "entry", entry));
  SmallVector<Value *> args;
  for (Argument &argument : kernel.args()) {
    Type *type = argument.getType();
    if (argument.hasByValAttr())
      return createStringError("kernel @" + kernel.getName() +
                               " takes a byval parameter, which the emulator "
                               "does not pass");
    Value *slot = b.CreateLoad(
        ptr, b.CreateConstGEP1_64(ptr, entry->getArg(0), argument.getArgNo()));
    args.push_back(b.CreateLoad(type, slot));
    Kernel::Param param;
    param.bytes = layout.getTypeAllocSize(type);
    param.isPointer = type->isPointerTy();
    // What lets the GPU read through the non-coherent cache: no write
    // through any pointer into it during the launch.
    param.readOnly = param.isPointer && argument.hasNoAliasAttr() &&
                     argument.hasAttribute(Attribute::ReadOnly);
    info.params.push_back(param);
  }
  CallInst *call = b.CreateCall(&kernel, args);
  b.CreateRetVoid();
  checkStack(call);
  std::tie(info.localBytes, info.frameBytes) = getCallChainBytes(kernel);
  if (info.localBytes > Chip::kMaxLocalBytes)
    return createStringError(
        "kernel @" + kernel.getName() + " uses " + Twine(info.localBytes) +
        " bytes of local memory per thread (its private arrays); sm_90 "
        "allows at most " +
        Twine(Chip::kMaxLocalBytes));
  kernels.push_back(std::move(info));
  return Error::success();
}

Error Rewriter::run() {
  if (!module.getTargetTriple().isNVPTX())
    return createStringError("the module is for " +
                             module.getTargetTriple().str() +
                             ", not nvptx64 (expected the output of "
                             "gpu-module-to-binary{format=llvm})");
  const DataLayout &layout = module.getDataLayout();
  for (GlobalVariable &global : module.globals()) {
    unsigned space = global.getAddressSpace();
    if (global.isDeclaration())
      return createStringError(
          "global @" + global.getName() +
          (space == 3 ? " is dynamic shared memory (extern __shared__), which "
                        "the emulator does not support"
                      : " is declared but not defined"));
    uint64_t bytes = layout.getTypeAllocSize(global.getValueType());
    std::string original = global.getName().str();
    std::string name =
        ("__fuser_simt_global." + Twine(shared.size() + globals.size())).str();
    global.setName(name);
    global.setLinkage(GlobalValue::ExternalLinkage);
    global.setVisibility(GlobalValue::DefaultVisibility);
    if (space == 3) {
      // Looked up by its new name, reported by its own.
      shared.push_back({name, original, nullptr, bytes});
      // Shared memory has no initial value (the device fills it).
      global.setInitializer(Constant::getNullValue(global.getValueType()));
    } else {
      globals.push_back({name, bytes, global.isConstant() || space == 4});
    }
  }

  auto addCounter = [&](const char *name) {
    return new GlobalVariable(module, i64, /*isConstant=*/false,
                              GlobalValue::ExternalLinkage,
                              ConstantInt::get(i64, 0), name);
  };
  stackLimit = addCounter("__fuser_simt_stack_limit");
  stepsLeft = addCounter("__fuser_simt_steps");

  for (Function &function : module) {
    if (function.isDeclaration())
      continue;
    SmallVector<Instruction *> work;
    SmallVector<BinaryOperator *> divisions, floatArithmetic;
    SmallVector<AllocaInst *> dynamicAllocas;
    // Where each loop starts, as the module has it (the rewrite replaces
    // intrinsics there).
    DenseMap<BasicBlock *, uint32_t> headerSites;
    for (BasicBlock *header : getLoopHeaders(function))
      headerSites[header] = getSite(&*header->getFirstInsertionPt());
    for (Instruction &inst : instructions(function))
      if (isa<CallInst, LoadInst, StoreInst, AtomicRMWInst, AtomicCmpXchgInst>(
              inst))
        work.push_back(&inst);
      else if (inst.isIntDivRem())
        divisions.push_back(cast<BinaryOperator>(&inst));
      else if (isa<BinaryOperator>(inst) && inst.getType()->isFPOrFPVectorTy())
        floatArithmetic.push_back(cast<BinaryOperator>(&inst));
      else if (isa<InvokeInst, CallBrInst>(inst))
        return unknown(&inst, "an invoke or callbr");
      else if (auto *alloca = dyn_cast<AllocaInst>(&inst);
               alloca && !alloca->isStaticAlloca())
        dynamicAllocas.push_back(alloca);
    for (Instruction *inst : work) {
      Error e = isa<CallInst>(inst) ? rewriteCall(cast<CallInst>(inst))
                                    : instrument(inst);
      if (e)
        return e;
    }
    for (BinaryOperator *division : divisions)
      guardDivision(division);
    for (BinaryOperator *arithmetic : floatArithmetic)
      canonicalizeNaN(arithmetic);
    for (AllocaInst *alloca : dynamicAllocas)
      checkDynamicAlloca(alloca);
    countLoopIterations(function, headerSites);
  }

  SmallVector<Function *> kernelFunctions;
  for (Function &function : module) {
    if (function.isDeclaration())
      continue;
    // Nothing the NVPTX target asserted about memory holds once the
    // device's calls are in.
    function.removeFnAttr(Attribute::Memory);
    function.removeFnAttr(Attribute::NoSync);
    function.removeFnAttr("target-cpu");
    function.removeFnAttr("target-features");
    if (function.getCallingConv() == CallingConv::PTX_Kernel)
      kernelFunctions.push_back(&function);
  }
  for (Function *kernel : kernelFunctions) {
    if (Error e = addEntry(*kernel))
      return e;
    kernel->setCallingConv(CallingConv::C);
    for (Argument &argument : kernel->args()) {
      AttributeMask mask;
      mask.addAttribute(Attribute::ReadOnly);
      mask.addAttribute(Attribute::WriteOnly);
      mask.addAttribute(Attribute::ReadNone);
      mask.addAttribute(Attribute::Captures);
      argument.removeAttrs(mask);
    }
  }
  if (kernels.empty())
    return createStringError("the module has no kernel (ptx_kernel function)");
  for (Function &function : llvm::make_early_inc_range(module))
    if (function.isDeclaration() && function.use_empty())
      function.eraseFromParent();
  if (NamedMDNode *annotations = module.getNamedMetadata("nvvm.annotations"))
    module.eraseNamedMetadata(annotations);
  return Error::success();
}

/// The loaded module: its JIT owns the code.
struct HostModule : mlir::fuser::simt::Module {
  std::unique_ptr<orc::LLJIT> jit;
  ~HostModule() override {
    for (const auto &[data, bytes] : registeredGlobals)
      Device::get().removeModuleGlobal(data);
  }
  std::vector<std::pair<char *, uint64_t>> registeredGlobals;
};

} // namespace

Expected<std::unique_ptr<mlir::fuser::simt::Module>>
mlir::fuser::simt::loadHostModule(const void *image, Device &device) {
  // LLVM's bitcode wrapper header: magic, version, offset, size, CPU type.
  uint32_t header[5];
  std::memcpy(header, image, sizeof(header));
  if (header[0] != 0x0B17C0DE)
    return createStringError(
        "the image is not LLVM bitcode in a wrapper header (the emulator runs "
        "gpu-module-to-binary{format=llvm}'s output; a cubin or PTX needs a "
        "GPU)");
  StringRef bitcode(static_cast<const char *>(image) + header[2], header[3]);

  auto context = std::make_unique<LLVMContext>();
  Expected<std::unique_ptr<llvm::Module>> parsed =
      parseBitcodeFile(MemoryBufferRef(bitcode, "device module"), *context);
  if (!parsed)
    return parsed.takeError();
  llvm::Module &module = **parsed;
  Rewriter rewriter(module, device);
  if (Error e = rewriter.run())
    return std::move(e);

  Expected<std::unique_ptr<TargetMachine>> machine =
      createCPUBackendTargetMachine(CodeGenOptLevel::Default);
  if (!machine)
    return machine.takeError();
  llvm::DataLayout layout = (*machine)->createDataLayout();
  module.setTargetTriple((*machine)->getTargetTriple());
  module.setDataLayout(layout);
  std::string broken;
  raw_string_ostream brokenStream(broken);
  if (verifyModule(module, &brokenStream))
    return createStringError("the module rewritten for the host is invalid: " +
                             broken);

  auto shared =
      std::make_shared<std::unique_ptr<TargetMachine>>(std::move(*machine));
  Expected<std::unique_ptr<orc::LLJIT>> jit =
      orc::LLJITBuilder()
          .setDataLayout(layout)
          .setCompileFunctionCreator(
              [shared](orc::JITTargetMachineBuilder)
                  -> Expected<
                      std::unique_ptr<orc::IRCompileLayer::IRCompiler>> {
                if (!*shared)
                  return createStringError("the target machine was taken");
                return std::make_unique<orc::TMOwningSimpleCompiler>(
                    std::move(*shared));
              })
          .create();
  if (!jit)
    return jit.takeError();
  orc::JITDylib &library = (*jit)->getMainJITDylib();
  orc::MangleAndInterner mangle((*jit)->getExecutionSession(), layout);
  orc::SymbolMap symbols;
  auto bind = [&](const char *name, void *address) {
    symbols[mangle(name)] = {orc::ExecutorAddr::fromPtr(address),
                             JITSymbolFlags::Exported};
  };
  for (const auto &[name, address] : kRuntimeSymbols)
    bind(name, address);
  for (const auto &[name, address] : getHalfConversionLibcalls())
    bind(name, address);
  if (Error e = library.define(orc::absoluteSymbols(std::move(symbols))))
    return std::move(e);
  // libm for what the host compiles llvm.sin, llvm.exp2, ... into.
  Expected<std::unique_ptr<orc::DynamicLibrarySearchGenerator>> process =
      orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          layout.getGlobalPrefix());
  if (!process)
    return process.takeError();
  library.addGenerator(std::move(*process));
  if (Error e = (*jit)->addIRModule(
          orc::ThreadSafeModule(std::move(*parsed), std::move(context))))
    return std::move(e);

  auto result = std::make_unique<HostModule>();
  for (Rewriter::KernelInfo &info : rewriter.kernels) {
    Expected<orc::ExecutorAddr> entry = (*jit)->lookup(info.entry);
    if (!entry)
      return entry.takeError();
    auto kernel = std::make_unique<Kernel>();
    kernel->name = info.name;
    kernel->entry = entry->toPtr<void (*)(void **)>();
    kernel->params = std::move(info.params);
    kernel->localBytes = info.localBytes;
    kernel->frameBytes = info.frameBytes;
    kernel->module = result.get();
    result->kernels.push_back(std::move(kernel));
  }
  for (SharedVariable &variable : rewriter.shared) {
    Expected<orc::ExecutorAddr> address = (*jit)->lookup(variable.symbol);
    if (!address)
      return address.takeError();
    variable.address = address->toPtr<char *>();
    result->shared.push_back(variable);
  }
  for (const Rewriter::GlobalInfo &global : rewriter.globals) {
    Expected<orc::ExecutorAddr> address = (*jit)->lookup(global.name);
    if (!address)
      return address.takeError();
    char *data = address->toPtr<char *>();
    device.addModuleGlobal(data, global.bytes, global.constant);
    result->registeredGlobals.push_back({data, global.bytes});
  }
  for (auto [name, address] :
       {std::pair("__fuser_simt_stack_limit", &result->stackLimit),
        std::pair("__fuser_simt_steps", &result->stepsLeft)}) {
    Expected<orc::ExecutorAddr> found = (*jit)->lookup(name);
    if (!found)
      return found.takeError();
    *address = found->toPtr<uint64_t *>();
  }
  result->jit = std::move(*jit);
  return std::unique_ptr<mlir::fuser::simt::Module>(std::move(result));
}
