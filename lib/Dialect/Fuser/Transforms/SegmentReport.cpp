//===- SegmentReport.cpp - what a segmentation costs, as text or DOT ------===//
//
// `fuser-segment-report` prints, per segmented fusion, the kernels it
// launches and the bytes each segment reads and writes; `fuser-segment-graph`
// writes the segment graph (fusion inputs, segments, results) as Graphviz
// DOT. Both read the IR `fuser-segment` produced, so they also describe
// hand-written or otherwise produced segmentations. What they print comes
// from the FusionTraffic analysis (fuser/Analysis/SegmentTraffic.h); this
// file only formats it.
//
//===----------------------------------------------------------------------===//

#include "fuser/Analysis/KernelTemplates.h"
#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/Fusion.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERSEGMENTREPORT
#define GEN_PASS_DEF_FUSERSEGMENTGRAPH
#include "fuser/Dialect/Fuser/Transforms/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

/// `33554432 bytes (32 MiB)`; the unit part only where it is exact.
static std::string formatBytes(ByteCount count) {
  if (count.overflowed)
    return "more than " + std::to_string(UINT64_MAX) + " bytes";
  uint64_t bytes = count.bytes;
  std::string text = std::to_string(bytes) + " bytes";
  constexpr uint64_t kiB = 1024, miB = 1024 * 1024, giB = miB * 1024;
  if (bytes == 0)
    return text;
  if (bytes % giB == 0)
    return text + " (" + std::to_string(bytes / giB) + " GiB)";
  if (bytes % miB == 0)
    return text + " (" + std::to_string(bytes / miB) + " MiB)";
  if (bytes % kiB == 0)
    return text + " (" + std::to_string(bytes / kiB) + " KiB)";
  return text;
}

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// The segments and return operands that read `value`, e.g. `#2, return 0`.
static std::string formatReaders(const FusionTraffic &fusion, Value value) {
  SmallVector<std::string> readers;
  for (FusionValueReader reader : fusion.getReaders(value))
    readers.push_back(
        (reader.kind == FusionValueReader::Kind::Segment ? "#" : "return ") +
        std::to_string(reader.number));
  return llvm::join(readers, ", ");
}

/// What computes an outside value, after its name and `=`:
/// `arith.constant 2.000000e+00 : f32`, `arith.addf %arg1, %s0 : f32`.
static std::string formatOutsideOp(const FusionTraffic &fusion, Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName();
  Attribute value;
  if (op->getNumResults() == 1 &&
      matchPattern(op->getResult(0), m_Constant(&value))) {
    os << " ";
    value.print(os, /*elideType=*/true);
  } else if (op->getNumOperands() != 0) {
    os << " ";
    llvm::interleaveComma(op->getOperands(), os, [&](Value operand) {
      os << fusion.getName(operand);
    });
  }
  os << " : ";
  llvm::interleaveComma(op->getResultTypes(), os);
  return text;
}

/// The ops outside all segments, each once, in program order.
static SmallVector<Operation *> getOutsideOps(const FusionTraffic &fusion) {
  SmallVector<Operation *> ops;
  for (Value value : fusion.getOutsideValues())
    if (ops.empty() || ops.back() != value.getDefiningOp())
      ops.push_back(value.getDefiningOp());
  return ops;
}

static void printReport(const FusionTraffic &fusion, const TargetInfo &target,
                        raw_ostream &os) {
  unsigned numKernels = fusion.getNumKernels();
  unsigned numSegments = fusion.getNumSegments();
  os << "fusion @" << fusion.getFunc().getSymName() << ": " << numKernels
     << (numKernels == 1 ? " kernel, " : " kernels, ") << numSegments
     << (numSegments == 1 ? " segment" : " segments") << ", reads "
     << formatBytes(fusion.getBytesRead()) << ", writes "
     << formatBytes(fusion.getBytesWritten()) << "\n";
  for (Operation *op : getOutsideOps(fusion)) {
    os << "  ";
    llvm::interleaveComma(op->getResults(), os,
                          [&](Value result) { os << fusion.getName(result); });
    os << " = " << formatOutsideOp(fusion, op) << "\n";
  }
  // The kernels that read each segment's results, in order.
  DenseMap<Operation *, SmallVector<unsigned>> kernelReaders;
  for (auto [index, segment] : llvm::enumerate(fusion.getSegments())) {
    if (segment.isAlias())
      continue;
    SegmentOp reader = segment.op;
    for (Value input : reader.getInputs()) {
      auto producer = input.getDefiningOp<SegmentOp>();
      if (!producer)
        continue;
      SmallVector<unsigned> &readers = kernelReaders[producer];
      if (readers.empty() || readers.back() != index)
        readers.push_back(index);
    }
  }
  for (auto [index, segment] : llvm::enumerate(fusion.getSegments())) {
    os << "  segment #" << index << " " << stringifySegmentKind(segment.kind)
       << (segment.isAlias() ? " (no kernel)" : "") << ": reads "
       << formatBytes(segment.bytesRead) << ", writes "
       << formatBytes(segment.bytesWritten) << "\n";
    SegmentOp op = segment.op;
    // Scheduled kernels (fuser-schedule): how they launch.
    if (ScheduleAttr schedule = op.getScheduleAttr()) {
      os << "    kernel " << stringifyScheduleKind(schedule.getKind())
         << ": grid " << schedule.getBlocks() << " x " << schedule.getThreads()
         << " threads, " << schedule.getVector() << " elements per access";
      if (schedule.getSplit() > 1)
        os << ", " << schedule.getSplit()
           << " threads share each reduction output";
      os << "\n";
    }
    for (auto [input, bytes] :
         llvm::zip_equal(op.getInputs(), segment.inputBytes)) {
      os << "    in  " << fusion.getName(input) << ": " << input.getType();
      if (!segment.isAlias())
        os << ", " << formatBytes(bytes);
      os << "\n";
    }
    for (auto [resultNumber, result] : llvm::enumerate(op.getResults())) {
      os << "    out " << fusion.getName(result) << ": " << result.getType();
      if (!segment.isAlias()) {
        os << ", " << formatBytes(segment.resultBytes[resultNumber]);
      } else if (const std::optional<AliasView> &alias =
                     segment.aliasViews[resultNumber]) {
        os << ", view of in " << alias->inputIndex << ": sizes [";
        llvm::interleaveComma(alias->view.sizes, os);
        os << "], strides [";
        llvm::interleaveComma(alias->view.strides, os);
        os << "], offset " << alias->view.offset;
      } else {
        os << ", not a strided view of an input";
      }
      std::string readers = formatReaders(fusion, result);
      if (!readers.empty())
        os << " -> " << readers;
      os << "\n";
    }
    // Why the kernels that read this one's results are kernels of their
    // own, where a kernel template refuses the two as one (otherwise a
    // cycle through a third kernel, the merge order or the pass's options
    // kept them apart).
    if (segment.isAlias())
      continue;
    for (unsigned readerIndex : kernelReaders.lookup(op)) {
      KernelMatch match = matchSegmentUnion(
          op, fusion.getSegments()[readerIndex].op, target);
      if (!match.kind)
        os << "    not one kernel with #" << readerIndex << ": "
           << match.whyNot << "\n";
    }
  }
}

/// `32 MiB`, `1536 B`: short sizes for graph labels.
static std::string formatShortBytes(ByteCount count) {
  if (count.overflowed)
    return "> 16 EiB";
  uint64_t bytes = count.bytes;
  constexpr uint64_t kiB = 1024, miB = 1024 * 1024;
  if (bytes != 0 && bytes % miB == 0)
    return std::to_string(bytes / miB) + " MiB";
  if (bytes != 0 && bytes % kiB == 0)
    return std::to_string(bytes / kiB) + " KiB";
  return std::to_string(bytes) + " B";
}

static std::string escapeDotString(StringRef text) {
  std::string escaped;
  for (char c : text) {
    if (c == '"' || c == '\\')
      escaped.push_back('\\');
    escaped.push_back(c);
  }
  return escaped;
}

/// The DOT node of `value`: its fusion input, outside value or segment.
static std::string getNode(const FusionTraffic &fusion, Value value) {
  FusionValueRef ref = fusion.getRef(value);
  switch (ref.kind) {
  case FusionValueRef::Kind::Argument:
    return "arg" + std::to_string(ref.number);
  case FusionValueRef::Kind::SegmentResult:
    return "seg" + std::to_string(ref.number);
  case FusionValueRef::Kind::Outside:
    return "s" + std::to_string(ref.number);
  }
  llvm_unreachable("unknown value kind");
}

static void printGraph(const FusionTraffic &fusion, raw_ostream &os) {
  func::FuncOp func = fusion.getFunc();
  os << "digraph \"" << escapeDotString(func.getSymName()) << "\" {\n"
     << "  node [fontname=\"monospace\"];\n";
  for (BlockArgument argument : func.getArguments())
    os << "  " << getNode(fusion, argument) << " [shape=ellipse, label=\""
       << fusion.getName(argument) << "\\n"
       << escapeDotString(printType(argument.getType())) << "\"];\n";
  for (Value value : fusion.getOutsideValues())
    os << "  " << getNode(fusion, value) << " [shape=ellipse, label=\""
       << fusion.getName(value) << "\\n"
       << escapeDotString(formatOutsideOp(fusion, value.getDefiningOp()))
       << "\"];\n";
  for (auto [index, segment] : llvm::enumerate(fusion.getSegments())) {
    os << "  seg" << index << " [shape=box, ";
    if (segment.isAlias())
      os << "style=dashed, label=\"#" << index << " alias\\nno kernel\"];\n";
    else
      os << "label=\"#" << index << " " << stringifySegmentKind(segment.kind)
         << "\\nreads " << formatShortBytes(segment.bytesRead) << ", writes "
         << formatShortBytes(segment.bytesWritten) << "\"];\n";
  }
  auto returnOp = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (auto [index, result] : llvm::enumerate(returnOp.getOperands()))
    os << "  result" << index << " [shape=ellipse, label=\"return " << index
       << "\\n"
       << escapeDotString(printType(result.getType())) << "\"];\n";
  auto printEdge = [&](Value value, StringRef to) {
    os << "  " << getNode(fusion, value) << " -> " << to << " [label=\""
       << fusion.getName(value) << "\"];\n";
  };
  for (Value value : fusion.getOutsideValues()) {
    SetVector<Value> operands(value.getDefiningOp()->getOperands().begin(),
                              value.getDefiningOp()->getOperands().end());
    for (Value operand : operands)
      printEdge(operand, getNode(fusion, value));
  }
  for (auto [index, segment] : llvm::enumerate(fusion.getSegments())) {
    SegmentOp op = segment.op;
    SetVector<Value> inputs(op.getInputs().begin(), op.getInputs().end());
    for (Value input : inputs)
      printEdge(input, "seg" + std::to_string(index));
  }
  for (auto [index, result] : llvm::enumerate(returnOp.getOperands()))
    printEdge(result, "result" + std::to_string(index));
  os << "}\n";
}

/// Runs `print` over the analysis of every fusion of `module` (isFusion), in
/// order, into `outputPath` (`-` is stdout); fails without printing anything if
/// a fusion is not segmented.
static LogicalResult
printFusions(ModuleOp module, StringRef outputPath,
             function_ref<const FusionTraffic &(func::FuncOp)> getTraffic,
             function_ref<void(const FusionTraffic &, raw_ostream &)> print) {
  SmallVector<const FusionTraffic *> fusions;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    const FusionTraffic &fusion = getTraffic(func);
    // A function without fuser ops that computes anything is not a fusion
    // but a host compiler's own: skipped. (One that only returns its
    // arguments is a fusion of no kernels.)
    if (!isFusion(func) && !fusion.isSegmented())
      continue;
    if (failed(fusion.emitUnsegmentedError()))
      return failure();
    fusions.push_back(&fusion);
  }
  auto printAll = [&](raw_ostream &os) {
    for (const FusionTraffic *fusion : fusions)
      print(*fusion, os);
    os.flush();
  };
  if (outputPath == "-") {
    printAll(llvm::outs());
    return success();
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(outputPath, &error);
  if (!file)
    return module.emitError("cannot open ") << outputPath << ": " << error;
  printAll(file->os());
  file->keep();
  return success();
}

namespace {
struct FuserSegmentReportPass
    : public mlir::fuser::impl::FuserSegmentReportBase<FuserSegmentReportPass> {
  using Base::Base;
  void runOnOperation() override {
    auto getTraffic = [&](func::FuncOp func) -> const FusionTraffic & {
      return getChildAnalysis<FusionTraffic>(func);
    };
    TargetInfo target;
    target.sharedMemoryPerBlock = sharedMemoryPerBlock;
    auto print = [&](const FusionTraffic &fusion, raw_ostream &os) {
      printReport(fusion, target, os);
    };
    if (failed(printFusions(getOperation(), output, getTraffic, print)))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

struct FuserSegmentGraphPass
    : public mlir::fuser::impl::FuserSegmentGraphBase<FuserSegmentGraphPass> {
  using Base::Base;
  void runOnOperation() override {
    auto getTraffic = [&](func::FuncOp func) -> const FusionTraffic & {
      return getChildAnalysis<FusionTraffic>(func);
    };
    if (failed(printFusions(getOperation(), output, getTraffic, printGraph)))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
