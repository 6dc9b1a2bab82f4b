//===- CopyKernel.h - strided copies as kernel nests ------------*- C++ -*-===//
//
// A flat memcpy cannot read a strided view (an alias output): such a copy
// runs as a kernel. The GPU path (fuser-gpu-host-memory) and the memory
// report, which measures what the GPU runs, build it here.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_CONVERSION_FUSERTOGPU_COPYKERNEL_H
#define FUSER_CONVERSION_FUSERTOGPU_COPYKERNEL_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::fuser {

/// Replaces `copy` by `dst[i...] = src[i...]` as a kernel nest mapped to
/// block_x/thread_x, 256 threads per block. When the source is contiguous
/// along another dim than the destination's innermost (a transpose; both
/// extents at least 16), a tiled transpose: per block a 32x32 tile through a
/// workgroup `memref.global`, read along the source's contiguous dim by one
/// thread loop and, after a `gpu.barrier` opening a second thread loop,
/// written along the innermost dim. Otherwise an `scf.parallel (%block,
/// %thread)` nest, one element per thread, row-major, guarded where the grid
/// overhangs. Returns the outer loop (null for an empty copy, which is just
/// erased); needs static shapes, else a diagnostic on the copy.
FailureOr<scf::ParallelOp> replaceWithCopyKernel(memref::CopyOp copy);

} // namespace mlir::fuser

#endif // FUSER_CONVERSION_FUSERTOGPU_COPYKERNEL_H
