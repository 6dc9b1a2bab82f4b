//===- CUDALaunch.cpp - a lowered host function as a launch plan ----------===//
//
// LaunchPlan::build reads the host function that `--fuser-lower-to-nvvm`
// leaves (docs/Lowering.md, "The host function after the pipeline");
// Executable runs it through the driver API.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CUDALaunch.h"
#include "fuser/Conversion/LibraryCall.h"
#include "fuser/ExecutionEngine/MatmulDescriptor.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/Format.h"

#include <cstring>

using namespace mlir;
using namespace mlir::fuser;
using namespace mlir::fuser::cuda;

namespace {

/// What a host value is while reading the function.
struct HostValue {
  /// Descriptor: a library call's descriptor global, or its address.
  enum class Kind { Buffer, Scalar, Constant, Descriptor };
  Kind kind;
  unsigned buffer = 0;
  /// Buffer: the view's offset from the buffer's base, in bytes.
  uint64_t byteOffset = 0;
  /// Scalar: the function argument.
  int argument = -1;
  /// Constant: little-endian bytes.
  SmallVector<uint8_t, 8> bytes;
  int64_t intValue = 0;
  std::vector<int64_t> descriptor;
};

SmallVector<uint8_t, 8> littleEndian(uint64_t bits, unsigned bytes) {
  SmallVector<uint8_t, 8> out;
  for (unsigned i = 0; i < bytes; ++i)
    out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  return out;
}

/// Static byte size of a memref type's elements (its shape's extent).
FailureOr<uint64_t> getMemRefBytes(MemRefType type) {
  if (!type.hasStaticShape())
    return failure();
  FailureOr<unsigned> width = getElementByteWidth(type.getElementType());
  if (failed(width))
    return failure();
  return static_cast<uint64_t>(type.getNumElements()) * *width;
}

StringRef getFormatName(gpu::CompilationTarget format) {
  switch (format) {
  case gpu::CompilationTarget::Binary:
    return "bin";
  case gpu::CompilationTarget::Assembly:
    return "isa";
  case gpu::CompilationTarget::Fatbin:
    return "fatbin";
  case gpu::CompilationTarget::Offload:
    return "offload";
  }
  return "unknown";
}

void writeJSONString(llvm::raw_ostream &os, StringRef s) {
  os << '"';
  for (char c : s) {
    if (c == '"' || c == '\\')
      os << '\\' << c;
    else if (static_cast<unsigned char>(c) < 0x20)
      os << llvm::format("\\u%04x", c);
    else
      os << c;
  }
  os << '"';
}

std::string typeString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}
} // namespace

FailureOr<LaunchPlan> LaunchPlan::build(ModuleOp module, StringRef name) {
  auto func = module.lookupSymbol<func::FuncOp>(name);
  if (!func)
    return emitError(module.getLoc(), "the lowered module has no function '")
           << name << "'";
  LaunchPlan plan;
  plan.function = name.str();
  plan.type = func.getFunctionType();
  int64_t numOutputs = 0;
  if (auto outputs = func->getAttrOfType<IntegerAttr>("fuser.outputs"))
    numOutputs = outputs.getInt();
  if (numOutputs < 0 ||
      numOutputs > static_cast<int64_t>(plan.type.getNumInputs()))
    return func.emitError("fuser.outputs = ")
           << numOutputs << " but the function has "
           << plan.type.getNumInputs() << " arguments";
  plan.numInputs = plan.type.getNumInputs() - numOutputs;

  DenseMap<Value, HostValue> values;
  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    bool isOutput = i >= plan.numInputs;
    if (auto memref = dyn_cast<MemRefType>(arg.getType())) {
      FailureOr<uint64_t> bytes = getMemRefBytes(memref);
      if (failed(bytes) || !memref.getLayout().isIdentity())
        return func.emitError("argument ")
               << i << " has type " << memref
               << "; the CUDA backend takes static identity-layout memrefs";
      plan.argumentBuffers.push_back(plan.buffers.size());
      values[arg] = {HostValue::Kind::Buffer, (unsigned)plan.buffers.size()};
      plan.buffers.push_back({isOutput ? DeviceBuffer::Kind::Output
                                       : DeviceBuffer::Kind::Input,
                              (int)i, memref, *bytes});
      continue;
    }
    if (isOutput || failed(getElementByteWidth(arg.getType())))
      return func.emitError("argument ")
             << i << " has type " << arg.getType()
             << "; the CUDA backend takes memrefs and fuser scalars";
    plan.argumentBuffers.push_back(-1);
    HostValue scalar{HostValue::Kind::Scalar};
    scalar.argument = i;
    values[arg] = scalar;
  }

  // The binaries, by symbol name.
  llvm::StringMap<unsigned> binaryIndex;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    auto objects = binary.getObjects();
    if (objects.empty())
      return binary.emitError("gpu.binary has no object");
    auto object = dyn_cast<gpu::ObjectAttr>(objects[0]);
    if (!object)
      return binary.emitError("gpu.binary holds no #gpu.object");
    Binary entry;
    entry.name = binary.getSymName().str();
    entry.format = getFormatName(object.getFormat()).str();
    if (auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget()))
      entry.chip = target.getChip().str();
    entry.object = object.getObject().getValue().str();
    // cuModuleLoadData reads PTX up to its NUL, and bitcode (for the SIMT
    // emulator) behind LLVM's wrapper header, whose size field says where
    // it ends: magic, version, offset, size, CPU type.
    if (entry.format == "isa")
      entry.object.push_back('\0');
    if (entry.format == "offload") {
      const uint32_t header[5] = {0x0B17C0DE, 0, sizeof(header),
                                  static_cast<uint32_t>(entry.object.size()),
                                  0};
      entry.object.insert(0, reinterpret_cast<const char *>(header),
                          sizeof(header));
    }
    binaryIndex[entry.name] = plan.binaries.size();
    plan.binaries.push_back(std::move(entry));
  }

  // A kernel nest convert-parallel-loops-to-gpu could not map stays on the
  // host: say so, where it is, rather than fail on what it uses.
  scf::ParallelOp unmapped;
  func.walk([&](scf::ParallelOp loop) {
    if (!unmapped && !loop->getParentOfType<scf::ParallelOp>())
      unmapped = loop;
  });
  if (unmapped)
    return unmapped.emitError(
        "a kernel loop nest stayed on the host: convert-parallel-loops-to-gpu "
        "did not map it (docs/Lowering.md, \"Passes of the GPU half\")");
  // Said before the buffers of their own that come first.
  func::CallOp attention;
  func.walk([&](func::CallOp call) {
    if (!attention && library::isLibraryFunction(call.getCallee()) &&
        !call.getCallee().starts_with(library::kMatmulFunction) &&
        !call.getCallee().starts_with(library::kGroupedMmFunction))
      attention = call;
  });
  if (attention)
    return attention.emitError(
        "attention library segments (sdpfa) do not run on the CUDA backend: "
        "it runs attention as cuBLASLt gemms around softmax kernels "
        "(fuser-decompose-attention, when it segments the fusion itself), "
        "and this one was not decomposed (an sdpfa_bwd with dropout_p > 0 "
        "whose Philox state is an input, or the fusion came segmented)");

  auto lookUp = [&](Operation *op, Value v) -> FailureOr<HostValue> {
    auto it = values.find(v);
    if (it == values.end())
      return op->emitError("the CUDA backend cannot run this host function: "
                           "an operand is computed by an op it does not "
                           "support");
    return it->second;
  };
  auto constantIndex = [&](Operation *op, Value v,
                           StringRef what) -> FailureOr<uint64_t> {
    FailureOr<HostValue> value = lookUp(op, v);
    if (failed(value))
      return failure();
    if (value->kind != HostValue::Kind::Constant || value->intValue < 0)
      return op->emitError("the CUDA backend needs a constant ")
             << what << " (canonicalize folds the lowering's to constants)";
    return static_cast<uint64_t>(value->intValue);
  };
  auto checkSync = [&](Operation *op) -> LogicalResult {
    if (auto async = dyn_cast<gpu::AsyncOpInterface>(op))
      if (!async.getAsyncDependencies().empty() || async.getAsyncToken())
        return op->emitError("the CUDA backend runs synchronous host "
                             "functions; '")
               << op->getName() << "' is async";
    return success();
  };

  for (Operation &op : func.getBody().front()) {
    Location loc = op.getLoc();
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      HostValue value{HostValue::Kind::Constant};
      Attribute attr = constant.getValue();
      if (auto integer = dyn_cast<IntegerAttr>(attr)) {
        unsigned width = isa<IndexType>(integer.getType())
                             ? 8
                             : std::max(1u, integer.getType()
                                                    .getIntOrFloatBitWidth() /
                                                8);
        value.intValue = integer.getValue().getSExtValue();
        value.bytes =
            littleEndian(integer.getValue().getZExtValue(), width);
      } else if (auto fp = dyn_cast<FloatAttr>(attr)) {
        APInt bits = fp.getValue().bitcastToAPInt();
        value.bytes = littleEndian(bits.getZExtValue(), bits.getBitWidth() / 8);
      } else {
        return op.emitError("the CUDA backend cannot pass the constant ")
               << attr << " to a kernel";
      }
      values[constant] = value;
      continue;
    }
    if (auto cast = dyn_cast<memref::ReinterpretCastOp>(op)) {
      FailureOr<HostValue> source = lookUp(&op, cast.getSource());
      if (failed(source))
        return failure();
      ArrayRef<int64_t> offsets = cast.getStaticOffsets();
      if (source->kind != HostValue::Kind::Buffer || offsets.size() != 1 ||
          ShapedType::isDynamic(offsets[0]))
        return op.emitError("the CUDA backend needs a static view of a "
                            "device buffer");
      FailureOr<unsigned> width =
          getElementByteWidth(cast.getType().getElementType());
      HostValue view = *source;
      // The kernel adds the offset of its memref type; memcpy adds it here.
      view.byteOffset = offsets[0] * static_cast<uint64_t>(*width);
      values[cast.getResult()] = view;
      continue;
    }
    if (auto global = dyn_cast<memref::GetGlobalOp>(op);
        global && library::isLibraryFunction(global.getName())) {
      auto symbol = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          global, global.getNameAttr());
      auto initial = symbol ? dyn_cast_or_null<DenseIntElementsAttr>(
                                  symbol.getInitialValueAttr())
                            : DenseIntElementsAttr();
      if (!initial)
        return op.emitError("no constant descriptor @") << global.getName();
      HostValue descriptor{HostValue::Kind::Descriptor};
      for (const APInt &value : initial.getValues<APInt>())
        descriptor.descriptor.push_back(value.getSExtValue());
      values[global.getResult()] = descriptor;
      continue;
    }
    if (auto pointer = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(op)) {
      // The base address: a library call's descriptor gives its offsets.
      FailureOr<HostValue> source = lookUp(&op, pointer.getSource());
      if (failed(source))
        return failure();
      HostValue base = *source;
      base.byteOffset = 0;
      values[pointer.getResult()] = base;
      continue;
    }
    if (auto call = dyn_cast<func::CallOp>(op);
        call && (call.getCallee() == library::kMatmulFunction ||
                 call.getCallee() == library::kGroupedMmFunction)) {
      Step step{Step::Kind::Library, loc};
      step.grouped = call.getCallee() == library::kGroupedMmFunction;
      for (auto [i, operand] : llvm::enumerate(call.getOperands())) {
        FailureOr<HostValue> value = lookUp(&op, operand);
        if (failed(value))
          return failure();
        bool noBias = !step.grouped && i == 3 &&
                      value->kind == HostValue::Kind::Constant &&
                      value->intValue == 0;
        if (i == 0 ? value->kind != HostValue::Kind::Descriptor
                   : value->kind != HostValue::Kind::Buffer && !noBias)
          return op.emitError("the CUDA backend needs the library call's ")
                 << (i == 0 ? "descriptor" : "buffers")
                 << " as the lowering gives them";
        if (i == 0)
          step.descriptor = value->descriptor;
        else
          step.libraryBuffers.push_back(noBias ? -1 : int(value->buffer));
      }
      if (step.libraryBuffers.size() != 4)
        return op.emitError("a library call takes a descriptor and 4 "
                            "buffers");
      // What cuBLASLt cannot read in place is refused here, where it is (a
      // grouped_mm's groups read the whole gemm's layouts).
      llvm::Expected<BlasLtGemm> gemm = planBlasLtGemm(
          step.grouped ? ArrayRef(step.descriptor).slice(
                             library::FirstGemmSlot, library::FirstBatchDim)
                       : ArrayRef(step.descriptor));
      if (!gemm)
        return op.emitError("the CUDA backend cannot run this matmul with "
                            "cuBLASLt: ")
               << llvm::toString(gemm.takeError());
      plan.steps.push_back(std::move(step));
      continue;
    }
    if (isa<memref::CastOp, memref::CollapseShapeOp, memref::ExpandShapeOp>(
            op)) {
      FailureOr<HostValue> source = lookUp(&op, op.getOperand(0));
      if (failed(source))
        return failure();
      values[op.getResult(0)] = *source;
      continue;
    }
    if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
      if (failed(checkSync(&op)))
        return failure();
      MemRefType type = alloc.getMemref().getType();
      FailureOr<uint64_t> bytes = getMemRefBytes(type);
      if (failed(bytes) || !alloc.getSymbolOperands().empty())
        return op.emitError("the CUDA backend needs a static gpu.alloc, not ")
               << type;
      Step step{Step::Kind::Alloc, loc};
      step.buffer = plan.buffers.size();
      step.bytes = *bytes;
      values[alloc.getMemref()] = {HostValue::Kind::Buffer, step.buffer};
      plan.buffers.push_back(
          {DeviceBuffer::Kind::Intermediate, -1, type, *bytes});
      plan.steps.push_back(std::move(step));
      continue;
    }
    if (auto dealloc = dyn_cast<gpu::DeallocOp>(op)) {
      if (failed(checkSync(&op)))
        return failure();
      FailureOr<HostValue> buffer = lookUp(&op, dealloc.getMemref());
      if (failed(buffer))
        return failure();
      Step step{Step::Kind::Dealloc, loc};
      step.buffer = buffer->buffer;
      plan.steps.push_back(std::move(step));
      continue;
    }
    if (auto memcpy = dyn_cast<gpu::MemcpyOp>(op)) {
      if (failed(checkSync(&op)))
        return failure();
      FailureOr<HostValue> dst = lookUp(&op, memcpy.getDst());
      FailureOr<HostValue> src = lookUp(&op, memcpy.getSrc());
      if (failed(dst) || failed(src))
        return failure();
      FailureOr<uint64_t> bytes =
          getMemRefBytes(cast<MemRefType>(memcpy.getDst().getType()));
      if (failed(bytes) || dst->kind != HostValue::Kind::Buffer ||
          src->kind != HostValue::Kind::Buffer)
        return op.emitError("the CUDA backend needs a static gpu.memcpy "
                            "between device buffers");
      Step step{Step::Kind::Memcpy, loc};
      step.buffer = dst->buffer;
      step.byteOffset = dst->byteOffset;
      step.source = src->buffer;
      step.sourceByteOffset = src->byteOffset;
      step.bytes = *bytes;
      plan.steps.push_back(std::move(step));
      continue;
    }
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      if (failed(checkSync(&op)))
        return failure();
      if (launch.hasClusterSize())
        return op.emitError("the CUDA backend does not launch clusters");
      Step step{Step::Kind::Launch, loc};
      StringRef binaryName = launch.getKernelModuleName().getValue();
      auto it = binaryIndex.find(binaryName);
      if (it == binaryIndex.end())
        return op.emitError("no gpu.binary named @")
               << binaryName << " (run the whole --fuser-lower-to-nvvm "
               << "pipeline, which ends in gpu-module-to-binary)";
      step.binary = it->second;
      step.kernel = launch.getKernelName().getValue().str();
      Value sizes[6] = {launch.getGridSizeX(),  launch.getGridSizeY(),
                        launch.getGridSizeZ(),  launch.getBlockSizeX(),
                        launch.getBlockSizeY(), launch.getBlockSizeZ()};
      for (unsigned d = 0; d < 6; ++d) {
        FailureOr<uint64_t> size = constantIndex(
            &op, sizes[d], d < 3 ? "grid size" : "block size");
        if (failed(size))
          return failure();
        (d < 3 ? step.grid[d] : step.block[d - 3]) = *size;
      }
      // A launch of no threads (a kernel over tensors without elements)
      // runs nothing, and cuLaunchKernel refuses a zero dimension: no step.
      if (llvm::is_contained(step.grid, uint64_t(0)) ||
          llvm::is_contained(step.block, uint64_t(0)))
        continue;
      if (Value shared = launch.getDynamicSharedMemorySize()) {
        FailureOr<uint64_t> bytes =
            constantIndex(&op, shared, "dynamic shared memory size");
        if (failed(bytes))
          return failure();
        step.sharedBytes = *bytes;
      }
      for (Value operand : launch.getKernelOperands()) {
        FailureOr<HostValue> value = lookUp(&op, operand);
        if (failed(value))
          return failure();
        KernelArg arg;
        arg.type = operand.getType();
        switch (value->kind) {
        case HostValue::Kind::Buffer:
          arg.isPointer = true;
          arg.buffer = value->buffer;
          break;
        case HostValue::Kind::Scalar:
          arg.isPointer = false;
          arg.argument = value->argument;
          break;
        case HostValue::Kind::Constant:
          arg.isPointer = false;
          arg.bytes = value->bytes;
          break;
        case HostValue::Kind::Descriptor:
          return op.emitError("the CUDA backend passes a library call's "
                              "descriptor to the call only, not to a kernel");
        }
        step.args.push_back(std::move(arg));
      }
      plan.steps.push_back(std::move(step));
      continue;
    }
    if (isa<func::ReturnOp>(op))
      continue;
    return op.emitError("the CUDA backend cannot run '")
           << op.getName() << "' in a host function";
  }
  return plan;
}

uint64_t LaunchPlan::getLaunchArgumentBytes(const Step &step) const {
  uint64_t bytes = 0;
  llvm::SmallSet<unsigned, 8> seen;
  for (const KernelArg &arg : step.args) {
    if (!arg.isPointer)
      continue;
    // A view counts with its own extent; the same buffer twice once.
    if (!seen.insert(arg.buffer).second)
      continue;
    auto type = cast<MemRefType>(arg.type);
    FailureOr<uint64_t> viewBytes = getMemRefBytes(type);
    bytes += succeeded(viewBytes) ? *viewBytes : buffers[arg.buffer].bytes;
  }
  return bytes;
}

bool LaunchPlan::hasLibrarySteps() const {
  return llvm::any_of(steps, [](const Step &step) {
    return step.kind == Step::Kind::Library;
  });
}

std::string LaunchPlan::getBinaryFileName(unsigned index,
                                          StringRef cubinPrefix) const {
  const Binary &binary = binaries[index];
  StringRef extension = binary.format == "bin"       ? "cubin"
                        : binary.format == "isa"     ? "ptx"
                        : binary.format == "offload" ? "bc"
                                                     : "fatbin";
  return (cubinPrefix + binary.name + "." + extension).str();
}

void LaunchPlan::writeJSON(llvm::raw_ostream &os,
                           StringRef cubinPrefix) const {
  auto dtype = [](Type type) { return typeString(type); };
  os << "{\n  \"version\": 1,\n  \"function\": ";
  writeJSONString(os, function);
  os << ",\n  \"arguments\": [";
  for (auto [i, type] : llvm::enumerate(this->type.getInputs())) {
    os << (i ? ",\n    " : "\n    ") << "{\"index\": " << i
       << ", \"role\": \"" << (i < numInputs ? "input" : "output") << "\"";
    if (auto memref = dyn_cast<MemRefType>(type)) {
      os << ", \"kind\": \"buffer\", \"buffer\": " << argumentBuffers[i]
         << ", \"dtype\": \"" << dtype(memref.getElementType())
         << "\", \"shape\": [";
      llvm::interleaveComma(memref.getShape(), os);
      os << "], \"bytes\": " << buffers[argumentBuffers[i]].bytes << "}";
    } else {
      os << ", \"kind\": \"scalar\", \"dtype\": \"" << dtype(type) << "\"}";
    }
  }
  os << "\n  ],\n  \"buffers\": [";
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    StringRef kind = buffer.kind == DeviceBuffer::Kind::Input    ? "input"
                     : buffer.kind == DeviceBuffer::Kind::Output ? "output"
                                                                 : "intermediate";
    os << (i ? ",\n    " : "\n    ") << "{\"index\": " << i
       << ", \"kind\": \"" << kind << "\", \"argument\": " << buffer.argument
       << ", \"dtype\": \"" << dtype(buffer.type.getElementType())
       << "\", \"shape\": [";
    llvm::interleaveComma(buffer.type.getShape(), os);
    os << "], \"bytes\": " << buffer.bytes << "}";
  }
  os << "\n  ],\n  \"binaries\": [";
  for (auto [i, binary] : llvm::enumerate(binaries)) {
    uint64_t size = binary.object.size() - (binary.format == "isa" ? 1 : 0);
    os << (i ? ",\n    " : "\n    ") << "{\"index\": " << i << ", \"name\": ";
    writeJSONString(os, binary.name);
    os << ", \"format\": \"" << binary.format << "\", \"chip\": \""
       << binary.chip << "\", \"file\": ";
    writeJSONString(os, getBinaryFileName(i, cubinPrefix));
    os << ", \"bytes\": " << size << "}";
  }
  os << "\n  ],\n  \"steps\": [";
  for (auto [i, step] : llvm::enumerate(steps)) {
    os << (i ? ",\n    " : "\n    ");
    switch (step.kind) {
    case Step::Kind::Alloc:
      os << "{\"op\": \"alloc\", \"buffer\": " << step.buffer
         << ", \"bytes\": " << step.bytes << "}";
      break;
    case Step::Kind::Dealloc:
      os << "{\"op\": \"dealloc\", \"buffer\": " << step.buffer << "}";
      break;
    case Step::Kind::Memcpy:
      os << "{\"op\": \"memcpy\", \"dst\": " << step.buffer
         << ", \"dst_offset\": " << step.byteOffset
         << ", \"src\": " << step.source
         << ", \"src_offset\": " << step.sourceByteOffset
         << ", \"bytes\": " << step.bytes << "}";
      break;
    case Step::Kind::Launch: {
      os << "{\"op\": \"launch\", \"binary\": " << step.binary
         << ", \"kernel\": ";
      writeJSONString(os, step.kernel);
      os << ", \"grid\": [" << step.grid[0] << ", " << step.grid[1] << ", "
         << step.grid[2] << "], \"block\": [" << step.block[0] << ", "
         << step.block[1] << ", " << step.block[2]
         << "], \"shared_memory_bytes\": " << step.sharedBytes
         << ", \"min_bytes\": " << getLaunchArgumentBytes(step)
         << ", \"args\": [";
      for (auto [j, arg] : llvm::enumerate(step.args)) {
        os << (j ? ", " : "");
        if (arg.isPointer) {
          os << "{\"kind\": \"pointer\", \"buffer\": " << arg.buffer << "}";
        } else if (arg.argument >= 0) {
          os << "{\"kind\": \"scalar\", \"dtype\": \"" << dtype(arg.type)
             << "\", \"argument\": " << arg.argument << "}";
        } else {
          os << "{\"kind\": \"scalar\", \"dtype\": \"" << dtype(arg.type)
             << "\", \"hex\": \"";
          for (uint8_t b : arg.bytes)
            os << llvm::format_hex_no_prefix(b, 2);
          os << "\"}";
        }
      }
      os << "]}";
      break;
    }
    case Step::Kind::Library:
      os << "{\"op\": \"library\", \"function\": \""
         << (step.grouped ? library::kGroupedMmFunction
                          : library::kMatmulFunction)
         << "\", \"descriptor\": [";
      llvm::interleaveComma(step.descriptor, os);
      os << "], \"buffers\": [";
      llvm::interleaveComma(step.libraryBuffers, os);
      os << "]}";
      break;
    }
  }
  os << "\n  ]\n}\n";
}

//===----------------------------------------------------------------------===//
// Executable
//===----------------------------------------------------------------------===//

llvm::Expected<std::unique_ptr<Executable>>
Executable::load(const LaunchPlan &plan, Driver &driver) {
  std::unique_ptr<Executable> exe(new Executable(plan, driver));
  const DriverAPI &api = driver.api();
  for (const LaunchPlan::Binary &binary : plan.binaries) {
    CUmodule module = nullptr;
    if (llvm::Error e = driver.check(
            api.cuModuleLoadData(&module, binary.object.data()),
            "cuModuleLoadData of @" + binary.name + " (" + binary.format +
                (binary.chip.empty() ? "" : ", " + binary.chip) +
                ", device " + driver.getChip() + ")"))
      return std::move(e);
    exe->modules.push_back(module);
  }
  for (const LaunchPlan::Step &step : plan.steps) {
    CUfunction function = nullptr;
    if (step.kind == LaunchPlan::Step::Kind::Launch)
      if (llvm::Error e = driver.check(
              api.cuModuleGetFunction(&function, exe->modules[step.binary],
                                      step.kernel.c_str()),
              "cuModuleGetFunction(" + step.kernel + ")"))
        return std::move(e);
    exe->functions.push_back(function);
    std::unique_ptr<BlasLtMatmul> matmul;
    if (step.kind == LaunchPlan::Step::Kind::Library) {
      llvm::Expected<BlasLt &> blasLt = driver.getBlasLt();
      if (!blasLt)
        return blasLt.takeError();
      // A grouped_mm's gemms are known when it runs (their shapes are in
      // the offsets): each is set up then, with the most workspace any
      // algorithm may ask.
      if (step.grouped) {
        exe->workspaceBytes = std::max(exe->workspaceBytes, kMaxWorkspaceBytes);
        exe->matmuls.push_back(nullptr);
        continue;
      }
      llvm::Expected<BlasLtGemm> gemm = planBlasLtGemm(step.descriptor);
      if (!gemm)
        return gemm.takeError();
      llvm::Expected<std::unique_ptr<BlasLtMatmul>> loaded =
          BlasLtMatmul::create(*blasLt, std::move(*gemm));
      if (!loaded) {
        // Located at the library op.
        mlir::emitError(step.loc)
            << "cuBLASLt refused this library segment: "
            << llvm::toString(loaded.takeError());
        return llvm::createStringError("a library segment's cuBLASLt set-up "
                                       "failed (the error above)");
      }
      matmul = std::move(*loaded);
      exe->workspaceBytes =
          std::max(exe->workspaceBytes, matmul->getWorkspaceBytes());
    }
    exe->matmuls.push_back(std::move(matmul));
  }
  return exe;
}

Executable::~Executable() {
  release();
  for (CUmodule module : modules)
    driver.api().cuModuleUnload(module);
}

void Executable::release() {
  for (CUdeviceptr address : addresses)
    if (address)
      driver.api().cuMemFree(address);
  addresses.clear();
  if (workspace)
    driver.api().cuMemFree(workspace);
  workspace = 0;
}

llvm::Error Executable::prepare(ArrayRef<Buffer> inputs) {
  release();
  const DriverAPI &api = driver.api();
  if (inputs.size() != plan.numInputs)
    return llvm::createStringError("'" + plan.function + "' takes " +
                                   llvm::Twine(plan.numInputs) +
                                   " inputs but " +
                                   llvm::Twine(inputs.size()) + " were given");
  addresses.assign(plan.buffers.size(), 0);
  for (auto [i, buffer] : llvm::enumerate(plan.buffers)) {
    // cuMemAlloc refuses 0 bytes; its allocations are 256-byte aligned, as
    // the kernels' 16-byte vector accesses need.
    if (llvm::Error e =
            driver.check(api.cuMemAlloc(&addresses[i],
                                        std::max<uint64_t>(buffer.bytes, 1)),
                         "cuMemAlloc of " + llvm::Twine(buffer.bytes) +
                             " bytes"))
      return e;
    if (buffer.kind == LaunchPlan::DeviceBuffer::Kind::Output &&
        buffer.bytes != 0)
      // Zeroed, so that an element no thread writes shows as a mismatch.
      if (llvm::Error e = driver.check(
              api.cuMemsetD8(addresses[i], 0, buffer.bytes), "cuMemsetD8"))
        return e;
  }
  if (workspaceBytes)
    if (llvm::Error e =
            driver.check(api.cuMemAlloc(&workspace, workspaceBytes),
                         "cuMemAlloc of the cuBLASLt workspace (" +
                             llvm::Twine(workspaceBytes) + " bytes)"))
      return e;
  scalarArguments.assign(plan.type.getNumInputs(), {});
  for (auto [i, input] : llvm::enumerate(inputs)) {
    Type argType = plan.type.getInput(i);
    int buffer = plan.argumentBuffers[i];
    if (buffer < 0) {
      if (!input.isScalar || input.elementType != argType ||
          input.getBytes().size() > 8)
        return llvm::createStringError(
            "input " + llvm::Twine(i) + " does not match argument type " +
            typeString(argType));
      std::memcpy(scalarArguments[i].data(), input.getBytes().data(),
                  input.getBytes().size());
      continue;
    }
    const LaunchPlan::DeviceBuffer &device = plan.buffers[buffer];
    if (input.isScalar || input.elementType != device.type.getElementType() ||
        ArrayRef<int64_t>(input.shape) != device.type.getShape() ||
        input.getBytes().size() != device.bytes)
      return llvm::createStringError("input " + llvm::Twine(i) +
                                     " does not match argument type " +
                                     typeString(argType));
    if (device.bytes == 0)
      continue;
    if (llvm::Error e = driver.check(
            api.cuMemcpyHtoD(addresses[buffer], input.getBytes().data(),
                             device.bytes),
            "cuMemcpyHtoD of input " + llvm::Twine(i)))
      return e;
  }
  return llvm::Error::success();
}

llvm::Error Executable::execute(ArrayRef<CUevent> stepEvents) {
  const DriverAPI &api = driver.api();
  for (auto [i, step] : llvm::enumerate(plan.steps)) {
    switch (step.kind) {
    case LaunchPlan::Step::Kind::Alloc:
    case LaunchPlan::Step::Kind::Dealloc:
      // Allocated for the whole run by prepare().
      break;
    case LaunchPlan::Step::Kind::Memcpy:
      if (step.bytes)
        if (llvm::Error e = driver.check(
                api.cuMemcpyDtoD(addresses[step.buffer] + step.byteOffset,
                                 addresses[step.source] + step.sourceByteOffset,
                                 step.bytes),
                "cuMemcpyDtoD"))
          return e;
      break;
    case LaunchPlan::Step::Kind::Launch: {
      // One slot per argument, 8 bytes and zero-filled, so that a narrow
      // scalar read as a wider parameter reads zeros.
      SmallVector<std::array<uint8_t, 8>> slots(step.args.size());
      SmallVector<void *> params;
      for (auto [j, arg] : llvm::enumerate(step.args)) {
        if (arg.isPointer) {
          CUdeviceptr address = addresses[arg.buffer];
          std::memcpy(slots[j].data(), &address, sizeof(address));
        } else if (arg.argument >= 0) {
          slots[j] = scalarArguments[arg.argument];
        } else {
          slots[j] = {};
          std::memcpy(slots[j].data(), arg.bytes.data(),
                      std::min<size_t>(arg.bytes.size(), 8));
        }
        params.push_back(slots[j].data());
      }
      // The driver reads as many parameters as the kernel has; the null
      // after them lets a logging stand-in (CUDAFakeDriver.cpp) count them.
      params.push_back(nullptr);
      if (llvm::Error e = driver.check(
              api.cuLaunchKernel(functions[i], step.grid[0], step.grid[1],
                                 step.grid[2], step.block[0], step.block[1],
                                 step.block[2], step.sharedBytes,
                                 /*stream=*/nullptr, params.data(),
                                 /*extra=*/nullptr),
              "cuLaunchKernel(" + step.kernel + ")"))
        return e;
      break;
    }
    case LaunchPlan::Step::Kind::Library: {
      auto address = [&](int buffer) -> CUdeviceptr {
        return buffer < 0 ? 0 : addresses[buffer];
      };
      ArrayRef<int> buffers = step.libraryBuffers;
      if (step.grouped) {
        if (llvm::Error e = runGroupedMm(step, address(buffers[0]),
                                         address(buffers[1]),
                                         address(buffers[2]),
                                         address(buffers[3])))
          return e;
        break;
      }
      if (llvm::Error e = matmuls[i]->run(
              driver, address(buffers[0]), address(buffers[1]),
              address(buffers[2]), address(buffers[3]), workspace)) {
        // Located at the library op.
        mlir::emitError(step.loc)
            << "cuBLASLt failed on this library segment: "
            << llvm::toString(std::move(e));
        return llvm::createStringError("a library segment's cuBLASLt call "
                                       "failed (the error above)");
      }
      break;
    }
    }
    if (!stepEvents.empty())
      if (llvm::Error e = driver.check(
              api.cuEventRecord(stepEvents[i], nullptr), "cuEventRecord"))
        return e;
  }
  return llvm::Error::success();
}

llvm::Error Executable::runGroupedMm(const LaunchPlan::Step &step,
                                     CUdeviceptr mat1, CUdeviceptr mat2,
                                     CUdeviceptr offsets, CUdeviceptr out) {
  const int64_t *d = step.descriptor.data();
  GroupedMm shape = library::decodeGroupedMm(d);
  // The group ends decide the gemms' shapes: they come to the host, which
  // waits for the kernels before the call (cuMemcpyDtoH synchronizes).
  int64_t stride = d[library::OffsetsStride];
  std::vector<int32_t> ends(shape.groups ? (shape.groups - 1) * stride + 1 : 0);
  if (!ends.empty())
    if (llvm::Error e = driver.check(
            driver.api().cuMemcpyDtoH(
                ends.data(), offsets + d[library::OffsetsOffset] * 4,
                ends.size() * sizeof(int32_t)),
            "cuMemcpyDtoH of grouped_mm's offsets"))
      return e;
  // Located at the library op.
  auto fail = [&](const llvm::Twine &message) {
    mlir::emitError(step.loc) << message;
    return llvm::createStringError("a grouped_mm library segment failed "
                                   "(the error above)");
  };
  if (std::optional<std::string> error = checkGroupOffsets(
          ends.data(), stride, shape.groups, shape.getGroupedExtent()))
    return fail(*error);
  llvm::Expected<BlasLt &> blasLt = driver.getBlasLt();
  if (!blasLt)
    return blasLt.takeError();
  llvm::Error failure = llvm::Error::success();
  library::forEachGroupGemm(
      d, ends.data(), stride, [&](const library::GroupGemm &descriptor) {
        if (failure)
          return;
        llvm::Expected<BlasLtGemm> gemm = planBlasLtGemm(descriptor);
        llvm::Expected<std::unique_ptr<BlasLtMatmul>> matmul =
            gemm ? BlasLtMatmul::create(*blasLt, std::move(*gemm))
                 : gemm.takeError();
        llvm::Error e = matmul ? (*matmul)->run(driver, mat1, mat2, /*bias=*/0,
                                                out, workspace)
                               : matmul.takeError();
        if (e)
          failure = fail("cuBLASLt failed on a group of this grouped_mm: " +
                         llvm::toString(std::move(e)));
      });
  return failure;
}

llvm::Expected<SmallVector<Buffer>> Executable::download() {
  const DriverAPI &api = driver.api();
  if (llvm::Error e =
          driver.check(api.cuCtxSynchronize(), "running '" + plan.function +
                                                   "' (cuCtxSynchronize)"))
    return std::move(e);
  SmallVector<Buffer> outputs;
  for (auto [i, buffer] : llvm::enumerate(plan.buffers)) {
    if (buffer.kind != LaunchPlan::DeviceBuffer::Kind::Output)
      continue;
    Buffer output;
    output.elementType = buffer.type.getElementType();
    output.shape.assign(buffer.type.getShape().begin(),
                        buffer.type.getShape().end());
    output.bytes.resize(buffer.bytes, 0);
    if (buffer.bytes)
      if (llvm::Error e = driver.check(
              api.cuMemcpyDtoH(output.bytes.data(), addresses[i],
                               buffer.bytes),
              "cuMemcpyDtoH of output " + llvm::Twine(outputs.size())))
        return std::move(e);
    outputs.push_back(std::move(output));
  }
  return outputs;
}
