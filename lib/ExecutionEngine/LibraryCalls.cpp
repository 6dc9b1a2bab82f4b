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
// runLibraryAttentionForward/Backward compute each head of fuser.sdpfa_fwd
// and fuser.sdpfa_bwd (the heads one after another, each gemm on BLAS's
// threads): operands packed into row-major f32 (widened exactly), the
// products by sgemm (the scale as its alpha) and the softmax step here,
// results rounded once to their element type:
// - forward: S = scale Q K^T; per row the mask, the max m, P = exp(S - m)
//   and its sum l, logsumexp m + log(l); O = (P V) / l;
// - backward: P = exp(scale Q K^T - logsumexp) (0 where masked),
//   dV = P^T dO, dP = dO V^T, D = rowsum(dO * O), dS = P (dP - D),
//   dQ = scale dS K, dK = scale dS^T Q.
// The Philox seed and offset are zeros (only dropout_p = 0 is lowered).
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/LibraryCalls.h"
#include "fuser/Conversion/LibraryCall.h"
#include "fuser/ExecutionEngine/Elements.h"
#include "fuser/ExecutionEngine/MatmulDescriptor.h"

#include "llvm/ADT/bit.h"

#include <cmath>
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
  getBlas().sgemm(kRowMajor, transposeA ? kTrans : kNoTrans,
                  transposeB ? kTrans : kNoTrans, int(m), int(n), int(k),
                  alpha, a, int(transposeA ? m : k), b,
                  int(transposeB ? k : n), 0.0f, c, int(n));
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
  float scale() const {
    return llvm::bit_cast<float>(uint32_t(d[AttentionScaleBits]));
  }
  int64_t getHeads() const { return heads; }

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

  /// Zeros the Philox seed (buffer `seed`, 2 elements) and offset (the next).
  void zeroPhilox(unsigned seed) const {
    auto *seedBase = reinterpret_cast<int64_t *>(addresses[seed]);
    const int64_t *seedSlots = slots(seed);
    seedBase[seedSlots[0]] = 0;
    seedBase[seedSlots[0] + seedSlots[1]] = 0;
    reinterpret_cast<int64_t *>(addresses[seed + 1])[slots(seed + 1)[0]] = 0;
  }

private:
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

void mlir::fuser::runLibraryAttentionForward(
    intptr_t descriptor, intptr_t query, intptr_t key, intptr_t value,
    intptr_t output, intptr_t logsumexp, intptr_t philoxSeed,
    intptr_t philoxOffset) {
  AttentionCall call(reinterpret_cast<const int64_t *>(descriptor),
                     {query, key, value, output, logsumexp, philoxSeed,
                      philoxOffset});
  int64_t l = call.l(), s = call.s(), e = call.e(), ev = call.ev();
  std::vector<float> q, k, v, p(l * s), o(l * ev), lse(l), sums(l);
  for (int64_t head = 0; head < call.getHeads(); ++head) {
    call.pack(0, head, l, e, q);
    call.pack(1, head, s, e, k);
    call.pack(2, head, s, ev, v);
    sgemmRowMajor(false, true, l, s, e, call.scale(), q.data(), k.data(),
                  p.data());
    // The softmax step: p becomes exp(score - row max), 0 where masked.
    for (int64_t i = 0; i < l; ++i) {
      float *row = p.data() + i * s;
      float max = -INFINITY;
      for (int64_t j = 0; j < s; ++j)
        if (!call.masked(i, j))
          max = std::max(max, row[j]);
      float sum = 0;
      for (int64_t j = 0; j < s; ++j) {
        row[j] = call.masked(i, j) || max == -INFINITY
                     ? 0.0f
                     : std::exp(row[j] - max);
        sum += row[j];
      }
      sums[i] = sum;
      lse[i] = max == -INFINITY ? -INFINITY : max + std::log(sum);
    }
    sgemmRowMajor(false, false, l, ev, s, 1.0f, p.data(), v.data(),
                  o.data());
    for (int64_t i = 0; i < l; ++i)
      for (int64_t c = 0; c < ev; ++c)
        o[i * ev + c] = lse[i] == -INFINITY ? 0.0f : o[i * ev + c] / sums[i];
    call.unpack(3, head, l, ev, o);
    call.unpack(4, head, l, 1, lse, /*f32=*/true);
  }
  call.zeroPhilox(5);
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
  int64_t l = call.l(), s = call.s(), e = call.e(), ev = call.ev();
  std::vector<float> dout, q, k, v, o, lse, p(l * s), dp(l * s), dq(l * e),
      dk(s * e), dv(s * ev);
  for (int64_t head = 0; head < call.getHeads(); ++head) {
    call.pack(0, head, l, ev, dout);
    call.pack(1, head, l, e, q);
    call.pack(2, head, s, e, k);
    call.pack(3, head, s, ev, v);
    call.pack(4, head, l, ev, o);
    call.pack(5, head, l, 1, lse, /*f32=*/true);
    sgemmRowMajor(false, true, l, s, e, call.scale(), q.data(), k.data(),
                  p.data());
    for (int64_t i = 0; i < l; ++i)
      for (int64_t j = 0; j < s; ++j)
        p[i * s + j] =
            call.masked(i, j) ? 0.0f : std::exp(p[i * s + j] - lse[i]);
    sgemmRowMajor(true, false, s, ev, l, 1.0f, p.data(), dout.data(),
                  dv.data());
    sgemmRowMajor(false, true, l, s, ev, 1.0f, dout.data(), v.data(),
                  dp.data());
    // dS = P (dP - rowsum(dO * O)), in place of dP.
    for (int64_t i = 0; i < l; ++i) {
      float d = 0;
      for (int64_t c = 0; c < ev; ++c)
        d += dout[i * ev + c] * o[i * ev + c];
      for (int64_t j = 0; j < s; ++j)
        dp[i * s + j] = p[i * s + j] * (dp[i * s + j] - d);
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
