//===- FuserCanonicalize.cpp - dialect-level rewrite patterns -------------===//
//
// The pre-segmentation rewrites that are not folders. They are written once
// over MetaOpInterface / ElementwiseOpInterface and the reshape-like ops, not
// once per op pair. Directions are fixed so the result does not depend on
// pattern order:
//   - elementwise unary ops (casts included) rise above meta ops, so casts
//     separated by data movement meet and fold; slices rise above them
//     instead, so no unary op works on elements a slice drops;
//   - unit-dim squeezes and broadcasts sink below permutes, so they meet
//     their partners and the views they are absorbed into;
//   - adjacent reshape-like ops (view, squeeze, broadcast) compose into the
//     one canonical reshape, as do permute pairs and expand pairs;
//   - `set` is never an observable copy and disappears, returned or not;
//     its cache hint moves to the tensor it reads
//     (SetOp::replaceWithSource);
//   - a reduction over extent-1 dims is a squeeze of them (its identity
//     gives the one element back bit for bit), and extent-1 dims drop out
//     of a reduction over other dims too.
// Nothing is moved across a reduction or a segment_set, and no op that does
// arithmetic is ever duplicated.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/Reshape.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::fuser;

namespace {

RankedTensorType withElementType(Type shapeSource, Type elementType) {
  return cast<RankedTensorType>(shapeSource).clone(elementType);
}

/// Whether `op` is an elementwise op of one tensor operand (a cast or a unary
/// math op).
bool isElementwiseUnary(Operation *op) {
  return isa_and_nonnull<ElementwiseOpInterface>(op) &&
         op->getNumOperands() == 1 && op->getNumResults() == 1 &&
         isa<RankedTensorType>(op->getOperand(0).getType());
}

/// Clones the one-operand `op` onto `operand`; its result gets the shape of
/// `shapeSource` and the element type of `op`'s result.
Value cloneOnto(PatternRewriter &rewriter, Operation *op, Value operand,
                Type shapeSource, Type elementType) {
  Operation *clone = rewriter.clone(*op);
  clone->setOperand(0, operand);
  clone->getResult(0).setType(withElementType(shapeSource, elementType));
  return clone->getResult(0);
}

/// unary(meta(x)) -> meta(unary(x)), e.g.
///   cast(squeeze(x)) -> squeeze(cast(x)).
/// A meta op that other users still read stays for them: it does no
/// arithmetic, so the copy adds no work. Slices are left to
/// HoistSliceAboveUnary: hoisting a unary op above one would compute it on
/// elements the slice drops.
struct HoistUnaryAboveMeta
    : public OpInterfaceRewritePattern<ElementwiseOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(ElementwiseOpInterface unary,
                                PatternRewriter &rewriter) const override {
    if (!isElementwiseUnary(unary))
      return failure();
    auto meta = unary->getOperand(0).getDefiningOp<MetaOpInterface>();
    if (!meta || isa<SegmentSetOp, SliceOp>(meta))
      return failure();
    // A set with a cache hint is erased where it is, never moved below a
    // unary op: its hint then lands on the tensor it reads whichever
    // pattern the driver tries first (SetOp::replaceWithSource).
    if (auto set = dyn_cast<SetOp>(meta.getOperation()))
      if (set.getCacheOp().value_or(CacheOp::Unspecified) !=
          CacheOp::Unspecified)
        return failure();

    Type elementType = getElementTypeOrSelf(unary->getResult(0));
    Value source = meta.getSource();
    Value hoisted =
        cloneOnto(rewriter, unary, source, source.getType(), elementType);
    Value moved = cloneOnto(rewriter, meta, hoisted,
                            meta->getResult(0).getType(), elementType);
    rewriter.replaceOp(unary, moved);
    // Erase the old meta op now, so that the driver sees the hoisted op's
    // new producer with a single use and keeps climbing in this iteration.
    if (meta->use_empty())
      rewriter.eraseOp(meta);
    return success();
  }
};

/// slice(unary(x)) -> unary(slice(x)): the unary op then only computes the
/// elements the slice keeps. A unary op with other users stays put: moving
/// it would compute it twice.
struct HoistSliceAboveUnary : public OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SliceOp slice,
                                PatternRewriter &rewriter) const override {
    Operation *unary = slice.getSource().getDefiningOp();
    if (!isElementwiseUnary(unary) || !unary->hasOneUse())
      return failure();
    Value source = unary->getOperand(0);
    Value sliced = cloneOnto(rewriter, slice, source, slice.getType(),
                             getElementTypeOrSelf(source));
    Value moved = cloneOnto(rewriter, unary, sliced, slice.getType(),
                            getElementTypeOrSelf(unary->getResult(0)));
    rewriter.replaceOp(slice, moved);
    rewriter.eraseOp(unary);
    return success();
  }
};

/// reshape(reshape(x)) -> the canonical reshape of x, and a view that only
/// adds or drops size-1 dims -> squeeze / broadcast. For instance
///   squeeze [3] (broadcast [2, 3] (x)) -> broadcast [2] (x)
///   broadcast [0] (squeeze [0] (x))    -> x
///   view (squeeze (view (x)))          -> view (x)
template <typename ReshapeOp>
struct ComposeReshapes : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern<ReshapeOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ReshapeOp reshape,
                                PatternRewriter &rewriter) const override {
    Operation *op = reshape;
    Value source = op->getOperand(0);
    Operation *producer = source.getDefiningOp();
    bool composes = producer && isReshapeLike(producer);
    if (composes)
      source = producer->getOperand(0);

    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (!composes && !canBeMoreSpecific(op, type))
      return failure();
    rewriter.replaceOp(op, createReshape(rewriter, op->getLoc(), source, type));
    return success();
  }

private:
  /// Whether createReshape would pick a different op for this lone reshape.
  static bool canBeMoreSpecific(Operation *op, RankedTensorType type) {
    auto sourceType = cast<RankedTensorType>(op->getOperand(0).getType());
    auto squeezed = getSqueezedDims(sourceType.getShape(), type.getShape());
    if (auto squeeze = dyn_cast<SqueezeOp>(op))
      return !squeezed || ArrayRef<int64_t>(*squeezed) != squeeze.getDims();
    auto inserted = getSqueezedDims(type.getShape(), sourceType.getShape());
    if (auto broadcast = dyn_cast<BroadcastOp>(op))
      return !inserted || ArrayRef<int64_t>(*inserted) != broadcast.getDims();
    return squeezed || inserted; // a view
  }
};

/// permute(squeeze(x)) -> squeeze(permute(x)): the unit dims keep their
/// positions and the kept dims are permuted around them.
struct SinkSqueezeBelowPermute : public OpRewritePattern<PermuteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PermuteOp permute,
                                PatternRewriter &rewriter) const override {
    auto squeeze = permute.getSource().getDefiningOp<SqueezeOp>();
    if (!squeeze || !squeeze->hasOneUse())
      return failure();
    ArrayRef<int64_t> squeezed = squeeze.getDims();
    int64_t rank = squeeze.getSource().getType().getRank();
    SmallVector<int64_t> kept;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(squeezed, d))
        kept.push_back(d);

    SmallVector<int64_t> order;
    auto nextKept = permute.getPermutation().begin();
    for (int64_t d = 0; d < rank; ++d)
      order.push_back(llvm::is_contained(squeezed, d) ? d : kept[*nextKept++]);
    Value permuted = PermuteOp::create(rewriter, permute.getLoc(),
                                       squeeze.getSource(), order);
    rewriter.replaceOpWithNewOp<SqueezeOp>(permute, permuted, squeezed);
    return success();
  }
};

/// permute(broadcast(x)) -> broadcast(permute(x)): the inserted dims go where
/// the permute puts them, the source dims keep their permuted order.
struct SinkBroadcastBelowPermute : public OpRewritePattern<PermuteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PermuteOp permute,
                                PatternRewriter &rewriter) const override {
    auto broadcast = permute.getSource().getDefiningOp<BroadcastOp>();
    if (!broadcast || !broadcast->hasOneUse())
      return failure();
    ArrayRef<int64_t> inserted = broadcast.getDims();
    // Source dim index of each non-inserted broadcast result position.
    SmallVector<int64_t> sourceDim;
    int64_t next = 0;
    for (int64_t d = 0, e = broadcast.getType().getRank(); d < e; ++d)
      sourceDim.push_back(llvm::is_contained(inserted, d) ? -1 : next++);

    SmallVector<int64_t> order, newInserted;
    for (auto [i, p] : llvm::enumerate(permute.getPermutation())) {
      if (sourceDim[p] < 0)
        newInserted.push_back(i);
      else
        order.push_back(sourceDim[p]);
    }
    Value permuted = PermuteOp::create(rewriter, permute.getLoc(),
                                       broadcast.getSource(), order);
    rewriter.replaceOpWithNewOp<BroadcastOp>(permute, permuted, newInserted);
    return success();
  }
};

/// A permute that only moves size-1 dims keeps the row-major order: it is a
/// reshape, e.g. permute [1, 0] of tensor<1x16xf32> -> view to
/// tensor<16x1xf32>.
struct PermuteOfUnitDimsToReshape : public OpRewritePattern<PermuteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PermuteOp permute,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> shape = permute.getSource().getType().getShape();
    int64_t previous = -1;
    for (int64_t p : permute.getPermutation()) {
      if (shape[p] == 1)
        continue;
      if (p < previous)
        return failure();
      previous = p;
    }
    rewriter.replaceOp(permute,
                       createReshape(rewriter, permute.getLoc(),
                                     permute.getSource(), permute.getType()));
    return success();
  }
};

/// permute(permute(x, p), q) -> permute(x, [p[q[i]]]).
struct ComposePermutes : public OpRewritePattern<PermuteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PermuteOp permute,
                                PatternRewriter &rewriter) const override {
    auto inner = permute.getSource().getDefiningOp<PermuteOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> composed;
    for (int64_t q : permute.getPermutation())
      composed.push_back(inner.getPermutation()[q]);
    rewriter.replaceOpWithNewOp<PermuteOp>(permute, inner.getSource(),
                                           composed);
    return success();
  }
};

/// expand(expand(x)) -> expand(x).
struct ComposeExpands : public OpRewritePattern<ExpandOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ExpandOp expand,
                                PatternRewriter &rewriter) const override {
    auto inner = expand.getSource().getDefiningOp<ExpandOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<ExpandOp>(expand, expand.getType(),
                                          inner.getSource());
    return success();
  }
};

/// op(x, expand(y)) -> op(x, y) for an elementwise op of several operands
/// when the other operands still give every expanded dim its extent: the
/// op's own size-1 broadcasting is the expand, and it keeps the expanded
/// value out of the op's inputs (Thunder's broadcast_in_dim of a row
/// statistic is then a row broadcast, as a normalization kernel reads it).
/// The result type does not change.
struct FoldExpandIntoBroadcast
    : public OpInterfaceRewritePattern<ElementwiseOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(ElementwiseOpInterface op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumOperands() < 2 || op->getNumResults() != 1)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType)
      return failure();
    SmallVector<Value> operands(op->getOperands());
    bool changed = false;
    for (auto [i, operand] : llvm::enumerate(operands)) {
      auto expand = operand.getDefiningOp<ExpandOp>();
      if (!expand)
        continue;
      SmallVector<Value> candidate(operands);
      candidate[i] = expand.getSource();
      if (!keepsShape(candidate, resultType.getShape()))
        continue;
      operands = candidate;
      changed = true;
    }
    if (!changed)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op->setOperands(operands); });
    return success();
  }

  /// Some tensor operand has the extent of every dim of `shape` (the others
  /// have it or 1).
  static bool keepsShape(ArrayRef<Value> operands, ArrayRef<int64_t> shape) {
    for (size_t dim = 0; dim < shape.size(); ++dim) {
      int64_t extent = shape[dim];
      if (extent == 1)
        continue;
      bool given = llvm::any_of(operands, [&](Value operand) {
        auto type = dyn_cast<RankedTensorType>(operand.getType());
        return type && type.getDimSize(dim) == extent;
      });
      if (!given)
        return false;
    }
    return true;
  }
};

/// set(x) -> x, every set: tensors are values, so a set is never a copy a
/// user can observe, and which results alias inputs is segmentation's
/// business (the segment kinds say it; docs/Segmentation.md). That holds for
/// a returned set of an input too (segmentation would make it an alias
/// segment anyway, copying nothing), and for a set a segment yields (the
/// segment's kind decides whether its results are written). The erasure
/// goes through SetOp::replaceWithSource, which keeps a hint.
struct EraseSet : public OpRewritePattern<SetOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SetOp set,
                                PatternRewriter &rewriter) const override {
    set.replaceWithSource(rewriter);
    return success();
  }
};

/// A reduction over extent-1 dims only combines one element with the
/// identity of its kind, which gives that element back bit for bit (add
/// starts from -0.0, mul from 1, max from -inf, min from +inf, integers
/// likewise; NaN and -0.0 come through; f16/bf16 widen to f32 and round back
/// exactly):
///   reduction(x, [extent-1 dims])            -> squeeze(x, dims)
///   reduction(x, [extent-1 dims]) keepdim    -> x
struct TrivialReduction : public OpRewritePattern<ReductionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReductionOp reduction,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> shape = reduction.getSource().getType().getShape();
    if (reduction.getDims().empty() ||
        llvm::any_of(reduction.getDims(),
                     [&](int64_t d) { return shape[d] != 1; }))
      return failure();
    if (reduction.getKeepdim())
      rewriter.replaceOp(reduction, reduction.getSource());
    else
      rewriter.replaceOpWithNewOp<SqueezeOp>(reduction, reduction.getSource(),
                                             reduction.getDims());
    return success();
  }
};

/// A reduction over some extent-1 dims and others drops the extent-1 ones
/// (they add no element and do not change the combining order):
///   reduction(x, dims)         -> reduction(squeeze(x, unit dims), rest)
///   reduction(x, dims) keepdim -> reduction(x, rest) keepdim
/// The squeeze goes before the reduction, where it composes with the
/// reshapes that feed the reduction.
struct ReductionOfSomeUnitDims : public OpRewritePattern<ReductionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReductionOp reduction,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> shape = reduction.getSource().getType().getShape();
    SmallVector<int64_t> unit, rest;
    for (int64_t d : reduction.getDims())
      (shape[d] == 1 ? unit : rest).push_back(d);
    if (unit.empty() || rest.empty())
      return failure();
    if (reduction.getKeepdim()) {
      rewriter.replaceOpWithNewOp<ReductionOp>(
          reduction, reduction.getKind(), reduction.getSource(), rest,
          /*keepdim=*/true);
      return success();
    }
    Value squeezed = SqueezeOp::create(rewriter, reduction.getLoc(),
                                       reduction.getSource(), unit);
    // Renumber the remaining reduced dims past the squeezed ones.
    for (int64_t &d : rest)
      d -= llvm::count_if(unit, [&](int64_t u) { return u < d; });
    rewriter.replaceOpWithNewOp<ReductionOp>(reduction, reduction.getKind(),
                                             squeezed, rest,
                                             /*keepdim=*/false);
    return success();
  }
};

/// nvFuser's preseg rule for a matmul without a reduction: with K = 1 each
/// result element is one product, lhs[b, m, 0] * rhs[b, 0, n], which the
/// matmul gives exactly (it adds from -0.0; half types round the f32
/// product once, as fuser.mul on them does). So
///   matmul(lhs [B.., M, 1], rhs [B.., 1, N])
///     -> mul(broadcast(lhs), broadcast(rhs)) : [B.., M, N]
/// with each operand given the result's batch rank by leading size-1 dims
/// (the mul broadcasts them), a 1-D operand ([1]) read as [1, 1] and the
/// dim it adds squeezed from the product.
struct MatmulWithoutReductionToMul : public OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp matmul,
                                PatternRewriter &rewriter) const override {
    RankedTensorType lhs = matmul.getLhs().getType();
    RankedTensorType rhs = matmul.getRhs().getType();
    if (lhs.getShape().back() != 1)
      return failure();
    bool lhsVector = lhs.getRank() == 1, rhsVector = rhs.getRank() == 1;
    ArrayRef<int64_t> resultShape = matmul.getType().getShape();
    int64_t batchRank =
        resultShape.size() - (lhsVector ? 0 : 1) - (rhsVector ? 0 : 1);
    int64_t rank = batchRank + 2;
    Location loc = matmul.getLoc();
    auto toRank = [&](Value operand, int64_t operandRank) -> Value {
      // A 1-D operand is [K] = [1]: all but its one dim are new.
      int64_t kept = operandRank == 1 ? 1 : operandRank;
      if (kept == rank)
        return operand;
      return BroadcastOp::create(
          rewriter, loc, operand,
          llvm::to_vector(llvm::seq<int64_t>(0, rank - kept)));
    };
    Value a = toRank(matmul.getLhs(), lhs.getRank());
    Value b = toRank(matmul.getRhs(), rhs.getRank());
    SmallVector<int64_t> productShape(resultShape.take_front(batchRank));
    productShape.push_back(lhsVector ? 1 : lhs.getShape().drop_back().back());
    productShape.push_back(rhsVector ? 1 : rhs.getShape().back());
    Value product =
        MulOp::create(rewriter, loc, matmul.getType().clone(productShape), a, b);
    SmallVector<int64_t> squeezed;
    if (lhsVector)
      squeezed.push_back(rank - 2);
    if (rhsVector)
      squeezed.push_back(rank - 1);
    if (!squeezed.empty())
      product = SqueezeOp::create(rewriter, loc, product, squeezed);
    rewriter.replaceOp(matmul, product);
    return success();
  }
};

/// nvFuser's TranslateScatterAccumulate: the integer sum of a one-hot
/// tensor, zeros with one element per row written by a scatter, is a
/// scatter-add into zeros of the summed shape:
///   sum(scatter(full(0) [M, N], index [M', 1], src [M', 1], dim 1), [0])
///     -> scatter(full(0) [N], squeeze(index) [M'], squeeze(src), dim 0,
///                reduce add) : [N]
/// (either dim, keepdim broadcast back). Each summed row holds its one
/// written element and zeros, so both add the same terms; integers only,
/// where the order of the additions does not change the result (a float
/// sum would reassociate). MoE routing counts tokens per expert this way.
struct SumOfOneHotToScatterAdd : public OpRewritePattern<ReductionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReductionOp sum,
                                PatternRewriter &rewriter) const override {
    auto scatter = sum.getSource().getDefiningOp<ScatterOp>();
    if (sum.getKind() != ReductionKind::Add || !scatter ||
        !scatter->hasOneUse() || sum.getDims().size() != 1 ||
        !isa<IntegerType>(sum.getType().getElementType()) ||
        scatter.getType().getElementType().isInteger(1) ||
        sum.getType().getElementType() != scatter.getType().getElementType())
      return failure();
    std::optional<ReductionKind> combine = scatter.getReduce();
    if (combine && *combine != ReductionKind::Add)
      return failure();
    auto zeros = scatter.getSelf().getDefiningOp<FullOp>();
    if (!zeros || !matchPattern(zeros.getValue(), m_Zero()))
      return failure();
    RankedTensorType self = scatter.getType();
    int64_t dim = scatter.getDim(), summed = sum.getDims().front();
    ArrayRef<int64_t> indexShape = scatter.getIndex().getType().getShape();
    if (self.getRank() != 2 || summed == dim || indexShape[dim] != 1 ||
        scatter.getSrc().getType().getShape() != indexShape)
      return failure();
    Location loc = sum.getLoc();
    Value index = SqueezeOp::create(rewriter, loc, scatter.getIndex(), {dim});
    Value src = SqueezeOp::create(rewriter, loc, scatter.getSrc(), {dim});
    Value rowZeros = FullOp::create(
        rewriter, loc,
        RankedTensorType::get({self.getDimSize(dim)}, self.getElementType()),
        zeros.getValue());
    Value counts = ScatterOp::create(
        rewriter, loc, rowZeros, index, src, rewriter.getI64IntegerAttr(0),
        ReductionKindAttr::get(rewriter.getContext(), ReductionKind::Add));
    if (sum.getKeepdim())
      counts = BroadcastOp::create(rewriter, loc, counts, {summed});
    rewriter.replaceOp(sum, counts);
    return success();
  }
};

/// The tensor in memory that a load of `value` reads: `value` seen through
/// meta ops, up to a fusion argument, a segment_set (whose result its
/// producer writes to memory) or a computed tensor. An argument of a
/// segment body stands for the segment's operand.
Value getTensorInMemory(Value value) {
  while (true) {
    if (auto meta = value.getDefiningOp<MetaOpInterface>()) {
      if (isa<SegmentSetOp>(meta))
        return value;
      value = meta.getSource();
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(value);
    auto segment =
        arg ? dyn_cast<SegmentOp>(arg.getOwner()->getParentOp()) : SegmentOp();
    if (!segment)
      return value;
    value = segment.getInputs()[arg.getArgNumber()];
  }
}

/// The hint of a tensor that already has `existing` (or none) and is read
/// with `hint`: equal hints stay, different ones meet as `unspecified`
/// (the lowering chooses), which then absorbs every later hint. So the
/// result does not depend on the order in which sets are erased.
CacheOpAttr meetCacheHints(CacheOpAttr existing, CacheOpAttr hint) {
  if (!existing || existing == hint)
    return hint;
  return CacheOpAttr::get(hint.getContext(), CacheOp::Unspecified);
}

} // namespace

void SetOp::replaceWithSource(RewriterBase &rewriter) {
  CacheOpAttr hint = getCacheOpAttr();
  StringRef name = getCacheHintAttrName();
  Value memory = hint && hint.getValue() != CacheOp::Unspecified
                     ? getTensorInMemory(getSource())
                     : Value();
  if (auto arg = dyn_cast_or_null<BlockArgument>(memory)) {
    // A fusion input: the hint of every load of it.
    auto function =
        dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (function && arg.getOwner()->isEntryBlock()) {
      unsigned index = arg.getArgNumber();
      auto existing = function.getArgAttrOfType<CacheOpAttr>(index, name);
      rewriter.modifyOpInPlace(function, [&] {
        function.setArgAttr(index, name, meetCacheHints(existing, hint));
      });
    }
  } else if (auto segmentSet = dyn_cast_or_null<SegmentSetOp>(
                 memory ? memory.getDefiningOp() : nullptr)) {
    // A tensor a segment_set writes: the hint of the loads that read it.
    auto existing = segmentSet->getAttrOfType<CacheOpAttr>(name);
    rewriter.modifyOpInPlace(segmentSet, [&] {
      segmentSet->setAttr(name, meetCacheHints(existing, hint));
    });
  }
  // A computed tensor is not in memory before segmentation: no load, no
  // hint (nvFuser applies cache ops to global-to-local loads only).
  rewriter.replaceOp(*this, getSource());
}

void mlir::fuser::populateReshapeCompositionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ComposeReshapes<ViewOp>, ComposeReshapes<SqueezeOp>,
               ComposeReshapes<BroadcastOp>>(patterns.getContext());
}

void FuserDialect::getCanonicalizationPatterns(
    RewritePatternSet &patterns) const {
  patterns.add<HoistUnaryAboveMeta, HoistSliceAboveUnary,
               ComposeReshapes<ViewOp>, ComposeReshapes<SqueezeOp>,
               ComposeReshapes<BroadcastOp>, PermuteOfUnitDimsToReshape,
               SinkSqueezeBelowPermute, SinkBroadcastBelowPermute,
               ComposePermutes, ComposeExpands, FoldExpandIntoBroadcast,
               EraseSet, TrivialReduction, ReductionOfSomeUnitDims,
               MatmulWithoutReductionToMul, SumOfOneHotToScatterAdd>(
      getContext());
}
