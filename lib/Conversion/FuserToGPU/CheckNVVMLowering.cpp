//===- CheckNVVMLowering.cpp - input and option checks of the GPU path ----===//
//
// `fuser-check-nvvm-lowering`: the first pass of `--fuser-lower-to-nvvm`. It
// turns what would otherwise be an LLVM abort (`+ptx60` with `sm_90`), a late
// ptxas failure (a chip it does not know, a missing toolkit) or a confusing
// legalization failure (an unsegmented fusion) into one clear error.
//
//===----------------------------------------------------------------------===//

#include "fuser/Conversion/FuserToGPU/NVVMTarget.h"
#include "fuser/Conversion/Passes.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTargetMC();

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERCHECKNVVMLOWERING
#include "fuser/Conversion/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

namespace {

constexpr llvm::StringLiteral kNVPTXTriple = "nvptx64-nvidia-cuda";

/// LLVM's NVPTX subtarget table (processors and features), created once.
const llvm::MCSubtargetInfo *getNVPTXSubtargetInfo() {
  static std::unique_ptr<llvm::MCSubtargetInfo> info = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    std::string error;
    llvm::Triple triple(kNVPTXTriple);
    const llvm::Target *target =
        llvm::TargetRegistry::lookupTarget(triple, error);
    if (!target)
      return std::unique_ptr<llvm::MCSubtargetInfo>();
    return std::unique_ptr<llvm::MCSubtargetInfo>(
        target->createMCSubtargetInfo(triple, "", ""));
  }();
  return info.get();
}

/// "ptx78" -> 78.
std::optional<unsigned> parsePTXFeature(StringRef name) {
  unsigned version;
  if (!name.consume_front("ptx") || name.getAsInteger(10, version))
    return std::nullopt;
  return version;
}

std::string formatPTXVersion(unsigned version) {
  return std::to_string(version / 10) + "." + std::to_string(version % 10);
}

/// The `--gpu-name` values that `ptxas --help` lists, once per ptxas path.
/// An empty set means the list could not be read (then nothing is refused).
const llvm::StringSet<> &getPtxasChips(StringRef ptxas) {
  static std::mutex mutex;
  static llvm::StringMap<llvm::StringSet<>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = cache.try_emplace(ptxas);
  if (!inserted)
    return it->second;
  SmallString<128> outPath;
  if (llvm::sys::fs::createTemporaryFile("fuser-ptxas-help", "txt", outPath))
    return it->second;
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(outPath),
                                          StringRef(outPath)};
  StringRef args[] = {ptxas, "--help"};
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, /*Env=*/std::nullopt,
                                     redirects, /*SecondsToWait=*/30);
  auto buffer = llvm::MemoryBuffer::getFile(outPath);
  llvm::sys::fs::remove(outPath);
  if (rc != 0 || !buffer)
    return it->second;
  StringRef text = (*buffer)->getBuffer();
  size_t option = text.find("--gpu-name");
  if (option == StringRef::npos)
    return it->second;
  text = text.drop_front(option);
  size_t allowed = text.find("Allowed values for this option:");
  if (allowed == StringRef::npos)
    return it->second;
  text = text.drop_front(allowed);
  text = text.take_front(text.find("Default value"));
  // 'compute_90','sm_90',... possibly wrapped over several lines.
  while (true) {
    size_t open = text.find('\'');
    if (open == StringRef::npos)
      break;
    size_t close = text.find('\'', open + 1);
    if (close == StringRef::npos)
      break;
    it->second.insert(text.slice(open + 1, close));
    text = text.drop_front(close + 1);
  }
  return it->second;
}

} // namespace

/// The lowest PTX version LLVM 22's NVPTX backend accepts per chip (it
/// aborts below it, and picks it when `features` names none). LLVM computes
/// these in code, not in its feature table, so they are listed here; they
/// were measured with `llc -mcpu=<chip> -mattr=+ptx<NN>` of LLVM 22.1.
constexpr std::pair<llvm::StringLiteral, unsigned> kMinimumPTX[] = {
    {"sm_20", 32},   {"sm_21", 32},   {"sm_30", 32},   {"sm_32", 40},
    {"sm_35", 32},   {"sm_37", 41},   {"sm_50", 40},   {"sm_52", 41},
    {"sm_53", 42},   {"sm_60", 50},   {"sm_61", 50},   {"sm_62", 50},
    {"sm_70", 60},   {"sm_72", 61},   {"sm_75", 63},   {"sm_80", 70},
    {"sm_86", 71},   {"sm_87", 74},   {"sm_88", 90},   {"sm_89", 78},
    {"sm_90", 78},   {"sm_90a", 80},  {"sm_100", 86},  {"sm_100a", 86},
    {"sm_100f", 88}, {"sm_101", 86},  {"sm_101a", 86}, {"sm_101f", 88},
    {"sm_103", 88},  {"sm_103a", 88}, {"sm_103f", 88}, {"sm_110", 90},
    {"sm_110a", 90}, {"sm_110f", 90}, {"sm_120", 87},  {"sm_120a", 87},
    {"sm_120f", 88}, {"sm_121", 88},  {"sm_121a", 88}, {"sm_121f", 88},
};

std::optional<unsigned> mlir::fuser::getMinimumPTXVersion(StringRef chip) {
  const llvm::MCSubtargetInfo *info = getNVPTXSubtargetInfo();
  if (!info || !llvm::any_of(info->getAllProcessorDescriptions(),
                             [&](const llvm::SubtargetSubTypeKV &p) {
                               return StringRef(p.Key) == chip;
                             }))
    return std::nullopt;
  for (const auto &[name, version] : kMinimumPTX)
    if (name == chip)
      return version;
  // A chip of a newer LLVM than this table: 0 lets any PTX feature through
  // (LLVM still checks it).
  return 0;
}

std::optional<std::string>
mlir::fuser::checkNVVMTargetOptions(StringRef chip, StringRef features,
                                    StringRef format, unsigned optLevel,
                                    StringRef toolkit) {
  if (format != "isa" && format != "bin" && format != "fatbin" &&
      format != "llvm")
    return ("format=" + format +
            ": unknown output format (expected isa, bin, fatbin or llvm)")
        .str();
  if (optLevel > 3)
    return "opt-level=" + std::to_string(optLevel) +
           ": expected an optimization level from 0 to 3";

  const llvm::MCSubtargetInfo *info = getNVPTXSubtargetInfo();
  if (!info)
    return std::string("LLVM was built without the NVPTX backend");
  std::optional<unsigned> minPTX = getMinimumPTXVersion(chip);
  if (!minPTX)
    return ("chip=" + chip +
            ": not a GPU that LLVM's NVPTX backend knows (expected sm_XY, "
            "e.g. sm_80, sm_90, sm_90a, sm_100)")
        .str();

  // features: "+ptx80,-foo".
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    StringRef feature = part.trim();
    if (feature.empty())
      continue;
    bool enable = feature.front() == '+';
    if (!enable && feature.front() != '-')
      return ("features=" + features + ": '" + feature +
              "' must start with '+' or '-'")
          .str();
    StringRef name = feature.drop_front();
    if (!llvm::any_of(info->getAllProcessorFeatures(),
                      [&](const llvm::SubtargetFeatureKV &f) {
                        return StringRef(f.Key) == name;
                      }))
      return ("features=" + features + ": '" + name +
              "' is not an NVPTX feature (e.g. +ptx80)")
          .str();
    std::optional<unsigned> ptx = parsePTXFeature(name);
    if (enable && ptx && *ptx < *minPTX)
      return ("features=" + features + ": " + chip + " needs PTX " +
              formatPTXVersion(*minPTX) + " or newer (+ptx" +
              std::to_string(*minPTX) + "), not PTX " +
              formatPTXVersion(*ptx) +
              "; leave features empty for the lowest PTX the chip accepts")
          .str();
  }

  // toolkit: ptxas (and fatbinary) under <toolkit>/bin.
  SmallString<128> ptxas(toolkit);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (!llvm::sys::fs::can_execute(ptxas))
    return ("toolkit=" + toolkit + ": no executable ptxas at " + ptxas +
            "; set the `toolkit` option to the CUDA toolkit root (the "
            "directory that holds bin/ptxas and nvvm/libdevice)")
        .str();
  if (format == "fatbin") {
    SmallString<128> fatbinary(toolkit);
    llvm::sys::path::append(fatbinary, "bin", "fatbinary");
    if (!llvm::sys::fs::can_execute(fatbinary))
      return ("toolkit=" + toolkit + ": format=fatbin needs " + fatbinary +
              ", which is missing; set the `toolkit` option to the CUDA "
              "toolkit root, or use format=bin")
          .str();
  }
  const llvm::StringSet<> &chips = getPtxasChips(ptxas);
  if (!chips.empty() && !chips.contains(chip)) {
    SmallVector<StringRef> known;
    for (const auto &entry : chips)
      if (entry.getKey().starts_with("sm_"))
        known.push_back(entry.getKey());
    llvm::sort(known);
    return ("chip=" + chip + ": " + ptxas +
            " does not support this GPU (it supports " +
            llvm::join(known, ", ") + ")")
        .str();
  }
  return std::nullopt;
}

namespace {

struct FuserCheckNVVMLoweringPass
    : public fuser::impl::FuserCheckNVVMLoweringBase<
          FuserCheckNVVMLoweringPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (std::optional<std::string> error = checkNVVMTargetOptions(
            chip, features, format, optLevel, toolkit)) {
      // Not module.emitError(): that would print the whole module as a note.
      mlir::emitError(module.getLoc()) << "--fuser-lower-to-nvvm: " << *error;
      return signalPassFailure();
    }

    bool failed = false;
    module.walk([&](func::FuncOp func) {
      for (Operation &op : func.getBody().getOps()) {
        if (!isa_and_nonnull<FuserDialect>(op.getDialect()))
          continue;
        if (kernelLoops) {
          op.emitError() << "'" << op.getName()
                         << "' in the input of --fuser-kernel-loops-to-nvvm, "
                            "which takes host functions on memrefs "
                            "(convert-fuser-to-scf); use "
                            "--fuser-lower-to-nvvm for fusions";
          failed = true;
          break;
        }
        if (isa<SegmentOp>(op))
          continue;
        op.emitError() << "fusion @" << func.getSymName()
                       << " is not segmented ('" << op.getName()
                       << "' outside a fuser.segment): run --fuser-segment "
                          "before --fuser-lower-to-nvvm";
        failed = true;
        break;
      }
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
