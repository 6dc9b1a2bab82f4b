//===- LibraryCalls.cpp - library segments on the CPU: gemm libraries ----===//
//
// runLibraryMatmul reads the descriptor of convert-fuser-to-scf's library
// call (fuser/Conversion/LibraryCall.h) and makes one gemm per batch
// element, row-major:
// - batch dims that the rhs broadcasts and that continue the lhs's and the
//   result's rows fold into M (a linear over [B, S, K] is one gemm);
// - f32 calls the CBLAS sgemm, f64 dgemm, of a BLAS loaded with dlopen
//   (OpenBLAS, or $FUSER_BLAS); an operand whose rows or columns are
//   contiguous is passed as it lies, transposed or not, with its leading
//   dimension; any other (a broadcast, a stride in both dims) is packed
//   into a contiguous copy first;
// - bf16 runs oneDNN's matmul primitive (libdnnl.so.3, else libdnnl.so.2,
//   loaded with dlopen like the BLAS; $FUSER_DNNL names another, `none`
//   turns it off) on the operands as they lie (src and weights described
//   by their strides: a transposed operand is a transposed layout, never a
//   copy; others packed into bf16 copies; a src off a cache line copied to
//   one, alignLines), with f32 accumulation, the bias added in f32 and the
//   result rounded once to bf16 (to nearest even) by oneDNN: cuBLAS's
//   compute type 32F. One primitive per shape and layout, made at its first
//   use (its kernel compiled: about a millisecond) and kept. The CPU's
//   bf16 instructions that oneDNN uses (AMX, AVX512-BF16) flush subnormal
//   inputs and sums to zero (magnitudes below 1.2e-38, far inside nvFuser's
//   tolerance); otherwise only the order of the f32 sums differs from the
//   sgemm path;
// - f16, and bf16 where oneDNN is not loaded or offers only its reference
//   implementation, calls sgemm on operands widened to f32 exactly, each in
//   its own layout (a transposed one stays transposed: contiguous lines
//   converted in vectorized loops, on the run's threads (runOnThreads) for
//   operands of 64 Ki elements or more), the f32 result rounded once to
//   the element type;
// - the bias is preloaded into the result and the gemm adds to it (beta 1);
// - K = 0 writes the bias, or +0.0, without a call.
// - each call takes its run's threads (fuser-run --num-threads,
//   FUSER_MLIR_NUM_THREADS; getRunThreads): the widening loops on
//   runOnThreads, OpenBLAS through openblas_set_num_threads, oneDNN through
//   its OpenMP runtime's omp_set_num_threads.
// $FUSER_MATMUL_LOG=1 prints each gemm's path, and the threads its library
// reports, to stderr (the tests check it:
// test/ExecutionEngine/cpu-library-half.mlir, cpu-library-threads.mlir).
//
// runLibraryGroupedMm checks the offsets of a fuser.grouped_mm (read where
// they lie), then runs each non-empty group as runLibraryMatmul's gemm, of
// the whole gemm narrowed to the group's rows, columns or contraction, and
// zeroes the rows (columns) past the last offset as a gemm with K = 0
// (which calls nothing). Offsets that break the rule compute nothing: the
// error waits in takeLibraryCallError for the run to report at the op.
//
// runLibraryAttentionForward/Backward compute each head of fuser.sdpfa_fwd
// and fuser.sdpfa_bwd (the heads one after another, each gemm on BLAS's
// threads): operands packed into row-major f32 (widened exactly), the
// products by sgemm (the scale as its alpha) and the softmax step here,
// results rounded once to their element type; F is the dropout's factor
// (RandomSemantics.h fillKeepFactors: keepScale where kept, else 0;
// 1 without dropout):
// - forward: S = scale Q K^T + bias; per row the masks, the max m,
//   P = exp(S - m) and its sum l, logsumexp m + log(l); O = ((P F) V) / l;
//   philox_seed = [seed, offset], philox_offset 0;
// - backward: P = exp(scale Q K^T - logsumexp) (0 where masked),
//   dV = (P F)^T dO, dP = dO V^T, D = rowsum(dO * O), dS = P (dP F - D),
//   dQ = scale dS K, dK = scale dS^T Q, the dropout's seed and offset read
//   from philox_seed.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/LibraryCalls.h"
#include "fuser/Conversion/LibraryCall.h"
#include "fuser/Dialect/Fuser/IR/GroupedMm.h"
#include "fuser/Dialect/Fuser/IR/RandomSemantics.h"
#include "fuser/ExecutionEngine/Elements.h"
#include "fuser/ExecutionEngine/HostBlockCache.h"
#include "fuser/ExecutionEngine/MatmulDescriptor.h"

#include "fuser/ExecutionEngine/CPUThreads.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

using namespace mlir::fuser;
using namespace mlir::fuser::library;

namespace {
// CBLAS's enums (cblas.h).
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;
using SgemmFn = void(int, int, int, int, int, int, float, const float *, int,
                     const float *, int, float, float *, int);
using DgemmFn = void(int, int, int, int, int, int, double, const double *,
                     int, const double *, int, double, double *, int);

struct Blas {
  SgemmFn *sgemm = nullptr;
  DgemmFn *dgemm = nullptr;
  /// OpenBLAS's thread count (not every BLAS has one).
  void (*setNumThreads)(int) = nullptr;
  int (*getNumThreads)() = nullptr;
  std::string library;
  std::string error;
};

const Blas &getBlas() {
  static Blas blas;
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<std::string> candidates;
    if (const char *named = std::getenv("FUSER_BLAS"))
      candidates.push_back(named);
    else
      candidates = {"libopenblas.so.0", "libblas.so.3"};
    std::string tried;
    for (const std::string &name : candidates) {
      void *library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!library) {
        const char *why = dlerror();
        tried += (tried.empty() ? "" : "; ") + std::string(why ? why : name);
        continue;
      }
      auto *sgemm = reinterpret_cast<SgemmFn *>(dlsym(library, "cblas_sgemm"));
      auto *dgemm = reinterpret_cast<DgemmFn *>(dlsym(library, "cblas_dgemm"));
      if (!sgemm || !dgemm) {
        tried += (tried.empty() ? "" : "; ") + name +
                 " has no cblas_sgemm/cblas_dgemm";
        dlclose(library);
        continue;
      }
      blas.sgemm = sgemm;
      blas.dgemm = dgemm;
      blas.setNumThreads = reinterpret_cast<void (*)(int)>(
          dlsym(library, "openblas_set_num_threads"));
      blas.getNumThreads = reinterpret_cast<int (*)()>(
          dlsym(library, "openblas_get_num_threads"));
      blas.library = name;
      return;
    }
    blas.error = "no BLAS found for matmul/linear on the CPU backend (install "
                 "libopenblas-dev, scripts/setup.sh, or name a CBLAS library "
                 "in $FUSER_BLAS): " +
                 tried;
  });
  return blas;
}

/// A matrix operand as BLAS takes it, or nullopt when it must be packed.
struct MatrixLayout {
  int transpose;
  int64_t leading;
};

/// The layout of a rows x cols matrix with these strides (a dim of one
/// element has stride 0 in the descriptor, so any stride fits it).
std::optional<MatrixLayout> getLayout(int64_t rows, int64_t cols,
                                      int64_t rowStride, int64_t colStride) {
  if (cols == 1)
    colStride = 1;
  if (rows == 1)
    rowStride = std::max<int64_t>(cols, 1);
  if (colStride == 1 && rowStride >= std::max<int64_t>(cols, 1))
    return MatrixLayout{kNoTrans, rowStride};
  if (rowStride == 1 && colStride >= std::max<int64_t>(rows, 1))
    return MatrixLayout{kTrans, colStride};
  return std::nullopt;
}

// oneDNN's C API, the few pieces the bf16 gemm uses, declared here from
// dnnl.h and dnnl_types.h so that the build needs no oneDNN headers, for
// both major versions (the soname fixes the ABI): 2.x (libdnnl.so.2,
// Debian's libdnnl2), whose memory and matmul descriptors are structs the
// library fills (buffers larger than oneDNN 2.6's 696 and 2800 bytes stand
// for them), and 3.x (libdnnl.so.3), whose memory descriptors are opaque
// handles and whose matmul primitive descriptor is made in one call. The
// other entry points and constants are the same in both.
namespace dnnl {
using Status = int;       // dnnl_status_t: dnnl_success = 0
using Dims = int64_t[12]; // dnnl_dims_t: DNNL_MAX_NDIMS dnnl_dim_t
constexpr int kEngineCPU = 1, kBF16 = 2, kF32 = 3; // engine kind, data types
constexpr unsigned kStreamDefaultFlags = 1;         // dnnl_stream_in_order
constexpr int kArgSrc = 1, kArgDst = 17, kArgWeights = 33, kArgBias = 41;
constexpr int kQueryImplInfoStr = 8; // dnnl_query_impl_info_str
struct alignas(8) MemoryDesc {
  char bytes[1024];
};
struct alignas(8) MatmulDesc {
  char bytes[4096];
};
struct ExecArg {
  int arg;
  void *memory;
};
using EngineCreateFn = Status(void **, int, size_t);
using StreamCreateFn = Status(void **, void *, unsigned);
using StreamWaitFn = Status(void *);
using StreamDestroyFn = Status(void *);
using MemoryDescInitByStridesFn = Status(MemoryDesc *, int, const Dims, int,
                                         const Dims);
using MemoryDescCreateWithStridesFn = Status(void **, int, const Dims, int,
                                             const Dims);
using MemoryDescDestroyFn = Status(void *);
using MatmulDescInitFn = Status(MatmulDesc *, const MemoryDesc *,
                                const MemoryDesc *, const MemoryDesc *,
                                const MemoryDesc *);
using PrimitiveDescCreateFn = Status(void **, const void *, const void *,
                                     void *, const void *);
using MatmulPrimitiveDescCreateFn = Status(void **, void *, const void *,
                                           const void *, const void *,
                                           const void *, const void *);
using PrimitiveDescQueryFn = Status(const void *, int, int, void *);
using PrimitiveDescDestroyFn = Status(void *);
using PrimitiveCreateFn = Status(void **, const void *);
using PrimitiveExecuteFn = Status(const void *, void *, int, const ExecArg *);
using PrimitiveDestroyFn = Status(void *);
/// The descriptor: a MemoryDesc (2.x) or a handle (3.x).
using MemoryCreateFn = Status(void **, const void *, void *, void *);
using MemoryDestroyFn = Status(void *);
} // namespace dnnl

#if __has_include(<oneapi/dnnl/dnnl.h>)
} // namespace
#include <oneapi/dnnl/dnnl.h>
namespace {
// Where oneDNN's headers are installed (libdnnl-dev), the declarations
// above are checked against them.
static_assert(dnnl::kEngineCPU == dnnl_cpu && dnnl::kBF16 == dnnl_bf16 &&
              dnnl::kF32 == dnnl_f32 && dnnl_success == 0);
static_assert(dnnl::kStreamDefaultFlags == dnnl_stream_default_flags);
static_assert(dnnl::kArgSrc == DNNL_ARG_SRC && dnnl::kArgDst == DNNL_ARG_DST &&
              dnnl::kArgWeights == DNNL_ARG_WEIGHTS &&
              dnnl::kArgBias == DNNL_ARG_BIAS);
static_assert(dnnl::kQueryImplInfoStr == dnnl_query_impl_info_str);
static_assert(sizeof(dnnl::Dims) == sizeof(dnnl_dims_t));
#if DNNL_VERSION_MAJOR == 2
static_assert(sizeof(dnnl::MemoryDesc) >= sizeof(dnnl_memory_desc_t) &&
              sizeof(dnnl::MatmulDesc) >= sizeof(dnnl_matmul_desc_t));
#endif
static_assert(sizeof(dnnl::ExecArg) == sizeof(dnnl_exec_arg_t));
#endif

/// oneDNN's matmul primitive for bf16 operands, loaded at first use like
/// the BLAS: $FUSER_DNNL names the library, `none` turns it off (every
/// gemm then takes the BLAS's sgemm); unset, libdnnl.so.3 where it loads
/// (scripts/setup.sh installs oneDNN 3.2: its AMX kernels take a plain
/// [K, N] weight 1.3x faster than 2.6's), else libdnnl.so.2.
struct Dnnl {
  dnnl::EngineCreateFn *engineCreate = nullptr;
  dnnl::StreamCreateFn *streamCreate = nullptr;
  dnnl::StreamWaitFn *streamWait = nullptr;
  dnnl::StreamDestroyFn *streamDestroy = nullptr;
  /// 2.x.
  dnnl::MemoryDescInitByStridesFn *memoryDescInitByStrides = nullptr;
  dnnl::MatmulDescInitFn *matmulDescInit = nullptr;
  dnnl::PrimitiveDescCreateFn *primitiveDescCreate = nullptr;
  /// 3.x.
  dnnl::MemoryDescCreateWithStridesFn *memoryDescCreateWithStrides = nullptr;
  dnnl::MemoryDescDestroyFn *memoryDescDestroy = nullptr;
  dnnl::MatmulPrimitiveDescCreateFn *matmulPrimitiveDescCreate = nullptr;
  dnnl::PrimitiveDescQueryFn *primitiveDescQuery = nullptr;
  dnnl::PrimitiveDescDestroyFn *primitiveDescDestroy = nullptr;
  dnnl::PrimitiveCreateFn *primitiveCreate = nullptr;
  dnnl::PrimitiveExecuteFn *primitiveExecute = nullptr;
  dnnl::PrimitiveDestroyFn *primitiveDestroy = nullptr;
  dnnl::MemoryCreateFn *memoryCreate = nullptr;
  dnnl::MemoryDestroyFn *memoryDestroy = nullptr;
  /// The OpenMP runtime oneDNN runs on (Debian's is built with libgomp),
  /// found among its dependencies; null for another threading runtime.
  void (*ompSetNumThreads)(int) = nullptr;
  int (*ompGetMaxThreads)() = nullptr;
  void *engine = nullptr;
  std::string library;
  std::string error;
  bool loaded() const { return engine != nullptr; }
  bool isVersion3() const { return matmulPrimitiveDescCreate != nullptr; }
};

/// `dnnl` bound to the oneDNN library `name`; false, with the reason in
/// dnnl.error, where it does not load or lacks the API.
bool loadDnnl(Dnnl &dnnl, const std::string &name) {
  void *library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    dnnl.error = why ? why : name + ": not loaded";
    return false;
  }
  bool missing = false;
  auto bind = [&](auto *&fn, const char *symbol) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        dlsym(library, symbol));
    missing |= fn == nullptr;
  };
  bind(dnnl.engineCreate, "dnnl_engine_create");
  bind(dnnl.streamCreate, "dnnl_stream_create");
  bind(dnnl.streamWait, "dnnl_stream_wait");
  bind(dnnl.streamDestroy, "dnnl_stream_destroy");
  if (dlsym(library, "dnnl_matmul_primitive_desc_create")) {
    bind(dnnl.memoryDescCreateWithStrides,
         "dnnl_memory_desc_create_with_strides");
    bind(dnnl.memoryDescDestroy, "dnnl_memory_desc_destroy");
    bind(dnnl.matmulPrimitiveDescCreate, "dnnl_matmul_primitive_desc_create");
  } else {
    bind(dnnl.memoryDescInitByStrides, "dnnl_memory_desc_init_by_strides");
    bind(dnnl.matmulDescInit, "dnnl_matmul_desc_init");
    bind(dnnl.primitiveDescCreate, "dnnl_primitive_desc_create");
  }
  bind(dnnl.primitiveDescQuery, "dnnl_primitive_desc_query");
  bind(dnnl.primitiveDescDestroy, "dnnl_primitive_desc_destroy");
  bind(dnnl.primitiveCreate, "dnnl_primitive_create");
  bind(dnnl.primitiveExecute, "dnnl_primitive_execute");
  bind(dnnl.primitiveDestroy, "dnnl_primitive_destroy");
  bind(dnnl.memoryCreate, "dnnl_memory_create");
  bind(dnnl.memoryDestroy, "dnnl_memory_destroy");
  dnnl.ompSetNumThreads = reinterpret_cast<void (*)(int)>(
      dlsym(library, "omp_set_num_threads"));
  dnnl.ompGetMaxThreads =
      reinterpret_cast<int (*)()>(dlsym(library, "omp_get_max_threads"));
  void *engine = nullptr;
  if (missing) {
    dnnl.error = name + " lacks oneDNN's matmul C API (2.x or 3.x)";
  } else if (dnnl.engineCreate(&engine, dnnl::kEngineCPU, 0) != 0) {
    dnnl.error = name + ": no CPU engine";
  } else {
    dnnl.engine = engine;
    dnnl.library = name;
    return true;
  }
  dlclose(library);
  // Unbound again: only the reason stays.
  std::string error = std::move(dnnl.error);
  dnnl = Dnnl();
  dnnl.error = std::move(error);
  return false;
}

const Dnnl &getDnnl() {
  static Dnnl dnnl;
  static std::once_flag once;
  std::call_once(once, [] {
    const char *named = std::getenv("FUSER_DNNL");
    if (named && *named) {
      if (std::string(named) == "none")
        dnnl.error = "oneDNN turned off ($FUSER_DNNL=none)";
      else
        loadDnnl(dnnl, named);
      return;
    }
    if (loadDnnl(dnnl, "libdnnl.so.3"))
      return;
    std::string newer = dnnl.error;
    if (!loadDnnl(dnnl, "libdnnl.so.2"))
      dnnl.error = newer + "; " + dnnl.error;
  });
  return dnnl;
}

/// Whether each gemm logs its path to stderr ($FUSER_MATMUL_LOG=1).
bool logGemms() {
  static const bool log = [] {
    const char *value = std::getenv("FUSER_MATMUL_LOG");
    return value && *value && std::string(value) != "0";
  }();
  return log;
}

/// The calling thread's oneDNN stream (CPU streams are cheap, but not free
/// to create per call).
void *getDnnlStream(const Dnnl &dnnl) {
  struct Stream {
    void *stream = nullptr;
    const Dnnl *owner = nullptr;
    ~Stream() {
      if (stream)
        owner->streamDestroy(stream);
    }
  };
  thread_local Stream stream;
  if (!stream.stream && dnnl.streamCreate(&stream.stream, dnnl.engine,
                                          dnnl::kStreamDefaultFlags) != 0)
    stream.stream = nullptr;
  stream.owner = &dnnl;
  return stream.stream;
}

/// One bf16 gemm's shape and layouts as a oneDNN matmul primitive: the
/// descriptors of its operands (src m x k, weights k x n, an f32 bias
/// 1 x n, dst m x n, bf16 but the bias) and the primitive, null where
/// oneDNN offers only its reference implementation (slow: the sgemm path
/// is taken instead) or none.
struct DnnlMatmul {
  enum Operand { Src, Weights, Bias, Dst };
  /// 2.x's descriptors, or 3.x's handles.
  std::array<dnnl::MemoryDesc, 4> descs;
  std::array<void *, 4> handles{};
  void *primitive = nullptr;
  std::string implementation;

  /// What dnnl_memory_create takes for `operand`.
  const void *getDesc(Operand operand) const {
    return getDnnl().isVersion3() ? handles[operand] : &descs[operand];
  }
  ~DnnlMatmul() {
    const Dnnl &dnnl = getDnnl();
    if (primitive)
      dnnl.primitiveDestroy(primitive);
    for (void *handle : handles)
      if (handle)
        dnnl.memoryDescDestroy(handle);
  }
};

/// m, n, k, lhs transpose and leading dim, rhs transpose and leading dim,
/// the result's leading dim (rows contiguous), whether there is a bias.
using DnnlKey = std::array<int64_t, 9>;

DnnlMatmul *makeDnnlMatmul(const Dnnl &dnnl, const DnnlKey &key) {
  auto *made = new DnnlMatmul;
  auto [m, n, k, lhsTranspose, lhsLeading, rhsTranspose, rhsLeading,
        outLeading, hasBias] = key;
  auto describe = [&](DnnlMatmul::Operand operand, int64_t rows, int64_t cols,
                      bool transposed, int64_t leading, int type) {
    dnnl::Dims dims{rows, cols}, strides{leading, 1};
    if (transposed)
      std::swap(strides[0], strides[1]);
    if (dnnl.isVersion3())
      return dnnl.memoryDescCreateWithStrides(&made->handles[operand], 2, dims,
                                              type, strides) == 0;
    return dnnl.memoryDescInitByStrides(&made->descs[operand], 2, dims, type,
                                        strides) == 0;
  };
  bool described =
      describe(DnnlMatmul::Src, m, k, lhsTranspose == kTrans, lhsLeading,
               dnnl::kBF16) &&
      describe(DnnlMatmul::Weights, k, n, rhsTranspose == kTrans, rhsLeading,
               dnnl::kBF16) &&
      describe(DnnlMatmul::Bias, 1, n, false, std::max<int64_t>(n, 1),
               dnnl::kF32) &&
      describe(DnnlMatmul::Dst, m, n, false, outLeading, dnnl::kBF16);
  const void *bias = hasBias ? made->getDesc(DnnlMatmul::Bias) : nullptr;
  void *primitiveDesc = nullptr;
  bool created = false;
  if (described && dnnl.isVersion3()) {
    created = dnnl.matmulPrimitiveDescCreate(
                  &primitiveDesc, dnnl.engine, made->getDesc(DnnlMatmul::Src),
                  made->getDesc(DnnlMatmul::Weights), bias,
                  made->getDesc(DnnlMatmul::Dst), nullptr) == 0;
  } else if (described) {
    dnnl::MatmulDesc desc;
    created =
        dnnl.matmulDescInit(
            &desc, &made->descs[DnnlMatmul::Src],
            &made->descs[DnnlMatmul::Weights],
            static_cast<const dnnl::MemoryDesc *>(bias),
            &made->descs[DnnlMatmul::Dst]) == 0 &&
        dnnl.primitiveDescCreate(&primitiveDesc, &desc, nullptr, dnnl.engine,
                                 nullptr) == 0;
  }
  if (!created) {
    made->implementation = "none";
    return made;
  }
  const char *implementation = nullptr;
  if (dnnl.primitiveDescQuery(primitiveDesc, dnnl::kQueryImplInfoStr, 0,
                              &implementation) == 0 &&
      implementation)
    made->implementation = implementation;
  if (made->implementation.rfind("ref", 0) != 0 &&
      dnnl.primitiveCreate(&made->primitive, primitiveDesc) != 0)
    made->primitive = nullptr;
  dnnl.primitiveDescDestroy(primitiveDesc);
  return made;
}

/// The primitive for `key`, made at its first use and kept for the
/// process (making one compiles its kernel: about a millisecond). Past
/// kMaxDnnlMatmuls shapes, new ones are made again for each call: the
/// caller destroys what `temporary` receives.
constexpr size_t kMaxDnnlMatmuls = 1024;
const DnnlMatmul &getDnnlMatmul(const Dnnl &dnnl, const DnnlKey &key,
                                std::unique_ptr<DnnlMatmul> &temporary) {
  static std::mutex mutex;
  static auto *made = new std::map<DnnlKey, DnnlMatmul *>;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = made->find(key);
    if (found != made->end())
      return *found->second;
  }
  DnnlMatmul *matmul = makeDnnlMatmul(dnnl, key);
  std::lock_guard<std::mutex> lock(mutex);
  if (made->size() >= kMaxDnnlMatmuls) {
    temporary.reset(matmul);
    return *matmul;
  }
  auto [at, inserted] = made->emplace(key, matmul);
  if (!inserted) { // another thread made it meanwhile
    temporary.reset(matmul);
  }
  return *at->second;
}

/// Reads element `offset` of `base` (of `element` type) widened to T.
template <typename T>
T load(MatmulElement element, const char *base, int64_t offset) {
  switch (element) {
  case MatmulElement::F32:
    return reinterpret_cast<const float *>(base)[offset];
  case MatmulElement::F64:
    return reinterpret_cast<const double *>(base)[offset];
  case MatmulElement::F16:
    return detail::halfToFloat(reinterpret_cast<const uint16_t *>(base)[offset]);
  case MatmulElement::BF16:
    return detail::bf16ToFloat(reinterpret_cast<const uint16_t *>(base)[offset]);
  }
  return T();
}

/// Writes `value` as element `offset` of `base`, rounded once.
template <typename T>
void store(MatmulElement element, char *base, int64_t offset, T value) {
  switch (element) {
  case MatmulElement::F32:
    reinterpret_cast<float *>(base)[offset] = value;
    return;
  case MatmulElement::F64:
    reinterpret_cast<double *>(base)[offset] = value;
    return;
  case MatmulElement::F16:
    reinterpret_cast<uint16_t *>(base)[offset] = detail::floatToHalf(value);
    return;
  case MatmulElement::BF16:
    reinterpret_cast<uint16_t *>(base)[offset] = detail::floatToBF16(value);
    return;
  }
}

/// f16 to f32, exactly (detail::halfToFloat's bits, NaN payloads kept),
/// by masks rather than branches, so that a loop over a row vectorizes
/// (GCC if-converts no ternaries here).
inline float widenHalf(uint16_t half) {
  uint32_t sign = uint32_t(half & 0x8000) << 16;
  uint32_t rest = half & 0x7fff;
  uint32_t special = 0u - uint32_t(rest >= 0x7c00); // exponent 31: inf, NaN
  uint32_t subnormal = 0u - uint32_t(rest < 0x400); // and zero
  uint32_t bits = (rest << 13) + (112u << 23) + (special & (112u << 23));
  // A subnormal is rest * 2^-24, exact in f32.
  uint32_t small = llvm::bit_cast<uint32_t>(float(int32_t(rest)) * 0x1p-24f);
  bits = (bits & ~subnormal) | (small & subnormal);
  return llvm::bit_cast<float>(bits | sign);
}

/// Widens `count` contiguous f16 or bf16 elements to f32.
void widenRun(MatmulElement element, const uint16_t *from, float *to,
              int64_t count) {
  if (element == MatmulElement::F16) {
    for (int64_t i = 0; i < count; ++i)
      to[i] = widenHalf(from[i]);
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    to[i] = llvm::bit_cast<float>(uint32_t(from[i]) << 16);
}

/// Operands of at least this many elements are widened on the run's
/// threads (runOnThreads), smaller ones on the calling thread.
constexpr int64_t kParallelWidenElements = int64_t(1) << 16;

/// The threads of a library call: its run's (getRunThreads), else those
/// of a run that asks for none (FUSER_MLIR_NUM_THREADS or the cores), as
/// for the fake cuBLASLt's calls.
unsigned getLibraryThreads() {
  if (unsigned threads = getRunThreads())
    return threads;
  static const unsigned threads = [] {
    llvm::Expected<unsigned> threads = getCPUThreads(0);
    if (!threads) {
      llvm::consumeError(threads.takeError());
      return 1u;
    }
    return *threads;
  }();
  return threads;
}

/// The BLAS with its thread count set to the call's. OpenBLAS keeps one
/// count for the process: it is set where it differs from the last
/// call's (concurrent runs asking for different counts share the last).
/// Returns the count the BLAS reports, 0 where it has none.
int useBlasThreads(const Blas &blas) {
  static std::atomic<unsigned> current{0};
  unsigned threads = getLibraryThreads();
  if (blas.setNumThreads && current.exchange(threads) != threads)
    blas.setNumThreads(int(threads));
  return blas.getNumThreads ? blas.getNumThreads() : 0;
}

/// "; N threads" for a gemm's log line, where its library reports N.
std::string getThreadsNote(int threads) {
  return threads > 0 ? "; " + std::to_string(threads) + " threads" : "";
}

/// oneDNN with the calling thread's OpenMP thread count (a per-thread
/// setting) set to the call's. Returns the count OpenMP reports, 0 where
/// oneDNN runs on another runtime.
int useDnnlThreads(const Dnnl &dnnl) {
  thread_local unsigned current = 0;
  unsigned threads = getLibraryThreads();
  if (dnnl.ompSetNumThreads && current != threads) {
    dnnl.ompSetNumThreads(int(threads));
    current = threads;
  }
  return dnnl.ompGetMaxThreads ? dnnl.ompGetMaxThreads() : 0;
}

const char *getElementName(MatmulElement element) {
  switch (element) {
  case MatmulElement::F32:
    return "f32";
  case MatmulElement::F64:
    return "f64";
  case MatmulElement::F16:
    return "f16";
  case MatmulElement::BF16:
    return "bf16";
  }
  return "?";
}

/// An uninitialized array from the process's host block cache
/// (HostBlockCache.h): a large operand's widened copy is written into
/// memory a previous call touched, without page faults.
template <typename E> class Scratch {
public:
  Scratch() = default;
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  ~Scratch() { release(); }
  /// Room for `count` elements (the contents of an earlier get are lost
  /// when it grows).
  E *get(int64_t count) {
    std::size_t need = std::max<std::size_t>(count * sizeof(E), 1);
    if (need > bytes) {
      release();
      data = static_cast<E *>(allocateHostBlock(need));
      bytes = need;
    }
    return data;
  }

private:
  void release() {
    if (data)
      deallocateHostBlock(data, bytes);
    data = nullptr;
    bytes = 0;
  }
  E *data = nullptr;
  std::size_t bytes = 0;
};

/// The gemm in compute type T (float for f32/f16/bf16, double for f64).
template <typename T> class GemmRunner {
public:
  GemmRunner(const int64_t *d, const char *lhs, const char *rhs,
             const char *bias, char *out)
      : d(d), element(MatmulElement(d[Element])), lhsBase(lhs), rhsBase(rhs),
        biasBase(bias), outBase(out) {}

  void run(const Gemm &g) {
    std::string why;
    if constexpr (std::is_same_v<T, float>)
      if (element == MatmulElement::BF16 && g.k != 0 && runDnnl(g, why))
        return;
    // Operands BLAS can read in place (T-typed elements only); f16 and
    // bf16 ones widened to T in their own layout where their rows or
    // columns are contiguous; any other packed row-major.
    bool native = sizeof(T) == elementBytes();
    Operand a = operand(lhsPacked, lhsBase, g.lhs, g.m, g.k, g.lhsM,
                             g.lhsK, native);
    Operand b = operand(rhsPacked, rhsBase, g.rhs, g.k, g.n, g.rhsK,
                             g.rhsN, native);
    const T *aData = a.data, *bData = b.data;
    std::optional<MatrixLayout> c =
        native ? getLayout(g.m, g.n, g.outM, g.outN) : std::nullopt;
    if (c && c->transpose != kNoTrans)
      c.reset();
    T *cData;
    bool packedOut = !c;
    if (c) {
      cData = const_cast<T *>(typed(outBase)) + g.out;
    } else {
      cData = outPacked.get(g.m * g.n);
      c = MatrixLayout{kNoTrans, std::max<int64_t>(g.n, 1)};
    }
    bool hasBias = d[HasBias] != 0;
    // The bias, in every row, is what the gemm adds to (beta 1).
    for (int64_t i = 0; hasBias && i < g.m; ++i)
      for (int64_t j = 0; j < g.n; ++j)
        cData[i * c->leading + j] =
            load<T>(element, biasBase, d[BiasOffset] + j * d[BiasStrideN]);
    if (g.k != 0) {
      int threads = useBlasThreads(getBlas());
      if (logGemms())
        llvm::errs() << "fuser matmul: " << getElementName(element) << ' '
                     << g.m << 'x' << g.n << 'x' << g.k << " -> "
                     << (std::is_same_v<T, double> ? "dgemm" : "sgemm")
                     << (native ? "" : " (operands widened to f32)")
                     << (why.empty() ? "" : "; " + why)
                     << getThreadsNote(threads) << '\n';
      gemm(a.layout, b.layout, *c, g, aData, bData, cData,
           hasBias ? T(1) : T(0));
    } else if (!hasBias) {
      for (int64_t i = 0; i < g.m; ++i)
        for (int64_t j = 0; j < g.n; ++j)
          cData[i * c->leading + j] = T(0);
    }
    if (packedOut)
      for (int64_t i = 0; i < g.m; ++i)
        for (int64_t j = 0; j < g.n; ++j)
          store<T>(element, outBase, g.out + i * g.outM + j * g.outN,
                   cData[i * g.n + j]);
  }

private:
  /// An operand as the gemm reads it: its data and layout.
  struct Operand {
    const T *data;
    MatrixLayout layout;
  };

  int64_t elementBytes() const {
    return element == MatmulElement::F64   ? 8
           : element == MatmulElement::F32 ? 4
                                           : 2;
  }
  static const T *typed(const char *base) {
    return reinterpret_cast<const T *>(base);
  }

  /// The rows x cols operand at `offset` with these strides: in place when
  /// `native` and BLAS can read its layout; f16/bf16 widened to T in that
  /// layout (each contiguous line converted in a vectorized loop, on the
  /// run's threads when large); else gathered into a row-major copy.
  Operand operand(Scratch<T> &scratch, const char *base, int64_t offset,
                  int64_t rows, int64_t cols, int64_t rowStride,
                  int64_t colStride, bool native) {
    std::optional<MatrixLayout> layout =
        getLayout(rows, cols, rowStride, colStride);
    if (layout && native)
      return {typed(base) + offset, *layout};
    if (!layout || elementBytes() != 2) {
      T *packed = scratch.get(rows * cols);
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          packed[i * cols + j] =
              load<T>(element, base, offset + i * rowStride + j * colStride);
      return {packed, MatrixLayout{kNoTrans, std::max<int64_t>(cols, 1)}};
    }
    // Lines (rows, or columns of a transposed layout) of `length`
    // contiguous elements, `layout->leading` apart.
    bool transposed = layout->transpose == kTrans;
    int64_t lines = transposed ? cols : rows;
    int64_t length = transposed ? rows : cols;
    T *packed = scratch.get(lines * length);
    if constexpr (std::is_same_v<T, float>) {
      const auto *from = reinterpret_cast<const uint16_t *>(base) + offset;
      float *to = packed;
      int64_t leading = layout->leading;
      MatmulElement kind = element;
      auto widenLines = [=](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
          widenRun(kind, from + i * leading, to + i * length, length);
      };
      unsigned threads = getLibraryThreads();
      if (threads > 1 && lines * length >= kParallelWidenElements)
        runOnThreads(threads, lines, widenLines);
      else
        widenLines(0, lines);
    }
    return {packed,
            MatrixLayout{layout->transpose, std::max<int64_t>(length, 1)}};
  }

  /// The gemm of bf16 operands by oneDNN's matmul primitive, read in
  /// place where their rows or columns are contiguous, the bias added in
  /// f32 and the f32 sums rounded once to bf16 (to nearest even) by
  /// oneDNN. False, with the reason in `why`, where oneDNN is not loaded
  /// or offers no fast implementation: the caller takes the sgemm path.
  bool runDnnl(const Gemm &g, std::string &why) {
    const Dnnl &dnnl = getDnnl();
    if (!dnnl.loaded()) {
      why = "oneDNN: " + dnnl.error;
      return false;
    }
    void *stream = getDnnlStream(dnnl);
    if (!stream) {
      why = "oneDNN: no stream";
      return false;
    }
    const auto *lhs = reinterpret_cast<const uint16_t *>(lhsBase) + g.lhs;
    const auto *rhs = reinterpret_cast<const uint16_t *>(rhsBase) + g.rhs;
    auto *out = reinterpret_cast<uint16_t *>(outBase) + g.out;
    std::optional<MatrixLayout> a = getLayout(g.m, g.k, g.lhsM, g.lhsK);
    std::optional<MatrixLayout> b = getLayout(g.k, g.n, g.rhsK, g.rhsN);
    std::optional<MatrixLayout> c = getLayout(g.m, g.n, g.outM, g.outN);
    bool lhsCopied = false;
    if (!a) {
      lhs = gather(lhsPacked16, lhs, g.m, g.k, g.lhsM, g.lhsK);
      a = MatrixLayout{kNoTrans, g.k};
    } else {
      lhs = alignLines(lhsPacked16, lhs, g.m, g.k, *a, lhsCopied);
    }
    if (!b) {
      rhs = gather(rhsPacked16, rhs, g.k, g.n, g.rhsK, g.rhsN);
      b = MatrixLayout{kNoTrans, g.n};
    }
    uint16_t *dst = out;
    if (!c || c->transpose != kNoTrans) {
      dst = outPacked16.get(g.m * g.n);
      c = MatrixLayout{kNoTrans, g.n};
    }
    bool hasBias = d[HasBias] != 0;
    if (hasBias) {
      biasF32.resize(g.n);
      for (int64_t j = 0; j < g.n; ++j)
        biasF32[j] =
            load<float>(element, biasBase, d[BiasOffset] + j * d[BiasStrideN]);
    }
    DnnlKey key{g.m,         g.n,         g.k,         a->transpose,
                a->leading,  b->transpose, b->leading, c->leading,
                hasBias};
    std::unique_ptr<DnnlMatmul> temporary;
    const DnnlMatmul &matmul = getDnnlMatmul(dnnl, key, temporary);
    if (!matmul.primitive) {
      why = "oneDNN: no fast implementation (" + matmul.implementation + ")";
      return false;
    }
    void *memories[4] = {nullptr, nullptr, nullptr, nullptr};
    dnnl::ExecArg args[4];
    int count = 0;
    bool ok = true;
    auto bind = [&](int arg, DnnlMatmul::Operand operand, const void *data) {
      void *&memory = memories[count];
      ok = ok && dnnl.memoryCreate(&memory, matmul.getDesc(operand),
                                   dnnl.engine,
                                   const_cast<void *>(data)) == 0;
      args[count++] = {arg, memory};
    };
    bind(dnnl::kArgSrc, DnnlMatmul::Src, lhs);
    bind(dnnl::kArgWeights, DnnlMatmul::Weights, rhs);
    bind(dnnl::kArgDst, DnnlMatmul::Dst, dst);
    if (hasBias)
      bind(dnnl::kArgBias, DnnlMatmul::Bias, biasF32.data());
    int threads = useDnnlThreads(dnnl);
    ok = ok &&
         dnnl.primitiveExecute(matmul.primitive, stream, count, args) == 0 &&
         dnnl.streamWait(stream) == 0;
    for (void *memory : memories)
      if (memory)
        dnnl.memoryDestroy(memory);
    if (!ok) {
      why = "oneDNN: the primitive failed";
      return false;
    }
    if (logGemms())
      llvm::errs() << "fuser matmul: bf16 " << g.m << 'x' << g.n << 'x'
                   << g.k << " -> oneDNN " << matmul.implementation
                   << " (lhs " << (a->transpose == kTrans ? 'T' : 'N')
                   << ", rhs " << (b->transpose == kTrans ? 'T' : 'N')
                   << (dst == out ? "" : ", result packed") << ")"
                   << (lhsCopied ? ", lhs copied to a cache line" : "")
                   << getThreadsNote(threads) << '\n';
    if (dst != out)
      for (int64_t i = 0; i < g.m; ++i)
        for (int64_t j = 0; j < g.n; ++j)
          out[i * g.outM + j * g.outN] = dst[i * g.n + j];
    return true;
  }

  /// The lhs (oneDNN's src) at `from`, rows x cols stored in `layout`,
  /// where oneDNN reads it fast: in place, or, where it starts off a cache
  /// line and its lines (rows, or columns where transposed) would all
  /// start on one in an aligned block, copied there in the same layout
  /// (`copied` set). oneDNN 2.6's AMX kernels took a 1024^3 gemm whose src
  /// was 16 bytes off a line (numpy's arrays: malloc's alignment) in
  /// 1.45-1.48 ms against 1.16-1.25 aligned; a weights or dst operand off
  /// a line cost under 0.1 ms, less than its copy would.
  static const uint16_t *alignLines(Scratch<uint16_t> &scratch,
                                    const uint16_t *from, int64_t rows,
                                    int64_t cols, MatrixLayout layout,
                                    bool &copied) {
    constexpr int64_t kLineBytes = 64;
    int64_t lines = layout.transpose == kTrans ? cols : rows;
    int64_t length = layout.transpose == kTrans ? rows : cols;
    if (lines == 0 || length == 0 ||
        reinterpret_cast<uintptr_t>(from) % kLineBytes == 0 ||
        (lines > 1 && layout.leading * 2 % kLineBytes != 0))
      return from;
    int64_t span = (lines - 1) * layout.leading + length;
    uint16_t *into = scratch.get(span);
    std::memcpy(into, from, span * sizeof(uint16_t));
    copied = true;
    return into;
  }

  /// A row-major copy of a rows x cols matrix of 16-bit elements.
  static const uint16_t *gather(Scratch<uint16_t> &scratch,
                                const uint16_t *from, int64_t rows,
                                int64_t cols, int64_t rowStride,
                                int64_t colStride) {
    uint16_t *into = scratch.get(rows * cols);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        into[i * cols + j] = from[i * rowStride + j * colStride];
    return into;
  }

  void gemm(MatrixLayout a, MatrixLayout b, MatrixLayout c, const Gemm &g,
            const T *aData, const T *bData, T *cData, T beta) {
    const Blas &blas = getBlas();
    if constexpr (std::is_same_v<T, double>)
      blas.dgemm(kRowMajor, a.transpose, b.transpose, int(g.m), int(g.n),
                 int(g.k), 1.0, aData, int(a.leading), bData, int(b.leading),
                 beta, cData, int(c.leading));
    else
      blas.sgemm(kRowMajor, a.transpose, b.transpose, int(g.m), int(g.n),
                 int(g.k), 1.0f, aData, int(a.leading), bData,
                 int(b.leading), beta, cData, int(c.leading));
  }

  const int64_t *d;
  MatmulElement element;
  const char *lhsBase, *rhsBase, *biasBase;
  char *outBase;
  Scratch<T> lhsPacked, rhsPacked, outPacked;
  Scratch<uint16_t> lhsPacked16, rhsPacked16, outPacked16;
  std::vector<float> biasF32;
};

template <typename T>
void runBatched(const int64_t *d, const char *lhs, const char *rhs,
                const char *bias, char *out) {
  llvm::SmallVector<GemmBatchDim> batch;
  Gemm g = decodeMatmul(d, batch);
  if (g.m == 0 || g.n == 0)
    return;
  for (const GemmBatchDim &dim : batch)
    if (dim.size == 0)
      return;
  GemmRunner<T> runner(d, lhs, rhs, bias, out);
  // Odometer over the batch dims, outermost first.
  std::vector<int64_t> index(batch.size(), 0);
  while (true) {
    Gemm at = g;
    for (size_t i = 0; i < batch.size(); ++i) {
      at.lhs += index[i] * batch[i].lhs;
      at.rhs += index[i] * batch[i].rhs;
      at.out += index[i] * batch[i].out;
    }
    runner.run(at);
    size_t i = batch.size();
    while (i > 0 && ++index[i - 1] == batch[i - 1].size)
      index[--i] = 0;
    if (i == 0)
      return;
  }
}
/// C = alpha op(A) op(B), row-major and contiguous: A is m x k (k x m when
/// transposed), B k x n (n x k), C m x n.
void sgemmRowMajor(bool transposeA, bool transposeB, int64_t m, int64_t n,
                   int64_t k, float alpha, const float *a, const float *b,
                   float *c) {
  if (m == 0 || n == 0)
    return;
  if (k == 0) {
    std::fill(c, c + m * n, 0.0f);
    return;
  }
  const Blas &blas = getBlas();
  useBlasThreads(blas);
  blas.sgemm(kRowMajor, transposeA ? kTrans : kNoTrans,
             transposeB ? kTrans : kNoTrans, int(m), int(n), int(k), alpha, a,
             int(transposeA ? m : k), b, int(transposeB ? k : n), 0.0f, c,
             int(n));
}

/// The buffers of an attention call and their layouts (the descriptor of
/// LibraryCall.h's AttentionSlot).
class AttentionCall {
public:
  AttentionCall(const int64_t *d, std::vector<intptr_t> addresses)
      : d(d), addresses(std::move(addresses)), rank(d[AttentionRank]),
        element(MatmulElement(d[AttentionElement])) {
    for (int64_t dim = 0; dim < rank - 2; ++dim)
      heads *= d[AttentionFirstBatchDim + dim];
  }

  int64_t l() const { return d[AttentionL]; }
  int64_t s() const { return d[AttentionS]; }
  int64_t e() const { return d[AttentionE]; }
  int64_t ev() const { return d[AttentionEv]; }
  bool masked(int64_t row, int64_t col) const {
    return d[AttentionCausal] != 0 && col > row;
  }
  float scale() const { return getFloat(AttentionScaleBits); }
  int64_t getHeads() const { return heads; }
  bool has(unsigned i) const { return addresses[i] != 0; }

  /// The i64 at element `index` of buffer `i` (a Philox seed or offset).
  int64_t loadI64(unsigned i, int64_t index = 0) const {
    const int64_t *own = slots(i);
    return reinterpret_cast<const int64_t *>(
        addresses[i])[own[0] + index * own[1]];
  }
  void storeI64(unsigned i, int64_t index, int64_t value) const {
    const int64_t *own = slots(i);
    reinterpret_cast<int64_t *>(addresses[i])[own[0] + index * own[1]] =
        value;
  }

  /// The dropout's factors of `head`'s scores (row-major L x S) from the
  /// Philox `seed` and `offset`; empty without dropout.
  void getKeepFactors(uint64_t seed, uint64_t offset, int64_t head,
                      std::vector<float> &into) const {
    if (!d[AttentionHasDropout]) {
      into.clear();
      return;
    }
    int64_t count = l() * s();
    into.resize(count);
    random::fillKeepFactors(seed, offset, uint64_t(head * count), count,
                            getFloat(AttentionDropoutThresholdBits),
                            getFloat(AttentionKeepScaleBits), into.data());
  }

  /// Adds the forward's bias (buffer `bias`) to `head`'s scores and sets
  /// the scores its mask (buffer `mask`) or the causal mask hides to -inf.
  void applyMasks(unsigned bias, unsigned mask, int64_t head,
                  std::vector<float> &scores) const {
    auto [biasAt, biasRow, biasCol] = locate(bias, head);
    auto [maskAt, maskRow, maskCol] = locate(mask, head);
    const auto *biasBase = reinterpret_cast<const char *>(addresses[bias]);
    const auto *maskBase = reinterpret_cast<const uint8_t *>(addresses[mask]);
    for (int64_t i = 0; i < l(); ++i)
      for (int64_t j = 0; j < s(); ++j) {
        float &score = scores[i * s() + j];
        if (masked(i, j) ||
            (maskBase && !maskBase[maskAt + i * maskRow + j * maskCol]))
          score = -INFINITY;
        else if (biasBase)
          score +=
              load<float>(element, biasBase, biasAt + i * biasRow + j * biasCol);
      }
  }

  /// Reads the rows x cols matrix of buffer `i` at `head` (a logsumexp is
  /// L x 1) into `into`, row-major f32; `f32` for the logsumexp.
  void pack(unsigned i, int64_t head, int64_t rows, int64_t cols,
            std::vector<float> &into, bool f32 = false) const {
    into.resize(rows * cols);
    const auto *base = reinterpret_cast<const char *>(addresses[i]);
    auto [at, rowStride, colStride] = locate(i, head);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        into[r * cols + c] =
            load<float>(f32 ? MatmulElement::F32 : element, base,
                        at + r * rowStride + c * colStride);
  }

  /// Writes `from` into buffer `i` at `head`, as pack reads it.
  void unpack(unsigned i, int64_t head, int64_t rows, int64_t cols,
              const std::vector<float> &from, bool f32 = false) const {
    auto *base = reinterpret_cast<char *>(addresses[i]);
    auto [at, rowStride, colStride] = locate(i, head);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        store<float>(f32 ? MatmulElement::F32 : element, base,
                     at + r * rowStride + c * colStride, from[r * cols + c]);
  }

private:
  float getFloat(AttentionSlot slot) const {
    return llvm::bit_cast<float>(uint32_t(d[slot]));
  }
  const int64_t *slots(unsigned i) const {
    return d + AttentionFirstBatchDim + (rank - 2) +
           i * getAttentionBufferSlots(rank);
  }
  /// The element offset of buffer `i` at `head` (batch dims row-major), and
  /// its strides along the last two dims.
  std::tuple<int64_t, int64_t, int64_t> locate(unsigned i,
                                               int64_t head) const {
    const int64_t *own = slots(i);
    int64_t offset = own[0];
    for (int64_t dim = rank - 3; dim >= 0; --dim) {
      int64_t extent = d[AttentionFirstBatchDim + dim];
      offset += (head % extent) * own[1 + dim];
      head /= extent;
    }
    return {offset, own[rank - 1], own[rank]};
  }

  const int64_t *d;
  std::vector<intptr_t> addresses;
  int64_t rank;
  MatmulElement element;
  int64_t heads = 1;
};
} // namespace

const std::string &mlir::fuser::getBlasLoadError() { return getBlas().error; }

const std::string &mlir::fuser::getBlasLibraryName() {
  return getBlas().library;
}

void mlir::fuser::runLibraryMatmul(intptr_t descriptor, intptr_t lhs,
                                   intptr_t rhs, intptr_t bias,
                                   intptr_t out) {
  const auto *d = reinterpret_cast<const int64_t *>(descriptor);
  auto *lhsBase = reinterpret_cast<const char *>(lhs);
  auto *rhsBase = reinterpret_cast<const char *>(rhs);
  auto *biasBase = reinterpret_cast<const char *>(bias);
  auto *outBase = reinterpret_cast<char *>(out);
  if (MatmulElement(d[Element]) == MatmulElement::F64)
    runBatched<double>(d, lhsBase, rhsBase, biasBase, outBase);
  else
    runBatched<float>(d, lhsBase, rhsBase, biasBase, outBase);
}

namespace {
/// The error of the last library call on this thread that found its data
/// wrong (takeLibraryCallError).
thread_local std::optional<LibraryCallError> libraryCallError;
} // namespace

std::optional<LibraryCallError> mlir::fuser::takeLibraryCallError() {
  return std::exchange(libraryCallError, std::nullopt);
}

void mlir::fuser::runLibraryGroupedMm(intptr_t descriptor, intptr_t mat1,
                                      intptr_t mat2, intptr_t offsets,
                                      intptr_t out) {
  const auto *d = reinterpret_cast<const int64_t *>(descriptor);
  const int32_t *ends =
      reinterpret_cast<const int32_t *>(offsets) + d[OffsetsOffset];
  GroupedMm shape = decodeGroupedMm(d);
  if (std::optional<std::string> error =
          checkGroupOffsets(ends, d[OffsetsStride], shape.groups,
                            shape.getGroupedExtent())) {
    libraryCallError = LibraryCallError{d[GroupedCheck], *error};
    return;
  }
  forEachGroupGemm(d, ends, d[OffsetsStride], [&](const GroupGemm &gemm) {
    runLibraryMatmul(reinterpret_cast<intptr_t>(gemm.data()), mat1, mat2,
                     /*bias=*/0, out);
  });
}

void mlir::fuser::runLibraryAttentionForward(
    intptr_t descriptor, intptr_t query, intptr_t key, intptr_t value,
    intptr_t bias, intptr_t mask, intptr_t seed, intptr_t offset,
    intptr_t output, intptr_t logsumexp, intptr_t philoxSeed,
    intptr_t philoxOffset) {
  AttentionCall call(reinterpret_cast<const int64_t *>(descriptor),
                     {query, key, value, bias, mask, seed, offset, output,
                      logsumexp, philoxSeed, philoxOffset});
  // [seed, offset] of the dropout (zeros without one).
  int64_t philox[2] = {call.has(5) ? call.loadI64(5) : 0,
                       call.has(6) ? call.loadI64(6) : 0};
  int64_t l = call.l(), s = call.s(), e = call.e(), ev = call.ev();
  std::vector<float> q, k, v, p(l * s), o(l * ev), lse(l), sums(l), keep;
  for (int64_t head = 0; head < call.getHeads(); ++head) {
    call.pack(0, head, l, e, q);
    call.pack(1, head, s, e, k);
    call.pack(2, head, s, ev, v);
    sgemmRowMajor(false, true, l, s, e, call.scale(), q.data(), k.data(),
                  p.data());
    call.applyMasks(3, 4, head, p);
    call.getKeepFactors(philox[0], philox[1], head, keep);
    // The softmax step: p becomes exp(score - row max) (0 where masked),
    // times the dropout's factor after its sum.
    for (int64_t i = 0; i < l; ++i) {
      float *row = p.data() + i * s;
      float max = -INFINITY;
      for (int64_t j = 0; j < s; ++j)
        max = std::max(max, row[j]);
      float sum = 0;
      for (int64_t j = 0; j < s; ++j) {
        row[j] = max == -INFINITY ? 0.0f : std::exp(row[j] - max);
        sum += row[j];
      }
      if (!keep.empty())
        for (int64_t j = 0; j < s; ++j)
          row[j] *= keep[i * s + j];
      sums[i] = sum;
      lse[i] = max == -INFINITY ? -INFINITY : max + std::log(sum);
    }
    sgemmRowMajor(false, false, l, ev, s, 1.0f, p.data(), v.data(),
                  o.data());
    for (int64_t i = 0; i < l; ++i)
      for (int64_t c = 0; c < ev; ++c)
        o[i * ev + c] = lse[i] == -INFINITY ? 0.0f : o[i * ev + c] / sums[i];
    call.unpack(7, head, l, ev, o);
    call.unpack(8, head, l, 1, lse, /*f32=*/true);
  }
  call.storeI64(9, 0, philox[0]);
  call.storeI64(9, 1, philox[1]);
  call.storeI64(10, 0, 0);
}

void mlir::fuser::runLibraryAttentionBackward(
    intptr_t descriptor, intptr_t gradOutput, intptr_t query, intptr_t key,
    intptr_t value, intptr_t output, intptr_t logsumexp, intptr_t philoxSeed,
    intptr_t philoxOffset, intptr_t gradQuery, intptr_t gradKey,
    intptr_t gradValue) {
  AttentionCall call(reinterpret_cast<const int64_t *>(descriptor),
                     {gradOutput, query, key, value, output, logsumexp,
                      philoxSeed, philoxOffset, gradQuery, gradKey,
                      gradValue});
  auto seed = static_cast<uint64_t>(call.loadI64(6, 0));
  auto offset = static_cast<uint64_t>(call.loadI64(6, 1));
  int64_t l = call.l(), s = call.s(), e = call.e(), ev = call.ev();
  std::vector<float> dout, q, k, v, o, lse, p(l * s), z(l * s), dp(l * s),
      dq(l * e), dk(s * e), dv(s * ev), keep;
  for (int64_t head = 0; head < call.getHeads(); ++head) {
    call.pack(0, head, l, ev, dout);
    call.pack(1, head, l, e, q);
    call.pack(2, head, s, e, k);
    call.pack(3, head, s, ev, v);
    call.pack(4, head, l, ev, o);
    call.pack(5, head, l, 1, lse, /*f32=*/true);
    call.getKeepFactors(seed, offset, head, keep);
    sgemmRowMajor(false, true, l, s, e, call.scale(), q.data(), k.data(),
                  p.data());
    for (int64_t i = 0; i < l; ++i)
      for (int64_t j = 0; j < s; ++j)
        p[i * s + j] =
            call.masked(i, j) ? 0.0f : std::exp(p[i * s + j] - lse[i]);
    // Z = P F: the probabilities the forward's output summed.
    const std::vector<float> *kept = &p;
    if (!keep.empty()) {
      for (int64_t i = 0; i < l * s; ++i)
        z[i] = p[i] * keep[i];
      kept = &z;
    }
    sgemmRowMajor(true, false, s, ev, l, 1.0f, kept->data(), dout.data(),
                  dv.data());
    sgemmRowMajor(false, true, l, s, ev, 1.0f, dout.data(), v.data(),
                  dp.data());
    // dS = P (dP F - rowsum(dO * O)), in place of dP.
    for (int64_t i = 0; i < l; ++i) {
      float d = 0;
      for (int64_t c = 0; c < ev; ++c)
        d += dout[i * ev + c] * o[i * ev + c];
      for (int64_t j = 0; j < s; ++j) {
        float grad = dp[i * s + j];
        if (!keep.empty())
          grad *= keep[i * s + j];
        dp[i * s + j] = p[i * s + j] * (grad - d);
      }
    }
    sgemmRowMajor(false, false, l, e, s, call.scale(), dp.data(), k.data(),
                  dq.data());
    sgemmRowMajor(true, false, s, e, l, call.scale(), dp.data(), q.data(),
                  dk.data());
    call.unpack(8, head, l, e, dq);
    call.unpack(9, head, s, e, dk);
    call.unpack(10, head, s, ev, dv);
  }
}
