//===- LibraryCalls.h - the CPU backend's library calls ----------*- C++ -*-===//
//
// What library segments call on the CPU backend: library::kMatmulFunction
// (fuser/Conversion/LibraryCall.h) runs its batched gemm,
// library::kGroupedMmFunction that gemm per group, and the attention
// functions their heads (sgemm calls around a softmax step), with the CBLAS
// sgemm/dgemm of a BLAS loaded with dlopen at first use (never linked: the
// project builds and runs without one; only a fusion with a library segment
// needs it). $FUSER_BLAS names the library; otherwise OpenBLAS
// (libopenblas.so.0, scripts/setup.sh installs libopenblas-dev), then the
// system's libblas.so.3 (Debian's reference BLAS exports CBLAS too). bf16
// gemms take oneDNN's matmul primitive where libdnnl.so.2 loads (also by
// dlopen, optional: $FUSER_DNNL names the library, `none` turns it off;
// without it they take sgemm on widened operands).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_EXECUTIONENGINE_LIBRARYCALLS_H
#define FUSER_EXECUTIONENGINE_LIBRARYCALLS_H

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::fuser {

/// Loads the BLAS once per process; the empty string when it is loaded,
/// else why not (starts with "no BLAS found").
const std::string &getBlasLoadError();

/// The path of the BLAS library loaded (empty when none is).
const std::string &getBlasLibraryName();

/// library::kMatmulFunction: the gemm that `descriptor` states over the
/// buffers at these addresses. The BLAS must be loaded (getBlasLoadError).
void runLibraryMatmul(intptr_t descriptor, intptr_t lhs, intptr_t rhs,
                      intptr_t bias, intptr_t out);

/// library::kGroupedMmFunction: a gemm per non-empty group of the
/// fuser.grouped_mm that `descriptor` states, zeros past the last offset.
/// Offsets that break the rule (checkGroupOffsets) compute nothing and
/// leave a LibraryCallError. The BLAS must be loaded.
void runLibraryGroupedMm(intptr_t descriptor, intptr_t mat1, intptr_t mat2,
                         intptr_t offsets, intptr_t out);

/// What a library call found wrong in its data: the op's number in the
/// module's kIndexChecksAttr list, and the message.
struct LibraryCallError {
  int64_t check;
  std::string message;
};

/// The error the last failing library call on this thread left, cleared;
/// nullopt when none did since the last take.
std::optional<LibraryCallError> takeLibraryCallError();

/// library::kAttentionForwardFunction: fuser.sdpfa_fwd as `descriptor`
/// states it over the buffers at these addresses. The BLAS must be loaded.
void runLibraryAttentionForward(intptr_t descriptor, intptr_t query,
                                intptr_t key, intptr_t value, intptr_t bias,
                                intptr_t mask, intptr_t seed, intptr_t offset,
                                intptr_t output, intptr_t logsumexp,
                                intptr_t philoxSeed, intptr_t philoxOffset);

/// library::kAttentionBackwardFunction: fuser.sdpfa_bwd likewise.
void runLibraryAttentionBackward(intptr_t descriptor, intptr_t gradOutput,
                                 intptr_t query, intptr_t key, intptr_t value,
                                 intptr_t output, intptr_t logsumexp,
                                 intptr_t philoxSeed, intptr_t philoxOffset,
                                 intptr_t gradQuery, intptr_t gradKey,
                                 intptr_t gradValue);

} // namespace mlir::fuser

#endif // FUSER_EXECUTIONENGINE_LIBRARYCALLS_H
