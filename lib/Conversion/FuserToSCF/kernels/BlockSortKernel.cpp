//===- BlockSortKernel.cpp - a block sorts each row of an argsort ---------===//
//
// Pointwise schedules of a segment with an argsort (one, and only outputs
// of its shape) whose rows are long enough that ranking them in one thread
// each (SortRowKernel, O(extent^2)) costs more than sorting them together:
// a block per row sorts (key, position) pairs in workgroup memory with a
// bitonic network over the row padded to a power of two, one thread loop
// per stage with a barrier before it, then computes every output at each
// rank from the position sorted there. The comparison is a strict total
// order (the sort order, then the position; padding after every element),
// so the network gives the stable order, the interpreter's bit for bit.
// O(extent log^2 extent) comparisons per row; rows whose pairs do not fit
// the block's shared memory go to SortRowKernel.
//
//===----------------------------------------------------------------------===//

#include "KernelKinds.h"

#include "fuser/Analysis/TargetInfo.h"
#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Conversion/Utils/WorkgroupBuffer.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

namespace {

/// Rows shorter than this rank in a thread each: few comparisons, and a
/// thread per row keeps more rows in flight than a block per row.
constexpr int64_t kMinBlockSortExtent = 64;
constexpr int64_t kMaxBlockSortThreads = 512;

/// How a block sorts the rows of `sort`: the row padded to a power of two,
/// the threads, and the key type; none where the pairs exceed the block's
/// shared memory or the row is short.
struct BlockSort {
  int64_t extent, padded, threads;
  Type keyType;

  static std::optional<BlockSort> get(ArgsortOp sort) {
    int64_t extent = shapeOf(sort.getResult())[sort.getDim()];
    if (extent < kMinBlockSortExtent)
      return std::nullopt;
    int64_t padded = llvm::PowerOf2Ceil(extent);
    Type keyType =
        getComputeType(getElementTypeOrSelf(sort.getSource().getType()));
    // A key and an i32 position per element.
    int64_t bytes = padded * (*getElementByteWidth(keyType) + 4);
    if (bytes > TargetInfo().sharedMemoryPerBlock)
      return std::nullopt;
    return BlockSort{extent, padded,
                     std::min(kMaxBlockSortThreads, padded / 2), keyType};
  }
};

class BlockSortKernel final : public BlockRowEmitter {
public:
  BlockSortKernel(OpBuilder &builder, const KernelQuery &query)
      : BlockRowEmitter(builder, query) {}
  static bool matches(const KernelQuery &query) {
    return matchesRowsOf<ArgsortOp>(query) &&
           BlockSort::get(getOnlyOp<ArgsortOp>(query.segment));
  }

protected:
  LogicalResult emitSkeleton() override;
};

} // namespace

BlockRowEmitter::PairRows
BlockRowEmitter::emitPairRows(StringRef name, int64_t count, Type keyType,
                              ArrayRef<int64_t> rowShape) {
  auto module = segment->getParentOfType<ModuleOp>();
  memref::GlobalOp keysBuffer = createWorkgroupBuffer(
      b, loc, module, ("__fuser_" + name + "_keys").str(), {count}, keyType);
  memref::GlobalOp positionsBuffer =
      createWorkgroupBuffer(b, loc, module,
                            ("__fuser_" + name + "_positions").str(), {count},
                            b.getI32Type());
  Value block = emitBlockLoop(getSaturatedNumElements(rowShape));
  PairRows rows;
  rows.keys = memref::GetGlobalOp::create(b, loc, keysBuffer.getType(),
                                          keysBuffer.getSymName());
  rows.positions = memref::GetGlobalOp::create(
      b, loc, positionsBuffer.getType(), positionsBuffer.getSymName());
  rows.row = delinearize(block, rowShape);
  rows.blockBody = b.saveInsertionPoint();
  return rows;
}

Value BlockRowEmitter::emitThreadItems(int64_t threads, int64_t count,
                                       bool barrier) {
  scf::ParallelOp loop =
      createMappedLoop(b, loc, {threads}, {gpu::Processor::ThreadX});
  if (barrier)
    gpu::BarrierOp::create(b, loc);
  pushScope();
  // Memory effects stay inside the scf.for (convert-parallel-loops-to-gpu
  // refuses them directly in a thread loop that another follows).
  auto items = scf::ForOp::create(b, loc, loop.getInductionVars()[0],
                                  constant(count), constant(threads));
  b.setInsertionPointToStart(items.getBody());
  pushScope();
  return items.getInductionVar();
}

void BlockRowEmitter::leaveThreadLoop(size_t scopesBefore,
                                      OpBuilder::InsertPoint blockBody) {
  while (scopes.size() > scopesBefore)
    popScope();
  b.restoreInsertionPoint(blockBody);
}

Value kernels::emitPairBefore(OpBuilder &b, Location loc, Value aKey,
                              Value aPosition, Value bKey, Value bPosition,
                              int64_t extent, bool descending) {
  auto cmp = [&](arith::CmpIPredicate predicate, Value lhs,
                 Value rhs) -> Value {
    return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
  };
  Value end = arith::ConstantIntOp::create(b, loc, b.getI32Type(), extent);
  Value aPadding = cmp(arith::CmpIPredicate::sge, aPosition, end);
  Value bPadding = cmp(arith::CmpIPredicate::sge, bPosition, end);
  Value earlier = cmp(arith::CmpIPredicate::slt, aPosition, bPosition);
  auto [ordered, equal] = emitSortOrder(b, loc, aKey, bKey, descending);
  Value elementBefore = arith::OrIOp::create(
      b, loc, ordered, arith::AndIOp::create(b, loc, equal, earlier));
  return arith::SelectOp::create(
      b, loc, aPadding, arith::AndIOp::create(b, loc, bPadding, earlier),
      arith::OrIOp::create(b, loc, bPadding, elementBefore));
}

LogicalResult BlockSortKernel::emitSkeleton() {
  ArgsortOp sort = getOnlyOp<ArgsortOp>(segment);
  BlockSort shape = *BlockSort::get(sort);
  int64_t dim = sort.getDim();
  ArrayRef<int64_t> resultShape = shapeOf(sort.getResult());
  SmallVector<int64_t> rowShape(resultShape);
  rowShape[dim] = 1;
  Type i32 = b.getI32Type();
  size_t depth = scopes.size();
  PairRows rows = emitPairRows("sort", shape.padded, shape.keyType, rowShape);
  Value keys = rows.keys, positions = rows.positions;
  SmallVector<Value> row = rows.row;
  OpBuilder::InsertPoint blockBody = rows.blockBody;
  auto toI32 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, i32, index);
  };

  // The row's keys in the compute type and their positions; padding gets
  // a zero key (every comparison with it reads the position first).
  {
    size_t before = scopes.size();
    Value i = emitThreadItems(shape.threads, shape.padded, /*barrier=*/false);
    Value inRow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i,
                                        constant(shape.extent));
    auto key = scf::IfOp::create(b, loc, shape.keyType, inRow,
                                 /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(key.thenBlock());
      pushScope();
      Lanes at;
      at.base = row;
      at.base[dim] = i;
      FailureOr<Value> element = eval(sort.getSource(), at);
      if (failed(element))
        return failure();
      scf::YieldOp::create(
          b, loc,
          extractLane(emitCast(b, loc, *element, shape.keyType), 0));
      popScope();
      b.setInsertionPointToStart(key.elseBlock());
      scf::YieldOp::create(
          b, loc,
          arith::ConstantOp::create(b, loc, b.getZeroAttr(shape.keyType))
              .getResult());
    }
    memref::StoreOp::create(b, loc, key.getResult(0), keys, i);
    memref::StoreOp::create(b, loc, toI32(i), positions, i);
    leaveThreadLoop(before, blockBody);
  }

  // The bitonic network: stage (k, j) compares elements j apart, in
  // runs of k sorted alternately up and down (up throughout the last).
  for (int64_t k = 2; k <= shape.padded; k *= 2) {
    for (int64_t j = k / 2; j > 0; j /= 2) {
      size_t before = scopes.size();
      Value pair =
          emitThreadItems(shape.threads, shape.padded / 2, /*barrier=*/true);
      Value i = add(mul(div(pair, constant(j)), constant(2 * j)),
                    rem(pair, constant(j)));
      Value l = add(i, constant(j));
      Value up = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       rem(div(i, constant(k)), constant(2)),
                                       constant(0));
      Value iKey = memref::LoadOp::create(b, loc, keys, i);
      Value lKey = memref::LoadOp::create(b, loc, keys, l);
      Value iPosition = memref::LoadOp::create(b, loc, positions, i);
      Value lPosition = memref::LoadOp::create(b, loc, positions, l);
      bool descending = sort.getDescending();
      Value swap = arith::SelectOp::create(
          b, loc, up,
          emitPairBefore(b, loc, lKey, lPosition, iKey, iPosition,
                         shape.extent, descending),
          emitPairBefore(b, loc, iKey, iPosition, lKey, lPosition,
                         shape.extent, descending));
      b.setInsertionPointToStart(
          scf::IfOp::create(b, loc, swap, /*withElseRegion=*/false)
              .thenBlock());
      memref::StoreOp::create(b, loc, lKey, keys, i);
      memref::StoreOp::create(b, loc, iKey, keys, l);
      memref::StoreOp::create(b, loc, lPosition, positions, i);
      memref::StoreOp::create(b, loc, iPosition, positions, l);
      leaveThreadLoop(before, blockBody);
    }
  }

  // Every output at each rank, from the position sorted there.
  Value rank = emitThreadItems(shape.threads, shape.extent, /*barrier=*/true);
  SmallVector<Value> ranked = row;
  ranked[dim] = rank;
  Value position = arith::ExtSIOp::create(
      b, loc, b.getI64Type(), memref::LoadOp::create(b, loc, positions, rank));
  if (failed(emitOutputsGiven(sort.getResult(), splat(position, 1), ranked,
                               resultShape)))
    return failure();
  while (scopes.size() > depth)
    popScope();
  return success();
}

const KernelKind kernels::blockSortKernel =
    makeKernelKind<BlockSortKernel>("block_sort");
