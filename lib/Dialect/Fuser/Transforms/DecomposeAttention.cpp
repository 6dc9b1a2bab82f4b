//===- DecomposeAttention.cpp - attention as gemms around a softmax -------===//
//
// fuser-decompose-attention: fuser.sdpfa_fwd and fuser.sdpfa_bwd as the
// fuser ops that compute them (matmul, casts, a masked softmax over the
// keys, reductions), so that a target without an attention library (the
// GPU path: cuBLASLt has gemms only) runs them as batched gemm library
// segments around normalization kernels. Every step computes in f32, as
// the interpreter does (docs/Interpreter.md); the gemms sum in their own
// order, so results agree within nvFuser's matmul tolerance.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/IR/Attention.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::fuser {
#define GEN_PASS_DEF_FUSERDECOMPOSEATTENTION
#include "fuser/Dialect/Fuser/Transforms/Passes.h.inc"
} // namespace mlir::fuser

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// Builds the f32 ops of one attention op at its location.
struct AttentionBuilder {
  AttentionBuilder(PatternRewriter &rewriter, Operation *op)
      : b(rewriter), loc(op->getLoc()), attention(getAttention(op)),
        f32(rewriter.getF32Type()) {}

  Value f32Constant(double value) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  }
  Value toF32(Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getElementType() == f32)
      return value;
    return CastOp::create(b, loc, type.clone(f32), value);
  }
  Value toType(Value value, Type type) {
    if (value.getType() == type)
      return value;
    return CastOp::create(b, loc, type, value);
  }
  /// `value` with its last two dims swapped.
  Value transpose(Value value) {
    int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
    SmallVector<int64_t> permutation =
        llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(permutation[rank - 2], permutation[rank - 1]);
    return PermuteOp::create(b, loc, value, permutation);
  }
  /// The reduction of `value` over its last dim, keeping it (extent 1).
  Value reduceLast(ReductionKind kind, Value value) {
    int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
    return ReductionOp::create(b, loc, kind, value,
                               ArrayRef<int64_t>{rank - 1},
                               /*keepdim=*/true);
  }
  /// `[..., L]` as `[..., L, 1]`.
  Value unsqueezeLast(Value value) {
    int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
    return BroadcastOp::create(b, loc, value, ArrayRef<int64_t>{rank});
  }

  /// `value` expanded to `shape` (its dims of 1 broadcast).
  Value expandTo(Value value, ArrayRef<int64_t> shape) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getShape() == shape)
      return value;
    return ExpandOp::create(b, loc, type.clone(shape), value);
  }

  /// The scores `scale * q k^T + bias` (f32, `[..., L, S]`), -inf where the
  /// mask or the causal mask (s > l) hides a key; `bias` and `mask` may be
  /// null.
  Value scores(Value query, Value key, Value bias = {}, Value mask = {}) {
    Value s = MatmulOp::create(b, loc, toF32(query), transpose(toF32(key)));
    s = MulOp::create(b, loc, s, f32Constant(attention.scale));
    auto scoresType = cast<RankedTensorType>(s.getType());
    if (bias)
      s = AddOp::create(b, loc, s,
                        expandTo(toF32(bias), scoresType.getShape()));
    if (mask)
      s = WhereOp::create(b, loc, expandTo(mask, scoresType.getShape()), s,
                          f32Constant(-INFINITY));
    if (!attention.causal)
      return s;
    int64_t rank = scoresType.getRank();
    Type i64 = b.getI64Type();
    Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
    Value one = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1));
    auto iota = [&](int64_t extent) -> Value {
      return IotaOp::create(b, loc, RankedTensorType::get({extent}, i64), zero,
                            one);
    };
    // rows [L, 1], keys [1, S]; the mask [1 x ... x 1, L, S].
    Value rows =
        BroadcastOp::create(b, loc, iota(attention.l), ArrayRef<int64_t>{1});
    Value keys =
        BroadcastOp::create(b, loc, iota(attention.s), ArrayRef<int64_t>{0});
    Value hidden = GtOp::create(b, loc, keys, rows);
    SmallVector<int64_t> leading =
        llvm::to_vector(llvm::seq<int64_t>(0, rank - 2));
    if (!leading.empty())
      hidden = BroadcastOp::create(b, loc, hidden, leading);
    return WhereOp::create(b, loc, hidden, f32Constant(-INFINITY), s);
  }

  /// The dropout's factors of scores of `type` (f32): keepScale where
  /// fuser.uniform's draw from `seed` and `offset` is at least dropout_p,
  /// else 0.
  Value keepFactors(RankedTensorType type, Value seed, Value offset) {
    Value draw = UniformOp::create(b, loc, type, f32Constant(0.0),
                                   f32Constant(1.0), seed, offset);
    Value keep =
        GeOp::create(b, loc, draw, f32Constant(attention.dropoutThreshold));
    return WhereOp::create(b, loc, keep, f32Constant(attention.keepScale),
                           f32Constant(0.0));
  }

  PatternRewriter &b;
  Location loc;
  Attention attention;
  Type f32;
};

/// Whether `forward`'s Philox state feeds a backward with dropout, which
/// reads the seed and offset from `forward` itself (decomposed first).
bool feedsDropoutBackward(SdpfaFwdOp forward) {
  return llvm::any_of(forward.getPhiloxSeed().getUsers(), [](Operation *user) {
    auto backward = dyn_cast<SdpfaBwdOp>(user);
    return backward && !backward.getDropoutP().isZero();
  });
}

/// sdpfa_fwd: s = scores(q, k, bias, mask); m = max_s s; e = exp(s - m);
/// l = sum_s e; output = (e' v) / l, e' = e times the dropout's factor
/// (keepScale where fuser.uniform's draw from the seed and offset is at
/// least dropout_p, else 0; e without dropout); logsumexp = m + log l. A
/// row whose every score is -inf (no key) has logsumexp -inf and output 0,
/// as the interpreter gives. The Philox seed is [seed, offset] (zeros
/// without dropout), the offset 0. Not while a backward with dropout reads
/// its seed (that backward goes first).
struct DecomposeAttentionForward : public OpRewritePattern<SdpfaFwdOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SdpfaFwdOp op,
                                PatternRewriter &rewriter) const override {
    if (feedsDropoutBackward(op))
      return rewriter.notifyMatchFailure(
          op, "a backward with dropout reads its seed and offset first");
    AttentionBuilder a(rewriter, op);
    Location loc = op.getLoc();
    Value s = a.scores(op.getQuery(), op.getKey(), op.getBias(), op.getMask());
    Value max = a.reduceLast(ReductionKind::Max, s);
    Value e = ExpOp::create(rewriter, loc, SubOp::create(rewriter, loc, s, max));
    Value sum = a.reduceLast(ReductionKind::Add, e);
    Value kept = e;
    if (a.attention.hasDropout())
      kept = MulOp::create(
          rewriter, loc, e,
          a.keepFactors(cast<RankedTensorType>(s.getType()), op.getSeed(),
                        op.getOffset()));
    Value weighted =
        MatmulOp::create(rewriter, loc, kept, a.toF32(op.getValue()));
    Value empty = EqOp::create(rewriter, loc, max, a.f32Constant(-INFINITY));
    Value output = WhereOp::create(
        rewriter, loc, empty, a.f32Constant(0.0),
        DivOp::create(rewriter, loc, weighted, sum));
    Value logsumexp = WhereOp::create(
        rewriter, loc, empty, a.f32Constant(-INFINITY),
        AddOp::create(rewriter, loc, max, LogOp::create(rewriter, loc, sum)));
    // [..., L, 1] -> [..., L].
    auto lseType = cast<RankedTensorType>(op.getLogsumexp().getType());
    logsumexp = SqueezeOp::create(rewriter, loc, logsumexp,
                                  ArrayRef<int64_t>{lseType.getRank()});
    auto seedType = cast<RankedTensorType>(op.getPhiloxSeed().getType());
    auto offsetType = cast<RankedTensorType>(op.getPhiloxOffset().getType());
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getI64IntegerAttr(0));
    Value seed = FullOp::create(rewriter, loc, seedType, zero);
    if (a.attention.hasDropout()) {
      // [seed, offset]: the offset where the iota is 1.
      Value one =
          arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(1));
      Value second = EqOp::create(
          rewriter, loc, IotaOp::create(rewriter, loc, seedType, zero, one), one);
      Value seeds = FullOp::create(rewriter, loc, seedType, op.getSeed());
      Value offsets = FullOp::create(rewriter, loc, seedType, op.getOffset());
      seed = WhereOp::create(rewriter, loc, second, offsets, seeds);
    }
    rewriter.replaceOp(op, {a.toType(output, op.getOutput().getType()),
                            a.toType(logsumexp, lseType), seed,
                            FullOp::create(rewriter, loc, offsetType, zero)});
    return success();
  }
};

/// sdpfa_bwd: p = exp(scores(q, k) - logsumexp) (0 where masked);
/// grad_value = p^T dO; dp = dO v^T; d = sum_v dO * O;
/// ds = p * (dp - d); grad_query = scale ds k; grad_key = scale ds^T q.
/// With dropout, f = the forward's factors (keepFactors from the seed and
/// offset of the fuser.sdpfa_fwd that made philox_seed), z = p f:
/// grad_value = z^T dO, ds = p * (dp f - d). Not where philox_seed comes
/// from elsewhere (an input): its seed and offset are in a tensor, and
/// fuser.uniform takes scalars.
struct DecomposeAttentionBackward : public OpRewritePattern<SdpfaBwdOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SdpfaBwdOp op,
                                PatternRewriter &rewriter) const override {
    auto forward = op.getPhiloxSeed().getDefiningOp<SdpfaFwdOp>();
    bool dropout = !op.getDropoutP().isZero();
    if (dropout && (!forward || !forward.getSeed()))
      return rewriter.notifyMatchFailure(
          op, "dropout_p > 0 with a seed in a tensor no forward here made");
    AttentionBuilder a(rewriter, op);
    Location loc = op.getLoc();
    Value query = a.toF32(op.getQuery()), key = a.toF32(op.getKey());
    Value gradOutput = a.toF32(op.getGradOutput());
    Value s = a.scores(query, key);
    Value logsumexp = a.unsqueezeLast(a.toF32(op.getLogsumexp()));
    Value p =
        ExpOp::create(rewriter, loc, SubOp::create(rewriter, loc, s, logsumexp));
    Value factors =
        dropout ? a.keepFactors(cast<RankedTensorType>(s.getType()),
                                forward.getSeed(), forward.getOffset())
                : Value();
    Value z = dropout ? MulOp::create(rewriter, loc, p, factors) : p;
    Value gradValue =
        MatmulOp::create(rewriter, loc, a.transpose(z), gradOutput);
    Value dp = MatmulOp::create(rewriter, loc, gradOutput,
                                a.transpose(a.toF32(op.getValue())));
    if (dropout)
      dp = MulOp::create(rewriter, loc, dp, factors);
    Value d = a.reduceLast(
        ReductionKind::Add,
        MulOp::create(rewriter, loc, gradOutput, a.toF32(op.getOutput())));
    Value ds = MulOp::create(rewriter, loc, p,
                             SubOp::create(rewriter, loc, dp, d));
    Value scale = a.f32Constant(a.attention.scale);
    Value gradQuery = MulOp::create(
        rewriter, loc, MatmulOp::create(rewriter, loc, ds, key), scale);
    Value gradKey = MulOp::create(
        rewriter, loc, MatmulOp::create(rewriter, loc, a.transpose(ds), query),
        scale);
    rewriter.replaceOp(op, {a.toType(gradQuery, op.getGradQuery().getType()),
                            a.toType(gradKey, op.getGradKey().getType()),
                            a.toType(gradValue, op.getGradValue().getType())});
    return success();
  }
};

struct FuserDecomposeAttentionPass
    : public fuser::impl::FuserDecomposeAttentionBase<
          FuserDecomposeAttentionPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateDecomposeAttentionPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::fuser::populateDecomposeAttentionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeAttentionForward, DecomposeAttentionBackward>(
      patterns.getContext());
}
