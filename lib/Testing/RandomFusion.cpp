//===- RandomFusion.cpp - random fusion generator -------------------------===//
//
// Grows a fusion one step at a time from a pool of live values. Each step is
// a small pattern rather than a single op (cast round trips, broadcast then
// squeeze of overlapping dims, permute then its inverse, ...), because those
// are what the pre-segmentation rewrites match. Operands are biased towards
// the newest values, which builds long chains, while older values keep being
// picked sometimes, which gives values with several uses.
//
// Every op is built through its own builder, so an invalid operand would
// abort inside type inference: the steps check shapes up front.
//
//===----------------------------------------------------------------------===//

#include "fuser/Testing/RandomFusion.h"

#include "fuser/Dialect/Fuser/IR/ElementTypes.h"
#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVectorExtras.h"

#include <optional>

using namespace mlir;
using namespace mlir::fuser;

namespace {

/// splitmix64. Own generator and own range reduction, so that a seed gives
/// the same fusion with every standard library.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}

  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) for n > 0 (the modulo bias does not matter here).
  uint64_t below(uint64_t n) { return next() % n; }
  /// Uniform in [lo, hi].
  int64_t inRange(int64_t lo, int64_t hi) { return lo + below(hi - lo + 1); }
  bool percent(unsigned p) { return below(100) < p; }

  template <typename T> T pick(ArrayRef<T> items) {
    return items[below(items.size())];
  }
  /// An index drawn with probability proportional to `weights`.
  unsigned weighted(ArrayRef<unsigned> weights) {
    unsigned total = 0;
    for (unsigned w : weights)
      total += w;
    uint64_t r = below(total);
    for (auto [i, w] : llvm::enumerate(weights)) {
      if (r < w)
        return i;
      r -= w;
    }
    llvm_unreachable("r < total");
  }
  template <typename T> void shuffle(MutableArrayRef<T> items) {
    for (size_t i = items.size(); i > 1; --i)
      std::swap(items[i - 1], items[below(i)]);
  }

private:
  uint64_t state;
};

constexpr unsigned kMaxRank = 6;
constexpr unsigned kMaxArguments = 5;
constexpr unsigned kMaxResults = 6;
constexpr int64_t kMaxArgumentElements = 1024;
/// Scans: the longest scanned extent, and the largest product of scanned
/// extents along a chain of scans (FusionGenerator::scanCost).
constexpr int64_t kMaxScanExtent = 64;
constexpr int64_t kMaxScanCost = 64;

int64_t product(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t size : shape)
    n *= size;
  return n;
}

/// The shape of an elementwise op over `shapes` (equal rank, each dim equal
/// or 1), or nullopt when they do not broadcast.
std::optional<SmallVector<int64_t>>
broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes) {
  SmallVector<int64_t> merged(shapes.front());
  for (ArrayRef<int64_t> shape : shapes.drop_front()) {
    if (shape.size() != merged.size())
      return std::nullopt;
    for (auto [m, size] : llvm::zip_equal(merged, shape)) {
      if (size == m || size == 1)
        continue;
      if (m != 1)
        return std::nullopt;
      m = size;
    }
  }
  return merged;
}

class FusionGenerator {
public:
  FusionGenerator(MLIRContext *context, const RandomFusionOptions &options)
      : context(context), options(options), rng(options.seed), builder(context),
        loc(UnknownLoc::get(context)) {
    i1 = builder.getI1Type();
    i32 = builder.getI32Type();
    i64 = builder.getI64Type();
    f16 = builder.getF16Type();
    bf16 = builder.getBF16Type();
    f32 = builder.getF32Type();
    f64 = builder.getF64Type();
    elementTypes = {i1, i32, i64, f16, bf16, f32, f64};
    if (options.family == RandomFusionOptions::Family::Types)
      elementTypes.append({ComplexType::get(f32), ComplexType::get(f64),
                           builder.getType<Float8E4M3FNType>(),
                           builder.getType<Float8E5M2Type>()});
  }

  OwningOpRef<ModuleOp> run();
  /// The Normalization family (RandomFusionOptions::Family).
  OwningOpRef<ModuleOp> runNormalization();
  /// The Library family (RandomFusionOptions::Family).
  OwningOpRef<ModuleOp> runLibrary();
  /// The Library family's attention fusions.
  OwningOpRef<ModuleOp> runAttention();
  /// The Library family's grouped matmuls.
  OwningOpRef<ModuleOp> runGroupedMm();

private:
  /// A module holding the empty @fusion, the builder in its body.
  OwningOpRef<ModuleOp> startFusion() {
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
    function = func::FuncOp::create(builder, loc, kRandomFusionName,
                                    builder.getFunctionType({}, {}));
    body = function.addEntryBlock();
    builder.setInsertionPointToEnd(body);
    return module;
  }

  /// Returns `results` from @fusion, which then has their types.
  void finishFusion(ValueRange results) {
    func::ReturnOp::create(builder, loc, results);
    function.setFunctionType(
        builder.getFunctionType(body->getArgumentTypes(), results.getTypes()));
  }

  //===--- value pool -----------------------------------------------------===//

  Value record(Value value) {
    (isa<RankedTensorType>(value.getType()) ? tensors : scalars)
        .push_back(value);
    return value;
  }

  /// Mostly the newest tensor (long chains), sometimes an older one (values
  /// with several uses).
  Value pickTensor() {
    size_t n = tensors.size();
    unsigned r = rng.below(100);
    if (r < 50)
      return tensors.back();
    if (r < 80)
      return tensors[n - 1 - rng.below(std::min<size_t>(n, 4))];
    return tensors[rng.below(n)];
  }

  static RankedTensorType tensorType(Value value) {
    return cast<RankedTensorType>(value.getType());
  }
  bool fits(ArrayRef<int64_t> shape) const {
    return product(shape) <= options.maxElements;
  }

  //===--- element types --------------------------------------------------===//

  bool isFloat(Type type) const { return isa<FloatType>(type); }
  /// The element types only the Types family makes: complex elements have
  /// no order, and the 8-bit floats take no arithmetic.
  static bool isComplex(Type type) { return isa<ComplexType>(type); }
  static bool isStorageOnly(Type type) { return isFloat8Type(type); }

  //===--- scalars --------------------------------------------------------===//

  /// An arith.constant of `type`: mostly small multiples of 1/8 for floats
  /// (including the signed zeros and the identities that folders test for),
  /// sometimes a spreading constant.
  Value scalarConstant(Type type) {
    for (Value scalar : scalars)
      if (scalar.getType() == type && rng.percent(30))
        return scalar;
    if (auto complex = dyn_cast<ComplexType>(type)) {
      Value re = scalarConstant(complex.getElementType());
      Value im = scalarConstant(complex.getElementType());
      return record(ComplexOp::create(builder, loc, re, im));
    }
    if (type != i1 && !isStorageOnly(type) && rng.percent(15))
      return spreadingConstant(type);
    TypedAttr value;
    if (type == i1)
      value = builder.getBoolAttr(rng.percent(50));
    else if (!isFloat(type))
      value = builder.getIntegerAttr(
          type, rng.pick<int64_t>({-3, -2, -1, 0, 1, 1, 2, 3, 7, 100}));
    else
      value = builder.getFloatAttr(
          type, rng.percent(50)
                    ? rng.pick<double>({0.0, -0.0, 1.0, -1.0, 0.5, 2.0})
                    : static_cast<double>(rng.inRange(-64, 64)) / 8.0);
    return record(arith::ConstantOp::create(builder, loc, value));
  }

  /// A constant that takes the inputs (multiples of 1/8 in [-8, 8], ints in
  /// [-100, 100], exact in every type) to values that round, overflow or
  /// saturate in narrower types: without them a wrong fold of a lossy cast
  /// chain would give the same bits.
  Value spreadingConstant(Type type) {
    TypedAttr value =
        isFloat(type)
            ? TypedAttr(builder.getFloatAttr(
                  type, rng.pick<double>({3.0, 0.1, 1000.0, 1.0e10, 1.0e-6})))
            : TypedAttr(builder.getIntegerAttr(
                  type, rng.pick<int64_t>({1000, 100003, 50000000})));
    return record(arith::ConstantOp::create(builder, loc, value));
  }

  /// `value` divided (floats) or multiplied (ints) by a spreading constant:
  /// x / 3 has a full mantissa, x * 50000000 wraps in i32.
  Value spread(Value value) {
    Type type = tensorType(value).getElementType();
    if (type == i1 || isComplex(type) || isStorageOnly(type))
      return value;
    Value constant = spreadingConstant(type);
    if (isFloat(type) && rng.percent(60))
      return record(DivOp::create(builder, loc, value, constant));
    return record(MulOp::create(builder, loc, value, constant));
  }

  //===--- arguments ------------------------------------------------------===//

  SmallVector<int64_t> randomArgumentShape() {
    SmallVector<int64_t> shape;
    unsigned rank = rng.inRange(1, 4);
    for (unsigned d = 0; d < rank; ++d) {
      int64_t size = rng.pick<int64_t>({1, 1, 2, 3, 4, 4, 5, 6, 8, 8, 12, 16});
      if (product(shape) * size > kMaxArgumentElements)
        size = 1;
      shape.push_back(size);
    }
    return shape;
  }

  Value addArgument(RankedTensorType type) {
    return record(body->addArgument(type, loc));
  }

  //===--- casts ----------------------------------------------------------===//

  /// A cast to `to`, also where `value` already has that type (a cast that
  /// must fold away).
  Value castTo(Value value, Type to) {
    Type resultType = to;
    if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
      resultType = tensor.clone(to);
    return record(CastOp::create(builder, loc, resultType, value));
  }

  /// `value` converted to `type` if it is not already of it.
  Value convert(Value value, Type type) {
    if (getElementTypeOrSelf(value.getType()) == type)
      return value;
    return castTo(value, type);
  }

  /// `value` times `factor`, multiplied in `compute` and stored back in
  /// `value`'s element type (a pointwise producer of a library op).
  Value scaledBy(Value value, double factor, Type compute) {
    Type storage = getElementTypeOrSelf(value.getType());
    Value constant = record(arith::ConstantOp::create(
        builder, loc, builder.getFloatAttr(compute, factor)));
    return convert(record(MulOp::create(builder, loc, convert(value, compute),
                                        constant)),
                   storage);
  }

  /// A type that holds every value of `type` exactly.
  Type widerType(Type type) {
    if (type == i1)
      return rng.pick<Type>({i32, i64, f16, bf16, f32, f64});
    if (type == f16 || type == bf16)
      return rng.pick<Type>({f32, f64});
    if (type == i32)
      return rng.pick<Type>({i64, f64});
    if (type == f32)
      return f64;
    return rng.pick<Type>({f32, bf16});
  }
  /// A type that loses some values of `type`.
  Type narrowerType(Type type) {
    if (type == f64)
      return rng.pick<Type>({f32, f16, bf16});
    if (type == f32)
      return rng.pick<Type>({bf16, f16});
    if (type == f16)
      return bf16;
    if (type == bf16)
      return f16;
    if (type == i64)
      return rng.pick<Type>({i32, f32});
    if (type == i32)
      return rng.pick<Type>({i1, f16, bf16});
    return i32;
  }

  void buildCastChain() {
    Value value = pickTensor();
    if (rng.percent(40))
      value = spread(value);
    Type start = tensorType(value).getElementType();
    SmallVector<Type> chain;
    switch (rng.weighted({4, 4, 2, 3, 3, 2})) {
    case 0: // Lossless round trip: bf16->f32->bf16, i32->i64->i32, ...
      chain = {widerType(start), start};
      break;
    case 1: // Lossy round trip: f32->bf16->f32, f64->f32->f64, ...
      chain = {narrowerType(start), start};
      break;
    case 2: // Between the two 16-bit floats.
      if (start == f16 || start == bf16)
        chain = {start == f16 ? bf16 : f16, start};
      else
        chain = {rng.pick<Type>({f16, bf16}), rng.pick<Type>({f16, bf16}),
                 start};
      break;
    case 3: // Between ints and floats.
      if (isFloat(start))
        chain = {rng.pick<Type>({i1, i32, i64}), start};
      else
        chain = {rng.pick<Type>({f16, bf16, f32, f64}), start};
      break;
    case 4: // Widening then narrowing, several steps.
      chain = {widerType(start)};
      chain.push_back(widerType(chain.back()));
      chain.push_back(narrowerType(chain.back()));
      if (rng.percent(50))
        chain.push_back(start);
      break;
    default: { // Anything.
      unsigned length = rng.inRange(1, 4);
      for (unsigned i = 0; i < length; ++i)
        chain.push_back(rng.pick<Type>(elementTypes));
    }
    }
    for (Type type : chain) {
      // Some casts go through meta ops, so that cast motion has work to do.
      if (rng.percent(15))
        value = buildMetaStep(value);
      value = castTo(value, type);
    }
  }

  //===--- meta ops -------------------------------------------------------===//

  /// Size-1 dims inserted at `count` random result positions.
  Value broadcastNewDims(Value value, unsigned count) {
    int64_t rank = tensorType(value).getRank();
    if (rank >= kMaxRank)
      return {};
    count = std::min<int64_t>(count, kMaxRank - rank);
    SmallVector<int64_t> positions =
        llvm::to_vector(llvm::seq<int64_t>(0, rank + count));
    rng.shuffle(MutableArrayRef<int64_t>(positions));
    positions.resize(count);
    llvm::sort(positions);
    return broadcastAt(value, positions);
  }
  Value broadcastAt(Value value, ArrayRef<int64_t> dims) {
    return record(BroadcastOp::create(builder, loc, value, dims));
  }

  SmallVector<int64_t> unitDims(Value value) {
    SmallVector<int64_t> dims;
    for (auto [d, size] : llvm::enumerate(tensorType(value).getShape()))
      if (size == 1)
        dims.push_back(d);
    return dims;
  }
  /// A random non-empty subset of `dims`, in order.
  SmallVector<int64_t> someOf(ArrayRef<int64_t> dims) {
    SmallVector<int64_t> subset;
    for (int64_t d : dims)
      if (rng.percent(50))
        subset.push_back(d);
    if (subset.empty())
      subset.push_back(dims[rng.below(dims.size())]);
    return subset;
  }
  Value squeezeAt(Value value, ArrayRef<int64_t> dims) {
    return record(SqueezeOp::create(builder, loc, value, dims));
  }
  Value squeezeSome(Value value) {
    SmallVector<int64_t> dims = unitDims(value);
    return dims.empty() ? Value() : squeezeAt(value, someOf(dims));
  }

  /// Broadcast then squeeze, with the squeezed dims equal to the inserted
  /// ones, a part of them, or overlapping size-1 dims the source had.
  Value broadcastThenSqueeze(Value value) {
    Value broadcast = broadcastNewDims(value, rng.inRange(1, 2));
    if (!broadcast)
      return {};
    ArrayRef<int64_t> inserted =
        broadcast.getDefiningOp<BroadcastOp>().getDims();
    SmallVector<int64_t> squeezed;
    switch (rng.below(4)) {
    case 0:
      squeezed.assign(inserted.begin(), inserted.end());
      break;
    case 1:
      squeezed = someOf(inserted);
      break;
    default:
      squeezed = someOf(unitDims(broadcast));
    }
    Value between =
        rng.percent(30) ? buildShapePreservingStep(broadcast) : broadcast;
    return squeezeAt(between, squeezed);
  }

  /// Squeeze some size-1 dims, then insert size-1 dims again: at the same
  /// positions (the identity) or elsewhere.
  Value squeezeThenBroadcast(Value value) {
    SmallVector<int64_t> dims = unitDims(value);
    if (dims.empty())
      return {};
    SmallVector<int64_t> squeezed = someOf(dims);
    Value squeeze = squeezeAt(value, squeezed);
    if (rng.percent(60))
      return broadcastAt(squeeze, squeezed);
    return broadcastNewDims(squeeze, squeezed.size());
  }

  /// A copy, cast or negation: what sits between a broadcast and the
  /// squeeze that undoes it once ops move.
  Value buildShapePreservingStep(Value value) {
    Type type = tensorType(value).getElementType();
    switch (rng.below(3)) {
    case 0:
      return copy(value);
    case 1: {
      Value widened = castTo(value, widerType(type));
      return rng.percent(50) ? castTo(widened, type) : widened;
    }
    default:
      return type == i1 || isStorageOnly(type)
                 ? copy(value)
                 : record(NegOp::create(builder, loc, value));
    }
  }

  Value expandSome(Value value) {
    if (unitDims(value).empty()) {
      value = broadcastNewDims(value, 1);
      if (!value)
        return {};
    }
    SmallVector<int64_t> shape(tensorType(value).getShape());
    for (int64_t &size : shape) {
      if (size != 1 || !rng.percent(60))
        continue;
      size = rng.pick<int64_t>({2, 3, 4, 5, 8});
      if (!fits(shape))
        size = 1;
    }
    // An expand that expands nothing is kept sometimes: it must fold away.
    if (shape == tensorType(value).getShape() && !rng.percent(20))
      return {};
    return record(
        ExpandOp::create(builder, loc, tensorType(value).clone(shape), value));
  }

  Value copy(Value value) {
    if (rng.percent(25))
      return record(SegmentSetOp::create(builder, loc, value));
    CacheOpAttr cacheOp;
    if (rng.percent(40))
      cacheOp = CacheOpAttr::get(
          context, rng.pick<CacheOp>({CacheOp::Unspecified, CacheOp::AllLevels,
                                      CacheOp::Streaming, CacheOp::Global}));
    return record(SetOp::create(builder, loc, value, cacheOp));
  }

  Value permuteBy(Value value, ArrayRef<int64_t> permutation) {
    return record(PermuteOp::create(builder, loc, value, permutation));
  }
  /// A random permutation, sometimes followed by its inverse or by a second
  /// one, so that permute composition has work to do.
  Value permuteSome(Value value) {
    int64_t rank = tensorType(value).getRank();
    if (rank < 2)
      return {};
    SmallVector<int64_t> permutation =
        llvm::to_vector(llvm::seq<int64_t>(0, rank));
    rng.shuffle(MutableArrayRef<int64_t>(permutation));
    Value permuted = permuteBy(value, permutation);
    unsigned r = rng.below(100);
    if (r < 30) {
      SmallVector<int64_t> inverse(rank);
      for (auto [i, p] : llvm::enumerate(permutation))
        inverse[p] = i;
      return permuteBy(permuted, inverse);
    }
    if (r < 50) {
      rng.shuffle(MutableArrayRef<int64_t>(permutation));
      return permuteBy(permuted, permutation);
    }
    return permuted;
  }

  /// `count` as a product of up to `rank` factors, in random order.
  SmallVector<int64_t> factorize(int64_t count, unsigned rank) {
    SmallVector<int64_t> shape;
    for (unsigned d = 1; d < rank; ++d) {
      SmallVector<int64_t> divisors;
      for (int64_t f = 1; f <= count; ++f)
        if (count % f == 0)
          divisors.push_back(f);
      int64_t factor = rng.pick<int64_t>(divisors);
      shape.push_back(factor);
      count /= factor;
    }
    shape.push_back(count);
    rng.shuffle(MutableArrayRef<int64_t>(shape));
    return shape;
  }

  /// A shape with the element count of `shape`: a unit dim inserted or
  /// removed, two adjacent dims merged, one dim split, or anything.
  SmallVector<int64_t> viewShape(ArrayRef<int64_t> shape) {
    SmallVector<int64_t> result(shape);
    switch (rng.below(5)) {
    case 0:
      if (result.size() < kMaxRank) {
        result.insert(result.begin() + rng.below(result.size() + 1), 1);
        return result;
      }
      break;
    case 1:
      for (size_t d = 0; d < result.size(); ++d)
        if (result[d] == 1) {
          result.erase(result.begin() + d);
          return result;
        }
      break;
    case 2:
      if (result.size() >= 2) {
        size_t d = rng.below(result.size() - 1);
        result[d] *= result[d + 1];
        result.erase(result.begin() + d + 1);
        return result;
      }
      break;
    case 3:
      if (!result.empty() && result.size() < kMaxRank) {
        size_t d = rng.below(result.size());
        SmallVector<int64_t> split = factorize(result[d], 2);
        result[d] = split[0];
        result.insert(result.begin() + d + 1, split[1]);
        return result;
      }
      break;
    default:
      break;
    }
    return factorize(product(shape), rng.inRange(1, 4));
  }

  Value viewTo(Value value, ArrayRef<int64_t> shape) {
    return record(
        ViewOp::create(builder, loc, tensorType(value).clone(shape), value));
  }
  /// A view, sometimes followed by the view back to the original shape.
  Value viewSome(Value value) {
    ArrayRef<int64_t> shape = tensorType(value).getShape();
    Value viewed = viewTo(value, viewShape(shape));
    if (rng.percent(25))
      return viewTo(viewed, shape);
    if (rng.percent(25))
      return viewTo(viewed, viewShape(tensorType(viewed).getShape()));
    return viewed;
  }

  Value sliceSome(Value value) {
    SmallVector<int64_t> starts, limits, strides;
    for (int64_t size : tensorType(value).getShape()) {
      if (rng.percent(40)) {
        starts.push_back(0);
        limits.push_back(size);
        strides.push_back(1);
        continue;
      }
      int64_t start = rng.below(size);
      starts.push_back(start);
      limits.push_back(rng.inRange(start + 1, size));
      strides.push_back(rng.inRange(1, 3));
    }
    return record(
        SliceOp::create(builder, loc, value, starts, limits, strides));
  }

  /// One meta pattern on `value`; returns `value` when it does not apply.
  Value buildMetaStep(Value value) {
    Value result;
    switch (rng.weighted({5, 3, 3, 3, 2, 3, 4, 2, 3})) {
    case 0:
      result = broadcastThenSqueeze(value);
      break;
    case 1:
      result = broadcastNewDims(value, rng.inRange(1, 2));
      break;
    case 2:
      result = squeezeSome(value);
      break;
    case 3:
      result = expandSome(value);
      break;
    case 4:
      result = copy(value);
      break;
    case 5:
      result = permuteSome(value);
      break;
    case 6:
      result = viewSome(value);
      break;
    case 7:
      result = sliceSome(value);
      break;
    default:
      result = squeezeThenBroadcast(value);
    }
    return result ? result : value;
  }

  void buildMetaChain() {
    Value value = pickTensor();
    unsigned length = rng.inRange(1, 4);
    for (unsigned i = 0; i < length; ++i)
      value = buildMetaStep(value);
  }

  //===--- reductions -----------------------------------------------------===//

  /// Reduction operands must be numeric (or complex): i1 and the 8-bit
  /// floats go through a cast first.
  Value numeric(Value value) {
    Type type = getElementTypeOrSelf(value.getType());
    if (isStorageOnly(type))
      return castTo(value, rng.pick<Type>({f32, bf16}));
    return type == i1 ? castTo(value, rng.pick<Type>({i32, f32, bf16})) : value;
  }

  /// Complex elements reduce with add only.
  ReductionKind reductionKindFor(Value value, ReductionKind kind) {
    return isComplex(tensorType(value).getElementType()) ? ReductionKind::Add
                                                         : kind;
  }

  Value reduce(Value value, ReductionKind kind, ArrayRef<int64_t> dims,
               bool keepdim) {
    return record(
        ReductionOp::create(builder, loc, kind, value, dims, keepdim));
  }

  SmallVector<int64_t> reductionDims(int64_t rank) {
    SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    unsigned r = rng.below(100);
    if (r < 45)
      return {static_cast<int64_t>(rng.below(rank))};
    if (r < 60)
      return all;
    return someOf(all);
  }

  /// The shape of the motivating Mistral RoPE backward chain: view, widen,
  /// squeeze, sum, narrow, then rounds of broadcast/set/widen/squeeze/narrow
  /// over the reduced dims, and broadcast, set, permute, view at the end.
  void buildReductionRoundTrip() {
    Value value = pickTensor();
    Type narrow = tensorType(value).getElementType();
    if (!isFloat(narrow)) {
      narrow = rng.pick<Type>({bf16, f16});
      value = castTo(value, narrow);
    }
    Type wide = widerType(narrow);
    if (rng.percent(50))
      value = viewSome(value);
    Value widened = castTo(value, wide);
    if (Value squeezed = rng.percent(50) ? squeezeSome(widened) : Value())
      widened = squeezed;
    int64_t rank = tensorType(widened).getRank();
    if (rank == 0)
      return;
    SmallVector<int64_t> dims = reductionDims(rank);
    Value result =
        castTo(reduce(widened, ReductionKind::Add, dims, false), narrow);
    for (unsigned round = rng.inRange(1, 2); round > 0; --round) {
      result = copy(broadcastAt(result, dims));
      result = squeezeAt(castTo(result, wide), dims);
      result = castTo(result, narrow);
    }
    result = copy(broadcastAt(result, dims));
    if (Value permuted = permuteSome(result))
      result = permuted;
    viewSome(result);
  }

  void buildReduction() {
    Value value = numeric(pickTensor());
    int64_t rank = tensorType(value).getRank();
    if (rank == 0)
      return;
    auto kind = static_cast<ReductionKind>(rng.weighted({5, 1, 3, 2}));
    reduce(value, reductionKindFor(value, kind), reductionDims(rank),
           rng.percent(50));
  }

  //===--- scans ----------------------------------------------------------===//

  /// The cost of evaluating one element of `value` by the kernels' fallback
  /// (docs/Lowering.md, "Kernels"): a scan's element combines its prefix in
  /// a loop of the scan dim's extent, so a chain of scans costs the product
  /// of their extents. The largest product over the paths to `value`.
  int64_t scanCost(Value value) {
    auto it = scanCosts.find(value);
    if (it != scanCosts.end())
      return it->second;
    int64_t cost = 1;
    if (Operation *op = value.getDefiningOp()) {
      for (Value operand : op->getOperands())
        cost = std::max(cost, scanCost(operand));
      if (auto scan = dyn_cast<ScanOp>(op))
        cost *= std::max<int64_t>(1, scan.getType().getDimSize(scan.getDim()));
    }
    scanCosts[value] = cost;
    return cost;
  }

  /// A scan (cumsum, cumprod, cummax, cummin) along one dim of a pool
  /// tensor. The dim's extent is short, and a chain of scans stays within
  /// kMaxScanCost (the per-element fallback is O(extent) per element and
  /// nests); cumprod goes along dims of at most 16 elements so that float
  /// products stay mostly finite. Sometimes the scan is read through a
  /// meta op, whose output has another shape: the kernel computing it then
  /// evaluates each element's prefix on its own instead of walking rows.
  void buildScan() {
    Value value = numeric(pickTensor());
    auto kind = static_cast<ReductionKind>(rng.weighted({6, 2, 3, 3}));
    kind = reductionKindFor(value, kind);
    int64_t maxExtent = kind == ReductionKind::Mul ? 16 : kMaxScanExtent;
    int64_t cost = scanCost(value);
    // Now and then a longer row: two adjacent dims viewed as one.
    ArrayRef<int64_t> shape = tensorType(value).getShape();
    if (shape.size() >= 2 && rng.percent(25)) {
      size_t d = rng.below(shape.size() - 1);
      if (shape[d] * shape[d + 1] <= maxExtent) {
        SmallVector<int64_t> merged(shape);
        merged[d] *= merged[d + 1];
        merged.erase(merged.begin() + d + 1);
        value = viewTo(value, merged);
      }
    }
    RankedTensorType type = tensorType(value);
    SmallVector<int64_t> dims;
    for (auto [d, size] : llvm::enumerate(type.getShape()))
      if (size <= maxExtent && cost * std::max<int64_t>(size, 1) <= kMaxScanCost)
        dims.push_back(d);
    if (dims.empty())
      return;
    // Mostly a dim longer than 1: a scan along a unit dim is the identity.
    SmallVector<int64_t> longer = llvm::filter_to_vector(
        dims, [&](int64_t d) { return type.getDimSize(d) > 1; });
    int64_t dim = !longer.empty() && rng.percent(90)
                      ? longer[rng.below(longer.size())]
                      : dims[rng.below(dims.size())];
    Value scan = record(ScanOp::create(builder, loc, kind, value, dim));
    if (rng.percent(30))
      buildMetaStep(scan);
  }

  /// An argsort along one dim of a pool tensor made numeric, ascending or
  /// descending (rows of 64 and more sort in a block, shorter ones in a
  /// thread each).
  void buildArgsort() {
    Value value = numeric(pickTensor());
    RankedTensorType type = tensorType(value);
    if (type.getRank() == 0 || isComplex(type.getElementType()))
      return;
    int64_t dim = rng.below(type.getRank());
    Value sort = record(ArgsortOp::create(builder, loc, type.clone(i64),
                                          value, dim, rng.percent(50)));
    if (options.family == RandomFusionOptions::Family::Sorts &&
        type.getDimSize(dim) > 1 && rng.percent(50))
      buildTopk(value, sort, dim);
  }

  /// nvFuser's topk of `value` along `dim` as the frontend spells it from
  /// `sort` (its argsort there): a slice of the argsort's first k (1 to 20,
  /// fewer than the extent: all selected, since a selection kernel keeps up
  /// to 64) and a gather of the values there.
  void buildTopk(Value value, Value sort, int64_t dim) {
    RankedTensorType type = tensorType(value);
    int64_t k =
        rng.inRange(1, std::min<int64_t>(20, type.getDimSize(dim) - 1));
    SmallVector<int64_t> starts(type.getRank(), 0), strides(type.getRank(), 1);
    SmallVector<int64_t> limits(type.getShape());
    limits[dim] = k;
    Value indices = record(
        SliceOp::create(builder, loc, sort, starts, limits, strides));
    record(GatherOp::create(builder, loc,
                            tensorType(indices).clone(type.getElementType()),
                            value, indices, dim));
  }

  //===--- pointwise ------------------------------------------------------===//

  /// The shapes of the tensors among `values`: scalars broadcast with
  /// anything.
  static SmallVector<ArrayRef<int64_t>> tensorShapes(ArrayRef<Value> values) {
    SmallVector<ArrayRef<int64_t>> shapes;
    for (Value value : values)
      if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
        shapes.push_back(tensor.getShape());
    return shapes;
  }

  /// An element type of `operands` for a value of element type `type`:
  /// `type` itself when it is in the class, else one of the class.
  Type typeInClass(Type type, OperandClass operands) {
    if (isInOperandClass(type, operands))
      return type;
    // The complex classes pick as their real parts do: a seed's fusion does
    // not depend on which ops also take complex.
    switch (operands) {
    case OperandClass::Float:
    case OperandClass::FloatOrComplex:
      return rng.pick<Type>({f16, bf16, f32, f64});
    case OperandClass::Numeric:
    case OperandClass::NumericOrComplex:
      return rng.pick<Type>({i32, f32, bf16});
    case OperandClass::Integral:
      return rng.pick<Type>({i1, i32, i64});
    case OperandClass::Integer:
      return rng.pick<Type>({i32, i64});
    case OperandClass::Real:
    case OperandClass::Any:
      // Only complex (for Real) and the 8-bit floats are outside these.
      return rng.pick<Type>({i1, i32, f32});
    }
    return type;
  }

  void buildUnary() {
    Value value = pickTensor();
    // The parts of complex values (the Types family's).
    if (isComplex(tensorType(value).getElementType()) && rng.percent(20)) {
      record(rng.percent(50) ? RealOp::create(builder, loc, value).getResult()
                             : ImagOp::create(builder, loc, value).getResult());
      return;
    }
    auto kind = static_cast<UnaryKind>(rng.below(kNumUnaryKinds));
    value = convert(value, typeInClass(tensorType(value).getElementType(),
                                       getOpInfo(kind).operands));
    record(buildUnaryOp(builder, loc, kind, value));
  }

  /// A tensor that broadcasts with `value` (same rank, each dim equal or 1 on
  /// one side) whose element type is `type`: `value` itself, a keepdim
  /// reduction of it, a compatible value from the pool, or a new argument.
  Value partnerFor(Value value, Type type) {
    ArrayRef<int64_t> shape = tensorType(value).getShape();
    unsigned r = rng.below(100);
    Value partner;
    if (r < 15) {
      partner = value;
    } else if (r < 30 && !shape.empty() &&
               tensorType(value).getElementType() != i1) {
      auto kind = rng.pick<ReductionKind>(
          {ReductionKind::Add, ReductionKind::Max, ReductionKind::Min});
      partner = reduce(numeric(value), reductionKindFor(value, kind),
                       reductionDims(shape.size()), true);
    } else if (r < 80) {
      SmallVector<Value> candidates;
      for (Value candidate : tensors) {
        ArrayRef<int64_t> other = tensorType(candidate).getShape();
        auto merged = broadcastShapes({shape, other});
        if (candidate != value && merged && fits(*merged))
          candidates.push_back(candidate);
      }
      if (!candidates.empty())
        partner = candidates[rng.below(candidates.size())];
    }
    if (!partner && numArguments < kMaxArguments) {
      SmallVector<int64_t> argumentShape(shape);
      for (int64_t &size : argumentShape)
        if (rng.percent(30))
          size = 1;
      ++numArguments;
      partner = addArgument(RankedTensorType::get(
          argumentShape,
          rng.percent(70) ? type : rng.pick<Type>(elementTypes)));
    }
    return convert(partner ? partner : value, type);
  }

  /// A binary operand for `value`: mostly a tensor, sometimes a scalar.
  Value operandFor(Value value, Type type) {
    if (!rng.percent(20))
      return partnerFor(value, type);
    if (rng.percent(85))
      return scalarConstant(type);
    // A scalar computed from scalars, or cast from another scalar type.
    if (rng.percent(50) && type != i1 && !isStorageOnly(type)) {
      Value lhs = scalarConstant(type), rhs = scalarConstant(type);
      return record(AddOp::create(builder, loc, lhs, rhs));
    }
    return castTo(scalarConstant(rng.pick<Type>({i1, i32, bf16, f32})), type);
  }

  void buildBinary() {
    SmallVector<unsigned, kNumBinaryKinds> weights;
    for (unsigned i = 0; i < kNumBinaryKinds; ++i)
      weights.push_back(weightOf(static_cast<BinaryKind>(i)));
    auto kind = static_cast<BinaryKind>(rng.weighted(weights));
    Value lhs = pickTensor();
    Type type = typeInClass(tensorType(lhs).getElementType(),
                            getOpInfo(kind).operands);
    lhs = convert(lhs, type);
    Value rhs = operandFor(lhs, type);
    if (rng.percent(30))
      std::swap(lhs, rhs);
    auto shape = broadcastShapes(tensorShapes({lhs, rhs}));
    if (!shape || !fits(*shape))
      return;
    record(buildBinaryOp(builder, loc, kind, lhs, rhs));
  }

  /// How often buildBinary picks `kind`, relative to the other kinds.
  static unsigned weightOf(BinaryKind kind) {
    switch (kind) {
    case BinaryKind::Add:
    case BinaryKind::Mul:
      return 8;
    case BinaryKind::Sub:
      return 6;
    case BinaryKind::Div:
    case BinaryKind::Maximum:
    case BinaryKind::Minimum:
      return 4;
    default:
      return 1;
    }
  }

  void buildTernary() {
    auto kind = static_cast<TernaryKind>(rng.below(kNumTernaryKinds));
    Value first = pickTensor();
    Type type = typeInClass(tensorType(first).getElementType(),
                            getOpInfo(kind).operands);
    first = convert(first, type);
    SmallVector<Value> operands = {first, operandFor(first, type),
                                   operandFor(first, type)};
    auto shape = broadcastShapes(tensorShapes(operands));
    if (!shape || !fits(*shape))
      return;
    record(buildTernaryOp(builder, loc, kind, operands[0], operands[1],
                          operands[2]));
  }

  Value compare(Value lhs, Value rhs) {
    auto kind = static_cast<CompareKind>(rng.below(kNumCompareKinds));
    Type type = getElementTypeOrSelf(lhs.getType());
    if (isComplex(type) && !comparesComplex(kind))
      kind = rng.pick<CompareKind>({CompareKind::Eq, CompareKind::Ne});
    if (isStorageOnly(type)) {
      lhs = castTo(lhs, f32);
      rhs = castTo(rhs, f32);
    }
    return record(buildCompareOp(builder, loc, kind, lhs, rhs));
  }

  void buildCompareOrWhere() {
    Value value = pickTensor();
    Type type = tensorType(value).getElementType();
    Value condition;
    if (rng.percent(65))
      condition = compare(value, operandFor(value, type));
    else
      condition = convert(value, i1);
    if (rng.percent(25))
      return;
    // where(condition, value, other) with a scalar or broadcasting `other`.
    Value other = operandFor(value, type);
    Value lhs = value, rhs = other;
    if (rng.percent(40))
      std::swap(lhs, rhs);
    SmallVector<Value> operands = {condition, lhs, rhs};
    auto shape = broadcastShapes(tensorShapes(operands));
    if (!shape || !fits(*shape))
      return;
    record(WhereOp::create(builder, loc, condition, lhs, rhs));
  }

  //===--- pad, cat, full -------------------------------------------------===//

  void buildPad() {
    Value value = pickTensor();
    RankedTensorType type = tensorType(value);
    SmallVector<int64_t> low, high, shape;
    for (int64_t size : type.getShape()) {
      bool padded = rng.percent(50);
      low.push_back(padded ? rng.inRange(0, 2) : 0);
      high.push_back(padded ? rng.inRange(0, 2) : 0);
      shape.push_back(low.back() + size + high.back());
    }
    if (!fits(shape))
      return;
    Value padValue = scalarConstant(type.getElementType());
    record(PadOp::create(builder, loc, value, low, high, padValue));
  }

  void buildCat() {
    Value value = pickTensor();
    RankedTensorType type = tensorType(value);
    if (type.getRank() == 0)
      return;
    int64_t dim = rng.below(type.getRank());
    SmallVector<Value> inputs = {value};
    unsigned count = rng.inRange(1, 2);
    int64_t total = type.getNumElements();
    for (unsigned i = 0; i < count; ++i) {
      // Pool values of the same type up to `dim`, else a slice of `value`
      // along `dim`, else `value` again.
      SmallVector<Value> candidates;
      for (Value candidate : tensors) {
        RankedTensorType other = tensorType(candidate);
        if (other.getElementType() != type.getElementType() ||
            other.getRank() != type.getRank())
          continue;
        bool matches = true;
        for (int64_t d = 0; d < type.getRank(); ++d)
          matches &= d == dim || other.getDimSize(d) == type.getDimSize(d);
        if (matches)
          candidates.push_back(candidate);
      }
      Value input;
      if (!candidates.empty() && rng.percent(60)) {
        input = candidates[rng.below(candidates.size())];
      } else if (rng.percent(60)) {
        SmallVector<int64_t> starts(type.getRank(), 0), limits(type.getShape()),
            strides(type.getRank(), 1);
        starts[dim] = rng.below(type.getDimSize(dim));
        strides[dim] = rng.inRange(1, 2);
        input = record(
            SliceOp::create(builder, loc, value, starts, limits, strides));
      } else {
        input = value;
      }
      total += tensorType(input).getNumElements();
      if (total > options.maxElements)
        break;
      inputs.push_back(input);
    }
    rng.shuffle(MutableArrayRef<Value>(inputs));
    record(CatOp::create(builder, loc, inputs, dim));
  }

  void buildFull() {
    SmallVector<int64_t> shape(tensorType(pickTensor()).getShape());
    for (int64_t &size : shape)
      if (rng.percent(30))
        size = 1;
    Value fill = scalarConstant(rng.pick<Type>(elementTypes));
    Type type = RankedTensorType::get(shape, fill.getType());
    record(FullOp::create(builder, loc, type, fill));
  }

  /// An iota along one dim of a pool tensor, broadcast to its rank (as
  /// nvFuser's triu builds its masks), with constant start and step.
  void buildIota() {
    RankedTensorType like = tensorType(pickTensor());
    int64_t rank = like.getRank();
    int64_t dim = rank ? rng.below(rank) : 0;
    int64_t length = rank ? like.getDimSize(dim) : rng.inRange(1, 8);
    Type type = rng.pick<Type>({i32, i64, f16, bf16, f32, f64});
    Value start = scalarConstant(type);
    Value step = scalarConstant(type);
    Value iota = record(IotaOp::create(
        builder, loc, RankedTensorType::get({length}, type), start, step));
    if (rank <= 1)
      return;
    SmallVector<int64_t> inserted;
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim)
        inserted.push_back(d);
    broadcastAt(iota, inserted);
  }

  /// Indices of `shape` computed in the fusion for a dim of `extent`: an
  /// iota along `dim` broadcast to the shape, mod the extent (in range,
  /// repeated and out of order).
  Value buildIndexAlong(ArrayRef<int64_t> shape, int64_t dim, int64_t extent) {
    Value start = scalarConstant(i64);
    Value step = scalarConstant(i64);
    Value iota = record(IotaOp::create(
        builder, loc, RankedTensorType::get({shape[dim]}, i64), start, step));
    SmallVector<int64_t> inserted;
    for (int64_t d = 0, e = shape.size(); d < e; ++d)
      if (d != dim)
        inserted.push_back(d);
    Value index = inserted.empty() ? iota : broadcastAt(iota, inserted);
    auto indexType = RankedTensorType::get(shape, i64);
    if (tensorType(index) != indexType)
      index = record(ExpandOp::create(builder, loc, indexType, index));
    Value divisor = record(arith::ConstantOp::create(
        builder, loc, builder.getI64IntegerAttr(extent)));
    return record(
        RemainderOp::create(builder, loc, indexType, index, divisor));
  }

  /// A pool tensor with elements that an indexing op reads or writes along
  /// `dim`, and an index shape: the tensor's, with 1 to 5 along `dim`.
  struct IndexedTensor {
    Value tensor;
    RankedTensorType type;
    int64_t dim;
    SmallVector<int64_t> indexShape;
  };
  std::optional<IndexedTensor> pickIndexedTensor() {
    Value tensor = pickTensor();
    RankedTensorType type = tensorType(tensor);
    if (type.getRank() == 0 || type.getNumElements() == 0)
      return std::nullopt;
    int64_t dim = rng.below(type.getRank());
    SmallVector<int64_t> indexShape(type.getShape());
    indexShape[dim] = rng.inRange(1, 6);
    return IndexedTensor{tensor, type, dim, std::move(indexShape)};
  }

  /// A gather from a pool tensor along one dim (buildIndexAlong).
  void buildGather() {
    std::optional<IndexedTensor> source = pickIndexedTensor();
    if (!source || !fits(source->indexShape))
      return;
    int64_t dim = source->dim;
    Value index = buildIndexAlong(source->indexShape, dim,
                                  source->type.getDimSize(dim));
    record(GatherOp::create(
        builder, loc, tensorType(index).clone(source->type.getElementType()),
        source->tensor, index, dim));
  }

  /// A scatter into a pool tensor along one dim (buildIndexAlong, so that
  /// indices repeat), of values computed from another index row, with a
  /// combiner where the element type has them.
  void buildScatter() {
    std::optional<IndexedTensor> self = pickIndexedTensor();
    if (!self)
      return;
    RankedTensorType type = self->type;
    int64_t dim = self->dim, rank = type.getRank();
    SmallVector<int64_t> &indexShape = self->indexShape;
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim && rng.percent(20))
        indexShape[d] = rng.inRange(1, indexShape[d]);
    if (!fits(indexShape))
      return;
    Value index = buildIndexAlong(indexShape, dim, type.getDimSize(dim));
    Type element = type.getElementType();
    Value src = convert(buildIndexAlong(indexShape, dim, 97), element);
    ReductionKindAttr reduce;
    bool combines = isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(
                        element) ||
                    element.isInteger(32) || element.isInteger(64);
    if (combines && rng.percent(60))
      reduce = ReductionKindAttr::get(
          builder.getContext(),
          rng.pick<ReductionKind>({ReductionKind::Add, ReductionKind::Mul,
                                   ReductionKind::Max, ReductionKind::Min}));
    record(ScatterOp::create(builder, loc, self->tensor, index, src,
                             builder.getI64IntegerAttr(dim), reduce));
  }

  /// A uniform or normal of a pool tensor's shape, with constant
  /// parameters, seed and offset.
  void buildRandom() {
    SmallVector<int64_t> shape(tensorType(pickTensor()).getShape());
    Type type = rng.pick<Type>({f16, bf16, f32, f64});
    Type parameter = type == f64 ? f64 : f32;
    Value first = scalarConstant(parameter);
    Value second = scalarConstant(parameter);
    Value seed = scalarConstant(i64);
    Value offset = scalarConstant(i64);
    auto resultType = RankedTensorType::get(shape, type);
    if (rng.percent(50))
      record(UniformOp::create(builder, loc, resultType, first, second, seed,
                               offset));
    else
      record(NormalOp::create(builder, loc, resultType, first, second, seed,
                              offset));
  }

  //===--- results --------------------------------------------------------===//

  /// Every unused tensor (up to a limit), plus sometimes a value that is
  /// also used further, the same value twice, or an argument as is.
  void buildReturn() {
    SmallVector<Value> results;
    for (Value value : llvm::reverse(tensors))
      if (value.use_empty() && isa<OpResult>(value) &&
          results.size() < kMaxResults)
        results.push_back(value);
    if (results.empty() || rng.percent(30)) {
      Value used = tensors[rng.below(tensors.size())];
      results.push_back(used);
    }
    if (rng.percent(20))
      results.push_back(results[rng.below(results.size())]);
    if (rng.percent(5))
      results.push_back(body->getArgument(rng.below(body->getNumArguments())));
    rng.shuffle(MutableArrayRef<Value>(results));
    finishFusion(results);
  }

  MLIRContext *context;
  const RandomFusionOptions &options;
  Random rng;
  OpBuilder builder;
  Location loc;
  Type i1, i32, i64, f16, bf16, f32, f64;
  SmallVector<Type> elementTypes;

  func::FuncOp function;
  Block *body = nullptr;
  unsigned numArguments = 0;
  SmallVector<Value> tensors;
  SmallVector<Value> scalars;
  DenseMap<Value, int64_t> scanCosts;
};

OwningOpRef<ModuleOp> FusionGenerator::run() {
  OwningOpRef<ModuleOp> module = startFusion();

  unsigned numOps = options.numOps ? options.numOps : rng.inRange(8, 48);
  unsigned initialArguments = rng.inRange(1, 2);
  for (unsigned i = 0; i < initialArguments; ++i, ++numArguments)
    addArgument(RankedTensorType::get(randomArgumentShape(),
                                      rng.pick<Type>(elementTypes)));

  // Steps may build nothing (a pattern that does not apply): bound the tries.
  for (unsigned tries = 0;
       body->getOperations().size() < numOps && tries < 20 * numOps; ++tries) {
    bool sorts = options.family == RandomFusionOptions::Family::Sorts;
    switch (rng.weighted(sorts ? ArrayRef<unsigned>{18, 22, 8, 8, 12, 7, 4, 4,
                                                    2, 3, 15, 2}
                               : ArrayRef<unsigned>{18, 22, 8, 8, 12, 7, 4, 4,
                                                    2, 3, 3, 2})) {
    case 0:
      buildCastChain();
      break;
    case 1:
      buildMetaChain();
      break;
    case 2:
      buildReduction();
      break;
    case 3:
      buildUnary();
      break;
    case 4:
      if (rng.percent(85))
        buildBinary();
      else
        buildTernary();
      break;
    case 5:
      buildCompareOrWhere();
      break;
    case 6:
      buildPad();
      break;
    case 7:
      buildCat();
      break;
    case 8:
      if (rng.percent(50))
        buildFull();
      else if (rng.percent(40))
        buildIota();
      else if (rng.percent(50))
        buildRandom();
      else if (rng.percent(50))
        buildGather();
      else
        buildScatter();
      break;
    case 9:
      buildReductionRoundTrip();
      break;
    case 10:
      if (rng.percent(sorts ? 25 : 75))
        buildScan();
      else
        buildArgsort();
      break;
    default:
      if (numArguments < kMaxArguments) {
        ++numArguments;
        addArgument(RankedTensorType::get(randomArgumentShape(),
                                          rng.pick<Type>(elementTypes)));
      }
    }
  }
  buildReturn();
  return module;
}

OwningOpRef<ModuleOp> FusionGenerator::runNormalization() {
  OwningOpRef<ModuleOp> module = startFusion();

  // Rows of one or two dims, over one or two outer dims (enough rows, now
  // and then, for several rows per block).
  SmallVector<int64_t> shape;
  unsigned rank = rng.inRange(2, 4);
  unsigned reducedDims = rng.inRange(1, std::min(2u, rank - 1));
  for (unsigned d = 0; d < rank; ++d) {
    bool reduced = d >= rank - reducedDims;
    int64_t size =
        reduced ? rng.pick<int64_t>({1, 3, 4, 8, 16, 32, 33, 64, 100, 128, 256})
                : rng.pick<int64_t>({1, 2, 3, 4, 5, 8, 16, 64});
    while (size > 1 && product(shape) * size > options.maxElements)
      size /= 2;
    shape.push_back(size);
  }
  // Now and then an outer normalization: the leading dim (or, at rank 3 and
  // more, now and then the two leading dims) reduced, the innermost kept;
  // the columns a block covers are often not a multiple of its tile, the
  // reduced extent often odd. Extra draws only here, so that the inner
  // normalizations of each seed stay as they were.
  bool outer = rng.percent(15);
  unsigned leadingReduced = outer && rank >= 3 && rng.percent(30) ? 2 : 1;
  if (outer && rng.percent(50)) {
    shape[0] = 1;
    int64_t size = rng.pick<int64_t>({3, 7, 37, 64, 100, 255});
    while (size > 1 && product(shape) * size > options.maxElements)
      size /= 2;
    shape[0] = size;
  }
  SmallVector<int64_t> dims;
  for (unsigned d = outer ? 0 : rank - reducedDims;
       d < (outer ? leadingReduced : rank); ++d)
    dims.push_back(d);
  SmallVector<int64_t> reducedShape(shape);
  for (int64_t d : dims)
    reducedShape[d] = 1;

  Type storage = rng.pick<Type>({bf16, bf16, f16, f32, f32, i32});
  Type compute = storage == i32 ? i32 : f32;
  Value x = addArgument(RankedTensorType::get(shape, storage));
  ++numArguments;
  Value row = convert(x, compute);
  // A second row (the gradient of a backward pass), and a prologue.
  if (rng.percent(30)) {
    Value dy = addArgument(RankedTensorType::get(shape, storage));
    ++numArguments;
    row = record(MulOp::create(builder, loc, row, convert(dy, compute)));
  }
  if (rng.percent(50))
    row = record(MulOp::create(builder, loc, row, row));
  else if (rng.percent(30))
    row = record(NegOp::create(builder, loc, row));

  // One to three reductions; each later one may read the earlier ones
  // (softmax's sum of exp(x - max), LayerNorm's variance).
  SmallVector<Value> reducedRows;
  Value current = row;
  for (unsigned k = rng.inRange(1, 3); k > 0; --k) {
    auto kind = static_cast<ReductionKind>(rng.weighted({5, 0, 3, 2}));
    bool keepdim = rng.percent(50);
    Value reduced = reduce(current, kind, dims, keepdim);
    if (!keepdim)
      reduced = broadcastAt(reduced, dims);
    if (compute == f32 && rng.percent(50)) {
      reduced =
          record(DivOp::create(builder, loc, reduced, scalarConstant(f32)));
      if (rng.percent(50))
        reduced = record(
            RsqrtOp::create(builder, loc,
                            record(AddOp::create(builder, loc, reduced,
                                                 spreadingConstant(f32)))));
    }
    reducedRows.push_back(reduced);
    switch (rng.below(4)) {
    case 0:
      current = record(SubOp::create(builder, loc, current, reduced));
      if (compute == f32 && rng.percent(50))
        current = record(ExpOp::create(builder, loc, current));
      break;
    case 1:
      current = record(MulOp::create(builder, loc, current, reduced));
      break;
    case 2:
      current = record(DivOp::create(builder, loc, current, reduced));
      break;
    default:
      current = record(AddOp::create(builder, loc, current, reduced));
    }
  }
  // A weight (and a bias) along the rows.
  SmallVector<int64_t> rowShape, outerDims;
  for (unsigned d = 0; d < rank; ++d) {
    if (llvm::is_contained(dims, int64_t(d)) || outer)
      rowShape.push_back(shape[d]);
    if (!llvm::is_contained(dims, int64_t(d)) && !outer)
      outerDims.push_back(d);
  }
  for (unsigned w = rng.percent(60) ? rng.inRange(1, 2) : 0; w > 0; --w) {
    // An outer normalization's weight is per column (batch norm's), or of
    // the source shape.
    Value weight =
        outer
            ? addArgument(RankedTensorType::get(
                  rng.percent(50) ? reducedShape : shape, storage))
            : broadcastAt(addArgument(RankedTensorType::get(rowShape, storage)),
                          outerDims);
    ++numArguments;
    weight = convert(weight, compute);
    current = w == 2 ? record(MulOp::create(builder, loc, current, weight))
                     : record(AddOp::create(builder, loc, current, weight));
  }

  SmallVector<Value> results{convert(current, storage)};
  if (rng.percent(40))
    results.push_back(reducedRows[rng.below(reducedRows.size())]);
  if (rng.percent(20))
    results.push_back(row);
  finishFusion(results);
  return module;
}

OwningOpRef<ModuleOp> FusionGenerator::runLibrary() {
  unsigned kind = rng.below(100);
  if (kind < 20)
    return runAttention();
  if (kind < 35)
    return runGroupedMm();
  OwningOpRef<ModuleOp> module = startFusion();
  // Every operand and result of a library op has the storage type; halves
  // compute around it in f32, as Thunder's casts do.
  Type storage = rng.pick<Type>({bf16, bf16, f16, f32, f32, f64});
  Type compute = storage == f64 ? f64 : f32;
  auto pickExtent = [&](ArrayRef<int64_t> choices) {
    return rng.pick<int64_t>(choices);
  };
  SmallVector<int64_t> batch;
  for (unsigned d = rng.inRange(0, 2); d > 0; --d)
    batch.push_back(pickExtent({1, 2, 3}));
  int64_t m = pickExtent({1, 2, 3, 5, 8, 16, 33});
  int64_t k = pickExtent({1, 2, 4, 7, 16, 32, 64});
  int64_t n = pickExtent({1, 3, 4, 8, 17, 32});
  while (m > 1 && product(batch) * m * std::max(k, n) > options.maxElements)
    m /= 2;
  auto withBatch = [&](ArrayRef<int64_t> batchDims, ArrayRef<int64_t> matrix) {
    SmallVector<int64_t> shape(batchDims);
    llvm::append_range(shape, matrix);
    return RankedTensorType::get(shape, storage);
  };
  auto transposed = [&](ArrayRef<int64_t> batchDims, int64_t rows,
                        int64_t columns) {
    Value stored = addArgument(withBatch(batchDims, {columns, rows}));
    int64_t rank = batchDims.size() + 2;
    SmallVector<int64_t> permutation =
        llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(permutation[rank - 2], permutation[rank - 1]);
    return permuteBy(stored, permutation);
  };
  auto operand = [&](ArrayRef<int64_t> batchDims, int64_t rows,
                     int64_t columns) {
    return rng.percent(25) ? transposed(batchDims, rows, columns)
                           : addArgument(withBatch(batchDims, {rows, columns}));
  };

  // The lhs (a linear's input): [batch..., M, K], now and then 1-D, or
  // stored transposed; now and then scaled first (a pointwise producer).
  Value lhs = rng.percent(10) ? addArgument(withBatch({}, {k}))
                              : operand(batch, m, k);
  if (rng.percent(40))
    lhs = scaledBy(lhs, rng.pick<double>({0.5, -1.5, 2.0}), compute);

  Value result;
  if (rng.percent(50)) {
    // linear: weight [N, K] (or stored [K, N] and permuted), a bias [N].
    Value weight = operand({}, n, k);
    Value bias = rng.percent(50) ? addArgument(withBatch({}, {n})) : Value();
    result = record(LinearOp::create(builder, loc, lhs, weight, bias));
  } else {
    // matmul: rhs [K, N], batched with dims equal to or broadcasting the
    // lhs's, now and then 1-D.
    SmallVector<int64_t> rhsBatch;
    if (tensorType(lhs).getRank() > 1 && rng.percent(50))
      for (int64_t size : batch)
        rhsBatch.push_back(rng.percent(70) ? size : 1);
    Value rhs = rng.percent(10) ? addArgument(withBatch({}, {k}))
                                : operand(rhsBatch, k, n);
    result = record(MatmulOp::create(builder, loc, lhs, rhs));
  }

  // Consumers in the compute type: a bias or a gate of the result's
  // shape, relu or silu, and now and then an MLP's down projection.
  RankedTensorType resultType = tensorType(result);
  Value current = convert(result, compute);
  if (resultType.getRank() > 0 && rng.percent(40)) {
    int64_t last = resultType.getShape().back();
    Value bias = convert(addArgument(withBatch({}, {last})), compute);
    SmallVector<int64_t> outer =
        llvm::to_vector(llvm::seq<int64_t>(0, resultType.getRank() - 1));
    current = record(AddOp::create(builder, loc, current,
                                   outer.empty() ? bias
                                                 : broadcastAt(bias, outer)));
  }
  switch (rng.below(4)) {
  case 0:
    current = record(ReluOp::create(builder, loc, current));
    break;
  case 1:
    current = record(SiluOp::create(builder, loc, current));
    break;
  case 2:
    current = record(MulOp::create(
        builder, loc, current,
        convert(addArgument(resultType.clone(storage)), compute)));
    break;
  default:
    break;
  }
  SmallVector<Value> results{convert(current, storage)};
  if (resultType.getRank() > 0 && rng.percent(30)) {
    // The down projection's input is inexact (unlike the deterministic
    // inputs, multiples of 1/8 whose products a BLAS sums exactly in any
    // order): scaled by 2^-12 towards the unit variance that nvFuser's
    // tolerance assumes (randn), so that it compares within it.
    Value scale = record(arith::ConstantOp::create(
        builder, loc, builder.getFloatAttr(compute, 0x1p-12)));
    Value input = convert(
        record(MulOp::create(builder, loc, current, scale)), storage);
    int64_t down = pickExtent({1, 5, 8});
    Value weight =
        addArgument(withBatch({}, {down, resultType.getShape().back()}));
    results.front() =
        record(LinearOp::create(builder, loc, input, weight, Value()));
  }
  if (rng.percent(30))
    results.push_back(result);
  if (resultType.getRank() > 0 && rng.percent(30))
    results.push_back(
        reduce(current, ReductionKind::Add, {resultType.getRank() - 1},
               /*keepdim=*/false));
  finishFusion(results);
  return module;
}

OwningOpRef<ModuleOp> FusionGenerator::runAttention() {
  OwningOpRef<ModuleOp> module = startFusion();
  Type storage = rng.pick<Type>({bf16, bf16, f16, f32});
  SmallVector<int64_t> batch{rng.pick<int64_t>({1, 2})};
  if (rng.percent(15))
    batch.push_back(rng.pick<int64_t>({1, 2}));
  int64_t heads = rng.pick<int64_t>({1, 2, 3});
  int64_t l = rng.pick<int64_t>({1, 2, 5, 8, 16});
  int64_t s = rng.pick<int64_t>({1, 3, 7, 16});
  int64_t e = rng.pick<int64_t>({4, 8, 16});
  int64_t ev = rng.pick<int64_t>({4, 8});
  while (l > 1 && product(batch) * heads * l * std::max({s, e, ev}) >
                      options.maxElements)
    l /= 2;
  // [batch..., heads, rows, columns]; now and then stored as a projection's
  // reshaped output, [batch..., rows, heads, columns], and permuted.
  auto operand = [&](int64_t rows, int64_t columns) {
    SmallVector<int64_t> shape(batch);
    bool stored = rng.percent(25);
    llvm::append_range(shape, stored ? SmallVector<int64_t>{rows, heads, columns}
                                     : SmallVector<int64_t>{heads, rows, columns});
    Value argument = addArgument(RankedTensorType::get(shape, storage));
    if (!stored)
      return argument;
    int64_t rank = shape.size();
    SmallVector<int64_t> permutation =
        llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(permutation[rank - 3], permutation[rank - 2]);
    return permuteBy(argument, permutation);
  };
  Value query = operand(l, e);
  Value key = operand(s, e);
  Value value = operand(s, ev);
  if (rng.percent(40))
    query = scaledBy(query, rng.pick<double>({0.5, -1.5}), f32);
  UnitAttr causal = rng.percent(50) ? builder.getUnitAttr() : UnitAttr();
  FloatAttr scale =
      rng.percent(30)
          ? builder.getF64FloatAttr(rng.pick<double>({0.5, 0.125}))
          : FloatAttr();
  // Now and then a bias and a mask of the scores' rank, some dims 1
  // (broadcast), or else a dropout with constant Philox seed and offset.
  SmallVector<int64_t> scores(batch);
  llvm::append_range(scores, SmallVector<int64_t>{heads, l, s});
  auto broadcastType = [&](Type element) {
    SmallVector<int64_t> shape(scores);
    for (int64_t &extent : shape)
      if (rng.percent(30))
        extent = 1;
    return RankedTensorType::get(shape, element);
  };
  Value bias = rng.percent(25) ? addArgument(broadcastType(storage)) : Value();
  Value mask = rng.percent(20) ? addArgument(broadcastType(i1)) : Value();
  FloatAttr dropout = builder.getF64FloatAttr(0.0);
  Value seed, offset;
  if (!bias && !mask && rng.percent(20)) {
    dropout = builder.getF64FloatAttr(rng.pick<double>({0.125, 0.5}));
    seed = scalarConstant(i64);
    offset = scalarConstant(i64);
  }
  auto forward = SdpfaFwdOp::create(builder, loc, query, key, value, bias,
                                    mask, seed, offset, dropout, causal, scale);
  Value output = record(forward.getOutput());
  Value current = convert(output, f32);
  if (rng.percent(30))
    current = record(MulOp::create(
        builder, loc, current,
        convert(addArgument(cast<RankedTensorType>(output.getType())), f32)));
  SmallVector<Value> results{convert(current, storage)};
  if (rng.percent(40))
    results.push_back(forward.getLogsumexp());
  // The backward of a forward without a bias or mask (nvFuser's has none).
  if (!bias && !mask && rng.percent(35)) {
    Value gradOutput = addArgument(cast<RankedTensorType>(output.getType()));
    auto backward = SdpfaBwdOp::create(
        builder, loc, gradOutput, query, key, value, output,
        forward.getLogsumexp(), forward.getPhiloxSeed(),
        forward.getPhiloxOffset(), dropout, causal, scale);
    results.push_back(backward.getGradQuery());
    if (rng.percent(50))
      results.push_back(backward.getGradKey());
    if (rng.percent(50))
      results.push_back(backward.getGradValue());
  }
  finishFusion(results);
  return module;
}

OwningOpRef<ModuleOp> FusionGenerator::runGroupedMm() {
  OwningOpRef<ModuleOp> module = startFusion();
  Type storage = rng.pick<Type>({bf16, bf16, f16, f32});
  int64_t groups = rng.pick<int64_t>({1, 2, 3, 4, 8});
  int64_t m = rng.pick<int64_t>({1, 5, 8, 16, 33});
  int64_t k = rng.pick<int64_t>({1, 4, 16, 32});
  int64_t n = rng.pick<int64_t>({1, 3, 8, 16});
  // The grouped dim: rows ([M, K] x [G, K, N]), columns ([G, M, K] x
  // [K, N]) or the contraction ([M, K] x [K, N] -> [G, M, N]).
  enum class Grouped { Rows, Columns, Contraction };
  auto grouped = static_cast<Grouped>(rng.below(3));
  int64_t extent = grouped == Grouped::Rows      ? m
                   : grouped == Grouped::Columns ? n
                                                 : k;
  // The offsets as an MoE layer computes them: a cumulative sum of token
  // counts (here from the data, so that groups are empty, short or long),
  // clamped to the extent, so that the last may stop short of it.
  auto scalar = [&](int64_t value) {
    return record(arith::ConstantOp::create(builder, loc,
                                            builder.getI32IntegerAttr(value)));
  };
  auto countsType = RankedTensorType::get({groups}, i32);
  Value counts = record(RemainderOp::create(
      builder, loc, countsType,
      record(AbsOp::create(builder, loc, addArgument(countsType))),
      scalar(extent / groups + 2)));
  Value ends = record(ScanOp::create(builder, loc, ReductionKind::Add, counts,
                                     /*dim=*/0));
  Value offsets = convert(
      record(MinimumOp::create(builder, loc, ends, scalar(extent))), i32);

  auto operand = [&](ArrayRef<int64_t> shape) {
    if (shape.size() != 2 || !rng.percent(25))
      return addArgument(RankedTensorType::get(shape, storage));
    // Stored transposed, as a weight often is.
    Value stored =
        addArgument(RankedTensorType::get({shape[1], shape[0]}, storage));
    return permuteBy(stored, {1, 0});
  };
  Value mat1 = grouped == Grouped::Columns ? operand({groups, m, k})
                                           : operand({m, k});
  if (rng.percent(30))
    mat1 = scaledBy(mat1, rng.pick<double>({0.5, -2.0}), f32);
  Value mat2 = grouped == Grouped::Rows ? operand({groups, k, n})
                                        : operand({k, n});
  Value result =
      record(GroupedMmOp::create(builder, loc, mat1, mat2, offsets));

  Value current = convert(result, f32);
  switch (rng.below(3)) {
  case 0:
    current = record(SiluOp::create(builder, loc, current));
    break;
  case 1:
    current = record(MulOp::create(
        builder, loc, current,
        convert(addArgument(tensorType(result)), f32)));
    break;
  default:
    break;
  }
  SmallVector<Value> results{convert(current, storage)};
  if (rng.percent(20))
    results.push_back(offsets);
  finishFusion(results);
  return module;
}

} // namespace

OwningOpRef<ModuleOp>
mlir::fuser::generateRandomFusion(MLIRContext *context,
                                  const RandomFusionOptions &options) {
  context->loadDialect<FuserDialect, func::FuncDialect, arith::ArithDialect>();
  FusionGenerator generator(context, options);
  switch (options.family) {
  case RandomFusionOptions::Family::Normalization:
    return generator.runNormalization();
  case RandomFusionOptions::Family::Library:
    return generator.runLibrary();
  default:
    return generator.run();
  }
}

std::optional<RandomFusionOptions::Family>
mlir::fuser::parseRandomFusionFamily(StringRef name) {
  if (name == "any")
    return RandomFusionOptions::Family::Any;
  if (name == "normalization")
    return RandomFusionOptions::Family::Normalization;
  if (name == "types")
    return RandomFusionOptions::Family::Types;
  if (name == "sorts")
    return RandomFusionOptions::Family::Sorts;
  if (name == "library")
    return RandomFusionOptions::Family::Library;
  return std::nullopt;
}
