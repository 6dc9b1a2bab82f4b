//===- SegmentTraffic.h - what a segmentation launches and moves -*- C++
//-*-===//
//
// The cost model of a segmented fusion (docs/Segmentation.md): per segment
// its kind, the kernels it launches, the bytes it reads and writes, its
// inputs and outputs and, for an alias, the strided view each result has of
// an input; per fusion the totals. `fuser-segment-report` and
// `fuser-segment-graph` only format what this analysis returns, and every
// other consumer (the demo, a memory report, Python's `fd.segments()`)
// queries it instead of counting again.
//
// Bytes are elements x element size (i1 takes one byte). A segment reads
// each distinct tensor input once and writes each result once; an alias
// moves nothing. Scalars travel as kernel arguments: 0 bytes. Counts that
// exceed 64 bits are reported as such (ByteCount), not wrapped.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_ANALYSIS_SEGMENTTRAFFIC_H
#define FUSER_ANALYSIS_SEGMENTTRAFFIC_H

#include "fuser/Analysis/TargetInfo.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/IR/StridedView.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::fuser {

//===----------------------------------------------------------------------===//
// Plain queries
//===----------------------------------------------------------------------===//

/// Memory traffic of reading or writing one value of `type` once: the bytes
/// of a tensor, nothing for a scalar (it travels as a kernel argument).
ByteCount getTransferBytes(Type type);

/// Where an alias result lives: a strided view of one segment input.
struct AliasView {
  /// The index of the viewed input among the segment's inputs.
  unsigned inputIndex = 0;
  StridedView view;
};

/// The view that `yielded`, a value a segment body yields, has of a block
/// argument of that body (a segment input) when it is computed from it by
/// meta ops only; nullopt when it is computed otherwise or is not a strided
/// view of the input. The input is laid out as `inputLayout` (its
/// row-major contiguous layout when nullopt; the lowering passes the view
/// an earlier alias made of it).
std::optional<AliasView>
getAliasView(Value yielded,
             const std::optional<StridedView> &inputLayout = std::nullopt);

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

/// How a value that the segments of a fusion pass around is defined, and so
/// how reports name it.
struct FusionValueRef {
  enum class Kind {
    /// Fusion input `number`: `%argN`.
    Argument,
    /// Result `resultNumber` of segment `number`: `#S.R`.
    SegmentResult,
    /// Result `number` (in program order) of the ops outside all segments:
    /// `%sN`. Only scalars (constants, scalar arithmetic) may be computed
    /// there.
    Outside,
  };
  Kind kind;
  unsigned number = 0;
  unsigned resultNumber = 0;
};

/// A reader of a value: segment `number`, or operand `number` of the return.
struct FusionValueReader {
  enum class Kind { Segment, Return };
  Kind kind;
  unsigned number = 0;
};

/// What one segment launches and moves.
struct SegmentTraffic {
  SegmentOp op;
  SegmentKind kind;
  /// Kernels the segment launches: one, or none for an alias.
  unsigned numKernelLaunches = 0;
  /// Each distinct tensor input once; nothing for an alias.
  ByteCount bytesRead;
  /// Each result once; nothing for an alias.
  ByteCount bytesWritten;
  /// getTransferBytes of each input and result, in order (an alias moves
  /// none of them, but they say how large its views are).
  SmallVector<ByteCount> inputBytes;
  SmallVector<ByteCount> resultBytes;
  /// For an alias, each result's view of an input (nullopt where it is not
  /// one); empty for a kernel.
  SmallVector<std::optional<AliasView>> aliasViews;

  bool isAlias() const { return kind == SegmentKind::Alias; }
};

/// The traffic of one segmented fusion (a func.func). Constructible from the
/// function, so that a pass gets it with `getAnalysis<FusionTraffic>()` (or
/// `getChildAnalysis` from a module pass). A function that still computes
/// tensors outside segments is not segmented: then only isSegmented,
/// getUnsegmentedOp and emitUnsegmentedError are meaningful.
class FusionTraffic {
public:
  explicit FusionTraffic(Operation *funcOp);

  func::FuncOp getFunc() const { return func; }

  /// Whether every tensor of the function is computed inside a segment.
  bool isSegmented() const { return !unsegmentedOp; }
  /// The first op that computes a tensor outside a segment, or null.
  Operation *getUnsegmentedOp() const { return unsegmentedOp; }
  /// Success where segmented; otherwise reports the op that is not.
  LogicalResult emitUnsegmentedError() const;

  /// The segments, in program order.
  ArrayRef<SegmentTraffic> getSegments() const { return segments; }
  unsigned getNumSegments() const { return segments.size(); }
  /// The segment whose op is `segment`, or nullopt for another op.
  std::optional<unsigned> getSegmentIndex(Operation *segment) const;

  /// Kernel launches of the whole fusion (its non-alias segments).
  unsigned getNumKernels() const { return numKernels; }
  /// Sums over the segments.
  ByteCount getBytesRead() const { return bytesRead; }
  ByteCount getBytesWritten() const { return bytesWritten; }

  /// The values computed outside all segments (results of scalar ops), in
  /// program order: FusionValueRef::Kind::Outside numbers them.
  ArrayRef<Value> getOutsideValues() const { return outsideValues; }

  /// How `value`, an argument of the function or a result of one of its
  /// top-level ops, is defined.
  FusionValueRef getRef(Value value) const;
  /// `%argN`, `#S.R` or `%sN`, after getRef.
  std::string getName(Value value) const;
  /// The segments (in order) and then the return operands that read
  /// `value`.
  SmallVector<FusionValueReader> getReaders(Value value) const;

private:
  func::FuncOp func;
  Operation *unsegmentedOp = nullptr;
  std::vector<SegmentTraffic> segments;
  DenseMap<Operation *, unsigned> segmentIndex;
  SmallVector<Value> outsideValues;
  DenseMap<Value, unsigned> outsideIndex;
  unsigned numKernels = 0;
  ByteCount bytesRead;
  ByteCount bytesWritten;
};

/// What segmentation minimizes, in this order: kernels launched, then bytes
/// read plus written.
struct SegmentationCost {
  unsigned kernels = 0;
  ByteCount bytes;
};

/// The cost of the segmented fusion `traffic` describes.
SegmentationCost getSegmentationCost(const FusionTraffic &traffic);

/// The estimated run time, in seconds, of `kernels` launches that move
/// `bytes` on `target`: each launch costs its overhead, every byte its share
/// of the bandwidth (a count beyond 64 bits is infinite).
double estimateSeconds(unsigned kernels, ByteCount bytes,
                       const TargetInfo &target);
double estimateSeconds(const SegmentationCost &cost, const TargetInfo &target);

} // namespace mlir::fuser

#endif // FUSER_ANALYSIS_SEGMENTTRAFFIC_H
