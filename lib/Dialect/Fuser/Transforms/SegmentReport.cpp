//===- SegmentReport.cpp - what a segmentation costs, as text or DOT ------===//
//
// `fuser-segment-report` prints, per segmented fusion, the kernels it
// launches and the bytes each segment reads and writes; `fuser-segment-graph`
// writes the segment graph (fusion inputs, segments, results) as Graphviz
// DOT. Both read the IR `fuser-segment` produced, so they also describe
// hand-written or otherwise produced segmentations.
//
//===----------------------------------------------------------------------===//

#include "StridedView.h"

#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERSEGMENTREPORT
#define GEN_PASS_DEF_FUSERSEGMENTGRAPH
#include "fuser/Dialect/Fuser/Transforms/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// A number of bytes that remembers when it stopped fitting in 64 bits:
/// shapes are int64 each, so their products and sums can exceed any fixed
/// width, and a wrapped count would print as a small, plausible number.
struct ByteCount {
  uint64_t bytes = 0;
  bool overflowed = false;

  ByteCount &operator+=(ByteCount other) {
    bool sumOverflowed = false;
    bytes = llvm::SaturatingAdd(bytes, other.bytes, &sumOverflowed);
    overflowed |= other.overflowed || sumOverflowed;
    return *this;
  }
};

/// A segmented fusion: its segments in order and how values are named.
class SegmentedFusion {
public:
  static FailureOr<SegmentedFusion> get(func::FuncOp func);

  func::FuncOp getFunc() const { return func; }
  Operation *getReturn() const {
    return func->getRegion(0).front().getTerminator();
  }
  ArrayRef<SegmentOp> getSegments() const { return segments; }
  unsigned getNumKernels() const;

  /// `%argN` for a fusion input, `#S.R` for result R of segment S.
  std::string getName(Value value) const;
  /// The segments and return operands that read `value`, e.g.
  /// `#2, return 0`.
  std::string getReaders(Value value) const;

  /// Bytes the segment reads: each distinct input once, nothing for an
  /// alias.
  ByteCount getBytesRead(SegmentOp segment) const;
  /// Bytes the segment writes: each result once, nothing for an alias.
  ByteCount getBytesWritten(SegmentOp segment) const;

private:
  func::FuncOp func;
  SmallVector<SegmentOp> segments;
  DenseMap<Operation *, unsigned> segmentIndex;
};

} // namespace

/// Memory traffic of reading or writing a value once. Scalars travel as
/// kernel arguments, not through memory.
static ByteCount getTensorBytes(Type type) {
  auto tensorType = dyn_cast<TensorType>(type);
  if (!tensorType)
    return {};
  // i1 takes a byte, as in memory.
  ByteCount count;
  count.bytes = llvm::divideCeil(tensorType.getElementTypeBitWidth(), 8);
  for (int64_t size : tensorType.getShape()) {
    bool productOverflowed = false;
    count.bytes = llvm::SaturatingMultiply(
        count.bytes, static_cast<uint64_t>(size), &productOverflowed);
    count.overflowed |= productOverflowed;
  }
  // An empty tensor moves nothing, however large its other dims.
  if (count.bytes == 0)
    count.overflowed = false;
  return count;
}

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

FailureOr<SegmentedFusion> SegmentedFusion::get(func::FuncOp func) {
  SegmentedFusion fusion;
  fusion.func = func;
  for (Operation &op : func.getBody().getOps()) {
    if (auto segment = dyn_cast<SegmentOp>(op)) {
      fusion.segmentIndex[segment] = fusion.segments.size();
      fusion.segments.push_back(segment);
      continue;
    }
    // Between segments a fusion only passes values (and scalar constants).
    if (isa<func::ReturnOp>(op) ||
        llvm::none_of(op.getResultTypes(),
                      [](Type type) { return isa<TensorType>(type); }))
      continue;
    return op.emitOpError("computes outside a fuser.segment: @")
           << func.getSymName() << " is not segmented (run fuser-segment)";
  }
  return fusion;
}

unsigned SegmentedFusion::getNumKernels() const {
  return llvm::count_if(segments, [](SegmentOp segment) {
    return segment.getKind() != SegmentKind::Alias;
  });
}

std::string SegmentedFusion::getName(Value value) const {
  if (auto argument = dyn_cast<BlockArgument>(value))
    return "%arg" + std::to_string(argument.getArgNumber());
  auto result = cast<OpResult>(value);
  auto it = segmentIndex.find(result.getOwner());
  if (it == segmentIndex.end())
    return "?";
  return "#" + std::to_string(it->second) + "." +
         std::to_string(result.getResultNumber());
}

std::string SegmentedFusion::getReaders(Value value) const {
  SmallVector<std::string> readers;
  for (auto [index, segment] : llvm::enumerate(segments))
    if (llvm::is_contained(segment->getOperands(), value))
      readers.push_back("#" + std::to_string(index));
  for (OpOperand &operand : getReturn()->getOpOperands())
    if (operand.get() == value)
      readers.push_back("return " + std::to_string(operand.getOperandNumber()));
  return llvm::join(readers, ", ");
}

ByteCount SegmentedFusion::getBytesRead(SegmentOp segment) const {
  if (segment.getKind() == SegmentKind::Alias)
    return {};
  ByteCount bytes;
  DenseSet<Value> seen;
  for (Value input : segment.getInputs())
    if (seen.insert(input).second)
      bytes += getTensorBytes(input.getType());
  return bytes;
}

ByteCount SegmentedFusion::getBytesWritten(SegmentOp segment) const {
  if (segment.getKind() == SegmentKind::Alias)
    return {};
  ByteCount bytes;
  for (Type type : segment.getResultTypes())
    bytes += getTensorBytes(type);
  return bytes;
}

/// How an alias result views input `inputIndex`: follows the meta ops of
/// the segment body back to a block argument.
static std::optional<std::pair<unsigned, StridedView>>
getAliasView(Value yielded) {
  SmallVector<Operation *> chain;
  Value value = yielded;
  while (Operation *def = value.getDefiningOp()) {
    auto meta = dyn_cast<MetaOpInterface>(def);
    if (!meta)
      return std::nullopt;
    chain.push_back(def);
    value = meta.getSource();
  }
  auto argument = cast<BlockArgument>(value);
  StridedView view = StridedView::getContiguous(
      cast<TensorType>(argument.getType()).getShape());
  for (Operation *op : llvm::reverse(chain)) {
    std::optional<StridedView> next = applyMetaOp(op, view);
    if (!next)
      return std::nullopt;
    view = std::move(*next);
  }
  return std::make_pair(argument.getArgNumber(), view);
}

static void printReport(const SegmentedFusion &fusion, raw_ostream &os) {
  ByteCount totalRead, totalWritten;
  for (SegmentOp segment : fusion.getSegments()) {
    totalRead += fusion.getBytesRead(segment);
    totalWritten += fusion.getBytesWritten(segment);
  }
  unsigned numKernels = fusion.getNumKernels();
  unsigned numSegments = fusion.getSegments().size();
  os << "fusion @" << fusion.getFunc().getSymName() << ": " << numKernels
     << (numKernels == 1 ? " kernel, " : " kernels, ") << numSegments
     << (numSegments == 1 ? " segment" : " segments") << ", reads "
     << formatBytes(totalRead) << ", writes " << formatBytes(totalWritten)
     << "\n";
  for (auto [index, constSegment] : llvm::enumerate(fusion.getSegments())) {
    SegmentOp segment = constSegment;
    bool isAlias = segment.getKind() == SegmentKind::Alias;
    os << "  segment #" << index << " "
       << stringifySegmentKind(segment.getKind())
       << (isAlias ? " (no kernel)" : "") << ": reads "
       << formatBytes(fusion.getBytesRead(segment)) << ", writes "
       << formatBytes(fusion.getBytesWritten(segment)) << "\n";
    for (Value input : segment.getInputs()) {
      os << "    in  " << fusion.getName(input) << ": " << input.getType();
      if (!isAlias)
        os << ", " << formatBytes(getTensorBytes(input.getType()));
      os << "\n";
    }
    auto yield = cast<YieldOp>(segment.getBody().front().getTerminator());
    for (auto [result, yielded] :
         llvm::zip(segment.getResults(), yield.getValues())) {
      os << "    out " << fusion.getName(result) << ": " << result.getType();
      if (!isAlias) {
        os << ", " << formatBytes(getTensorBytes(result.getType()));
      } else if (auto view = getAliasView(yielded)) {
        os << ", view of in " << view->first << ": sizes [";
        llvm::interleaveComma(view->second.sizes, os);
        os << "], strides [";
        llvm::interleaveComma(view->second.strides, os);
        os << "], offset " << view->second.offset;
      } else {
        os << ", not a strided view of an input";
      }
      std::string readers = fusion.getReaders(result);
      if (!readers.empty())
        os << " -> " << readers;
      os << "\n";
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

static void printGraph(const SegmentedFusion &fusion, raw_ostream &os) {
  func::FuncOp func = fusion.getFunc();
  auto nodeOf = [&](Value value) -> std::string {
    if (auto argument = dyn_cast<BlockArgument>(value))
      return "arg" + std::to_string(argument.getArgNumber());
    std::string name = fusion.getName(value);
    return "seg" + name.substr(1, name.find('.') - 1);
  };
  os << "digraph \"" << escapeDotString(func.getSymName()) << "\" {\n"
     << "  node [fontname=\"monospace\"];\n";
  for (BlockArgument argument : func.getArguments())
    os << "  " << nodeOf(argument) << " [shape=ellipse, label=\""
       << fusion.getName(argument) << "\\n"
       << escapeDotString(printType(argument.getType())) << "\"];\n";
  for (auto [index, constSegment] : llvm::enumerate(fusion.getSegments())) {
    SegmentOp segment = constSegment;
    os << "  seg" << index << " [shape=box, ";
    if (segment.getKind() == SegmentKind::Alias)
      os << "style=dashed, label=\"#" << index << " alias\\nno kernel\"];\n";
    else
      os << "label=\"#" << index << " "
         << stringifySegmentKind(segment.getKind()) << "\\nreads "
         << formatShortBytes(fusion.getBytesRead(segment)) << ", writes "
         << formatShortBytes(fusion.getBytesWritten(segment)) << "\"];\n";
  }
  auto returnOp = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (auto [index, result] : llvm::enumerate(returnOp.getOperands()))
    os << "  result" << index << " [shape=ellipse, label=\"return " << index
       << "\\n"
       << escapeDotString(printType(result.getType())) << "\"];\n";
  auto printEdge = [&](Value value, StringRef to) {
    os << "  " << nodeOf(value) << " -> " << to << " [label=\""
       << fusion.getName(value) << "\"];\n";
  };
  for (auto [index, constSegment] : llvm::enumerate(fusion.getSegments())) {
    SegmentOp segment = constSegment;
    SetVector<Value> inputs(segment.getInputs().begin(),
                            segment.getInputs().end());
    for (Value input : inputs)
      printEdge(input, "seg" + std::to_string(index));
  }
  for (auto [index, result] : llvm::enumerate(returnOp.getOperands()))
    printEdge(result, "result" + std::to_string(index));
  os << "}\n";
}

/// Runs `print` over every fusion of `module`, in order, into `outputPath`
/// (`-` is stdout).
static LogicalResult
printFusions(ModuleOp module, StringRef outputPath,
             function_ref<void(const SegmentedFusion &, raw_ostream &)> print) {
  std::vector<SegmentedFusion> fusions;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    FailureOr<SegmentedFusion> fusion = SegmentedFusion::get(func);
    if (failed(fusion))
      return failure();
    fusions.push_back(std::move(*fusion));
  }
  auto printAll = [&](raw_ostream &os) {
    for (const SegmentedFusion &fusion : fusions)
      print(fusion, os);
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
    if (failed(printFusions(getOperation(), output, printReport)))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

struct FuserSegmentGraphPass
    : public mlir::fuser::impl::FuserSegmentGraphBase<FuserSegmentGraphPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(printFusions(getOperation(), output, printGraph)))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
