//===- F64Check.cpp - the interpreter against a float64 evaluation --------===//
//
// fuser-diff --check-f64 (docs/Testing.md). The fusion is widened (every
// float type to f64) and both are interpreted. A running error analysis then
// walks the widened fusion: beside each f64 value it holds, per element, a
// bound on |original - f64| (how far the interpreter's value of the original
// may be from the f64 run's), propagated op by op from the f64 values and
// the unit roundoffs of the original types. An element the analysis cannot
// bound (a NaN or an infinity, a possible overflow, a compare, a cast to an
// integer or a predicate within its bound of the discontinuity, an operand
// outside a function's domain, complex values) is excused, carrying the
// reason to everything computed from it, and counted; every other element
// must be within its bound (integers and i1 equal).
//
// The bound is written in f64; the analysis is its own code: the only part
// of the interpreter it runs is the data movement of the bounds through the
// meta ops (one-op functions on the f64 bound tensors), which the widened
// run shares anyway.
//
//===----------------------------------------------------------------------===//

#include "F64Check.h"

#include "fuser/Dialect/Fuser/IR/ElementSemantics.h"
#include "fuser/Dialect/Fuser/IR/ElementwiseKinds.h"
#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/ExecutionEngine/Elements.h"
#include "fuser/Interpreter/Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cfloat>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::detail;

//===----------------------------------------------------------------------===//
// Widening
//===----------------------------------------------------------------------===//

static Type widenElement(Type type) {
  Type f64 = Float64Type::get(type.getContext());
  if (isa<ComplexType>(type))
    return ComplexType::get(f64);
  if (isa<FloatType>(type))
    return f64;
  return type;
}

Type mlir::fuser::widenToF64(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(widenElement(tensor.getElementType()));
  return widenElement(type);
}

static APFloat toDouble(APFloat value) {
  bool losesInfo = false;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value;
}

/// The constant `value` in its widened type (every float value of the
/// narrower formats is exact in f64), or null when it holds complex values.
static Attribute widenConstant(Attribute value) {
  MLIRContext *context = value.getContext();
  Type f64 = Float64Type::get(context);
  if (auto floatAttr = dyn_cast<FloatAttr>(value))
    return FloatAttr::get(f64, toDouble(floatAttr.getValue()));
  if (auto dense = dyn_cast<DenseFPElementsAttr>(value))
    return dense.mapValues(f64, [](const APFloat &element) {
      return toDouble(element).bitcastToAPInt();
    });
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (isa<ComplexType>(getElementTypeOrSelf(typed.getType())))
      return nullptr;
  return value;
}

OwningOpRef<ModuleOp> mlir::fuser::widenFloatsToF64(ModuleOp module) {
  OwningOpRef<ModuleOp> wide = module.clone();
  bool widened = true;
  wide->walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          argument.setType(widenToF64(argument.getType()));
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      Attribute value = widenConstant(constant.getValue());
      if (!value) {
        widened = false;
        return;
      }
      constant.setValueAttr(cast<TypedAttr>(value));
    }
    for (OpResult result : op->getResults())
      result.setType(widenToF64(result.getType()));
    if (auto function = dyn_cast<func::FuncOp>(op)) {
      SmallVector<Type> inputs, results;
      for (Type type : function.getArgumentTypes())
        inputs.push_back(widenToF64(type));
      for (Type type : function.getResultTypes())
        results.push_back(widenToF64(type));
      function.setFunctionType(
          FunctionType::get(op->getContext(), inputs, results));
    }
  });
  if (!widened || failed(verify(*wide)))
    return nullptr;
  return wide;
}

static int64_t getNumElements(const Buffer &buffer) {
  int64_t count = 1;
  for (int64_t size : buffer.shape)
    count *= size;
  return count;
}

/// Element `i` of `buffer` as a double (exact for every real type but i64
/// beyond 2^53); complex elements are NaN.
static double loadDouble(const Buffer &buffer, int64_t i) {
  std::optional<ElemKind> kind = getElemKind(buffer.elementType);
  ArrayRef<uint8_t> bytes = buffer.getBytes();
  return visitElemKind(*kind, [&](auto tag) -> double {
    constexpr ElemKind K = decltype(tag)::kind;
    if constexpr (isComplexKind<K>) {
      return NAN;
    } else {
      StorageOf<K> storage;
      std::memcpy(&storage, bytes.data() + i * sizeof(storage),
                  sizeof(storage));
      return static_cast<double>(Elem<K>::load(storage));
    }
  });
}

Buffer mlir::fuser::widenBufferToF64(const Buffer &buffer) {
  Type wideType = widenElement(buffer.elementType);
  if (wideType == buffer.elementType)
    return buffer;
  Buffer wide;
  wide.elementType = wideType;
  wide.shape = buffer.shape;
  wide.isScalar = buffer.isScalar;
  int64_t count = getNumElements(buffer);
  std::optional<ElemKind> kind = getElemKind(buffer.elementType);
  ArrayRef<uint8_t> bytes = buffer.getBytes();
  if (kind == ElemKind::C64) {
    wide.bytes.resize(count * 2 * sizeof(double), 0);
    for (int64_t i = 0; i < 2 * count; ++i) {
      float part;
      std::memcpy(&part, bytes.data() + i * sizeof(float), sizeof(float));
      double widePart = part;
      std::memcpy(wide.bytes.data() + i * sizeof(double), &widePart,
                  sizeof(double));
    }
    return wide;
  }
  wide.bytes.resize(count * sizeof(double), 0);
  for (int64_t i = 0; i < count; ++i) {
    double value = loadDouble(buffer, i);
    std::memcpy(wide.bytes.data() + i * sizeof(double), &value,
                sizeof(double));
  }
  return wide;
}

//===----------------------------------------------------------------------===//
// The running error analysis
//===----------------------------------------------------------------------===//

namespace {

/// Why an element is excused. A bound is a double: >= 0 is the bound, a
/// negative value -reason marks an excused element (and moves through the
/// meta ops bit for bit like any bound).
enum Excuse : int {
  kNotFinite = 1,
  kOverflow,
  kDiscontinuity,
  kDomain,
  kComplex,
  kRandom,
  kScatterCombine,
  kUnanalysed,
};

const char *describeExcuse(int reason) {
  switch (reason) {
  case kNotFinite:
    return "NaN or infinity in the f64 run";
  case kOverflow:
    return "the bound reaches the largest finite value of the type";
  case kDiscontinuity:
    return "a compare, cast to an integer, predicate or step within its "
           "bound of the discontinuity";
  case kDomain:
    return "an operand within its bound of a pole or the edge of the domain";
  case kComplex:
    return "complex values (not analysed)";
  case kRandom:
    return "random numbers (the widened op draws an f64 stream of its own)";
  case kScatterCombine:
    return "a scatter's combined elements (its plain writes are bounded)";
  default:
    return "an op the analysis does not model";
  }
}

double excuse(Excuse reason) { return -static_cast<double>(reason); }
bool isExcused(double bound) { return bound < 0 || std::isnan(bound); }

/// "op: reason" for the elements `op` excuses itself.
std::string getOrigin(Operation *op, double bound) {
  return op->getName().getStringRef().str() + ": " +
         describeExcuse(static_cast<int>(-bound));
}

/// Unit roundoff, the absolute error of an underflowing rounding, and the
/// largest finite value of a float type.
struct FloatFormat {
  double u, eta, maxFinite;
};

std::optional<FloatFormat> getFormat(Type type) {
  if (type.isF64())
    return FloatFormat{0x1p-53, 0x1p-1074, DBL_MAX};
  if (type.isF32())
    return FloatFormat{0x1p-24, 0x1p-150, FLT_MAX};
  if (type.isF16())
    return FloatFormat{0x1p-11, 0x1p-25, 65504};
  if (type.isBF16())
    return FloatFormat{0x1p-8, 0x1p-134, 0x1.fep127};
  if (isa<Float8E4M3FNType>(type))
    return FloatFormat{0x1p-4, 0x1p-10, 448};
  if (isa<Float8E5M2Type>(type))
    return FloatFormat{0x1p-3, 0x1p-17, 57344};
  return std::nullopt;
}

constexpr FloatFormat kF64{0x1p-53, 0x1p-1074, DBL_MAX};
constexpr FloatFormat kF32{0x1p-24, 0x1p-150, FLT_MAX};

/// The type the interpreter computes `type` in: f64 in f64, the rest in f32.
FloatFormat getComputeFormat(Type type) { return type.isF64() ? kF64 : kF32; }

/// The relative and absolute error one op adds, beside what it propagates:
/// |original - f64| grows by at most rel * (|r| + propagated) + abs.
struct Rounding {
  double rel = 0, abs = 0;
};

/// An op computed in the compute type of `type` within `ulps32` (f32) or
/// `ulps64` (f64) ulp of the correctly rounded value (0: correctly rounded),
/// stored in `type`; the f64 run computes it within `ulps64`.
Rounding opRounding(Type type, unsigned ulps32, unsigned ulps64) {
  FloatFormat storage = *getFormat(type);
  FloatFormat compute = getComputeFormat(type);
  unsigned ulps = type.isF64() ? ulps64 : ulps32;
  Rounding rounding;
  rounding.rel = (2 * ulps + 1) * compute.u + (2 * ulps64 + 1) * kF64.u;
  rounding.abs = (2 * ulps + 1) * compute.eta + kF64.eta;
  if (!type.isF64() && !type.isF32()) {
    rounding.rel += storage.u;
    rounding.abs += storage.eta;
  }
  return rounding;
}

/// One rounding into `type` (a cast), exact in the f64 run but for integers
/// beyond 2^53.
Rounding storeRounding(Type type) {
  FloatFormat storage = *getFormat(type);
  return {storage.u + kF64.u, storage.eta};
}

/// The measured accuracy of the math-library ops (docs/Interpreter.md,
/// "Accuracy of the math-library ops") plus one ulp of margin: the table
/// is a maximum over sampled inputs, not a proof.
std::pair<unsigned, unsigned> getMathUlps(UnaryKind kind) {
  switch (kind) {
  case UnaryKind::Log:
    return {2, 1};
  case UnaryKind::Exp2:
  case UnaryKind::Log2:
  case UnaryKind::Erfinv:
  case UnaryKind::Erfcinv:
    return {1, 2};
  case UnaryKind::Tanh:
  case UnaryKind::Erfc:
  case UnaryKind::Sigmoid:
  case UnaryKind::Silu:
    return {3, 3};
  case UnaryKind::Lgamma:
    return {4, 3};
  default:
    return {2, 2};
  }
}

/// The f64 value of a monotone or piecewise-known unary function, as the
/// f64 run computes it.
double evaluate(UnaryKind kind, double x) {
  using namespace semantics;
  switch (kind) {
  case UnaryKind::Exp:
    return applyUnary<UnaryKind::Exp>(x);
  case UnaryKind::Log:
    return applyUnary<UnaryKind::Log>(x);
  case UnaryKind::Sqrt:
    return applyUnary<UnaryKind::Sqrt>(x);
  case UnaryKind::Rsqrt:
    return applyUnary<UnaryKind::Rsqrt>(x);
  case UnaryKind::Reciprocal:
    return applyUnary<UnaryKind::Reciprocal>(x);
  case UnaryKind::Tanh:
    return applyUnary<UnaryKind::Tanh>(x);
  case UnaryKind::Sigmoid:
    return applyUnary<UnaryKind::Sigmoid>(x);
  case UnaryKind::Acos:
    return applyUnary<UnaryKind::Acos>(x);
  case UnaryKind::Acosh:
    return applyUnary<UnaryKind::Acosh>(x);
  case UnaryKind::Asin:
    return applyUnary<UnaryKind::Asin>(x);
  case UnaryKind::Asinh:
    return applyUnary<UnaryKind::Asinh>(x);
  case UnaryKind::Atan:
    return applyUnary<UnaryKind::Atan>(x);
  case UnaryKind::Atanh:
    return applyUnary<UnaryKind::Atanh>(x);
  case UnaryKind::Sinh:
    return applyUnary<UnaryKind::Sinh>(x);
  case UnaryKind::Cosh:
    return applyUnary<UnaryKind::Cosh>(x);
  case UnaryKind::Tan:
    return applyUnary<UnaryKind::Tan>(x);
  case UnaryKind::Erf:
    return applyUnary<UnaryKind::Erf>(x);
  case UnaryKind::Erfc:
    return applyUnary<UnaryKind::Erfc>(x);
  case UnaryKind::Erfinv:
    return applyUnary<UnaryKind::Erfinv>(x);
  case UnaryKind::Erfcinv:
    return applyUnary<UnaryKind::Erfcinv>(x);
  case UnaryKind::Exp2:
    return applyUnary<UnaryKind::Exp2>(x);
  case UnaryKind::Expm1:
    return applyUnary<UnaryKind::Expm1>(x);
  case UnaryKind::Lgamma:
    return applyUnary<UnaryKind::Lgamma>(x);
  case UnaryKind::Log10:
    return applyUnary<UnaryKind::Log10>(x);
  case UnaryKind::Log1p:
    return applyUnary<UnaryKind::Log1p>(x);
  case UnaryKind::Log2:
    return applyUnary<UnaryKind::Log2>(x);
  case UnaryKind::Silu:
    return applyUnary<UnaryKind::Silu>(x);
  case UnaryKind::Ceil:
    return applyUnary<UnaryKind::Ceil>(x);
  case UnaryKind::Floor:
    return applyUnary<UnaryKind::Floor>(x);
  case UnaryKind::Trunc:
    return applyUnary<UnaryKind::Trunc>(x);
  case UnaryKind::Round:
    return applyUnary<UnaryKind::Round>(x);
  case UnaryKind::Sign:
    return applyUnary<UnaryKind::Sign>(x);
  default:
    break;
  }
  return NAN;
}

/// max |f(y) - f(x)| over y in [x - e, x + e] for f continuous on it and
/// monotone between the points of `extrema` (its turning points); a
/// negative excuse when f is not finite there.
double imageBound(UnaryKind kind, double x, double e, double r,
                  ArrayRef<double> extrema = {}) {
  if (e == 0)
    return 0;
  double bound = 0;
  auto at = [&](double y) {
    double value = evaluate(kind, y);
    if (!std::isfinite(value))
      return false;
    // The f64 evaluations err too (a few ulp of f64).
    bound = std::max(bound, std::fabs(value - r) +
                                4 * kF64.u * (std::fabs(value) + std::fabs(r)));
    return true;
  };
  if (!at(x - e) || !at(x + e))
    return excuse(kDomain);
  for (double point : extrema)
    if (point > x - e && point < x + e && !at(point))
      return excuse(kDomain);
  return bound;
}

/// A bound on |f(x_o) - f(x_w)| for |x_o - x_w| <= e.
double unaryBound(UnaryKind kind, double x, double e, double r) {
  switch (kind) {
  case UnaryKind::Neg:
  case UnaryKind::Abs:
  case UnaryKind::Relu:
    return e;
  case UnaryKind::Sin:
  case UnaryKind::Cos:
    return std::min(e, 2.0);
  case UnaryKind::Cosh:
    return imageBound(kind, x, e, r, {0.0});
  case UnaryKind::Silu:
    return imageBound(kind, x, e, r, {-1.2784645427610738});
  case UnaryKind::Lgamma:
    // Positive arguments only: poles and turning points crowd below zero.
    if (x - e <= 0)
      return excuse(kDomain);
    return imageBound(kind, x, e, r, {1.4616321449683623});
  case UnaryKind::Reciprocal:
  case UnaryKind::Rsqrt:
  case UnaryKind::Log:
  case UnaryKind::Log2:
  case UnaryKind::Log10:
    if (std::fabs(x) <= e)
      return excuse(kDomain);
    return imageBound(kind, x, e, r);
  case UnaryKind::Tan: {
    // Monotone between poles at pi/2 + k pi.
    if (std::floor((x - e) / M_PI + 0.5) != std::floor((x + e) / M_PI + 0.5))
      return excuse(kDomain);
    return imageBound(kind, x, e, r);
  }
  case UnaryKind::Frac:
    if (e > 0 && (std::trunc(x - e) != std::trunc(x + e) ||
                  (x - e < 0) != (x + e < 0)))
      return excuse(kDiscontinuity);
    return e;
  default:
    // The rest are monotone (ceil, floor, trunc, round and sign too: their
    // image of the interval bounds the step they may take).
    return imageBound(kind, x, e, r);
  }
}

/// Whether the float `x` (bound `e`) may be on either side of `at`: a test
/// against it is not decided.
bool straddles(double x, double e, double at) {
  return e > 0 && std::fabs(x - at) <= e;
}

/// fuser.cast's float to integer conversion: trunc, saturating, NaN 0.
double toInteger(double x, Type type) {
  double limit = std::ldexp(1.0, type.getIntOrFloatBitWidth() - 1);
  if (std::isnan(x))
    return 0;
  if (x >= limit)
    return limit - 1;
  if (x < -limit)
    return -limit;
  return std::trunc(x);
}

/// Row-major strides of `shape` for reading an operand of `shape` at the
/// indices of a result of `resultShape` (0 along broadcast dims); all 0 for
/// a scalar.
SmallVector<int64_t> broadcastStrides(const Buffer &operand,
                                      ArrayRef<int64_t> resultShape) {
  SmallVector<int64_t> strides(resultShape.size(), 0);
  if (operand.isScalar || operand.shape.size() != resultShape.size())
    return strides;
  int64_t stride = 1;
  for (int64_t d = resultShape.size() - 1; d >= 0; --d) {
    strides[d] = operand.shape[d] == 1 ? 0 : stride;
    stride *= operand.shape[d];
  }
  return strides;
}

double getBound(const Buffer &bounds, int64_t i) {
  double value;
  std::memcpy(&value, bounds.bytes.data() + i * sizeof(double),
              sizeof(double));
  return value;
}

Buffer makeBounds(const Buffer &like) {
  Buffer bounds;
  bounds.elementType = Float64Type::get(like.elementType.getContext());
  bounds.shape = like.shape;
  bounds.isScalar = like.isScalar;
  bounds.bytes.assign(getNumElements(like) * sizeof(double), 0);
  return bounds;
}

void setBound(Buffer &bounds, int64_t i, double value) {
  std::memcpy(bounds.bytes.data() + i * sizeof(double), &value,
              sizeof(double));
}

/// `bound` on a result `r` of `format` with a little slack for the bound's
/// own rounding in f64, or excused where `r` within it may overflow.
double withSlack(double bound, double r, const FloatFormat &format) {
  bound *= 1 + 0x1p-40;
  if (!(std::fabs(r) + bound < format.maxFinite))
    return excuse(kOverflow);
  return bound;
}

class ErrorAnalysis {
public:
  ErrorAnalysis(DenseMap<Value, Buffer> &values) : values(values) {}

  /// Computes the bounds of the results of `wideOp` (the widening of
  /// `op`); failure when the one-op interpretation of a meta op fails.
  LogicalResult visit(Operation *op, Operation *wideOp);

  DenseMap<Value, Buffer> bounds;
  /// Elements excused where they first were, by op and reason.
  std::map<std::string, uint64_t> origins;

private:
  /// Per element of the result: the bound from `rule(x, e, r)` over the
  /// broadcast operands, excused operands passing their reason on, plus
  /// `rounding`, then the checks of a float result of `resultType`.
  template <typename Rule>
  void elementwise(Operation *wideOp, Type resultType, Rounding rounding,
                   Rule rule);
  void reduction(ReductionOp op, Operation *wideOp);
  /// Each prefix as a sequential reduction of its elements.
  void scan(ScanOp op, Operation *wideOp);
  void argsort(ArgsortOp op, Operation *wideOp);
  /// start + i * step: two roundings in the compute type, then the store.
  void iotaBounds(IotaOp op, Operation *wideOp);
  LogicalResult moveBounds(Operation *wideOp);
  /// Excuses every element of every result.
  void excuseAll(Operation *wideOp, Excuse reason);

  DenseMap<Value, Buffer> &values;
};

template <typename Rule>
void ErrorAnalysis::elementwise(Operation *wideOp, Type resultType,
                                Rounding rounding, Rule rule) {
  Value result = wideOp->getResult(0);
  const Buffer &resultValue = values.find(result)->second;
  Buffer resultBounds = makeBounds(resultValue);
  ArrayRef<int64_t> shape = resultValue.shape;
  unsigned n = wideOp->getNumOperands();
  SmallVector<const Buffer *> operandValues, operandBounds;
  SmallVector<SmallVector<int64_t>> strides;
  for (Value operand : wideOp->getOperands()) {
    operandValues.push_back(&values.find(operand)->second);
    operandBounds.push_back(&bounds.find(operand)->second);
    if (!operandValues.back()->isScalar &&
        operandValues.back()->shape.size() != shape.size()) {
      excuseAll(wideOp, kUnanalysed);
      return;
    }
    strides.push_back(broadcastStrides(*operandValues.back(), shape));
  }
  std::optional<FloatFormat> format = getFormat(resultType);
  SmallVector<int64_t> index(shape.size(), 0);
  SmallVector<int64_t> offsets(n, 0);
  SmallVector<double, 3> x(n), e(n);
  int64_t count = getNumElements(resultValue);
  for (int64_t i = 0; i < count; ++i) {
    double bound = 0;
    bool excused = false;
    for (unsigned j = 0; j < n; ++j) {
      x[j] = loadDouble(*operandValues[j], offsets[j]);
      e[j] = getBound(*operandBounds[j], offsets[j]);
      if (isExcused(e[j]) && !excused) {
        bound = e[j];
        excused = true;
      }
    }
    if (!excused) {
      double r = loadDouble(resultValue, i);
      // An infinite operand (an infinite constant, an overflow of the f64
      // run) is not bounded.
      if (llvm::any_of(x, [](double v) { return !std::isfinite(v); }))
        bound = excuse(kNotFinite);
      else
        bound = rule(ArrayRef<double>(x), ArrayRef<double>(e), r);
      if (std::isnan(bound))
        bound = excuse(kNotFinite);
      if (!isExcused(bound) && format) {
        if (!std::isfinite(r)) {
          bound = excuse(kNotFinite);
        } else {
          bound += rounding.rel * (std::fabs(r) + bound) + rounding.abs;
          bound = withSlack(bound, r, *format);
        }
      }
      if (isExcused(bound))
        ++origins[getOrigin(wideOp, bound)];
    }
    setBound(resultBounds, i, bound);
    // Next index, row-major.
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      for (unsigned j = 0; j < n; ++j)
        offsets[j] += strides[j][d];
      if (++index[d] < shape[d])
        break;
      for (unsigned j = 0; j < n; ++j)
        offsets[j] -= strides[j][d] * shape[d];
      index[d] = 0;
    }
  }
  bounds[result] = std::move(resultBounds);
}

void ErrorAnalysis::iotaBounds(IotaOp op, Operation *wideOp) {
  Value result = wideOp->getResult(0);
  const Buffer &resultValue = values.find(result)->second;
  Buffer resultBounds = makeBounds(resultValue);
  Type type = op.getType().getElementType();
  std::optional<FloatFormat> format = getFormat(type);
  if (!format) {
    // Integers: exact in both runs.
    bounds[result] = std::move(resultBounds);
    return;
  }
  double start = loadDouble(values.find(wideOp->getOperand(0))->second, 0);
  double step = loadDouble(values.find(wideOp->getOperand(1))->second, 0);
  double startBound = getBound(bounds.find(wideOp->getOperand(0))->second, 0);
  double stepBound = getBound(bounds.find(wideOp->getOperand(1))->second, 0);
  FloatFormat compute = getComputeFormat(type);
  Rounding product = {compute.u + kF64.u, compute.eta + kF64.eta};
  Rounding sum = opRounding(type, 0, 0);
  for (int64_t i = 0, e = getNumElements(resultValue); i < e; ++i) {
    double r = loadDouble(resultValue, i);
    double bound;
    if (isExcused(startBound)) {
      bound = startBound;
    } else if (isExcused(stepBound)) {
      bound = stepBound;
    } else if (!std::isfinite(start) || !std::isfinite(step) ||
               !std::isfinite(r)) {
      bound = excuse(kNotFinite);
    } else {
      double p = step * double(i);
      double pBound = double(i) * stepBound;
      pBound += product.rel * (std::fabs(p) + pBound) + product.abs;
      bound = startBound + pBound;
      bound += sum.rel * (std::fabs(r) + bound) + sum.abs;
      bound = withSlack(bound, r, *format);
    }
    if (isExcused(bound))
      ++origins[getOrigin(wideOp, bound)];
    setBound(resultBounds, i, bound);
  }
  bounds[result] = std::move(resultBounds);
}

void ErrorAnalysis::excuseAll(Operation *wideOp, Excuse reason) {
  for (Value result : wideOp->getResults()) {
    Buffer resultBounds = makeBounds(values.find(result)->second);
    int64_t count = getNumElements(resultBounds);
    for (int64_t i = 0; i < count; ++i)
      setBound(resultBounds, i, excuse(reason));
    origins[getOrigin(wideOp, excuse(reason))] += count;
    bounds[result] = std::move(resultBounds);
  }
}

/// Depth of the interpreter's pairwise sum of n elements: up to 8 in
/// sequence, longer ranges as two halves (docs/Interpreter.md, Reductions).
unsigned pairwiseDepth(int64_t n) {
  if (n <= 8)
    return n;
  return 1 + pairwiseDepth(n - n / 2);
}

/// The elements a reduction, or a scan's prefix, has combined so far: what
/// the bound of their combination needs, and the first excuse among them.
struct Accumulator {
  double sumBound = 0, sumAbs = 0, maxBound = 0, upper = 1, product = 1,
         large = 1;
  int64_t n = 0;
  double excused = 0;

  /// Combines an element `value` within `e`.
  void add(double value, double e) {
    double x = std::fabs(value);
    ++n;
    if (!std::isfinite(x) && !isExcused(e))
      e = excuse(kNotFinite);
    if (isExcused(e)) {
      if (!excused)
        excused = e;
      return;
    }
    sumBound += e;
    sumAbs += x + e;
    maxBound = std::max(maxBound, e);
    upper *= x + e;
    product *= x;
    large *= std::max(1.0, x + e);
  }

  /// The bound on `r`, the combination by `kind` of the elements so far in
  /// `type` (f16 and bf16 accumulate in f32 and round once at the end),
  /// `depth` roundings deep; an element's excuse passes on.
  double bound(ReductionKind kind, Type type, double r, double depth) const {
    std::optional<FloatFormat> format = getFormat(type);
    if (excused)
      return excused;
    if (!format)
      return 0; // Integers: exact in both runs.
    if (!std::isfinite(r))
      return excuse(kNotFinite);
    FloatFormat compute = getComputeFormat(type);
    auto gamma = [&](double u) { return depth * u / (1 - depth * u); };
    double bound = 0;
    switch (kind) {
    case ReductionKind::Add:
      bound = sumBound + gamma(compute.u) * sumAbs + gamma(kF64.u) * sumAbs;
      if (!(sumAbs * (1 + gamma(compute.u)) < compute.maxFinite))
        return excuse(kOverflow);
      break;
    case ReductionKind::Mul:
      bound = (upper - product) + gamma(compute.u) * upper +
              gamma(kF64.u) * upper + depth * compute.eta * large;
      if (!(upper * (1 + gamma(compute.u)) < compute.maxFinite))
        return excuse(kOverflow);
      break;
    case ReductionKind::Max:
    case ReductionKind::Min:
      bound = maxBound;
      break;
    }
    if (!type.isF32() && !type.isF64())
      bound += format->u * (std::fabs(r) + bound) + format->eta;
    return withSlack(bound, r, *format);
  }
};

void ErrorAnalysis::reduction(ReductionOp op, Operation *wideOp) {
  Value source = wideOp->getOperand(0), result = wideOp->getResult(0);
  const Buffer &sourceValue = values.find(source)->second;
  const Buffer &sourceBounds = bounds.find(source)->second;
  const Buffer &resultValue = values.find(result)->second;
  Buffer resultBounds = makeBounds(resultValue);
  ArrayRef<int64_t> shape = sourceValue.shape;
  SmallVector<bool> reduced(shape.size(), false);
  for (int64_t d : op.getDims())
    reduced[d] = true;
  // The output offset of each source index: the kept dims, row-major.
  SmallVector<int64_t> outStrides(shape.size(), 0);
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d)
    if (!reduced[d]) {
      outStrides[d] = stride;
      stride *= shape[d];
    }
  int64_t outCount = getNumElements(resultValue);
  std::vector<Accumulator> accumulators(outCount);
  SmallVector<int64_t> index(shape.size(), 0);
  int64_t out = 0;
  int64_t count = getNumElements(sourceValue);
  for (int64_t i = 0; i < count; ++i) {
    accumulators[out].add(loadDouble(sourceValue, i),
                          getBound(sourceBounds, i));
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      out += outStrides[d];
      if (++index[d] < shape[d])
        break;
      out -= outStrides[d] * shape[d];
      index[d] = 0;
    }
  }
  Type type = getElementTypeOrSelf(op.getType());
  for (int64_t o = 0; o < outCount; ++o) {
    const Accumulator &a = accumulators[o];
    double bound = a.bound(op.getKind(), type, loadDouble(resultValue, o),
                           pairwiseDepth(a.n));
    // Excuses of the source were counted where they started.
    if (isExcused(bound) && !a.excused)
      ++origins[getOrigin(wideOp, bound)];
    setBound(resultBounds, o, bound);
  }
  bounds[result] = std::move(resultBounds);
}

/// Element i of a row is the sequential combination of elements 0..i from
/// the identity (docs/Interpreter.md), each step rounded in the compute
/// type: bounded as a reduction of the prefix, its length as the depth.
/// Calls visit(at) for each row of a row-major tensor of `shape` along
/// `dim`, where at(p) is the offset of the row's element p.
static void forEachRow(ArrayRef<int64_t> shape, int64_t dim,
                       function_ref<void(function_ref<int64_t(int64_t)>)> visit) {
  int64_t extent = shape[dim], inner = 1, outer = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= shape[d];
  for (int64_t d = dim + 1; d < static_cast<int64_t>(shape.size()); ++d)
    inner *= shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in)
      visit([&](int64_t p) { return (o * extent + p) * inner + in; });
}

void ErrorAnalysis::scan(ScanOp op, Operation *wideOp) {
  Value source = wideOp->getOperand(0), result = wideOp->getResult(0);
  const Buffer &sourceValue = values.find(source)->second;
  const Buffer &sourceBounds = bounds.find(source)->second;
  const Buffer &resultValue = values.find(result)->second;
  Buffer resultBounds = makeBounds(resultValue);
  int64_t extent = sourceValue.shape[op.getDim()];
  Type type = getElementTypeOrSelf(op.getType());
  forEachRow(sourceValue.shape, op.getDim(), [&](auto at) {
    Accumulator a;
    for (int64_t p = 0; p < extent; ++p) {
      int64_t i = at(p);
      a.add(loadDouble(sourceValue, i), getBound(sourceBounds, i));
      double bound =
          a.bound(op.getKind(), type, loadDouble(resultValue, i), a.n);
      if (isExcused(bound) && !a.excused)
        ++origins[getOrigin(wideOp, bound)];
      setBound(resultBounds, i, bound);
    }
  });
  bounds[result] = std::move(resultBounds);
}

/// An argsort's indices are exact where its row's keys are: where two keys
/// of a row are apart by less than their bounds (or one is excused), the
/// order may differ and the whole row is excused as a discontinuity.
void ErrorAnalysis::argsort(ArgsortOp op, Operation *wideOp) {
  Value source = wideOp->getOperand(0), result = wideOp->getResult(0);
  const Buffer &keys = values.find(source)->second;
  const Buffer &keyBounds = bounds.find(source)->second;
  Buffer resultBounds = makeBounds(values.find(result)->second);
  int64_t extent = keys.shape[op.getDim()];
  forEachRow(keys.shape, op.getDim(), [&](auto at) {
    bool mayReorder = false;
    for (int64_t p = 0; p < extent && !mayReorder; ++p) {
      double x = loadDouble(keys, at(p)), e = getBound(keyBounds, at(p));
      for (int64_t q = p + 1; q < extent && !mayReorder; ++q) {
        double y = loadDouble(keys, at(q)), f = getBound(keyBounds, at(q));
        mayReorder = isExcused(e) || isExcused(f) ||
                     ((x != y || e + f > 0) && std::abs(x - y) <= e + f);
      }
    }
    if (mayReorder)
      ++origins[getOrigin(wideOp, excuse(kDiscontinuity))];
    for (int64_t p = 0; p < extent; ++p)
      setBound(resultBounds, at(p), mayReorder ? excuse(kDiscontinuity) : 0);
  });
  bounds[result] = std::move(resultBounds);
}

/// The meta ops move elements without computing: the same op on the f64
/// bound tensors moves the bounds (a pad's new elements get its pad
/// value's bound, a full's its fill's).
LogicalResult ErrorAnalysis::moveBounds(Operation *wideOp) {
  MLIRContext *context = wideOp->getContext();
  Location loc = wideOp->getLoc();
  Type f64 = Float64Type::get(context);
  auto toF64 = [&](Type type) -> Type {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      return tensor.clone(f64);
    return f64;
  };
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder builder = OpBuilder::atBlockEnd(module->getBody());
  // A gather's index is data, not a value with a bound: it moves the
  // bounds at the indices the run read.
  auto isIndex = [&](unsigned operand) {
    return isa<GatherOp, ScatterOp>(wideOp) && operand == 1;
  };
  SmallVector<Type> argumentTypes, resultTypes;
  for (auto [i, type] : llvm::enumerate(wideOp->getOperandTypes()))
    argumentTypes.push_back(isIndex(i) ? type : toF64(type));
  for (Type type : wideOp->getResultTypes())
    resultTypes.push_back(toF64(type));
  auto function =
      func::FuncOp::create(builder, loc, "bounds",
                           builder.getFunctionType(argumentTypes, resultTypes));
  Block *block = function.addEntryBlock();
  builder.setInsertionPointToStart(block);
  IRMapping mapping;
  mapping.map(wideOp->getOperands(), block->getArguments());
  Operation *clone = builder.clone(*wideOp, mapping);
  for (auto [result, type] : llvm::zip_equal(clone->getResults(), resultTypes))
    result.setType(type);
  func::ReturnOp::create(builder, loc, clone->getResults());
  SmallVector<Buffer> inputs;
  for (auto [i, operand] : llvm::enumerate(wideOp->getOperands()))
    inputs.push_back(isIndex(i) ? values.find(operand)->second
                                : bounds.find(operand)->second);
  FailureOr<SmallVector<Buffer>> moved = interpret(function, inputs);
  if (failed(moved))
    return failure();
  for (auto [result, movedBounds] :
       llvm::zip_equal(wideOp->getResults(), *moved))
    bounds[result] = std::move(movedBounds);
  return success();
}

LogicalResult ErrorAnalysis::visit(Operation *op, Operation *wideOp) {
  if (wideOp->getNumResults() == 0)
    return success();
  // Complex values are not analysed: their elements (and what is computed
  // from them) are excused.
  auto isComplexValue = [](Value value) {
    return isa<ComplexType>(getElementTypeOrSelf(value.getType()));
  };
  if (llvm::any_of(op->getOperands(), isComplexValue) ||
      llvm::any_of(op->getResults(), isComplexValue)) {
    excuseAll(wideOp, kComplex);
    return success();
  }
  if (isa<arith::ConstantOp>(op)) {
    bounds[wideOp->getResult(0)] =
        makeBounds(values.find(wideOp->getResult(0))->second);
    return success();
  }
  if (isa<ViewOp, SqueezeOp, BroadcastOp, ExpandOp, SetOp, SegmentSetOp,
          PermuteOp, SliceOp, PadOp, CatOp, FullOp, GatherOp>(op))
    return moveBounds(wideOp);
  // A scatter moves its writes with their bounds (excused ones too). Its
  // combined elements are excused: a max of bounds would let an operand's
  // bound hide another's excuse (a negative bound).
  if (auto scatter = dyn_cast<ScatterOp>(op)) {
    if (!scatter.getReduce())
      return moveBounds(wideOp);
    excuseAll(wideOp, kScatterCombine);
    return success();
  }
  if (auto sort = dyn_cast<ArgsortOp>(op)) {
    argsort(sort, wideOp);
    return success();
  }
  if (isa<UniformOp, NormalOp>(op)) {
    excuseAll(wideOp, kRandom);
    return success();
  }
  if (auto iota = dyn_cast<IotaOp>(op)) {
    iotaBounds(iota, wideOp);
    return success();
  }
  if (auto reductionOp = dyn_cast<ReductionOp>(op)) {
    reduction(reductionOp, wideOp);
    return success();
  }
  if (auto scanOp = dyn_cast<ScanOp>(op)) {
    scan(scanOp, wideOp);
    return success();
  }

  Type resultType = getElementTypeOrSelf(op->getResult(0).getType());
  Type operandType = op->getNumOperands()
                         ? getElementTypeOrSelf(op->getOperand(0).getType())
                         : resultType;
  bool floatOperands = isa<FloatType>(operandType);

  if (auto cast = dyn_cast<CastOp>(op)) {
    if (floatOperands && isa<FloatType>(resultType)) {
      FloatFormat from = *getFormat(operandType), to = *getFormat(resultType);
      bool exact = to.u <= from.u && to.eta <= from.eta &&
                   to.maxFinite >= from.maxFinite;
      elementwise(wideOp, resultType,
                  exact ? Rounding() : storeRounding(resultType),
                  [](ArrayRef<double>, ArrayRef<double> e, double) {
                    return e[0];
                  });
    } else if (floatOperands && resultType.isInteger(1)) {
      elementwise(wideOp, resultType, {},
                  [](ArrayRef<double> x, ArrayRef<double> e, double) {
                    return straddles(x[0], e[0], 0) ? excuse(kDiscontinuity)
                                                    : 0.0;
                  });
    } else if (floatOperands) {
      elementwise(wideOp, resultType, {},
                  [&](ArrayRef<double> x, ArrayRef<double> e, double) {
                    return toInteger(x[0] - e[0], resultType) ==
                                   toInteger(x[0] + e[0], resultType)
                               ? 0.0
                               : excuse(kDiscontinuity);
                  });
    } else {
      // From an integer or i1: exact operands, one rounding into a float.
      elementwise(wideOp, resultType,
                  isa<FloatType>(resultType) ? storeRounding(resultType)
                                             : Rounding(),
                  [](ArrayRef<double>, ArrayRef<double>, double) {
                    return 0.0;
                  });
    }
    return success();
  }

  if (isa<WhereOp>(op)) {
    // The condition is exact unless excused (elementwise passes that on).
    elementwise(wideOp, resultType, {},
                [](ArrayRef<double> x, ArrayRef<double> e, double) {
                  return x[0] != 0 ? e[1] : e[2];
                });
    return success();
  }

  if (!floatOperands) {
    // Integer and i1 ops: exact in both runs.
    elementwise(wideOp, resultType, {},
                [](ArrayRef<double>, ArrayRef<double>, double) { return 0.0; });
    return success();
  }

  if (std::optional<UnaryKind> kind = getUnaryKind(op)) {
    Rounding rounding;
    switch (*kind) {
    case UnaryKind::Sqrt:
    case UnaryKind::Reciprocal:
      rounding = opRounding(resultType, 0, 0);
      break;
    default:
      if (getOpInfo(*kind).transcendental) {
        auto [ulps32, ulps64] = getMathUlps(*kind);
        rounding = opRounding(resultType, ulps32, ulps64);
      }
      break;
    }
    if (!isa<FloatType>(resultType)) {
      // Predicates of a float.
      UnaryKind k = *kind;
      elementwise(wideOp, resultType, {},
                  [k](ArrayRef<double> x, ArrayRef<double> e, double) {
                    if ((k == UnaryKind::Signbit ||
                         k == UnaryKind::LogicalNot) &&
                        straddles(x[0], e[0], 0))
                      return excuse(kDiscontinuity);
                    return 0.0;
                  });
      return success();
    }
    UnaryKind k = *kind;
    // sigmoid and silu are 1 / (1 + exp(-x)) (times x), each step rounded
    // (docs/Interpreter.md): where exp(-x) overflows the compute type (x
    // below -88.72 in f32) the result is 0 instead of a tiny value that
    // f32 represents (sigmoid(-100) = 3.7e-44), far more than the
    // accuracy table's ulps. The bound allows that whole value.
    double overflowsBelow = -std::log(getComputeFormat(resultType).maxFinite);
    elementwise(wideOp, resultType, rounding,
                [k, overflowsBelow](ArrayRef<double> x, ArrayRef<double> e,
                                    double r) {
                  double bound = unaryBound(k, x[0], e[0], r);
                  if ((k == UnaryKind::Sigmoid || k == UnaryKind::Silu) &&
                      !isExcused(bound) && x[0] - e[0] <= overflowsBelow)
                    bound += std::fabs(r) + bound;
                  return bound;
                });
    return success();
  }

  if (std::optional<BinaryKind> kind = getBinaryKind(op)) {
    BinaryKind k = *kind;
    Rounding rounding;
    switch (k) {
    case BinaryKind::Add:
    case BinaryKind::Sub:
    case BinaryKind::Mul:
    case BinaryKind::Div:
    case BinaryKind::Remainder:
      rounding = opRounding(resultType, 0, 0);
      break;
    case BinaryKind::Pow:
    case BinaryKind::Atan2:
      rounding = opRounding(resultType, 3, 3);
      break;
    default:
      break;
    }
    FloatFormat format = isa<FloatType>(resultType) ? *getFormat(resultType)
                                                    : kF64;
    elementwise(
        wideOp, resultType, rounding,
        [k, format](ArrayRef<double> x, ArrayRef<double> e,
                    double r) -> double {
          double a = x[0], b = x[1], ea = e[0], eb = e[1];
          switch (k) {
          case BinaryKind::Add:
          case BinaryKind::Sub:
            return ea + eb;
          case BinaryKind::Mul:
            return std::fabs(a) * eb + std::fabs(b) * ea + ea * eb;
          case BinaryKind::Div:
            if (std::fabs(b) <= eb)
              return excuse(kDomain);
            return (std::fabs(a) * eb + std::fabs(b) * ea) /
                   (std::fabs(b) * (std::fabs(b) - eb));
          case BinaryKind::Maximum:
          case BinaryKind::Minimum:
            return std::max(ea, eb);
          case BinaryKind::LogicalAnd:
          case BinaryKind::LogicalOr:
            return straddles(a, ea, 0) || straddles(b, eb, 0)
                       ? excuse(kDiscontinuity)
                       : 0.0;
          case BinaryKind::Nextafter:
            // One step of the original type, one of f64.
            return ea + 2 * format.u * (std::fabs(a) + ea) + 2 * format.eta +
                   2 * kF64.u * std::fabs(a);
          case BinaryKind::Fmod:
          case BinaryKind::Mod:
          case BinaryKind::Remainder: {
            // a - n b with n = trunc (fmod) or floor (remainder) of a / b,
            // exact while n is the same over the operands' box.
            if (std::fabs(b) <= eb)
              return excuse(kDomain);
            bool isFloor = k == BinaryKind::Remainder;
            double n = 0;
            for (int corner = 0; corner < 4; ++corner) {
              double q = (a + (corner & 1 ? ea : -ea)) /
                         (b + (corner & 2 ? eb : -eb));
              double m = isFloor ? std::floor(q) : std::trunc(q);
              if (corner == 0)
                n = m;
              else if (m != n)
                return excuse(kDiscontinuity);
            }
            // The quotient of the values themselves, in case the box
            // straddles a zero of the remainder.
            double q = a / b;
            if ((isFloor ? std::floor(q) : std::trunc(q)) != n ||
                (isFloor && straddles(a - n * b, ea + std::fabs(n) * eb, 0)))
              return excuse(kDiscontinuity);
            return ea + std::fabs(n) * eb;
          }
          case BinaryKind::Pow: {
            if (ea == 0 && eb == 0)
              return 0;
            bool integerExponent = eb == 0 && b == std::trunc(b);
            if (!(a - ea > 0) && !(integerExponent && a + ea < 0))
              return excuse(kDomain);
            double bound = 0;
            for (int corner = 0; corner < 4; ++corner) {
              double value = std::pow(a + (corner & 1 ? ea : -ea),
                                      b + (corner & 2 ? eb : -eb));
              if (!std::isfinite(value))
                return excuse(kDomain);
              bound = std::max(bound, std::fabs(value - r) +
                                          4 * kF64.u *
                                              (std::fabs(value) + std::fabs(r)));
            }
            return bound;
          }
          case BinaryKind::Atan2: {
            // atan2(y = a, x = b) is 1/radius-Lipschitz away from the
            // origin; the cut is the negative x axis.
            if (ea == 0 && eb == 0)
              return 0;
            if (b - eb <= 0 && std::fabs(a) <= ea)
              return excuse(kDomain);
            double dy = std::max(0.0, std::fabs(a) - ea);
            double dx = std::max(0.0, std::fabs(b) - eb);
            double radius = std::sqrt(dx * dx + dy * dy);
            if (radius == 0)
              return excuse(kDomain);
            return (ea + eb) / radius;
          }
          default:
            return excuse(kUnanalysed);
          }
        });
    return success();
  }

  if (std::optional<TernaryKind> kind = getTernaryKind(op)) {
    TernaryKind k = *kind;
    Rounding rounding;
    FloatFormat compute = kF64;
    if (k == TernaryKind::Lerp && isa<FloatType>(resultType)) {
      rounding = opRounding(resultType, 0, 0);
      compute = getComputeFormat(resultType);
    }
    elementwise(wideOp, resultType, rounding,
                [k, compute](ArrayRef<double> x, ArrayRef<double> e,
                             double) -> double {
                  switch (k) {
                  case TernaryKind::Clamp:
                    return std::max({e[0], e[1], e[2]});
                  case TernaryKind::Threshold:
                    // x <= threshold ? value : x.
                    if (std::fabs(x[0] - x[1]) <= e[0] + e[1] &&
                        e[0] + e[1] > 0)
                      return excuse(kDiscontinuity);
                    return x[0] <= x[1] ? e[2] : e[0];
                  case TernaryKind::Lerp: {
                    // start + w (end - start), or end - (end - start)(1 - w):
                    // the same function; the two inner roundings of either
                    // formula in the compute type and in f64 (the last one
                    // is the op's rounding).
                    double a = x[0], b = x[1], w = x[2];
                    double ea = e[0], eb = e[1], ew = e[2];
                    double d = std::fabs(b - a) + ea + eb;
                    double propagated = std::fabs(1 - w) * ea +
                                        std::fabs(w) * eb +
                                        std::fabs(b - a) * ew + ew * (ea + eb);
                    double inner = (compute.u + kF64.u) *
                                   (d * (1 + 2 * (std::fabs(w) + ew)) +
                                    std::fabs(1 - w) + ew);
                    return propagated + 2 * inner + 4 * compute.eta;
                  }
                  }
                  return excuse(kUnanalysed);
                });
    return success();
  }

  if (getCompareKind(op)) {
    elementwise(wideOp, resultType, {},
                [](ArrayRef<double> x, ArrayRef<double> e, double) {
                  double slack = e[0] + e[1];
                  return slack > 0 && std::fabs(x[0] - x[1]) <= slack
                             ? excuse(kDiscontinuity)
                             : 0.0;
                });
    return success();
  }

  excuseAll(wideOp, kUnanalysed);
  return success();
}

/// Prints `value` as the shortest round-trip decimal.
std::string formatDouble(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.17g", value);
  return text;
}

std::string formatIndex(ArrayRef<int64_t> shape, int64_t i) {
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    index[d] = shape[d] ? i % shape[d] : 0;
    i = shape[d] ? i / shape[d] : 0;
  }
  std::string text = "[";
  for (auto [d, value] : llvm::enumerate(index))
    text += (d ? ", " : "") + std::to_string(value);
  return text + "]";
}

} // namespace

std::string mlir::fuser::checkAgainstF64(func::FuncOp function,
                                         ArrayRef<Buffer> inputs,
                                         ArrayRef<Buffer> expected,
                                         F64CheckTally &tally, bool inject) {
  auto module = function->getParentOfType<ModuleOp>();
  OwningOpRef<ModuleOp> wide = widenFloatsToF64(module);
  if (!wide)
    return "the widened fusion does not verify\n";
  auto wideFunction =
      wide->lookupSymbol<func::FuncOp>(function.getSymName());

  // The widened function returns every value it computes (after its own
  // results), so that one run gives the analysis all of them.
  Block &body = wideFunction.getBody().front();
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  unsigned numResults = returnOp.getNumOperands();
  SmallVector<Value> returned(returnOp.getOperands());
  for (Operation &op : body.without_terminator())
    llvm::append_range(returned, op.getResults());
  returnOp->setOperands(returned);
  wideFunction.setFunctionType(FunctionType::get(
      wide->getContext(), wideFunction.getArgumentTypes(),
      ValueRange(returned).getTypes()));

  SmallVector<Buffer> wideInputs;
  for (const Buffer &input : inputs)
    wideInputs.push_back(widenBufferToF64(input));
  FailureOr<SmallVector<Buffer>> wideResults =
      interpret(wideFunction, wideInputs);
  if (failed(wideResults))
    return "the interpreter fails on the widened fusion\n";

  DenseMap<Value, Buffer> values;
  for (auto [argument, input] :
       llvm::zip_equal(body.getArguments(), wideInputs))
    values[argument] = input;
  for (auto [value, buffer] : llvm::zip_equal(
           ArrayRef<Value>(returned).drop_front(numResults),
           ArrayRef<Buffer>(*wideResults).drop_front(numResults)))
    values[value] = buffer;

  ErrorAnalysis analysis(values);
  for (BlockArgument argument : body.getArguments())
    analysis.bounds[argument] = makeBounds(values.find(argument)->second);
  Block &originalBody = function.getBody().front();
  for (auto [op, wideOp] : llvm::zip_equal(originalBody.without_terminator(),
                                           body.without_terminator()))
    if (failed(analysis.visit(&op, &wideOp)))
      return "the bounds of '" + op.getName().getStringRef().str() +
             "' could not be moved\n";
  for (const auto &[origin, count] : analysis.origins)
    tally.origins[origin] += count;

  std::string text;
  llvm::raw_string_ostream os(text);
  bool injected = !inject;
  for (unsigned r = 0; r < numResults; ++r) {
    Buffer original = expected[r];
    const Buffer &wideValue = (*wideResults)[r];
    const Buffer &resultBounds = analysis.bounds.find(returned[r])->second;
    bool isFloat = isa<FloatType>(original.elementType);
    int64_t count = getNumElements(original);
    unsigned failures = 0;
    if (isa<ComplexType>(original.elementType)) {
      tally.excused[describeExcuse(kComplex)] += count;
      continue;
    }
    for (int64_t i = 0; i < count; ++i) {
      double bound = getBound(resultBounds, i);
      if (isExcused(bound)) {
        ++tally.excused[describeExcuse(static_cast<int>(-bound))];
        continue;
      }
      double got = loadDouble(original, i);
      double reference = loadDouble(wideValue, i);
      if (!injected) {
        got = isFloat ? got + 2 * bound + 1 : got + 1;
        injected = true;
      }
      // Infinities and NaNs moved as they are (an infinite pad value or
      // fill, whose bound is 0): the same infinity agrees, anything else
      // is not bounded.
      if (isFloat && !std::isfinite(reference) && got != reference) {
        ++tally.excused[describeExcuse(kNotFinite)];
        continue;
      }
      double difference = got == reference ? 0 : std::fabs(got - reference);
      bool ok = isFloat ? difference <= bound : got == reference;
      if (ok) {
        ++tally.checked;
        continue;
      }
      if (failures++ < 4)
        os << "result " << r << formatIndex(original.shape, i) << " ("
           << original.getType() << "): interpreter " << formatDouble(got)
           << ", f64 " << formatDouble(reference) << ", |difference| "
           << formatDouble(difference)
           << (isFloat ? " > bound " + formatDouble(bound)
                       : std::string(" (integers must be equal)"))
           << "\n";
    }
    if (failures > 4)
      os << "result " << r << ": " << failures - 4
         << " more elements beyond their bound\n";
  }
  return text;
}
