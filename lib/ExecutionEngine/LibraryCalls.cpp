//===- LibraryCalls.cpp - library segments on the CPU: a BLAS gemm --------===//
//
// runLibraryMatmul reads the descriptor of convert-fuser-to-scf's library
// call (fuser/Conversion/LibraryCall.h) and makes one CBLAS gemm per batch
// element, row-major:
// - batch dims that the rhs broadcasts and that continue the lhs's and the
//   result's rows fold into M (a linear over [B, S, K] is one gemm);
// - an operand whose rows or columns are contiguous is passed as it lies,
//   transposed or not, with its leading dimension; any other (a broadcast,
//   a stride in both dims) is packed into a contiguous copy first;
// - f32 calls sgemm, f64 dgemm; f16 and bf16 are converted to f32 around
//   the call (operands widened exactly, the f32 result rounded once to the
//   element type), so they accumulate in f32 as cuBLAS's compute type 32F;
// - the bias is preloaded into the result and the gemm adds to it (beta 1);
// - K = 0 writes the bias, or +0.0, without a call.
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/LibraryCalls.h"
#include "fuser/Conversion/LibraryCall.h"
#include "fuser/ExecutionEngine/Elements.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
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

/// One gemm's operands: their bases in elements and strides.
struct Gemm {
  int64_t m, n, k;
  int64_t lhs, lhsM, lhsK, rhs, rhsK, rhsN, out, outM, outN;
};

/// The gemm in compute type T (float for f32/f16/bf16, double for f64).
template <typename T> class GemmRunner {
public:
  GemmRunner(const int64_t *d, const char *lhs, const char *rhs,
             const char *bias, char *out)
      : d(d), element(MatmulElement(d[Element])), lhsBase(lhs), rhsBase(rhs),
        biasBase(bias), outBase(out) {}

  void run(const Gemm &g) {
    // Operands BLAS can read in place (T-typed elements only), else
    // packed row-major.
    bool native = sizeof(T) == elementBytes();
    std::optional<MatrixLayout> a =
        native ? getLayout(g.m, g.k, g.lhsM, g.lhsK) : std::nullopt;
    std::optional<MatrixLayout> b =
        native ? getLayout(g.k, g.n, g.rhsK, g.rhsN) : std::nullopt;
    std::optional<MatrixLayout> c =
        native ? getLayout(g.m, g.n, g.outM, g.outN) : std::nullopt;
    if (c && c->transpose != kNoTrans)
      c.reset();
    const T *aData = a ? typed(lhsBase) + g.lhs
                       : pack(lhsPacked, lhsBase, g.lhs, g.m, g.k, g.lhsM,
                              g.lhsK);
    const T *bData = b ? typed(rhsBase) + g.rhs
                       : pack(rhsPacked, rhsBase, g.rhs, g.k, g.n, g.rhsK,
                              g.rhsN);
    if (!a)
      a = MatrixLayout{kNoTrans, std::max<int64_t>(g.k, 1)};
    if (!b)
      b = MatrixLayout{kNoTrans, std::max<int64_t>(g.n, 1)};
    T *cData;
    if (c) {
      cData = const_cast<T *>(typed(outBase)) + g.out;
    } else {
      outPacked.assign(g.m * g.n, T(0));
      cData = outPacked.data();
      c = MatrixLayout{kNoTrans, std::max<int64_t>(g.n, 1)};
    }
    bool hasBias = d[HasBias] != 0;
    // The bias, in every row, is what the gemm adds to (beta 1).
    for (int64_t i = 0; hasBias && i < g.m; ++i)
      for (int64_t j = 0; j < g.n; ++j)
        cData[i * c->leading + j] =
            load<T>(element, biasBase, d[BiasOffset] + j * d[BiasStrideN]);
    if (g.k != 0)
      gemm(*a, *b, *c, g, aData, bData, cData, hasBias ? T(1) : T(0));
    else if (!hasBias)
      for (int64_t i = 0; i < g.m; ++i)
        for (int64_t j = 0; j < g.n; ++j)
          cData[i * c->leading + j] = T(0);
    if (cData == outPacked.data())
      for (int64_t i = 0; i < g.m; ++i)
        for (int64_t j = 0; j < g.n; ++j)
          store<T>(element, outBase, g.out + i * g.outM + j * g.outN,
                   outPacked[i * g.n + j]);
  }

private:
  int64_t elementBytes() const {
    return element == MatmulElement::F64   ? 8
           : element == MatmulElement::F32 ? 4
                                           : 2;
  }
  static const T *typed(const char *base) {
    return reinterpret_cast<const T *>(base);
  }
  const T *pack(std::vector<T> &into, const char *base, int64_t offset,
                int64_t rows, int64_t cols, int64_t rowStride,
                int64_t colStride) {
    into.resize(rows * cols);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        into[i * cols + j] =
            load<T>(element, base, offset + i * rowStride + j * colStride);
    return into.data();
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
  std::vector<T> lhsPacked, rhsPacked, outPacked;
};

struct BatchDim {
  int64_t size, lhs, rhs, out;
};

template <typename T>
void runBatched(const int64_t *d, const char *lhs, const char *rhs,
                const char *bias, char *out) {
  Gemm g{d[M],         d[N],          d[K],          d[LhsOffset],
         d[LhsStrideM], d[LhsStrideK], d[RhsOffset], d[RhsStrideK],
         d[RhsStrideN], d[OutOffset],  d[OutStrideM], d[OutStrideN]};
  std::vector<BatchDim> batch;
  for (int64_t i = 0; i < d[BatchRank]; ++i) {
    const int64_t *dim = d + FirstBatchDim + i * BatchSlots;
    batch.push_back({dim[BatchSize], dim[BatchLhsStride], dim[BatchRhsStride],
                     dim[BatchOutStride]});
  }
  // Fold the innermost batch dims into M while the rhs broadcasts them and
  // they continue the lhs's and the result's rows.
  while (!batch.empty()) {
    const BatchDim &inner = batch.back();
    bool rows = g.m == 1 || (inner.lhs == g.m * g.lhsM &&
                             inner.out == g.m * g.outM);
    if (inner.rhs != 0 || !rows)
      break;
    if (g.m == 1) {
      g.lhsM = inner.lhs;
      g.outM = inner.out;
    }
    g.m *= inner.size;
    batch.pop_back();
  }
  if (g.m == 0 || g.n == 0)
    return;
  for (const BatchDim &dim : batch)
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
