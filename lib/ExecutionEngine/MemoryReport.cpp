//===- MemoryReport.cpp - kernel memory behaviour measured on the CPU -----===//
//
// The memory report (MemoryReport.h, docs/Performance.md):
//
// 1. The fusion is lowered as the CPU backend lowers it
//    (lowerFusionToKernelLoops): host functions whose kernels are
//    `scf.parallel` nests mapped to block_x/thread_x.
// 2. A strided alias copy (memref.copy from a non-identity view) becomes the
//    copy kernel the GPU half makes of it (fuser-gpu-host-memory: 256
//    threads per block, one element per thread), so that it is measured too.
// 3. Every memref.load/store and vector.load/store inside a kernel nest is
//    preceded by a call of `__fuser_mem_record(trace, instruction, block,
//    thread, address)`; the address is the memref's aligned pointer plus the
//    linearized index (static strides and offset of its layout) times the
//    element size, i.e. what the access itself computes. Accesses outside
//    the thread loop of a nest pass thread = -1: on the GPU every thread of
//    the block executes them.
// 4. The instrumented module runs on the CPU backend (CPUKernelModule) with
//    the recording function registered as a symbol; the records are then
//    grouped into warp-wide instructions and summarized.
// 5. The GPU half of the lowering (buildKernelLoopsToNVVMPipeline,
//    format=isa) makes PTX of the same kernel loops, lowered again without
//    the CPU backend's gather index checks (which make the same accesses);
//    ptxas -v on each kernel's PTX gives registers, spills, local and
//    shared memory.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/MemoryReport.h"
#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Conversion/FuserToGPU/CopyKernel.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "fuser/ExecutionEngine/CPUBackend.h"
#include "fuser/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::fuser;

namespace {

constexpr const char *kRecordSymbol = "__fuser_mem_record";
constexpr uint32_t kBlockLevel = UINT32_MAX;
constexpr uint64_t kSectorBytes = 32;

//===----------------------------------------------------------------------===//
// The trace the instrumented kernels write
//===----------------------------------------------------------------------===//

struct StaticInstruction {
  unsigned kernel;
  bool isStore;
  unsigned width;
  std::string op;
  std::string buffer;
  enum Role { Input, Output, Intermediate } role;
  bool blockLevel;
};

struct StaticKernel {
  std::string kind;
  int64_t grid = 0, block = 0;
  uint64_t sampleStride = 1;
};

struct Record {
  uint32_t instruction;
  uint32_t block;
  uint32_t thread;
  uint64_t address;
};

struct Trace {
  std::vector<StaticInstruction> instructions;
  std::vector<StaticKernel> kernels;
  std::vector<std::vector<Record>> records;
  uint64_t memcpyBytes = 0;
};

extern "C" void fuserMemRecord(int64_t trace, int64_t instruction,
                               int64_t block, int64_t thread, int64_t address) {
  auto *t = reinterpret_cast<Trace *>(trace);
  const StaticInstruction &s = t->instructions[instruction];
  uint64_t stride = t->kernels[s.kernel].sampleStride;
  if (stride > 1 && static_cast<uint64_t>(block) % stride)
    return;
  t->records[s.kernel].push_back(
      {static_cast<uint32_t>(instruction), static_cast<uint32_t>(block),
       thread < 0 ? kBlockLevel : static_cast<uint32_t>(thread),
       static_cast<uint64_t>(address)});
}

//===----------------------------------------------------------------------===//
// Instrumentation
//===----------------------------------------------------------------------===//

bool isStridedCopy(memref::CopyOp copy) {
  auto source = cast<MemRefType>(copy.getSource().getType());
  auto target = cast<MemRefType>(copy.getTarget().getType());
  return !source.getLayout().isIdentity() || !target.getLayout().isIdentity();
}

/// The buffer `memref` views: argN/outN (function arguments) or tmpN.
std::pair<std::string, StaticInstruction::Role>
describeBuffer(Value memref, func::FuncOp func,
               llvm::DenseMap<Operation *, unsigned> &allocNumbers) {
  while (Operation *def = memref.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      memref = view.getViewSource();
      continue;
    }
    auto [it, inserted] = allocNumbers.try_emplace(def, allocNumbers.size());
    return {"tmp" + std::to_string(it->second),
            StaticInstruction::Intermediate};
  }
  auto arg = cast<BlockArgument>(memref);
  unsigned numArgs = func.getNumArguments();
  unsigned numOutputs = 0;
  if (auto attr = func->getAttrOfType<IntegerAttr>("fuser.outputs"))
    numOutputs = attr.getInt();
  unsigned index = arg.getArgNumber();
  if (arg.getOwner()->getParentOp() != func.getOperation())
    return {"?", StaticInstruction::Intermediate};
  if (index + numOutputs >= numArgs)
    return {"out" + std::to_string(index - (numArgs - numOutputs)),
            StaticInstruction::Output};
  return {"arg" + std::to_string(index), StaticInstruction::Input};
}

struct AccessInfo {
  Value memref;
  ValueRange indices;
  bool isStore;
  int64_t lanes;
};

std::optional<AccessInfo> getAnyAccess(Operation *op);

std::optional<AccessInfo> getAccess(Operation *op) {
  std::optional<AccessInfo> access = getAnyAccess(op);
  // Shared memory (a normalization kernel's staged rows) is not global
  // memory traffic.
  if (access && cast<MemRefType>(access->memref.getType()).getMemorySpace())
    return std::nullopt;
  return access;
}

std::optional<AccessInfo> getAnyAccess(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return AccessInfo{load.getMemRef(), load.getIndices(), false, 1};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return AccessInfo{store.getMemRef(), store.getIndices(), true, 1};
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return AccessInfo{load.getBase(), load.getIndices(), false,
                      load.getVectorType().getNumElements()};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return AccessInfo{store.getBase(), store.getIndices(), true,
                      store.getVectorType().getNumElements()};
  return std::nullopt;
}

/// The constant upper bound of the induction variable mapped to
/// `processor` in the nest under `root`, or 0.
int64_t getMappedBound(scf::ParallelOp root, gpu::Processor processor) {
  int64_t bound = 0;
  root->walk([&](scf::ParallelOp loop) {
    auto mapping = loop->getAttrOfType<ArrayAttr>(gpu::getMappingAttrName());
    if (!mapping || bound)
      return;
    for (auto [i, attr] : llvm::enumerate(mapping)) {
      auto dim = dyn_cast<gpu::ParallelLoopDimMappingAttr>(attr);
      if (!dim || dim.getProcessor() != processor ||
          i >= loop.getUpperBound().size())
        continue;
      if (std::optional<int64_t> value =
              getConstantIntValue(loop.getUpperBound()[i]))
        bound = *value;
    }
  });
  return bound;
}

/// Instruments `func`'s kernel nests (after rewriting strided copies into
/// copy kernels); fills the static tables of `trace`.
LogicalResult instrument(func::FuncOp func, Trace &trace,
                         const MemoryReportOptions &options) {
  MLIRContext *ctx = func.getContext();
  SmallVector<memref::CopyOp> copies;
  for (Operation &op : func.getBody().getOps())
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      if (isStridedCopy(copy))
        copies.push_back(copy);
      else if (auto type = dyn_cast<MemRefType>(copy.getSource().getType()))
        if (FailureOr<uint64_t> bytes = getValueByteSize(
                RankedTensorType::get(type.getShape(), type.getElementType()));
            succeeded(bytes))
          trace.memcpyBytes += *bytes;
    }
  for (memref::CopyOp copy : copies) {
    FailureOr<scf::ParallelOp> kernel = replaceWithCopyKernel(copy);
    if (failed(kernel))
      return failure();
    if (*kernel)
      (*kernel)->setAttr("fuser.copy_kernel", UnitAttr::get(ctx));
  }

  auto module = func->getParentOfType<ModuleOp>();
  Type i64 = IntegerType::get(ctx, 64);
  if (!module.lookupSymbol<func::FuncOp>(kRecordSymbol)) {
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    auto decl = func::FuncOp::create(
        b, module.getLoc(), kRecordSymbol,
        FunctionType::get(ctx, {i64, i64, i64, i64, i64}, {}));
    decl.setPrivate();
  }

  llvm::DenseMap<Operation *, unsigned> allocNumbers;
  SmallVector<scf::ParallelOp> nests;
  for (Operation &op : func.getBody().getOps())
    if (auto loop = dyn_cast<scf::ParallelOp>(op))
      if (loop->hasAttr(gpu::getMappingAttrName()))
        nests.push_back(loop);

  for (scf::ParallelOp nest : nests) {
    unsigned kernel = trace.kernels.size();
    StaticKernel info;
    info.kind = nest->hasAttr("fuser.copy_kernel") ? "copy" : "loops";
    info.grid = getMappedBound(nest, gpu::Processor::BlockX);
    info.block = getMappedBound(nest, gpu::Processor::ThreadX);
    if (info.grid <= 0)
      return nest.emitError("the memory report needs a constant block_x "
                            "bound on this kernel nest");
    if (info.block <= 0)
      info.block = 1;

    SmallVector<Operation *> accesses;
    nest->walk([&](Operation *op) {
      if (getAccess(op))
        accesses.push_back(op);
    });
    // Records this kernel would make, loops counted once: sample by
    // blocks past the budget.
    uint64_t estimate = 0;
    for (Operation *op : accesses) {
      bool threadLevel = false;
      for (Operation *p = op->getParentOp(); p != nest->getParentOp();
           p = p->getParentOp())
        if (auto mapping =
                p->getAttrOfType<ArrayAttr>(gpu::getMappingAttrName()))
          for (Attribute attr : mapping)
            threadLevel |=
                cast<gpu::ParallelLoopDimMappingAttr>(attr).getProcessor() ==
                gpu::Processor::ThreadX;
      estimate += info.grid * (threadLevel ? info.block : 1);
    }
    if (estimate > options.maxRecordsPerKernel)
      info.sampleStride =
          llvm::divideCeil(estimate, options.maxRecordsPerKernel);
    trace.kernels.push_back(info);
    trace.records.emplace_back();

    for (Operation *op : accesses) {
      AccessInfo access = *getAccess(op);
      auto type = cast<MemRefType>(access.memref.getType());
      FailureOr<unsigned> elementBytes =
          getElementByteWidth(type.getElementType());
      if (failed(elementBytes))
        return op->emitError("the memory report cannot size elements of ")
               << type.getElementType();
      SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(type.getStridesAndOffset(strides, offset)) ||
          ShapedType::isDynamic(offset) ||
          llvm::any_of(strides, ShapedType::isDynamic))
        return op->emitError("the memory report needs static strides, not ")
               << type;

      Value blockId, threadId;
      for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
        auto loop = dyn_cast<scf::ParallelOp>(p);
        if (!loop)
          continue;
        auto mapping =
            loop->getAttrOfType<ArrayAttr>(gpu::getMappingAttrName());
        if (!mapping)
          continue;
        for (auto [iv, attr] : llvm::zip(loop.getInductionVars(), mapping)) {
          auto dim = cast<gpu::ParallelLoopDimMappingAttr>(attr);
          if (dim.getProcessor() == gpu::Processor::BlockX && !blockId)
            blockId = iv;
          if (dim.getProcessor() == gpu::Processor::ThreadX && !threadId)
            threadId = iv;
        }
      }
      if (!blockId)
        return op->emitError("the memory report found no block_x loop "
                             "around this access");

      auto [buffer, role] = describeBuffer(access.memref, func, allocNumbers);
      unsigned id = trace.instructions.size();
      trace.instructions.push_back(
          {kernel, access.isStore,
           static_cast<unsigned>(*elementBytes * access.lanes),
           op->getName().getStringRef().str(), buffer, role, !threadId});

      OpBuilder b(op);
      Location loc = op->getLoc();
      auto idx = [&](int64_t v) -> Value {
        return arith::ConstantIndexOp::create(b, loc, v);
      };
      auto toI64 = [&](Value v) -> Value {
        return arith::IndexCastOp::create(b, loc, i64, v);
      };
      Value linear = idx(offset);
      for (auto [index, stride] : llvm::zip(access.indices, strides))
        linear = arith::AddIOp::create(
            b, loc, linear, arith::MulIOp::create(b, loc, index, idx(stride)));
      Value base =
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, access.memref);
      Value address = arith::AddIOp::create(
          b, loc, base,
          arith::MulIOp::create(b, loc, linear, idx(*elementBytes)));
      Value traceAddress = arith::ConstantIntOp::create(
          b, loc, i64, reinterpret_cast<intptr_t>(&trace));
      Value instruction = arith::ConstantIntOp::create(b, loc, i64, id);
      Value thread =
          threadId ? toI64(threadId)
                   : arith::ConstantIntOp::create(b, loc, i64, -1).getResult();
      func::CallOp::create(b, loc, kRecordSymbol, TypeRange{},
                           ValueRange{traceAddress, instruction, toI64(blockId),
                                      thread, toI64(address)});
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

using Interval = std::pair<uint64_t, uint64_t>; // [begin, end)

uint64_t unionLength(std::vector<Interval> &intervals) {
  llvm::sort(intervals);
  uint64_t total = 0, end = 0;
  bool any = false;
  for (auto [b, e] : intervals) {
    if (!any || b > end) {
      total += e - b;
      end = e;
      any = true;
    } else if (e > end) {
      total += e - end;
      end = e;
    }
  }
  return total;
}

/// Sectors touched and fewest possible of one warp-wide instruction whose
/// lanes access [address, address + width) each.
std::pair<uint64_t, uint64_t> countSectors(ArrayRef<uint64_t> addresses,
                                           unsigned width) {
  SmallVector<uint64_t, 64> sectors;
  std::vector<Interval> bytes;
  for (uint64_t address : addresses) {
    for (uint64_t s = address / kSectorBytes;
         s <= (address + width - 1) / kSectorBytes; ++s)
      sectors.push_back(s);
    bytes.push_back({address, address + width});
  }
  llvm::sort(sectors);
  uint64_t touched =
      std::unique(sectors.begin(), sectors.end()) - sectors.begin();
  uint64_t fewest = llvm::divideCeil(unionLength(bytes), kSectorBytes);
  return {touched, fewest};
}

void analyzeKernel(Trace &trace, unsigned kernel, KernelReport &report,
                   std::vector<Interval> &inputReads,
                   std::vector<Interval> &outputWrites) {
  const StaticKernel &info = trace.kernels[kernel];
  std::vector<Record> &records = trace.records[kernel];
  report.kind = info.kind;
  report.grid = info.grid;
  report.block = info.block;
  report.sampleStride = info.sampleStride;
  report.records = records.size();

  // The kernel's instructions, in id order.
  llvm::DenseMap<unsigned, unsigned> slot;
  for (auto [id, s] : llvm::enumerate(trace.instructions)) {
    if (s.kernel != kernel)
      continue;
    slot[id] = report.instructions.size();
    InstructionReport r;
    r.id = report.instructions.size();
    r.isStore = s.isStore;
    r.width = s.width;
    r.op = s.op;
    r.buffer = s.buffer;
    r.blockLevel = s.blockLevel;
    report.instructions.push_back(r);
  }

  std::vector<Interval> loads, stores;
  loads.reserve(records.size());
  for (const Record &r : records) {
    const StaticInstruction &s = trace.instructions[r.instruction];
    Interval bytes{r.address, r.address + s.width};
    (s.isStore ? stores : loads).push_back(bytes);
    if (!s.isStore && s.role == StaticInstruction::Input)
      inputReads.push_back(bytes);
    if (s.isStore && s.role == StaticInstruction::Output)
      outputWrites.push_back(bytes);
  }
  report.minLoadBytes = unionLength(loads) * info.sampleStride;
  report.minStoreBytes = unionLength(stores) * info.sampleStride;
  std::vector<Interval>().swap(loads);
  std::vector<Interval>().swap(stores);

  // Group: same instruction, block, warp; then the k-th execution of each
  // thread.
  std::stable_sort(records.begin(), records.end(),
                   [](const Record &a, const Record &b) {
                     return std::tie(a.instruction, a.block, a.thread) <
                            std::tie(b.instruction, b.block, b.thread);
                   });
  int64_t warpSize = 32;
  size_t i = 0;
  SmallVector<std::pair<uint64_t, uint64_t>> executions; // (k, address)
  SmallVector<uint64_t, 32> lanes;
  while (i < records.size()) {
    const Record &first = records[i];
    const StaticInstruction &s = trace.instructions[first.instruction];
    InstructionReport &out = report.instructions[slot[first.instruction]];
    size_t j = i;
    if (first.thread == kBlockLevel) {
      // Executed by every thread of the block on the GPU: each warp issues
      // it with all lanes at one address.
      while (
          j < records.size() && records[j].instruction == first.instruction &&
          records[j].block == first.block && records[j].thread == kBlockLevel)
        ++j;
      int64_t warps = llvm::divideCeil(info.block, warpSize);
      for (size_t r = i; r < j; ++r) {
        auto [touched, fewest] = countSectors({records[r].address}, s.width);
        out.executions += info.block;
        out.warpInstructions += warps;
        out.sectors += touched * warps;
        out.minSectors += fewest * warps;
      }
      i = j;
      continue;
    }
    uint32_t warp = first.thread / warpSize;
    while (j < records.size() && records[j].instruction == first.instruction &&
           records[j].block == first.block &&
           records[j].thread != kBlockLevel &&
           records[j].thread / warpSize == warp)
      ++j;
    executions.clear();
    uint64_t k = 0;
    for (size_t r = i; r < j; ++r) {
      if (r > i && records[r].thread != records[r - 1].thread)
        k = 0;
      executions.push_back({k++, records[r].address});
    }
    llvm::stable_sort(executions,
                      [](auto &a, auto &b) { return a.first < b.first; });
    for (size_t a = 0; a < executions.size();) {
      size_t c = a;
      lanes.clear();
      while (c < executions.size() &&
             executions[c].first == executions[a].first)
        lanes.push_back(executions[c++].second);
      auto [touched, fewest] = countSectors(lanes, s.width);
      out.warpInstructions += 1;
      out.sectors += touched;
      out.minSectors += fewest;
      a = c;
    }
    out.executions += j - i;
    i = j;
  }

  uint64_t threads = static_cast<uint64_t>(info.grid) * info.block;
  for (InstructionReport &r : report.instructions) {
    r.executions *= info.sampleStride;
    r.warpInstructions *= info.sampleStride;
    r.sectors *= info.sampleStride;
    r.minSectors *= info.sampleStride;
    r.bytes = r.executions * r.width;
    double perThread = threads ? double(r.executions) / threads : 0;
    if (r.isStore) {
      report.storeBytes += r.bytes;
      report.storeSectors += r.sectors;
      report.storeMinSectors += r.minSectors;
      report.storesPerThread += perThread;
      if (r.executions)
        report.storeWidths[r.width] += perThread;
    } else {
      report.loadBytes += r.bytes;
      report.loadSectors += r.sectors;
      report.loadMinSectors += r.minSectors;
      report.loadsPerThread += perThread;
      if (r.executions)
        report.loadWidths[r.width] += perThread;
    }
  }
  std::vector<Record>().swap(records);
}

//===----------------------------------------------------------------------===//
// ptxas
//===----------------------------------------------------------------------===//

std::string readFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

uint64_t parseNumber(StringRef text, StringRef pattern) {
  llvm::Regex regex(pattern);
  SmallVector<StringRef> matches;
  uint64_t value = 0;
  if (regex.match(text, &matches))
    matches[1].getAsInteger(10, value);
  return value;
}

PtxasReport runPtxas(StringRef ptxas, StringRef chip, StringRef ptx) {
  PtxasReport report;
  SmallString<128> ptxPath, logPath, cubinPath;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("fuser-kernel", "ptx", fd, ptxPath)) {
    report.note = "could not create a temporary file";
    return report;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  llvm::sys::fs::createTemporaryFile("fuser-kernel", "log", logPath);
  llvm::sys::fs::createTemporaryFile("fuser-kernel", "cubin", cubinPath);
  std::string arch = ("-arch=" + chip).str();
  SmallVector<StringRef> args = {ptxas, arch, "-v", "-o", cubinPath, ptxPath};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string error;
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         0, 0, &error);
  std::string log = readFile(logPath);
  llvm::sys::fs::remove(ptxPath);
  llvm::sys::fs::remove(logPath);
  llvm::sys::fs::remove(cubinPath);
  if (status != 0) {
    report.note = "ptxas failed: " + (error.empty() ? log : error);
    return report;
  }
  report.measured = true;
  report.registers = parseNumber(log, "Used ([0-9]+) registers");
  report.barriers = parseNumber(log, "used ([0-9]+) barriers");
  report.sharedBytes = parseNumber(log, "([0-9]+) bytes smem");
  report.localBytes = parseNumber(log, "([0-9]+) bytes lmem");
  report.stackFrame = parseNumber(log, "([0-9]+) bytes stack frame");
  report.spillStores = parseNumber(log, "([0-9]+) bytes spill stores");
  report.spillLoads = parseNumber(log, "([0-9]+) bytes spill loads");
  return report;
}

/// PTX of each launch of `module`'s function `name` through the GPU half,
/// in launch order; or why there is none.
FailureOr<std::vector<std::pair<std::string, std::string>>>
makePTX(ModuleOp kernelLoops, StringRef name, StringRef toolkit, StringRef chip,
        std::string &why) {
  MLIRContext *context = kernelLoops.getContext();
  DialectRegistry registry;
  registerLowerToNVVMDependencies(registry);
  context->appendDialectRegistry(registry);

  OwningOpRef<ModuleOp> module = cast<ModuleOp>(kernelLoops->clone());
  std::string messages;
  llvm::raw_string_ostream os(messages);
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
      if (diagnostic.getSeverity() == DiagnosticSeverity::Error)
        os << (messages.empty() ? "" : "; ") << diagnostic.str();
      return success();
    });
    PassManager pm(context, ModuleOp::getOperationName());
    LowerToNVVMOptions options;
    options.format = "isa";
    options.toolkit = toolkit.str();
    options.chip = chip.str();
    buildKernelLoopsToNVVMPipeline(pm, options);
    if (failed(pm.run(*module))) {
      why = "the GPU half of the lowering failed: " + messages;
      return failure();
    }
  }
  auto func = module->lookupSymbol<func::FuncOp>(name);
  std::vector<std::pair<std::string, std::string>> result;
  if (!func)
    return result;
  WalkResult walk = func.walk([&](gpu::LaunchFuncOp launch) {
    auto binary =
        module->lookupSymbol<gpu::BinaryOp>(launch.getKernelModuleName());
    if (!binary || binary.getObjects().empty()) {
      why = "no gpu.binary for kernel " +
            launch.getKernelModuleName().getValue().str();
      return WalkResult::interrupt();
    }
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    result.push_back({launch.getKernelModuleName().getValue().str(),
                      object.getObject().getValue().str()});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return result;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string formatWidths(const std::map<unsigned, double> &widths) {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool first = true;
  for (auto [width, count] : widths) {
    os << (first ? "" : ", ") << width << " B: " << llvm::format("%.2f", count);
    first = false;
  }
  return text;
}

/// `a` bytes against a minimum of `b`: moving nothing where nothing must move
/// (tensors without elements) is the minimum, 1, as the efficiency of no
/// sectors is.
double ratio(uint64_t a, uint64_t b) {
  if (b == 0)
    return a == 0 ? 1.0 : 0.0;
  return double(a) / b;
}

void printJsonString(llvm::raw_ostream &os, StringRef text) {
  os << '"';
  for (char c : text) {
    if (c == '"' || c == '\\')
      os << '\\' << c;
    else if (c == '\n')
      os << "\\n";
    else if (static_cast<unsigned char>(c) < 0x20)
      os << ' ';
    else
      os << c;
  }
  os << '"';
}

/// The library calls of `func`, in program order, with their traffic as
/// SegmentTraffic counts a segment's: each distinct operand read once, each
/// result written once.
std::vector<LibraryCallReport> getLibraryCalls(func::FuncOp func) {
  std::vector<LibraryCallReport> calls;
  func.walk([&](LibraryOpInterface library) {
    Operation *op = library.getOperation();
    LibraryCallReport call;
    call.op = op->getName().getStringRef().str();
    llvm::raw_string_ostream signature(call.signature);
    llvm::interleaveComma(op->getOperandTypes(), signature);
    signature << " -> ";
    llvm::interleaveComma(op->getResultTypes(), signature);
    ByteCount read, written;
    for (Value operand :
         llvm::SetVector<Value>(op->operand_begin(), op->operand_end()))
      read += getTransferBytes(operand.getType());
    for (Type type : op->getResultTypes())
      written += getTransferBytes(type);
    call.readBytes = read.bytes;
    call.writtenBytes = written.bytes;
    call.flops = library.getFlopCount();
    calls.push_back(std::move(call));
  });
  return calls;
}

} // namespace

//===----------------------------------------------------------------------===//
// Public functions
//===----------------------------------------------------------------------===//

OccupancyReport mlir::fuser::computeOccupancy(int64_t grid, int64_t block,
                                              const PtxasReport &ptxas,
                                              const GPULimits &limits) {
  OccupancyReport result;
  if (block <= 0)
    return result;
  int64_t warpsPerBlock = llvm::divideCeil(block, limits.warpSize);
  int64_t maxWarps = limits.maxThreadsPerSM / limits.warpSize;
  int64_t byThreads = maxWarps / warpsPerBlock;
  int64_t blocks = std::min(byThreads, limits.maxBlocksPerSM);
  result.limiter = byThreads <= limits.maxBlocksPerSM ? "threads" : "blocks";
  if (ptxas.measured) {
    result.fromPtxas = true;
    int64_t byRegisters = 0;
    if (ptxas.registers <= limits.maxRegistersPerThread) {
      int64_t perWarp =
          llvm::alignTo(std::max<int64_t>(ptxas.registers, 1) * limits.warpSize,
                        limits.registerAllocationUnit);
      byRegisters = (limits.registersPerSM / perWarp) / warpsPerBlock;
    }
    if (byRegisters < blocks) {
      blocks = byRegisters;
      result.limiter = "registers";
    }
    int64_t shared =
        llvm::alignTo(ptxas.sharedBytes, limits.sharedAllocationUnit) +
        limits.sharedReservedPerBlock;
    int64_t byShared = limits.sharedMemoryPerSM / shared;
    if (byShared < blocks) {
      blocks = byShared;
      result.limiter = "shared memory";
    }
  }
  result.blocksPerSM = blocks;
  result.threadsPerSM = blocks * block;
  result.occupancy = double(blocks * warpsPerBlock) / maxWarps;
  if (blocks > 0)
    result.waves = double(grid) / double(blocks * limits.smCount);
  return result;
}

FailureOr<MemoryReport>
mlir::fuser::measureMemory(func::FuncOp func, ArrayRef<Buffer> inputs,
                           const MemoryReportOptions &options) {
  MemoryReport report;
  report.fusion = func.getSymName().str();
  report.limits = options.limits;
  report.libraryCalls = getLibraryCalls(func);

  // The GPU's schedules, run on the CPU.
  FailureOr<OwningOpRef<ModuleOp>> lowered = lowerFusionToKernelLoops(
      func, options.backend, /*checkIndices=*/true, ScheduleTarget());
  if (failed(lowered))
    return failure();
  ModuleOp kernelLoops = **lowered;
  auto hostFunc = kernelLoops.lookupSymbol<func::FuncOp>(func.getSymName());
  if (!hostFunc)
    return func.emitError("the lowering left no function named '")
           << func.getSymName() << "'";

  // Instrument and run.
  Trace trace;
  OwningOpRef<ModuleOp> instrumented = cast<ModuleOp>(kernelLoops->clone());
  if (failed(instrument(
          instrumented->lookupSymbol<func::FuncOp>(func.getSymName()), trace,
          options)))
    return failure();
  report.memcpyBytes = trace.memcpyBytes;
  std::pair<std::string, void *> symbols[] = {
      {kRecordSymbol, reinterpret_cast<void *>(&fuserMemRecord)}};
  // One thread: the trace is appended to in the order the blocks run.
  BackendOptions oneThread = options.backend;
  oneThread.numThreads = 1;
  FailureOr<std::unique_ptr<CPUKernelModule>> compiled =
      CPUKernelModule::compile(*instrumented, oneThread, symbols);
  if (failed(compiled))
    return failure();
  FailureOr<SmallVector<Buffer>> outputs =
      (*compiled)->run(func.getSymName(), inputs);
  if (failed(outputs))
    return failure();
  for (const Buffer &output : *outputs)
    report.resultHashes.push_back(fnv1a64(output.bytes));

  std::vector<Interval> inputReads, outputWrites;
  for (unsigned k = 0; k < trace.kernels.size(); ++k) {
    KernelReport kernel;
    kernel.name = "kernel" + std::to_string(k);
    analyzeKernel(trace, k, kernel, inputReads, outputWrites);
    report.kernels.push_back(std::move(kernel));
  }
  uint64_t sampled = 1;
  for (const KernelReport &k : report.kernels)
    sampled = std::max(sampled, k.sampleStride);
  report.fusionMinBytes =
      (unionLength(inputReads) + unionLength(outputWrites)) * sampled +
      2 * report.memcpyBytes;

  // ptxas on the PTX of the same kernels.
  std::string ptxas;
  if (!options.toolkit.empty()) {
    SmallString<128> path(options.toolkit);
    llvm::sys::path::append(path, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(path))
      ptxas = path.str().str();
    else
      report.ptxasNote = "no ptxas at " + path.str().str() +
                         ": registers, spills and occupancy by registers "
                         "not measured";
  } else {
    report.ptxasNote = "no CUDA toolkit given: ptxas not run";
  }
  report.ptxasPath = ptxas;
  if (!ptxas.empty()) {
    // The GPU's kernels: without the index checks of the CPU backend's.
    FailureOr<OwningOpRef<ModuleOp>> gpuLoops =
        lowerFusionToKernelLoops(func, options.backend, /*checkIndices=*/false,
                                 ScheduleTarget());
    if (failed(gpuLoops))
      return failure();
    std::string why;
    FailureOr<std::vector<std::pair<std::string, std::string>>> ptx =
        makePTX(**gpuLoops, func.getSymName(), options.toolkit,
                options.limits.chip, why);
    if (failed(ptx)) {
      report.ptxasNote = why;
    } else if (ptx->size() != report.kernels.size()) {
      report.ptxasNote = "the GPU lowering launches " +
                         std::to_string(ptx->size()) + " kernels, not " +
                         std::to_string(report.kernels.size()) +
                         ": ptxas figures not matched";
    } else {
      for (auto [kernel, entry] : llvm::zip(report.kernels, *ptx)) {
        kernel.name = entry.first;
        kernel.ptxas = runPtxas(ptxas, options.limits.chip, entry.second);
      }
    }
  }
  for (KernelReport &kernel : report.kernels) {
    if (!kernel.ptxas.measured && kernel.ptxas.note.empty())
      kernel.ptxas.note = report.ptxasNote;
    kernel.occupancy = computeOccupancy(kernel.grid, kernel.block, kernel.ptxas,
                                        options.limits);
  }
  return report;
}

void mlir::fuser::printMemoryReport(llvm::raw_ostream &os,
                                    const MemoryReport &report) {
  const GPULimits &l = report.limits;
  os << "memory report for @" << report.fusion << " on " << l.chip << " ("
     << l.smCount << " SMs; warps of " << l.warpSize << ", sectors of "
     << kSectorBytes << " bytes)\n";
  for (auto [index, k] : llvm::enumerate(report.kernels)) {
    os << "kernel " << index << ": " << k.name << " (" << k.kind << ")\n";
    const OccupancyReport &o = k.occupancy;
    os << "  launch: grid " << k.grid << " x block " << k.block << " = "
       << k.grid * k.block << " threads; " << o.blocksPerSM
       << " blocks/SM (limited by " << o.limiter << "), " << o.threadsPerSM
       << " threads/SM, occupancy " << llvm::format("%.1f", 100.0 * o.occupancy)
       << "%, waves " << llvm::format("%.2f", o.waves)
       << (o.fromPtxas ? "" : " (threads and blocks only: no ptxas)") << "\n";
    if (k.ptxas.measured)
      os << "  ptxas: " << k.ptxas.registers << " registers, "
         << k.ptxas.spillStores << " bytes spill stores, " << k.ptxas.spillLoads
         << " bytes spill loads, " << k.ptxas.stackFrame
         << " bytes stack frame, " << k.ptxas.localBytes << " bytes local, "
         << k.ptxas.sharedBytes << " bytes shared, " << k.ptxas.barriers
         << " barriers\n";
    else
      os << "  ptxas: not run: " << k.ptxas.note << "\n";
    if (k.sampleStride > 1)
      os << "  sampled: every " << k.sampleStride
         << "th block recorded, figures scaled\n";
    os << "  loaded: " << k.loadBytes << " bytes (minimum " << k.minLoadBytes
       << ", " << llvm::format("%.3f", ratio(k.loadBytes, k.minLoadBytes))
       << "x)\n";
    os << "  stored: " << k.storeBytes << " bytes (minimum " << k.minStoreBytes
       << ", " << llvm::format("%.3f", ratio(k.storeBytes, k.minStoreBytes))
       << "x)\n";
    os << "  load sectors: " << k.loadSectors << " touched, "
       << k.loadMinSectors << " fewest, efficiency "
       << llvm::format("%.3f", k.loadEfficiency()) << "\n";
    os << "  store sectors: " << k.storeSectors << " touched, "
       << k.storeMinSectors << " fewest, efficiency "
       << llvm::format("%.3f", k.storeEfficiency()) << "\n";
    os << "  per thread: " << llvm::format("%.2f", k.loadsPerThread)
       << " loads (" << formatWidths(k.loadWidths) << "), "
       << llvm::format("%.2f", k.storesPerThread) << " stores ("
       << formatWidths(k.storeWidths) << ")\n";
    for (const InstructionReport &r : k.instructions)
      os << "  instruction " << r.id << ": " << r.op << " " << r.buffer << " "
         << r.width << " B" << (r.blockLevel ? " block-level" : "") << ", "
         << llvm::format("%.2f",
                         k.grid * k.block != 0
                             ? double(r.executions) / double(k.grid * k.block)
                             : 0.0)
         << " per thread, " << r.warpInstructions << " warp instructions, "
         << r.sectors << " sectors (fewest " << r.minSectors << ")\n";
  }
  for (auto [index, call] : llvm::enumerate(report.libraryCalls))
    os << "library call " << index << ": " << call.op << " " << call.signature
       << ": read " << call.readBytes << " bytes, written "
       << call.writtenBytes << " bytes, " << call.flops << " flops ("
       << llvm::format("%.2f", call.flopsPerByte())
       << " per byte; a library computes it, not measured)\n";
  if (report.memcpyBytes)
    os << "memcpy: " << report.memcpyBytes
       << " bytes copied by alias outputs (no kernel)\n";
  if (!report.ptxasNote.empty())
    os << "note: " << report.ptxasNote << "\n";
  os << "fusion: " << report.kernels.size() << " kernel(s), moved "
     << report.movedBytes() << " bytes, minimum " << report.fusionMinBytes
     << " ("
     << llvm::format("%.3f", ratio(report.movedBytes(), report.fusionMinBytes))
     << "x)\n";
  if (!report.libraryCalls.empty()) {
    uint64_t read = 0, written = 0;
    int64_t flops = 0;
    for (const LibraryCallReport &call : report.libraryCalls) {
      read += call.readBytes;
      written += call.writtenBytes;
      flops += call.flops;
    }
    os << "library: " << report.libraryCalls.size() << " call(s), read "
       << read << " bytes, written " << written << " bytes, " << flops
       << " flops\n";
  }
  for (auto [i, hash] : llvm::enumerate(report.resultHashes))
    os << "result " << i << ": fnv1a64=0x"
       << llvm::format_hex_no_prefix(hash, 16) << "\n";
}

void mlir::fuser::printMemoryReportJson(llvm::raw_ostream &os,
                                        const MemoryReport &report) {
  const GPULimits &l = report.limits;
  auto widths = [&](const std::map<unsigned, double> &map) {
    os << "{";
    bool first = true;
    for (auto [width, count] : map) {
      os << (first ? "" : ", ") << "\"" << width
         << "\": " << llvm::format("%.4f", count);
      first = false;
    }
    os << "}";
  };
  os << "{\"memory_report\": {\"fusion\": ";
  printJsonString(os, report.fusion);
  os << ", \"limits\": {\"chip\": ";
  printJsonString(os, l.chip);
  os << ", \"sm_count\": " << l.smCount << ", \"warp_size\": " << l.warpSize
     << ", \"max_threads_per_sm\": " << l.maxThreadsPerSM
     << ", \"max_blocks_per_sm\": " << l.maxBlocksPerSM
     << ", \"registers_per_sm\": " << l.registersPerSM
     << ", \"register_allocation_unit\": " << l.registerAllocationUnit
     << ", \"max_registers_per_thread\": " << l.maxRegistersPerThread
     << ", \"shared_memory_per_sm\": " << l.sharedMemoryPerSM
     << ", \"shared_reserved_per_block\": " << l.sharedReservedPerBlock
     << ", \"sector_bytes\": " << kSectorBytes << "},\n \"ptxas\": ";
  printJsonString(os, report.ptxasPath);
  os << ", \"note\": ";
  printJsonString(os, report.ptxasNote);
  os << ",\n \"kernels\": [";
  for (auto [index, k] : llvm::enumerate(report.kernels)) {
    const OccupancyReport &o = k.occupancy;
    os << (index ? ",\n  " : "\n  ") << "{\"name\": ";
    printJsonString(os, k.name);
    os << ", \"kind\": \"" << k.kind << "\", \"grid\": " << k.grid
       << ", \"block\": " << k.block
       << ", \"sample_stride\": " << k.sampleStride
       << ", \"records\": " << k.records
       << ",\n   \"load_bytes\": " << k.loadBytes
       << ", \"store_bytes\": " << k.storeBytes
       << ", \"min_load_bytes\": " << k.minLoadBytes
       << ", \"min_store_bytes\": " << k.minStoreBytes
       << ",\n   \"load_sectors\": " << k.loadSectors
       << ", \"load_min_sectors\": " << k.loadMinSectors
       << ", \"store_sectors\": " << k.storeSectors
       << ", \"store_min_sectors\": " << k.storeMinSectors
       << ", \"load_efficiency\": " << llvm::format("%.4f", k.loadEfficiency())
       << ", \"store_efficiency\": "
       << llvm::format("%.4f", k.storeEfficiency())
       << ",\n   \"loads_per_thread\": "
       << llvm::format("%.4f", k.loadsPerThread)
       << ", \"stores_per_thread\": " << llvm::format("%.4f", k.storesPerThread)
       << ", \"load_widths\": ";
    widths(k.loadWidths);
    os << ", \"store_widths\": ";
    widths(k.storeWidths);
    os << ",\n   \"ptxas\": {\"measured\": "
       << (k.ptxas.measured ? "true" : "false")
       << ", \"registers\": " << k.ptxas.registers
       << ", \"spill_stores\": " << k.ptxas.spillStores
       << ", \"spill_loads\": " << k.ptxas.spillLoads
       << ", \"stack_frame\": " << k.ptxas.stackFrame
       << ", \"local_bytes\": " << k.ptxas.localBytes
       << ", \"shared_bytes\": " << k.ptxas.sharedBytes
       << ", \"barriers\": " << k.ptxas.barriers << ", \"note\": ";
    printJsonString(os, k.ptxas.note);
    os << "},\n   \"occupancy\": {\"blocks_per_sm\": " << o.blocksPerSM
       << ", \"threads_per_sm\": " << o.threadsPerSM
       << ", \"occupancy\": " << llvm::format("%.4f", o.occupancy)
       << ", \"limiter\": \"" << o.limiter
       << "\", \"from_ptxas\": " << (o.fromPtxas ? "true" : "false")
       << ", \"waves\": " << llvm::format("%.4f", o.waves)
       << "},\n   \"instructions\": [";
    for (auto [j, r] : llvm::enumerate(k.instructions)) {
      os << (j ? ", " : "") << "{\"id\": " << r.id << ", \"op\": \"" << r.op
         << "\", \"store\": " << (r.isStore ? "true" : "false")
         << ", \"buffer\": \"" << r.buffer << "\", \"width\": " << r.width
         << ", \"block_level\": " << (r.blockLevel ? "true" : "false")
         << ", \"executions\": " << r.executions << ", \"bytes\": " << r.bytes
         << ", \"warp_instructions\": " << r.warpInstructions
         << ", \"sectors\": " << r.sectors
         << ", \"min_sectors\": " << r.minSectors << "}";
    }
    os << "]}";
  }
  os << "\n ],\n \"memcpy_bytes\": " << report.memcpyBytes
     << ", \"moved_bytes\": " << report.movedBytes()
     << ", \"fusion_min_bytes\": " << report.fusionMinBytes
     << ", \"library_calls\": [";
  for (auto [index, call] : llvm::enumerate(report.libraryCalls)) {
    os << (index ? ", " : "") << "{\"op\": ";
    printJsonString(os, call.op);
    os << ", \"signature\": ";
    printJsonString(os, call.signature);
    os << ", \"read_bytes\": " << call.readBytes
       << ", \"written_bytes\": " << call.writtenBytes
       << ", \"flops\": " << call.flops << "}";
  }
  os << "]"
     << ", \"result_fnv1a64\": [";
  for (auto [i, hash] : llvm::enumerate(report.resultHashes))
    os << (i ? ", " : "") << "\"0x" << llvm::format_hex_no_prefix(hash, 16)
       << "\"";
  os << "]}}\n";
}
