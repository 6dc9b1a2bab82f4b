//===- FuserMLIRModule.cpp - native half of the fuser_mlir package --------===//
//
// `fuser_mlir._fuser_mlir`: a fusion under construction (FusionFunction and
// the FusionBuilder rules), its IR, the pipelines, the segment report data
// and the backends, for the Python FusionDefinition (fuser_mlir/_fusion.py),
// which owns the nvFuser-facing API. Values cross as integer ids; inputs
// cross as (dtype, shape, array), borrowed from the caller's C-contiguous
// arrays of any dtype (the buffer protocol) or read at a tensor's address;
// results are handed over as numpy arrays of their dtype and shape owning
// the backend's buffers (bf16 and fp8 as unsigned integers of their width),
// so that ml_dtypes and torch stay on the Python side. The one
// translation unit of the bindings (nanobind).
//
// Errors: a builder error raises TypeError or ValueError (as
// FusionBuilder::getLastErrorKind says), any other diagnostic RuntimeError,
// each with the MLIR messages prefixed by their `file:line` location.
//
//===----------------------------------------------------------------------===//

#include "fuser/Analysis/SegmentTraffic.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "fuser/ExecutionEngine/Backends.h"
#include "fuser/FusionBuilder/FusionBuilder.h"
#include "fuser/Pipelines/Pipelines.h"
#include "fuser/Registration.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <cstdlib>
#include <limits>

#include <memory>
#include <string>
#include <vector>

namespace nb = nanobind;
using namespace mlir;
using namespace mlir::fuser;

namespace {

/// One context for the process: every fusion's module lives in it. It is
/// never destroyed, as Python may free fusions after module teardown.
MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registerFuserDialect(registry);
    registerFuserPasses();
    auto *context = new MLIRContext(registry);
    context->loadAllAvailableDialects();
    context->disableMultithreading();
    context->printOpOnDiagnostic(false);
    return context;
  }();
  return *context;
}

template <typename T> std::string printToString(const T &printable) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << printable;
  return text;
}

/// The dtype names the Python side uses (DataType values) and their types,
/// made once: every run looks its inputs' and results' dtypes up here.
ArrayRef<std::pair<StringRef, Type>> getDTypes() {
  static const SmallVector<std::pair<StringRef, Type>, 11> dtypes = [] {
    Builder b(&getContext());
    return SmallVector<std::pair<StringRef, Type>, 11>{
        {"bool", b.getI1Type()},
        {"int32", b.getI32Type()},
        {"int64", b.getI64Type()},
        {"float16", b.getF16Type()},
        {"bfloat16", b.getBF16Type()},
        {"float32", b.getF32Type()},
        {"float64", b.getF64Type()},
        {"float8_e4m3fn", b.getType<Float8E4M3FNType>()},
        {"float8_e5m2", b.getType<Float8E5M2Type>()},
        {"complex64", ComplexType::get(b.getF32Type())},
        {"complex128", ComplexType::get(b.getF64Type())}};
  }();
  return dtypes;
}

Type parseDType(StringRef name) {
  for (auto [dtypeName, type] : getDTypes())
    if (dtypeName == name)
      return type;
  throw nb::type_error(("unsupported dtype '" + name.str() +
                        "' (supported: Bool, Int32, Int, Half, BFloat16, "
                        "Float, Double, Float8_e4m3fn, Float8_e5m2, "
                        "ComplexFloat, ComplexDouble)")
                           .c_str());
}

/// A dtype name given as a Python str, read in place (no std::string made:
/// every run reads one per input).
Type parseDType(nb::handle name) {
  Py_ssize_t size;
  const char *text = PyUnicode_AsUTF8AndSize(name.ptr(), &size);
  if (!text)
    throw nb::python_error();
  return parseDType(StringRef(text, size));
}

std::string printDType(Type type) {
  for (auto [dtypeName, dtype] : getDTypes())
    if (dtype == type)
      return dtypeName.str();
  // Fusions built here and the pipelines' results hold fuser dtypes only.
  throw std::runtime_error("no Python dtype for " + printToString(type));
}

/// (shape, dtype) of a type; shape is None for a scalar.
nb::tuple describeType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return nb::make_tuple(std::vector<int64_t>(tensor.getShape()),
                          printDType(tensor.getElementType()));
  return nb::make_tuple(nb::none(), printDType(type));
}

/// Collects the diagnostics emitted while it lives, as `file:line: message`.
class DiagnosticCollector {
public:
  DiagnosticCollector()
      : handler(&getContext(), [this](Diagnostic &diag) {
          append(diag.getLocation(), diag.str());
          for (Diagnostic &note : diag.getNotes())
            append(note.getLocation(), "note: " + note.str());
          return success();
        }) {}

  std::string take() {
    std::string result = messages.empty() ? "unknown error" : messages;
    messages.clear();
    return result;
  }

private:
  void append(Location loc, const std::string &message) {
    if (!messages.empty())
      messages += "\n";
    if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
      messages += fileLoc.getFilename().str() + ":" +
                  std::to_string(fileLoc.getLine()) + ": ";
    messages += message;
  }

  std::string messages;
  ScopedDiagnosticHandler handler;
};

/// A fusion: under construction (through the builder) or the result of a
/// pipeline (read-only).
class Fusion {
public:
  explicit Fusion(const std::string &name)
      : function(std::make_unique<FusionFunction>(
            &getContext(), name, UnknownLoc::get(&getContext()))) {}
  explicit Fusion(OwningOpRef<ModuleOp> module) : module(std::move(module)) {}

  ModuleOp getModule() { return function ? function->getModule() : *module; }
  func::FuncOp getFunc() {
    return function ? function->getFunc()
                    : *getModule().getOps<func::FuncOp>().begin();
  }

  void setLocation(const std::string &file, unsigned line) {
    getBuilder().setLoc(FileLineColLoc::get(&getContext(), file, line, 0));
  }

  //--- Definitions -----------------------------------------------------------

  int64_t defineInput(std::optional<std::vector<int64_t>> shape,
                      const std::string &dtype) {
    Type elementType = parseDType(dtype);
    Type type = elementType;
    if (shape) {
      for (int64_t extent : *shape) {
        if (extent == -1)
          throw nb::value_error("extent -1 is symbolic: fuser_mlir's "
                                "FusionDefinition concretizes it first");
        if (extent < 0)
          throw nb::value_error(
              ("extent " + std::to_string(extent) +
               " is negative: extents are sizes (>= 0), or -1 for a "
               "symbolic one")
                  .c_str());
      }
      type = RankedTensorType::get(*shape, elementType);
    }
    return add(getFunction().addInput(type));
  }

  int64_t defineConstant(nb::handle value, const std::string &dtype) {
    return build([&] {
      return getBuilder().constant(toLiteral(value), parseDType(dtype));
    });
  }

  void addOutput(int64_t id) {
    Value value = lookUp(id);
    if (!isa<RankedTensorType>(value.getType()))
      throw nb::type_error("add_output takes a tensor; fusion outputs are "
                           "tensors");
    getFunction().addOutput(value);
  }

  nb::tuple valueType(int64_t id) { return describeType(lookUp(id).getType()); }

  //--- Ops -------------------------------------------------------------------

  int64_t cast(int64_t id, const std::string &dtype) {
    Type type = parseDType(dtype);
    return build([&] { return getBuilder().cast(lookUp(id), type); });
  }

  int64_t unary(const std::string &name, nb::handle operand) {
    std::optional<UnaryKind> kind = symbolizeUnaryKind(name);
    if (!kind)
      throw nb::value_error(("unknown unary op '" + name + "'").c_str());
    Operand value = toOperand(operand);
    return build([&] { return getBuilder().unary(*kind, value); });
  }

  int64_t binary(const std::string &name, nb::handle lhs, nb::handle rhs) {
    Operand lhsOperand = toOperand(lhs), rhsOperand = toOperand(rhs);
    if (std::optional<BinaryKind> kind = symbolizeBinaryKind(name))
      return build(
          [&] { return getBuilder().binary(*kind, lhsOperand, rhsOperand); });
    if (std::optional<CompareKind> kind = symbolizeCompareKind(name))
      return build(
          [&] { return getBuilder().compare(*kind, lhsOperand, rhsOperand); });
    // nvFuser's truediv: a div whose integer operands become f32 first
    // (float_op_config).
    if (name == "truediv")
      return build([&] {
        return getBuilder().binary(BinaryKind::Div, lhsOperand, rhsOperand,
                                   PromotionConfig{/*promoteIntToFloat=*/true,
                                                   /*castHalfToFloat=*/true});
      });
    throw nb::value_error(("unknown binary op '" + name + "'").c_str());
  }

  int64_t ternary(const std::string &name, nb::handle first,
                  nb::handle second, nb::handle third) {
    std::optional<TernaryKind> kind = symbolizeTernaryKind(name);
    if (!kind)
      throw nb::value_error(("unknown ternary op '" + name + "'").c_str());
    Operand a = toOperand(first), b = toOperand(second), c = toOperand(third);
    return build([&] { return getBuilder().ternary(*kind, a, b, c); });
  }

  int64_t where(nb::handle condition, nb::handle lhs, nb::handle rhs) {
    Operand c = toOperand(condition), l = toOperand(lhs), r = toOperand(rhs);
    return build([&] { return getBuilder().where(c, l, r); });
  }

  int64_t complexOf(nb::handle re, nb::handle im) {
    Operand r = toOperand(re), i = toOperand(im);
    return build([&] { return getBuilder().complex(r, i); });
  }
  /// real (`imag` false) or imag of a value of the fusion.
  int64_t complexPart(nb::handle operand, bool imag) {
    Operand value = toOperand(operand);
    if (value.isLiteral())
      throw nb::type_error(imag ? "imag takes a value of the fusion"
                                : "real takes a value of the fusion");
    return build([&] {
      return imag ? getBuilder().imag(value.getValue())
                  : getBuilder().real(value.getValue());
    });
  }

  int64_t full(std::vector<int64_t> shape, nb::handle fill,
               const std::string &dtype) {
    Operand value = toOperand(fill);
    Type type = parseDType(dtype);
    return build([&] { return getBuilder().full(shape, value, type); });
  }

  int64_t iota(int64_t length, nb::handle start, nb::handle step,
               const std::string &dtype) {
    std::optional<Operand> startOperand, stepOperand;
    if (!start.is_none())
      startOperand = toOperand(start);
    if (!step.is_none())
      stepOperand = toOperand(step);
    Type type = parseDType(dtype);
    return build([&] {
      return getBuilder().iota(length, startOperand, stepOperand, type);
    });
  }
  int64_t random(bool normal, std::vector<int64_t> shape, nb::handle first,
                 nb::handle second, nb::handle seed, nb::handle offset,
                 const std::string &dtype) {
    Operand a = toOperand(first), b = toOperand(second);
    Operand s = toOperand(seed), o = toOperand(offset);
    Type type = parseDType(dtype);
    return build([&] {
      return getBuilder().random(normal, shape, a, b, s, o, type);
    });
  }
  int64_t gather(int64_t source, int64_t index, int64_t dim) {
    return build(
        [&] { return getBuilder().gather(lookUp(source), lookUp(index), dim); });
  }
  int64_t matmul(int64_t lhs, int64_t rhs) {
    return build([&] { return getBuilder().matmul(lookUp(lhs), lookUp(rhs)); });
  }
  int64_t linear(int64_t input, int64_t weight, std::optional<int64_t> bias) {
    return build([&] {
      return getBuilder().linear(lookUp(input), lookUp(weight),
                                 bias ? lookUp(*bias) : Value());
    });
  }
  int64_t groupedMm(int64_t mat1, int64_t mat2, int64_t offsets) {
    return build([&] {
      return getBuilder().groupedMm(lookUp(mat1), lookUp(mat2),
                                    lookUp(offsets));
    });
  }
  /// nvFuser's sdpfa_fwd: the ids of (output, logsumexp, philox_seed,
  /// philox_offset).
  /// `bias`, `mask`, `seed` and `offset` may be None.
  std::vector<int64_t> sdpfaFwd(int64_t query, int64_t key, int64_t value,
                                std::optional<int64_t> bias,
                                std::optional<int64_t> mask, double dropoutP,
                                bool isCausal, std::optional<double> scale,
                                std::optional<int64_t> seed,
                                std::optional<int64_t> offset) {
    auto lookUpOptional = [&](std::optional<int64_t> id) {
      return id ? lookUp(*id) : Value();
    };
    return buildSeveral([&] {
      return getBuilder().sdpfaFwd(
          lookUp(query), lookUp(key), lookUp(value), lookUpOptional(bias),
          lookUpOptional(mask), dropoutP, isCausal, scale,
          lookUpOptional(seed), lookUpOptional(offset));
    });
  }
  /// nvFuser's sdpfa_bwd: the ids of (grad_query, grad_key, grad_value).
  std::vector<int64_t> sdpfaBwd(int64_t gradOutput, int64_t query,
                                int64_t key, int64_t value, int64_t output,
                                int64_t logsumexp, double dropoutP,
                                bool isCausal, int64_t philoxSeed,
                                int64_t philoxOffset,
                                std::optional<double> scale) {
    return buildSeveral([&] {
      return getBuilder().sdpfaBwd(
          lookUp(gradOutput), lookUp(query), lookUp(key), lookUp(value),
          lookUp(output), lookUp(logsumexp), dropoutP, isCausal,
          lookUp(philoxSeed), lookUp(philoxOffset), scale);
    });
  }
  int64_t triu(int64_t id, int64_t diagonal) {
    return build([&] { return getBuilder().triu(lookUp(id), diagonal); });
  }

  int64_t reshape(int64_t id, std::vector<int64_t> shape) {
    return build([&] { return getBuilder().reshape(lookUp(id), shape); });
  }
  int64_t squeeze(int64_t id, std::vector<int64_t> dims) {
    return build([&] { return getBuilder().squeeze(lookUp(id), dims); });
  }
  int64_t broadcast(int64_t id, std::vector<bool> flags) {
    SmallVector<bool> isBroadcastDim(flags.begin(), flags.end());
    return build(
        [&] { return getBuilder().broadcast(lookUp(id), isBroadcastDim); });
  }
  int64_t expand(int64_t id, std::vector<int64_t> shape) {
    return build([&] { return getBuilder().expand(lookUp(id), shape); });
  }
  int64_t broadcastInDim(int64_t id, std::vector<int64_t> shape,
                         std::vector<int64_t> dims) {
    return build(
        [&] { return getBuilder().broadcastInDim(lookUp(id), shape, dims); });
  }
  int64_t permute(int64_t id, std::vector<int64_t> dims) {
    return build([&] { return getBuilder().permute(lookUp(id), dims); });
  }
  int64_t set(int64_t id) {
    return build([&] { return getBuilder().set(lookUp(id)); });
  }
  int64_t segmentSet(int64_t id) {
    return build([&] { return getBuilder().segmentSet(lookUp(id)); });
  }
  int64_t slice(int64_t id, std::vector<int64_t> starts,
                std::vector<int64_t> ends, std::vector<int64_t> strides) {
    return build(
        [&] { return getBuilder().slice(lookUp(id), starts, ends, strides); });
  }
  int64_t pad(int64_t id, std::vector<int64_t> widths, nb::handle value) {
    std::optional<Operand> padValue;
    if (!value.is_none())
      padValue = toOperand(value);
    return build(
        [&] { return getBuilder().pad(lookUp(id), widths, padValue); });
  }
  int64_t cat(std::vector<int64_t> ids, int64_t dim) {
    SmallVector<Value> inputs;
    for (int64_t id : ids)
      inputs.push_back(lookUp(id));
    return build([&] { return getBuilder().cat(inputs, dim); });
  }
  int64_t reduction(const std::string &kindName, int64_t id,
                    std::vector<int64_t> dims, bool keepdim,
                    std::optional<std::string> dtype) {
    std::optional<ReductionKind> kind = symbolizeReductionKind(kindName);
    if (!kind)
      throw nb::value_error(("unknown reduction '" + kindName + "'").c_str());
    Type type = dtype ? parseDType(*dtype) : Type();
    return build([&] {
      return getBuilder().reduction(*kind, lookUp(id), dims, keepdim, type);
    });
  }

  int64_t scan(const std::string &kindName, int64_t id, int64_t dim) {
    std::optional<ReductionKind> kind = symbolizeReductionKind(kindName);
    if (!kind)
      throw nb::value_error(("unknown scan '" + kindName + "'").c_str());
    return build([&] { return getBuilder().scan(*kind, lookUp(id), dim); });
  }

  int64_t scatter(int64_t self, int64_t index, nb::handle src, int64_t dim,
                  std::optional<std::string> reduce) {
    Operand values = toOperand(src);
    std::optional<ReductionKind> kind;
    if (reduce) {
      kind = symbolizeReductionKind(*reduce);
      if (!kind)
        throw nb::value_error(
            ("unknown scatter reduce '" + *reduce + "'").c_str());
    }
    return build([&] {
      return getBuilder().scatter(lookUp(self), lookUp(index), values, dim,
                                  kind);
    });
  }

  int64_t argsort(int64_t id, int64_t dim, bool descending) {
    return build(
        [&] { return getBuilder().argsort(lookUp(id), dim, descending); });
  }

  /// nvFuser's var_mean: the ids of (var, mean).
  std::vector<int64_t> varMean(int64_t id, std::vector<int64_t> dims,
                               int64_t correction, bool keepdim) {
    return buildSeveral([&]() -> FailureOr<SmallVector<Value>> {
      auto result =
          getBuilder().varMean(lookUp(id), dims, correction, keepdim);
      if (failed(result))
        return failure();
      return SmallVector<Value>{result->first, result->second};
    });
  }

  /// nvFuser's welford: the ids of (avg, var_sum, n).
  std::vector<int64_t> welford(int64_t id, std::vector<int64_t> dims) {
    return buildSeveral([&]() -> FailureOr<SmallVector<Value>> {
      auto result = getBuilder().welford(lookUp(id), dims);
      if (failed(result))
        return failure();
      return SmallVector<Value>{result->avg, result->varSum, result->n};
    });
  }

  //--- Whole fusion
  //------------------------------------------------------------

  std::string mlir() { return printToString(getModule()); }

  /// Whether the fusion is made of fuser.segment ops (fuser-segment ran).
  bool isSegmented() {
    return getFunc()
        .walk([](SegmentOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
  }

  std::vector<nb::tuple> inputTypes() {
    std::vector<nb::tuple> types;
    for (Type type : getFunc().getArgumentTypes())
      types.push_back(describeType(type));
    return types;
  }
  std::vector<nb::tuple> outputTypes() {
    std::vector<nb::tuple> types;
    for (Type type : getFunc().getResultTypes())
      types.push_back(describeType(type));
    return types;
  }

  /// A copy of the module after `pipeline` ("preseg" or "segment", which
  /// runs preseg first).
  std::unique_ptr<Fusion> runPipeline(const std::string &pipeline) {
    DiagnosticCollector diagnostics;
    OwningOpRef<ModuleOp> copy(llvm::cast<ModuleOp>(getModule()->clone()));
    PassManager pm(&getContext());
    if (pipeline == "preseg") {
      buildPresegPipeline(pm, PresegPipelineOptions());
    } else if (pipeline == "segment") {
      SegmentPipelineOptions options;
      options.preseg = true;
      buildSegmentPipeline(pm, options);
    } else {
      throw nb::value_error(("unknown pipeline '" + pipeline + "'").c_str());
    }
    if (failed(verify(*copy)) || failed(pm.run(*copy)))
      throw std::runtime_error(diagnostics.take());
    return std::make_unique<Fusion>(std::move(copy));
  }

  /// The GPU kernels of the fusion (segmented first, after preseg, unless it
  /// is segmented already) as --fuser-lower-to-nvvm="chip=CHIP format=isa"
  /// makes them: (binary name, chip, PTX) per gpu.binary object.
  std::vector<nb::tuple> kernels(const std::string &chip) {
    // The lowering's dialects and translations, registered on first use so
    // that importing the package stays cheap.
    static bool registered = [] {
      DialectRegistry registry;
      registerLowerToNVVMDependencies(registry);
      getContext().appendDialectRegistry(registry);
      return true;
    }();
    (void)registered;
    DiagnosticCollector diagnostics;
    OwningOpRef<ModuleOp> copy(llvm::cast<ModuleOp>(getModule()->clone()));
    PassManager pm(&getContext());
    if (!isSegmented()) {
      SegmentPipelineOptions options;
      options.preseg = true;
      buildSegmentPipeline(pm, options);
    }
    LowerToNVVMOptions options;
    options.chip = chip;
    options.format = "isa";
    buildLowerToNVVMPipeline(pm, options);
    if (failed(pm.run(*copy)))
      throw std::runtime_error(diagnostics.take());
    std::vector<nb::tuple> result;
    copy->walk([&](gpu::BinaryOp binary) {
      for (Attribute attr : binary.getObjects())
        if (auto object = dyn_cast<gpu::ObjectAttr>(attr))
          result.push_back(nb::make_tuple(binary.getSymName().str(),
                                          printToString(object.getTarget()),
                                          object.getObject().str()));
    });
    return result;
  }

  /// The fuser-segment-report data of a segmented fusion: one dict per
  /// segment.
  std::vector<nb::dict> segments() {
    DiagnosticCollector diagnostics;
    FusionTraffic traffic(getFunc());
    if (failed(traffic.emitUnsegmentedError()))
      throw std::runtime_error(diagnostics.take());
    auto bytes = [](ByteCount count) -> nb::object {
      if (count.overflowed)
        return nb::none();
      return nb::int_(count.bytes);
    };
    std::vector<nb::dict> result;
    for (const SegmentTraffic &segment : traffic.getSegments()) {
      nb::dict entry;
      entry["kind"] = stringifySegmentKind(segment.kind).str();
      entry["kernels"] = segment.numKernelLaunches;
      entry["bytes_read"] = bytes(segment.bytesRead);
      entry["bytes_written"] = bytes(segment.bytesWritten);
      nb::list inputs, outputs;
      for (auto [value, count] :
           llvm::zip(segment.op->getOperands(), segment.inputBytes))
        inputs.append(
            nb::make_tuple(describeType(value.getType()), bytes(count)));
      for (auto [value, count] :
           llvm::zip(segment.op->getResults(), segment.resultBytes))
        outputs.append(
            nb::make_tuple(describeType(value.getType()), bytes(count)));
      entry["inputs"] = inputs;
      entry["outputs"] = outputs;
      result.push_back(entry);
    }
    return result;
  }

  /// The fusion compiled by `backendName`, to run many times.
  std::unique_ptr<CompiledFusion> compile(const std::string &backendName) {
    DiagnosticCollector diagnostics;
    if (failed(verify(getModule())))
      throw std::runtime_error(diagnostics.take());
    std::string error;
    // A value of any size: on the host backends (interp, cpu, simt) what
    // bounds a run is its budget for all its buffers together (what the
    // machine has free, or $FUSER_MAX_TOTAL_BYTES: FusionMemoryError),
    // not BackendOptions' 2 GiB per value; the CUDA backend keeps that,
    // device memory is not what the budget measures.
    BackendOptions options;
    if (backendName != "cuda")
      options.maxBufferBytes = std::numeric_limits<uint64_t>::max();
    // Outputs as torch.empty gives them: the kernels write them whole.
    options.zeroOutputs = false;
    std::unique_ptr<Backend> backend =
        createBackend(backendName, options, error);
    if (!backend)
      throw nb::value_error(error.c_str());
    if (std::optional<std::string> reason = backend->getUnavailableReason())
      throw std::runtime_error("backend '" + backendName +
                               "' is not available: " + *reason);
    FailureOr<std::unique_ptr<CompiledFusion>> compiled =
        backend->compile(getFunc());
    if (failed(compiled))
      throw std::runtime_error(diagnostics.take());
    return std::move(*compiled);
  }

  /// The deterministic input of PRODUCT.md for argument `index`.
  nb::bytes deterministicInput(unsigned index, uint64_t seed) {
    if (index >= getFunc().getNumArguments())
      throw nb::value_error("no such input");
    Type type = getFunc().getArgumentTypes()[index];
    // The limit every backend enforces on a buffer.
    uint64_t limit = BackendOptions().maxBufferBytes;
    FailureOr<uint64_t> bytes = getValueByteSize(type);
    if (failed(bytes) || *bytes > limit)
      throw nb::value_error(("input " + std::to_string(index) + " of type " +
                             printToString(type) + " takes more than " +
                             std::to_string(limit) + " bytes")
                                .c_str());
    Buffer buffer = makeDeterministicInput(type, index, seed);
    return nb::bytes(reinterpret_cast<const char *>(buffer.bytes.data()),
                     buffer.bytes.size());
  }

private:
  FusionFunction &getFunction() {
    if (!function)
      throw std::runtime_error("this fusion is the result of a pipeline and "
                               "cannot be extended");
    return *function;
  }
  FusionBuilder &getBuilder() { return getFunction().getBuilder(); }

  int64_t add(Value value) {
    values.push_back(value);
    return values.size() - 1;
  }
  Value lookUp(int64_t id) {
    if (id < 0 || id >= static_cast<int64_t>(values.size()))
      throw nb::value_error("not a value of this fusion");
    return values[id];
  }

  /// Runs one builder call; its diagnostics become the exception and what
  /// it built before failing is rolled back.
  template <typename Fn> int64_t build(Fn &&fn) {
    FusionBuilder &builder = getBuilder();
    DiagnosticCollector diagnostics;
    FailureOr<Value> value = getFunction().buildOrRollBack(fn);
    if (succeeded(value))
      return add(*value);
    std::string message = diagnostics.take();
    if (builder.getLastErrorKind() == BuildErrorKind::Type)
      throw nb::type_error(message.c_str());
    throw nb::value_error(message.c_str());
  }

  /// build() for a call with several results.
  template <typename Fn> std::vector<int64_t> buildSeveral(Fn &&fn) {
    SmallVector<Value> results;
    int64_t first = build([&]() -> FailureOr<Value> {
      FailureOr<SmallVector<Value>> built = fn();
      if (failed(built))
        return failure();
      results = *built;
      return results.front();
    });
    std::vector<int64_t> ids = {first};
    for (Value value : llvm::drop_begin(results))
      ids.push_back(add(value));
    return ids;
  }

  /// A Python bool, int or float.
  static ScalarLiteral toLiteral(nb::handle value) {
    if (nb::isinstance<nb::bool_>(value))
      return ScalarLiteral::getBool(nb::cast<bool>(value));
    if (nb::isinstance<nb::int_>(value)) {
      int64_t intValue;
      if (!nb::try_cast(value, intValue))
        throw nb::value_error((std::string("integer ") +
                               nb::str(value).c_str() +
                               " does not fit in 64 bits")
                                  .c_str());
      return ScalarLiteral::getInt(intValue);
    }
    if (nb::isinstance<nb::float_>(value))
      return ScalarLiteral::getFloat(nb::cast<double>(value));
    throw nb::type_error("a scalar must be a Python bool, int or float");
  }

  /// ("value", id) or a Python number.
  Operand toOperand(nb::handle operand) {
    if (nb::isinstance<nb::tuple>(operand))
      return lookUp(nb::cast<int64_t>(operand[1]));
    return toLiteral(operand);
  }

  std::unique_ptr<FusionFunction> function;
  OwningOpRef<ModuleOp> module;
  std::vector<Value> values;
};

/// The bytes a run borrows from its inputs, through the buffer protocol
/// with PyBUF_SIMPLE: any C-contiguous array of any dtype (ml_dtypes'
/// included) as it is, and no format, shape or strides asked for, which
/// numpy gives without building them (a non-contiguous array is refused;
/// the Python side copies those first). Released when the run ends.
/// Or, where the caller passes an address (a row-major torch CPU tensor's
/// data_ptr(): torch tensors have no buffer protocol, and Tensor.numpy()
/// costs ~0.5 us and refuses bf16), the bytes of its extents there: the caller
/// keeps the tensor alive and unchanged through the run.
class BorrowedInputs {
public:
  explicit BorrowedInputs(size_t count) { views.reserve(count); }
  ~BorrowedInputs() {
    for (Py_buffer &view : views)
      PyBuffer_Release(&view);
  }
  BorrowedInputs(const BorrowedInputs &) = delete;
  BorrowedInputs &operator=(const BorrowedInputs &) = delete;

  ArrayRef<uint8_t> borrow(nb::handle array, const Buffer &buffer) {
    if (PyLong_CheckExact(array.ptr())) {
      FailureOr<unsigned> width = getElementByteWidth(buffer.elementType);
      if (failed(width) || buffer.isScalar)
        throw nb::type_error("only a tensor of a storable dtype is passed by "
                             "address");
      uint64_t bytes = *width;
      for (int64_t extent : buffer.shape)
        bytes *= extent;
      return ArrayRef<uint8_t>(
          static_cast<const uint8_t *>(PyLong_AsVoidPtr(array.ptr())), bytes);
    }
    // Reserved: the views do not move while they are held.
    Py_buffer &view = views.emplace_back();
    if (PyObject_GetBuffer(array.ptr(), &view, PyBUF_SIMPLE) != 0) {
      views.pop_back();
      throw nb::python_error();
    }
    return ArrayRef<uint8_t>(static_cast<const uint8_t *>(view.buf),
                             static_cast<size_t>(view.len));
  }

private:
  std::vector<Py_buffer> views;
};

/// The extents of a shape: a tuple (torch.Size included) read in place, or
/// any other sequence of ints.
void readShape(nb::handle shape, SmallVector<int64_t> &extents) {
  if (PyTuple_Check(shape.ptr())) {
    Py_ssize_t rank = PyTuple_GET_SIZE(shape.ptr());
    for (Py_ssize_t dim = 0; dim < rank; ++dim) {
      int64_t extent = PyLong_AsLongLong(PyTuple_GET_ITEM(shape.ptr(), dim));
      if (extent == -1 && PyErr_Occurred())
        throw nb::python_error();
      extents.push_back(extent);
    }
    return;
  }
  for (nb::handle extent : shape)
    extents.push_back(nb::cast<int64_t>(extent));
}

/// The DLPack dtype of a result's array: the element type's own, or, for
/// those numpy has only through ml_dtypes (bf16, fp8; fp8 only for torch),
/// unsigned integers of their width (`asBits` set), which the Python side
/// views as the dtype.
nb::dlpack::dtype getResultArrayDType(Type element, bool forTorch,
                                      bool &asBits) {
  using Code = nb::dlpack::dtype_code;
  auto make = [](Code code, unsigned bits) {
    return nb::dlpack::dtype{static_cast<uint8_t>(code),
                             static_cast<uint8_t>(bits), 1};
  };
  asBits = false;
  if (element.isInteger(1))
    return make(Code::Bool, 8); // one byte per element (Buffer)
  if (element.isInteger())
    return make(Code::Int, element.getIntOrFloatBitWidth());
  if (auto complex = dyn_cast<ComplexType>(element))
    return make(Code::Complex,
                2 * complex.getElementType().getIntOrFloatBitWidth());
  if (element.isF16() || element.isF32() || element.isF64())
    return make(Code::Float, element.getIntOrFloatBitWidth());
  if (forTorch && element.isBF16())
    return make(Code::Bfloat, 16);
  asBits = true;
  return make(Code::UInt, element.getIntOrFloatBitWidth());
}

/// The Python str of a dtype name, made once per dtype (results name
/// theirs where they cross as bits). Never released: the interpreter may
/// still hold results at its shutdown.
nb::handle getDTypeName(Type type) {
  static auto *names = new llvm::DenseMap<Type, nb::handle>();
  nb::handle &name = (*names)[type];
  if (!name)
    name = nb::str(printDType(type).c_str()).release();
  return name;
}

/// Runs `compiled` on `inputs`, (dtype, shape or None, C-contiguous array
/// of the input's values or the address of a tensor's) each; results as
/// (None, or the dtype where the array holds its bits (bf16, fp8); a numpy
/// array of the result's dtype and shape, 0-d for a scalar, owning the
/// backend's bytes, no copy). With `asDLPack`, for torch, each array is a
/// DLPack capsule instead (torch.utils.dlpack.from_dlpack takes it without
/// a numpy array between; bf16 is its own dtype there).
std::vector<nb::tuple> runCompiled(CompiledFusion &compiled,
                                   std::vector<nb::tuple> inputs,
                                   std::optional<uint64_t> maxTotalBytes,
                                   bool asDLPack) {
  DiagnosticCollector diagnostics;
  SmallVector<Buffer> buffers;
  BorrowedInputs borrowed(inputs.size());
  uint64_t inputBytes = 0;
  for (nb::handle input : inputs) {
    Buffer buffer;
    buffer.elementType = parseDType(input[0]);
    nb::handle shape = input[1];
    buffer.isScalar = shape.is_none();
    if (!buffer.isScalar)
      readShape(shape, buffer.shape);
    // The caller's array lives, unchanged, through the run.
    buffer.borrowed = borrowed.borrow(input[2], buffer);
    inputBytes += buffer.borrowed->size();
    buffers.push_back(std::move(buffer));
  }
  // The budget of this run (the backends count the borrowed inputs in it):
  // the caller's, else what the process may allocate now beside the inputs
  // it holds already, asked now rather than when the fusion was compiled.
  ScopedRunBudget budget(maxTotalBytes ? *maxTotalBytes
                                       : getDefaultMaxTotalBytes() + inputBytes);
  // The GIL stays held: the one context has multithreading disabled (no
  // locks), and the kernel backends build IR and types in it while they
  // run, as another Python thread building a fusion would.
  FailureOr<SmallVector<Buffer>> results = compiled.run(buffers);
  if (failed(results))
    throw std::runtime_error(diagnostics.take());
  std::vector<nb::tuple> outputs;
  outputs.reserve(results->size());
  for (Buffer &result : *results) {
    bool asBits;
    nb::dlpack::dtype dtype =
        getResultArrayDType(result.elementType, asDLPack, asBits);
    SmallVector<size_t> shape(result.shape.begin(), result.shape.end());
    // The array reads exactly its extents' bytes: a backend's result of
    // another size is an error here, not a read past its buffer.
    uint64_t expected = dtype.bits / 8;
    for (size_t extent : shape)
      expected *= extent;
    if (result.bytes.size() != expected)
      throw std::runtime_error("a result of type " +
                               printToString(result.getType()) + " holds " +
                               std::to_string(result.bytes.size()) +
                               " bytes, not " + std::to_string(expected));
    auto *bytes = new ByteVector(std::move(result.bytes));
    nb::capsule owner(
        bytes, [](void *p) noexcept { delete static_cast<ByteVector *>(p); });
    nb::object array =
        asDLPack ? nb::cast(nb::ndarray<>(bytes->data(), shape.size(),
                                          shape.data(), owner,
                                          /*strides=*/nullptr, dtype,
                                          nb::device::cpu::value))
                 : nb::cast(nb::ndarray<nb::numpy>(bytes->data(), shape.size(),
                                                   shape.data(), owner,
                                                   /*strides=*/nullptr, dtype));
    outputs.push_back(nb::make_tuple(
        asBits ? getDTypeName(result.elementType) : nb::none(), array));
  }
  return outputs;
}

} // namespace

NB_MODULE(_fuser_mlir, m) {
  m.doc() = "native half of fuser_mlir (python/src/FuserMLIRModule.cpp)";
  // At exit nanobind reports every instance still alive. A client that
  // keeps fusions in objects the interpreter never frees at shutdown (a
  // thunder.jit module referenced from torch's C++ state) would print a
  // report per run for memory the process returns anyway; builds with
  // assertions keep the report for finding real reference leaks.
#ifdef NDEBUG
  nb::set_leak_warnings(false);
#endif
  m.def("default_max_total_bytes", &getDefaultMaxTotalBytes,
        "the default budget of a run's buffers, as the process stands now");
  // os.environ writes its changes through to the C environment (putenv,
  // unsetenv); reading it here costs a fraction of os.environ.get, which
  // encodes the key and raises and catches KeyError for an unset variable:
  // execute() reads $FUSER_MAX_TOTAL_BYTES at every call.
  m.def("getenv", [](const char *name) -> std::optional<std::string> {
    if (const char *value = std::getenv(name))
      return std::string(value);
    return std::nullopt;
  });
  nb::class_<Fusion>(m, "Fusion")
      .def(nb::init<const std::string &>(), nb::arg("name"))
      .def("set_location", &Fusion::setLocation)
      .def("define_input", &Fusion::defineInput, nb::arg("shape").none(),
           nb::arg("dtype"))
      .def("define_constant", &Fusion::defineConstant)
      .def("add_output", &Fusion::addOutput)
      .def("value_type", &Fusion::valueType)
      .def("cast", &Fusion::cast)
      .def("unary", &Fusion::unary)
      .def("binary", &Fusion::binary)
      .def("ternary", &Fusion::ternary)
      .def("where", &Fusion::where)
      .def("complex", &Fusion::complexOf)
      .def("real",
           [](Fusion &fusion, nb::handle x) {
             return fusion.complexPart(x, /*imag=*/false);
           })
      .def("imag",
           [](Fusion &fusion, nb::handle x) {
             return fusion.complexPart(x, /*imag=*/true);
           })
      .def("full", &Fusion::full)
      .def("iota", &Fusion::iota, nb::arg("length"), nb::arg("start").none(),
           nb::arg("step").none(), nb::arg("dtype"))
      .def("triu", &Fusion::triu)
      .def("gather", &Fusion::gather)
      .def("matmul", &Fusion::matmul)
      .def("linear", &Fusion::linear, nb::arg("input"), nb::arg("weight"),
           nb::arg("bias").none() = nb::none())
      .def("grouped_mm", &Fusion::groupedMm)
      .def("sdpfa_fwd", &Fusion::sdpfaFwd, nb::arg("query"), nb::arg("key"),
           nb::arg("value"), nb::arg("bias").none(), nb::arg("mask").none(),
           nb::arg("dropout_p"), nb::arg("is_causal"), nb::arg("scale").none(),
           nb::arg("seed").none() = nb::none(),
           nb::arg("offset").none() = nb::none())
      .def("sdpfa_bwd", &Fusion::sdpfaBwd, nb::arg("grad_output"),
           nb::arg("query"), nb::arg("key"), nb::arg("value"),
           nb::arg("output"), nb::arg("logsumexp"), nb::arg("dropout_p"),
           nb::arg("is_causal"), nb::arg("philox_seed"),
           nb::arg("philox_offset"), nb::arg("scale").none())
      .def("random", &Fusion::random)
      .def("reshape", &Fusion::reshape)
      .def("squeeze", &Fusion::squeeze)
      .def("broadcast", &Fusion::broadcast)
      .def("expand", &Fusion::expand)
      .def("broadcast_in_dim", &Fusion::broadcastInDim)
      .def("permute", &Fusion::permute)
      .def("set", &Fusion::set)
      .def("segment_set", &Fusion::segmentSet)
      .def("slice", &Fusion::slice)
      .def("pad", &Fusion::pad, nb::arg("id"), nb::arg("widths"),
           nb::arg("value").none())
      .def("cat", &Fusion::cat)
      .def("scan", &Fusion::scan, nb::arg("kind"), nb::arg("id"),
           nb::arg("dim"))
      .def("scatter", &Fusion::scatter, nb::arg("self"), nb::arg("index"),
           nb::arg("src"), nb::arg("dim"), nb::arg("reduce").none())
      .def("argsort", &Fusion::argsort, nb::arg("id"), nb::arg("dim"),
           nb::arg("descending"))
      .def("reduction", &Fusion::reduction, nb::arg("kind"), nb::arg("id"),
           nb::arg("dims"), nb::arg("keepdim"), nb::arg("dtype").none())
      .def("var_mean", &Fusion::varMean)
      .def("welford", &Fusion::welford)
      .def("mlir", &Fusion::mlir)
      .def("is_segmented", &Fusion::isSegmented)
      .def("input_types", &Fusion::inputTypes)
      .def("output_types", &Fusion::outputTypes)
      .def("run_pipeline", &Fusion::runPipeline)
      .def("segments", &Fusion::segments)
      .def("kernels", &Fusion::kernels)
      .def("compile", &Fusion::compile, nb::arg("backend"))
      .def("deterministic_input", &Fusion::deterministicInput);
  nb::class_<CompiledFusion>(m, "CompiledFusion")
      .def("run", &runCompiled, nb::arg("inputs"),
           nb::arg("max_total_bytes").none() = nb::none(),
           nb::arg("as_dlpack") = false);
  // The mnemonics of the unary ops, of the binary and compare ops, and of
  // the ternary ops.
  m.def("elementwise_ops", [] {
    std::vector<std::string> unary, binary, ternary;
    for (const ArithmeticOpInfo &info : kUnaryOps)
      unary.push_back(info.mnemonic.str());
    for (const ArithmeticOpInfo &info : kBinaryOps)
      binary.push_back(info.mnemonic.str());
    for (const CompareOpInfo &info : kCompareOps)
      binary.push_back(info.mnemonic.str());
    for (const TernaryOpInfo &info : kTernaryOps)
      ternary.push_back(info.mnemonic.str());
    return nb::make_tuple(unary, binary, ternary);
  });
  // The operand class of each elementwise op (ElementwiseOps.def), by
  // mnemonic: "float", "float_or_complex", "numeric", "numeric_or_complex",
  // "integral", "integer", "real" or "any".
  m.def("elementwise_operand_classes", [] {
    nb::dict classes;
    for (const ArithmeticOpInfo &info : kUnaryOps)
      classes[info.mnemonic.str().c_str()] =
          getOperandClassName(info.operands).str();
    for (const ArithmeticOpInfo &info : kBinaryOps)
      classes[info.mnemonic.str().c_str()] =
          getOperandClassName(info.operands).str();
    for (const TernaryOpInfo &info : kTernaryOps)
      classes[info.mnemonic.str().c_str()] =
          getOperandClassName(info.operands).str();
    for (const CompareOpInfo &info : kCompareOps)
      classes[info.mnemonic.str().c_str()] = "any";
    return classes;
  });
  m.def("fnv1a64", [](nb::bytes data) {
    return fnv1a64(ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(data.c_str()), data.size()));
  });
}
