//===- fuser-fuzz.cpp - libFuzzer target over the fuser front end ---------===//
//
// Each input is parsed as a module (which verifies it) or, when it is not
// MLIR, imported as nvFuser's printed fusion math (`--import-nvfuser`, with
// the symbols i0..i15 bound to small extents); the module is canonicalized,
// printed and re-parsed, and its first function is interpreted on the
// deterministic inputs of PRODUCT.md; then fuser-preseg, fuser-segment and
// the kernel lowering (fuser-schedule, convert-fuser-to-scf) run on it.
// Diagnostics are the expected outcome for most inputs and are dropped: only
// crashes, sanitizer reports and printed IR that does not parse back count as
// findings. scripts/fuzz.sh builds and runs it.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "fuser/Interpreter/Interpreter.h"
#include "fuser/Pipelines/Pipelines.h"
#include "fuser/Registration.h"
#include "fuser/Target/NvFuser/ImportNvFuser.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

using namespace mlir;

namespace {
/// Inputs and intermediates above this many bytes are refused, so that
/// inputs declaring huge tensors are rejected quickly instead of allocating.
constexpr uint64_t kMaxBufferBytes = 1 << 20;

/// The size of a deterministic input of `type`, or nullopt when the
/// interpreter cannot make one (not a static fuser tensor or scalar) or it
/// would be larger than kMaxBufferBytes.
std::optional<uint64_t> getInputByteSize(Type type) {
  FailureOr<uint64_t> bytes = fuser::getValueByteSize(type);
  if (failed(bytes) || *bytes > kMaxBufferBytes)
    return std::nullopt;
  return *bytes;
}

/// Interprets the first function of `module` on seed-0 deterministic inputs.
void interpretFirstFunction(ModuleOp module) {
  auto funcs = module.getOps<func::FuncOp>();
  if (funcs.empty() || (*funcs.begin()).isExternal())
    return;
  func::FuncOp func = *funcs.begin();
  SmallVector<fuser::Buffer> inputs;
  for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
    if (!getInputByteSize(type))
      return;
    inputs.push_back(fuser::makeDeterministicInput(type, index, /*seed=*/0));
  }
  fuser::BackendOptions options;
  options.maxBufferBytes = kMaxBufferBytes;
  (void)fuser::interpret(func, inputs, options);
}

/// Imports `source` as nvFuser's printed fusion math. Dynamic fusions need
/// their symbolic extents bound; i0..i15 get 1..4, so that seeds with
/// symbols import and mutations still meet both broadcasts and mismatches.
OwningOpRef<ModuleOp> importAsNvFuser(const std::string &source,
                                      MLIRContext *context) {
  static const fuser::ImportNvFuserOptions options = [] {
    fuser::ImportNvFuserOptions options;
    for (int64_t i = 0; i < 16; ++i)
      options.extents["i" + std::to_string(i)] = 1 + i % 4;
    return options;
  }();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(source, "fuzz-input",
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  return fuser::importNvFuser(sourceMgr, context, options);
}

const DialectRegistry &getRegistry() {
  static const DialectRegistry registry = [] {
    DialectRegistry registry;
    fuser::registerFuserDialect(registry);
    return registry;
  }();
  return registry;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input keeps inputs independent and memory bounded.
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler dropDiagnostics(
      &context, [](Diagnostic &) { return success(); });

  // The MLIR lexer reads the terminating NUL that files and std::string
  // provide as its end marker; fuzzer data has none.
  std::string source(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  if (!module)
    module = importAsNvFuser(source, &context);
  if (!module)
    return 0;

  PassManager pm(&context);
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(*module)))
    return 0;

  // The canonicalized IR verifies, so both printed forms must parse back.
  for (bool generic : {false, true}) {
    std::string printed;
    llvm::raw_string_ostream os(printed);
    module->print(os, OpPrintingFlags().printGenericOpForm(generic));
    if (!parseSourceString<ModuleOp>(printed, &context)) {
      llvm::errs() << "printed IR does not parse back:\n" << printed;
      std::abort();
    }
  }

  interpretFirstFunction(*module);

  PassManager fusionPm(&context);
  fuser::buildPresegPipeline(fusionPm, fuser::PresegPipelineOptions());
  fusionPm.addNestedPass<func::FuncOp>(fuser::createFuserSegment());
  if (failed(fusionPm.run(*module)))
    return 0;
  // The kernel lowering shared by the GPU path and the CPU backend.
  PassManager kernelPm(&context);
  fuser::buildLowerToKernelLoopsPipeline(kernelPm);
  (void)kernelPm.run(*module);
  return 0;
}
