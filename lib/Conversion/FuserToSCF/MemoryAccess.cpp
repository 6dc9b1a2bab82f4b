//===- MemoryAccess.cpp - loads and stores of kernels
//-----------------------===//
//
// Loads and stores of lanes: one aligned vector access along a contiguous
// innermost axis, scalar accesses per lane otherwise, and the staged rows
// of a normalization (RowStaging) read back from workgroup memory.
//
//===----------------------------------------------------------------------===//

#include "EmitterBase.h"

#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

/// The innermost stride and alignment (in elements) of accesses to a memref
/// whose layout is static, or nullopt.
static std::optional<std::pair<int64_t, int64_t>>
getInnermostStride(MemRefType type, int64_t width) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  bool aligned = offset % width == 0;
  for (int64_t stride : ArrayRef(strides).drop_back())
    aligned &= stride % width == 0;
  return std::make_pair(strides.back(), aligned ? width : int64_t(1));
}

/// The alignment an access of `bytes` at a multiple of its own size may
/// claim: buffers are 16-byte aligned (memref.alloc in the host function,
/// cudaMalloc, the backends' buffers), and no access is wider on the GPU.
static uint64_t getAlignment(uint64_t bytes) {
  return std::min<uint64_t>(uint64_t(1) << llvm::Log2_64(bytes), 16);
}

/// Whether a thread loop before loop `loop` of the row filled `stage`.
static bool isFilledBefore(const RowStage &stage, int64_t loop) {
  return stage.filledBy >= 0 && stage.filledBy < loop;
}

/// A value of `type` (a vector of lanes or a scalar) at `position` of the
/// row buffer of `stage`.
static Value readStage(OpBuilder &b, Location loc, RowStage &stage,
                       Type type, Value position) {
  Value buffer = memref::GetGlobalOp::create(b, loc, stage.buffer.getType(),
                                             stage.buffer.getSymName());
  if (!isa<VectorType>(type))
    return memref::LoadOp::create(b, loc, buffer, ValueRange{position});
  return vector::LoadOp::create(b, loc, type, buffer, ValueRange{position});
}

/// Stores `value` at `position` of the row buffer of `stage`, filled by
/// thread loop `loop`.
static void writeStage(OpBuilder &b, Location loc, RowStage &stage,
                       Value value, Value position, int64_t loop) {
  Value buffer = memref::GetGlobalOp::create(b, loc, stage.buffer.getType(),
                                             stage.buffer.getSymName());
  if (isa<VectorType>(value.getType()))
    vector::StoreOp::create(b, loc, value, buffer, ValueRange{position});
  else
    memref::StoreOp::create(b, loc, value, buffer, ValueRange{position});
  stage.filledBy = loop;
}

Value EmitterBase::load(Value memref, const Lanes &at, const RowStep *rowStep) {
  if (!staging || !rowStep)
    return loadGlobal(memref, at);
  auto stageLanes = [&](const RowStage &stage) {
    if (stage.perRow)
      return rowStep->lanes;
    // A weight's index is the row position alone.
    Lanes lanes = rowStep->lanes;
    lanes.base.erase(lanes.base.begin(),
                     lanes.base.begin() + staging->outerDims);
    if (lanes.kind == LaneKind::Unit)
      lanes.dim -= staging->outerDims;
    return lanes;
  };
  auto it = staging->stages.find(memref);
  if (it == staging->stages.end() || !(at == stageLanes(it->second)))
    return loadGlobal(memref, at);
  RowStage &stage = it->second;
  if (isFilledBefore(stage, staging->loop))
    return readStage(
        b, loc, stage,
        vectorOf(cast<MemRefType>(memref.getType()).getElementType(),
                 at.width),
        rowStep->position);
  Value value = loadGlobal(memref, at);
  if (staging->fill)
    writeStage(b, loc, stage, value, rowStep->position, staging->loop);
  return value;
}

/// The stage of segment value `value` when lanes `at` of walk `rowStep` are
/// its row's own (a stage holds the row as the walk steps over it).
static RowStage *findValueStage(RowStaging *staging, Value value,
                                const Lanes &at, const RowStep *rowStep) {
  if (!staging || !rowStep || !(at == rowStep->lanes))
    return nullptr;
  auto it = staging->stages.find(value);
  return it == staging->stages.end() ? nullptr : &it->second;
}

Value EmitterBase::loadStagedValue(Value value, const Lanes &at,
                                   const RowStep *rowStep) {
  RowStage *stage = findValueStage(staging, value, at, rowStep);
  if (!stage || !isFilledBefore(*stage, staging->loop))
    return Value();
  return readStage(b, loc, *stage,
                   vectorOf(getElementTypeOrSelf(value.getType()), at.width),
                   rowStep->position);
}

void EmitterBase::storeStagedValue(Value value, const Lanes &at,
                                   const RowStep *rowStep, Value computed) {
  RowStage *stage = findValueStage(staging, value, at, rowStep);
  if (stage && staging->fill &&
      computed.getType() ==
          vectorOf(getElementTypeOrSelf(value.getType()), at.width))
    writeStage(b, loc, *stage, computed, rowStep->position, staging->loop);
}

Value EmitterBase::loadGlobal(Value memref, const Lanes &at) {
  auto type = cast<MemRefType>(memref.getType());
  Type elementType = type.getElementType();
  if (at.kind == LaneKind::Uniform)
    return splat(memref::LoadOp::create(b, loc, memref, at.base), at.width);
  // One vector load along the innermost axis when it is contiguous; i1 is
  // one byte per element in memory but one bit per lane in vectors.
  std::optional<std::pair<int64_t, int64_t>> innermost =
      getInnermostStride(type, at.width);
  if (at.kind == LaneKind::Unit && at.dim == type.getRank() - 1 &&
      !elementType.isInteger(1) && !isa<ComplexType>(elementType) &&
      innermost && innermost->first == 1) {
    unsigned bytes = *getElementByteWidth(elementType);
    return vector::LoadOp::create(
        b, loc, cast<VectorType>(vectorOf(elementType, at.width)), memref,
        at.base,
        /*nontemporal=*/false,
        llvm::MaybeAlign(getAlignment(innermost->second * bytes)));
  }
  SmallVector<Value> elements;
  for (ArrayRef<Value> index : toGather(at).perLane)
    elements.push_back(memref::LoadOp::create(b, loc, memref, index));
  if (!isa<VectorType>(vectorOf(elementType, at.width)))
    return elements.front();
  return vector::FromElementsOp::create(
      b, loc, cast<VectorType>(vectorOf(elementType, at.width)), elements);
}

void EmitterBase::store(Value vector, Value memref, const Lanes &at) {
  auto type = cast<MemRefType>(memref.getType());
  Type elementType = type.getElementType();
  int64_t width = at.width;
  if (width > 1 && at.kind == LaneKind::Unit && at.dim == type.getRank() - 1 &&
      !elementType.isInteger(1)) {
    unsigned bytes = *getElementByteWidth(elementType);
    vector::StoreOp::create(b, loc, vector, memref, at.base,
                            /*nontemporal=*/false,
                            llvm::MaybeAlign(getAlignment(width * bytes)));
    return;
  }
  for (auto [lane, index] : llvm::enumerate(toGather(at).perLane))
    memref::StoreOp::create(b, loc, extractLane(vector, lane), memref, index);
}
