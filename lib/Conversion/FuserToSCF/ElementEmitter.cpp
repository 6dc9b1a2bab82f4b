//===- ElementEmitter.cpp - element evaluation in kernels
//-------------------===//
//
// A kernel computes each element of each output by evaluating the segment's
// ops backwards from that element: meta ops are index arithmetic (the lane
// analysis), elementwise ops go through FuserToArith, pad and cat select
// between their operands, reductions are loops. No intermediate tensor of
// the segment is materialized.
//
//===----------------------------------------------------------------------===//

#include "EmitterBase.h"
#include "KernelEmitter.h"

#include "fuser/Conversion/FuserToArith/FuserToArith.h"
#include "fuser/Conversion/Passes.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::kernels;

FailureOr<Value> EmitterBase::evalScalar(Value value) {
  // Depth first, operands in order, on an explicit stack: scalar chains
  // may be long too.
  SmallVector<std::pair<Value, bool>> stack = {{value, false}};
  while (!stack.empty()) {
    auto [scalar, operandsDone] = stack.pop_back_val();
    if (bindings.contains(scalar))
      continue;
    Operation *op = scalar.getDefiningOp();
    if (!op || op->getNumRegions() != 0 || op->getNumResults() != 1)
      return emitError(scalar.getLoc(),
                       "cannot compute this scalar in a kernel");
    if (!operandsDone) {
      stack.push_back({scalar, true});
      for (Value operand : llvm::reverse(op->getOperands()))
        stack.push_back({operand, false});
      continue;
    }
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(bindings.lookup(operand));
    OpBuilder::InsertionGuard guard(b);
    b.restoreInsertionPoint(scalarPoint);
    FailureOr<Value> result = emitScalarOp(b, op, operands);
    if (failed(result))
      return failure();
    bindings.map(scalar, *result);
  }
  return bindings.lookup(value);
}

Value EmitterBase::lookUpEvaluated(Value value, const Lanes &at) {
  for (Scope &scope : llvm::reverse(scopes)) {
    auto it = scope.values.find(value);
    if (it == scope.values.end())
      continue;
    for (auto &[lanes, result] : it->second)
      if (lanes == at)
        return result;
  }
  return Value();
}

Operation *EmitterBase::getChainedOp(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op || !isa<RankedTensorType>(value.getType()) ||
      bindings.contains(value) || reducedValues.contains(op))
    return nullptr;
  if (isa<MetaOpInterface, ElementwiseOpInterface>(op))
    return op;
  return nullptr;
}

AffineMap EmitterBase::getChainedOperandMap(Operation *op, Value operand) {
  if (auto meta = dyn_cast<MetaOpInterface>(op))
    return meta.getSourceIndexMap();
  return getBroadcastIndexMap(b.getContext(), shapeOf(operand),
                              shapeOf(op->getResult(0)));
}

Lanes EmitterBase::getOperandLanes(Operation *op, unsigned index,
                                   const Lanes &at) {
  Value operand = op->getOperand(index);
  if (!isa<RankedTensorType>(operand.getType()))
    return at;
  return mapLanes(getChainedOperandMap(op, operand), shapeOf(operand), at);
}

FailureOr<Value> EmitterBase::eval(Value value, const Lanes &at,
                                   const RowStep *rowStep) {
  if (Value cached = lookUpEvaluated(value, at))
    return cached;
  if (Value staged = loadStagedValue(value, at, rowStep)) {
    scopes.back().values[value].push_back({at, staged});
    return staged;
  }
  // One frame per value being evaluated: its operands are evaluated in
  // order, each after its own operands (as a recursion would, so the IR is
  // emitted in the same order).
  struct Frame {
    Value value;
    Lanes at;
    Operation *op;
    SmallVector<Value> operands;
  };
  SmallVector<Frame> stack;
  stack.push_back({value, at, getChainedOp(value), {}});
  while (true) {
    Frame &frame = stack.back();
    Value result;
    if (!frame.op) {
      FailureOr<Value> unchained =
          evalUnchained(frame.value, frame.at, rowStep);
      if (failed(unchained))
        return failure();
      result = *unchained;
    } else {
      // Meta ops read their source only.
      unsigned count = isa<ElementwiseOpInterface>(frame.op)
                           ? frame.op->getNumOperands()
                           : 1;
      if (frame.operands.size() < count) {
        Value operand = frame.op->getOperand(frame.operands.size());
        Lanes lanes =
            getOperandLanes(frame.op, frame.operands.size(), frame.at);
        if (Value cached = lookUpEvaluated(operand, lanes)) {
          frame.operands.push_back(cached);
          continue;
        }
        if (Value staged = loadStagedValue(operand, lanes, rowStep)) {
          scopes.back().values[operand].push_back({lanes, staged});
          frame.operands.push_back(staged);
          continue;
        }
        Operation *chained = getChainedOp(operand);
        stack.push_back({operand, std::move(lanes), chained, {}});
        continue;
      }
      if (isa<ElementwiseOpInterface>(frame.op)) {
        FailureOr<Value> computed =
            emitElementwise(b, loc, frame.op, frame.operands);
        if (failed(computed))
          return failure();
        // A real result of complex operands (abs, real, casts) comes back
        // as a scalar: lanes of it as every real value has them.
        result = isa<ComplexType, VectorType>(computed->getType())
                     ? *computed
                     : splat(*computed, frame.at.width);
      } else {
        result = frame.operands.front();
      }
    }
    storeStagedValue(frame.value, frame.at, rowStep, result);
    scopes.back().values[frame.value].push_back({frame.at, result});
    stack.pop_back();
    if (stack.empty())
      return result;
    stack.back().operands.push_back(result);
  }
}

FailureOr<Value> EmitterBase::evalUnchained(Value value, const Lanes &at,
                                            const RowStep *rowStep) {
  if (!isa<RankedTensorType>(value.getType())) {
    FailureOr<Value> scalar = evalScalar(value);
    if (failed(scalar))
      return failure();
    return splat(*scalar, at.width);
  }
  if (Value bound = bindings.lookupOrNull(value)) {
    // An input without elements is never read at an index in range (its
    // reads sit in loops that do not run or in lanes a select drops): the
    // kernel does not reference it, so it never becomes a kernel argument,
    // which the bare-pointer convention refuses (an identity layout with a
    // zero extent has dynamic strides).
    if (getSaturatedNumElements(bound.getType()) == 0) {
      Type element = cast<MemRefType>(bound.getType()).getElementType();
      if (auto complex = dyn_cast<ComplexType>(element)) {
        Value zero = arith::ConstantOp::create(
            b, loc, b.getZeroAttr(complex.getElementType()));
        return complex::CreateOp::create(b, loc, complex, zero, zero)
            .getResult();
      }
      return arith::ConstantOp::create(
                 b, loc,
                 cast<TypedAttr>(b.getZeroAttr(vectorOf(element, at.width))))
          .getResult();
    }
    return load(bound, at, rowStep);
  }
  Operation *op = value.getDefiningOp();
  if (Value reduced = reducedValues.lookup(op))
    return splat(reduced, at.width);
  if (isa<FullOp>(op)) {
    FailureOr<Value> scalar = evalScalar(cast<FullOp>(op).getValue());
    if (failed(scalar))
      return failure();
    return splat(*scalar, at.width);
  }
  if (auto iota = dyn_cast<IotaOp>(op))
    return evalIota(iota, at);
  if (isa<UniformOp, NormalOp>(op))
    return evalRandom(op, at);
  if (!isa<PadOp, CatOp, ReductionOp, ScanOp, GatherOp>(op))
    return op->emitError("the kernel lowering does not support '")
           << op->getName() << "'";
  // These evaluate their operands from inside their own structure (loops,
  // selects between operands), recursively.
  if (nestedEvaluations == kMaxNestedEvaluations)
    return op->emitError("the kernel lowering nests pad, cat, gather and "
                         "reduction evaluations at most ")
           << kMaxNestedEvaluations
           << " deep in one kernel; split the fusion here (fuser.segment_set)";
  ++nestedEvaluations;
  FailureOr<Value> result =
      llvm::TypeSwitch<Operation *, FailureOr<Value>>(op)
          .Case([&](PadOp pad) { return evalPad(pad, at, rowStep); })
          .Case([&](CatOp cat) { return evalCat(cat, at, rowStep); })
          .Case([&](GatherOp gather) {
            return evalGather(gather, at, rowStep);
          })
          .Case([&](ReductionOp reduction) {
            return evalReduction(reduction, at, rowStep);
          })
          .Case([&](ScanOp scan) { return evalScan(scan, at, rowStep); });
  --nestedEvaluations;
  return result;
}

FailureOr<Value> EmitterBase::evalPad(PadOp pad, const Lanes &at,
                                      const RowStep *rowStep) {
  int64_t width = at.width;
  ArrayRef<int64_t> sourceShape = shapeOf(pad.getSource());
  // The source's piece: its map and where the result reads it.
  IndexMapPiece piece = getOperandIndexMaps(pad)->front().pieces.front();
  std::optional<int64_t> unitDim = -1;
  if (at.kind == LaneKind::Unit)
    unitDim = getOperandLaneDim(piece.map, sourceShape, at.dim, width);
  // Reading at the index clamped into the source keeps the loads in bounds
  // where the condition does not hold (a vector of lanes starts at most
  // `width` before the end).
  auto sourceIndex = [&](ArrayRef<Value> index) {
    SmallVector<Value> source = applyIndexMap(piece.map, index);
    for (auto [d, value] : llvm::enumerate(source)) {
      int64_t last = sourceShape[d] - (unitDim == int64_t(d) ? width : 1);
      value = clamp(value, 0, last);
    }
    return source;
  };
  Lanes lanes = at.kind == LaneKind::Unit && unitDim == -1 ? toGather(at) : at;
  FailureOr<Value> source =
      eval(pad.getSource(), transform(lanes, sourceIndex, unitDim), rowStep);
  FailureOr<Value> padding = evalScalar(pad.getValue());
  if (failed(source) || failed(padding))
    return failure();
  Value inSource = laneCondition(lanes, [&](ArrayRef<Value> index) {
    return applyCondition(piece.condition, index);
  });
  return arith::SelectOp::create(b, loc, inSource, *source,
                                 splat(*padding, width))
      .getResult();
}

FailureOr<Value> EmitterBase::evalCat(CatOp cat, const Lanes &at,
                                      const RowStep *rowStep) {
  int64_t width = at.width;
  int64_t dim = cat.getDim();
  // Each input's piece: its map and the block of the result it fills.
  SmallVector<OperandIndexMap> maps = *getOperandIndexMaps(cat);
  SmallVector<IndexMapPiece> pieces;
  for (const OperandIndexMap &map : maps)
    pieces.push_back(map.pieces.front());
  // One kind of lanes for all inputs: Unit where every input keeps them.
  Lanes lanes = at;
  if (at.kind == LaneKind::Unit &&
      llvm::any_of(llvm::zip_equal(pieces, cat.getInputs()), [&](auto entry) {
        auto [piece, input] = entry;
        return getOperandLaneDim(piece.map, shapeOf(input), at.dim, width) !=
               at.dim;
      }))
    lanes = toGather(at);
  // The inputs' blocks follow one another along `dim`: selecting each input
  // in order where its index along `dim` is not negative (its block or a
  // later one) leaves the input whose block holds the index. Every input is
  // read clamped in bounds (for a whole vector of lanes along `dim`).
  Value result;
  for (auto [input, piece] : llvm::zip_equal(cat.getInputs(), pieces)) {
    int64_t last =
        shapeOf(input)[dim] -
        (lanes.kind == LaneKind::Unit && lanes.dim == dim ? width : 1);
    auto inputIndex = [&, &piece = piece](ArrayRef<Value> index) {
      SmallVector<Value> source = applyIndexMap(piece.map, index);
      source[dim] = clamp(source[dim], 0, last);
      return source;
    };
    std::optional<int64_t> unitDim =
        lanes.kind == LaneKind::Unit ? std::optional(lanes.dim) : -1;
    FailureOr<Value> value =
        eval(input, transform(lanes, inputIndex, unitDim), rowStep);
    if (failed(value))
      return failure();
    if (!result) {
      result = *value;
      continue;
    }
    Value reached =
        laneCondition(lanes, [&, &piece = piece](ArrayRef<Value> index) {
          return arith::CmpIOp::create(
                     b, loc, arith::CmpIPredicate::sge,
                     applyIndexExpr(piece.map.getResult(dim), index, {}),
                     constant(0))
              .getResult();
        });
    result = arith::SelectOp::create(b, loc, reached, *value, result);
  }
  return result;
}

FailureOr<Value> EmitterBase::evalGather(GatherOp op, const Lanes &at,
                                         const RowStep *rowStep) {
  // The index at the result's lanes, then the source at each lane's index
  // with `dim` replaced by the index read there.
  FailureOr<Value> index = eval(op.getIndex(), at, rowStep);
  if (failed(index))
    return failure();
  int64_t dim = op.getDim();
  auto position = [&](int64_t lane, ArrayRef<Value> element) {
    Value read = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                            extractLane(*index, lane));
    return checkGatherIndex(op, read, element);
  };
  Lanes source;
  source.width = at.width;
  // Where the index is one for all lanes (an embedding's row index
  // broadcast along the row), the source is read at the lanes' other
  // index: Unit lanes stay Unit (one vector load of a gathered row).
  if (at.kind == LaneKind::Uniform ||
      (at.kind == LaneKind::Unit && at.dim != dim &&
       isUniformAlong(op.getIndex(), at.dim, at.width))) {
    source.kind = at.kind;
    source.dim = at.dim;
    source.base = at.base;
    source.base[dim] = position(0, at.base);
  } else {
    Lanes lanes = toGather(at);
    source.kind = LaneKind::Gather;
    for (auto [lane, laneIndex] : llvm::enumerate(lanes.perLane)) {
      SmallVector<Value> read(laneIndex);
      read[dim] = position(lane, laneIndex);
      source.perLane.push_back(read);
    }
    source.base = source.perLane.front();
  }
  return eval(op.getSource(), source, rowStep);
}

Value EmitterBase::checkGatherIndex(GatherOp op, Value position,
                                    ArrayRef<Value> element) {
  int64_t dim = op.getDim();
  int64_t extent = shapeOf(op.getSource())[dim];
  emitIndexCheck(op, dim, extent, shapeOf(op.getIndex()), position, element);
  return checkIndices ? clamp(position, 0, extent - 1) : position;
}

int64_t mlir::fuser::getIndexCheck(ModuleOp module, Location loc) {
  SmallVector<Attribute> checks;
  if (auto list = module->getAttrOfType<ArrayAttr>(kIndexChecksAttr))
    checks.assign(list.begin(), list.end());
  int64_t check = llvm::find(checks, loc) - checks.begin();
  if (check == int64_t(checks.size())) {
    checks.push_back(loc);
    module->setAttr(kIndexChecksAttr,
                    ArrayAttr::get(module.getContext(), checks));
  }
  return check;
}

void EmitterBase::emitIndexCheck(Operation *op, int64_t dim, int64_t extent,
                                 ArrayRef<int64_t> indexShape, Value position,
                                 ArrayRef<Value> element) {
  if (!checkIndices)
    return;
  auto module = segment->getParentOfType<ModuleOp>();
  MLIRContext *context = b.getContext();
  int64_t check = getIndexCheck(module, op->getLoc());
  Type i64 = b.getI64Type();
  auto report = module.lookupSymbol<func::FuncOp>(kIndexOutOfRangeFunction);
  if (!report) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    report = func::FuncOp::create(
        b, module.getLoc(), kIndexOutOfRangeFunction,
        FunctionType::get(context, SmallVector<Type>(5, i64), {}));
    report.setPrivate();
  }
  // Unsigned: a negative index is out of range too.
  Value outOfRange = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::uge, position, constant(extent));
  auto ifOp = scf::IfOp::create(b, loc, outOfRange, /*withElseRegion=*/false);
  {
    // Index values built in the branch stay in it.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    pushScope();
    Value flat = element.empty() ? constant(0) : element.front();
    for (int64_t d = 1; d < int64_t(element.size()); ++d)
      flat = add(mul(flat, constant(indexShape[d])), element[d]);
    auto toI64 = [&](Value value) -> Value {
      return arith::IndexCastOp::create(b, loc, i64, value);
    };
    auto i64Constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(b, loc, i64, value);
    };
    func::CallOp::create(b, loc, report,
                         ValueRange{i64Constant(check), toI64(position),
                                    i64Constant(extent), i64Constant(dim),
                                    toI64(flat)});
    popScope();
  }
}

FailureOr<Value> EmitterBase::evalIota(IotaOp op, const Lanes &at) {
  FailureOr<Value> start = evalScalar(op.getStart());
  FailureOr<Value> step = evalScalar(op.getStep());
  if (failed(start) || failed(step))
    return failure();
  int64_t width = at.width;
  Type i64 = b.getI64Type();
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, i64, index);
  };
  // The element index of each lane, as i64.
  Value index;
  if (at.kind == LaneKind::Gather) {
    SmallVector<Value> lanes;
    for (ArrayRef<Value> laneIndex : at.perLane)
      lanes.push_back(toI64(laneIndex.front()));
    index = vector::FromElementsOp::create(
        b, loc, VectorType::get({width}, i64), lanes);
  } else {
    index = splat(toI64(at.base.front()), width);
    if (at.kind == LaneKind::Unit) {
      SmallVector<int64_t> offsets(width);
      std::iota(offsets.begin(), offsets.end(), 0);
      auto type = VectorType::get({width}, i64);
      index = arith::AddIOp::create(
          b, loc, index,
          arith::ConstantOp::create(
              b, loc, type, DenseElementsAttr::get(type, ArrayRef(offsets))));
    }
  }
  // start + i * step, as the interpreter computes it: in the compute type
  // for floats (each op rounded there), wrapping in the width for integers.
  Type element = op.getType().getElementType();
  if (isa<FloatType>(element)) {
    Type compute = getComputeType(element);
    Value i = arith::SIToFPOp::create(b, loc, vectorOf(compute, width), index);
    Value product = arith::MulFOp::create(
        b, loc, splat(emitCast(b, loc, *step, compute), width), i);
    Value sum = arith::AddFOp::create(
        b, loc, splat(emitCast(b, loc, *start, compute), width), product);
    return emitCast(b, loc, sum, element);
  }
  Value i = element == i64 ? index
                           : arith::TruncIOp::create(
                                 b, loc, vectorOf(element, width), index)
                                 .getResult();
  Value product =
      arith::MulIOp::create(b, loc, splat(*step, width), i).getResult();
  return arith::AddIOp::create(b, loc, splat(*start, width), product)
      .getResult();
}

FailureOr<Value> EmitterBase::evalReduction(ReductionOp op, const Lanes &at,
                                            const RowStep *rowStep) {
  ArrayRef<int64_t> sourceShape = shapeOf(op.getSource());
  ArrayRef<int64_t> dims = op.getDims();
  // (kept dims)[reduced dims] -> source index.
  AffineMap map = getOperandIndexMaps(op)->front().pieces.front().map;
  std::optional<int64_t> unitDim = -1;
  if (at.kind == LaneKind::Unit)
    unitDim = getOperandLaneDim(map, sourceShape, at.dim, at.width);

  Type elementType = getElementTypeOrSelf(op.getType());
  Type accumulatorType = vectorOf(getComputeType(elementType), at.width);
  Value accumulator =
      emitReductionIdentity(b, loc, op.getKind(), accumulatorType);

  // One loop per reduced axis of extent > 1, outermost first, so the source
  // is read in row-major order.
  SmallVector<Value> reducedIndex;
  SmallVector<scf::ForOp> loops;
  for (int64_t d : dims) {
    if (sourceShape[d] == 1) {
      reducedIndex.push_back(constant(0));
      continue;
    }
    auto loop =
        scf::ForOp::create(b, loc, constant(0), constant(sourceShape[d]),
                           constant(1), ValueRange{accumulator});
    if (!loops.empty()) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfter(loop);
      scf::YieldOp::create(b, loc, loop.getResults());
    }
    loops.push_back(loop);
    b.setInsertionPointToStart(loop.getBody());
    pushScope();
    reducedIndex.push_back(loop.getInductionVar());
    accumulator = loop.getRegionIterArgs().front();
  }
  auto sourceIndex = [&](ArrayRef<Value> index) {
    return applyIndexMap(map, index, reducedIndex);
  };
  FailureOr<Value> element =
      eval(op.getSource(), transform(at, sourceIndex, unitDim), rowStep);
  if (failed(element))
    return failure();
  Value combined = emitReductionCombine(
      b, loc, op.getKind(), accumulator,
      emitCast(b, loc, *element, getComputeType(elementType)));
  if (!loops.empty()) {
    scf::YieldOp::create(b, loc, combined);
    for (size_t i = 0; i < loops.size(); ++i)
      popScope();
    b.setInsertionPointAfter(loops.front());
    combined = loops.front().getResult(0);
  }
  return emitCast(b, loc, combined, elementType);
}

FailureOr<Value> EmitterBase::evalScan(ScanOp op, const Lanes &at,
                                       const RowStep *rowStep) {
  int64_t dim = op.getDim();
  // Lanes at different positions along the scan dim combine prefixes of
  // different lengths: each is its own loop.
  if (at.kind == LaneKind::Gather ||
      (at.kind == LaneKind::Unit && at.dim == dim)) {
    Lanes lanes = toGather(at);
    SmallVector<Value> elements;
    for (ArrayRef<Value> index : lanes.perLane) {
      Lanes one;
      one.base.assign(index.begin(), index.end());
      FailureOr<Value> element = evalScan(op, one, rowStep);
      if (failed(element))
        return failure();
      elements.push_back(extractLane(*element, 0));
    }
    Type elementType = getElementTypeOrSelf(op.getType());
    if (!isa<VectorType>(vectorOf(elementType, at.width)))
      return elements.front();
    return vector::FromElementsOp::create(
               b, loc, cast<VectorType>(vectorOf(elementType, at.width)),
               elements)
        .getResult();
  }
  // One loop over the prefix, in order from the identity, as the
  // interpreter combines it: O(extent) per element. A segment whose outputs
  // walk the scan's rows (ScanRowKernel) computes each prefix once instead.
  Type elementType = getElementTypeOrSelf(op.getType());
  Type accumulatorType = vectorOf(getComputeType(elementType), at.width);
  Value identity = emitReductionIdentity(b, loc, op.getKind(), accumulatorType);
  auto loop =
      scf::ForOp::create(b, loc, constant(0), add(at.base[dim], constant(1)),
                         constant(1), ValueRange{identity});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    pushScope();
    Value position = loop.getInductionVar();
    Lanes source = transform(
        at,
        [&](ArrayRef<Value> index) {
          SmallVector<Value> read(index);
          read[dim] = position;
          return read;
        },
        at.kind == LaneKind::Unit ? std::optional(at.dim) : std::nullopt);
    FailureOr<Value> element = eval(op.getSource(), source, rowStep);
    if (failed(element)) {
      popScope();
      return failure();
    }
    Value combined = emitReductionCombine(
        b, loc, op.getKind(), loop.getRegionIterArgs().front(),
        emitCast(b, loc, *element, getComputeType(elementType)));
    scf::YieldOp::create(b, loc, combined);
    popScope();
  }
  return emitCast(b, loc, loop.getResult(0), elementType);
}

FailureOr<Value> mlir::fuser::emitScalarOp(OpBuilder &builder, Operation *op,
                                           ValueRange operands) {
  if (isa<ElementwiseOpInterface>(op))
    return emitElementwise(builder, op->getLoc(), op, operands);
  if (isa<FuserDialect>(op->getDialect()))
    return op->emitError("the kernel lowering does not support '")
           << op->getName() << "' on scalars";
  IRMapping mapping;
  mapping.map(op->getOperands(), operands);
  return builder.clone(*op, mapping)->getResult(0);
}
