//===- NormalizationSegments.cpp - one kernel per normalization -----------===//
//
// fuser-segment splits a normalization after its reduction (rule 5: no
// broadcast back into a reduction kernel). This step, run on the segmented
// fusion, merges a reduction segment with the kernels that read its results
// again into one `normalization` segment when the merged body is one, inner
// (rows) or outer (columns) (docs/Segmentation.md, "Normalization kernels").
// The steps that split or move parts of kernels to form one are costed on
// the fusion's traffic, so that preseg never makes segmentation worse.
//
//===----------------------------------------------------------------------===//

#include "fuser/Dialect/Fuser/Transforms/NormalizationSegments.h"
#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/Transforms/Schedule.h"
#include "fuser/Dialect/Fuser/Transforms/SegmentPruning.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::fuser;

/// Whether `consumer` reads a segment other than `producer` that depends on
/// `producer`: merging them would then form a cycle.
static bool readsThroughAnotherSegment(SegmentOp producer, SegmentOp consumer) {
  DenseSet<Operation *> reached;
  SmallVector<Operation *> worklist{producer};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Operation *user : op->getUsers())
      if (user != consumer.getOperation() && isa<SegmentOp>(user) &&
          reached.insert(user).second)
        worklist.push_back(user);
  }
  return llvm::any_of(consumer.getInputs(), [&](Value input) {
    return reached.contains(input.getDefiningOp());
  });
}

/// The values of `consumer`'s body computed from `producer`'s results read
/// through a `segment_set`: one the producer yields, or one in `consumer`'s
/// body of views of what it reads from `producer`, which is a view of
/// written memory only while the two are apart. A segment_set stays a hard
/// boundary (rule 1): where the two merge, these values stay out (fuser-gen
/// seed 9507). A segment_set that `consumer` computes is its own, written
/// and not read there.
static DenseSet<Value> getReadThroughSegmentSet(SegmentOp producer,
                                                SegmentOp consumer) {
  auto producerYield =
      cast<YieldOp>(producer.getBody().front().getTerminator());
  Block &body = consumer.getBody().front();
  DenseSet<Value> views, through;
  for (auto [input, argument] :
       llvm::zip_equal(consumer.getInputs(), body.getArguments())) {
    auto result = dyn_cast<OpResult>(input);
    if (!result || result.getOwner() != producer.getOperation())
      continue;
    if (producerYield.getValues()[result.getResultNumber()]
            .getDefiningOp<SegmentSetOp>())
      through.insert(argument);
    else
      views.insert(argument);
  }
  for (Operation &op : body.without_terminator()) {
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return through.contains(v); })) {
      through.insert(op.getResults().begin(), op.getResults().end());
      continue;
    }
    auto meta = dyn_cast<MetaOpInterface>(op);
    if (meta && views.contains(meta.getSource()))
      (isa<SegmentSetOp>(op) ? through : views).insert(op.getResult(0));
  }
  return through;
}

/// A segment body with one argument per value of `inputs`.
static Block *createBody(const SetVector<Value> &inputs) {
  Block *body = new Block();
  for (Value input : inputs)
    body->addArgument(input.getType(), input.getLoc());
  return body;
}

/// The argument of `body` (from createBody) that stands for `input`.
static BlockArgument argumentFor(Block *body, const SetVector<Value> &inputs,
                                 Value input) {
  return body->getArgument(
      std::distance(inputs.begin(), llvm::find(inputs, input)));
}

/// Computes each value of a merged segment's body once: the producer's and
/// the consumer's bodies often recompute the same ops from a shared input
/// (preseg's cast motion gives both the same chain), and a kernel that reads
/// an input through two equal slices reads the sliced elements twice.
static void computeOnce(SegmentOp merged) {
  IRRewriter rewriter(merged.getContext());
  DominanceInfo dominance(merged);
  eliminateCommonSubExpressions(rewriter, dominance, merged);
}

/// The segment of `kind` that computes what `producer` and `consumer`
/// compute, with the values between them kept inside, inserted before
/// `consumer`. It yields the producer's results that others still read,
/// then the consumer's.
static SegmentOp buildMerged(SegmentOp producer, SegmentOp consumer,
                             SmallVectorImpl<Value> &replaced,
                             SegmentKind kind = SegmentKind::Normalization) {
  SetVector<Value> inputs(producer.getInputs().begin(),
                          producer.getInputs().end());
  for (Value input : consumer.getInputs())
    if (input.getDefiningOp() != producer.getOperation())
      inputs.insert(input);
  SmallVector<Value> keptProducerResults;
  for (Value result : producer.getResults())
    if (llvm::any_of(result.getUsers(), [&](Operation *user) {
          return user != consumer.getOperation();
        }))
      keptProducerResults.push_back(result);

  OpBuilder builder(consumer);
  Block *body = createBody(inputs);
  auto position = [&](Value input) { return argumentFor(body, inputs, input); };
  OpBuilder bodyBuilder(consumer.getContext());
  bodyBuilder.setInsertionPointToEnd(body);
  IRMapping producerMap;
  for (auto [argument, input] : llvm::zip_equal(
           producer.getBody().front().getArguments(), producer.getInputs()))
    producerMap.map(argument, position(input));
  for (Operation &op : producer.getBody().front().without_terminator())
    bodyBuilder.clone(op, producerMap);
  auto producerYield =
      cast<YieldOp>(producer.getBody().front().getTerminator());
  IRMapping consumerMap;
  for (auto [argument, input] : llvm::zip_equal(
           consumer.getBody().front().getArguments(), consumer.getInputs())) {
    if (auto result = dyn_cast<OpResult>(input);
        result && result.getOwner() == producer.getOperation())
      consumerMap.map(argument,
                      producerMap.lookup(
                          producerYield.getValues()[result.getResultNumber()]));
    else
      consumerMap.map(argument, position(input));
  }
  for (Operation &op : consumer.getBody().front().without_terminator())
    bodyBuilder.clone(op, consumerMap);
  SmallVector<Value> yielded;
  for (Value result : keptProducerResults)
    yielded.push_back(producerMap.lookup(
        producerYield.getValues()[cast<OpResult>(result).getResultNumber()]));
  for (Value value :
       cast<YieldOp>(consumer.getBody().front().getTerminator()).getValues())
    yielded.push_back(consumerMap.lookupOrDefault(value));
  YieldOp::create(bodyBuilder, consumer.getLoc(), yielded);

  replaced = keptProducerResults;
  llvm::append_range(replaced, consumer.getResults());
  auto merged = SegmentOp::create(
      builder, builder.getFusedLoc({producer.getLoc(), consumer.getLoc()}),
      ValueRange(replaced).getTypes(), kind, inputs.getArrayRef(),
      /*schedule=*/nullptr);
  merged.getBody().push_back(body);
  computeOnce(merged);
  return merged;
}

void mlir::fuser::listUnitAxesInReducedDims(Block &body) {
  for (auto reduction : body.getOps<ReductionOp>()) {
    if (!reduction.getKeepdim() || reduction.getDims().empty())
      continue;
    ArrayRef<int64_t> shape = reduction.getSource().getType().getShape();
    SmallVector<int64_t> dims(reduction.getDims());
    for (int64_t d = dims.front() + 1, e = shape.size(); d < e; ++d)
      if (shape[d] == 1 && !llvm::is_contained(dims, d))
        dims.push_back(d);
    llvm::sort(dims);
    reduction.setDims(dims);
  }
}

/// Whether the merged body is a normalization whose rows fit on chip.
static bool isNormalizationOnChip(SegmentOp merged) {
  NormalizationStructure structure =
      analyzeNormalization(merged.getBody().front());
  return structure.whyNot.empty() &&
         structure.sharedBytes <= kNormalizationRowBudgetBytes;
}

/// Whether `value` of a segment body is computed from an op of type `OpTy`
/// (itself included).
template <typename OpTy> static bool isComputedFrom(Value value) {
  DenseSet<Operation *> visited;
  SmallVector<Value> worklist{value};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val().getDefiningOp();
    if (!op || !visited.insert(op).second)
      continue;
    if (isa<OpTy>(op))
      return true;
    llvm::append_range(worklist, op->getOperands());
  }
  return false;
}

/// Whether `value` of a segment body is computed from a reduction.
static bool dependsOnReduction(Value value) {
  return isComputedFrom<ReductionOp>(value);
}

/// When `producer` is a reduction kernel that computes more than rows (so it
/// does not merge with `consumer` as a whole) and `consumer` reads results
/// computed from its one reduction (the reduction's result, or values
/// computed from it), moves them, with the ops they are computed from, into
/// `consumer` as one normalization segment, where that moves no more bytes:
/// the consumer then reads the inputs of those ops instead of the results,
/// and the producer keeps computing everything else (segmenting
/// without preseg finds this split where an extent-1 reduction, which
/// preseg removes, kept the reduction out of the producer). False, with
/// the fusion unchanged, otherwise.
static bool peelReductionInto(SegmentOp producer, SegmentOp consumer) {
  if (producer.getKind() != SegmentKind::Reduction)
    return false;
  Block &producerBody = producer.getBody().front();
  if (!llvm::hasSingleElement(producerBody.getOps<ReductionOp>()))
    return false;
  auto producerYield = cast<YieldOp>(producerBody.getTerminator());
  // The results computed from the reduction that the consumer reads, and
  // the values of the body that stand for them.
  SmallVector<Value> peeled;
  DenseMap<Value, Value> peeledYields;
  for (auto [result, yielded] :
       llvm::zip_equal(producer.getResults(), producerYield.getValues()))
    if (llvm::is_contained(consumer.getInputs(), result) &&
        dependsOnReduction(yielded)) {
      peeled.push_back(result);
      peeledYields[result] = yielded;
    }
  if (peeled.empty())
    return false;
  auto isPeeledYield = [&](Value value) {
    return llvm::any_of(peeledYields,
                        [&](auto entry) { return entry.second == value; });
  };

  // The reduction and the ops it is computed from, up to the producer's
  // inputs and the values it writes where `stopAt` says so; the consumer
  // reads those. Of the cuts tried, the one that reads fewest bytes more.
  DenseMap<Value, Value> written;
  for (auto [result, yielded] :
       llvm::zip_equal(producer.getResults(), producerYield.getValues()))
    if (!isPeeledYield(yielded))
      written.try_emplace(yielded, result);
  enum class StopAt { Inputs, Written, WrittenAndRead };
  DenseSet<Operation *> slice;
  // Values of the producer's body the slice reads, and what stands for
  // each outside it.
  llvm::MapVector<Value, Value> sliceReads;
  SetVector<Value> inputs;
  ByteCount added;
  auto collectSlice = [&](StopAt stopAt) {
    slice.clear();
    sliceReads.clear();
    auto stopsAt = [&](Value result) {
      return stopAt == StopAt::Written ||
             (stopAt == StopAt::WrittenAndRead &&
              llvm::is_contained(consumer.getInputs(), result));
    };
    SmallVector<Operation *> worklist;
    for (Value yielded : llvm::make_second_range(peeledYields))
      if (slice.insert(yielded.getDefiningOp()).second)
        worklist.push_back(yielded.getDefiningOp());
    while (!worklist.empty())
      for (Value operand : worklist.pop_back_val()->getOperands()) {
        if (auto argument = dyn_cast<BlockArgument>(operand))
          sliceReads.insert(
              {operand, producer.getInputs()[argument.getArgNumber()]});
        else if (auto it = written.find(operand);
                 it != written.end() && stopsAt(it->second))
          sliceReads.insert({operand, it->second});
        else if (slice.insert(operand.getDefiningOp()).second)
          worklist.push_back(operand.getDefiningOp());
      }
    inputs.clear();
    for (Value input : consumer.getInputs())
      if (!llvm::is_contained(peeled, input))
        inputs.insert(input);
    added = ByteCount();
    for (auto [inner, input] : sliceReads)
      if (inputs.insert(input))
        added += getTransferBytes(input.getType());
  };
  auto cheaper = [](ByteCount lhs, ByteCount rhs) {
    return !lhs.overflowed && (rhs.overflowed || lhs.bytes < rhs.bytes);
  };
  StopAt best = StopAt::Inputs;
  collectSlice(best);
  ByteCount bestAdded = added;
  for (StopAt stopAt : {StopAt::Written, StopAt::WrittenAndRead}) {
    collectSlice(stopAt);
    if (cheaper(added, bestAdded)) {
      best = stopAt;
      bestAdded = added;
    }
  }
  collectSlice(best);
  // Bytes no longer moved: the consumer's read of the result and, where
  // nothing else reads it, the producer's write.
  ByteCount saved;
  SmallVector<Value> dropped;
  for (Value result : peeled) {
    saved += getTransferBytes(result.getType());
    if (llvm::all_of(result.getUsers(), [&](Operation *user) {
          return user == consumer.getOperation();
        })) {
      saved += getTransferBytes(result.getType());
      dropped.push_back(result);
    }
  }
  if (added.overflowed || saved.overflowed || added.bytes > saved.bytes)
    return false;

  Block *body = createBody(inputs);
  auto position = [&](Value input) { return argumentFor(body, inputs, input); };
  OpBuilder bodyBuilder(consumer.getContext());
  bodyBuilder.setInsertionPointToEnd(body);
  IRMapping sliceMap;
  for (auto [inner, input] : sliceReads)
    sliceMap.map(inner, position(input));
  for (Operation &op : producerBody.without_terminator())
    if (slice.contains(&op))
      bodyBuilder.clone(op, sliceMap);
  IRMapping consumerMap;
  for (auto [argument, input] : llvm::zip_equal(
           consumer.getBody().front().getArguments(), consumer.getInputs()))
    consumerMap.map(argument, llvm::is_contained(peeled, input)
                                  ? sliceMap.lookup(peeledYields.lookup(input))
                                  : position(input));
  for (Operation &op : consumer.getBody().front().without_terminator())
    bodyBuilder.clone(op, consumerMap);
  SmallVector<Value> yielded;
  for (Value value :
       cast<YieldOp>(consumer.getBody().front().getTerminator()).getValues())
    yielded.push_back(consumerMap.lookupOrDefault(value));
  YieldOp::create(bodyBuilder, consumer.getLoc(), yielded);
  OpBuilder builder(consumer);
  auto merged = SegmentOp::create(
      builder, builder.getFusedLoc({producer.getLoc(), consumer.getLoc()}),
      consumer.getResultTypes(), SegmentKind::Normalization,
      inputs.getArrayRef(), /*schedule=*/nullptr);
  merged.getBody().push_back(body);
  computeOnce(merged);
  listUnitAxesInReducedDims(*body);
  if (!isNormalizationOnChip(merged)) {
    merged.erase();
    return false;
  }
  consumer.replaceAllUsesWith(merged.getResults());
  consumer.erase();
  if (dropped.empty())
    return true;

  // The producer without the results only the consumer read.
  SmallVector<Value> kept;
  SmallVector<Value> keptYields;
  for (auto [result, value] :
       llvm::zip_equal(producer.getResults(), producerYield.getValues()))
    if (!llvm::is_contained(dropped, result)) {
      kept.push_back(result);
      keptYields.push_back(value);
    }
  if (kept.empty()) {
    producer.erase();
    return true;
  }
  producerYield->setOperands(keptYields);
  IRRewriter rewriter(producer.getContext());
  (void)runRegionDCE(rewriter, producer.getBody());
  bool computesReduction = !producerBody.getOps<ReductionOp>().empty();
  builder.setInsertionPoint(producer);
  auto rest = SegmentOp::create(
      builder, producer.getLoc(), ValueRange(kept).getTypes(),
      computesReduction ? SegmentKind::Reduction : SegmentKind::Pointwise,
      producer.getInputs(), /*schedule=*/nullptr);
  rest.getBody().takeBody(producer.getBody());
  for (auto [from, to] : llvm::zip_equal(kept, rest.getResults()))
    from.replaceAllUsesWith(to);
  producer.erase();
  return true;
}

/// Replaces `producer` and `consumer` by `merged` (from buildMerged, which
/// listed in `replaced` the results it stands for). The merged segment
/// stands where the consumer stood; the producer's other readers may stand
/// between them, so the caller sorts the fusion again.
static void replaceByMerged(SegmentOp producer, SegmentOp consumer,
                            SegmentOp merged, ArrayRef<Value> replaced) {
  SmallVector<Value> old;
  for (Value result : producer.getResults())
    if (llvm::is_contained(replaced, result))
      old.push_back(result);
  llvm::append_range(old, consumer.getResults());
  for (auto [from, to] : llvm::zip_equal(old, merged.getResults()))
    from.replaceAllUsesWith(to);
  consumer.erase();
  producer.erase();
}

/// A segment of `kind`, inserted before `segment`, that computes the results
/// `resultNumbers` of `segment` with the ops they are computed from, and
/// reads the inputs those ops read.
static SegmentOp buildPart(SegmentOp segment, ArrayRef<unsigned> resultNumbers,
                           SegmentKind kind) {
  Block &body = segment.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  DenseSet<Operation *> part;
  SetVector<Value> inputs;
  SmallVector<Value> worklist;
  for (unsigned number : resultNumbers)
    worklist.push_back(yield.getValues()[number]);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      inputs.insert(segment.getInputs()[argument.getArgNumber()]);
      continue;
    }
    if (part.insert(value.getDefiningOp()).second)
      llvm::append_range(worklist, value.getDefiningOp()->getOperands());
  }
  // The inputs in the segment's order.
  SetVector<Value> ordered;
  for (Value input : segment.getInputs())
    if (inputs.contains(input))
      ordered.insert(input);
  Block *partBody = createBody(ordered);
  IRMapping map;
  for (auto [argument, input] :
       llvm::zip_equal(body.getArguments(), segment.getInputs()))
    if (ordered.contains(input))
      map.map(argument, argumentFor(partBody, ordered, input));
  OpBuilder bodyBuilder(segment.getContext());
  bodyBuilder.setInsertionPointToEnd(partBody);
  for (Operation &op : body.without_terminator())
    if (part.contains(&op))
      bodyBuilder.clone(op, map);
  SmallVector<Value> yielded;
  SmallVector<Type> types;
  for (unsigned number : resultNumbers) {
    yielded.push_back(map.lookupOrDefault(yield.getValues()[number]));
    types.push_back(segment.getResult(number).getType());
  }
  YieldOp::create(bodyBuilder, segment.getLoc(), yielded);
  OpBuilder builder(segment);
  auto result = SegmentOp::create(builder, segment.getLoc(), types, kind,
                                  ordered.getArrayRef(), /*schedule=*/nullptr);
  result.getBody().push_back(partBody);
  return result;
}

/// Lists the results of `consumer` computed from `producer`'s, but not from
/// any it reads through a segment_set (getReadThroughSegmentSet), and the
/// others; false when either list is empty (nothing to split).
static bool
partitionByDependence(SegmentOp producer, SegmentOp consumer,
                      SmallVectorImpl<unsigned> &dependentResults,
                      SmallVectorImpl<unsigned> &independentResults) {
  Block &body = consumer.getBody().front();
  DenseSet<Value> dependent;
  for (auto [argument, input] :
       llvm::zip_equal(body.getArguments(), consumer.getInputs()))
    if (input.getDefiningOp() == producer.getOperation())
      dependent.insert(argument);
  for (Operation &op : body.without_terminator())
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return dependent.contains(v); }))
      dependent.insert(op.getResults().begin(), op.getResults().end());
  DenseSet<Value> through = getReadThroughSegmentSet(producer, consumer);
  for (auto [number, value] :
       llvm::enumerate(cast<YieldOp>(body.getTerminator()).getValues()))
    (dependent.contains(value) && !through.contains(value) ? dependentResults
                                                           : independentResults)
        .push_back(number);
  return !dependentResults.empty() && !independentResults.empty();
}

/// Splits `consumer` into the part that computes its results computed from
/// `producer`'s (the reader) and the rest, each a segment of its own
/// (`reduction` or, of a normalization, `normalization` where it computes a
/// reduction, else `pointwise`), in `consumer`'s
/// place; `consumer` goes. False, with the fusion unchanged, when all or
/// none of its results are computed from `producer`'s.
static bool splitByDependence(SegmentOp producer, SegmentOp consumer,
                              SegmentOp &reader, SegmentOp &rest) {
  SmallVector<unsigned> dependentResults, independentResults;
  if (!partitionByDependence(producer, consumer, dependentResults,
                             independentResults))
    return false;
  auto yield = cast<YieldOp>(consumer.getBody().front().getTerminator());
  // A part of a normalization that reduces is one too (it computes what
  // the normalization's block computed for its results).
  SegmentKind reducing = consumer.getKind() == SegmentKind::Normalization
                             ? SegmentKind::Normalization
                             : SegmentKind::Reduction;
  auto kindOf = [&](ArrayRef<unsigned> results) {
    bool reduces = llvm::any_of(results, [&](unsigned number) {
      return dependsOnReduction(yield.getValues()[number]);
    });
    return reduces ? reducing : SegmentKind::Pointwise;
  };
  reader = buildPart(consumer, dependentResults, kindOf(dependentResults));
  rest = buildPart(consumer, independentResults, kindOf(independentResults));
  for (auto [number, result] : llvm::enumerate(dependentResults))
    consumer.getResult(result).replaceAllUsesWith(reader.getResult(number));
  for (auto [number, result] : llvm::enumerate(independentResults))
    consumer.getResult(result).replaceAllUsesWith(rest.getResult(number));
  consumer.erase();
  return true;
}

/// When `consumer` is a kernel that reads `producer`'s results and also
/// computes results that do not depend on them (so the two do not merge as
/// a whole), splits it (splitByDependence): the reader joins the producer
/// as one normalization segment, the rest stays a kernel of its own
/// (segmenting without preseg forms this split where preseg's sibling
/// merges gave the reader more results). False when the merged body is not
/// a normalization that fits on chip; the consumer is then left split in
/// two, so callers try this on a copy first.
static bool splitConsumerInto(SegmentOp producer, SegmentOp consumer) {
  SegmentOp reader, rest;
  if (!splitByDependence(producer, consumer, reader, rest))
    return false;
  SmallVector<Value> replaced;
  SegmentOp merged = buildMerged(producer, reader, replaced);
  listUnitAxesInReducedDims(merged.getBody().front());
  if (!isNormalizationOnChip(merged)) {
    merged.erase();
    return false;
  }
  replaceByMerged(producer, reader, merged, replaced);
  return true;
}

/// A copy of `func` and, in `counterparts`, its segments that stand for
/// `segments`: the costly steps are tried on a copy first.
static OwningOpRef<func::FuncOp>
cloneWithCounterparts(func::FuncOp func, ArrayRef<SegmentOp> segments,
                      SmallVectorImpl<SegmentOp> &counterparts) {
  Block &block = func.getBody().front();
  OwningOpRef<func::FuncOp> copy = func.clone();
  Block &copyBlock = copy->getBody().front();
  for (SegmentOp segment : segments)
    counterparts.push_back(cast<SegmentOp>(
        *std::next(copyBlock.begin(),
                   std::distance(block.begin(), segment->getIterator()))));
  return copy;
}

/// The cost of `func` (getSegmentationCost).
static SegmentationCost getCost(func::FuncOp func) {
  return getSegmentationCost(FusionTraffic(func));
}

/// splitConsumerInto where that moves fewer bytes (the kernels stay two): tried
/// on a copy of `func` first. A `reduction` or `normalization` consumer
/// splits only where `splitReductionReaders` says so
/// (formNormalizationSegments).
static bool splitConsumerIfCheaper(func::FuncOp func, SegmentOp producer,
                                   SegmentOp consumer,
                                   bool splitReductionReaders) {
  if (consumer.getKind() != SegmentKind::Pointwise && !splitReductionReaders)
    return false;
  // Cheap checks first: the copy below is the costly part.
  SmallVector<unsigned> dependentResults, independentResults;
  if (!partitionByDependence(producer, consumer, dependentResults,
                             independentResults))
    return false;
  SmallVector<SegmentOp> copied;
  OwningOpRef<func::FuncOp> copy =
      cloneWithCounterparts(func, {producer, consumer}, copied);
  if (!splitConsumerInto(copied[0], copied[1]))
    return false;
  sortTopologically(&copy->getBody().front());
  pruneSegments(*copy);
  if (!movesFewerBytes(getCost(*copy), getCost(func)))
    return false;
  return splitConsumerInto(producer, consumer);
}

/// Merges one producer with one of its consumers; false when none merges.
static bool mergeOnce(func::FuncOp func, bool splitReductionReaders) {
  Block &block = func.getBody().front();
  for (SegmentOp producer : llvm::to_vector(block.getOps<SegmentOp>())) {
    if (producer.getKind() != SegmentKind::Reduction &&
        producer.getKind() != SegmentKind::Normalization)
      continue;
    SetVector<SegmentOp> consumers;
    for (Operation *user : producer->getUsers())
      if (auto consumer = dyn_cast<SegmentOp>(user);
          consumer && consumer.getKind() != SegmentKind::Alias)
        consumers.insert(consumer);
    SmallVector<SegmentOp> ordered = consumers.takeVector();
    llvm::sort(ordered, [](SegmentOp lhs, SegmentOp rhs) {
      return lhs->isBeforeInBlock(rhs);
    });
    for (SegmentOp consumer : ordered) {
      if (readsThroughAnotherSegment(producer, consumer))
        continue;
      // Results read through a segment_set of the producer's stay out of
      // its kernel (rule 1); the consumer's others may still join it.
      if (!getReadThroughSegmentSet(producer, consumer).empty()) {
        if (splitConsumerIfCheaper(func, producer, consumer,
                                   splitReductionReaders)) {
          sortTopologically(&block);
          return true;
        }
        continue;
      }
      SmallVector<Value> replaced;
      SegmentOp merged = buildMerged(producer, consumer, replaced);
      listUnitAxesInReducedDims(merged.getBody().front());
      NormalizationStructure structure =
          analyzeNormalization(merged.getBody().front());
      if (!structure.whyNot.empty()) {
        merged.erase();
        if (peelReductionInto(producer, consumer) ||
            splitConsumerIfCheaper(func, producer, consumer,
                                   splitReductionReaders)) {
          sortTopologically(&block);
          return true;
        }
        continue;
      }
      if (structure.sharedBytes > kNormalizationRowBudgetBytes) {
        merged.erase();
        std::string held =
            structure.outer
                ? ("column blocks of " + Twine(structure.rowBytes) +
                   " bytes (" + Twine(structure.rowElements) + " rows x " +
                   Twine(structure.tile) + " columns)")
                      .str()
                : ("rows of " + Twine(structure.rowBytes) + " bytes").str();
        producer->setAttr(
            kNormalizationFallbackAttrName,
            StringAttr::get(
                func.getContext(),
                held + " and " +
                    Twine(structure.sharedBytes - structure.rowBytes) +
                    " bytes of block-wide combines exceed the " +
                    Twine(kNormalizationRowBudgetBytes) +
                    "-byte on-chip budget of sm_90: split after the "
                    "reduction"));
        continue;
      }
      replaceByMerged(producer, consumer, merged, replaced);
      sortTopologically(&block);
      return true;
    }
  }
  return false;
}

/// The results of `sibling` that a normalization could compute too: those
/// computed inside it (not an input passed on) without a segment_set.
static SmallVector<unsigned> getMovableResults(SegmentOp sibling) {
  auto yield = cast<YieldOp>(sibling.getBody().front().getTerminator());
  SmallVector<unsigned> movable;
  for (auto [number, yielded] : llvm::enumerate(yield.getValues()))
    if (!isa<BlockArgument>(yielded) && !isComputedFrom<SegmentSetOp>(yielded))
      movable.push_back(number);
  return movable;
}

/// Moves the results `resultNumbers` of `sibling` into `normalization`,
/// which computes them (with the ops they are computed from, reading what
/// those read) and no longer reads them; `sibling` keeps the rest (and goes
/// when nothing is left). False when the grown body is not a normalization
/// that fits on chip or a cycle forms; the fusion is then left changed, so
/// callers try this on a copy first.
static bool moveResultsInto(SegmentOp sibling, SegmentOp normalization,
                            ArrayRef<unsigned> resultNumbers) {
  Block &siblingBody = sibling.getBody().front();
  auto siblingYield = cast<YieldOp>(siblingBody.getTerminator());
  SmallVector<Value> movedResults;
  for (unsigned number : resultNumbers)
    movedResults.push_back(sibling.getResult(number));
  DenseSet<Operation *> moved;
  SmallVector<Value> worklist;
  for (unsigned number : resultNumbers)
    worklist.push_back(siblingYield.getValues()[number]);
  SetVector<Value> siblingReads;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto argument = dyn_cast<BlockArgument>(value))
      siblingReads.insert(sibling.getInputs()[argument.getArgNumber()]);
    else if (moved.insert(value.getDefiningOp()).second)
      llvm::append_range(worklist, value.getDefiningOp()->getOperands());
  }
  // The normalization would read its own result.
  if (llvm::any_of(siblingReads, [&](Value input) {
        return input.getDefiningOp() == normalization.getOperation();
      }))
    return false;
  SetVector<Value> inputs;
  for (Value input : normalization.getInputs())
    if (!llvm::is_contained(movedResults, input))
      inputs.insert(input);
  for (Value input : siblingReads)
    inputs.insert(input);
  Block *body = createBody(inputs);
  OpBuilder bodyBuilder(normalization.getContext());
  bodyBuilder.setInsertionPointToEnd(body);
  IRMapping siblingMap;
  for (auto [argument, input] :
       llvm::zip_equal(siblingBody.getArguments(), sibling.getInputs()))
    if (siblingReads.contains(input))
      siblingMap.map(argument, argumentFor(body, inputs, input));
  for (Operation &op : siblingBody.without_terminator())
    if (moved.contains(&op))
      bodyBuilder.clone(op, siblingMap);
  Block &normalizationBody = normalization.getBody().front();
  IRMapping map;
  for (auto [argument, input] : llvm::zip_equal(
           normalizationBody.getArguments(), normalization.getInputs())) {
    auto it = llvm::find(movedResults, input);
    map.map(argument,
            it == movedResults.end()
                ? Value(argumentFor(body, inputs, input))
                : siblingMap.lookup(
                      siblingYield.getValues()[resultNumbers[std::distance(
                          movedResults.begin(), it)]]));
  }
  for (Operation &op : normalizationBody.without_terminator())
    bodyBuilder.clone(op, map);
  SmallVector<Value> yielded;
  for (Value value :
       cast<YieldOp>(normalizationBody.getTerminator()).getValues())
    yielded.push_back(map.lookupOrDefault(value));
  // The moved results that others than the normalization read.
  SmallVector<Value> stillRead;
  for (auto [number, result] : llvm::zip_equal(resultNumbers, movedResults)) {
    if (llvm::all_of(result.getUsers(), [&](Operation *user) {
          return user == normalization.getOperation();
        }))
      continue;
    stillRead.push_back(result);
    yielded.push_back(siblingMap.lookup(siblingYield.getValues()[number]));
  }
  YieldOp::create(bodyBuilder, normalization.getLoc(), yielded);
  SmallVector<Type> types(normalization.getResultTypes());
  llvm::append_range(types, ValueRange(stillRead).getTypes());
  OpBuilder builder(normalization);
  auto grown = SegmentOp::create(builder, normalization.getLoc(), types,
                                 SegmentKind::Normalization,
                                 inputs.getArrayRef(), /*schedule=*/nullptr);
  grown.getBody().push_back(body);
  computeOnce(grown);
  listUnitAxesInReducedDims(*body);
  for (auto [from, to] :
       llvm::zip(normalization.getResults(), grown.getResults()))
    from.replaceAllUsesWith(to);
  normalization.erase();
  for (auto [number, result] : llvm::enumerate(stillRead))
    result.replaceAllUsesWith(
        grown.getResult(grown.getNumResults() - stillRead.size() + number));

  // The sibling without the moved results.
  SmallVector<unsigned> keptResults;
  for (unsigned number = 0, e = sibling.getNumResults(); number < e; ++number)
    if (!llvm::is_contained(resultNumbers, number))
      keptResults.push_back(number);
  if (!keptResults.empty()) {
    bool computesReduction = llvm::any_of(keptResults, [&](unsigned number) {
      return dependsOnReduction(siblingYield.getValues()[number]);
    });
    SegmentKind kind = sibling.getKind();
    if (!computesReduction)
      kind = SegmentKind::Pointwise;
    SegmentOp rest = buildPart(sibling, keptResults, kind);
    for (auto [number, result] : llvm::enumerate(keptResults))
      sibling.getResult(result).replaceAllUsesWith(rest.getResult(number));
  }
  sibling.erase();
  return isNormalizationOnChip(grown) && sortTopologically(grown->getBlock());
}

/// Makes `kernel` compute the views that alias segments reading only its
/// results return, writing them itself (the alias segments go): the kernel
/// whose result preseg left unexpanded (an `expand` of a 1-element value)
/// can then move into a normalization, which yields rows, not the 1-element
/// value (fuser-gen seed 1707). Returns the kernel that stands for `kernel`.
static SegmentOp inlineAliasesOf(SegmentOp kernel) {
  auto readsOnlyKernel = [&](SegmentOp alias) {
    return alias.getKind() == SegmentKind::Alias &&
           llvm::all_of(alias.getInputs(), [&](Value input) {
             return input.getDefiningOp() == kernel.getOperation();
           });
  };
  SmallVector<SegmentOp> aliases;
  for (Operation *user : kernel->getUsers())
    if (auto alias = dyn_cast<SegmentOp>(user);
        alias && readsOnlyKernel(alias) && !llvm::is_contained(aliases, alias))
      aliases.push_back(alias);
  for (SegmentOp alias : aliases) {
    SmallVector<Value> replaced;
    SegmentOp merged = buildMerged(kernel, alias, replaced, kernel.getKind());
    replaceByMerged(kernel, alias, merged, replaced);
    kernel = merged;
  }
  return kernel;
}

/// Moves every result of `sibling` into `normalization` on a copy of
/// `func`, with the views of them that alias segments return: one kernel
/// fewer, where the grown body is still a normalization on chip. The copy,
/// or null when `sibling` does not move as a whole.
static OwningOpRef<func::FuncOp>
moveKernelInto(func::FuncOp func, SegmentOp sibling, SegmentOp normalization) {
  SmallVector<SegmentOp> copied;
  OwningOpRef<func::FuncOp> copy =
      cloneWithCounterparts(func, {normalization, sibling}, copied);
  normalization = copied[0];
  sibling = inlineAliasesOf(copied[1]);
  SmallVector<unsigned> movable = getMovableResults(sibling);
  if (movable.size() != sibling.getNumResults() ||
      !moveResultsInto(sibling, normalization, movable))
    return nullptr;
  return copy;
}

/// Moves results of a kernel into a normalization segment that computes
/// them from what it reads already, where (tried on a copy) that launches no
/// more kernels and moves fewer bytes: the kernel no longer reads what only
/// those results needed (after preseg a reduction kernel can take a row
/// reduction that a normalization computes anyway). Where no single result
/// moves so, a kernel moves as a whole (moveKernelInto) when that launches
/// fewer kernels. False when nothing moves.
static bool moveResultsOnce(func::FuncOp func) {
  SegmentationCost before = getCost(func);
  if (before.bytes.overflowed)
    return false;
  // (normalization, other kernel) pairs where the normalization reads
  // something the other kernel reads or writes. Only then can a move save
  // bytes (those reads, or the result, become free); kernels that share
  // nothing merge by rule 9, if at all, and each try here copies the
  // function (independent normalizations: 240 of them took 34 s,
  // bench/segment_scaling.py, now 2 s).
  auto related = [&](SegmentOp normalization, SegmentOp sibling) {
    return llvm::any_of(normalization.getInputs(), [&](Value input) {
      return input.getDefiningOp() == sibling.getOperation() ||
             llvm::is_contained(sibling.getInputs(), input);
    });
  };
  auto segments = llvm::to_vector(func.getBody().front().getOps<SegmentOp>());
  SmallVector<std::pair<SegmentOp, SegmentOp>> pairs;
  for (SegmentOp normalization : segments)
    for (SegmentOp sibling : segments)
      if (normalization.getKind() == SegmentKind::Normalization &&
          sibling != normalization && sibling.getKind() != SegmentKind::Alias &&
          related(normalization, sibling))
        pairs.emplace_back(normalization, sibling);
  for (auto [normalization, sibling] : pairs) {
    for (unsigned number : getMovableResults(sibling)) {
      SmallVector<SegmentOp> copied;
      OwningOpRef<func::FuncOp> copy =
          cloneWithCounterparts(func, {normalization, sibling}, copied);
      if (!moveResultsInto(copied[1], copied[0], {number}))
        continue;
      pruneSegments(*copy);
      if (!movesFewerBytes(getCost(*copy), before))
        continue;
      func.getBody().takeBody(copy->getBody());
      return true;
    }
  }
  for (auto [normalization, sibling] : pairs) {
    OwningOpRef<func::FuncOp> copy =
        moveKernelInto(func, sibling, normalization);
    if (!copy || getCost(*copy).kernels >= before.kernels)
      continue;
    func.getBody().takeBody(copy->getBody());
    return true;
  }
  return false;
}

void mlir::fuser::formNormalizationSegments(func::FuncOp func) {
  // Readers that are reduction kernels split only once nothing else merges:
  // a split taken early keeps later merges from forming (fuser-gen seeds
  // 2398, 3955, 5937, 6530, 8544, 8838, 9281), yet splitting one is what
  // merges preseg's spelling of 3753 and 5841.
  while (mergeOnce(func, /*splitReductionReaders=*/false))
    pruneSegments(func);
  while (mergeOnce(func, /*splitReductionReaders=*/true))
    pruneSegments(func);
  while (moveResultsOnce(func))
    pruneSegments(func);
}
