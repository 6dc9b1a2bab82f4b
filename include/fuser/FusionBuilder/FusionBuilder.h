//===- FusionBuilder.h - build fusions with nvFuser's rules -----*- C++ -*-===//
//
// nvFuser's construction rules in one place, for every frontend that builds
// fuser IR from an nvFuser description: the Python `FusionDefinition`
// (python/) and the printed-math importer (lib/Target/NvFuser). Each call
// builds what the matching nvFuser function (csrc/ops/arith.cpp, alias.cpp,
// type_promotion.cpp) builds at construction time, one fuser op per nvFuser
// op, and nothing is simplified: `fuser-preseg` does that.
//
// The rules (docs/Python.md has the table):
// - Type promotion is nvFuser's computeTypes: PyTorch's result_type over
//   tensors of rank > 0, rank-0 tensors and scalars (a tensor's category
//   wins over a scalar's of the same or a lower category), then ints to f32
//   for float ops (exp, log, ..., reciprocal), then f16/bf16 to f32 for
//   arithmetic (add, ..., neg, compares; not abs or where). Operands of
//   another dtype are cast (`fuser.cast`); a literal becomes an
//   `arith.constant` of the common dtype.
// - Binary operands of lower rank get leading size-1 dims (`fuser.broadcast`),
//   as nvFuser's maybeBroadcast does.
// - broadcast_in_dim is `fuser.broadcast` (when it inserts dims), then
//   `fuser.expand` where an extent grows, else `fuser.set`.
// - sum/prod of ints and bools accumulate in i64; `dtype` casts the operand
//   first (so a bf16 sum with dtype f32 is cast -> reduction in f32);
//   max/min take no dtype.
// - cast to the operand's own dtype, and expand that grows nothing, are
//   `fuser.set` (nvFuser's castOp and expand).
//
// Errors are emitted as diagnostics at the current location and give
// failure; getLastErrorKind() says whether the problem was a dtype
// (TypeError in Python) or a shape, dim or count (ValueError).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_FUSIONBUILDER_FUSIONBUILDER_H
#define FUSER_FUSIONBUILDER_FUSIONBUILDER_H

#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir::fuser {

/// A number written in a script or a print (`2.5`, `True`, `float(0)`). Its
/// MLIR type is decided where it is used: nvFuser casts a scalar to the
/// dtype of the tensors it meets.
struct ScalarLiteral {
  enum class Kind : uint8_t { Bool, Int, Float };
  Kind kind = Kind::Float;
  double floatValue = 0;
  /// The value of Int and Bool (0 or 1) literals.
  int64_t intValue = 0;
  /// The dtype it was written with; null for the dtype nvFuser gives a
  /// Python number of its kind (f64, i64, i1).
  Type type;

  static ScalarLiteral getFloat(double value, Type type = {});
  static ScalarLiteral getInt(int64_t value, Type type = {});
  static ScalarLiteral getBool(bool value, Type type = {});

  /// `type`, or the default dtype of the kind.
  Type getType(MLIRContext *context) const;
};

/// An operand of a pointwise op: a built value (tensor or scalar) or a
/// literal that is built once its type is known.
class Operand {
public:
  Operand(Value value) : value(value) {}
  Operand(ScalarLiteral literal) : literal(literal) {}

  bool isLiteral() const { return !value; }
  bool isTensor() const;
  Value getValue() const { return value; }
  const ScalarLiteral &getLiteral() const { return *literal; }
  /// The element type of the value, or the literal's dtype.
  Type getDType(MLIRContext *context) const;

private:
  Value value;
  std::optional<ScalarLiteral> literal;
};

/// How computeCommonType treats the common dtype (nvFuser's
/// TypePromotionConfig plus its cast_half_to_float flag).
struct PromotionConfig {
  /// Integer and bool results become f32 (nvFuser's float_op_config).
  bool promoteIntToFloat = false;
  /// f16/bf16 results become f32 (every arithmetic op but abs and where).
  bool castHalfToFloat = true;
};

/// The dtype nvFuser computes for `operands` (computeTypes).
Type computeCommonType(ArrayRef<Operand> operands, PromotionConfig config,
                       MLIRContext *context);

/// PyTorch's promoteTypes over the fuser element types (i1 < i32 < i64 <
/// f16, bf16 < f32 < f64; f16 with bf16 is f32).
Type promoteTypes(Type lhs, Type rhs);

/// How nvFuser promotes the operands of each elementwise op.
PromotionConfig getPromotionConfig(UnaryKind kind);
PromotionConfig getPromotionConfig(BinaryKind kind);
PromotionConfig getPromotionConfig(TernaryKind kind);
PromotionConfig getPromotionConfig(CompareKind kind);

/// What kind of mistake made the last build call fail.
enum class BuildErrorKind { None, Type, Value };

class FusionBuilder {
public:
  /// Builds at `builder`'s insertion point; ops get `loc` until setLoc.
  FusionBuilder(OpBuilder &builder, Location loc);

  Location getLoc() const { return loc; }
  void setLoc(Location newLoc) { loc = newLoc; }
  MLIRContext *getContext() const { return builder.getContext(); }
  BuildErrorKind getLastErrorKind() const { return lastErrorKind; }

  //--- Scalars and casts ----------------------------------------------------//

  /// `arith.constant` of `literal` in `type`; an error when an integer type
  /// cannot hold it.
  FailureOr<Value> constant(const ScalarLiteral &literal, Type type);
  /// nvFuser's castOp: `fuser.cast` to `elementType`, or `fuser.set` (a
  /// scalar: the value itself) when it already has that element type.
  FailureOr<Value> cast(Value value, Type elementType);
  /// `operand` with `elementType`: a literal as a constant, a value of
  /// another element type through `fuser.cast`, else the value.
  FailureOr<Value> materialize(const Operand &operand, Type elementType);

  //--- Pointwise ------------------------------------------------------------//

  /// The op of `kind` on the operands promoted with `config` (by default
  /// nvFuser's for that op, getPromotionConfig). The importer, whose input
  /// already shows every cast nvFuser made, passes castHalfToFloat = false.
  FailureOr<Value> unary(UnaryKind kind, const Operand &operand,
                         std::optional<PromotionConfig> config = {});
  FailureOr<Value> binary(BinaryKind kind, const Operand &lhs,
                          const Operand &rhs,
                          std::optional<PromotionConfig> config = {});
  FailureOr<Value> compare(CompareKind kind, const Operand &lhs,
                           const Operand &rhs,
                           std::optional<PromotionConfig> config = {});
  FailureOr<Value> ternary(TernaryKind kind, const Operand &first,
                           const Operand &second, const Operand &third,
                           std::optional<PromotionConfig> config = {});
  /// `condition` must be i1; lhs and rhs are promoted without turning
  /// f16/bf16 into f32.
  FailureOr<Value> where(const Operand &condition, const Operand &lhs,
                         const Operand &rhs);
  /// nvFuser's complex(re, im): both parts f32 or both f64.
  FailureOr<Value> complex(const Operand &re, const Operand &im);
  /// The real part of a complex value; a real value itself (a set of it, as
  /// in nvFuser).
  FailureOr<Value> real(Value value);
  /// The imaginary part of a complex value; an error for real values.
  FailureOr<Value> imag(Value value);
  /// `fuser.full` of `shape` filled with `fill` in `elementType`.
  FailureOr<Value> full(ArrayRef<int64_t> shape, const Operand &fill,
                        Type elementType);
  /// nvFuser's iota: `fuser.iota` of `length` elements `start + i * step`
  /// in `elementType` (start 0 and step 1 where not given). Start and step
  /// must be integers for an integer dtype and floats for a float one; they
  /// are cast to it.
  FailureOr<Value> iota(int64_t length, std::optional<Operand> start,
                        std::optional<Operand> step, Type elementType);
  /// nvFuser's uniform(minval, maxval, shape, rng_seed, rng_offset, dtype)
  /// (`normal` false) or normal(mean, std, ...) (`normal` true): `fuser.
  /// uniform` or `fuser.normal` of `shape` in `elementType` (f16, bf16, f32
  /// or f64), the parameters cast to f64 for f64 and to f32 otherwise, the
  /// seed and the offset to i64.
  FailureOr<Value> random(bool normal, ArrayRef<int64_t> shape,
                          const Operand &first, const Operand &second,
                          const Operand &seed, const Operand &offset,
                          Type elementType);
  /// `fuser.gather` of `source` at `index` along `dim` (negative counts
  /// from the end), checked as nvFuser's gather binding checks it.
  FailureOr<Value> gather(Value source, Value index, int64_t dim);
  /// `fuser.scatter` of `src` (a tensor, or a scalar filled over the index's
  /// shape) into `self` at `index` along `dim` (negative counts from the
  /// end), combined with `reduce` where given; src is cast to self's dtype
  /// (nvFuser casts it); checked as nvFuser's scatter binding checks it.
  FailureOr<Value> scatter(Value self, Value index, const Operand &src,
                           int64_t dim, std::optional<ReductionKind> reduce);
  /// nvFuser's matmul(a, b) (torch.matmul's shapes): `fuser.matmul`. Both
  /// must be f16, bf16, f32 or f64 tensors of one dtype (nvFuser defines an
  /// integer matmul, which ATen cannot run on a GPU).
  FailureOr<Value> matmul(Value lhs, Value rhs);
  /// nvFuser's linear(input, weight, bias) (F.linear's shapes, a 2-D
  /// weight; `bias` may be null): `fuser.linear`, dtypes as for matmul.
  FailureOr<Value> linear(Value input, Value weight, Value bias);
  /// nvFuser's unscaled grouped_mm(mat1, mat2, offsets): `fuser.grouped_mm`.
  /// f16, bf16 or f32 operands of one type and Int32 offsets, else a type
  /// error.
  FailureOr<Value> groupedMm(Value mat1, Value mat2, Value offsets);
  /// nvFuser's sdpfa_fwd(query, key, value, bias, mask, dropout_p,
  /// is_causal, scale): `fuser.sdpfa_fwd`, its (output, logsumexp,
  /// philox_seed, philox_offset). The tensors must be f16, bf16 or f32 of
  /// one dtype, the mask Bool; `bias` and `mask` may be null, and `seed`
  /// and `offset` (i64) are the dropout's Philox state, given exactly where
  /// dropoutP > 0.
  FailureOr<SmallVector<Value>>
  sdpfaFwd(Value query, Value key, Value value, Value bias, Value mask,
           double dropoutP, bool isCausal, std::optional<double> scale,
           Value seed = {}, Value offset = {});
  /// nvFuser's sdpfa_bwd(grad_output, query, key, value, output, logsumexp,
  /// dropout_p, is_causal, philox_seed, philox_offset, scale):
  /// `fuser.sdpfa_bwd`, its (grad_query, grad_key, grad_value).
  FailureOr<SmallVector<Value>>
  sdpfaBwd(Value gradOutput, Value query, Value key, Value value, Value output,
           Value logsumexp, double dropoutP, bool isCausal, Value philoxSeed,
           Value philoxOffset, std::optional<double> scale);
  /// nvFuser's triu (csrc/ops/composite.cpp): `source` where the column
  /// index minus the row index of its last two dims is at least `diagonal`,
  /// else 0: iotas of the rows and of the columns (shifted by -diagonal),
  /// broadcast, compared with `le` and selected with `where`.
  FailureOr<Value> triu(Value source, int64_t diagonal);

  //--- Data movement --------------------------------------------------------//

  /// `fuser.view`; one entry of `newShape` may be -1 (inferred).
  FailureOr<Value> reshape(Value source, ArrayRef<int64_t> newShape);
  /// Dims may be negative; each must have extent 1.
  FailureOr<Value> squeeze(Value source, ArrayRef<int64_t> dims);
  /// nvFuser's broadcast: `isBroadcastDim` has one entry per result dim;
  /// with no true entry the source is returned as it is.
  FailureOr<Value> broadcast(Value source, ArrayRef<bool> isBroadcastDim);
  /// `fuser.expand` to `shape` (-1 keeps an extent) where a size-1 extent
  /// grows, else `fuser.set`.
  FailureOr<Value> expand(Value source, ArrayRef<int64_t> shape);
  /// Source dim i becomes result dim broadcastDims[i] (increasing); the
  /// other result dims are new. broadcast, then expand (see above).
  FailureOr<Value> broadcastInDim(Value source, ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> broadcastDims);
  /// Result dim i is source dim dims[i] (negative dims wrap).
  FailureOr<Value> permute(Value source, ArrayRef<int64_t> dims);
  FailureOr<Value> set(Value source, std::optional<CacheOp> cacheOp = {});
  FailureOr<Value> segmentSet(Value source);
  /// nvFuser's slice with its normalization: negative indices count from
  /// the end, indices are clamped to [0, extent] and an end below its start
  /// becomes the start. Empty `strides` means 1.
  FailureOr<Value> slice(Value source, ArrayRef<int64_t> starts,
                         ArrayRef<int64_t> ends, ArrayRef<int64_t> strides);
  /// `widths` as the Python API takes them: (low, high) pairs, innermost dim
  /// first, for as many trailing dims as given. `value` defaults to 0.
  FailureOr<Value> pad(Value source, ArrayRef<int64_t> widths,
                       std::optional<Operand> value = std::nullopt);
  /// Every input has the same element type and rank; `dim` may be negative.
  FailureOr<Value> cat(ValueRange inputs, int64_t dim);

  //--- Reductions -----------------------------------------------------------//

  /// nvFuser's sum/prod/max/min over `dims` (negative dims wrap). Without
  /// `dtype`, sum and prod of ints and bools accumulate in i64; with it the
  /// source is cast to `dtype` first. max and min take no dtype.
  FailureOr<Value> reduction(ReductionKind kind, Value source,
                             ArrayRef<int64_t> dims, bool keepdim,
                             Type dtype = {});

  /// nvFuser's scan along `dim` (negative wraps): cumsum, cumprod, cummax,
  /// cummin; the result keeps the source's type. Bools scan as nvFuser's do
  /// (add and max: any so far; mul and min: all so far).
  FailureOr<Value> scan(ReductionKind kind, Value source, int64_t dim);

  /// nvFuser's argsort along `dim` (negative wraps): the i64 indices that
  /// sort each row, ascending or `descending`, stable; a 0-D tensor's is 0.
  FailureOr<Value> argsort(Value source, int64_t dim, bool descending);

  //--- Statistics (nvFuser's composites) ------------------------------------//

  /// The results of welford: per reduced row, the mean, the sum of squared
  /// deviations from it (M2) and the element count (i64).
  struct WelfordResult {
    Value avg, varSum, n;
  };
  /// nvFuser's var_mean and var (`correction` >= 0): var is
  /// var_sum / max(N - correction, 0) (inf or NaN where that is 0), in the
  /// dialect's two-pass form (docs/Python.md): mean = sum(x) / N, then
  /// var_sum = sum((x - mean)^2). f16/bf16 are computed and returned in
  /// f32, integers and bools in f64 (nvFuser's var gives Double for ints).
  FailureOr<std::pair<Value, Value>> varMean(Value source,
                                             ArrayRef<int64_t> dims,
                                             int64_t correction, bool keepdim);
  /// nvFuser's welford (WelfordRaw): the reduced dims are removed.
  FailureOr<WelfordResult> welford(Value source, ArrayRef<int64_t> dims);

private:
  /// mean and var_sum (both keepdim) and n of varMean and welford; `count`
  /// is set to N, the number of elements each row reduces, and
  /// `reducedDims` to the dims, wrapped and sorted.
  FailureOr<WelfordResult>
  buildTwoPassStatistics(Value source, ArrayRef<int64_t> dims, StringRef name,
                         int64_t &count, SmallVectorImpl<int64_t> &reducedDims);
  InFlightDiagnostic typeError();
  InFlightDiagnostic valueError();
  /// A type error unless every operand of library op `name` is an f16,
  /// bf16, f32 or f64 tensor.
  LogicalResult checkLibraryOperands(StringRef name, ValueRange operands);
  /// Wraps negative dims and checks the range; sorted unless `keepOrder`.
  FailureOr<SmallVector<int64_t>> normalizeDims(ArrayRef<int64_t> dims,
                                                int64_t rank, StringRef what,
                                                bool keepOrder = false);
  FailureOr<RankedTensorType> getTensorType(Value value, StringRef what);
  /// Leading size-1 dims so that every tensor has the largest rank.
  FailureOr<SmallVector<Value>> broadcastToCommonRank(ArrayRef<Value> values);
  FailureOr<SmallVector<Value>> promote(ArrayRef<Operand> operands,
                                        Type elementType);
  /// binary and compare: promotion, shape check, the op of `kind`.
  template <typename KindT>
  FailureOr<Value> buildBinaryLike(KindT kind, const Operand &lhs,
                                   const Operand &rhs, PromotionConfig config);
  template <typename OpTy, typename... Args>
  FailureOr<Value> buildInferred(Args &&...args);
  /// The same for an op of `count` results.
  template <typename OpTy, typename... Args>
  FailureOr<SmallVector<Value>> buildInferredResults(unsigned count,
                                                     Args &&...args);
  /// The dim of an indexing op (gather, scatter) of operands of `rank`,
  /// normalized, after nvFuser's checks of it and of the index's element
  /// type.
  FailureOr<int64_t> checkIndexing(StringRef name, int64_t rank, int64_t dim,
                                   Type indexElement);
  template <typename OpTy, typename... Args>
  FailureOr<Value> buildVerified(Type resultType, Args &&...args);

  OpBuilder &builder;
  Location loc;
  BuildErrorKind lastErrorKind = BuildErrorKind::None;
};

/// A fusion built call by call: a module with one `func.func` whose
/// arguments are added as inputs are defined and whose results are the
/// outputs added so far. The function is valid after every call.
class FusionFunction {
public:
  FusionFunction(MLIRContext *context, StringRef name, Location loc);

  ModuleOp getModule() { return *module; }
  func::FuncOp getFunc() { return func; }
  FusionBuilder &getBuilder() { return fusionBuilder; }

  /// A new argument (a tensor or a scalar type).
  BlockArgument addInput(Type type);
  void addOutput(Value value);

  /// Runs `build` (one builder call); when it fails, erases the ops it made
  /// before failing (such as the cast of one operand before the other is
  /// rejected), so that a caller that goes on after the error (Python code
  /// catching the exception) keeps the function as it was.
  FailureOr<Value> buildOrRollBack(function_ref<FailureOr<Value>()> build);

private:
  void updateFunctionType();

  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  func::ReturnOp returnOp;
  OpBuilder builder;
  FusionBuilder fusionBuilder;
};

} // namespace mlir::fuser

#endif // FUSER_FUSIONBUILDER_FUSIONBUILDER_H
