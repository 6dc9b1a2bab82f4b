//===- BlockLoopsToCPU.cpp - kernel block loops on a thread pool ----------===//
//
// The CPU backend runs a kernel's blocks on several threads. A GPU block
// computes its own outputs (a reduction split over threads combines inside
// the block, in shared memory), so blocks may run in any order and on any
// thread with the same bits, provided each thread has its own shared memory.
//
// The block loop is outlined into a function of a block range rather than
// handed to an OpenMP or async lowering: Debian's llvm-22 has no libomp, and
// MLIR's async runtime is a process-wide singleton with its own thread
// count, which `__mlir_execution_engine_destroy` resets when any engine
// goes away. Outlining happens before the lowering, where the captured
// values are still memrefs and scalars; the call that packs them for the
// runtime is written after it, where they are LLVM values of known types
// (docs/Lowering.md, "Blocks on every core").
//
//===----------------------------------------------------------------------===//

#include "fuser/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERCPUOUTLINEBLOCKLOOPS
#define GEN_PASS_DEF_FUSERCPUDISPATCHBLOCKLOOPS
#include "fuser/Conversion/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// Whether the first dim of `loop` is mapped to block_x: a kernel nest.
bool isBlockLoop(scf::ParallelOp loop) {
  auto mapping = loop->getAttrOfType<ArrayAttr>(gpu::getMappingAttrName());
  if (!mapping || mapping.empty())
    return false;
  auto first = dyn_cast<gpu::ParallelLoopDimMappingAttr>(mapping[0]);
  return first && first.getProcessor() == gpu::Processor::BlockX;
}

/// Whether `type` is shared memory: per block on a GPU, per call of an
/// outlined body here.
bool isWorkgroupMemory(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// Whether a value of `type` can be an argument of the outlined body: a
/// memref only where the bare-pointer convention passes it (static shape,
/// strides and offset, no memory space).
bool isPassable(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return isa<IntegerType, IndexType, FloatType, VectorType, ComplexType>(
        type);
  SmallVector<int64_t> strides;
  int64_t offset;
  return memref.hasStaticShape() && !memref.getMemorySpace() &&
         succeeded(memref.getStridesAndOffset(strides, offset)) &&
         !ShapedType::isDynamic(offset) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

class Outliner {
public:
  explicit Outliner(ModuleOp module) : module(module), symbols(module) {}

  /// Outlines `loop`, the `index`-th kernel nest of `func`, when it has
  /// blocks to share and what it reads can be passed. The new functions go
  /// after `anchor`, which then is the last of them.
  void outline(func::FuncOp func, scf::ParallelOp loop, unsigned index,
               Operation *&anchor);

  /// Erases the shared-memory globals no function reads any more.
  void eraseUnusedWorkgroupGlobals();

private:
  ModuleOp module;
  SymbolTable symbols;
};

void Outliner::outline(func::FuncOp func, scf::ParallelOp loop,
                       unsigned index, Operation *&anchor) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound()[0]);
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound()[0]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[0]);
  if (!loop.getInitVals().empty() || !lower || !upper || !step || *step <= 0)
    return;
  int64_t blocks = *upper > *lower ? llvm::divideCeil(*upper - *lower, *step)
                                   : 0;
  if (blocks < 2)
    return;

  // What the nest reads from above: the body's values and the bounds of
  // the remaining dims. Constants are cloned, the rest passed.
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(loop.getRegion(), above);
  unsigned rank = loop.getNumLoops();
  for (unsigned dim = 1; dim < rank; ++dim)
    above.insert_range(ValueRange{loop.getLowerBound()[dim],
                                  loop.getUpperBound()[dim],
                                  loop.getStep()[dim]});
  SmallVector<Value> captures;
  SmallVector<Operation *> constants;
  for (Value value : above) {
    Operation *def = value.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>())
      constants.push_back(def);
    else if (isPassable(value.getType()))
      captures.push_back(value);
    else
      return;
  }
  SmallVector<memref::GetGlobalOp> sharedReads;
  loop.walk([&](memref::GetGlobalOp read) {
    if (isWorkgroupMemory(read.getType()))
      sharedReads.push_back(read);
  });

  MLIRContext *context = module.getContext();
  Location loc = loop.getLoc();
  OpBuilder b(context);
  auto indexType = b.getIndexType();
  SmallVector<Type> bodyTypes = {indexType, indexType};
  for (Value capture : captures)
    bodyTypes.push_back(capture.getType());

  // @<f>_blocks_<k>(begin, end, captures...): blocks [begin, end).
  b.setInsertionPointAfter(anchor);
  auto body = func::FuncOp::create(
      b, loc, (func.getSymName() + "_blocks_" + Twine(index)).str(),
      b.getFunctionType(bodyTypes, {}));
  body.setPrivate();
  symbols.insert(body);
  Block *entry = body.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping map;
  for (Operation *constant : constants)
    b.clone(*constant, map);
  for (auto [capture, argument] :
       llvm::zip_equal(captures, entry->getArguments().drop_front(2)))
    map.map(capture, argument);
  // One copy of each shared buffer per call: its blocks run one after
  // another on one thread, as a GPU block's threads share one copy.
  llvm::MapVector<StringAttr, Value> scratch;
  for (memref::GetGlobalOp read : sharedReads) {
    StringAttr name = read.getNameAttr().getAttr();
    if (scratch.contains(name))
      continue;
    auto global = symbols.lookup<memref::GlobalOp>(name);
    MemRefType type = read.getType();
    scratch[name] = memref::AllocOp::create(
        b, loc,
        MemRefType::get(type.getShape(), type.getElementType(),
                        type.getLayout()),
        global ? global.getAlignmentAttr() : IntegerAttr());
  }
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto blockLoop = scf::ForOp::create(b, loc, entry->getArgument(0),
                                      entry->getArgument(1), one);
  b.setInsertionPointToStart(blockLoop.getBody());
  Value block = blockLoop.getInductionVar();
  if (*step != 1)
    block = arith::MulIOp::create(
        b, loc, block, arith::ConstantIndexOp::create(b, loc, *step));
  if (*lower != 0)
    block = arith::AddIOp::create(
        b, loc, block, arith::ConstantIndexOp::create(b, loc, *lower));
  map.map(loop.getInductionVars()[0], block);
  if (rank > 1) {
    // The remaining dims (threads) stay a nest of their own, mapped as they
    // were.
    auto lookup = [&](ValueRange values) {
      return llvm::map_to_vector(values.drop_front(), [&](Value value) {
        return map.lookupOrDefault(value);
      });
    };
    auto inner = scf::ParallelOp::create(b, loc, lookup(loop.getLowerBound()),
                                         lookup(loop.getUpperBound()),
                                         lookup(loop.getStep()));
    if (auto mapping =
            loop->getAttrOfType<ArrayAttr>(gpu::getMappingAttrName()))
      inner->setAttr(gpu::getMappingAttrName(),
                     b.getArrayAttr(mapping.getValue().drop_front()));
    map.map(ValueRange(loop.getInductionVars()).drop_front(),
            ValueRange(inner.getInductionVars()));
    b.setInsertionPoint(inner.getBody()->getTerminator());
  }
  for (Operation &op : loop.getBody()->without_terminator())
    b.clone(op, map);
  b.setInsertionPointAfter(blockLoop);
  for (auto &entry : scratch)
    memref::DeallocOp::create(b, loc, entry.second);
  func::ReturnOp::create(b, loc);
  body.walk([&](memref::GetGlobalOp read) {
    if (Value buffer = scratch.lookup(read.getNameAttr().getAttr())) {
      read.getResult().replaceAllUsesWith(buffer);
      read.erase();
    }
  });

  // @<f>_blocks_<k>_run(blocks, captures...), defined after the lowering
  // to LLVM (DispatchBlockLoops below).
  SmallVector<Type> runTypes = {indexType};
  llvm::append_range(runTypes, ArrayRef<Type>(bodyTypes).drop_front(2));
  b.setInsertionPointAfter(body);
  auto run = func::FuncOp::create(b, loc, (body.getSymName() + "_run").str(),
                                  b.getFunctionType(runTypes, {}));
  run.setPrivate();
  run->setAttr(kBlockBodyAttr, FlatSymbolRefAttr::get(body));
  symbols.insert(run);
  anchor = run;

  b.setInsertionPoint(loop);
  SmallVector<Value> operands = {
      arith::ConstantIndexOp::create(b, loc, blocks)};
  llvm::append_range(operands, captures);
  func::CallOp::create(b, loc, run, operands);
  loop.erase();
}

void Outliner::eraseUnusedWorkgroupGlobals() {
  for (auto global :
       llvm::make_early_inc_range(module.getOps<memref::GlobalOp>()))
    if (isWorkgroupMemory(global.getType()) &&
        SymbolTable::symbolKnownUseEmpty(global, module))
      global.erase();
}

struct OutlineBlockLoops
    : fuser::impl::FuserCPUOutlineBlockLoopsBase<OutlineBlockLoops> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Outliner outliner(module);
    for (auto func :
         llvm::to_vector(module.getOps<func::FuncOp>())) {
      SmallVector<scf::ParallelOp> nests;
      func.walk([&](scf::ParallelOp loop) {
        if (!loop->getParentOfType<scf::ParallelOp>() && isBlockLoop(loop))
          nests.push_back(loop);
      });
      Operation *anchor = func;
      for (auto [index, loop] : llvm::enumerate(nests))
        outliner.outline(func, loop, index, anchor);
    }
    outliner.eraseUnusedWorkgroupGlobals();
  }
};

struct DispatchBlockLoops
    : fuser::impl::FuserCPUDispatchBlockLoopsBase<DispatchBlockLoops> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> runs;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func->hasAttr(kBlockBodyAttr))
        runs.push_back(func);
    if (runs.empty())
      return;

    MLIRContext *context = module.getContext();
    OpBuilder b(context);
    auto ptr = LLVM::LLVMPointerType::get(context);
    auto i64 = b.getI64Type();
    auto voidType = LLVM::LLVMVoidType::get(context);
    auto runtime = module.lookupSymbol<LLVM::LLVMFuncOp>(kRunBlocksFunction);
    if (!runtime) {
      b.setInsertionPointToEnd(module.getBody());
      runtime = LLVM::LLVMFuncOp::create(
          b, module.getLoc(), kRunBlocksFunction,
          LLVM::LLVMFunctionType::get(voidType, {ptr, ptr, i64}));
    }
    for (LLVM::LLVMFuncOp run : runs)
      if (failed(define(run, runtime)))
        return signalPassFailure();
  }

  /// Gives `run(blocks, captures...)` its body: the captures in a stack
  /// struct, `runtime(thunk, &struct, blocks)`, where the thunk loads them
  /// back and calls the outlined body.
  LogicalResult define(LLVM::LLVMFuncOp run, LLVM::LLVMFuncOp runtime) {
    MLIRContext *context = run.getContext();
    Location loc = run.getLoc();
    auto bodyName = run->getAttrOfType<FlatSymbolRefAttr>(kBlockBodyAttr);
    auto body = bodyName ? SymbolTable::lookupNearestSymbolFrom<
                               LLVM::LLVMFuncOp>(run, bodyName)
                         : LLVM::LLVMFuncOp();
    auto i64 = IntegerType::get(context, 64);
    ArrayRef<Type> runTypes = run.getFunctionType().getParams();
    ArrayRef<Type> bodyTypes =
        body ? body.getFunctionType().getParams() : ArrayRef<Type>();
    if (!body || body.isExternal() || runTypes.empty() ||
        runTypes.front() != i64 || bodyTypes.size() != runTypes.size() + 1 ||
        bodyTypes[0] != i64 || bodyTypes[1] != i64 ||
        bodyTypes.drop_front(2) != runTypes.drop_front())
      return run.emitError("'")
             << kBlockBodyAttr
             << "' must name a defined function taking (i64 begin, i64 end) "
                "and then the arguments of this one after its i64 blocks";
    ArrayRef<Type> captureTypes = runTypes.drop_front();
    auto contextType = LLVM::LLVMStructType::getLiteral(context, captureTypes);
    auto ptr = LLVM::LLVMPointerType::get(context);
    auto voidType = LLVM::LLVMVoidType::get(context);
    OpBuilder b(context);

    b.setInsertionPointAfter(body);
    auto thunk = LLVM::LLVMFuncOp::create(
        b, loc, (body.getName() + "_thunk").str(),
        LLVM::LLVMFunctionType::get(voidType, {ptr, i64, i64}),
        LLVM::Linkage::Internal);
    Block *thunkEntry = thunk.addEntryBlock(b);
    b.setInsertionPointToStart(thunkEntry);
    SmallVector<Value> arguments = {thunkEntry->getArgument(1),
                                    thunkEntry->getArgument(2)};
    if (!captureTypes.empty()) {
      Value packed =
          LLVM::LoadOp::create(b, loc, contextType, thunkEntry->getArgument(0));
      for (unsigned i = 0; i < captureTypes.size(); ++i)
        arguments.push_back(LLVM::ExtractValueOp::create(b, loc, packed, i));
    }
    LLVM::CallOp::create(b, loc, body, arguments);
    LLVM::ReturnOp::create(b, loc, ValueRange{});

    run->removeAttr(kBlockBodyAttr);
    run.setLinkage(LLVM::Linkage::Internal);
    Block *entry = run.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    Value packedContext;
    if (captureTypes.empty()) {
      packedContext = LLVM::ZeroOp::create(b, loc, ptr);
    } else {
      Value one = LLVM::ConstantOp::create(b, loc, i64, 1);
      packedContext = LLVM::AllocaOp::create(b, loc, ptr, contextType, one);
      Value packed = LLVM::UndefOp::create(b, loc, contextType);
      for (unsigned i = 0; i < captureTypes.size(); ++i)
        packed = LLVM::InsertValueOp::create(b, loc, packed,
                                             entry->getArgument(i + 1), i);
      LLVM::StoreOp::create(b, loc, packed, packedContext);
    }
    Value thunkAddress = LLVM::AddressOfOp::create(b, loc, thunk);
    LLVM::CallOp::create(
        b, loc, runtime,
        ValueRange{thunkAddress, packedContext, entry->getArgument(0)});
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    return success();
  }
};

} // namespace
